// A small file read whole into memory, once. The search's byte screen reads a file below the parallel-read
// threshold whole; when a needle or marker sends the file on to the full read, that read parses these very
// bytes (and fetches its declined lines from them) instead of reading the file a second time. On the 3 GiB
// corpus replica the second read was 1.3 GiB of the 4.4 GiB an uncached absent-literal search read.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace csift {

struct FileBytes {
  std::unique_ptr<char[]> data;  // uninitialized storage, every byte of it read
  size_t size = 0;
  std::string_view view() const { return {data.get(), size}; }
};

// The file's bytes as of this read when it is smaller than `below` bytes; nullptr when it is not, or when it
// cannot be opened or read (the caller then reads it as a stream, which reports why). A file that grows
// while it is read is read up to the size it had when opened: the appended bytes are for the next call.
std::shared_ptr<const FileBytes> read_small_file(const std::string& path, uint64_t below);

}  // namespace csift
