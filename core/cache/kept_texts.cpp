#include "core/cache/kept_texts.h"

#include "core/cache/zstd_frame.h"

namespace csift {
namespace {

// A text longer than a length prefix holds (no cover keeps one: kMaxKeptTextShare of a file that large is
// past any kept budget) makes the whole pack unreadable rather than wrapped or left out.
constexpr uint64_t kMostTextBytes = 0xFFFFFFFFu;
// An unpacked form past this is refused unread: no cover keeps this much, and a corrupt frame must not make
// a process allocate gigabytes.
constexpr uint64_t kMostUnpackedBytes = uint64_t{256} << 20;

void append_u32(std::string& out, uint32_t v) {
  for (int i = 0; i < 4; ++i)
    out.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}

uint32_t read_u32(const char* p) {
  uint32_t v = 0;
  for (int i = 0; i < 4; ++i)
    v |= static_cast<uint32_t>(static_cast<unsigned char>(p[i])) << (8 * i);
  return v;
}

}  // namespace

KeptTexts KeptTexts::pack(const std::vector<std::string>& texts) {
  std::string plain;
  size_t total = 0;
  for (const std::string& t : texts)
    total += 4 + t.size();
  plain.reserve(total);
  KeptTexts out;
  for (const std::string& t : texts) {
    if (t.size() > kMostTextBytes) {
      out.count_ = texts.size();  // an empty frame: read back as "may match", never as a text left out
      return out;
    }
    append_u32(plain, static_cast<uint32_t>(t.size()));
    plain.append(t);
    ++out.count_;
    out.raw_bytes_ += t.size();
  }
  // The frame carries its content checksum: a changed byte in a literal would otherwise unpack to another
  // text of the same length, which a search could rule out wrongly.
  if (!append_zstd_frame(out.frame_, plain, /*checksum=*/true))
    out.frame_.clear();  // reads back as "may match"
  out.frame_.shrink_to_fit();
  return out;
}

KeptTexts KeptTexts::from_frame(std::string frame, uint64_t count, uint64_t raw_bytes) {
  KeptTexts out;
  out.frame_ = std::move(frame);
  out.count_ = count;
  out.raw_bytes_ = raw_bytes;
  return out;
}

std::optional<std::vector<std::string_view>> KeptTexts::unpack_views() const {
  const uint64_t want = raw_bytes_ + 4 * count_;
  if (raw_bytes_ > kMostUnpackedBytes || count_ > kMostUnpackedBytes / 4 || want > kMostUnpackedBytes)
    return std::nullopt;
  thread_local std::string plain;
  if (!unpack_zstd_frame(frame_, want, plain) || plain.size() != want) return std::nullopt;
  std::vector<std::string_view> texts;
  texts.reserve(static_cast<size_t>(count_));
  size_t at = 0;
  for (uint64_t i = 0; i < count_; ++i) {
    if (plain.size() - at < 4) return std::nullopt;
    const uint32_t len = read_u32(plain.data() + at);
    at += 4;
    if (plain.size() - at < len) return std::nullopt;
    texts.emplace_back(plain.data() + at, len);
    at += len;
  }
  if (at != plain.size()) return std::nullopt;
  return texts;
}

std::optional<std::vector<std::string>> KeptTexts::unpack() const {
  const auto views = unpack_views();
  if (!views) return std::nullopt;
  return std::vector<std::string>(views->begin(), views->end());
}

}  // namespace csift
