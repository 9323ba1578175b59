// The text form of `export`: one line for the whole copy, one per session, and every file not copied with
// its reason (an export that silently left a file behind would defeat its purpose).
#include "tools/common/text_fields.h"
#include "tools/export/export.h"

namespace csift {

std::string render_export_text(const Envelope& env, const json& /*args*/, const ToolContext& /*ctx*/) {
  const json& s = env.summary;
  std::string out = "export to " + json_str(s, "to") + ": " + std::to_string(json_count(s, "sessions")) +
                    " session(s), " + std::to_string(json_count(s, "copied")) + " file(s) copied (" +
                    std::to_string(json_count(s, "bytes_copied")) + " bytes), " +
                    std::to_string(json_count(s, "skipped")) + " unchanged, " +
                    std::to_string(json_count(s, "not_copied")) + " not copied\n";
  for (const json& row : env.rows) {
    out += json_str(row, "session_id") + ": " + std::to_string(json_count(row, "copied")) + " copied, " +
           std::to_string(json_count(row, "skipped")) + " unchanged";
    if (row.contains("expires_in_days"))
      out += " (cleanup due in " + std::to_string(json_count(row, "expires_in_days")) + " day(s))";
    out += "\n";
    for (const json& n : row["not_copied"])
      out += "  not copied " + json_str(n, "path") + ": " + json_str(n, "reason") + "\n";
  }
  return out;
}

}  // namespace csift
