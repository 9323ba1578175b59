// A record's place in its transcript as the rows that show it report it: the transcript that owns it (the id
// trio every row opens with), where it came from (a transcript line or the elicitation sidecar) and how its
// tool units pair (tool_use id <-> tool_result tool_use_id). Transcript knowledge, so core: in the store area
// beside the classified transcript that pairs its units with it (SPEC.md §1).
#pragma once
#include <string>
#include <unordered_set>

#include "core/base/envelope.h"
#include "core/harness/claude_code/classify.h"
#include "core/record/record.h"
#include "core/store/store.h"

namespace csift {

// The closed `pairing` enum of a tool hit (schemas/search.output.json); `none` renders as JSON null (a
// non-tool unit).
enum class Pairing { none, paired, pending, orphan };
const char* pairing_name(Pairing p);  // nullptr for none

// tool_use id <-> tool_result tool_use_id across one transcript (plus its merged sidecar records).
class PairingIndex {
 public:
  void add_record(const Record& r);
  // A tool_use unit is paired or pending, a tool_result unit paired or orphan; any other unit is none.
  Pairing of(const Unit& u) const;

 private:
  std::unordered_set<std::string> use_ids_;
  std::unordered_set<std::string> result_ids_;
};

// Where a rendered record came from: a physical transcript line, or the elicitation sidecar (no line).
enum class RecordSource { transcript, elicitation_sidecar };

// The transcript that OWNS a record (the id trio of every row, and the target of a refetch).
struct TranscriptIdentity {
  std::string id;  // session uuid, or agent id
  bool is_subagent = false;
  std::string parent_session_id;  // the owning top-level session (the id itself for a session)
  static TranscriptIdentity of(const Transcript& t);
  // A new row of `kind` that starts with this id trio: every row a transcript owns opens this way.
  json row(const char* kind) const;
};

}  // namespace csift
