// The tail state machine of one transcript (the seed's §6.13 surface 2): the last bytes of the file, complete
// lines only, read back through the transcript's reader. What a live verdict needs from a lane: the calls
// still unreturned, the last assistant stop_reason, the newest record instant and the last messages.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/base/timefmt.h"
#include "core/record/record.h"
#include "core/store/store.h"

namespace csift {

// How much of a transcript's end a live read looks at.
inline constexpr uint64_t kLaneTailWindow = 512 * 1024;
// A lane whose newest record is younger than this, and whose last assistant message did not end its turn,
// is still generating (the seed's v0.9.4 lane rule: recency and stop_reason together).
inline constexpr int64_t kGeneratingWindowMs = 300 * 1000;

struct OpenCall {
  std::string id;
  std::string name;
  std::string input_json;
  std::optional<EpochMs> at;
};

struct TailMessage {
  bool found = false;
  std::string text;
  std::string timestamp;
  uint64_t line_offset = 0;  // byte offset of its line (line numbers are unknown in a tail window)
};

// What the last conversational record (a user or assistant message; other records are growth, not activity)
// was.
enum class LastTurnRecord {
  none,
  human_prompt,
  tool_result,
  notification,
  assistant_end_turn,
  assistant_other
};

struct LaneTail {
  std::string error;         // the file could not be read ("" when it was)
  uint64_t size = 0;         // the file's size when read
  uint64_t window_from = 0;  // where the window started (0 = the whole file was read)
  uint64_t records = 0;
  uint64_t skipped_lines = 0;        // malformed complete lines in the window
  bool torn_tail = false;            // the file ends in a line still being written (held back, not read)
  std::vector<OpenCall> open_calls;  // tool_use blocks with no tool_result yet, oldest first
  std::string last_stop_reason;      // of the last assistant record ("" when null)
  bool saw_assistant = false;
  LastTurnRecord last_turn_record = LastTurnRecord::none;
  std::optional<EpochMs> last_record_at;       // the newest record timestamp in the window
  std::optional<EpochMs> last_turn_record_at;  // the last conversational record's
  TailMessage last_human;
  TailMessage last_agent;
  std::vector<Record> window_records;  // every record read (the sidecar ghost guard and callers' joins)
};

// Reads the last `window` bytes of `t` (complete lines only).
LaneTail read_lane_tail(const Transcript& t, uint64_t window = kLaneTailWindow);

// Reads complete lines of `t` in [from, size); `end` receives the offset after the last complete line read.
// Malformed lines are counted in `skipped`.
std::vector<Record> read_appended_records(const Transcript& t, uint64_t from, uint64_t& end,
                                          uint64_t& skipped);

// In-flight (an unreturned call), generating (young tail, no end_turn) or settled.
enum class LaneState { in_flight, generating, settled };
const char* lane_state_name(LaneState s);
LaneState lane_state_of(const LaneTail& tail, EpochMs now);

}  // namespace csift
