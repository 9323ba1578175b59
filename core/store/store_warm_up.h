// A server's look at its store before its first call. Claude Code starts one server per session, and the
// model's first call to it comes seconds later, after a model turn at least; a fresh server's first call was
// then two thirds discovery (on the generated 10,000-transcript store 60-80 ms of ~105: a listing, a stat and
// a disk-cache lookup per directory, meta.json and transcript) and the rest reading every transcript's screen
// from the disk cache. The warm-up makes the walk an unscoped call makes (its listings and meta.json fields
// into the discovery memo, from the disk cache where an earlier server kept them) and then takes every
// transcript's screen and `list` probe (and what the caller's step adds: a server's label census) from the
// disk cache into the scan and result memos, so the first call finds them in memory.
//
// It begins only after the server has been quiet for kStartQuietNs since it started, and never once a call
// has begun (that call walks for itself): a client that calls at once, as a bench does, meets a server that
// does nothing else. The screens and probes stop loading when a call begins. It reads no transcript and
// writes nothing the walk itself would not. Once it has taken every screen, the directories its walk looked
// into are watched on the watched stamps' own thread, yielding to calls, and the walk is made once more with
// every answer from a watch (WatchedStamps::set_after_watching), so the first call answers the walk from
// memory too (core/store/project_walk_memo.h); a server no call reaches gives those watches back after
// kUncalledWatchesNs. SPEC.md §7 "The warm-up".
#pragma once
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <thread>

#include "core/base/environment.h"
#include "core/record/transcript.h"

namespace csift {

class WatchedStamps;

class StoreWarmUp {
 public:
  // A step the caller adds for each transcript after its screen and probe (a server's: the label census of
  // core/search, an area this one cannot include); true when it took something.
  using TranscriptStep = std::function<bool(const Transcript&)>;
  // Starts the warm-up on a thread of its own when `on`; nothing when the process has no discovery memo (the
  // CLI, or a server without its result memo). `uncalled_watches_ns`: how long the watches the warm-up adds
  // are held while no call comes (then given back: WatchedStamps::unwatch_all); 0 adds none.
  StoreWarmUp(Environment env, bool on, TranscriptStep also = {},
              int64_t uncalled_watches_ns = kUncalledWatchesNs);
  // Stops it (between steps: a walk under way is finished) and waits for it.
  ~StoreWarmUp();
  StoreWarmUp(const StoreWarmUp&) = delete;
  StoreWarmUp& operator=(const StoreWarmUp&) = delete;

  struct Report {
    bool walked = false;     // the walk completed
    size_t transcripts = 0;  // it found
    size_t screens = 0;      // taken from the disk cache into the scan memo
    size_t probes = 0;       // `list` probes taken from the disk cache into the result memo
    size_t also = 0;         // transcripts the caller's step took something for
    bool stopped = false;    // asked to stop before every screen was taken
  };
  // The warm-up itself, on the calling thread: `go_on` is asked before the walk and before each transcript.
  static Report run(const Environment& env, const std::function<bool()>& go_on,
                    const TranscriptStep& also = {});
  static constexpr int64_t kStartQuietNs = 200'000'000;
  // A server's watches are a share of the user's inotify budget (watched_stamps.cpp); one that Claude Code
  // started for a session whose model never calls it holds the warm-up's for ten minutes, not for the
  // session's life.
  static constexpr int64_t kUncalledWatchesNs = 600'000'000'000;

 private:
  std::atomic<bool> stop_{false};
  WatchedStamps* watched_ = nullptr;  // the process's, when a server installed them
  std::thread thread_;
};

}  // namespace csift
