// FileHandle: a read-only descriptor closed on every exit path (the scanners' one way to open a file).
#pragma once
#include <fcntl.h>
#include <unistd.h>

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

}  // namespace csift
