// Text that reaches a terminal must not drive it: transcript bytes can hold ESC sequences, BEL, NUL or a
// carriage return that rewrites the line above. Text renderings show such bytes visibly instead.
#pragma once
#include <string>
#include <string_view>

namespace csift {

enum class ControlEscape {
  hex,   // `\x1b`: rendered text, where the escape is read by a person
  json,  // `\u001b`: verbatim JSON lines (raw modes), where the escape keeps a well-formed line well formed
};

// Every C0 control but newline and tab, DEL, and the C1 controls (U+0080..U+009F, which some terminals
// honour as CSI and friends) written as an escape; every other byte as it is. Returns `text` unchanged (and
// without copying more than once) when it holds none.
std::string escape_terminal_controls(std::string_view text, ControlEscape style = ControlEscape::hex);

}  // namespace csift
