#include "tools/stats/remembered_tally.h"

#include <chrono>

#include "core/harness/claude_code/claude_code_reader.h"
#include "tools/stats/stats_fold.h"

namespace csift {

// The ledger's values as held_bytes sees them (found through argument-dependent lookup, so they live in
// csift itself; static keeps them to this file).
static size_t held_bytes(const MessageUsage& u) {
  return held_bytes(u.model) + held_bytes(u.request_id);
}
static size_t held_bytes(const ModelDay& k) {
  return held_bytes(k.model);
}
static size_t held_bytes(const TokenCounts&) {
  return 0;
}

namespace {

constexpr ResultKind<ResumableTally> kTallyKind{"stats-tally"};

// A file written this recently may still grow (a live session, a subagent still running). Only such a file's
// tally keeps the fold an append resumes from: the fold's tool-call ids and opener parents are a fifth of a
// tally's bytes (4 KB of ~19 KB on the corpus replica), and a file idle this long that does grow is tallied
// afresh once, with the same answer.
constexpr int64_t kLikelyToGrowNs = int64_t{24} * 3600 * 1000000000;

bool likely_to_grow(const std::optional<FileStamp>& stamp) {
  if (!stamp) return true;
  const int64_t now = std::chrono::duration_cast<std::chrono::nanoseconds>(
                          std::chrono::system_clock::now().time_since_epoch())
                          .count();
  return now - stamp->mtime_ns < kLikelyToGrowNs;
}

std::string optional_number(const std::optional<int64_t>& v) {
  return v ? std::to_string(*v) : std::string("-");
}

}  // namespace

std::string tally_signature(const Transcript& t, const StatsWindow& window) {
  std::string sig =
      "since=" + optional_number(window.time.since) + ";until=" + optional_number(window.time.until);
  if (window.turn) {
    const RangeSpec& r = *window.turn;
    sig += ";turn=" + optional_number(r.lo) + ".." + optional_number(r.hi) + (r.single ? ",single" : "") +
           (r.open ? ",open" : "") + ";text=" + r.text;
  }
  sig += t.is_subagent ? ";subagent" : ";session";
  return sig;
}

size_t tally_memo_cost(const TranscriptTally& tally) {
  return held_bytes(tally.line_types) + held_bytes(tally.first_timestamp) + held_bytes(tally.last_timestamp) +
         held_bytes(tally.tokens) + held_bytes(tally.narration_blocks) +
         held_bytes(tally.unknown_thinking_tags) + held_bytes(tally.tools) + held_bytes(tally.error) +
         held_bytes(tally.record_keys) + held_bytes(tally.ledger.messages()) +
         held_bytes(tally.ledger.without_id());
}

// What a resumable tally's fold holds beyond the tally's own copies.
static size_t fold_memo_cost(const StatsFold& f) {
  size_t n = held_bytes(f.record_keys) + held_bytes(f.first_timestamp) + held_bytes(f.last_timestamp) +
             held_bytes(f.narration_blocks) + held_bytes(f.unknown_thinking_tags) + held_bytes(f.tools) +
             held_bytes(f.ledger.messages()) + held_bytes(f.ledger.without_id());
  for (const auto* ids : {&f.tool_ids, &f.opener_parents})
    for (const std::string& id : *ids)
      n += 48 + held_bytes(id);  // a node, its hash and the string
  return n;
}

std::shared_ptr<const TranscriptTally> remembered_tally(const Transcript& t, const StatsWindow& window,
                                                        const CancelToken* cancel, ResultMemoUse& use) {
  ResultMemo* memo = t.harness == HarnessId::claude_code ? process_result_memo() : nullptr;
  const std::string signature = memo ? tally_signature(t, window) : std::string();
  const std::optional<FileStamp> stamp = discovered_stamp(t);
  const bool keep_fold = memo != nullptr && likely_to_grow(stamp);
  // An unbounded tally is extended over an append (its fold resumed from where its read ended); any other
  // change, or a bounded window, tallies the transcript afresh.
  const auto remembered = recall_extend_or_compute(
      memo, use, kTallyKind, t.path, signature, stamp,
      [&] { return tally_resumable(t, window, cancel, keep_fold); },
      [&](const ResumableTally& was, const FileStamp&) { return extend_tally(t, was, cancel); },
      [cancel](const ResumableTally& r) {
        return r.tally.error.empty() && !(cancel && cancel->is_cancelled());
      },
      [](const ResumableTally& r) { return tally_memo_cost(r.tally) + fold_memo_cost(r.fold); });
  return std::shared_ptr<const TranscriptTally>(remembered, &remembered->tally);
}

}  // namespace csift
