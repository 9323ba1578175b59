#include "core/harness/claude_code/block_screen.h"

#include <cstring>

#include "core/harness/claude_code/record_parser.h"
#include "core/json/json_syntax.h"

namespace csift {

namespace {

// One line read()'s way: blank lines are not skipped; an overlong one is; every other must be well formed.
void count_line(std::string_view line, BlockScreen& screen) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  size_t out_of_range = 0;
  if (!line_is_blank(line) &&
      (line.size() > kMaxRecordLineBytes || !json_object_well_formed(line, &out_of_range)))
    ++screen.malformed;
  screen.out_of_range += out_of_range;
}

}  // namespace

// A well-formed line (nearly every line) is validated straight from the block, the validator finding its end;
// only the rest are looked for their newline and decided by count_line.
BlockScreen count_malformed_lines(std::string_view lines) {
  BlockScreen screen;
  const char* p = lines.data();
  const char* end = p + lines.size();
  while (p < end) {
    size_t out_of_range = 0;
    const char* stop = json_object_line_end(p, end, &out_of_range);
    if (stop && static_cast<size_t>(stop - p) <= kMaxRecordLineBytes) {
      screen.out_of_range += out_of_range;
    } else {
      const char* nl = static_cast<const char*>(std::memchr(p, '\n', static_cast<size_t>(end - p)));
      stop = nl ? nl : end;
      count_line(std::string_view(p, static_cast<size_t>(stop - p)), screen);
    }
    p = stop + 1;
  }
  return screen;
}

BlockScreen screen_block(std::string_view block, const std::function<bool(std::string_view)>& may_match) {
  if (may_match(block)) return BlockScreen{true, 0, 0};
  return count_malformed_lines(block);
}

}  // namespace csift
