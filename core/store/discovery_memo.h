// The discovery memo: what a long-lived server's discovery read from directories and subagent meta.json
// files, kept across calls so a warm call over an unchanged store stats a directory instead of listing it and
// stats a meta.json instead of reading and parsing it. SPEC.md §7 "Warm discovery memo" states the rules.
//
// A directory's listing is keyed by the directory's stamp (device, inode, size, mtime): adding, removing or
// renaming an entry changes its mtime. A meta.json's fields are keyed by the file's stamp. Timestamps have a
// granularity, so two changes within one tick would leave the stamp alone: a listing or a read is remembered
// only when the stamp's mtime is at least kRacyStampSeconds older than the moment the read began (git's
// racy-index rule), and a recently changed directory is simply read again on every call until it settles.
// Transcript files themselves are still stat'ed on every call by discovery (their size and mtime feed the
// per-file memos). The CLI never installs one.
#pragma once
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "core/cache/result_memo.h"
#include "core/store/store.h"

namespace csift {

// One directory's entries as std::filesystem listed them (each keeps the type readdir reported, so a regular
// file or a directory is told without a stat; a symlink is still followed by a stat when asked).
using DirEntries = std::vector<std::filesystem::directory_entry>;

// The process's discovery memo: nullptr unless a server installed one.
ResultMemo* process_discovery_memo();
// Installs it with this budget (0: none). Called once, before serving.
void install_discovery_memo(size_t budget_bytes);
// The bound of a server's discovery memo: a listing costs roughly its entries' path lengths plus 80 bytes
// each, a meta.json its few fields, so 8 MiB holds the discovery of a store of ~50,000 transcripts.
inline constexpr size_t kDefaultDiscoveryMemoBytes = size_t{8} << 20;
// A stamp whose mtime is less than this many seconds before the read began may hide a second change made in
// the same timestamp tick: what was read under it is not remembered.
inline constexpr int64_t kRacyStampSeconds = 2;

// The entries of `dir` (empty when it cannot be listed): from the memo while the directory's stamp is
// unchanged, else listed (and remembered when the stamp is settled and did not change during the listing).
// `stamp_out`, when given, receives the directory's stamp as this call took it (nullopt without a memo, whose
// absence means no stat is taken, or when the directory cannot be stat'ed).
std::shared_ptr<const DirEntries> remembered_dir_entries(const std::filesystem::path& dir,
                                                         std::optional<FileStamp>* stamp_out = nullptr);

// read() of the meta.json at `path` (AgentMeta: store.h), from the memo while its stamp is unchanged; read()
// itself without one. The memo's copy is shared, not copied.
template <class Read>
std::shared_ptr<const AgentMeta> remembered_agent_meta(const std::string& path, Read&& read);

// True when a read that began at `began_ns` (CLOCK_REALTIME) under `stamp` may be remembered.
bool settled_stamp(const FileStamp& stamp, int64_t began_ns);
// CLOCK_REALTIME in nanoseconds: the clock file timestamps are taken from.
int64_t realtime_ns();

template <class Read>
std::shared_ptr<const AgentMeta> remembered_agent_meta(const std::string& path, Read&& read) {
  ResultMemo* memo = process_discovery_memo();
  if (memo == nullptr) return std::make_shared<const AgentMeta>(read());
  const int64_t began = realtime_ns();
  const std::optional<FileStamp> before = stamp_file(path);
  if (!before) return std::make_shared<const AgentMeta>();  // absent: nothing to read (nor would read())
  ResultMemoUse unreported;                                 // discovery has no per-call report
  return recall_or_compute(
      memo, unreported, ResultKind<AgentMeta>{"agent-meta"}, path, "", before, read,
      [&](const AgentMeta&) { return settled_stamp(*before, began); },
      [](const AgentMeta& m) {
        size_t cost = 0;
        for (const std::string* s : {&m.agent_type, &m.description, &m.spawn_tool_use_id, &m.parent_agent_id,
                                     &m.agent_name, &m.team_name, &m.task_kind})
          cost += held_bytes(*s);
        return cost;
      });
}

}  // namespace csift
