#include "core/mutations/bash_commands.h"

#include <algorithm>
#include <map>
#include <set>

namespace csift {
namespace {

// The option spellings of the commands read here (rm's, git's, sed's — never csift's own), built from their
// names: `opt("t")` is -t, `opt("dry-run")` is --dry-run.
std::string opt(std::string_view name) {
  return (name.size() == 1 ? "-" : "--") + std::string(name);
}

std::string base_name(const std::string& word) {
  const size_t slash = word.rfind('/');
  return slash == std::string::npos ? word : word.substr(slash + 1);
}

bool is_assignment(const ShellWord& w) {
  const size_t eq = w.text.find('=');
  if (eq == std::string::npos || eq == 0) return false;
  return std::all_of(w.text.begin(), w.text.begin() + static_cast<long>(eq),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

// The arguments that are not options: after `--` everything; an option in `with_value` eats the next word.
std::vector<ShellWord> operands(const std::vector<ShellWord>& args,
                                const std::set<std::string>& with_value = {}) {
  std::vector<ShellWord> out;
  bool options_done = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i].text;
    if (options_done || a.size() < 2 || a[0] != '-') {
      out.push_back(args[i]);
    } else if (a == "--") {
      options_done = true;
    } else if (with_value.count(a) && i + 1 < args.size()) {
      ++i;
    }
  }
  return out;
}

bool has_flag(const std::vector<ShellWord>& args, std::string_view flag) {
  return std::any_of(args.begin(), args.end(), [&](const ShellWord& w) { return w.text == flag; });
}

// Short-option bundles (`-rf`) and long forms: does any argument carry short letter `c` or long `name`?
bool has_option(const std::vector<ShellWord>& args, char c, std::string_view name) {
  for (const ShellWord& w : args) {
    const std::string& a = w.text;
    if (a == "--") return false;
    if (!name.empty() && (a == name || a.starts_with(std::string(name) + "="))) return true;
    if (a.size() > 1 && a[0] == '-' && a[1] != '-' && a.find(c) != std::string::npos) return true;
  }
  return false;
}

void emit_all(const std::vector<ShellWord>& words, const std::string& op, ShellState& s) {
  for (const ShellWord& w : words)
    s.emit(w, op);
}

// mv / cp: every source and the destination (or `-t DIR`).
void copy_or_move(const std::vector<ShellWord>& args, bool move, ShellState& s) {
  std::vector<ShellWord> ops = operands(args, {opt("t"), opt("target-directory"), opt("S"), opt("suffix")});
  for (size_t i = 0; i + 1 < args.size(); ++i) {
    if (args[i].text == opt("t") || args[i].text == opt("target-directory")) {
      if (move) emit_all(ops, "mv-from", s);
      s.emit(args[i + 1], move ? "mv-to" : "cp-to");
      return;
    }
  }
  if (ops.size() < 2) return;
  if (move)
    for (size_t i = 0; i + 1 < ops.size(); ++i)
      s.emit(ops[i], "mv-from");
  s.emit(ops.back(), move ? "mv-to" : "cp-to");
}

void sed_in_place(const std::vector<ShellWord>& args, ShellState& s) {
  bool in_place = false, script_given = false;
  std::vector<ShellWord> files;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i].text;
    const bool short_bundle = a.size() > 1 && a[0] == '-' && a[1] != '-';
    if (a.starts_with(opt("i")) || a == opt("in-place") || a.starts_with(opt("in-place") + "=") ||
        (short_bundle && a.find('i') != std::string::npos && a.find_first_of("ef") == std::string::npos)) {
      in_place = true;
    } else if (a == opt("e") || a == opt("f") || a == opt("expression") || a == opt("file")) {
      script_given = true;
      ++i;
    } else if (a.starts_with(opt("expression") + "=") || a.starts_with(opt("file") + "=")) {
      script_given = true;
    } else if (a.size() > 1 && a[0] == '-') {
      continue;
    } else if (!script_given) {
      script_given = true;  // the first operand is the script
    } else {
      files.push_back(args[i]);
    }
  }
  if (in_place) emit_all(files, "sed-i", s);
}

// perl -i / -pi / -pi.bak -e SCRIPT FILES…
void perl_in_place(const std::vector<ShellWord>& args, ShellState& s) {
  bool in_place = false, script_given = false;
  std::vector<ShellWord> files;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i].text;
    if (a.size() > 1 && a[0] == '-' && a[1] != '-') {
      const std::string letters =
          a.substr(1, a.find('.') == std::string::npos ? std::string::npos : a.find('.') - 1);
      if (letters.find('i') != std::string::npos) in_place = true;
      if (letters.find('e') != std::string::npos || letters.find('E') != std::string::npos) {
        script_given = true;
        ++i;
      }
    } else if (!script_given) {
      script_given = true;
    } else {
      files.push_back(args[i]);
    }
  }
  if (in_place) emit_all(files, "perl-i", s);
}

const std::set<std::string> kGitMarkers = {"checkout", "switch", "reset", "merge", "rebase",
                                           "pull",     "stash",  "apply", "clean", "cherry-pick",
                                           "revert",   "am",     "commit"};

void git(std::vector<ShellWord> args, ShellState& s) {
  // Global options before the subcommand; `-C DIR` moves the cwd for this command only.
  ShellState::Saved saved = s.save();
  size_t i = 0;
  for (; i < args.size() && args[i].text.starts_with("-"); ++i) {
    if ((args[i].text == opt("C") || args[i].text == opt("c")) && i + 1 < args.size()) {
      if (args[i].text == opt("C")) s.change_dir(&args[i + 1]);
      ++i;
    }
  }
  if (i >= args.size()) return;
  const std::string sub = args[i].text;
  const std::vector<ShellWord> rest(args.begin() + static_cast<long>(i) + 1, args.end());
  if (sub == "rm") {
    if (!has_flag(rest, opt("cached"))) emit_all(operands(rest), "git-rm", s);
  } else if (sub == "mv") {
    std::vector<ShellWord> ops = operands(rest);
    if (ops.size() >= 2) {
      for (size_t k = 0; k + 1 < ops.size(); ++k)
        s.emit(ops[k], "git-mv-from");
      s.emit(ops.back(), "git-mv-to");
    }
  } else if (sub == "restore" || (sub == "checkout" && has_flag(rest, "--"))) {
    const auto dash =
        std::find_if(rest.begin(), rest.end(), [](const ShellWord& w) { return w.text == "--"; });
    const std::vector<ShellWord> files = sub == "restore" ? operands(rest, {opt("s"), opt("source")})
                                                          : std::vector<ShellWord>(dash + 1, rest.end());
    emit_all(files, "git-restore", s);
  } else if (kGitMarkers.count(sub)) {
    const bool dry = (sub == "apply" && has_flag(rest, opt("check"))) ||
                     (sub == "clean" && (has_option(rest, 'n', opt("dry-run"))));
    if (!dry) s.marker("git:" + sub);
  }
  s.restore(saved);
}

// A formatter run that rewrites files in place: `fmt:<tool>` (named operands are not guessed).
bool formatter(const std::string& name, const std::vector<ShellWord>& args, ShellState& s) {
  const bool writes =
      (name == "prettier" && (has_flag(args, opt("write")) || has_flag(args, opt("w")))) || name == "black" ||
      name == "isort" || name == "rustfmt" || (name == "gofmt" && has_flag(args, opt("w"))) ||
      (name == "clang-format" && has_flag(args, opt("i"))) ||
      (name == "eslint" && has_flag(args, opt("fix"))) ||
      (name == "ruff" && !args.empty() && (args[0].text == "format" || has_flag(args, opt("fix")))) ||
      (name == "cargo" && !args.empty() && args[0].text == "fmt");
  if (!writes) return false;
  if (has_flag(args, opt("check")) || has_flag(args, opt("diff"))) return true;
  s.marker("fmt:" + name);
  return true;
}

bool package_manager(const std::string& name, const std::vector<ShellWord>& args, ShellState& s) {
  static const std::map<std::string, std::set<std::string>> kSubs = {
      {"npm", {"install", "i", "ci", "uninstall", "update", "add"}},
      {"yarn", {"add", "install", "remove", "upgrade"}},
      {"pnpm", {"add", "install", "i", "remove", "update"}},
      {"bun", {"add", "install", "i", "remove"}},
      {"pip", {"install", "uninstall"}},
      {"pip3", {"install", "uninstall"}},
      {"uv", {"add", "remove", "sync", "pip"}},
      {"poetry", {"add", "install", "remove", "update", "lock"}},
      {"cargo", {"add", "remove", "update", "install"}},
      {"go", {"get", "mod"}},
      {"apt-get", {"install", "remove", "purge"}},
      {"apt", {"install", "remove", "purge"}},
      {"brew", {"install", "uninstall", "upgrade"}},
  };
  const auto it = kSubs.find(name);
  if (it == kSubs.end() || args.empty()) return false;
  const std::vector<ShellWord> ops = operands(args);
  if (ops.empty() || !it->second.count(ops[0].text)) return false;
  s.marker("pkg:" + name);
  return true;
}

bool extractor(const std::string& name, const std::vector<ShellWord>& args, ShellState& s) {
  const bool extracts = (name == "tar" && !args.empty() &&
                         (has_option(args, 'x', opt("extract")) ||
                          (args[0].text.find('x') != std::string::npos && args[0].text[0] != '-'))) ||
                        name == "unzip" || name == "gunzip" || name == "patch";
  if (!extracts) return false;
  if (name == "patch" && has_flag(args, opt("dry-run"))) return true;
  s.marker("extract:" + name);
  return true;
}

std::string interpreter_lang(const std::string& name) {
  if (name.starts_with("python")) return "python";
  if (name == "node" || name == "bun" || name == "deno") return "node";
  if (name == "ruby") return "ruby";
  return "";
}

void interpreter(const std::string& lang, const std::vector<ShellWord>& args, const std::string& stdin_text,
                 ShellState& s) {
  for (size_t i = 0; i + 1 < args.size(); ++i) {
    if (args[i].text == opt("c") || args[i].text == opt("e") || args[i].text == opt("eval")) {
      interpreter_writes(lang, args[i + 1].text, s);
      return;
    }
  }
  const std::vector<ShellWord> ops = operands(args, {opt("m"), opt("W"), opt("X")});
  if ((ops.empty() || ops[0].text == "-") && !stdin_text.empty()) interpreter_writes(lang, stdin_text, s);
}

// Strips wrappers (sudo, env, time, nohup, timeout N, command, exec, xargs) and leading assignments.
size_t command_start(const std::vector<ShellWord>& w) {
  size_t i = 0;
  while (i < w.size()) {
    const std::string name = base_name(w[i].text);
    if (is_assignment(w[i]) || name == "sudo" || name == "env" || name == "time" || name == "nohup" ||
        name == "command" || name == "exec" || name == "nice" || name == "{" || name == "!" ||
        name == "then" || name == "do" || name == "else") {
      ++i;
      while (i < w.size() && w[i].text.starts_with("-") && name != "{" && name != "!")
        ++i;
    } else if (name == "timeout" && i + 1 < w.size()) {
      i += 2;
    } else {
      break;
    }
  }
  return i;
}

}  // namespace

void run_simple_command(const SimpleCommand& cmd, ShellState& s) {
  for (const ShellWord& w : cmd.written)
    s.emit(w, "redirect");
  const size_t start = command_start(cmd.words);
  if (start >= cmd.words.size()) return;
  const std::string name = base_name(cmd.words[start].text);
  const std::vector<ShellWord> args(cmd.words.begin() + static_cast<long>(start) + 1, cmd.words.end());
  if (name == "cd") {
    const std::vector<ShellWord> ops = operands(args);
    s.change_dir(ops.empty() ? nullptr : &ops[0]);
  } else if (name == "pushd") {
    const std::vector<ShellWord> ops = operands(args);
    s.dir_stack.push_back(s.cwd);
    s.change_dir(ops.empty() ? nullptr : &ops[0]);
  } else if (name == "popd") {
    if (s.dir_stack.empty()) {
      s.change_dir(nullptr);
    } else {
      s.cwd = s.dir_stack.back();
      s.dir_stack.pop_back();
    }
  } else if (name == "rm" || name == "unlink") {
    emit_all(operands(args), "rm", s);
  } else if (name == "rmdir") {
    emit_all(operands(args), "rmdir", s);
  } else if (name == "mv" || name == "cp") {
    copy_or_move(args, name == "mv", s);
  } else if (name == "mkdir") {
    emit_all(operands(args, {opt("m"), opt("mode")}), "mkdir", s);
  } else if (name == "touch") {
    emit_all(operands(args, {opt("d"), opt("t"), opt("r"), opt("date"), opt("reference")}), "touch", s);
  } else if (name == "tee") {
    emit_all(operands(args), "tee", s);
  } else if (name == "truncate") {
    emit_all(operands(args, {opt("s"), opt("size"), opt("r"), opt("reference")}), "truncate", s);
  } else if (name == "ln") {
    const std::vector<ShellWord> ops = operands(args, {opt("t"), opt("S")});
    if (ops.size() >= 2) s.emit(ops.back(), "ln");
  } else if (name == "sed" || name == "gsed") {
    sed_in_place(args, s);
  } else if (name == "perl") {
    perl_in_place(args, s);
  } else if (name == "git") {
    git(args, s);
  } else if ((name == "bash" || name == "sh" || name == "zsh") && args.size() >= 2 &&
             args[0].text == opt("c")) {
    run_nested_shell(args[1].text, s);
  } else if (const std::string lang = interpreter_lang(name); !lang.empty()) {
    interpreter(lang, args, cmd.stdin_text, s);
  } else if (!formatter(name, args, s) && !package_manager(name, args, s)) {
    extractor(name, args, s);
  }
}

}  // namespace csift
