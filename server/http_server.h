// A small HTTP/1.1 server built for a hostile local network: one epoll thread owns every socket, so idle,
// slow or half-sent connections cost a file descriptor and a few bytes, never a thread. Every byte a client
// sends before its request is complete is bounded (header bytes, body bytes whatever the framing, and time),
// the number of connections per client address is bounded, and a complete request is handed to a handler
// that answers now or later from any thread. A reply is written in one send with TCP_NODELAY; connections are
// kept alive without a request count limit. It knows nothing of MCP. The request head and chunked body are
// parsed by the pure functions of server/http_parse.h; this file owns the sockets, the phases and the timers.
#pragma once
#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "server/http_parse.h"

namespace csift::http {

struct Response {
  int status = 200;
  std::string content_type;
  std::string body;
  Headers headers;
};

class Exchange;
using ExchangePtr = std::shared_ptr<Exchange>;

// Runs on the I/O thread once a request's headers are complete, before its body is read: a Response refuses
// the request (the connection then closes), nullopt reads on.
using HeadCheck = std::function<std::optional<Response>(const Request&)>;
// Runs on the I/O thread with a complete request. It must not block: it answers through the exchange, now
// or later from any thread. The next request on the connection is read once the reply is complete.
using Handler = std::function<void(Request&&, ExchangePtr)>;

struct Loop;
struct Conn;

class Server {
 public:
  Server(Limits limits, HeadCheck check, Handler handler);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;
  // The port bound (port 0: any free one), or -1.
  int bind(const std::string& host, int port);
  // Serves until `stop_requested` turns true (polled every 100 ms), then stops accepting, closes the
  // connections with no request under way, and returns once every reply under way has been written.
  void run(const std::atomic<bool>& stop_requested);

 private:
  std::shared_ptr<Loop> loop_;
};

// One request's reply. Every method is callable from any thread; a reply to a client that has gone is
// dropped.
class Exchange {
 public:
  explicit Exchange(std::shared_ptr<Conn> conn);
  ~Exchange();
  void reply(Response r);
  // A streamed reply (chunked on HTTP/1.1): begin, write any number of times, end. False once the client
  // has gone.
  bool begin_stream(int status, const std::string& content_type, const Headers& headers = {});
  bool write(std::string_view data);
  void end();
  // `f` runs once if the client goes away before the reply is complete (now, when it already has).
  void on_abort(std::function<void()> f);

 private:
  std::shared_ptr<Conn> conn_;
  bool done_ = false;
};

}  // namespace csift::http
