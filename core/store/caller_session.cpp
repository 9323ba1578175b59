#include "core/store/caller_session.h"

#include "core/base/error.h"
#include "core/store/self_resolve.h"
#include "core/store/session_env.h"
#include "core/store/session_registry.h"

namespace csift {

namespace {

std::string evidence_text(const std::vector<std::string>& evidence) {
  std::string out;
  for (const std::string& e : evidence)
    out += (out.empty() ? "" : "; ") + e;
  return out;
}

void from_registry(CallerSession& out, const Environment& env, const std::string& claude_home) {
  const RegistryLookup lookup = find_registry_caller(claude_home, env.caller_pid);
  out.evidence = lookup.evidence;
  const auto who = env_session_id(env);
  if (who) out.evidence.push_back("$" + who->var + " = " + who->id + " (fixed when this server was spawned)");
  if (lookup.caller) {
    out.id = lookup.caller->session_id;
    out.source = "registry:" + lookup.caller->row_path;
    if (who && who->id != out.id) {
      out.note = "the session registry (" + lookup.caller->row_path + ") names " + out.id + " but $" +
                 who->var + " names " + who->id +
                 ": the variable was fixed when this server was spawned and is stale after /clear or a "
                 "resume; the registry's current row wins";
    }
    return;
  }
  if (who) {
    out.id = who->id;
    out.source = "env:" + who->var;
    out.note = "no Claude Code session registry row (" + claude_home +
               "/sessions/<pid>.json) among this server's ancestor processes; fell back to $" + who->var +
               ", which was fixed when the server was spawned (stale after /clear or a resume)";
    return;
  }
  out.guidance = "no Claude Code session registry row among this server's ancestor processes (" +
                 evidence_text(lookup.evidence) + ") and CLAUDE_CODE_SESSION_ID is unset; " +
                 self_marker_guidance();
}

void from_network(CallerSession& out, const Environment& env) {
  const auto who = env_session_id(env);
  const std::string why =
      "over HTTP this server has no process relation to its caller, so neither Claude Code's session "
      "registry nor its environment can say who is calling";
  if (!who) {
    out.evidence.push_back("$CLAUDE_CODE_SESSION_ID unset in the server's environment");
    out.guidance = why + "; " + self_marker_guidance();
    return;
  }
  out.id = who->id;
  out.source = "env:" + who->var;
  out.evidence.push_back("$" + who->var + " = " + who->id + " (the server's own launch environment)");
  out.note = why + ": $" + who->var +
             " is the environment the server was started in, which names the caller "
             "only if that session started it; " +
             self_marker_guidance();
}

}  // namespace

std::string self_marker_guidance() {
  return "to identify yourself, call whoami with a fresh marker argument (3 CamelCase words + 4 non-trivial "
         "digits you invent, e.g. shaped like CopperLanternMoss3917 but your own): the server finds the "
         "transcript whose tail holds that very call, top-level or subagent; then use the id it returns, or "
         "the target @self:<marker> in any tool";
}

std::string bare_self_guidance() {
  return "@self without a marker is the transcript holding this very call, which only a client that names "
         "the call's tool_use can point to (Claude Code sends it with every MCP call); this call named "
         "none: " +
         self_marker_guidance();
}

CallingTranscript find_calling_transcript(const Environment& env, const std::string& claude_home,
                                          const CallerSession& named) {
  CallingTranscript out;
  std::vector<std::string> preferred;
  if (!named.id.empty()) preferred.push_back(named.id);
  if (const auto who = env_session_id(env); who && who->id != named.id) preferred.push_back(who->id);
  const std::string& id = env.caller_tool_use_id;
  out.landing = find_tool_use_landing(projects_root(claude_home), id, preferred, env.cwd);
  const std::string what = "this call's tool_use " + id + " (named by the client)";
  out.evidence = landing_evidence(out.landing, what);
  if (out.landing.hits.empty()) return out;
  try {
    out.hit = resolution_for_transcript(out.landing.hits.front(), what);
  } catch (const ToolError&) {
    out.evidence += "; its session transcript is missing, so no lane could be given";
  }
  return out;
}

CallerSession resolve_caller_session(const Environment& env, const std::string& claude_home) {
  CallerSession out;
  if (env.caller == CallerLink::spawning_process && env.caller_pid > 0) {
    from_registry(out, env, claude_home);
  } else if (env.caller == CallerLink::network) {
    from_network(out, env);
  } else if (const auto who = env_session_id(env)) {
    out.id = who->id;
    out.source = "env:" + who->var;
  }
  return out;
}

}  // namespace csift
