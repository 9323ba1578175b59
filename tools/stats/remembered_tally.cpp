#include "tools/stats/remembered_tally.h"

#include "core/harness/claude_code/claude_code_reader.h"

namespace csift {

// The ledger's values as held_bytes sees them (found through argument-dependent lookup, so they live in
// csift itself; static keeps them to this file).
static size_t held_bytes(const MessageUsage& u) {
  return held_bytes(u.model) + held_bytes(u.request_id);
}
static size_t held_bytes(const TokenCounts&) {
  return 0;
}

namespace {

constexpr ResultKind<TranscriptTally> kTallyKind{"stats-tally"};

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

std::shared_ptr<const TranscriptTally> remembered_tally(const Transcript& t, const StatsWindow& window,
                                                        const CancelToken* cancel, ResultMemoUse& use) {
  ResultMemo* memo = t.harness == kClaudeCodeHarness ? process_result_memo() : nullptr;
  const std::string signature = memo ? tally_signature(t, window) : std::string();
  return recall_or_compute(
      memo, use, kTallyKind, t.path, signature, discovered_stamp(t),
      [&] { return tally_transcript(t, window, cancel); },
      [cancel](const TranscriptTally& tally) {
        return tally.error.empty() && !(cancel && cancel->is_cancelled());
      },
      tally_memo_cost);
}

}  // namespace csift
