// Who talked to whom (SPEC.md §4 "Direction"): a spawn and its return or <result> notification name the
// child agent through the subagent's meta.json toolUseId, the notification's <tool-use-id> and an async
// launch acknowledgement's toolUseResult.agentId — never `?`.
#include <doctest/doctest.h>

#include "core/store/classified_transcript.h"
#include "temp_store.h"
#include "tools/common/record_render.h"

namespace spawn_join_unit {

using namespace csift;
using csift_test::TempStore;

namespace {

const std::string kSid = "5ba7e000-0000-4000-8000-000000000009";

std::string rec(const std::string& type, const std::string& uuid, const std::string& content,
                const std::string& extra = "") {
  return "{\"type\":\"" + type + "\",\"uuid\":\"" + uuid + "\",\"sessionId\":\"" + kSid + "\"," + extra +
         "\"timestamp\":\"2026-06-07T04:32:00.000Z\",\"message\":{\"role\":\"" +
         (type == "user" ? "user" : "assistant") + "\",\"content\":" + content + "}}\n";
}

std::string spawn(const std::string& id, const std::string& type) {
  return rec("assistant", "a-" + id,
             "[{\"type\":\"tool_use\",\"id\":\"" + id +
                 "\",\"name\":\"Agent\",\"input\":{\"subagent_type\":\"" + type + "\",\"prompt\":\"go\"}}]");
}

// L1 prompt · L2 spawn (sync, meta.json) · L3 its return · L4 spawn (async, no meta.json) · L5 its launch
// ack naming agentId · L6 the task notification carrying the async child's <result>.
std::string session() {
  return rec("user", "u1", "\"audit the repo\"") + spawn("toolu_sync", "Explore") +
         rec("user", "r1",
             "[{\"type\":\"tool_result\",\"tool_use_id\":\"toolu_sync\",\"content\":\"found 3\"}]") +
         spawn("toolu_async", "general-purpose") +
         rec("user", "r2",
             "[{\"type\":\"tool_result\",\"tool_use_id\":\"toolu_async\",\"content\":\"Async agent launched "
             "successfully.\"}]",
             "\"toolUseResult\":{\"isAsync\":true,\"status\":\"async_launched\",\"agentId\":\"bb22\"},") +
         rec("user", "n1",
             "\"<task-notification>\\n<task-id>bb22</task-id>\\n<tool-use-id>toolu_async</tool-use-id>\\n"
             "<status>completed</status>\\n<summary>Agent \\\"audit\\\" completed</summary>\\n<result>all "
             "clear</result>\\n</task-notification>\"");
}

const Unit* unit_at(const ClassifiedTranscript& ct, uint64_t line, Label first) {
  for (const auto& e : ct.entries)
    for (const auto& u : e.units)
      if (e.record->line == line && u.labels.front() == first) return &u;
  return nullptr;
}

}  // namespace

TEST_CASE("spawn join: spawn, return and <result> notification name the child agent") {
  TempStore store;
  Transcript t;
  t.path = store.write("-work-demo/" + kSid + ".jsonl", session());
  t.project_dir = (store.projects() / "-work-demo").string();
  t.id = kSid;
  t.session_id = kSid;
  store.write("-work-demo/" + kSid + "/subagents/agent-aa11.jsonl", rec("user", "s1", "\"go\""));
  store.write("-work-demo/" + kSid + "/subagents/agent-aa11.meta.json",
              "{\"agentType\":\"Explore\",\"toolUseId\":\"toolu_sync\"}");
  const ClassifiedTranscript ct = load_classified_transcript(t, false, nullptr);

  const Unit* sync_spawn = unit_at(ct, 2, Label::agent_communication_sent);
  REQUIRE(sync_spawn);
  CHECK(sync_spawn->to == "aa11");  // meta.json toolUseId
  const Unit* sync_return = unit_at(ct, 3, Label::agent_communication_inbox);
  REQUIRE(sync_return);
  CHECK(sync_return->from == "aa11");
  const Unit* async_spawn = unit_at(ct, 4, Label::agent_communication_sent);
  REQUIRE(async_spawn);
  CHECK(async_spawn->to == "bb22");  // the launch ack's toolUseResult.agentId
  const Unit* ack = unit_at(ct, 5, Label::agent_tool_result);
  REQUIRE(ack);  // the acknowledgement stays a plain result
  const Unit* report = unit_at(ct, 6, Label::agent_communication_inbox);
  REQUIRE(report);
  CHECK(report->from == "bb22");  // the notification's <tool-use-id>
}

TEST_CASE("spawn join: a notification's pulse and <result> hits each carry the section's full label set") {
  TempStore store;
  Transcript t;
  t.path = store.write("-work-demo/" + kSid + ".jsonl", session());
  t.project_dir = (store.projects() / "-work-demo").string();
  t.id = kSid;
  t.session_id = kSid;
  const ClassifiedTranscript ct = load_classified_transcript(t, false, nullptr);
  const auto& e = ct.entries[5];
  REQUIRE(e.units.size() == 2);
  const json pulse = build_hit_json(hit_input_of(ct, e, 0), ExcerptPolicy::full_text());
  const json report = build_hit_json(hit_input_of(ct, e, 1), ExcerptPolicy::full_text());
  CHECK(pulse["label"] == "harness.notification.subagent");
  CHECK(pulse["labels"] == json({"harness.notification.subagent", "agent.communication.inbox"}));
  CHECK(report["label"] == "agent.communication.inbox");
  CHECK(report["labels"] == json({"agent.communication.inbox", "harness.notification.subagent"}));
}

}  // namespace spawn_join_unit
