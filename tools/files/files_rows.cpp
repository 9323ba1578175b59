#include "tools/files/files_rows.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "core/base/timefmt.h"
#include "core/mutations/paths.h"
#include "tools/list/list_row.h"

namespace csift {

const char* detail_name(FilesDetail d) {
  switch (d) {
    case FilesDetail::dir:
      return "dir";
    case FilesDetail::file:
      return "file";
    case FilesDetail::timeline:
      return "timeline";
    default:
      return "summary";
  }
}

std::string bucket_of(const FileMutation& m) {
  if (m.resolution == PathResolution::marker) return "(commands)";
  return path_parent(m.path).value_or("(unresolved)");
}

namespace {

void put_identity(json& row, const Transcript& t) {
  row["session_id"] = t.id;
  row["is_subagent"] = t.is_subagent;
  row["parent_session_id"] = string_or_null(t.parent_session_id());
}

std::string owner_of(const Transcript& t) {
  return t.parent_session_id().empty() ? t.id : t.parent_session_id();
}

// Counts and first/last touch of one group of mutations (a file, a directory, a bucket).
struct Rollup {
  std::map<std::string, uint64_t> ops;
  uint64_t mutations = 0, heuristic = 0, creates = 0;
  std::set<std::string> files, nodes;
  const AttributedMutation* first = nullptr;
  const AttributedMutation* last = nullptr;
  std::optional<EpochMs> first_t, last_t;

  void add(const AttributedMutation& a) {
    ++ops[a.m.op];
    ++mutations;
    if (a.m.heuristic) ++heuristic;
    if (a.m.is_create) ++creates;
    files.insert(path_key(a.m.path));
    nodes.insert(a.transcript->id);
    const auto t = parse_iso8601(a.m.timestamp);
    if (!first || (t && (!first_t || *t < *first_t))) {
      first = &a;
      first_t = t;
    }
    if (!last || (t && (!last_t || *t >= *last_t))) {
      last = &a;
      last_t = t;
    }
  }

  void write(json& row, bool with_files) const {
    row["ops"] = json::object();
    for (const auto& [op, n] : ops)
      row["ops"][op] = n;
    row["mutations"] = mutations;
    row["heuristic_mutations"] = heuristic;
    row["creates"] = creates;
    if (with_files) row["files"] = files.size();
    put_instant(row, "first", first->m.timestamp);
    put_instant(row, "last", last->m.timestamp);
    row["first_line"] = first->m.line;
    row["first_session_id"] = first->transcript->id;
    row["last_line"] = last->m.line;
    row["last_session_id"] = last->transcript->id;
    row["sessions"] = json(std::vector<std::string>(nodes.begin(), nodes.end()));
  }
};

json timeline_row(const AttributedMutation& a) {
  json row = json::object({{"kind", "mutation"}});
  put_identity(row, *a.transcript);
  const FileMutation& m = a.m;
  row["path"] = m.path;
  row["op"] = m.op;
  row["tool"] = m.tool;
  put_instant(row, "ts", m.timestamp);
  row["turn_index"] = m.turn < 0 ? json(nullptr) : json(m.turn);
  row["line"] = m.line;
  row["is_create"] = m.is_create;
  row["heuristic"] = m.heuristic;
  row["resolution"] = m.heuristic ? json(resolution_name(m.resolution)) : json(nullptr);
  row["path_verbatim"] =
      m.heuristic && m.resolution != PathResolution::marker ? json(m.path_verbatim) : json(nullptr);
  row["command_errored"] = m.command_errored;
  row["tool_use_id"] = m.tool_use_id;
  return row;
}

}  // namespace

std::vector<json> mutation_rows(const std::vector<AttributedMutation>& ms, FilesDetail detail) {
  std::vector<json> rows;
  if (detail == FilesDetail::timeline) {
    std::vector<const AttributedMutation*> order;
    for (const auto& a : ms)
      order.push_back(&a);
    // Owner session, then time (a mutation without a timestamp sorts last), then transcript and line.
    auto key = [](const AttributedMutation* a) {
      const auto t = parse_iso8601(a->m.timestamp);
      return std::make_tuple(owner_of(*a->transcript), t ? *t : INT64_MAX, a->transcript->path, a->m.line);
    };
    std::stable_sort(order.begin(), order.end(),
                     [&](const auto* x, const auto* y) { return key(x) < key(y); });
    for (const auto* a : order)
      rows.push_back(timeline_row(*a));
    return rows;
  }
  // owner session -> group key -> rollup; a group is keyed the way its platform compares paths (a Windows
  // path folds case) and shows the first spelling met
  std::map<std::string, std::map<std::string, Rollup>> groups;
  std::map<std::string, std::string> shown;
  for (const auto& a : ms) {
    const std::string spelling = detail == FilesDetail::file ? a.m.path : bucket_of(a.m);
    const std::string key = path_key(spelling);
    shown.emplace(key, spelling);
    groups[owner_of(*a.transcript)][key].add(a);
  }
  const char* kind = detail == FilesDetail::file ? "file" : detail == FilesDetail::dir ? "dir" : "bucket";
  const char* key_name = detail == FilesDetail::file ? "path" : "dir";
  for (const auto& [owner, by_key] : groups) {
    for (const auto& [key, rollup] : by_key) {
      json row = json::object({{"kind", kind}});
      row["parent_session_id"] = owner;
      row[key_name] = shown[key];
      rollup.write(row, detail != FilesDetail::file);
      rows.push_back(std::move(row));
    }
  }
  return rows;
}

json boundary_row(const AttributedBoundary& a) {
  json row = json::object({{"kind", "boundary"}});
  put_identity(row, *a.transcript);
  row["path"] = a.b.path;
  row["line"] = a.b.line;
  row["turn_index"] = a.b.turn < 0 ? json(nullptr) : json(a.b.turn);
  row["cause"] = a.b.cause;
  row["tool"] = a.b.tool;
  row["tool_use_id"] = a.b.tool_use_id;
  put_instant(row, "ts", a.b.timestamp);
  return row;
}

}  // namespace csift
