#include "tools/stats/stats_row.h"

#include "tools/list/list_row.h"
#include "tools/stats/cost.h"

namespace csift {
namespace {

json counts_json(const CountByName& counts) {
  json out = json::object();
  for (const auto& [name, n] : counts)
    out[name] = n;
  return out;
}

void merge_counts(CountByName& into, const CountByName& from) {
  for (const auto& [name, n] : from)
    into[name] += n;
}

json duration_ms(const std::string& first, const std::string& last) {
  const auto a = parse_iso8601(first), b = parse_iso8601(last);
  return a && b ? json(*b - *a) : json(nullptr);
}

// The windowed figures a row and the totals share.
void put_figures(json& out, const TranscriptTally& t) {
  out["lines"] = t.lines;
  out["line_types"] = counts_json(t.line_types);
  out["skipped_lines"] = t.skipped_lines;
  out["values_out_of_range"] = t.values_out_of_range;
  out["user_records"] = t.user_records;
  out["assistant_records"] = t.assistant_records;
  out["turns"] = t.turns;
  out["compactions"] = t.compactions;
  put_instant(out, "first", t.first_timestamp);
  put_instant(out, "last", t.last_timestamp);
  out["duration_ms"] = duration_ms(t.first_timestamp, t.last_timestamp);
  out["tokens"] = tokens_json(t.tokens);
  out["narration_blocks"] = counts_json(t.narration_blocks);
  out["unknown_thinking_tags"] = counts_json(t.unknown_thinking_tags);
  out["tools"] = counts_json(t.tools);
}

double row_usd(const TranscriptTally& t, HarnessId harness, json* unpriced) {
  CostTally cost;
  t.ledger.cost_into(cost, tokens_only_reason(harness_name(harness)));
  if (unpriced) *unpriced = cost.unpriced_json();
  return cost.usd();
}

json usd_map(const std::map<std::string, double>& m) {
  json out = json::object();
  for (const auto& [name, usd] : m)
    out[name] = usd;
  return out;
}

std::string project_name(const std::string& project_dir) {
  const size_t slash = project_dir.find_last_of('/');
  return slash == std::string::npos ? project_dir : project_dir.substr(slash + 1);
}

}  // namespace

json stats_row(const Transcript& t, const TranscriptTally& tally) {
  json row = json::object({{"kind", "session"}});
  row["session_id"] = t.id;
  row["harness"] = std::string(harness_name(t.harness));
  row["is_subagent"] = t.is_subagent;
  const std::string& parent = t.parent_session_id();
  row["parent_session_id"] = parent.empty() ? json(nullptr) : json(parent);
  row["shape"] = shape_name(t.shape);
  row["agent_type"] = t.is_subagent && !t.agent_type().empty() ? json(t.agent_type()) : json(nullptr);
  row["path"] = t.path;
  row["bytes"] = tally.bytes;
  put_figures(row, tally);
  // One compact figure: the models it could not price are named, their tokens are above.
  json unpriced;
  const double usd = row_usd(tally, t.harness, &unpriced);
  // Nothing priced but tokens of models the table does not know: no figure, not a zero that reads as free.
  const bool nothing_priced = usd == 0 && !unpriced.empty() && unpriced.size() == tally.tokens.size();
  row["cost_usd"] = nothing_priced ? json(nullptr) : json(round_usd(usd));
  if (!unpriced.empty()) {
    row["unpriced_models"] = json::array();
    for (const auto& [model, why] : unpriced.items())
      row["unpriced_models"].push_back(model);
  }
  if (tally.harness_cost_usd) row["harness_cost_usd"] = *tally.harness_cost_usd;
  row["error"] = tally.error.empty() ? json(nullptr) : json(tally.error);
  mark_shared(row, 0, {});
  return row;
}

void mark_shared(json& row, size_t shared, const std::vector<std::string>& with_paths) {
  row["shared_records"] = shared;
  row["shares_records_with"] = with_paths;
}

void StatsTotals::add(const TranscriptTally& t, HarnessId harness, const std::string& project) {
  ++sessions_;
  const double usd = row_usd(t, harness, nullptr);
  rows_usd_ += usd;
  if (t.harness_cost_usd) {
    ++harness_rows_;
    harness_usd_ += *t.harness_cost_usd;
    ours_where_harness_ += usd;
  }
  sum_.lines += t.lines;
  sum_.skipped_lines += t.skipped_lines;
  sum_.values_out_of_range += t.values_out_of_range;
  sum_.bytes += t.bytes;
  merge_counts(sum_.line_types, t.line_types);
  sum_.user_records += t.user_records;
  sum_.assistant_records += t.assistant_records;
  sum_.compactions += t.compactions;
  sum_.turns += t.turns;
  add_tokens(sum_.tokens, t.tokens);
  api_messages_.add(t.ledger, project_name(project), tokens_only_reason(harness_name(harness)));
  merge_counts(sum_.narration_blocks, t.narration_blocks);
  merge_counts(sum_.unknown_thinking_tags, t.unknown_thinking_tags);
  merge_counts(sum_.tools, t.tools);
  const auto a = parse_iso8601(t.first_timestamp), b = parse_iso8601(t.last_timestamp);
  if (a && (!first_ || *a < *first_)) {
    first_ = a;
    sum_.first_timestamp = t.first_timestamp;
  }
  if (b && (!last_ || *b > *last_)) {
    last_ = b;
    sum_.last_timestamp = t.last_timestamp;
  }
}

void StatsTotals::write(json& summary, size_t shared_records, size_t transcripts_sharing) const {
  summary["sessions"] = sessions_;
  put_figures(summary, sum_);
  summary["bytes"] = sum_.bytes;
  summary["tokens"] = tokens_json(api_messages_.totals());
  summary["tokens_sum_of_rows"] = tokens_json(sum_.tokens);
  CostTally once;
  api_messages_.cost_into(once);
  json cost = {{"usd", round_usd(once.usd())}, {"usd_sum_of_rows", round_usd(rows_usd_)}};
  cost["by_model"] = once.by_model_json();
  if (json unpriced = once.unpriced_json(); !unpriced.empty()) cost["unpriced"] = std::move(unpriced);
  if (const uint64_t n = once.long_context_messages(); n > 0) cost["long_context_messages"] = n;
  if (harness_rows_ > 0) {
    cost["harness_reported"] = {{"usd", round_usd(harness_usd_)},
                                {"sessions", harness_rows_},
                                {"ours_usd", round_usd(ours_where_harness_)}};
  }
  cost["prices"] = price_sources();
  summary["cost"] = std::move(cost);
  summary[kCostByDay] = usd_map(api_messages_.usd_by_day());
  summary[kCostByProject] = usd_map(api_messages_.usd_by_project());
  summary["shared_records"] = shared_records;
  summary["transcripts_sharing_records"] = transcripts_sharing;
  summary["figure_views"] = {
      {"tokens", "each API message once across the scope (message id + request id)"},
      {"tokens_sum_of_rows", "the rows' tokens summed (a message two transcripts hold counts twice)"},
      {"cost",
       "tokens' dollars at the price table's rates, each API message once (usd_sum_of_rows: the rows')"},
      {"other figures", "the rows summed (records two transcripts hold count in each)"}};
}

}  // namespace csift
