#include "tools/resources/session_resources.h"

#include "core/base/error.h"
#include "core/store/targets.h"
#include "tools/common/retention_notes.h"
#include "tools/dispatch/invoke_tool.h"

namespace csift {
namespace {

std::string str_field(const json& row, const char* key) {
  return row.contains(key) && row[key].is_string() ? row[key].get<std::string>() : "";
}

// The first line of a message, at most `max` characters (UTF-8 safe), with an ellipsis when cut.
std::string shorten(std::string_view text, size_t max) {
  text = text.substr(0, text.find('\n'));
  std::string out;
  size_t chars = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if ((c & 0xC0) != 0x80 && chars++ == max) return out + "\xE2\x80\xA6";
    out.push_back(text[i]);
  }
  return out;
}

// The id a csift:// session or agent address names; "" when it is not one. An id names one transcript: a
// uuid (or prefix) or an agent id, never a project (`-Users-…`) or a form with a colon.
std::string_view resource_id(std::string_view uri) {
  std::string_view id;
  for (const std::string_view prefix : {kSessionUriPrefix, kAgentUriPrefix}) {
    if (uri.substr(0, prefix.size()) == prefix) id = uri.substr(prefix.size());
  }
  if (id.empty() || id.front() == '-' || id.find_first_of("/:@ \t\n") != std::string_view::npos) return {};
  return id;
}

constexpr const char* kNotAnAddress =
    "not a csift:// session or agent address: use csift://session/<id> or csift://agent/<id>";

}  // namespace

SessionResources list_session_resources(ToolContext& ctx) {
  SessionResources out;
  const ToolSpec* list = find_tool("list");
  if (!list) return {{}, "the list tool is not registered"};
  // No target: every project. No row cap: a resource list pages itself.
  const ToolOutcome r = invoke_tool(*list, json{{"max_count", 1000000}}, ctx);
  if (r.envelope.is_error) return {{}, r.text};
  for (const auto& row : r.envelope.rows) {
    if (!row.is_object() || str_field(row, "kind") != "session") continue;
    const std::string id = str_field(row, "session_id");
    if (id.empty()) continue;
    const bool agent = row.value("is_subagent", false);
    SessionResource res;
    res.uri = std::string(agent ? kAgentUriPrefix : kSessionUriPrefix) + id;
    res.name = id;
    const json& first = row.contains("first_user") ? row["first_user"] : json();
    const std::string first_text = first.is_object() ? str_field(first, "text") : "";
    res.title = first_text.empty() ? id : shorten(first_text, 80);
    res.description = (agent ? "subagent transcript" : "session") + std::string(" in ") +
                      str_field(row, "cwd") + ", last activity " + str_field(row, "last_activity_utc");
    // A session the cleanup is about to take says so where a client shows it (SPEC.md §2 "Retention").
    if (row.contains("expires_in_days") && row["expires_in_days"].is_number_integer())
      res.description += "; " + expiry_phrase(row["expires_in_days"].get<int64_t>());
    res.bytes = row.contains("bytes") && row["bytes"].is_number_unsigned() ? row["bytes"].get<uint64_t>() : 0;
    out.items.push_back(std::move(res));
  }
  return out;
}

ResourceText read_session_resource(std::string_view uri, int64_t max_chars, ToolContext& ctx) {
  const std::string_view id = resource_id(uri);
  if (id.empty()) return {"", kNotAnAddress};
  const ToolSpec* show = find_tool("show");
  if (!show) return {"", "the show tool is not registered"};
  const json args{
      {"targets", json::array({"@" + std::string(id)})}, {"turn", ".."}, {"max_chars", max_chars}};
  const ToolOutcome r = invoke_tool(*show, args, ctx);
  if (r.envelope.is_error) return {"", r.text};
  return {r.text, ""};
}

ResourceFile session_resource_file(std::string_view uri, ToolContext& ctx) {
  const std::string_view id = resource_id(uri);
  if (id.empty()) return {"", kNotAnAddress};
  try {
    const Transcript t = TargetResolver(ctx.env, std::nullopt).resolve_one("@" + std::string(id));
    return {t.path, ""};
  } catch (const std::exception& e) {
    return {"", e.what()};
  }
}

IdCompletion complete_transcript_ids(std::string_view prefix, bool agents, bool sessions, size_t max,
                                     ToolContext& ctx) {
  IdCompletion out;
  if (!prefix.empty() && prefix.front() == '@') prefix.remove_prefix(1);
  for (const auto& r : list_session_resources(ctx).items) {
    const bool is_agent = r.uri.rfind(kAgentUriPrefix, 0) == 0;
    if ((is_agent && !agents) || (!is_agent && !sessions)) continue;
    if (r.name.compare(0, prefix.size(), prefix) != 0) continue;
    ++out.total;
    if (out.values.size() < max) out.values.push_back(r.name);
  }
  return out;
}

}  // namespace csift
