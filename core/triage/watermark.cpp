#include "core/triage/watermark.h"

#include <fcntl.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>

#include "core/cache/file_stamp.h"
#include "core/record/transcript_reader.h"

namespace csift {
namespace {

struct WatermarkFd {
  int fd = -1;
  ~WatermarkFd() {
    if (fd >= 0) ::close(fd);
  }
};

std::string watermark_errno(const std::string& what, const std::string& path) {
  return what + " " + path + ": " + std::strerror(errno);
}

}  // namespace

std::string sha256_hex(std::string_view bytes) {
  std::unique_ptr<EVP_MD_CTX, void (*)(EVP_MD_CTX*)> ctx(EVP_MD_CTX_new(), &EVP_MD_CTX_free);
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  if (!ctx || EVP_DigestInit_ex(ctx.get(), EVP_sha256(), nullptr) != 1 ||
      EVP_DigestUpdate(ctx.get(), bytes.data(), bytes.size()) != 1 ||
      EVP_DigestFinal_ex(ctx.get(), digest, &length) != 1) {
    throw std::runtime_error("OpenSSL SHA-256 failed");
  }
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(length * 2);
  for (unsigned int i = 0; i < length; ++i) {
    out.push_back(kHex[digest[i] >> 4]);
    out.push_back(kHex[digest[i] & 0xf]);
  }
  return out;
}

void release_thread_hash_state() {
  OPENSSL_thread_stop();
}

WatermarkRead file_watermark(const std::string& path) {
  WatermarkRead out;
  WatermarkFd f;
  f.fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (f.fd < 0) {
    out.error = watermark_errno("cannot open", path);
    return out;
  }
  struct stat st {};
  if (::fstat(f.fd, &st) != 0) {
    out.error = watermark_errno("cannot stat", path);
    return out;
  }
  if (!S_ISREG(st.st_mode)) {
    out.error = path + " is not a regular file";
    return out;
  }
  out.mark.mtime_ns = stamp_of_stat(st).mtime_ns;
  const uint64_t file_size = static_cast<uint64_t>(st.st_size);
  // The last '\n', found block by block from the end.
  char block[65536];
  uint64_t end = file_size;
  while (end > 0 && out.mark.size == 0) {
    const uint64_t start = end > sizeof block ? end - sizeof block : 0;
    const ssize_t got = ::pread(f.fd, block, end - start, static_cast<off_t>(start));
    if (got < 0) {
      out.error = watermark_errno("cannot read", path);
      return out;
    }
    for (ssize_t i = got; i > 0; --i) {
      if (block[i - 1] == '\n') {
        out.mark.size = start + static_cast<uint64_t>(i);
        break;
      }
    }
    end = start;
  }
  if (out.mark.size == 0) return out;
  // The first line, which lies within the complete part.
  std::string first;
  uint64_t at = 0;
  while (at < out.mark.size) {
    const uint64_t want = std::min<uint64_t>(sizeof block, out.mark.size - at);
    const ssize_t got = ::pread(f.fd, block, want, static_cast<off_t>(at));
    if (got <= 0) {
      out.error = got < 0 ? watermark_errno("cannot read", path) : path + " shrank while it was read";
      return out;
    }
    const void* nl = std::memchr(block, '\n', static_cast<size_t>(got));
    if (nl) {
      first.append(block, static_cast<const char*>(nl) - block);
      break;
    }
    first.append(block, static_cast<size_t>(got));
    at += static_cast<uint64_t>(got);
  }
  out.mark.first_line_sha256 = sha256_hex(first);
  return out;
}

WatermarkRead transcript_watermark(const Transcript& t) {
  // A log its reader lays out in memory (a database's rows, a compressed rollout, a legacy Gemini CLI
  // document) is watermarked over the lines the reader gives, not the file's bytes.
  if (!reader_for(t).laid_out_in_memory(t)) return file_watermark(t.path);
  WatermarkRead out;
  out.mark.mtime_ns = t.mtime_ns;
  bool first = true;
  const ScanStats stats = reader_for(t).read_raw_lines(
      t,
      [&](const RawLine& line) {
        if (line.torn) return false;
        if (first) out.mark.first_line_sha256 = sha256_hex(line.bytes);
        first = false;
        out.mark.size = line.offset + line.bytes.size() + 1;
        return true;
      },
      nullptr);
  if (!stats.error.empty()) out.error = stats.error;
  return out;
}

}  // namespace csift
