// --raw (SPEC.md §9.2): each matched record's VERBATIM jsonl line, deduped per record, in scope then file
// order — show --raw's escape hatch over search's whole filter surface. A merged sidecar record has no
// physical line and is omitted with a note.
#include "core/base/error.h"
#include "core/scan/line_fetch.h"
#include "tools/search/search_envelope.h"

namespace csift {

void take_raw_lines(TranscriptHits& th) {
  for (const RecordHit& rh : th.hits) {
    const ClassifiedEntry& e = th.ct.entries[rh.entry_index];
    if (e.source == RecordSource::elicitation_sidecar) {
      ++th.raw_sidecar_hits;
      continue;
    }
    th.raw_lines.push_back(LineRef{e.record->line, e.record->offset, e.record->length});
  }
}

void fill_raw_rows(Envelope& env, const SearchScan& scan) {
  size_t sidecar = 0;
  for (const TranscriptHits& th : scan.transcripts) {
    sidecar += th.raw_sidecar_hits;
    const std::string error =
        fetch_lines(th.ct.transcript.path, th.raw_lines, [&](const LineRef& ref, std::string_view bytes) {
          json& row = env.add_row("raw");
          row["session_id"] = th.ct.owner.id;
          row["line"] = ref.line;
          row["text"] = std::string(bytes);
        });
    if (!error.empty()) failure_error(error);
  }
  env.summary["sidecar_records_omitted"] = sidecar;
  if (sidecar > 0) {
    env.notes.push_back(std::to_string(sidecar) +
                        " matched elicitation-sidecar record(s) omitted: they have no transcript line");
  }
}

}  // namespace csift
