// The digest's text rules (SPEC.md §13.2): cutting a scrubbed string to its cap on a UTF-8 boundary, a
// prompt's summary line, and the phrases that flag a prompt as the user's complaint.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace csift {

// `text` cut to at most `cap` bytes, never inside a UTF-8 character. `cut` says whether anything was dropped.
std::string cut_utf8(std::string_view text, size_t cap, bool& cut);

// The first line of `text` that is not blank, without surrounding whitespace.
std::string_view first_non_empty_line(std::string_view text);

// The phrases that flag a prompt, in the order they are tried (lower case; `'` also matches `’`).
const std::vector<std::string_view>& flag_phrases();
// The flag phrase appearing first in `text` (case-blind, at word boundaries), or "" when none does.
std::string flagged_phrase(std::string_view text);

}  // namespace csift
