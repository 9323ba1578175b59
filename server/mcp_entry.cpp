// Flags and process plumbing for the two transports: argument parsing, the environment the tools see, the
// safe-by-default bind rules, and SIGINT/SIGTERM draining for HTTP.
#include "server/mcp_entry.h"

#include <pthread.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <thread>

#include "core/cache/disk_cache.h"
#include "core/cache/result_memo.h"
#include "core/cache/scan_memo.h"
#include "core/search/search_label_census.h"
#include "core/store/discovery_memo.h"
#include "core/store/store_warm_up.h"
#include "core/store/watched_stamps.h"
#include "server/http_security.h"
#include "server/http_transport.h"
#include "server/stdio_transport.h"
#include "server/version.h"

namespace csift {
namespace {

// What a result carries and how large it may be: `--structured-content` and `--max-answer-chars`.
struct AnswerFlags {
  StructuredMode structured = StructuredMode::automatic;
  std::optional<int64_t> max_answer_chars;  // the ceiling when given (0: none), else answer_ceiling()
};

// `claude_home` is the server's --claude-home ("" when not given): the home of every call that names none.
ServerOptions server_options(const std::string& claude_home, CallerLink caller, const AnswerFlags& answers) {
  ServerOptions options;
  options.env = Environment::from_process();
  options.structured = answers.structured;
  // A stdio server inherits Claude Code's environment, MAX_MCP_OUTPUT_TOKENS included; an HTTP server's
  // clients do not share its environment, and --max-answer-chars says what they take.
  options.answer_ceiling = answers.max_answer_chars.value_or(answer_ceiling(options.env));
  options.env.claude_home = claude_home;
  // Who is calling: a stdio server's caller spawned it (Claude Code's session registry names the session of
  // an ancestor process); an HTTP server has no process relation to its callers.
  options.env.caller = caller;
  if (caller == CallerLink::spawning_process) options.env.caller_pid = static_cast<int>(getppid());
  // Test hook: a small page size exercises tools/list paging with the few tools the table holds.
  if (auto page = options.env.get("CSIFT_MCP_PAGE_SIZE"))
    options.page_size = std::strtoull(page->c_str(), nullptr, 10);
  return options;
}

// `--name value` or `--name=value`; advances i past a separate value.
std::optional<std::string> flag_value(int argc, char** argv, int& i, const std::string& name) {
  const std::string arg = argv[i];
  if (arg.rfind(name + "=", 0) == 0) return arg.substr(name.size() + 1);
  if (arg != name) return std::nullopt;
  if (i + 1 >= argc) throw std::invalid_argument(name + " needs a value");
  return std::string(argv[++i]);
}

// `--claude-home DIR`: must name an existing directory, checked once at start so a typo fails loudly
// instead of every call answering from an empty store.
std::string checked_claude_home(const std::string& dir) {
  Environment env = Environment::from_process();
  env.claude_home = dir;
  const std::string home = resolve_claude_home(std::nullopt, env);
  std::error_code ec;
  if (!std::filesystem::is_directory(home, ec))
    throw std::invalid_argument("--claude-home " + home + ": no such directory (it should hold projects/)");
  return home;
}

// A flag's value as a whole number in 0..max; else the error says what the flag takes (`takes`).
uint64_t whole_number_of(const std::string& flag, const std::string& v, uint64_t max,
                         const std::string& takes) {
  const bool digits = !v.empty() && v.size() <= 19 && v.find_first_not_of("0123456789") == std::string::npos;
  if (!digits || std::stoull(v) > max) throw std::invalid_argument(flag + " '" + v + "': takes " + takes);
  return std::stoull(v);
}

// A memo budget flag's value in MiB, 0..1048576 (0 turns that memo off).
size_t memo_budget_of(const std::string& flag, const std::string& v) {
  return static_cast<size_t>(
             whole_number_of(flag, v, 1ull << 20, "a whole number of MiB, 0..1048576 (0 turns the memo off)"))
         << 20;
}

// `--structured-content auto|always|never` (StructuredMode) and `--max-answer-chars N` (0..1000000000, 0:
// no ceiling): takes argv[i] (and its value) when it is one of them.
bool take_answer_flag(int argc, char** argv, int& i, AnswerFlags& flags) {
  if (auto v = flag_value(argc, argv, i, "--structured-content")) {
    const auto parsed = structured_mode_of(*v);
    if (!parsed)
      throw std::invalid_argument("--structured-content '" + *v + "': takes auto, always or never");
    flags.structured = *parsed;
    return true;
  }
  if (auto v = flag_value(argc, argv, i, "--max-answer-chars")) {
    flags.max_answer_chars = static_cast<int64_t>(whole_number_of(
        "--max-answer-chars", *v, 1000000000, "a whole number of characters, 0..1000000000 (0: no ceiling)"));
    return true;
  }
  return false;
}

// The budgets of the two memos a server keeps across calls: `--scan-memo-mb N` (whole-file search screens)
// and `--result-memo-mb N` (list probes and stats tallies).
struct MemoBudgets {
  size_t scan = kDefaultScanMemoBytes;
  size_t result = kDefaultResultMemoBytes;
  // `--watch-stamps` (the default): transcript and meta.json stamps kept by change notices; off with
  // `--no-watch-stamps`. The watches are added on their own thread while no call is under way, so a fresh
  // server's first call costs what it did without them, and the warm repeats stat only directories
  // (SPEC §7 "Watched stamps").
  bool watch_stamps = true;
  // `--warm-up` (the default): the store walked and its screens, list probes and label censuses taken from
  // the disk cache before the first call, once the server has been quiet for a moment; off with
  // `--no-warm-up` (SPEC §7 "The warm-up").
  bool warm_up = true;
  // `--uncalled-watches-s N`: how long the watches the warm-up adds are held while no call comes (600 by
  // default; 0: the warm-up adds none, and the first call walks as before the watches).
  uint64_t uncalled_watches_s = StoreWarmUp::kUncalledWatchesNs / 1'000'000'000;
  // `--disk-cache-mb N` and `--disk-cache-dir DIR`: the persisted cache every server and CLI run share.
  uint64_t disk = kDefaultDiskCacheBytes;
  std::string disk_dir;
};

// The flags both servers take (take_memo_flag's and take_answer_flag's), as their usage errors name them.
constexpr const char* kSharedServerFlags =
    "--scan-memo-mb N, --result-memo-mb N, --watch-stamps, --no-watch-stamps, --warm-up, --no-warm-up, "
    "--uncalled-watches-s N, --disk-cache-mb N, --disk-cache-dir DIR, --structured-content "
    "auto|always|never, --max-answer-chars N";

// Takes argv[i] (and its value) when it is a memo budget flag.
bool take_memo_flag(int argc, char** argv, int& i, MemoBudgets& budgets) {
  if (std::string_view(argv[i]) == "--watch-stamps" || std::string_view(argv[i]) == "--no-watch-stamps") {
    budgets.watch_stamps = std::string_view(argv[i]) == "--watch-stamps";
    return true;
  }
  if (std::string_view(argv[i]) == "--warm-up" || std::string_view(argv[i]) == "--no-warm-up") {
    budgets.warm_up = std::string_view(argv[i]) == "--warm-up";
    return true;
  }
  if (auto v = flag_value(argc, argv, i, "--uncalled-watches-s")) {
    budgets.uncalled_watches_s = whole_number_of("--uncalled-watches-s", *v, 86'400,
                                                 "a whole number of seconds, 0..86400 (0: no watches before "
                                                 "the first call)");
    return true;
  }
  if (auto v = flag_value(argc, argv, i, "--scan-memo-mb")) {
    budgets.scan = memo_budget_of("--scan-memo-mb", *v);
    return true;
  }
  if (auto v = flag_value(argc, argv, i, "--result-memo-mb")) {
    budgets.result = memo_budget_of("--result-memo-mb", *v);
    return true;
  }
  for (const char* flag : {"--disk-cache-mb", "--disk-cache-dir"})
    if (auto v = flag_value(argc, argv, i, flag)) {
      take_disk_cache_value(flag, *v, budgets.disk, budgets.disk_dir);
      return true;
    }
  return false;
}

// `claude_home`: the server's --claude-home ("" when not given); the cache never lies inside it.
void install_memos(const MemoBudgets& budgets, const std::string& claude_home) {
  install_scan_memo(budgets.scan);
  install_result_memo(budgets.result);
  // Discovery's listings and meta.json fields are small and kept beside the results they lead to: on with
  // the result memo, under a fixed bound.
  install_discovery_memo(budgets.result ? kDefaultDiscoveryMemoBytes : 0);
  // Transcript stamps kept by change notices instead of a stat per file per call: with the memos they key.
  install_watched_stamps(budgets.result != 0 && budgets.watch_stamps);
  install_disk_cache(budgets.disk_dir, budgets.disk, /*reported=*/true,
                     {resolve_claude_home(claude_home.empty() ? std::nullopt : std::optional(claude_home),
                                          Environment::from_process())});
}

void report_memos() {
  if (const ScanMemo* memo = process_scan_memo())
    std::fprintf(stderr, "csift-mcp: scan memo budget %zu MiB (--scan-memo-mb)\n",
                 memo->usage().budget >> 20);
  if (const ResultMemo* memo = process_result_memo())
    std::fprintf(stderr, "csift-mcp: result memo budget %zu MiB (--result-memo-mb)\n",
                 memo->usage().budget >> 20);
  if (const DiskCache* disk = process_disk_cache())
    std::fprintf(stderr, "csift-mcp: disk cache %s, budget %llu MiB (--disk-cache-mb, --disk-cache-dir)\n",
                 disk->path().c_str(), static_cast<unsigned long long>(disk->totals().budget >> 20));
}

HttpOptions parse_http_flags(int argc, char** argv, std::string& claude_home, MemoBudgets& memo_budgets,
                             AnswerFlags& answers) {
  HttpOptions o;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--http") continue;
    if (auto v = flag_value(argc, argv, i, "--claude-home")) {
      claude_home = checked_claude_home(*v);
    } else if (auto v = flag_value(argc, argv, i, "--host")) {
      o.host = *v;
    } else if (auto v = flag_value(argc, argv, i, "--port")) {
      size_t used = 0;
      const int port = std::stoi(*v, &used);
      if (used != v->size() || port < 0 || port > 65535) throw std::invalid_argument("--port takes 0..65535");
      o.port = port;
    } else if (auto v = flag_value(argc, argv, i, "--token")) {
      o.token = *v;
    } else if (!take_memo_flag(argc, argv, i, memo_budgets) && !take_answer_flag(argc, argv, i, answers)) {
      throw std::invalid_argument("unknown flag '" + arg +
                                  "' (valid: --http, --host H, --port N, --token T, --claude-home DIR, " +
                                  kSharedServerFlags + ")");
    }
  }
  if (o.token.empty()) {
    if (const char* t = std::getenv("CSIFT_MCP_TOKEN")) o.token = t;
  }
  return o;
}

// Blocks SIGINT/SIGTERM in every thread started after this, and turns their arrival into `flag`.
void watch_stop_signals(std::atomic<bool>& flag) {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  std::thread([set, &flag] {
    int sig = 0;
    if (sigwait(&set, &sig) == 0) {
      std::fprintf(stderr, "csift-mcp: %s: draining requests under way, then exiting\n",
                   sig == SIGINT ? "SIGINT" : "SIGTERM");
      flag.store(true);
    }
  }).detach();
}

}  // namespace

void take_disk_cache_value(const std::string& flag, const std::string& value, uint64_t& budget_bytes,
                           std::string& dir) {
  if (flag == "--disk-cache-mb") {
    budget_bytes = memo_budget_of(flag, value);
  } else {
    if (value.empty() || value[0] != '/') throw std::invalid_argument(flag + " takes an absolute path");
    dir = value;
  }
}

int run_stdio_server(int argc, char** argv) {
  std::string claude_home;
  MemoBudgets memo_budgets;
  AnswerFlags answers;
  try {
    for (int i = 1; i < argc; ++i) {
      if (std::string(argv[i]) == "--stdio") continue;
      if (auto v = flag_value(argc, argv, i, "--claude-home")) {
        claude_home = checked_claude_home(*v);
        continue;
      }
      if (take_memo_flag(argc, argv, i, memo_budgets)) continue;
      if (take_answer_flag(argc, argv, i, answers)) continue;
      throw std::invalid_argument("unknown flag '" + std::string(argv[i]) +
                                  "' for the stdio server (valid: --stdio, --claude-home DIR, " +
                                  kSharedServerFlags + ")");
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "csift-mcp: %s\n", e.what());
    return 2;
  }
  install_memos(memo_budgets, claude_home);
  const ServerOptions options = server_options(claude_home, CallerLink::spawning_process, answers);
  McpServer server(options);
  std::fprintf(stderr, "csift-mcp %s: serving MCP on stdio\n", server_version());
  report_memos();
  const StoreWarmUp warm_up(options.env, memo_budgets.warm_up, census_warm_up_step(),
                            static_cast<int64_t>(memo_budgets.uncalled_watches_s) * 1'000'000'000);
  return serve_stdio(server, stdin, stdout);
}

int run_http_server(int argc, char** argv) {
  HttpOptions options;
  std::string claude_home;
  MemoBudgets memo_budgets;
  AnswerFlags answers;
  try {
    options = parse_http_flags(argc, argv, claude_home, memo_budgets, answers);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "csift-mcp: %s\n", e.what());
    return 2;
  }
  if (!is_loopback_host(options.host) && options.token.empty()) {
    std::fprintf(
        stderr,
        "csift-mcp: refusing to bind non-loopback address '%s' without a bearer token: set CSIFT_MCP_TOKEN "
        "(or pass --token T, which other local users can read in ps)\n",
        options.host.c_str());
    return 2;
  }
  static std::atomic<bool> stop{false};
  watch_stop_signals(stop);
  install_memos(memo_budgets, claude_home);
  report_memos();
  const ServerOptions server_opts = server_options(claude_home, CallerLink::network, answers);
  McpServer server(server_opts);
  const StoreWarmUp warm_up(server_opts.env, memo_budgets.warm_up, census_warm_up_step(),
                            static_cast<int64_t>(memo_budgets.uncalled_watches_s) * 1'000'000'000);
  const int rc = serve_http(server, options, stop, [&](int port) {
    const bool v6 = options.host.find(':') != std::string::npos;
    std::fprintf(stderr, "csift-mcp %s: serving MCP (Streamable HTTP) on http://%s%s%s:%d/mcp\n",
                 server_version(), v6 ? "[" : "", options.host.c_str(), v6 ? "]" : "", port);
  });
  if (rc != 0)
    std::fprintf(stderr, "csift-mcp: cannot listen on %s:%d\n", options.host.c_str(), options.port);
  return rc;
}

}  // namespace csift
