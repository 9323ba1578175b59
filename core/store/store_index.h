// A lazily built, per-resolution view of every transcript id in the store: what `@<uuid>`, `@<uuid-prefix>`
// and `@<agent-id>` match against (the union of top-level session uuids and subagent agent ids).
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "core/store/store.h"

namespace csift {

class StoreIndex {
 public:
  explicit StoreIndex(std::string projects_root) : root_(std::move(projects_root)) {}
  // The first session whose id is `id` in the order listing every session meets them.
  std::optional<Transcript> session_by_id(const std::string& id);
  // The first subagent whose id is `id`: every session's subagents (sessions in listing order), then the
  // legacy flat agents.
  std::optional<Transcript> agent_by_id(const std::string& id);
  // Every session uuid and subagent id, named from directory listings alone (list_ids): what an @<prefix>
  // target is matched against. Listed once.
  const std::vector<ListedId>& ids();

 private:
  std::optional<Transcript> first_listed(const std::string& id, bool agent);
  std::string root_;
  std::optional<std::vector<ListedId>> ids_;
  // Lookups by id are answered by a look per project dir (find_session, find_agent) until a long id list
  // (sessions_from) has made kListAfterLookups of them: from then on the store's ids are listed once and
  // each lookup is answered from them.
  size_t lookups_ = 0;
  static constexpr size_t kListAfterLookups = 4;
};

}  // namespace csift
