// The rendered covers (search_cover.h) a server's cold search leaves for after its reply (SPEC.md §7 "After
// the reply"). A cover is the sketch of every raw line a sparse load saw plus the rendered text of the
// records it parsed; building it while the caller waits doubled the cost of the load (a 4-gram sketch of
// each line). A file whose skim found a needle or a marker is loaded by the call without one, and loaded
// again after the reply, as the call loaded it, to build it.
#pragma once
#include <mutex>
#include <vector>

#include "core/base/cancel.h"
#include "core/cache/file_stamp.h"
#include "core/record/transcript.h"
#include "core/search/search_prefilter.h"

namespace csift {

class DeferredCovers {
 public:
  // A file whose skim (under `stamp`) asked for a cover; `needle_share` and `needles_only` as its load had.
  // Called from the search's parallel workers.
  void add(const Transcript& t, const FileStamp& stamp, double needle_share, bool needles_only);
  bool empty() const;
  // Loads each file still stamped as it was, every raw line sketched, and remembers the cover when the load
  // was sparse (as the search remembers it). `pf` is the search's prefilter; `stop`, when set, ends it early.
  void build(const SearchPrefilter& pf, const CancelToken* stop = nullptr);

 private:
  struct Wanted {
    Transcript t;
    FileStamp stamp;
    double needle_share;
    bool needles_only;
  };
  mutable std::mutex mu_;
  std::vector<Wanted> wanted_;
};

}  // namespace csift
