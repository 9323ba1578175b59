// Not built by default. SubstringFinder throughput on real transcript bytes: the multi-needle Teddy pass
// against the per-needle probe-pair loop it replaced, for 1..16 needles. Build:
//   g++ -std=c++20 -O2 -I. bench/finder_probe.cpp core/scan/substring_finder.cpp -o /tmp/finder_probe
//   /tmp/finder_probe FILE...   (the files are concatenated and scanned in memory, best of 5; then the same
//   bytes line by line, one contains() per line, as the search prefilter calls it)
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <optional>
#include <string_view>
#define private public  // the probe picks the loop itself
#include "core/scan/substring_finder.h"
#undef private

using csift::SubstringFinder;

namespace {

double scan(const SubstringFinder& f, const std::string& buf, size_t* hits) {
  double best = 1e9;
  for (int r = 0; r < 5; ++r) {
    size_t h = 0;
    auto t0 = std::chrono::steady_clock::now();
    for (size_t at = f.find(buf); at != SubstringFinder::npos; at = f.find(buf, at + 1))
      ++h;
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (s < best) best = s;
    *hits = h;
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  std::string buf;
  for (int a = 1; a < argc; ++a) {
    std::ifstream in(argv[a], std::ios::binary);
    buf.append(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  const std::vector<std::string> pool = {"zanzibarquux",  "xylophonezebraquartz",
                                         "TodoWrite",     "permission_denied",
                                         "ENOENT",        "segfault",
                                         "cmake_minimum", "rustc",
                                         "Traceback",     "node_modules",
                                         "SIGKILL",       "deadlock",
                                         "panicked",      "undefined reference",
                                         "git rebase",    "kubectl"};
  std::printf(
      "%zu MB\n| needles | caseless | per-needle loop GB/s | teddy GB/s | hits "
      "|\n|---:|---|---:|---:|---:|\n",
      buf.size() >> 20);
  for (bool caseless : {false, true}) {
    for (size_t n : {1, 2, 3, 4, 8, 16}) {
      std::vector<std::string> needles(pool.begin(), pool.begin() + static_cast<long>(n));
      SubstringFinder f(needles, caseless);
      size_t h1 = 0, h2 = 0;
      f.impl_ = &SubstringFinder::find_avx2;
      double old_s = scan(f, buf, &h1);
      double ted_s = 0;
      if (n > 1) {
        f.impl_ = &SubstringFinder::find_teddy_avx2;
        ted_s = scan(f, buf, &h2);
      }
      std::printf("| %zu | %s | %.2f | %s | %zu%s |\n", n, caseless ? "yes" : "no", buf.size() / old_s / 1e9,
                  n > 1 ? std::to_string(buf.size() / ted_s / 1e9).substr(0, 4).c_str() : "-", h1,
                  (n > 1 && h1 != h2) ? " MISMATCH" : "");
    }
  }
  std::vector<std::string_view> lines;
  for (size_t at = 0; at < buf.size();) {
    size_t nl = buf.find('\n', at);
    if (nl == std::string::npos) nl = buf.size();
    lines.push_back(std::string_view(buf).substr(at, nl - at));
    at = nl + 1;
  }
  std::printf("\n| needles (per line, %zu lines) | loop | GB/s |\n|---:|---|---:|\n", lines.size());
  for (size_t n : {1, 2, 6, 16}) {
    SubstringFinder f(std::vector<std::string>(pool.begin(), pool.begin() + static_cast<long>(n)), false);
    double best = 1e9;
    for (int r = 0; r < 5; ++r) {
      size_t h = 0;
      auto t0 = std::chrono::steady_clock::now();
      for (auto l : lines)
        h += f.contains(l);
      double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      if (sec < best && h < lines.size() + 1) best = sec;
    }
    std::printf("| %zu | %s | %.2f |\n", n, f.isa(), buf.size() / best / 1e9);
  }
}
