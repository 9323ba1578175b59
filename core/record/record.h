// The tolerant record model shared by every harness (SPEC.md §4), Claude Code's shape first. Every field is
// optional on disk; an absent string field is left empty and an absent flag is false. Unknown fields, record
// types and block types never fail a parse: they are simply not modelled (unknown blocks keep their raw
// `type`).
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace csift {

enum class BlockKind { text, thinking, redacted_thinking, tool_use, tool_result, image, unknown };

// How a tool call ended (SPEC.md §13.2), in one vocabulary for every harness: what a reader records on a
// result block, what OpenCode keeps per call, and what triage reports.
enum class CallStatus : uint8_t { ok, error, denied, interrupted };
inline const char* call_status_name(CallStatus s) {  // "ok", "error", "denied", "interrupted"
  switch (s) {
    case CallStatus::error:
      return "error";
    case CallStatus::denied:
      return "denied";
    case CallStatus::interrupted:
      return "interrupted";
    default:
      return "ok";
  }
}

// One image a record carries inline, described without holding its payload: the base64 text stays in the
// line and is found again by its byte span (`image` reads it back; nothing else needs the bytes).
struct ImageRef {
  std::string source_type;  // source.type: "base64", "url", ... ("" when absent)
  std::string media_type;   // source.media_type as written ("" when absent)
  std::string url;          // source.url (a url image has no inline bytes)
  // The JSON string token of source.data, quotes excluded, as a byte span of the parsed line (the repaired
  // copy when Record::text_repaired). data_length 0: no data.
  uint64_t data_offset = 0;
  uint64_t data_length = 0;
  bool data_escaped = false;  // the token holds a JSON escape (`\/`): unescape before decoding
  uint64_t data_hash = 0;     // a hash of the token's bytes (the listing dedups on length + hash)
};

struct Block {
  BlockKind kind = BlockKind::unknown;
  std::string type;          // the raw `type` value (kept for unknown blocks)
  std::string text;          // text block text, thinking block thinking
  std::string signature;     // thinking signature (opaque base64), may be empty
  std::string id;            // tool_use id
  std::string name;          // tool_use name
  std::string input_json;    // tool_use input, raw JSON text as on disk ("" if absent)
  std::string tool_use_id;   // tool_result tool_use_id
  std::string content_text;  // tool_result content flattened: a string as-is, text parts joined by "\n"
  int content_images = 0;    // image parts inside a tool_result content array
  // An image block's image, or a tool_result's nested image parts, in document order.
  std::vector<ImageRef> images;
  bool is_error = false;  // tool_result is_error
  bool has_is_error = false;
  // A tool result's status and exit code as its harness's reader recorded them (ok with no exit code: nothing
  // recorded beyond is_error, as Claude Code does). The facts: the display marker is rendered from them
  // (status_marker_of), and a call's outcome read from them (core/triage/tool_outcome.h).
  CallStatus result_status = CallStatus::ok;
  std::optional<int64_t> result_exit_code;
  bool has_result_status() const { return result_status != CallStatus::ok || result_exit_code.has_value(); }
};

// A result's recorded status for display, the one place it is rendered: "[denied]", "[error · exit 2]",
// "[exit 0]"; "" when none recorded.
inline std::string status_marker_of(const Block& b) {
  if (!b.has_result_status()) return "";
  const bool worded = b.result_status != CallStatus::ok;
  std::string out = "[" + std::string(worded ? call_status_name(b.result_status) : "");
  if (b.result_exit_code)
    out += std::string(worded ? " \xC2\xB7 " : "") + "exit " + std::to_string(*b.result_exit_code);
  return out + "]";
}

struct Usage {
  bool present = false;
  int64_t input_tokens = 0;
  int64_t output_tokens = 0;
  int64_t cache_read_input_tokens = 0;
  int64_t cache_creation_input_tokens = 0;
  // The part of cache_creation_input_tokens written for a one-hour lifetime (usage.cache_creation's
  // ephemeral_1h_input_tokens); the rest is the default five minutes. They are priced differently.
  int64_t cache_creation_1h_input_tokens = 0;
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

// Fields one harness records that the shared model does not carry. Each harness defines its own subtype and
// reads it back through its own accessor; nothing outside that harness's folder names them.
struct HarnessFields {
  virtual ~HarnessFields() = default;
  virtual std::unique_ptr<HarnessFields> clone() const = 0;
};

// Owns a record's harness fields with value semantics: a copied record copies them.
class HarnessFieldsBox {
 public:
  HarnessFieldsBox() = default;
  HarnessFieldsBox(const HarnessFieldsBox& o) : fields_(o.fields_ ? o.fields_->clone() : nullptr) {}
  HarnessFieldsBox& operator=(const HarnessFieldsBox& o) {
    if (this != &o) fields_ = o.fields_ ? o.fields_->clone() : nullptr;
    return *this;
  }
  HarnessFieldsBox(HarnessFieldsBox&&) noexcept = default;
  HarnessFieldsBox& operator=(HarnessFieldsBox&&) noexcept = default;

  template <class T>
  const T* get() const {
    return dynamic_cast<const T*>(fields_.get());
  }
  template <class T>
  T& get_or_make() {
    if (T* f = dynamic_cast<T*>(fields_.get())) return *f;
    auto made = std::make_unique<T>();
    T& ref = *made;
    fields_ = std::move(made);
    return ref;
  }

 private:
  std::unique_ptr<HarnessFields> fields_;
};

struct Record {
  // Where the record sits in its transcript.
  uint64_t line = 0;    // 1-based physical line number (blank lines counted)
  uint64_t offset = 0;  // byte offset of the line start
  uint64_t length = 0;  // bytes of the line as on disk, without its newline (set by RecordParser::parse)

  std::string type;  // open set: user, assistant, system, attachment, queue-operation, ...
  std::string uuid;
  std::string parent_uuid;
  std::string timestamp;  // ISO-8601 UTC as on disk; empty when absent (metadata records)
  std::string session_id;
  std::string agent_id;
  std::string cwd;
  std::string version;
  std::string git_branch;
  std::string subtype;  // system records
  // The line held invalid UTF-8 or a lone surrogate escape; the fields hold U+FFFD there (the raw line on
  // disk, which show --raw prints, is unchanged).
  bool text_repaired = false;

  std::string content_text;  // top-level `content` when it is a string (unescaped)

  Message message;

  // What only this record's harness records (Claude Code: core/harness/claude_code/claude_fields.h).
  HarnessFieldsBox harness_fields;
};

}  // namespace csift
