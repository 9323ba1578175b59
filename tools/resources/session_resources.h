// Sessions as MCP resources, without MCP: every session and subagent transcript in the store as a
// `csift://session/<id>` or `csift://agent/<id>` address with a title (its first human message), and the
// text a resource reads as (the `show --turn ..` rendering). server/ maps these onto resources/list,
// resources/templates/list and resources/read.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tools/common/tool.h"

namespace csift {

inline constexpr std::string_view kSessionUriPrefix = "csift://session/";
inline constexpr std::string_view kAgentUriPrefix = "csift://agent/";

struct SessionResource {
  std::string uri;          // csift://session/<uuid> or csift://agent/<agent id>
  std::string name;         // the id
  std::string title;        // the first human message, shortened; the id when there is none
  std::string description;  // project directory, last activity, size
  uint64_t bytes = 0;       // the transcript file's size
};

// Every transcript in the store (every project), in the `list` tool's order. An error message instead when
// the store cannot be read.
struct SessionResources {
  std::vector<SessionResource> items;
  std::string error;
};
SessionResources list_session_resources(ToolContext& ctx);

// The text of the transcript a csift:// address names: the `show` tool's rendering of all its turns within
// `max_chars` (a footer names the call that reads on); `error` says why when the address is not a csift://
// session or agent address or names no transcript here.
struct ResourceText {
  std::string text;
  std::string error;  // set when the address is not a csift:// session or agent, or names none
};
ResourceText read_session_resource(std::string_view uri, int64_t max_chars, ToolContext& ctx);

// The transcript file a csift:// session or agent address names (what resources/subscribe watches); `error`
// as for read_session_resource.
struct ResourceFile {
  std::string path;
  std::string error;
};
ResourceFile session_resource_file(std::string_view uri, ToolContext& ctx);

// Completion values: the session ids (`agents` false) or agent ids (true) that start with `prefix`, in the
// `list` tool's order; `total` counts every match, `values` holds at most `max`.
struct IdCompletion {
  std::vector<std::string> values;
  size_t total = 0;
};
IdCompletion complete_transcript_ids(std::string_view prefix, bool agents, bool sessions, size_t max,
                                     ToolContext& ctx);

}  // namespace csift
