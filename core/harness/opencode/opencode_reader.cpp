#include "core/harness/opencode/opencode_reader.h"

#include "core/harness/decoded_line_walk.h"
#include "core/harness/opencode/opencode_fields.h"
#include "core/harness/opencode/opencode_log.h"

namespace csift {

namespace {

class OpenCodeReader final : public TranscriptReader {
 public:
  explicit OpenCodeReader(std::string_view harness) : harness_(harness) {}
  std::string_view harness() const override { return harness_; }

  ReadStats read(const Transcript& t, const ReadOptions& opts, RecordSink& sink) const override {
    const OpenCodeLog log = render_opencode_log(t);
    DecodedLineWalk walk{opts, sink, &decode_opencode_line,
                         "malformed JSON: the stored row is not a JSON object"};
    walk.stats.error = log.error;
    uint64_t offset = 0;
    for (size_t i = 0; i < log.lines.size(); ++i) {
      if (opts.cancel && opts.cancel->is_cancelled()) {
        walk.stats.cancelled = true;
        break;
      }
      if (opts.sequential && opts.max_lines && walk.stats.lines >= opts.max_lines) break;
      ++walk.stats.lines;
      walk.stats.bytes += log.lines[i].size() + 1;
      if (!walk.line(log.lines[i], i + 1, offset)) {
        walk.stats.stopped = true;
        break;
      }
      offset += log.lines[i].size() + 1;
    }
    if (opts.on_bytes) opts.on_bytes(walk.stats.bytes);
    return walk.stats;
  }

  bool decode(std::string_view line, Record& out, std::string& error) const override {
    return decode_opencode_line(line, out, error);
  }

  ScanStats read_raw_lines(const Transcript& t, const RawLineFn& fn,
                           const CancelToken* cancel) const override {
    const OpenCodeLog log = render_opencode_log(t);
    return walk_laid_out_lines(log.lines, log.error, fn, cancel);
  }

  // Every session is rows of a database (OpenCode 1's export too), rendered as lines.
  bool laid_out_in_memory(const Transcript&) const override { return true; }

  TurnOpener turn_opener() const override { return &opencode_opens_turn; }

 private:
  std::string_view harness_;
};

}  // namespace

const TranscriptReader& opencode_v1_reader() {
  static const OpenCodeReader reader(kOpenCodeV1Harness);
  return reader;
}

const TranscriptReader& opencode_v2_reader() {
  static const OpenCodeReader reader(kOpenCodeV2Harness);
  return reader;
}

}  // namespace csift
