// One transcript read whole and classified in file order (SPEC.md §4; the sidecar merge of the seed's §6.10):
// its records, their units, turn assignment, tool pairing, and (for a top-level session) the merged
// unresolved sidecar records. The model an addressed fetch renders from: every record is parsed, gated leaves
// included. It reads any harness's transcript through the reader seam and applies Claude Code's rules, onto
// which every harness's records are mapped (SPEC.md §1); it sits in the store area because two of those rules
// look at the files around the transcript (the elicitation sidecar, the spawn join's subagent listing).
#pragma once
#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

#include "core/harness/claude_code/classify.h"
#include "core/record/transcript_reader.h"
#include "core/record/turns.h"
#include "core/scan/line_scanner.h"
#include "core/store/elicitation_sidecar.h"
#include "core/store/record_pairing.h"

namespace csift {

// One renderable entry: a transcript record or a merged sidecar record, with its units.
struct ClassifiedEntry {
  const Record* record = nullptr;
  std::vector<Unit> units;
  int turn_index = -1;
  bool superseded_draft = false;
  bool foreign_lane = false;  // an inline sidechain record of a session file: outside every turn
  RecordSource source = RecordSource::transcript;
};

// Entries point into `read.records` and `sidecar.pending`: movable (vector buffers keep their addresses),
// never copyable.
struct ClassifiedTranscript {
  ClassifiedTranscript() = default;
  ClassifiedTranscript(ClassifiedTranscript&&) = default;
  ClassifiedTranscript(const ClassifiedTranscript&) = delete;
  ClassifiedTranscript& operator=(const ClassifiedTranscript&) = delete;
  ClassifiedTranscript& operator=(ClassifiedTranscript&&) = default;

  Transcript transcript;
  TranscriptIdentity owner;
  ReadResult read;
  TurnAssignment turns;
  std::vector<ClassifiedEntry> entries;  // transcript records in file order, then the sidecar records
  size_t transcript_entries = 0;         // entries[0, transcript_entries) are the transcript's records
  SidecarMerge sidecar;
  PairingIndex pairing;

  // The pairing state of one unit (a merged sidecar marker is pending by construction).
  Pairing pairing_of(const ClassifiedEntry& e, const Unit& u) const;
};

// The `L<line>i<n>` ordinal of unit `unit`'s first image: images are numbered from 1 across the record's
// units in order, so it is 1 plus the images of the units before it.
int first_image_ordinal(const ClassifiedEntry& e, size_t unit);

// Reads and classifies. `merge_sidecar` applies to top-level sessions only. Throws ToolError(failure) when
// the file cannot be read.
// The classifier's per-transcript context: owner, lane, parent, and whether the file is a /fork clone.
ClassifyContext classify_context_for(const Transcript& t, const std::vector<Record>& records);

// Sees each entry as soon as it is classified, in entries order (index into ct.entries; ct's turns are
// assigned by then). A caller that only counts may empty e.units there, so the units of a large transcript
// are never all held at once.
using EntryVisitor = std::function<void(const ClassifiedTranscript& ct, ClassifiedEntry& e, size_t index)>;

// Entry `i` of `turns`: record `r` classified in `ctx` (which it updates), relabelled when a draft.
ClassifiedEntry classify_entry(const Record& r, ClassifyContext& ctx, const TurnAssignment& turns, size_t i);

// (Re)builds turns, entries and the pairing index from ct.read.records (file order), without the sidecar:
// the loader's second half, and how a sparse search rebuilds its model after reading more lines. Returns
// the classifier's context after the last record (the sidecar's records are classified in it).
ClassifyContext classify_read_records(ClassifiedTranscript& ct, const CancelToken* cancel,
                                      const EntryVisitor& visit = {});

// `payloads`: Payloads::skip leaves out what only a unit's text needs (tool inputs, thinking text, raw tool
// result JSON; see ReadOptions) and keeps everything a label, turn or pairing rule reads, so the entries'
// labels are a full read's (tests/unit/label_sparse_test.cpp): for callers that count labels only.
// `context`, when given, receives the classifier's context after the last entry.
ClassifiedTranscript load_classified_transcript(const Transcript& t, bool merge_sidecar,
                                                const CancelToken* cancel,
                                                const std::function<bool(std::string_view)>& want = {},
                                                const EntryVisitor& visit = {},
                                                ReadOptions::Payloads payloads = ReadOptions::Payloads::full,
                                                ClassifyContext* context = nullptr,
                                                std::shared_ptr<const FileBytes> preloaded = nullptr);
// The same, reading under `options` as they are (its want, want_keyed, payloads, cancel, preloaded bytes).
ClassifiedTranscript load_classified_transcript(const Transcript& t, bool merge_sidecar, ReadOptions options,
                                                const EntryVisitor& visit, ClassifyContext* context);

}  // namespace csift
