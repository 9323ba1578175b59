// The warm server's scan memo: the 4-gram sketch never refuses a needle that occurs (caseless, any offset),
// refuses absent ones in small text, and the memo drops stale entries and stays within its budget.
#include <doctest/doctest.h>

#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "core/cache/gram_sketch.h"
#include "core/cache/kept_texts.h"
#include "core/cache/scan_memo.h"
#include "core/harness/claude_code/image_payloads.h"
#include "temp_store.h"

namespace scan_memo_unit {

using csift::FileStamp;
using csift::GramSketch;
using csift::ScanMemo;
using csift::ScreenFacts;

TEST_CASE("gram sketch: every substring of the added bytes may occur, in either case") {
  std::mt19937 memo_rng(17);
  std::string text;
  for (int i = 0; i < 20000; ++i)
    text.push_back(static_cast<char>(memo_rng() % 2 ? 'a' + memo_rng() % 26 : 32 + memo_rng() % 95));
  GramSketch sketch(text.size());
  // Two blocks of whole lines, as the screen hands them over.
  sketch.add(std::string_view(text).substr(0, 9000));
  sketch.add(std::string_view(text).substr(9000));
  for (int i = 0; i < 2000; ++i) {
    const size_t len = 4 + memo_rng() % 12;
    size_t at = memo_rng() % (text.size() - len);
    if (at < 9000 && at + len > 9000) at = 9000;  // a needle never spans two blocks (two lines)
    std::string needle = text.substr(at, len);
    CHECK(sketch.may_contain(needle));
    for (char& c : needle)
      if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 32);
    CHECK(sketch.may_contain(needle));
  }
}

TEST_CASE("gram sketch: absent words are refused; short or multi-line needles are always a maybe") {
  GramSketch sketch(4096);
  sketch.add(R"({"type":"user","message":{"role":"user","content":"make the build green"}})");
  CHECK_FALSE(sketch.may_contain("xylophonezebraquartz"));
  CHECK_FALSE(sketch.may_contain("ENOSPC"));
  CHECK(sketch.may_contain("BUILD green"));
  CHECK(sketch.may_contain("zq"));        // shorter than one 4-gram
  CHECK(sketch.may_contain("ab\ncdef"));  // a newline: blocks are not sketched across lines
}

TEST_CASE("gram sketch: fold markers are asked exactly (UTF-8 pairs and triples, \\u escapes)") {
  GramSketch plain(4096);
  plain.add(R"({"content":"see the docs and ask \u00e9t\u00e9 \u2122"})");
  // A lowercase s or k in a caseless pattern brings these markers; a file without them must not be a maybe.
  CHECK_FALSE(plain.may_contain("\xC5\xBF"));      // LATIN SMALL LETTER LONG S as UTF-8
  CHECK_FALSE(plain.may_contain("\xE2\x84\xAA"));  // KELVIN SIGN as UTF-8
  CHECK_FALSE(plain.may_hold_escape("017f"));
  CHECK_FALSE(plain.may_hold_escape("212A"));
  CHECK(plain.may_hold_escape("00E9"));  // escapes are matched in either case of hex
  CHECK(plain.may_hold_escape("2122"));
  CHECK(plain.may_hold_escape("0041"));  // below U+0080: never remembered, always a maybe
  CHECK(plain.may_contain("\xC5"));      // one byte: always a maybe

  GramSketch with(4096);
  with.add(
      "\xC5\xBF"
      "top \\u017F and "
      "\xE2\x84\xAA");
  CHECK(with.may_contain("\xC5\xBF"));
  CHECK(with.may_contain("\xE2\x84\xAA"));
  CHECK(with.may_hold_escape("017f"));
  GramSketch merged(4096);
  merged.merge(with);
  CHECK(merged.may_contain("\xC5\xBF"));
  CHECK(merged.may_hold_escape("017F"));
}

TEST_CASE("sketchable spans: a user record's base64 image payload is cut out, nothing else") {
  const std::string payload = "iVBORw0KGgoAAAANSUhEUgAABY0AAAfPCAIAAADzXFdZ";
  const std::string user_image =
      R"({"type":"user","message":{"role":"user","content":[{"type":"image","source":{"type":"base64",)"
      R"("media_type":"image/png","data":")" +
      payload + R"("}},{"type":"text","text":"see the screenshot"}]}})";
  const std::string tool_input =  // a tool call's input is searched text: kept whole
      R"({"type":"assistant","message":{"content":[{"type":"tool_use","input":{"source":{"type":"base64",)"
      R"("media_type":"image/png","data":")" +
      payload + R"("}}}]}})";
  const std::string auq = R"({"type":"user","toolUseResult":{"questions":[]},"x":{"source":{"type":"base64",)"
                          R"("media_type":"image/png","data":")" +
                          payload + R"("}}})";
  auto kept = [](const std::string& block) {
    std::string out;
    csift::for_each_sketchable_span(block, [&](std::string_view s) { out += std::string(s) + "|"; });
    return out;
  };
  const std::string cut = kept(user_image + "\n" + tool_input + "\n" + auq + "\n");
  CHECK(cut.find(payload) != std::string::npos);  // the tool input and the AskUserQuestion line keep theirs
  CHECK(kept(user_image).find(payload) == std::string::npos);
  CHECK(kept(user_image).find("see the screenshot") != std::string::npos);
  CHECK(kept(tool_input).find(payload) != std::string::npos);
  CHECK(kept(auq).find(payload) != std::string::npos);
  // Cut at the quotes: the pieces are the bytes before the payload and from its closing quote on.
  CHECK(kept(user_image) == user_image.substr(0, user_image.find(payload)) + "|" +
                                user_image.substr(user_image.find(payload) + payload.size()) + "|");
}

namespace {
// `dense`: the sketch holds enough random grams that the memo keeps it at full size (not folded).
std::shared_ptr<const ScreenFacts> memo_test_facts(uint64_t bytes, uint64_t size_stamp, bool dense = false) {
  auto f = std::make_shared<ScreenFacts>(bytes);
  f->stamp = FileStamp{1, 2, size_stamp, 3};
  f->malformed_lines = 4;
  f->torn_tail = true;
  if (dense) {
    std::mt19937 rng(static_cast<unsigned>(size_stamp));
    std::string noise(size_t{512} << 10, '\0');  // folded once, its bits would be ~40 % set
    for (size_t i = 0; i < noise.size(); i += 4) {
      const uint32_t r = rng();
      std::memcpy(&noise[i], &r, 4);
    }
    f->grams.add(noise);
  }
  return f;
}
}  // namespace

TEST_CASE("scan memo: a changed stamp drops the entry; the budget evicts the least recently used") {
  ScanMemo memo(size_t{600} << 10);  // room for two 256 KiB sketches, not three
  memo.remember("/a", memo_test_facts(uint64_t{64} << 20, 10, true));
  memo.remember("/b", memo_test_facts(uint64_t{64} << 20, 20, true));
  REQUIRE(memo.find("/a", FileStamp{1, 2, 10, 3}));  // /a is now the most recently used
  memo.remember("/c", memo_test_facts(uint64_t{64} << 20, 30, true));
  CHECK(memo.usage().entries == 2);
  CHECK(memo.usage().evictions == 1);
  CHECK(memo.usage().bytes <= memo.usage().budget);
  CHECK_FALSE(memo.find("/b", FileStamp{1, 2, 20, 3}));
  CHECK(memo.find("/c", FileStamp{1, 2, 30, 3})->skipped_lines() == 5);
  CHECK(memo.find_grown("/c", FileStamp{1, 2, 31, 4}));        // the same file, grown: an append to extend
  CHECK_FALSE(memo.find_grown("/c", FileStamp{1, 9, 31, 4}));  // another file at that path
  CHECK_FALSE(memo.find_grown("/c", FileStamp{1, 2, 29, 4}));  // shrunk: rewritten
  CHECK_FALSE(memo.find("/a", FileStamp{1, 2, 11, 3}));  // grown since: stale, kept for an append screen
  CHECK(memo.usage().entries == 2);
  CHECK_FALSE(memo.find("/a", FileStamp{1, 2, 9, 3}));  // shrunk: rewritten, dropped
  CHECK(memo.usage().entries == 1);
  memo.forget("/c");
  CHECK(memo.usage().entries == 0);
}

TEST_CASE("scan memo: a file's stamp changes when it is appended to; its head hash does not") {
  csift_test::TempStore store;
  const std::string path = store.write("p/s.jsonl", "{}\n");
  const auto before = csift::stamp_file(path);
  const auto head = csift::head_hash_of(path);
  REQUIRE(before);
  REQUIRE(head);
  store.write("p/s.jsonl", "{}\n{}\n");
  CHECK(csift::head_hash_of(path) == head);
  const auto after = csift::stamp_file(path);
  REQUIRE(after);
  CHECK(after->size == 6);
  CHECK_FALSE(*before == *after);
  CHECK_FALSE(csift::stamp_file(path + ".missing"));
  store.write("p/s.jsonl", "{\"a\":1}\n{}\n");
  CHECK_FALSE(csift::head_hash_of(path) == head);  // rewritten
}

TEST_CASE("scan memo: a sparse sketch is folded before it is kept, and still holds every gram it held") {
  ScanMemo memo(size_t{64} << 20);
  auto f = std::make_shared<ScreenFacts>(uint64_t{64} << 20);  // a 2 Mib sketch, nearly empty
  f->stamp = FileStamp{1, 2, 10, 3};
  const std::vector<std::string> words = {"ENOSPC", "Traceback", "compact_boundary", "xylophone"};
  for (const std::string& w : words)
    f->grams.add_bytewise(w);
  REQUIRE(f->grams.bytes() == (size_t{256} << 10));  // ASCII words: no wide-character table allocated
  memo.remember("/a", f);
  // Folded down to the smallest size (512 bytes of bits), not 256 KiB.
  CHECK(memo.usage().bytes < (size_t{16} << 10));
  const auto kept = memo.find("/a", FileStamp{1, 2, 10, 3});
  REQUIRE(kept);
  CHECK(kept->grams.bytes() == 512);
  CHECK(kept->grams.fill() <= csift::kMemoSketchFill);
  for (const std::string& w : words)
    CHECK(kept->grams.may_contain(w));
  CHECK_FALSE(kept->grams.may_contain("quuxzanzibarvelour"));
  // A dense sketch is kept as it is.
  memo.remember("/b", memo_test_facts(uint64_t{64} << 20, 20, true));
  CHECK(memo.usage().bytes > (size_t{256} << 10));
}

TEST_CASE("scan memo: parallel finds, grows, forgets and remembers keep it within its budget") {
  ScanMemo memo(size_t{16} << 10);  // room for ~13 of the 40 paths: evictions on every thread
  std::vector<std::thread> workers;
  for (int w = 0; w < 4; ++w) {
    workers.emplace_back([&memo, w] {
      std::mt19937 memo_thread_rng(static_cast<unsigned>(w));
      for (int i = 0; i < 3000; ++i) {
        const std::string path = "/p" + std::to_string(memo_thread_rng() % 40);
        const uint64_t size = 1 + memo_thread_rng() % 4;
        const FileStamp stamp{1, 2, size, 3};
        switch (memo_thread_rng() % 4) {
          case 0:
            memo.remember(path, memo_test_facts(uint64_t{16} << 10, size));
            break;
          case 1:
            if (const auto f = memo.find(path, stamp)) CHECK(f->stamp == stamp);
            break;
          case 2:
            if (const auto f = memo.find_grown(path, stamp)) CHECK(f->stamp.size < size);
            break;
          default:
            memo.forget(path);
        }
      }
    });
  }
  for (auto& t : workers)
    t.join();
  CHECK(memo.usage().bytes <= memo.usage().budget);
  CHECK(memo.usage().evictions > 0);
}

TEST_CASE("kept texts: packed in order and read back whole; the visit stops at the first yes") {
  const std::vector<std::string> texts{"/review the diff", "", std::string(5000, 'q') + "needle", "tail"};
  const auto kept = csift::KeptTexts::pack(texts);
  CHECK(kept.count() == 4);
  CHECK(kept.raw_bytes() == 16 + 0 + 5006 + 4);
  CHECK(kept.frame().size() < 200);  // the repeated run compresses
  CHECK(kept.unpack() == texts);
  std::vector<std::string> seen;
  CHECK(kept.any_of([&](std::string_view t) {
    seen.emplace_back(t);
    return t.find("needle") != std::string_view::npos;
  }));
  CHECK(seen == std::vector<std::string>(texts.begin(), texts.begin() + 3));
  CHECK_FALSE(kept.any_of([](std::string_view t) { return t == "absent"; }));
  const auto none = csift::KeptTexts::pack({});
  CHECK(none.unpack() == std::vector<std::string>{});
  CHECK_FALSE(none.any_of([](std::string_view) { return true; }));
}

TEST_CASE("kept texts: a frame that does not read back as declared says yes, never no") {
  const std::vector<std::string> texts{"alpha beta", "gamma delta epsilon", "zeta"};
  const auto kept = csift::KeptTexts::pack(texts);
  const auto never = [](std::string_view) { return false; };
  REQUIRE_FALSE(kept.any_of(never));
  std::string flipped = kept.frame();
  flipped[flipped.size() / 2] = static_cast<char>(flipped[flipped.size() / 2] ^ 0x5A);
  std::vector<csift::KeptTexts> bad;
  bad.push_back(csift::KeptTexts::from_frame(flipped, kept.count(), kept.raw_bytes()));
  bad.push_back(csift::KeptTexts::from_frame(kept.frame().substr(0, kept.frame().size() - 3), kept.count(),
                                             kept.raw_bytes()));
  bad.push_back(csift::KeptTexts::from_frame(kept.frame(), kept.count() + 1, kept.raw_bytes()));
  bad.push_back(csift::KeptTexts::from_frame(kept.frame(), kept.count(), kept.raw_bytes() + 1));
  bad.push_back(csift::KeptTexts::from_frame(kept.frame(), kept.count() - 1, kept.raw_bytes() + 4));
  bad.push_back(csift::KeptTexts::from_frame("", kept.count(), kept.raw_bytes()));
  bad.push_back(csift::KeptTexts::from_frame(kept.frame(), uint64_t{1} << 60, kept.raw_bytes()));
  for (const auto& b : bad) {
    CHECK(b.any_of(never));
    CHECK_FALSE(b.unpack());
  }
  // The frame as it was still reads back.
  CHECK(csift::KeptTexts::from_frame(kept.frame(), kept.count(), kept.raw_bytes()).unpack() == texts);
}

}  // namespace scan_memo_unit
