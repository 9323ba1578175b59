#include "tools/recover/recover_rows.h"

#include "core/base/arg_ref.h"
#include "core/base/timefmt.h"
#include "core/mutations/content_events.h"
#include "tools/common/record_render.h"

namespace csift {

namespace {

json time_pair(const std::string& ts, const char* utc_key, const char* local_key, json& row) {
  const auto t = parse_iso8601(ts);
  row[utc_key] = t ? json(format_utc(*t)) : json(nullptr);
  row[local_key] = t ? json(format_local_iso(*t)) : json(nullptr);
  return row;
}

std::string regex_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (std::string_view("\\^$.|?*+()[]{}").find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
  return out;
}

json ranges_json(const std::vector<std::pair<int64_t, int64_t>>& ranges) {
  json out = json::array();
  for (const auto& [lo, hi] : ranges)
    out.push_back(json::array({lo, hi < 0 ? json(nullptr) : json(hi)}));
  return out;
}

// The window of lines a file_lines range keeps (the whole known extent when none is given).
std::pair<int64_t, int64_t> line_window(const FileBuffer& b, const RecoverRequest& req) {
  const int64_t last = b.total ? *b.total : (b.lines.empty() ? 0 : b.lines.rbegin()->first);
  if (!req.file_lines) return {1, last};
  const auto r = resolve_range(*req.file_lines, 1, std::max<int64_t>(last, 1));
  if (!r) return {1, 0};
  return {r->lo, r->hi};
}

}  // namespace

json boundary_json(const ReplayBoundary& b) {
  json row = TranscriptIdentity::of(*b.transcript).row("boundary");
  row["cause"] = b.cause;
  row["hard"] = b.hard;
  row["confidence"] = b.cause.rfind("bash-", 0) == 0 ? "heuristic" : "authoritative";
  row["line"] = b.event->line;
  row["source_session_id"] = b.transcript->id;
  row["source_line"] = b.event->line;
  row["turn_index"] = b.event->turn < 0 ? json(nullptr) : json(b.event->turn);
  time_pair(b.event->timestamp, "ts_utc", "ts_local", row);
  row["tool"] = b.event->tool;
  row["detail"] = b.detail;
  return row;
}

json coverage_fields(const char* kind, const FileRecovery& fr, const RecoverRequest& req) {
  const ReplayResult& r = fr.replay;
  json row = json::object();
  row["kind"] = kind;
  row["file"] = fr.path;
  row["known_lines"] = r.buffer.lines.size();
  row["total_lines"] = r.buffer.total ? json(*r.buffer.total) : json(nullptr);
  row["complete"] = r.buffer.complete();
  row["covered"] = ranges_json(known_ranges(r.buffer));
  row["missing"] = ranges_json(missing_ranges(r.buffer));
  row["counts"] = json(r.counts);
  row["coverage_holes"] = r.holes;
  row["content_events"] = r.content_events;
  row["events_outside_window"] = fr.events_outside;
  json bounds = json::array();
  for (const ReplayBoundary& b : r.boundaries)
    bounds.push_back(boundary_json(b));
  row["boundaries"] = bounds;
  row["hard_boundaries"] = r.hard_boundaries();
  row["soft_boundaries"] = r.boundaries.size() - r.hard_boundaries();
  row["fragments"] = r.hard_boundaries() + 1;
  row["sessions"] = fr.sessions;
  size_t powershell = 0;
  json opaque = json::array();
  for (const OpaqueInWindow& o : fr.opaque) {
    if (o.command->marker == "powershell") ++powershell;
    if (opaque.size() < 5) {
      json c = json::object();
      c["marker"] = o.command->marker;
      c["session_id"] = o.transcript->id;
      c["line"] = o.command->line;
      c["command"] = excerpt(o.command->command, 200);
      opaque.push_back(c);
    }
  }
  row["opaque_commands"] = fr.opaque.size() - powershell;
  row["powershell_commands"] = powershell;
  row["opaque_listed"] = opaque;
  json search_args = json::object();
  search_args["pattern"] = regex_escape(path_basename(fr.path));
  search_args["label"] = json::array({"agent.tool.use"});
  json targets = json::array();
  for (const std::string& s : fr.sessions)
    targets.push_back("@" + s);
  if (!targets.empty()) search_args["targets"] = targets;
  if (!fr.first_timestamp.empty()) search_args["since"] = fr.first_timestamp;
  row["suggested_search"] = follow_up_call("search", search_args);
  (void)req;
  return row;
}

std::string numbered_snapshot(const FileBuffer& b, const RecoverRequest& req) {
  const auto [lo, hi] = line_window(b, req);
  std::string out;
  int64_t gap_from = 0;
  auto flush_gap = [&](int64_t to) {
    if (gap_from && to >= gap_from) {
      out += "??? lines " + std::to_string(gap_from) + ".." + std::to_string(to) + " unknown\n";
    }
    gap_from = 0;
  };
  for (int64_t n = lo; n <= hi; ++n) {
    auto it = b.lines.find(n);
    if (it == b.lines.end()) {
      if (!gap_from) gap_from = n;
      continue;
    }
    flush_gap(n - 1);
    out += std::to_string(n) + "\t" + it->second + "\n";
  }
  flush_gap(hi);
  if (!b.total && !req.file_lines)
    out += "??? lines after " + std::to_string(hi) + " unknown (the file's length was never shown)\n";
  return out;
}

std::optional<std::string> restorable_bytes(const FileBuffer& b, const RecoverRequest& req) {
  if (!req.file_lines) {
    if (!b.complete()) return std::nullopt;
    return b.text();
  }
  if (!b.total) return std::nullopt;
  const auto [lo, hi] = line_window(b, req);
  std::string out;
  for (int64_t n = lo; n <= hi; ++n) {
    auto it = b.lines.find(n);
    if (it == b.lines.end()) return std::nullopt;
    out += it->second;
    if (n < *b.total) out += '\n';
  }
  return out;
}

std::string refusal_reason(const FileRecovery& fr) {
  const ReplayResult& r = fr.replay;
  if (r.content_events == 0 && r.boundaries.empty()) return "no-history";
  if (r.buffer.lines.empty() && r.ever_known) return "invalidated";
  if (r.buffer.lines.empty() && r.content_events == 0) return "no-history";
  return "partial";
}

std::string refusal_message(const FileRecovery& fr, const std::string& reason) {
  const ReplayResult& r = fr.replay;
  std::string m;
  if (reason == "no-history") {
    m = fr.path + " was never read, written or edited in the transcripts in scope";
    if (fr.events_outside)
      m += " within the window (" + std::to_string(fr.events_outside) + " event(s) fall outside it)";
    // A file only moved, deleted or touched by a command has boundaries and no content: name them, so the
    // caller learns what happened to it (a move's content is the source file's: recover that one).
    std::string seen;
    for (const ReplayBoundary& b : r.boundaries)
      seen += (seen.empty() ? "" : ", ") + b.cause + " at line " + std::to_string(b.event->line) + " of " +
              b.transcript->id;
    if (!seen.empty()) m += "; they show only changes that carry no content of it (" + seen + ")";
    return m;
  }
  if (reason == "invalidated") {
    m = "every line known of " + fr.path + " was invalidated by a later change outside the tool stream (";
    bool first = true;
    for (const ReplayBoundary& b : r.boundaries) {
      if (!b.hard && b.cause != "original-file-disagreement") continue;
      m += (first ? "" : ", ") + b.cause + " at line " + std::to_string(b.event->line) + " of " +
           b.transcript->id;
      first = false;
    }
    if (first) m += "coverage holes: " + std::to_string(r.holes);
    m += ") and nothing showed it again afterwards";
    for (const ReplayBoundary& b : r.boundaries) {
      if (!b.hard && b.cause != "original-file-disagreement") continue;
      if (b.event->line > 1) {
        json before = json::object();
        before["targets"] = json::array({"@" + b.transcript->id});
        before["file"] = fr.path;
        before["at"] = "@line:" + std::to_string(b.event->line - 1);
        m += "; the state before the first: " + call_ref("recover", before);
      }
      break;
    }
  } else {
    m = "only part of " + fr.path + " was seen: known lines " + ranges_text(known_ranges(r.buffer)) +
        ", missing " + ranges_text(missing_ranges(r.buffer));
    if (r.holes) m += "; " + std::to_string(r.holes) + " edit hunk(s) could not be placed on known lines";
    if (!r.boundaries.empty()) {
      m += "; boundaries:";
      for (const ReplayBoundary& b : r.boundaries)
        m += " " + b.cause + "@L" + std::to_string(b.event->line);
    }
  }
  m += ". " + arg_ref("salvage") + " shows the known lines with the gaps marked; " + arg_ref("coverage") +
       " lists every boundary. Changes made outside Read/Write/Edit (a formatter, git, a shell command) "
       "leave no "
       "content in the transcript.";
  return m;
}

}  // namespace csift
