// show's text rendering, derived from the envelope alone (so --format json and text never disagree): a line
// naming the transcript, a `<tok>·t<N> <ts>` header per record with its full hit lines, and a footer stating
// the counts, the cap continuation and every note.
#include "tools/common/record_render.h"
#include "tools/show/show.h"

namespace csift {
namespace {

std::string count_text(const json& summary, const char* key) {
  return std::to_string(summary.value(key, 0));
}

std::string render_raw(const Envelope& env) {
  std::string out;
  for (const auto& row : env.rows)
    out += row.value("text", "") + "\n";
  return out;
}

std::string transcript_line(const json& header) {
  std::string out = "show @" + header.value("transcript_id", "");
  if (header.value("is_subagent", false)) {
    out += " (subagent of " + header.value("parent_session_id", "").substr(0, 8) + ")";
  }
  return out + " · " + header.value("address", "") + " · " + header.value("path", "") + "\n";
}

// A record's rows share one header; a new record starts when the line, uuid or source changes.
std::string record_key(const json& row) {
  return row.value("session_id", "") + "|" + (row["line"].is_number() ? row["line"].dump() : "-") + "|" +
         (row["uuid"].is_string() ? row["uuid"].get<std::string>() : "") + "|" + row.value("source", "");
}

std::string footer(const json& s, const ToolContext& ctx) {
  const auto arg = [&](const char* property) { return ctx.arg_text("show", property); };
  std::string out =
      "shown " + count_text(s, "units") + " record unit(s) from " + count_text(s, "records") + " record(s)\n";
  if (s.value("dropped_by_cap", 0) > 0) {
    out += "+" + count_text(s, "dropped_by_cap") + " more record unit(s) beyond the " + count_text(s, "cap") +
           "-unit cap · continue: " + follow_up_text(s["refetch_remainder"], ctx) + " (or " +
           arg("max_count") + " 0 = uncapped)\n";
  }
  if (s.value("non_record_lines", 0) > 0) {
    out += count_text(s, "non_record_lines") +
           " line(s) in the addressed range are not records (metadata/attachment — inspect with " +
           arg("raw") + ")\n";
  }
  if (s.value("gated_omitted", 0) > 0) {
    out += count_text(s, "gated_omitted") +
           " gated record(s) in the addressed turn(s) omitted (queue, telemetry, snapshot, system and "
           "attachment lines — address them with " +
           arg("line") + " or " + arg("uuid") + ")\n";
  }
  if (s.value("skipped_lines", 0) > 0) {
    out += count_text(s, "skipped_lines") + " malformed/torn line(s) skipped in this transcript\n";
  }
  if (s.value("with_elicitation_sidecar", false)) out += "with elicitation sidecar\n";
  return out;
}

}  // namespace

std::string render_show_text(const Envelope& env, const json& /*args*/, const ToolContext& ctx) {
  if (env.header.value("mode", "") == "raw") return render_raw(env);
  HeaderTokens tokens;
  for (const auto& row : env.rows)
    tokens.add(row.value("session_id", ""));
  std::string out = transcript_line(env.header);
  std::string previous;
  for (const auto& row : env.rows) {
    const std::string key = record_key(row);
    if (key != previous) out += render_record_header(row, tokens) + "\n";
    previous = key;
    out += render_hit_line(row) + "\n";
  }
  return out + footer(env.summary, ctx);
}

}  // namespace csift
