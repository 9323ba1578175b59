// libFuzzer's entry points for the fuzz targets' shared executable: the target is the one the executable's
// name names (fuzz_<name>, a link CMake makes per target) or $CSIFT_FUZZ_TARGET; an unknown name lists the
// targets and exits.
#include <cstdio>
#include <string>

#include "tests/fuzz/fuzz_support.h"

namespace {
csift_fuzz::FuzzFn chosen = nullptr;
}

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  (void)argc;
  std::string name;
  if (const char* env = std::getenv("CSIFT_FUZZ_TARGET")) name = env;
  if (name.empty()) {
    name = (*argv)[0];
    name = name.substr(name.rfind('/') + 1);
    if (name.rfind("fuzz_", 0) == 0) name = name.substr(5);
  }
  auto it = csift_fuzz::registry().find(name);
  if (it == csift_fuzz::registry().end()) {
    std::fprintf(stderr, "no fuzz target '%s' in this executable; it has:", name.c_str());
    for (const auto& [n, fn] : csift_fuzz::registry())
      std::fprintf(stderr, " %s", n.c_str());
    std::fprintf(stderr, " (run it as fuzz_<name>, or set CSIFT_FUZZ_TARGET)\n");
    std::exit(2);
  }
  chosen = it->second;
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return chosen(data, size);
}
