#include "core/harness/cursor/cursor_harness.h"

#include "core/harness/cursor/cursor_reader.h"
#include "core/harness/cursor/cursor_store.h"

namespace csift {
namespace {

std::optional<StoreRoot> locate_cursor_root(const Environment& env) {
  if (!env.get("HOME")) return std::nullopt;  // no home, no ~/.cursor (never "/.cursor")
  const CursorLocation where = locate_cursor_store(env);
  return StoreRoot{where.path, where.source};
}

}  // namespace

HarnessEntry cursor_harness() {
  return HarnessEntry{
      kCursorHarness,
      {},
      &cursor_reader(),
      &locate_cursor_root,
      [](const StoreRoot& root, StoreListing& out) {
        list_cursor_transcripts(root.path, out.transcripts, out.problems);
      },
      "cursor transcripts record no timestamps, working directory, model or token usage, and its "
      "IDE transcripts no tool results"};
}

}  // namespace csift
