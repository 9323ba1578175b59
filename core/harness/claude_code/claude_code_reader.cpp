// The Claude Code jsonl reader: LineScanner blocks -> Records, with every physical line accounted for
// (records + skipped + blank + non-candidate == lines). Files of 8 MiB and more are scanned as
// newline-aligned chunks on oneTBB workers, each chunk with its own RecordParser, and merged in chunk order.
#include <atomic>
#include <map>
#include <memory>
#include <mutex>

#include "core/harness/claude_code/record_parser.h"
#include "core/json/json_syntax.h"
#include "core/record/transcript_reader.h"

namespace csift {

namespace {

// Everything one chunk produced, merged in chunk order at the end.
struct ChunkResult {
  RecordParser parser;
  std::vector<Record> records;
  std::vector<SkippedLine> skipped;
  std::vector<LineRef> declined;
  uint64_t lines = 0, blank = 0, non_candidate = 0;
  std::map<std::string, uint64_t> types;
};

void count_type(ChunkResult& c, const ReadOptions& opts, const std::string& type) {
  if (opts.census_types) ++c.types[type.empty() ? "(untyped)" : type];
}

void skip_line(ChunkResult& c, const ReadOptions& opts, uint64_t line, std::string reason) {
  c.skipped.push_back({line, std::move(reason)});
  count_type(c, opts, "(malformed)");
}

void read_line(ChunkResult& c, const ReadOptions& opts, const LineView& lv, bool file_first_line) {
  ++c.lines;
  if (line_is_blank(lv.bytes)) {
    ++c.blank;
    count_type(c, opts, "(blank)");
    return;
  }
  bool candidate = !opts.want || (file_first_line && opts.parse_first_line) || opts.want(lv.bytes);
  if (!candidate) {
    // A declined line is still checked (json_syntax.h: allocation-free, near memory speed), so every reader
    // and the whole-file gate count the same malformed lines whatever they chose to parse.
    if (line_shape_malformed(lv.bytes))
      return skip_line(c, opts, lv.line, "malformed JSON: not a {...} object");
    if (!c.parser.validate(lv.bytes)) {
      const bool too_large = lv.bytes.size() > kMaxRecordLineBytes;
      return skip_line(c, opts, lv.line,
                       too_large ? c.parser.error() : "malformed JSON: " + c.parser.error());
    }
    ++c.non_candidate;
    if (opts.keep_declined) c.declined.push_back({lv.line, lv.offset, lv.bytes.size()});
    if (opts.census_types) count_type(c, opts, peek_type(lv.bytes));
    return;
  }
  Record r;
  r.line = lv.line;
  r.offset = lv.offset;
  ParseStatus status = c.parser.parse(lv.bytes, r);
  if (status == ParseStatus::too_large) return skip_line(c, opts, lv.line, c.parser.error());
  if (status == ParseStatus::malformed)
    return skip_line(c, opts, lv.line, "malformed JSON: " + c.parser.error());
  count_type(c, opts, r.type);
  c.records.push_back(std::move(r));
}

class ClaudeCodeReader final : public TranscriptReader {
 public:
  std::string_view harness() const override { return "claude-code"; }

  ReadResult read(const Transcript& t, const ReadOptions& opts) const override {
    std::mutex mu;
    std::map<size_t, std::unique_ptr<ChunkResult>> chunks;
    std::atomic<uint64_t> consumed{0};
    auto chunk_for = [&](size_t index) {
      std::lock_guard<std::mutex> lock(mu);
      auto& slot = chunks[index];
      if (!slot) slot = std::make_unique<ChunkResult>();
      return slot.get();
    };
    ChunkPlan plan;
    ScanStats stats = scan_parallel(
        t.path,
        [&](size_t index, const LineBlock& block) {
          ChunkResult* c = chunk_for(index);
          for_each_line(block, [&](const LineView& lv) {
            read_line(*c, opts, lv, index == 0 && lv.line == 1);
            return true;
          });
          uint64_t total = consumed.fetch_add(block.data.size()) + block.data.size();
          if (opts.on_bytes) {
            std::lock_guard<std::mutex> lock(mu);
            opts.on_bytes(total);
          }
          return !(opts.cancel && opts.cancel->is_cancelled());
        },
        &plan, opts.cancel);
    return merge(stats, plan, chunks, opts);
  }

 private:
  // Chunk-relative line numbers become file line numbers here (scan_parallel numbers each chunk from 1).
  static ReadResult merge(const ScanStats& stats, const ChunkPlan& plan,
                          std::map<size_t, std::unique_ptr<ChunkResult>>& chunks, const ReadOptions& opts) {
    ReadResult out;
    out.error = stats.error;
    out.bytes = stats.bytes;
    out.cancelled = stats.stopped || (opts.cancel && opts.cancel->is_cancelled());
    for (auto& [index, c] : chunks) {
      const uint64_t shift = index < plan.first_line.size() ? plan.first_line[index] - 1 : 0;
      for (auto& r : c->records)
        r.line += shift;
      for (auto& s : c->skipped)
        s.line += shift;
      for (auto& d : c->declined)
        d.line += shift;
      out.lines += c->lines;
      out.blank_lines += c->blank;
      out.non_candidate_lines += c->non_candidate;
      for (auto& r : c->records)
        out.records.push_back(std::move(r));
      for (auto& s : c->skipped)
        out.skipped.push_back(std::move(s));
      out.declined.insert(out.declined.end(), c->declined.begin(), c->declined.end());
      for (auto& [type, n] : c->types)
        out.line_types[type] += n;
    }
    if (stats.torn_tail) {
      // The scanner holds the final newline-less line back: it is a physical line, skipped and reported.
      out.torn_tail = true;
      ++out.lines;
      out.skipped.push_back({stats.torn_tail_line, "torn final line (no newline)"});
      if (opts.census_types) ++out.line_types["(torn)"];
    }
    out.skipped_lines = out.skipped.size();
    return out;
  }
};

}  // namespace

const TranscriptReader& claude_code_reader() {
  static const ClaudeCodeReader reader;
  return reader;
}

}  // namespace csift
