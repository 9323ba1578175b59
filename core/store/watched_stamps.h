// A long-lived server's transcript stamps, kept exact by the kernel's change notices (inotify) instead of a
// stat(2) per transcript per call. On a warm call over an unchanged store, those stats were most of the
// call (SPEC.md §7 "Watched stamps").
//
// A file's stamp is remembered only while nothing can change it unseen: its directory is watched (the watch
// was added before the stat that is remembered), the directory at that path is still the watched one (the
// caller passes the stamp it just took of the directory), the directory lies on a local filesystem, and the
// file is a regular file with one link, not reached through a symlink (a change through another link or to
// a symlink's target is reported to another directory's watchers). Any notice about the name — a write, a
// truncation, new metadata, a create, delete or rename — forgets it; a notice about the directory itself or a
// lost notice (queue overflow) forgets the whole directory or everything. A change made only through a
// shared mapping (mmap) raises no notice; harnesses append with write(2).
//
// A directory's own stamp (what its remembered listing is keyed by) is remembered the same way, under its own
// watch, with one more condition: the path must still lead to it. A rename or delete anywhere below a watch
// can re-point a path, so any such notice forgets every remembered directory stamp; and a stamp is answered
// only when each directory up the path is remembered too, up to one stat'ed in the same discovery walk (the
// topmost watched directory is stat'ed once per walk, which sees its own path re-pointed from above).
#pragma once
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "core/cache/file_stamp.h"

namespace csift {

class WatchedStamps {
 public:
  // nullptr when inotify cannot be had (the caller then stats every file).
  static std::unique_ptr<WatchedStamps> open();
  ~WatchedStamps();
  WatchedStamps(const WatchedStamps&) = delete;
  WatchedStamps& operator=(const WatchedStamps&) = delete;

  // Applies every notice the kernel queued since the last catch-up. A call resolving its scope begins with
  // it, so a change finished before the call began is never answered from memory.
  void catch_up();
  // catch_up() unless one made for the same discovery walk (DiscoveryWalk: a scope's resolution, nonzero)
  // has finished: a walk lists thousands of directories, and a read of the queue and its lock per listing
  // were most of a warm call (7,700 reads and 14,000 futex waits on the generated store). A notice applied
  // once the walk began covers every change finished before it did.
  void catch_up_for_walk(uint64_t walk);
  // The stamp of `name` in `dir` (whose stamp `dir_stamp` the caller took just now; `path` is dir + "/" +
  // name): remembered, or stat'ed and remembered when it may be. `followed` is true for an entry the listing
  // reported as a symlink (never remembered). nullopt when the file cannot be stat'ed.
  std::optional<FileStamp> stamp(const std::string& dir, const FileStamp& dir_stamp, const std::string& name,
                                 const std::string& path, bool followed);
  // The stamp of the directory `dir` in discovery walk `walk`: remembered (see above), else stat'ed, and the
  // directory watched (deferring: noted for watch_noted) so a later walk may remember it. A walk of 0 always
  // stats. nullopt when it cannot be stat'ed.
  std::optional<FileStamp> dir_stamp(const std::string& dir, uint64_t walk);

  // From now on a look into a directory not yet watched adds no watch: it stats the file as without watches
  // and notes the look, and watch_noted() (a server's runs on the stamps' own thread: watch_noted_later) adds
  // the watches and takes the stamps. A watch and a statfs per directory cost a fresh server's first call
  // 60-90 ms over a 10,000-file store (SPEC.md §7 "Watched stamps"), most of what the watches save its later
  // calls.
  void defer_watches();
  bool has_noted() const;
  // Watches each directory noted since the last run and takes the noted files' stamps under it, as a look
  // would have. `yield_to_looks`: before each directory, waits until no call is under way and none ended nor
  // any look was made for kQuietNs (core/base/call_activity.h), so the watches never compete with a call.
  // Returns true when it watched every noted directory (false: none was noted, or the stamps are closing).
  bool watch_noted(bool yield_to_looks = false);
  static constexpr int64_t kQuietNs = 150'000'000;
  // watch_noted() on a thread of its own, soon: a server's calls go on meanwhile (a look is answered from
  // memory or stat'ed whatever the watches' progress), so the next call never waits for the watches. On the
  // generated 10,000-file store they took ~0.1 s after a fresh server's first call, and the work after a
  // reply holds the next call back; run beside a call, they slowed it as much (yield_to_looks).
  void watch_noted_later();
  // A step the stamps' own thread runs once a watch_noted_later() pass has watched what was noted and the
  // server is quiet again (kQuietNs): a server's whole-store walk, which every watch now vouches for, so it
  // is kept (project_walk_memo.h) and the next call answers from it instead of being the first walk with
  // the watches in (on the generated 10,000-file store 33-47 ms against 15 ms answered again). Replaced or
  // cleared ({}) at any time; clearing waits for a run under way.
  void set_after_watching(std::function<void()> step);
  // Removes every watch this process added and forgets what they vouched for (the next looks stat, noted
  // for watch_noted as a fresh server's are). A server no call has reached gives back the watches its
  // warm-up took (store_warm_up.h): they are a per-user budget. Waits for a watch_noted() pass under way.
  // Returns the watches removed.
  size_t unwatch_all();
  // Whether every directory the looks noted since the last watch_noted() would get its watch within this
  // process's share (the budget less the watches it holds). A walk is kept only when every answer it had came
  // from a watch, so a store past the share gains no kept walk from the warm-up's watches, only their cost.
  bool noted_fit_share() const;
  // Tests only: the share (watch_share() by default).
  void set_watch_budget(size_t watches);

  // What a server's repeated whole-store walk asks before answering from the last one (project_walk_memo.h).
  // The layout generation moves with every notice applied but a write to a transcript (`*.jsonl` modified,
  // closed after writing, or given new metadata) and with every path found re-pointed. The unwatched count
  // moves with every answer of a look or a directory's stamp that no watch vouches for: a stat not
  // remembered (a directory not yet watched, past the watch budget or off a local filesystem, a symlinked or
  // multiply linked file, a notice applied during the stat, a stat that failed). A walk through which neither
  // moved had every answer from a watch, so while the layout generation stays, the next walk would list the
  // same entries and read the same meta.json files; only transcripts' stamps may differ.
  uint64_t layout_generation() const;
  // This instance among the process's (ids are never reused): what was kept under one is not asked of
  // another.
  uint64_t id() const { return id_; }
  uint64_t unwatched_answers() const;
  // The stamp of the file at `path` in a watched directory, as a look answers it (remembered, else stat'ed
  // and remembered when it may be). nullopt when its directory is not watched or it cannot be stat'ed.
  std::optional<FileStamp> watched_file_stamp(const std::string& path);

  // Tests only: called after each read of queued notices and before they are applied, the window in which a
  // concurrent look must wait (it once could answer from memory there).
  static void set_after_read_hook(void (*hook)());

  struct Usage {
    uint64_t remembered = 0, stated = 0, forgotten = 0, overflows = 0, noted = 0;
    uint64_t dirs_remembered = 0, dirs_stated = 0;  // dir_stamp()'s
    size_t watches = 0, entries = 0;
    uint64_t after_watching = 0;  // set_after_watching()'s step runs completed
  };
  Usage usage() const;

 private:
  struct State;
  explicit WatchedStamps(int fd);
  // stamp() itself; `may_watch` false notes a look into an unwatched directory instead of watching it.
  std::optional<FileStamp> look(const std::string& dir, const FileStamp& dir_stamp, const std::string& name,
                                const std::string& path, bool followed, bool may_watch);
  // Adds the watch on `dir` (whose identity `dir_stamp` was just taken) and records it; its descriptor, or -1
  // past the budget or off a local filesystem.
  int add_watch(const std::string& dir, const FileStamp& dir_stamp);
  // dir_stamp() itself: remembered (in a walk), else the stat, remembered when the directory is watched as
  // that identity. One lookup of `dir` under one shared lock either way.
  std::optional<FileStamp> take_dir_stamp(const std::string& dir, uint64_t walk, bool may_watch);
  int fd_;
  uint64_t id_;
  std::unique_ptr<State> state_;
  std::atomic<uint64_t> caught_up_walk_{0};  // the walk of the last catch-up made for one
  std::atomic<bool> deferring_{false};       // defer_watches()
  std::atomic<int64_t> last_look_ns_{0};     // steady clock of the last stamp() (watch_noted's yield)
  bool wait_for_quiet();                     // false when the stamps are closing
};

// The process's watched stamps: nullptr unless a server installed them (the CLI never does).
WatchedStamps* process_watched_stamps();
// Installs them (on: when inotify can be had), deferring their watches (defer_watches), or removes them.
void install_watched_stamps(bool on);

}  // namespace csift
