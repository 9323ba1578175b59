// Validation is simdjson's SIMD check (the common case is valid text, so it must be cheap); only invalid
// lines pay for the byte-by-byte repair.
#include "core/json/utf8_repair.h"

#include <simdjson.h>

#include <algorithm>

namespace csift {

size_t valid_utf8_sequence(const unsigned char* p, size_t avail) {
  unsigned char c = p[0];
  if (c < 0x80) return 1;
  size_t n = 0;
  unsigned char lo = 0x80,
                hi = 0xBF;  // allowed range of the second byte (rules out overlongs and surrogates)
  if (c >= 0xC2 && c <= 0xDF) {
    n = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    n = 3;
    if (c == 0xE0) lo = 0xA0;
    if (c == 0xED) hi = 0x9F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    n = 4;
    if (c == 0xF0) lo = 0x90;
    if (c == 0xF4) hi = 0x8F;
  } else {
    return 0;
  }
  if (avail < n || p[1] < lo || p[1] > hi) return 0;
  for (size_t k = 2; k < n; ++k) {
    if ((p[k] & 0xC0) != 0x80) return 0;
  }
  return n;
}

std::string_view Utf8Repair::prepare(std::string_view bytes) {
  repaired_ = false;
  segments_.clear();
  if (simdjson::validate_utf8(bytes.data(), bytes.size())) return bytes;
  repaired_ = true;
  text_.clear();
  text_.reserve(bytes.size() + 16);
  const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
  segments_.push_back({0, 0});
  for (size_t i = 0; i < bytes.size();) {
    size_t n = valid_utf8_sequence(p + i, bytes.size() - i);
    if (n) {
      text_.append(bytes.data() + i, n);
      i += n;
      continue;
    }
    segments_.push_back({text_.size(), i});
    text_.append("\xEF\xBF\xBD");
    ++i;
    segments_.push_back({text_.size(), i});
  }
  return text_;
}

size_t Utf8Repair::to_original(size_t pos) const {
  if (!repaired_) return pos;
  auto it = std::upper_bound(segments_.begin(), segments_.end(), pos,
                             [](size_t v, const Segment& s) { return v < s.repaired; });
  const Segment& s = *(it - 1);
  size_t out = s.original + (pos - s.repaired);
  // Inside a U+FFFD that stands for one byte: clamp to that byte's end.
  return it == segments_.end() ? out : std::min(out, it->original);
}

size_t Utf8Repair::to_repaired(size_t pos) const {
  if (!repaired_) return pos;
  auto it = std::upper_bound(segments_.begin(), segments_.end(), pos,
                             [](size_t v, const Segment& s) { return v < s.original; });
  const Segment& s = *(it - 1);
  return s.repaired + (pos - s.original);
}

}  // namespace csift
