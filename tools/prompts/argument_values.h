// The values completion/complete offers for prompt arguments that name a project or a label selector
// (sessions and agents come from tools/resources). Without MCP: server/ filters and pages them.
#pragma once
#include <string>
#include <vector>

#include "tools/common/tool.h"

namespace csift {

// Every project in the store: the working directory its sessions started in (as the records say; the
// directory name is never decoded), then the encoded directory names, each once, in that order.
std::vector<std::string> project_values(ToolContext& ctx);

// Every label selector: each role, each intermediate prefix and each leaf, in taxonomy order.
std::vector<std::string> label_selector_values();

}  // namespace csift
