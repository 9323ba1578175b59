// Reading a tool call's input for the digest: the command, the argument digest and the self rule.
#include "core/triage/call_facts.h"

#include <nlohmann/json.hpp>

#include "core/base/text.h"
#include "core/json/stored_json.h"
#include "core/mutations/shell_words.h"
#include "core/triage/watermark.h"

namespace csift {

namespace {

// The length of the white-space character at the start of `s` (0: none): ASCII \t \n \v \f \r and space, and
// Unicode's White_Space characters in UTF-8 (U+0085, U+00A0, U+1680, U+2000-U+200A, U+2028, U+2029, U+202F,
// U+205F, U+3000): the set the reference's whitespace split (Go's unicode.IsSpace) uses, so both tools
// normalise a command alike.
size_t facts_space_len(std::string_view s) {
  const auto b = [&](size_t i) { return i < s.size() ? static_cast<unsigned char>(s[i]) : 0u; };
  const unsigned c = b(0);
  if (c == ' ' || (c >= '\t' && c <= '\r')) return 1;
  if (c == 0xC2 && (b(1) == 0x85 || b(1) == 0xA0)) return 2;
  if (c == 0xE1 && b(1) == 0x9A && b(2) == 0x80) return 3;  // U+1680
  if (c == 0xE2 && b(1) == 0x80) {
    const unsigned t = b(2);
    if ((t >= 0x80 && t <= 0x8A) || t == 0xA8 || t == 0xA9 || t == 0xAF) return 3;
  }
  if (c == 0xE2 && b(1) == 0x81 && b(2) == 0x9F) return 3;  // U+205F
  if (c == 0xE3 && b(1) == 0x80 && b(2) == 0x80) return 3;  // U+3000
  return 0;
}

// The input's JSON with the white space between its tokens left out (string contents kept byte for byte, key
// order as written): what the reference hashes for a call without a command (Go's json.Compact over the input
// as the log holds it). A lexical pass, no parse: a text that is not JSON loses its blanks outside strings
// alike.
std::string facts_compact_json(std::string_view input_json) {
  std::string out;
  out.reserve(input_json.size());
  bool in_string = false, escaped = false;
  for (const char c : input_json) {
    if (in_string) {
      out += c;
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') continue;
    if (c == '"') in_string = true;
    out += c;
  }
  return out;
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

std::string normalize_command_space(std::string_view command) {
  std::string out;
  out.reserve(command.size());
  bool pending_space = false;
  for (size_t i = 0; i < command.size();) {
    if (const size_t n = facts_space_len(command.substr(i))) {
      pending_space = !out.empty();
      i += n;
      continue;
    }
    if (pending_space) out += ' ';
    pending_space = false;
    out += command[i++];
  }
  return out;
}

std::string args_digest(std::string_view input_json) {
  const std::optional<std::string> command = command_of_input(input_json);  // the one parse
  const std::string hashed = command ? normalize_command_space(*command) : facts_compact_json(input_json);
  return sha256_hex(hashed).substr(0, 12);
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
