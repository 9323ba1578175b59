// The text form of `verbatim`: per transcript a `SESSION` accounting line, then the document blocks; a
// slice prints only its chunk (nothing at all when the chunk does not exist), `out` only the accounting.
#include "tools/verbatim/verbatim.h"
#include "tools/verbatim/verbatim_render.h"

namespace csift {
namespace {

std::string count_text(const json& row, const char* key) {
  const auto it = row.find(key);
  return it != row.end() && it->is_number() ? std::to_string(it->get<uint64_t>()) : "0";
}

std::string session_line(const json& row) {
  std::string s = "SESSION " + row.value("session_id", std::string());
  if (row.value("is_subagent", false))
    s += " (subagent of " + row.value("parent_session_id", std::string()).substr(0, 8) + ")";
  s += " \xC2\xB7 budget " + count_text(row, "budget") + " chars, used " + count_text(row, "chars_used") +
       " \xC2\xB7 restored " + count_text(row, "selected_user") + "/" + count_text(row, "candidate_user") +
       " user and " + count_text(row, "selected_assistant") + "/" + count_text(row, "candidate_assistant") +
       " agent message(s)";
  if (row.value("collapsed", 0) > 0) s += ", " + count_text(row, "collapsed") + " collapsed run(s)";
  if (row.value("also_in_summary", 0) > 0)
    s += ", " + count_text(row, "also_in_summary") + " also in the summary";
  s += " \xC2\xB7 spanned " + count_text(row, "boundaries_spanned") + " of " +
       count_text(row, "boundaries_total") + " compaction boundaries in scope";
  if (row.value("skipped_lines", 0) > 0)
    s += " \xC2\xB7 " + count_text(row, "skipped_lines") + " skipped line(s)";
  return s + "\n";
}

}  // namespace

std::string render_verbatim_text(const Envelope& env, const json& args, const ToolContext& ctx) {
  (void)args, (void)ctx;
  std::string out;
  const bool to_file = env.header.contains("out") && env.header["out"].is_string();
  for (const auto& row : env.rows) {
    const std::string kind = row.value("kind", "");
    if (kind == "slice") return row.value("text", std::string());
    if (kind == "session")
      out += session_line(row);
    else if (!to_file)
      out += render_row_block(row);
  }
  if (to_file) {
    out += "wrote the document (" + count_text(env.summary, "out_chars") + " chars) to " +
           env.header["out"].get<std::string>() + "\n";
  }
  return out;
}

}  // namespace csift
