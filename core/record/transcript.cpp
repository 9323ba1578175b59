// The Transcript value's two out-of-line pieces: a shape's name and why an entry cannot be read as one.
#include "core/record/transcript.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>

namespace csift {

std::optional<std::string> irregular_entry_reason(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    if (S_ISREG(st.st_mode)) return std::nullopt;
    if (S_ISDIR(st.st_mode)) return "a directory, not a transcript file";
    if (S_ISFIFO(st.st_mode)) return "a FIFO, not a regular file (never opened: reading it could block)";
    if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)) return "a device, not a regular file (never opened)";
    if (S_ISSOCK(st.st_mode)) return "a socket, not a regular file";
    return "not a regular file";
  }
  const int err = errno;
  struct stat link {};
  if (::lstat(path.c_str(), &link) == 0 && S_ISLNK(link.st_mode)) {
    if (err == ELOOP) return "a symlink loop (too many levels of symbolic links)";
    if (err == ENOENT) return "a dangling symlink (its target does not exist)";
  }
  return std::string("cannot stat: ") + std::strerror(err);
}

const char* shape_name(TranscriptShape s) {
  switch (s) {
    case TranscriptShape::session:
      return "session";
    case TranscriptShape::builtin_task:
      return "builtin-task";
    case TranscriptShape::workflow:
      return "workflow";
    case TranscriptShape::teammate:
      return "teammate";
    case TranscriptShape::legacy_flat:
      return "legacy-flat";
  }
  return "session";
}

}  // namespace csift
