#include "core/cache/gram_sketch.h"

#include <algorithm>
#include <array>

namespace csift {
namespace {

constexpr int kSketchMinBitsLog2 = 12;
constexpr int kSketchMaxBitsLog2 = 21;

// ASCII letters to lower case, every other byte unchanged: the fold SubstringFinder applies caselessly.
const std::array<uint8_t, 256>& sketch_fold_table() {
  static const std::array<uint8_t, 256> table = [] {
    std::array<uint8_t, 256> t{};
    for (int b = 0; b < 256; ++b)
      t[b] = static_cast<uint8_t>(b >= 'A' && b <= 'Z' ? b + 32 : b);
    return t;
  }();
  return table;
}

}  // namespace

GramSketch::GramSketch(uint64_t file_bytes) {
  int log2 = kSketchMinBitsLog2;
  while (log2 < kSketchMaxBitsLog2 && (uint64_t{1} << log2) < file_bytes / 2)
    ++log2;
  words_.assign((size_t{1} << log2) / 64, 0);
  shift_ = 64 - log2;
}

void GramSketch::add(std::string_view bytes) {
  const auto& fold = sketch_fold_table();
  const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
  const size_t n = bytes.size();
  uint32_t gram = 0;
  for (size_t i = 0; i < n; ++i) {
    gram = (gram << 8) | fold[p[i]];
    if (i < 3) continue;
    const uint64_t s = slot(gram);
    words_[s >> 6] |= uint64_t{1} << (s & 63);
  }
}

void GramSketch::merge(const GramSketch& other) {
  const size_t n = std::min(words_.size(), other.words_.size());
  for (size_t i = 0; i < n; ++i)
    words_[i] |= other.words_[i];
}

bool GramSketch::may_contain(std::string_view needle) const {
  if (needle.size() < 4 || needle.find('\n') != std::string_view::npos) return true;
  const auto& fold = sketch_fold_table();
  uint32_t gram = 0;
  for (size_t i = 0; i < needle.size(); ++i) {
    gram = (gram << 8) | fold[static_cast<unsigned char>(needle[i])];
    if (i < 3) continue;
    const uint64_t s = slot(gram);
    if (!(words_[s >> 6] >> (s & 63) & 1)) return false;
  }
  return true;
}

}  // namespace csift
