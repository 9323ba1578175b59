// Following a live session's files without a busy loop: byte offsets per file (complete lines only, a torn
// tail is re-read next time), woken by inotify on the directories that hold them where the kernel has it,
// else by the poll interval alone.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/record/record.h"
#include "core/store/store.h"

namespace csift {

struct WatchedFile {
  Transcript transcript;
  std::string lane;          // "main", an agent id, or "sidecar"
  uint64_t offset = 0;       // bytes already consumed (the baseline at start)
  bool joined_late = false;  // born after the watch began: its whole content is new
};

struct AppendedRecords {
  const WatchedFile* file = nullptr;
  std::vector<Record> records;
};

class FileWatch {
 public:
  // Snapshots every file's length: only bytes appended after it are events.
  FileWatch(const Transcript& session, bool subagents, const std::string& registry_dir);
  ~FileWatch();
  FileWatch(const FileWatch&) = delete;
  FileWatch& operator=(const FileWatch&) = delete;

  size_t file_count() const { return files_.size(); }
  bool uses_inotify() const { return inotify_fd_ >= 0; }
  // Blocks for at most `ms`; true when the kernel reported a change in a watched directory (always false
  // without inotify: the caller's interval does the polling).
  bool wait_for_change(int ms);
  // New lanes and a new sidecar join (zero baseline); each file's complete new lines are read.
  std::vector<AppendedRecords> read_new(uint64_t& skipped_lines, std::vector<std::string>& joined);

 private:
  void add_dir_watch(const std::string& dir);
  void discover();

  Transcript session_;
  bool subagents_;
  std::vector<WatchedFile> files_;
  int inotify_fd_ = -1;
  std::map<std::string, int> dir_watches_;
  std::string registry_dir_;
};

}  // namespace csift
