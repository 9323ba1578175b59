// The files a shell command probably changed, read lexically from its text (SPEC.md §9.7, the seed's §4.9 and
// §6.6): rm, rmdir, mv, cp, mkdir, touch, tee, ln, truncate, sed -i, perl -i, git, output redirections and
// interpreter write idioms, with each operand resolved against the shell's cwd and the command's own
// literal `cd`s. Everything here is a HEURISTIC and says how it resolved each path; commands that change
// files they never name give a class marker (`git:<sub>`, `fmt:<tool>`, `pkg:<manager>`, `extract:<tool>`,
// `interp:<lang>`) instead of an invented path.
#pragma once
#include <string>
#include <vector>

#include "core/mutations/paths.h"

namespace csift {

enum class PathResolution {
  absolute,    // typed absolute
  cwd_joined,  // relative, joined to the record's own cwd (no inference)
  cd_tracked,  // relative, joined to a cwd a literal `cd` earlier in the command set
  unresolved,  // $VAR, glob, leading ~, or a cwd the command made unknowable: kept verbatim
  marker,      // a class marker (`git:commit`), not a path
};
const char* resolution_name(PathResolution r);

struct BashMutation {
  std::string path;  // resolved absolute path, the verbatim operand, or the class marker
  std::string op;    // rm, rmdir, mv-from, mv-to, cp-to, mkdir, touch, tee, ln, truncate, redirect,
                     // sed-i, perl-i, interp-write, git-rm, git-mv-from, git-mv-to, git-restore,
                     // marker
  PathResolution resolution = PathResolution::unresolved;
  std::string path_verbatim;  // the operand as typed ("" for a marker)
};

// `cwd` is the shell's cwd when the command started (the tool call record's own `cwd`; "" when unknown).
std::vector<BashMutation> bash_mutations(const std::string& command, const std::string& cwd);

}  // namespace csift
