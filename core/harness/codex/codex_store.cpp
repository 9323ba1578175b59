// Codex's store: $CODEX_HOME (else ~/.codex), live rollouts by date under sessions/ and archived ones flat
// under archived_sessions/. A compressed rollout (`.jsonl.zst`) is a session read in place, unless its plain
// sibling exists (Codex reads that one), and a session in both places is read from sessions/ with the
// archived copy named as a problem.
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "core/harness/codex/codex_harness.h"
#include "core/harness/harness_listing.h"
#include "core/scan/zstd_lines.h"

namespace csift {

namespace {

constexpr std::string_view kRolloutPrefix = "rollout-";
constexpr size_t kRolloutTimeChars = 19;  // 2026-02-23T12-40-23
constexpr size_t kSessionMetaMax = 1 << 20;

void collect_rollouts(const std::string& dir, const std::string& store_dir, int depth, StoreListing& out,
                      std::set<std::string>& seen_ids, bool archived) {
  for (const DirEntry& e : list_store_dir(dir, out.problems)) {
    if (e.is_dir) {
      if (depth > 0) collect_rollouts(e.path, store_dir, depth - 1, out, seen_ids, archived);
      continue;
    }
    if (!std::string_view(e.name).starts_with(kRolloutPrefix)) continue;
    const bool zst = std::string_view(e.name).ends_with(".jsonl.zst");
    if (!zst && !std::string_view(e.name).ends_with(".jsonl")) continue;
    std::error_code ec;
    if (zst && std::filesystem::exists(e.path.substr(0, e.path.size() - 4), ec)) {
      // Codex reads the plain file when both exist (codex-rs/rollout/src/compression.rs), and so does csift.
      out.problems.push_back({e.path, "compressed copy of " + e.name.substr(0, e.name.size() - 4) +
                                          ", read from the plain file"});
      continue;
    }
    if (!e.is_regular) {
      out.problems.push_back({e.path, "not a regular file"});
      continue;
    }
    const std::string id = codex_session_id_of(e.name);
    if (!seen_ids.insert(id).second) {
      out.problems.push_back({e.path, archived
                                          ? "archived copy of session " + id + ", read from sessions/"
                                          : "second rollout of session " + id + " (the first one is read)"});
      continue;
    }
    out.transcripts.push_back(harness_transcript(kCodexHarness, e.path, id, store_dir));
  }
}

}  // namespace

std::string codex_session_id_of(std::string_view name) {
  std::string_view stem = name;
  if (stem.ends_with(".zst")) stem.remove_suffix(4);
  if (std::string_view(stem).ends_with(".jsonl")) stem.remove_suffix(6);
  const size_t head = kRolloutPrefix.size() + kRolloutTimeChars + 1;
  if (std::string_view(stem).starts_with(kRolloutPrefix) && stem.size() > head && stem[head - 1] == '-')
    return std::string(stem.substr(head));
  return std::string(stem);
}

std::optional<std::string> codex_first_line(const std::string& path) {
  if (is_zstd_path(path)) {
    std::optional<std::string> first;
    scan_zstd_lines(path, [&](const LineBlock& block) {
      const std::string_view line = block.data.substr(0, block.data.find('\n'));
      if (line.size() <= kSessionMetaMax) first = std::string(line);
      return false;
    });
    return first;
  }
  std::ifstream in(path, std::ios::binary);
  std::string line;
  char c = 0;
  while (in.get(c) && c != '\n' && line.size() <= kSessionMetaMax)
    line.push_back(c);
  if (c != '\n' || line.size() > kSessionMetaMax) return std::nullopt;
  return line;
}

SessionMeta codex_session_meta(const Transcript& t) {
  SessionMeta out;
  const std::optional<std::string> first = codex_first_line(t.path);
  if (!first) {
    out.unreadable = true;
    return out;
  }
  const auto doc = nlohmann::json::parse(*first, nullptr, false);
  if (!doc.is_object() || doc.value("type", "") != "session_meta" || !doc.contains("payload") ||
      !doc["payload"].is_object()) {
    out.unreadable = true;
    return out;
  }
  const auto& payload = doc["payload"];
  if (payload.contains("cwd") && payload["cwd"].is_string()) {
    std::string cwd = payload["cwd"].get<std::string>();
    if (cwd.starts_with("/")) out.cwd = std::move(cwd);
  }
  return out;
}

void list_codex_store(const StoreRoot& root, StoreListing& out) {
  std::set<std::string> seen_ids;
  const std::string live = root.path + "/sessions";
  const std::string archived = root.path + "/archived_sessions";
  std::error_code ec;
  if (std::filesystem::is_directory(live, ec)) collect_rollouts(live, live, 3, out, seen_ids, false);
  if (std::filesystem::is_directory(archived, ec))
    collect_rollouts(archived, archived, 0, out, seen_ids, true);
}

}  // namespace csift
