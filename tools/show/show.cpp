#include "tools/show/show.h"

#include "core/base/error.h"
#include "core/store/targets.h"
#include "tools/show/show_modes.h"

namespace csift {

void fill_show_header(Envelope& env, const ShowRequest& req, const Transcript& t) {
  env.header["target"] = req.target;
  env.header["path"] = t.path;
  env.header["transcript_id"] = t.id;
  env.header["is_subagent"] = t.is_subagent;
  env.header["parent_session_id"] = t.parent_session_id();
  env.header["address"] = address_text(req);
  env.header["mode"] = req.raw ? "raw" : "rendered";
}

Envelope run_show(const json& args, ToolContext& ctx) {
  const ShowRequest req = parse_show_request(args);
  const TargetResolver resolver(ctx.env, req.claude_home);
  const Transcript t = resolver.resolve_one(req.target);
  if (is_sidecar_path(t.path)) {
    usage_error(
        "the elicitation sidecar is merged automatically into its session and is never a target; show "
        "the session (@<uuid>) instead");
  }
  require_address(req, t.path);
  return req.raw ? run_show_raw(req, t, ctx) : run_show_rendered(req, t, ctx);
}

}  // namespace csift
