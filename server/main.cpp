// Entry point: `--cli <tool> ...` runs one tool; `--help` / `--version` print; no arguments or `--stdio`
// serve MCP on stdio; `--http` serves MCP over HTTP; `hook elicitation` is the sidecar-writing Claude Code
// hook.
#include <tbb/global_control.h>

#include <unistd.h>

#include <cstdlib>
#include <iostream>
#include <memory>
#include <string_view>

#include "server/cli.h"
#include "server/hook_elicitation.h"
#include "server/version.h"

#include "server/mcp_entry.h"
#include "tools/dispatch/tool_table.h"

namespace {

// A server's flags come in any order (`--claude-home DIR --http`): `--http` anywhere picks HTTP.
int serve(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (std::string_view(argv[i]) == "--http") return csift::run_http_server(argc, argv);
  }
  return csift::run_stdio_server(argc, argv);
}

bool is_server_flag(std::string_view arg) {
  return arg == "--stdio" || arg == "--http" || arg == "--claude-home" ||
         arg.rfind("--claude-home=", 0) == 0 || arg == "--scan-memo-mb" ||
         arg.rfind("--scan-memo-mb=", 0) == 0 || arg == "--result-memo-mb" ||
         arg.rfind("--result-memo-mb=", 0) == 0 || arg == "--watch-stamps" || arg == "--no-watch-stamps" ||
         arg == "--warm-up" || arg == "--no-warm-up" || arg == "--structured-content" ||
         arg.rfind("--structured-content=", 0) == 0 || arg == "--max-answer-chars" ||
         arg.rfind("--max-answer-chars=", 0) == 0 || arg == "--disk-cache-mb" ||
         arg.rfind("--disk-cache-mb=", 0) == 0 || arg == "--disk-cache-dir" ||
         arg.rfind("--disk-cache-dir=", 0) == 0;
}

// CSIFT_THREADS=N (N >= 1) caps every TBB parallel loop at N worker threads for the whole process; unset
// or invalid leaves TBB's default (all cores).
std::unique_ptr<tbb::global_control> thread_limit_from_env() {
  const char* v = std::getenv("CSIFT_THREADS");
  if (v == nullptr || *v == '\0') return nullptr;
  char* end = nullptr;
  long n = std::strtol(v, &end, 10);
  if (*end != '\0' || n < 1) {
    std::cerr << "csift-mcp: ignoring CSIFT_THREADS='" << v << "' (want a positive integer)\n";
    return nullptr;
  }
  return std::make_unique<tbb::global_control>(tbb::global_control::max_allowed_parallelism,
                                               static_cast<size_t>(n));
}

// A server's heap on transparent huge pages: a fresh server's first call fills its memos (on the 3 GiB corpus
// replica, 4,503 screens from the disk cache), and on this virtual machine each 4 KiB page fault costs ~5 us:
// with jemalloc's THP the first absent search made 3,800 faults instead of 22,700 and took half the CPU
// (SPEC.md §7 "Huge pages for a server"). jemalloc reads its options once, before main, so the server
// re-executes itself with MALLOC_CONF set; the CLI keeps the default, as its cold peak memory is bounded
// (issue 17) and THP raises it. A MALLOC_CONF the user set (even empty) is kept, and CSIFT_NO_HUGE_PAGES=1
// opts out.
void reexec_with_huge_pages(char** argv) {
#ifdef CSIFT_JEMALLOC_LINKED
  if (std::getenv("MALLOC_CONF") != nullptr || std::getenv("CSIFT_NO_HUGE_PAGES") != nullptr) return;
  if (::setenv("MALLOC_CONF", "thp:always,metadata_thp:always", 1) != 0) return;
  // The resolved path, not /proc/self/exe itself: the kernel names a process after the file it executes, and
  // every server would show in ps and top as "exe". A binary replaced since it started reads "… (deleted)".
  char self[4096];
  const ssize_t n = ::readlink("/proc/self/exe", self, sizeof self - 1);
  const bool resolved = n > 0 && static_cast<size_t>(n) < sizeof self - 1 &&
                        !std::string_view(self, static_cast<size_t>(n)).ends_with(" (deleted)");
  if (resolved) self[n] = '\0';
  ::execv(resolved ? self : "/proc/self/exe", argv);
  ::unsetenv("MALLOC_CONF");  // no /proc: serve as we are
#else
  (void)argv;
#endif
}

}  // namespace

int main(int argc, char** argv) {
  const std::string_view mode = argc > 1 ? std::string_view(argv[1]) : std::string_view("--stdio");
  if (is_server_flag(mode)) reexec_with_huge_pages(argv);
  // A server checks every tool's schemas at start (both present, commons not redefined): a build with a
  // broken schema says so once and exits, instead of failing whichever request touched it first. A CLI run
  // or a hook lives for one call and parses only the schemas that call reads (each checked as it is parsed).
  try {
    if (is_server_flag(mode))
      csift::check_tool_schemas();
    else
      csift::tool_table();
  } catch (const std::exception& e) {
    std::cerr << "csift-mcp: the built-in tool table is invalid: " << e.what() << "\n";
    return 1;
  }
  const auto thread_limit = thread_limit_from_env();
  if (mode == "--cli") return csift::run_cli(argc - 2, argv + 2);
  if (mode == "hook") {
    if (argc > 2 && std::string_view(argv[2]) == "elicitation") return csift::run_elicitation_hook(std::cin);
    std::cerr
        << "csift-mcp hook: the one hook is `csift-mcp hook elicitation` (reads a Claude Code hook payload "
           "on stdin and appends to the session's elicitation sidecar)\n";
    return 1;
  }
  if (mode == "--help" || mode == "-h") {
    std::cout << csift::render_top_help();
    return 0;
  }
  if (mode == "--version" || mode == "-V") {
    std::cout << csift::kServerName << " " << csift::server_version() << "\n";
    return 0;
  }
  if (is_server_flag(mode)) return serve(argc, argv);
  // A tool name where a mode belongs is the most common slip (`csift-mcp list`): say the line that works.
  if (csift::find_tool(mode)) {
    std::cerr << "csift-mcp: '" << mode << "' is a tool, not a mode; run it as `csift-mcp --cli " << mode
              << " ...` (see `csift-mcp --cli " << mode << " --help`)\n";
    return 2;
  }
  std::cerr << "csift-mcp: unknown mode '" << mode << "'\n\n" << csift::render_top_help();
  return 2;
}
