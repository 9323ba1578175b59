#include "tools/stats/stats_fold.h"

#include <algorithm>
#include <functional>
#include <utility>

#include "core/harness/claude_code/classify_detail.h"
#include "core/harness/claude_code/claude_fields.h"

namespace csift {
namespace {

void fold_span(StatsFold& f, const Record& r) {
  const auto t = parse_iso8601(r.timestamp);
  if (!t) return;
  if (!f.first || *t < *f.first) {
    f.first = t;
    f.first_timestamp = r.timestamp;
  }
  if (!f.last || *t > *f.last) {
    f.last = t;
    f.last_timestamp = r.timestamp;
  }
}

// Thinking blocks by their signature tag (v0.9.2 ③): block counts only, since usage covers the whole message.
void fold_thinking(StatsFold& f, const Record& r) {
  const std::string model = r.message.model.empty() ? kUnknownModel : r.message.model;
  for (const Block& b : r.message.blocks) {
    if (b.kind != BlockKind::thinking || b.signature.empty()) continue;
    const auto tag = detail::thinking_signature_tag(b.signature);
    if (!tag || *tag == "thinking") continue;
    if (*tag == "narration") {
      ++f.narration_blocks[model];
    } else {
      ++f.unknown_thinking_tags[*tag];
    }
  }
}

void fold_assistant(StatsFold& f, const Record& r) {
  ++f.assistant_records;
  f.ledger.admit(r);
  fold_thinking(f, r);
  for (const Block& b : r.message.blocks) {
    if (b.kind != BlockKind::tool_use) continue;
    if (!b.id.empty() && !f.tool_ids.insert(b.id).second) continue;  // a replayed call counts once
    ++f.tools[b.name.empty() ? "(unnamed)" : b.name];
  }
}

// Claude Code's cost-state: its own tally when it exits; a later one (a resumed run) supersedes. It is
// bookkeeping, not conversation: no other figure counts it.
void fold_cost_state(StatsFold& f, const Record& r) {
  const json extra = json::parse(cc(r).extra_json, nullptr, false);
  if (extra.is_object() && extra.contains("totalCostUSD") && extra["totalCostUSD"].is_number())
    f.harness_cost_usd = extra["totalCostUSD"].get<double>();
}

}  // namespace

void StatsFold::add(const Record& r, const TurnRule& rule) {
  if (r.type == "cost-state") {
    fold_cost_state(*this, r);
    return;
  }
  fold_span(*this, r);
  if (!r.uuid.empty()) record_keys.push_back(std::hash<std::string>{}(r.uuid));
  if (r.type == "user") ++user_records;
  if (is_compact_summary(r)) ++compactions;
  if (r.type == "assistant") fold_assistant(*this, r);
  if (rule.opens_turn(r)) {
    if (r.parent_uuid.empty())
      ++root_openers;
    else
      opener_parents.insert(r.parent_uuid);
  }
}

void StatsFold::finish_into(TranscriptTally& tally) {
  tally.user_records = user_records;
  tally.assistant_records = assistant_records;
  tally.compactions = compactions;
  tally.turns = turn_count();
  tally.first_timestamp = first_timestamp;
  tally.last_timestamp = last_timestamp;
  tally.tokens = ledger.totals();
  tally.ledger = std::exchange(ledger, TokenLedger{});
  // The tally's copy is only read (a fold kept to resume copies it back: stats_fold.h).
  tally.ledger.compact();
  tally.narration_blocks = narration_blocks;
  tally.unknown_thinking_tags = unknown_thinking_tags;
  tally.tools = tools;
  tally.harness_cost_usd = harness_cost_usd;
  tally.record_keys = std::exchange(record_keys, {});
  std::sort(tally.record_keys.begin(), tally.record_keys.end());
  tally.record_keys.erase(std::unique(tally.record_keys.begin(), tally.record_keys.end()),
                          tally.record_keys.end());
}

bool time_window_admits(const TimeWindow& time, const Record& r) {
  if (!time.bounded()) return true;
  const auto t = parse_iso8601(r.timestamp);
  return t && time.contains(*t);
}

bool StatsFoldSink::record(Record&& r) {
  if (time_window_admits(time_, r)) fold_.add(r, rule_);
  return true;
}

}  // namespace csift
