// show's rendered fetch: every addressed record FULL, one row per unit, under the keep-first flood guard.
#include "core/cache/result_memo_report.h"
#include "tools/common/record_render.h"
#include "tools/show/show_address.h"
#include "tools/show/show_load.h"
#include "tools/show/show_modes.h"

namespace csift {
namespace {

// Where the flood guard cut: the first dropped row's record, so the continuation starts there.
struct CapCut {
  size_t dropped = 0;
  const ClassifiedEntry* first_dropped = nullptr;
};

// The show call for `line A..B` from the first dropped record to the last addressed line (a dropped merged
// sidecar record has no line: the continuation then reads to the end, which reaches it).
json continuation(const ClassifiedTranscript& ct, const ShowSelection& sel, const CapCut& cut) {
  const auto call = [&](const std::string& lines) {
    return follow_up_call(
        "show", json{{"targets", json::array({"@" + ct.owner.id})}, {"line", json::array({lines})}});
  };
  const bool dropped_sidecar = cut.first_dropped->source == RecordSource::elicitation_sidecar;
  const uint64_t from = dropped_sidecar ? ct.read.lines : cut.first_dropped->record->line;
  uint64_t to = 0;
  bool sidecar_after = false;
  for (const auto& s : sel.entries) {
    const auto& e = ct.entries[s.entry];
    if (e.source == RecordSource::elicitation_sidecar) {
      sidecar_after = true;
    } else {
      to = std::max(to, e.record->line);
    }
  }
  if (dropped_sidecar || sidecar_after) return call(std::to_string(from) + "..");
  return call(std::to_string(from) + ".." + std::to_string(to));
}

json summary_counts(const ClassifiedTranscript& ct, const ShowSelection& sel) {
  json s = json::object();
  s["non_record_lines"] = sel.non_record_lines;
  s["gated_omitted"] = sel.gated_omitted;
  s["skipped_lines"] = ct.read.skipped_lines + ct.sidecar.skipped_lines;
  s["values_out_of_range"] = ct.read.values_out_of_range;
  return s;
}

}  // namespace

Envelope run_show_rendered(const ShowRequest& req, const Transcript& t, ToolContext& ctx) {
  ResultMemoUse memo_use;
  const ClassifiedTranscript ct = load_for_show(req, t, ctx.result_memo, ctx.cancel, memo_use);
  const ShowSelection sel = select_addressed(req, ct);
  Envelope env = Envelope::make("show");
  fill_show_header(env, req, t);

  CapCut cut;
  size_t records = 0;
  bool with_sidecar = false;
  for (const auto& s : sel.entries) {
    const ClassifiedEntry& e = ct.entries[s.entry];
    bool record_emitted = false;
    for (const size_t u : s.units) {
      if (req.max_count != 0 && env.rows.size() >= req.max_count) {
        if (cut.dropped++ == 0) cut.first_dropped = &e;
        continue;
      }
      env.rows.push_back(build_hit_json(hit_input_of(ct, e, u), ExcerptPolicy::full_text()));
      record_emitted = true;
      with_sidecar = with_sidecar || e.source == RecordSource::elicitation_sidecar;
    }
    records += record_emitted ? 1 : 0;
  }

  env.summary["records"] = records;
  env.summary["units"] = env.rows.size();
  env.summary["dropped_by_cap"] = cut.dropped;
  env.summary["cap"] = req.max_count;
  env.summary["refetch_remainder"] = cut.dropped ? continuation(ct, sel, cut) : json(nullptr);
  env.summary.update(summary_counts(ct, sel));
  if (!ct.read.unreadable.empty()) env.notes.push_back(t.id + ": " + ct.read.unreadable);
  env.summary["with_elicitation_sidecar"] = with_sidecar;
  report_result_memo(env, memo_use);
  return env;
}

}  // namespace csift
