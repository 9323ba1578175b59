// Copilot CLI's store: $COPILOT_HOME (else ~/.copilot), session-state/<session id>/events.jsonl. Its
// session-store.db index and the legacy flat transcripts are not read.
#include <cctype>
#include <filesystem>
#include <fstream>

#include "core/harness/copilot/copilot_harness.h"
#include "core/harness/harness_listing.h"

namespace csift {

namespace {

constexpr size_t kMaxWorkspaceBytes = 64 * 1024;

bool copilot_blank(char c) {
  return std::isspace(static_cast<unsigned char>(c)) != 0;
}

// A scalar's value: blanks around it and trailing commas (a JSON member's) taken off, then one pair of
// matching quotes.
std::string unquoted_scalar(std::string_view v) {
  while (!v.empty() && (copilot_blank(v.back()) || v.back() == ','))
    v.remove_suffix(1);
  while (!v.empty() && copilot_blank(v.front()))
    v.remove_prefix(1);
  if (v.size() >= 2 && (v.front() == '"' || v.front() == '\'') && v.back() == v.front())
    v = v.substr(1, v.size() - 2);
  return std::string(v);
}

}  // namespace

std::string copilot_workspace_cwd(const std::string& events_path) {
  const std::filesystem::path yaml = std::filesystem::path(events_path).parent_path() / "workspace.yaml";
  std::error_code ec;
  if (!std::filesystem::is_regular_file(yaml, ec) ||
      std::filesystem::file_size(yaml, ec) > kMaxWorkspaceBytes)
    return "";
  std::ifstream in(yaml, std::ios::binary);
  std::string line;
  while (std::getline(in, line)) {
    for (std::string_view key : {"cwd:", "\"cwd\":"}) {
      std::string_view l(line);
      if (key == "\"cwd\":") {
        const size_t at = l.find(key);
        if (at == std::string_view::npos) continue;
        l = l.substr(at);
      }
      if (!l.starts_with(key)) continue;
      std::string v = unquoted_scalar(l.substr(key.size()));
      if (v.starts_with("/")) return v;
    }
  }
  return "";
}

SessionMeta copilot_session_meta(const Transcript& t) {
  return {copilot_workspace_cwd(t.path), false};
}

void list_copilot_store(const StoreRoot& root, StoreListing& out) {
  const std::string state = root.path + "/session-state";
  std::error_code ec;
  if (!std::filesystem::is_directory(state, ec)) return;
  for (const DirEntry& dir : list_store_dir(state, out.problems)) {
    if (!dir.is_dir) continue;
    const std::string events = dir.path + "/events.jsonl";
    if (!std::filesystem::exists(std::filesystem::symlink_status(events, ec))) continue;
    if (!std::filesystem::is_regular_file(events, ec)) {
      out.problems.push_back({events, "not a regular file"});
      continue;
    }
    out.transcripts.push_back(harness_transcript(kCopilotHarness, events, dir.name, state));
  }
}

}  // namespace csift
