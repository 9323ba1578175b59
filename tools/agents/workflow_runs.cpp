#include "tools/agents/workflow_runs.h"
#include "core/json/stored_json.h"

#include <filesystem>
#include <fstream>
#include <sstream>

namespace csift {
namespace {

namespace fs = std::filesystem;

void read_journal(const fs::path& path, WorkflowRun& run) {
  std::ifstream in(path, std::ios::binary);
  std::string line;
  while (std::getline(in, line)) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    const json event = json::parse(line, nullptr, false);
    if (event.is_discarded() || !event.is_object() || !event.contains("agentId") ||
        !event["agentId"].is_string()) {
      ++run.journal_skipped_lines;
      continue;
    }
    JournalEntry& entry = run.journal[event["agentId"].get<std::string>()];
    const std::string type = event.value("type", std::string());
    if (type == "started") entry.started = true;
    if (type == "result") {
      entry.has_result = true;
      const json& r = event.contains("result") ? event["result"] : json(nullptr);
      entry.result = r.is_string() ? r.get<std::string>() : r.is_null() ? "" : dump_json(r);
    }
  }
}

}  // namespace

std::map<std::string, WorkflowRun> read_workflow_runs(const Transcript& session) {
  std::map<std::string, WorkflowRun> runs;
  const fs::path dir = fs::path(session.project_dir) / session.id;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir / "workflows", ec)) {
    const std::string name = e.path().filename().string();
    if (!name.starts_with("wf_") || !name.ends_with(".json")) continue;
    const json manifest = read_json_file(e.path().string());
    const std::string fallback = name.substr(0, name.size() - 5);
    const std::string id = manifest.is_object() ? manifest.value("runId", fallback) : fallback;
    WorkflowRun& run = runs[id];
    run.run_id = id;
    run.has_manifest = manifest.is_object();
    if (run.has_manifest) run.manifest = manifest;
  }
  for (const auto& e : fs::directory_iterator(dir / "subagents" / "workflows", ec)) {
    const fs::path journal = e.path() / "journal.jsonl";
    if (!fs::is_regular_file(journal, ec)) continue;
    WorkflowRun& run = runs[e.path().filename().string()];
    run.run_id = e.path().filename().string();
    read_journal(journal, run);
  }
  return runs;
}

}  // namespace csift
