// The AVX2 loop is the first-and-last-byte filter of ../shared/notes/scan-probes/read_scan.c (measured ~9
// GB/s on page-cached transcripts), generalised to several needles and to rare-byte probe positions, which
// cut false candidates on JSON where '"', ':' and lowercase letters dominate.
#include "core/substring_finder.h"

#include <cstring>
#include <stdexcept>

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

char lower_ascii(char c) {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c | 0x20) : c;
}
bool is_alpha(char c) {
  return (c | 0x20) >= 'a' && (c | 0x20) <= 'z';
}

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
  return p;
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
#if CSIFT_X86
  impl_ = __builtin_cpu_supports("avx2") ? &find_avx2 : &find_sse2;
#else
  impl_ = &find_tail;
#endif
}

const char* SubstringFinder::isa() const {
  if (impl_ == &find_avx2) return "avx2";
  if (impl_ == &find_sse2) return "sse2";
  return "scalar";
}

bool SubstringFinder::matches_at(const Probe& p, const char* at) const {
  if (!caseless_) return std::memcmp(at, p.needle.data(), p.needle.size()) == 0;
  for (size_t i = 0; i < p.needle.size(); ++i) {
    if (lower_ascii(at[i]) != p.needle[i]) return false;
  }
  return true;
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
    return find_tail(f, s, n, i, which);
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
    for (; any; any &= any - 1) {
      int bit = __builtin_ctz(any);
      for (size_t k = 0; k < np; ++k) {
        if (((masks[k] >> bit) & 1u) && f.matches_at(f.probes_[k], s + i + bit)) {
          if (which) *which = k;
          return i + static_cast<size_t>(bit);
        }
      }
    }
  }
  return find_tail(f, s, n, i, which);
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
    for (; any; any &= any - 1) {
      int bit = __builtin_ctz(any);
      for (size_t k = 0; k < np; ++k) {
        if (((masks[k] >> bit) & 1u) && f.matches_at(f.probes_[k], s + i + bit)) {
          if (which) *which = k;
          return i + static_cast<size_t>(bit);
        }
      }
    }
  }
  return find_tail(f, s, n, i, which);
}

#else

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
