// Lines of a zstd-compressed file (Codex's `.jsonl.zst` rollouts), decompressed as a stream with Debian's
// libzstd and never written out: blocks of complete lines arrive as LineScanner delivers them from a plain
// file, numbered and offset in the decompressed stream, under the same bound on one held line
// (kMaxHeldLineBytes: a longer line arrives as its first kMaxHeldLineBytes and a '\n', the rest read past).
// What the plain scanner cannot meet — a frame that does not decode, or a file that ends inside a frame — is
// reported as `broken` with libzstd's reason, after every complete line before it was delivered.
#pragma once
#include <string>
#include <string_view>

#include "core/scan/line_scanner.h"

namespace csift {

// What stopped decompression is ScanStats::broken (with its line and offset), so it survives a caller that
// keeps only the ScanStats (TranscriptReader::read_raw_lines).
struct ZstdScanStats : ScanStats {
  std::string torn_tail_text;  // the torn final line's bytes (with torn_tail: a stream cannot be read back)
};

// A path a compressed reader reads: it ends in `.zst`.
bool is_zstd_path(std::string_view path);

// The words every tool reports a stream that stopped decoding in (ReadStats::unreadable): "from line N on:
// <reason> (that rest of the file is not read; the lines before it are)"; "" when it did not stop.
std::string unreadable_rest(const ScanStats& s);

// Decompresses `path` front to back, handing fn blocks of complete lines (as LineScanner::scan does).
ZstdScanStats scan_zstd_lines(const std::string& path, const BlockFn& fn,
                              const CancelToken* cancel = nullptr);

}  // namespace csift
