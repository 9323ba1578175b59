// The whole-file gate's look at one block of whole lines (ClaudeCodeReader::skim): does a needle occur, and
// if not, how many of its lines would read() skip?
//
// Measured (bench/README.md, "The cold path"): answering both in one pass over cache-sized pieces of the
// block did not pay. The block (<= 1 MiB) stays in L2/L3 between the two looks and the validator is bound by
// its own work (~4 GB/s a core), not by memory, so the second look costs nothing extra; while a piecewise
// pass validates every piece before the one holding a needle, work the two-pass screen never does (a block
// with a needle goes to the full read, which validates it). What did pay is the validator finding each line's
// end itself (json_object_line_end), so a well-formed line is read once, not once by memchr and once to
// validate.
#pragma once
#include <cstdint>
#include <functional>
#include <string_view>

namespace csift {

struct BlockScreen {
  bool may_match = false;     // the predicate accepted the block (the counts are then 0)
  uint64_t malformed = 0;     // lines read() skips: not a well-formed object, or over kMaxRecordLineBytes
  uint64_t out_of_range = 0;  // numbers beyond a finite double in the well-formed lines
};

// `block` holds whole lines (a LineBlock's data). A block `may_match` accepts is reported as such and nothing
// else; otherwise its lines are counted.
BlockScreen screen_block(std::string_view block, const std::function<bool(std::string_view)>& may_match);

// The lines of `lines` read() would skip. Blank lines are not skipped; a final line without '\n' is a line.
BlockScreen count_malformed_lines(std::string_view lines);

}  // namespace csift
