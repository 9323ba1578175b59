#include "tools/verbatim/agent_filter.h"

#include <algorithm>
#include <cctype>
#include <string>

#include "core/base/envelope.h"

namespace csift {
namespace {

std::string lower_ascii(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool has_long_number(std::string_view s) {
  size_t run = 0;
  for (char c : s) {
    run = std::isdigit(static_cast<unsigned char>(c)) ? run + 1 : 0;
    if (run >= 2) return true;
  }
  return false;
}

// A run of 7+ hex digits holding both a digit and a letter (a commit hash, an id).
bool has_hex_id(std::string_view s) {
  size_t run = 0;
  bool digit = false, letter = false;
  for (size_t i = 0; i <= s.size(); ++i) {
    const char c = i < s.size() ? s[i] : ' ';
    if (std::isxdigit(static_cast<unsigned char>(c))) {
      ++run;
      digit |= std::isdigit(static_cast<unsigned char>(c)) != 0;
      letter |= std::isalpha(static_cast<unsigned char>(c)) != 0;
      continue;
    }
    if (run >= 7 && digit && letter) return true;
    run = 0, digit = letter = false;
  }
  return false;
}

// `name.ext:NN` or a `src/` path.
bool has_file_ref(std::string_view s) {
  if (s.find("src/") != std::string_view::npos) return true;
  for (size_t i = s.find(':'); i != std::string_view::npos; i = s.find(':', i + 1)) {
    if (i + 1 >= s.size() || !std::isdigit(static_cast<unsigned char>(s[i + 1]))) continue;
    size_t j = i;
    while (j > 0 &&
           (std::isalnum(static_cast<unsigned char>(s[j - 1])) || s[j - 1] == '_' || s[j - 1] == '-'))
      --j;
    if (j > 0 && s[j - 1] == '.') return true;
  }
  return false;
}

bool has_code_span(std::string_view s) {
  const size_t open = s.find('`');
  return open != std::string_view::npos && s.find('`', open + 1) != std::string_view::npos;
}

bool has_finding_word(const std::string& lower) {
  static constexpr std::string_view kWords[] = {
      "found",     "because",   "root cause", "the issue", "the problem", "fixed", "decided",
      "instead",   "failed",    "fails",      "error",     "bug",         "works", "passes",
      "confirmed", "turns out", "caused",     "so the",    "conclusion",  "result"};
  for (std::string_view w : kWords) {
    if (lower.find(w) != std::string::npos) return true;
  }
  return false;
}

bool opens_with_intent(const std::string& lower) {
  static constexpr std::string_view kOpeners[] = {"let me ", "let's ",  "now i",         "now let",
                                                  "i'll ",   "i will ", "i'm going to ", "next i",
                                                  "next, i", "first i", "first, i",      "now, let"};
  for (std::string_view o : kOpeners) {
    if (lower.rfind(o, 0) == 0) return true;
  }
  return false;
}

}  // namespace

bool has_signal(std::string_view text) {
  return has_long_number(text) || has_hex_id(text) || has_file_ref(text) || has_code_span(text) ||
         has_finding_word(lower_ascii(text));
}

bool is_declaration(std::string_view text, const RichnessThresholds& th) {
  return utf8_length(text) < th.declaration_max && opens_with_intent(lower_ascii(text)) && !has_signal(text);
}

bool is_rich(std::string_view text, const RichnessThresholds& th) {
  return utf8_length(text) >= th.rich_min_chars || has_signal(text);
}

std::vector<bool> keep_agent_messages(const std::vector<TurnPiece>& agents, AgentMsgs mode,
                                      const RichnessThresholds& th) {
  const size_t n = agents.size();
  std::vector<bool> keep(n, mode == AgentMsgs::all);
  if (n == 0 || mode == AgentMsgs::all) return keep;
  const size_t last = n - 1;
  if (mode == AgentMsgs::eot_only || n == 1) {
    keep[last] = true;
    return keep;
  }
  if (mode == AgentMsgs::rich) {
    if (n <= th.run_threshold) return std::vector<bool>(n, true);
    for (size_t i = 0; i < n; ++i)
      keep[i] = i == 0 || i == last || !is_declaration(agents[i].text, th);
    return keep;
  }
  // longest: the longest message, a substantive first, every rich middle (a short plain last collapses).
  size_t longest = 0;
  for (size_t i = 1; i < n; ++i) {
    if (utf8_length(agents[i].text) > utf8_length(agents[longest].text)) longest = i;
  }
  for (size_t i = 0; i < n; ++i) {
    if (i == longest)
      keep[i] = true;
    else if (i == 0)
      keep[i] = utf8_length(agents[i].text) >= th.rich_min_chars;
    else
      keep[i] = is_rich(agents[i].text, th);
  }
  return keep;
}

}  // namespace csift
