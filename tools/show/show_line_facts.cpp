#include "tools/show/show_line_facts.h"

#include "core/base/error.h"
#include "core/harness/claude_code/claude_code_reader.h"
#include "core/record/transcript_reader.h"
#include "tools/common/classified_transcript.h"

namespace csift {
namespace {

// An index with the hash of the first line it counted: an extension checks the file still starts so.
struct HeadedLineIndex {
  LineIndex index;
  uint64_t head_hash = 0;
};

constexpr ResultKind<HeadedLineIndex> kLineIndexKind{"line-index"};
constexpr ResultKind<TurnOpeners> kTurnOpenersKind{"turn-openers"};

HeadedLineIndex fresh_index(const Transcript& t, const CancelToken* cancel) {
  HeadedLineIndex out;
  out.head_hash = head_hash_of(t.path).value_or(0);
  out.index = index_lines(t.path, cancel);
  return out;
}

std::optional<HeadedLineIndex> extended_index(const Transcript& t, const HeadedLineIndex& was,
                                              const CancelToken* cancel) {
  const auto head = head_hash_of(t.path);
  if (!head || *head != was.head_hash) return std::nullopt;  // rewritten, not appended to
  HeadedLineIndex out{extend_line_index(t.path, was.index, cancel), was.head_hash};
  if (!out.index.error.empty()) return std::nullopt;
  return out;
}

// Keyed by path: only a harness with a file per transcript (a database holds many sessions under one path).
ResultMemo* show_memo(const Transcript& t) {
  return t.harness == kClaudeCodeHarness ? process_result_memo() : nullptr;
}

}  // namespace

std::shared_ptr<const LineIndex> show_line_index(const Transcript& t, const CancelToken* cancel,
                                                 ResultMemoUse& use) {
  if (!reader_for(t).raw_lines_are_file_lines()) return nullptr;
  const auto headed = recall_extend_or_compute(
      show_memo(t), use, kLineIndexKind, t.path, "", discovered_stamp(t),
      [&] { return fresh_index(t, cancel); },
      [&](const HeadedLineIndex& was, const FileStamp&) { return extended_index(t, was, cancel); },
      [](const HeadedLineIndex& h) { return h.index.error.empty(); },
      [](const HeadedLineIndex& h) { return held_bytes(h.index.starts); });
  if (!headed->index.error.empty()) failure_error("cannot read " + t.path + ": " + headed->index.error);
  return std::shared_ptr<const LineIndex>(headed, &headed->index);
}

std::shared_ptr<const TurnOpeners> show_turn_openers(const Transcript& t, const CancelToken* cancel,
                                                     ResultMemoUse& use) {
  bool complete = true;
  auto openers = recall_or_compute(
      show_memo(t), use, kTurnOpenersKind, t.path, "", discovered_stamp(t),
      [&] {
        const ClassifiedTranscript ct = load_classified_transcript(t, /*merge_sidecar=*/false, cancel);
        complete = !ct.read.cancelled && ct.read.error.empty();
        TurnOpeners out;
        out.physical_lines = ct.read.lines;
        for (size_t index : ct.turns.opener_index)
          out.lines.push_back(ct.read.records[index].line);
        return out;
      },
      [&](const TurnOpeners&) { return complete; }, [](const TurnOpeners& o) { return held_bytes(o.lines); });
  return openers;
}

}  // namespace csift
