#include "server/http_server.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <deque>
#include <map>
#include <mutex>
#include <thread>

namespace csift::http {

using Clock = std::chrono::steady_clock;

namespace {

const char* reason(int status) {
  switch (status) {
    case 100:
      return "Continue";
    case 200:
      return "OK";
    case 202:
      return "Accepted";
    case 400:
      return "Bad Request";
    case 401:
      return "Unauthorized";
    case 403:
      return "Forbidden";
    case 404:
      return "Not Found";
    case 405:
      return "Method Not Allowed";
    case 408:
      return "Request Timeout";
    case 413:
      return "Content Too Large";
    case 431:
      return "Request Header Fields Too Large";
    case 500:
      return "Internal Server Error";
    case 501:
      return "Not Implemented";
    case 503:
      return "Service Unavailable";
    default:
      return "Status";
  }
}

std::string head_bytes(int status, const std::string& content_type, const Headers& headers, bool keep_alive,
                       std::optional<size_t> length) {
  std::string out = "HTTP/1.1 " + std::to_string(status) + " " + reason(status) + "\r\n";
  if (!content_type.empty()) out += "Content-Type: " + content_type + "\r\n";
  if (length)
    out += "Content-Length: " + std::to_string(*length) + "\r\n";
  else if (keep_alive)
    out += "Transfer-Encoding: chunked\r\n";
  out += keep_alive ? "Connection: keep-alive\r\n" : "Connection: close\r\n";
  for (const auto& [k, v] : headers)
    out += k + ": " + v + "\r\n";
  out += "\r\n";
  return out;
}

}  // namespace

// The loop's shared part: the epoll set and the queue through which other threads say a reply is complete.
struct Loop {
  int epfd = -1;
  int wakefd = -1;
  int listenfd = -1;
  std::mutex mu;
  std::deque<std::weak_ptr<Conn>> finished;  // replies completed off the I/O thread
  Limits limits;
  HeadCheck check;
  Handler handler;
  std::map<int, std::shared_ptr<Conn>> conns;  // I/O thread only
  std::map<std::string, size_t> per_address;   // I/O thread only

  void wake() {
    const uint64_t one = 1;
    [[maybe_unused]] auto n = ::write(wakefd, &one, sizeof one);
  }
  ~Loop() {
    for (int fd : {epfd, wakefd, listenfd})
      if (fd >= 0) ::close(fd);
  }
};

enum class Phase { idle, head, body, handling, closing };

struct Conn {
  std::shared_ptr<Loop> loop;
  int fd = -1;
  std::string peer;

  std::mutex mu;  // everything below; the fd is only written or closed under it
  bool closed = false;
  Phase phase = Phase::idle;
  std::string out;
  size_t out_off = 0;
  bool reply_done = false;  // the current reply is entirely in `out`
  bool keep_alive = true;
  bool http10 = false;
  bool streaming = false;
  bool pause_input = false;  // a reply is under way and a pipelined request's worth is buffered
  size_t discarded = 0;      // bytes read and dropped after a refusal
  std::function<void()> on_abort;
  Clock::time_point deadline{};        // request (head/body) or idle deadline
  Clock::time_point write_deadline{};  // set while `out` has bytes the client has not taken
  Clock::time_point waiting_since{};   // for choosing whom to evict

  // I/O thread only (parsing, by server/http_parse.h).
  std::string in;
  Request req;
  bool chunked = false;
  size_t body_left = 0;   // Content-Length bytes still to come
  ChunkedDecoder chunks;  // a chunked body's framing so far

  // Sends what it can of `out` without blocking; updates the epoll interest. Under mu.
  void flush_locked() {
    while (!closed && out_off < out.size()) {
      const ssize_t n = ::send(fd, out.data() + out_off, out.size() - out_off, MSG_NOSIGNAL);
      if (n > 0) {
        out_off += static_cast<size_t>(n);
        continue;
      }
      if (n < 0 && errno == EINTR) continue;
      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
      // The client is gone: the I/O thread closes the connection when epoll reports it.
      out.clear();
      out_off = 0;
      break;
    }
    if (out_off >= out.size()) {
      out.clear();
      out_off = 0;
      write_deadline = {};
    } else if (write_deadline == Clock::time_point{}) {
      write_deadline = Clock::now() + loop->limits.write_timeout;
    }
    update_interest_locked();
  }

  void update_interest_locked() {
    if (closed) return;
    epoll_event ev{};
    ev.data.fd = fd;
    ev.events = EPOLLRDHUP;
    // While a reply is under way, input is read only up to one header's worth (a pipelined request).
    if (!pause_input) ev.events |= EPOLLIN;
    if (!out.empty()) ev.events |= EPOLLOUT;
    ::epoll_ctl(loop->epfd, EPOLL_CTL_MOD, fd, &ev);
  }

  // Appends reply bytes; `last` completes the reply. False when the client has gone.
  bool send(std::string bytes, bool last) {
    bool finished = false;
    {
      std::lock_guard lock(mu);
      if (closed) return false;
      out += bytes;
      if (last) reply_done = true;
      flush_locked();
      finished = reply_done && out.empty() && phase == Phase::handling;
    }
    if (finished) {
      std::lock_guard lock(loop->mu);
      loop->finished.push_back(weak_from_this_conn());
    }
    if (finished) loop->wake();
    return true;
  }

  std::weak_ptr<Conn> self;
  std::weak_ptr<Conn> weak_from_this_conn() const { return self; }
};

// ------------------------------------------------------------------------------------------- Exchange

Exchange::Exchange(std::shared_ptr<Conn> conn) : conn_(std::move(conn)) {}

Exchange::~Exchange() {
  // A handler that drops its exchange unanswered must not leave the connection waiting forever.
  if (!done_) reply(Response{500, "text/plain", "no reply\n", {}});
}

void Exchange::reply(Response r) {
  if (done_) return;
  done_ = true;
  bool keep_alive = false;
  {
    std::lock_guard lock(conn_->mu);
    keep_alive = conn_->keep_alive;
  }
  std::string bytes = head_bytes(r.status, r.content_type, r.headers, keep_alive, r.body.size());
  bytes += r.body;
  conn_->send(std::move(bytes), true);
}

bool Exchange::begin_stream(int status, const std::string& content_type, const Headers& headers) {
  bool keep_alive = false;
  {
    std::lock_guard lock(conn_->mu);
    if (conn_->http10) conn_->keep_alive = false;  // HTTP/1.0 has no chunked framing: the close ends it
    conn_->streaming = true;
    keep_alive = conn_->keep_alive;
  }
  return conn_->send(head_bytes(status, content_type, headers, keep_alive, std::nullopt), false);
}

bool Exchange::write(std::string_view data) {
  if (data.empty()) return true;
  bool framed = false;
  {
    std::lock_guard lock(conn_->mu);
    framed = conn_->keep_alive;
  }
  if (!framed) return conn_->send(std::string(data), false);
  char size[32];
  std::snprintf(size, sizeof size, "%zx\r\n", data.size());
  std::string bytes = size;
  bytes.append(data);
  bytes += "\r\n";
  return conn_->send(std::move(bytes), false);
}

void Exchange::end() {
  if (done_) return;
  done_ = true;
  bool framed = false;
  {
    std::lock_guard lock(conn_->mu);
    framed = conn_->keep_alive;
  }
  conn_->send(framed ? "0\r\n\r\n" : "", true);
}

void Exchange::on_abort(std::function<void()> f) {
  {
    std::lock_guard lock(conn_->mu);
    if (!conn_->closed) {
      conn_->on_abort = std::move(f);
      return;
    }
  }
  f();
}

// ------------------------------------------------------------------------------------------- the loop

namespace {

void set_nonblocking(int fd) {
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL, 0) | O_NONBLOCK);
}

std::string peer_address(const sockaddr_storage& ss) {
  char buf[INET6_ADDRSTRLEN] = {};
  if (ss.ss_family == AF_INET) {
    ::inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in&>(ss).sin_addr, buf, sizeof buf);
  } else if (ss.ss_family == AF_INET6) {
    ::inet_ntop(AF_INET6, &reinterpret_cast<const sockaddr_in6&>(ss).sin6_addr, buf, sizeof buf);
  }
  return buf;
}

class Engine {
 public:
  explicit Engine(Loop& loop) : loop_(loop) {}

  void accept_all(bool stopping) {
    for (;;) {
      sockaddr_storage ss{};
      socklen_t len = sizeof ss;
      const int fd =
          ::accept4(loop_.listenfd, reinterpret_cast<sockaddr*>(&ss), &len, SOCK_NONBLOCK | SOCK_CLOEXEC);
      if (fd < 0) {
        if (errno == EINTR) continue;
        return;  // EAGAIN, or out of descriptors: the backlog keeps the rest
      }
      if (stopping) {
        ::close(fd);
        continue;
      }
      const std::string peer = peer_address(ss);
      if (!make_room(peer)) {
        static constexpr std::string_view kBusy =
            "HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nConnection: close\r\nRetry-After: "
            "1\r\n\r\n";
        [[maybe_unused]] auto n = ::send(fd, kBusy.data(), kBusy.size(), MSG_NOSIGNAL);
        ::close(fd);
        continue;
      }
      const int one = 1;
      ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
      auto c = std::make_shared<Conn>();
      c->self = c;
      c->loop = shared_loop_;
      c->fd = fd;
      c->peer = peer;
      c->waiting_since = Clock::now();
      c->deadline = c->waiting_since + loop_.limits.idle_timeout;
      epoll_event ev{};
      ev.data.fd = fd;
      ev.events = EPOLLIN | EPOLLRDHUP;
      if (::epoll_ctl(loop_.epfd, EPOLL_CTL_ADD, fd, &ev) != 0) {
        ::close(fd);
        continue;
      }
      loop_.conns[fd] = c;
      ++loop_.per_address[peer];
    }
  }

  void on_event(int fd, uint32_t events) {
    auto it = loop_.conns.find(fd);
    if (it == loop_.conns.end()) return;
    std::shared_ptr<Conn> c = it->second;
    bool finished = false;
    Phase phase;
    {
      std::lock_guard lock(c->mu);
      if (events & EPOLLOUT) c->flush_locked();
      finished = c->reply_done && c->out.empty() && c->phase == Phase::handling;
      phase = c->phase;
    }
    bool peer_gone = (events & (EPOLLHUP | EPOLLERR)) != 0;
    if (phase == Phase::closing) {
      // A refusal: read and drop what the client still sends (so it sees the answer rather than a reset)
      // until it closes, a bound is reached, or the linger deadline passes (sweep).
      if (!peer_gone && (events & (EPOLLIN | EPOLLRDHUP))) peer_gone = !discard(*c);
      if (peer_gone) close_conn(c);
      return;
    }
    if (events & (EPOLLIN | EPOLLRDHUP)) {
      if (!read_some(*c)) peer_gone = true;
    }
    if (peer_gone) return close_conn(c);
    if (finished) return reply_finished(c);
    advance(c);
  }

  // False when the client closed or sent more than a lingering close accepts.
  bool discard(Conn& c) {
    char buf[65536];
    for (;;) {
      const ssize_t n = ::recv(c.fd, buf, sizeof buf, 0);
      if (n > 0) {
        c.discarded += static_cast<size_t>(n);
        if (c.discarded > 2 * loop_.limits.max_body_bytes) return false;
        continue;
      }
      if (n < 0 && errno == EINTR) continue;
      return n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK);
    }
  }

  // A reply completed: read the next request, or close.
  void reply_finished(const std::shared_ptr<Conn>& c) {
    bool keep = false;
    {
      std::lock_guard lock(c->mu);
      if (c->closed || c->phase != Phase::handling || !c->reply_done || !c->out.empty()) return;
      keep = c->keep_alive && !stopping_;
      c->on_abort = nullptr;
      c->reply_done = false;
      c->streaming = false;
      c->pause_input = false;
      c->phase = keep ? Phase::idle : Phase::closing;
      c->waiting_since = Clock::now();
      c->deadline = c->waiting_since + loop_.limits.idle_timeout;
      c->update_interest_locked();
    }
    if (!keep) return close_conn(c);
    advance(c);
  }

  void drain_finished() {
    std::deque<std::weak_ptr<Conn>> done;
    {
      std::lock_guard lock(loop_.mu);
      done.swap(loop_.finished);
    }
    for (auto& w : done)
      if (auto c = w.lock()) reply_finished(c);
  }

  void sweep() {
    const auto now = Clock::now();
    std::vector<std::shared_ptr<Conn>> expired;
    std::vector<std::pair<std::shared_ptr<Conn>, ParseError>> timed_out;
    for (auto& [fd, c] : loop_.conns) {
      std::lock_guard lock(c->mu);
      if (c->write_deadline != Clock::time_point{} && now > c->write_deadline) {
        expired.push_back(c);
      } else if (c->phase == Phase::head || c->phase == Phase::body) {
        if (auto late = check_request_deadline(c->deadline, now)) timed_out.emplace_back(c, std::move(*late));
      } else if (c->phase == Phase::idle && (now > c->deadline || stopping_)) {
        expired.push_back(c);
      } else if (c->phase == Phase::closing && now > c->deadline) {
        expired.push_back(c);
      }
    }
    for (auto& [c, late] : timed_out)
      refuse(c, late);
    for (auto& c : expired)
      close_conn(c);
  }

  // True when no connection has a reply under way or unsent.
  bool quiet() {
    for (auto& [fd, c] : loop_.conns) {
      std::lock_guard lock(c->mu);
      if (c->phase == Phase::handling || !c->out.empty()) return false;
    }
    return true;
  }

  void set_stopping() {
    stopping_ = true;
    if (loop_.listenfd >= 0) {
      ::epoll_ctl(loop_.epfd, EPOLL_CTL_DEL, loop_.listenfd, nullptr);
      ::close(loop_.listenfd);
      loop_.listenfd = -1;
    }
  }

  void close_all() {
    std::vector<std::shared_ptr<Conn>> all;
    for (auto& [fd, c] : loop_.conns)
      all.push_back(c);
    for (auto& c : all)
      close_conn(c);
  }

  std::shared_ptr<Loop> shared_loop_;

 private:
  // Room for one more connection from `peer`: evicts the longest-waiting connection with no request under
  // way when a bound is reached; false when every connection counted is being answered.
  bool make_room(const std::string& peer) {
    const bool address_full = loop_.per_address[peer] >= loop_.limits.max_connections_per_address;
    const bool total_full = loop_.conns.size() >= loop_.limits.max_connections;
    if (!address_full && !total_full) return true;
    std::shared_ptr<Conn> victim;
    Clock::time_point oldest = Clock::time_point::max();
    for (auto& [fd, c] : loop_.conns) {
      if (address_full && c->peer != peer) continue;
      std::lock_guard lock(c->mu);
      if (c->phase == Phase::handling || !c->out.empty()) continue;
      if (c->waiting_since < oldest) {
        oldest = c->waiting_since;
        victim = c;
      }
    }
    if (!victim) return false;
    close_conn(victim);
    return true;
  }

  // Reads what is available; false when the client closed or the socket failed.
  bool read_some(Conn& c) {
    char buf[65536];
    for (;;) {
      {
        // While a reply is under way, keep at most one header's worth of a pipelined request.
        std::lock_guard lock(c.mu);
        if (c.phase == Phase::handling && c.in.size() >= loop_.limits.max_header_bytes) {
          c.pause_input = true;
          c.update_interest_locked();
          return true;
        }
      }
      const ssize_t n = ::recv(c.fd, buf, sizeof buf, 0);
      if (n > 0) {
        c.in.append(buf, static_cast<size_t>(n));
        // advance() consumes between bursts, so `in` never holds much more than a header's worth.
        if (c.in.size() > loop_.limits.max_header_bytes + sizeof buf) return true;
        continue;
      }
      if (n == 0) return false;
      if (errno == EINTR) continue;
      return errno == EAGAIN || errno == EWOULDBLOCK;
    }
  }

  // Answers with an error, then lingers (reading and dropping input) and closes.
  void refuse(const std::shared_ptr<Conn>& c, const ParseError& e) {
    refuse_with(c, Response{static_cast<int>(e.status), "text/plain", e.message + "\n", {}});
  }

  void refuse_with(const std::shared_ptr<Conn>& c, Response r) {
    std::lock_guard lock(c->mu);
    if (c->closed) return;
    c->phase = Phase::closing;
    c->keep_alive = false;
    c->pause_input = false;
    c->in.clear();
    c->deadline = Clock::now() + std::chrono::seconds(2);
    c->out += head_bytes(r.status, r.content_type, r.headers, false, r.body.size()) + r.body;
    c->flush_locked();
  }

  void close_conn(const std::shared_ptr<Conn>& c) {
    std::function<void()> abort;
    {
      std::lock_guard lock(c->mu);
      if (c->closed) return;
      c->closed = true;
      if (c->phase == Phase::handling && !(c->reply_done && c->out.empty())) abort = std::move(c->on_abort);
      c->on_abort = nullptr;
      ::epoll_ctl(loop_.epfd, EPOLL_CTL_DEL, c->fd, nullptr);
      ::close(c->fd);
    }
    loop_.conns.erase(c->fd);
    auto pa = loop_.per_address.find(c->peer);
    if (pa != loop_.per_address.end() && --pa->second == 0) loop_.per_address.erase(pa);
    if (abort) abort();
  }

  // Parses what is buffered; hands a complete request to the handler.
  void advance(const std::shared_ptr<Conn>& cp) {
    Conn& c = *cp;
    for (;;) {
      Phase phase;
      {
        std::lock_guard lock(c.mu);
        phase = c.phase;
      }
      if (phase == Phase::handling || phase == Phase::closing) return;
      if (phase == Phase::idle) {
        c.in.erase(0, blank_prefix(c.in));
        if (c.in.empty()) return;
        std::lock_guard lock(c.mu);
        c.phase = phase = Phase::head;
        c.waiting_since = Clock::now();
        c.deadline = request_deadline(c.waiting_since, loop_.limits);
      }
      if (phase == Phase::head) {
        HeadResult head = parse_request_head(c.in, loop_.limits);
        if (head.state == Parse::needs_more) return;
        if (head.state == Parse::error) return refuse(cp, head.error);
        c.in.erase(0, head.consumed);
        start_request(c, head.head);
        if (loop_.check) {
          if (auto refusal = loop_.check(c.req)) return refuse_with(cp, std::move(*refusal));
        }
        if (auto too_large = check_content_length(head.head, loop_.limits)) return refuse(cp, *too_large);
        if (head.head.expects_continue) {
          std::lock_guard lock(c.mu);
          c.out += "HTTP/1.1 100 Continue\r\n\r\n";
          c.flush_locked();
        }
        std::lock_guard lock(c.mu);
        c.phase = phase = Phase::body;
      }
      if (phase == Phase::body) {
        bool complete = false;
        if (c.chunked) {
          const BodyResult body = c.chunks.feed(c.in, loop_.limits, c.req.body);
          c.in.erase(0, body.consumed);
          if (body.state == Parse::error) return refuse(cp, body.error);
          complete = body.state == Parse::complete;
        } else {
          complete = read_fixed(c);
        }
        if (!complete) return;
        dispatch(cp);
        return;
      }
    }
  }

  // A parsed head's request (taken out of `head`) becomes the connection's; its body is read next.
  void start_request(Conn& c, RequestHead& head) {
    c.req = std::move(head.request);
    c.req.peer = c.peer;
    c.chunked = head.chunked;
    c.body_left = head.chunked ? 0 : head.content_length;
    c.chunks = ChunkedDecoder{};
    std::lock_guard lock(c.mu);
    c.http10 = c.req.minor_version == 0;
    c.keep_alive = head.keep_alive;
  }

  bool read_fixed(Conn& c) {
    const size_t take = std::min(c.body_left, c.in.size());
    c.req.body.append(c.in, 0, take);
    c.in.erase(0, take);
    c.body_left -= take;
    return c.body_left == 0;
  }

  void dispatch(const std::shared_ptr<Conn>& c) {
    {
      std::lock_guard lock(c->mu);
      c->phase = Phase::handling;
      c->reply_done = false;
      c->deadline = {};
      c->update_interest_locked();
    }
    Request req = std::move(c->req);
    c->req = Request{};
    loop_.handler(std::move(req), std::make_shared<Exchange>(c));
  }

  Loop& loop_;
  bool stopping_ = false;
};

}  // namespace

// ------------------------------------------------------------------------------------------- Server

Server::Server(Limits limits, HeadCheck check, Handler handler) : loop_(std::make_shared<Loop>()) {
  loop_->limits = limits;
  loop_->check = std::move(check);
  loop_->handler = std::move(handler);
}

Server::~Server() = default;

int Server::bind(const std::string& host, int port) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
  addrinfo* found = nullptr;
  std::string h = host;
  if (h.size() >= 2 && h.front() == '[' && h.back() == ']') h = h.substr(1, h.size() - 2);
  if (::getaddrinfo(h.empty() ? nullptr : h.c_str(), std::to_string(port).c_str(), &hints, &found) != 0)
    return -1;
  int fd = -1;
  for (addrinfo* ai = found; ai; ai = ai->ai_next) {
    fd = ::socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
    if (fd < 0) continue;
    const int one = 1;
    ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (::bind(fd, ai->ai_addr, ai->ai_addrlen) == 0 && ::listen(fd, 128) == 0) break;
    ::close(fd);
    fd = -1;
  }
  ::freeaddrinfo(found);
  if (fd < 0) return -1;
  set_nonblocking(fd);
  sockaddr_storage ss{};
  socklen_t len = sizeof ss;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&ss), &len);
  const int bound = ss.ss_family == AF_INET6 ? ntohs(reinterpret_cast<sockaddr_in6&>(ss).sin6_port)
                                             : ntohs(reinterpret_cast<sockaddr_in&>(ss).sin_port);
  loop_->listenfd = fd;
  return bound;
}

void Server::run(const std::atomic<bool>& stop_requested) {
  Loop& loop = *loop_;
  loop.epfd = ::epoll_create1(EPOLL_CLOEXEC);
  loop.wakefd = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  epoll_event ev{};
  ev.events = EPOLLIN;
  ev.data.fd = loop.listenfd;
  ::epoll_ctl(loop.epfd, EPOLL_CTL_ADD, loop.listenfd, &ev);
  ev.data.fd = loop.wakefd;
  ::epoll_ctl(loop.epfd, EPOLL_CTL_ADD, loop.wakefd, &ev);
  Engine engine(loop);
  engine.shared_loop_ = loop_;
  bool stopping = false;
  auto last_sweep = Clock::now();
  epoll_event events[128];
  for (;;) {
    const int n = ::epoll_wait(loop.epfd, events, 128, 100);
    for (int i = 0; i < n; ++i) {
      const int fd = events[i].data.fd;
      if (fd == loop.wakefd) {
        uint64_t v;
        [[maybe_unused]] auto r = ::read(loop.wakefd, &v, sizeof v);
        continue;
      }
      if (fd == loop.listenfd) {
        engine.accept_all(stopping);
        continue;
      }
      engine.on_event(fd, events[i].events);
    }
    engine.drain_finished();
    const auto now = Clock::now();
    if (now - last_sweep >= std::chrono::milliseconds(100) || n == 0) {
      last_sweep = now;
      engine.sweep();
    }
    if (!stopping && stop_requested.load()) {
      stopping = true;
      engine.set_stopping();
      engine.sweep();
    }
    if (stopping && engine.quiet()) break;
  }
  engine.close_all();
}

}  // namespace csift::http
