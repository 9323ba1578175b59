// Where the store is and how a cwd names its project dir (SPEC.md §2). The encoding mirrors Claude Code's
// `cwd.normalize("NFC").replace(/[^a-zA-Z0-9]/g, "-")`, which runs per UTF-16 code unit.
#include <utf8proc.h>

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <memory>

#include "core/base/arg_ref.h"
#include "core/base/error.h"
#include "core/base/text.h"
#include "core/store/store.h"

namespace csift {

namespace {

// NFC of a run that is valid UTF-8 (utf8proc refuses invalid input, so callers split around bad bytes).
std::string nfc(std::string_view valid) {
  std::string copy(valid);  // utf8proc_NFC wants a NUL-terminated string
  std::unique_ptr<utf8proc_uint8_t, decltype(&std::free)> out(
      utf8proc_NFC(reinterpret_cast<const utf8proc_uint8_t*>(copy.c_str())), &std::free);
  return out ? std::string(reinterpret_cast<const char*>(out.get())) : copy;
}

// Appends the encoding of one valid UTF-8 run (after NFC): one char per UTF-16 code unit.
void encode_valid_run(std::string_view run, std::string& out) {
  std::string normalized = nfc(run);
  const auto* p = reinterpret_cast<const utf8proc_uint8_t*>(normalized.data());
  utf8proc_ssize_t left = static_cast<utf8proc_ssize_t>(normalized.size());
  while (left > 0) {
    utf8proc_int32_t cp = 0;
    utf8proc_ssize_t len = utf8proc_iterate(p, left, &cp);
    if (len <= 0) {  // cannot happen for a validated run; stay total anyway
      out += '-';
      len = 1;
    } else if (is_ascii_alnum(cp)) {
      out += static_cast<char>(cp);
    } else {
      out += cp >= 0x10000 ? "--" : "-";  // an astral char is a surrogate pair: two units
    }
    p += len;
    left -= len;
  }
}

}  // namespace

std::string resolve_claude_home(const std::optional<std::string>& override_dir, const Environment& env) {
  if (override_dir && !override_dir->empty()) return expand_home(*override_dir, env);
  if (!env.claude_home.empty()) return expand_home(env.claude_home, env);
  if (auto config_dir = env.get("CLAUDE_CONFIG_DIR")) return expand_home(*config_dir, env);
  return home_dir(env) + "/.claude";
}

void require_claude_home(const std::string& claude_home, const std::optional<std::string>& override_dir,
                         const Environment& env) {
  std::error_code ec;
  if (std::filesystem::is_directory(claude_home, ec)) return;
  const std::string source = override_dir && !override_dir->empty()
                                 ? "the " + arg_ref("claude_home") + " argument"
                             : !env.claude_home.empty()     ? "the server's claude home"
                             : env.get("CLAUDE_CONFIG_DIR") ? "$CLAUDE_CONFIG_DIR"
                                                            : "the default, $HOME/.claude";
  not_found_error("the Claude Code home " + claude_home + " (from " + source +
                  ") does not exist or is not a directory; point " + arg_ref("claude_home") +
                  " at the directory that holds projects/");
}

std::string projects_root(const std::string& claude_home) {
  if (!claude_home.empty() && claude_home.back() == '/') return claude_home + "projects";
  return claude_home + "/projects";
}

std::string encode_cwd(const std::string& cwd) {
  std::string out;
  out.reserve(cwd.size());
  const auto* bytes = reinterpret_cast<const utf8proc_uint8_t*>(cwd.data());
  size_t run_start = 0;
  size_t i = 0;
  while (i < cwd.size()) {
    utf8proc_int32_t cp = 0;
    utf8proc_ssize_t len = utf8proc_iterate(bytes + i, static_cast<utf8proc_ssize_t>(cwd.size() - i), &cp);
    if (len > 0) {
      i += static_cast<size_t>(len);
      continue;
    }
    // An invalid byte ends the valid run; it encodes as one dash (a lossy decoder's U+FFFD is one unit).
    encode_valid_run(std::string_view(cwd).substr(run_start, i - run_start), out);
    out += '-';
    ++i;
    run_start = i;
  }
  encode_valid_run(std::string_view(cwd).substr(run_start), out);
  return out;
}

}  // namespace csift
