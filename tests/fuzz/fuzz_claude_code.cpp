// Fuzzes Claude Code's record parser and classifier (core/harness/claude_code/): each line of the input is
// parsed (RecordParser), probed by the byte-level probes, and classified in file order with one context, and
// then the whole input is read as a transcript through the reader seam (tests/fuzz/fuzz_support.h). A
// failure is a sanitizer report, an exception, or a broken contract: parse() or validate() disagreeing with
// the one definition of a well-formed line (json_object_well_formed), a record that opens a turn on a line
// may_open_turn rules out (it must never be false for an opener), or the seam's accounting.
#include "core/harness/claude_code/record_parser.h"
#include "core/json/json_syntax.h"
#include "tests/fuzz/fuzz_support.h"

CSIFT_FUZZ_TARGET(claude_code) {
  using namespace csift;
  const std::string_view s = csift_fuzz::as_text(data, size);
  static RecordParser parser;
  ClassifyContext ctx;
  ctx.owner_id = "fuzz";
  uint64_t number = 0;
  for (size_t at = 0; at <= s.size();) {
    size_t nl = s.find('\n', at);
    if (nl == std::string_view::npos) nl = s.size();
    const std::string_view line = s.substr(at, nl - at);
    at = nl + 1;
    ++number;
    if (line_is_blank(line)) continue;
    (void)line_shape_malformed(line);
    (void)line_has_any_role(line);
    (void)key_string_values(line, "type");
    (void)first_key_string_value(line, "tool_use_id");
    (void)may_hold_structured_answer(line);
    const std::string peeked = peek_type(line);
    const bool well_formed = json_object_well_formed(line);
    FUZZ_CHECK(parser.validate(line) == well_formed, "RecordParser::validate vs json_object_well_formed");
    Record r;
    r.line = number;
    const ParseStatus status = parser.parse(line, r);
    FUZZ_CHECK((status == ParseStatus::ok) == well_formed,
               "RecordParser::parse vs json_object_well_formed: " + parser.error());
    if (status != ParseStatus::ok) continue;
    if (opens_turn(r)) FUZZ_CHECK(may_open_turn(line), "a turn opener may_open_turn rules out");
    (void)classify_record(r, ctx);
    (void)user_text(r);
  }
  csift_fuzz::read_through_seam(HarnessId::claude_code, s);
  return 0;
}
