// The text form of `files` (SPEC.md §9.7): per owning session a block in the chosen detail, the
// edit-before-read boundaries after it, then a footer with the totals and the heuristic caveat.
#include <map>
#include <string>

#include "tools/common/text_fields.h"
#include "tools/files/files.h"

namespace csift {
namespace {

constexpr auto str = json_str;
constexpr auto num = json_count;

std::string op_counts(const json& ops) {
  std::string out;
  for (const auto& [op, n] : ops.items())
    out += (out.empty() ? "" : ", ") + std::to_string(n.get<uint64_t>()) + " " + op;
  return out;
}

std::string short_id(const std::string& id) {
  return id.size() > 8 && id[8] == '-' ? id.substr(0, 8) : id;
}

std::string local(const json& row, const char* key) {
  return local_time_or(str(row, key), "(no time)");
}

std::string rollup_line(const json& row, const std::string& kind) {
  const std::string key = kind == "file" ? str(row, "path") : str(row, "dir");
  std::string out = "  " + key + ": " + op_counts(row["ops"]);
  if (num(row, "heuristic_mutations") > 0)
    out += " (" + std::to_string(num(row, "heuristic_mutations")) + " heuristic)";
  if (kind == "bucket") return out + "\n";
  if (kind == "dir") out += " · " + plural(num(row, "files"), "file", "files");
  if (num(row, "creates") > 0) out += " · " + std::to_string(num(row, "creates")) + " created";
  out += " · " + local(row, "first_utc") + " L" + std::to_string(num(row, "first_line"));
  if (num(row, "mutations") > 1)
    out += " -> " + local(row, "last_utc") + " L" + std::to_string(num(row, "last_line"));
  if (row["sessions"].size() > 1 || str(row, "first_session_id") != str(row, "parent_session_id")) {
    std::string nodes;
    for (const auto& n : row["sessions"])
      nodes += (nodes.empty() ? "" : ",") + short_id(n.get<std::string>());
    out += " · by " + nodes;
  }
  return out + "\n";
}

std::string node_tag(const json& row) {
  return row.value("is_subagent", false) ? " [agent " + str(row, "session_id") + "]" : "";
}

std::string timeline_line(const json& row) {
  std::string out = "  L" + std::to_string(num(row, "line")) + " " + local(row, "ts_utc") + " turn " +
                    (row["turn_index"].is_number() ? std::to_string(row["turn_index"].get<int>()) : "-") +
                    " " + str(row, "op") + (row.value("is_create", false) ? " (create)" : "") + " " +
                    str(row, "path");
  if (row.value("heuristic", false)) {
    out += " (heuristic, " + str(row, "resolution") + ")";
    if (row.value("command_errored", false)) out += " (command errored)";
  }
  return out + node_tag(row) + "\n";
}

std::string boundary_line(const json& row) {
  return "  ⚠ " + str(row, "path") + " L" + std::to_string(num(row, "line")) + " turn " +
         (row["turn_index"].is_number() ? std::to_string(row["turn_index"].get<int>()) : "-") + " " +
         local(row, "ts_utc") + " " + str(row, "cause") + node_tag(row) + "\n";
}

std::string owner_of(const json& row) {
  const std::string parent = str(row, "parent_session_id");
  return parent.empty() ? str(row, "session_id") : parent;
}

}  // namespace

std::string render_files_text(const Envelope& env, const json& /*args*/, const ToolContext& /*ctx*/) {
  const json& s = env.summary;
  if (env.rows.empty())
    return "no file mutations found\n" +
           std::string(num(s, "skipped_lines")
                           ? "skipped lines " + std::to_string(num(s, "skipped_lines")) + "\n"
                           : "");
  std::map<std::string, std::string> body, bounds;  // owner session -> text
  std::vector<std::string> order;
  for (const auto& row : env.rows) {
    const std::string kind = str(row, "kind");
    const std::string owner = owner_of(row);
    if (!body.count(owner) && !bounds.count(owner)) order.push_back(owner);
    if (kind == "boundary") {
      bounds[owner] += boundary_line(row);
    } else {
      body[owner] += kind == "mutation" ? timeline_line(row) : rollup_line(row, kind);
    }
  }
  std::string out;
  for (const std::string& owner : order) {
    out += "SESSION " + owner + "\n" + body[owner];
    if (!bounds[owner].empty())
      out += " edit-before-read boundaries (the file changed outside the tool stream):\n" + bounds[owner];
    out += "\n";
  }
  out += plural(num(s, "distinct_files"), "distinct file", "distinct files") + " · " +
         std::to_string(num(s, "total_mutations")) + " mutations (" +
         std::to_string(num(s, "structured_mutations")) + " structured, " +
         std::to_string(num(s, "heuristic_mutations")) + " heuristic) · " +
         std::to_string(num(s, "edit_before_read_boundaries")) +
         " boundaries · detail=" + str(s, "detail_level");
  if (!str(env.header, "turn").empty()) out += " · turn=" + str(env.header, "turn");
  out += " · skipped lines " + std::to_string(num(s, "skipped_lines")) + "\n";
  if (num(s, "failed_calls") + num(s, "unconfirmed_calls") > 0) {
    out += std::to_string(num(s, "failed_calls")) + " structured call(s) errored and " +
           std::to_string(num(s, "unconfirmed_calls")) + " had no result: not counted as changes\n";
  }
  if (num(s, "heuristic_mutations") > 0) {
    out +=
        "heuristic rows come from a lexical reading of Bash commands (not a shell): a path may be missed or "
        "named without having changed\n";
  }
  return out;
}

}  // namespace csift
