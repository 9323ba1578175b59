// `search --siblings` (SPEC.md §9.2, v0.2 policy, v0.6.4 ④): each matched turn's NON-matched records — the
// surrounding back-and-forth — rendered under a FIXED zero-arg policy. Message units always (user.*,
// agent.message, agent.communication.*); per leaf at most 2 agent.thinking, 1 agent.thinking.narration,
// 3 agent.tool.use, 3 agent.tool.result and 2 of each harness leaf. What the caps hide is never silent: the
// exchange carries `siblings_hidden` (per leaf) and `turn_lines`, and the text prints the exact `show`
// command that fetches the whole turn. The caps apply to context records only: the exchange's own hits stay
// as they are.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/base/envelope.h"
#include "tools/common/tool.h"
#include "tools/search/search_exchange.h"
#include "tools/search/search_types.h"

namespace csift {

// The per-turn cap of one leaf; std::nullopt = always shown (message units).
std::optional<size_t> sibling_cap(Label l);

// Whether a sibling unit may show at all: the gated leaves (and attachment / hook-context payloads) stay off
// the context surface unless the request reached them, exactly as they stay out of a default scan.
bool sibling_visible(const SearchRequest& req, Label l);

// One turn's context, selected from a classified transcript.
struct TurnSiblings {
  std::vector<json> siblings;    // hit objects in file order, each marked `sibling: true`
  json hidden = json::object();  // leaf -> units the caps hid
  size_t hidden_total = 0;
  std::optional<std::pair<uint64_t, uint64_t>> turn_lines;  // first and last physical line of the turn
};

// The turn's units other than `rendered` ((entry, unit) pairs the exchange already shows: its hits and its
// frame), under the fixed policy. The scan's classification is complete for this purpose: it declines only
// the gated record types, which are exactly the ones sibling_visible refuses unless the request reached them.
TurnSiblings select_siblings(const SearchRequest& req, const ClassifiedTranscript& ct, int turn,
                             const std::set<std::pair<size_t, size_t>>& rendered);

// Adds `siblings`, `siblings_hidden` and `turn_lines` to one exchange's row.
void add_siblings(json& row, const SearchRequest& req, const ClassifiedTranscript& ct, const Exchange& x);

// The text lines of one exchange's siblings (` · <hit line>` each, then the `(+N more · <show call for lines
// A..B>)` pointer when the caps hid anything, spelled by ctx); "" when the exchange has none.
std::string render_siblings_text(const json& exchange, const ToolContext& ctx);

}  // namespace csift
