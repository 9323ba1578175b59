#include "core/mutations/bash_content.h"

#include <vector>

#include "core/mutations/bash_mutations.h"
#include "core/mutations/shell_words.h"

namespace csift {
namespace {

// The one simple command of `tokens`, or nothing when there are several (or a subshell).
std::optional<std::vector<const ShellToken*>> single_command(const std::vector<ShellToken>& tokens) {
  std::vector<const ShellToken*> cmd;
  bool ended = false;
  for (const ShellToken& t : tokens) {
    if (t.kind == ShellTokenKind::subshell_open || t.kind == ShellTokenKind::subshell_close)
      return std::nullopt;
    if (t.kind == ShellTokenKind::separator) {
      if (t.op.find_first_not_of("\n") != std::string::npos && t.op != ";") return std::nullopt;
      if (!cmd.empty()) ended = true;
      continue;
    }
    if (ended) return std::nullopt;
    cmd.push_back(&t);
  }
  if (cmd.empty()) return std::nullopt;
  return cmd;
}

bool expands_nothing(const std::string& body) {
  return body.find_first_of("$`\\") == std::string::npos;
}

bool quoted_delimiter(const std::string& command, const std::string& delim) {
  for (const char* q : {"'", "\""})
    for (const char* gap : {"", " "})
      if (command.find(std::string("<<") + gap + q + delim + q) != std::string::npos) return true;
  return false;
}

bool delimiter_closes(const std::string& command, const std::string& delim) {
  const std::string line = "\n" + delim;
  const size_t at = command.rfind(line);
  if (at == std::string::npos) return false;
  const size_t end = at + line.size();
  return end == command.size() || command[end] == '\n';
}

struct Parts {
  std::vector<std::string> words;
  std::vector<std::string> targets;  // `>` / `>|` / `>>` targets
  bool append = false;
  const ShellToken* heredoc = nullptr;
  bool refused = false;
};

Parts parts_of(const std::vector<const ShellToken*>& cmd) {
  Parts p;
  for (size_t i = 0; i < cmd.size(); ++i) {
    const ShellToken& t = *cmd[i];
    if (t.kind == ShellTokenKind::word) {
      if (t.word.dynamic) p.refused = true;
      p.words.push_back(t.word.text);
    } else if (t.kind == ShellTokenKind::redirect_out && (t.op == ">" || t.op == ">|" || t.op == ">>") &&
               i + 1 < cmd.size() && cmd[i + 1]->kind == ShellTokenKind::word && !cmd[i + 1]->word.dynamic) {
      p.append = p.append || t.op == ">>";
      p.targets.push_back(cmd[++i]->word.text);
    } else if (t.kind == ShellTokenKind::heredoc && t.op == "<<" && !p.heredoc) {
      p.heredoc = &t;
    } else {
      p.refused = true;  // an input redirection, a second heredoc, an fd duplication
    }
  }
  return p;
}

std::optional<BashWrite> made(const std::string& target, const std::string& cwd, std::string content,
                              const char* source) {
  const auto path = resolve_path(target, cwd);
  if (!path) return std::nullopt;
  return BashWrite{*path, std::move(content), source};
}

std::optional<BashWrite> exact_write_of(const std::string& command, const std::string& cwd, const Parts& p) {
  if (p.refused || p.words.empty()) return std::nullopt;
  const std::string& name = p.words.front();
  if (p.heredoc) {
    const std::string& delim = p.heredoc->word.text;
    const std::string& body = p.heredoc->heredoc_body;
    if (delim.empty() || !delimiter_closes(command, delim)) return std::nullopt;
    if (!quoted_delimiter(command, delim) && !expands_nothing(body)) return std::nullopt;
    if (name == "cat" && p.words.size() == 1 && p.targets.size() == 1)
      return made(p.targets[0], cwd, body, "bash-heredoc");
    if (name == "tee" && p.words.size() == 2 && p.targets.empty() && p.words[1].front() != '-')
      return made(p.words[1], cwd, body, "bash-heredoc");
    return std::nullopt;
  }
  if (p.targets.size() != 1) return std::nullopt;
  if (name == "echo") {
    std::string text;
    for (size_t i = 1; i < p.words.size(); ++i) {
      if (i == 1 && !p.words[i].empty() && p.words[i].front() == '-') return std::nullopt;
      text += (i > 1 ? " " : "") + p.words[i];
    }
    return made(p.targets[0], cwd, text + "\n", "bash-write");
  }
  if (name == "printf" && p.words.size() == 2 && p.words[1].find_first_of("%\\") == std::string::npos &&
      (p.words[1].empty() || p.words[1].front() != '-'))
    return made(p.targets[0], cwd, p.words[1], "bash-write");
  return std::nullopt;
}

}  // namespace

std::optional<BashWrite> bash_exact_write(const std::string& command, const std::string& cwd) {
  const std::vector<ShellToken> tokens = shell_tokens(command);
  const auto cmd = single_command(tokens);
  if (!cmd) return std::nullopt;
  const Parts p = parts_of(*cmd);
  auto w = exact_write_of(command, cwd, p);
  if (w) w->append = p.append;
  return w;
}

}  // namespace csift
