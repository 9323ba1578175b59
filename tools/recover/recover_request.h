// The arguments of `recover` (SPEC.md §9.13), checked once: which file(s), which mode, which window of the
// transcripts replays, the cutoff of an `at` snapshot, and where the bytes go.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "core/base/envelope.h"
#include "core/base/timefmt.h"
#include "tools/common/scope_args.h"

namespace csift {

enum class RecoverMode { restore, salvage, patches, at, coverage };
const char* recover_mode_name(RecoverMode m);

// The point an `at` snapshot stops at: events after it are not replayed.
struct RecoverCutoff {
  enum class Kind { none, turn, line, instant } kind = Kind::none;
  int64_t value = 0;  // a turn, a line, or an instant (ms)
  std::string text;   // as given
};

struct RecoverRequest {
  RecoverMode mode = RecoverMode::restore;
  std::string file;  // as given ("@plan" included)
  std::string files_from, out, out_dir;
  bool force = false;
  RecoverCutoff cutoff;
  std::optional<RangeSpec> file_lines, turn;
  TimeWindow window;
  bool batch() const { return !files_from.empty(); }
};

RecoverRequest parse_recover_request(const json& args);
RecoverCutoff parse_cutoff(const std::string& text);

}  // namespace csift
