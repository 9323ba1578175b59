// tools/list as served: one descriptor per registered tool, built from the tool table and its schema files,
// in table order, paged with an opaque cursor.
#pragma once
#include <optional>
#include <string>

#include "core/base/envelope.h"

namespace csift {

// The registered tools' names, comma-separated in table order, for "unknown tool" messages. `network`: only
// the ones HTTP serves (no ToolSpec::local_only), as its tools/list does.
std::string tool_names(bool network = false);

// {name, title, description, inputSchema, outputSchema, annotations} for every tool, in table order.
const json& tool_descriptors();

struct ToolPage {
  json tools = json::array();
  std::string next_cursor;  // "" on the last page
};

// The page starting at `cursor` ("" for the first); nullopt when the cursor is not one this server issued.
// `network`: the HTTP listing, without the tools served only to a local caller (ToolSpec::local_only).
const json& network_tool_descriptors();
std::optional<ToolPage> tool_page(const std::string& cursor, size_t page_size, bool network = false);

}  // namespace csift
