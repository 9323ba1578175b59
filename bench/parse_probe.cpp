// Not built by default. Parse throughput of RecordParser (simdjson On-Demand) over real jsonl files. Build:
//   g++ -std=c++20 -O2 -I. bench/parse_probe.cpp core/harness/claude_code/record_parser.cpp -lsimdjson -o
//   /tmp/parse_probe /tmp/parse_probe [--reps N] FILE...
#include <simdjson.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/harness/claude_code/record_parser.h"

int main(int argc, char** argv) {
  int reps = 5;
  std::vector<std::string> lines;
  size_t bytes = 0;
  for (int a = 1; a < argc; ++a) {
    if (std::strcmp(argv[a], "--reps") == 0 && a + 1 < argc) {
      reps = std::atoi(argv[++a]);
      continue;
    }
    std::ifstream in(argv[a], std::ios::binary);
    std::string line;
    while (std::getline(in, line)) {
      if (line.empty()) continue;
      bytes += line.size() + 1;
      lines.push_back(line);
    }
  }
  csift::RecordParser p;
  double best = 1e9;
  size_t ok = 0;
  for (int r = 0; r < reps; ++r) {
    ok = 0;
    auto t0 = std::chrono::steady_clock::now();
    for (const auto& l : lines) {
      csift::Record rec;
      if (p.parse(l, rec) == csift::ParseStatus::ok) ++ok;
    }
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (s < best) best = s;
  }
  std::printf("compiled-ondemand=%s active=%s builtin=%s lines=%zu ok=%zu bytes=%zu best=%.4fs %.0f MB/s\n",
              SIMDJSON_STRINGIFY(SIMDJSON_BUILTIN_IMPLEMENTATION),
              simdjson::get_active_implementation()->name().c_str(),
              simdjson::builtin_implementation()->name().c_str(), lines.size(), ok, bytes, best,
              bytes / best / 1e6);
}
