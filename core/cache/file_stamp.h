// A file's identity and version as stat(2) sees it: what every per-file memo of a long-lived server keys its
// validity on. Transcripts are append-only, so any write shows as a new size or mtime; a replaced file shows
// as a new inode.
#pragma once
#include <sys/stat.h>

#include <cstdint>
#include <optional>
#include <string>

namespace csift {

struct FileStamp {
  uint64_t device = 0, inode = 0, size = 0;
  int64_t mtime_ns = 0;
  bool operator==(const FileStamp&) const = default;
};
// The stamp a stat(2) result describes.
FileStamp stamp_of_stat(const struct stat& st);
// The file's stamp by stat(2), or nullopt when it cannot be stat'ed.
std::optional<FileStamp> stamp_file(const std::string& path);
// CLOCK_REALTIME in nanoseconds: the clock file timestamps are taken from, so "how long ago was it written"
// is `realtime_ns() - stamp.mtime_ns`.
int64_t realtime_ns();
// Whether a file stamped so may still grow: written in the last day (a live session, a subagent still
// running), or not stamped at all. Only such a file's remembered results keep the state an append resumes
// from (a stats tally's fold, a label census's classifier state): that state is a large share of them (the
// fold 4 KB of a ~19 KB tally on the corpus replica), and an idle file that does grow is read afresh once,
// with the same answer.
bool likely_to_grow(const std::optional<FileStamp>& stamp);
// The bytes of a file's first line its head hash covers.
inline constexpr size_t kHeadBytes = 4096;
// The hash of the file's first line (up to kHeadBytes), or nullopt when it cannot be read: a memo extending
// a grown file's entry checks it, since a file rewritten in place keeps its device and inode.
std::optional<uint64_t> head_hash_of(const std::string& path);
// The bytes before a read's end its tail hash covers.
inline constexpr size_t kTailBytes = 4096;
// The hash of the bytes before `end` (up to kTailBytes; a read's last complete line ends there), or nullopt
// when they cannot be read. The head hash alone lets through a file cut back to a line and grown past `end`
// again, a line ending exactly there: its device, inode and first line are unchanged and the byte before
// `end` is a newline, yet the remembered part is gone (the soak met it). Only these bytes tell.
std::optional<uint64_t> tail_hash_of(const std::string& path, uint64_t end);
// The file at `path` is, past its stamp's say, the one an earlier read saw with more lines appended: its
// first line still hashes to `head_hash` and the bytes before `end` (where that read's last complete line
// ended) still hash to `tail_hash`. What every extension of a grown file's remembered result checks before
// it reads on.
bool appended_since(const std::string& path, uint64_t head_hash, uint64_t end, uint64_t tail_hash);
// The same file (device and inode), larger now: what a memo may extend over the appended bytes instead of
// recomputing (after checking the first line's hash, which a rewrite changes).
inline bool grew_from(const FileStamp& was, const FileStamp& now) {
  return was.device == now.device && was.inode == now.inode && was.size < now.size;
}

}  // namespace csift
