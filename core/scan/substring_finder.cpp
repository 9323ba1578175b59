// The AVX2 loop is the first-and-last-byte filter of ../shared/notes/scan-probes/read_scan.c (measured ~9
// GB/s on page-cached transcripts), generalised to several needles and to rare-byte probe positions, which
// cut false candidates on JSON where '"', ':' and lowercase letters dominate.
#include "core/scan/substring_finder.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "core/base/text.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define CSIFT_X86 1
#endif

namespace csift {
namespace {

// log-scaled byte frequency (255 = most frequent) over ~56 MB of real Claude Code transcripts in the shared
// corpus.
constexpr uint8_t kByteFrequency[256] = {
    0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   164, 0,   0,   0,   0,   0,   0,   0,   0,   0,
    0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   255, 169, 239, 179, 175, 177, 165, 167,
    202, 202, 185, 184, 221, 221, 215, 218, 214, 215, 213, 207, 209, 206, 206, 204, 205, 205, 223, 172,
    172, 203, 185, 144, 156, 199, 189, 201, 197, 201, 190, 187, 187, 202, 179, 180, 193, 190, 193, 189,
    194, 180, 196, 204, 204, 199, 185, 186, 181, 180, 184, 186, 235, 182, 135, 216, 190, 237, 212, 229,
    229, 248, 219, 220, 221, 238, 189, 211, 229, 224, 243, 238, 226, 189, 237, 240, 245, 225, 206, 206,
    202, 209, 186, 200, 172, 200, 149, 0,   171, 171, 145, 84,  87,  123, 197, 52,  107, 55,  63,  107,
    96,  66,  90,  113, 175, 89,  197, 124, 184, 175, 117, 122, 86,  105, 106, 49,  139, 100, 0,   106,
    101, 61,  112, 46,  52,  0,   80,  72,  61,  0,   43,  0,   74,  40,  0,   67,  86,  0,   0,   73,
    17,  17,  67,  100, 88,  82,  96,  35,  82,  120, 26,  121, 0,   0,   105, 0,   0,   0,   0,   0,
    0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,
    0,   0,   0,   0,   0,   0,   206, 0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   122,
    106, 0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,
};

bool is_alpha(char c) {
  return (c | 0x20) >= 'a' && (c | 0x20) <= 'z';
}

}  // namespace

int byte_frequency(unsigned char b) {
  return kByteFrequency[b];
}

namespace {

int frequency(char c, bool caseless) {
  auto u = static_cast<unsigned char>(c);
  if (!caseless || !is_alpha(c)) return kByteFrequency[u];
  int a = kByteFrequency[u | 0x20], b = kByteFrequency[u & ~0x20u];
  return a > b ? a + 1
               : b + 1;  // either case matches, so the pair is a bit more frequent than its commoner half
}

SubstringFinder::Probe make_probe(const std::string& needle, bool caseless) {
  SubstringFinder::Probe p;
  p.needle = needle;
  if (caseless) {
    for (char& c : p.needle)
      c = lower_ascii(c);
  }
  size_t n = p.needle.size();
  size_t best = 0, second = n > 1 ? n - 1 : 0;
  for (size_t i = 0; i < n; ++i) {  // rarest byte first; ties keep the earlier position
    if (frequency(p.needle[i], caseless) < frequency(p.needle[best], caseless)) best = i;
  }
  for (size_t i = 0; i < n; ++i) {
    if (i != best &&
        (second == best || frequency(p.needle[i], caseless) < frequency(p.needle[second], caseless))) {
      second = i;
    }
  }
  if (second == best && n > 1) second = best == 0 ? 1 : 0;
  p.off1 = static_cast<uint32_t>(best < second ? best : second);
  p.off2 = static_cast<uint32_t>(best < second ? second : best);
  p.byte1 = static_cast<uint8_t>(p.needle[p.off1]);
  p.byte2 = static_cast<uint8_t>(p.needle[p.off2]);
  p.fold1 = caseless && is_alpha(p.needle[p.off1]) ? 0x20 : 0;
  p.fold2 = caseless && is_alpha(p.needle[p.off2]) ? 0x20 : 0;
  // The multi-needle window: the kTeddyWidth consecutive bytes with the lowest summed log-frequency (about
  // the rarest trigram); a shorter needle uses offset 0 and leaves the missing window bytes as wildcards.
  const size_t w = SubstringFinder::kTeddyWidth;
  if (n > w) {
    int best_score = 1 << 30;
    for (size_t at = 0; at + w <= n; ++at) {
      int score = 0;
      for (size_t j = 0; j < w; ++j)
        score += frequency(p.needle[at + j], caseless);
      if (score < best_score) best_score = score, p.window = static_cast<uint32_t>(at);
    }
  }
  return p;
}

SubstringFinder::Teddy make_teddy(const std::vector<SubstringFinder::Probe>& probes, bool caseless) {
  SubstringFinder::Teddy t;
  for (size_t k = 0; k < probes.size(); ++k) {
    const auto& p = probes[k];
    const auto bit = static_cast<uint8_t>(1u << (k % 8));
    auto& lo = t.lo[k / 8];
    auto& hi = t.hi[k / 8];
    for (size_t j = 0; j < SubstringFinder::kTeddyWidth; ++j) {
      if (p.window + j >= p.needle.size()) {  // past a short needle's end: any byte
        for (size_t x = 0; x < 16; ++x)
          lo[j][x] |= bit, hi[j][x] |= bit;
        continue;
      }
      const auto c = static_cast<uint8_t>(p.needle[p.window + j]);
      lo[j][c & 15] |= bit;
      hi[j][c >> 4] |= bit;
      if (caseless && is_alpha(static_cast<char>(c))) hi[j][(c ^ 0x20) >> 4] |= bit;  // same low nibble
    }
    if (p.window > t.max_window) t.max_window = p.window;
  }
  return t;
}

}  // namespace

SubstringFinder::SubstringFinder(const std::vector<std::string>& needles, bool caseless)
    : caseless_(caseless) {
  if (needles.empty() || needles.size() > kMaxNeedles)
    throw std::invalid_argument("SubstringFinder: 1..16 needles");
  for (const auto& n : needles) {
    if (n.empty()) throw std::invalid_argument("SubstringFinder: empty needle");
    probes_.push_back(make_probe(n, caseless));
    if (n.size() > max_len_) max_len_ = n.size();
  }
  teddy_ = make_teddy(probes_, caseless_);
#if CSIFT_X86
  if (!__builtin_cpu_supports("avx2"))
    impl_ = &find_sse2;
  else
    impl_ = probes_.size() >= kTeddyMinNeedles ? &find_teddy_avx2 : &find_avx2;
#else
  impl_ = &find_tail;
#endif
}

const char* SubstringFinder::isa() const {
  if (impl_ == &find_avx2) return "avx2";
  if (impl_ == &find_teddy_avx2) return "avx2-teddy";
  if (impl_ == &find_sse2) return "sse2";
  return "scalar";
}

bool SubstringFinder::matches_at(const Probe& p, const char* at) const {
  // The first byte inline: the scalar tails call this for every (position, needle) pair.
  if ((caseless_ ? lower_ascii(at[0]) : at[0]) != p.needle[0]) return false;
  if (!caseless_) return std::memcmp(at, p.needle.data(), p.needle.size()) == 0;
  for (size_t i = 0; i < p.needle.size(); ++i) {
    if (lower_ascii(at[i]) != p.needle[i]) return false;
  }
  return true;
}

size_t SubstringFinder::first_verified(const char* s, size_t i, uint32_t any, const uint32_t* masks,
                                       size_t np, size_t* which) const {
  for (; any; any &= any - 1) {
    int bit = __builtin_ctz(any);
    for (size_t k = 0; k < np; ++k) {
      if (((masks[k] >> bit) & 1u) && matches_at(probes_[k], s + i + bit)) {
        if (which) *which = k;
        return i + static_cast<size_t>(bit);
      }
    }
  }
  return std::string_view::npos;
}

size_t SubstringFinder::find(std::string_view hay, size_t from, size_t* which) const {
  if (probes_.empty() || from >= hay.size()) return npos;
  return impl_(*this, hay.data(), hay.size(), from, which);
}

// Plain scan of the last positions the vector loops cannot load past.
size_t SubstringFinder::find_tail(const SubstringFinder& f, const char* s, size_t n, size_t i,
                                  size_t* which) {
  for (; i < n; ++i) {
    for (size_t k = 0; k < f.probes_.size(); ++k) {
      const Probe& p = f.probes_[k];
      if (i + p.needle.size() <= n && f.matches_at(p, s + i)) {
        if (which) *which = k;
        return i;
      }
    }
  }
  return npos;
}

#if CSIFT_X86

// One needle is the common case: keep its loop free of the per-needle bookkeeping.
__attribute__((target("avx2"))) static size_t find_one_avx2(const SubstringFinder::Probe& p, const char* s,
                                                            size_t n, size_t i, size_t* cand) {
  const __m256i b1 = _mm256_set1_epi8(static_cast<char>(p.byte1)),
                b2 = _mm256_set1_epi8(static_cast<char>(p.byte2));
  const __m256i f1 = _mm256_set1_epi8(static_cast<char>(p.fold1)),
                f2 = _mm256_set1_epi8(static_cast<char>(p.fold2));
  const size_t span = p.needle.size() - 1;
  auto block = [&](size_t at) __attribute__((target("avx2"))) {
    __m256i a = _mm256_or_si256(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(s + at + p.off1)), f1);
    __m256i b = _mm256_or_si256(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(s + at + p.off2)), f2);
    return static_cast<uint32_t>(
        _mm256_movemask_epi8(_mm256_and_si256(_mm256_cmpeq_epi8(a, b1), _mm256_cmpeq_epi8(b, b2))));
  };
  // Two blocks per iteration: one branch per 64 bytes on the (usual) candidate-free path.
  for (; i + span + 64 <= n; i += 64) {
    const uint32_t m0 = block(i), m1 = block(i + 32);
    if (m0 | m1) {
      if (m0) {
        *cand = m0;
        return i;
      }
      *cand = m1;
      return i + 32;
    }
  }
  for (; i + span + 32 <= n; i += 32) {
    __m256i a = _mm256_or_si256(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(s + i + p.off1)), f1);
    __m256i b = _mm256_or_si256(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(s + i + p.off2)), f2);
    auto m = static_cast<uint32_t>(
        _mm256_movemask_epi8(_mm256_and_si256(_mm256_cmpeq_epi8(a, b1), _mm256_cmpeq_epi8(b, b2))));
    if (m) {
      *cand = m;
      return i;
    }
  }
  *cand = 0;
  return i;
}

__attribute__((target("avx2"))) size_t SubstringFinder::find_avx2(const SubstringFinder& f, const char* s,
                                                                  size_t n, size_t i, size_t* which) {
  const size_t np = f.probes_.size();
  const size_t span = f.max_len_ - 1;
  if (np == 1) {
    const Probe& p = f.probes_[0];
    for (;;) {
      size_t cand = 0;
      i = find_one_avx2(p, s, n, i, &cand);
      if (!cand) break;
      for (auto m = static_cast<uint32_t>(cand); m; m &= m - 1) {
        size_t at = i + static_cast<size_t>(__builtin_ctz(m));
        if (f.matches_at(p, s + at)) {
          if (which) *which = 0;
          return at;
        }
      }
      i += 32;
    }
    // Fewer than span + 32 bytes left: screen the remaining starts over a zero-padded copy (a needle of at
    // most 64 bytes) instead of comparing at every position; padding only adds candidates, never hides one.
    const size_t span = p.needle.size() - 1;
    if (span > 64) return find_tail(f, s, n, i, which);
    if (i >= n || n - i <= span) return npos;
    alignas(32) char pad[160] = {};
    std::memcpy(pad, s + i, n - i);
    const size_t starts = n - i - span;
    for (size_t b = 0; b < starts; b += 32) {
      size_t cand = 0;
      find_one_avx2(p, pad, b + span + 32, b, &cand);  // exactly the block at b
      auto m = static_cast<uint32_t>(cand);
      if (starts - b < 32) m &= (1u << (starts - b)) - 1;
      for (; m; m &= m - 1) {
        const size_t at = i + b + static_cast<size_t>(__builtin_ctz(m));
        if (f.matches_at(p, s + at)) {
          if (which) *which = 0;
          return at;
        }
      }
    }
    return npos;
  }
  __m256i b1[kMaxNeedles], b2[kMaxNeedles], f1[kMaxNeedles], f2[kMaxNeedles];
  for (size_t k = 0; k < np; ++k) {
    const Probe& p = f.probes_[k];
    b1[k] = _mm256_set1_epi8(static_cast<char>(p.byte1));
    b2[k] = _mm256_set1_epi8(static_cast<char>(p.byte2));
    f1[k] = _mm256_set1_epi8(static_cast<char>(p.fold1));
    f2[k] = _mm256_set1_epi8(static_cast<char>(p.fold2));
  }
  for (; i + span + 32 <= n; i += 32) {
    uint32_t masks[kMaxNeedles];
    uint32_t any = 0;
    for (size_t k = 0; k < np; ++k) {
      const Probe& p = f.probes_[k];
      __m256i a =
          _mm256_or_si256(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(s + i + p.off1)), f1[k]);
      __m256i b =
          _mm256_or_si256(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(s + i + p.off2)), f2[k]);
      masks[k] = static_cast<uint32_t>(
          _mm256_movemask_epi8(_mm256_and_si256(_mm256_cmpeq_epi8(a, b1[k]), _mm256_cmpeq_epi8(b, b2[k]))));
      any |= masks[k];
    }
    if (size_t hit = f.first_verified(s, i, any, masks, np, which); hit != std::string_view::npos) return hit;
  }
  return find_tail(f, s, n, i, which);
}

__attribute__((target("avx2"))) static inline __m256i teddy_table(const uint8_t* p) {
  return _mm256_broadcastsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
}
// Per byte of x: the bucket bits whose needles allow that byte at this window position.
__attribute__((target("avx2"))) static inline __m256i teddy_buckets(__m256i x, __m256i lo, __m256i hi) {
  const __m256i nib = _mm256_set1_epi8(0x0f);
  return _mm256_and_si256(_mm256_shuffle_epi8(lo, _mm256_and_si256(x, nib)),
                          _mm256_shuffle_epi8(hi, _mm256_and_si256(_mm256_srli_epi16(x, 4), nib)));
}

// Several needles in one pass (Teddy, after Hyperscan): for each 32-byte block, three loads at i, i+1, i+2
// and six nibble shuffles give per position a byte of bucket bits: the needles whose window could start
// there. Candidates are verified in full at window position minus the needle's window offset. Because window
// offsets differ between needles, a verified hit is only known leftmost once the scan has passed it by the
// largest window offset; the scan goes on until then.
template <int kGroups>
__attribute__((target("avx2"))) size_t SubstringFinder::teddy_avx2(const SubstringFinder& f, const char* s,
                                                                   size_t n, size_t i, size_t* which) {
  static_assert(kTeddyWidth == 3, "the loop below loads three window bytes");
  const size_t from = i;
  const Teddy& t = f.teddy_;
  // The tables live in registers for the whole scan: the screening loop below takes no address of them
  // (an earlier lambda-based loop spilled them to the stack and ran at half speed).
  __m256i lo[kGroups][kTeddyWidth], hi[kGroups][kTeddyWidth];
  for (int g = 0; g < kGroups; ++g) {
    for (size_t j = 0; j < kTeddyWidth; ++j)
      lo[g][j] = teddy_table(t.lo[g][j]), hi[g][j] = teddy_table(t.hi[g][j]);
  }
  size_t best = npos, best_k = 0;
  // Verifies the candidates of one screened block (`r`: per group, per lane, the bucket bits).
  auto verify = [&](const __m256i* r, size_t base, uint32_t m) __attribute__((target("avx2"))) {
    alignas(32) uint8_t bits[kGroups][32];
    for (int g = 0; g < kGroups; ++g)
      _mm256_store_si256(reinterpret_cast<__m256i*>(bits[g]), r[g]);
    for (; m; m &= m - 1) {
      const size_t lane = static_cast<size_t>(__builtin_ctz(m)), pos = base + lane;
      for (int g = 0; g < kGroups; ++g) {
        for (uint32_t bm = bits[g][lane]; bm; bm &= bm - 1) {
          const size_t k = static_cast<size_t>(g) * 8 + static_cast<size_t>(__builtin_ctz(bm));
          const Probe& p = f.probes_[k];
          if (pos < from + p.window) continue;
          const size_t at = pos - p.window;
          if (at + p.needle.size() > n || (best != npos && (at > best || (at == best && k >= best_k))))
            continue;
          if (f.matches_at(p, s + at)) best = at, best_k = k;
        }
      }
    }
  };
    // Screens the 32 window positions whose bytes start at src; returns the candidate lanes, r the buckets.
#define CSIFT_TEDDY_SCREEN(src, r, m)                                                                     \
  do {                                                                                                    \
    const __m256i x0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src));                         \
    const __m256i x1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>((src) + 1));                   \
    const __m256i x2 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>((src) + 2));                   \
    for (int g = 0; g < kGroups; ++g) {                                                                   \
      r[g] = _mm256_and_si256(                                                                            \
          _mm256_and_si256(teddy_buckets(x0, lo[g][0], hi[g][0]), teddy_buckets(x1, lo[g][1], hi[g][1])), \
          teddy_buckets(x2, lo[g][2], hi[g][2]));                                                         \
      m |= ~static_cast<uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(r[g], _mm256_setzero_si256()))); \
    }                                                                                                     \
  } while (0)
  for (; i + 32 + kTeddyWidth - 1 <= n; i += 32) {
    if (best != npos && i > best + t.max_window) break;
    __m256i r[kGroups];
    uint32_t m = 0;
    CSIFT_TEDDY_SCREEN(s + i, r, m);
    if (m) verify(r, i, m);
  }
  // The last window positions (fewer than 32 + kTeddyWidth - 1 bytes left) go through the same screen over a
  // zero-padded copy: padding can only add candidates, and verification rejects any that run past the end.
  if (i < n && (best == npos || i <= best + t.max_window)) {
    const size_t left = n - i;  // <= 32 + kTeddyWidth - 2
    alignas(32) char pad[96] = {};
    std::memcpy(pad, s + i, left);
    for (size_t part = 0; part < 2; ++part) {
      const size_t base = i + 32 * part;
      if (32 * part >= left || (best != npos && base > best + t.max_window)) break;
      const size_t lanes_left = left - 32 * part;
      __m256i r[kGroups];
      uint32_t m = 0;
      CSIFT_TEDDY_SCREEN(pad + 32 * part, r, m);
      m &= lanes_left >= 32 ? ~0u : (1u << lanes_left) - 1;
      if (m) verify(r, base, m);
    }
  }
#undef CSIFT_TEDDY_SCREEN
  if (best != npos && which) *which = best_k;
  return best;
}

__attribute__((target("avx2"))) size_t SubstringFinder::find_teddy_avx2(const SubstringFinder& f,
                                                                        const char* s, size_t n, size_t i,
                                                                        size_t* which) {
  return f.probes_.size() > 8 ? teddy_avx2<2>(f, s, n, i, which) : teddy_avx2<1>(f, s, n, i, which);
}

size_t SubstringFinder::find_sse2(const SubstringFinder& f, const char* s, size_t n, size_t i,
                                  size_t* which) {
  const size_t np = f.probes_.size();
  const size_t span = f.max_len_ - 1;
  for (; i + span + 16 <= n; i += 16) {
    uint32_t masks[kMaxNeedles];
    uint32_t any = 0;
    for (size_t k = 0; k < np; ++k) {
      const Probe& p = f.probes_[k];
      __m128i a = _mm_or_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i + p.off1)),
                               _mm_set1_epi8(static_cast<char>(p.fold1)));
      __m128i b = _mm_or_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i + p.off2)),
                               _mm_set1_epi8(static_cast<char>(p.fold2)));
      masks[k] = static_cast<uint32_t>(
          _mm_movemask_epi8(_mm_and_si128(_mm_cmpeq_epi8(a, _mm_set1_epi8(static_cast<char>(p.byte1))),
                                          _mm_cmpeq_epi8(b, _mm_set1_epi8(static_cast<char>(p.byte2))))));
      any |= masks[k];
    }
    if (size_t hit = f.first_verified(s, i, any, masks, np, which); hit != std::string_view::npos) return hit;
  }
  return find_tail(f, s, n, i, which);
}

#else

size_t SubstringFinder::find_teddy_avx2(const SubstringFinder& f, const char* s, size_t n, size_t i,
                                        size_t* which) {
  return find_tail(f, s, n, i, which);
}
size_t SubstringFinder::find_avx2(const SubstringFinder& f, const char* s, size_t n, size_t i,
                                  size_t* which) {
  return find_tail(f, s, n, i, which);
}
size_t SubstringFinder::find_sse2(const SubstringFinder& f, const char* s, size_t n, size_t i,
                                  size_t* which) {
  return find_tail(f, s, n, i, which);
}

#endif

}  // namespace csift
