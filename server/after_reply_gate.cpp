#include "server/after_reply_gate.h"

namespace csift {

void AfterReplyGate::call_begins() {
  std::unique_lock<std::mutex> lock(mu_);
  while (announced_ > 0) {
    if (running_ == nullptr) {  // announced, not begun: it begins as soon as no call is under way
      changed_.wait(lock);
      continue;
    }
    const auto stop_at = run_began_ + kGrace;
    if (std::chrono::steady_clock::now() < stop_at) {
      changed_.wait_until(lock, stop_at);
      continue;
    }
    AfterReply* running = running_;
    running->stop();
    ++usage_.stopped;
    changed_.wait(lock, [this, running] { return running_ != running; });
  }
  ++calls_;
}

void AfterReplyGate::call_ends() {
  std::lock_guard<std::mutex> lock(mu_);
  --calls_;
  changed_.notify_all();
}

void AfterReplyGate::announce() {
  std::lock_guard<std::mutex> lock(mu_);
  ++announced_;
}

void AfterReplyGate::run(AfterReply& work) {
  {
    std::unique_lock<std::mutex> lock(mu_);
    changed_.wait(lock, [this] { return calls_ == 0 && running_ == nullptr; });
    running_ = &work;
    run_began_ = std::chrono::steady_clock::now();
  }
  work.run();
  std::lock_guard<std::mutex> lock(mu_);
  running_ = nullptr;
  --announced_;
  changed_.notify_all();
}

bool AfterReplyGate::only_after_reply() {
  std::lock_guard<std::mutex> lock(mu_);
  return calls_ == 0 && announced_ > 0;
}

AfterReplyGate::Usage AfterReplyGate::usage() {
  std::lock_guard<std::mutex> lock(mu_);
  return usage_;
}

}  // namespace csift
