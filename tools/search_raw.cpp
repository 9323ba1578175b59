// --raw (spec §6.2): each matched record's VERBATIM jsonl line, deduped per record, in scope then file
// order — show --raw's escape hatch over search's whole filter surface. A merged sidecar record has no
// physical line and is omitted with a note.
#include <fstream>

#include "tools/search_envelope.h"

namespace csift {
namespace {

// The line at `offset` (without its newline), read from the transcript file.
std::string line_at(std::ifstream& in, uint64_t offset) {
  in.clear();
  in.seekg(static_cast<std::streamoff>(offset));
  std::string line;
  std::getline(in, line);
  if (!line.empty() && line.back() == '\r') line.pop_back();
  return line;
}

}  // namespace

void fill_raw_rows(Envelope& env, const SearchScan& scan) {
  size_t sidecar = 0;
  for (const TranscriptHits& th : scan.transcripts) {
    std::ifstream in(th.ct.transcript.path, std::ios::binary);
    for (const RecordHit& rh : th.hits) {
      const ClassifiedEntry& e = th.ct.entries[rh.entry_index];
      if (e.source == RecordSource::elicitation_sidecar) {
        ++sidecar;
        continue;
      }
      json& row = env.add_row("raw");
      row["session_id"] = th.ct.owner.id;
      row["line"] = e.record->line;
      row["text"] = line_at(in, e.record->offset);
    }
  }
  env.summary["sidecar_records_omitted"] = sidecar;
  if (sidecar > 0) {
    env.notes.push_back(std::to_string(sidecar) +
                        " matched elicitation-sidecar record(s) omitted: they have no transcript line");
  }
}

}  // namespace csift
