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
// does nothing else. The screens and probes stop loading when a call begins. It adds no watches (they go in
// after the first call, core/store/watched_stamps.h), reads no transcript, and writes nothing the walk itself
// would not. SPEC.md §7 "The warm-up".
#pragma once
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <thread>

#include "core/base/environment.h"
#include "core/record/transcript.h"

namespace csift {

class StoreWarmUp {
 public:
  // A step the caller adds for each transcript after its screen and probe (a server's: the label census of
  // core/search, an area this one cannot include); true when it took something.
  using TranscriptStep = std::function<bool(const Transcript&)>;
  // Starts the warm-up on a thread of its own when `on`; nothing when the process has no discovery memo (the
  // CLI, or a server without its result memo).
  StoreWarmUp(Environment env, bool on, TranscriptStep also = {});
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

 private:
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

}  // namespace csift
