// KeptTexts: the rendered texts a cover keeps (ScreenFacts::rendered_texts), held as one zstd frame. They
// are read only when a needle's grams may occur in a covered file but no raw byte of it holds the needle,
// and then once per call; held as strings they were 40.5 MB in 24,054 allocations on the 3 GiB corpus
// replica, a warm server's largest holding after the sketches (SPEC.md §7 "Kept rendered texts").
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace csift {

class KeptTexts {
 public:
  // The texts, in order, packed.
  static KeptTexts pack(const std::vector<std::string>& texts);
  // A packed form as frame() gave it, with the count and unpacked size it declared. The frame is checked
  // only where it is read: a frame that does not unpack makes any_of() say yes, which sends the file to a
  // full read, never to a wrong answer.
  static KeptTexts from_frame(std::string frame, uint64_t count, uint64_t raw_bytes);

  // Whether visit(text) holds for some text, visiting in order and stopping at the first that does. True,
  // unvisited, when the frame does not unpack to `count()` texts of `raw_bytes()` in all.
  template <class Visit>
  bool any_of(Visit&& visit) const {
    const std::optional<std::vector<std::string_view>> texts = unpack_views();
    if (!texts) return true;
    for (std::string_view text : *texts)
      if (visit(text)) return true;
    return false;
  }
  // The texts as strings: nullopt when the frame does not unpack.
  std::optional<std::vector<std::string>> unpack() const;

  const std::string& frame() const { return frame_; }
  uint64_t count() const { return count_; }
  uint64_t raw_bytes() const { return raw_bytes_; }
  // What holding it costs (for the memo's budget).
  size_t held_bytes() const { return sizeof(KeptTexts) + frame_.capacity(); }

 private:
  // The texts, viewing this thread's unpack buffer (valid until the thread's next unpack).
  std::optional<std::vector<std::string_view>> unpack_views() const;

  std::string frame_;  // zstd of each text as a 4-byte little-endian length and its bytes
  uint64_t count_ = 0;
  uint64_t raw_bytes_ = 0;  // the texts' own bytes, without the lengths
};

}  // namespace csift
