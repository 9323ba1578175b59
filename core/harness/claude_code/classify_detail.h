// Internal helpers shared by the classify_*.cpp files: Claude Code's synthesized marker strings (kept in
// fixed_texts.h with every other literal Claude Code writes that we match), the section scanner for batched
// <task-notification>/peer-message records, the narration signature decoder and the fabricated renders of the
// promoted leaves. Not a public interface.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/base/text.h"
#include "core/harness/claude_code/fixed_texts.h"
#include "core/record/labels.h"
#include "core/record/record.h"

namespace csift::detail {

// Claude Code's fixed texts (core/harness/claude_code/fixed_texts.h), by their short names here.
using namespace claude_code_text;

bool starts_with(std::string_view s, std::string_view p);

// ---- sections (classify_sections.cpp) ----
// A boundary-anchored tag occurrence is a real section; a tag quoted mid-prose is not (FINDING-1).
bool is_section_boundary(std::string_view prefix);
bool has_boundary_section(std::string_view text, std::string_view open);
bool is_peer_message_text(std::string_view text);
bool is_agents_stopped_notice(std::string_view text);
bool is_slash_wrapper_text(std::string_view text);
bool is_interrupt_text(std::string_view text);
// `!` bash mode: the typed command (<bash-input>) and its output (<bash-stdout>/<bash-stderr>).
bool is_bash_input_text(std::string_view text);
bool is_bash_output_text(std::string_view text);
// The synthesized non-human user shapes of SPEC.md §4 (interrupt markers, local-command stdout, slash-command
// wrappers, bash-mode input and output) plus the agents-stopped notice.
bool is_synthetic_user_text(std::string_view text);
std::optional<std::string> xml_tag(std::string_view s, std::string_view tag);
std::optional<std::string> xml_attr(std::string_view s, std::string_view attr);

struct Section {
  enum class Kind { notification, notification_result, peer_inbox, peer_signal } kind;
  Label label;
  std::string text;         // the render (automation label / result body / peer body)
  std::string source_text;  // the raw section XML
  std::string from;         // peer sender / "?" for a result pulse child
  std::string tool_use_id;  // <tool-use-id> of a notification (the spawn join key)
};
// Every section of a batched user record, in text order; notifications mask peer tags quoted inside them.
std::vector<Section> scan_sections(std::string_view text);
// `[<kind> <ids> <status>] <summary>` for one <task-notification> section.
std::string automation_label(std::string_view section);
Label notification_label(std::string_view summary);

// ---- narration (narration.cpp) ----
bool signature_may_be_narration(std::string_view signature);
std::optional<std::string> thinking_signature_tag(std::string_view signature);
bool is_narration_signature(std::string_view signature);

// ---- renders (classify_render.cpp) ----
std::string auq_exchange_text(const Record& r, std::string_view result_text);
std::string compact_boundary_text(const Record& r);
std::string turn_duration_text(const Record& r);
std::string stop_hooks_text(const Record& r);
std::string snapshot_text(const Record& r);
std::string system_text(const Record& r);
// Claude Code's own bookkeeping record types (2.1.332), harness.meta.system like the system subtypes: what it
// sent the API (api-request, its message blobs and the request's shape) and its session state (atis-latch,
// tools-used, cost-state, last-prompt). None is sent to the model.
inline constexpr std::string_view kBookkeepingTypes[] = {
    "api-request", "api-request-blob", "api-request-shape", "atis-latch",
    "tools-used",  "cost-state",       "last-prompt"};
bool is_bookkeeping_type(std::string_view type);
// One line naming what such a record holds (a request's id, source and shape; a blob's hash and role; the
// tools used so far; the last prompt; the cost tally); the payload itself (a request shape is up to 133 KB of
// system prompt and tool definitions) is request plumbing, shown only by raw.
std::string bookkeeping_text(const Record& r);
// The summary line of an attachment that is request plumbing (prompt_snapshot: the system prompt and tool
// definitions; deferred_tools_record: the definitions ToolSearch loaded), nullopt for any other type.
std::optional<std::string> plumbing_attachment_text(const std::string& type, const nlohmann::json& att);
std::string human_duration(int64_t ms);
// tool_use text: the name and the re-serialized input JSON.
std::string tool_use_text(const Block& b);
// A string field of a JSON object held as raw text ("" when absent or not a string).
std::string json_string_field(const std::string& raw_json, std::string_view key);

}  // namespace csift::detail

namespace csift {
// The typed instruction of a rejection tool_result block (SPEC.md §4), nullopt when it carries none.
std::optional<std::string> rejection_typed_message(const Block& b);
}  // namespace csift
