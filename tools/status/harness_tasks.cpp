#include "tools/status/harness_tasks.h"
#include "core/json/stored_json.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

namespace csift {
namespace {

namespace fs = std::filesystem;

std::string text_at(const json& j, const char* key) {
  if (!j.contains(key)) return "";
  if (j[key].is_string()) return j[key].get<std::string>();
  if (j[key].is_number()) return j[key].dump();
  return "";
}

// Numeric ids sort as numbers ("2" before "10"), anything else after them by text.
bool id_less(const std::string& a, const std::string& b) {
  const bool na = !a.empty() && a.find_first_not_of("0123456789") == std::string::npos;
  const bool nb = !b.empty() && b.find_first_not_of("0123456789") == std::string::npos;
  if (na && nb) return a.size() != b.size() ? a.size() < b.size() : a < b;
  if (na != nb) return na;
  return a < b;
}

}  // namespace

HarnessTasks read_harness_tasks(const std::string& claude_home, const std::string& session_id) {
  HarnessTasks out;
  std::map<std::string, json> by_id;  // the same task in both directory forms is one task
  const fs::path root = fs::path(claude_home) / "tasks";
  for (const fs::path& dir : {root / session_id, root / ("session-" + session_id.substr(0, 8))}) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) continue;
    out.dir_found = true;
    out.dirs.push_back(dir.string());
    for (const auto& e : fs::directory_iterator(dir, ec)) {
      if (e.path().extension() != ".json") continue;
      const json task = read_json_file(e.path().string());
      if (!task.is_object()) {
        ++out.unreadable;
        continue;
      }
      std::string id = text_at(task, "id");
      if (id.empty()) id = e.path().stem().string();
      by_id[id] = task;
    }
  }
  std::vector<std::pair<std::string, json>> open;
  for (auto& [id, task] : by_id) {
    const std::string status = text_at(task, "status");
    if (status == "completed") {
      ++out.completed;
      continue;
    }
    open.emplace_back(
        id, json{{"id", id},
                 {"subject", string_or_null(text_at(task, "subject"))},
                 {"status", string_or_null(status)},
                 {"active_form", string_or_null(text_at(task, "activeForm"))},
                 {"owner", string_or_null(text_at(task, "owner"))},
                 {"blocked_by", task.contains("blockedBy") && task["blockedBy"].is_array() ? task["blockedBy"]
                                                                                           : json::array()}});
  }
  std::stable_sort(open.begin(), open.end(), [](const auto& a, const auto& b) {
    const bool pa = a.second["status"] == "in_progress", pb = b.second["status"] == "in_progress";
    return pa != pb ? pa : id_less(a.first, b.first);
  });
  for (auto& [id, task] : open)
    out.open.push_back(std::move(task));
  return out;
}

}  // namespace csift
