// The label census a server remembers per transcript (issue 17): what a dense classification said about
// each record's labels, its turn and its draft and lane flags — enough to answer an empty-pattern `-c` or
// `-l` search under any label filter without reading the transcript again. SPEC.md §"Warm result memo".
//
// A census is taken from a dense load of a -c / -l search (its entries are seen as they are classified, the
// same pass that counts them) and kept in the server's result memo under the file's stamp and the
// label-candidate gates the load parsed under (gated record types are parsed only when a call reaches them,
// so a census answers only calls with the same gates).
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/cache/result_memo.h"
#include "tools/common/classified_transcript.h"
#include "tools/search/search_types.h"

namespace csift {

struct LabelCensus {
  // Consecutive entries with the same label set, turn and flags (file order; runs keep it small).
  struct Run {
    uint64_t labels = 0;  // bit per Label: the union of the entry's unit labels
    int32_t turn = -1;
    bool draft = false;
    bool foreign = false;
    uint32_t entries = 0;
  };
  std::vector<Run> runs;
  uint64_t skipped_lines = 0;
  uint64_t values_out_of_range = 0;
};

// Folds entries as a dense load classifies them (before their units are dropped).
class LabelCensusBuilder {
 public:
  void add(const ClassifiedEntry& e);
  LabelCensus take(const ReadResult& read);

 private:
  LabelCensus census_;
};

// Whether `req` can be answered from a census: an empty pattern counted (-c or -l) with no time or turn
// window and no persisted-output resolution (each reads more than labels).
bool census_answers(const SearchRequest& req);

// The census remembered for `t` under `gates` (the load's label-candidate gates), or nullptr.
std::shared_ptr<const LabelCensus> recalled_label_census(const Transcript& t, const std::string& gates,
                                                         ResultMemoUse& use);
// Remembers a census taken from a read of `t` that started when the file was stamped `before`; not when the
// file changed since.
void remember_label_census(const Transcript& t, const FileStamp& before, const std::string& gates,
                           LabelCensus&& census);

// The counters a scan of the transcript would produce for `req` (census_answers(req)): the records with a
// label that survives the filter and the gates, their exchange groups and the draft disclosure (-c and -l
// read nothing else of a hit).
void count_from_census(const LabelCensus& census, const SearchRequest& req, TranscriptHits& th);

}  // namespace csift
