// Not built by default. Measures SubstringFinder against glibc memmem on a generated buffer, and the
// matcher's growth on long lines. Build:
//   g++ -std=c++20 -O2 -I. bench/regex_probe.cpp
//   core/{regex,pattern_ast,pattern_emit,utf8_repair,needles,substring_finder}.cpp \
//       -lpcre2-8 -lsimdjson -lutf8proc -o /tmp/regex_probe && /tmp/regex_probe [file-to-write]
#include <chrono>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>

#include "core/regex/regex.h"
#include "core/scan/substring_finder.h"

using namespace csift;

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// JSON-ish transcript text: words, quotes, keys, digits (so '"' ':' and lowercase letters dominate as in real
// lines).
std::string make_buffer(size_t bytes) {
  const char* words[] = {"\"type\":\"assistant\"",
                         "the",
                         "tool_use",
                         "content",
                         "\"text\":\"",
                         "function",
                         "return",
                         "error",
                         "value",
                         "12345",
                         "{\"role\":\"user\"}",
                         "session",
                         "file_path",
                         "/home/dev/x.cpp"};
  std::mt19937 rng(1);
  std::string s;
  s.reserve(bytes + 64);
  while (s.size() < bytes) {
    s += words[rng() % 14];
    s += (rng() % 40 == 0) ? '\n' : ' ';
  }
  s.resize(bytes);
  return s;
}

template <class F>
double best_of(int runs, F f) {
  double best = 1e9;
  for (int r = 0; r < runs; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    f();
    best = std::min(best, seconds_since(t0));
  }
  return best;
}

void bench_finder(const std::string& buf, const std::vector<std::string>& needles, bool caseless,
                  const char* label) {
  SubstringFinder f(needles, caseless);
  size_t hits = 0;
  double t = best_of(5, [&] {
    hits = 0;
    for (size_t at = f.find(buf); at != SubstringFinder::npos; at = f.find(buf, at + 1))
      ++hits;
  });
  std::printf("%-44s %-6s %7.3f s %6.2f GB/s hits=%zu\n", label, f.isa(), t, buf.size() / t / 1e9, hits);
}

void bench_memmem(const std::string& buf, const char* needle) {
  size_t hits = 0;
  size_t n = std::strlen(needle);
  double t = best_of(5, [&] {
    hits = 0;
    const char* p = buf.data();
    const char* end = buf.data() + buf.size();
    while (const void* q = memmem(p, end - p, needle, n)) {
      ++hits;
      p = static_cast<const char*>(q) + 1;
    }
  });
  std::printf("%-44s %-6s %7.3f s %6.2f GB/s hits=%zu\n", "glibc memmem", "", t, buf.size() / t / 1e9, hits);
}

void bench_growth(const char* pattern, char fill, char last) {
  Matcher m(CompiledPattern::compile(pattern, {}));
  for (size_t n : {size_t{8000}, size_t{32000}, size_t{1000000}, size_t{4000000}}) {
    std::string line(n, fill);
    line.back() = last;
    MatchResult r;
    double t = best_of(3, [&] { r = m.find(line); });
    std::printf("%-22s n=%-8zu status=%d  %.4f s  %.1f MB/s\n", pattern, n, static_cast<int>(r.status), t,
                n / t / 1e6);
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::string buf = make_buffer(200u << 20);
  if (argc > 1) {
    FILE* f = std::fopen(argv[1], "wb");
    std::fwrite(buf.data(), 1, buf.size(), f);
    std::fclose(f);
  }
  bench_memmem(buf, "TodoWrite");
  bench_finder(buf, {"TodoWrite"}, false, "1 needle TodoWrite (absent)");
  bench_finder(buf, {"TodoWrite"}, true, "1 needle TodoWrite caseless (absent)");
  bench_finder(buf, {"ePath\":"}, false, "1 needle ePath\": (absent, common bytes)");
  bench_finder(buf, {"TodoWrite", "legacy"}, true, "2 needles caseless (absent)");
  bench_finder(buf, {"alpha", "bravo", "charlie", "delta"}, false, "4 needles (absent)");
  bench_finder(buf, {"alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel"}, false,
               "8 needles (absent)");
  bench_finder(buf, {"tool_use"}, false, "1 needle tool_use (frequent)");
  bench_growth("[a-z]*[0-9]", 'q', '!');
  bench_growth("\\b(error|fail\\w*)\\b", 'q', '!');
  bench_growth("(a+)+$", 'a', '!');
  bench_growth("\\w+\\d", 'q', '7');
  return 0;
}
