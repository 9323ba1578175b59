// §4 record semantics and §5 classification.
#include <doctest/doctest.h>

#include "core/harness/claude_code/classify.h"
#include "core/harness/claude_code/classify_detail.h"
#include "core/harness/claude_code/record_parser.h"

namespace classify_unit {

using namespace csift;

namespace {

Record rec(const std::string& json) {
  RecordParser p;
  Record r;
  REQUIRE_MESSAGE(p.parse(json, r) == ParseStatus::ok, p.error());
  return r;
}

std::string esc(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out;
}

Record user_string(const std::string& text, const std::string& extra = "") {
  return rec(R"({"type":"user",)" + extra + R"("message":{"role":"user","content":")" + esc(text) + R"("}})");
}

Record tool_result(const std::string& id, const std::string& text, bool is_error,
                   const std::string& tur = "") {
  std::string j =
      R"({"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":")" + id +
      R"(","is_error":)" + (is_error ? "true" : "false") + R"(,"content":")" + esc(text) + R"("}]})";
  if (!tur.empty()) j += R"(,"toolUseResult":)" + tur;
  return rec(j + "}");
}

Record assistant_tool(const std::string& id, const std::string& name, const std::string& input) {
  return rec(R"({"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":")" +
             id + R"(","name":")" + name + R"(","input":)" + input + "}]}}");
}

std::vector<Unit> classify(const Record& r) {
  ClassifyContext ctx;
  return classify_record(r, ctx);
}

std::vector<Label> labels_of(const Record& r) {
  auto units = classify(r);
  REQUIRE(units.size() == 1);
  return units[0].labels;
}

std::string b64(const std::string& bytes) {
  static const char* a = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    uint32_t v = (uint8_t(bytes[i]) << 16) | (uint8_t(bytes[i + 1]) << 8) | uint8_t(bytes[i + 2]);
    for (int k = 18; k >= 0; k -= 6)
      out += a[(v >> k) & 63];
  }
  if (i + 1 == bytes.size()) {
    uint32_t v = uint8_t(bytes[i]) << 16;
    out += a[(v >> 18) & 63];
    out += a[(v >> 12) & 63];
    out += "==";
  } else if (i + 2 == bytes.size()) {
    uint32_t v = (uint8_t(bytes[i]) << 16) | (uint8_t(bytes[i + 1]) << 8);
    out += a[(v >> 18) & 63];
    out += a[(v >> 12) & 63];
    out += a[(v >> 6) & 63];
    out += '=';
  }
  return out;
}

std::string len_field(int field, const std::string& payload) {
  std::string out(1, char((field << 3) | 2));
  out += char(payload.size());
  return out + payload;
}

// signature = { 1: varint 4, 2: { 1: { 8: tag } } } with a decoy earlier f8 so "last field wins" matters.
std::string signature_with_tag(const std::string& tag, const std::string& decoy = "thinking") {
  std::string level1 = len_field(8, decoy) + len_field(8, tag);
  std::string level2 = len_field(1, level1);
  std::string top = std::string("\x08\x04", 2) + len_field(2, level2);
  return b64(top);
}

Record thinking(const std::string& signature) {
  return rec(
      R"({"type":"assistant","message":{"role":"assistant","content":[{"type":"thinking","thinking":"t","signature":")" +
      signature + R"("}]}})");
}

}  // namespace

TEST_CASE("genuine user: string and text blocks") {
  Record r = user_string("please fix the bug");
  CHECK(is_genuine_user(r));
  CHECK(opens_turn(r));
  CHECK(labels_of(r) == std::vector<Label>{Label::user_message});
  Record blocks = rec(
      R"({"type":"user","message":{"role":"user","content":[{"type":"text","text":"a"},{"type":"image"}]}})");
  CHECK(is_genuine_user(blocks));
  auto units = classify(blocks);
  REQUIRE(units.size() == 1);
  CHECK(units[0].images == 1);
  Record image_only = rec(R"({"type":"user","message":{"role":"user","content":[{"type":"image"}]}})");
  CHECK_FALSE(is_genuine_user(image_only));
  CHECK(classify(image_only).empty());
  Record wrong_role = rec(R"({"type":"user","message":{"role":"assistant","content":"x"}})");
  CHECK_FALSE(is_genuine_user(wrong_role));
}

TEST_CASE("tool_result carriers are not the human") {
  Record r = tool_result("t1", "file contents", false);
  CHECK(is_tool_result_carrier(r));
  CHECK_FALSE(is_genuine_user(r));
  CHECK_FALSE(opens_turn(r));
  ClassifyContext ctx;
  classify_record(assistant_tool("t1", "Read", R"({"file_path":"/a"})"), ctx);
  auto units = classify_record(r, ctx);
  REQUIRE(units.size() == 1);
  CHECK(units[0].labels == std::vector<Label>{Label::agent_tool_result});
  CHECK(units[0].tool_name == "Read");
  CHECK(units[0].tool_use_id == "t1");
  CHECK(units[0].is_tool_result);
  CHECK(units[0].is_error == false);
  CHECK(units[0].text == "file contents");
  Record err = tool_result("t9", "boom", true);
  auto eu = classify(err);
  CHECK(eu[0].is_error == true);
  CHECK(eu[0].marker == "[error]");
}

TEST_CASE("isMeta pseudo-turns never open and route to harness leaves") {
  Record cont = user_string("Continue from where you left off.", R"("isMeta":true,)");
  CHECK_FALSE(is_genuine_user(cont));
  CHECK_FALSE(opens_turn(cont));
  CHECK(labels_of(cont) == std::vector<Label>{Label::harness_schedule_continuation});
  CHECK(labels_of(user_string("Stop hook feedback: fix lint", R"("isMeta":true,)")) ==
        std::vector<Label>{Label::harness_meta_hook});
  CHECK(labels_of(user_string("<local-command-caveat>Caveat</local-command-caveat>", R"("isMeta":true,)")) ==
        std::vector<Label>{Label::harness_meta_hook});
  CHECK(labels_of(user_string("# Autonomous loop tick\nrun", R"("isMeta":true,)")) ==
        std::vector<Label>{Label::harness_meta_loop});
  CHECK(labels_of(user_string("# Autonomous loop check\n\nYou're being invoked on a timer",
                              R"("isMeta":true,)")) == std::vector<Label>{Label::harness_schedule_wakeup});
  CHECK(classify(user_string("[Image: source: /tmp/x.png]", R"("isMeta":true,)")).empty());
  CHECK(classify(user_string("some novel injected wrapper", R"("isMeta":true,)")).empty());
}

TEST_CASE("interrupt markers match exactly") {
  Record u = user_string("[Request interrupted by user]");
  CHECK(is_interrupt_marker(u));
  CHECK_FALSE(opens_turn(u));
  CHECK(labels_of(u) == std::vector<Label>{Label::harness_interrupt_user});
  Record t = rec(
      R"({"type":"user","message":{"role":"user","content":[{"type":"text","text":"[Request interrupted by user for tool use]"}]}})");
  CHECK_FALSE(opens_turn(t));
  CHECK(labels_of(t) == std::vector<Label>{Label::harness_interrupt_tool});
  Record quoted = user_string("I saw [Request interrupted by user] earlier");
  CHECK(is_genuine_user(quoted));
  CHECK(labels_of(quoted) == std::vector<Label>{Label::user_message});
}

TEST_CASE("local-command-stdout is machine output") {
  Record r = user_string("<local-command-stdout>ok</local-command-stdout>");
  CHECK_FALSE(opens_turn(r));
  CHECK(labels_of(r) == std::vector<Label>{Label::harness_command_stdout});
}

TEST_CASE("slash-command wrappers in both tag orders") {
  Record old_order = user_string(
      "<command-name>/review</command-name>\n<command-message>review</command-message>\n<command-args>the  "
      "parser\nplease</command-args>");
  Record new_order = user_string(
      "<command-message>review</command-message>\n<command-name>/review</command-name>\n<command-args>the "
      "parser please</command-args>");
  for (const Record* r : {&old_order, &new_order}) {
    CHECK(is_slash_command_wrapper(*r));
    CHECK_FALSE(is_genuine_user(*r));
    CHECK_FALSE(opens_turn(*r));
    auto units = classify(*r);
    REQUIRE(units.size() == 1);
    CHECK(units[0].labels == std::vector<Label>{Label::user_message, Label::harness_command_invocation});
    CHECK(units[0].text == "/review the parser please");
    CHECK(units[0].source_text.find("<command-name>") != std::string::npos);
  }
  Record no_args = user_string(
      "<command-message>clear</command-message>\n<command-name>/clear</command-name>\n<command-args></"
      "command-args>");
  auto units = classify(no_args);
  REQUIRE(units.size() == 1);
  CHECK(units[0].labels == std::vector<Label>{Label::harness_command_invocation});
  CHECK(units[0].text.find("<command-name>/clear") != std::string::npos);
}

TEST_CASE("AskUserQuestion answers in every phrasing open a turn as user.answer") {
  ClassifyContext ctx;
  classify_record(
      assistant_tool(
          "q1", "AskUserQuestion",
          R"({"questions":[{"question":"Which db?","header":"DB","options":[{"label":"pg"},{"label":"sqlite"}]}]})"),
      ctx);
  std::string tur =
      R"({"questions":[{"question":"Which db?","header":"DB","multiSelect":false,"options":[{"label":"pg","description":"x"},{"label":"sqlite"}]}],"answers":{"Which db?":"pg, but keep sqlite for tests"}})";
  Record structured = tool_result(
      "q1", "User has answered your questions: \"Which db?\"=\"pg\". You can now continue", false, tur);
  CHECK(is_auq_answer(structured));
  CHECK(opens_turn(structured));
  CHECK_FALSE(is_genuine_user(structured));
  auto units = classify_record(structured, ctx);
  REQUIRE(units.size() == 1);
  CHECK(units[0].labels == std::vector<Label>{Label::user_answer, Label::agent_tool_result});
  CHECK(units[0].text ==
        "[AskUserQuestion · 1 question]\nQ1 (DB): Which db? options: pg \xE2\x80\x94 x | sqlite\nA1: pg, but "
        "keep "
        "sqlite for tests");
  CHECK(units[0].tool_name == "AskUserQuestion");

  for (std::string phrase :
       {"Your questions have been answered: ", "The user answered: ", "User has answered your questions: "}) {
    Record bare = tool_result("q2", phrase + "\"Go?\"=\"yes\". Read the answers carefully", false);
    CHECK(is_auq_answer(bare));
    CHECK(opens_turn(bare));
    auto u = classify(bare);
    CHECK(u[0].labels.front() == Label::user_answer);
    CHECK(u[0].text == "[AskUserQuestion · 1 question]\nQ1: Go?\nA1: yes");
  }
  Record unanswered = tool_result("q3", "The user did not answer the questions.", false);
  CHECK_FALSE(is_auq_answer(unanswered));
  CHECK_FALSE(opens_turn(unanswered));
  Record cancelled = tool_result("q4", "User has answered your questions: \"a\"=\"b\"", true);
  CHECK_FALSE(is_auq_answer(cancelled));
  Record quoted = tool_result("q5", "grep output: User has answered your questions", false);
  CHECK_FALSE(is_auq_answer(quoted));
}

TEST_CASE("rejections with and without a typed message") {
  ClassifyContext ctx;
  classify_record(
      assistant_tool("p1", "ExitPlanMode", R"({"plan":"do it","planFilePath":"/home/u/.claude/plans/x.md"})"),
      ctx);
  std::string with_msg =
      "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file "
      "edit, "
      "the new_string was NOT written to the file). To tell you how to proceed, the user said:\nuse sqlite "
      "instead";
  Record r = tool_result("p1", with_msg, true);
  CHECK(is_rejection_with_message(r));
  CHECK(opens_turn(r));
  auto units = classify_record(r, ctx);
  REQUIRE(units.size() == 1);
  CHECK(units[0].labels == std::vector<Label>{Label::user_rejection, Label::agent_tool_result});
  CHECK(units[0].text == "use sqlite instead\n[plan: /home/u/.claude/plans/x.md]");

  Record other = tool_result("e1", with_msg, true);
  CHECK(classify(other)[0].text == "use sqlite instead");  // no plan pointer outside ExitPlanMode

  Record without = tool_result("p2",
                               "The user doesn't want to proceed with this tool use. STOP what you are doing "
                               "and wait for the user to tell you how to proceed.",
                               true);
  CHECK_FALSE(is_rejection_with_message(without));
  CHECK_FALSE(opens_turn(without));
  CHECK(classify(without)[0].labels == std::vector<Label>{Label::agent_tool_result});

  Record approval = tool_result("p3", "User has approved your plan. You can now start coding.", false);
  CHECK_FALSE(opens_turn(approval));
}

TEST_CASE("peer messages at a section boundary, all three preambles") {
  for (std::string pre : {"Another Claude session sent a message:\n",
                          "Another Claude session sent a message while you were working:\n",
                          "A peer session sent a message while you were working:\n", ""}) {
    Record r =
        user_string(pre + "<teammate-message teammate_id=\"alice\">\nship it\n</teammate-message>\n\nfooter");
    CHECK(is_peer_message_record(r));
    CHECK_FALSE(is_genuine_user(r));
    CHECK(opens_turn(r));
    auto units = classify(r);
    REQUIRE(units.size() == 1);
    CHECK(units[0].labels == std::vector<Label>{Label::agent_communication_inbox});
    CHECK(units[0].from == "alice");
    CHECK(units[0].to == "self");
    CHECK(units[0].text == "ship it");
  }
  Record agent_msg = user_string("<agent-message from=\"omc:architect\">review done</agent-message>");
  auto au = classify(agent_msg);
  REQUIRE(au.size() == 1);
  CHECK(au[0].from == "omc:architect");
  Record quoted =
      user_string("why does <teammate-message teammate_id=\"x\">hi</teammate-message> render raw?");
  CHECK_FALSE(is_peer_message_record(quoted));
  CHECK(is_genuine_user(quoted));
  CHECK(labels_of(quoted) == std::vector<Label>{Label::user_message});
  Record unknown_preamble = user_string("Some other preamble:\n<agent-message from=\"z\">x</agent-message>");
  CHECK_FALSE(is_peer_message_record(unknown_preamble));
}

TEST_CASE("batched sections classify per section; signals and notifications") {
  std::string text =
      "<teammate-message teammate_id=\"bob\">{\"type\":\"idle_notification\"}</teammate-message>\n"
      "<teammate-message teammate_id=\"carol\">done with part 2</teammate-message>\n"
      "<task-notification>\n<task-id>b12</task-id>\n<status>completed</status>\n<summary>Background command "
      "\"Run tests\" completed (exit code 0)</summary>\n</task-notification>";
  auto units = classify(user_string(text));
  REQUIRE(units.size() == 3);
  CHECK(units[0].labels == std::vector<Label>{Label::agent_communication_signal});
  CHECK(units[0].from == "bob");
  CHECK(units[1].labels == std::vector<Label>{Label::agent_communication_inbox});
  CHECK(units[2].labels == std::vector<Label>{Label::harness_notification_background_command});
  CHECK(units[2].text ==
        "[background-command b12 completed] Background command \"Run tests\" completed (exit code 0)");
  LabelSet all = record_labels(units);
  CHECK(all.has(Label::agent_communication_signal));
  CHECK(all.has(Label::harness_notification_background_command));
}

TEST_CASE("task-notification kinds, result pulse and quoted-tag masking") {
  auto kind = [](const std::string& summary) {
    auto u = classify(user_string("<task-notification>\n<task-id>a1</task-id>\n<summary>" + summary +
                                  "</summary>\n</task-notification>"));
    REQUIRE(!u.empty());
    return u[0].labels[0];
  };
  CHECK(kind("Dynamic workflow \"x\" completed") == Label::harness_notification_workflow);
  CHECK(kind("Monitor event: ready") == Label::harness_notification_monitor);
  CHECK(kind("Agent \"explore\" completed") == Label::harness_notification_subagent);
  CHECK(kind("Background command \"monitor re-arm\" failed") ==
        Label::harness_notification_background_command);
  CHECK(kind("Something new") == Label::harness_notification_task);

  Record pulse = user_string(
      "<task-notification>\n<task-id>ag1</task-id>\n<tool-use-id>toolu_9</tool-use-id>\n"
      "<summary>Agent \"x\" completed</summary>\n<result>Found 3 bugs; quoting "
      "<teammate-message teammate_id=\"q\">hi</teammate-message></result>\n</task-notification>");
  CHECK(is_task_notification_record(pulse));
  CHECK_FALSE(is_genuine_user(pulse));
  CHECK(opens_turn(pulse));
  CHECK(may_open_turn(R"({"type":"user","message":{"role":"user","content":"<task-notification>"}})"));
  // A user record whose message names no role opens no turn, as may_open_turn rules its line out by the role
  // (found by tests/fuzz: regressions/claude_code/user-record-without-role).
  const std::string roleless =
      R"({"type":"user","message":{"content":"<task-notification>\n</task-notification>"}})";
  CHECK(is_task_notification_record(rec(roleless)));
  CHECK_FALSE(may_open_turn(roleless));
  CHECK_FALSE(opens_turn(rec(roleless)));
  ClassifyContext ctx;
  ctx.spawned_child["toolu_9"] = "a77";
  auto units = classify_record(pulse, ctx);
  REQUIRE(units.size() == 2);  // the quoted peer tag inside the notification is masked
  CHECK(units[0].labels == std::vector<Label>{Label::harness_notification_subagent});
  CHECK(units[0].text == "[agent ag1 completed] Agent \"x\" completed");
  CHECK(units[1].labels == std::vector<Label>{Label::agent_communication_inbox});
  CHECK(units[1].from == "a77");
  CHECK(units[1].to == "self");
  CHECK(units[1].text.find("Found 3 bugs") == 0);

  Record monitor = user_string(
      "<task-notification>\n<task-id>m1</task-id>\n<event>STAGE2_READY</event>\n"
      "<summary>Monitor event: stage</summary>\n</task-notification>");
  CHECK(classify(monitor)[0].text == "[monitor m1 STAGE2_READY] Monitor event: stage");
  Record orphan = user_string(
      "<task-notification>\n<task-id>__orphan_summary__:shell</task-id>\n<task-id>b1</task-id>\n"
      "<task-id>b2</task-id>\n<status>stopped</status>\n<summary>Background command \"x\" "
      "stopped</summary>\n</task-notification>");
  CHECK(
      classify(orphan)[0].text ==
      "[background-command b1, b2 stopped] (orphan reconciliation: shell) Background command \"x\" stopped");
}

TEST_CASE("agents-stopped notice is a harness notification, never a turn") {
  for (std::string s : {"2 background agents were stopped by the user: \"a…\", \"b…\"",
                        "Background agent \"explore repo\" was stopped by the user."}) {
    Record r = user_string(s);
    CHECK_FALSE(is_genuine_user(r));
    CHECK_FALSE(opens_turn(r));
    auto u = classify(r);
    REQUIRE(u.size() == 1);
    CHECK(u[0].labels == std::vector<Label>{Label::harness_notification_subagent});
    CHECK(u[0].text.rfind("[subagent stopped] ", 0) == 0);
  }
}

TEST_CASE("compaction summary and boundary") {
  Record summary = user_string("This session is being continued from a previous conversation…",
                               R"("isCompactSummary":true,"isVisibleInTranscriptOnly":true,)");
  CHECK_FALSE(is_genuine_user(summary));
  CHECK_FALSE(opens_turn(summary));
  CHECK(labels_of(summary) == std::vector<Label>{Label::harness_compaction_summary});
  Record boundary = rec(R"({"type":"system","subtype":"compact_boundary","content":"Conversation compacted",)"
                        R"("compactMetadata":{"trigger":"auto","preTokens":160000,"durationMs":900}})");
  auto u = classify(boundary);
  REQUIRE(u.size() == 1);
  CHECK(u[0].labels == std::vector<Label>{Label::harness_compaction_boundary});
  CHECK(u[0].text ==
        "Conversation compacted [compaction boundary: trigger=auto preTokens=160000 durationMs=900]");
}

TEST_CASE("assistant blocks, redacted thinking and tool_use text") {
  Record r =
      rec(R"({"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"  "},)"
          R"({"type":"text","text":"All done"},{"type":"redacted_thinking","data":"xx"},)"
          R"({"type":"tool_use","id":"t1","name":"Bash","input":{"command":"ls"}}]}})");
  auto u = classify(r);
  REQUIRE(u.size() == 3);
  CHECK(u[0].labels == std::vector<Label>{Label::agent_message});
  CHECK(u[0].block_index == 1);
  CHECK(u[1].labels == std::vector<Label>{Label::agent_thinking});
  CHECK(u[1].text == "[redacted thinking]");
  CHECK(u[2].labels == std::vector<Label>{Label::agent_tool_use});
  CHECK(u[2].text == R"(Bash {"command":"ls"})");
  CHECK(u[2].tool_use_id == "t1");
  CHECK(u[2].is_tool_use);
}

TEST_CASE("SendMessage and spawn tool_uses carry comm labels first") {
  ClassifyContext ctx;
  auto sent = classify_record(
      assistant_tool("s1", "SendMessage", R"({"to":"bob","type":"message","message":"hi"})"), ctx);
  CHECK(sent[0].labels == std::vector<Label>{Label::agent_communication_sent, Label::agent_tool_use});
  CHECK(sent[0].from == "self");
  CHECK(sent[0].to == "bob");
  auto signal = classify_record(
      assistant_tool("s2", "SendMessage", R"({"recipient":"bob","message":{"type":"shutdown_request"}})"),
      ctx);
  CHECK(signal[0].labels == std::vector<Label>{Label::agent_communication_signal, Label::agent_tool_use});
  CHECK(signal[0].to == "bob");
  ctx.spawned_child["sp1"] = "a1b2";
  auto spawn =
      classify_record(assistant_tool("sp1", "Task", R"({"subagent_type":"Explore","prompt":"look"})"), ctx);
  CHECK(spawn[0].labels == std::vector<Label>{Label::agent_communication_sent, Label::agent_tool_use});
  CHECK(spawn[0].to == "a1b2");
  auto named =
      classify_record(assistant_tool("sp2", "Agent", R"({"name":"VSRepro","subagent_type":"general"})"), ctx);
  CHECK(named[0].to == "VSRepro");

  // The Task return is the child's reply (child ⇨ self); a launch ack is not.
  auto ret = classify_record(tool_result("sp1", "Here is what I found", false), ctx);
  CHECK(ret[0].labels == std::vector<Label>{Label::agent_communication_inbox, Label::agent_tool_result});
  CHECK(ret[0].from == "a1b2");
  CHECK(ret[0].to == "self");
  auto ack = classify_record(tool_result("sp2", "Async agent launched successfully.\nagentId: zz", false,
                                         R"({"isAsync":true,"status":"async_launched"})"),
                             ctx);
  CHECK(ack[0].labels == std::vector<Label>{Label::agent_tool_result});
}

TEST_CASE("subagent opener is the parent's spawn prompt unless a fork clone") {
  ClassifyContext ctx;
  ctx.is_subagent = true;
  ctx.parent_id = "sess-1";
  auto first = classify_record(user_string("Explore the repo", R"("isSidechain":true,)"), ctx);
  CHECK(first[0].labels == std::vector<Label>{Label::agent_communication_inbox});
  CHECK(first[0].from == "sess-1");
  CHECK(first[0].to == "self");
  auto second = classify_record(user_string("follow-up"), ctx);
  CHECK(second[0].labels == std::vector<Label>{Label::user_message});

  ClassifyContext fork;
  fork.is_subagent = true;
  classify_record(rec(R"({"type":"fork-context-ref","agentId":"x","parentSessionId":"p"})"), fork);
  CHECK(fork.is_fork_clone);
  auto clone_first = classify_record(user_string("the parent's human message"), fork);
  CHECK(clone_first[0].labels == std::vector<Label>{Label::user_message});
}

TEST_CASE("narration decode from the thinking signature") {
  auto u = classify(thinking(signature_with_tag("narration")));
  REQUIRE(u.size() == 1);
  CHECK(u[0].labels == std::vector<Label>{Label::agent_thinking_narration});
  CHECK(u[0].marker == "[narration summary]");
  // The last f8 wins: a trailing `thinking` tag makes it plain reasoning.
  CHECK(classify(thinking(signature_with_tag("thinking", "narration")))[0].labels ==
        std::vector<Label>{Label::agent_thinking});
  CHECK(classify(thinking(signature_with_tag("unknowntag")))[0].labels ==
        std::vector<Label>{Label::agent_thinking});
  CHECK(classify(thinking(""))[0].labels == std::vector<Label>{Label::agent_thinking});
  CHECK(classify(thinking("!!!notbase64"))[0].labels == std::vector<Label>{Label::agent_thinking});
  // Truncated protobuf: cut the base64 of a narration signature short.
  std::string sig = signature_with_tag("narration");
  CHECK(classify(thinking(sig.substr(0, sig.size() - 8)))[0].labels ==
        std::vector<Label>{Label::agent_thinking});
  // Shifting the payload by one and two bytes moves the tag to the other base64 alignments.
  for (int shift : {1, 2}) {
    std::string level1 = len_field(8, "narration");
    std::string level2 = len_field(1, level1);
    std::string top = std::string(shift == 1 ? "\x25\x00\x00\x00\x00" : "\x25\x00\x00\x00\x00\x08\x01",
                                  shift == 1 ? 5 : 7) +
                      len_field(2, level2);
    CHECK(classify(thinking(b64(top)))[0].labels == std::vector<Label>{Label::agent_thinking_narration});
  }
}

// A length-delimited field whose length is a varint (payloads of 128 bytes and more).
std::string long_field(int field, const std::string& payload) {
  std::string out(1, char((field << 3) | 2));
  for (size_t n = payload.size();; n >>= 7) {
    out += char((n & 0x7f) | (n > 0x7f ? 0x80 : 0));
    if (n <= 0x7f) break;
  }
  return out + payload;
}

TEST_CASE("a long thinking signature decodes the same with whitespace, padding or a bad byte anywhere") {
  std::string filler;
  for (int i = 0; i < 3000; ++i)
    filler += char(i * 7);
  const std::string sig =
      b64(long_field(3, filler) + len_field(2, len_field(1, len_field(8, "x") + len_field(8, "narration"))));
  REQUIRE(sig.size() > 4000);
  CHECK(detail::thinking_signature_tag(sig) == "narration");
  std::string wrapped;  // MIME-style lines of 76 characters
  for (size_t at = 0; at < sig.size(); at += 76)
    wrapped += sig.substr(at, 76) + "\r\n";
  CHECK(detail::thinking_signature_tag(wrapped) == "narration");
  for (size_t at : {size_t{1}, size_t{2}, size_t{3}, size_t{4001}, sig.size() - 1}) {
    CAPTURE(at);
    std::string spaced = sig;
    spaced.insert(at, " ");
    CHECK(detail::thinking_signature_tag(spaced) == "narration");
    std::string bad = sig;
    bad[at] = '!';
    CHECK_FALSE(detail::thinking_signature_tag(bad).has_value());
  }
  CHECK(detail::thinking_signature_tag(sig + "==") == "narration");
}

TEST_CASE("queue-operation lines") {
  auto q =
      classify(rec(R"({"type":"queue-operation","operation":"enqueue","content":"also check the tests"})"));
  REQUIRE(q.size() == 1);
  CHECK(q[0].labels == std::vector<Label>{Label::user_queued});
  CHECK(q[0].marker == "[enqueue]");
  CHECK(q[0].queue_operation == "enqueue");
  auto removed = classify(
      rec(R"({"type":"queue-operation","operation":"remove","reason":"absorbed_mid_turn","content":"x"})"));
  CHECK(removed[0].marker == "[remove · absorbed_mid_turn]");
  CHECK(removed[0].queue_reason == "absorbed_mid_turn");
  CHECK(classify(rec(R"({"type":"queue-operation","operation":"popAll","content":"y"})"))[0].marker ==
        "[popAll]");
  // A content-less operation is queue bookkeeping, labelled like the other bookkeeping records.
  auto dequeued = classify(rec(R"({"type":"queue-operation","operation":"dequeue"})"));
  REQUIRE(dequeued.size() == 1);
  CHECK(dequeued[0].labels == std::vector<Label>{Label::harness_meta_system});
  CHECK(dequeued[0].text == "[queue-operation dequeue]");
  CHECK(
      classify(
          rec(R"({"type":"queue-operation","operation":"enqueue","content":"<task-notification>\n<task-id>b</task-id>\n</task-notification>"})"))
          .empty());
}

TEST_CASE("promoted system, snapshot and attachment leaves") {
  auto td = classify(rec(
      R"({"type":"system","subtype":"turn_duration","durationMs":65400,"messageCount":12,"pendingWorkflowCount":1})"));
  CHECK(td[0].labels == std::vector<Label>{Label::harness_meta_turn_duration});
  CHECK(td[0].text == "[turn duration: 1m 5s · durationMs=65400 messageCount=12 pendingWorkflowCount=1]");
  auto away =
      classify(rec(R"({"type":"system","subtype":"away_summary","content":"Was refactoring the parser"})"));
  CHECK(away[0].labels == std::vector<Label>{Label::harness_meta_away_summary});
  CHECK(away[0].text == "Was refactoring the parser");
  auto hooks = classify(rec(
      R"({"type":"system","subtype":"stop_hook_summary","hookCount":2,"hookInfos":[{"command":"lint.sh","durationMs":120},{"command":"fmt.sh","durationMs":30}],"hookErrors":["e"],"preventedContinuation":true})"));
  CHECK(hooks[0].labels == std::vector<Label>{Label::harness_meta_stop_hooks});
  CHECK(hooks[0].text == "[stop hooks: count=2 errors=1 prevented=true]\nlint.sh (120ms)\nfmt.sh (30ms)");
  auto sys = classify(rec(
      R"({"type":"system","subtype":"informational","level":"warning","content":"Remote Control disconnected"})"));
  CHECK(sys[0].labels == std::vector<Label>{Label::harness_meta_system});
  CHECK(sys[0].text == "[informational warning] Remote Control disconnected");
  CHECK(classify(rec(R"({"type":"system","subtype":"agents_killed"})"))[0].text == "[agents_killed]");
  auto snap = classify(rec(
      R"({"type":"file-history-snapshot","snapshot":{"timestamp":"2026-01-01T00:00:00Z","trackedFileBackups":{"/z.txt":{"version":2},"/a.txt":{"version":1}}}})"));
  CHECK(snap[0].labels == std::vector<Label>{Label::harness_meta_snapshot});
  CHECK(snap[0].text == "[file-history snapshot at 2026-01-01T00:00:00Z: /a.txt@v1, /z.txt@v2]");
  auto delta = classify(rec(
      R"({"type":"file-history-delta","timestamp":"T1","trackingPath":"/a","version":4,"backupFileName":"h@v4"})"));
  CHECK(delta[0].text == "[file-history delta at T1: /a@v4 backup=h@v4]");
  auto hook = classify(rec(
      R"({"type":"attachment","attachment":{"type":"hook_additional_context","content":["one","two"]}})"));
  CHECK(hook[0].labels == std::vector<Label>{Label::harness_meta_hook});
  CHECK(hook[0].text == "one\ntwo");
  auto att =
      classify(rec(R"({"type":"attachment","attachment":{"type":"edited_text_file","filename":"/x"}})"));
  CHECK(att[0].labels == std::vector<Label>{Label::harness_meta_attachment});
  CHECK(att[0].text == R"({"type":"edited_text_file","filename":"/x"})");
  CHECK(classify(rec(R"({"type":"ai-title","aiTitle":"x"})")).empty());
}

TEST_CASE("Claude Code 2.1.332 bookkeeping records are harness.meta.system; request plumbing is summarised") {
  auto one = [](const std::string& line) {
    auto units = classify(rec(line));
    REQUIRE(units.size() == 1);
    CHECK(units[0].labels == std::vector<Label>{Label::harness_meta_system});
    return units[0].text;
  };
  CHECK(one(R"({"type":"last-prompt","lastPrompt":"find the notes","leafUuid":"u"})") ==
        "[last-prompt] find the notes");
  CHECK(one(R"({"type":"atis-latch","atis":"","sessionId":"s"})") == "[atis-latch]");
  CHECK(one(R"({"type":"tools-used","tools":["ToolSearch","mcp__csift__show"]})") ==
        "[tools-used] ToolSearch, mcp__csift__show");
  CHECK(
      one(R"({"type":"api-request","id":"r1","querySource":"sdk","shapeHash":"0123456789abcdef","tail":["a","b"],)"
          R"("params":{"model":"m"}})") ==
      "[api-request r1] source sdk · shape 0123456789ab · 2 message blob(s)");
  CHECK(one(R"({"type":"api-request-blob","hash":"fedcba9876543210","message":{"role":"user","content":)"
            R"([{"type":"text","text":"a"},{"type":"text","text":"b"}]}})") ==
        "[api-request-blob fedcba987654] a user message as sent (2 block(s))");
  CHECK(one(R"({"type":"api-request-shape","shapeHash":"0123456789abcdef","shape":{"system":[{"type":"text",)"
            R"("text":"SECRETPROMPT"}]}})") ==
        "[api-request-shape 0123456789ab] the system prompt and tool definitions as sent");
  CHECK(
      one(R"({"type":"cost-state","totalCostUSD":0.5,"totalLinesAdded":3,"totalLinesRemoved":1,)"
          R"("totalAPIDuration":1500,"totalDuration":61000,"modelUsage":{"m":{"inputTokens":10,"outputTokens":2,)"
          R"("cacheReadInputTokens":7,"cacheCreationInputTokens":5,"costUSD":0.5}}})") ==
      "[cost-state] $0.5000 · m: in 10 out 2 cache read 7 cache write 5 · lines +3 -1 · api 2s · total 1m "
      "1s");
  auto snap = classify(rec(R"({"type":"attachment","attachment":{"type":"prompt_snapshot","systemPrompt":)"
                           R"(["SECRETPROMPT","b"],"tools":[{"name":"Bash"}]}})"));
  REQUIRE(snap.size() == 1);
  CHECK(snap[0].labels == std::vector<Label>{Label::harness_meta_attachment});
  CHECK(snap[0].text == "[prompt_snapshot] the system prompt (2 part(s)) and 1 tool definition(s) as sent");
  auto record = classify(rec(R"({"type":"attachment","attachment":{"type":"deferred_tools_record","entries":)"
                             R"([{"name":"mcp__a__b","description":"SECRET"},{"name":"mcp__a__c"}]}})"));
  CHECK(record[0].text ==
        "[deferred_tools_record] the definitions of the tools loaded: mcp__a__b, mcp__a__c");
  auto reminder =
      classify(rec(R"({"type":"attachment","attachment":{"type":"silent_turn_reminder","text":"t"}})"));
  CHECK(reminder[0].text == R"({"type":"silent_turn_reminder","text":"t"})");
}

TEST_CASE("elicitation sidecar pending markers classify agent.tool.use") {
  auto auq = classify(rec(
      R"({"csift":"elicitation-marker-v1","csiftPhase":"pending","csiftKind":"AskUserQuestion","csiftKey":"k",)"
      R"("type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"AskUserQuestion","input":{"questions":[]}}]}})"));
  REQUIRE(auq.size() == 1);
  CHECK(auq[0].labels == std::vector<Label>{Label::agent_tool_use});
  CHECK(auq[0].tool_name == "AskUserQuestion");
  auto mcp = classify(rec(
      R"({"csift":"elicitation-marker-v1","csiftPhase":"pending","csiftKind":"mcp-elicitation","type":"system","content":"MCPPROBE needs input"})"));
  REQUIRE(mcp.size() == 1);
  CHECK(mcp[0].labels == std::vector<Label>{Label::agent_tool_use});
  CHECK(mcp[0].text == "MCPPROBE needs input");
  CHECK(mcp[0].tool_name == "mcp-elicitation");
  CHECK(
      classify(
          rec(R"({"csift":"elicitation-marker-v1","csiftPhase":"resolved","type":"csift-elicitation-resolved"})"))
          .empty());
}

TEST_CASE("AskUserQuestion answer text holds the option descriptions and the user's notes") {
  ClassifyContext ctx;
  classify_record(assistant_tool("q1", "AskUserQuestion", R"({"questions":[]})"), ctx);
  const std::string tur =
      R"({"questions":[{"question":"Which db?","header":"DB","options":[{"label":"pg","description":"server, )"
      R"(replicated"},{"label":"sqlite","description":"one file"}]}],"answers":{"Which db?":"pg"},)"
      R"("annotations":{"Which db?":{"notes":"keep sqlite for the test suite"}}})";
  Record structured = tool_result("q1",
                                  "User has answered your questions: \"Which db?\"=\"pg\" user notes: keep "
                                  "sqlite for the test suite. You "
                                  "can now continue",
                                  false, tur);
  auto units = classify_record(structured, ctx);
  REQUIRE(units.size() == 1);
  CHECK(units[0].text.find("pg \xE2\x80\x94 server, replicated | sqlite \xE2\x80\x94 one file") !=
        std::string::npos);
  CHECK(units[0].text.find("\nN1: keep sqlite for the test suite") != std::string::npos);

  // Without toolUseResult the notes come from the synthesized answer string.
  Record bare = tool_result("q2",
                            "User has answered your questions: \"Go?\"=\"yes\" user notes: only after lunch, "
                            "\"Where?\"=\"here\". You "
                            "can now continue",
                            false);
  auto u = classify(bare);
  REQUIRE(u.size() == 1);
  CHECK(u[0].text ==
        "[AskUserQuestion · 2 questions]\nQ1: Go?\nA1: yes\nN1: only after lunch\nQ2: Where?\nA2: here");
}

TEST_CASE("bash mode: <bash-stdout>/<bash-stderr> is machine output; <bash-input> is the human's command") {
  for (const std::string out : {"<bash-stdout>total 0</bash-stdout><bash-stderr></bash-stderr>",
                                "<bash-stderr>ls: x: No such file</bash-stderr>"}) {
    Record r = user_string(out);
    CHECK_FALSE(is_genuine_user(r));
    CHECK_FALSE(opens_turn(r));
    CHECK(labels_of(r) == std::vector<Label>{Label::harness_command_stdout});
  }
  Record input = user_string("<bash-input>ls -la</bash-input>");
  CHECK_FALSE(is_genuine_user(input));
  CHECK_FALSE(opens_turn(input));
  auto units = classify(input);
  REQUIRE(units.size() == 1);
  CHECK(units[0].labels == std::vector<Label>{Label::user_message, Label::harness_command_invocation});
  CHECK(units[0].text == "! ls -la");
}

TEST_CASE("a Task call refused by input validation is a plain tool result, not a subagent's return") {
  ClassifyContext ctx;
  classify_record(assistant_tool("t9", "Task", R"({"prompt":"go"})"), ctx);
  Record refused = tool_result(
      "t9",
      "<tool_use_error>InputValidationError: Task failed due to the following issue:\nThe required "
      "parameter `description` is missing</tool_use_error>",
      true);
  auto units = classify_record(refused, ctx);
  REQUIRE(units.size() == 1);
  CHECK(units[0].labels == std::vector<Label>{Label::agent_tool_result});
  CHECK(units[0].from.empty());
  // A return that did run stays the inbox.
  classify_record(assistant_tool("t10", "Task", R"({"prompt":"go"})"), ctx);
  auto ran = classify_record(tool_result("t10", "done: 3 files", false), ctx);
  CHECK(ran[0].labels.front() == Label::agent_communication_inbox);
}

TEST_CASE("inline sidechain records of a session file are the subagent's, never the human") {
  Record prompt = user_string("act as the DIRECTOR agent", R"("isSidechain":true,"version":"1.0.89",)");
  CHECK(is_inline_sidechain(prompt));
  // 2.x writes every agent to its own file: a flagged 2.x record in a session file is not another lane's.
  CHECK_FALSE(is_inline_sidechain(user_string("hello", R"("isSidechain":true,"version":"2.1.80",)")));
  ClassifyContext main_lane;  // a session file
  auto units = classify_record(prompt, main_lane);
  REQUIRE(units.size() == 1);
  CHECK(units[0].labels == std::vector<Label>{Label::agent_communication_inbox});
  CHECK(units[0].from == "parent");
  CHECK(units[0].to == "sidechain");
  ClassifyContext agent_file;  // the same record in an agent-<id>.jsonl is its own transcript's opener
  agent_file.is_subagent = true;
  agent_file.parent_id = "s1";
  auto own = classify_record(prompt, agent_file);
  CHECK(own[0].from == "s1");
  CHECK(own[0].to == "self");
}

}  // namespace classify_unit
