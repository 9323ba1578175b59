// Envelope v2 (SPEC.md §6): a header row first, kind-tagged rows, a summary row last, on every path.
#pragma once
#include <nlohmann/json.hpp>

#include <functional>
#include <string>
#include <vector>

namespace csift {

using json = nlohmann::ordered_json;

// A payload a transport that carries media delivers beside the text (MCP `image` content): never part of the
// rows, which describe it.
struct MediaAttachment {
  std::string mime_type;
  std::string base64;
};

struct Envelope {
  json header = json::object();   // {"kind":"header","command":...}
  std::vector<json> rows;         // each carries "kind"
  json summary = json::object();  // {"kind":"summary", ...}
  // Notes a CLI prints on stderr (zero-match diagnosis, lane notes, cautions). The MCP text rendering appends
  // them; JSON consumers find the same facts as summary fields.
  std::vector<std::string> notes;
  bool is_error = false;
  std::vector<MediaAttachment> media;  // only when ToolContext::accepts_media (tools/common/tool.h)
  // Rows after `rows` that the tool makes only when a page shows them (a long listing whose page shows a
  // few): the pager (tools/dispatch/invoke_tool.cpp) makes the ones a page can hold and counts the rest among
  // the rows it omits. No other reader of an envelope sees deferred rows: a tool defers only under the pager.
  struct DeferredRows {
    size_t count = 0;                       // rows not made yet
    size_t next = 0;                        // the index make() is given next (0 for the first)
    std::function<json(size_t)> make;       // the row at an index
    std::function<void(Envelope&)> settle;  // once the pager is done making rows: counters of the
                                            // rows made (e.g. the memo's hits); writes numbers only
  };
  DeferredRows deferred;

  static Envelope make(std::string command);
  json& add_row(std::string kind);
  // {"header":{...},"rows":[...],"summary":{...}} (the MCP structuredContent shape)
  json to_object() const;
  // header line, row lines, summary line (the CLI --format json NDJSON stream)
  std::string to_ndjson() const;
};

// An error envelope: header + summary carrying {"error":{"kind","message"}}.
Envelope error_envelope(const std::string& command, const std::string& kind, const std::string& message);

// Serializes JSON; invalid UTF-8 in strings is replaced (U+FFFD), never thrown. indent -1 = one compact line.
std::string dump_json(const json& j, int indent = -1);
// A string field of a row: an absent (empty) value is null, never omitted and never "".
json string_or_null(const std::string& s);

// Truncates text to an excerpt of at most `max_chars` code points with an explicit `… (+N chars)` marker.
std::string excerpt(std::string_view text, size_t max_chars);
// The first `max_chars` code points of text (whole sequences, as utf8_length counts them).
std::string_view utf8_prefix(std::string_view text, size_t max_chars);
// The excerpt of a text `total_chars` long of which only `prefix` was kept (a prefix, cut where
// utf8_prefix cuts): prefix itself when nothing is left out, else prefix and the `… (+N chars)` marker.
std::string excerpt_of_prefix(std::string_view prefix, size_t total_chars);
// One-line form: newlines and runs of whitespace folded to single spaces.
std::string one_line(std::string_view text);
// Counts UTF-8 code points (invalid bytes count one each).
size_t utf8_length(std::string_view s);

}  // namespace csift
