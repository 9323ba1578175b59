#include "tools/status/lane_tail.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>

#include "core/harness/claude_code/classify.h"
#include "core/harness/claude_code/claude_fields.h"
#include "core/harness/claude_code/session_probe.h"
#include "core/record/transcript_reader.h"

namespace csift {
namespace {

struct RawWindow {
  std::string bytes;
  uint64_t from = 0;  // file offset of bytes[0]
  uint64_t size = 0;
  std::string error;
};

RawWindow read_range(const std::string& path, uint64_t from) {
  RawWindow w;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    w.error = "cannot open " + path;
    return w;
  }
  struct stat st {};
  if (::fstat(fd, &st) == 0) w.size = static_cast<uint64_t>(st.st_size);
  w.from = std::min(from, w.size);
  w.bytes.resize(w.size - w.from);
  size_t got = 0;
  while (got < w.bytes.size()) {
    const ssize_t n =
        ::pread(fd, w.bytes.data() + got, w.bytes.size() - got, static_cast<off_t>(w.from + got));
    if (n <= 0) break;
    got += static_cast<size_t>(n);
  }
  w.bytes.resize(got);
  ::close(fd);
  return w;
}

// Decodes each complete line of `bytes` (starting at file offset `base`) in order. Returns the offset after
// the last complete line.
template <class Fn>
uint64_t for_each_complete_line(const Transcript& t, std::string_view bytes, uint64_t base, uint64_t& skipped,
                                Fn&& fn) {
  const TranscriptReader& reader = reader_for(t);
  size_t pos = 0;
  while (pos < bytes.size()) {
    const size_t nl = bytes.find('\n', pos);
    if (nl == std::string_view::npos) break;  // a line still being written: held for the next read
    std::string_view line = bytes.substr(pos, nl - pos);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.find_first_not_of(" \t") != std::string_view::npos) {
      Record r;
      std::string error;
      if (reader.decode(line, r, error)) {
        r.offset = base + pos;
        r.length = line.size();
        fn(std::move(r));
      } else {
        ++skipped;
      }
    }
    pos = nl + 1;
  }
  return base + pos;
}

bool is_end_turn(const Record& r) {
  return r.message.stop_reason == "end_turn";
}

void note_record(LaneTail& tail, Record&& r) {
  ++tail.records;
  const auto at = parse_iso8601(r.timestamp);
  if (at && (!tail.last_record_at || *at > *tail.last_record_at)) tail.last_record_at = at;
  const bool assistant = r.type == "assistant";
  const bool user = r.type == "user";
  for (const auto& b : r.message.blocks) {
    if (b.kind == BlockKind::tool_use && !b.id.empty())
      tail.open_calls.push_back({b.id, b.name, b.input_json, at});
    if (b.kind == BlockKind::tool_result) {
      auto& calls = tail.open_calls;
      calls.erase(std::remove_if(calls.begin(), calls.end(),
                                 [&](const OpenCall& c) { return c.id == b.tool_use_id; }),
                  calls.end());
    }
  }
  // Claude Code before ~2.1.200 persists stop_reason null even on a turn's last message; the turn's end is
  // then the turn_duration / stop_hook_summary system record it writes right after (corpus: 0 end_turn
  // records in 2.1.39 files, 221 such markers).
  if (r.type == "system" && (r.subtype == "turn_duration" || r.subtype == "stop_hook_summary") &&
      tail.last_turn_record == LastTurnRecord::assistant_other && tail.open_calls.empty()) {
    tail.last_turn_record = LastTurnRecord::assistant_end_turn;
    tail.last_stop_reason = "end_turn";
    return;
  }
  if (assistant) {
    tail.saw_assistant = true;
    tail.last_stop_reason = r.message.stop_reason;
    tail.last_turn_record =
        is_end_turn(r) ? LastTurnRecord::assistant_end_turn : LastTurnRecord::assistant_other;
    tail.last_turn_record_at = at;
    if (std::string text = agent_text(r); !text.empty())
      tail.last_agent = {true, std::move(text), r.timestamp, r.offset};
  } else if (user && !is_compact_summary(r) && !cc(r).is_meta) {
    if (is_genuine_user(r)) {
      tail.last_turn_record = LastTurnRecord::human_prompt;
      tail.last_human = {true, user_text(r), r.timestamp, r.offset};
    } else if (is_task_notification_record(r)) {
      tail.last_turn_record = LastTurnRecord::notification;
    } else if (is_tool_result_carrier(r)) {
      tail.last_turn_record = LastTurnRecord::tool_result;
    } else {
      return;  // interrupt markers, command wrappers: not a turn's progress
    }
    tail.last_turn_record_at = at;
  }
}

}  // namespace

LaneTail read_lane_tail(const Transcript& t, uint64_t window) {
  LaneTail tail;
  struct stat st {};
  if (::stat(t.path.c_str(), &st) != 0) {
    tail.error = "cannot stat " + t.path;
    return tail;
  }
  const uint64_t size = static_cast<uint64_t>(st.st_size);
  RawWindow w = read_range(t.path, size > window ? size - window : 0);
  tail.error = w.error;
  tail.size = w.size;
  tail.window_from = w.from;
  std::string_view bytes = w.bytes;
  uint64_t base = w.from;
  if (w.from > 0) {  // the window starts mid-line: that partial line is not ours to read
    const size_t nl = bytes.find('\n');
    const size_t skip = nl == std::string_view::npos ? bytes.size() : nl + 1;
    bytes.remove_prefix(skip);
    base += skip;
  }
  const uint64_t end = for_each_complete_line(t, bytes, base, tail.skipped_lines, [&](Record&& r) {
    tail.window_records.push_back(r);
    note_record(tail, std::move(r));
  });
  tail.torn_tail = end < tail.size;
  return tail;
}

std::vector<Record> read_appended_records(const Transcript& t, uint64_t from, uint64_t& end,
                                          uint64_t& skipped) {
  std::vector<Record> out;
  const RawWindow w = read_range(t.path, from);
  end = for_each_complete_line(t, w.bytes, w.from, skipped, [&](Record&& r) { out.push_back(std::move(r)); });
  if (w.size < from) end = w.size;  // truncated or replaced: follow from its new end
  return out;
}

const char* lane_state_name(LaneState s) {
  switch (s) {
    case LaneState::in_flight:
      return "in-flight";
    case LaneState::generating:
      return "generating";
    case LaneState::settled:
      return "settled";
  }
  return "settled";
}

LaneState lane_state_of(const LaneTail& tail, EpochMs now) {
  if (!tail.open_calls.empty()) return LaneState::in_flight;
  const bool young = tail.last_record_at && now - *tail.last_record_at < kGeneratingWindowMs;
  if (young && tail.last_stop_reason != "end_turn") return LaneState::generating;
  return LaneState::settled;
}

}  // namespace csift
