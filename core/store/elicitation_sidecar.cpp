#include "core/store/elicitation_sidecar.h"

#include <deque>
#include <filesystem>
#include <map>
#include <unordered_set>

#include "core/base/envelope.h"
#include "core/harness/claude_code/claude_fields.h"
#include "core/record/labels.h"
#include "core/record/transcript_reader.h"

namespace csift {
namespace {

constexpr const char* kMarkerVersion = "elicitation-marker-v1";

// Ids a native record structurally carries: tool_use block ids and tool_result tool_use_ids (a key merely
// quoted in prose does not count).
std::unordered_set<std::string> native_tool_ids(const std::vector<Record>& native) {
  std::unordered_set<std::string> ids;
  for (const auto& r : native) {
    for (const auto& b : r.message.blocks) {
      if (b.kind == BlockKind::tool_use && !b.id.empty()) ids.insert(b.id);
      if (b.kind == BlockKind::tool_result && !b.tool_use_id.empty()) ids.insert(b.tool_use_id);
    }
  }
  return ids;
}

// A sidecar line is a v1 marker with a known phase and a key; anything else is skipped.
bool is_marker(const Record& r) {
  return cc(r).csift_marker == kMarkerVersion &&
         (cc(r).csift_phase == "pending" || cc(r).csift_phase == "resolved") && !cc(r).csift_key.empty();
}

bool is_native_kind(const std::string& kind) {
  return kind == "AskUserQuestion" || kind == "ExitPlanMode";
}

}  // namespace

SidecarMerge read_unresolved_pending(const Transcript& session, const std::vector<Record>& native) {
  SidecarMerge merge;
  if (session.is_subagent) return merge;
  const std::string path = sidecar_path(session);
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return merge;

  std::vector<SidecarPending> pending;                    // every pending marker, in file order
  std::map<std::string, std::deque<size_t>> open_by_key;  // key -> indexes of still-open pendings
  std::vector<bool> closed;
  Transcript sidecar =
      session;  // the sidecar is jsonl in Claude Code's record shape, read by the same reader
  sidecar.path = path;
  ReadOptions opts;
  opts.sequential = true;  // resolutions pair with pendings in file order
  const ReadStats stats = for_each_record(sidecar, opts, [&](Record&& r) {
    if (!is_marker(r)) {
      ++merge.skipped_lines;
      return true;
    }
    if (cc(r).csift_phase == "resolved") {
      auto& open = open_by_key[cc(r).csift_key];
      if (!open.empty()) {
        closed[open.front()] = true;
        open.pop_front();
      }
      return true;
    }
    r.line = 0;
    const std::string kind = cc(r).csift_kind, key = cc(r).csift_key;
    open_by_key[key].push_back(pending.size());
    pending.push_back(SidecarPending{std::move(r), kind, key});
    closed.push_back(false);
    return true;
  });
  // Malformed lines and a torn tail (a marker still being written is not yet a marker) are skipped.
  merge.skipped_lines += stats.skipped_lines;

  const auto native_ids = native_tool_ids(native);
  for (size_t i = 0; i < pending.size(); ++i) {
    if (closed[i]) continue;
    if (is_native_kind(pending[i].kind) && native_ids.count(pending[i].key)) continue;  // the ghost guard
    merge.pending.push_back(std::move(pending[i]));
  }
  return merge;
}

std::vector<Unit> classify_sidecar_pending(const SidecarPending& p, ClassifyContext& ctx) {
  std::vector<Unit> units;
  for (auto& u : classify_record(p.record, ctx)) {
    if (u.is_tool_use) units.push_back(std::move(u));
  }
  if (!units.empty()) return units;
  // An MCP marker (a `system` record with no tool_use block) is one tool-use unit named by its kind.
  Unit u;
  u.labels = {Label::agent_tool_use};
  u.text = p.record.content_text.empty() ? cc(p.record).content_json : p.record.content_text;
  u.tool_name = p.kind;
  u.is_tool_use = true;
  units.push_back(std::move(u));
  return units;
}

}  // namespace csift
