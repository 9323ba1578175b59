#include "core/store/watched_stamps.h"

#include "core/base/call_activity.h"
#include "core/store/discovery_memo.h"

#include <fcntl.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <tbb/enumerable_thread_specific.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <thread>
#include <unordered_map>
#include <unordered_set>

namespace csift {
namespace {

// What a remembered stamp must hear of: any write, truncation or metadata change of an entry, and any entry
// or the directory itself appearing, going or moving.
constexpr uint32_t kWatchMask = IN_MODIFY | IN_ATTRIB | IN_CLOSE_WRITE | IN_CREATE | IN_DELETE |
                                IN_MOVED_FROM | IN_MOVED_TO | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR;

// Filesystems whose every change, whoever makes it, raises a notice here. A network or FUSE filesystem
// changed by another machine or process raises none, so its stamps are never remembered.
bool local_filesystem(const std::string& dir) {
  struct statfs fs {};
  if (::statfs(dir.c_str(), &fs) != 0) return false;
  switch (static_cast<uint64_t>(fs.f_type)) {
    case 0xEF53:      // ext2/3/4
    case 0x58465342:  // xfs
    case 0x9123683E:  // btrfs
    case 0x01021994:  // tmpfs
    case 0x858458F6:  // ramfs
    case 0x794C7630:  // overlayfs
    case 0xF2F52010:  // f2fs
    case 0x2FC12FC1:  // zfs
    case 0xCA451A4E:  // bcachefs
    case 0x3153464A:  // jfs
    case 0x52654973:  // reiserfs
      return true;
    default:
      return false;
  }
}

// Watches are a per-user budget shared with every program that watches files (editors, build tools) and,
// since the watches are on by default, with every other csift-mcp server (Claude Code starts one per
// session): each takes at most a sixteenth of it, and never more than kMostWatches, so a dozen servers leave
// a quarter of it to the rest. A directory past the share is stat'ed as before. kMostWatches holds the
// directories of a 10,000-transcript store (~9,100 in the generated one): at 8,192 its warm calls stat'ed
// the rest every time.
constexpr size_t kMostWatches = 16384;
size_t watch_share() {
  size_t limit = 8192;  // the kernel's default on older systems
  if (FILE* f = std::fopen("/proc/sys/fs/inotify/max_user_watches", "r")) {
    unsigned long v = 0;
    if (std::fscanf(f, "%lu", &v) == 1 && v > 0) limit = v;
    std::fclose(f);
  }
  return std::min(limit / 16, kMostWatches);
}

// The most stamps held (~130 bytes each with the name: ~17 MB); a store with more transcripts has the rest
// stat'ed as before.
constexpr size_t kMostStamps = 131072;

std::atomic<void (*)()>& after_read_hook() {
  static std::atomic<void (*)()> hook{nullptr};
  return hook;
}

std::unique_ptr<WatchedStamps>& process_slot() {
  static std::unique_ptr<WatchedStamps> slot;
  return slot;
}

std::string parent_dir(const std::string& dir) {
  const size_t slash = dir.find_last_of('/');
  if (slash == std::string::npos || slash == 0) return {};
  return dir.substr(0, slash);
}

}  // namespace

struct WatchedStamps::State {
  // The discovery walk in which a directory's path was last found to lead to its watched directory. Written
  // under the shared lock (a walk's looks only read), so atomic; copied with its DirWatch.
  struct CheckedWalk {
    std::atomic<uint64_t> walk{0};
    CheckedWalk() = default;
    CheckedWalk(const CheckedWalk& o) : walk(o.walk.load(std::memory_order_relaxed)) {}
    CheckedWalk& operator=(const CheckedWalk& o) {
      walk.store(o.walk.load(std::memory_order_relaxed), std::memory_order_relaxed);
      return *this;
    }
  };
  struct DirWatch {
    int wd = -1;  // -1: the directory is on a filesystem (or in a state) whose stamps are not remembered
    uint64_t device = 0, inode = 0;
    mutable CheckedWalk checked;  // the walk that last stat'ed this path or found its whole chain remembered
  };
  // A watched directory's own stamp, valid while `generation` is the current one.
  struct SelfStamp {
    FileStamp stamp;
    uint64_t generation = 0;
  };
  // Looks take it shared (a warm call's thousands of looks, on every worker, only read); changes take it
  // whole.
  std::shared_mutex mu;
  std::atomic<uint64_t> remembered{0}, stated{0};  // usage's, counted under the shared lock
  std::atomic<uint64_t> dirs_remembered{0}, dirs_stated{0};
  // Answers no watch vouches for (stat'ed and not remembered: layout_generation's caveat), counted so a walk
  // can tell whether every answer it had was watched.
  std::atomic<uint64_t> unwatched{0};
  std::unordered_map<std::string, DirWatch> dirs;                               // by the path asked for
  std::unordered_map<int, std::unordered_map<std::string, FileStamp>> entries;  // watch -> name -> stamp
  std::unordered_map<int, SelfStamp> selves;  // watch -> the directory's own stamp
  // Bumped by every notice that may re-point a path (an entry deleted or moved, a watch gone, an overflow):
  // it forgets every remembered directory stamp at once.
  uint64_t self_generation = 1;
  // Bumped by every notice but a write to a transcript (`*.jsonl`: modified, closed after writing, new
  // metadata) and by whatever bumps self_generation: while it stays, no entry of a watched directory was
  // created, deleted or renamed and no other file in one changed (layout_generation()).
  uint64_t layout_generation = 1;
  // Notices applied so far: a stat taken before a notice about its file was applied must not be remembered
  // after it (the notice is spent), so a stamp is kept only when this did not move during its stat.
  uint64_t notices = 0;
  size_t watch_budget = watch_share();
  std::unordered_set<int> own_watches;  // the watches this process added (the budget counts them)
  size_t held = 0;                      // stamps in `entries`
  Usage usage;
  // defer_watches(): the looks into unwatched directories since the last watch_noted(), each worker's in a
  // list of its own (deduplicated when they are watched). Only one discovery walk notes between two runs of
  // watch_noted(): the later walks' looks would find themselves noted already, and a look left unnoted is
  // only stat'ed again until a later walk notes it. A shared set cost a fresh server's first `list` of the
  // generated store 70 ms more than no watches (23,000 looks), and a lock per look slowed back-to-back calls.
  struct NotedLook {
    std::string path;            // a file's path, or a directory (whose own stamp was asked for)
    uint32_t dir_len, name_len;  // a file's directory and name: the path's head and tail
    bool followed, is_dir;
  };
  tbb::enumerable_thread_specific<std::vector<NotedLook>> noted;
  std::atomic<uint64_t> noting_walk{0};  // the walk that notes until the next watch_noted() (0: not claimed)
  std::atomic<size_t> noted_looks{0};
  std::atomic<uint64_t> noted_total{0};  // usage().noted
  bool may_note(uint64_t walk) {
    if (walk == 0) return true;  // no walk (a test's direct look): always
    uint64_t claimed = noting_walk.load(std::memory_order_relaxed);
    if (claimed == 0) noting_walk.compare_exchange_strong(claimed, walk, std::memory_order_relaxed);
    return noting_walk.load(std::memory_order_relaxed) == walk;
  }
  // Notes a look at `path` (a file `name` in `dir`) or, with name == nullptr, the directory `dir`'s own
  // stamp. Under the shared lock (watch_noted() takes the lists under the whole lock).
  void note(const std::string& dir, const std::string* name, const std::string& path, bool followed,
            uint64_t walk) {
    if (noted_looks.load(std::memory_order_relaxed) >= kMostStamps || !may_note(walk)) return;
    if (name && (path.size() < dir.size() + name->size() || path.compare(0, dir.size(), dir) != 0 ||
                 path.compare(path.size() - name->size(), name->size(), *name) != 0))
      return;  // not laid out as discovery lays it out: left stat'ed
    noted.local().push_back(NotedLook{name ? path : dir, static_cast<uint32_t>(dir.size()),
                                      static_cast<uint32_t>(name ? name->size() : 0), followed,
                                      name == nullptr});
    noted_looks.fetch_add(1, std::memory_order_relaxed);
    noted_total.fetch_add(1, std::memory_order_relaxed);
  }
  // local_filesystem() by device: one statfs a filesystem, not one a directory.
  std::unordered_map<uint64_t, bool> local_by_device;
  // watch_noted_later(): the thread that runs watch_noted() off every call's path, and its signal.
  std::thread watcher;
  std::condition_variable_any wake;
  bool watch_wanted = false, closing = false;
  // set_after_watching()'s step, under its own mutex (the step looks through `mu`).
  std::mutex after_mu;
  std::function<void()> after_watching;
  std::atomic<uint64_t> after_watching_runs{0};
  // Held through a watch_noted() pass and by unwatch_all(), so no watch goes in as they all come out.
  std::mutex pass_mu;

  void forget(size_t n) {
    usage.forgotten += n;
    held -= n;
  }
  void forget_watch(int wd) {
    if (auto it = entries.find(wd); it != entries.end()) {
      forget(it->second.size());
      entries.erase(it);
    }
    own_watches.erase(wd);
    selves.erase(wd);
    for (auto it = dirs.begin(); it != dirs.end();)
      it = it->second.wd == wd ? dirs.erase(it) : std::next(it);
  }
  // The remembered stamp of `dir` when its path still leads to its watched directory: the directory's own
  // stamp is current, and the path was stat'ed in `walk` or its parent's is remembered the same way (a chain
  // of watches up to a directory stat'ed in this walk, so no rename above any of them went unseen). Under the
  // shared lock.
  std::optional<FileStamp> remembered_dir_stamp(const std::string& dir, const DirWatch& w,
                                                uint64_t walk) const {
    if (w.wd < 0) return std::nullopt;
    auto self = selves.find(w.wd);
    if (self == selves.end() || self->second.generation != self_generation) return std::nullopt;
    const FileStamp& stamp = self->second.stamp;
    if (stamp.device != w.device || stamp.inode != w.inode) return std::nullopt;
    if (w.checked.walk.load(std::memory_order_relaxed) != walk) {
      const std::string parent = parent_dir(dir);
      auto up = parent.empty() ? dirs.end() : dirs.find(parent);
      if (up == dirs.end() || !remembered_dir_stamp(parent, up->second, walk)) return std::nullopt;
      w.checked.walk.store(walk, std::memory_order_relaxed);
    }
    return stamp;
  }
  static bool transcript_write(const inotify_event& e) {
    constexpr uint32_t kWrites = IN_MODIFY | IN_CLOSE_WRITE | IN_ATTRIB;
    if (e.len == 0 || (e.mask & ~kWrites) != 0) return false;
    const std::string_view name(e.name);  // NUL-padded to e.len
    return name.size() > 6 && name.substr(name.size() - 6) == ".jsonl";
  }
  void apply(const inotify_event& e) {
    ++notices;
    if (!transcript_write(e)) ++layout_generation;
    if (e.mask & IN_Q_OVERFLOW) {
      ++usage.overflows;
      forget(held);
      entries.clear();
      ++self_generation;  // forgets every directory's own stamp
      return;
    }
    if (e.mask & (IN_IGNORED | IN_DELETE_SELF | IN_MOVE_SELF | IN_UNMOUNT)) {
      forget_watch(e.wd);
      ++self_generation;
      return;
    }
    selves.erase(e.wd);  // any notice from a directory: its own stamp may have moved
    if (e.mask & (IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO)) ++self_generation;
    if (e.len == 0) return;
    auto it = entries.find(e.wd);
    if (it != entries.end()) forget(it->second.erase(std::string(e.name)));
  }
};

namespace {
std::atomic<uint64_t> g_next_watched_stamps_id{1};
}  // namespace

WatchedStamps::WatchedStamps(int fd)
    : fd_(fd), id_(g_next_watched_stamps_id.fetch_add(1)), state_(std::make_unique<State>()) {}

WatchedStamps::~WatchedStamps() {
  if (state_->watcher.joinable()) {
    {
      std::unique_lock<std::shared_mutex> lock(state_->mu);
      state_->closing = true;
    }
    state_->wake.notify_all();
    state_->watcher.join();
  }
  ::close(fd_);
}

std::unique_ptr<WatchedStamps> WatchedStamps::open() {
  const int fd = ::inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  if (fd < 0) return nullptr;
  return std::unique_ptr<WatchedStamps>(new WatchedStamps(fd));
}

void WatchedStamps::catch_up() {
  alignas(inotify_event) char buf[64 * 1024];
  // Reading notices and applying them are one step under the lock. Read outside it, a batch another thread
  // had taken from the queue but not yet applied was invisible to a concurrent catch-up, which found the
  // queue empty and let its look answer a stamp those notices forget: a change finished before the call
  // began, answered from memory (the soak's stale subagent rows under load, SPEC.md §7).
  std::unique_lock<std::shared_mutex> lock(state_->mu);
  for (;;) {
    const ssize_t n = ::read(fd_, buf, sizeof buf);
    if (n <= 0) {
      if (n < 0 && errno == EINTR) continue;
      break;  // EAGAIN: nothing more queued
    }
    if (void (*hook)() = after_read_hook().load()) hook();
    for (ssize_t at = 0; at < n;) {
      const auto* e = reinterpret_cast<const inotify_event*>(buf + at);
      state_->apply(*e);
      at += static_cast<ssize_t>(sizeof(inotify_event) + e->len);
    }
  }
}

void WatchedStamps::catch_up_for_walk(uint64_t walk) {
  if (walk != 0 && caught_up_walk_.load(std::memory_order_acquire) == walk) return;
  catch_up();
  if (walk != 0) caught_up_walk_.store(walk, std::memory_order_release);
}

std::optional<FileStamp> WatchedStamps::stamp(const std::string& dir, const FileStamp& dir_stamp,
                                              const std::string& name, const std::string& path,
                                              bool followed) {
  last_look_ns_.store(steady_clock_ns(), std::memory_order_relaxed);
  return look(dir, dir_stamp, name, path, followed, !deferring_.load(std::memory_order_relaxed));
}

std::optional<FileStamp> WatchedStamps::look(const std::string& dir, const FileStamp& dir_stamp,
                                             const std::string& name, const std::string& path, bool followed,
                                             bool may_watch) {
  int wd = -1;
  bool known = false;
  uint64_t notices_before = 0;
  {
    std::shared_lock<std::shared_mutex> lock(state_->mu);
    auto it = state_->dirs.find(dir);
    if (it != state_->dirs.end() && it->second.device == dir_stamp.device &&
        it->second.inode == dir_stamp.inode) {
      known = true;
      wd = it->second.wd;
      if (wd >= 0 && !followed) {
        auto names = state_->entries.find(wd);
        if (names != state_->entries.end()) {
          auto hit = names->second.find(name);
          if (hit != names->second.end()) {
            state_->remembered.fetch_add(1, std::memory_order_relaxed);
            return hit->second;
          }
        }
      }
    }
    notices_before = state_->notices;
    if (!known && !may_watch) state_->note(dir, &name, path, followed, DiscoveryWalk::current());
  }
  if (!known && !may_watch) {
    // Nothing is remembered under no watch: a plain stat, the file noted (above) for watch_noted().
    state_->stated.fetch_add(1, std::memory_order_relaxed);
    state_->unwatched.fetch_add(1, std::memory_order_relaxed);
    return stamp_file(path);
  }
  // The watch goes in before the stat it vouches for, so a change after that stat raises a notice.
  if (!known) wd = add_watch(dir, dir_stamp);
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    state_->unwatched.fetch_add(1, std::memory_order_relaxed);
    return std::nullopt;
  }
  const FileStamp found = stamp_of_stat(st);
  state_->stated.fetch_add(1, std::memory_order_relaxed);
  std::unique_lock<std::shared_mutex> lock(state_->mu);
  if (wd >= 0 && !followed && S_ISREG(st.st_mode) && st.st_nlink == 1 && state_->notices == notices_before &&
      state_->held < kMostStamps) {
    if (state_->entries[wd].insert_or_assign(name, found).second) ++state_->held;
  } else {
    state_->unwatched.fetch_add(1, std::memory_order_relaxed);
  }
  return found;
}

int WatchedStamps::add_watch(const std::string& dir, const FileStamp& dir_stamp) {
  bool room = false;
  std::optional<bool> local;
  {
    std::shared_lock<std::shared_mutex> lock(state_->mu);
    room = state_->own_watches.size() < state_->watch_budget;
    if (auto it = state_->local_by_device.find(dir_stamp.device); it != state_->local_by_device.end())
      local = it->second;
  }
  if (!local) {
    local = local_filesystem(dir);
    std::unique_lock<std::shared_mutex> lock(state_->mu);
    state_->local_by_device.emplace(dir_stamp.device, *local);
  }
  const int wd = room && *local ? ::inotify_add_watch(fd_, dir.c_str(), kWatchMask) : -1;
  std::unique_lock<std::shared_mutex> lock(state_->mu);
  if (wd >= 0) state_->own_watches.insert(wd);
  state_->dirs[dir] = State::DirWatch{wd, dir_stamp.device, dir_stamp.inode, {}};
  return wd;
}

std::optional<FileStamp> WatchedStamps::dir_stamp(const std::string& dir, uint64_t walk) {
  last_look_ns_.store(steady_clock_ns(), std::memory_order_relaxed);
  if (walk != 0) catch_up_for_walk(walk);
  return take_dir_stamp(dir, walk, !deferring_.load(std::memory_order_relaxed));
}

std::optional<FileStamp> WatchedStamps::take_dir_stamp(const std::string& dir, uint64_t walk,
                                                       bool may_watch) {
  int wd = -1;
  bool known = false;
  uint64_t device = 0, inode = 0, notices_before = 0;
  {
    std::shared_lock<std::shared_mutex> lock(state_->mu);
    if (auto it = state_->dirs.find(dir); it != state_->dirs.end()) {
      if (walk != 0) {
        if (std::optional<FileStamp> kept = state_->remembered_dir_stamp(dir, it->second, walk)) {
          state_->dirs_remembered.fetch_add(1, std::memory_order_relaxed);
          return kept;
        }
      }
      known = true;
      wd = it->second.wd;
      device = it->second.device;
      inode = it->second.inode;
    }
    notices_before = state_->notices;
    if (!known && !may_watch) state_->note(dir, nullptr, dir, false, walk);
  }
  struct stat st {};
  const auto unwatched = [this] { state_->unwatched.fetch_add(1, std::memory_order_relaxed); };
  if (::stat(dir.c_str(), &st) != 0) {
    unwatched();
    return std::nullopt;
  }
  FileStamp found = stamp_of_stat(st);
  state_->dirs_stated.fetch_add(1, std::memory_order_relaxed);
  if (!S_ISDIR(st.st_mode)) {
    unwatched();
    return found;
  }
  const bool same = known && device == found.device && inode == found.inode;
  if (wd >= 0 && same) {
    std::unique_lock<std::shared_mutex> lock(state_->mu);
    if (state_->notices == notices_before) {
      state_->selves[wd] = State::SelfStamp{found, state_->self_generation};
      if (auto it = state_->dirs.find(dir); it != state_->dirs.end() && it->second.wd == wd)
        it->second.checked.walk.store(walk, std::memory_order_relaxed);
    } else {
      unwatched();
    }
    return found;
  }
  unwatched();             // every answer below is a stat no watch vouches for yet
  if (same) return found;  // unwatched (past the budget, or not a local filesystem)
  if (known) {
    // The path leads to another directory than the one watched under it, and no notice said so (it was
    // re-pointed from above every watch): nothing remembered below it can be trusted.
    std::unique_lock<std::shared_mutex> lock(state_->mu);
    ++state_->self_generation;
    ++state_->layout_generation;
    if (!may_watch) state_->note(dir, nullptr, dir, false, walk);  // to be watched afresh
  }
  if (!may_watch) return found;  // noted
  if (add_watch(dir, found) < 0) return found;
  // Taken again now the watch is in: the stamp remembered must postdate the watch (the next walk takes it).
  return take_dir_stamp(dir, walk, false);
}

void WatchedStamps::defer_watches() {
  deferring_.store(true, std::memory_order_relaxed);
}

bool WatchedStamps::has_noted() const {
  return state_->noted_looks.load(std::memory_order_relaxed) > 0;
}

void WatchedStamps::watch_noted_later() {
  std::unique_lock<std::shared_mutex> lock(state_->mu);
  state_->watch_wanted = true;
  if (!state_->watcher.joinable()) {
    state_->watcher = std::thread([this] {
      std::unique_lock<std::shared_mutex> lock(state_->mu);
      for (;;) {
        state_->wake.wait(lock, [this] { return state_->watch_wanted || state_->closing; });
        if (state_->closing) return;
        state_->watch_wanted = false;
        lock.unlock();
        if (watch_noted(/*yield_to_looks=*/true) && wait_for_quiet()) {
          std::lock_guard<std::mutex> step_lock(state_->after_mu);
          if (state_->after_watching) {
            state_->after_watching();
            state_->after_watching_runs.fetch_add(1, std::memory_order_release);
          }
        }
        lock.lock();
      }
    });
  }
  state_->wake.notify_one();
}

bool WatchedStamps::wait_for_quiet() {
  for (;;) {
    {
      std::shared_lock<std::shared_mutex> lock(state_->mu);
      if (state_->closing) return false;
    }
    // Quiet: no call under way, and none ended nor any look made for kQuietNs (a client's next call tends
    // to follow its reply at once).
    const int64_t last = std::max(last_look_ns_.load(std::memory_order_relaxed), last_call_end_ns());
    const int64_t idle = steady_clock_ns() - last;
    if (calls_under_way() == 0 && idle >= kQuietNs) return true;
    std::this_thread::sleep_for(std::chrono::nanoseconds(calls_under_way() ? kQuietNs : kQuietNs - idle));
  }
}

void WatchedStamps::set_after_watching(std::function<void()> step) {
  std::lock_guard<std::mutex> step_lock(state_->after_mu);
  state_->after_watching = std::move(step);
}

size_t WatchedStamps::unwatch_all() {
  std::lock_guard<std::mutex> pass(state_->pass_mu);
  std::unique_lock<std::shared_mutex> lock(state_->mu);
  const size_t removed = state_->own_watches.size();
  for (const int wd : state_->own_watches)
    // Each queues IN_IGNORED, applied as a watch gone (nothing left to forget; the kernel hands out watch
    // descriptors cyclically, so a later watch does not take the number meanwhile).
    ::inotify_rm_watch(fd_, wd);
  state_->own_watches.clear();
  state_->forget(state_->held);
  state_->entries.clear();
  state_->selves.clear();
  state_->dirs.clear();
  // As an overflow does: every remembered directory stamp and kept walk is void, and a look or stat under way
  // when the watches went (its notices count taken before) remembers nothing and counts as unwatched.
  ++state_->self_generation;
  ++state_->layout_generation;
  ++state_->notices;
  state_->unwatched.fetch_add(1, std::memory_order_release);
  return removed;
}

bool WatchedStamps::noted_fit_share() const {
  std::unique_lock<std::shared_mutex> lock(state_->mu);  // no look is noting
  const size_t held = state_->own_watches.size();
  if (held >= state_->watch_budget) return false;
  const size_t room = state_->watch_budget - held;
  std::unordered_set<std::string_view> dirs;
  for (const std::vector<State::NotedLook>& mine : state_->noted) {
    for (const State::NotedLook& l : mine) {
      dirs.insert(l.is_dir ? std::string_view(l.path) : std::string_view(l.path).substr(0, l.dir_len));
      if (dirs.size() > room) return false;
    }
  }
  return true;
}

void WatchedStamps::set_watch_budget(size_t watches) {
  std::unique_lock<std::shared_mutex> lock(state_->mu);
  state_->watch_budget = watches;
}

bool WatchedStamps::watch_noted(bool yield_to_looks) {
  std::lock_guard<std::mutex> pass(state_->pass_mu);
  std::vector<State::NotedLook> looks;
  {
    std::unique_lock<std::shared_mutex> lock(state_->mu);  // no look is noting
    for (std::vector<State::NotedLook>& mine : state_->noted) {
      std::move(mine.begin(), mine.end(), std::back_inserter(looks));
      std::vector<State::NotedLook>().swap(mine);  // its capacity too (a fresh walk notes thousands)
    }
    state_->noted_looks = 0;
    state_->noting_walk = 0;
  }
  // By directory, each look once (two workers or two walks may have noted the same one).
  std::unordered_map<std::string, std::unordered_map<std::string_view, const State::NotedLook*>> by_dir;
  std::unordered_set<std::string_view> noted_dirs;
  for (const State::NotedLook& l : looks) {
    if (l.is_dir)
      noted_dirs.insert(l.path);
    else
      by_dir[l.path.substr(0, l.dir_len)].try_emplace(l.path, &l);
  }
  catch_up();  // what changed since the looks is applied first: the stamps taken below are as of now
  for (const auto& [dir, in_dir] : by_dir) {
    if (yield_to_looks && !wait_for_quiet()) return false;  // closing: the process is ending
    // The directory's identity is taken just before its watch goes in (the first look adds it), as a call's
    // look takes it: one replaced at the path in between fails the identity check of every later look, which
    // then stats afresh, so nothing is answered from a watch on another directory.
    struct stat dir_st {};
    if (::stat(dir.c_str(), &dir_st) != 0 || !S_ISDIR(dir_st.st_mode)) continue;
    const FileStamp dir_stamp = stamp_of_stat(dir_st);
    for (const auto& [path, l] : in_dir)
      (void)look(dir, dir_stamp, l->path.substr(l->path.size() - l->name_len), l->path, l->followed,
                 /*may_watch=*/true);
  }
  // The directories whose own stamps were asked for: watched (most already are, by their files' looks just
  // above) and stamped, as of a walk of their own (the next walk re-checks the topmost).
  for (const std::string_view dir : noted_dirs) {
    if (yield_to_looks && !wait_for_quiet()) return false;
    (void)take_dir_stamp(std::string(dir), 0, /*may_watch=*/true);
  }
  return !looks.empty();
}

uint64_t WatchedStamps::layout_generation() const {
  std::shared_lock<std::shared_mutex> lock(state_->mu);
  return state_->layout_generation;
}

uint64_t WatchedStamps::unwatched_answers() const {
  return state_->unwatched.load(std::memory_order_acquire);
}

std::optional<FileStamp> WatchedStamps::watched_file_stamp(const std::string& path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string::npos || slash == 0) return std::nullopt;
  const std::string dir = path.substr(0, slash);
  FileStamp dir_identity;
  {
    std::shared_lock<std::shared_mutex> lock(state_->mu);
    auto it = state_->dirs.find(dir);
    if (it == state_->dirs.end() || it->second.wd < 0) return std::nullopt;
    dir_identity.device = it->second.device;
    dir_identity.inode = it->second.inode;
  }
  last_look_ns_.store(steady_clock_ns(), std::memory_order_relaxed);
  return look(dir, dir_identity, path.substr(slash + 1), path, /*followed=*/false, /*may_watch=*/true);
}

void WatchedStamps::set_after_read_hook(void (*hook)()) {
  after_read_hook().store(hook);
}

WatchedStamps::Usage WatchedStamps::usage() const {
  std::shared_lock<std::shared_mutex> lock(state_->mu);
  Usage u = state_->usage;
  u.remembered = state_->remembered.load(std::memory_order_relaxed);
  u.stated = state_->stated.load(std::memory_order_relaxed);
  u.noted = state_->noted_total.load(std::memory_order_relaxed);
  u.dirs_remembered = state_->dirs_remembered.load(std::memory_order_relaxed);
  u.dirs_stated = state_->dirs_stated.load(std::memory_order_relaxed);
  u.after_watching = state_->after_watching_runs.load(std::memory_order_acquire);
  u.watches = state_->own_watches.size();
  u.entries = state_->held;
  return u;
}

WatchedStamps* process_watched_stamps() {
  return process_slot().get();
}

void install_watched_stamps(bool on) {
  process_slot() = on ? WatchedStamps::open() : nullptr;
  // The process's are a server's, which watches on the stamps' own thread while idle, never on a call's path.
  if (process_slot()) process_slot()->defer_watches();
}

}  // namespace csift
