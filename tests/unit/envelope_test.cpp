#include "core/base/envelope.h"

#include <doctest/doctest.h>

namespace envelope_unit {

using namespace csift;

TEST_CASE("Envelope: header first, rows, summary last") {
  Envelope e = Envelope::make("list");
  e.header["sessions_in_scope"] = 2;
  e.add_row("session")["id"] = "a";
  e.add_row("session")["id"] = "b";
  e.summary["sessions"] = 2;
  const std::string nd = e.to_ndjson();
  CHECK(nd ==
        "{\"kind\":\"header\",\"command\":\"list\",\"sessions_in_scope\":2}\n"
        "{\"kind\":\"session\",\"id\":\"a\"}\n"
        "{\"kind\":\"session\",\"id\":\"b\"}\n"
        "{\"kind\":\"summary\",\"sessions\":2}\n");
  const json obj = e.to_object();
  CHECK(obj.begin().key() == "header");
  CHECK(obj["rows"].size() == 2);
  CHECK(obj["summary"]["kind"] == "summary");
  CHECK_FALSE(e.is_error);
}

TEST_CASE("Envelope: an empty result still has header and summary") {
  const Envelope e = Envelope::make("search");
  CHECK(e.to_ndjson() == "{\"kind\":\"header\",\"command\":\"search\"}\n{\"kind\":\"summary\"}\n");
  CHECK(e.to_object()["rows"].is_array());
}

TEST_CASE("error_envelope carries kind and message in the summary") {
  const Envelope e = error_envelope("show", "usage", "turn: bad");
  CHECK(e.is_error);
  CHECK(e.rows.empty());
  CHECK(e.summary["error"]["kind"] == "usage");
  CHECK(e.summary["error"]["message"] == "turn: bad");
  CHECK(e.to_ndjson().find("\"error\":{\"kind\":\"usage\",\"message\":\"turn: bad\"}") != std::string::npos);
}

TEST_CASE("Serialization never throws on invalid UTF-8") {
  Envelope e = Envelope::make("show");
  e.add_row("record")["text"] = std::string("ok \xff\xfe bad");
  std::string nd;
  CHECK_NOTHROW(nd = e.to_ndjson());
  CHECK(nd.find("ok \xEF\xBF\xBD") != std::string::npos);
  CHECK_NOTHROW(dump_json(e.to_object(), 2));
}

TEST_CASE("utf8_length counts code points; invalid bytes count one each") {
  CHECK(utf8_length("") == 0);
  CHECK(utf8_length("abc") == 3);
  CHECK(utf8_length("h\xC3\xA9llo") == 5);       // é
  CHECK(utf8_length("\xF0\x9F\x98\x80!") == 2);  // 😀!
  CHECK(utf8_length("\xff\xfe") == 2);
  CHECK(utf8_length("\xE2\x82") == 2);  // truncated sequence
}

TEST_CASE("excerpt marks the cut and never splits a sequence") {
  CHECK(excerpt("short", 10) == "short");
  CHECK(excerpt("exactly", 7) == "exactly");
  CHECK(excerpt("abcdefghij", 4) == "abcd\xE2\x80\xA6 (+6 chars)");
  CHECK(excerpt("\xC3\xA9\xC3\xA9\xC3\xA9", 2) == "\xC3\xA9\xC3\xA9\xE2\x80\xA6 (+1 chars)");
  CHECK(excerpt("\xF0\x9F\x98\x80\xF0\x9F\x98\x80", 1) == "\xF0\x9F\x98\x80\xE2\x80\xA6 (+1 chars)");
  CHECK(excerpt("abc", 0) == "\xE2\x80\xA6 (+3 chars)");
}

TEST_CASE("one_line folds whitespace runs") {
  CHECK(one_line("a\n\nb\t c") == "a b c");
  CHECK(one_line("  lead and trail \n") == "lead and trail");
  CHECK(one_line("") == "");
}

}  // namespace envelope_unit
