#include "core/store/call_landing.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <thread>

#include "core/cache/file_stamp.h"
#include "core/record/transcript_reader.h"
#include "core/store/session_env.h"

#ifdef __linux__
#include <sys/inotify.h>
#endif

namespace csift {

namespace fs = std::filesystem;

namespace {

using LandingClock = std::chrono::steady_clock;

// Without inotify the appended bytes are looked for this often (non-Linux systems only).
constexpr int kLandingPollMs = 50;

int64_t wall_now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

int64_t mtime_ns_at(const std::string& path) {
  const std::optional<FileStamp> st = stamp_file(path);
  return st ? st->mtime_ns : 0;
}

struct RecentFile {
  std::string path;
  int64_t mtime_ns = 0;
};

struct RecentListing {
  std::vector<RecentFile> files;  // newest first, within the bounds
  size_t transcripts = 0;         // every transcript seen in the store
};

// `on_project_dir` sees each project folder before its files are listed (the search watches it there, so a
// transcript created after the listing passed it still wakes the wait).
RecentListing list_recent_transcripts(const std::string& projects_root,
                                      const std::function<void(const std::string&)>& on_project_dir = {}) {
  RecentListing out;
  const int64_t cutoff = wall_now_ns() - kLandingRecentSeconds * 1000000000LL;
  std::error_code ec;
  // Symlinked project dirs are read like any other (the depth cap bounds a cycle).
  fs::recursive_directory_iterator it(
      projects_root,
      fs::directory_options::skip_permission_denied | fs::directory_options::follow_directory_symlink, ec),
      end;
  for (; !ec && it != end; it.increment(ec)) {
    if (it.depth() > 5) {
      it.disable_recursion_pending();
      continue;
    }
    std::error_code type_ec;
    if (it.depth() == 0 && on_project_dir && it->is_directory(type_ec)) on_project_dir(it->path().string());
    if (!it->is_regular_file(type_ec)) continue;
    const fs::path rel = it->path().lexically_relative(projects_root);
    if (!is_transcript_place(rel)) continue;
    ++out.transcripts;
    const int64_t mtime = mtime_ns_at(it->path().string());
    if (mtime >= cutoff) out.files.push_back(RecentFile{it->path().string(), mtime});
  }
  std::sort(out.files.begin(), out.files.end(), [](const RecentFile& a, const RecentFile& b) {
    return a.mtime_ns != b.mtime_ns ? a.mtime_ns > b.mtime_ns : a.path < b.path;
  });
  if (out.files.size() > kLandingRecentTranscripts) out.files.resize(kLandingRecentTranscripts);
  return out;
}

// One candidate file: how far it has been read (the end of its last complete line).
struct Tracked {
  std::string path;
  uint64_t offset = 0;
  bool read = false;  // read at least once
  std::optional<Transcript> transcript;
};

class LandingSearch {
 public:
  LandingSearch(const std::string& projects_root, const LandingQuery& query)
      : root_(projects_root), query_(query) {}
  ~LandingSearch() {
    if (fd_ >= 0) ::close(fd_);
  }
  LandingSearch(const LandingSearch&) = delete;
  LandingSearch& operator=(const LandingSearch&) = delete;

  CallLanding run();

 private:
  int64_t elapsed_ms() const {
    return std::chrono::duration_cast<std::chrono::milliseconds>(LandingClock::now() - start_).count();
  }
  Tracked& track(const std::string& path);
  bool read_tail(Tracked& f);
  bool read_appended(Tracked& f);
  bool scan(Tracked& f, uint64_t from, bool mid_line);
  void watch_dir(const std::string& dir);
  void watch_around(const std::string& path);
  bool on_path(const std::string& path, bool is_dir);
  bool wait_inotify();
  bool wait_polling();
  std::vector<std::string> preferred_files();

  const std::string& root_;
  const LandingQuery& query_;
  LandingClock::time_point start_ = LandingClock::now();
  std::vector<std::unique_ptr<Tracked>> files_;
  std::map<std::string, Tracked*> by_path_;
  int fd_ = -1;
  std::map<int, std::string> dirs_by_wd_;
  std::set<std::string> watched_;
  CallLanding out_;
  size_t preferred_read_ = 0;
  size_t recent_read_ = 0;
};

Tracked& LandingSearch::track(const std::string& path) {
  if (auto it = by_path_.find(path); it != by_path_.end()) return *it->second;
  files_.push_back(std::make_unique<Tracked>());
  files_.back()->path = path;
  by_path_[path] = files_.back().get();
  return *files_.back();
}

// Reads the complete lines of `f` from `from` (or from kLandingTailBytes before the end, when that is later)
// and decodes each that holds the needle; a hit is added to out_.hits. The offset moves past the last
// complete line, so a line still being written is read whole next time.
bool LandingSearch::scan(Tracked& f, uint64_t from, bool mid_line) {
  const int fd = ::open(f.path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    ::close(fd);
    return false;
  }
  const uint64_t size = static_cast<uint64_t>(st.st_size);
  if (size < from) from = 0, mid_line = false;  // truncated or replaced: read it again
  if (size - from > kLandingTailBytes) from = size - kLandingTailBytes, mid_line = true;
  std::string buf(size - from, '\0');
  size_t got = 0;
  while (got < buf.size()) {
    const ssize_t n = ::pread(fd, buf.data() + got, buf.size() - got, static_cast<off_t>(from + got));
    if (n <= 0) break;
    got += static_cast<size_t>(n);
  }
  ::close(fd);
  buf.resize(got);
  f.read = true;
  std::string_view view = buf;
  size_t begin = 0;
  if (mid_line) {  // the window starts inside a line that is not ours to decode
    const size_t nl = view.find('\n');
    if (nl == std::string_view::npos) {
      f.offset = from + view.size();
      return false;
    }
    begin = nl + 1;
  }
  const size_t last_nl = view.rfind('\n');
  if (last_nl == std::string_view::npos || last_nl < begin) {
    f.offset = from + begin;
    return false;
  }
  f.offset = from + last_nl + 1;
  const std::string_view lines = view.substr(begin, last_nl + 1 - begin);
  bool hit = false;
  for (size_t pos = lines.find(query_.needle); pos != std::string_view::npos;) {
    const size_t before = lines.rfind('\n', pos);  // the needle holds no newline
    const size_t line_start = before == std::string_view::npos ? 0 : before + 1;
    const size_t line_end = lines.find('\n', pos);
    std::string_view line = lines.substr(line_start, line_end - line_start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (!f.transcript) f.transcript = transcript_for_file(f.path);
    if (f.transcript) {
      Record record;
      std::string error;
      if (reader_for(*f.transcript).decode(line, record, error) && query_.matches(record)) {
        hit = true;
        break;
      }
    }
    pos = lines.find(query_.needle, line_end + 1);
  }
  if (hit) out_.hits.push_back(*f.transcript);
  return hit;
}

bool LandingSearch::read_tail(Tracked& f) {
  if (f.read) return false;
  ++out_.candidates;
  std::error_code ec;
  const uint64_t size = fs::file_size(f.path, ec);
  if (ec) return false;
  const uint64_t from = size > kLandingTailBytes ? size - kLandingTailBytes : 0;
  return scan(f, from, from > 0);
}

bool LandingSearch::read_appended(Tracked& f) {
  if (!f.read) {
    ++out_.candidates;
    return scan(f, 0, false);  // born while waiting: all of it is new
  }
  std::error_code ec;
  const uint64_t size = fs::file_size(f.path, ec);
  if (ec || size == f.offset) return false;
  return scan(f, f.offset, false);
}

void LandingSearch::watch_dir(const std::string& dir) {
#ifdef __linux__
  if (fd_ < 0 || watched_.count(dir)) return;
  const int wd = inotify_add_watch(fd_, dir.c_str(), IN_MODIFY | IN_CREATE | IN_MOVED_TO | IN_CLOSE_WRITE);
  if (wd < 0) return;
  watched_.insert(dir);
  dirs_by_wd_[wd] = dir;
#else
  (void)dir;
#endif
}

// A candidate's own directory, and — for a top-level session — the session directory and its subagents/,
// where a lane file appears when a subagent starts.
void LandingSearch::watch_around(const std::string& path) {
  const fs::path p(path);
  watch_dir(p.parent_path().string());
  const fs::path rel = p.lexically_relative(root_);
  if (std::distance(rel.begin(), rel.end()) != 2) return;  // <project>/<uuid>.jsonl only
  const fs::path session_dir = p.parent_path() / p.stem();
  std::error_code ec;
  if (!fs::is_directory(session_dir, ec)) return;
  watch_dir(session_dir.string());
  if (fs::is_directory(session_dir / "subagents", ec)) watch_dir((session_dir / "subagents").string());
}

// A name the kernel reported: a transcript that changed or appeared, or a project folder, session directory
// or subagents/ that appeared (watched, and what it already holds read). True on a hit.
bool LandingSearch::on_path(const std::string& path, bool is_dir) {
  const fs::path rel = fs::path(path).lexically_relative(root_);
  const auto depth = std::distance(rel.begin(), rel.end());
  if (is_dir) {
    const std::string name = fs::path(path).filename().string();
    const bool project_dir = depth == 1;
    const bool session_dir = depth == 2 && is_uuid(name);
    const bool lanes_dir = depth == 3 && name == "subagents";
    if (!project_dir && !session_dir && !lanes_dir) return false;
    watch_dir(path);
    std::error_code ec;
    for (fs::directory_iterator it(path, ec), end; !ec && it != end; it.increment(ec)) {
      std::error_code type_ec;
      if (on_path(it->path().string(), it->is_directory(type_ec))) return true;
    }
    return false;
  }
  if (!by_path_.count(path) && !is_transcript_place(rel)) return false;
  return read_appended(track(path));
}

bool LandingSearch::wait_inotify() {
#ifdef __linux__
  while (true) {
    const int64_t left = query_.wait_ms - elapsed_ms();
    if (left <= 0) return false;
    pollfd p{fd_, POLLIN, 0};
    if (::poll(&p, 1, static_cast<int>(left)) <= 0) return false;
    alignas(inotify_event) char buf[16384];
    const ssize_t n = ::read(fd_, buf, sizeof buf);
    if (n <= 0) continue;
    std::vector<std::pair<std::string, bool>> named;
    for (ssize_t i = 0; i < n;) {
      const auto* e = reinterpret_cast<const inotify_event*>(buf + i);
      i += static_cast<ssize_t>(sizeof(inotify_event) + e->len);
      if (e->mask & IN_Q_OVERFLOW) {  // notices were lost: every tracked file is looked at again
        for (const auto& f : files_)
          named.emplace_back(f->path, false);
        continue;
      }
      const auto dir = dirs_by_wd_.find(e->wd);
      if (dir == dirs_by_wd_.end() || e->len == 0) continue;
      named.emplace_back(dir->second + "/" + e->name, (e->mask & IN_ISDIR) != 0);
    }
    std::set<std::string> seen;
    for (const auto& [path, is_dir] : named) {
      if (!seen.insert(path).second) continue;
      if (on_path(path, is_dir)) return true;
    }
  }
#else
  return false;
#endif
}

// No inotify: the tracked files, and the lanes of the preferred sessions, are looked at every kLandingPollMs.
bool LandingSearch::wait_polling() {
  while (elapsed_ms() < query_.wait_ms) {
    std::this_thread::sleep_for(std::chrono::milliseconds(
        std::min<int64_t>(kLandingPollMs, std::max<int64_t>(1, query_.wait_ms - elapsed_ms()))));
    for (const std::string& path : preferred_files()) {
      if (!by_path_.count(path)) track(path);
    }
    for (size_t i = 0; i < files_.size(); ++i) {
      if (read_appended(*files_[i])) return true;
    }
  }
  return false;
}

// The named sessions' transcripts: each main transcript, then its lanes, the most recently written first.
std::vector<std::string> LandingSearch::preferred_files() {
  std::vector<std::string> out;
  for (const std::string& id : query_.preferred_sessions) {
    const std::optional<Transcript> session = find_session_file(root_, id, query_.cwd);
    if (!session) continue;
    out.push_back(session->path);
    std::vector<RecentFile> lanes;
    for (const Transcript& lane : list_subagents(*session))
      lanes.push_back(RecentFile{lane.path, mtime_ns_at(lane.path)});
    std::sort(lanes.begin(), lanes.end(),
              [](const RecentFile& a, const RecentFile& b) { return a.mtime_ns > b.mtime_ns; });
    for (const RecentFile& lane : lanes)
      out.push_back(lane.path);
  }
  return out;
}

CallLanding LandingSearch::run() {
  if (query_.wait_ms > 0) {
#ifdef __linux__
    fd_ = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
#endif
  }
  out_.woken_by = fd_ >= 0 ? "inotify" : "polling";
  // A fresh session's first call arrives before Claude Code has written its transcript, often before the
  // project folder exists: the projects root is watched so a new folder wakes the wait.
  watch_dir(root_);
  // 1. The sessions the caller's process names, and their lanes. Watches go up before any read, so a write
  // that lands between a read and the wait is still reported.
  const std::vector<std::string> preferred = preferred_files();
  for (const std::string& path : preferred)
    watch_around(path);
  for (const std::string& path : preferred) {
    ++preferred_read_;
    if (read_tail(track(path))) {
      out_.found_among = "preferred";
      if (query_.stop_at_first) break;
    }
  }
  // 2. The most recently written transcripts, newest first.
  if (out_.hits.empty() || !query_.stop_at_first) {
    // Every project folder is watched (a new transcript may appear in any), before its files are listed.
    const RecentListing recent =
        list_recent_transcripts(root_, [this](const std::string& dir) { watch_dir(dir); });
    out_.transcripts = recent.transcripts;
    for (const RecentFile& f : recent.files)
      watch_around(f.path);
    for (const RecentFile& f : recent.files) {
      Tracked& t = track(f.path);
      if (t.read) continue;
      ++recent_read_;
      if (read_tail(t)) {
        if (out_.found_among.empty()) out_.found_among = "recent";
        if (query_.stop_at_first) break;
      }
    }
  }
  // 3. Not there yet: wait for it to land.
  if (out_.hits.empty() && query_.wait_ms > 0) {
    out_.waited = true;
    const bool hit = fd_ >= 0 ? wait_inotify() : wait_polling();
    if (hit) {
      out_.found_among = "appended";
      out_.landed_late = true;
    } else {
      // A last look at the store as it is now, in case a notice was missed (a directory not watched).
      const RecentListing recent = list_recent_transcripts(root_);
      out_.transcripts = recent.transcripts;
      for (const RecentFile& f : recent.files) {
        if (read_appended(track(f.path))) {
          out_.found_among = "recent";
          out_.landed_late = true;
          if (query_.stop_at_first) break;
        }
      }
    }
  }
  out_.waited_ms = elapsed_ms();
  out_.searched = "searched the last " + std::to_string(kLandingTailBytes / 1024) + " KiB of " +
                  std::to_string(out_.candidates) + " transcript(s): " + std::to_string(preferred_read_) +
                  " of the session(s) the caller's process names and their lanes, " +
                  std::to_string(recent_read_) + " of the " + std::to_string(kLandingRecentTranscripts) +
                  " most recently written within " + std::to_string(kLandingRecentSeconds / 60) +
                  " minutes (" + std::to_string(out_.transcripts) + " transcripts under " + root_ + ")" +
                  (out_.waited ? ", then followed the appended bytes for " + std::to_string(out_.waited_ms) +
                                     " ms (" + out_.woken_by + ")"
                               : "");
  return out_;
}

}  // namespace

bool is_transcript_place(const fs::path& rel) {
  const std::string name = rel.filename().string();
  if (rel.extension() != ".jsonl" || name == "journal.jsonl" || name == "elicitations.jsonl") return false;
  const auto depth = std::distance(rel.begin(), rel.end());
  if (depth == 2) return true;
  if (!agent_id_from_filename(name).empty()) {
    for (const auto& part : rel)
      if (part == "subagents") return true;
  }
  return false;
}

CallLanding find_call_landing(const std::string& projects_root, const LandingQuery& query) {
  LandingSearch search(projects_root, query);
  return search.run();
}

bool record_has_tool_use_id(const Record& record, std::string_view tool_use_id) {
  if (record.type != "assistant") return false;
  for (const Block& block : record.message.blocks) {
    if (block.kind == BlockKind::tool_use && block.id == tool_use_id) return true;
  }
  return false;
}

CallLanding find_tool_use_landing(const std::string& projects_root, const std::string& tool_use_id,
                                  const std::vector<std::string>& preferred_sessions, const std::string& cwd,
                                  int wait_ms) {
  LandingQuery q;
  // The id inside its JSON string quotes: `toolu_x` is not found inside `toolu_xy`.
  q.needle = "\"" + tool_use_id + "\"";
  q.matches = [&](const Record& r) { return record_has_tool_use_id(r, tool_use_id); };
  q.preferred_sessions = preferred_sessions;
  q.cwd = cwd;
  q.wait_ms = wait_ms;
  return find_call_landing(projects_root, q);
}

std::string landing_place(const Transcript& t) {
  return (t.is_subagent ? "subagent lane " + t.id + " of session " + t.session_id
                        : "main transcript of session " + t.id) +
         " (" + t.path + ")";
}

std::string landing_evidence(const CallLanding& landing, const std::string& what) {
  if (landing.hits.empty()) {
    return what + " is in no transcript: " + landing.searched;
  }
  const std::string when = landing.landed_late
                               ? "it landed " + std::to_string(landing.waited_ms) +
                                     " ms after this call began (waited, woken by " + landing.woken_by + ")"
                               : "it was on disk when this call began (found after " +
                                     std::to_string(landing.waited_ms) + " ms, no wait)";
  const std::string among = landing.found_among == "preferred" ? "a session the caller's process names"
                            : landing.found_among == "recent"  ? "the most recently written transcripts"
                                                               : "the bytes appended while waiting";
  return what + " is in the " + landing_place(landing.hits.front()) + "; " + when + "; found among " + among +
         " (" + std::to_string(landing.candidates) + " transcript(s) read)";
}

}  // namespace csift
