#include "core/base/after_reply.h"

#include <cstdio>
#include <exception>

namespace csift {

void AfterReply::run() {
  std::vector<std::function<void(const CancelToken&)>> work = std::move(work_);
  work_.clear();
  for (auto& piece : work) {
    if (stop_.is_cancelled()) break;
    try {
      piece(stop_);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "csift-mcp: work after a reply failed: %s\n", e.what());
    } catch (...) {
      std::fprintf(stderr, "csift-mcp: work after a reply failed\n");
    }
  }
}

}  // namespace csift
