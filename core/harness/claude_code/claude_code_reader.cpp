// The Claude Code jsonl reader: LineScanner blocks -> Records pushed into a RecordSink, with every physical
// line accounted for (records + skipped + blank + non-candidate == lines). Files of 8 MiB and more are
// scanned as newline-aligned chunks on oneTBB workers, each chunk pushed in file order as soon as it and the
// chunks before it are parsed (a bounded pipeline); a sequential read pushes each record as it is parsed.
#include "core/harness/claude_code/claude_code_reader.h"

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <variant>

#include "core/harness/claude_code/block_screen.h"
#include "core/harness/claude_code/classify.h"
#include "core/harness/claude_code/image_payloads.h"
#include "core/harness/claude_code/record_parser.h"
#include "core/json/json_syntax.h"
#include "core/scan/file_handle.h"

namespace csift {

namespace {

// The per-line counts one read (or one chunk of it) keeps.
struct LineTally {
  uint64_t lines = 0, blank = 0, non_candidate = 0, out_of_range = 0;
  std::map<std::string, uint64_t> types;
};

// Forwards straight to the sink (sequential reads).
struct SinkForward {
  RecordParser& parser;
  LineTally& tally;
  RecordSink& sink;
  uint64_t skipped = 0;
  bool record(Record&& r) { return sink.record(std::move(r)); }
  void skip(SkippedLine&& s) {
    ++skipped;
    sink.skipped(std::move(s));
  }
  void decline(const LineRef& ref) { sink.declined(ref); }
};

void count_type(LineTally& t, const ReadOptions& opts, const std::string& type) {
  if (opts.census_types) ++t.types[type.empty() ? "(untyped)" : type];
}

// One physical line: blank, declined (still checked for well-formedness), skipped, or a record. Returns false
// when the output asks to stop.
template <class Out>
bool read_line(Out& out, const ReadOptions& opts, const LineView& lv, bool file_first_line) {
  LineTally& t = out.tally;
  ++t.lines;
  if (line_is_blank(lv.bytes)) {
    ++t.blank;
    count_type(t, opts, "(blank)");
    return true;
  }
  const auto skip = [&](std::string reason) {
    out.skip({lv.line, std::move(reason)});
    count_type(t, opts, "(malformed)");
    return true;
  };
  const auto malformed = [&] {
    const bool too_large = lv.bytes.size() > kMaxRecordLineBytes;
    return skip(too_large ? out.parser.error() : "malformed JSON: " + out.parser.error());
  };
  const auto declined = [&] {  // a well-formed line left unparsed
    ++t.non_candidate;
    t.out_of_range += out.parser.values_out_of_range();
    if (opts.keep_declined) out.decline({lv.line, lv.offset, lv.bytes.size()});
    if (opts.census_types) count_type(t, opts, peek_type(lv.bytes));
    return true;
  };
  const bool candidate = opts.parses(lv.bytes, lv.line, file_first_line);
  const bool keyed = candidate && opts.want_keyed && !opts.forces(lv.line, file_first_line);
  Record r;
  r.line = lv.line;
  r.offset = lv.offset;
  bool enveloped = false;  // read from the keys (ReadOptions::Keyed::envelope), not parsed
  // A declined line is still checked (json_syntax.h: allocation-free, near memory speed), so every reader
  // and the whole-file gate count the same malformed lines whatever they chose to parse.
  if (!candidate || keyed) {
    if (line_shape_malformed(lv.bytes)) return skip("malformed JSON: not a {...} object");
    if (!candidate) return out.parser.validate(lv.bytes) ? declined() : malformed();
    // The check records the outer keys want_keyed decides by: a line it takes is parsed unchecked.
    thread_local std::vector<OuterKey> keys;
    if (!out.parser.validate_keyed(lv.bytes, opts.keyed_depth, keys)) return malformed();
    const ReadOptions::Keyed take = opts.want_keyed(lv.bytes, keys);
    if (take == ReadOptions::Keyed::decline) return declined();
    enveloped = take == ReadOptions::Keyed::envelope && envelope_of(lv.bytes, keys, r);
  }
  if (!enveloped) {
    // The parser is the thread's, shared by every read: its sparseness is this read's.
    out.parser.set_sparse(opts.payloads == ReadOptions::Payloads::skip);
    const ParseStatus status = keyed ? out.parser.parse_checked(lv.bytes, r) : out.parser.parse(lv.bytes, r);
    if (status == ParseStatus::too_large) return skip(out.parser.error());
    if (status == ParseStatus::malformed) return skip("malformed JSON: " + out.parser.error());
  }
  t.out_of_range += out.parser.values_out_of_range();
  count_type(t, opts, r.type);
  return out.record(std::move(r));
}

void add_tally(ReadStats& stats, const LineTally& t) {
  stats.lines += t.lines;
  stats.blank_lines += t.blank;
  stats.non_candidate_lines += t.non_candidate;
  stats.values_out_of_range += t.out_of_range;
  for (const auto& [type, n] : t.types)
    stats.line_types[type] += n;
}

// The scanner holds the final newline-less line back: it is a physical line, skipped and reported.
void account_torn_tail(const ScanStats& scan, const ReadOptions& opts, ReadStats& stats, RecordSink& sink) {
  if (!scan.torn_tail || stats.stopped) return;
  stats.torn_tail = true;
  stats.torn_tail_offset = scan.torn_tail_offset;
  ++stats.lines;
  ++stats.skipped_lines;
  sink.skipped({scan.torn_tail_line, "torn final line (no newline)"});
  if (opts.census_types) ++stats.line_types["(torn)"];
}

ReadStats read_sequential(const Transcript& t, const ReadOptions& opts, RecordSink& sink) {
  thread_local RecordParser parser;
  LineTally tally;
  SinkForward out{parser, tally, sink};
  bool stopped = false;
  uint64_t consumed = 0;
  LineScanner scanner;
  const ScanStats scan = scanner.scan(
      t.path,
      [&](const LineBlock& block) {
        for_each_line(block, [&](const LineView& lv) {
          stopped =
              !read_line(out, opts, lv, lv.line == 1) || (opts.max_lines && tally.lines >= opts.max_lines);
          return !stopped;
        });
        consumed += block.data.size();
        if (opts.on_bytes) opts.on_bytes(consumed);
        return !stopped && !(opts.cancel && opts.cancel->is_cancelled());
      },
      opts.begin, UINT64_MAX, opts.first_line, opts.cancel);
  ReadStats stats;
  stats.error = scan.error;
  stats.bytes = scan.bytes;
  stats.stopped = stopped;
  stats.cancelled = !stopped && (scan.stopped || (opts.cancel && opts.cancel->is_cancelled()));
  add_tally(stats, tally);
  stats.skipped_lines = out.skipped;
  account_torn_tail(scan, opts, stats, sink);
  return stats;
}

// What every chunk of one parallel read shares. Only deliver() touches `stats` and the sink after chunk 0,
// and deliveries never overlap, so neither needs a lock.
struct ParallelRead {
  ParallelRead(const ReadOptions& o, RecordSink& s) : opts(o), sink(s) {}
  const ReadOptions& opts;
  RecordSink& sink;
  ReadStats stats;
  std::atomic<uint64_t> consumed{0};
  std::mutex progress_mu;
};

// One chunk of a parallel read. Chunk 0 starts at line 1 and nothing precedes it, so it forwards each line's
// outcome straight to the sink (a small file, one chunk, streams like a sequential read); a later chunk holds
// its output, in line order, until deliver() shifts its chunk-relative line numbers to file numbers.
class ReadChunk final : public ChunkConsumer {
 public:
  // Made on the worker that scans the chunk, so the parser is that thread's.
  ReadChunk(ParallelRead& read, size_t index) : parser(worker_parser()), read_(read), direct_(index == 0) {}

  static RecordParser& worker_parser() {
    thread_local RecordParser p;
    return p;
  }

  bool block(const LineBlock& block) override {
    for_each_line(
        block, [&](const LineView& lv) { return read_line(*this, read_.opts, lv, direct_ && lv.line == 1); });
    const uint64_t total = read_.consumed.fetch_add(block.data.size()) + block.data.size();
    if (read_.opts.on_bytes) {
      std::lock_guard<std::mutex> lock(read_.progress_mu);
      read_.opts.on_bytes(total);
    }
    return !stopped_ && !(read_.opts.cancel && read_.opts.cancel->is_cancelled());
  }

  bool deliver(uint64_t first_line) override {
    add_tally(read_.stats, tally);
    read_.stats.skipped_lines += skipped_;
    const uint64_t shift = first_line - 1;
    for (auto& e : held_) {
      if (auto* r = std::get_if<Record>(&e)) {
        r->line += shift;
        if (!read_.sink.record(std::move(*r))) {
          stopped_ = true;
          break;
        }
      } else if (auto* sk = std::get_if<SkippedLine>(&e)) {
        sk->line += shift;
        read_.sink.skipped(std::move(*sk));
      } else {
        LineRef ref = std::get<LineRef>(e);
        ref.line += shift;
        read_.sink.declined(ref);
      }
    }
    held_.clear();
    if (stopped_) read_.stats.stopped = true;
    return !stopped_;
  }

  // read_line's output.
  RecordParser& parser;
  LineTally tally;
  bool record(Record&& r) {
    if (!direct_) {
      held_.emplace_back(std::move(r));
      return true;
    }
    stopped_ = !read_.sink.record(std::move(r));
    return !stopped_;
  }
  void skip(SkippedLine&& s) {
    ++skipped_;
    if (direct_)
      read_.sink.skipped(std::move(s));
    else
      held_.emplace_back(std::move(s));
  }
  void decline(const LineRef& ref) {
    if (direct_)
      read_.sink.declined(ref);
    else
      held_.emplace_back(ref);
  }

 private:
  ParallelRead& read_;
  const bool direct_;
  bool stopped_ = false;
  uint64_t skipped_ = 0;
  std::vector<std::variant<Record, SkippedLine, LineRef>> held_;  // line order
};

// Chunks are parsed on oneTBB workers and handed to the sink in file order as soon as each chunk and all
// before it are done, with a bounded number of chunks in flight: the read holds a few chunks' records, never
// the whole file's.
ReadStats finish_read(ParallelRead& read, const ScanStats& scan, const ReadOptions& opts, RecordSink& sink) {
  ReadStats& stats = read.stats;
  stats.error = scan.error;
  stats.bytes = scan.bytes;
  stats.cancelled = !stats.stopped && (scan.stopped || (opts.cancel && opts.cancel->is_cancelled()));
  account_torn_tail(scan, opts, stats, sink);
  return std::move(read.stats);
}

ReadStats read_parallel(const Transcript& t, const ReadOptions& opts, RecordSink& sink) {
  ParallelRead read(opts, sink);
  const ScanStats scan = scan_parallel_ordered(
      t.path, [&](size_t index) { return std::make_unique<ReadChunk>(read, index); }, opts.cancel,
      opts.parallel_threshold, opts.chunk_bytes);
  return finish_read(read, scan, opts, sink);
}

// The bytes the byte screen read (ReadOptions::preloaded): one chunk, as a file below the parallel threshold
// is read, scanned from memory.
ReadStats read_preloaded(const ReadOptions& opts, RecordSink& sink) {
  ParallelRead read(opts, sink);
  ReadChunk only(read, 0);
  ScanStats scan = scan_bytes(
      opts.preloaded->view(), [&](const LineBlock& block) { return only.block(block); }, opts.cancel);
  if (!only.deliver(1)) scan.stopped = true;
  return finish_read(read, scan, opts, sink);
}

// A file below this is skimmed from one read of it whole (file_bytes.h), the size under which a full read
// takes it as one chunk too.
constexpr uint64_t kSkimWholeBelow = uint64_t{8} << 20;

// The skim of a file read whole. The predicate is tried on every block first and the lines are checked only
// when no block holds a needle or marker: a file that goes on to the full read is checked there, so checking
// the blocks before its first hit (a fifth of the replica's bytes) was work done twice.
SkimResult skim_bytes(std::shared_ptr<const FileBytes> bytes,
                      const std::function<bool(std::string_view)>& block_may_match,
                      const std::function<double(std::string_view)>& line_share, const CancelToken* cancel,
                      bool count_malformed) {
  SkimResult out;
  const ScanStats scan = scan_bytes(
      bytes->view(),
      [&](const LineBlock& block) {
        if (!block_may_match(block.data)) return true;
        out.may_match = true;
        out.needle_line_share = line_share(block.data);
        return false;
      },
      cancel, /*numbered=*/false);
  out.cancelled = cancel && cancel->is_cancelled();
  if (out.may_match) {
    out.bytes = std::move(bytes);
    return out;
  }
  if (out.cancelled) return out;
  if (count_malformed) {  // every whole line at once: the blocks mattered only to the predicate
    const BlockScreen screen =
        count_malformed_lines(bytes->view().substr(0, scan.torn_tail ? scan.torn_tail_offset : bytes->size));
    out.skipped_lines += screen.malformed;
    out.values_out_of_range += screen.out_of_range;
  }
  out.skipped_lines += scan.torn_tail ? 1 : 0;
  out.torn_tail = scan.torn_tail;
  out.torn_tail_offset = scan.torn_tail_offset;
  return out;
}

class ClaudeCodeProbes final : public RawLineProbes {
 public:
  std::string peek_type(std::string_view line) const override { return csift::peek_type(line); }
  bool may_carry_message(std::string_view line) const override { return line_has_any_role(line); }
  bool may_open_turn(std::string_view line) const override { return csift::may_open_turn(line); }
  size_t label_key_depth() const override { return kLabelKeyDepth; }
  std::string_view keyed_type(std::string_view, const std::vector<OuterKey>& keys) const override {
    return keyed_record_type(keys).value_or(std::string_view());
  }
  bool may_open_turn(std::string_view line, const std::vector<OuterKey>& keys) const override {
    return csift::may_open_turn(line, keys);
  }
  bool may_carry_labels(std::string_view line, const std::vector<OuterKey>& keys,
                        LabelSet labels) const override {
    return (labels_bound(line, keys).bits & labels.bits) != 0;
  }
  bool mentions_tool_id(std::string_view line, const std::unordered_set<std::string>& ids) const override {
    for (std::string_view key : {"id", "tool_use_id"}) {
      for (std::string_view v : key_string_values(line, key))
        if (ids.count(std::string(v))) return true;
    }
    return false;
  }
  void sketchable_spans(std::string_view block,
                        const std::function<void(std::string_view)>& fn) const override {
    for_each_sketchable_span(block, fn);
  }
};

class ClaudeCodeReader final : public TranscriptReader {
 public:
  std::string_view harness() const override { return kClaudeCodeHarness; }

  ReadStats read(const Transcript& t, const ReadOptions& opts, RecordSink& sink) const override {
    if (opts.sequential || opts.begin || !opts.parse_lines.empty()) return read_sequential(t, opts, sink);
    return opts.preloaded ? read_preloaded(opts, sink) : read_parallel(t, opts, sink);
  }

  bool decode(std::string_view line, Record& out, std::string& error) const override {
    thread_local RecordParser parser;
    if (parser.parse(line, out) == ParseStatus::ok) return true;
    error = parser.error();
    return false;
  }

  ScanStats read_raw_lines(const Transcript& t, const RawLineFn& fn,
                           const CancelToken* cancel) const override {
    return read_jsonl_raw_lines(t.path, fn, cancel);
  }
  ScanStats read_raw_lines_from(const Transcript& t, uint64_t begin, uint64_t first_line, const RawLineFn& fn,
                                const CancelToken* cancel) const override {
    return read_jsonl_raw_lines(t.path, fn, cancel, begin, first_line);
  }
  bool raw_lines_are_file_lines() const override { return true; }

  // A block holds whole lines and no needle spans two, so a block the predicate refuses has no matching line;
  // its lines are still checked for well-formedness (block_screen.h), so the skipped count equals read()'s
  // (unless the caller knows that count already: count_malformed false).
  SkimResult skim(const Transcript& t, const std::function<bool(std::string_view)>& block_may_match,
                  const std::function<double(std::string_view)>& line_share, const CancelToken* cancel,
                  bool count_malformed) const override {
    if (auto bytes = read_small_file(t.path, kSkimWholeBelow))
      return skim_bytes(std::move(bytes), block_may_match, line_share, cancel, count_malformed);
    std::atomic<bool> hit{false};
    std::atomic<double> share{0};
    std::atomic<uint64_t> invalid{0};
    std::atomic<uint64_t> out_of_range{0};
    const ScanStats stats = scan_parallel(
        t.path,
        [&](size_t, const LineBlock& block) {
          if (cancel && cancel->is_cancelled()) return false;
          const BlockScreen screen = count_malformed ? screen_block(block.data, block_may_match)
                                                     : BlockScreen{block_may_match(block.data), 0, 0};
          if (screen.may_match) {
            share.store(line_share(block.data), std::memory_order_relaxed);
            hit.store(true, std::memory_order_relaxed);
            return false;
          }
          invalid.fetch_add(screen.malformed, std::memory_order_relaxed);
          out_of_range.fetch_add(screen.out_of_range, std::memory_order_relaxed);
          return true;
        },
        nullptr, cancel);
    SkimResult out;
    out.may_match = hit.load();
    out.cancelled = cancel && cancel->is_cancelled();
    out.error = stats.error;
    out.skipped_lines = invalid.load() + (stats.torn_tail ? 1 : 0);
    out.values_out_of_range = out_of_range.load();
    out.needle_line_share = share.load();
    out.torn_tail = stats.torn_tail;
    out.torn_tail_offset = stats.torn_tail_offset;
    return out;
  }

  // One sequential pass from `begin`: appended bytes are few, and their line numbers are not needed.
  SkimResult skim_from(const Transcript& t, uint64_t begin,
                       const std::function<bool(std::string_view)>& block_may_match,
                       const std::function<double(std::string_view)>& line_share,
                       const CancelToken* cancel) const override {
    SkimResult out;
    LineScanner scanner;
    const ScanStats stats = scanner.scan(
        t.path,
        [&](const LineBlock& block) {
          const BlockScreen screen = screen_block(block.data, block_may_match);
          if (screen.may_match) {
            out.may_match = true;
            out.needle_line_share = line_share(block.data);
            return false;
          }
          out.skipped_lines += screen.malformed;
          out.values_out_of_range += screen.out_of_range;
          return true;
        },
        begin, UINT64_MAX, 1, cancel);
    out.cancelled = cancel && cancel->is_cancelled();
    out.error = stats.error;
    out.torn_tail = stats.torn_tail;
    out.torn_tail_offset = stats.torn_tail_offset;
    if (stats.torn_tail) ++out.skipped_lines;
    return out;
  }

  TurnOpener turn_opener() const override { return &opens_turn; }
  TurnOpener foreign_lane(const Transcript& t) const override {
    return t.is_subagent ? nullptr : &is_inline_sidechain;
  }

  const RawLineProbes* raw_probes() const override {
    static const ClaudeCodeProbes probes;
    return &probes;
  }
};

}  // namespace

const TranscriptReader& claude_code_reader() {
  static const ClaudeCodeReader reader;
  return reader;
}

}  // namespace csift
