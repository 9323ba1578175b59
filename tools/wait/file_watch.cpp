#include "tools/wait/file_watch.h"

#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <thread>

#include "tools/status/lane_tail.h"

#ifdef __linux__
#include <sys/inotify.h>
#endif

namespace csift {
namespace {

uint64_t file_size(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 ? static_cast<uint64_t>(st.st_size) : 0;
}

}  // namespace

FileWatch::FileWatch(const Transcript& session, bool subagents, const std::string& registry_dir)
    : session_(session), subagents_(subagents), registry_dir_(registry_dir) {
  // Discovery's view of the session's directory is a snapshot (it may have had no subagents/ yet): a watch
  // that lists the session's lanes on every poll must look again each time.
  session_.session_dir = {};
#ifdef __linux__
  inotify_fd_ = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
#endif
  files_.push_back({session, "main", file_size(session.path), false});
  Transcript sidecar = session;
  sidecar.path = sidecar_path(session);
  files_.push_back({sidecar, "sidecar", file_size(sidecar.path), false});
  if (subagents_) {
    for (auto& agent : list_subagents(session_)) {
      const uint64_t size = file_size(agent.path);
      const std::string id = agent.id;
      files_.push_back({std::move(agent), id, size, false});
    }
  }
  add_dir_watch(session.project_dir);
  add_dir_watch(registry_dir_);
  discover();
}

FileWatch::~FileWatch() {
  if (inotify_fd_ >= 0) ::close(inotify_fd_);
}

void FileWatch::add_dir_watch(const std::string& dir) {
#ifdef __linux__
  if (inotify_fd_ < 0 || dir_watches_.count(dir)) return;
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) return;
  const int wd =
      inotify_add_watch(inotify_fd_, dir.c_str(), IN_MODIFY | IN_CREATE | IN_MOVED_TO | IN_CLOSE_WRITE);
  if (wd >= 0) dir_watches_[dir] = wd;
#else
  (void)dir;
#endif
}

// The session's own directory, its subagents/ and each workflow directory appear while it runs: each gets a
// watch as soon as it exists, and every new lane file joins with a zero baseline.
void FileWatch::discover() {
  const std::filesystem::path base = std::filesystem::path(session_.project_dir) / session_.id;
  add_dir_watch(base.string());
  if (!subagents_) return;
  const std::filesystem::path subs = base / "subagents";
  add_dir_watch(subs.string());
  std::error_code ec;
  if (std::filesystem::is_directory(subs / "workflows", ec)) {
    add_dir_watch((subs / "workflows").string());
    for (const auto& e : std::filesystem::directory_iterator(subs / "workflows", ec))
      if (e.is_directory(ec)) add_dir_watch(e.path().string());
  }
}

bool FileWatch::wait_for_change(int ms) {
  if (inotify_fd_ < 0) {
    std::this_thread::sleep_for(std::chrono::milliseconds(ms));
    return false;
  }
  pollfd p{inotify_fd_, POLLIN, 0};
  if (::poll(&p, 1, ms) <= 0) return false;
  char buf[8192];
  bool any = false;
  while (::read(inotify_fd_, buf, sizeof buf) > 0)
    any = true;  // drained: the reads that follow look at every file anyway
  return any;
}

std::vector<AppendedRecords> FileWatch::read_new(uint64_t& skipped_lines, std::vector<std::string>& joined) {
  discover();
  if (subagents_) {
    for (auto& agent : list_subagents(session_)) {
      bool known = false;
      for (const auto& f : files_)
        known = known || f.transcript.path == agent.path;
      if (known) continue;
      joined.push_back(agent.id);
      const std::string id = agent.id;
      files_.push_back({std::move(agent), id, 0, true});
    }
  }
  std::vector<AppendedRecords> out;
  for (auto& f : files_) {
    if (file_size(f.transcript.path) == f.offset) continue;
    if (f.lane == "sidecar" && f.offset == 0 && !f.joined_late) f.joined_late = true;
    uint64_t end = f.offset;
    AppendedRecords got{&f, read_appended_records(f.transcript, f.offset, end, skipped_lines)};
    f.offset = end;
    if (!got.records.empty()) out.push_back(std::move(got));
  }
  return out;
}

}  // namespace csift
