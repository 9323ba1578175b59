// A fixed set of threads for the slow requests of both transports (tools/call), with a bounded queue: the
// thread reading requests stays free for ping, tools/list and cancellation while calls run.
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

  size_t max_queued_;
  std::mutex mu_;
  std::condition_variable wake_;
  std::condition_variable idle_;
  std::deque<std::function<void()>> jobs_;
  size_t running_ = 0;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace csift
