// Scrubbing of secrets and personal data (SPEC.md §13.4): API keys and tokens of the common providers, bearer
// headers, private key blocks, passwords in URLs, e-mail addresses and home-directory user names are each
// replaced by `[REDACTED:<kind>]`. Hand-written scanners, linear in the text's length (a scrubbed string may
// be a whole transcript line), never std::regex.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace csift {

// One kind of thing the scrubber removes, for the documentation table and the tests.
struct ScrubKind {
  std::string_view name;      // the `<kind>` of `[REDACTED:<kind>]`
  std::string_view describe;  // what is matched, in a few words
};

class Scrubber {
 public:
  // `text` with every secret and personal datum replaced. Text without any is returned unchanged.
  std::string scrub(std::string_view text) const;
  // Scrubs every string of a JSON value in place (object keys are kept: they are our own field names).
  void scrub_json(nlohmann::json& value) const;
  void scrub_json(nlohmann::ordered_json& value) const;
  // Every kind this scrubber knows, in the order it applies them.
  static const std::vector<ScrubKind>& kinds();
};

// The scrubber every tool shares (stateless; safe on any thread).
const Scrubber& default_scrubber();

// The replacement text of a kind: `[REDACTED:<kind>]`.
std::string redacted(std::string_view kind);

}  // namespace csift
