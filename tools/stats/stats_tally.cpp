#include "tools/stats/stats_tally.h"

#include <cstdlib>

#include "core/cache/file_stamp.h"
#include "core/record/transcript_reader.h"
#include "core/record/turns.h"
#include "core/scan/substring_finder.h"
#include "tools/stats/stats_fold.h"

namespace csift {
namespace {

// stats needs the conversation records (user, assistant), the system records that mark the timeline and the
// harness's cost tally; the bulky attachment lines are censused by the reader but never parsed.
bool stats_wants(std::string_view line, const RawLineProbes& probes) {
  // cost-state: Claude Code's own tally of the session's cost, shown beside stats' (SPEC.md §9.4).
  static const SubstringFinder kSystem({"\"system\"", "\"cost-state\""}, false);
  return probes.may_carry_message(line) || kSystem.contains(line);
}

// What stats reads of a record a well-formed line holds (StatsFold::add): an assistant record's usage and
// tool calls, Claude Code's cost tally and a turn opener's message need a parse; of every other record the
// envelope (type, uuid, timestamp, isCompactSummary) is all it reads. A tool result or a progress line, most
// of a store's bytes, then costs its line check only.
ReadOptions::Keyed stats_keyed(std::string_view line, const std::vector<OuterKey>& keys,
                               const RawLineProbes& probes) {
  const std::string_view type = probes.keyed_type(line, keys);
  if (type.empty() || type == "assistant" || type == "cost-state") return ReadOptions::Keyed::parse;
  // Every opener is a user record: another type the keys settle is an envelope without asking again.
  return type == "user" && probes.may_open_turn(line, keys) ? ReadOptions::Keyed::parse
                                                            : ReadOptions::Keyed::envelope;
}

std::vector<bool> turn_admits(const std::vector<Record>& records, const RangeSpec& turn,
                              const TurnRule& rule) {
  std::vector<bool> admit(records.size(), false);
  const TurnAssignment turns = assign_turns(records, rule);
  const auto range = resolve_range(turn, 0, turns.turn_count - 1);
  if (!range) return admit;
  for (size_t i = 0; i < records.size(); ++i) {
    admit[i] = turns.turn_of[i] >= range->lo && turns.turn_of[i] <= range->hi;
  }
  return admit;
}

// The --turn window needs each record's turn number, and a turn's opener is known only once no later opener
// shares its parent (a draft): this path holds the records, numbers the turns, then folds the records both
// windows admit, in file order.
void fold_turn_window(StatsFold& fold, const std::vector<Record>& records, const StatsWindow& window,
                      const TurnRule& rule) {
  const std::vector<bool> admit = turn_admits(records, *window.turn, rule);
  for (size_t i = 0; i < records.size(); ++i) {
    if (admit[i] && time_window_admits(window.time, records[i])) fold.add(records[i], rule);
  }
}

// CSIFT_STATS_FULL_PARSE=1 parses every field of every record stats reads: the reference the sparse parse
// is tested against.
bool stats_full_parse() {
  const char* v = std::getenv("CSIFT_STATS_FULL_PARSE");
  return v && std::string_view(v) == "1";
}

}  // namespace

namespace {

// `envelopes`: a record stats reads no more of than its envelope may be read as one (stats_keyed). Not under
// a --turn window, which also reads whether each record is another lane's.
ReadOptions stats_read_options(const Transcript& t, const CancelToken* cancel, bool envelopes) {
  ReadOptions options;
  const RawLineProbes* probes = reader_for(t).raw_probes();
  if (probes) options.want = [probes](std::string_view line) { return stats_wants(line, *probes); };
  options.census_types = true;
  options.cancel = cancel;
  // stats reads no tool input, raw result, thinking text or image: only the fields its counts and the turn
  // rule need are materialised.
  if (stats_full_parse()) return options;
  options.payloads = ReadOptions::Payloads::skip;
  if (probes && envelopes && probes->label_key_depth() > 0) {
    options.keyed_depth = probes->label_key_depth();
    options.want_keyed = [probes](std::string_view line, const std::vector<OuterKey>& keys) {
      return stats_keyed(line, keys, *probes);
    };
  }
  return options;
}

// Notes where the read ended and the hash of the bytes before it, which an extension checks; false when they
// cannot be read.
bool end_sealed(const Transcript& t, uint64_t end, ResumableTally& out) {
  const auto tail = tail_hash_of(t.path, end);
  if (!tail) return false;
  out.end = end;
  out.tail_hash = *tail;
  return true;
}

}  // namespace

ResumableTally tally_resumable(const Transcript& t, const StatsWindow& window, const CancelToken* cancel,
                               bool keep_fold) {
  const ReadOptions options = stats_read_options(t, cancel, !window.turn);
  const TurnRule rule = turn_rule_of(t);
  ResumableTally out;
  if (keep_fold) out.head_hash = head_hash_of(t.path).value_or(0);
  ReadStats read;
  if (window.turn) {
    ReadResult held = read_transcript(t, options);
    fold_turn_window(out.fold, held.records, window, rule);
    read = std::move(held);
  } else {
    // Every other window is decided record by record: the records stream through the fold.
    StatsFoldSink sink(out.fold, window.time, rule);
    read = reader_for(t).read(t, options, sink);
  }
  TranscriptTally& tally = out.tally;
  tally.lines = read.lines;
  tally.skipped_lines = read.skipped_lines;
  tally.values_out_of_range = read.values_out_of_range;
  tally.bytes = read.bytes;
  tally.line_types = std::move(read.line_types);
  tally.error = std::move(read.error);
  out.fold.finish_into(tally);
  out.resumable = keep_fold && !window.bounded() && tally.error.empty() && !read.cancelled && !read.stopped &&
                  reader_for(t).raw_lines_are_file_lines() && end_sealed(t, complete_end(read, 0), out);
  if (!out.resumable) {
    out.fold = StatsFold{};  // nothing will extend it: do not hold it
  }
  return out;
}

std::optional<ResumableTally> extend_tally(const Transcript& t, const ResumableTally& was,
                                           const CancelToken* cancel) {
  if (!was.resumable) return std::nullopt;
  if (!appended_since(t.path, was.head_hash, was.end, was.tail_hash)) return std::nullopt;
  const bool was_torn = was.tally.bytes > was.end;
  ReadOptions options = stats_read_options(t, cancel, /*envelopes=*/true);
  options.begin = was.end;
  options.first_line = was.tally.lines - (was_torn ? 1 : 0) + 1;
  ResumableTally out = was;
  out.fold.take_back_from(was.tally);
  const TimeWindow unbounded;
  const TurnRule rule = turn_rule_of(t);  // the sink holds references: both outlive the read
  StatsFoldSink sink(out.fold, unbounded, rule);
  ReadStats read = reader_for(t).read(t, options, sink);
  if (!read.error.empty() || read.cancelled || read.stopped) return std::nullopt;
  // The torn line the earlier read counted is read again from its start, now complete or still torn.
  TranscriptTally& tally = out.tally;
  if (was_torn) {
    --tally.lines;
    --tally.skipped_lines;
    if (auto it = tally.line_types.find("(torn)"); it != tally.line_types.end() && --it->second == 0)
      tally.line_types.erase(it);
  }
  tally.lines += read.lines;
  tally.skipped_lines += read.skipped_lines;
  tally.values_out_of_range += read.values_out_of_range;
  tally.bytes = was.end + read.bytes;
  for (const auto& [type, n] : read.line_types)
    tally.line_types[type] += n;
  out.fold.finish_into(tally);
  if (!end_sealed(t, complete_end(read, was.end), out)) return std::nullopt;
  return out;
}

TranscriptTally tally_transcript(const Transcript& t, const StatsWindow& window, const CancelToken* cancel) {
  return tally_resumable(t, window, cancel, /*keep_fold=*/false).tally;
}

}  // namespace csift
