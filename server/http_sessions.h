// Streamable HTTP sessions (the 2025 revisions): an Mcp-Session-Id issued at initialize names one Connection
// (its requests under way, its protocol version) until DELETE ends it. Ended ids stay unknown: 404.
#pragma once
#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "server/inflight.h"

namespace csift {

struct HttpSession {
  std::string id;
  Connection conn;
  std::chrono::steady_clock::time_point last_used;
};

class SessionTable {
 public:
  explicit SessionTable(size_t max_sessions) : max_sessions_(max_sessions) {}
  std::shared_ptr<HttpSession> create();
  std::shared_ptr<HttpSession> find(const std::string& id);  // nullptr when unknown or ended
  bool end(const std::string& id);                           // cancels its requests under way
  void end_all();

 private:
  void evict_idlest();  // caller holds mu_

  size_t max_sessions_;
  std::mutex mu_;
  std::map<std::string, std::shared_ptr<HttpSession>> sessions_;
};

// 128 random bits as 32 hex digits: visible ASCII, unguessable.
std::string new_session_id();

}  // namespace csift
