// The arguments of one `image` call (SPEC.md §9.9), validated: `id` tokens (bare handle digits or
// `L<line>i<n>` locators; `#N` is refused with the reason), the disambiguating windows (turn, uuid,
// since/until), `out` (a directory, or one file whose extension picks the format) and `attach`.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/base/envelope.h"
#include "core/base/timefmt.h"
#include "tools/common/scope_args.h"

namespace csift {

struct ImageId {
  std::string text;               // as given
  std::optional<int64_t> handle;  // bare digits: the `#N` handle
  uint64_t line = 0;              // a locator's line ...
  int ordinal = 0;                // ... and image ordinal
};

struct ImageRequest {
  std::vector<ImageId> ids;
  std::optional<RangeSpec> turns;
  std::string uuid_prefix;
  TimeWindow window;
  std::string out;  // "" = list only
  bool attach = false;
};

// Throws ToolError(usage) naming what is wrong with an argument.
ImageRequest parse_image_request(const json& args);
ImageId parse_image_id(const std::string& token);

}  // namespace csift
