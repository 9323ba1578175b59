// The sub-agent seam's shared pieces: attaching each harness's reader of sub-agents to its entry (one line
// per harness, so the readers' own entry functions stay untouched), and the raw line walk those readers
// share: they read the log's lines themselves, because what they need (spawn, wait and close events, a
// sub-agent's inline events) is not in the shared record model.
#include "core/harness/harness_agents_walk.h"

#include <fstream>

#include "core/harness/codex/codex_agents.h"
#include "core/harness/copilot/copilot_agents.h"
#include "core/harness/gemini_cli/gemini_cli_agents.h"
#include "core/harness/opencode/opencode_agents.h"
#include "core/scan/line_scanner.h"

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
        break;
      case HarnessId::opencode_v1:
      case HarnessId::opencode_v2:
        h.agents = &opencode_agents;
        break;
      default:
        break;
    }
  }
  return entries;
}

bool walk_log_lines(const std::string& path, const CancelToken* cancel, uint64_t& skipped,
                    const std::function<bool(const nlohmann::json&, uint64_t)>& fn) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::string line;
  uint64_t n = 0;
  while (std::getline(in, line)) {
    ++n;
    if ((n & 1023) == 0 && cancel && cancel->is_cancelled()) return true;
    if (line.empty()) continue;
    if (line.size() >= kMaxHeldLineBytes) {
      ++skipped;
      continue;
    }
    const nlohmann::json doc = nlohmann::json::parse(line, nullptr, false);
    if (!doc.is_object()) {
      ++skipped;
      continue;
    }
    if (!fn(doc, n)) break;
  }
  return true;
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
