// resources/subscribe on a transport that can send unprompted messages (stdio): the transcripts a client
// subscribed to, watched by one thread that compares their sizes every `interval` and sends
// notifications/resources/updated when one changed. Without a subscription the thread sleeps until one
// arrives; it never spins.
#pragma once
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <thread>

#include "server/inflight.h"

namespace csift {

class ResourceWatch {
 public:
  ResourceWatch(Emit emit, std::chrono::milliseconds interval);
  ~ResourceWatch();
  ResourceWatch(const ResourceWatch&) = delete;
  ResourceWatch& operator=(const ResourceWatch&) = delete;

  // Watches `path` for the resource `uri` from its present size on (a repeated subscribe restarts it).
  void subscribe(const std::string& uri, const std::string& path);
  // False when `uri` was not subscribed.
  bool unsubscribe(const std::string& uri);
  size_t size();

 private:
  struct Watched {
    std::string path;
    int64_t size = -1;  // -1: the file is missing
    int64_t mtime_ns = 0;
  };
  static Watched stat_of(const std::string& path);
  void run();

  Emit emit_;
  std::chrono::milliseconds interval_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::map<std::string, Watched> watched_;
  bool stop_ = false;
  std::thread thread_;  // last: started once the members above exist
};

}  // namespace csift
