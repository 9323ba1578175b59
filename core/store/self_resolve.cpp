#include "core/store/self_resolve.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <vector>

#include "core/base/error.h"
#include "core/cache/file_stamp.h"
#include "core/record/transcript_reader.h"
#include "core/store/trap_marker.h"

namespace csift {

namespace fs = std::filesystem;

namespace {

struct RecentFile {
  std::string path;
  int64_t mtime_ns = 0;
};

// The entry's mtime as stat(2) gives it (the one stat-to-stamp conversion), 0 when it cannot be stat'ed.
int64_t mtime_ns_of(const fs::directory_entry& e) {
  const std::optional<FileStamp> st = stamp_file(e.path().string());
  return st ? st->mtime_ns : 0;
}

int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// A transcript's place in the store: <project>/<uuid>.jsonl, or agent-<id>.jsonl below a `subagents`
// folder (or beside the sessions, the CC 1.x layout). Sidecars and tool-output files are not transcripts.
bool is_transcript_place(const fs::path& rel) {
  const std::string name = rel.filename().string();
  if (rel.extension() != ".jsonl" || name == "journal.jsonl" || name == "elicitations.jsonl") return false;
  const auto depth = std::distance(rel.begin(), rel.end());
  if (depth == 2) return true;
  if (!agent_id_from_filename(name).empty()) {
    for (const auto& part : rel)
      if (part == "subagents") return true;
  }
  return false;
}

struct Candidates {
  std::vector<RecentFile> files;  // newest first, within the bounds
  size_t transcripts = 0;         // every transcript seen in the store
};

Candidates recent_transcripts(const std::string& projects_root) {
  Candidates out;
  const int64_t cutoff = now_ns() - kSelfRecentSeconds * 1000000000LL;
  std::error_code ec;
  // Symlinked project dirs are read like any other (the depth cap bounds a cycle).
  fs::recursive_directory_iterator it(
      projects_root,
      fs::directory_options::skip_permission_denied | fs::directory_options::follow_directory_symlink, ec),
      end;
  for (; !ec && it != end; it.increment(ec)) {
    if (it.depth() > 5) {
      it.disable_recursion_pending();
      continue;
    }
    std::error_code type_ec;
    if (!it->is_regular_file(type_ec)) continue;
    const fs::path rel = it->path().lexically_relative(projects_root);
    if (!is_transcript_place(rel)) continue;
    ++out.transcripts;
    const int64_t mtime = mtime_ns_of(*it);
    if (mtime >= cutoff) out.files.push_back(RecentFile{it->path().string(), mtime});
  }
  std::sort(out.files.begin(), out.files.end(), [](const RecentFile& a, const RecentFile& b) {
    return a.mtime_ns != b.mtime_ns ? a.mtime_ns > b.mtime_ns : a.path < b.path;
  });
  if (out.files.size() > kSelfRecentTranscripts) out.files.resize(kSelfRecentTranscripts);
  return out;
}

// Does the last kSelfTailBytes of the transcript hold an MCP call carrying the marker? Lines are screened on
// their raw bytes and only a line holding both the marker and `mcp__` is parsed.
bool tail_has_mcp_marker(const Transcript& t, std::string_view marker) {
  const TranscriptReader& reader = reader_for(t);
  const uint64_t floor = t.size > kSelfTailBytes ? t.size - kSelfTailBytes : 0;
  bool hit = false;
  scan_backward(
      t.path,
      [&](const LineView& line) {
        if (line.bytes.find(marker) == std::string_view::npos ||
            line.bytes.find("mcp__") == std::string_view::npos)
          return true;
        Record record;
        std::string error;
        hit = reader.decode(line.bytes, record, error) && record_has_mcp_marker(record, marker);
        return !hit;
      },
      floor);
  return hit;
}

std::string described(const Transcript& t) {
  return (t.is_subagent ? "subagent " + t.id + " of session " + t.session_id : "session " + t.id) + " (" +
         t.path + ")";
}

std::string searched(const Candidates& c, const std::string& projects_root) {
  return "searched the last " + std::to_string(kSelfTailBytes / 1024) + " KiB of the " +
         std::to_string(c.files.size()) + " transcript(s) written in the last " +
         std::to_string(kSelfRecentSeconds / 60) + " minutes (at most " +
         std::to_string(kSelfRecentTranscripts) + ", newest first) of " + std::to_string(c.transcripts) +
         " under " + projects_root;
}

// The owning session and its subagents, for the ancestry of a hit.
TrapResolution resolution_for(const Transcript& hit) {
  if (!hit.is_subagent) return TrapResolution{hit, std::nullopt, list_subagents(hit)};
  const auto session = transcript_for_file(hit.project_dir + "/" + hit.session_id + ".jsonl");
  if (!session) {
    not_found_error("@self: the marker is in " + described(hit) + ", whose session transcript " +
                    hit.project_dir + "/" + hit.session_id + ".jsonl does not exist");
  }
  TrapResolution out{*session, hit, list_subagents(*session)};
  if (hit.shape == TranscriptShape::legacy_flat) out.agents.push_back(hit);
  return out;
}

}  // namespace

bool record_has_mcp_marker(const Record& record, std::string_view marker) {
  if (record.type != "assistant") return false;
  for (const Block& block : record.message.blocks) {
    if (block.kind != BlockKind::tool_use || block.name.rfind("mcp__", 0) != 0) continue;
    if (block.name.find("__", 5) == std::string::npos) continue;  // mcp__<server>__<tool>
    if (block.input_json.find(marker) != std::string::npos) return true;
  }
  return false;
}

std::string self_main_lane_note(std::string_view marker, const std::string& session_id) {
  return "@self:" + std::string(marker) + " is the top-level transcript of session " + session_id +
         " (the main thread, not a subagent)";
}

TrapResolution resolve_self_marker(std::string_view marker, const std::string& projects_root) {
  if (std::string problem = trap_marker_problem(marker); !problem.empty()) {
    usage_error("@self:" + std::string(marker) + ": " + problem + "; " + trap_marker_guidance());
  }
  const Candidates candidates = recent_transcripts(projects_root);
  std::vector<Transcript> hits;
  for (const RecentFile& f : candidates.files) {
    auto t = transcript_for_file(f.path);
    if (t && tail_has_mcp_marker(*t, marker)) hits.push_back(std::move(*t));
  }
  if (hits.empty()) {
    not_found_error("@self:" + std::string(marker) +
                    ": no MCP tool call (a tool_use named mcp__<server>__<tool>) " +
                    "carrying the marker in its input; " + searched(candidates, projects_root) +
                    ". Pass the marker in this very call (whoami's marker argument, or the target @self:" +
                    std::string(marker) + "), typed literally, so the call itself carries it");
  }
  if (hits.size() > 1) {
    std::string list;
    for (const Transcript& t : hits)
      list += (list.empty() ? "" : "; ") + described(t);
    usage_error("@self:" + std::string(marker) + " is ambiguous: " + std::to_string(hits.size()) +
                " transcripts carry it (" + list + "); invent a fresher marker");
  }
  return resolution_for(hits.front());
}

}  // namespace csift
