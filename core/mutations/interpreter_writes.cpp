// Interpreter write idioms (the seed's v0.8.0 ledger): a literal target is a row, a non-literal one a marker.
#include <cctype>
#include <optional>
#include <string_view>

#include "core/mutations/bash_commands.h"

namespace csift {
namespace {

size_t skip_spaces(std::string_view s, size_t i) {
  while (i < s.size() && (s[i] == ' ' || s[i] == '\t'))
    ++i;
  return i;
}

// A quoted literal at s[i] (', " or `), its end index through `end`; nullopt when s[i] is not a quote or the
// literal interpolates (`${`, f-strings are refused by the caller's prefix check).
std::optional<std::string> literal_at(std::string_view s, size_t i, size_t& end) {
  if (i >= s.size() || (s[i] != '\'' && s[i] != '"' && s[i] != '`')) return std::nullopt;
  const char q = s[i];
  const size_t close = s.find(q, i + 1);
  if (close == std::string_view::npos) return std::nullopt;
  std::string_view lit = s.substr(i + 1, close - i - 1);
  if (lit.empty() || lit.find("${") != std::string_view::npos || lit.find('\\') != std::string_view::npos) {
    return std::nullopt;
  }
  end = close + 1;
  return std::string(lit);
}

struct Idiom {
  std::string_view token;  // what opens the call
  bool needs_write_mode;   // open(): only with a w/a/x mode argument
};

void scan_idiom(std::string_view script, const Idiom& idiom, bool& unknown_target, ShellState& s) {
  for (size_t at = script.find(idiom.token); at != std::string_view::npos;
       at = script.find(idiom.token, at + 1)) {
    if (at > 0 && (std::isalnum(static_cast<unsigned char>(script[at - 1])) || script[at - 1] == '_'))
      continue;
    size_t end = 0;
    const auto target = literal_at(script, skip_spaces(script, at + idiom.token.size()), end);
    if (idiom.needs_write_mode) {
      // open("x", "w"): a second literal argument naming a writing mode; no mode = a read.
      if (!target) continue;
      size_t i = skip_spaces(script, end), mode_end = 0;
      if (i >= script.size() || script[i] != ',') continue;
      const auto mode = literal_at(script, skip_spaces(script, i + 1), mode_end);
      if (!mode || mode->find_first_of("wax+") == std::string::npos) continue;
    }
    if (!target) {
      unknown_target = true;
      continue;
    }
    s.emit(ShellWord{*target, target->find_first_of("*?") != std::string::npos}, "interp-write");
  }
}

}  // namespace

void interpreter_writes(const std::string& lang, const std::string& script, ShellState& s) {
  static const Idiom kPython[] = {{"open(", true}, {"Path(", false}};
  static const Idiom kNode[] = {{"writeFileSync(", false},
                                {"appendFileSync(", false},
                                {"writeFile(", false},
                                {"createWriteStream(", false}};
  static const Idiom kRuby[] = {{"File.write(", false}, {"File.open(", true}};
  bool unknown_target = false;
  const size_t before = s.out.size();
  if (lang == "python") {
    scan_idiom(script, kPython[0], unknown_target, s);
    // Path("x").write_text(...): only a Path literal followed by a write method counts.
    for (size_t at = script.find("Path("); at != std::string::npos; at = script.find("Path(", at + 1)) {
      size_t end = 0;
      const auto target = literal_at(script, skip_spaces(script, at + 5), end);
      if (!target || end >= script.size() || script[end] != ')') continue;
      const std::string_view after = std::string_view(script).substr(end + 1);
      if (after.starts_with(".write_text(") || after.starts_with(".write_bytes(")) {
        s.emit(ShellWord{*target, false}, "interp-write");
      }
    }
    if (s.out.size() == before &&
        (script.find(".write_text(") != std::string::npos || script.find(".write(") != std::string::npos)) {
      unknown_target = true;
    }
  } else if (lang == "node") {
    for (const Idiom& idiom : kNode)
      scan_idiom(script, idiom, unknown_target, s);
  } else if (lang == "ruby") {
    for (const Idiom& idiom : kRuby)
      scan_idiom(script, idiom, unknown_target, s);
  }
  if (unknown_target) s.marker("interp:" + lang);
}

}  // namespace csift
