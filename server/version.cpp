#include "server/version.h"

namespace csift {
const char* server_version() {
  return "0.1.0";
}
}  // namespace csift
