// tools/verbatim: middle elision, hook chunking (concatenation gives the document back, no chunk over the
// window), the agent-message modes, and reading what the newest summary already quotes.
#include <doctest/doctest.h>

#include "tools/verbatim/agent_filter.h"
#include "tools/verbatim/summary_dedup.h"
#include "tools/verbatim/verbatim_render.h"
#include "tools/verbatim/verbatim_slices.h"

namespace verbatim_unit {

using namespace csift;

namespace {

std::string join(const std::vector<std::string>& chunks) {
  std::string s;
  for (const auto& c : chunks)
    s += c;
  return s;
}

std::vector<TurnPiece> pieces(const std::vector<std::string>& texts) {
  std::vector<TurnPiece> out;
  for (size_t i = 0; i < texts.size(); ++i) {
    TurnPiece p;
    p.line = i + 1;
    p.text = texts[i];
    out.push_back(p);
  }
  return out;
}

}  // namespace

TEST_CASE("plan_elision: keeps head and tail by role share, counts what it drops") {
  CHECK_FALSE(plan_elision("short", 600, kUserHeadFraction).truncated);
  std::string text;
  for (int i = 0; i < 100; ++i)
    text += "line " + std::to_string(i) + " of the log\n";
  const Elision e = plan_elision(text, kAgentCap, kAgentHeadFraction);
  CHECK(e.truncated);
  CHECK(e.head_chars == 594);
  CHECK(e.tail_chars == 306);
  CHECK(e.head_chars + e.tail_chars + e.elided_chars == utf8_length(text));
  CHECK(e.elided_lines > 0);
  const Elision u = plan_elision(std::string(1000, 'x'), kUserCap, kUserHeadFraction);
  CHECK(u.head_chars == 360);
  CHECK(u.tail_chars == 240);
}

TEST_CASE("pack_forward and pack_from_end: chunks within the window that concatenate to the document") {
  std::string doc;
  for (int i = 0; i < 40; ++i)
    doc += std::string(static_cast<size_t>(i * 7 % 90), 'a') + "\xC3\xA9\n";
  doc += std::string(250, 'z') + "\n";  // a line longer than the window
  for (const size_t window : {size_t{60}, size_t{100}, size_t{1000}}) {
    CAPTURE(window);
    const auto forward = pack_forward(doc, window);
    CHECK(join(forward) == doc);
    for (const auto& c : forward)
      CHECK(utf8_length(c) <= window);
    const std::vector<std::string> blocks = {doc.substr(0, 500), doc.substr(500, 700), doc.substr(1200)};
    const auto backward = pack_from_end(blocks, window);
    CHECK(join(backward) == doc);
    for (const auto& c : backward)
      CHECK(utf8_length(c) <= window);
  }
}

TEST_CASE("keep_agent_messages: the four modes") {
  const RichnessThresholds th;
  const auto run = pieces({"Let me check the build.", std::string(300, 'r'),
                           "Found the bug in parser.cc:120.", "Now I will run it.", "Done."});
  CHECK(keep_agent_messages(run, AgentMsgs::all, th) == std::vector<bool>(5, true));
  CHECK(keep_agent_messages(run, AgentMsgs::eot_only, th) ==
        std::vector<bool>{false, false, false, false, true});
  // longest: the 300-char message, the rich middle; a short first and a plain last collapse
  CHECK(keep_agent_messages(run, AgentMsgs::longest, th) ==
        std::vector<bool>{false, true, true, false, false});
  // rich: a run of 5 is under the threshold of 6, so everything stays
  CHECK(keep_agent_messages(run, AgentMsgs::rich, th) == std::vector<bool>(5, true));
  const RichnessThresholds heavy{3, 140, 120};
  CHECK(keep_agent_messages(run, AgentMsgs::rich, heavy) == std::vector<bool>{true, true, true, false, true});
}

TEST_CASE("signals: numbers, hashes, file refs, code spans, findings") {
  CHECK(has_signal("took 42 seconds"));
  CHECK(has_signal("commit 3fa9c1e fixed it"));
  CHECK(has_signal("see parser.cc:120"));
  CHECK(has_signal("call `run()` first"));
  CHECK(has_signal("the root cause is the cache"));
  CHECK_FALSE(has_signal("Let me look at it."));
  CHECK(is_declaration("Let me look at it.", RichnessThresholds{}));
  CHECK_FALSE(is_declaration("The cache is stale.", RichnessThresholds{}));
}

TEST_CASE("SummaryQuotes: user bullets and next-step quotes, compared by their opening") {
  const SummaryQuotes q(
      "Summary:\n1. Primary Request:\n   stuff\n6. All user messages:\n"
      "   - \"Please migrate the billing tables to the new schema and keep...\"\n   - \"ok\"\n"
      "7. Pending Tasks:\n   - none of these are user messages\n"
      "9. Optional Next Step:\n   > \"I have migrated the billing tables; the invoices view still reads the "
      "old one.\"\n");
  CHECK(q.user_bullets() == 1);  // "ok" is too short to call anything a duplicate
  CHECK(
      q.quotes_user("Please migrate the billing tables to the new schema and keep the old ones for a week."));
  CHECK_FALSE(q.quotes_user("Please migrate the invoices"));
  CHECK_FALSE(q.quotes_user("none of these are user messages at all, really"));
  CHECK(q.quotes_agent("I have migrated the billing tables; the invoices view still reads the old one."));
  CHECK(dedup_key("  \"Hello   World...\"  ") == "hello world");
}

}  // namespace verbatim_unit
