#include "core/cache/zstd_frame.h"

#include <zstd.h>

#include <memory>

namespace csift {

bool append_zstd_frame(std::string& out, std::string_view plain, bool checksum) {
  thread_local std::unique_ptr<ZSTD_CCtx, size_t (*)(ZSTD_CCtx*)> cctx(ZSTD_createCCtx(), ZSTD_freeCCtx);
  if (!cctx || ZSTD_isError(ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_compressionLevel, 1)) ||
      ZSTD_isError(ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_checksumFlag, checksum ? 1 : 0)))
    return false;
  const size_t at = out.size();
  out.resize(at + ZSTD_compressBound(plain.size()));
  const size_t n = ZSTD_compress2(cctx.get(), out.data() + at, out.size() - at, plain.data(), plain.size());
  if (ZSTD_isError(n)) {
    out.resize(at);
    return false;
  }
  out.resize(at + n);
  return true;
}

bool unpack_zstd_frame(std::string_view frame, uint64_t most_bytes, std::string& out) {
  const unsigned long long size = ZSTD_getFrameContentSize(frame.data(), frame.size());
  if (size == ZSTD_CONTENTSIZE_ERROR || size == ZSTD_CONTENTSIZE_UNKNOWN || size > most_bytes) return false;
  out.resize(static_cast<size_t>(size));
  thread_local std::unique_ptr<ZSTD_DCtx, size_t (*)(ZSTD_DCtx*)> dctx(ZSTD_createDCtx(), ZSTD_freeDCtx);
  const size_t n = dctx ? ZSTD_decompressDCtx(dctx.get(), out.data(), out.size(), frame.data(), frame.size())
                        : ZSTD_decompress(out.data(), out.size(), frame.data(), frame.size());
  return !ZSTD_isError(n) && n == out.size();
}

}  // namespace csift
