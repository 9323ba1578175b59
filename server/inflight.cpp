#include "server/inflight.h"

#include "server/jsonrpc.h"

namespace csift {

InFlight::InFlight(json progress_token, Emit emit, std::chrono::milliseconds interval)
    : token_(std::move(progress_token)), emit_(std::move(emit)), interval_(interval) {}

void InFlight::report(double done, double total, const std::string& message) {
  if (!wants_progress() || !emit_) return;
  // One lock for the checks and the send: a reply can only follow finish(), which waits for this send.
  std::lock_guard lock(mu_);
  if (finished_ || cancel.is_cancelled()) return;
  if (sent_any_ && done <= last_) return;  // strictly increasing, whatever the tool reports
  const auto now = std::chrono::steady_clock::now();
  if (sent_any_ && now - last_sent_ < interval_) return;
  json params{{"progressToken", token_}, {"progress", done}};
  if (total > 0) params["total"] = total;
  if (!message.empty()) params["message"] = message;
  sent_any_ = true;
  last_ = done;
  last_sent_ = now;
  if (!emit_(rpc::make_notification("notifications/progress", std::move(params)))) {
    cancel.cancelled.store(true);  // the client went away: nobody reads the result
  }
}

void InFlight::finish() {
  std::lock_guard lock(mu_);
  finished_ = true;
}

std::shared_ptr<InFlight> Connection::begin(const json& id, json progress_token, Emit emit,
                                            std::chrono::milliseconds interval) {
  std::lock_guard lock(mu_);
  auto [it, inserted] = inflight_.try_emplace(rpc::id_key(id));
  if (!inserted) return nullptr;
  it->second = std::make_shared<InFlight>(std::move(progress_token), std::move(emit), interval);
  return it->second;
}

void Connection::end(const json& id) {
  std::lock_guard lock(mu_);
  inflight_.erase(rpc::id_key(id));
}

bool Connection::cancel(const json& id) {
  std::lock_guard lock(mu_);
  auto it = inflight_.find(rpc::id_key(id));
  if (it == inflight_.end()) return false;
  it->second->cancel.cancelled.store(true);
  return true;
}

void Connection::cancel_all() {
  std::lock_guard lock(mu_);
  for (auto& [key, request] : inflight_)
    request->cancel.cancelled.store(true);
}

size_t Connection::size() {
  std::lock_guard lock(mu_);
  return inflight_.size();
}

void Connection::set_protocol_version(std::string v) {
  std::lock_guard lock(mu_);
  protocol_version_ = std::move(v);
}

std::string Connection::protocol_version() {
  std::lock_guard lock(mu_);
  return protocol_version_;
}

void Connection::set_client_name(std::string name) {
  std::lock_guard lock(mu_);
  client_name_ = std::move(name);
}

std::string Connection::client_name() {
  std::lock_guard lock(mu_);
  return client_name_;
}

}  // namespace csift
