#include "tools/list/list_row.h"

#include "core/base/timefmt.h"

namespace csift {
namespace {

// The record's own instant as the pair law's ts_utc / ts_local.
json anchor_json(const ProbedMessage& m) {
  if (!m.found) return nullptr;
  json out = json::object();
  // The probe kept the one-line text's first kProbeAnchorChars characters: the excerpt, marked when cut.
  out["text"] = excerpt_of_prefix(m.text, m.chars);
  out["chars"] = m.chars;
  const auto t = parse_iso8601(m.timestamp);
  out["ts_utc"] = string_or_null(m.timestamp);
  out["ts_local"] = t ? json(format_local_iso(*t)) : json(nullptr);
  out["line"] = m.line > 0 ? json(m.line) : json(nullptr);
  return out;
}

json pending_json(const std::vector<SidecarPending>& pending) {
  json out = json::array();
  for (const auto& p : pending) {
    json item = json::object({{"kind", p.kind}, {"key", p.key}});
    put_instant(item, "pending_since", p.record.timestamp);
    out.push_back(std::move(item));
  }
  return out;
}

void put_identity(json& row, const Transcript& t) {
  row["session_id"] = t.id;
  row["harness"] = std::string(harness_name(t.harness));
  row["is_subagent"] = t.is_subagent;
  row["parent_session_id"] = string_or_null(t.parent_session_id());
  row["shape"] = shape_name(t.shape);
  row["agent_type"] = t.is_subagent ? string_or_null(t.agent_type()) : json(nullptr);
  row["description"] = t.is_subagent ? string_or_null(t.description()) : json(nullptr);
  row["path"] = t.path;
}

void put_environment(json& row, const SessionProbe& p) {
  row["cwd"] = string_or_null(p.cwd);
  row["version"] = string_or_null(p.version_last);
  row["git_branch"] = string_or_null(p.git_branch_last);
  row["version_first"] = string_or_null(p.version_first);
  row["git_branch_first"] = string_or_null(p.git_branch_first);
  row["version_last"] = string_or_null(p.version_last);
  row["git_branch_last"] = string_or_null(p.git_branch_last);
}

void put_anchors(json& row, const SessionProbe& p) {
  row["first_user"] = anchor_json(p.first_user);
  row["last_user"] = anchor_json(p.last_user);
  row["last_agent"] = anchor_json(p.last_agent);
  put_instant(row, "first_user", p.first_user.timestamp);
  put_instant(row, "last_user", p.last_user.timestamp);
  put_instant(row, "last_agent", p.last_agent.timestamp);
  put_instant(row, "first_activity", p.first_timestamp);
  put_instant(row, "last_activity", p.last_timestamp);
}

}  // namespace

void put_instant(json& row, const std::string& name, const std::string& iso) {
  const auto t = parse_iso8601(iso);
  row[name + "_utc"] = t ? json(iso) : json(nullptr);
  row[name + "_local"] = t ? json(format_local_iso(*t)) : json(nullptr);
}

json list_row(const ListEntry& entry) {
  const Transcript& t = *entry.transcript;
  const SessionProbe& p = *entry.probe;
  json row = json::object({{"kind", "session"}});
  put_identity(row, t);
  put_environment(row, p);
  put_anchors(row, p);
  row["sidecar_present"] = entry.sidecar.present;
  row["pending_elicitations"] = pending_json(entry.sidecar.pending);
  row["is_clone"] = p.is_clone;
  row["clone_of"] = entry.clone_of ? json(*entry.clone_of) : json(nullptr);
  row["clone_boundary_uuid"] = string_or_null(p.clone_boundary_uuid);
  row["skipped_lines"] = p.skipped_lines + entry.sidecar.skipped_lines;
  row["bytes"] = t.size;
  row["bytes_read"] = p.bytes_read;
  row["read_whole_file"] = p.read_whole_file;
  row["error"] = string_or_null(p.error);
  return row;
}

}  // namespace csift
