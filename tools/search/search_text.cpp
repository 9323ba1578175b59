// search's text rendering, derived from the envelope alone: the scope banner, the `matches` head banner, one
// `<tok>·t<N> <local ts>` header per exchange with its hit lines, and the footer (true totals, drops, skipped
// lines, the excerpt caution). -c prints one integer, -l one session id per line, --raw the verbatim lines.
// A zero-match run prints nothing on stdout (the diagnosis is in the notes, on stderr).
#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/base/timefmt.h"
#include "tools/common/record_render.h"
#include "tools/common/text_fields.h"
#include "tools/search/search.h"

#include "tools/search/search_census.h"
#include "tools/search/search_siblings.h"

namespace csift {
namespace {

std::string joined(const json& arr) {
  std::string out;
  if (!arr.is_array()) return out;
  for (const auto& v : arr)
    out += (out.empty() ? "" : ",") + v.get<std::string>();
  return out;
}

std::string matches_banner(const json& s) {
  const uint64_t kept = s.value("matched", 0), dropped = s.value("dropped_by_cap", 0);
  std::string out = "matches " + plural(kept + dropped, "exchange", "exchanges") + " \xC2\xB7 " +
                    plural(s.value("sessions", 0), "session", "sessions") + " \xC2\xB7 oldest first";
  if (dropped > 0) {
    out += std::string(" \xC2\xB7 showing ") +
           (s.value("dropped_side", "") == "earlier" ? "latest " : "earliest ") + std::to_string(kept);
  }
  if (s.value("undated_last", false)) out += " \xC2\xB7 undated last";
  return out + "\n";
}

// The hits and the frame of one exchange in file order (a merged sidecar record, which has no line, last;
// on one record the frame's unit first: an answer's text block precedes the call it made).
std::vector<const json*> exchange_lines(const json& row) {
  std::vector<const json*> out;
  for (const char* part : {"frame", "hits"}) {
    const auto it = row.find(part);
    if (it == row.end() || !it->is_array()) continue;
    for (const json& h : *it)
      out.push_back(&h);
  }
  const auto line_of = [](const json* h) {
    const auto l = h->find("line");
    return l != h->end() && l->is_number() ? l->get<uint64_t>() : UINT64_MAX;
  };
  std::stable_sort(out.begin(), out.end(),
                   [&](const json* a, const json* b) { return line_of(a) < line_of(b); });
  return out;
}

std::string exchange_text(const json& row, const HeaderTokens& tokens, const ToolContext& ctx) {
  std::string out = render_turn_tag(row, tokens);
  const auto started = row.find("started_utc");
  if (started != row.end() && started->is_string()) {
    if (const auto ms = parse_iso8601(started->get<std::string>())) out += " " + format_local(*ms, true);
  }
  out += "\n";
  for (const json* hit : exchange_lines(row))
    out += render_hit_line(*hit, HitLineStyle{true}) + "\n";
  out += render_siblings_text(row, ctx);  // --siblings (search_siblings.cpp); "" when the row has none
  return out;
}

// --resolve-persisted: the saved results it did not read, the first by place and reason (the rest are in
// the JSON summary's saved_results_unread).
std::string saved_unread_line(const json& s) {
  const auto it = s.find("saved_results_unread");
  if (it == s.end() || !it->is_array() || it->empty()) return "";
  const json& first = it->front();
  std::string out = plural(it->size(), "saved tool result", "saved tool results") +
                    " not read: " + first.value("session_id", "") + " L" +
                    std::to_string(first.value("line", uint64_t{0})) + " " + first.value("reason", "");
  if (first.value("copy_searched", false)) out += " (the mcpMeta copy was searched instead)";
  return out + (it->size() > 1 ? "; ..." : "") + "\n";
}

std::string footer(const Envelope& env, const ToolContext& ctx) {
  const auto arg = [&](const char* property) { return ctx.arg_text("search", property); };
  const json& s = env.summary;
  const uint64_t kept = s.value("matched", 0), dropped = s.value("dropped_by_cap", 0);
  std::string out = "matched " + plural(kept + dropped, "exchange", "exchanges") + " \xC2\xB7 " +
                    plural(s.value("sessions", 0), "session", "sessions") + " \xC2\xB7 label=";
  const std::string include = joined(env.header["label"]), exclude = joined(env.header["label_not"]);
  out += include.empty() ? "all" : include;
  if (!exclude.empty()) out += " \xC2\xB7 label-not=" + exclude;
  out += "\n";
  if (dropped > 0) {
    out += std::to_string(dropped) + " " + s.value("dropped_side", "later") + " dropped by " +
           arg("max_count") + " (showing " + std::to_string(kept) + "; " + arg("max_count") +
           " 0 = uncapped)\n";
  }
  if (s.value("superseded_drafts", 0) > 0) {
    const uint64_t excluded = s.value("superseded_drafts_excluded_by_label", 0);
    out += plural(s.value("superseded_drafts", 0), "superseded draft", "superseded drafts") +
           " matched (user.unsent: recalled, edited and re-sent)" +
           (excluded > 0 ? "; " + std::to_string(excluded) + " of them left out by the label filter" : "") +
           "\n";
  }
  if (s.value("skipped_lines", 0) > 0) {
    out += std::to_string(s.value("skipped_lines", 0)) + " malformed/torn line(s) skipped\n";
  }
  if (s.value("too_complex_lines", 0) > 0) {
    out += std::to_string(s.value("too_complex_lines", 0)) +
           " line(s) too complex for the pattern (not searched)\n";
  }
  if (s.value("with_elicitation_sidecar", false)) out += "with elicitation sidecar\n";
  out += saved_unread_line(s);
  if (s.value("excerpts_truncated", false)) {
    out +=
        "\xE2\x9A\xA0 excerpts are match-centred FRAGMENTS, not summaries, and can misrepresent a record's "
        "full "
        "intent: re-fetch with " +
        arg("no_truncate") + " or " +
        ctx.call_text("show", json{{"targets", json::array({"@<id>"})}, {"line", json::array({"N"})}}) +
        " (JSON hits carry refetch)\n";
  }
  return out;
}

std::string render_exchanges(const Envelope& env, const ToolContext& ctx) {
  if (env.rows.empty() && env.summary.value("matched", 0) == 0) return "";
  HeaderTokens tokens;
  for (const auto& row : env.rows)
    tokens.add(row.value("session_id", ""));
  std::string out = scope_banner(env.header) + "\n" + matches_banner(env.summary);
  for (const auto& row : env.rows)
    if (row.value("kind", "") == "exchange") out += exchange_text(row, tokens, ctx);
  return out + footer(env, ctx);
}

}  // namespace

std::string render_search_text(const Envelope& env, const json& args, const ToolContext& ctx) {
  if (env.is_error) return "";
  const std::string mode = env.header.value("mode", "exchanges");
  if (mode == "count_only") return std::to_string(env.summary.value("matched", 0)) + "\n";
  if (mode == "exchanges") return render_exchanges(env, ctx);
  if (mode == "count_by") return render_census_text(env);  // --count-by (search_census.cpp)
  std::string out;
  for (const auto& row : env.rows) {
    if (mode == "sessions_with_matches") out += row.value("session_id", "") + "\n";
    if (mode == "raw") out += row.value("text", "") + "\n";
  }
  (void)args;
  return out;
}

}  // namespace csift
