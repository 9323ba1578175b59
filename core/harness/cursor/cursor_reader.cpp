// The Cursor reader: one front-to-back pass over the transcript's lines (transcripts are small; no parallel
// path), with every physical line accounted for: records + skipped + blank + declined == lines.
#include "core/harness/cursor/cursor_reader.h"

#include "core/json/json_syntax.h"
#include "core/scan/file_handle.h"
#include "core/scan/line_scanner.h"

namespace csift {

namespace {

bool cursor_blank(std::string_view s) {
  return s.find_first_not_of(" \t\r") == std::string_view::npos;
}

struct CursorWalk {
  const ReadOptions& opts;
  RecordSink& sink;
  ReadStats stats;

  void census(const std::string& type) {
    if (opts.census_types) ++stats.line_types[type.empty() ? "(untyped)" : type];
  }
  void skip(uint64_t line, std::string reason) {
    ++stats.skipped_lines;
    census("(malformed)");
    sink.skipped({line, std::move(reason)});
  }
  bool line(const LineView& lv) {
    ++stats.lines;
    if (cursor_blank(lv.bytes)) {
      ++stats.blank_lines;
      census("(blank)");
      return true;
    }
    const bool candidate = !opts.want || (lv.line == 1 && opts.parse_first_line) || opts.want(lv.bytes);
    if (!candidate) {
      size_t out_of_range = 0;
      if (!json_object_well_formed(lv.bytes, &out_of_range)) {
        skip(lv.line, "malformed JSON: not a {...} object");
        return true;
      }
      ++stats.non_candidate_lines;
      stats.values_out_of_range += out_of_range;
      if (opts.keep_declined) sink.declined({lv.line, lv.offset, lv.bytes.size()});
      census("(declined)");
      return true;
    }
    Record r;
    std::string error;
    if (!decode_cursor_line(lv.bytes, r, error)) {
      skip(lv.line, error);
      return true;
    }
    r.line = lv.line;
    r.offset = lv.offset;
    r.length = lv.bytes.size();
    census(r.type);
    return sink.record(std::move(r));
  }
};

class CursorReader final : public TranscriptReader {
 public:
  std::string_view harness() const override { return kCursorHarness; }

  ReadStats read(const Transcript& t, const ReadOptions& opts, RecordSink& sink) const override {
    CursorWalk walk{opts, sink, {}};
    LineScanner scanner;
    const ScanStats scan = scanner.scan_lines(
        t.path,
        [&](const LineView& lv) {
          if (opts.sequential && opts.max_lines && walk.stats.lines >= opts.max_lines) return false;
          if (!walk.line(lv)) {
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
