// The decompressed stream is cut into lines as it arrives: the bytes after the last newline wait for the next
// output, so memory holds one partial line (at most kMaxHeldLineBytes) plus libzstd's buffers, whatever the
// file's size. Concatenated frames decode as one stream, as the zstd CLI does.
#include "core/scan/zstd_lines.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include <cerrno>
#include <cstring>
#include <memory>
#include <optional>
#include <vector>

namespace csift {

namespace {

struct ZstdFd {
  int fd = -1;
  ~ZstdFd() {
    if (fd >= 0) ::close(fd);
  }
};

struct ZstdDctxFree {
  void operator()(ZSTD_DCtx* c) const { ZSTD_freeDCtx(c); }
};

// Cuts decompressed output into blocks of whole lines, holding the partial last line.
class ZstdLineCutter {
 public:
  ZstdLineCutter(const BlockFn& fn, ZstdScanStats& stats) : fn_(fn), stats_(stats) {}

  // Takes `n` more bytes of the stream; false when fn asked to stop.
  bool feed(const char* p, size_t n) {
    stats_.bytes += n;
    while (n > 0) {
      if (skipping_) {  // the rest of a line over the held bound: read past, never held
        const void* nl = std::memchr(p, '\n', n);
        const size_t upto = nl ? static_cast<size_t>(static_cast<const char*>(nl) - p) + 1 : n;
        offset_ += upto;
        p += upto;
        n -= upto;
        if (nl) skipping_ = false;
        continue;
      }
      const size_t room = kMaxHeldLineBytes - held_.size();
      const size_t take = n < room ? n : room;
      const size_t before = held_.size();
      held_.append(p, take);
      p += take;
      n -= take;
      if (!deliver_lines(before)) return false;
      if (held_.size() >= kMaxHeldLineBytes) {
        // One line longer than the bound: its first kMaxHeldLineBytes and a newline, as LineScanner does.
        const uint64_t held_bytes = held_.size();
        held_.push_back('\n');
        if (!fn_(LineBlock{held_, line_, offset_})) return stopped();
        ++stats_.lines;
        ++line_;
        offset_ += held_bytes;
        held_.clear();
        skipping_ = true;
      }
    }
    return true;
  }

  // The end of a clean stream: what is held is a torn final line.
  void finish() {
    if (held_.empty() || skipping_) return;
    stats_.torn_tail = true;
    stats_.torn_tail_line = line_;
    stats_.torn_tail_offset = offset_;
    stats_.torn_tail_bytes = held_.size();
    stats_.torn_tail_text = held_;
  }

  // Decompression stopped: the held bytes start the line that will not be read.
  void broke(std::string why) {
    stats_.broken = std::move(why);
    stats_.broken_line = line_;
    stats_.broken_offset = offset_;
  }

 private:
  // Delivers every complete line held: only the bytes from `from` on, appended since, can hold a newline.
  bool deliver_lines(size_t from) {
    const size_t last = held_.rfind('\n');
    if (last == std::string::npos || last < from) return true;
    const std::string_view block(held_.data(), last + 1);
    const uint64_t lines = count_newlines(block.data(), block.size());
    if (!fn_(LineBlock{block, line_, offset_})) return stopped();
    stats_.lines += lines;
    line_ += lines;
    offset_ += block.size();
    held_.erase(0, last + 1);
    return true;
  }

  bool stopped() {
    stats_.stopped = true;
    return false;
  }

  const BlockFn& fn_;
  ZstdScanStats& stats_;
  std::string held_;
  uint64_t line_ = 1;
  uint64_t offset_ = 0;
  bool skipping_ = false;
};

}  // namespace

std::string unreadable_rest(const ScanStats& s) {
  if (s.broken.empty()) return "";
  return "from line " + std::to_string(s.broken_line) + " on: " + s.broken +
         " (that rest of the file is not read; the lines before it are)";
}

bool is_zstd_path(std::string_view path) {
  return path.ends_with(".zst");
}

ZstdScanStats scan_zstd_lines(const std::string& path, const BlockFn& fn, const CancelToken* cancel) {
  ZstdScanStats stats;
  ZstdFd f;
  f.fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (f.fd < 0) {
    stats.error = std::string("cannot open: ") + std::strerror(errno);
    return stats;
  }
  struct stat st {};
  if (::fstat(f.fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    stats.error = "not a regular file";
    return stats;
  }
  std::unique_ptr<ZSTD_DCtx, ZstdDctxFree> dctx(ZSTD_createDCtx());
  if (!dctx) {
    stats.error = "cannot create a zstd decompression context";
    return stats;
  }
  std::vector<char> in(ZSTD_DStreamInSize());
  std::vector<char> out(ZSTD_DStreamOutSize());
  ZstdLineCutter cutter(fn, stats);
  size_t last_ret = 0;  // 0: the last frame ended cleanly (or none began)
  bool any_input = false;
  // One call of libzstd on `input`: its output fed to the line cutter. The bytes it produced, or nullopt when
  // the read ends here (a corrupt frame, named as the skipped line, or a sink that stopped).
  auto decompress_step = [&](ZSTD_inBuffer& input) -> std::optional<size_t> {
    ZSTD_outBuffer output{out.data(), out.size(), 0};
    const size_t ret = ZSTD_decompressStream(dctx.get(), &output, &input);
    if (ZSTD_isError(ret)) {
      cutter.broke(std::string("corrupt zstd frame: ") + ZSTD_getErrorName(ret));
      return std::nullopt;
    }
    last_ret = ret;
    if (output.pos > 0 && !cutter.feed(out.data(), output.pos)) return std::nullopt;
    return output.pos;
  };
  for (;;) {
    if (cancel && cancel->is_cancelled()) {
      stats.stopped = true;
      return stats;
    }
    const ssize_t got = ::read(f.fd, in.data(), in.size());
    if (got < 0) {
      if (errno == EINTR) continue;
      stats.error = std::string("cannot read: ") + std::strerror(errno);
      return stats;
    }
    if (got == 0) break;
    any_input = true;
    ZSTD_inBuffer input{in.data(), static_cast<size_t>(got), 0};
    while (input.pos < input.size)
      if (!decompress_step(input).has_value()) return stats;
  }
  // Output libzstd still holds for input already consumed (none once a frame ended: last_ret 0; asked then,
  // libzstd answers with the size of the next frame's header it expects).
  while (last_ret != 0) {
    ZSTD_inBuffer input{nullptr, 0, 0};
    const std::optional<size_t> produced = decompress_step(input);
    if (!produced) return stats;
    if (*produced < out.size()) break;
  }
  if (any_input && last_ret != 0) {
    cutter.broke("truncated zstd frame: the file ends inside a frame");
    return stats;
  }
  cutter.finish();
  return stats;
}

}  // namespace csift
