#include "server/stdio_transport.h"

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>

#include "server/dispatcher.h"
#include "server/resource_watch.h"

namespace csift {
namespace {

// Serializes whole lines: replies and progress come from several threads.
class LineWriter {
 public:
  explicit LineWriter(std::FILE* out) : out_(out) {}
  bool write(const json& message) {
    std::string line = rpc::encode(message);
    line.push_back('\n');
    std::lock_guard lock(mu_);
    if (broken_) return false;
    if (std::fwrite(line.data(), 1, line.size(), out_) != line.size() || std::fflush(out_) != 0)
      broken_ = true;
    return !broken_;
  }

 private:
  std::FILE* out_;
  std::mutex mu_;
  bool broken_ = false;
};

enum class LineRead { line, too_long, eof };

// Reads one line (without '\n' or a trailing '\r') of at most `max` bytes. A longer line is consumed up to
// its newline without being kept, so a client cannot make the reader hold more than `max` bytes. Byte by
// byte (getc_unlocked is buffered): fgets cannot tell a NUL inside a line from its end, and a NUL would have
// joined the line to the next message.
LineRead read_line(std::FILE* in, std::string& line, size_t max) {
  line.clear();
  bool too_long = false;
  bool any = false;
  for (int c = getc_unlocked(in); c != EOF; c = getc_unlocked(in)) {
    any = true;
    if (c == '\n') {
      if (too_long) return LineRead::too_long;
      if (!line.empty() && line.back() == '\r') line.pop_back();
      return line.size() > max ? LineRead::too_long : LineRead::line;
    }
    if (too_long) continue;
    line.push_back(static_cast<char>(c));
    if (line.size() > max + 1) {
      too_long = true;
      line.clear();
      line.shrink_to_fit();
    }
  }
  if (too_long) return LineRead::too_long;
  return any && !line.empty() ? LineRead::line : LineRead::eof;  // a last line without '\n' still counts
}

class StdioSession {
 public:
  StdioSession(McpServer& server, std::FILE* out, const StdioOptions& options)
      : server_(server),
        writer_(out),
        options_(options),
        dispatcher_(server, options.workers, options.max_queued, options.blocking_workers) {
    // stdout is ours to write at any time: resource subscriptions can notify.
    conn_->set_watch(std::make_shared<ResourceWatch>(
        [this](const json& message) { return writer_.write(message); }, options.watch_interval));
  }

  void on_line(const std::string& line) {
    if (line.find_first_not_of(" \t") == std::string::npos) return;
    bool too_deep = false;
    auto parsed = rpc::parse(line, &too_deep);
    if (too_deep) {
      writer_.write(rpc::make_error(
          nullptr, rpc::kInvalidRequest,
          "invalid request: JSON nested more than " + std::to_string(rpc::kMaxNesting) + " levels deep"));
      return;
    }
    if (!parsed) {
      writer_.write(rpc::make_error(nullptr, rpc::kParseError, "parse error: the line is not valid JSON"));
      return;
    }
    on_message(rpc::classify(*parsed));
  }

  void on_too_long() { writer_.write(rpc::make_error(nullptr, rpc::kInvalidRequest, "message too large")); }

  // stdin ended: nobody can read a reply any more. Every call, queued or running, is cancelled; true when
  // they all stopped within `limit`.
  // Work after a reply (a memo fill and the disk write a cold call left) is not cancelled: the next server
  // starts from what it writes. It may run on for up to `after_reply_limit`.
  bool cancel_and_drain(std::chrono::milliseconds limit, std::chrono::milliseconds after_reply_limit) {
    conn_->cancel_all();
    if (dispatcher_.wait_idle_for(limit)) return true;
    const auto until = std::chrono::steady_clock::now() + after_reply_limit;
    while (dispatcher_.only_after_reply_work() && std::chrono::steady_clock::now() < until)
      if (dispatcher_.wait_idle_for(std::chrono::milliseconds(100))) return true;
    return dispatcher_.wait_idle_for(std::chrono::milliseconds(0));
  }

 private:
  void on_message(rpc::Message m) {
    switch (m.kind) {
      case rpc::Kind::batch:
      case rpc::Kind::invalid:
        writer_.write(rpc::make_error(m.id, rpc::kInvalidRequest, "invalid request: " + m.reason));
        return;
      case rpc::Kind::response:
        return;  // this server sends no requests, so no reply is awaited
      case rpc::Kind::notification:
        server_.handle_notification(m, *conn_);
        return;
      case rpc::Kind::request:
        break;
    }
    auto emit = [this](const json& message) { return writer_.write(message); };
    dispatcher_.dispatch(m, revision_of(m), conn_, emit, [this](DispatchReply r) {
      if (r.message) writer_.write(*r.message);
    });
  }

  McpServer& server_;
  LineWriter writer_;
  StdioOptions options_;
  std::shared_ptr<Connection> conn_ = std::make_shared<Connection>();
  Dispatcher dispatcher_;  // last: its destructor joins workers that use the members above
};

}  // namespace

int serve_stdio(McpServer& server, std::FILE* in, std::FILE* out, const StdioOptions& options) {
  // A closed stdout must end in a failed write, not in SIGPIPE killing the process mid-reply.
  std::signal(SIGPIPE, SIG_IGN);
  StdioSession session(server, out, options);
  std::string line;
  for (;;) {
    const LineRead r = read_line(in, line, options.max_message_bytes);
    if (r == LineRead::eof) break;
    if (r == LineRead::too_long)
      session.on_too_long();
    else
      session.on_line(line);
  }
  if (!session.cancel_and_drain(options.exit_grace, options.after_reply_grace)) {
    // A call that does not notice cancellation must not keep an orphaned server burning CPU: what was
    // written is flushed and the process ends here.
    std::fflush(out);
    std::fprintf(stderr, "csift-mcp: stdin closed; calls still running after %lld ms, exiting\n",
                 static_cast<long long>(options.exit_grace.count()));
    std::_Exit(0);
  }
  return 0;
}

}  // namespace csift
