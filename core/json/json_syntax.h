// The one definition of a well-formed transcript line: a JSON object (RFC 8259 grammar, nesting at most
// 1024 deep, nothing but whitespace around it) whose strings may hold any bytes >= 0x20 and any \uXXXX
// escape. Text-encoding faults (invalid UTF-8, lone surrogate escapes) do not make a line malformed: the
// record parser reads such a line from a repaired copy (json_text_repair.h), so the validator need not look
// at them. It allocates nothing and skims string contents 32 bytes at a time, which is what lets the
// whole-file gate count malformed lines exactly at close to memory speed (SPEC.md, "Measured facts").
#pragma once
#include <cstddef>
#include <string_view>

namespace csift {

// The nesting bound simdjson enforces by default; a deeper line is malformed on every path.
inline constexpr size_t kMaxJsonDepth = 1024;
// A longer line is skipped as too large on every path (it is never parsed; the count says so).
inline constexpr size_t kMaxRecordLineBytes = size_t{64} << 20;

// True when `line` (no trailing newline) is one well-formed JSON object in the sense above. Its length is
// not checked here (see kMaxRecordLineBytes).
bool json_object_well_formed(std::string_view line);

}  // namespace csift
