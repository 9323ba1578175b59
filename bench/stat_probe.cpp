// Not built by default. The floor of a discovery walk that stats: every directory and file under a store's
// projects/ (what a server without watches stats on its first call: each transcript, each meta.json, each
// directory whose remembered listing it keys), stat'ed by 1 and by N threads, best of 5. Build:
//   g++ -std=c++20 -O2 -pthread bench/stat_probe.cpp -o /tmp/stat_probe
//   /tmp/stat_probe STORE [THREADS]   (STORE holds projects/; THREADS defaults to 2)
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

namespace {

// Stats paths[i] for every i = first mod step; returns how many stats succeeded.
size_t stat_every(const std::vector<std::string>& paths, size_t first, size_t step) {
  size_t ok = 0;
  struct stat st {};
  for (size_t i = first; i < paths.size(); i += step)
    ok += ::stat(paths[i].c_str(), &st) == 0;
  return ok;
}

// The best wall time in milliseconds of five rounds of stat'ing every path on `threads` threads.
double best_ms(const std::vector<std::string>& paths, size_t threads) {
  double best = 1e18;
  for (int round = 0; round < 5; ++round) {
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<std::thread> pool;
    for (size_t k = 0; k < threads; ++k)
      pool.emplace_back([&paths, k, threads] { stat_every(paths, k, threads); });
    for (std::thread& t : pool)
      t.join();
    best = std::min(best,
                    std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: stat_probe STORE [THREADS]\n");
    return 2;
  }
  const size_t threads = argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 2;
  // In the order a walk meets them: each directory's entries after it.
  std::vector<std::string> paths;
  size_t dirs = 0;
  for (const auto& e :
       std::filesystem::recursive_directory_iterator(std::filesystem::path(argv[1]) / "projects")) {
    paths.push_back(e.path().string());
    dirs += e.is_directory();
  }
  const double one = best_ms(paths, 1);
  const double many = best_ms(paths, std::max<size_t>(threads, 1));
  std::printf("%zu entries (%zu directories): 1 thread %.1f ms (%.2f us a stat), %zu threads %.1f ms\n",
              paths.size(), dirs, one, one * 1000 / static_cast<double>(std::max<size_t>(paths.size(), 1)),
              threads, many);
}
