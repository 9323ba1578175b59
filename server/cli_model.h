// The CLI shape of one tool, read from its annotated input schema: which properties are flags (with their
// short alias and negation twin), which take the positionals, and what value types each accepts. Shared by
// the argv parser and the --help renderer.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "core/base/envelope.h"

namespace csift {

struct CliOption {
  std::string property;                  // "max_count"
  std::string flag;                      // "--max-count"
  char short_name = 0;                   // 't' for -t
  std::string negate_flag;               // "--subagents": sets a boolean property false
  std::vector<std::string> alias_flags;  // other spellings of `flag` ("--additional-context" for attachments)
  json schema;                           // the property schema, $ref resolved
  std::vector<std::string> types;        // accepted value types (the item types for an array)
  bool is_array = false;
  bool is_boolean = false;
  bool positional = false;
  bool split_commas = true;  // arrays accept comma-joined values unless x-cli.split is false
  bool required = false;
};

struct CliModel {
  std::vector<CliOption> options;  // schema declaration order
  const CliOption* by_flag(std::string_view flag) const;
  const CliOption* by_negate_flag(std::string_view flag) const;
  const CliOption* by_short(char c) const;
  std::vector<const CliOption*> positionals() const;
  std::vector<std::string> all_flags() const;  // every accepted long flag, for error messages
};

CliModel build_cli_model(const json& input_schema);

// THE flag-spelling function: "--max-count" for "max_count"; "-t" when a short name is given. Every flag the
// CLI parses, prints in --help, or names in a message or a command line is spelled here.
std::string flag_for_property(std::string_view property, char short_name = 0);

}  // namespace csift
