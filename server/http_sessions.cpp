#include "server/http_sessions.h"

#include <random>

namespace csift {

std::string new_session_id() {
  static thread_local std::random_device rd;
  static constexpr char kHex[] = "0123456789abcdef";
  std::string id;
  for (int i = 0; i < 4; ++i) {
    uint32_t word = rd();
    for (int j = 0; j < 8; ++j, word >>= 4)
      id.push_back(kHex[word & 0xf]);
  }
  return id;
}

std::shared_ptr<HttpSession> SessionTable::create() {
  auto session = std::make_shared<HttpSession>();
  session->id = new_session_id();
  session->last_used = std::chrono::steady_clock::now();
  std::lock_guard lock(mu_);
  if (sessions_.size() >= max_sessions_) evict_idlest();
  sessions_[session->id] = session;
  return session;
}

std::shared_ptr<HttpSession> SessionTable::find(const std::string& id) {
  std::lock_guard lock(mu_);
  auto it = sessions_.find(id);
  if (it == sessions_.end()) return nullptr;
  it->second->last_used = std::chrono::steady_clock::now();
  return it->second;
}

bool SessionTable::end(const std::string& id) {
  std::shared_ptr<HttpSession> ended;
  {
    std::lock_guard lock(mu_);
    auto it = sessions_.find(id);
    if (it == sessions_.end()) return false;
    ended = std::move(it->second);
    sessions_.erase(it);
  }
  ended->conn.cancel_all();
  return true;
}

void SessionTable::end_all() {
  std::lock_guard lock(mu_);
  for (auto& [id, session] : sessions_)
    session->conn.cancel_all();
  sessions_.clear();
}

// Clients that vanish without DELETE leave sessions behind; the least recently used one makes room.
void SessionTable::evict_idlest() {
  auto idlest = sessions_.end();
  for (auto it = sessions_.begin(); it != sessions_.end(); ++it) {
    if (it->second->conn.size() > 0) continue;  // never drop a session with calls under way
    if (idlest == sessions_.end() || it->second->last_used < idlest->second->last_used) idlest = it;
  }
  if (idlest != sessions_.end()) sessions_.erase(idlest);
}

}  // namespace csift
