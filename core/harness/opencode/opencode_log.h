// An OpenCode session laid out as a log: the rows of its database rendered in memory as one canonical JSON
// line per message, in the order OpenCode reads them back, so the line-based machinery (search's regex over
// raw lines, show's raw mode, line numbers and ranges) works on a database-backed session unchanged. A line
// number is therefore a message ordinal (1 = the session's first message), not a position in any file.
//
// OpenCode 1 (`message` + `part`): {"info": <message data with id and sessionID>, "parts": [<part data with
// id, messageID and sessionID>, ...], "directory": <session directory>} — OpenCode's own export shape, one
// message with its parts, ordered by (time_created, id) and parts by id.
// OpenCode 2 (`session_message`): {"id", "type", "seq", "time_created", "directory", "data": <row data>}, one
// row per line ordered by seq; `directory` is the session's directory in force at that row (a
// `location-switched` row moves it for the rows after it).
// In both, an inline file (a string over 256 bytes starting `data:`) keeps only its `data:<mime>;…` head and
// its size: the bytes stay in the database, never in the log.
#pragma once
#include <string>
#include <vector>

#include "core/record/transcript.h"

namespace csift {

struct OpenCodeLog {
  std::vector<std::string> lines;  // no newlines inside; a row whose data is not JSON is kept verbatim
  std::string error;               // the session could not be read (why)
};

// Renders `t` (harness opencode-v1 / opencode-v2, path = database, id = session id). The database and its
// `-wal` are checked before and after the read; a change reads once more, and a second change is an error.
OpenCodeLog render_opencode_log(const Transcript& t);

}  // namespace csift
