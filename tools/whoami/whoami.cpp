#include "tools/whoami/whoami.h"

#include "core/base/arg_ref.h"
#include "core/base/error.h"
#include "core/store/agent_topology.h"
#include "core/store/session_env.h"
#include "core/store/trap_resolve.h"

namespace csift {

namespace {

std::string self_token(const json& args) {
  if (!args.is_object() || !args.contains("self") || !args["self"].is_string()) return "";
  return args["self"].get<std::string>();
}

std::optional<std::string> claude_home_arg(const json& args) {
  if (!args.is_object() || !args.contains("claude_home") || !args["claude_home"].is_string())
    return std::nullopt;
  return args["claude_home"].get<std::string>();
}

// Env form: one identity row; the lane fields are unknown (null), never fabricated.
void env_identity(Envelope& out, const Environment& env, const std::string& root) {
  auto who = env_session_id(env);
  if (!who) not_found_error(whoami_guidance());
  auto file = find_session_file(root, who->id, env.cwd);
  // An id that names no transcript is no answer: exit non-zero, saying where it looked.
  if (!file) {
    not_found_error("session " + who->id + " ($" + who->var + ") has no transcript under " + root +
                    " (looked in " + root + "/" + encode_cwd(env.cwd) + " and every project dir); " +
                    "if the store lives elsewhere, name it with " + arg_ref("claude_home"));
  }
  json& row = out.add_row("identity");
  row["session_id"] = who->id;
  row["is_subagent"] = nullptr;
  row["parent_session_id"] = nullptr;
  row["depth"] = nullptr;
  row["path"] = file->path;
  row["source"] = "env:" + who->var;
  out.summary["lane"] = "unknown";
  out.notes.push_back(env_lane_note(*who));
}

json identity(const std::string& id, bool is_subagent, const std::string& parent, size_t depth,
              const std::string& path) {
  json row = json::object({{"kind", "identity"}});
  row["session_id"] = id;
  row["is_subagent"] = is_subagent;
  row["parent_session_id"] = parent;
  row["depth"] = depth;
  row["path"] = path;
  row["source"] = "trap";
  return row;
}

// @trap form: self first (depth 0), then each spawning agent, then the top-level session last.
void trap_identities(Envelope& out, const std::string& marker, const Environment& env,
                     const std::string& root) {
  TrapResolution hit = resolve_trap(marker, env, root);
  size_t depth = 0;
  if (hit.agent) {
    AgentTopology topo = build_agent_topology(hit.session, hit.agents);
    for (const std::string& id : topo.ancestry(hit.agent->id)) {
      std::string path;
      for (const Transcript& a : hit.agents) {
        if (a.id == id) path = a.path;
      }
      out.rows.push_back(identity(id, true, hit.session.id, depth++, path));
    }
    out.summary["lane"] = "subagent";
  } else {
    out.notes.push_back(trap_main_lane_note(hit.session.id));
    out.summary["lane"] = "main";
  }
  out.rows.push_back(identity(hit.session.id, false, hit.session.id, depth, hit.session.path));
}

std::string home_relative(const std::string& path, const json& header) {
  std::string home = header.value("home", "");
  if (!home.empty() && path.rfind(home + "/", 0) == 0) return "~" + path.substr(home.size());
  return path;
}

}  // namespace

Envelope run_whoami(const json& args, ToolContext& ctx) {
  const std::string self = self_token(args);
  if (!self.empty() && self != "@main" && self.rfind("@trap:", 0) != 0) {
    usage_error("whoami takes only @main or @trap:<marker> (got '" + self +
                "'); to inspect a different session use list or agents");
  }
  const std::string home = resolve_claude_home(claude_home_arg(args), ctx.env);
  require_claude_home(home, claude_home_arg(args), ctx.env);
  const std::string root = projects_root(home);
  Envelope out = Envelope::make("whoami");
  out.header["self"] = self.empty() ? "@main" : self;
  out.header["projects_root"] = root;
  out.header["home"] = home_dir(ctx.env);
  if (self.rfind("@trap:", 0) == 0) {
    trap_identities(out, self.substr(6), ctx.env, root);
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
    text +=
        "lane unknown: the environment names the TOP-LEVEL session in every lane (inside a subagent it is "
        "the parent's id); a subagent identifies itself with `whoami @trap:<marker>`\n";
  } else if (env.summary.value("lane", "") == "main") {
    text += "lane main: no subagent carries the marker (the main thread should simply use @main)\n";
  }
  return text;
}

}  // namespace csift
