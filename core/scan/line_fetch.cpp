#include "core/scan/line_fetch.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>

#include "core/scan/file_handle.h"

namespace csift {
namespace {

// Lines closer than this are read together (reading the gap is cheaper than another system call).
constexpr uint64_t kCoalesceGap = 64 * 1024;
// A merged read stops growing here (a single longer line is still read whole).
constexpr uint64_t kMaxReadBytes = 8u << 20;

// The bytes of a line end with '\n' (or "\r\n", the reader's LineRef length excludes the '\r').
bool ends_line(std::string_view after) {
  return !after.empty() && (after[0] == '\n' || (after.size() > 1 && after[0] == '\r' && after[1] == '\n'));
}

std::string moved_line(const std::string& path, const LineRef& ref) {
  return path + " changed while it was read: line " + std::to_string(ref.line) + " is no longer at byte " +
         std::to_string(ref.offset);
}

}  // namespace

std::string fetch_lines(const FileBytes& bytes, const std::string& path, const std::vector<LineRef>& refs,
                        const std::function<void(const LineRef&, std::string_view)>& fn,
                        const CancelToken* cancel) {
  const std::string_view have = bytes.view();
  for (const LineRef& ref : refs) {
    if (cancel && cancel->is_cancelled()) return "";
    if (ref.offset + ref.length >= have.size() || !ends_line(have.substr(ref.offset + ref.length)))
      return moved_line(path, ref);
    fn(ref, have.substr(ref.offset, ref.length));
  }
  return "";
}

std::string fetch_lines(const std::string& path, const std::vector<LineRef>& refs,
                        const std::function<void(const LineRef&, std::string_view)>& fn,
                        const CancelToken* cancel) {
  if (refs.empty()) return "";
  FileHandle file(path);
  if (file.fd < 0) return "cannot open " + path + ": " + std::strerror(errno);
  // Grown, never zero-filled: every byte used is read first (a resized string's fill was 2-3 % of a cold
  // common-word count).
  std::unique_ptr<char[]> buf;
  size_t capacity = 0;
  for (size_t i = 0; i < refs.size();) {
    if (cancel && cancel->is_cancelled()) return "";
    // One read covers refs[i, j): each next line starts within the gap and the read stays bounded.
    size_t j = i + 1;
    const uint64_t begin = refs[i].offset;
    uint64_t end = refs[i].offset + refs[i].length + 2;
    while (j < refs.size() && refs[j].offset <= end + kCoalesceGap &&
           refs[j].offset + refs[j].length + 2 - begin <= kMaxReadBytes) {
      end = std::max(end, refs[j].offset + refs[j].length + 2);
      ++j;
    }
    const auto want = static_cast<size_t>(end - begin);
    if (want > capacity) {
      capacity = std::max(want, capacity * 2);
      buf = std::make_unique_for_overwrite<char[]>(capacity);
    }
    // The last line of a file may have only its '\n' after it: read what exists.
    const ssize_t got = pread_upto(file.fd, buf.get(), want, begin);
    if (got < 0) return "cannot read " + path + ": " + std::strerror(errno);
    const std::string_view have(buf.get(), static_cast<size_t>(got));
    for (size_t k = i; k < j; ++k) {
      const uint64_t at = refs[k].offset - begin;
      if (at + refs[k].length >= have.size() || !ends_line(have.substr(at + refs[k].length)))
        return moved_line(path, refs[k]);
      fn(refs[k], have.substr(at, refs[k].length));
    }
    i = j;
  }
  return "";
}

}  // namespace csift
