// Text rules of the digest. A phrase must stand as words of its own (`again` flags "try again" but not
// "against"), so a prompt is lower-cased once and each phrase searched with boundary checks.
#include "core/triage/digest_text.h"

#include "core/base/text.h"

namespace csift {

namespace {

bool digest_is_word_byte(char c) {
  return is_ascii_alnum(static_cast<unsigned char>(c)) || c == '_' || c == '\'';
}

// Lower-cased, with the typographic apostrophe ’ (E2 80 99) read as '.
std::string digest_fold(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    if (text.substr(i).starts_with("\xE2\x80\x99")) {
      out += '\'';
      i += 2;
      continue;
    }
    out += lower_ascii(text[i]);
  }
  return out;
}

}  // namespace

std::string cut_utf8(std::string_view text, size_t cap, bool& cut) {
  cut = text.size() > cap;
  if (!cut) return std::string(text);
  size_t end = cap;
  while (end > 0 && is_utf8_continuation(text[end]))
    --end;
  return std::string(text.substr(0, end));
}

std::string_view first_non_empty_line(std::string_view text) {
  while (!text.empty()) {
    const size_t nl = text.find('\n');
    const std::string_view line = trim(text.substr(0, nl));
    if (!line.empty()) return line;
    if (nl == std::string_view::npos) break;
    text = text.substr(nl + 1);
  }
  return {};
}

const std::vector<std::string_view>& flag_phrases() {
  static const std::vector<std::string_view> phrases = {
      "still failing",   "still fails", "still broken", "still not working", "doesn't work", "does not work",
      "didn't work",     "not working", "wrong",        "why did you",       "again",        "you broke",
      "that's not what",
  };
  return phrases;
}

std::string flagged_phrase(std::string_view text) {
  const std::string folded = digest_fold(text);
  size_t best_at = std::string::npos;
  std::string_view best;
  for (std::string_view phrase : flag_phrases()) {
    size_t at = 0;
    while ((at = folded.find(phrase, at)) != std::string::npos && at < best_at) {
      const size_t end = at + phrase.size();
      const bool starts_word = at == 0 || !digest_is_word_byte(folded[at - 1]);
      const bool ends_word = end == folded.size() || !digest_is_word_byte(folded[end]);
      if (starts_word && ends_word) {
        best_at = at;
        best = phrase;
        break;
      }
      ++at;
    }
  }
  return std::string(best);
}

}  // namespace csift
