// The one definition of a well-formed transcript line: a JSON object (RFC 8259 grammar, nesting at most
// 1024 deep, nothing but whitespace around it) whose strings may hold any bytes >= 0x20 and any \uXXXX
// escape. Text-encoding faults (invalid UTF-8, lone surrogate escapes) do not make a line malformed: the
// record parser reads such a line from a repaired copy (json_text_repair.h), so the validator need not look
// at them. It allocates nothing and skims string contents 64 bytes at a time (escapes found as one
// bit mask), which is what lets the whole-file gate count malformed lines exactly at close to memory speed.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace csift {

// The nesting bound simdjson enforces by default; a deeper line is malformed on every path.
inline constexpr size_t kMaxJsonDepth = 1024;
// A longer line is skipped as too large on every path (it is never parsed; the count says so).
inline constexpr size_t kMaxRecordLineBytes = size_t{64} << 20;

// True when `line` (no trailing newline) is one well-formed JSON object in the sense above. Its length is
// not checked here (see kMaxRecordLineBytes). RFC 8259 puts no bound on numbers, so `1e400` is well formed;
// `out_of_range`, when given, receives how many of the line's numbers lie beyond a finite double — every
// reader treats such a value as absent and counts it (values_out_of_range), and the record stays.
bool json_object_well_formed(std::string_view line, size_t* out_of_range = nullptr);
// A key of one of a line's outer objects, as the validator met it: its name's bytes between the quotes
// (escapes verbatim), its value's bytes (a string with its quotes, a container whole, a scalar's token), the
// container depth of its object (1: the line's own object; its message's keys are at 2, the objects in that
// message's content array at 4) and which object it belongs to (an ordinal, the same for keys of one object).
struct OuterKey {
  std::string_view name;
  std::string_view value;
  uint32_t depth = 0;
  uint32_t object = 0;
};
inline constexpr size_t kMaxOuterDepth = 7;
// json_object_well_formed, recording on the way every key of the objects at container depth <= max_depth
// (at most kMaxOuterDepth), in
// order, in `keys` (emptied when the line is not well formed): one pass tells both whether a line is a record
// and where its outer keys are, where a probe for them would walk the line again.
bool json_object_outer_keys(std::string_view line, size_t max_depth, std::vector<OuterKey>& keys,
                            size_t* out_of_range = nullptr);
// The same test on the line starting at `p` in a block of lines [p, end), without first finding where the
// line ends: the validator stops at the line's '\n' on its own (no JSON token holds one), so a screen that
// counts a block's malformed lines reads each well-formed line once instead of once for memchr and once to
// validate. Returns the line's end (its '\n', or `end`) when the line, less its '\n', is well formed as
// json_object_well_formed says; nullptr when it is not, or is blank (the caller then finds the line's end
// itself and decides). `out_of_range` as above.
const char* json_object_line_end(const char* p, const char* end, size_t* out_of_range = nullptr);
// The index just past the bracket that closes the container opened at `open` (a '{' or '['), or npos when
// it runs off the end. Lenient, as a byte probe must be: strings are told by unescaped quotes and brackets
// inside them are ignored, nothing else is checked. It reads 64 bytes at a time, so a probe looking for a
// key after a long nested value (a record's "type" after its "message") jumps over the value instead of
// walking its strings one by one.
size_t json_container_end(std::string_view s, size_t open);
// The same rules a byte at a time: the definition json_container_end must match (tests), and what a CPU
// without AVX2 takes. Unlike the 64-byte walk it ignores a backslash outside a string (no well-formed line
// has one).
size_t json_container_end_bytewise(std::string_view s, size_t open);
// The index just past the quote closing the JSON string opened at `open`, the string checked as the
// validator checks strings (no raw control byte, valid escapes); npos when it is not well formed or runs off
// the end.
size_t json_string_end(std::string_view s, size_t open);
// True when a JSON number token's magnitude exceeds the largest finite double (underflow is not overflow:
// 1e-400 reads as 0).
bool json_number_overflows(std::string_view token);

}  // namespace csift
