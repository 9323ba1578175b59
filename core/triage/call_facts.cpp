// Reading a tool call's input for the digest: the command, the argument digest and the self rule.
#include "core/triage/call_facts.h"

#include <cstdint>
#include <nlohmann/json.hpp>

#include "core/base/text.h"
#include "core/json/stored_json.h"
#include "core/mutations/shell_words.h"

namespace csift {

namespace {

std::string facts_hex64(uint64_t v) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out(16, '0');
  for (int i = 15; i >= 0; --i, v >>= 4)
    out[static_cast<size_t>(i)] = kHex[v & 0xF];
  return out;
}

uint64_t facts_fnv1a(std::string_view s) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : s) {
    h ^= c;
    h *= 0x100000001b3ULL;
  }
  return h;
}

// An assignment word `NAME=value` (a variable set for the command).
bool facts_is_assignment(const std::string& w) {
  const size_t eq = w.find('=');
  if (eq == std::string::npos || eq == 0) return false;
  for (size_t i = 0; i < eq; ++i)
    if (!(is_ascii_alnum(static_cast<unsigned char>(w[i])) || w[i] == '_')) return false;
  return !is_ascii_digit(w[0]);
}

bool facts_is_wrapper(const std::string& w) {
  return w == "env" || w == "exec" || w == "sudo" || w == "command" || w == "time";
}

std::string_view facts_basename(std::string_view w) {
  const size_t slash = w.find_last_of('/');
  return slash == std::string_view::npos ? w : w.substr(slash + 1);
}

// A `["bash", "-lc", "<script>"]` argv (bash, sh, zsh or dash; -c, -lc or -cl; nothing more): its script.
std::optional<std::string> facts_shell_script(const nlohmann::json& argv) {
  if (!argv.is_array() || argv.size() != 3) return std::nullopt;
  for (const auto& a : argv)
    if (!a.is_string()) return std::nullopt;
  const std::string shell(facts_basename(argv[0].get_ref<const std::string&>()));
  const std::string& flag = argv[1].get_ref<const std::string&>();
  if (shell != "bash" && shell != "sh" && shell != "zsh" && shell != "dash") return std::nullopt;
  // The shell's options after its dash: `c` (run the script), with `l` (a login shell) before or after it.
  const std::string opts = flag.size() > 1 && flag[0] == '-' ? flag.substr(1) : "";
  if (opts != "c" && opts != "lc" && opts != "cl") return std::nullopt;
  return argv[2].get<std::string>();
}

}  // namespace

std::optional<std::string> command_of_input(std::string_view input_json) {
  if (input_json.empty()) return std::nullopt;
  const nlohmann::json input = parse_stored_json(input_json);
  if (!input.is_object()) return std::nullopt;
  for (const char* key : {"command", "cmd"}) {
    const auto it = input.find(key);
    if (it == input.end()) continue;
    if (it->is_string()) return it->get<std::string>();
    if (it->is_array()) {
      if (auto script = facts_shell_script(*it)) return script;
      std::string joined;
      for (const auto& a : *it)
        if (a.is_string()) joined += (joined.empty() ? "" : " ") + a.get<std::string>();
      return joined;
    }
  }
  return std::nullopt;
}

std::string args_digest(std::string_view input_json) {
  if (auto command = command_of_input(input_json)) return facts_hex64(facts_fnv1a(*command));
  const nlohmann::json input = parse_stored_json(input_json);
  const std::string canonical =
      input.is_discarded() || input.is_null()
          ? std::string(input_json)
          : input.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);  // keys sorted: canonical
  return facts_hex64(facts_fnv1a(canonical));
}

bool command_runs_csift(const std::string& command) {
  bool at_start = true;  // the next word starts a command segment
  bool after_wrapper = false;
  for (const ShellToken& t : shell_tokens(command)) {
    if (t.kind == ShellTokenKind::separator || t.kind == ShellTokenKind::subshell_open) {
      at_start = true;
      after_wrapper = false;
      continue;
    }
    if (t.kind != ShellTokenKind::word || !at_start) continue;
    const std::string& w = t.word.text;
    if (facts_is_assignment(w)) continue;
    if (facts_is_wrapper(w)) {
      after_wrapper = true;
      continue;
    }
    if (after_wrapper && !w.empty() && w[0] == '-') continue;  // a wrapper's option (`env -i`, `sudo -E`)
    if (facts_basename(w) == "csift-mcp") return true;
    at_start = false;
  }
  return false;
}

bool is_self_call(std::string_view tool, std::string_view input_json) {
  if (lower_ascii(tool).find("csift") != std::string::npos) return true;
  const auto command = command_of_input(input_json);
  return command && command_runs_csift(*command);
}

}  // namespace csift
