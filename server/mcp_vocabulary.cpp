#include "server/mcp_vocabulary.h"

#include <cctype>
#include <vector>

#include "server/cli.h"
#include "server/cli_model.h"
#include "tools/common/tool.h"

namespace csift {
namespace {

constexpr std::string_view kCliCall = "csift-mcp --cli ";

bool flag_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '-';
}

// Space-separated words with "double" and 'single' quoting, as the notes quote them.
std::vector<std::string> shell_words(std::string_view s) {
  std::vector<std::string> words;
  std::string cur;
  bool in_word = false;
  char quote = 0;
  for (char c : s) {
    if (quote) {
      if (c == quote)
        quote = 0;
      else
        cur.push_back(c);
    } else if (c == '"' || c == '\'') {
      quote = c;
      in_word = true;
    } else if (c == ' ' || c == '\t') {
      if (in_word) words.push_back(cur);
      cur.clear();
      in_word = false;
    } else {
      cur.push_back(c);
      in_word = true;
    }
  }
  if (in_word) words.push_back(cur);
  return words;
}

// "csift-mcp --cli search \"\" x --count-by label" -> "search {\"count_by\":\"label\",...}"; "" when the
// words do not parse as that tool's command line.
std::string as_mcp_call(std::string_view command) {
  const auto words = shell_words(command);
  if (words.empty() || !find_tool(words.front())) return "";
  try {
    const std::vector<std::string> rest(words.begin() + 1, words.end());
    const CliArgs parsed = parse_cli_args(words.front(), input_schema_annotated(words.front()), rest);
    if (parsed.help) return "";
    return words.front() + " " + parsed.args.dump();
  } catch (...) {
    return "";
  }
}

// A boolean flag sets its argument true; any other flag names the argument its value goes to.
std::string argument_name(const CliOption& o) {
  return o.is_boolean ? o.property + "=true" : o.property;
}

std::string rename_flags(std::string_view tool, std::string_view text) {
  if (!find_tool(tool)) return std::string(text);
  const CliModel model = build_cli_model(input_schema_annotated(tool));
  std::string out;
  size_t i = 0;
  while (i < text.size()) {
    const bool at_word_start =
        i == 0 || std::string_view(" (\"'`,/").find(text[i - 1]) != std::string_view::npos;
    if (!at_word_start || text[i] != '-' || i + 1 >= text.size()) {
      out.push_back(text[i++]);
      continue;
    }
    size_t end = i + 1;
    while (end < text.size() && flag_char(text[end]))
      ++end;
    const std::string_view word = text.substr(i, end - i);
    std::string replacement;
    if (word.size() == 2 && std::isalpha(static_cast<unsigned char>(word[1]))) {
      if (const CliOption* o = model.by_short(word[1])) replacement = argument_name(*o);
    } else if (word.size() > 2 && word[1] == '-') {
      if (const CliOption* o = model.by_flag(word))
        replacement = argument_name(*o);
      else if (const CliOption* n = model.by_negate_flag(word))
        replacement = n->property + "=false";
    }
    if (replacement.empty()) {
      out.append(word);
    } else {
      out += replacement;
    }
    i = end;
  }
  return out;
}

}  // namespace

std::string mcp_vocabulary(std::string_view tool, std::string_view note) {
  std::string out;
  size_t pos = 0;
  while (pos < note.size()) {
    const size_t call = note.find(kCliCall, pos);
    const size_t stop = call == std::string_view::npos ? note.size() : call;
    out += rename_flags(tool, note.substr(pos, stop - pos));
    if (call == std::string_view::npos) break;
    size_t line_end = note.find('\n', call);
    if (line_end == std::string_view::npos) line_end = note.size();
    const std::string_view command = note.substr(call + kCliCall.size(), line_end - call - kCliCall.size());
    const std::string spelled = as_mcp_call(command);
    out += spelled.empty() ? rename_flags(tool, note.substr(call, line_end - call)) : spelled;
    pos = line_end;
  }
  return out;
}

}  // namespace csift
