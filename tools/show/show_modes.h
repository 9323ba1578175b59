// The two halves of `show`: the rendered fetch and the verbatim --raw fetch (one file each).
#pragma once
#include "core/base/envelope.h"
#include "core/store/store.h"
#include "tools/common/tool.h"
#include "tools/show/show_request.h"

namespace csift {

Envelope run_show_rendered(const ShowRequest& req, const Transcript& t, ToolContext& ctx);
Envelope run_show_raw(const ShowRequest& req, const Transcript& t, ToolContext& ctx);

// The header row both modes share: {kind, command, target, path, transcript id trio, address, mode}.
void fill_show_header(Envelope& env, const ShowRequest& req, const Transcript& t);

}  // namespace csift
