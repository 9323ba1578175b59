#include "core/base/envelope.h"

#include "core/base/text.h"

namespace csift {
namespace {

// Length of the UTF-8 sequence starting at s[i], or 1 when the bytes there are not a valid sequence (so an
// invalid byte counts as one character and a cut never lands inside a valid sequence).
size_t sequence_length(std::string_view s, size_t i) {
  const auto lead = static_cast<unsigned char>(s[i]);
  size_t n = 1;
  if (lead >= 0xC2 && lead <= 0xDF) {
    n = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    n = 3;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    n = 4;
  }
  if (i + n > s.size()) return 1;
  for (size_t k = 1; k < n; ++k) {
    if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return 1;
  }
  return n;
}

}  // namespace

json string_or_null(const std::string& s) {
  return s.empty() ? json(nullptr) : json(s);
}

std::string dump_json(const json& j, int indent) {
  return j.dump(indent, ' ', false, json::error_handler_t::replace);
}

Envelope Envelope::make(std::string command) {
  Envelope e;
  e.header = json::object({{"kind", "header"}, {"command", std::move(command)}});
  e.summary = json::object({{"kind", "summary"}});
  return e;
}

json& Envelope::add_row(std::string kind) {
  rows.push_back(json::object({{"kind", std::move(kind)}}));
  return rows.back();
}

json Envelope::to_object() const {
  json out = json::object();
  out["header"] = header;
  out["rows"] = json::array();
  for (const auto& row : rows)
    out["rows"].push_back(row);
  out["summary"] = summary;
  return out;
}

std::string Envelope::to_ndjson() const {
  std::string out = dump_json(header) + "\n";
  for (const auto& row : rows)
    out += dump_json(row) + "\n";
  out += dump_json(summary) + "\n";
  return out;
}

Envelope error_envelope(const std::string& command, const std::string& kind, const std::string& message) {
  Envelope e = Envelope::make(command);
  e.is_error = true;
  e.summary["error"] = json::object({{"kind", kind}, {"message", message}});
  return e;
}

size_t utf8_length(std::string_view s) {
  size_t count = 0;
  for (size_t i = 0; i < s.size(); i += sequence_length(s, i))
    ++count;
  return count;
}

std::string_view utf8_prefix(std::string_view text, size_t max_chars) {
  size_t i = 0, kept = 0;
  while (i < text.size() && kept < max_chars) {
    i += sequence_length(text, i);
    ++kept;
  }
  return text.substr(0, i);
}

// Counting is additive at a cut utf8_prefix makes (both step through the same sequences from the start), so
// what is left out is the total less what is kept.
std::string excerpt_of_prefix(std::string_view prefix, size_t total_chars) {
  const size_t kept = utf8_length(prefix);
  if (kept >= total_chars) return std::string(prefix);
  return std::string(prefix) + "\xE2\x80\xA6 (+" + std::to_string(total_chars - kept) + " chars)";
}

std::string excerpt(std::string_view text, size_t max_chars) {
  const std::string_view prefix = utf8_prefix(text, max_chars);
  if (prefix.size() == text.size()) return std::string(text);
  return excerpt_of_prefix(prefix, utf8_length(text));
}

std::string one_line(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  bool pending_space = false;
  for (const char c : text) {
    if (is_ascii_space(c)) {
      pending_space = !out.empty();
      continue;
    }
    if (pending_space) out += ' ';
    pending_space = false;
    out += c;
  }
  return out;
}

}  // namespace csift
