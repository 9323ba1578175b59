// A server's discovery memo and watched stamps installed for one test case, as a server installs them (the
// CLI has neither), and removed after it.
#pragma once
#include <cstddef>

#include "core/store/discovery_memo.h"
#include "core/store/watched_stamps.h"

namespace csift_test {

struct ServerMemosInstalled {
  ServerMemosInstalled() {
    csift::install_discovery_memo(size_t{1} << 20);
    csift::install_watched_stamps(true);
  }
  ~ServerMemosInstalled() {
    csift::install_watched_stamps(false);
    csift::install_discovery_memo(0);
  }
  ServerMemosInstalled(const ServerMemosInstalled&) = delete;
  ServerMemosInstalled& operator=(const ServerMemosInstalled&) = delete;
};

}  // namespace csift_test
