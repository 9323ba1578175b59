// A transcript's FileStamp as discovery's stat(2) saw it, so a per-file memo need not stat it again.
#pragma once
#include <optional>

#include "core/cache/file_stamp.h"
#include "core/store/store.h"

namespace csift {

// nullopt when discovery did not stat the file (inode 0): the memo then stats it itself. The same rule as
// the search prefilter's skim.
inline std::optional<FileStamp> discovered_stamp(const Transcript& t) {
  if (t.inode == 0) return std::nullopt;
  return FileStamp{t.device, t.inode, t.size, t.mtime_ns};
}

}  // namespace csift
