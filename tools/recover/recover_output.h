// Where `recover` puts bytes (SPEC.md §9.13): only a path the caller named, never inside the Claude Code
// store, never over an existing file unless `force`; and the batch form, every listed file under one
// directory with a recovery-report.tsv.
#pragma once
#include <string>
#include <vector>

#include "core/base/envelope.h"
#include "core/store/targets.h"
#include "tools/recover/recover_request.h"
#include "tools/recover/recover_scan.h"

namespace csift {

struct WriteOutcome {
  bool written = false;
  std::string path;     // absolute
  std::string message;  // why not, when not written
};

WriteOutcome write_recovered(const std::string& out, const std::string& bytes, bool force,
                             const Scope& scope);

// The absolute paths a files_from manifest lists (one per line; blank lines and # comments ignored).
std::vector<std::string> read_manifest(const std::string& path);

// Batch: each listed file replayed from the one scan, written to <out_dir>/<path without its leading slash>
// when any line is known (a partial file best-effort, flagged in the report), and recovery-report.tsv.
void recover_batch(const std::vector<std::string>& files, const RecoverRequest& req, const Scope& scope,
                   const ScopeContent& content, Envelope& env);

}  // namespace csift
