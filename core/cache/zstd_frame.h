// One zstd frame in memory, packed and unpacked through this thread's reused context: the disk cache's
// blobs (disk_cache.cpp) and a cover's kept texts (kept_texts.h). ZSTD_compress and ZSTD_decompress make and
// clear a fresh context (~100 KiB) per call, which was most of a fresh server's screen lookups.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

namespace csift {

// Appends `plain` to `out` as one level-1 frame that declares its size, with its content checksum when
// `checksum` (then a changed byte fails the unpack instead of unpacking to other bytes). False, with `out`
// as it was, when zstd fails.
bool append_zstd_frame(std::string& out, std::string_view plain, bool checksum);

// Unpacks `frame` into `out` (replacing what it held): false when the frame does not declare its size,
// declares more than `most_bytes` (a corrupt header must not make a process allocate gigabytes), does not
// decompress to exactly that size, or fails its checksum.
bool unpack_zstd_frame(std::string_view frame, uint64_t most_bytes, std::string& out);

}  // namespace csift
