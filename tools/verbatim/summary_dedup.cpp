#include "tools/verbatim/summary_dedup.h"

#include <cctype>

namespace csift {
namespace {

constexpr size_t kKeyBytes = 80;
constexpr size_t kMinKeyBytes = 20;  // a shorter quote says too little to call a unit a duplicate

// The body of the numbered section whose heading contains `title` (up to the next `N. ` heading).
std::string_view section(std::string_view text, std::string_view title) {
  const size_t at = text.find(title);
  if (at == std::string_view::npos) return {};
  const size_t body = text.find('\n', at);
  if (body == std::string_view::npos) return {};
  size_t end = body + 1;
  while (end < text.size()) {
    const size_t next = text.find('\n', end);
    const std::string_view line =
        text.substr(end, next == std::string_view::npos ? std::string_view::npos : next - end);
    if (line.size() > 2 && std::isdigit(static_cast<unsigned char>(line[0])) &&
        (line.substr(1, 2) == ". " || (line.size() > 3 && std::isdigit(static_cast<unsigned char>(line[1])) &&
                                       line.substr(2, 2) == ". "))) {
      break;
    }
    if (next == std::string_view::npos) return text.substr(body + 1);
    end = next + 1;
  }
  return text.substr(body + 1, end - body - 1);
}

std::vector<std::string_view> lines_of(std::string_view s) {
  std::vector<std::string_view> out;
  size_t at = 0;
  while (at <= s.size()) {
    const size_t nl = s.find('\n', at);
    out.push_back(s.substr(at, nl == std::string_view::npos ? std::string_view::npos : nl - at));
    if (nl == std::string_view::npos) break;
    at = nl + 1;
  }
  return out;
}

std::string_view trim_view(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
    s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
    s.remove_suffix(1);
  return s;
}

}  // namespace

std::string dedup_key(std::string_view text) {
  std::string folded;
  bool space = false;
  for (char c : trim_view(text)) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      space = true;
      continue;
    }
    if (space && !folded.empty()) folded += ' ';
    space = false;
    folded += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  while (!folded.empty() && (folded.back() == '.' || folded.back() == '"' || folded.back() == ' '))
    folded.pop_back();
  if (folded.size() >= 3 && folded.compare(folded.size() - 3, 3, "\xE2\x80\xA6") == 0)
    folded.resize(folded.size() - 3);
  size_t start = 0;
  while (start < folded.size() && (folded[start] == '"' || folded[start] == '\''))
    ++start;
  folded = folded.substr(start);
  while (!folded.empty() && (folded.back() == '"' || folded.back() == '\''))
    folded.pop_back();
  return folded.substr(0, kKeyBytes);
}

SummaryQuotes::SummaryQuotes(std::string_view summary) {
  for (std::string_view line : lines_of(section(summary, "All user messages"))) {
    line = trim_view(line);
    if (line.size() < 2 || line[0] != '-') continue;
    const std::string key = dedup_key(line.substr(1));
    if (key.size() >= kMinKeyBytes) user_.push_back(key);
  }
  const std::string_view next_step = section(summary, "Optional Next Step");
  for (std::string_view line : lines_of(next_step)) {
    line = trim_view(line);
    if (!line.empty() && line[0] == '>') {
      const std::string key = dedup_key(line.substr(1));
      if (key.size() >= kMinKeyBytes) agent_.push_back(key);
    }
  }
  // Quoted spans in the section ("...") are the verbatim words the summary kept.
  for (size_t open = next_step.find('"'); open != std::string_view::npos;) {
    const size_t close = next_step.find('"', open + 1);
    if (close == std::string_view::npos) break;
    const std::string key = dedup_key(next_step.substr(open + 1, close - open - 1));
    if (key.size() >= kMinKeyBytes) agent_.push_back(key);
    open = next_step.find('"', close + 1);
  }
}

bool SummaryQuotes::matches(const std::vector<std::string>& keys, std::string_view text) {
  const std::string key = dedup_key(text);
  for (const std::string& quote : keys) {
    if (key.size() >= quote.size() ? key.compare(0, quote.size(), quote) == 0 : false) return true;
  }
  return false;
}

}  // namespace csift
