// The parts of Claude Code's raw bytes a search can ever match, for the warm memo's 4-gram sketches (SPEC.md
// §7 "Warm scan memo"). A base64 image payload is near-random text: a few hundred KiB of it sets most bits of
// a file's sketch, so every later search would have to read the file again. In a user record such a payload
// is never searched text: image blocks and a tool result's image parts are parsed as image references (their
// bytes stay on disk), and only the AskUserQuestion answer renders its structured result. So those payloads
// are left out of the sketch, and only there; anywhere else (a tool call's input, an attachment) they stay
// in.
#pragma once
#include <functional>
#include <string_view>

namespace csift {

// Calls `fn` with the pieces of `block` (whole lines) left when the base64 payload of every image source in a
// user line without an AskUserQuestion result is cut out. A cut starts and ends at a quote, so no needle
// (which never holds a quote) spans one.
void for_each_sketchable_span(std::string_view block, const std::function<void(std::string_view)>& fn);

}  // namespace csift
