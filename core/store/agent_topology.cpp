#include "core/store/agent_topology.h"

#include <algorithm>
#include <deque>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "core/record/transcript_reader.h"

namespace csift {

namespace {

constexpr size_t kMaxDepth = 256;  // a forged parent cycle never loops forever

// The spawn tool_use ids (of `wanted`) that appear as tool_use blocks in one transcript.
std::vector<std::string> spawn_ids_in(const Transcript& t, const std::unordered_set<std::string>& wanted) {
  std::vector<std::string> found;
  ReadOptions opts;
  // Raw prefilter: the harness's byte probe for a tool id (a superset: the parse below decides); a harness
  // without probes has every line parsed.
  if (const RawLineProbes* probes = reader_for(t).raw_probes())
    opts.want = [probes, &wanted](std::string_view line) { return probes->mentions_tool_id(line, wanted); };
  for_each_record(t, opts, [&](Record&& record) {
    for (const Block& block : record.message.blocks) {
      if (block.kind == BlockKind::tool_use && wanted.count(block.id)) found.push_back(block.id);
    }
    return true;
  });
  return found;
}

}  // namespace

std::unordered_map<std::string, std::string> spawned_agents_by_tool_use(const Transcript& t) {
  std::unordered_map<std::string, std::string> out;
  if (t.project_dir.empty()) return out;  // a bare file with no store around it
  Transcript session = t;
  if (t.is_subagent) {
    if (t.session_id.empty() || t.shape == TranscriptShape::legacy_flat) return out;
    session.id = t.session_id;
    session.is_subagent = false;
  }
  for (const Transcript& a : list_subagents(session)) {
    if (!a.spawn_tool_use_id().empty()) out.emplace(a.spawn_tool_use_id(), a.id);
  }
  return out;
}

AgentTopology build_agent_topology(const Transcript& session, const std::vector<Transcript>& agents) {
  AgentTopology topo;
  std::unordered_map<std::string, std::string> child_of_spawn;  // spawn tool_use id -> child agent id
  for (const Transcript& a : agents) {
    topo.parent[a.id] = "";
    if (!a.parent_agent_id().empty() && a.parent_agent_id() != a.id) {
      topo.parent[a.id] = a.parent_agent_id();
    } else if (!a.spawn_tool_use_id().empty()) {
      child_of_spawn[a.spawn_tool_use_id()] = a.id;
    }
  }
  if (child_of_spawn.empty()) return topo;
  std::unordered_set<std::string> wanted;
  for (const auto& [spawn, child] : child_of_spawn)
    wanted.insert(spawn);

  // The main transcript first: a spawn it issued makes a direct child, whatever a forked clone also holds.
  std::set<std::string> claimed;
  for (const std::string& id : spawn_ids_in(session, wanted))
    claimed.insert(id);
  for (const Transcript& issuer : agents) {
    if (claimed.size() == wanted.size()) break;
    for (const std::string& spawn : spawn_ids_in(issuer, wanted)) {
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
