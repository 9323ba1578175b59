// GramSketch::add (pieces folded into a buffer, grams by loads, special bytes by SIMD masks) sets exactly the
// bits of its definition, add_bytewise: on every corpus log, cut at arbitrary sizes, and on crafted inputs
// that put UTF-8 lead bytes, backslashes and escapes at the edges of a piece, of the SIMD step and of the
// input.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

#include "core/cache/gram_sketch.h"
#include "tests/unit/corpus_root.h"

namespace gram_sketch_unit {

using csift::GramSketch;
namespace fs = std::filesystem;

namespace {

void check_same_bits(std::string_view bytes) {
  GramSketch fast(bytes.size() * 4), reference(bytes.size() * 4);
  fast.add(bytes);
  reference.add_bytewise(bytes);
  CHECK(fast == reference);
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

}  // namespace

TEST_CASE("gram sketch: add sets the bits add_bytewise sets, on the corpus") {
  std::mt19937 rng(5);
  size_t files = 0, bytes = 0;
  for (const auto& e : fs::recursive_directory_iterator(csift_test::corpus_root())) {
    if (!e.is_regular_file() || e.path().extension() != ".jsonl" || e.file_size() > (size_t{4} << 20))
      continue;
    const std::string text = read_file(e.path());
    CAPTURE(e.path().string());
    check_same_bits(text);
    // A cut at an arbitrary byte (mid-escape, mid-character) and a short tail.
    const size_t cut = text.empty() ? 0 : rng() % text.size();
    check_same_bits(std::string_view(text).substr(cut));
    check_same_bits(std::string_view(text).substr(0, std::min<size_t>(text.size(), 70 + rng() % 200)));
    ++files;
    bytes += text.size();
  }
  CHECK(files > 80);
  CHECK(bytes > (size_t{20} << 20));
}

TEST_CASE("gram sketch: add sets the bits add_bytewise sets, at every edge") {
  const std::string specials[] = {"\\u017f",          "\\u212A", "\\\"", "\xC5\xBF", "\xE2\x84\xAA",
                                  "\xF0\x9F\x98\x80", "\\",      "\xC5", "\\u00"};
  for (const size_t size :
       {0, 1, 3, 4, 15, 16, 17, 63, 64, 65, 100, 8191, 8192, 8193, 8194, 8195, 8196, 20000}) {
    for (const std::string& s : specials) {
      // The special at the start, at the end (cut short by the input's end) and across each SIMD step.
      for (const size_t at : {size_t{0}, size > s.size() ? size - s.size() : 0, size > 0 ? size - 1 : 0,
                              size_t{14}, size_t{15}, size_t{16}, size_t{8190}, size_t{8191}}) {
        std::string text(size, 'Q');
        for (size_t k = 0; k < text.size(); ++k)
          text[k] = "aZ\"{}:, 9\n"[k % 10];
        if (at < text.size())
          text.replace(at, std::min(s.size(), text.size() - at), s.substr(0, text.size() - at));
        CAPTURE(size);
        CAPTURE(at);
        check_same_bits(text);
      }
    }
  }
}

// fill_after_fold() is the fill a fold leaves, and fold_while_fill_at_most() stops where a fold-and-look loop
// on copies stopped (the rule the memo and the disk keep sketches by).
TEST_CASE(
    "gram sketch: the fill after a fold is counted without folding, and folding stops where it should") {
  std::mt19937_64 rng(7);
  for (const size_t n : {size_t{300}, size_t{5000}, size_t{60000}, size_t{400000}}) {
    std::string text(n, ' ');
    for (char& c : text)
      c = static_cast<char>('a' + rng() % 26);
    GramSketch sketch(n * 8);
    sketch.add(text);
    for (const double max_fill : {0.05, 0.25, 0.6}) {
      GramSketch looped = sketch;
      for (GramSketch folded = looped; folded.fold() && folded.fill() <= max_fill;)
        looped = folded;
      GramSketch counted = sketch;
      counted.fold_while_fill_at_most(max_fill);
      CHECK(counted == looped);
      CHECK(counted.fill() <= std::max(max_fill, sketch.fill()));
    }
    GramSketch folded = sketch;
    const auto after = sketch.fill_after_fold();
    CHECK(after.has_value() == (n > 300));  // 300 bytes: the smallest sketch already
    REQUIRE(folded.fold() == after.has_value());
    if (after) CHECK(*after == folded.fill());
  }
  GramSketch smallest(1);
  CHECK_FALSE(smallest.fill_after_fold().has_value());
  CHECK_FALSE(smallest.fold());
}

// The wide-character and escape tables are allocated by the first bit set in them: an ASCII sketch holds its
// bits only, and a copy or a decode keeps what was set.
TEST_CASE("gram sketch: the wide-character tables exist only once a bit is set in them") {
  GramSketch ascii(1);
  ascii.add("plain ASCII text, no escapes");
  CHECK(ascii.bytes() == 512);
  GramSketch wide = ascii;
  wide.add("caf\xc3\xa9 \\u00e9");
  CHECK(wide.bytes() == 512 + 3 * 2048);
  CHECK(wide.may_contain("\xc3\xa9"));
  CHECK(wide.may_hold_escape("00e9"));
  CHECK_FALSE(ascii.may_contain("\xc3\xa9"));
  CHECK_FALSE(ascii.may_hold_escape("00e9"));
  csift::BlobWriter w;
  wide.encode(w);
  const std::string blob = w.take();
  csift::BlobReader r(blob);
  const auto decoded = GramSketch::decode(r);
  REQUIRE(decoded);
  CHECK(*decoded == wide);
  CHECK_FALSE(*decoded == ascii);
  // A decoded sketch's tables are packed: one word each here, not 2 KiB.
  CHECK_FALSE(decoded->tables_dense());
  CHECK(decoded->bytes() == 512 + 3 * 8);
  CHECK(decoded->may_contain("\xc3\xa9"));
  CHECK(decoded->may_hold_escape("00e9"));
  CHECK_FALSE(decoded->may_contain("\xc3\xa8"));
  CHECK_FALSE(decoded->may_hold_escape("00e8"));
  // Packing in place gives the same bits; a bit set in a packed table unpacks it and is kept.
  GramSketch packed = wide;
  REQUIRE(packed.tables_dense());
  packed.pack_tables();
  CHECK(packed == wide);
  CHECK(packed.bytes() == 512 + 3 * 8);
  packed.add("\xc3\xa8 \\u00e8");
  CHECK(packed.tables_dense());
  CHECK(packed.may_contain("\xc3\xa8"));
  CHECK(packed.may_contain("\xc3\xa9"));
  CHECK(packed.may_hold_escape("00e8"));
  CHECK(packed.may_hold_escape("00e9"));
  // A merge into a packed sketch holds both sides' bits.
  GramSketch merged = *decoded;
  GramSketch other(1);
  other.add("\xd0\x96 \\u0416");
  merged.merge(other);
  CHECK(merged.may_contain("\xd0\x96"));
  CHECK(merged.may_contain("\xc3\xa9"));
  CHECK(merged.may_hold_escape("0416"));
}

// A packed table is built in ascending word order from words holding a bit, as encode writes it: a blob
// whose table repeats a word, goes backwards or holds an empty word is not one, and decodes to nothing.
TEST_CASE("gram sketch: a table not in encode's order is refused") {
  csift::LazyBitTable t;
  CHECK(t.append_packed(3, 1));
  CHECK(t.append_packed(70, 2));
  CHECK_FALSE(t.append_packed(70, 4));
  CHECK_FALSE(t.append_packed(5, 4));
  CHECK_FALSE(t.append_packed(200, 0));
  CHECK_FALSE(t.append_packed(256, 1));
  CHECK(t.append_packed(255, uint64_t{1} << 63));
  CHECK(t.word(3) == 1);
  CHECK(t.word(70) == 2);
  CHECK(t.word(255) == uint64_t{1} << 63);
  CHECK(t.word(4) == 0);
  CHECK(t.test(3 * 64));
  CHECK_FALSE(t.test(3 * 64 + 1));
  // A sketch blob: the smallest bit array, then the three tables (a count, then index and word pairs).
  const auto blob = [](std::vector<std::pair<uint64_t, uint64_t>> pairs) {
    csift::BlobWriter w;
    w.u64(12);
    w.raw(std::string(512, '\0'));
    w.u64(pairs.size());
    for (const auto& [i, v] : pairs) {
      w.u64(i);
      w.u64(v);
    }
    w.u64(0);
    w.u64(0);
    return w.take();
  };
  const auto decodes = [](const std::string& bytes) {
    csift::BlobReader r(bytes);
    return GramSketch::decode(r).has_value();
  };
  CHECK(decodes(blob({{3, 1}, {5, 1}})));
  CHECK_FALSE(decodes(blob({{5, 1}, {3, 1}})));
  CHECK_FALSE(decodes(blob({{3, 1}, {3, 2}})));
  CHECK_FALSE(decodes(blob({{3, 0}})));
  CHECK_FALSE(decodes(blob({{256, 1}})));
}

}  // namespace gram_sketch_unit
