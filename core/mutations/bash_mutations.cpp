#include "core/mutations/bash_mutations.h"

#include <algorithm>
#include <set>

#include "core/mutations/bash_commands.h"
#include "core/mutations/shell_words.h"

namespace csift {

const char* resolution_name(PathResolution r) {
  switch (r) {
    case PathResolution::absolute:
      return "absolute";
    case PathResolution::cwd_joined:
      return "cwd-joined";
    case PathResolution::cd_tracked:
      return "cd-tracked";
    case PathResolution::marker:
      return "marker";
    default:
      return "unresolved";
  }
}

void ShellState::emit(const ShellWord& w, const std::string& op) {
  BashMutation m;
  m.op = op;
  m.path_verbatim = w.text;
  if (w.dynamic || w.text.empty()) {
    m.path = w.text;
    m.resolution = PathResolution::unresolved;
  } else if (is_absolute_path(w.text, cwd)) {  // the platform of the record's cwd, even after a lost `cd`
    const auto p = resolve_path(w.text, cwd);
    m.path = p.value_or(w.text);
    m.resolution = p ? PathResolution::absolute : PathResolution::unresolved;
  } else if (cwd_class == PathResolution::unresolved || cwd.empty()) {
    m.path = w.text;
    m.resolution = PathResolution::unresolved;
  } else {
    const auto p = resolve_path(w.text, cwd);
    m.path = p.value_or(w.text);
    m.resolution = p ? cwd_class : PathResolution::unresolved;
  }
  if (m.path == "/dev/null" || m.path.starts_with("/dev/std") || m.path.starts_with("/dev/fd/")) return;
  out.push_back(std::move(m));
}

void ShellState::marker(const std::string& name) {
  BashMutation m;
  m.op = "marker";
  m.path = name;
  m.resolution = PathResolution::marker;
  out.push_back(std::move(m));
}

void ShellState::change_dir(const ShellWord* target) {
  if (!target || target->dynamic || target->text.empty() || target->text == "-") {
    cwd_class = PathResolution::unresolved;
    return;
  }
  if (!is_absolute_path(target->text, cwd) && (cwd_class == PathResolution::unresolved || cwd.empty()))
    return;
  const auto p = resolve_path(target->text, cwd);
  if (!p) {
    cwd_class = PathResolution::unresolved;
    return;
  }
  cwd = *p;
  cwd_class = PathResolution::cd_tracked;
}

namespace {

// Walks the token stream: simple commands end at a separator; `( … )` restores the cwd it saved.
void walk(const std::vector<ShellToken>& tokens, ShellState& state) {
  std::vector<ShellState::Saved> subshells;
  SimpleCommand cmd;
  auto flush = [&] {
    run_simple_command(cmd, state);
    cmd = SimpleCommand{};
  };
  for (size_t i = 0; i < tokens.size(); ++i) {
    const ShellToken& t = tokens[i];
    switch (t.kind) {
      case ShellTokenKind::word:
        cmd.words.push_back(t.word);
        break;
      case ShellTokenKind::separator:
        flush();
        break;
      case ShellTokenKind::subshell_open:
        flush();
        subshells.push_back(state.save());
        break;
      case ShellTokenKind::subshell_close:
        flush();
        if (!subshells.empty()) {
          state.restore(subshells.back());
          subshells.pop_back();
        }
        break;
      case ShellTokenKind::redirect_out:
        if (i + 1 < tokens.size() && tokens[i + 1].kind == ShellTokenKind::word) {
          cmd.written.push_back(tokens[++i].word);
        }
        break;
      case ShellTokenKind::redirect_other:
        if (t.op.find('<') != std::string::npos && t.op.ends_with("<<<") && i + 1 < tokens.size() &&
            tokens[i + 1].kind == ShellTokenKind::word) {
          cmd.stdin_text += tokens[i + 1].word.text;
        }
        if (i + 1 < tokens.size() && tokens[i + 1].kind == ShellTokenKind::word) ++i;
        break;
      case ShellTokenKind::heredoc:
        cmd.stdin_text += t.heredoc_body;
        break;
    }
  }
  flush();
}

}  // namespace

void run_nested_shell(const std::string& script, ShellState& state) {
  if (++state.nesting > 4) return;  // bash -c "bash -c …" deep enough to be deliberate obfuscation
  walk(shell_tokens(script), state);
  --state.nesting;
}

std::vector<BashMutation> bash_mutations(const std::string& command, const std::string& cwd) {
  ShellState state;
  const auto start = resolve_path(cwd, "");  // a cwd is absolute, or unknown
  state.cwd = start.value_or("");
  state.cwd_class = start ? PathResolution::cwd_joined : PathResolution::unresolved;
  walk(shell_tokens(command), state);
  return std::move(state.out);
}

}  // namespace csift
