// Record semantics and classification into taxonomy units (SPEC.md §4).
// A physical record yields zero or more Units: one per content block (assistant text/thinking/tool_use,
// each tool_result) or per section (a batched <task-notification>/peer message record). A unit's labels are
// richest-first; the record's labels are the union of its units' labels.
#pragma once
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "core/record/labels.h"
#include "core/record/record.h"
#include "core/record/transcript.h"

namespace csift {

struct Unit {
  std::vector<Label> labels;  // richest-first, never empty for an emitted unit
  // The labels a twin unit of the same section carries (a notification's pulse and its `<result>` report
  // are two units of one section): listed with the hit's labels, matched only through the twin.
  std::vector<Label> section_labels;
  std::string text;         // the matchable / rendered text of this unit
  std::string source_text;  // the verbatim source when `text` is a derived render (a slash wrapper's XML,
                            // a notification section's XML); empty when `text` is already verbatim
  std::string marker;       // label-zone marker: "[narration summary]", "[enqueue]", "[error]" ...
  std::string tool_name;    // tool_use name, or the tool a tool_result answers (when known)
  std::string tool_use_id;  // the pairing key (tool_use id / tool_result tool_use_id)
  bool is_tool_use = false;
  bool is_tool_result = false;
  std::optional<bool> is_error;  // set on tool_result units
  std::string from, to;          // comm direction (agent.communication.*); "self" for the owner
  int block_index = -1;          // content block index, -1 for record-level units
  std::string queue_operation, queue_reason;
  int images = 0;  // images carried by this unit
};

// Per-transcript context the classifier needs beyond the record itself.
struct ClassifyContext {
  bool is_subagent = false;
  std::string owner_id;   // this transcript's id (session uuid or agent id)
  std::string parent_id;  // for a subagent: the id of the transcript that spawned it ("" unknown)
  // tool_use id -> tool name, filled as records are seen in file order (a result names its tool).
  std::unordered_map<std::string, std::string> tool_names;
  // tool_use id -> spawned child agent id (spawn join), when known.
  std::unordered_map<std::string, std::string> spawned_child;
  // tool_use id -> plan file path (ExitPlanMode input / result), for the [plan: <path>] pointer.
  std::unordered_map<std::string, std::string> plan_paths;
  bool opener_seen = false;    // a subagent's first turn-opener is the delivered spawn prompt (inbox)
  bool is_fork_clone = false;  // a /fork clone (line 1 fork-context-ref) has no spawn-prompt seed
  // What the spawn join has seen so far (core/store/spawn_join.h), so that a join over appended records adds
  // to it.
  struct SpawnJoinSeen {
    bool joined = false;
    std::unordered_set<std::string> spawn_calls;  // tool_use ids of spawn calls
    bool notification = false;                    // a user record that may name a spawn (<tool-use-id>)
    std::unordered_map<std::string, std::string> result_agents;  // spawn id -> agentId its result names
  } spawn_join;
};

// The part of `ctx` the labels of later records can depend on (tool names a result's label reads, the spawn
// join, the opener state): what a label census keeps to classify lines appended to its file. Plan paths and
// the names of other tools only shape text.
ClassifyContext labels_context(const ClassifyContext& ctx);

// Genuine-user and turn-opener predicates (SPEC.md §4).
bool is_genuine_user(const Record& r);
bool opens_turn(const Record& r);
bool is_tool_result_carrier(const Record& r);
bool is_interrupt_marker(const Record& r);
bool is_slash_command_wrapper(const Record& r);
bool is_auq_answer(const Record& r);
bool is_rejection_with_message(const Record& r);
bool is_peer_message_record(const Record& r);
bool is_task_notification_record(const Record& r);
// A record Claude Code 1.x wrote inline for a subagent (isSidechain on a 1.x record) — in a session file,
// another lane's.
bool is_inline_sidechain(const Record& r);

// The text of a user record when its content is a string or text blocks ("" otherwise).
std::string user_text(const Record& r);

// Classifies a record into units, updating ctx (tool names, opener state). Pure apart from ctx.
std::vector<Unit> classify_record(const Record& r, ClassifyContext& ctx);

// A superseded draft keeps ONE view whatever its text shape (v0.10.2 ⑤): collapses a draft record's units
// to a single user.unsent unit carrying the first unit's text (or the record's user text when it had none).
void relabel_as_draft(const Record& draft, std::vector<Unit>& units);

// Every label classify_record can give a record of this type (one without the elicitation marker, which
// only a sidecar's records carry): all for a type it reads further, none for a type it does not label.
LabelSet record_type_labels(std::string_view type);
// Every label classify_record can give a user record that carries a tool_result block and opens no turn
// (is_plain_result_carrier on its line): such a record is never a draft, and it changes no other record's
// labels (its results' plan paths only shape a rejection's text).
LabelSet plain_result_carrier_labels();

// Union of the labels of all units.
LabelSet record_labels(const std::vector<Unit>& units);

}  // namespace csift
