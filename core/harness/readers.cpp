// Where harnesses are registered: one line per harness in registered_harnesses(). An entry brings its reader
// (reader_for() hands it every transcript whose `harness` names it) and, but for Claude Code, its store
// discovery (core/store/harness_stores.h reads it).
#include <array>

#include "core/harness/claude_code/claude_code_reader.h"
#include "core/harness/codex/codex_harness.h"
#include "core/harness/copilot/copilot_harness.h"
#include "core/harness/cursor/cursor_harness.h"
#include "core/harness/gemini_cli/gemini_cli_harness.h"
#include "core/harness/harness_agents_walk.h"
#include "core/harness/harness_entry.h"
#include "core/harness/opencode/opencode_harness.h"
#include "core/record/transcript_reader.h"

namespace csift {

const std::vector<HarnessEntry>& registered_harnesses() {
  static const std::vector<HarnessEntry> harnesses = attach_agent_readers({
      HarnessEntry{kClaudeCodeHarness, {}, &claude_code_reader()},
      codex_harness(),
      gemini_cli_harness(),
      copilot_harness(),
      opencode_v1_harness(),
      opencode_v2_harness(),
      cursor_harness(),
  });
  return harnesses;
}

const HarnessEntry* harness_named(std::string_view name) {
  for (const HarnessEntry& h : registered_harnesses()) {
    if (h.name == name) return &h;
    for (std::string_view alias : h.aliases)
      if (alias == name) return &h;
  }
  return nullptr;
}

std::string harness_ref(std::string_view harness, std::string_view session_id) {
  return std::string(harness) + ":" + std::string(session_id);
}

const std::vector<const TranscriptReader*>& registered_readers() {
  static const std::vector<const TranscriptReader*> readers = [] {
    std::vector<const TranscriptReader*> out;
    for (const HarnessEntry& h : registered_harnesses())
      out.push_back(h.reader);
    return out;
  }();
  return readers;
}

const HarnessEntry& harness_entry(HarnessId id) {
  // Indexed by id once: reader_for asks for every transcript a call reads, and an entry's id() is its name
  // looked up.
  static const std::array<const HarnessEntry*, kHarnessIdCount> by_id = [] {
    std::array<const HarnessEntry*, kHarnessIdCount> out{};
    for (const HarnessEntry& h : registered_harnesses())
      out[static_cast<size_t>(h.id())] = &h;
    return out;
  }();
  const HarnessEntry* h = by_id[static_cast<size_t>(id)];
  // Every harness is registered; a missing one is a programming error.
  if (!h) throw std::logic_error("no harness registered for '" + std::string(harness_name(id)) + "'");
  return *h;
}

const TranscriptReader& reader_for(const Transcript& t) {
  return *harness_entry(t.harness).reader;
}

}  // namespace csift
