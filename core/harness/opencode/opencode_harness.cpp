#include "core/harness/opencode/opencode_harness.h"

#include "core/harness/opencode/opencode_edits.h"
#include "core/harness/opencode/opencode_reader.h"
#include "core/harness/opencode/opencode_store.h"

namespace csift {
namespace {

constexpr std::string_view kOpenCodeNotRecorded =
    "opencode sessions are rows of a SQLite database: a line number is a message's ordinal and show's raw "
    "mode prints csift-mcp's rendering of the rows; sub-agent sessions are counted, not listed; there is no "
    "sidecar";

// $OPENCODE_DB names one database (the store is that file); otherwise the store is the data directory.
std::optional<StoreRoot> locate_opencode_root(const Environment& env) {
  const OpenCodeLocation where = locate_opencode_store(env);
  if (where.path.empty()) return std::nullopt;
  if (where.source == "$OPENCODE_DB") {
    const size_t slash = where.path.rfind('/');
    return StoreRoot{slash == std::string::npos ? "." : where.path.substr(0, slash), where.source,
                     where.path};
  }
  return StoreRoot{where.path, where.source};
}

const std::string& opencode_root_path(const StoreRoot& root) {
  return root.file.empty() ? root.path : root.file;
}

}  // namespace

HarnessEntry opencode_v1_harness() {
  return HarnessEntry{kOpenCodeV1Harness,
                      {kOpenCodeAlias},
                      &opencode_v1_reader(),
                      &locate_opencode_root,
                      [](const StoreRoot& root, StoreListing& out) {
                        list_opencode_v1_store(opencode_root_path(root), out.transcripts, out.problems);
                      },
                      kOpenCodeNotRecorded,
                      nullptr,
                      &opencode_tool_edits()};
}

HarnessEntry opencode_v2_harness() {
  return HarnessEntry{kOpenCodeV2Harness,
                      {},
                      &opencode_v2_reader(),
                      &locate_opencode_root,
                      [](const StoreRoot& root, StoreListing& out) {
                        list_opencode_v2_store(opencode_root_path(root), out.transcripts, out.problems);
                      },
                      kOpenCodeNotRecorded,
                      nullptr,
                      &opencode_tool_edits()};
}

}  // namespace csift
