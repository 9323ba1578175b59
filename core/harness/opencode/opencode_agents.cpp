// OpenCode's sub-agents, from its database (anomalyco/opencode packages/opencode/src/tool/task.ts): the
// `task` tool creates a child session (`parentID` = the caller's session; title "<description>
// (@<agent> subagent)") and records on its own part `state.input` {description, prompt, subagent_type,
// task_id}, `state.metadata.sessionId` (the child) and, once done, `state.output` ("task_id: <id> …
// <task_result>…</task_result>"; older releases the bare text) or `state.error`. OpenCode 1 keeps the part
// as a `part` row ({"type":"tool","tool":"task","callID","state"}); OpenCode 2 inside its assistant
// `session_message` row's `content` ({"type":"tool","id","name","state"}). A child session that no task
// call names (a resumed or user-started subtask) is still listed under its parent.
#include "core/harness/opencode/opencode_agents.h"

#include <map>
#include <set>

#include "core/base/timefmt.h"
#include "core/harness/harness_agents_walk.h"
#include "core/harness/opencode/opencode_store.h"
#include "core/harness/opencode/sqlite_readonly.h"

namespace csift {

using hjson = nlohmann::json;

namespace {

struct OpenCodeChildRow {
  std::string id, parent, title;
  int64_t created = 0, updated = 0;
};

struct OpenCodeTaskCall {
  std::string call_id, issuer, child, status, output, error, timestamp;
  hjson input = hjson::object();
  uint64_t line = 0;
};

// What a task call returned: the text between <task_result> tags, else the whole output.
std::string opencode_task_result(const std::string& output) {
  const size_t open = output.find("<task_result>");
  const size_t close = output.rfind("</task_result>");
  if (open == std::string::npos || close == std::string::npos || close < open) return output;
  std::string text = output.substr(open + 13, close - open - 13);
  while (!text.empty() && (text.front() == '\n'))
    text.erase(0, 1);
  while (!text.empty() && (text.back() == '\n'))
    text.pop_back();
  return text;
}

// One tool part (OpenCode 1) or content item (OpenCode 2) when it is a task call.
void opencode_take_task(const hjson& part, bool v2, uint64_t line, const std::string& issuer,
                        std::vector<OpenCodeTaskCall>& out) {
  if (json_string_at(part, "type") != "tool") return;
  if (json_string_at(part, v2 ? "name" : "tool") != "task") return;
  const hjson state = part.value("state", hjson::object());
  OpenCodeTaskCall c;
  c.call_id = json_string_at(part, v2 ? "id" : "callID");
  c.issuer = issuer;
  c.line = line;
  c.status = json_string_at(state, "status");
  if (state.contains("input") && state["input"].is_object()) c.input = state["input"];
  c.child = json_string_at(state.value("metadata", hjson::object()), "sessionId");
  c.output = json_string_at(state, "output");
  if (c.output.empty() && state.contains("content") && state["content"].is_array())
    for (const hjson& t : state["content"])
      if (json_string_at(t, "type") == "text") c.output += json_string_at(t, "text");
  const hjson err = state.value("error", hjson());
  c.error = err.is_string() ? err.get<std::string>() : json_string_at(err, "message");
  const hjson time = state.value("time", hjson::object());
  if (time.is_object() && time.contains("start") && time["start"].is_number())
    c.timestamp = format_utc(time["start"].get<int64_t>());
  out.push_back(std::move(c));
}

// Every child session row of a database (parent_id set), and the children of each session id.
struct OpenCodeChildRows {
  std::map<std::string, OpenCodeChildRow> rows;
  std::map<std::string, std::vector<std::string>> kids;
};

OpenCodeChildRows opencode_child_rows(ReadOnlyDb& db, bool v2) {
  OpenCodeChildRows out;
  db.query(std::string("SELECT id, parent_id, title, time_created, time_updated FROM ") +
               (v2 ? "session_v2" : "session") +
               " WHERE parent_id IS NOT NULL AND parent_id != '' ORDER BY time_created, id",
           {}, [&](const SqlRow& r) {
             OpenCodeChildRow row{r.text(0), r.text(1), r.text(2), r.integer(3).value_or(0),
                                  r.integer(4).value_or(0)};
             out.kids[row.parent].push_back(row.id);
             out.rows[row.id] = std::move(row);
             return true;
           });
  return out;
}

// A child session read as its own transcript: the listed top-level session's, named for the child (the
// reader reads the session its ref names from the same database).
Transcript opencode_child_transcript(const Transcript& session, const OpenCodeChildRow& row) {
  Transcript t = session;
  t.id = std::string(harness_name(session.harness)) + ":" + row.id;
  t.session_id = t.id;
  t.mtime_ns = row.updated * 1000000;
  return t;
}

}  // namespace

std::vector<Transcript> opencode_child_logs(const std::vector<Transcript>& listed,
                                            const CancelToken* cancel) {
  std::vector<Transcript> out;
  std::map<std::string, std::vector<const Transcript*>> by_db;  // a database's listed sessions, in order
  for (const Transcript& t : listed)
    by_db[t.path].push_back(&t);
  for (const auto& [path, sessions] : by_db) {
    if (cancel && cancel->is_cancelled()) break;
    ReadOnlyDb db;
    if (!db.open(path)) continue;
    const OpenCodeChildRows children =
        opencode_child_rows(db, sessions.front()->harness == HarnessId::opencode_v2);
    for (const Transcript* session : sessions) {
      const std::vector<std::string> tree = descendant_ids(opencode_session_id(*session), children.kids);
      for (size_t i = 1; i < tree.size(); ++i)
        out.push_back(opencode_child_transcript(*session, children.rows.at(tree[i])));
    }
  }
  return out;
}

HarnessAgents opencode_agents(const Transcript& session, const CancelToken* cancel, HarnessAgentsCall&) {
  HarnessAgents out;
  ReadOnlyDb db;
  if (!db.open(session.path)) {
    out.error = "cannot open " + session.path + ": " + db.error();
    return out;
  }
  const bool v2 = session.harness == HarnessId::opencode_v2;
  const std::string root = opencode_session_id(session);
  const OpenCodeChildRows children = opencode_child_rows(db, v2);
  const std::map<std::string, OpenCodeChildRow>& rows = children.rows;
  const std::vector<std::string> tree = descendant_ids(root, children.kids);
  const std::set<std::string> in_tree(tree.begin(), tree.end());

  // The task calls of the session and of every descendant, each at its line (the message's ordinal in the
  // session's log, as the reader renders it).
  std::vector<OpenCodeTaskCall> calls;
  for (const std::string& sid : tree) {
    if (cancel && cancel->is_cancelled()) return out;
    const std::string issuer = sid == root ? "" : sid;
    std::map<std::string, uint64_t> ordinal;
    if (v2) {
      db.query("SELECT id, type, data FROM session_message WHERE session_id = ? ORDER BY seq", {sid},
               [&](const SqlRow& r) {
                 const uint64_t line = ordinal.size() + 1;
                 ordinal[r.text(0)] = line;
                 if (r.text(1) != "assistant" || r.text(2).find("\"task\"") == std::string::npos) return true;
                 const hjson data = hjson::parse(r.text(2), nullptr, false);
                 if (!data.is_object() || !data.contains("content") || !data["content"].is_array())
                   return true;
                 for (const hjson& c : data["content"])
                   opencode_take_task(c, true, line, issuer, calls);
                 return true;
               });
      continue;
    }
    db.query("SELECT id FROM message WHERE session_id = ? ORDER BY time_created, id", {sid},
             [&](const SqlRow& r) {
               const uint64_t line = ordinal.size() + 1;
               ordinal[r.text(0)] = line;
               return true;
             });
    db.query(
        "SELECT message_id, data FROM part WHERE session_id = ? AND data LIKE '%\"task\"%' "
        "ORDER BY message_id, id",
        {sid}, [&](const SqlRow& r) {
          const hjson part = hjson::parse(r.text(1), nullptr, false);
          if (!part.is_object()) {
            ++out.skipped_lines;
            return true;
          }
          const auto at = ordinal.find(r.text(0));
          opencode_take_task(part, false, at == ordinal.end() ? 0 : at->second, issuer, calls);
          return true;
        });
  }

  const auto child_transcript = [&](HarnessChildAgent& c, const std::string& sid) {
    const auto row = rows.find(sid);
    if (row == rows.end() || !in_tree.count(sid)) {
      c.not_recorded = "its child session " + sid + " is not in " + session.path;
      return;
    }
    c.transcript = opencode_child_transcript(session, row->second);
    c.ref = c.transcript->id;
    if (c.description.empty()) c.description = row->second.title;
    if (c.started_timestamp.empty() && row->second.created > 0)
      c.started_timestamp = format_utc(row->second.created);
    if (!row->second.parent.empty() && row->second.parent != root) c.parent_agent_id = row->second.parent;
  };
  std::set<std::string> placed;
  for (const OpenCodeTaskCall& call : calls) {
    if (!call.child.empty() && !placed.insert(call.child).second) continue;  // a resumed task: listed once
    HarnessChildAgent c = spawned_child(call.child, "task", call.call_id, call.line, call.timestamp);
    c.description = json_string_at(call.input, "description");
    c.prompt = json_string_at(call.input, "prompt");
    c.agent_type = json_string_at(call.input, "subagent_type");
    if (call.status == "completed") {
      c.status = "completed";
      c.returned_message = opencode_task_result(call.output);
      c.returned_source = "task-tool-result";
    } else if (call.status == "error") {
      c.status = "failed";
      c.failure = call.error.empty() ? "the task call failed" : call.error;
    } else if (call.status == "running" || call.status == "pending") {
      c.status = "running";
    }
    if (!call.child.empty()) {
      child_transcript(c, call.child);
    } else {
      c.ref = session.id;
      c.not_recorded = "the task call names no child session (it failed or was refused before one started)";
    }
    c.parent_agent_id = call.issuer;
    out.children.push_back(std::move(c));
  }
  add_unplaced_children(std::vector<std::string>(tree.begin() + 1, tree.end()), placed, child_transcript,
                        "no task call in the database names this child session", out);
  return out;
}

}  // namespace csift
