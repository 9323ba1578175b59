#include "core/store/store_index.h"

namespace csift {

const std::vector<std::string>& StoreIndex::project_dirs() {
  if (!dirs_) dirs_ = list_project_dirs(root_);
  return *dirs_;
}

const std::vector<Transcript>& StoreIndex::sessions() {
  if (!sessions_) {
    sessions_.emplace();
    for (const std::string& dir : project_dirs()) {
      for (Transcript& t : list_sessions(dir))
        sessions_->push_back(std::move(t));
    }
  }
  return *sessions_;
}

std::optional<Transcript> StoreIndex::session_by_id(const std::string& id) {
  if (!sessions_ && ++lookups_ < kListAfterLookups) return find_session(root_, id);
  for (const Transcript& s : sessions()) {
    if (s.id == id) return s;
  }
  return std::nullopt;
}

const std::vector<Transcript>& StoreIndex::agents() {
  if (!agents_) {
    agents_.emplace();
    for (const Transcript& session : sessions()) {
      for (Transcript& t : list_subagents(session))
        agents_->push_back(std::move(t));
    }
    for (const std::string& dir : project_dirs()) {
      for (Transcript& t : list_legacy_agents(dir))
        agents_->push_back(std::move(t));
    }
  }
  return *agents_;
}

std::optional<Transcript> StoreIndex::agent_by_id(const std::string& id) {
  if (!agents_ && ++lookups_ < kListAfterLookups) return find_agent(root_, id);
  for (const Transcript& a : agents()) {
    if (a.id == id) return a;
  }
  return std::nullopt;
}

const std::vector<ListedId>& StoreIndex::ids() {
  if (!ids_) ids_ = list_ids(root_);
  return *ids_;
}

std::optional<Transcript> StoreIndex::session_of(const Transcript& agent) {
  for (const Transcript& s : sessions()) {
    if (s.id == agent.session_id && s.project_dir == agent.project_dir) return s;
  }
  return std::nullopt;
}

}  // namespace csift
