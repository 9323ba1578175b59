#include "core/base/arg_ref.h"

#include <optional>

namespace csift {
namespace {

constexpr char kOpen = '\x1E';   // RS
constexpr char kClose = '\x1F';  // US
constexpr char kShort = '!';
constexpr std::string_view kCall = "call:";

bool is_property_name(std::string_view s) {
  if (s.empty()) return false;
  for (const char c : s)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
  return true;
}

}  // namespace

std::string arg_ref(std::string_view property, bool prefer_short) {
  std::string out(1, kOpen);
  if (prefer_short) out += kShort;
  return out.append(property) + kClose;
}

std::string call_ref(std::string_view tool, const json& args) {
  // dump_json escapes control characters, so the arguments never contain the closing delimiter.
  return std::string(1, kOpen) + std::string(kCall) + std::string(tool) + " " + dump_json(args) + kClose;
}

namespace {

std::optional<std::string> spell_call_token(std::string_view body, const MessageSpeller& spell) {
  if (body.substr(0, kCall.size()) != kCall) return std::nullopt;
  body.remove_prefix(kCall.size());
  const size_t space = body.find(' ');
  if (space == std::string_view::npos || !is_property_name(body.substr(0, space))) return std::nullopt;
  const json args = json::parse(body.substr(space + 1), nullptr, /*allow_exceptions=*/false);
  if (!args.is_object()) return std::nullopt;
  return spell.call(body.substr(0, space), args);
}

}  // namespace

std::string spell_arg_refs(std::string_view text, const MessageSpeller& spell) {
  std::string out;
  size_t pos = 0;
  while (pos < text.size()) {
    const size_t open = text.find(kOpen, pos);
    const size_t close = open == std::string_view::npos ? open : text.find(kClose, open + 1);
    if (close == std::string_view::npos) break;
    std::string_view name = text.substr(open + 1, close - open - 1);
    out.append(text.substr(pos, open - pos));
    if (auto call = spell_call_token(name, spell)) {
      out += *call;
      pos = close + 1;
      continue;
    }
    const bool prefer_short = !name.empty() && name.front() == kShort;
    if (prefer_short) name.remove_prefix(1);
    if (is_property_name(name)) {
      out += spell.arg(name, prefer_short);
      pos = close + 1;
    } else {
      out += kOpen;  // not a token: keep the byte and look on from the next one
      pos = open + 1;
    }
  }
  out.append(text.substr(pos));
  return out;
}

}  // namespace csift
