// The searcher (SPEC.md §1 "Layers and data flow", §7, §9.2 Reading): one push pipeline per transcript, in
// ripgrep's searcher → sink shape. For each transcript it decides what to read (a remembered label census,
// the whole-file screen and the scan memo's sketch, a dense or a sparse load), classifies the records, reads
// back what a sparse load left out (tool partners, the turns a hit needs), runs the matcher (label
// eligibility, time and turn windows, the pattern), keeps the line accounting exact, remembers a rendered
// cover, and pushes the transcript's matched records with their accounting into a SearchSink. The tool
// (tools/search) turns its arguments into a SearchConfig and a SearchPass and supplies the sink that makes
// rows; the caches come from the call's context, never from the process.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "core/base/after_reply.h"
#include "core/base/cancel.h"
#include "core/cache/result_memo.h"
#include "core/cache/scan_memo.h"
#include "core/record/transcript.h"
#include "core/search/search_config.h"
#include "core/search/search_hits.h"
#include "core/search/search_prefilter.h"

namespace csift {

class DiskCache;
class DeferredCovers;

// What the tool's mode asks of a search beyond its configuration.
struct SearchPass {
  // Tally the matches -t/-T excluded (the zero-match probe; a wider prefilter: every assistant line matters).
  bool diagnose = false;
  // -c / -l without a diagnosis: nothing of a unit is read once it is matched, so a dense load matches each
  // entry as it is classified and drops its units, and a server's label census may answer.
  bool counts_only = false;
  // What a sparse load reads back around the turns with a hit: nothing, each turn's end-of-turn agent text
  // (an exchange's frame), or the whole turn (--siblings).
  enum class Context { none, turn_answers, whole_turns };
  Context context = Context::none;
};

// The caches a search may use: the call's (ToolContext), null when the process has none.
struct SearchCaches {
  ScanMemo* scan_memo = nullptr;
  ResultMemo* result_memo = nullptr;
  DiskCache* disk_cache = nullptr;
  // Where a server takes work for after its reply (null: do it at once): the scan memo's screens of the
  // files this search read without one.
  AfterReply* after_reply = nullptr;
};

// Receives each transcript's result as soon as it is searched, on the worker that searched it (transcripts
// in any order, never two pushes at once for one transcript). `th` is null when the transcript could not be
// searched (`error` says why); `notes` are the transcript's notes either way.
class SearchSink {
 public:
  virtual ~SearchSink() = default;
  virtual void searched(size_t scope_index, std::unique_ptr<TranscriptHits> th,
                        std::vector<std::string>&& notes, std::string&& error) = 0;
};

class Searcher {
 public:
  // `cfg` is held by reference (the tool's request, which outlives the search). `projects_root`: the Claude
  // Code store's projects directory (where --resolve-persisted may read).
  Searcher(const SearchConfig& cfg, const SearchPass& pass, const SearchCaches& caches,
           std::string projects_root, const CancelToken* cancel);
  ~Searcher();
  // Searches every transcript (oneTBB across them) and pushes each result into `sink`. A transcript not yet
  // started when the call is cancelled is not searched (and not pushed).
  void search(const std::vector<Transcript>& transcripts, SearchSink& sink);
  // The screen this search used (its scan-memo tally).
  const SearchPrefilter& prefilter() const { return *pf_; }
  // The label censuses' use of the result memo (hits, misses, extensions), when a counted search had one.
  std::unique_ptr<ResultMemoUse> take_census_use() { return std::move(census_use_); }

 private:
  const SearchConfig& cfg_;
  SearchPass pass_;
  SearchCaches caches_;
  std::string projects_root_;
  const CancelToken* cancel_;
  std::shared_ptr<SearchPrefilter> pf_;  // shared with the screens it leaves for after the reply
  std::unique_ptr<ResultMemoUse> census_use_;
  std::shared_ptr<DeferredCovers> covers_later_;  // a server's: covers left for after the reply
  struct CensusesLater;
  std::shared_ptr<CensusesLater> censuses_later_;  // a server's: label censuses left for after the reply
};

}  // namespace csift
