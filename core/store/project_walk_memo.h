// A server's last whole-store walk (every project dir under a store's root: the unscoped discovery), answered
// again instead of walking while the watches show that nothing it read has changed. On the generated
// 10,000-transcript store a warm walk was two thirds of a warm search (22-28 ms of 32-41): a lookup per
// directory, meta.json and transcript in the discovery memo and the watched stamps, and a Transcript built
// for each. SPEC.md §7 "The walk answered again" states the rules.
//
// A walk is kept only when every answer it had came from a watch (WatchedStamps::unwatched_answers did not
// move through it), no notice but a transcript's write was applied meanwhile (layout_generation) and it
// reported no irregular entry (a dangling symlink's target may appear unseen). It is
// answered again while the layout generation is still the one the kept walk began under and the root is
// still the same directory; each transcript is then stamped afresh through its watch (an append moves a
// stamp, not the walk), except that a legacy flat agent whose stamp moved is walked again (its session is
// read from its head).
#pragma once
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/cache/file_stamp.h"
#include "core/record/transcript.h"

namespace csift {

// What a whole-store walk found, in walk order.
struct ProjectWalkFinds {
  std::vector<Transcript> picked;
  std::vector<StoreProblem> problems;
};

class ProjectWalkMemo {
 public:
  // The watches as a walk begins (after its catch-up), and the root's stamp as it takes it.
  struct Mark {
    uint64_t watches = 0;  // which WatchedStamps (WatchedStamps::id)
    uint64_t layout = 0, unwatched = 0;
    FileStamp root;
  };
  // nullopt without watched stamps (the CLI) or when the root (an absolute path) cannot be stat'ed. Taken
  // with the walk's id, so the walk's own look at the root answers from it.
  static std::optional<Mark> mark(const std::string& root, uint64_t walk);
  // The kept walk's finds for this root and span, each transcript restamped, when `now` shows the same
  // layout it began under and the same root; nullopt: walk.
  std::optional<ProjectWalkFinds> reuse(const std::string& root, bool subagents, const Mark& now);
  // Keeps a walk that began at `began` when neither the layout nor the unwatched answers moved through it.
  void keep(const std::string& root, bool subagents, const Mark& began, const ProjectWalkFinds& finds);
  // Walks answered again so far.
  uint64_t reused() const { return reused_.load(std::memory_order_relaxed); }

 private:
  struct Kept {
    std::string root;
    bool subagents = false;
    Mark began;
    std::shared_ptr<const ProjectWalkFinds> finds;
  };
  std::mutex mu_;
  std::optional<Kept> kept_;
  std::atomic<uint64_t> reused_{0};
};

// The process's: nullptr unless watched stamps are installed (a server).
ProjectWalkMemo* process_project_walk_memo();

}  // namespace csift
