// The reader seam: a harness's reader reads one transcript and pushes what it finds into a sink, in file
// order, with exact line accounting (records + skipped + blank + declined == lines) — the Searcher -> Sink
// shape. Everything outside core/harness/<name>/ reads transcripts through this interface; the reader for a
// transcript is chosen by its harness (reader_for), and a new harness plugs in with one line in
// core/harness/readers.cpp.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "core/base/cancel.h"
#include "core/json/json_syntax.h"
#include "core/record/labels.h"
#include "core/record/record.h"
#include "core/record/transcript.h"
#include "core/record/turns.h"
#include "core/scan/file_bytes.h"
#include "core/scan/line_scanner.h"

namespace csift {

// An inclusive range of line numbers (1-based).
struct LineSpan {
  uint64_t lo = 0, hi = 0;
};
// Whether `line` lies in one of `spans`, which are sorted by `lo` and disjoint.
bool in_spans(const std::vector<LineSpan>& spans, uint64_t line);

struct SkippedLine {
  uint64_t line = 0;
  std::string reason;  // "malformed JSON: <what>", "torn final line (no newline)", "line too large"
};

// Where a read pushes what it finds, in file order. The callbacks may run on a worker thread (a large file
// is parsed in parallel chunks) but never two at once and always in file order, so a sink needs no lock.
// Returning false from record() stops the read: no later line reaches the sink, and the counts cover the
// lines consumed up to that record (a parallel read consumes whole chunks: the counts then cover the chunk
// holding that record).
class RecordSink {
 public:
  virtual ~RecordSink() = default;
  virtual bool record(Record&& r) = 0;
  // A line that is not a record: malformed, too large, or the torn final line.
  virtual void skipped(SkippedLine&& s) { (void)s; }
  // A well-formed line ReadOptions::want declined (only with keep_declined).
  virtual void declined(const LineRef& ref) { (void)ref; }
};

struct ReadOptions {
  // Decides from the raw bytes whether a line is parsed. Empty (and no parse_lines) = parse every non-blank
  // line. A declined line is still checked for well-formedness, so skipped_lines is the same whatever `want`
  // declines. It may run on several threads at once (large files are read in parallel chunks): keep it a
  // pure function.
  std::function<bool(std::string_view)> want;
  // Asked of a line `want` took (not one parsed whatever `want` says) once the line's well-formedness check
  // has recorded its outer keys, to container depth `keyed_depth` (json_syntax.h): `decline` counts the line
  // as declined, not checked again; `envelope` asks only for the record's envelope (type, uuid, timestamp,
  // isCompactSummary), which the reader takes from the keys when they hold it plainly and parses for
  // otherwise. Only a decision the keys settle, and pure like `want`. A reader may ignore it and parse the
  // line: a decline or an envelope only spares the parse.
  enum class Keyed { parse, decline, envelope };
  std::function<Keyed(std::string_view, const std::vector<OuterKey>&)> want_keyed;
  size_t keyed_depth = 0;
  // Parse the file's first line whatever `want` says (a /fork clone is known by its line 1).
  bool parse_first_line = false;
  // Parse the lines these spans name whatever `want` says: the lines a show address names. Only a
  // front-to-back read knows a line's number as it reads it, so a reader reads sequentially when these are
  // given.
  std::vector<LineSpan> parse_lines;
  // Push each well-formed declined line's position to the sink, for a later targeted read.
  bool keep_declined = false;
  // Count every physical line under its top-level record type (stats' line-type census).
  bool census_types = false;
  // Read front to back on the calling thread, pushing each record as soon as it is parsed: for sinks that
  // stop early. Otherwise a large file is parsed in parallel chunks, each pushed in file order as soon as it
  // and every chunk before it are parsed, with a few chunks in flight (the read never holds the whole file).
  bool sequential = false;
  // Files of parallel_threshold bytes and more are read in newline-aligned chunks of about chunk_bytes
  // (tests shrink both to exercise the chunked path on small files).
  uint64_t parallel_threshold = 8u << 20;
  uint64_t chunk_bytes = 4u << 20;
  // With sequential: stop after this many physical lines (a head window). 0 = no limit.
  uint64_t max_lines = 0;
  // Read from `begin`, the start of line `first_line`, to the end: the lines appended since an earlier read
  // that ended there. Honoured by a reader whose transcript is a file of lines (raw_lines_are_file_lines),
  // which then reads sequentially; line 1 is never read, so parse_first_line has nothing to parse.
  uint64_t begin = 0;
  uint64_t first_line = 1;
  // What a parsed record may leave out. full: everything the harness's reader models. skip: the bulky
  // payloads no count or turn rule reads may be left empty — tool call inputs, the raw JSON of tool results,
  // attachments and snapshots, thinking text, image sources — while the envelope (type, ids, parent,
  // timestamp, flags), message id / role / model / usage, block kinds, tool call ids and names, thinking
  // signatures, the user's text and a tool result's text and error flag are kept. Every line is still checked
  // for well-formedness, so the line accounting is the same either way. A reader may ignore it.
  enum class Payloads { full, skip };
  Payloads payloads = Payloads::full;
  const CancelToken* cancel = nullptr;
  // The file's bytes, as the byte screen already read them whole (SkimResult::bytes): a reader whose
  // transcript is a file of lines parses these instead of reading the file again. Not with `sequential` or
  // `begin`, which read the file.
  std::shared_ptr<const FileBytes> preloaded;
  // Called after each block with the bytes consumed so far (progress).
  std::function<void(uint64_t)> on_bytes;

  // Whether line `line` (its number in the file; `first_line`: it is the file's line 1) is parsed: every line
  // without `want`, else line 1 under parse_first_line, a line parse_lines names, or a line `want` takes.
  bool parses(std::string_view bytes, uint64_t line, bool first_line) const;
  // Whether line `line` is parsed whatever `want` and `want_keyed` say (parse_first_line, parse_lines).
  bool forces(uint64_t line, bool first_line) const;
};

struct ReadStats {
  uint64_t lines = 0;  // physical lines, the torn tail included
  uint64_t blank_lines = 0;
  uint64_t non_candidate_lines = 0;  // well-shaped lines opts.want declined (never parsed)
  uint64_t skipped_lines = 0;        // malformed + too large + torn tail
  // Numbers beyond a finite double (`1e400`) in the lines kept: each is read as absent, its record kept.
  uint64_t values_out_of_range = 0;
  bool torn_tail = false;
  uint64_t torn_tail_offset = 0;  // where the torn final line starts (with torn_tail)
  uint64_t bytes = 0;             // bytes read (from ReadOptions::begin), the torn tail's included
  std::map<std::string, uint64_t> line_types;  // when census_types ("(malformed)" / "(blank)" keys included)
  bool stopped = false;                        // the sink asked to stop
  bool cancelled = false;
  std::string error;  // the file could not be read
  // A compressed transcript whose stream stopped decoding part way (ScanStats::broken): "from line N on:
  // <libzstd's reason>" — that rest is one skipped line, and every line before it was read.
  std::string unreadable;
};

// Everything one read found, collected (the common case: a tool that needs the whole transcript).
struct ReadResult : ReadStats {
  std::vector<Record> records;       // file order
  std::vector<SkippedLine> skipped;  // each skipped line (line number and reason)
  std::vector<LineRef> declined;     // with keep_declined: the well-formed lines `want` declined, file order
};

// The physical lines of a transcript file verbatim (show's raw mode). Return false to stop.
struct RawLine {
  std::string_view bytes;  // without the '\n' (a torn final line: everything after the last '\n')
  uint64_t line = 0;       // 1-based
  uint64_t offset = 0;
  bool torn = false;  // the final line, with no newline
};
using RawLineFn = std::function<bool(const RawLine&)>;
// The physical lines of a JSON-lines file, the torn final line included (read back by position, as the scan
// reports it without its bytes): read_raw_lines for every harness whose transcript is a file of lines. From
// `begin`, the start of line `first_line`, when a caller knows where a later line starts.
ScanStats read_jsonl_raw_lines(const std::string& path, const RawLineFn& fn, const CancelToken* cancel,
                               uint64_t begin = 0, uint64_t first_line = 1);

// The whole-file byte screen a search runs before reading a transcript (core of its sparse path).
struct SkimResult {
  bool may_match = false;            // some block held a byte sequence the predicate accepts
  double needle_line_share = 0;      // from the first such block, the share of its lines that did
  uint64_t skipped_lines = 0;        // when !may_match: exactly the lines read() would skip
  uint64_t values_out_of_range = 0;  // when !may_match: exactly read()'s count
  bool torn_tail = false;            // when !may_match: the file ended in a line with no newline ...
  uint64_t torn_tail_offset = 0;     // ... starting here (counted in skipped_lines)
  bool cancelled = false;
  std::string error;
  // With may_match, when the skim read the file whole (a file below the parallel-read threshold): its bytes,
  // for the full read to parse (ReadOptions::preloaded) rather than read the file again.
  std::shared_ptr<const FileBytes> bytes;
};

// Cheap byte-level questions about one raw line of a harness's format, asked before any parse. A harness
// without them (a database-backed store) returns nullptr from raw_probes(), and callers read densely.
class RawLineProbes {
 public:
  virtual ~RawLineProbes() = default;
  // The record's top-level type by a cheap scan ("" when not found).
  virtual std::string peek_type(std::string_view line) const = 0;
  // Could this line carry a conversational message (a role marker)?
  virtual bool may_carry_message(std::string_view line) const = 0;
  // Could this line open a turn? Never false for an opener.
  virtual bool may_open_turn(std::string_view line) const = 0;
  // The container depth of the outer keys the keyed probes below read (ReadOptions::keyed_depth); 0 when this
  // harness has none (the probes then answer as for any line).
  virtual size_t label_key_depth() const { return 0; }
  // The record's type when the line's outer keys settle it (a view into the line), else "".
  virtual std::string_view keyed_type(std::string_view /*line*/,
                                      const std::vector<OuterKey>& /*keys*/) const {
    return {};
  }
  // may_open_turn, reading the outer keys instead of walking the line for them. Never false for an opener.
  virtual bool may_open_turn(std::string_view line, const std::vector<OuterKey>& /*keys*/) const {
    return may_open_turn(line);
  }
  // Whether the record of a well-formed line whose outer keys are `keys` may be classified with one of
  // `labels`, or make another record so: true unless the keys rule every one out.
  virtual bool may_carry_labels(std::string_view /*line*/, const std::vector<OuterKey>& /*keys*/,
                                LabelSet /*labels*/) const {
    return true;
  }
  // Does the line carry one of `ids` as a tool call id or a tool result's call id?
  virtual bool mentions_tool_id(std::string_view line, const std::unordered_set<std::string>& ids) const = 0;
  // The pieces of a block of whole lines that some record's searchable text can hold (a warm memo sketches
  // only these): the whole block unless the harness knows of bytes no search ever matches.
  virtual void sketchable_spans(std::string_view block,
                                const std::function<void(std::string_view)>& fn) const {
    fn(block);
  }
};

class TranscriptReader {
 public:
  virtual ~TranscriptReader() = default;
  virtual std::string_view harness() const = 0;
  // Reads the transcript front to back, pushing records (and skipped / declined lines) into the sink.
  virtual ReadStats read(const Transcript& t, const ReadOptions& opts, RecordSink& sink) const = 0;
  // Parses one line read again by position (a line an earlier read declined). On failure `error` says why.
  virtual bool decode(std::string_view line, Record& out, std::string& error) const = 0;
  // Every physical line verbatim, in order; returns the scan's statistics.
  virtual ScanStats read_raw_lines(const Transcript& t, const RawLineFn& fn,
                                   const CancelToken* cancel) const = 0;
  // The physical lines from line `first_line` on, whose first byte is at `begin` when the transcript is a
  // file of lines (a LineIndex of it says where): a harness that reads its file from there overrides this.
  // The default reads every line and skips those before `first_line`.
  virtual ScanStats read_raw_lines_from(const Transcript& t, uint64_t begin, uint64_t first_line,
                                        const RawLineFn& fn, const CancelToken* cancel) const;
  // Whether read_raw_lines delivers the file's own lines (not lines synthesized from a database).
  virtual bool raw_lines_are_file_lines() const { return false; }
  // Whether read_raw_lines lays `t` out in memory — a database's rows rendered as lines, a compressed stream
  // decompressed, a JSON document split into lines — rather than reading lines its file holds as they are: a
  // caller that reads the file's bytes itself (the watermark, SPEC.md §12.2) reads such a log through
  // read_raw_lines instead.
  virtual bool laid_out_in_memory(const Transcript& t) const {
    (void)t;
    return false;
  }
  // The byte screen: does any block of the file hold bytes `block_may_match` accepts? When none does, the
  // result carries the exact skipped-line count, unless `count_malformed` is false (a caller that already
  // knows the file's count: the lines are then not checked, and only a torn tail is counted). The default
  // says "may match" (read it all).
  virtual SkimResult skim(const Transcript& t, const std::function<bool(std::string_view)>& block_may_match,
                          const std::function<double(std::string_view)>& line_share,
                          const CancelToken* cancel, bool count_malformed = true) const;
  // The same screen over the bytes from `begin` (a line start) to the end of the file only: the lines
  // appended since a screen that ended there. The default says "may match" (read it all).
  virtual SkimResult skim_from(const Transcript& t, uint64_t begin,
                               const std::function<bool(std::string_view)>& block_may_match,
                               const std::function<double(std::string_view)>& line_share,
                               const CancelToken* cancel) const;
  virtual const RawLineProbes* raw_probes() const { return nullptr; }
  // The harness's turn-opening rule (turn numbering itself is harness-neutral: core/record/turns.h). Callers
  // number turns with turn_rule_of(t), which pairs it with foreign_lane.
  virtual TurnOpener turn_opener() const = 0;
  // Records of another lane written inline in `t` (Claude Code 1.x kept a subagent's records in the session
  // file, flagged isSidechain): they never open a turn and belong to none of t's turns. nullptr: none.
  virtual TurnOpener foreign_lane(const Transcript& t) const {
    (void)t;
    return nullptr;
  }
};

// The reader for a transcript's harness (core/harness/readers.cpp).
const TranscriptReader& reader_for(const Transcript& t);
// The turn rule of a transcript (its harness's opener and foreign lane): the one a tool numbers turns with.
inline TurnRule turn_rule_of(const Transcript& t) {
  const TranscriptReader& reader = reader_for(t);
  return TurnRule{reader.turn_opener(), reader.foreign_lane(t)};
}
// Every registered reader, for tests and discovery.
const std::vector<const TranscriptReader*>& registered_readers();

// Reads a whole transcript into memory through its harness's reader.
ReadResult read_transcript(const Transcript& t, const ReadOptions& opts);
// Where a read that began at `begin` ended its last complete line: what a result extended over appended lines
// resumes from (a torn final line is read again from its start).
inline uint64_t complete_end(const ReadStats& read, uint64_t begin) {
  return read.torn_tail ? read.torn_tail_offset : begin + read.bytes;
}
// Pushes each record to fn (false stops the read); skipped and declined lines are only counted.
ReadStats for_each_record(const Transcript& t, const ReadOptions& opts,
                          const std::function<bool(Record&&)>& fn);

}  // namespace csift
