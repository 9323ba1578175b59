// The tolerant Claude Code record model (SPEC.md §4). Every field is optional on disk; an absent string
// field is left empty and an absent flag is false. Unknown fields, record types and block types never
// fail a parse: they are simply not modelled (unknown blocks keep their raw `type`).
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace csift {

enum class BlockKind { text, thinking, redacted_thinking, tool_use, tool_result, image, unknown };

struct Block {
  BlockKind kind = BlockKind::unknown;
  std::string type;          // the raw `type` value (kept for unknown blocks)
  std::string text;          // text block text, thinking block thinking
  std::string signature;     // thinking signature (opaque base64), may be empty
  std::string id;            // tool_use id
  std::string name;          // tool_use name
  std::string input_json;    // tool_use input, raw JSON text as on disk ("" if absent)
  std::string tool_use_id;   // tool_result tool_use_id
  std::string content_json;  // tool_result content, raw JSON (string | array), "" if absent
  std::string content_text;  // tool_result content flattened: a string as-is, text parts joined by "\n"
  int content_images = 0;    // image parts inside a tool_result content array
  bool is_error = false;     // tool_result is_error
  bool has_is_error = false;
};

struct Usage {
  bool present = false;
  int64_t input_tokens = 0;
  int64_t output_tokens = 0;
  int64_t cache_read_input_tokens = 0;
  int64_t cache_creation_input_tokens = 0;
};

struct Message {
  bool present = false;
  std::string role;
  std::string id;           // API message id (assistant)
  std::string model;        // assistant model
  std::string stop_reason;  // assistant stop_reason ("" when null/absent)
  bool has_content = false;
  bool content_is_string = false;
  std::string content_string;  // when content is a bare string
  std::vector<Block> blocks;   // when content is an array
  Usage usage;
};

struct Record {
  // Where the record sits in its transcript.
  uint64_t line = 0;    // 1-based physical line number (blank lines counted)
  uint64_t offset = 0;  // byte offset of the line start
  uint64_t length = 0;  // bytes of the line as on disk, without its newline (set by RecordParser::parse)

  std::string type;  // open set: user, assistant, system, attachment, queue-operation, ...
  std::string uuid;
  std::string parent_uuid;
  std::string logical_parent_uuid;
  std::string timestamp;  // ISO-8601 UTC as on disk; empty when absent (metadata records)
  std::string session_id;
  std::string agent_id;
  std::string cwd;
  std::string version;
  std::string git_branch;
  std::string subtype;  // system records
  std::string level;    // system records
  std::string prompt_id;
  std::string request_id;
  std::string source_tool_assistant_uuid;
  std::string origin_kind;  // origin.kind when present (e.g. "task-notification")
  bool is_sidechain = false;
  bool is_meta = false;
  bool is_compact_summary = false;
  bool is_visible_in_transcript_only = false;
  // The line held invalid UTF-8 or a lone surrogate escape; the fields hold U+FFFD there (the raw line on
  // disk, which show --raw prints, is unchanged).
  bool text_repaired = false;

  // Raw JSON of free-form parts, kept verbatim; parsed lazily only where a rule needs them.
  std::string content_json;           // top-level `content` (system / queue-operation / ...)
  std::string content_text;           // top-level `content` when it is a string (unescaped)
  std::string tool_use_result_json;   // toolUseResult
  std::string attachment_json;        // attachment
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

  Message message;
};

}  // namespace csift
