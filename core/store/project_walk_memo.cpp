#include "core/store/project_walk_memo.h"

#include <tbb/parallel_for.h>

#include "core/store/watched_stamps.h"

namespace csift {

std::optional<ProjectWalkMemo::Mark> ProjectWalkMemo::mark(const std::string& root, uint64_t walk) {
  WatchedStamps* watched = process_watched_stamps();
  if (watched == nullptr) return std::nullopt;
  const std::optional<FileStamp> root_stamp = watched->dir_stamp(root, walk);  // catches up first
  if (!root_stamp) return std::nullopt;
  return Mark{watched->id(), watched->layout_generation(), watched->unwatched_answers(), *root_stamp};
}

std::optional<ProjectWalkFinds> ProjectWalkMemo::reuse(const std::string& root, bool subagents,
                                                       const Mark& now) {
  std::shared_ptr<const ProjectWalkFinds> finds;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!kept_ || kept_->root != root || kept_->subagents != subagents ||
        kept_->began.watches != now.watches || kept_->began.layout != now.layout ||
        !(kept_->began.root == now.root))
      return std::nullopt;
    finds = kept_->finds;
  }
  WatchedStamps* watched = process_watched_stamps();
  if (watched == nullptr || watched->id() != now.watches) return std::nullopt;
  ProjectWalkFinds out = *finds;
  std::atomic<bool> walk_again{false};
  tbb::parallel_for(size_t{0}, out.picked.size(), [&](size_t i) {
    Transcript& t = out.picked[i];
    const std::optional<FileStamp> stamp = watched->watched_file_stamp(t.path);
    if (!stamp || (t.shape == TranscriptShape::legacy_flat && discovered_stamp(t) != stamp)) {
      walk_again.store(true, std::memory_order_relaxed);
      return;
    }
    set_discovered_stamp(t, *stamp);
  });
  // Another call's catch-up may have applied a notice while this one restamped (a look does not catch up):
  // the layout must not have moved meanwhile.
  if (walk_again.load() || watched->layout_generation() != now.layout) return std::nullopt;
  reused_.fetch_add(1, std::memory_order_relaxed);
  return out;
}

void ProjectWalkMemo::keep(const std::string& root, bool subagents, const Mark& began,
                           const ProjectWalkFinds& finds) {
  // A walk that reported an irregular entry is not kept: a dangling symlink is reported without a look, and
  // its target may appear where no watch sees it.
  WatchedStamps* watched = process_watched_stamps();
  if (watched == nullptr || !finds.problems.empty() || watched->id() != began.watches ||
      watched->layout_generation() != began.layout || watched->unwatched_answers() != began.unwatched)
    return;
  auto kept = std::make_shared<const ProjectWalkFinds>(finds);
  std::lock_guard<std::mutex> lock(mu_);
  kept_ = Kept{root, subagents, began, std::move(kept)};
}

ProjectWalkMemo* process_project_walk_memo() {
  static ProjectWalkMemo memo;
  return process_watched_stamps() ? &memo : nullptr;
}

}  // namespace csift
