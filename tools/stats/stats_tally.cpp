#include "tools/stats/stats_tally.h"

#include <algorithm>
#include <functional>
#include <unordered_set>

#include "core/harness/claude_code/classify_detail.h"
#include "core/harness/claude_code/claude_fields.h"
#include "core/record/transcript_reader.h"
#include "core/record/turns.h"

namespace csift {
namespace {

// stats needs the conversation records (user, assistant) and the system records that mark the timeline; the
// bulky attachment lines are censused by the reader but never parsed.
bool stats_wants(std::string_view line, const RawLineProbes& probes) {
  return probes.may_carry_message(line) || line.find("\"system\"") != std::string_view::npos;
}

// The transcript's turn rule: its harness's opener, and the records of another lane it holds inline.
struct TurnRule {
  TurnOpener opens = nullptr;
  TurnOpener foreign = nullptr;
};

std::vector<bool> turn_admits(const std::vector<Record>& records, const RangeSpec& turn,
                              const TurnRule& rule) {
  std::vector<bool> admit(records.size(), false);
  const TurnAssignment turns = assign_turns(records, rule.opens, rule.foreign);
  const auto range = resolve_range(turn, 0, turns.turn_count - 1);
  if (!range) return admit;
  for (size_t i = 0; i < records.size(); ++i) {
    admit[i] = turns.turn_of[i] >= range->lo && turns.turn_of[i] <= range->hi;
  }
  return admit;
}

// The windowed records in file order: the turn axis is computed over every record, then ANDed with time.
std::vector<Record> windowed(std::vector<Record> records, const StatsWindow& window, const TurnRule& rule) {
  if (!window.bounded()) return records;
  std::vector<bool> admit =
      window.turn ? turn_admits(records, *window.turn, rule) : std::vector<bool>(records.size(), true);
  std::vector<Record> out;
  for (size_t i = 0; i < records.size(); ++i) {
    if (!admit[i]) continue;
    if (window.time.bounded()) {
      const auto t = parse_iso8601(records[i].timestamp);
      if (!t || !window.time.contains(*t)) continue;
    }
    out.push_back(std::move(records[i]));
  }
  return out;
}

void note_span(TranscriptTally& tally, const Record& r, std::optional<EpochMs>& first,
               std::optional<EpochMs>& last) {
  const auto t = parse_iso8601(r.timestamp);
  if (!t) return;
  if (!first || *t < *first) {
    first = t;
    tally.first_timestamp = r.timestamp;
  }
  if (!last || *t > *last) {
    last = t;
    tally.last_timestamp = r.timestamp;
  }
}

// Thinking blocks by their signature tag (v0.9.2 ③): block counts only, since usage covers the whole message.
void count_thinking(TranscriptTally& tally, const Record& r) {
  const std::string model = r.message.model.empty() ? kUnknownModel : r.message.model;
  for (const Block& b : r.message.blocks) {
    if (b.kind != BlockKind::thinking || b.signature.empty()) continue;
    const auto tag = detail::thinking_signature_tag(b.signature);
    if (!tag || *tag == "thinking") continue;
    if (*tag == "narration") {
      ++tally.narration_blocks[model];
    } else {
      ++tally.unknown_thinking_tags[*tag];
    }
  }
}

void count_assistant(TranscriptTally& tally, const Record& r, TokenLedger& ledger,
                     std::unordered_set<std::string>& tool_ids) {
  ++tally.assistant_records;
  ledger.admit(r);
  count_thinking(tally, r);
  for (const Block& b : r.message.blocks) {
    if (b.kind != BlockKind::tool_use) continue;
    if (!b.id.empty() && !tool_ids.insert(b.id).second) continue;  // a replayed call counts once
    ++tally.tools[b.name.empty() ? "(unnamed)" : b.name];
  }
}

void count_records(TranscriptTally& tally, const std::vector<Record>& records, const TurnRule& rule) {
  TokenLedger ledger;
  std::unordered_set<std::string> tool_ids;
  std::optional<EpochMs> first, last;
  for (const Record& r : records) {
    note_span(tally, r, first, last);
    if (!r.uuid.empty()) tally.record_keys.push_back(std::hash<std::string>{}(r.uuid));
    if (r.type == "user") ++tally.user_records;
    if (is_compact_summary(r)) ++tally.compactions;
    if (r.type == "assistant") count_assistant(tally, r, ledger, tool_ids);
  }
  tally.tokens = ledger.totals();
  tally.ledger = std::move(ledger);
  std::sort(tally.record_keys.begin(), tally.record_keys.end());
  tally.record_keys.erase(std::unique(tally.record_keys.begin(), tally.record_keys.end()),
                          tally.record_keys.end());
  tally.turns = assign_turns(records, rule.opens, rule.foreign).turn_count;
}

}  // namespace

TranscriptTally tally_transcript(const Transcript& t, const StatsWindow& window, const CancelToken* cancel) {
  ReadOptions options;
  if (const RawLineProbes* probes = reader_for(t).raw_probes())
    options.want = [probes](std::string_view line) { return stats_wants(line, *probes); };
  options.census_types = true;
  options.cancel = cancel;
  ReadResult read = read_transcript(t, options);
  TranscriptTally tally;
  tally.lines = read.lines;
  tally.skipped_lines = read.skipped_lines;
  tally.values_out_of_range = read.values_out_of_range;
  tally.bytes = read.bytes;
  tally.line_types = std::move(read.line_types);
  tally.error = std::move(read.error);
  const TurnRule rule{reader_for(t).turn_opener(), reader_for(t).foreign_lane(t)};
  count_records(tally, windowed(std::move(read.records), window, rule), rule);
  return tally;
}

}  // namespace csift
