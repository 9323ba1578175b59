#include "tools/prompts/argument_values.h"

#include <set>

#include "core/record/labels.h"
#include "core/store/targets.h"
#include "tools/dispatch/invoke_tool.h"

namespace csift {

std::vector<std::string> project_values(ToolContext& ctx) {
  std::vector<std::string> out;
  std::set<std::string> seen;
  const ToolSpec* list = find_tool("list");
  if (list) {
    // Every top-level session's start cwd (a project directory is named by it).
    const ToolOutcome r = invoke_tool(*list, json{{"max_count", 1000000}, {"no_subagents", true}}, ctx);
    std::set<std::string> cwds;
    for (const auto& row : r.envelope.rows) {
      if (row.is_object() && row.contains("cwd") && row["cwd"].is_string())
        cwds.insert(row["cwd"].get<std::string>());
    }
    for (const std::string& cwd : cwds) {
      if (!cwd.empty() && seen.insert(cwd).second) out.push_back(cwd);
    }
  }
  const TargetResolver resolver(ctx.env, std::nullopt);
  for (const std::string& dir : list_project_dirs(resolver.projects_root())) {
    const std::string name = dir.substr(dir.find_last_of('/') + 1);
    if (seen.insert(name).second) out.push_back(name);
  }
  return out;
}

std::vector<std::string> label_selector_values() {
  std::vector<std::string> out;
  std::set<std::string> seen;
  for (const Label l : all_labels()) {
    const std::string path(label_path(l));
    for (size_t dot = path.find('.'); dot != std::string::npos; dot = path.find('.', dot + 1)) {
      if (seen.insert(path.substr(0, dot)).second) out.push_back(path.substr(0, dot));
    }
    if (seen.insert(path).second) out.push_back(path);
  }
  return out;
}

}  // namespace csift
