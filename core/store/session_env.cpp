#include "core/store/session_env.h"

#include <algorithm>
#include <filesystem>
#include <vector>

#include "core/base/text.h"

namespace csift {

namespace fs = std::filesystem;

std::optional<EnvSessionId> env_session_id(const Environment& env) {
  // A blank or whitespace-only value names no session: it falls through to the alias like an unset one.
  for (const char* var : {"CLAUDE_CODE_SESSION_ID", "CODEX_COMPANION_SESSION_ID"}) {
    const auto value = env.get(var);
    if (!value) continue;
    const std::string_view id = trim(*value, " \t\r\n\v\f");
    if (!id.empty()) return EnvSessionId{var, std::string(id)};
  }
  return std::nullopt;
}

std::string whoami_guidance() {
  return "your session id was not found: CLAUDE_CODE_SESSION_ID (and its alias CODEX_COMPANION_SESSION_ID) "
         "is unset or blank (an old Claude Code build, or running outside Claude Code). Pass an explicit "
         "'@<uuid>' target instead: your id is the basename of your "
         "own "
         "transcript (~/.claude/projects/<encoded cwd>/<uuid>.jsonl), or search for a unique recent line you "
         "wrote to find it. Do NOT trust the most recently modified transcript: many sessions may be live at "
         "once.";
}

std::string env_lane_note(const EnvSessionId& who) {
  return "resolved from $" + who.var + " = " + who.id +
         ": the environment names the TOP-LEVEL session in every lane (a subagent's env carries its parent's "
         "id); a subagent identifies itself with @trap:<marker>";
}

std::optional<Transcript> find_session_file(const std::string& projects_root, const std::string& id,
                                            const std::string& cwd) {
  if (!is_uuid(id)) return std::nullopt;
  auto in_dir = [&](const std::string& dir) -> std::optional<Transcript> {
    std::error_code ec;
    if (!fs::is_regular_file(fs::path(dir) / (id + ".jsonl"), ec)) return std::nullopt;
    for (Transcript& t : list_sessions(dir)) {
      if (t.id == id) return std::move(t);
    }
    return std::nullopt;
  };
  if (!cwd.empty()) {
    std::error_code ec;
    fs::path real = fs::weakly_canonical(cwd, ec);
    if (auto hit = in_dir(projects_root + "/" + encode_cwd(ec ? cwd : real.string()))) return hit;
  }
  // One stat per project dir, in sorted order so a (pathological) duplicate id resolves deterministically.
  std::vector<std::string> dirs;
  std::error_code ec;
  for (fs::directory_iterator it(projects_root, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code dir_ec;
    if (it->is_directory(dir_ec)) dirs.push_back(it->path().string());
  }
  std::sort(dirs.begin(), dirs.end());
  for (const std::string& dir : dirs) {
    if (auto hit = in_dir(dir)) return hit;
  }
  return std::nullopt;
}

}  // namespace csift
