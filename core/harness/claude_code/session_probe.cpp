#include "core/harness/claude_code/session_probe.h"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <filesystem>
#include <memory>
#include <optional>

#include "core/base/envelope.h"
#include "core/base/id_shapes.h"
#include "core/base/text.h"
#include "core/base/timefmt.h"
#include "core/harness/claude_code/classify.h"
#include "core/harness/claude_code/record_parser.h"
#include "core/record/record.h"
#include "core/scan/file_handle.h"
#include "core/scan/line_scanner.h"

namespace csift {
namespace {

// Head reads: 16 KiB at a time over the first 256 KiB, then 1 MiB at a time (the scanner's buffer still grows
// for a longer line).
constexpr size_t kHeadFirstChunkBytes = 16 * 1024;
constexpr uint64_t kHeadSmallReadsBytes = 256 * 1024;
constexpr size_t kHeadBulkChunkBytes = 1 << 20;
// The most bytes between the head and tail windows read just to give the tail anchors line numbers. Kept
// small: list promises to read heads and tails only (measured on the 1 GiB bench store, a 1 MiB allowance
// made the gap counts 35 MB of 169 MB read); past it the tail's line numbers are null.
constexpr uint64_t kLineNumberGapBytes = 64 * 1024;

// Raw-byte gate for "an assistant record with a text block": the `"text"` key/value survives JSON encoding
// unescaped only as structure, so a line without it cannot carry agent text.
bool may_be_agent_text(std::string_view line) {
  return line_has_role(line, "assistant") && contains(line, "\"text\"");
}

bool is_blank_text(std::string_view s) {
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return c == ' ' || c == '\n' || c == '\t' || c == '\r'; });
}

RecordParser& thread_parser() {
  thread_local RecordParser parser;
  return parser;
}

// One line of a head or tail window: blank lines pass, malformed ones are counted, and only lines the window
// wants are parsed. Every line read is checked in full exactly once (the check records the line's outer keys,
// which the turn-opener probe reads, and a wanted line is parsed without a second check), which keeps the
// malformed count within the windows exact. nullopt means there is nothing to take from the line.
template <class Wanted>
std::optional<Record> read_window_line(std::string_view line, RecordParser& parser, uint64_t& skipped,
                                       const Wanted& wanted) {
  if (line_is_blank(line)) return std::nullopt;
  thread_local std::vector<OuterKey> keys;
  if (line_shape_malformed(line) || !parser.validate_keyed(line, kLabelKeyDepth, keys)) {
    ++skipped;
    return std::nullopt;
  }
  if (!wanted(line, keys)) return std::nullopt;
  Record r;
  if (parser.parse_checked(line, r) != ParseStatus::ok) {
    ++skipped;
    return std::nullopt;
  }
  return r;
}

// The forward head window: identity first-seen facts, clone detection, and the first genuine user message.
class HeadWindow {
 public:
  HeadWindow(SessionProbe& probe, RecordParser& parser, bool main_lane)
      : probe_(probe), parser_(parser), main_lane_(main_lane) {}

  // Returns false once the first genuine user message is found (the head stops there).
  bool take(std::string_view line, uint64_t line_no, uint64_t offset) {
    auto parsed = read_window_line(
        line, parser_, probe_.skipped_lines,
        [this](std::string_view l, const std::vector<OuterKey>& keys) { return wanted(l, keys); });
    if (!parsed) return true;
    Record& r = *parsed;
    r.line = line_no;
    r.offset = offset;
    note_identity(r);
    if (main_lane_ && is_inline_sidechain(r)) return true;  // a subagent's record, not this lane's
    if (std::string text = agent_text(r); !is_blank_text(text)) last_agent = probed_anchor(r, text);
    if (!is_genuine_user(r)) return true;
    probe_.first_user = probed_anchor(r, user_text(r));
    return false;
  }

  ProbedMessage last_agent;  // the last agent text inside the head window (the tail's fallback)

 private:
  bool wanted(std::string_view line, const std::vector<OuterKey>& keys) const {
    return probe_.first_timestamp.empty() || (probe_.cwd.empty() && contains(line, "\"cwd\"")) ||
           (probe_.version_first.empty() && contains(line, "\"version\"")) ||
           (probe_.git_branch_first.empty() && contains(line, "\"gitBranch\"")) ||
           may_open_turn(line, keys) || may_be_agent_text(line);
  }

  void note_identity(const Record& r) {
    if (!r.timestamp.empty()) {
      if (probe_.first_timestamp.empty()) {
        probe_.first_timestamp = r.timestamp;
        probe_.is_clone = r.type == "system" && r.subtype == "compact_boundary";
        if (probe_.is_clone) probe_.clone_boundary_uuid = r.uuid;
      }
      probe_.last_timestamp = r.timestamp;
    }
    if (probe_.cwd.empty()) probe_.cwd = r.cwd;
    if (probe_.version_first.empty()) probe_.version_first = r.version;
    if (probe_.git_branch_first.empty()) probe_.git_branch_first = r.git_branch;
    if (!r.version.empty()) probe_.version_last = r.version;
    if (!r.git_branch.empty()) probe_.git_branch_last = r.git_branch;
  }

  SessionProbe& probe_;
  RecordParser& parser_;
  bool main_lane_;
};

// The backward tail window above the head's end: last-seen facts and the last user / agent anchors.
class TailWindow {
 public:
  TailWindow(SessionProbe& probe, RecordParser& parser, bool main_lane)
      : probe_(probe), parser_(parser), main_lane_(main_lane) {}

  // Returns false once both the last genuine user message and the last agent text are found.
  bool take(std::string_view line, uint64_t offset) {
    auto parsed = read_window_line(
        line, parser_, probe_.skipped_lines,
        [this](std::string_view l, const std::vector<OuterKey>& keys) { return wanted(l, keys); });
    if (!parsed) return true;
    Record& r = *parsed;
    r.offset = offset;
    if (last_timestamp.empty()) last_timestamp = r.timestamp;
    if (version.empty()) version = r.version;
    if (git_branch.empty()) git_branch = r.git_branch;
    if (main_lane_ && is_inline_sidechain(r)) return true;  // a subagent's record, not this lane's
    if (!last_user.found && is_genuine_user(r)) last_user = probed_anchor(r, user_text(r));
    if (!last_agent.found) {
      if (std::string text = agent_text(r); !is_blank_text(text)) last_agent = probed_anchor(r, text);
    }
    return !(last_user.found && last_agent.found);
  }

  ProbedMessage last_user, last_agent;
  std::string last_timestamp, version, git_branch;

 private:
  bool wanted(std::string_view line, const std::vector<OuterKey>& keys) const {
    return last_timestamp.empty() || (version.empty() && contains(line, "\"version\"")) ||
           (git_branch.empty() && contains(line, "\"gitBranch\"")) ||
           (!last_user.found && may_open_turn(line, keys)) || (!last_agent.found && may_be_agent_text(line));
  }

  SessionProbe& probe_;
  RecordParser& parser_;
  bool main_lane_;
};

// Walks one block of complete lines, keeping exact line ends so the head can report where it stopped.
bool feed_block(const LineBlock& block, HeadWindow& head, SessionProbe& probe) {
  const std::string_view data = block.data;
  uint64_t line_no = block.first_line;
  size_t pos = 0;
  while (pos < data.size()) {
    const void* nl_ptr = std::memchr(data.data() + pos, '\n', data.size() - pos);
    const size_t nl =
        nl_ptr ? static_cast<size_t>(static_cast<const char*>(nl_ptr) - data.data()) : data.size();
    std::string_view line = data.substr(pos, nl - pos);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    probe.head_lines = line_no;
    if (!head.take(line, line_no, block.offset + pos)) {
      probe.head_end = block.offset + nl + 1;
      return false;
    }
    pos = nl + 1;
    ++line_no;
  }
  return true;
}

// The head starts with small reads (the first genuine user usually sits in the first few KB) and switches to
// large ones once it is clearly walking a long prefix, or the whole file when no genuine user exists.
ProbedMessage read_head(const std::string& path, SessionProbe& probe, RecordParser& parser, bool main_lane) {
  HeadWindow head(probe, parser, main_lane);
  const BlockFn feed = [&](const LineBlock& block) { return feed_block(block, head, probe); };
  LineScanner small_reads(kHeadFirstChunkBytes);
  ScanStats stats = small_reads.scan(path, feed, 0, kHeadSmallReadsBytes);
  probe.bytes_read += stats.bytes;
  if (!stats.error.empty() || stats.stopped) {
    probe.error = stats.error;
    return head.last_agent;
  }
  uint64_t scan_begin = 0;  // where the last scan started: its bytes run from here
  if (stats.bytes == kHeadSmallReadsBytes) {
    // Resume at the start of the line the small-read window cut (or right after it when none was cut).
    const uint64_t resume_at = stats.torn_tail ? stats.torn_tail_offset : stats.bytes;
    const uint64_t resume_line = stats.torn_tail ? stats.torn_tail_line : stats.lines + 1;
    LineScanner large_reads(kHeadBulkChunkBytes);
    scan_begin = resume_at;
    stats = large_reads.scan(path, feed, resume_at, UINT64_MAX, resume_line);
    probe.bytes_read += stats.bytes;
  }
  if (!stats.error.empty()) {
    probe.error = stats.error;
  } else if (!stats.stopped) {
    // No genuine user anywhere: the head walked the file; a torn final line is left to the tail to count.
    probe.read_whole_file = true;
    probe.head_end = stats.torn_tail ? stats.torn_tail_offset : scan_begin + stats.bytes;
  }
  return head.last_agent;
}

void read_tail(const std::string& path, SessionProbe& probe, RecordParser& parser, bool main_lane,
               ProbedMessage head_last_agent) {
  TailWindow tail(probe, parser, main_lane);
  const ScanStats stats = scan_backward(
      path, [&](const LineView& view) { return tail.take(view.bytes, view.offset); }, probe.head_end);
  probe.bytes_read += stats.bytes;
  if (stats.torn_tail) ++probe.skipped_lines;
  if (!stats.error.empty() && probe.error.empty()) probe.error = stats.error;
  // The head stopped at the first genuine user, so a tail without one means the first is also the last.
  probe.last_user = tail.last_user.found ? tail.last_user : probe.first_user;
  probe.last_agent = tail.last_agent.found ? tail.last_agent : head_last_agent;
  if (!tail.last_timestamp.empty()) probe.last_timestamp = tail.last_timestamp;
  if (!tail.version.empty()) probe.version_last = tail.version;
  if (!tail.git_branch.empty()) probe.git_branch_last = tail.git_branch;
}

// Numbers the tail anchors when the unread gap between the windows is small enough to count through; beyond
// that, numbering would mean reading the file's middle, which list never does, so the line stays unknown.
void number_tail_anchors(const std::string& path, SessionProbe& probe) {
  uint64_t gap_end = 0;
  for (const ProbedMessage* m : {&probe.last_user, &probe.last_agent}) {
    if (m->found && m->line == 0 && m->offset >= probe.head_end) gap_end = std::max(gap_end, m->offset);
  }
  if (gap_end == 0 || gap_end - probe.head_end > kLineNumberGapBytes) return;
  // The gap is counted in chunks read into one reused per-thread buffer (no zero-filled copy of the gap).
  constexpr size_t kGapChunkBytes = 256 * 1024;
  thread_local std::unique_ptr<char[]> chunk(new char[kGapChunkBytes]);
  const FileHandle file(path);
  if (file.fd < 0) return;
  ProbedMessage* anchors[] = {&probe.last_user, &probe.last_agent};
  uint64_t lines[2] = {0, 0};
  uint64_t at = probe.head_end, newlines = 0;
  bool ok = true;
  while (ok && at < gap_end) {
    const auto n = static_cast<size_t>(std::min<uint64_t>(kGapChunkBytes, gap_end - at));
    if (pread_upto(file.fd, chunk.get(), n, at) != static_cast<ssize_t>(n)) {
      ok = false;
      break;
    }
    for (size_t k = 0; k < 2; ++k) {
      const ProbedMessage* m = anchors[k];
      if (lines[k] == 0 && m->found && m->line == 0 && m->offset >= at && m->offset <= at + n)
        lines[k] = probe.head_lines + newlines + count_newlines(chunk.get(), m->offset - at) + 1;
    }
    newlines += count_newlines(chunk.get(), n);
    at += n;
  }
  if (!ok) return;
  probe.bytes_read += gap_end - probe.head_end;
  for (size_t k = 0; k < 2; ++k) {
    ProbedMessage* m = anchors[k];
    if (lines[k] == 0 && m->found && m->line == 0 &&
        m->offset == at)  // an empty gap: right at the head's end
      lines[k] = probe.head_lines + newlines + 1;
    if (lines[k] != 0) m->line = lines[k];
  }
}

}  // namespace

ProbedMessage probed_anchor(const Record& r, std::string_view text) {
  const std::string flat = one_line(text);
  return ProbedMessage{true,        std::string(utf8_prefix(flat, kProbeAnchorChars)),
                       r.timestamp, r.line,
                       r.offset,    utf8_length(flat)};
}

std::string agent_text(const Record& r) {
  if (r.type != "assistant") return "";
  if (r.message.content_is_string) return r.message.content_string;
  std::string out;
  for (const Block& b : r.message.blocks) {
    if (b.kind != BlockKind::text || is_blank_text(b.text)) continue;
    if (!out.empty()) out += '\n';
    out += b.text;
  }
  return out;
}

SessionProbe probe_session(const std::string& path) {
  SessionProbe probe;
  RecordParser& parser = thread_parser();
  // A session file's isSidechain records (Claude Code 1.x inline subagents) are not its conversation; in an
  // agent-<id>.jsonl every record is the agent's own.
  const bool main_lane = agent_id_from_filename(std::filesystem::path(path).filename().string()).empty();
  ProbedMessage head_last_agent = read_head(path, probe, parser, main_lane);
  if (!probe.error.empty()) return probe;
  read_tail(path, probe, parser, main_lane, std::move(head_last_agent));
  number_tail_anchors(path, probe);
  return probe;
}

int64_t most_recent_activity(const SessionProbe& probe) {
  int64_t best = INT64_MIN;
  for (const ProbedMessage* m : {&probe.first_user, &probe.last_user, &probe.last_agent}) {
    if (!m->found) continue;
    if (auto t = parse_iso8601(m->timestamp)) best = std::max(best, *t);
  }
  if (best == INT64_MIN) {
    if (auto t = parse_iso8601(probe.last_timestamp)) best = *t;
  }
  return best;
}

}  // namespace csift
