#include "server/resource_watch.h"

#include <sys/stat.h>

#include <vector>

#include "core/cache/file_stamp.h"
#include "server/jsonrpc.h"

namespace csift {

ResourceWatch::ResourceWatch(Emit emit, std::chrono::milliseconds interval)
    : emit_(std::move(emit)), interval_(interval), thread_([this] { run(); }) {}

ResourceWatch::~ResourceWatch() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  thread_.join();
}

ResourceWatch::Watched ResourceWatch::stat_of(const std::string& path) {
  Watched w;
  w.path = path;
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    w.size = static_cast<int64_t>(st.st_size);
    w.mtime_ns = stamp_of_stat(st).mtime_ns;
  }
  return w;
}

void ResourceWatch::subscribe(const std::string& uri, const std::string& path) {
  Watched now = stat_of(path);
  {
    std::lock_guard lock(mu_);
    watched_[uri] = std::move(now);
  }
  cv_.notify_all();
}

bool ResourceWatch::unsubscribe(const std::string& uri) {
  std::lock_guard lock(mu_);
  return watched_.erase(uri) > 0;
}

size_t ResourceWatch::size() {
  std::lock_guard lock(mu_);
  return watched_.size();
}

void ResourceWatch::run() {
  std::unique_lock lock(mu_);
  for (;;) {
    // Asleep until there is something to watch, then one look per interval.
    cv_.wait(lock, [this] { return stop_ || !watched_.empty(); });
    if (stop_) return;
    cv_.wait_for(lock, interval_, [this] { return stop_; });
    if (stop_) return;
    std::map<std::string, std::string> paths;
    for (const auto& [uri, w] : watched_)
      paths.emplace(uri, w.path);
    lock.unlock();  // stat and send without holding the lock: subscribe and unsubscribe stay quick
    std::vector<std::pair<std::string, Watched>> seen;
    for (const auto& [uri, path] : paths)
      seen.emplace_back(uri, stat_of(path));
    lock.lock();
    std::vector<std::string> changed;
    for (auto& [uri, now] : seen) {
      auto it = watched_.find(uri);
      if (it == watched_.end() || it->second.path != now.path) continue;  // unsubscribed meanwhile
      if (now.size != it->second.size || now.mtime_ns != it->second.mtime_ns) changed.push_back(uri);
      it->second = std::move(now);
    }
    lock.unlock();
    for (const std::string& uri : changed) {
      if (!emit_(rpc::make_notification("notifications/resources/updated", json{{"uri", uri}}))) {
        lock.lock();
        watched_.clear();  // the client is gone: nobody reads a notification
        lock.unlock();
      }
    }
    lock.lock();
  }
}

}  // namespace csift
