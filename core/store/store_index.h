// A lazily built, per-resolution view of every transcript id in the store: what `@<uuid-prefix>` and
// `@<agent-id>` match against (the union of top-level session uuids and subagent agent ids).
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "core/store/store.h"

namespace csift {

class StoreIndex {
 public:
  explicit StoreIndex(std::string projects_root) : root_(std::move(projects_root)) {}
  const std::vector<std::string>& project_dirs();
  const std::vector<Transcript>& sessions();
  // The first of sessions() whose id is `id`, found without listing them all when they are not listed yet.
  std::optional<Transcript> session_by_id(const std::string& id);
  // Every subagent transcript (the three sidecar shapes, plus legacy flat agents).
  const std::vector<Transcript>& agents();
  // The first of agents() whose id is `id`, found without listing them all when they are not listed yet.
  std::optional<Transcript> agent_by_id(const std::string& id);
  // Every session uuid and subagent id, named from directory listings alone (list_ids): what an @<prefix>
  // target is matched against. Listed once.
  const std::vector<ListedId>& ids();
  // The top-level session that owns `agent` (nullopt for a legacy agent whose session is gone).
  std::optional<Transcript> session_of(const Transcript& agent);

 private:
  std::string root_;
  std::optional<std::vector<std::string>> dirs_;
  std::optional<std::vector<Transcript>> sessions_;
  std::optional<std::vector<Transcript>> agents_;
  std::optional<std::vector<ListedId>> ids_;
  // Lookups by id answered without the listing: a look per project dir each, so a long id list
  // (sessions_from) lists the store once instead, from the kListAfterLookups-th lookup on.
  size_t lookups_ = 0;
  static constexpr size_t kListAfterLookups = 4;
};

}  // namespace csift
