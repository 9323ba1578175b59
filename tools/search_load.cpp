// Reads and classifies one transcript for `search`: the same model as load_classified_transcript, but the
// reader's `want` declines the lines a label gate refuses (attachments, queue operations, snapshots). Every
// other line is parsed, so turn indices, tool names and the pairing index are exact and a hit's round-trip
// partners are present. A session with an elicitation sidecar is read whole (the ghost guard needs every
// native tool id).
#include <sys/stat.h>

#include "core/error.h"
#include "core/record_parser.h"
#include "tools/search_scan.h"

namespace csift {
namespace {

bool file_exists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

void merge_sidecar(ClassifiedTranscript& ct, ClassifyContext& ctx) {
  ct.sidecar = read_unresolved_pending(ct.transcript, ct.read.records);
  for (const auto& p : ct.sidecar.pending) {
    ClassifiedEntry e;
    e.record = &p.record;
    e.units = classify_sidecar_pending(p, ctx);
    e.turn_index = ct.turns.turn_count - 1;  // still pending: it belongs to the session's latest turn
    e.source = RecordSource::elicitation_sidecar;
    ct.pairing.add_record(p.record);
    ct.entries.push_back(std::move(e));
  }
}

}  // namespace

bool has_sidecar(const Transcript& t) {
  return !t.is_subagent && file_exists(sidecar_path(t));
}

ClassifiedTranscript load_for_search(const Transcript& t, const SearchPrefilter& pf,
                                     const CancelToken* cancel) {
  ClassifiedTranscript ct;
  ct.transcript = t;
  ct.owner = TranscriptIdentity::of(t);
  const bool sidecar = has_sidecar(t);
  ReadOptions options;
  options.cancel = cancel;
  if (!sidecar) options.want = [&pf](std::string_view line) { return pf.label_candidate(line); };
  ct.read = claude_code_reader().read(t, options);
  if (!ct.read.error.empty()) failure_error("cannot read " + t.path + ": " + ct.read.error);
  ct.turns = assign_turns(ct.read.records);

  ClassifyContext ctx = classify_context_for(t, ct.read.records);
  const auto& records = ct.read.records;
  ct.entries.reserve(records.size());
  for (size_t i = 0; i < records.size(); ++i) {
    // Classifying millions of records takes seconds: a cancelled search stops here too (the caller reports
    // the cancellation; a partial transcript is never returned as an answer).
    if (i % 4096 == 0 && cancel && cancel->is_cancelled()) break;
    ClassifiedEntry e;
    e.record = &records[i];
    e.units = classify_record(records[i], ctx);
    e.turn_index = ct.turns.turn_of[i];
    e.superseded_draft = ct.turns.is_draft[i];
    if (e.superseded_draft) relabel_as_draft(records[i], e.units);
    ct.pairing.add_record(records[i]);
    ct.entries.push_back(std::move(e));
  }
  ct.transcript_entries = ct.entries.size();
  if (sidecar) merge_sidecar(ct, ctx);
  return ct;
}

}  // namespace csift
