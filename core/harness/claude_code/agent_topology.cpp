#include "core/harness/claude_code/agent_topology.h"

#include <algorithm>
#include <deque>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "core/harness/claude_code/record_parser.h"
#include "core/scan/line_scanner.h"

namespace csift {

namespace {

constexpr size_t kMaxDepth = 256;  // a forged parent cycle never loops forever

// Raw prefilter: the line has an `"id":"<wanted>"` pair (a tool_result's "tool_use_id" never matches the
// key).
bool mentions_wanted_id(std::string_view line, const std::unordered_set<std::string>& wanted) {
  for (std::string_view id : key_string_values(line, "id")) {
    if (wanted.count(std::string(id))) return true;
  }
  return false;
}

// The spawn tool_use ids (of `wanted`) that appear as tool_use blocks in one transcript.
std::vector<std::string> spawn_ids_in(const std::string& path,
                                      const std::unordered_set<std::string>& wanted) {
  std::vector<std::string> found;
  RecordParser parser;
  LineScanner scanner;
  scanner.scan_lines(path, [&](const LineView& line) {
    if (!mentions_wanted_id(line.bytes, wanted)) return true;
    Record record;
    if (parser.parse(line.bytes, record) != ParseStatus::ok) return true;
    for (const Block& block : record.message.blocks) {
      if (block.kind == BlockKind::tool_use && wanted.count(block.id)) found.push_back(block.id);
    }
    return true;
  });
  return found;
}

}  // namespace

AgentTopology build_agent_topology(const Transcript& session, const std::vector<Transcript>& agents) {
  AgentTopology topo;
  std::unordered_map<std::string, std::string> child_of_spawn;  // spawn tool_use id -> child agent id
  for (const Transcript& a : agents) {
    topo.parent[a.id] = "";
    if (!a.parent_agent_id.empty() && a.parent_agent_id != a.id) {
      topo.parent[a.id] = a.parent_agent_id;
    } else if (!a.spawn_tool_use_id.empty()) {
      child_of_spawn[a.spawn_tool_use_id] = a.id;
    }
  }
  if (child_of_spawn.empty()) return topo;
  std::unordered_set<std::string> wanted;
  for (const auto& [spawn, child] : child_of_spawn)
    wanted.insert(spawn);

  // The main transcript first: a spawn it issued makes a direct child, whatever a forked clone also holds.
  std::set<std::string> claimed;
  for (const std::string& id : spawn_ids_in(session.path, wanted))
    claimed.insert(id);
  for (const Transcript& issuer : agents) {
    if (claimed.size() == wanted.size()) break;
    for (const std::string& spawn : spawn_ids_in(issuer.path, wanted)) {
      const std::string& child = child_of_spawn[spawn];
      // A /fork child clones its parent's transcript, spawn included: never its own parent.
      if (claimed.count(spawn) || child == issuer.id) continue;
      claimed.insert(spawn);
      topo.parent[child] = issuer.id;
    }
  }
  return topo;
}

std::vector<std::string> AgentTopology::descendants(const std::string& id) const {
  std::map<std::string, std::vector<std::string>> children;
  for (const auto& [child, par] : parent) {
    if (!par.empty()) children[par].push_back(child);
  }
  std::vector<std::string> out;
  std::set<std::string> seen{id};
  std::deque<std::string> queue{id};
  while (!queue.empty()) {
    std::string cur = queue.front();
    queue.pop_front();
    for (const std::string& c : children[cur]) {
      if (!seen.insert(c).second) continue;
      out.push_back(c);
      queue.push_back(c);
    }
  }
  return out;
}

std::vector<std::string> AgentTopology::ancestry(const std::string& id) const {
  std::vector<std::string> chain{id};
  std::set<std::string> seen{id};
  for (std::string cur = id; chain.size() < kMaxDepth;) {
    auto it = parent.find(cur);
    if (it == parent.end() || it->second.empty() || !seen.insert(it->second).second) break;
    cur = it->second;
    chain.push_back(cur);
  }
  return chain;
}

}  // namespace csift
