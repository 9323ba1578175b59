// RecordParser: one raw jsonl line -> Record, with simdjson On-Demand (one parser per thread). Also the cheap
// byte-level probes that run before any parse (SPEC.md §7): a line that fails them is never parsed.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/json/json_syntax.h"
#include "core/record/labels.h"
#include "core/record/record.h"

namespace csift {

enum class ParseStatus { ok, malformed, too_large };

class RecordParser {
 public:
  RecordParser();
  ~RecordParser();
  RecordParser(const RecordParser&) = delete;
  RecordParser& operator=(const RecordParser&) = delete;
  // Parses one line (no trailing '\n'). On malformed input `error()` says what was wrong. A line whose only
  // fault is invalid UTF-8 or a lone surrogate escape parses from a repaired copy (Record::text_repaired).
  ParseStatus parse(std::string_view line, Record& out);
  // With sparse set, parse() leaves out what ReadOptions::Payloads::skip allows (a toolUseResult is kept only
  // when it may hold an AskUserQuestion answer, the one thing of it a turn rule reads).
  void set_sparse(bool sparse);
  // Full JSON validation of one line (every value checked, json_syntax.h), for census paths that must be
  // exact; error() says what was wrong.
  bool validate(std::string_view line);
  // validate(), recording the line's outer keys to container depth `depth` (json_object_outer_keys).
  bool validate_keyed(std::string_view line, size_t depth, std::vector<OuterKey>& keys);
  // parse() of a line validate() or validate_keyed() just accepted: its check is not run again, and
  // values_out_of_range() stays the check's.
  ParseStatus parse_checked(std::string_view line, Record& out);
  const std::string& error() const { return error_; }
  // Numbers beyond a finite double in the last line parse() or validate() accepted (read as absent).
  size_t values_out_of_range() const { return out_of_range_; }

 private:
  ParseStatus parse_line(std::string_view line, Record& out, bool checked);
  ParseStatus parse_exactly(std::string_view line, Record& out);
  bool validate_exactly(std::string_view line);
  // A check's start: clears the last error and count; false (error set) for a line too large to check.
  bool begin_check(std::string_view line);
  void explain_malformed(std::string_view line);
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::string error_;
  size_t out_of_range_ = 0;
};

// O(1) shape check: a non-blank line that is not `{...}`-framed is malformed without parsing.
bool line_shape_malformed(std::string_view line);
bool line_is_blank(std::string_view line);
// Whitespace-tolerant role markers ("role":"user" / "role" : "user").
bool line_has_role(std::string_view line, std::string_view role);
bool line_has_any_role(std::string_view line);
// Every string value of `"key"` (at any depth, escaped pairs inside strings excluded), raw as on disk.
std::vector<std::string_view> key_string_values(std::string_view line, std::string_view key);
// The first non-empty one of those values, or "" when there is none.
std::string_view first_key_string_value(std::string_view line, std::string_view key);
// The top-level "type" value of a line by a cheap scan (the first `"type":"` key at depth 1), or "".
std::string peek_type(std::string_view line);
// True when a raw line could be a turn opener (SPEC.md §4): a user-role line that is not a plain tool_result
// carrier, or a carrier bearing an AUQ-answer / rejection-with-message marker. Never false for an opener.
bool may_open_turn(std::string_view line);
// The record's type when its outer keys settle it (one "type" key holding a string without escape, no escaped
// key beside it): as a parse reads it. nullopt when only a parse can tell.
std::optional<std::string_view> keyed_record_type(const std::vector<OuterKey>& keys);
// may_open_turn of a well-formed line whose outer keys (to kLabelKeyDepth) its check recorded, without
// walking the line again for them; false too for a record the keys type as other than user. Never false for
// an opener.
bool may_open_turn(std::string_view line, const std::vector<OuterKey>& keys);
// The envelope of the record of a well-formed line from its outer keys (ReadOptions::Keyed::envelope): its
// type, uuid, timestamp and isCompactSummary as a parse reads them, every other field empty. False (`out`
// then unspecified) when a key repeats or has an escape, or a value must be unescaped or repaired: a parse
// must read the line.
bool envelope_of(std::string_view line, const std::vector<OuterKey>& keys, Record& out);
// The container depth of the outer keys labels_bound reads: a line's, its message's, its content blocks'.
inline constexpr size_t kLabelKeyDepth = 4;
// Every label classify_record can give the record of a well-formed line whose outer keys (to kLabelKeyDepth,
// json_object_outer_keys) are `keys`, or through it give another record: by its one type key (classify.h
// record_type_labels), and for a tool-result carrier that may_open_turn rules out, its results' labels. All
// labels whenever the keys cannot settle it (a repeated or escaped key, an elicitation record).
LabelSet labels_bound(std::string_view line, const std::vector<OuterKey>& keys);
// Whether a raw toolUseResult may hold an AskUserQuestion's structured answer: it names `answers` or
// `response`, or holds an escape that could spell either. Neither, and it holds none (one SIMD pass; the
// text is often a tool's whole output).
bool may_hold_structured_answer(std::string_view tool_use_result_raw);
// Whether a raw toolUseResult may hold anything classification reads of it: a structured answer, or a
// spawn's launch facts (`status`, `isAsync`, `agentId`), or an escape that could spell one of those keys. A
// sparse parse keeps exactly these, so it classifies as a full one.
bool may_hold_classified_result_facts(std::string_view tool_use_result_raw);
// Whether classification reads this tool's call input (ExitPlanMode's plan path, SendMessage's kind and
// recipient, a spawn's name): a sparse parse keeps these inputs and drops the rest (an Edit's or Write's
// input can be a whole file).
bool tool_input_classifies(std::string_view tool_name);
// What a sparse parse keeps of a tool result's text: all that any label or turn rule reads of it. The rules
// look for a marker at its start after blank space (an AskUserQuestion answer, a harness refusal, an async
// launch) or for a rejection anywhere in it, whose typed instruction follows; so a text holding a rejection
// is kept whole, any other its leading blank space and 256 bytes more. A tool result is often a whole file:
// holding it for nothing was most of a label count's memory.
std::string sparse_result_text(std::string_view text);

}  // namespace csift
