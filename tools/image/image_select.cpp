#include "tools/image/image_select.h"

#include <algorithm>
#include <set>

#include "core/base/arg_ref.h"
#include "core/base/error.h"
#include "core/base/timefmt.h"
#include "core/harness/claude_code/image_handles.h"

namespace csift {
namespace {

constexpr size_t kListedHandles = 24;

bool in_turns(const ImageOccurrence& o, const RangeSpec& turns, int turn_count) {
  if (o.turn_index < 0 || turn_count == 0) return false;
  const auto range = resolve_range(turns, 0, turn_count - 1);
  return range && o.turn_index >= range->lo && o.turn_index <= range->hi;
}

std::string occurrence_line(const ImageOccurrence& o, const Scope& scope) {
  std::string s = "  " + scope.transcripts[o.transcript].id.substr(0, 8) + " " +
                  (o.turn_index >= 0 ? "t" + std::to_string(o.turn_index) : std::string("pre")) + " " +
                  image_locator(o.line, o.ordinal) + " uuid " + (o.uuid.empty() ? "-" : o.uuid);
  if (const auto ms = parse_iso8601(o.timestamp)) s += " " + format_local(*ms);
  if (!o.context.empty()) s += " \xE2\x80\x94 " + o.context;
  return s;
}

// The handles present, for a miss: `#2, #3, #5 (+N more)`, and how many images have none.
std::string handles_present(const std::vector<ImageOccurrence>& windowed) {
  std::set<int64_t> handles;
  size_t unnumbered = 0;
  for (const auto& o : windowed) {
    if (o.handle)
      handles.insert(*o.handle);
    else
      ++unnumbered;
  }
  std::string s;
  size_t shown = 0;
  for (int64_t h : handles) {
    if (shown == kListedHandles) break;
    s += (shown++ ? ", #" : "#") + std::to_string(h);
  }
  if (handles.size() > shown) s += " (+" + std::to_string(handles.size() - shown) + " more)";
  if (s.empty()) s = "none";
  if (unnumbered)
    s += "; " + std::to_string(unnumbered) + " image(s) have no handle (address them by L<line>i<n>)";
  return s;
}

void add_unique(std::vector<ImageOccurrence>& out, const ImageOccurrence& o) {
  for (const auto& have : out) {
    if (have.transcript == o.transcript && have.line == o.line && have.ordinal == o.ordinal) return;
  }
  out.push_back(o);
}

std::vector<ImageOccurrence> match_handle(const std::vector<ImageOccurrence>& windowed, const ImageId& id,
                                          const Scope& scope) {
  std::vector<ImageOccurrence> hits;
  for (const auto& o : windowed) {
    if (o.handle == id.handle) hits.push_back(o);
  }
  if (hits.empty()) {
    not_found_error(arg_ref("id") + " " + id.text +
                    " matched no image. Handles are the [Image #N] numbers Claude Code " +
                    "gave pastes in each prompt (not a 1..N index; they can start past 1 and have holes). " +
                    "Handles present: " + handles_present(windowed) +
                    ". List them all with the same targets " + "and no " + arg_ref("id") + ".");
  }
  std::vector<ImageOccurrence> distinct = dedup_by_content(hits);
  if (distinct.size() > 1) {
    std::string list;
    for (const auto& o : hits)
      list += "\n" + occurrence_line(o, scope);
    usage_error(arg_ref("id") + " " + id.text + " is ambiguous: #" + id.text + " names " +
                std::to_string(distinct.size()) +
                " different images (Claude Code numbers pastes per prompt " +
                "and reuses numbers). Give the locator instead, or narrow with " + arg_ref("turn") + ", " +
                arg_ref("uuid") + " or " + arg_ref("since") + "/" + arg_ref("until") + ":" + list);
  }
  return distinct;
}

std::vector<ImageOccurrence> match_locator(const std::vector<ImageOccurrence>& windowed, const ImageId& id,
                                           const Scope& scope) {
  std::vector<ImageOccurrence> hits;
  for (const auto& o : windowed) {
    if (o.line == id.line && o.ordinal == id.ordinal) hits.push_back(o);
  }
  if (hits.empty()) {
    not_found_error(arg_ref("id") + " " + id.text + " matched no image: no image " +
                    std::to_string(id.ordinal) + " on line " + std::to_string(id.line) +
                    " in scope. Handles present: " + handles_present(windowed) + ".");
  }
  if (hits.size() > 1) {
    std::string list;
    for (const auto& o : hits)
      list += "\n" + occurrence_line(o, scope);
    usage_error(arg_ref("id") + " " + id.text + " names an image in " + std::to_string(hits.size()) +
                " transcripts; target one of them (" + arg_ref("no_subagents") +
                " keeps only the session):" + list);
  }
  return hits;
}

}  // namespace

std::vector<ImageOccurrence> apply_windows(const std::vector<ImageOccurrence>& all, const ImageRequest& req,
                                           const std::vector<int>& turn_counts) {
  std::vector<ImageOccurrence> out;
  for (const auto& o : all) {
    if (req.turns && !in_turns(o, *req.turns, turn_counts[o.transcript])) continue;
    if (!req.uuid_prefix.empty() && o.uuid.rfind(req.uuid_prefix, 0) != 0) continue;
    if (req.window.bounded()) {
      const auto ms = parse_iso8601(o.timestamp);
      if (!ms || !req.window.contains(*ms)) continue;
    }
    out.push_back(o);
  }
  return out;
}

std::vector<ImageOccurrence> select_by_id(const std::vector<ImageOccurrence>& windowed,
                                          const ImageRequest& req, const Scope& scope) {
  std::vector<ImageOccurrence> out;
  for (const ImageId& id : req.ids) {
    for (const auto& o : id.handle ? match_handle(windowed, id, scope) : match_locator(windowed, id, scope))
      add_unique(out, o);
  }
  std::stable_sort(out.begin(), out.end(), [](const ImageOccurrence& a, const ImageOccurrence& b) {
    return std::tie(a.transcript, a.line, a.ordinal) < std::tie(b.transcript, b.line, b.ordinal);
  });
  return out;
}

}  // namespace csift
