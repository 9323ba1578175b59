#include "tools/verbatim/verbatim.h"

#include <filesystem>
#include <fstream>

#include "core/base/arg_ref.h"
#include "core/base/error.h"
#include "core/store/classified_transcript.h"
#include "tools/common/record_render.h"
#include "tools/common/scope_args.h"
#include "tools/verbatim/verbatim_render.h"
#include "tools/verbatim/verbatim_request.h"
#include "tools/verbatim/verbatim_select.h"
#include "tools/verbatim/verbatim_slices.h"
#include "tools/verbatim/verbatim_turns.h"

namespace csift {
namespace fs = std::filesystem;
namespace {

json session_row(const Transcript& t, const SessionTurns& st, const SessionSelection& sel, size_t budget,
                 uint64_t skipped) {
  json row = TranscriptIdentity::of(t).row("session");
  row["path"] = t.path;
  row["budget"] = budget;
  row["chars_used"] = sel.chars_used;
  row["selected_user"] = sel.selected_user;
  row["selected_assistant"] = sel.selected_assistant;
  row["candidate_user"] = sel.candidate_user;
  row["candidate_assistant"] = sel.candidate_assistant;
  row["collapsed"] = sel.collapsed;
  row["also_in_summary"] = sel.also_in_summary;
  row["boundaries_spanned"] = sel.boundaries_spanned;
  row["boundaries_total"] = st.boundaries.size();
  row["turns"] = st.turn_count;
  row["turns_in_window"] = sel.turns_in_window;
  row["skipped_lines"] = skipped;
  return row;
}

json build_header(const Scope& scope, const VerbatimRequest& req) {
  json h = span_header("verbatim", scope);
  h["budget"] = req.slices ? *req.slices * req.window_chars : req.budget;
  h["budget_is_per_session"] = true;
  h["round_trip_fraction"] = req.round_trip_fraction;
  h["agent_msgs"] = agent_msgs_name(req.agent_msgs);
  h["profile"] = string_or_null(req.profile);
  h["thresholds"] = json{{"run_threshold", req.thresholds.run_threshold},
                         {"rich_min_chars", req.thresholds.rich_min_chars},
                         {"declaration_max_chars", req.thresholds.declaration_max}};
  h["max_compactions"] = req.max_compactions;
  h["turn"] = req.turns ? json(req.turns->text) : json(nullptr);
  echo_time_window(req.window, h);
  h["window"] = req.window_chars;
  h["slice"] = req.slice ? json(*req.slice) : json(nullptr);
  h["slices"] = req.slices ? json(*req.slices) : json(nullptr);
  h["out"] = string_or_null(req.out);
  return h;
}

void write_document(const std::string& out, const std::string& document, const Scope& scope) {
  std::error_code ec;
  const fs::path path = fs::weakly_canonical(fs::absolute(out), ec);
  if (!scope.claude_home.empty()) {
    const fs::path home = fs::weakly_canonical(fs::absolute(scope.claude_home), ec);
    const auto rel = path.lexically_relative(home);
    if (path == home || (!rel.empty() && *rel.begin() != "..")) {
      usage_error(arg_ref("out") + " " + out + " lies inside the Claude Code store (" + home.string() +
                  "); csift-mcp never writes there: name a path outside it");
    }
  }
  std::ofstream f(out, std::ios::binary | std::ios::trunc);
  f << document;
  if (!f) failure_error("cannot write " + out);
}

}  // namespace

Envelope run_verbatim(const json& args, ToolContext& ctx) {
  const VerbatimRequest req = parse_verbatim_request(args);
  const Scope scope = resolve_span_scope(args, ctx);
  Envelope env = Envelope::make("verbatim");
  env.header = build_header(scope, req);
  std::vector<std::string> blocks;
  size_t chars = 0, users = 0, agents = 0, collapsed = 0, spanned = 0, total = 0, dups = 0;
  uint64_t skipped = 0;
  for (const Transcript& t : scope.transcripts) {
    if (ctx.cancelled()) failure_error("verbatim was cancelled");
    const ClassifiedTranscript ct = load_classified_transcript(t, false, ctx.cancel);
    const SessionTurns st = build_session_turns(ct);
    const SessionSelection sel = select_verbatim(st, req, ct.owner);
    env.rows.push_back(session_row(t, st, sel, env.header["budget"].get<size_t>(), ct.read.skipped_lines));
    for (const json& row : sel.rows) {
      blocks.push_back(render_row_block(row));
      env.rows.push_back(row);
    }
    chars += sel.chars_used, users += sel.selected_user, agents += sel.selected_assistant;
    collapsed += sel.collapsed, spanned += sel.boundaries_spanned, total += st.boundaries.size();
    dups += sel.also_in_summary, skipped += ct.read.skipped_lines;
    if (st.boundaries.empty() && !req.slice) {
      env.notes.push_back("@" + t.id +
                          " has no compaction \xE2\x80\x94 nothing was clipped; for plain reading use " +
                          call_ref("show", json{{"targets", json::array({"@" + t.id})}, {"turn", "-3.."}}) +
                          " (full records, no budget)");
    }
  }
  std::string document;
  for (const auto& b : blocks)
    document += b;
  env.summary["sessions_rendered"] = scope.transcripts.size();
  env.summary["chars_used"] = chars;
  env.summary["selected_user"] = users;
  env.summary["selected_assistant"] = agents;
  env.summary["collapsed"] = collapsed;
  env.summary["also_in_summary"] = dups;
  env.summary["boundaries_spanned"] = spanned;
  env.summary["boundaries_total"] = total;
  env.summary["skipped_lines"] = skipped;
  if (!req.out.empty()) {
    write_document(req.out, document, scope);
    env.summary["out_chars"] = utf8_length(document);
  }
  if (req.slice) {
    const auto window = static_cast<size_t>(req.window_chars);
    const std::vector<std::string> chunks =
        req.slices ? pack_from_end(blocks, window) : pack_forward(document, window);
    const auto n = static_cast<size_t>(*req.slice);
    json row = json::object();
    row["kind"] = "slice";
    row["slice"] = n;
    row["slice_count"] = chunks.size();
    row["text"] = n <= chunks.size() ? chunks[n - 1] : std::string();
    row["chars"] = utf8_length(row["text"].get<std::string>());
    env.rows = {row};
    env.summary["slice_count"] = chunks.size();
  }
  for (const auto& note : scope.notes)
    env.notes.push_back(note);
  return env;
}

}  // namespace csift
