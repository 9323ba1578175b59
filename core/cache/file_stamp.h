// A file's identity and version as stat(2) sees it: what every per-file memo of a long-lived server keys its
// validity on. Transcripts are append-only, so any write shows as a new size or mtime; a replaced file shows
// as a new inode.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

namespace csift {

struct FileStamp {
  uint64_t device = 0, inode = 0, size = 0;
  int64_t mtime_ns = 0;
  bool operator==(const FileStamp&) const = default;
};
// The file's stamp by stat(2), or nullopt when it cannot be stat'ed.
std::optional<FileStamp> stamp_file(const std::string& path);

}  // namespace csift
