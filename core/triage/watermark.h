// A session's watermark: how far its log has been read, on complete lines only. A final line without its
// newline is still being written, so it is neither covered nor hashed; the digest covers it once complete.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <thread>

#include "core/store/store.h"

namespace csift {

struct Watermark {
  uint64_t size = 0;              // bytes of complete lines (up to and including the last '\n')
  std::string first_line_sha256;  // SHA-256 hex of the first complete line, without its '\n' ("" when none)
  int64_t mtime_ns = 0;           // recorded, never decides a state
  std::string at;                 // when it was taken (RFC 3339 UTC); set by whoever records it
};

struct WatermarkRead {
  Watermark mark;
  std::string error;  // non-empty: the log could not be read (the session is `unreadable`)
};

// SHA-256 of `bytes` as 64 lower-case hex digits (OpenSSL's EVP interface).
std::string sha256_hex(std::string_view bytes);
// Frees the state OpenSSL keeps for the calling thread once it has hashed. A oneTBB worker lives until the
// process ends without its thread-exit handlers running, so a worker that hashed calls this when done, or
// that state is never freed (LeakSanitizer reports it). Hashing again on the thread sets it up anew.
void release_thread_hash_state();
// For the body of a parallel loop that may hash: at the end of its scope, however it ends, frees what hashing
// left with the thread when that thread is not `caller` (the loop's own thread, which lives on as usual).
class WorkerHashScope {
 public:
  explicit WorkerHashScope(std::thread::id caller) : on_worker_(std::this_thread::get_id() != caller) {}
  ~WorkerHashScope() {
    if (on_worker_) release_thread_hash_state();
  }
  WorkerHashScope(const WorkerHashScope&) = delete;
  WorkerHashScope& operator=(const WorkerHashScope&) = delete;

 private:
  bool on_worker_;
};

// The current watermark of a file of lines: the first line read alone, the last '\n' found from the end.
WatermarkRead file_watermark(const std::string& path);
// The current watermark of any transcript: a file's as above; a database-backed session's (OpenCode) over the
// virtual log its reader lays out, one line per message then per part, with the session's update time as
// mtime.
WatermarkRead transcript_watermark(const Transcript& t);

}  // namespace csift
