// The caller's environment as every area sees it: its variables, working directory and home, and how the
// tools were reached. Lookups go through Environment so tests and the MCP server can pass their own.
#pragma once
#include <map>
#include <optional>
#include <string>

namespace csift {

// How the tools were reached, which decides what can name the calling session (SPEC.md §9.5).
enum class CallerLink {
  command_line,      // run by the caller itself: its environment is the caller's
  spawning_process,  // a stdio server: the caller is an ancestor process (Claude Code's session registry)
  network,           // an HTTP server: no process relation to the caller at all
};

// Environment lookups go through this so tests and the MCP server can pass their own environment.
struct Environment {
  std::map<std::string, std::string> vars;
  std::string cwd;  // the caller's working directory (for `.` and relative paths)
  // The server's `--claude-home DIR`: the home of every call that names none ("" = not given).
  std::string claude_home;
  CallerLink caller = CallerLink::command_line;
  int caller_pid = 0;  // spawning_process: the parent process, where the registry walk starts
  // The id of the model's tool_use block that caused this call, when the client names it (Claude Code sends
  // `_meta["claudecode/toolUseId"]` with every tools/call): the calling transcript is the one whose assistant
  // record holds that block (core/store/call_landing.h). "" when the call named none (the CLI, other
  // clients).
  std::string caller_tool_use_id;
  static Environment from_process();
  std::optional<std::string> get(const std::string& name) const;  // empty values count as unset
};

// $HOME (non-empty), else the passwd entry's home dir.
std::string home_dir(const Environment& env);
// Expands a leading `~` / `$HOME` in a user-typed path.
std::string expand_home(const std::string& path, const Environment& env);

}  // namespace csift
