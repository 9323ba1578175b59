#include "tools/triage/triage_run.h"

#include <set>

#include "core/base/arg_ref.h"
#include "core/base/error.h"
#include "core/base/timefmt.h"
#include "core/scrub/scrubber.h"
#include "core/store/harness_scope.h"

namespace csift {

TriageRun open_triage_run(const json& args, const ToolContext& ctx) {
  if (ctx.env.caller == CallerLink::network)
    usage_error(
        "the session triage tools are served to a local caller only (stdio or the command line): over "
        "HTTP the server may answer another machine, and the sessions and their state are this one's");
  TriageRun run;
  run.env = ctx.env;
  if (args.contains("claude_home") && args["claude_home"].is_string())
    run.env.claude_home = expand_home(args["claude_home"].get<std::string>(), ctx.env);
  run.policy = load_collect_policy(run.env);
  run.db = std::make_unique<StateDb>(state_db_path(run.env));
  run.scrubber = &default_scrubber();
  run.now = format_utc(now_ms());
  run.disk_cache = ctx.disk_cache;
  return run;
}

InventoryOptions triage_inventory_options(const TriageRun& run) {
  InventoryOptions options;
  options.disk_cache = run.disk_cache;
  options.disk = run.disk.get();
  return options;
}

std::vector<const HarnessEntry*> triage_harnesses(const json& args) {
  std::vector<const HarnessEntry*> out;
  if (!args.contains("harness")) return out;
  for (const json& name : args["harness"]) {
    const std::string n = name.get<std::string>();
    if (n == "all") return {};
    const HarnessEntry* h = harness_named(n);
    if (!h)
      usage_error(arg_ref("harness") + " " + n + " is not a harness; use one of " + harness_names_text());
    if (std::find(out.begin(), out.end(), h) == out.end()) out.push_back(h);
  }
  return out;
}

std::string canonical_triage_ref(const std::string& ref, std::string_view arg) {
  const size_t colon = ref.find(':');
  const HarnessEntry* h = colon == std::string::npos ? nullptr : harness_named(ref.substr(0, colon));
  if (!h || colon + 1 >= ref.size()) {
    usage_error(arg_ref(arg) + " " + ref + " is not a session ref; write <harness>:<session id> (" +
                "harness one of " + harness_names_text() + "), as sessions_list prints it");
  }
  return harness_ref(h->name, ref.substr(colon + 1));
}

std::vector<std::string> triage_refs(const json& args, std::string_view arg) {
  std::vector<std::string> out;
  std::set<std::string> seen;
  if (!args.contains(std::string(arg))) return out;
  for (const json& r : args[std::string(arg)]) {
    std::string ref = canonical_triage_ref(r.get<std::string>(), arg);
    if (seen.insert(ref).second) out.push_back(std::move(ref));
  }
  return out;
}

std::string triage_scrub(const TriageRun& run, const std::string& text) {
  return run.scrubber ? run.scrubber->scrub(text) : text;
}

json triage_scrub_list(const TriageRun& run, const std::vector<std::string>& texts) {
  json out = json::array();
  for (const std::string& t : texts)
    out.push_back(triage_scrub(run, t));
  return out;
}

json triage_store_json(const TriageRun& run, const TriageStore& store) {
  json problems = json::array();
  for (const StoreProblem& p : store.problems)
    problems.push_back({{"path", triage_scrub(run, p.path)}, {"reason", triage_scrub(run, p.reason)}});
  return {{"harness", store.harness},
          {"location", string_or_null(triage_scrub(run, store.location))},
          {"source", string_or_null(store.source)},
          {"state", store.state},
          {"sessions", store.sessions},
          {"problems", problems}};
}

}  // namespace csift
