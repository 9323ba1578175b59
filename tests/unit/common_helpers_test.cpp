// tools/common helpers shared by list, search, show and stats: image ordinals and hit inputs of classified
// entries, the scope header, and the text renderings' envelope readers and scope banner.
#include <doctest/doctest.h>

#include "core/base/timefmt.h"
#include "core/store/classified_transcript.h"
#include "tools/common/record_render.h"
#include "tools/common/scope_args.h"
#include "tools/common/text_fields.h"

namespace common_helpers_unit {

using namespace csift;

namespace {

Unit unit_with_images(int images) {
  Unit u;
  u.labels = {Label::user_message};
  u.images = images;
  return u;
}

}  // namespace

TEST_CASE("first_image_ordinal: 1 plus the images of the record's earlier units") {
  ClassifiedEntry e;
  e.units = {unit_with_images(2), unit_with_images(0), unit_with_images(3), unit_with_images(1)};
  CHECK(first_image_ordinal(e, 0) == 1);
  CHECK(first_image_ordinal(e, 1) == 3);
  CHECK(first_image_ordinal(e, 2) == 3);
  CHECK(first_image_ordinal(e, 3) == 6);
  CHECK(first_image_ordinal(ClassifiedEntry{}, 0) == 1);
}

TEST_CASE("hit_input_of: the entry's record, turn, draft, pairing, source and image ordinal") {
  Record r;
  r.line = 12;
  ClassifiedTranscript ct;
  ct.owner = TranscriptIdentity{"s-1", false, "s-1"};
  ClassifiedEntry e;
  e.record = &r;
  e.units = {unit_with_images(1), unit_with_images(2)};
  e.turn_index = 4;
  e.source = RecordSource::transcript;

  HitInput in = hit_input_of(ct, e, 1);
  CHECK(in.record == &r);
  CHECK(in.unit == &e.units[1]);
  CHECK(in.owner == &ct.owner);
  CHECK(in.turn_index == 4);
  CHECK_FALSE(in.superseded_draft);
  CHECK(in.pairing == Pairing::none);
  CHECK(in.source == RecordSource::transcript);
  CHECK(in.first_image_ordinal == 2);

  e.superseded_draft = true;  // a draft is outside turn numbering
  in = hit_input_of(ct, e, 0);
  CHECK(in.turn_index == -1);
  CHECK(in.superseded_draft);
  CHECK(in.first_image_ordinal == 1);

  // A merged sidecar marker's tool use is pending by construction.
  ClassifiedEntry marker;
  marker.record = &r;
  marker.source = RecordSource::elicitation_sidecar;
  Unit use = unit_with_images(0);
  use.is_tool_use = true;
  use.tool_use_id = "toolu_1";
  marker.units = {use};
  in = hit_input_of(ct, marker, 0);
  CHECK(in.pairing == Pairing::pending);
  CHECK(in.source == RecordSource::elicitation_sidecar);
}

TEST_CASE("scope header: counts, then unscoped and claude_home for the spanning tools") {
  Scope scope;
  scope.claude_home = "/h/.claude";
  scope.transcripts.resize(3);
  scope.top_level_sessions = 2;
  scope.subagent_sessions = 1;
  scope.unscoped = true;

  json counts = json::object();
  echo_scope_counts(scope, counts);
  CHECK(counts.dump() == R"({"sessions_in_scope":3,"top_level_sessions":2,"subagent_sessions":1})");

  const json h = span_header("list", scope);
  CHECK(h.dump() == R"({"kind":"header","command":"list","sessions_in_scope":3,"top_level_sessions":2,)"
                    R"("subagent_sessions":1,"unscoped":true,"claude_home":"/h/.claude"})");
  CHECK(span_header("stats", Scope{})["command"] == "stats");
}

TEST_CASE("text renderings read the envelope back: missing or mistyped fields are empty or zero") {
  const json obj = {{"s", "x"}, {"n", 7}, {"wrong", true}};
  CHECK(json_str(obj, "s") == "x");
  CHECK(json_str(obj, "n").empty());
  CHECK(json_str(obj, "absent").empty());
  CHECK(json_count(obj, "n") == 7);
  CHECK(json_count(obj, "s") == 0);
  CHECK(json_count(obj, "wrong") == 0);
  CHECK(json_count(obj, "absent") == 0);

  CHECK(plural(0, "transcript", "transcripts") == "0 transcripts");
  CHECK(plural(1, "transcript", "transcripts") == "1 transcript");
  CHECK(plural(2, "line was", "lines were") == "2 lines were");

  CHECK(local_time_or("", "(none)") == "(none)");
  CHECK(local_time_or("not a time", "(no timestamp)") == "(no timestamp)");
  CHECK(local_time_or("2026-01-01T00:00:00Z", "(none)") ==
        format_local(*parse_iso8601("2026-01-01T00:00:00Z")));

  CHECK(scope_banner({{"sessions_in_scope", 1}, {"top_level_sessions", 1}, {"subagent_sessions", 0}}) ==
        "scope 1 transcript (1 top-level, 0 subagent)");
  CHECK(scope_banner({{"sessions_in_scope", 5}, {"top_level_sessions", 2}, {"subagent_sessions", 3}}) ==
        "scope 5 transcripts (2 top-level, 3 subagent)");
  CHECK(scope_banner(json::object()) == "scope 0 transcripts (0 top-level, 0 subagent)");

  CHECK(transcript_title({{"session_id", "s-1"}, {"is_subagent", false}}) == "SESSION s-1");
  CHECK(transcript_title({{"session_id", "a-1"},
                          {"is_subagent", true},
                          {"agent_type", "Explore"},
                          {"shape", "task"},
                          {"parent_session_id", "s-1"}}) == "SUBAGENT a-1 (Explore, task) of SESSION s-1");
  CHECK(transcript_title({{"session_id", "a-2"}, {"is_subagent", true}, {"shape", "workflow"}}) ==
        "SUBAGENT a-2 (workflow) of SESSION (unknown)");
}

TEST_CASE("string_array: a lone string or the strings of an array, in order") {
  using V = std::vector<std::string>;
  const json args = {
      {"one", "a"}, {"many", {"a", 1, "b", nullptr, "c"}}, {"num", 3}, {"empty", json::array()}};
  CHECK(string_array(args, "one") == V{"a"});
  CHECK(string_array(args, "many") == V{"a", "b", "c"});
  CHECK(string_array(args, "num").empty());
  CHECK(string_array(args, "empty").empty());
  CHECK(string_array(args, "absent").empty());
}

}  // namespace common_helpers_unit
