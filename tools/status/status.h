// status (the seed's §6.13; SPEC.md §9.10): the live verdict of one top-level session.
#pragma once
#include <string>

#include "core/base/envelope.h"
#include "tools/common/tool.h"
#include "tools/status/status_join.h"

namespace csift {

Envelope run_status(const json& args, ToolContext& ctx);
std::string render_status_text(const Envelope& env, const json& args, const ToolContext& ctx);

// What status and wait share: the one top-level session a call names, its claude home, and the lens.
struct LiveTarget {
  Transcript session;
  std::string claude_home;
  StatusOptions options;
};
LiveTarget parse_live_target(const json& args, const ToolContext& ctx, std::string_view tool);
// The id trio (and path) of the session, for headers and rows.
void put_session_trio(json& j, const Transcript& session);
// The verdict block of a status or wait rendering (verdict line excluded).
std::string render_live_block(const json& row, EpochMs now);

}  // namespace csift
