// RecordParser and the raw-byte probes.
#include <doctest/doctest.h>

#include "core/harness/claude_code/classify.h"
#include "core/harness/claude_code/claude_fields.h"
#include "core/harness/claude_code/record_parser.h"

namespace record_parser_unit {

using namespace csift;

TEST_CASE("parser fills envelope fields whatever the key order") {
  RecordParser p;
  Record r;
  std::string line =
      R"({"message":{"content":"hi there","role":"user"},"isMeta":false,"type":"user","uuid":"u1",)"
      R"("parentUuid":"p0","timestamp":"2026-01-01T00:00:00.000Z","sessionId":"s1","cwd":"/w","version":"2.1.9",)"
      R"("gitBranch":"main","isSidechain":true,"agentId":"abc","promptId":"pr","origin":{"kind":"task-notification"},)"
      R"("unknownField":{"deep":[1,2,{"x":null}]}})";
  REQUIRE(p.parse(line, r) == ParseStatus::ok);
  CHECK(r.type == "user");
  CHECK(r.uuid == "u1");
  CHECK(r.parent_uuid == "p0");
  CHECK(r.timestamp == "2026-01-01T00:00:00.000Z");
  CHECK(r.session_id == "s1");
  CHECK(r.cwd == "/w");
  CHECK(r.version == "2.1.9");
  CHECK(r.git_branch == "main");
  CHECK(cc(r).is_sidechain);
  CHECK_FALSE(cc(r).is_meta);
  CHECK(r.agent_id == "abc");
  CHECK(cc(r).prompt_id == "pr");
  CHECK(cc(r).origin_kind == "task-notification");
  CHECK(r.message.present);
  CHECK(r.message.role == "user");
  CHECK(r.message.content_is_string);
  CHECK(r.message.content_string == "hi there");
  CHECK(cc(r).extra_json == "{}");
}

TEST_CASE("parser keeps blocks, raw tool input and flattens tool_result content") {
  RecordParser p;
  Record r;
  std::string line =
      R"({"type":"assistant","message":{"role":"assistant","id":"msg_1","model":"claude-x","stop_reason":null,)"
      R"("usage":{"input_tokens":10,"output_tokens":5,"cache_read_input_tokens":7},"content":[)"
      R"({"type":"thinking","thinking":"hmm","signature":"c2ln"},)"
      R"({"input":{"command":"ls -la","n":[1,2]},"name":"Bash","id":"tu1","type":"tool_use"},)"
      R"({"type":"text","text":"done \"quoted\""},{"type":"future_block","x":1}]}})";
  REQUIRE(p.parse(line, r) == ParseStatus::ok);
  CHECK(r.message.id == "msg_1");
  CHECK(r.message.model == "claude-x");
  CHECK(r.message.stop_reason.empty());
  CHECK(r.message.usage.present);
  CHECK(r.message.usage.input_tokens == 10);
  CHECK(r.message.usage.output_tokens == 5);
  CHECK(r.message.usage.cache_read_input_tokens == 7);
  REQUIRE(r.message.blocks.size() == 4);
  CHECK(r.message.blocks[0].kind == BlockKind::thinking);
  CHECK(r.message.blocks[0].text == "hmm");
  CHECK(r.message.blocks[0].signature == "c2ln");
  CHECK(r.message.blocks[1].kind == BlockKind::tool_use);
  CHECK(r.message.blocks[1].name == "Bash");
  CHECK(r.message.blocks[1].id == "tu1");
  CHECK(r.message.blocks[1].input_json == R"({"command":"ls -la","n":[1,2]})");
  CHECK(r.message.blocks[2].text == "done \"quoted\"");
  CHECK(r.message.blocks[3].kind == BlockKind::unknown);
  CHECK(r.message.blocks[3].type == "future_block");

  std::string carrier =
      R"({"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"tu1",)"
      R"("is_error":true,"content":[{"type":"text","text":"line one"},{"type":"image","source":{}},)"
      R"({"type":"text","text":"line two"},{"type":"tool_reference","tool_name":"X"}]}]},)"
      R"("toolUseResult":{"stdout":"x","interrupted":false}})";
  REQUIRE(p.parse(carrier, r) == ParseStatus::ok);
  REQUIRE(r.message.blocks.size() == 1);
  const Block& b = r.message.blocks[0];
  CHECK(b.kind == BlockKind::tool_result);
  CHECK(b.tool_use_id == "tu1");
  CHECK(b.is_error);
  CHECK(b.has_is_error);
  CHECK(b.content_text == "line one\nline two\nX");  // a tool_reference reads as the tool's name
  CHECK(b.content_images == 1);
  CHECK(cc(r).tool_use_result_json == R"({"stdout":"x","interrupted":false})");

  std::string string_result =
      R"({"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t2","content":"plain \n text"}]}})";
  REQUIRE(p.parse(string_result, r) == ParseStatus::ok);
  CHECK(r.message.blocks[0].content_text == "plain \n text");
  CHECK_FALSE(r.message.blocks[0].has_is_error);
}

TEST_CASE("mcpMeta.structuredContent is kept only when the tool_result text is not its copy") {
  RecordParser p;
  Record r;
  const std::string sc = R"({"rows":[{"text":"a b"}],"n":1})";
  auto carrier = [&](const std::string& content) {
    return R"({"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t",)"
           R"("content":)" +
           content + R"(}]},"mcpMeta":{"_meta":{"k":1},"structuredContent":)" + sc + "}}";
  };
  // The usual triple copy: the text is the object serialised, so the third copy is dropped.
  REQUIRE(p.parse(carrier(R"("{\"rows\":[{\"text\":\"a b\"}],\"n\":1}")"), r) == ParseStatus::ok);
  CHECK(mcp_only_structured_content(r).empty());
  // A saved-file pointer (or any other text): the object is the only copy of the result.
  r = Record{};
  REQUIRE(p.parse(carrier(R"("Error: result (9 characters) exceeds maximum allowed tokens. Output has been )"
                          R"(saved to /h/.claude/projects/p/s/tool-results/mcp-a-b-1.txt.\nFormat: JSON")"),
                  r) == ParseStatus::ok);
  CHECK(mcp_only_structured_content(r) == sc);
  CHECK(mcp_saved_output_path(r.message.blocks[0].content_text) ==
        "/h/.claude/projects/p/s/tool-results/mcp-a-b-1.txt");
  CHECK(mcp_saved_output_path("no pointer here").empty());
  // A sparse parse keeps none of it.
  r = Record{};
  p.set_sparse(true);
  REQUIRE(p.parse(carrier(R"("other text")"), r) == ParseStatus::ok);
  CHECK(mcp_only_structured_content(r).empty());
}

TEST_CASE("parser keeps raw payloads and the small rendered fields in extra_json") {
  RecordParser p;
  Record r;
  std::string line =
      R"({"type":"system","subtype":"stop_hook_summary","level":"info","hookCount":2,)"
      R"("hookInfos":[{"command":"a.sh","durationMs":12}],"hookErrors":[],"preventedContinuation":false,)"
      R"("content":"x","durationMs":65000,"bigUnmodelled":"zzz"})";
  REQUIRE(p.parse(line, r) == ParseStatus::ok);
  CHECK(r.subtype == "stop_hook_summary");
  CHECK(cc(r).level == "info");
  CHECK(r.content_text == "x");
  CHECK(cc(r).content_json == "\"x\"");
  CHECK(cc(r).extra_json ==
        R"({"hookCount":2,"hookInfos":[{"command":"a.sh","durationMs":12}],"hookErrors":[],)"
        R"("preventedContinuation":false,"durationMs":65000})");

  std::string delta =
      R"({"type":"file-history-delta","trackingPath":"/a/b","version":3,"backupFileName":"h@v3"})";
  REQUIRE(p.parse(delta, r) == ParseStatus::ok);
  CHECK(r.version.empty());
  CHECK(cc(r).extra_json == R"({"trackingPath":"/a/b","version":3,"backupFileName":"h@v3"})");

  std::string att = R"({"type":"attachment","attachment":{"type":"hook_success","content":"ok"}})";
  REQUIRE(p.parse(att, r) == ParseStatus::ok);
  CHECK(cc(r).attachment_json == R"({"type":"hook_success","content":"ok"})");

  std::string snap =
      R"({"type":"file-history-snapshot","messageId":"m","snapshot":{"trackedFileBackups":{}}})";
  REQUIRE(p.parse(snap, r) == ParseStatus::ok);
  CHECK(cc(r).snapshot_json == R"({"trackedFileBackups":{}})");
  CHECK(r.timestamp.empty());

  std::string queue =
      R"({"type":"queue-operation","operation":"remove","reason":"absorbed_mid_turn","content":"q"})";
  REQUIRE(p.parse(queue, r) == ParseStatus::ok);
  CHECK(cc(r).operation == "remove");
  CHECK(cc(r).reason == "absorbed_mid_turn");
  CHECK(r.content_text == "q");

  std::string marker =
      R"({"csift":"elicitation-marker-v1","csiftPhase":"pending","csiftKind":"AskUserQuestion","csiftKey":"k1","type":"assistant"})";
  REQUIRE(p.parse(marker, r) == ParseStatus::ok);
  CHECK(cc(r).csift_marker == "elicitation-marker-v1");
  CHECK(cc(r).csift_phase == "pending");
  CHECK(cc(r).csift_kind == "AskUserQuestion");
  CHECK(cc(r).csift_key == "k1");
}

TEST_CASE("wrong-typed fields are ignored, malformed JSON is reported") {
  RecordParser p;
  Record r;
  REQUIRE(p.parse(R"({"type":7,"uuid":null,"isMeta":"yes","message":"not an object","timestamp":[1]})", r) ==
          ParseStatus::ok);
  CHECK(r.type.empty());
  CHECK_FALSE(cc(r).is_meta);
  CHECK_FALSE(r.message.present);

  CHECK(p.parse(R"({"type":"user","uuid":)", r) == ParseStatus::malformed);
  CHECK_FALSE(p.error().empty());
  CHECK(p.parse(R"([1,2,3])", r) == ParseStatus::malformed);
  CHECK(p.error() == "top-level value is not an object");
  CHECK(p.parse(R"({"type":"user"} trailing)", r) == ParseStatus::malformed);
  // Invalid UTF-8 and lone surrogate escapes: the record still parses, from a repaired copy, and says so.
  std::string bad_utf8 = "{\"type\":\"user\",\"cwd\":\"a\xff\xfe b\"}";
  CHECK(p.parse(bad_utf8, r) == ParseStatus::ok);
  CHECK(r.text_repaired);
  CHECK(r.cwd == "a\xef\xbf\xbd\xef\xbf\xbd b");
  CHECK(p.validate(bad_utf8));
  CHECK(p.parse(R"({"type":"user","cwd":"cut \ud83d emoji \ud83d\ude00 ok \\ud800"})", r) == ParseStatus::ok);
  CHECK(r.text_repaired);
  CHECK(r.cwd == "cut \xef\xbf\xbd emoji \xf0\x9f\x98\x80 ok \\ud800");
  CHECK(p.parse(R"({"type":"user","cwd":"fine"})", r) == ParseStatus::ok);
  CHECK_FALSE(r.text_repaired);
  CHECK(p.parse("{\"type\":\"user\",\"x\":\"\xff\"", r) == ParseStatus::malformed);  // bad bytes AND torn
  CHECK(p.validate(R"({"a":[1,{"b":null}]})"));
  CHECK_FALSE(p.validate(R"({"a":[1,{"b":nul}]})"));
  CHECK_FALSE(p.validate("[]"));
}

TEST_CASE("a line over 64 MiB is too large") {
  RecordParser p;
  Record r;
  std::string huge(size_t{64} << 20, ' ');
  huge += "{}";
  CHECK(p.parse(huge, r) == ParseStatus::too_large);
}

TEST_CASE("parse keeps the caller's line and offset") {
  RecordParser p;
  Record r;
  r.line = 42;
  r.offset = 1000;
  REQUIRE(p.parse(R"({"type":"user"})", r) == ParseStatus::ok);
  CHECK(r.line == 42);
  CHECK(r.offset == 1000);
}

TEST_CASE("byte probes") {
  CHECK(line_is_blank(""));
  CHECK(line_is_blank(" \t\r"));
  CHECK_FALSE(line_is_blank(" {}"));
  CHECK(line_shape_malformed("not json"));
  CHECK(line_shape_malformed("{\"a\":1"));
  CHECK_FALSE(line_shape_malformed("  {\"a\":1} "));
  CHECK_FALSE(line_shape_malformed("   "));
  CHECK_FALSE(line_shape_malformed("\r\n{}\t\r"));  // JSON whitespace around the object
  CHECK(line_shape_malformed("\v{}"));              // \v is not JSON whitespace
  CHECK(line_shape_malformed("}"));
  CHECK_FALSE(line_is_blank("\f"));

  CHECK(line_has_role(R"({"message":{"role":"user"}})", "user"));
  CHECK(line_has_role(R"({"message": {"role": "user", "content": "x"}})", "user"));  // json.dumps spacing
  CHECK_FALSE(line_has_role(R"({"message":{"role":"assistant"}})", "user"));
  CHECK_FALSE(line_has_role(R"({"text":"say \"role\":\"user\" please"})", "user"));  // quoted in a string
  CHECK(line_has_any_role(R"({"message": {"role" : "assistant"}})"));

  CHECK(peek_type(R"({"message":{"type":"message"},"type":"assistant"})") == "assistant");
  CHECK(peek_type(R"({"a":"type","type" : "user"})") == "user");
  CHECK(peek_type(R"({"x":"{\"type\":\"fake\"}","type":"system"})") == "system");
  // A quote closes a string after an even run of backslashes (an escaped backslash), not after an odd one.
  CHECK(peek_type(R"({"a":"x\\","type":"user"})") == "user");
  CHECK(peek_type(R"({"a":"x\\\"","type":"user"})") == "user");
  CHECK(peek_type(R"({"a":"\\\\\"type\":\"fake\"","type":"system"})") == "system");
  CHECK(peek_type(R"({"notype":1})").empty());
}

TEST_CASE("raw key/value extraction: every real pair, escapes kept, quoted pairs and other keys ignored") {
  // json.dumps spacing, nesting at any depth, and the order on the line.
  const std::string line =
      R"({"id":"a1","message":{"content":[{"type":"tool_use", "id" : "toolu_2"},{"tool_use_id":"toolu_9"}]}})";
  const auto ids = key_string_values(line, "id");
  REQUIRE(ids.size() == 2);
  CHECK(ids[0] == "a1");
  CHECK(ids[1] == "toolu_2");  // "tool_use_id" is another key
  // A pair quoted inside a string value is not a field; an escaped quote does not end a value.
  const auto quoted = key_string_values(R"({"text":"say \"id\":\"fake\"","id":"x\"y"})", "id");
  REQUIRE(quoted.size() == 1);
  CHECK(quoted[0] == R"(x\"y)");
  // Non-string values are skipped; an unterminated value ends the walk.
  CHECK(key_string_values(R"({"id":7,"id":null,"id":"ok"})", "id") == std::vector<std::string_view>{"ok"});
  CHECK(key_string_values(R"({"id":"ok","id":"torn)", "id") == std::vector<std::string_view>{"ok"});
  CHECK(key_string_values("", "id").empty());
  CHECK(key_string_values(R"({"id":"a"})", "sessionId").empty());

  CHECK(first_key_string_value(R"({"sessionId":"","x":{"sessionId" : "s-1"},"sessionId":"s-2"})",
                               "sessionId") == "s-1");
  CHECK(first_key_string_value(R"({"sessionId":""})", "sessionId").empty());
  CHECK(first_key_string_value(R"({"note":"\"sessionId\":\"fake\""})", "sessionId").empty());
}

TEST_CASE("may_open_turn never rejects an opener") {
  CHECK(may_open_turn(R"({"type":"user","message":{"role":"user","content":"hello"}})"));
  CHECK(may_open_turn(R"({"type": "user", "message": {"role": "user", "content": "hello"}})"));
  // A genuine message that quotes tool_result JSON keeps its chance.
  CHECK(
      may_open_turn(R"({"type":"user","message":{"role":"user","content":"see \"type\":\"tool_result\""}})"));
  CHECK_FALSE(may_open_turn(
      R"({"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"ok"}]}})"));
  CHECK(may_open_turn(
      R"({"type":"user","message":{"role":"user","content":[{"type":"tool_result","content":"The user answered: \"q\"=\"a\""}]}})"));
  CHECK(may_open_turn(
      R"({"type":"user","message":{"role":"user","content":[{"type":"tool_result","is_error":true,"content":"The user doesn't want to proceed with this tool use. To tell you how to proceed, the user said:\nno"}]}})"));
  CHECK_FALSE(may_open_turn(R"({"type":"assistant","message":{"role":"assistant","content":"x"}})"));
  // Each of these lines is a turn opener to the parser, so the probe must not rule it out.
  RecordParser parser;
  const auto opener_kept = [&parser](std::string_view line) {
    Record r;
    REQUIRE(parser.parse(line, r) == ParseStatus::ok);
    CHECK(opens_turn(r));
    CHECK(may_open_turn(line));
  };
  // A duplicated message key: the parser reads both into one message, here a prompt, so the tool_result of
  // the first does not rule the line out (the fuzz finds).
  opener_kept(
      R"({"type":"user","message":{"role":"user","content":[{"tool_use_id":"t1","type":"tool_result","content":"x"}]},)"
      R"("message":{"role":"user","content":"hello"}})");
  // The same with the second message naming no role: the parser reads both into one message, the first's
  // role kept, the second's content over the first's.
  opener_kept(
      R"({"type":"user","message":{"role":"user","content":[{"tool_use_id":"t1","type":"tool_result","content":"x"}]},)"
      R"("message":{"ro=le":"user","content":"hello"}})");
  // A tool_result outside the message (under another key) makes no carrier of a prompt.
  opener_kept(
      R"({"type":"user","meqsage":{"role":"user","content":[{"tool_use_id":"t1","type":"tool_result","content":"x"}]},)"
      R"("message":{"role":"user","content":"hello"}})");
  // The message's own type key names tool_result, and its content (the later of two keys) is a peer
  // message's text: no tool_result block, a prompt (the fourth find). A type nested inside a text block is
  // no block of that type either.
  opener_kept(
      R"({"type":"user","message":{"role":"user","content":"Another","type":"tool_result","content":)"
      R"("Another Claude session sent a message while you were working:\n<teammate-message teammate_id=\"d\">)"
      R"(\nhi\n</teammate-message>"}})");
  opener_kept(R"({"type":"user","message":{"role":"user","content":[{"type":"text","text":"hi",)"
              R"("meta":{"type":"tool_result"}}]}})");
}

}  // namespace record_parser_unit
