#include "tools/dispatch/row_window.h"

namespace csift {

namespace {

void find_longest(const json& node, const json::json_pointer& at, std::optional<RowField>& best) {
  if (node.is_string()) {
    const size_t n = utf8_length(node.get_ref<const std::string&>());
    if (!best || n > best->chars) best = RowField{at, n};
    return;
  }
  if (node.is_object()) {
    for (auto it = node.begin(); it != node.end(); ++it)
      find_longest(it.value(), at / it.key(), best);
  } else if (node.is_array()) {
    for (size_t i = 0; i < node.size(); ++i)
      find_longest(node[i], at / i, best);
  }
}

// The byte offset of code point `n` of `s` (s.size() past its end). A continuation byte never starts one.
size_t byte_of_code_point(const std::string& s, size_t n) {
  size_t i = 0;
  for (size_t seen = 0; i < s.size(); ++i) {
    if ((static_cast<unsigned char>(s[i]) & 0xC0) == 0x80) continue;
    if (seen++ == n) return i;
  }
  return s.size();
}

}  // namespace

std::optional<RowField> longest_text_field(const json& row) {
  std::optional<RowField> best;
  find_longest(row, json::json_pointer(), best);
  return best;
}

std::string code_point_window(const std::string& text, size_t from, size_t count) {
  const size_t begin = byte_of_code_point(text, from);
  const size_t end = begin + byte_of_code_point(text.substr(begin), count);
  return text.substr(begin, end - begin);
}

void window_row_field(json& row, const RowField& field, size_t from, size_t count) {
  std::string& text = row.at(field.where).get_ref<std::string&>();
  from = std::min(from, field.chars);
  count = std::min(count, field.chars - from);
  std::string cut = code_point_window(text, from, count);
  const size_t after = field.chars - from - count;
  if (from > 0) cut = "(\xE2\x80\xA6 " + std::to_string(from) + " chars before) " + cut;
  if (after > 0) cut += "\xE2\x80\xA6 (+" + std::to_string(after) + " chars)";
  text = std::move(cut);
  row["window"] = json{{"field", field.where.to_string()},
                       {"chars_total", field.chars},
                       {"char_offset", from},
                       {"chars_shown", count}};
}

}  // namespace csift
