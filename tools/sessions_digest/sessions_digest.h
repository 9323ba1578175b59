// sessions_digest: the bounded facts of new and changed sessions (or of named ones), each digest's watermark
// recorded in the state database (SPEC.md §14).
#pragma once
#include <string>

#include "core/base/envelope.h"
#include "tools/common/tool.h"

namespace csift {

// The provider-boundary notice every digest starts with.
extern const char* const kDigestNotice;

Envelope run_sessions_digest(const json& args, ToolContext& ctx);
std::string render_sessions_digest_text(const Envelope& env, const json& args, const ToolContext& ctx);

}  // namespace csift
