// The text form of `list` (SPEC.md §9.1): a SESSION block per row, local timestamps only (the UTC copy lives
// in JSON), and a footer that states every count that shaped the listing.
#include <string>

#include "core/base/timefmt.h"
#include "core/record/labels.h"
#include "tools/common/retention_notes.h"
#include "tools/common/text_fields.h"
#include "tools/list/list.h"

namespace csift {
namespace {

constexpr auto str = json_str;
constexpr auto count = json_count;

// `a` when unchanged, `a->b` when it drifted during the session.
std::string drift(const std::string& first, const std::string& last) {
  if (first.empty() || last.empty() || first == last) return first.empty() ? last : first;
  return first + "->" + last;
}

std::string local_time(const std::string& iso) {
  return local_time_or(iso, "(no timestamp)");
}

std::string cwd_line(const json& row) {
  const std::string cwd = str(row, "cwd");
  std::string line = "cwd " + (cwd.empty() ? std::string("(not recorded)") : cwd);
  const std::string branch = drift(str(row, "git_branch_first"), str(row, "git_branch_last"));
  const std::string version = drift(str(row, "version_first"), str(row, "version_last"));
  std::string detail;
  if (!branch.empty()) detail += "branch " + branch;
  if (!version.empty()) detail += (detail.empty() ? "" : ", ") + std::string("CC ") + version;
  if (!detail.empty()) line += " (" + detail + ")";
  return line + "\n";
}

std::string anchor_lines(const json& row, const char* key, const std::string& heading) {
  const json& a = row[key];
  if (!a.is_object()) return heading + " (none)\n";
  return heading + " " + local_time(str(a, "ts_utc")) + "\n" + str(a, "text") + "\n";
}

std::string annotation_lines(const json& row) {
  std::string out;
  if (row.value("is_clone", false)) {
    const std::string origin = str(row, "clone_of");
    out += "clone forked from SESSION " +
           (origin.empty() ? std::string("(origin not in this project dir)") : origin) +
           " at compaction boundary " + str(row, "clone_boundary_uuid") + "\n";
  }
  for (const auto& p : row["pending_elicitations"]) {
    out += "pending " + str(p, "kind") + " since " + local_time(str(p, "pending_since_utc")) +
           " (elicitation sidecar): blocked on a human\n";
  }
  if (row.value("sidecar_present", false) && row["pending_elicitations"].empty()) {
    out += "elicitation sidecar: nothing pending\n";
  }
  if (!str(row, "error").empty()) out += "unreadable: " + str(row, "error") + "\n";
  if (row.contains("expires_in_days")) out += expiry_phrase(row["expires_in_days"].get<int64_t>()) + "\n";
  return out;
}

std::string row_block(const json& row) {
  std::string out = transcript_title(row) + "\n";
  if (!str(row, "description").empty()) out += "description " + str(row, "description") + "\n";
  out += cwd_line(row);
  out += annotation_lines(row);
  const std::string user(role_glyph(Role::user)), agent(role_glyph(Role::agent));
  out += anchor_lines(row, "first_user", "first " + user);
  out += anchor_lines(row, "last_user", "last " + user);
  out += anchor_lines(row, "last_agent", "last " + agent);
  return out;
}

std::string scope_line(const json& header) {
  std::string line = scope_banner(header);
  if (!str(header, "since_utc").empty()) line += " · since " + local_time(str(header, "since_utc"));
  if (!str(header, "until_utc").empty()) line += " · until " + local_time(str(header, "until_utc"));
  return line + "\n";
}

std::string footer(const json& s, const ToolContext& ctx) {
  std::string out = std::to_string(count(s, "sessions")) + " session(s) listed";
  if (count(s, "outside_window") > 0) {
    out += " · " + std::to_string(count(s, "outside_window")) + " outside the " +
           ctx.arg_text("list", "since") + "/" + ctx.arg_text("list", "until") + " window";
  }
  if (count(s, "dropped_by_cap") > 0) {
    out += " · " + std::to_string(count(s, "dropped_by_cap")) + " dropped by cap (the " +
           std::to_string(count(s, "max_count")) + " most recently active are shown; " +
           ctx.arg_text("list", "max_count") + " 0 for all)";
  }
  out += "\n";
  if (s.contains("window_note") && s["window_note"].is_string())
    out += s["window_note"].get<std::string>() + "\n";
  if (s.value("with_elicitation_sidecar", false)) out += "with elicitation sidecar\n";
  return out + expiring_line(s);
}

}  // namespace

std::string render_list_text(const Envelope& env, const json& /*args*/, const ToolContext& ctx) {
  std::string out = scope_line(env.header);
  for (const auto& row : env.rows)
    out += "\n" + row_block(row);
  return out + "\n" + footer(env.summary, ctx);
}

}  // namespace csift
