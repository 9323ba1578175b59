// What the core searcher pushes into its sink (core/search/searcher.h): per transcript, the matched records
// with their matched units and spans, and the transcript's accounting (skipped lines, out-of-range values,
// label exclusions, drafts, saved results left unread).
#pragma once
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/record/labels.h"
#include "core/store/classified_transcript.h"

namespace csift {

// One matched unit of a matched record.
struct UnitHit {
  size_t unit_index = 0;              // into ClassifiedEntry::units
  Label label = Label::user_message;  // the richest SURVIVING label (the view the hit renders under)
  size_t match_begin = 0;             // byte span of the first match in the unit's text (empty pattern: 0,0)
  size_t match_end = 0;
  // --resolve-persisted replaced the unit's text (in ct.entries) with the persisted output's content.
  bool persisted_resolved = false;
};

// A saved tool result --resolve-persisted did not read (SPEC.md §9.2): where its pointer is, why, whether the
// file exists and was refused (outside the Claude home, not a regular file, too large, unreadable) rather
// than missing, and whether the copy Claude Code kept in mcpMeta.structuredContent was searched instead.
// A refused file may hold what the copy does not, so only a missing file with a copy leaves a zero
// definitive.
struct SavedResultUnread {
  std::string session_id;  // the transcript holding the pointer
  uint64_t line = 0;
  std::string reason;
  bool refused = false;
  bool copy_searched = false;
};

// One matched record: an entry of its transcript with at least one matched unit.
struct RecordHit {
  size_t entry_index = 0;      // into TranscriptHits::ct.entries
  std::vector<UnitHit> units;  // unit order
};

// Per transcript: the classified records the scan admitted (a prefilter may have left non-candidate records
// unparsed — turn openers are always parsed so turn indices are exact), and the matched records in file
// order. `ct.entries[i].record->line` is the physical line; sidecar entries have line 0. When the scan
// worker is done with a transcript, `ct` keeps only its identity (transcript, owner) unless the caller keeps
// the models (diagnosis, tests): the counts, rows and line positions below were taken from it first.
struct TranscriptHits {
  TranscriptHits() = default;
  TranscriptHits(size_t index, ClassifiedTranscript&& classified)
      : scope_index(index), ct(std::move(classified)) {}

  size_t scope_index = 0;  // position in Scope::transcripts
  ClassifiedTranscript ct;
  std::vector<RecordHit> hits;  // file order (sidecar entries last)
  uint64_t skipped_lines = 0;   // malformed + too large + torn tail (exact, whole file) + sidecar skips
  std::string unreadable;       // "<ref>: from line N on: …" when a compressed log stopped decoding
  uint64_t too_complex_lines = 0;
  // Tool results the pattern matched only in the copy of an MCP result Claude Code kept in mcpMeta (not
  // searched without --resolve-persisted), and --resolve-persisted pointers whose result could not be read.
  uint64_t hidden_copy_matches = 0;
  uint64_t unresolved_pointers = 0;
  uint64_t values_out_of_range = 0;  // numbers beyond a finite double, read as absent (whole file)
  size_t exchange_groups = 0;        // the exchanges its hits make (one per turn, drafts apart)
  bool sidecar_hit = false;          // a hit is a merged elicitation-sidecar record
  bool from_census = false;          // counted from a remembered label census: no model and no hits listed
  uint64_t census_matches = 0;       // from_census: the matched records it counted
  uint64_t matched_records() const { return from_census ? census_matches : hits.size(); }
  // --raw: where each matched record's line is (file order) and how many matched records were merged sidecar
  // records (they have no line); taken before the model is released.
  std::vector<LineRef> raw_lines;
  size_t raw_sidecar_hits = 0;
  // Zero-match diagnosis input: records the pattern matched that -t/-T excluded, per richest leaf.
  std::map<Label, uint64_t> excluded_by_label;
  uint64_t excluded_records = 0;
  // Superseded drafts the pattern matched: kept as hits, and the ones a label filter left out (a draft's
  // only label, user.unsent, is outside a bare `user` selector), so the disclosure counts both.
  uint64_t draft_hits = 0;
  uint64_t drafts_excluded_by_label = 0;
  // --resolve-persisted: every saved result its pointers name that was not read, in file order.
  std::vector<SavedResultUnread> saved_unread;
};

}  // namespace csift
