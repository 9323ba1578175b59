// Gemini CLI's store: $GEMINI_CLI_HOME/.gemini (else ~/.gemini), tmp/<project>/chats/session-*.jsonl, and the
// single-document session-*.json of releases before v0.39.0 (read as the log gemini-cli migrates it to),
// unless a resume already migrated it to the .jsonl beside it; sub-agent folders under chats/ are not read.
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <set>

#include "core/harness/gemini_cli/gemini_cli_harness.h"
#include "core/harness/harness_listing.h"
#include "core/json/stored_json.h"

namespace csift {

namespace {

constexpr size_t kMaxProjectRootBytes = 4096;

constexpr size_t kLegacyHeadBytes = 64 * 1024;

// The top-level `"sessionId": "<id>"` of a legacy document, found in its head (JSON.stringify writes it
// first); "" when absent there or not a plain string.
std::string gemini_legacy_session_id(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::string head(kLegacyHeadBytes, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<size_t>(in.gcount()));
  const size_t key = head.find("\"sessionId\"");
  if (key == std::string::npos) return "";
  size_t i = key + 11;
  while (i < head.size() && (head[i] == ' ' || head[i] == '\t' || head[i] == '\n' || head[i] == '\r'))
    ++i;
  if (i >= head.size() || head[i] != ':') return "";
  ++i;
  while (i < head.size() && (head[i] == ' ' || head[i] == '\t' || head[i] == '\n' || head[i] == '\r'))
    ++i;
  if (i >= head.size() || head[i] != '"') return "";
  const size_t end = head.find('"', i + 1);
  if (end == std::string::npos) return "";
  const std::string id = head.substr(i + 1, end - i - 1);
  return id.find('\\') == std::string::npos ? id : "";
}

// The session id the metadata line records, else the file's stem.
std::string gemini_session_id(const DirEntry& e) {
  const bool legacy = e.name.ends_with(".json");
  std::string id;
  if (legacy) {
    id = gemini_legacy_session_id(e.path);
  } else {
    std::ifstream in(e.path);
    std::string first;
    std::getline(in, first);
    id = first.size() < (size_t{1} << 20) ? stored_string_field(first, "sessionId") : "";
  }
  if (!id.empty()) return id;
  std::string stem = e.name.substr(0, e.name.size() - (legacy ? 5 : 6));
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
    const std::vector<DirEntry> entries = list_store_dir(chats, out.problems);
    std::set<std::string> names;
    for (const DirEntry& e : entries)
      names.insert(e.name);
    for (const DirEntry& e : entries) {
      if (!e.name.starts_with("session-")) continue;
      if (!e.name.ends_with(".jsonl") && !e.name.ends_with(".json")) continue;
      if (e.name.ends_with(".json") && names.count(e.name + "l")) {
        // gemini-cli migrated it to `<name>.jsonl` when it resumed the session: that log holds every message.
        out.problems.push_back(
            {e.path, "a legacy session migrated to " + e.name + "l, which is read instead"});
        continue;
      }
      if (!e.is_regular) {
        out.problems.push_back({e.path, "not a regular file"});
        continue;
      }
      out.transcripts.push_back(harness_transcript(kGeminiCliHarness, e.path, gemini_session_id(e), chats));
    }
  }
}

}  // namespace csift
