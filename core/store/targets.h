// TargetResolver: the positional target grammar every multi-target tool shares (SPEC.md §3):
// a real path (incl. `.`), an encoded dir (bare or under ~/.claude/projects/), `@<uuid>`,
// `@<4-11 hex prefix>`, `@<agent-id>`, `@main`, `@trap:<marker>`, a `*.jsonl` path, plus
// `--sessions-from FILE|-`.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "core/store/harness_stores.h"
#include "core/store/store.h"

namespace csift {

struct TargetRequest {
  std::vector<std::string> targets;
  std::optional<std::vector<std::string>> sessions_from_ids;  // already-read id tokens (empty = empty scope)
  bool subagents = true;                                      // span subagents (--no-subagents clears)
  std::optional<std::string> claude_home;
  // The `harness` argument: which stores a call without targets reads (names, aliases, "all"); empty =
  // Claude Code's. A ref target `<harness>:<id>` names its own store whatever this says.
  std::vector<std::string> harnesses;
};

struct Scope {
  std::string claude_home;
  std::string projects_root;
  std::vector<Transcript> transcripts;  // deterministic order: session, then its subagents, by path
  bool unscoped = false;                // no target and no --sessions-from: all projects
  bool project_wide = false;            // some target named a whole project (or none: every project)
  size_t top_level_sessions = 0;
  size_t subagent_sessions = 0;
  std::vector<std::string> notes;  // stderr-class notes (e.g. the @main lane note)
  // Transcript-named entries in scope that are not readable files (store.h): reported, never opened.
  std::vector<StoreProblem> problems;
  // The stores of other harnesses the scope read (harness_stores.h); empty when it is Claude Code's alone.
  std::vector<StoreReport> stores;
  bool claude_store_read = true;  // false when the scope holds only other harnesses' sessions
};

class TargetResolver {
 public:
  TargetResolver(const Environment& env, std::optional<std::string> claude_home_override);
  // Throws ToolError(not_found/usage) naming what was tried when a target resolves to nothing.
  Scope resolve(const TargetRequest& req) const;
  // Exactly one transcript (show): `@uuid`/prefix -> that top-level file, `@agent-id` -> the agent file,
  // `*.jsonl` -> itself. Errors when it is not exactly one.
  Transcript resolve_one(const std::string& target) const;

  const std::string& claude_home() const { return home_; }
  const std::string& projects_root() const { return root_; }

 private:
  Environment env_;  // a copy: a resolver built from a temporary environment must not dangle
  std::optional<std::string> home_override_;
  std::string home_;
  std::string root_;
};

// Whether `token` is a bare encoded project directory (`-home-me-proj`, `C--Users-x`) that exists under
// `projects_root`. A command line asks this before reading a `-`-led token as flags.
bool names_project_dir(const std::string& projects_root, std::string_view token);

// The most an id list may hold (a uuid and a newline are 37 bytes: ~450,000 ids). A longer list — or a
// stream that never ends, such as /dev/zero — is refused rather than read without bound.
inline constexpr size_t kMaxIdListBytes = size_t{16} << 20;

// Splits an id list (whitespace separated, bare or @-prefixed; the `@` is dropped) read from a file or stdin.
std::vector<std::string> parse_id_list(const std::string& text);

}  // namespace csift
