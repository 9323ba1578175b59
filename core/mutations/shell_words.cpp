#include "core/mutations/shell_words.h"

#include <cctype>

namespace csift {
namespace {

// Bash's metacharacters (blank, newline, ; & | ( ) < >) and a carriage return. Not every isspace() byte: a
// vertical tab or form feed is part of a word for the shell, and one that ended a word here without being
// skipped by run() as a blank made it loop forever (found by tests/fuzz, shell_words).
bool is_word_end(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ';' || c == '&' || c == '|' || c == '(' ||
         c == ')' || c == '<' || c == '>';
}

class Lexer {
 public:
  explicit Lexer(const std::string& s) : s_(s) {}

  std::vector<ShellToken> run() {
    while (i_ < s_.size()) {
      const char c = s_[i_];
      if (c == '\n') {
        push_op(ShellTokenKind::separator, "\n", 1);
        read_heredoc_bodies();
      } else if (c == ' ' || c == '\t' || c == '\r') {
        ++i_;
      } else if (c == '#' && at_word_start()) {
        while (i_ < s_.size() && s_[i_] != '\n')
          ++i_;
      } else if (c == '\\' && i_ + 1 < s_.size() && s_[i_ + 1] == '\n') {
        i_ += 2;  // a line continuation
      } else if (!operator_here()) {
        read_word();
      }
    }
    return std::move(out_);
  }

 private:
  const std::string& s_;
  size_t i_ = 0;
  std::vector<ShellToken> out_;
  std::vector<std::pair<size_t, bool>> pending_heredocs_;  // token index, strip leading tabs (<<-)

  bool at_word_start() const { return i_ == 0 || is_word_end(s_[i_ - 1]); }
  bool starts(std::string_view op) const { return s_.compare(i_, op.size(), op) == 0; }

  void push_op(ShellTokenKind kind, std::string op, size_t len) {
    ShellToken t;
    t.kind = kind;
    t.op = std::move(op);
    out_.push_back(std::move(t));
    i_ += len;
  }

  // A digit-led redirection (2>, 1>>, 2>&1) or a plain operator; false when a word starts here.
  bool operator_here() {
    size_t j = i_;
    while (j < s_.size() && std::isdigit(static_cast<unsigned char>(s_[j])))
      ++j;
    const bool fd_prefix = j > i_ && j < s_.size() && (s_[j] == '>' || s_[j] == '<') && at_word_start();
    const size_t at = fd_prefix ? j : i_;
    const std::string_view rest = std::string_view(s_).substr(at);
    auto emit = [&](ShellTokenKind kind, size_t len) {
      push_op(kind, s_.substr(i_, at - i_ + len), at - i_ + len);
      return true;
    };
    if (!fd_prefix) {
      if (rest.starts_with("&&") || rest.starts_with("||")) return emit(ShellTokenKind::separator, 2);
      if (rest.starts_with("&>>")) return emit(ShellTokenKind::redirect_out, 3);
      if (rest.starts_with("&>")) return emit(ShellTokenKind::redirect_out, 2);
      if (rest.starts_with(";;")) return emit(ShellTokenKind::separator, 2);
      if (rest.starts_with("|&")) return emit(ShellTokenKind::separator, 2);
      if (rest[0] == ';' || rest[0] == '&' || rest[0] == '|') return emit(ShellTokenKind::separator, 1);
      if (rest[0] == '(') return emit(ShellTokenKind::subshell_open, 1);
      if (rest[0] == ')') return emit(ShellTokenKind::subshell_close, 1);
    }
    if (rest.starts_with(">&") || rest.starts_with("<&")) return emit(ShellTokenKind::redirect_other, 2);
    if (rest.starts_with("<<<")) return emit(ShellTokenKind::redirect_other, 3);
    if (rest.starts_with("<<-") || rest.starts_with("<<")) {
      const bool strip = rest.starts_with("<<-");
      emit(ShellTokenKind::heredoc, strip ? 3 : 2);
      pending_heredocs_.emplace_back(out_.size() - 1, strip);
      skip_blanks();
      if (i_ < s_.size() && !is_word_end(s_[i_])) out_.back().word = lex_word();
      return true;
    }
    if (rest.starts_with(">>") || rest.starts_with(">|")) return emit(ShellTokenKind::redirect_out, 2);
    if (!rest.empty() && rest[0] == '>') return emit(ShellTokenKind::redirect_out, 1);
    if (!rest.empty() && rest[0] == '<') return emit(ShellTokenKind::redirect_other, 1);
    return false;
  }

  void skip_blanks() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t'))
      ++i_;
  }

  void read_word() {
    ShellToken t;
    t.word = lex_word();
    out_.push_back(std::move(t));
  }

  // $(...) or `...`: skipped as a whole (nested parentheses and quotes respected).
  void skip_substitution() {
    if (s_[i_] == '`') {
      for (++i_; i_ < s_.size() && s_[i_] != '`'; ++i_)
        if (s_[i_] == '\\') ++i_;
      ++i_;
      return;
    }
    int depth = 0;
    for (; i_ < s_.size(); ++i_) {
      const char c = s_[i_];
      if (c == '\\') {
        ++i_;
      } else if (c == '\'') {
        while (++i_ < s_.size() && s_[i_] != '\'') {
        }
      } else if (c == '(') {
        ++depth;
      } else if (c == ')' && --depth == 0) {
        ++i_;
        return;
      }
    }
  }

  ShellWord lex_word() {
    ShellWord w;
    const size_t start = i_;
    while (i_ < s_.size() && !is_word_end(s_[i_])) {
      const char c = s_[i_];
      if (c == '\'') {
        const size_t close = s_.find('\'', i_ + 1);
        const size_t end = close == std::string::npos ? s_.size() : close;
        w.text += s_.substr(i_ + 1, end - i_ - 1);
        i_ = end == s_.size() ? end : end + 1;
      } else if (c == '"') {
        for (++i_; i_ < s_.size() && s_[i_] != '"'; ++i_) {
          if (s_[i_] == '\\' && i_ + 1 < s_.size() &&
              std::string_view("\"\\$`\n").find(s_[i_ + 1]) != std::string_view::npos) {
            w.text += s_[++i_];
          } else if (s_[i_] == '$' || s_[i_] == '`') {
            w.dynamic = true;
            w.text += s_[i_];
          } else {
            w.text += s_[i_];
          }
        }
        if (i_ < s_.size()) ++i_;
      } else if (c == '\\' && i_ + 1 < s_.size()) {
        w.text += s_[i_ + 1];
        i_ += 2;
      } else if (c == '$' || c == '`') {
        w.dynamic = true;
        const size_t from = i_;
        if (c == '`' || (i_ + 1 < s_.size() && s_[i_ + 1] == '(')) {
          if (c == '$') ++i_;
          skip_substitution();
        } else {
          ++i_;
        }
        w.text += s_.substr(from, i_ - from);
      } else {
        if (c == '*' || c == '?' || c == '[' || c == '{' || (c == '~' && i_ == start)) w.dynamic = true;
        w.text += c;
        ++i_;
      }
    }
    return w;
  }

  void read_heredoc_bodies() {
    for (const auto& [index, strip] : pending_heredocs_) {
      const std::string& delim = out_[index].word.text;
      std::string body;
      while (i_ < s_.size()) {
        size_t eol = s_.find('\n', i_);
        if (eol == std::string::npos) eol = s_.size();
        std::string_view line = std::string_view(s_).substr(i_, eol - i_);
        i_ = eol < s_.size() ? eol + 1 : eol;
        if (strip)
          while (!line.empty() && line.front() == '\t')
            line.remove_prefix(1);
        if (line == delim) break;
        body.append(line).push_back('\n');
      }
      out_[index].heredoc_body = std::move(body);
    }
    pending_heredocs_.clear();
  }
};

}  // namespace

std::vector<ShellToken> shell_tokens(const std::string& command) {
  return Lexer(command).run();
}

}  // namespace csift
