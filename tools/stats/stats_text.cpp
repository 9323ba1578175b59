// The text form of `stats` (SPEC.md §9.4): a block per transcript and a TOTAL block when more than one is
// shown.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/base/timefmt.h"
#include "tools/common/text_fields.h"
#include "tools/stats/stats.h"

namespace csift {
namespace {

constexpr auto str = json_str;
constexpr auto num = json_count;

// 1234567 -> "1,234,567": token figures are read at a glance.
std::string grouped(int64_t n) {
  std::string digits = std::to_string(n < 0 ? -n : n), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return n < 0 ? "-" + out : out;
}

std::string human_duration(int64_t ms) {
  int64_t s = ms / 1000;
  const int64_t d = s / 86400, h = s / 3600 % 24, m = s / 60 % 60;
  s %= 60;
  std::string out;
  if (d > 0) out += std::to_string(d) + "d ";
  if (d > 0 || h > 0) out += std::to_string(h) + "h ";
  if (d > 0 || h > 0 || m > 0) out += std::to_string(m) + "m ";
  return out + std::to_string(s) + "s";
}

std::string local_time(const std::string& iso) {
  return local_time_or(iso, "(none)");
}

// "name n · name n", most frequent first (ties by name).
std::string ranked_counts(const json& counts) {
  std::vector<std::pair<std::string, uint64_t>> items;
  for (const auto& [name, n] : counts.items())
    items.emplace_back(name, n.get<uint64_t>());
  std::stable_sort(items.begin(), items.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  std::string out;
  for (const auto& [name, n] : items)
    out += (out.empty() ? "" : " · ") + name + " " + std::to_string(n);
  return out.empty() ? "(none)" : out;
}

std::string usd(double v) {
  return fmt::format("${:.4f}", v);
}

// by_model: the TOTAL's dollars per model (null: not priced), appended to each model's line.
std::string token_lines(const json& tokens, const json& by_model = json()) {
  if (tokens.empty()) return "tokens (none)\n";
  std::string out;
  for (const auto& [model, t] : tokens.items()) {
    out += "tokens " + model + ": in " + grouped(t["input_tokens"].get<int64_t>()) + " · out " +
           grouped(t["output_tokens"].get<int64_t>()) + " · cache read " +
           grouped(t["cache_read_input_tokens"].get<int64_t>()) + " · cache write " +
           grouped(t["cache_creation_input_tokens"].get<int64_t>());
    if (t.contains("cache_creation_1h_input_tokens"))
      out += " (1h " + grouped(t["cache_creation_1h_input_tokens"].get<int64_t>()) + ")";
    if (by_model.is_object() && by_model.contains(model))
      out += by_model[model].is_number() ? " · " + usd(by_model[model].get<double>()) : " · not priced";
    out += "\n";
  }
  return out;
}

// A row's cost, and the harness's own figure beside it with the difference named.
std::string row_cost_line(const json& row) {
  if (!row.contains("cost_usd")) return "";
  const double ours = row["cost_usd"].is_number() ? row["cost_usd"].get<double>() : 0;
  std::string out = row["cost_usd"].is_number() ? "cost " + usd(ours) : "cost none";
  if (row.contains("unpriced_models")) {
    std::string names;
    for (const auto& m : row["unpriced_models"])
      names += (names.empty() ? "" : ", ") + m.get<std::string>();
    out += " (not priced: " + names + ", tokens only)";
  }
  if (row.contains("harness_cost_usd")) {
    const double theirs = row["harness_cost_usd"].get<double>();
    out += " · the harness's own figure (cost-state) " + usd(theirs);
    const double diff = theirs - ours;
    if (!row["cost_usd"].is_number()) {
      out += " (ours: none, its model is not in our table)";
    } else if (std::abs(diff) < 0.00005) {
      out += " (the same)";
    } else {
      out += fmt::format(
          " (differs by {}{}: its price table, and its tally covers the whole process, subagents' "
          "calls included)",
          diff < 0 ? "-" : "+", usd(std::abs(diff)));
    }
  }
  return out + "\n";
}

// The TOTAL's cost: the default view, the other, what is not priced and why, and where the prices come from.
std::string total_cost_lines(const json& s) {
  const json c = s.value("cost", json::object());
  if (c.empty()) return "";
  std::string out = "cost " + usd(c.value("usd", 0.0)) + " (each API message once; summed over the rows " +
                    usd(c.value("usd_sum_of_rows", 0.0)) + ")";
  if (c.contains("long_context_messages"))
    out += " · " + std::to_string(c["long_context_messages"].get<uint64_t>()) +
           " message(s) at long-context rates";
  out += "\n";
  if (c.contains("harness_reported")) {
    const json& h = c["harness_reported"];
    out += "the harness's own figures (cost-state) over " + std::to_string(h.value("sessions", 0)) +
           " transcript(s): " + usd(h.value("usd", 0.0)) +
           "; ours over the same: " + usd(h.value("ours_usd", 0.0)) + "\n";
  }
  return out;
}

std::string unpriced_lines(const json& s) {
  const json c = s.value("cost", json::object());
  std::string out;
  const json unpriced = c.value("unpriced", json::object());
  for (const auto& [model, why] : unpriced.items())
    out += "not priced: " + model + ": " + why.get<std::string>() + "\n";
  return out;
}

std::string prices_line(const json& s) {
  const json c = s.value("cost", json::object());
  std::string out;
  const json prices = c.value("prices", json::object());
  for (const auto& [name, where] : prices.items())
    out += (out.empty() ? "prices: " : "; ") + name + " " + where.get<std::string>();
  return out.empty() ? "" : out + "\n";
}

std::string cost_by_lines(const json& s) {
  std::string out;
  for (const auto& [field, title] :
       {std::pair{"cost_by_day", "cost per UTC day"}, std::pair{"cost_by_project", "cost per project"}}) {
    if (!s.contains(field)) continue;
    out += std::string(title) + " (each API message once, on its first transcript's):\n";
    for (const auto& [name, v] : s[field].items())
      out += "  " + name + " " + usd(v.get<double>()) + "\n";
  }
  return out;
}

std::string figure_lines(const json& f) {
  std::string out = "lines " + std::to_string(num(f, "lines")) + " · skipped " +
                    std::to_string(num(f, "skipped_lines")) + " · types " + ranked_counts(f["line_types"]) +
                    "\n";
  out += "records user " + std::to_string(num(f, "user_records")) + " · assistant " +
         std::to_string(num(f, "assistant_records")) + " · turns " + std::to_string(num(f, "turns")) +
         " · compactions " + std::to_string(num(f, "compactions")) + "\n";
  out += "span " + local_time(str(f, "first_utc")) + " -> " + local_time(str(f, "last_utc"));
  if (f["duration_ms"].is_number()) out += " (" + human_duration(f["duration_ms"].get<int64_t>()) + ")";
  out += "\n" + token_lines(f["tokens"], f.contains("cost") ? f["cost"].value("by_model", json()) : json());
  out += row_cost_line(f);
  if (!f["narration_blocks"].empty())
    out += "narration blocks " + ranked_counts(f["narration_blocks"]) + "\n";
  if (!f["unknown_thinking_tags"].empty()) {
    out += "unknown thinking tags " + ranked_counts(f["unknown_thinking_tags"]) + "\n";
  }
  return out + "tool calls " + ranked_counts(f["tools"]) + "\n";
}

// A row whose records another transcript in scope also holds: a copy or fork of the same conversation.
std::string shared_line(const json& row) {
  if (num(row, "shared_records") == 0) return "";
  std::string with;
  for (const auto& p : row.value("shares_records_with", json::array()))
    with += (with.empty() ? "" : ", ") + p.get<std::string>();
  return "shares " + std::to_string(num(row, "shared_records")) + " record(s) with " + with +
         " (copied or forked; this row counts them as its own)\n";
}

// Which view the TOTAL's figures are, said where they differ from a plain sum.
std::string views_lines(const json& s) {
  std::string out = "(tokens: each API message once across these transcripts";
  if (s.value("tokens_sum_of_rows", json::object()) != s.value("tokens", json::object())) {
    out += "; summed over the rows they would be:\n" + token_lines(s["tokens_sum_of_rows"]);
    out.pop_back();
  }
  out += "; every other figure sums the rows)\n";
  if (num(s, "shared_records") > 0) {
    out += std::to_string(num(s, "transcripts_sharing_records")) + " transcript(s) share " +
           std::to_string(num(s, "shared_records")) + " record(s) with another in scope (copied or forked)\n";
  }
  return out;
}

std::string window_line(const json& header) {
  std::string parts;
  if (!str(header, "since_utc").empty()) parts += " since " + local_time(str(header, "since_utc"));
  if (!str(header, "until_utc").empty()) parts += " until " + local_time(str(header, "until_utc"));
  if (!str(header, "turn").empty()) parts += " turn " + str(header, "turn");
  return parts.empty() ? "" : "window" + parts + " (every figure but lines and types is windowed)\n";
}

std::string footer(const json& s, const ToolContext& ctx) {
  std::string out = std::to_string(num(s, "sessions")) + " transcript(s) counted";
  if (num(s, "unread_transcripts_total") > 0)
    out += " · " + std::to_string(num(s, "unread_transcripts_total")) + " NOT read (see the note)";
  if (num(s, "outside_window") > 0) {
    out += " · " + std::to_string(num(s, "outside_window")) + " with nothing inside the window";
  }
  if (num(s, "dropped_by_cap") > 0) {
    out += " · " + std::to_string(num(s, "dropped_by_cap")) + " dropped by cap (the " +
           std::to_string(num(s, "max_count")) + " most recently active are counted; " +
           ctx.arg_text("stats", "max_count") + " 0 for all)";
  }
  return out + "\n";
}

}  // namespace

std::string render_stats_text(const Envelope& env, const json& /*args*/, const ToolContext& ctx) {
  const json& h = env.header;
  std::string out = scope_banner(h) + "\n" + window_line(h);
  for (const auto& row : env.rows) {
    // An unreadable transcript has no figures: zeros would read as an empty file.
    const std::string error = str(row, "error");
    out += "\n" + transcript_title(row) + "\n" +
           (error.empty() ? figure_lines(row) + shared_line(row) : "unreadable: " + error + "\n");
  }
  if (num(env.summary, "sessions") > 1) {
    out += "\nTOTAL (" + std::to_string(num(env.summary, "sessions")) + " transcripts)\n" +
           figure_lines(env.summary) + total_cost_lines(env.summary) + views_lines(env.summary);
  }
  const std::string cost_notes = cost_by_lines(env.summary) + unpriced_lines(env.summary);
  if (!cost_notes.empty()) out += "\n" + cost_notes;
  if (!env.rows.empty()) out += prices_line(env.summary);
  return out + "\n" + footer(env.summary, ctx);
}

}  // namespace csift
