// Codex's sub-agents, from the rollouts themselves (codex-rs protocol, openai/codex 2025-26: SessionSource
// SubAgent(ThreadSpawn), CollabAgentSpawn{Begin,End}Event, CollabWaitingEndEvent, CollabCloseEndEvent,
// items.rs CollabAgentToolCallItem). A thread spawned by `spawn_agent` writes its own rollout whose
// session_meta `source` is `{"subagent":{"thread_spawn":{"parent_thread_id","depth","agent_nickname",
// "agent_role","agent_path"}}}`; the parent's rollout holds the call (`function_call` spawn_agent with
// {message|items, agent_type, task_name, model}), its output (`{"agent_id"|"task_name","nickname"}`, or the
// error text of a spawn that failed), `collab_agent_spawn_end` (new_thread_id null when the spawn failed),
// `item_completed` CollabAgentToolCall items (status failed), and the statuses `wait` / `close_agent`
// reported (`{"completed": <last message>}`, `{"errored": …}`, "running", "not_found", …).
#include "core/harness/codex/codex_agents.h"

#include <filesystem>
#include <map>
#include <optional>
#include <set>

#include "core/harness/codex/codex_harness.h"
#include "core/harness/harness_agents_walk.h"
#include "core/harness/harness_listing.h"

namespace csift {

using hjson = nlohmann::json;

namespace {

// What a rollout's first line says of the thread: its id and, for a sub-agent, its parent and names.
struct CodexThreadMeta {
  std::string id, parent, nickname, role, path;
  bool subagent = false;
};

CodexThreadMeta codex_thread_meta(const std::string& path) {
  CodexThreadMeta m;
  const std::optional<std::string> line = codex_first_line(path);
  if (!line) return m;
  const hjson doc = hjson::parse(*line, nullptr, false);
  if (!doc.is_object() || json_string_at(doc, "type") != "session_meta") return m;
  const hjson& payload = json_object_at(doc, "payload");
  m.id = json_string_at(payload, "id");
  m.parent = json_string_at(payload, "parent_thread_id");
  const hjson& source = json_object_at(payload, "source");
  if (source.contains("subagent")) {
    m.subagent = true;
    const hjson& spawn = json_object_at(source["subagent"], "thread_spawn");
    if (!spawn.empty()) {
      if (m.parent.empty()) m.parent = json_string_at(spawn, "parent_thread_id");
      m.nickname = json_string_at(spawn, "agent_nickname");
      m.role = json_string_at(spawn, "agent_role");
      if (m.role.empty()) m.role = json_string_at(spawn, "agent_type");
      m.path = json_string_at(spawn, "agent_path");
    }
  }
  if (m.nickname.empty()) m.nickname = json_string_at(payload, "agent_nickname");
  if (m.role.empty()) m.role = json_string_at(payload, "agent_role");
  return m;
}

// Every rollout of one Codex store by its thread id, and the threads each one started: built once per
// `agents` call (HarnessAgentsCall), however many of the store's sessions are in scope.
struct CodexStoreIndex {
  std::vector<Transcript> rollouts;          // the store's listing
  std::map<std::string, size_t> rollout_of;  // thread id -> its rollout (the first one listed)
  std::map<std::string, CodexThreadMeta> meta_of;
  std::map<std::string, std::string> thread_of_path;  // a rollout's path -> its thread id
  std::map<std::string, std::vector<std::string>> children_of;
};

CodexStoreIndex codex_store_index(const std::string& root, const CancelToken* cancel) {
  CodexStoreIndex idx;
  StoreListing listing;
  list_codex_store(StoreRoot{root, "", ""}, listing);
  idx.rollouts = std::move(listing.transcripts);
  for (size_t i = 0; i < idx.rollouts.size(); ++i) {
    if (cancel && cancel->is_cancelled()) break;
    const Transcript& t = idx.rollouts[i];
    CodexThreadMeta m = codex_thread_meta(t.path);
    if (m.id.empty()) m.id = codex_session_id_of(std::filesystem::path(t.path).filename().string());
    idx.thread_of_path[t.path] = m.id;
    if (idx.rollout_of.count(m.id)) continue;
    idx.rollout_of[m.id] = i;
    if (m.subagent && !m.parent.empty()) idx.children_of[m.parent].push_back(m.id);
    idx.meta_of[m.id] = std::move(m);
  }
  return idx;
}

// An AgentStatus as serde writes it: "running", "pending_init", "shutdown", "not_found", "interrupted", or
// {"completed": <message|null>}, {"errored": <message>}.
struct CodexAgentState {
  std::string status;  // completed, running, failed, "" (shutdown: says nothing of the outcome)
  std::string message;
  bool has_message = false;
};

CodexAgentState codex_agent_state(const hjson& s) {
  CodexAgentState out;
  if (s.is_string()) {
    const std::string v = s.get<std::string>();
    if (v == "running" || v == "pending_init") out.status = "running";
    if (v == "not_found") out.status = "failed", out.message = "not found", out.has_message = true;
    if (v == "interrupted") out.status = "failed", out.message = "interrupted", out.has_message = true;
  } else if (s.is_object()) {
    if (s.contains("completed")) {
      out.status = "completed";
      out.has_message = s["completed"].is_string();
      if (out.has_message) out.message = s["completed"].get<std::string>();
    } else if (s.contains("errored")) {
      out.status = "failed";
      out.has_message = true;
      out.message = s["errored"].is_string() ? s["errored"].get<std::string>() : s["errored"].dump();
    }
  }
  return out;
}

struct CodexSpawn {
  std::string call_id, issuer, timestamp, tool = "spawn_agent";
  uint64_t line = 0;
  std::string thread_id, prompt, agent_type, task_name, model, nickname;
  bool has_output = false;
  std::string failure;  // a spawn that started no thread
};

// One rollout's collab events, read in file order.
class CodexCollabScan {
 public:
  CodexCollabScan(std::vector<CodexSpawn>& spawns, std::map<std::string, CodexAgentState>& states)
      : spawns_(spawns), states_(states) {}

  // One entry, whose `type`, `payload` (read in place) and payload `type` the caller has taken.
  void line(const hjson& entry, const std::string& type, const hjson& payload, const std::string& kind,
            uint64_t n, const std::string& issuer) {
    const std::string ts = json_string_at(entry, "timestamp");
    if (type == "response_item" && kind == "function_call") {
      const std::string name = json_string_at(payload, "name");
      const std::string id = json_string_at(payload, "call_id");
      if (name == "spawn_agent") spawn_call(payload, id, n, ts, issuer);
      if (name == "wait" || name == "wait_agent") waits_.insert(id);
    } else if (type == "response_item" &&
               (kind == "function_call_output" || kind == "custom_tool_call_output")) {
      output(payload);
    } else if (type == "event_msg") {
      event(kind, payload, n, ts, issuer);
    }
  }

 private:
  std::vector<CodexSpawn>& spawns_;
  std::map<std::string, CodexAgentState>& states_;
  std::set<std::string> waits_;

  CodexSpawn& spawn_for(const std::string& call_id, uint64_t n, const std::string& ts,
                        const std::string& issuer) {
    for (CodexSpawn& s : spawns_)
      if (s.call_id == call_id && s.issuer == issuer) return s;
    CodexSpawn s;
    s.call_id = call_id;
    s.issuer = issuer;
    s.line = n;
    s.timestamp = ts;
    spawns_.push_back(std::move(s));
    return spawns_.back();
  }

  // The thread a `wait` status key names: a thread id, or the task name (agent path) of a spawn that started
  // one (the newest such spawn).
  std::string thread_of_key(const std::string& key) const {
    for (auto s = spawns_.rbegin(); s != spawns_.rend(); ++s)
      if (s->task_name == key && !s->thread_id.empty()) return s->thread_id;
    return key;
  }

  CodexSpawn* known_spawn(const std::string& call_id) {
    for (CodexSpawn& s : spawns_)
      if (s.call_id == call_id) return &s;
    return nullptr;
  }

  void spawn_call(const hjson& payload, const std::string& id, uint64_t n, const std::string& ts,
                  const std::string& issuer) {
    CodexSpawn& s = spawn_for(id, n, ts, issuer);
    s.line = n;
    s.timestamp = ts;
    const hjson raw = payload.value("arguments", hjson());
    const hjson args = raw.is_string() ? hjson::parse(raw.get<std::string>(), nullptr, false) : raw;
    if (!args.is_object()) return;
    if (s.prompt.empty()) s.prompt = json_string_at(args, "message");
    if (s.prompt.empty() && args.contains("items") && args["items"].is_array()) {
      for (const hjson& item : args["items"])
        if (json_string_at(item, "type") == "text") s.prompt += json_string_at(item, "text");
    }
    s.agent_type = json_string_at(args, "agent_type");
    s.task_name = json_string_at(args, "task_name");
    if (s.model.empty()) s.model = json_string_at(args, "model");
  }

  void output(const hjson& payload) {
    const std::string id = json_string_at(payload, "call_id");
    const hjson out = payload.value("output", hjson());
    std::string text;
    bool failed = false;
    if (out.is_string()) {
      text = out.get<std::string>();
    } else if (out.is_object()) {
      text = json_string_at(out, "content");
      failed = out.value("success", true) == false;
    }
    const hjson doc = text.starts_with("{") ? hjson::parse(text, nullptr, false) : hjson();
    if (waits_.count(id)) {
      // {"status": {<thread id or agent path>: <AgentStatus>}, "timed_out": bool}
      if (doc.is_object() && doc.contains("status") && doc["status"].is_object()) {
        for (const auto& [key, st] : doc["status"].items())
          note_state(thread_of_key(key), st);
      }
      return;
    }
    CodexSpawn* s = known_spawn(id);
    if (!s || s->has_output) return;  // the first output of a call is its result
    s->has_output = true;
    if (doc.is_object() && !failed) {
      if (const std::string t = json_string_at(doc, "agent_id"); !t.empty()) s->thread_id = t;
      if (const std::string p = json_string_at(doc, "task_name"); !p.empty()) s->task_name = p;
      if (const std::string nick = json_string_at(doc, "nickname"); !nick.empty()) s->nickname = nick;
      return;
    }
    if (s->thread_id.empty()) s->failure = text.empty() ? "spawn_agent failed" : text;
  }

  void note_state(const std::string& thread, const hjson& st) {
    const CodexAgentState state = codex_agent_state(st);
    if (state.status.empty()) return;
    CodexAgentState& have = states_[thread];
    // A later report replaces an earlier one, but a final outcome is never undone by "running".
    if (state.status == "running" && !have.status.empty()) return;
    have = state;
  }

  void event(const std::string& kind, const hjson& p, uint64_t n, const std::string& ts,
             const std::string& issuer) {
    if (kind == "collab_agent_spawn_begin") {
      CodexSpawn& s = spawn_for(json_string_at(p, "call_id"), n, ts, issuer);
      if (s.prompt.empty()) s.prompt = json_string_at(p, "prompt");
    } else if (kind == "collab_agent_spawn_end") {
      CodexSpawn& s = spawn_for(json_string_at(p, "call_id"), n, ts, issuer);
      if (s.prompt.empty()) s.prompt = json_string_at(p, "prompt");
      if (const std::string m = json_string_at(p, "model"); !m.empty()) s.model = m;
      if (const std::string nick = json_string_at(p, "new_agent_nickname"); !nick.empty()) s.nickname = nick;
      if (const std::string role = json_string_at(p, "new_agent_role"); !role.empty() && s.agent_type.empty())
        s.agent_type = role;
      const std::string thread = json_string_at(p, "new_thread_id");
      if (!thread.empty()) {
        s.thread_id = thread;
        s.failure.clear();
        note_state(thread, p.value("status", hjson()));
      } else if (s.thread_id.empty()) {
        const CodexAgentState st = codex_agent_state(p.value("status", hjson()));
        s.failure = "no thread was started (status " +
                    (st.has_message ? st.message : p.value("status", hjson()).dump()) + ")";
      }
    } else if (kind == "item_completed") {
      item(json_object_at(p, "item"), n, ts, issuer);
    } else if (kind == "collab_waiting_end") {
      if (p.contains("statuses") && p["statuses"].is_object())
        for (const auto& [thread, st] : p["statuses"].items())
          note_state(thread, st);
      for (const hjson& a : p.value("agent_statuses", hjson::array()))
        note_state(json_string_at(a, "thread_id"), a.value("status", hjson()));
    } else if (kind == "collab_close_end") {
      note_state(json_string_at(p, "receiver_thread_id"), p.value("status", hjson()));
    }
  }

  void item(const hjson& it, uint64_t n, const std::string& ts, const std::string& issuer) {
    if (json_string_at(it, "type") != "CollabAgentToolCall") return;
    const std::string tool = json_string_at(it, "tool");
    const hjson receivers = it.value("receiver_thread_ids", hjson::array());
    if (tool == "spawnAgent") {
      CodexSpawn& s = spawn_for(json_string_at(it, "id"), n, ts, issuer);
      if (s.prompt.empty()) s.prompt = json_string_at(it, "prompt");
      if (s.model.empty()) s.model = json_string_at(it, "model");
      if (receivers.is_array() && !receivers.empty() && receivers[0].is_string())
        s.thread_id = receivers[0].get<std::string>();
      if (json_string_at(it, "status") == "failed" && s.thread_id.empty() && s.failure.empty())
        s.failure = "spawnAgent failed (item_completed)";
    }
    if (it.contains("agents_states") && it["agents_states"].is_object())
      for (const auto& [thread, st] : it["agents_states"].items())
        note_state(thread, st);
  }
};

// What a sub-agent's own rollout says of its end: the last task_complete's message, and whether a turn
// started after it.
struct CodexChildEnd {
  std::string last_message, completed_at;
  bool open_turn = false;
};

}  // namespace

HarnessAgents codex_agents(const Transcript& session, const CancelToken* cancel, HarnessAgentsCall& call) {
  HarnessAgents out;
  const std::string root = std::filesystem::path(session.project_dir).parent_path().string();
  const CodexStoreIndex& idx =
      call.shared<CodexStoreIndex>("codex:" + root, [&] { return codex_store_index(root, cancel); });
  if (cancel && cancel->is_cancelled()) return out;
  // The session's own first line, as the index read it (read here only for a rollout the index holds no
  // meta of: one the listing skipped, or a second rollout of a thread id).
  const auto indexed = idx.thread_of_path.find(session.path);
  const auto at =
      indexed == idx.thread_of_path.end() ? idx.rollout_of.end() : idx.rollout_of.find(indexed->second);
  const bool own = at != idx.rollout_of.end() && idx.rollouts[at->second].path == session.path;
  const CodexThreadMeta self = own ? idx.meta_of.at(at->first) : codex_thread_meta(session.path);
  const std::string self_id =
      self.id.empty() ? codex_session_id_of(std::filesystem::path(session.path).filename().string())
                      : self.id;
  if (self.subagent && !self.parent.empty()) out.parent_ref = harness_ref(kCodexHarness, self.parent);
  const auto rollout = [&](const std::string& thread) -> const Transcript* {
    const auto r = idx.rollout_of.find(thread);
    return r == idx.rollout_of.end() ? nullptr : &idx.rollouts[r->second];
  };

  // The session and its descendant threads, breadth first; each one's collab events.
  const std::vector<std::string> tree = descendant_ids(self_id, idx.children_of);
  std::vector<CodexSpawn> spawns;
  std::map<std::string, CodexAgentState> states;
  std::map<std::string, CodexChildEnd> ends;
  for (const std::string& thread : tree) {
    const std::string issuer = thread == self_id ? "" : thread;
    const Transcript* log = thread == self_id ? &session : rollout(thread);
    if (!log) continue;
    CodexCollabScan scan(spawns, states);
    CodexChildEnd& end = ends[thread];
    std::string unreadable;  // a .jsonl.zst rollout whose stream stopped decoding part way
    const bool ok = walk_log_lines(
        *log, cancel, out.skipped_lines,
        [&](const hjson& entry, uint64_t n) {
          const std::string type = json_string_at(entry, "type");
          const hjson& payload = json_object_at(entry, "payload");
          const std::string kind = json_string_at(payload, "type");
          scan.line(entry, type, payload, kind, n, issuer);
          if (type == "event_msg" && kind == "task_started") end.open_turn = true;
          if (type == "event_msg" && kind == "task_complete") {
            end.open_turn = false;
            end.last_message = json_string_at(payload, "last_agent_message");
            end.completed_at = json_string_at(entry, "timestamp");
          }
          return true;
        },
        &unreadable);
    if (!ok && thread == self_id) out.error = "cannot open " + log->path;
    if (!unreadable.empty()) out.notes.push_back(log->id + ": " + unreadable);
  }

  std::set<std::string> placed;
  const auto child_of_thread = [&](HarnessChildAgent& c, const std::string& thread) {
    if (const Transcript* r = rollout(thread)) {
      c.transcript = *r;
      c.ref = r->id;
    } else {
      c.not_recorded = "its rollout (thread " + thread + ") is not in this Codex store";
    }
    const auto m = idx.meta_of.find(thread);
    if (m != idx.meta_of.end()) {
      if (c.name.empty()) c.name = m->second.nickname;
      if (c.agent_type.empty()) c.agent_type = m->second.role;
      if (c.description.empty()) c.description = m->second.path;
      if (!m->second.parent.empty() && m->second.parent != self_id) c.parent_agent_id = m->second.parent;
    }
    const auto st = states.find(thread);
    if (st != states.end()) {
      c.status = st->second.status;
      if (st->second.status == "failed") c.failure = st->second.message;
      if (st->second.status == "completed" && st->second.has_message) {
        c.returned_message = st->second.message;
        c.returned_source = "codex-agent-status";
      }
    }
    const auto e = ends.find(thread);
    if (e != ends.end() && c.returned_message.empty() && !e->second.last_message.empty()) {
      c.returned_message = e->second.last_message;
      c.returned_source = "child-task-complete";
    }
    if (e != ends.end() && c.status.empty() && !e->second.completed_at.empty() && !e->second.open_turn)
      c.status = "completed";
  };
  for (const CodexSpawn& s : spawns) {
    HarnessChildAgent c = spawned_child(s.thread_id, s.tool, s.call_id, s.line, s.timestamp);
    c.parent_agent_id = s.issuer;
    c.prompt = s.prompt;
    c.agent_type = s.agent_type;
    c.description = s.task_name;
    c.model = s.model;
    c.name = s.nickname;
    if (s.thread_id.empty()) {
      c.status = "failed";
      c.failure = s.failure.empty() ? (s.has_output ? "spawn_agent returned no thread" : "") : s.failure;
      if (c.failure.empty()) {
        c.status = "";
        c.not_recorded = "the rollout records no outcome of this spawn_agent call yet";
      }
      c.ref = s.issuer.empty() ? session.id : harness_ref(kCodexHarness, s.issuer);
    } else {
      if (!placed.insert(s.thread_id).second) continue;
      child_of_thread(c, s.thread_id);
      c.parent_agent_id = s.issuer;
    }
    out.children.push_back(std::move(c));
  }
  // A thread whose spawn call no rollout holds.
  add_unplaced_children(std::vector<std::string>(tree.begin() + 1, tree.end()), placed, child_of_thread,
                        "no rollout in this store holds the spawn_agent call that started it", out);
  return out;
}

}  // namespace csift
