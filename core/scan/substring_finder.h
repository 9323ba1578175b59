// SubstringFinder: the byte prefilter's inner loop. Finds the first occurrence of any of up to 16 needles in
// raw bytes at SIMD speed, case-sensitively or ASCII-caselessly. One needle is screened by two of its bytes
// chosen as the rarest in transcript text (a byte-frequency table measured on real Claude Code transcripts),
// 32 positions at a time with AVX2 (16 with SSE2), and only the survivors are compared in full. Several
// needles (AVX2) share one Teddy-style pass: each needle contributes its rarest 3-byte window to nibble
// lookup tables (one bucket bit per needle, two needles per bucket above 8), so the cost per 32 bytes does
// not grow with the needle count. The instruction set is chosen once at runtime, so the binary runs on any
// x86-64.
//
// A per-line screen for fixed needles holds a static finder rather than calling std::string_view::find:
// find() runs memchr on the needle's first byte, and in a JSON line that byte (a quote, or a `t` of
// "tool_use") comes every few bytes, so memchr stops at each (SPEC.md §8: cold `agents` spent half its CPU
// there).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace csift {

// How common a byte is in Claude Code transcripts: log-scaled, 0 (never seen) to 255 (the space).
int byte_frequency(unsigned char b);

class SubstringFinder {
 public:
  static constexpr size_t kMaxNeedles = 16;
  static constexpr size_t npos = std::string_view::npos;

  SubstringFinder() = default;
  // 1..kMaxNeedles non-empty needles (throws std::invalid_argument otherwise). caseless: ASCII letters match
  // either case; other bytes (UTF-8 included) must be equal.
  SubstringFinder(const std::vector<std::string>& needles, bool caseless);

  // Offset of the leftmost occurrence of any needle starting at or after `from`, or npos. On a hit `*which`
  // (if given) is the index of the needle found there (the lowest index when several start at the same
  // offset).
  size_t find(std::string_view haystack, size_t from = 0, size_t* which = nullptr) const;
  bool contains(std::string_view haystack) const { return find(haystack) != npos; }

  size_t needle_count() const { return probes_.size(); }
  bool caseless() const { return caseless_; }
  // "avx2", "avx2-teddy", "sse2" or "scalar": which loop find() runs (for benchmarks and reports).
  const char* isa() const;

  struct Probe {
    std::string needle;  // lowercased when caseless
    uint32_t off1 = 0, off2 = 0;
    uint8_t byte1 = 0, byte2 = 0;
    uint8_t fold1 = 0, fold2 = 0;  // 0x20 when that probe byte is a letter compared caselessly
    uint32_t window = 0;           // multi-needle pass: offset of the needle's rarest kTeddyWidth-byte window
  };
  static constexpr size_t kTeddyWidth = 3;
  // From this many needles on, AVX2 runs the shared Teddy pass instead of one probe pair per needle.
  static constexpr size_t kTeddyMinNeedles = 2;
  // Nibble tables of the multi-needle pass: for window byte j, lo[g][j][b & 15] & hi[g][j][b >> 4] has bit
  // k % 8 set when byte b may be needle k's j-th window byte, g = k / 8 (a second set of tables above 8
  // needles, so no two needles share a bucket).
  struct Teddy {
    uint8_t lo[2][kTeddyWidth][16] = {};
    uint8_t hi[2][kTeddyWidth][16] = {};
    uint32_t max_window = 0;
  };

 private:
  using Impl = size_t (*)(const SubstringFinder&, const char*, size_t, size_t, size_t*);
  static size_t find_avx2(const SubstringFinder&, const char*, size_t, size_t, size_t*);
  static size_t find_sse2(const SubstringFinder&, const char*, size_t, size_t, size_t*);
  static size_t find_tail(const SubstringFinder&, const char*, size_t, size_t, size_t*);
  static size_t find_teddy_avx2(const SubstringFinder&, const char*, size_t, size_t, size_t*);
  template <int kGroups>
  static size_t teddy_avx2(const SubstringFinder&, const char*, size_t, size_t, size_t*);
  bool matches_at(const Probe& p, const char* at) const;
  // The leftmost verified needle among one block's candidate bits (any = OR of masks[0..np)), as an offset
  // into s; npos when every candidate was a false positive. Shared by the AVX2 and SSE2 block loops.
  size_t first_verified(const char* s, size_t i, uint32_t any, const uint32_t* masks, size_t np,
                        size_t* which) const;

  std::vector<Probe> probes_;
  Teddy teddy_;
  size_t max_len_ = 0;
  bool caseless_ = false;
  Impl impl_ = nullptr;
};

}  // namespace csift
