// A stand-in for search's scan in the census/siblings unit tests: a fixture transcript read whole, with every
// unit an empty pattern would match under the request's -t/-T as a hit. It keeps those tests about the census
// and siblings rules alone, independent of the scan's prefilter.
#pragma once
#include <string>

#include "core/store/classified_transcript.h"
#include "tools/search/search_types.h"

namespace csift_test {

inline std::string fixture_path(const std::string& rel) {
  return std::string(CSIFT_SOURCE_DIR) + "/fixtures/home/projects/" + rel;
}

inline csift::Transcript fixture_transcript(const std::string& project, const std::string& id) {
  csift::Transcript t;
  t.path = fixture_path(project + "/" + id + ".jsonl");
  t.project_dir = fixture_path(project);
  t.id = id;
  t.session_id = id;
  return t;
}

inline csift::SearchRequest request(std::vector<std::string> include = {},
                                    std::vector<std::string> exclude = {}) {
  csift::SearchRequest req;
  req.label_filter_active = !include.empty() || !exclude.empty();
  req.labels = csift::parse_label_filter(include, exclude);
  req.mode = csift::SearchMode::count_by;
  return req;
}

// Whether an empty pattern would surface the unit: some label admitted, gated leaves only when reached.
inline bool admitted(const csift::SearchRequest& req, const csift::Unit& u) {
  for (const csift::Label l : u.labels) {
    if (!req.labels.admits(l)) continue;
    if (l == csift::Label::harness_meta_attachment && !req.attachments) continue;
    if (csift::label_gated(l) && !req.labels.explicitly_reaches(l)) continue;
    return true;
  }
  return false;
}

inline csift::TranscriptHits match_all(const csift::SearchRequest& req, const csift::Transcript& t,
                                       size_t scope_index = 0) {
  csift::TranscriptHits th(scope_index,
                           csift::load_classified_transcript(t, /*merge_sidecar=*/true, nullptr));
  for (size_t i = 0; i < th.ct.entries.size(); ++i) {
    csift::RecordHit rh;
    rh.entry_index = i;
    const auto& units = th.ct.entries[i].units;
    for (size_t u = 0; u < units.size(); ++u) {
      if (!admitted(req, units[u])) continue;
      csift::UnitHit uh;
      uh.unit_index = u;
      uh.label = units[u].labels.front();
      rh.units.push_back(uh);
    }
    if (!rh.units.empty()) th.hits.push_back(std::move(rh));
  }
  return th;
}

inline csift::SearchScan scan_of(const csift::SearchRequest& req, const std::vector<csift::Transcript>& ts) {
  csift::SearchScan scan;
  for (size_t i = 0; i < ts.size(); ++i) {
    csift::TranscriptHits th = match_all(req, ts[i], i);
    scan.matched_records += th.hits.size();
    if (!th.hits.empty()) scan.transcripts.push_back(std::move(th));
  }
  scan.transcripts_scanned = ts.size();
  return scan;
}

}  // namespace csift_test
