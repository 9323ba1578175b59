// Which harness wrote a transcript, as a typed value: code asks `t.harness == HarnessId::codex`, never
// compares names, and a name is spelled only where it is printed or parsed (harness_name, harness_id_named).
// The names are those of refs (`<name>:<session id>`), rows and the `harness` argument; each harness's entry
// (core/harness/harness_entry.h, registered in core/harness/readers.cpp) carries its id.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace csift {

enum class HarnessId : uint8_t { claude_code, codex, gemini_cli, copilot, opencode_v1, opencode_v2, cursor };
inline constexpr size_t kHarnessIdCount = static_cast<size_t>(HarnessId::cursor) + 1;  // the values above

constexpr std::string_view harness_name(HarnessId h) {
  switch (h) {
    case HarnessId::claude_code:
      return "claude-code";
    case HarnessId::codex:
      return "codex";
    case HarnessId::gemini_cli:
      return "gemini-cli";
    case HarnessId::copilot:
      return "copilot";
    case HarnessId::opencode_v1:
      return "opencode-v1";
    case HarnessId::opencode_v2:
      return "opencode-v2";
    case HarnessId::cursor:
      return "cursor";
  }
  return "";
}

// The harness a canonical name names (no aliases: harness_named in core/harness/harness_entry.h knows
// those), or nullopt.
constexpr std::optional<HarnessId> harness_id_named(std::string_view name) {
  for (size_t i = 0; i < kHarnessIdCount; ++i)
    if (harness_name(static_cast<HarnessId>(i)) == name) return static_cast<HarnessId>(i);
  return std::nullopt;
}

// OpenCode's two log schemas are two harnesses that share their rules.
constexpr bool is_opencode(HarnessId h) {
  return h == HarnessId::opencode_v1 || h == HarnessId::opencode_v2;
}

}  // namespace csift
