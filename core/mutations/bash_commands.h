// Inside bash_mutations: the shell state a lexical walk carries (cwd and what it found) and the per-command
// rules that turn one simple command into mutations.
#pragma once
#include <string>
#include <vector>

#include "core/mutations/bash_mutations.h"
#include "core/mutations/shell_words.h"

namespace csift {

struct ShellState {
  std::string cwd;
  PathResolution cwd_class = PathResolution::unresolved;  // how cwd is known: cwd_joined, cd_tracked, or not
  std::vector<std::string> dir_stack;                     // pushd / popd
  std::vector<BashMutation> out;
  int nesting = 0;

  struct Saved {
    std::string cwd;
    PathResolution cwd_class;
    std::vector<std::string> dir_stack;
  };
  Saved save() const { return {cwd, cwd_class, dir_stack}; }
  void restore(const Saved& s) {
    cwd = s.cwd;
    cwd_class = s.cwd_class;
    dir_stack = s.dir_stack;
  }

  // One operand the command changes, resolved against the current cwd.
  void emit(const ShellWord& w, const std::string& op);
  void marker(const std::string& name);
  // `cd target` (nullptr: a bare `cd`, $HOME, unknowable here).
  void change_dir(const ShellWord* target);
};

struct SimpleCommand {
  std::vector<ShellWord> words;    // command name and arguments (assignments and wrappers included)
  std::vector<ShellWord> written;  // output-redirection targets
  std::string stdin_text;          // heredoc bodies and here-strings (an interpreter's inline script)
};

void run_simple_command(const SimpleCommand& cmd, ShellState& state);
// `bash -c SCRIPT` and friends: the script walked with the current state.
void run_nested_shell(const std::string& script, ShellState& state);

}  // namespace csift

namespace csift {
// An interpreter's inline script (`python -c`, `node -e`, a heredoc): literal write targets become
// interp-write rows; a write idiom whose target is not a literal gives one `interp:<lang>` marker.
void interpreter_writes(const std::string& lang, const std::string& script, ShellState& state);
}  // namespace csift
