#include "core/cache/file_stamp.h"

#include <sys/stat.h>

#include <cstring>
#include <ctime>
#include <functional>
#include <string_view>

#include "core/scan/file_handle.h"

namespace csift {

int64_t realtime_ns() {
  struct timespec ts {};
  ::clock_gettime(CLOCK_REALTIME, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

bool likely_to_grow(const std::optional<FileStamp>& stamp) {
  constexpr int64_t kLikelyToGrowNs = int64_t{24} * 3600 * 1000000000;
  return !stamp || realtime_ns() - stamp->mtime_ns < kLikelyToGrowNs;
}

FileStamp stamp_of_stat(const struct stat& st) {
  FileStamp s;
  s.device = static_cast<uint64_t>(st.st_dev);
  s.inode = static_cast<uint64_t>(st.st_ino);
  s.size = static_cast<uint64_t>(st.st_size);
  s.mtime_ns = static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
  return s;
}

std::optional<FileStamp> stamp_file(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return std::nullopt;
  return stamp_of_stat(st);
}

std::optional<uint64_t> head_hash_of(const std::string& path) {
  FileHandle f(path);
  if (f.fd < 0) return std::nullopt;
  char head[kHeadBytes];
  const ssize_t got = pread_upto(f.fd, head, sizeof head, 0);
  if (got < 0) return std::nullopt;
  std::string_view line(head, static_cast<size_t>(got));
  if (const void* nl = std::memchr(head, '\n', line.size()))
    line = line.substr(0, static_cast<size_t>(static_cast<const char*>(nl) - head));
  return std::hash<std::string_view>{}(line);
}

std::optional<uint64_t> tail_hash_of(const std::string& path, uint64_t end) {
  FileHandle f(path);
  if (f.fd < 0) return std::nullopt;
  char tail[kTailBytes];
  const uint64_t from = end > sizeof tail ? end - sizeof tail : 0;
  const ssize_t got = pread_upto(f.fd, tail, static_cast<size_t>(end - from), from);
  if (got < 0 || static_cast<uint64_t>(got) != end - from) return std::nullopt;  // shorter now than `end`
  return std::hash<std::string_view>{}(std::string_view(tail, static_cast<size_t>(got)));
}

bool appended_since(const std::string& path, uint64_t head_hash, uint64_t end, uint64_t tail_hash) {
  const auto head = head_hash_of(path);
  if (!head || *head != head_hash) return false;  // rewritten, not appended to
  const auto tail = tail_hash_of(path, end);
  return tail && *tail == tail_hash;  // cut back and grown again, else
}

}  // namespace csift
