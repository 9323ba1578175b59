// The zero-match self-diagnosis (SPEC.md §9.2, v0.4, v0.10.0 ⑥): a zero result is a DEFINITIVE absence, said
// so on stderr; under -t/-T the same records are re-matched without the label filter to name the labels the
// pattern DOES occur under (the `-t user.message` searching-a-tool-name trap).
#include <dirent.h>

#include <algorithm>
#include <cstring>
#include <set>

#include "core/base/arg_ref.h"
#include "core/base/text.h"
#include "core/record/labels.h"
#include "tools/search/search_envelope.h"

namespace csift {
namespace {

json target_args(const SearchRequest& req) {
  json t = json::array();
  if (req.args.contains("targets"))
    for (const auto& v : req.args["targets"])
      if (v.is_string()) t.push_back(v);
  return t.empty() ? json::array({"<target>"}) : t;
}

// `-t/-T` on the CLI, `label/label_not` over MCP.
std::string label_args() {
  return arg_ref("label", true) + "/" + arg_ref("label_not", true);
}

json excluded_rows(const SearchScan& probe) {
  std::vector<std::pair<Label, uint64_t>> rows(probe.excluded_by_label.begin(),
                                               probe.excluded_by_label.end());
  std::stable_sort(rows.begin(), rows.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  json out = json::object();
  out["rows"] = json::array();
  for (const auto& [l, n] : rows)
    out["rows"].push_back({{"label", std::string(label_path(l))}, {"records", n}});
  out["total"] = probe.excluded_records;
  return out;
}

std::string excluded_text(const json& excluded) {
  std::vector<std::string> parts;
  for (const auto& r : excluded["rows"])
    parts.push_back(r["label"].get<std::string>() + " \xC3\x97" +
                    std::to_string(r["records"].get<uint64_t>()));
  return join(parts, " \xC2\xB7 ");
}

// A label filter that selects harness.meta.hook while the attachment gate is closed: hook context is carried
// by attachment records, which the scan never read.
bool behind_closed_gate(const SearchRequest& req) {
  return !req.attachments && req.labels.has_include && req.labels.admits(Label::harness_meta_hook);
}

// The same search again (pattern, scope, filters, the attachment gate as it was) with the switch `opened` on.
json rerun_with(const SearchRequest& req, const char* opened) {
  json rerun = json{{"pattern", req.pattern}};
  for (const char* k : {"targets", "label", "label_not", "since", "until", "turn"}) {
    if (req.args.contains(k)) rerun[k] = req.args[k];
  }
  if (req.attachments) rerun["attachments"] = true;
  rerun[opened] = true;
  return rerun;
}

// Why a zero under a closed gate is no absence, and the call that opens the gate.
std::string closed_gate_note(const SearchRequest& req) {
  const json rerun = rerun_with(req, "attachments");
  return "\xE2\x9A\xA0 the label filter (" + join(req.labels.include_selectors, ",") +
         ") selects harness.meta.hook, and hook context is written as attachment records, which are read "
         "only "
         "with " +
         arg_ref("attachments") +
         ": they were NOT searched, so nothing is known about them. Rerun: " + call_ref("search", rerun);
}

// The sessions of the scope with tool results Claude Code saved to files (<project>/<session>/tool-results/,
// both <persisted-output> and an MCP result too large to hand over): without --resolve-persisted no such
// file was read, so text only it holds was not searched. Asked only of a zero (a directory read per session).
// A session's own transcript, when the scope holds it, answers for its subagents and legacy flat agents too
// (a legacy agent's discovery did not look at the session's directory): no directory it did not list is
// opened.
std::vector<std::string> sessions_with_saved_results(const Scope& scope) {
  std::set<std::string> seen;
  for (const auto& t : scope.transcripts) {
    if (t.harness == HarnessId::claude_code && !t.is_subagent &&
        (t.session_dir_absent || !t.session_dir_may_hold_tool_results()))
      seen.insert(t.id);
  }
  std::vector<std::string> out;
  for (const auto& t : scope.transcripts) {
    if (t.harness != HarnessId::claude_code || t.session_dir_absent || !t.session_dir_may_hold_tool_results())
      continue;
    const std::string& sid = t.parent_session_id();
    if (sid.empty() || !seen.insert(sid).second) continue;
    const std::string dir = t.project_dir + "/" + sid + "/tool-results";
    DIR* d = ::opendir(dir.c_str());
    if (!d) continue;
    bool any = false;
    while (const dirent* ent = ::readdir(d)) {
      if (std::strcmp(ent->d_name, ".") != 0 && std::strcmp(ent->d_name, "..") != 0) {
        any = true;
        break;
      }
    }
    ::closedir(d);
    if (any) out.push_back(dir);
  }
  return out;
}

}  // namespace

std::string active_filters_text(const SearchRequest& req) {
  std::vector<std::string> parts;
  if (!req.labels.include_selectors.empty())
    parts.push_back(arg_ref("label", true) + " " + join(req.labels.include_selectors, ","));
  if (!req.labels.exclude_selectors.empty())
    parts.push_back(arg_ref("label_not", true) + " " + join(req.labels.exclude_selectors, ","));
  for (const char* k : {"since", "until", "turn"}) {
    if (req.args.contains(k) && req.args[k].is_string())
      parts.push_back(arg_ref(k) + " " + req.args[k].get<std::string>());
  }
  if (req.attachments) parts.push_back(arg_ref("attachments"));
  return parts.empty() ? "none" : join(parts, " \xC2\xB7 ");
}

std::vector<std::string> gated_leaves_unreached(const SearchRequest& req) {
  std::vector<std::string> out;
  for (const Label l : all_labels())
    if (label_gated(l) && !req.labels.explicitly_reaches(l)) out.push_back(std::string(label_path(l)));
  if (!req.attachments) out.push_back(std::string(label_path(Label::harness_meta_attachment)));
  return out;
}

std::vector<StoreProblem> unread_in(const Scope& scope, const SearchScan& scan) {
  std::vector<StoreProblem> out = scope.problems;
  out.insert(out.end(), scan.unread.begin(), scan.unread.end());
  return out;
}

void report_saved_unread(Envelope& env, const SearchScan& scan) {
  if (scan.saved_unread.empty()) return;
  json rows = json::array();
  for (const SavedResultUnread& u : scan.saved_unread) {
    rows.push_back(json{{"session_id", u.session_id},
                        {"line", u.line},
                        {"reason", u.reason},
                        {"refused", u.refused},
                        {"copy_searched", u.copy_searched}});
  }
  env.summary["saved_results_unread"] = std::move(rows);
}

void diagnose_zero_match(Envelope& env, const SearchRequest& req, const Scope& scope, const SearchScan& scan,
                         ToolContext& ctx) {
  const std::string filters = active_filters_text(req);
  // Absence is proven only when every transcript in scope was read and every line was decided.
  const size_t unread = scope.problems.size() + scan.unread.size();
  // A label filter behind a closed gate (hook context in attachment records left unread) decides nothing.
  const bool gated = behind_closed_gate(req);
  // Text a saved tool result or the mcpMeta copy of an MCP result holds is searched only under
  // --resolve-persisted: without it, a session with saved results leaves the zero undecided, and so does a
  // pattern found in an mcpMeta copy; with it, a pointer whose result could not be read.
  const std::vector<std::string> saved =
      req.resolve_persisted ? std::vector<std::string>{} : sessions_with_saved_results(scope);
  // A saved result whose file was refused (it is there, but outside the Claude home, not regular, too large
  // or unreadable) decides nothing even when the mcpMeta copy was searched: the file may hold more.
  std::vector<const SavedResultUnread*> refused, unresolved;
  for (const SavedResultUnread& u : scan.saved_unread) {
    if (!u.copy_searched) unresolved.push_back(&u);
    if (u.refused && u.copy_searched) refused.push_back(&u);
  }
  // `<id> L<n>: <reason>` of the first, and that there are more.
  const auto first_reason = [](const std::vector<const SavedResultUnread*>& of) {
    if (of.empty()) return std::string("see the notes");
    return of.front()->session_id + " L" + std::to_string(of.front()->line) + ": " + of.front()->reason +
           (of.size() > 1 ? "; ..." : "");
  };
  const bool outside =
      !saved.empty() || scan.hidden_copy_matches > 0 || scan.unresolved_pointers > 0 || !refused.empty();
  const bool definitive = !gated && unread == 0 && scan.too_complex_lines == 0 && !outside;
  if (definitive) {
    env.notes.push_back("csift: 0 matches \xE2\x80\x94 a DEFINITIVE absence (exit 0), NOT an error. Scope: " +
                        std::to_string(scope.transcripts.size()) + " session(s). Active filters: " + filters +
                        ".");
  } else {
    std::vector<std::string> undecided;
    if (gated) undecided.push_back("the label filter reaches records behind a closed gate (see below)");
    if (unread > 0) undecided.push_back(std::to_string(unread) + " transcript(s) were not read");
    if (scan.too_complex_lines > 0)
      undecided.push_back(std::to_string(scan.too_complex_lines) +
                          " line(s) were too complex for the pattern");
    if (scan.hidden_copy_matches > 0)
      undecided.push_back(
          "the pattern occurs in " + std::to_string(scan.hidden_copy_matches) +
          " MCP tool result(s) only in the copy Claude Code kept in mcpMeta.structuredContent "
          "(their text is a saved-file pointer or another form)");
    if (!saved.empty())
      undecided.push_back(std::to_string(saved.size()) +
                          " session(s) have tool results Claude Code saved to files, which were not read (" +
                          saved.front() + (saved.size() > 1 ? ", ..." : "") + ")");
    if (scan.unresolved_pointers > 0)
      undecided.push_back(std::to_string(scan.unresolved_pointers) +
                          " saved tool result(s) could not be read (" + first_reason(unresolved) + ")");
    if (!refused.empty())
      undecided.push_back(std::to_string(refused.size()) +
                          " saved tool result(s) were refused and only the copy Claude Code kept in "
                          "mcpMeta.structuredContent was searched (" +
                          first_reason(refused) + ")");
    env.notes.push_back("csift: 0 matches, but NOT a definitive absence: " + join(undecided, " and ") +
                        ". Scope: " + std::to_string(scope.transcripts.size()) +
                        " session(s). Active filters: " + filters + ".");
  }
  env.summary["definitive_absence"] = definitive;
  if (!saved.empty() || scan.hidden_copy_matches > 0)
    env.notes.push_back("to search the saved tool results and the mcpMeta copies too: " +
                        call_ref("search", rerun_with(req, "resolve_persisted")));
  env.summary["active_filters"] = filters;
  env.summary["excluded_by_label"] = nullptr;
  if (req.label_filter_active) {
    const SearchScan probe = run_search_scan(req, scope, ctx, true);
    if (probe.excluded_records > 0) {
      const json excluded = excluded_rows(probe);
      env.summary["excluded_by_label"] = excluded;
      env.notes.push_back("\xE2\x9A\xA0 but \"" + req.pattern + "\" DOES occur \xE2\x80\x94 " +
                          std::to_string(probe.excluded_records) +
                          " record(s) under: " + excluded_text(excluded) + ". Your " + label_args() +
                          " excluded them; drop " + label_args() + " or select one of those labels.");
    } else {
      env.notes.push_back("\"" + req.pattern + "\" is absent even without the " + label_args() + " filter " +
                          (gated ? "in the records read." : "in this scope."));
    }
    if (gated) env.notes.push_back(closed_gate_note(req));
  } else {
    const json census{{"pattern", ""}, {"targets", target_args(req)}, {"count_by", "label"}};
    env.notes.push_back("to see which labels this scope holds: " + call_ref("search", census));
  }
  const auto unreached = gated_leaves_unreached(req);
  env.summary["gated_leaves_unreached"] = unreached;
  env.notes.push_back("gated leaves not searched (no selector reached them): " + join(unreached, ", ") +
                      " \xE2\x80\x94 name one with " + arg_ref("label", true) + " (attachments need " +
                      arg_ref("attachments") + ")");
  if (scan.skipped_lines > 0) {
    env.notes.push_back(
        std::to_string(scan.skipped_lines) +
        " malformed/torn line(s) were skipped: the absence is definitive for parseable lines only");
  }
}

}  // namespace csift
