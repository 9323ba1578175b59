#include "tools/show/show_line_facts.h"

#include <algorithm>

#include "core/base/error.h"
#include "core/harness/claude_code/claude_code_reader.h"
#include "core/record/transcript_reader.h"
#include "core/record/turns.h"

namespace csift {
namespace {

// An index with the hashes of the first line it counted and of the bytes before its end: an extension checks
// the file still holds them.
struct HeadedLineIndex {
  LineIndex index;
  uint64_t head_hash = 0;
  uint64_t tail_hash = 0;
  bool sealed = false;  // tail_hash is known: only then is the index remembered
};

// `out` with the hash of the bytes before its index's end (a file cut shorter since is answered from the
// index, which was right when counted, and not remembered).
HeadedLineIndex sealed(const Transcript& t, HeadedLineIndex out) {
  const auto tail = out.index.error.empty() ? tail_hash_of(t.path, out.index.end) : std::nullopt;
  out.tail_hash = tail.value_or(0);
  out.sealed = tail.has_value();
  return out;
}

constexpr ResultKind<HeadedLineIndex> kLineIndexKind{"line-index"};

HeadedLineIndex fresh_index(const Transcript& t, const CancelToken* cancel) {
  HeadedLineIndex out;
  out.head_hash = head_hash_of(t.path).value_or(0);
  out.index = index_lines(t.path, cancel);
  return sealed(t, std::move(out));
}

std::optional<HeadedLineIndex> extended_index(const Transcript& t, const HeadedLineIndex& was,
                                              const CancelToken* cancel) {
  if (!appended_since(t.path, was.head_hash, was.index.end, was.tail_hash)) return std::nullopt;
  HeadedLineIndex out = sealed(t, {extend_line_index(t.path, was.index, cancel), was.head_hash, 0, false});
  if (!out.index.error.empty()) return std::nullopt;
  return out;
}

// Turn openers with what numbers the turns of lines appended since: each opener's record index (an appended
// resend names the opener it supersedes by it), the numbering's state, and where the read ended.
struct ResumableOpeners {
  TurnOpeners openers;
  std::vector<size_t> opener_records;  // parallel to openers.lines
  TurnState turns;
  uint64_t end = 0;  // past the last complete line read
  bool torn = false;
  uint64_t head_hash = 0;
  uint64_t tail_hash = 0;  // of the bytes before `end`
  bool complete = false;   // the read was whole (only then is it remembered)
};

constexpr ResultKind<ResumableOpeners> kTurnOpenersKind{"turn-openers"};

// Numbering needs only the records that may open a turn (turns.h), and of those what the turn rule reads.
ReadOptions opener_read_options(const Transcript& t, const CancelToken* cancel) {
  ReadOptions options;
  options.cancel = cancel;
  if (const RawLineProbes* probes = reader_for(t).raw_probes())
    options.want = [probes](std::string_view line) { return probes->may_open_turn(line); };
  options.payloads = ReadOptions::Payloads::skip;
  return options;
}

// Numbers the turns of `read`'s records after `out.turns`, closing up the openers an appended resend
// supersedes, and notes where the read ended.
void number_turns(const Transcript& t, const ReadResult& read, uint64_t begin, ResumableOpeners& out) {
  const size_t base = out.turns.records;
  const AppendedTurns turns = assign_appended_turns(out.turns, read.records, turn_rule_of(t));
  for (const size_t gone : turns.superseded) {
    const auto at = std::find(out.opener_records.begin(), out.opener_records.end(), gone);
    if (at == out.opener_records.end()) continue;
    out.openers.lines.erase(out.openers.lines.begin() + (at - out.opener_records.begin()));
    out.opener_records.erase(at);
  }
  for (const size_t index : turns.appended.opener_index) {
    out.opener_records.push_back(index);
    out.openers.lines.push_back(read.records[index - base].line);
  }
  out.end = complete_end(read, begin);
  out.torn = read.torn_tail;
  const auto tail = tail_hash_of(t.path, out.end);
  out.tail_hash = tail.value_or(0);
  out.complete = !read.cancelled && read.error.empty() && tail;
}

ResumableOpeners fresh_openers(const Transcript& t, const CancelToken* cancel) {
  ResumableOpeners out;
  out.head_hash = head_hash_of(t.path).value_or(0);
  const ReadResult read = read_transcript(t, opener_read_options(t, cancel));
  if (!read.error.empty()) failure_error("cannot read " + t.path + ": " + read.error);
  out.openers.physical_lines = read.lines;
  number_turns(t, read, 0, out);
  return out;
}

std::optional<ResumableOpeners> extended_openers(const Transcript& t, const ResumableOpeners& was,
                                                 const CancelToken* cancel) {
  if (!reader_for(t).raw_lines_are_file_lines() ||
      !appended_since(t.path, was.head_hash, was.end, was.tail_hash))
    return std::nullopt;
  ReadOptions options = opener_read_options(t, cancel);
  options.begin = was.end;  // a torn line counted before is read again from its start
  options.first_line = was.openers.physical_lines - (was.torn ? 1 : 0) + 1;
  const ReadResult read = read_transcript(t, options);
  if (read.cancelled || !read.error.empty()) return std::nullopt;
  ResumableOpeners out = was;
  out.openers.physical_lines = options.first_line - 1 + read.lines;
  number_turns(t, read, was.end, out);
  return out;
}

// Keyed by path: only a harness with a file per transcript (a database holds many sessions under one path).
ResultMemo* show_memo(const Transcript& t, ResultMemo* memo) {
  return t.harness == HarnessId::claude_code ? memo : nullptr;
}

}  // namespace

std::shared_ptr<const LineIndex> show_line_index(const Transcript& t, ResultMemo* memo,
                                                 const CancelToken* cancel, ResultMemoUse& use) {
  if (!reader_for(t).raw_lines_are_file_lines()) return nullptr;
  const auto headed = recall_extend_or_compute(
      show_memo(t, memo), use, kLineIndexKind, t.path, "", discovered_stamp(t),
      [&] { return fresh_index(t, cancel); },
      [&](const HeadedLineIndex& was, const FileStamp&) { return extended_index(t, was, cancel); },
      [](const HeadedLineIndex& h) { return h.index.error.empty() && h.sealed; },
      [](const HeadedLineIndex& h) { return held_bytes(h.index.starts); });
  if (!headed->index.error.empty()) failure_error("cannot read " + t.path + ": " + headed->index.error);
  return std::shared_ptr<const LineIndex>(headed, &headed->index);
}

std::shared_ptr<const TurnOpeners> show_turn_openers(const Transcript& t, ResultMemo* memo,
                                                     const CancelToken* cancel, ResultMemoUse& use) {
  const auto resumable = recall_extend_or_compute(
      show_memo(t, memo), use, kTurnOpenersKind, t.path, "", discovered_stamp(t),
      [&] { return fresh_openers(t, cancel); },
      [&](const ResumableOpeners& was, const FileStamp&) { return extended_openers(t, was, cancel); },
      [](const ResumableOpeners& o) { return o.complete; },
      [](const ResumableOpeners& o) {
        return held_bytes(o.openers.lines) + held_bytes(o.opener_records) +
               held_bytes(o.turns.opener_of_parent);
      });
  return std::shared_ptr<const TurnOpeners>(resumable, &resumable->openers);
}

}  // namespace csift
