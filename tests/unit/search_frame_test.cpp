// search's exchange contract (SPEC.md §9.2): an exchange is what matched plus its round trip's frame — the
// turn's opener, the tool partner of a matched unit, the end-of-turn agent text — and nothing else of the
// turn unless siblings are asked for, which are capped with the count of what they left out.
#include <doctest/doctest.h>

#include "temp_store.h"
#include "tools/search/search.h"

namespace search_frame_unit {

using namespace csift;
using csift_test::TempStore;

namespace {

const std::string kSid = "f4a3e000-0000-4000-8000-000000000001";

std::string line(const std::string& type, const std::string& uuid, const std::string& content) {
  return "{\"type\":\"" + type + "\",\"uuid\":\"" + uuid + "\",\"sessionId\":\"" + kSid +
         "\",\"timestamp\":\"2026-06-07T04:32:00.000Z\",\"message\":{\"role\":\"" +
         (type == "user" ? "user" : "assistant") + "\",\"content\":" + content + "}}\n";
}

// L1 the prompt · L2 thinking · L3-L22 ten Bash use/result pairs (the 7th greps for the widget) · L23 the
// answer.
std::string long_turn() {
  std::string t = line("user", "u1", "\"where is the widget defined?\"") +
                  line("assistant", "t1", "[{\"type\":\"thinking\",\"thinking\":\"look around\"}]");
  for (int n = 1; n <= 10; ++n) {
    const std::string id = "toolu_" + std::to_string(n);
    const std::string cmd = n == 7 ? "grep -rn gizmo src" : "ls dir" + std::to_string(n);
    t += line("assistant", "a" + std::to_string(n),
              "[{\"type\":\"tool_use\",\"id\":\"" + id + "\",\"name\":\"Bash\",\"input\":{\"command\":\"" +
                  cmd + "\"}}]");
    t += line("user", "r" + std::to_string(n),
              "[{\"type\":\"tool_result\",\"tool_use_id\":\"" + id + "\",\"content\":\"out " +
                  std::to_string(n) + "\"}]");
  }
  return t + line("assistant", "m1", "[{\"type\":\"text\",\"text\":\"it is in src/widget.cc\"}]");
}

Envelope search(const TempStore& store, json args) {
  args["targets"] = json::array({"@" + kSid});
  args["claude_home"] = store.home().string();
  args["format"] = "json";
  ToolContext ctx;
  ctx.env = store.env();
  return run_search(args, ctx);
}

std::vector<std::string> labels_of(const json& hits) {
  std::vector<std::string> out;
  for (const auto& h : hits)
    out.push_back(h["label"].get<std::string>() + "@L" + std::to_string(h["line"].get<int>()));
  return out;
}

}  // namespace

TEST_CASE("exchange frame: a user hit shows the prompt and the end-of-turn answer, not the turn's calls") {
  TempStore store;
  store.write("-work-demo/" + kSid + ".jsonl", long_turn());
  const Envelope env = search(store, {{"pattern", "widget"}, {"label", json::array({"user"})}});
  REQUIRE(env.rows.size() == 1);
  const json& x = env.rows[0];
  CHECK(labels_of(x["hits"]) == std::vector<std::string>{"user.message@L1"});
  CHECK(labels_of(x["frame"]) == std::vector<std::string>{"agent.message@L23"});
  CHECK(x["frame"][0]["frame"] == "answer");
  CHECK(x["frame"][0]["matched"] == false);
}

TEST_CASE("exchange frame: JSON hits carry only matched units; partners and the opener are the frame") {
  TempStore store;
  store.write("-work-demo/" + kSid + ".jsonl", long_turn());
  const Envelope env = search(store, {{"pattern", "gizmo"}});
  REQUIRE(env.rows.size() == 1);
  const json& x = env.rows[0];
  for (const auto& h : x["hits"])
    CHECK(h["matched"] == true);
  CHECK(labels_of(x["hits"]) == std::vector<std::string>{"agent.tool.use@L15"});
  CHECK(labels_of(x["frame"]) ==
        std::vector<std::string>{"user.message@L1", "agent.tool.result@L16", "agent.message@L23"});
  std::vector<std::string> roles;
  for (const auto& f : x["frame"])
    roles.push_back(f["frame"]);
  CHECK(roles == std::vector<std::string>{"opener", "partner", "answer"});
  CHECK(x.value("siblings", json()).is_null());  // siblings only on request
}

TEST_CASE("exchange frame: siblings on request are the rest of the turn, capped, with what was left out") {
  TempStore store;
  store.write("-work-demo/" + kSid + ".jsonl", long_turn());
  const Envelope env =
      search(store, {{"pattern", "widget"}, {"label", json::array({"user"})}, {"siblings", true}});
  REQUIRE(env.rows.size() == 1);
  const json& x = env.rows[0];
  size_t uses = 0, results = 0;
  for (const auto& s : x["siblings"]) {
    uses += s["label"] == "agent.tool.use";
    results += s["label"] == "agent.tool.result";
    CHECK(s["line"] != 23);  // the answer is the frame's already
  }
  CHECK(uses == 3);
  CHECK(results == 3);
  CHECK(x["siblings_hidden"] == json({{"agent.tool.use", 7}, {"agent.tool.result", 7}}));
}

}  // namespace search_frame_unit
