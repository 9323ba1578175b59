// The verbatim document, one block per row (SPEC.md §9.8): `▽ L<line> USER (<time>)` and `△ L<line>
// ASSISTANT (<time>)` units with their (possibly middle-elided) text, `[N tool calls]` markers, `△ La–Lb
// [..]` placeholders for collapsed agent messages, and `══ compaction boundary · summary at L<line> ══`
// banners. Selection charges each row exactly the characters its block renders, so the budget and the
// document agree.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>

#include "core/base/envelope.h"

namespace csift {

inline constexpr size_t kUserCap = 600;
inline constexpr size_t kAgentCap = 900;
inline constexpr double kUserHeadFraction = 0.60;
inline constexpr double kAgentHeadFraction = 0.66;

struct Elision {
  bool truncated = false;
  size_t head_chars = 0, tail_chars = 0;  // code points kept at each end
  size_t elided_chars = 0, elided_lines = 0;
};

// Middle-elides `text` to `cap` code points (head share `head_fraction`); nothing when it fits.
Elision plan_elision(std::string_view text, size_t cap, double head_fraction);

// The document block of a turn, collapsed_agents or compaction_boundary row ("" for other kinds).
std::string render_row_block(const json& row);

}  // namespace csift
