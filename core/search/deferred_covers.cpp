#include "core/search/deferred_covers.h"

#include <tbb/parallel_for.h>

#include "core/search/search_cover.h"
#include "core/search/search_load.h"

namespace csift {

void DeferredCovers::add(const Transcript& t, const FileStamp& stamp, double needle_share,
                         bool needles_only) {
  std::lock_guard<std::mutex> lock(mu_);
  wanted_.push_back({t, stamp, needle_share, needles_only});
}

bool DeferredCovers::empty() const {
  std::lock_guard<std::mutex> lock(mu_);
  return wanted_.empty();
}

void DeferredCovers::build(const SearchPrefilter& pf, const CancelToken* stop) {
  std::vector<Wanted> todo;
  {
    std::lock_guard<std::mutex> lock(mu_);
    todo.swap(wanted_);
  }
  tbb::parallel_for(size_t{0}, todo.size(), [&](size_t i) {
    const Wanted& w = todo[i];
    if (stop && stop->is_cancelled())
      return;  // dropped: the next call that loads it with a needle asks again
    if (stamp_file(w.t.path) != w.stamp) return;  // changed: the next call that reads it covers it
    RawLineSketcher raw(w.stamp.size, reader_for(w.t).raw_probes());
    SearchLoad load =
        load_for_search(w.t, /*sidecar=*/false, pf, nullptr, w.needle_share, &raw, nullptr, w.needles_only);
    complete_tool_partners(
        load, [](const Record&) { return true; }, nullptr);
    if (load.sparse) pf.remember_cover(w.t, w.stamp, load.ct, raw.merged());
  });
}

}  // namespace csift
