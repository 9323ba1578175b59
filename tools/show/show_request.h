// The arguments of one `show` call, validated (SPEC.md §9.3): exactly one target, exactly one addressing
// mode, the span flags rejected with the rule, `--raw` exclusive with `--format json`.
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "core/base/envelope.h"
#include "core/base/timefmt.h"

namespace csift {

enum class ShowAddressMode { line, uuid, turn };

struct ShowRequest {
  std::string target;
  ShowAddressMode mode = ShowAddressMode::line;
  bool addressed = false;          // a line, uuid or turn was given (checked once the target resolves)
  std::vector<RangeSpec> lines;    // --line tokens (1-based), in the order given
  std::vector<std::string> uuids;  // --uuid values
  RangeSpec turns;                 // --turn (0-based)
  bool raw = false;
  bool json_format = false;
  size_t max_count = 200;  // record units (or lines under --raw); 0 = uncapped
  std::optional<std::string> claude_home;
};

inline constexpr size_t kDefaultShowCap = 200;

// Throws ToolError(usage) naming the rule a call breaks.
ShowRequest parse_show_request(const json& args);

// Throws ToolError(usage) when the call gave no address, naming the transcript `path` it resolved to.
void require_address(const ShowRequest& req, const std::string& path);

// The argument text of the address (`line 5,7..9`), the argument name an arg_ref() token.
std::string address_text(const ShowRequest& req);
// The address as show arguments ({"line": [...]}, {"uuid": [...]} or {"turn": ...}), for a follow-up call.
json address_args(const ShowRequest& req);

}  // namespace csift
