// One row larger than the whole output budget (a 20 MB tool result shown by `show`): rows are the unit the
// budget cuts at, so such a row is instead windowed — its longest text field is cut to the characters that
// fit, marked `… (+N chars)`, and the continuation asks for the same row from the next character
// (`char_offset`). The field is chosen on the row as the tool built it, so every window of one row cuts the
// same field; characters are code points.
#pragma once
#include <cstddef>
#include <optional>
#include <string>

#include "core/base/envelope.h"

namespace csift {

struct RowField {
  json::json_pointer where;  // the longest string in the row
  size_t chars = 0;          // its length in code points
};

// The longest string value anywhere in `row` (objects and arrays searched), or nullopt when it has none.
std::optional<RowField> longest_text_field(const json& row);

// The code points [from, from + count) of `text` (clamped to its end).
std::string code_point_window(const std::string& text, size_t from, size_t count);

// Replaces the field's text by its window [from, from + count) — prefixed with `(… N chars before) ` when
// from > 0 and followed by `… (+N chars)` when characters remain — and records the cut under row["window"]:
// {field, chars_total, char_offset, chars_shown}.
void window_row_field(json& row, const RowField& field, size_t from, size_t count);

}  // namespace csift
