// FileHandle: a read-only descriptor closed on every exit path (the scanners' one way to open a file), and
// pread_upto, their one way to read from it.
#pragma once
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <string>

namespace csift {

struct FileHandle {
  int fd = -1;
  explicit FileHandle(const std::string& path) : fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC)) {}
  ~FileHandle() {
    if (fd >= 0) ::close(fd);
  }
  FileHandle(const FileHandle&) = delete;
  FileHandle& operator=(const FileHandle&) = delete;
};

// Reads up to n bytes at `offset`, retrying short reads and EINTR: fewer than n only at end of file. Returns
// the bytes read, or -1 with errno set.
inline ssize_t pread_upto(int fd, char* dst, size_t n, uint64_t offset) {
  size_t done = 0;
  while (done < n) {
    const ssize_t r = ::pread(fd, dst + done, n - done, static_cast<off_t>(offset + done));
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) return -1;
    if (r == 0) break;
    done += static_cast<size_t>(r);
  }
  return static_cast<ssize_t>(done);
}

// The byte before `end` is a newline (or `end` is 0): a read that ended its last complete line there still
// finds its lines where it left them, so an extension may read on from `end`.
inline bool line_ends_at(const std::string& path, uint64_t end) {
  if (end == 0) return true;
  const FileHandle file(path);
  char last = 0;
  return file.fd >= 0 && pread_upto(file.fd, &last, 1, end - 1) == 1 && last == '\n';
}

}  // namespace csift
