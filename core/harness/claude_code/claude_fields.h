// What a Claude Code record carries beyond the shared record model: its own flags, queue and sidecar fields,
// and the raw JSON of its free-form parts. Only code in this folder reads them; tools ask the functions
// below.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/record/record.h"

namespace csift {

struct ClaudeCodeFields final : HarnessFields {
  std::string logical_parent_uuid;
  std::string level;  // system records
  std::string prompt_id;
  std::string request_id;
  std::string source_tool_assistant_uuid;
  std::string origin_kind;  // origin.kind when present (e.g. "task-notification")
  bool is_sidechain = false;
  bool is_meta = false;
  bool is_compact_summary = false;
  bool is_visible_in_transcript_only = false;
  // imagePasteIds: the `[Image #N]` numbers of the images pasted into this prompt, in order.
  std::vector<int64_t> image_paste_ids;

  // Raw JSON of free-form parts, kept verbatim; parsed lazily only where a rule needs them.
  std::string content_json;          // top-level `content` (system / queue-operation / ...)
  std::string tool_use_result_json;  // toolUseResult
  // may_hold_structured_answer(tool_use_result_json), screened once by the parser: a turn rule asks it of a
  // carrier several times per classification, each time a pass over a result that can be megabytes.
  // nullopt on a record built otherwise (the rule then screens the text itself).
  std::optional<bool> tool_use_result_may_answer;
  std::string attachment_json;  // attachment
  // mcpMeta.structuredContent of an MCP tool result when no tool_result text is its serialisation (then it
  // is the only copy of the result in the line); "" otherwise (record_parser.cpp keep_distinct_structured).
  std::string mcp_structured_json;
  std::string snapshot_json;          // file-history-snapshot `snapshot`
  std::string compact_metadata_json;  // compact_boundary compactMetadata
  std::string extra_json;             // other small fields a leaf renders (durationMs, hookInfos, ...),
                                      // as one JSON object of the keys kept; "{}" when none

  // queue-operation
  std::string operation;
  std::string reason;

  // Elicitation sidecar marker fields (the seed's §6.10): `csift`, `csiftPhase`, `csiftKind`, `csiftKey`.
  // Native transcript records never carry them.
  std::string csift_marker;  // "elicitation-marker-v1" on a sidecar line
  std::string csift_phase;   // "pending" | "resolved"
  std::string csift_kind;    // "AskUserQuestion" | "ExitPlanMode" | "mcp-elicitation"
  std::string csift_key;     // pairs a pending marker with its resolution

  std::unique_ptr<HarnessFields> clone() const override { return std::make_unique<ClaudeCodeFields>(*this); }
};

// The record's Claude Code fields (all empty for a record some other reader made).
const ClaudeCodeFields& cc(const Record& r);
// The same, for the parser to fill.
ClaudeCodeFields& cc_mut(Record& r);

// A compaction summary (isCompactSummary): the user record that carries a compaction's summary text.
bool is_compact_summary(const Record& r);
// The paste numbers Claude Code recorded for a prompt's images (imagePasteIds), in order; empty when absent.
const std::vector<int64_t>& image_paste_ids(const Record& r);
// A queue-operation record's operation ("enqueue", "remove", ...), "" otherwise.
const std::string& queue_operation(const Record& r);
// The payload type of an attachment record (`attachment.type`; hook context is an attachment too).
std::optional<std::string> attachment_type(const Record& r);
// The API request an assistant record came from (`requestId`), "" when absent: with message.id it names one
// API message across files (a copied session repeats both).
const std::string& api_request_id(const Record& r);
// The file a tool result Claude Code externalised was saved to (toolUseResult.persistedOutputPath), or "".
std::string persisted_output_path(const Record& r);
// The structuredContent Claude Code kept in an MCP tool result's mcpMeta when the tool_result text is not
// its copy (a too-large result replaced by a saved-file pointer, a text-first result), or "".
const std::string& mcp_only_structured_content(const Record& r);
// Where Claude Code saved a too-large MCP result: the path of the "Output has been saved to <path>." pointer
// it writes as the tool_result text, or "" when the text carries none.
std::string mcp_saved_output_path(std::string_view tool_result_text);
// The tool result record says the call was interrupted (toolUseResult.interrupted is true).
bool tool_result_interrupted(const Record& r);

}  // namespace csift
