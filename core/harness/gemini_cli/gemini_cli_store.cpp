// Gemini CLI's store: $GEMINI_CLI_HOME/.gemini (else ~/.gemini), tmp/<project>/chats/session-*.jsonl. A
// single-document session-*.json of a release before v0.39.0 is listed as unsupported; sub-agent folders
// under chats/ are not read.
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>

#include "core/harness/gemini_cli/gemini_cli_harness.h"
#include "core/harness/harness_listing.h"
#include "core/json/stored_json.h"

namespace csift {

namespace {

constexpr size_t kMaxProjectRootBytes = 4096;

// The session id the metadata line records, else the file's stem.
std::string gemini_session_id(const DirEntry& e) {
  std::ifstream in(e.path);
  std::string first;
  std::getline(in, first);
  std::string id = first.size() < (size_t{1} << 20) ? stored_string_field(first, "sessionId") : "";
  if (!id.empty()) return id;
  std::string stem = e.name.substr(0, e.name.size() - 6);
  return stem.starts_with("session-") ? stem.substr(8) : stem;
}

}  // namespace

std::string gemini_project_root(const std::string& session_path) {
  const std::filesystem::path root =
      std::filesystem::path(session_path).parent_path().parent_path() / ".project_root";
  std::error_code ec;
  if (!std::filesystem::is_regular_file(root, ec) ||
      std::filesystem::file_size(root, ec) > kMaxProjectRootBytes)
    return "";
  std::ifstream in(root, std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto blank = [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; };
  while (!text.empty() && blank(text.back()))
    text.pop_back();
  const size_t lead = static_cast<size_t>(std::find_if_not(text.begin(), text.end(), blank) - text.begin());
  text.erase(0, lead);
  return text.starts_with("/") ? text : "";
}

SessionMeta gemini_cli_session_meta(const Transcript& t) {
  return {gemini_project_root(t.path), false};
}

void list_gemini_cli_store(const StoreRoot& root, StoreListing& out) {
  const std::string tmp = root.path + "/tmp";
  std::error_code ec;
  if (!std::filesystem::is_directory(tmp, ec)) return;
  for (const DirEntry& project : list_store_dir(tmp, out.problems)) {
    if (!project.is_dir) continue;
    const std::string chats = project.path + "/chats";
    if (!std::filesystem::is_directory(chats, ec)) continue;
    for (const DirEntry& e : list_store_dir(chats, out.problems)) {
      if (!e.name.starts_with("session-")) continue;
      if (e.name.ends_with(".json")) {
        out.problems.push_back(unsupported_format(
            e.path, "a single-document Gemini CLI session (.json, releases before v0.39.0) is not read"));
        continue;
      }
      if (!e.name.ends_with(".jsonl")) continue;
      if (!e.is_regular) {
        out.problems.push_back({e.path, "not a regular file"});
        continue;
      }
      out.transcripts.push_back(harness_transcript(kGeminiCliHarness, e.path, gemini_session_id(e), chats));
    }
  }
}

}  // namespace csift
