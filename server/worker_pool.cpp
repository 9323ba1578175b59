#include "server/worker_pool.h"

#include <algorithm>

#include <cstdio>

namespace csift {

WorkerPool::WorkerPool(size_t threads, size_t max_queued) : max_queued_(max_queued) {
  for (size_t i = 0; i < (threads ? threads : 1); ++i)
    threads_.emplace_back([this] { run(); });
}

WorkerPool::~WorkerPool() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
    for (Waiter* w : waiting_)
      w->wake.notify_one();
  }
  for (auto& t : threads_)
    t.join();
}

bool WorkerPool::try_submit(std::function<void()> job) {
  {
    std::lock_guard lock(mu_);
    if (jobs_.size() >= max_queued_) return false;
    jobs_.push_back(std::move(job));
    if (!waiting_.empty()) {
      Waiter* w = waiting_.back();
      waiting_.pop_back();
      w->picked = true;
      w->wake.notify_one();
    }
  }
  return true;
}

void WorkerPool::wait_idle() {
  std::unique_lock lock(mu_);
  idle_.wait(lock, [this] { return jobs_.empty() && running_ == 0; });
}

bool WorkerPool::wait_idle_for(std::chrono::milliseconds limit) {
  std::unique_lock lock(mu_);
  return idle_.wait_for(lock, limit, [this] { return jobs_.empty() && running_ == 0; });
}

void WorkerPool::run() {
  for (;;) {
    std::function<void()> job;
    {
      std::unique_lock lock(mu_);
      while (jobs_.empty() && !stopping_) {
        Waiter me;
        waiting_.push_back(&me);
        me.wake.wait(lock, [&] { return me.picked || stopping_; });
        if (!me.picked) waiting_.erase(std::find(waiting_.begin(), waiting_.end(), &me));
      }
      if (jobs_.empty()) return;  // stopping, and nothing left to run
      job = std::move(jobs_.front());
      jobs_.pop_front();
      ++running_;
    }
    // The last line of defence (each transport answers its own failures first): an exception leaving a
    // job would end the thread in std::terminate and take every call in flight with it.
    try {
      job();
    } catch (const std::exception& e) {
      std::fprintf(stderr, "csift-mcp: internal error in a worker: %s\n", e.what());
    } catch (...) {
      std::fprintf(stderr, "csift-mcp: internal error in a worker\n");
    }
    {
      std::lock_guard lock(mu_);
      --running_;
      if (jobs_.empty() && running_ == 0) idle_.notify_all();
    }
  }
}

}  // namespace csift
