// The Cursor reader: one front-to-back pass over the transcript's lines (transcripts are small; no parallel
// path), with every physical line accounted for: records + skipped + blank + declined == lines.
#include "core/harness/cursor/cursor_reader.h"

#include "core/harness/decoded_line_walk.h"
#include "core/scan/file_handle.h"
#include "core/scan/line_scanner.h"

namespace csift {

namespace {

bool cursor_blank(std::string_view s) {
  return s.find_first_not_of(" \t\r") == std::string_view::npos;
}

class CursorReader final : public TranscriptReader {
 public:
  std::string_view harness() const override { return kCursorHarness; }

  ReadStats read(const Transcript& t, const ReadOptions& opts, RecordSink& sink) const override {
    DecodedLineWalk walk{opts, sink, &decode_cursor_line, "malformed JSON: not a {...} object"};
    LineScanner scanner;
    const ScanStats scan = scanner.scan_lines(
        t.path,
        [&](const LineView& lv) {
          if (opts.sequential && opts.max_lines && walk.stats.lines >= opts.max_lines) return false;
          ++walk.stats.lines;
          if (cursor_blank(lv.bytes)) {
            ++walk.stats.blank_lines;
            walk.census("(blank)");
            return true;
          }
          if (!walk.line(lv.bytes, lv.line, lv.offset)) {
            walk.stats.stopped = true;
            return false;
          }
          return true;
        },
        opts.cancel);
    walk.stats.error = scan.error;
    walk.stats.bytes = scan.bytes;
    walk.stats.cancelled = opts.cancel && opts.cancel->is_cancelled();
    if (scan.torn_tail && !scan.stopped) {
      walk.stats.torn_tail = true;
      ++walk.stats.lines;
      walk.skip(scan.torn_tail_line, "torn final line (no newline)");
    }
    if (opts.on_bytes) opts.on_bytes(scan.bytes);
    return walk.stats;
  }

  bool decode(std::string_view line, Record& out, std::string& error) const override {
    return decode_cursor_line(line, out, error);
  }

  ScanStats read_raw_lines(const Transcript& t, const RawLineFn& fn,
                           const CancelToken* cancel) const override {
    return read_jsonl_raw_lines(t.path, fn, cancel);
  }

  TurnOpener turn_opener() const override { return &cursor_opens_turn; }
};

}  // namespace

const TranscriptReader& cursor_reader() {
  static const CursorReader reader;
  return reader;
}

}  // namespace csift
