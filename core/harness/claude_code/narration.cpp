// Narration-tagged thinking blocks (spec v0.9.2 ①): the only thing that tells an API-issued one-sentence
// summary from real reasoning is a tag inside the base64 `signature` — protobuf field path 2 -> 1 -> 8,
// taking the LAST length-delimited field at each level. The whole signature is decoded (they reach 200K+
// chars); every failure degrades to plain agent.thinking. A cheap gate skips the decode when none of the
// three base64 alignments of "narration" occurs in the signature.
#include <array>
#include <cstdint>

#include "core/harness/claude_code/classify_detail.h"

namespace csift::detail {

namespace {

constexpr std::string_view kNarrationTag = "narration";
constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

bool is_b64_space(char c) {
  return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

// Each byte's value in the standard alphabet, or -1 (whitespace, '=', anything else).
std::array<int8_t, 256> base64_values() {
  std::array<int8_t, 256> t{};
  t.fill(-1);
  for (int i = 0; i < 64; ++i)
    t[static_cast<unsigned char>(kAlphabet[i])] = static_cast<int8_t>(i);
  return t;
}

// Standard-alphabet decode; whitespace is skipped, '=' ends the data, anything else fails. Whole groups of
// four alphabet characters are decoded three bytes at a time (stats reads the tag of every thinking
// signature, up to 200K+ characters each: a bit-at-a-time decode was 8 % of a cold `stats`); the bitwise
// loop takes over from a group boundary at the first byte outside the alphabet, and for the tail.
std::optional<std::string> decode_base64(std::string_view s) {
  static const std::array<int8_t, 256> values = base64_values();
  const auto value = [&](char c) { return values[static_cast<unsigned char>(c)]; };
  std::string out(s.size() / 4 * 3 + 3, '\0');
  char* o = out.data();
  size_t i = 0;
  for (; i + 4 <= s.size(); i += 4) {
    const int a = value(s[i]), b = value(s[i + 1]), c = value(s[i + 2]), d = value(s[i + 3]);
    if ((a | b | c | d) < 0) break;
    const auto v = static_cast<uint32_t>(a << 18 | b << 12 | c << 6 | d);
    *o++ = static_cast<char>(v >> 16);
    *o++ = static_cast<char>((v >> 8) & 0xff);
    *o++ = static_cast<char>(v & 0xff);
  }
  uint32_t acc = 0;
  int bits = 0;
  for (const char c : s.substr(i)) {
    if (is_b64_space(c)) continue;
    if (c == '=') break;
    const int v = value(c);
    if (v < 0) return std::nullopt;
    acc = (acc << 6) | static_cast<uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      *o++ = static_cast<char>((acc >> bits) & 0xff);
    }
  }
  out.resize(static_cast<size_t>(o - out.data()));
  return out;
}

// The base64 characters determined only by the tag's bytes when the tag starts at byte offset `shift` mod 3.
std::string aligned_needle(int shift) {
  std::string bytes(static_cast<size_t>(shift), '\0');
  bytes += kNarrationTag;
  std::string chars;
  size_t first_bit = static_cast<size_t>(shift) * 8, last_bit = bytes.size() * 8;
  for (size_t bit = 0; bit + 6 <= last_bit; bit += 6) {
    if (bit < first_bit) continue;
    uint32_t v = 0;
    for (size_t b = bit; b < bit + 6; ++b) {
      v = (v << 1) | ((static_cast<unsigned char>(bytes[b / 8]) >> (7 - b % 8)) & 1u);
    }
    chars += kAlphabet[v];
  }
  return chars;
}

std::optional<std::pair<uint64_t, size_t>> read_varint(std::string_view s, size_t pos) {
  uint64_t value = 0;
  for (size_t i = 0; i < 10 && pos + i < s.size(); ++i) {
    auto b = static_cast<unsigned char>(s[pos + i]);
    value |= static_cast<uint64_t>(b & 0x7f) << (7 * i);
    if ((b & 0x80) == 0) return std::make_pair(value, i + 1);
  }
  return std::nullopt;
}

// The payload of the LAST wire-type-2 field numbered `want` at one protobuf level; nullopt on any
// truncation or unknown wire type.
std::optional<std::string_view> last_len_delimited(std::string_view s, uint64_t want) {
  std::optional<std::string_view> found;
  size_t pos = 0;
  while (pos < s.size()) {
    auto key = read_varint(s, pos);
    if (!key) return std::nullopt;
    pos += key->second;
    uint64_t field = key->first >> 3, wire = key->first & 7;
    size_t skip = 0;
    if (wire == 0) {
      auto v = read_varint(s, pos);
      if (!v) return std::nullopt;
      skip = v->second;
    } else if (wire == 1 || wire == 5) {
      skip = wire == 1 ? 8 : 4;
    } else if (wire == 2) {
      auto len = read_varint(s, pos);
      if (!len) return std::nullopt;
      pos += len->second;
      if (len->first > s.size() - pos) return std::nullopt;
      if (field == want) found = s.substr(pos, static_cast<size_t>(len->first));
      skip = static_cast<size_t>(len->first);
    } else {
      return std::nullopt;
    }
    if (skip > s.size() - pos) return std::nullopt;
    pos += skip;
  }
  return found;
}

bool valid_utf8(std::string_view s) {
  size_t i = 0;
  while (i < s.size()) {
    auto c = static_cast<unsigned char>(s[i]);
    size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xe ? 3 : (c >> 3) == 0x1e ? 4 : 0;
    if (n == 0 || i + n > s.size()) return false;
    for (size_t k = 1; k < n; ++k) {
      if ((static_cast<unsigned char>(s[i + k]) & 0xc0) != 0x80) return false;
    }
    i += n;
  }
  return true;
}

}  // namespace

bool signature_may_be_narration(std::string_view signature) {
  static const std::array<std::string, 3> needles = {aligned_needle(0), aligned_needle(1), aligned_needle(2)};
  for (const auto& n : needles) {
    if (contains(signature, n)) return true;
  }
  // Whitespace inside the base64 can split a needle, so it conservatively reopens the gate.
  for (char c : signature) {
    if (is_b64_space(c)) return true;
  }
  return false;
}

std::optional<std::string> thinking_signature_tag(std::string_view signature) {
  if (signature.empty()) return std::nullopt;
  auto bytes = decode_base64(signature);
  if (!bytes) return std::nullopt;
  auto f2 = last_len_delimited(*bytes, 2);
  if (!f2) return std::nullopt;
  auto f1 = last_len_delimited(*f2, 1);
  if (!f1) return std::nullopt;
  auto f8 = last_len_delimited(*f1, 8);
  if (!f8 || !valid_utf8(*f8)) return std::nullopt;
  return std::string(*f8);
}

bool is_narration_signature(std::string_view signature) {
  if (!signature_may_be_narration(signature)) return false;
  auto tag = thinking_signature_tag(signature);
  return tag && *tag == kNarrationTag;
}

}  // namespace csift::detail
