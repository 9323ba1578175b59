// How a request is run, the same for both transports. A method the table puts on the reader lane is
// answered at once, on the calling thread. A slow one is admitted first: registered on its connection before
// it is queued, so notifications/cancelled (or the transport, when its client goes away) finds it while it
// waits, and it then never runs; a second request with an id under way is refused (-32600). It is queued on
// the worker pool, or on the blocking pool when it blocks on purpose (wait), so waits never occupy the
// workers; a full queue is answered "server busy" (-32603). An exception escaping a queued request is logged
// on stderr and answered -32603 "internal error": it neither ends a worker thread nor leaves the request
// unanswered. The transports only frame what this hands them.
// A worker's call may leave work for after its reply (core/base/after_reply.h): the worker runs it once the
// reply is delivered, alone: it waits for the calls under way to end, and the workers' calls wait for it
// from before the reply leaves (a client's next call, sent the moment it reads the reply, must not start
// first), so a call never races the memo fill it would have done itself, unless the work has run past its
// grace (server/after_reply_gate.h). The blocking pool's waits do neither.
#pragma once
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>

#include "server/after_reply_gate.h"
#include "server/mcp_server.h"
#include "server/worker_pool.h"

namespace csift {

struct DispatchReply {
  enum class How {
    at_once,  // answered on the calling thread: a quick method, or a refused id
    queued,   // answered by a worker, after the request waited in a queue and ran
    busy,     // refused because the queue is full (HTTP: 503 with Retry-After)
  };
  std::optional<json> message;  // nullopt: the request was cancelled and gets no reply
  How how = How::at_once;
};

class Dispatcher {
 public:
  // `workers` threads for slow requests with at most `max_queued` waiting; `blocking_workers` threads for
  // blocking ones, with as many more waiting.
  Dispatcher(McpServer& server, size_t workers, size_t max_queued, size_t blocking_workers);

  // Runs `m` (a request) on `conn`: `deliver` gets its reply exactly once, on this thread or a worker's.
  // Progress notifications go to `emit`. `on_admitted` runs, on this thread, once a slow request is
  // registered and before it is queued (HTTP ties the client's going away to its cancellation there).
  using Deliver = std::function<void(DispatchReply)>;
  using OnAdmitted = std::function<void(const std::shared_ptr<InFlight>&)>;
  void dispatch(const rpc::Message& m, Revision rev, std::shared_ptr<Connection> conn, Emit emit,
                Deliver deliver, const OnAdmitted& on_admitted = {});

  // Blocks until every queued request has finished (the worker pool's, then the blocking pool's).
  void wait_idle();
  // The same, waiting for each pool at most `limit`: false when requests are still queued or running.
  bool wait_idle_for(std::chrono::milliseconds limit);
  // True while work after a reply is announced or running and no call is under way on the workers.
  bool only_after_reply_work() { return gate_.only_after_reply(); }

 private:
  // Calls under way on the workers, and the work after replies announced but not yet done (see above).
  McpServer& server_;
  AfterReplyGate gate_;
  WorkerPool blocking_;  // waits: threads of their own, so several waits never starve pool_
  WorkerPool pool_;      // last: joined first, while the members its jobs use still exist
};

}  // namespace csift
