// SubstringFinder against a naive search: lane straddles, buffer ends, needle lengths 1..64, several needles,
// and ASCII-caseless matching.
#include <doctest/doctest.h>

#include <random>
#include <string>
#include <vector>

#include "core/scan/substring_finder.h"

namespace substring_finder_unit {

using namespace csift;

namespace {

char lower(char c) {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c | 0x20) : c;
}

size_t naive(std::string_view hay, const std::vector<std::string>& needles, bool caseless, size_t from,
             size_t* which) {
  for (size_t i = from; i < hay.size(); ++i) {
    for (size_t k = 0; k < needles.size(); ++k) {
      const std::string& n = needles[k];
      if (i + n.size() > hay.size()) continue;
      bool eq = true;
      for (size_t j = 0; j < n.size() && eq; ++j)
        eq = caseless ? lower(hay[i + j]) == lower(n[j]) : hay[i + j] == n[j];
      if (eq) {
        *which = k;
        return i;
      }
    }
  }
  return SubstringFinder::npos;
}

}  // namespace

TEST_CASE("substring finder: every needle length 1..64 at every offset around 32-byte lanes and the end") {
  for (size_t len = 1; len <= 64; ++len) {
    std::string needle;
    for (size_t j = 0; j < len; ++j)
      needle += static_cast<char>('A' + (j * 7) % 26);
    SubstringFinder f({needle}, false);
    for (size_t total :
         {len, len + 1, size_t{31}, size_t{32}, size_t{33}, size_t{64}, size_t{100}, size_t{160}}) {
      if (total < len) continue;
      for (size_t at = 0; at + len <= total; at += (total > 64 ? 5 : 1)) {
        std::string hay(total, 'z');
        hay.replace(at, len, needle);
        CAPTURE(len);
        CAPTURE(total);
        CAPTURE(at);
        CHECK(f.find(hay) == at);
        CHECK(f.find(hay, at) == at);
        CHECK(f.find(hay, at + 1) == SubstringFinder::npos);
      }
    }
  }
}

TEST_CASE("substring finder: a needle at the very end and a truncated one at the end") {
  std::string hay(1000, '.');
  hay += "needle";
  SubstringFinder f({"needle"}, false);
  CHECK(f.find(hay) == 1000);
  CHECK(f.find(hay.substr(0, hay.size() - 1)) == SubstringFinder::npos);
  CHECK(f.find("") == SubstringFinder::npos);
  CHECK(f.find("needle", 6) == SubstringFinder::npos);
}

TEST_CASE("substring finder: several needles report the leftmost and which one") {
  SubstringFinder f({"gamma", "be", "alpha"}, false);
  size_t which = 99;
  std::string hay(70, '-');
  hay += "alpha--be--gamma";
  CHECK(f.find(hay, 0, &which) == 70);
  CHECK(which == 2);
  CHECK(f.find(hay, 71, &which) == 77);
  CHECK(which == 1);
  CHECK(f.find(hay, 78, &which) == 81);
  CHECK(which == 0);
}

TEST_CASE("substring finder: ASCII-caseless, with non-letters and UTF-8 bytes exact") {
  SubstringFinder f({"TodoWrite"}, true);
  CHECK(f.caseless());
  CHECK(f.find(std::string(40, 'x') + "TODOWRITE") == 40);
  CHECK(f.find(std::string(40, 'x') + "todowrite") == 40);
  CHECK(f.find(std::string(40, 'x') + "todow rite") == SubstringFinder::npos);
  SubstringFinder g({"a@b", "\xC5\xBF"}, true);
  CHECK(g.find(std::string(50, 'x') + "A`B a@B") == 54);  // '@' | 0x20 == '`' must not match
  CHECK(g.find(std::string(50, 'x') + "\xC5\xBF") == 50);
}

TEST_CASE("substring finder: randomized against a naive search") {
  std::mt19937 rng(42);
  const std::string alphabet = "abAB\"\\ \xC3\xA9";
  for (int iter = 0; iter < 3000; ++iter) {
    bool caseless = rng() % 2;
    std::vector<std::string> needles(1 + rng() % 8);
    for (auto& n : needles) {
      size_t len = 1 + rng() % 6;
      for (size_t j = 0; j < len; ++j)
        n += alphabet[rng() % alphabet.size()];
    }
    std::string hay;
    size_t len = rng() % 300;
    for (size_t j = 0; j < len; ++j)
      hay += alphabet[rng() % alphabet.size()];
    size_t from = hay.empty() ? 0 : rng() % hay.size();
    SubstringFinder f(needles, caseless);
    size_t w1 = 0, w2 = 0;
    size_t expect = naive(hay, needles, caseless, from, &w1);
    CHECK(f.find(hay, from, &w2) == expect);
    if (expect != SubstringFinder::npos) CHECK(w1 == w2);
  }
}

TEST_CASE("substring finder: rejects an empty needle list, an empty needle and too many needles") {
  CHECK_THROWS(SubstringFinder({}, false));
  CHECK_THROWS(SubstringFinder({""}, false));
  CHECK_THROWS(SubstringFinder(std::vector<std::string>(17, "x"), false));
  CHECK(std::string(SubstringFinder({"x"}, false).isa()).size() > 0);
}

TEST_CASE("substring finder: several needles whose rare windows sit at different offsets stay leftmost") {
  // "mmmmmmmQZX" is screened by its window near the end, "QJK" by its start: the second needle's window is
  // seen first in the scan, yet the first needle starts earlier and must win.
  SubstringFinder f({"mmmmmmmQZX", "QJK"}, false);
  for (size_t at : {size_t{0}, size_t{25}, size_t{30}, size_t{31}, size_t{60}, size_t{95}}) {
    std::string hay(at, '.');
    hay += "mmmmmQJKmmmmmmmmmQZX";  // QJK at at+5, the long needle at at+10
    hay += std::string(40, '.');
    size_t which = 99;
    CAPTURE(at);
    CHECK(f.find(hay, 0, &which) == at + 5);
    CHECK(which == 1);
    hay = std::string(at, '.') + "mmmmmmmQZXQJK" + std::string(40, '.');  // long needle at `at`, QJK at at+10
    CHECK(f.find(hay, 0, &which) == at);
    CHECK(which == 0);
    CHECK(f.find(hay, at + 1, &which) == at + 10);
    CHECK(which == 1);
  }
}

TEST_CASE("substring finder: up to 16 needles (two per Teddy bucket) randomized against a naive search") {
  std::mt19937 rng(7);
  const std::string alphabet = "abcxyzQJ\"\\: \xC3\xA9";
  for (int iter = 0; iter < 3000; ++iter) {
    bool caseless = rng() % 2;
    std::vector<std::string> needles(1 + rng() % 16);
    for (auto& n : needles) {
      size_t len = 1 + rng() % 12;
      for (size_t j = 0; j < len; ++j)
        n += alphabet[rng() % alphabet.size()];
    }
    std::string hay;
    size_t len = rng() % 700;
    for (size_t j = 0; j < len; ++j)
      hay += alphabet[rng() % alphabet.size()];
    for (size_t k = 0; k < 3 && !hay.empty(); ++k) {  // plant a few needles so hits are not all short ones
      const std::string& n = needles[rng() % needles.size()];
      size_t at = rng() % hay.size();
      if (at + n.size() <= hay.size()) hay.replace(at, n.size(), n);
    }
    size_t from = hay.empty() ? 0 : rng() % (hay.size() / 2 + 1);
    SubstringFinder f(needles, caseless);
    size_t w1 = 0, w2 = 0;
    size_t expect = naive(hay, needles, caseless, from, &w1);
    CAPTURE(iter);
    CHECK(f.find(hay, from, &w2) == expect);
    if (expect != SubstringFinder::npos) CHECK(w1 == w2);
  }
}

TEST_CASE("substring finder: several needles run the shared pass on AVX2") {
  SubstringFinder one({"alpha"}, false), many({"alpha", "beta", "gamma"}, true);
#if defined(__x86_64__)
  if (__builtin_cpu_supports("avx2")) {
    CHECK(std::string(one.isa()) == "avx2");
    CHECK(std::string(many.isa()) == "avx2-teddy");
  }
#endif
  CHECK(many.find(std::string(100, '-') + "GaMmA") == 100);
}

TEST_CASE("substring finder: the padded end screen never matches into the padding") {
  // The last starts are screened over a zero-padded copy: a needle ending in NUL bytes must not match a
  // haystack that merely ends early, and a needle longer than the padded screen takes the plain path.
  const std::string nul_tail("ab\0\0", 4);
  for (size_t pre : {size_t{0}, size_t{5}, size_t{31}, size_t{40}, size_t{70}}) {
    CAPTURE(pre);
    std::string hay = std::string(pre, 'x') + "ab";
    CHECK(SubstringFinder({nul_tail}, false).find(hay) == SubstringFinder::npos);
    CHECK(SubstringFinder({nul_tail, std::string("zz\0", 3)}, false).find(hay) == SubstringFinder::npos);
    CHECK(SubstringFinder({nul_tail}, false).find(hay + std::string(2, '\0')) == pre);
    const std::string long_needle = std::string(99, 'q') + "!";
    std::string with_long = std::string(pre, 'x') + long_needle;
    CHECK(SubstringFinder({long_needle}, false).find(with_long) == pre);
    with_long.pop_back();
    CHECK(SubstringFinder({long_needle}, false).find(with_long) == SubstringFinder::npos);
  }
}

}  // namespace substring_finder_unit
