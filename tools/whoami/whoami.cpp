#include "tools/whoami/whoami.h"

#include "core/base/arg_ref.h"
#include "core/base/error.h"
#include "core/store/agent_topology.h"
#include "core/store/caller_session.h"
#include "core/store/self_resolve.h"
#include "core/store/session_env.h"
#include "core/store/trap_resolve.h"

namespace csift {

namespace {

std::string self_token(const json& args) {
  if (!args.is_object()) return "";
  if (args.contains("marker") && args["marker"].is_string()) {
    if (args.contains("self") && args["self"].is_string())
      usage_error("whoami takes " + arg_ref("self") + " or " + arg_ref("marker") + ", not both");
    return "@self:" + args["marker"].get<std::string>();
  }
  if (!args.contains("self") || !args["self"].is_string()) return "";
  return args["self"].get<std::string>();
}

std::optional<std::string> claude_home_arg(const json& args) {
  if (!args.is_object() || !args.contains("claude_home") || !args["claude_home"].is_string())
    return std::nullopt;
  return args["claude_home"].get<std::string>();
}

// An id that names no transcript is no answer: exit non-zero, saying where it looked.
Transcript require_session_file(const std::string& root, const std::string& id, const std::string& source,
                                const Environment& env) {
  auto file = find_session_file(root, id, env.cwd);
  if (!file) {
    not_found_error("session " + id + " (" + source + ") has no transcript under " + root + " (looked in " +
                    root + "/" + encode_cwd(env.cwd) + " and every project dir); " +
                    "if the store lives elsewhere, name it with " + arg_ref("claude_home"));
  }
  return *file;
}

// Env and registry forms: one identity row; the lane fields are unknown (null), never fabricated.
json& unknown_lane_identity(Envelope& out, const std::string& id, const std::string& path,
                            const std::string& source) {
  json& row = out.add_row("identity");
  row["session_id"] = id;
  row["is_subagent"] = nullptr;
  row["parent_session_id"] = nullptr;
  row["depth"] = nullptr;
  row["path"] = path;
  row["source"] = source;
  out.summary["lane"] = "unknown";
  return row;
}

void env_identity(Envelope& out, const Environment& env, const std::string& root) {
  auto who = env_session_id(env);
  if (!who) not_found_error(whoami_guidance());
  const Transcript file = require_session_file(root, who->id, "$" + who->var, env);
  unknown_lane_identity(out, who->id, file.path, "env:" + who->var);
  out.notes.push_back(env_lane_note(*who));
}

json identity(const std::string& id, bool is_subagent, const std::string& parent, size_t depth,
              const std::string& path, const std::string& source) {
  json row = json::object({{"kind", "identity"}});
  row["session_id"] = id;
  row["is_subagent"] = is_subagent;
  row["parent_session_id"] = parent;
  row["depth"] = depth;
  row["path"] = path;
  row["source"] = source;
  return row;
}

// A server's @main (SPEC §9.5): the session registry row of an ancestor process (stdio), else the
// environment, with what was looked at as evidence. The lane stays unknown: the registry, like the
// variable, names the top-level session the Claude Code process is in. `missed` (when not empty) is why the
// call's own tool_use did not answer, stated before the registry's and the environment's evidence.
void caller_identity(Envelope& out, const Environment& env, const std::string& root, const CallerSession& who,
                     const std::string& missed = "") {
  json evidence = json::array();
  if (!missed.empty()) evidence.push_back(missed);
  for (const std::string& e : who.evidence)
    evidence.push_back(e);
  out.summary["evidence"] = std::move(evidence);
  if (who.id.empty()) not_found_error(missed.empty() ? who.guidance : missed + "; " + who.guidance);
  const Transcript file = require_session_file(root, who.id, who.source, env);
  unknown_lane_identity(out, who.id, file.path, who.source);
  std::string note = who.note;
  if (!missed.empty()) {
    note = "this call's own tool_use was not found, so the answer fell back to " + who.source + " (" +
           missed + ")" + (note.empty() ? "" : "; " + note);
  }
  if (!note.empty()) {
    out.summary["source_note"] = note;
    out.notes.push_back(note);
  }
  out.notes.push_back(
      "this names the TOP-LEVEL session in every lane (Claude Code's registry and environment "
      "know no subagent); " +
      self_marker_guidance());
}

// The lane of a resolved caller: self first (depth 0), then each spawning agent, then the top-level session
// last; summary.lane says which lane called.
void lane_identities(Envelope& out, const TrapResolution& hit, const std::string& source) {
  size_t depth = 0;
  if (hit.agent) {
    AgentTopology topo = build_agent_topology(hit.session, hit.agents);
    for (const std::string& id : topo.ancestry(hit.agent->id)) {
      std::string path;
      for (const Transcript& a : hit.agents) {
        if (a.id == id) path = a.path;
      }
      out.rows.push_back(identity(id, true, hit.session.id, depth++, path, source));
    }
    out.summary["lane"] = "subagent";
  } else {
    out.summary["lane"] = "main";
  }
  out.rows.push_back(identity(hit.session.id, false, hit.session.id, depth, hit.session.path, source));
}

// @trap / @self form: the transcript carrying the marker, and its ancestry.
void trap_identities(Envelope& out, const std::string& token, const Environment& env,
                     const std::string& root) {
  const bool self = token.rfind("@self:", 0) == 0;
  const std::string marker = token.substr(6);
  CallLanding landing;
  TrapResolution hit = self ? resolve_self_marker(marker, root, &landing) : resolve_trap(marker, env, root);
  if (self)
    out.summary["evidence"] = json::array({landing_evidence(landing, "the call carrying the marker")});
  if (!hit.agent)
    out.notes.push_back(self ? self_main_lane_note(marker, hit.session.id)
                             : trap_main_lane_note(hit.session.id));
  lane_identities(out, hit, self ? "self" : "trap");
}

// The call's own tool_use, which Claude Code names with every call (`_meta["claudecode/toolUseId"]`): the
// exact transcript and lane, on any transport. When it never lands, the registry and then the environment
// answer as before, and the evidence says why.
void tool_use_identities(Envelope& out, const Environment& env, const std::string& home,
                         const std::string& root) {
  const CallerSession named = resolve_caller_session(env, home);
  const CallingTranscript call = find_calling_transcript(env, home, named);
  const CallLanding& l = call.landing;
  out.summary["caller_call"] = json{{"tool_use_id", env.caller_tool_use_id},
                                    {"found", call.hit.has_value()},
                                    {"waited_ms", l.waited_ms},
                                    {"landed_late", l.landed_late},
                                    {"woken_by", l.woken_by},
                                    {"found_among", string_or_null(l.found_among)},
                                    {"transcripts_read", l.candidates}};
  if (!call.hit) return caller_identity(out, env, root, named, call.evidence);
  json evidence = json::array({call.evidence});
  for (const std::string& e : named.evidence)
    evidence.push_back(e);
  out.summary["evidence"] = std::move(evidence);
  lane_identities(out, *call.hit, "tool_use:" + env.caller_tool_use_id);
  if (!named.id.empty() && named.id != call.hit->session.id) {
    const std::string note = "this call is in session " + call.hit->session.id + " but " + named.source +
                             " names " + named.id + ": the call's own tool_use wins";
    out.summary["source_note"] = note;
    out.notes.push_back(note);
  }
}

std::string home_relative(const std::string& path, const json& header) {
  std::string home = header.value("home", "");
  if (!home.empty() && path.rfind(home + "/", 0) == 0) return "~" + path.substr(home.size());
  return path;
}

}  // namespace

Envelope run_whoami(const json& args, ToolContext& ctx) {
  const std::string self = self_token(args);
  if (!self.empty() && self != "@main" && self != "@self" && self.rfind("@trap:", 0) != 0 &&
      self.rfind("@self:", 0) != 0) {
    usage_error("whoami takes only @main, @self, @trap:<marker> or @self:<marker> (got '" + self +
                "'); to inspect a different session use list or agents");
  }
  const std::string home = resolve_claude_home(claude_home_arg(args), ctx.env);
  require_claude_home(home, claude_home_arg(args), ctx.env);
  const std::string root = projects_root(home);
  Envelope out = Envelope::make("whoami");
  out.header["self"] = self.empty() ? "@main" : self;
  out.header["projects_root"] = root;
  out.header["home"] = home_dir(ctx.env);
  if (self.rfind("@trap:", 0) == 0 || self.rfind("@self:", 0) == 0) {
    trap_identities(out, self, ctx.env, root);
  } else if (!ctx.env.caller_tool_use_id.empty()) {
    tool_use_identities(out, ctx.env, home, root);
  } else if (self == "@self") {
    usage_error(bare_self_guidance());
  } else if (ctx.env.caller != CallerLink::command_line) {
    caller_identity(out, ctx.env, root, resolve_caller_session(ctx.env, home));
  } else {
    env_identity(out, ctx.env, root);
  }
  out.summary["identities"] = out.rows.size();
  return out;
}

std::string render_whoami_text(const Envelope& env, const json& /*args*/, const ToolContext& /*ctx*/) {
  std::string text;
  for (const json& row : env.rows) {
    text += "session " + row.value("session_id", "");
    if (row["depth"].is_number()) {
      bool sub = row["is_subagent"].get<bool>();
      text += std::string("  (") + (sub ? "subagent" : "top-level") + " · depth " +
              std::to_string(row["depth"].get<size_t>());
      if (sub) text += " · parent session " + row.value("parent_session_id", "");
      text += ")";
    }
    text += "\npath " + home_relative(row.value("path", ""), env.header) + "\n";
  }
  if (env.summary.value("lane", "") == "unknown") {
    const bool registry = !env.rows.empty() && env.rows[0].value("source", "").rfind("registry:", 0) == 0;
    text +=
        std::string("lane unknown: ") + (registry ? "Claude Code's session registry" : "the environment") +
        " names the TOP-LEVEL session in every lane (inside a subagent it is the parent's id); a subagent "
        "identifies itself with `whoami @trap:<marker>` from a shell, or whoami's marker argument over "
        "MCP\n";
  } else if (env.summary.value("lane", "") == "main") {
    const std::string source = env.rows.empty() ? "" : env.rows.back().value("source", "");
    text += source == "self"
                ? "lane main: the marker is in a top-level transcript (the main thread, not a subagent)\n"
            : source.rfind("tool_use:", 0) == 0
                ? "lane main: this call is in a top-level transcript (the main thread, not a subagent)\n"
                : "lane main: no subagent carries the marker (the main thread should simply use @main)\n";
  }
  if (env.summary.contains("caller_call") && env.summary["caller_call"].value("found", false)) {
    const json& c = env.summary["caller_call"];
    text += "found by this call's own tool_use " + c.value("tool_use_id", "") + " (" +
            (c.value("landed_late", false)
                 ? "it landed " + std::to_string(c.value("waited_ms", 0)) + " ms after the call began"
                 : std::string("already on disk")) +
            ")\n";
  }
  return text;
}

}  // namespace csift
