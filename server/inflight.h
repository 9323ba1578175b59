// The requests under way on one connection (a stdio stream, or one HTTP session): what cancellation finds by
// id, and the gate that keeps each request's progress notifications increasing and ahead of its reply.
#pragma once
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "core/base/envelope.h"
#include "core/scan/line_scanner.h"

namespace csift {

// Sends one message toward the client; false when the client is gone.
using Emit = std::function<bool(const json&)>;

class InFlight {
 public:
  InFlight(json progress_token, Emit emit, std::chrono::milliseconds interval);
  CancelToken cancel;
  bool wants_progress() const { return !token_.is_null(); }
  // Emits notifications/progress when `done` exceeds the last value sent and `interval` has passed since the
  // last one, unless the request has finished or was cancelled. Callable from any thread.
  void report(double done, double total, const std::string& message);
  // After this no progress notification leaves: the reply can follow.
  void finish();

 private:
  json token_;
  Emit emit_;
  std::chrono::milliseconds interval_;
  std::mutex mu_;
  bool finished_ = false;
  bool sent_any_ = false;
  double last_ = 0;
  std::chrono::steady_clock::time_point last_sent_{};
};

class ResourceWatch;

class Connection {
 public:
  // Registers a request; nullptr when a request with the same id is still under way.
  std::shared_ptr<InFlight> begin(const json& id, json progress_token, Emit emit,
                                  std::chrono::milliseconds interval);
  void end(const json& id);
  // notifications/cancelled: true when the id named a request under way.
  bool cancel(const json& id);
  void cancel_all();
  size_t size();

  void set_protocol_version(std::string v);
  std::string protocol_version();
  // The clientInfo.name the client gave at initialize ("" when none): whether it hands structuredContent to
  // its model decides what a result carries (server/tool_call.cpp).
  void set_client_name(std::string name);
  std::string client_name();

  // The connection's resource subscriptions, on a transport that can send unprompted notifications
  // (stdio); nullptr where it cannot (HTTP answers only what was asked), and subscribe is not offered.
  void set_watch(std::shared_ptr<ResourceWatch> watch) { watch_ = std::move(watch); }
  ResourceWatch* watch() const { return watch_.get(); }

 private:
  std::shared_ptr<ResourceWatch> watch_;
  std::mutex mu_;
  std::map<std::string, std::shared_ptr<InFlight>> inflight_;
  std::string protocol_version_;
  std::string client_name_;
};

}  // namespace csift
