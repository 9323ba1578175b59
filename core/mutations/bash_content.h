// The shell commands whose effect on a file's content is exact from their text alone (SPEC.md §9.13): one
// simple command that writes a whole file — `cat > F <<'EOF'` / `tee F <<'EOF'` with a quoted delimiter (an
// unquoted one only when the body expands nothing), `echo words > F`, `printf 'text' > F` without a format
// directive or escape — or the same with `>>` (an append). Anything else (compound commands, flags,
// expansions) is not a content event; bash_mutations.h still reads it as a heuristic mutation.
#pragma once
#include <optional>
#include <string>

namespace csift {

struct BashWrite {
  std::string path;     // resolved absolute path
  std::string content;  // the whole file after the command
  std::string source;   // bash-heredoc | bash-write
  bool append = false;  // `>>`: content goes after the file's last byte
};

// `cwd` is the call record's cwd; a relative target needs it.
std::optional<BashWrite> bash_exact_write(const std::string& command, const std::string& cwd);

}  // namespace csift
