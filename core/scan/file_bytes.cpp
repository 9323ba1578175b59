#include "core/scan/file_bytes.h"

#include <sys/stat.h>

#include "core/scan/file_handle.h"

namespace csift {

std::shared_ptr<const FileBytes> read_small_file(const std::string& path, uint64_t below) {
  const FileHandle file(path);
  struct stat st {};
  if (file.fd < 0 || ::fstat(file.fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < 0 ||
      static_cast<uint64_t>(st.st_size) >= below)
    return nullptr;
  auto out = std::make_shared<FileBytes>();
  out->size = static_cast<size_t>(st.st_size);
  out->data = std::make_unique_for_overwrite<char[]>(out->size);
  const ssize_t got = pread_upto(file.fd, out->data.get(), out->size, 0);
  if (got < 0) return nullptr;
  out->size = static_cast<size_t>(got);  // fewer when it was truncated meanwhile
  return out;
}

}  // namespace csift
