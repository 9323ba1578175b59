// Argument references inside error messages and notes. Core and tools name a tool argument by its schema
// property name only (`since`, `label`, `sessions_from`), wrapped by arg_ref() into a delimited token; the
// front end that shows the message spells the token (server/: the CLI shim as a flag, MCP as the bare
// property name) with spell_arg_refs(). No flag spelling lives outside server/.
#pragma once
#include <functional>
#include <string>
#include <string_view>

#include "core/base/envelope.h"

namespace csift {

// A reference to argument `property`. `prefer_short`: the CLI spells it by its one-letter flag when the tool
// has one (`label` -> `-t`), else by its long flag.
std::string arg_ref(std::string_view property, bool prefer_short = false);

// A reference to a follow-up call of `tool` with `args` (a message that says what to run next).
std::string call_ref(std::string_view tool, const json& args);

// How a front end spells the tokens.
struct MessageSpeller {
  std::function<std::string(std::string_view property, bool prefer_short)> arg;
  std::function<std::string(std::string_view tool, const json& args)> call;
};
// Replaces every arg_ref() / call_ref() token in `text` by its spelling; all other text is kept byte for
// byte. The token delimiters are ASCII control characters (RS ... US) that no message writes.
std::string spell_arg_refs(std::string_view text, const MessageSpeller& spell);

}  // namespace csift
