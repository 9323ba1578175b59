// Reads chosen lines of a transcript again by where the reader saw them (LineRef): the targeted second read
// of a sparse search, which parses only the lines a pattern's needles point at and later fetches the few
// others an answer needs (a hit's tool partner, its turn's reply). Nearby lines are read in one pread.
#pragma once
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/scan/file_bytes.h"
#include "core/scan/line_scanner.h"

namespace csift {

// Calls fn(ref, bytes) for each ref, in the given order, which must be ascending by offset. Returns "" or
// what went wrong: the file cannot be read, or a line is no longer where it was (the file was rewritten
// rather than appended to), which the caller reports instead of answering from the wrong bytes.
std::string fetch_lines(const std::string& path, const std::vector<LineRef>& refs,
                        const std::function<void(const LineRef&, std::string_view)>& fn,
                        const CancelToken* cancel = nullptr);
// The same from the bytes the refs were taken from (file_bytes.h), `path` naming them in a message: nothing
// is read, and a ref that does not end a line in them is reported as a moved line is.
std::string fetch_lines(const FileBytes& bytes, const std::string& path, const std::vector<LineRef>& refs,
                        const std::function<void(const LineRef&, std::string_view)>& fn,
                        const CancelToken* cancel = nullptr);

}  // namespace csift
