// Fuzzes the secret scrubber (core/scrub/scrubber.h) differentially against itself: nothing any of its
// patterns matches may survive scrubbing, so scrubbing a scrubbed text must change nothing (a pattern that
// still matched would be replaced the second time). Input that parses as JSON is also scrubbed as a value,
// every string of which must then be a fixed point too. A failure is a sanitizer report, an exception, or a
// scrubbed text that a second scrub changes (its patterns still match in it).
#include <nlohmann/json.hpp>

#include "core/scrub/scrubber.h"
#include "tests/fuzz/fuzz_support.h"

namespace {

void fixed_points(const nlohmann::json& v, const csift::Scrubber& scrubber) {
  if (v.is_string()) {
    const std::string& s = v.get_ref<const std::string&>();
    FUZZ_CHECK(scrubber.scrub(s) == s, "a string scrub_json left still matches: " + s);
  } else if (v.is_structured()) {
    for (const auto& item : v)
      fixed_points(item, scrubber);
  }
}

}  // namespace

CSIFT_FUZZ_TARGET(scrubber) {
  const std::string_view s = csift_fuzz::as_text(data, size);
  const csift::Scrubber& scrubber = csift::default_scrubber();
  const std::string once = scrubber.scrub(s);
  const std::string twice = scrubber.scrub(once);
  FUZZ_CHECK(twice == once,
             "scrubbed text still matches a pattern:\n" + once + "\n-> second scrub:\n" + twice);
  nlohmann::json j = nlohmann::json::parse(s, nullptr, false);
  if (!j.is_discarded()) {
    scrubber.scrub_json(j);
    fixed_points(j, scrubber);
  }
  return 0;
}
