#include "server/dispatcher.h"

#include <cstdio>

namespace csift {

Dispatcher::Dispatcher(McpServer& server, size_t workers, size_t max_queued, size_t blocking_workers)
    : server_(server), blocking_(blocking_workers, blocking_workers), pool_(workers, max_queued) {}

void Dispatcher::dispatch(const rpc::Message& m, Revision rev, std::shared_ptr<Connection> conn, Emit emit,
                          Deliver deliver, const OnAdmitted& on_admitted) {
  const Lane lane = lane_of(m);
  if (lane == Lane::reader) {
    deliver(DispatchReply{server_.handle_request(m, rev, *conn, emit), DispatchReply::How::at_once});
    return;
  }
  // Registered before it is queued: a cancellation that arrives while it waits means it never runs.
  auto admitted = server_.admit(m, *conn, emit);
  if (!admitted) {
    deliver(DispatchReply{McpServer::id_in_use(m.id), DispatchReply::How::at_once});
    return;
  }
  if (on_admitted) on_admitted(admitted);
  const bool blocking = lane == Lane::blocking;
  WorkerPool& pool = blocking ? blocking_ : pool_;
  const bool queued = pool.try_submit([this, m, rev, conn, emit, deliver, admitted, blocking] {
    std::optional<json> reply;
    AfterReply after_reply;
    // An exception must not end the worker thread (std::terminate) nor leave the call unanswered.
    const auto internal_error = [&](const char* what) {
      if (what) std::fprintf(stderr, "csift-mcp: internal error: %s\n", what);
      conn->end(m.id);
      reply = rpc::make_error(m.id, rpc::kInternalError, "internal error");
    };
    if (!blocking) gate_.call_begins();
    try {
      reply = server_.handle_request(m, rev, *conn, emit, admitted, blocking ? nullptr : &after_reply);
    } catch (const std::exception& e) {
      internal_error(e.what());
    } catch (...) {
      internal_error(nullptr);
    }
    // A cancelled call gets no reply and leaves nothing to do: the caller asked for the work to stop, and the
    // files it read before stopping are read again by the next call that needs them.
    if (!reply) after_reply.clear();
    if (!after_reply.empty()) gate_.announce();
    if (!blocking) gate_.call_ends();
    try {
      deliver(DispatchReply{std::move(reply), DispatchReply::How::queued});
    } catch (...) {
      if (!after_reply.empty()) gate_.run(after_reply);  // announced: the calls waiting must be let in
      throw;
    }
    if (!after_reply.empty()) gate_.run(after_reply);
  });
  if (!queued) {
    conn->end(m.id);
    deliver(DispatchReply{
        rpc::make_error(m.id, rpc::kInternalError, "server busy: too many calls under way; retry"),
        DispatchReply::How::busy});
  }
}

void Dispatcher::wait_idle() {
  pool_.wait_idle();
  blocking_.wait_idle();
}

bool Dispatcher::wait_idle_for(std::chrono::milliseconds limit) {
  const bool calls = pool_.wait_idle_for(limit);
  return blocking_.wait_idle_for(limit) && calls;
}

}  // namespace csift
