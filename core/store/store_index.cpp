#include "core/store/store_index.h"

namespace csift {

std::optional<Transcript> StoreIndex::session_by_id(const std::string& id) {
  if (!ids_ && ++lookups_ < kListAfterLookups) return find_session(root_, id);
  return first_listed(id, /*agent=*/false);
}

std::optional<Transcript> StoreIndex::agent_by_id(const std::string& id) {
  if (!ids_ && ++lookups_ < kListAfterLookups) return find_agent(root_, id);
  return first_listed(id, /*agent=*/true);
}

const std::vector<ListedId>& StoreIndex::ids() {
  if (!ids_) ids_ = list_ids(root_);
  return *ids_;
}

// list_ids' order is the full listing's, so its first entry with the id is the one the listing finds first.
std::optional<Transcript> StoreIndex::first_listed(const std::string& id, bool agent) {
  for (const ListedId& l : ids()) {
    if ((l.kind != ListedId::Kind::session) == agent && l.id == id) return transcript_of(l);
  }
  return std::nullopt;
}

}  // namespace csift
