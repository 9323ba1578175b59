#include "server/stdio_transport.h"

#include <csignal>
#include <cstdlib>
#include <mutex>
#include <string>

#include "server/worker_pool.h"

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

// Reads one line of any length into `line` (without '\n' or a trailing '\r'); false at EOF.
bool read_line(std::FILE* in, std::string& line) {
  line.clear();
  char buf[65536];
  while (std::fgets(buf, sizeof buf, in)) {
    line.append(buf);
    if (!line.empty() && line.back() == '\n') {
      line.pop_back();
      if (!line.empty() && line.back() == '\r') line.pop_back();
      return true;
    }
  }
  return !line.empty();  // a last line without '\n' still counts
}

class StdioSession {
 public:
  StdioSession(McpServer& server, std::FILE* out, const StdioOptions& options)
      : server_(server), writer_(out), options_(options), pool_(options.workers, options.max_queued) {}

  void on_line(const std::string& line) {
    if (line.find_first_not_of(" \t") == std::string::npos) return;
    if (line.size() > options_.max_message_bytes) {
      writer_.write(rpc::make_error(nullptr, rpc::kInvalidRequest, "message too large"));
      return;
    }
    auto parsed = rpc::parse(line);
    if (!parsed) {
      writer_.write(rpc::make_error(nullptr, rpc::kParseError, "parse error: the line is not valid JSON"));
      return;
    }
    on_message(rpc::classify(*parsed));
  }

  void drain() { pool_.wait_idle(); }

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
        server_.handle_notification(m, conn_);
        return;
      case rpc::Kind::request:
        break;
    }
    const Revision rev = revision_of(m);
    if (!McpServer::is_slow(m)) {
      reply(m, rev);
      return;
    }
    if (!pool_.try_submit([this, m, rev] { reply(m, rev); })) {
      writer_.write(
          rpc::make_error(m.id, rpc::kInternalError, "server busy: too many calls under way; retry"));
    }
  }

  void reply(const rpc::Message& m, Revision rev) {
    auto emit = [this](const json& message) { return writer_.write(message); };
    if (auto r = server_.handle_request(m, rev, conn_, emit)) writer_.write(*r);
  }

  McpServer& server_;
  LineWriter writer_;
  StdioOptions options_;
  Connection conn_;
  WorkerPool pool_;  // last: its destructor joins workers that use the members above
};

}  // namespace

int serve_stdio(McpServer& server, std::FILE* in, std::FILE* out, const StdioOptions& options) {
  // A closed stdout must end in a failed write, not in SIGPIPE killing the process mid-reply.
  std::signal(SIGPIPE, SIG_IGN);
  StdioSession session(server, out, options);
  std::string line;
  while (read_line(in, line))
    session.on_line(line);
  session.drain();
  return 0;
}

}  // namespace csift
