// The typed harness identity and the typed result status: every registered harness's name parses back to
// its id, and a result's status marker renders from the typed fields exactly as the words did.
#include <doctest/doctest.h>

#include "core/harness/harness_entry.h"
#include "core/record/harness_id.h"
#include "core/record/record.h"

namespace harness_id_unit {

using namespace csift;

TEST_CASE("every registered harness's name names its id, and back") {
  for (const HarnessEntry& h : registered_harnesses()) {
    CAPTURE(h.name);
    REQUIRE(harness_id_named(h.name));
    CHECK(harness_name(h.id()) == h.name);
    CHECK(h.reader->harness() == h.name);
  }
  CHECK_FALSE(harness_id_named("opencode"));  // an alias: harness_named knows it, the id parser does not
  CHECK(harness_named("opencode")->id() == HarnessId::opencode_v1);
  CHECK(is_opencode(HarnessId::opencode_v2));
  CHECK_FALSE(is_opencode(HarnessId::cursor));
}

TEST_CASE("a result's status marker renders from its typed status and exit code") {
  Block b;
  CHECK(status_marker_of(b).empty());
  b.result_exit_code = 0;
  CHECK(status_marker_of(b) == "[exit 0]");
  b.result_status = CallStatus::error;
  b.result_exit_code = 2;
  CHECK(status_marker_of(b) == "[error \xC2\xB7 exit 2]");
  b.result_exit_code.reset();
  b.result_status = CallStatus::denied;
  CHECK(status_marker_of(b) == "[denied]");
  b.result_status = CallStatus::interrupted;
  CHECK(status_marker_of(b) == "[interrupted]");
}

}  // namespace harness_id_unit
