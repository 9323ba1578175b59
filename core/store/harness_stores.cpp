#include "core/store/harness_stores.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "core/cache/file_stamp.h"

namespace csift {

namespace fs = std::filesystem;

StoreReport list_harness_store(const HarnessEntry& h, const Environment& env, StoreListing& out) {
  StoreReport report;
  report.harness = std::string(h.name);
  if (!h.locate || !h.list) return report;
  const std::optional<StoreRoot> root = h.locate(env);
  if (!root) return report;
  report.root = root->file.empty() ? root->path : root->file;
  report.source = root->source;
  std::error_code ec;
  report.found = root->file.empty() ? fs::is_directory(root->path, ec) : fs::is_regular_file(root->file, ec);
  if (!report.found) return report;
  StoreListing listed;
  h.list(*root, listed);
  report.sessions = listed.transcripts.size();
  report.problems = listed.problems.size();
  for (Transcript& t : listed.transcripts)
    out.transcripts.push_back(std::move(t));
  for (StoreProblem& p : listed.problems)
    out.problems.push_back(std::move(p));
  return report;
}

}  // namespace csift
