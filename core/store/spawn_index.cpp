#include "core/store/spawn_index.h"

#include <cctype>

#include "core/harness/claude_code/claude_fields.h"
#include "core/json/stored_json.h"
#include "core/record/transcript_reader.h"
#include "core/scan/substring_finder.h"

namespace csift {

bool is_spawn_tool(std::string_view name) {
  return name == "Task" || name == "Agent" || name == "Workflow";
}

bool SpawnCall::async_launch() const {
  return result_status == "async_launched" || result_text.starts_with("Async agent launched");
}

namespace {

// The agent id a spawn's result names: toolUseResult.agentId, else an `agentId: <id>` line in the text.
std::string named_agent_id(const nlohmann::json& tool_result, const std::string& text) {
  std::string id = json_string_at(tool_result, "agentId");
  if (!id.empty()) return id;
  const size_t at = text.find("agentId: ");
  if (at == std::string::npos) return "";
  size_t end = at + 9;
  while (end < text.size() && (std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '-'))
    ++end;
  return text.substr(at + 9, end - at - 9);
}

}  // namespace

bool SpawnCollector::may_matter(std::string_view line) const {
  static const SubstringFinder kToolUse({"tool_use"}, false), kToolResult({"tool_result"}, false),
      kSpawnTools({"\"Task\"", "\"Agent\"", "\"Workflow\""}, false);
  if (kToolUse.contains(line) && kSpawnTools.contains(line)) return true;
  const std::unordered_set<std::string>& open_ids = join_.waiting();
  if (open_ids.empty() || !kToolResult.contains(line)) return false;
  for (const std::string& id : open_ids)
    if (line.find(id) != std::string_view::npos) return true;
  return false;
}

void SpawnCollector::take(const Record& r) {
  for (const Block& b : r.message.blocks) {
    if (b.kind == BlockKind::tool_use && is_spawn_tool(b.name)) {
      const nlohmann::json input = parse_stored_object(b.input_json);
      SpawnCall c;
      c.tool_use_id = b.id;
      c.tool = b.name;
      c.issuer_id = issuer_;
      c.line = r.line;
      c.timestamp = r.timestamp;
      c.description = json_string_at(input, "description");
      c.subagent_type = json_string_at(input, "subagent_type");
      c.name = json_string_at(input, "name");
      c.team_name = json_string_at(input, "team_name");
      if (b.name == "Workflow") c.workflow_name = json_string_at(input, "name");
      open_[b.id] = calls_.size();
      calls_.push_back(std::move(c));
      join_.open(b.id, r.line, 0);
    } else if (b.kind == BlockKind::tool_result) {
      join_.result(r, b, 0);
    }
  }
}

void SpawnCollector::close(const Record& r, const Block& b) {
  const auto it = open_.find(b.tool_use_id);
  if (it == open_.end()) return;
  SpawnCall& c = calls_[it->second];
  open_.erase(it);
  const nlohmann::json result = parse_stored_object(cc(r).tool_use_result_json);
  c.has_result = true;
  c.result_is_error = b.is_error;
  c.result_text = b.content_text;
  c.result_agent_id = named_agent_id(result, b.content_text);
  c.result_status = json_string_at(result, "status");
}

SessionSpawns session_spawns(const Transcript& session, const CancelToken* cancel) {
  SessionSpawns out;
  SpawnCollector collector("");
  ReadOptions opts;
  opts.sequential = true;  // the screen follows the calls seen so far
  opts.cancel = cancel;
  if (reader_for(session).raw_probes()) {
    static const SubstringFinder kInlineSidechain({"\"isSidechain\":true"}, false);
    opts.want = [&](std::string_view line) {
      if (kInlineSidechain.contains(line)) ++out.inline_sidechain_records;
      return collector.may_matter(line);
    };
  }
  const ReadStats stats = for_each_record(session, opts, [&](Record&& r) {
    if (!opts.want && cc(r).is_sidechain) ++out.inline_sidechain_records;
    collector.take(r);
    return true;
  });
  if (stats.error.empty() && !stats.cancelled) collector.join_results_before_calls(session, cancel);
  out.calls = collector.finish();
  out.skipped_lines = stats.skipped_lines;
  out.error = stats.error;
  return out;
}

}  // namespace csift
