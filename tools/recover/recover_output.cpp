#include "tools/recover/recover_output.h"

#include <filesystem>
#include <fstream>

#include "core/base/arg_ref.h"
#include "core/base/error.h"
#include "core/mutations/bash_mutations.h"
#include "tools/common/write_destination.h"
#include "tools/recover/recover_rows.h"

namespace csift {
namespace fs = std::filesystem;

WriteOutcome write_recovered(const std::string& out, const std::string& bytes, bool force,
                             const Scope& scope) {
  WriteOutcome w;
  const fs::path path = clean_absolute_path(out);
  w.path = path.string();
  w.message = store_write_refusal("out", out, path, scope.claude_home);
  if (!w.message.empty()) return w;
  std::error_code ec;
  if (fs::exists(fs::symlink_status(path, ec)) && !force) {
    w.message = path.string() + " already exists; csift-mcp does not overwrite it unless " +
                arg_ref("force") + " is set";
    return w;
  }
  if (path.has_parent_path()) fs::create_directories(path.parent_path(), ec);
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!f) {
    w.message = "cannot write " + path.string();
    return w;
  }
  w.written = true;
  return w;
}

std::vector<std::string> read_manifest(const std::string& path) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec))
    usage_error(arg_ref("files_from") + " " + path + " is not a readable file");
  std::ifstream f(path, std::ios::binary);
  std::vector<std::string> out;
  std::string line;
  uint64_t n = 0;
  while (std::getline(f, line)) {
    ++n;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const size_t b = line.find_first_not_of(" \t");
    if (b == std::string::npos || line[b] == '#') continue;
    const size_t e = line.find_last_not_of(" \t");
    const std::string p = line.substr(b, e - b + 1);
    if (p.front() != '/' && !windows_absolute_spelling(p)) {
      usage_error(arg_ref("files_from") + " " + path + " line " + std::to_string(n) +
                  " is not an absolute path: " + p);
    }
    out.push_back(absolute_target_path(p));
  }
  return out;
}

void recover_batch(const std::vector<std::string>& files, const RecoverRequest& req, const Scope& scope,
                   const ScopeContent& content, Envelope& env) {
  std::string report =
      "status\tknown_lines\ttotal_lines\tboundaries\tbash_file\tbash_opaque\ttarget\twritten_to\n";
  uint64_t complete = 0, partial = 0, missing = 0, exists = 0, flagged = 0;
  for (size_t i = 0; i < files.size(); ++i) {
    const FileRecovery fr = recover_file(i, files[i], scope, content, req);
    const FileBuffer& b = fr.replay.buffer;
    json row = coverage_fields("recovered", fr, req);
    std::string status = b.complete() ? "complete" : b.lines.empty() ? "no-history" : "partial";
    if (status == "no-history" && fr.replay.ever_known) status = "invalidated";
    std::string written;
    if (!b.lines.empty()) {
      const std::string dest = (fs::path(req.out_dir) / files[i].substr(1)).string();
      const WriteOutcome w = write_recovered(dest, b.text(), req.force, scope);
      if (w.written) {
        written = w.path;
      } else if (w.message.find("already exists") != std::string::npos) {
        status = "skipped-exists";
      } else {
        usage_error(w.message);
      }
    }
    uint64_t bash_file = 0;
    for (const ReplayBoundary& rb : fr.replay.boundaries)
      if (rb.cause == "bash-mutation") ++bash_file;
    (status == "complete"         ? complete
     : status == "partial"        ? partial
     : status == "skipped-exists" ? exists
                                  : missing) += 1;
    if (!fr.replay.boundaries.empty() || !fr.opaque.empty()) ++flagged;
    row["status"] = status;
    row["written_to"] = string_or_null(written);
    env.rows.push_back(row);
    report += status + "\t" + std::to_string(b.lines.size()) + "\t" +
              (b.total ? std::to_string(*b.total) : "?") + "\t" +
              std::to_string(fr.replay.boundaries.size()) + "\t" + std::to_string(bash_file) + "\t" +
              std::to_string(fr.opaque.size()) + "\t" + files[i] + "\t" + written + "\n";
  }
  const std::string report_path = (fs::path(req.out_dir) / "recovery-report.tsv").string();
  const WriteOutcome w = write_recovered(report_path, report, req.force, scope);
  if (!w.written) usage_error(w.message);
  env.summary["report"] = w.path;
  env.summary["files_listed"] = files.size();
  env.summary["complete"] = complete;
  env.summary["partial"] = partial;
  env.summary["no_history"] = missing;
  env.summary["skipped_exists"] = exists;
  env.summary["with_boundaries_or_opaque_commands"] = flagged;
}

}  // namespace csift
