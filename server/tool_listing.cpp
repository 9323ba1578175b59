#include "server/tool_listing.h"

#include <charconv>

#include "tools/dispatch/tool_table.h"

namespace csift {
namespace {

json descriptor(const ToolSpec& tool) {
  const std::string title = tool_title(tool.name);
  // Every tool reads the local transcript store only: nothing is changed and nothing outside is reached.
  json annotations{{"title", title},
                   {"readOnlyHint", tool.read_only},
                   {"destructiveHint", false},
                   {"idempotentHint", true},
                   {"openWorldHint", false}};
  // The title and description are the descriptor's own: a copy inside inputSchema reaches the model twice
  // (Claude Code sends the schema whole), so the served input schema carries only the arguments.
  json input = input_schema_served(tool.name);
  input.erase("title");
  input.erase("description");
  // Claude Code's ToolSearch scores a deferred tool by its name and description words, and by the words of
  // this hint (schemas/README.md, "Served text and CLI help"); it is not part of the definition the model is
  // sent.
  const json hint = input.value("x-search-hint", json());
  input.erase("x-search-hint");
  json out{{"name", tool.name},
           {"title", title},
           {"description", tool_description(tool.name)},
           {"inputSchema", std::move(input)},
           {"outputSchema", output_schema(tool.name)},
           {"annotations", std::move(annotations)}};
  if (hint.is_string()) out["_meta"] = json{{"anthropic/searchHint", hint}};
  return out;
}

// Cursors are "p" + the offset in hex, salted with the table size so a cursor from a build with a different
// table is refused instead of silently skipping tools. Opaque to clients; validated strictly here.
std::string make_cursor(size_t offset, size_t table_size) {
  char buf[64];
  const int n = std::snprintf(buf, sizeof buf, "p%zx.%zx", offset, table_size);
  return std::string(buf, static_cast<size_t>(n));
}

std::optional<size_t> read_cursor(const std::string& cursor, size_t table_size) {
  if (cursor.size() < 4 || cursor[0] != 'p') return std::nullopt;
  const char* p = cursor.data() + 1;
  const char* end = cursor.data() + cursor.size();
  size_t offset = 0;
  size_t size = 0;
  auto r = std::from_chars(p, end, offset, 16);
  if (r.ec != std::errc() || r.ptr == end || *r.ptr != '.') return std::nullopt;
  auto s = std::from_chars(r.ptr + 1, end, size, 16);
  if (s.ec != std::errc() || s.ptr != end || size != table_size) return std::nullopt;
  if (offset == 0 || offset >= table_size) return std::nullopt;  // issued cursors always point mid-table
  return offset;
}

}  // namespace

std::string tool_names(bool network) {
  std::string names;
  for (const auto& tool : tool_table())
    if (!network || !tool.local_only) names += (names.empty() ? "" : ", ") + std::string(tool.name);
  return names.empty() ? "(none)" : names;
}

const json& tool_descriptors() {
  static const json all = [] {
    json out = json::array();
    for (const auto& tool : tool_table())
      out.push_back(descriptor(tool));
    return out;
  }();
  return all;
}

const json& network_tool_descriptors() {
  static const json served = [] {
    json out = json::array();
    for (const auto& tool : tool_table())
      if (!tool.local_only) out.push_back(descriptor(tool));
    return out;
  }();
  return served;
}

std::optional<ToolPage> tool_page(const std::string& cursor, size_t page_size, bool network) {
  const json& all = network ? network_tool_descriptors() : tool_descriptors();
  size_t offset = 0;
  if (!cursor.empty()) {
    auto parsed = read_cursor(cursor, all.size());
    if (!parsed) return std::nullopt;
    offset = *parsed;
  }
  if (page_size == 0) page_size = 1;
  ToolPage page;
  const size_t end = std::min(all.size(), offset + page_size);
  for (size_t i = offset; i < end; ++i)
    page.tools.push_back(all[i]);
  if (end < all.size()) page.next_cursor = make_cursor(end, all.size());
  return page;
}

}  // namespace csift
