#include "core/store/record_pairing.h"

namespace csift {

const char* pairing_name(Pairing p) {
  switch (p) {
    case Pairing::paired:
      return "paired";
    case Pairing::pending:
      return "pending";
    case Pairing::orphan:
      return "orphan";
    default:
      return nullptr;
  }
}

void PairingIndex::add_record(const Record& r) {
  for (const auto& b : r.message.blocks) {
    if (b.kind == BlockKind::tool_use && !b.id.empty()) use_ids_.insert(b.id);
    if (b.kind == BlockKind::tool_result && !b.tool_use_id.empty()) result_ids_.insert(b.tool_use_id);
  }
}

Pairing PairingIndex::of(const Unit& u) const {
  if (u.tool_use_id.empty()) return Pairing::none;
  if (u.is_tool_use) return result_ids_.count(u.tool_use_id) ? Pairing::paired : Pairing::pending;
  if (u.is_tool_result) return use_ids_.count(u.tool_use_id) ? Pairing::paired : Pairing::orphan;
  return Pairing::none;
}

TranscriptIdentity TranscriptIdentity::of(const Transcript& t) {
  return TranscriptIdentity{t.id, t.is_subagent, t.parent_session_id()};
}

// csift::json spelled out: in core's a–m unit, classify.cpp's namespace-scope `using namespace detail` also
// brings detail's `json` (nlohmann::json) into view, and the bare name is ambiguous after it.
csift::json TranscriptIdentity::row(const char* kind) const {
  csift::json out = csift::json::object();
  out["kind"] = kind;
  out["session_id"] = id;
  out["is_subagent"] = is_subagent;
  out["parent_session_id"] = parent_session_id;
  return out;
}

}  // namespace csift
