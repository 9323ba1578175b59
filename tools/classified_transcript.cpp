#include "tools/classified_transcript.h"

#include "core/error.h"
#include "core/labels.h"

namespace csift {
namespace {

// A superseded draft is one `user.unsent` unit (a single label: user.message stays pure, spec §5.1).
std::vector<Unit> as_draft(std::vector<Unit> units, const Record& r) {
  Unit draft = units.empty() ? Unit{} : std::move(units.front());
  if (draft.text.empty()) draft.text = user_text(r);
  draft.labels = {Label::user_unsent};
  return {std::move(draft)};
}

}  // namespace

ClassifyContext classify_context_for(const Transcript& t, const std::vector<Record>& records) {
  ClassifyContext ctx;
  ctx.is_subagent = t.is_subagent;
  ctx.owner_id = t.id;
  if (t.is_subagent) ctx.parent_id = t.parent_agent_id.empty() ? t.session_id : t.parent_agent_id;
  ctx.is_fork_clone = !records.empty() && records.front().type == "fork-context-ref";
  return ctx;
}

Pairing ClassifiedTranscript::pairing_of(const ClassifiedEntry& e, const Unit& u) const {
  if (e.source == RecordSource::elicitation_sidecar && u.is_tool_use) return Pairing::pending;
  return pairing.of(u);
}

ClassifiedTranscript load_classified_transcript(const Transcript& t, bool merge_sidecar,
                                                const CancelToken* cancel) {
  ClassifiedTranscript ct;
  ct.transcript = t;
  ct.owner = TranscriptIdentity::of(t);
  ReadOptions options;
  options.cancel = cancel;
  ct.read = claude_code_reader().read(t, options);
  if (!ct.read.error.empty()) failure_error("cannot read " + t.path + ": " + ct.read.error);
  ct.turns = assign_turns(ct.read.records);

  ClassifyContext ctx = classify_context_for(t, ct.read.records);
  const auto& records = ct.read.records;
  ct.entries.reserve(records.size());
  for (size_t i = 0; i < records.size(); ++i) {
    ClassifiedEntry e;
    e.record = &records[i];
    e.units = classify_record(records[i], ctx);
    e.turn_index = ct.turns.turn_of[i];
    e.superseded_draft = ct.turns.is_draft[i];
    if (e.superseded_draft) e.units = as_draft(std::move(e.units), records[i]);
    ct.pairing.add_record(records[i]);
    ct.entries.push_back(std::move(e));
  }
  ct.transcript_entries = ct.entries.size();

  if (!merge_sidecar || t.is_subagent) return ct;
  ct.sidecar = read_unresolved_pending(t, records);
  for (const auto& p : ct.sidecar.pending) {
    ClassifiedEntry e;
    e.record = &p.record;
    e.units = classify_sidecar_pending(p, ctx);
    e.turn_index = ct.turns.turn_count - 1;  // still pending: it belongs to the session's latest turn
    e.source = RecordSource::elicitation_sidecar;
    ct.pairing.add_record(p.record);
    ct.entries.push_back(std::move(e));
  }
  return ct;
}

}  // namespace csift
