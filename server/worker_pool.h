// A fixed set of threads for the slow requests of both transports (tools/call), with a bounded queue: the
// thread reading requests stays free for ping, tools/list and cancellation while calls run.
// A job goes to the thread that went idle last: calls one after another run on one thread, whose allocator
// arena and caches are warm. Handed round the pool, each of a fresh server's first warm calls faulted in
// another arena's pages (600-1,000 faults, a third of a warm list on this VM).
#pragma once
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace csift {

class WorkerPool {
 public:
  WorkerPool(size_t threads, size_t max_queued);
  ~WorkerPool();  // runs what is queued, then joins
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  // False when the queue is full: the caller answers "busy" instead of piling up work.
  bool try_submit(std::function<void()> job);
  // Blocks until every submitted job has finished.
  void wait_idle();
  // The same, for at most `limit`: false when jobs are still queued or running then.
  bool wait_idle_for(std::chrono::milliseconds limit);

 private:
  void run();

  // An idle thread waiting for a job; it is on `waiting_` until a submit picks it or the pool stops.
  struct Waiter {
    std::condition_variable wake;
    bool picked = false;
  };

  size_t max_queued_;
  std::mutex mu_;
  std::vector<Waiter*> waiting_;  // the thread that went idle last is at the back
  std::condition_variable idle_;
  std::deque<std::function<void()>> jobs_;
  size_t running_ = 0;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace csift
