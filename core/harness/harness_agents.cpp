// The sub-agent seam's shared pieces: attaching each harness's reader of sub-agents to its entry (one line
// per harness, so the readers' own entry functions stay untouched), and what those readers share: the raw
// line walk (they read the log's lines themselves, because what they need — spawn, wait and close events, a
// sub-agent's inline events — is not in the shared record model, but through the harness reader's own raw
// lines, so a log reads the same here as everywhere), the walk down a tree of child ids, and the rows of
// children no spawn call placed.
#include "core/harness/harness_agents_walk.h"

#include "core/harness/codex/codex_agents.h"
#include "core/harness/copilot/copilot_agents.h"
#include "core/harness/gemini_cli/gemini_cli_agents.h"
#include "core/harness/opencode/opencode_agents.h"
#include "core/record/transcript_reader.h"
#include "core/scan/line_scanner.h"
#include "core/scan/zstd_lines.h"

namespace csift {

std::vector<HarnessEntry> attach_agent_readers(std::vector<HarnessEntry> entries) {
  for (HarnessEntry& h : entries) {
    switch (h.id()) {
      case HarnessId::codex:
        h.agents = &codex_agents;
        break;
      case HarnessId::copilot:
        h.agents = &copilot_agents;
        break;
      case HarnessId::gemini_cli:
        h.agents = &gemini_cli_agents;
        h.child_logs = &gemini_cli_child_logs;
        break;
      case HarnessId::opencode_v1:
      case HarnessId::opencode_v2:
        h.agents = &opencode_agents;
        h.child_logs = &opencode_child_logs;
        break;
      default:
        break;
    }
  }
  return entries;
}

bool walk_log_lines(const Transcript& t, const CancelToken* cancel, uint64_t& skipped,
                    const std::function<bool(const nlohmann::json&, uint64_t)>& fn, std::string* unreadable) {
  bool any = false;
  const ScanStats stats = reader_for(t).read_raw_lines(
      t,
      [&](const RawLine& raw) {
        any = true;
        if (raw.bytes.empty()) return true;
        if (raw.bytes.size() >= kMaxHeldLineBytes) {
          ++skipped;
          return true;
        }
        const nlohmann::json doc = nlohmann::json::parse(raw.bytes, nullptr, false);
        if (!doc.is_object()) {
          ++skipped;
          return true;
        }
        return fn(doc, raw.line);
      },
      cancel);
  if (!stats.broken.empty() && !stats.stopped) {
    ++skipped;
    if (unreadable) *unreadable = unreadable_rest(stats);
  }
  return any || stats.error.empty();
}

std::vector<std::string> descendant_ids(const std::string& root,
                                        const std::map<std::string, std::vector<std::string>>& children_of) {
  std::vector<std::string> tree{root};
  std::set<std::string> in_tree{root};
  for (size_t i = 0; i < tree.size(); ++i) {
    const auto kids = children_of.find(tree[i]);
    if (kids == children_of.end()) continue;
    for (const std::string& c : kids->second)
      if (in_tree.insert(c).second) tree.push_back(c);
  }
  return tree;
}

void add_unplaced_children(const std::vector<std::string>& ids, const std::set<std::string>& placed,
                           const std::function<void(HarnessChildAgent&, const std::string&)>& fill,
                           const std::string& not_recorded, HarnessAgents& out) {
  for (const std::string& id : ids) {
    if (placed.count(id)) continue;
    HarnessChildAgent c;
    c.id = id;
    fill(c, id);
    c.not_recorded = not_recorded;
    out.children.push_back(std::move(c));
  }
}

const nlohmann::json& json_object_at(const nlohmann::json& j, const char* key) {
  static const nlohmann::json empty = nlohmann::json::object();
  if (!j.is_object()) return empty;
  const auto it = j.find(key);
  return it != j.end() && it->is_object() ? *it : empty;
}

std::optional<uint64_t> json_count_at(const nlohmann::json& j, const char* key) {
  if (!j.is_object()) return std::nullopt;
  const auto it = j.find(key);
  if (it == j.end() || !it->is_number_unsigned()) {
    if (it != j.end() && it->is_number_integer() && it->get<int64_t>() >= 0)
      return static_cast<uint64_t>(it->get<int64_t>());
    return std::nullopt;
  }
  return it->get<uint64_t>();
}

}  // namespace csift
