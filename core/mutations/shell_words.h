// A lexical (not executing) reading of one shell command line, enough to find the files it names: words
// with their quoting undone, control operators, redirections and heredoc bodies. It never expands anything;
// a word whose value depends on the shell (a `$` expansion, an unquoted glob, a leading `~`, a command
// substitution) is marked dynamic so a caller never mistakes it for a path.
#pragma once
#include <string>
#include <vector>

namespace csift {

struct ShellWord {
  std::string text;      // the word with quotes removed
  bool dynamic = false;  // $VAR, $(...), `...`, an unquoted glob or a leading ~: not a literal path
};

enum class ShellTokenKind {
  word,
  separator,       // ; & && || | newline: ends a simple command
  subshell_open,   // (
  subshell_close,  // )
  redirect_out,    // > >> >| &> 2> ...: the next word is a file written
  redirect_other,  // < <<< or an fd duplication: the next word is not a written file
  heredoc,         // << / <<-: the next word is a delimiter; the body is `heredoc_body`
};

struct ShellToken {
  ShellTokenKind kind = ShellTokenKind::word;
  ShellWord word;            // for word
  std::string op;            // for operators, as written
  std::string heredoc_body;  // for heredoc: the body lines (without the delimiter line)
};

// Splits `command` into tokens. Never fails: unbalanced quotes end at the end of the text.
std::vector<ShellToken> shell_tokens(const std::string& command);

}  // namespace csift
