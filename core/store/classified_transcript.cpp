#include "core/store/classified_transcript.h"

#include "core/base/error.h"
#include "core/record/labels.h"
#include "core/record/transcript_reader.h"
#include "core/record/turns.h"
#include "core/store/spawn_join.h"

namespace csift {

ClassifyContext classify_context_for(const Transcript& t, const std::vector<Record>& records) {
  ClassifyContext ctx;
  ctx.is_subagent = t.is_subagent;
  ctx.owner_id = t.id;
  if (t.is_subagent) ctx.parent_id = t.parent_agent_id().empty() ? t.session_id : t.parent_agent_id();
  ctx.is_fork_clone = !records.empty() && records.front().type == "fork-context-ref";
  join_spawned_children(t, records, ctx);
  return ctx;
}

Pairing ClassifiedTranscript::pairing_of(const ClassifiedEntry& e, const Unit& u) const {
  if (e.source == RecordSource::elicitation_sidecar && u.is_tool_use) return Pairing::pending;
  return pairing.of(u);
}

int first_image_ordinal(const ClassifiedEntry& e, size_t unit) {
  int ordinal = 1;
  for (size_t k = 0; k < unit && k < e.units.size(); ++k)
    ordinal += e.units[k].images;
  return ordinal;
}

ClassifiedEntry classify_entry(const Record& r, ClassifyContext& ctx, const TurnAssignment& turns, size_t i) {
  ClassifiedEntry e;
  e.record = &r;
  e.units = classify_record(r, ctx);
  e.turn_index = turns.turn_of[i];
  e.superseded_draft = turns.is_draft[i];
  e.foreign_lane = turns.is_foreign[i];
  if (e.superseded_draft) relabel_as_draft(r, e.units);
  return e;
}

ClassifyContext classify_read_records(ClassifiedTranscript& ct, const CancelToken* cancel,
                                      const EntryVisitor& visit) {
  ct.turns = assign_turns(ct.read.records, turn_rule_of(ct.transcript));
  ct.entries.clear();
  ct.pairing = PairingIndex{};
  ClassifyContext ctx = classify_context_for(ct.transcript, ct.read.records);
  const auto& records = ct.read.records;
  ct.entries.reserve(records.size());
  for (size_t i = 0; i < records.size(); ++i) {
    // Classifying millions of records takes seconds: a cancelled caller stops here too (it reports the
    // cancellation; a partial transcript is never returned as an answer).
    if (i % 4096 == 0 && cancel && cancel->is_cancelled()) break;
    ct.pairing.add_record(records[i]);
    ct.entries.push_back(classify_entry(records[i], ctx, ct.turns, i));
    if (visit) visit(ct, ct.entries.back(), i);
  }
  ct.transcript_entries = ct.entries.size();
  return ctx;
}

ClassifiedTranscript load_classified_transcript(const Transcript& t, bool merge_sidecar,
                                                const CancelToken* cancel,
                                                const std::function<bool(std::string_view)>& want,
                                                const EntryVisitor& visit, ReadOptions::Payloads payloads,
                                                ClassifyContext* context,
                                                std::shared_ptr<const FileBytes> preloaded) {
  ReadOptions options;
  options.cancel = cancel;
  options.want = want;
  options.payloads = payloads;
  options.preloaded = std::move(preloaded);
  return load_classified_transcript(t, merge_sidecar, std::move(options), visit, context);
}

ClassifiedTranscript load_classified_transcript(const Transcript& t, bool merge_sidecar, ReadOptions options,
                                                const EntryVisitor& visit, ClassifyContext* context) {
  ClassifiedTranscript ct;
  ct.transcript = t;
  ct.owner = TranscriptIdentity::of(t);
  // Line 1 decides a /fork clone (classify_context_for): a `want` that declines it must not let line 2
  // decide.
  options.parse_first_line = options.parse_first_line || static_cast<bool>(options.want);
  const CancelToken* cancel = options.cancel;
  ct.read = read_transcript(t, options);
  if (!ct.read.error.empty()) failure_error("cannot read " + t.path + ": " + ct.read.error);
  ClassifyContext ctx = classify_read_records(ct, cancel, visit);
  if (merge_sidecar && !t.is_subagent) {
    ct.sidecar = read_unresolved_pending(t, ct.read.records);
    for (const auto& p : ct.sidecar.pending) {
      ClassifiedEntry e;
      e.record = &p.record;
      e.units = classify_sidecar_pending(p, ctx);
      e.turn_index = ct.turns.turn_count - 1;  // still pending: it belongs to the session's latest turn
      e.source = RecordSource::elicitation_sidecar;
      ct.pairing.add_record(p.record);
      ct.entries.push_back(std::move(e));
      if (visit) visit(ct, ct.entries.back(), ct.entries.size() - 1);
    }
  }
  if (context) *context = std::move(ctx);
  return ct;
}

}  // namespace csift
