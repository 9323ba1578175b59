#include "core/harness/opencode/opencode_reader.h"

#include "core/harness/opencode/opencode_fields.h"
#include "core/harness/opencode/opencode_log.h"
#include "core/json/json_syntax.h"

namespace csift {

namespace {

struct OpenCodeLineWalk {
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
  // One line of the log; false when the sink asks to stop.
  bool line(const std::string& bytes, uint64_t number, uint64_t offset) {
    const bool candidate = !opts.want || (number == 1 && opts.parse_first_line) || opts.want(bytes);
    if (!candidate) {
      size_t out_of_range = 0;
      if (!json_object_well_formed(bytes, &out_of_range)) {
        skip(number, "malformed JSON: the stored row is not a JSON object");
        return true;
      }
      ++stats.non_candidate_lines;
      stats.values_out_of_range += out_of_range;
      if (opts.keep_declined) sink.declined({number, offset, bytes.size()});
      census("(declined)");
      return true;
    }
    Record r;
    std::string error;
    if (!decode_opencode_line(bytes, r, error)) {
      skip(number, error);
      return true;
    }
    r.line = number;
    r.offset = offset;
    r.length = bytes.size();
    census(r.type);
    return sink.record(std::move(r));
  }
};

class OpenCodeReader final : public TranscriptReader {
 public:
  explicit OpenCodeReader(std::string_view harness) : harness_(harness) {}
  std::string_view harness() const override { return harness_; }

  ReadStats read(const Transcript& t, const ReadOptions& opts, RecordSink& sink) const override {
    const OpenCodeLog log = render_opencode_log(t);
    OpenCodeLineWalk walk{opts, sink, {}};
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
    ScanStats stats;
    stats.error = log.error;
    uint64_t offset = 0;
    for (size_t i = 0; i < log.lines.size(); ++i) {
      if (cancel && cancel->is_cancelled()) {
        stats.stopped = true;
        break;
      }
      ++stats.lines;
      stats.bytes += log.lines[i].size() + 1;
      if (!fn(RawLine{log.lines[i], i + 1, offset, false})) {
        stats.stopped = true;
        break;
      }
      offset += log.lines[i].size() + 1;
    }
    return stats;
  }

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
