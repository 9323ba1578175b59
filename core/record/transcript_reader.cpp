#include "core/record/transcript_reader.h"

#include <algorithm>

#include "core/scan/file_handle.h"

namespace csift {

namespace {

class CollectingSink final : public RecordSink {
 public:
  explicit CollectingSink(ReadResult& out) : out_(out) {}
  bool record(Record&& r) override {
    out_.records.push_back(std::move(r));
    return true;
  }
  void skipped(SkippedLine&& s) override { out_.skipped.push_back(std::move(s)); }
  void declined(const LineRef& ref) override { out_.declined.push_back(ref); }

 private:
  ReadResult& out_;
};

class FunctionSink final : public RecordSink {
 public:
  explicit FunctionSink(const std::function<bool(Record&&)>& fn) : fn_(fn) {}
  bool record(Record&& r) override { return fn_(std::move(r)); }

 private:
  const std::function<bool(Record&&)>& fn_;
};

}  // namespace

SkimResult TranscriptReader::skim(const Transcript&, const std::function<bool(std::string_view)>&,
                                  const std::function<double(std::string_view)>&, const CancelToken*,
                                  bool) const {
  SkimResult out;
  out.may_match = true;
  return out;
}

SkimResult TranscriptReader::skim_from(const Transcript&, uint64_t,
                                       const std::function<bool(std::string_view)>&,
                                       const std::function<double(std::string_view)>&,
                                       const CancelToken*) const {
  SkimResult out;
  out.may_match = true;
  return out;
}

ScanStats TranscriptReader::read_raw_lines_from(const Transcript& t, uint64_t, uint64_t first_line,
                                                const RawLineFn& fn, const CancelToken* cancel) const {
  return read_raw_lines(
      t, [&](const RawLine& line) { return line.line < first_line || fn(line); }, cancel);
}

ScanStats read_jsonl_raw_lines(const std::string& path, const RawLineFn& fn, const CancelToken* cancel,
                               uint64_t begin, uint64_t first_line) {
  LineScanner scanner;
  const LineFn each = [&](const LineView& lv) { return fn(RawLine{lv.bytes, lv.line, lv.offset, false}); };
  ScanStats stats = scanner.scan(
      path, [&](const LineBlock& block) { return for_each_line(block, each); }, begin, UINT64_MAX, first_line,
      cancel);
  if (!stats.torn_tail || stats.stopped || !stats.error.empty()) return stats;
  std::string bytes(stats.torn_tail_bytes, '\0');
  const FileHandle file(path);
  const ssize_t n =
      file.fd < 0 ? -1 : pread_upto(file.fd, bytes.data(), bytes.size(), stats.torn_tail_offset);
  if (n < 0) {
    stats.error = "cannot read the torn final line";
    return stats;
  }
  bytes.resize(static_cast<size_t>(n));
  fn(RawLine{bytes, stats.torn_tail_line, stats.torn_tail_offset, true});
  return stats;
}

// Room for a record per KiB of the bytes to read, reserved up front: a record is ~630 bytes, and the last
// doubling of a growing vector held both buffers at once (82 MB for the generated store's 120 MB session, the
// peak of a counted common-word search). Capacity no record fills is address space, never touched.
constexpr uint64_t kBytesPerReservedRecord = 1024;
constexpr size_t kMaxReservedRecords = size_t{1} << 22;

bool in_spans(const std::vector<LineSpan>& spans, uint64_t line) {
  const auto it = std::upper_bound(spans.begin(), spans.end(), line,
                                   [](uint64_t v, const LineSpan& s) { return v < s.lo; });
  return it != spans.begin() && line <= std::prev(it)->hi;
}

bool ReadOptions::parses(std::string_view bytes, uint64_t line, bool first_line) const {
  if (!want && parse_lines.empty()) return true;
  if (forces(line, first_line)) return true;
  return want && want(bytes);
}

bool ReadOptions::forces(uint64_t line, bool first_line) const {
  return (first_line && parse_first_line) || in_spans(parse_lines, line);
}

ReadResult read_transcript(const Transcript& t, const ReadOptions& opts) {
  ReadResult out;
  if (t.size > opts.begin)
    out.records.reserve(static_cast<size_t>(
        std::min<uint64_t>((t.size - opts.begin) / kBytesPerReservedRecord, kMaxReservedRecords)));
  CollectingSink sink(out);
  static_cast<ReadStats&>(out) = reader_for(t).read(t, opts, sink);
  return out;
}

ReadStats for_each_record(const Transcript& t, const ReadOptions& opts,
                          const std::function<bool(Record&&)>& fn) {
  FunctionSink sink(fn);
  return reader_for(t).read(t, opts, sink);
}

}  // namespace csift
