// Standard-alphabet base64 (RFC 4648 §4), the encoding of an inline image's `source.data`.
#pragma once
#include <optional>
#include <string>
#include <string_view>

namespace csift {

// The decoded bytes, or nullopt with `error` saying where the text stops being base64. Whitespace is
// skipped; padding is optional at the end and refused elsewhere.
std::optional<std::string> base64_decode(std::string_view text, std::string& error);
std::string base64_encode(std::string_view bytes);

}  // namespace csift
