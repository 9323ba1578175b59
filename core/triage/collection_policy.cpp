#include "core/triage/collection_policy.h"

#include <sys/stat.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/base/error.h"
#include "core/json/utf8_repair.h"
#include "core/triage/toml_include.h"

namespace csift {
namespace {

std::string policy_position(const std::string& file, const toml::source_region& where) {
  return file + " line " + std::to_string(where.begin.line);
}

bool policy_bool(const toml::table& collect, std::string_view key, const std::string& file) {
  const toml::node* node = collect.get(key);
  if (!node) return false;
  if (const auto* b = node->as_boolean()) return b->get();
  usage_error(policy_position(file, node->source()) + ": [collect] " + std::string(key) +
              " must be true or false");
}

std::vector<std::string> policy_paths(const toml::table& collect, std::string_view key,
                                      const std::string& file, const Environment& env) {
  std::vector<std::string> out;
  const toml::node* node = collect.get(key);
  if (!node) return out;
  const auto* array = node->as_array();
  if (!array)
    usage_error(policy_position(file, node->source()) + ": [collect] " + std::string(key) +
                " must be an array of absolute paths, e.g. [\"/home/me/private\"]");
  for (const toml::node& item : *array) {
    const auto* s = item.as_string();
    std::string path = s ? expand_home(s->get(), env) : std::string();
    if (!s || path.empty() || path[0] != '/') {
      usage_error(policy_position(file, item.source()) + ": every entry of [collect] " + std::string(key) +
                  " must be an absolute path (or start with ~/), e.g. \"/home/me/private\"");
    }
    while (path.size() > 1 && path.back() == '/')
      path.pop_back();
    out.push_back(path);
  }
  return out;
}

// The code point of the valid UTF-8 sequence of n bytes at p.
char32_t code_point_of(const unsigned char* p, size_t n) {
  if (n == 1) return p[0];
  char32_t c = p[0] & (0xFF >> (n + 1));
  for (size_t k = 1; k < n; ++k)
    c = (c << 6) | (p[k] & 0x3F);
  return c;
}

// toml++ 3.3.0 asks whether a character is whitespace through a generated table
// (is_non_ascii_horizontal_whitespace) that is wrong for most of U+00A1–U+0499, U+2C6E–U+3067 and
// U+FCC6–U+FEFE: those reach its __builtin_unreachable, undefined behaviour (the sanitizer build aborts;
// found by tests/fuzz, collect_policy). It asks that of the characters outside strings and comments, and in a
// multi-line basic string of the character after a backslash and of the first one after a line-ending
// backslash. So the text toml++ reads is made so it never asks it of a non-ASCII character: one outside a
// string or comment (never valid TOML) and an escape that starts with one (never valid either) are refused
// here, as toml++ would refuse them, and every one inside a multi-line basic string is handed over as its
// \u or \U escape, which toml++ decodes back to the same characters. Literal strings, single-line basic
// strings and comments pass as they are (toml++ only copies their characters). Text that is not UTF-8 is
// refused too (TOML is UTF-8, and toml++ refuses it as well). Returns the text toml++ is given.
std::string text_toml_reads_safely(std::string_view text, const std::string& file) {
  enum class In { bare, comment, basic, multi_basic, literal, multi_literal };
  In in = In::bare;
  // Where a quote opens a string, as toml++ reads it: outside a bare token, after a line start, `=`, `[`,
  // `{` or `,`. A bare value (a number, a date, a boolean, or garbage) toml++ scans on to whitespace, `,`,
  // `]`, `}` or `#`, asking of every character whether it is whitespace, quotes, `=`, `.`, `[` and `{`
  // included: a quote there opens nothing, and a non-ASCII character after it is refused (the fuzz finds:
  // `d = 1u"…`, `d = 4444['…`). Where keys are read (not in a value), a dot separates a dotted key's parts
  // and a quote after it opens a quoted part, as toml++ reads it: read as bare instead, `[a.'#'.<U+FEBF>`
  // took the quoted `#` for a comment, and toml++ asked its table of the character after it (fuzz find).
  bool in_token = false, in_value = false;
  char last = '\n';     // the last structural character outside strings and comments
  std::string nesting;  // the arrays ('[') and inline tables ('{') of a value open here
  const auto bare = [&](char c) {
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
      in_token = false;
      if (c == '\n') {
        last = c;
        if (nesting.empty()) in_value = false;
      }
      return;
    }
    const bool terminator = c == ',' || c == ']' || c == '}';
    const bool key_separator = (c == '=' || c == '.') && !in_value;
    if (in_token && !terminator && !key_separator) return;  // inside the token
    in_token = false;
    switch (c) {
      case '=':
        in_value = true;
        break;
      case '[':
        if (in_value) nesting += c;  // an array (outside a value: a table header)
        break;
      case '{':
        nesting += c;
        in_value = false;  // an inline table's keys
        break;
      case ']':
      case '}':
        if (!nesting.empty()) nesting.pop_back();
        in_value = nesting.empty() || nesting.back() == '[';
        break;
      case ',':
        in_value = !nesting.empty() && nesting.back() == '[';
        break;
      case '.':
        if (in_value) {  // a float's or a date's dot, inside its token
          in_token = true;
          return;
        }
        break;
      default:
        in_token = true;
        return;
    }
    last = c;
  };
  const auto opens_string = [&] {
    return !in_token && std::string_view("\n=[{,.").find(last) != std::string_view::npos;
  };
  std::string out;
  out.reserve(text.size());
  const auto* p = reinterpret_cast<const unsigned char*>(text.data());
  const size_t size = text.size();
  uint64_t line = 1;
  const auto refuse = [&](const char* what, char32_t c, const char* format = "U+%04X") {
    char hex[16];
    std::snprintf(hex, sizeof hex, format, static_cast<unsigned>(c));
    usage_error(file + " line " + std::to_string(line) + ": not valid TOML: " + what + " (" + hex + ")");
  };
  const auto starts = [&](size_t at, std::string_view s) { return text.substr(at).starts_with(s); };
  size_t i = starts(0, "\xEF\xBB\xBF") ? 3 : 0;  // a byte order mark, which toml++ skips
  out.append(text.substr(0, i));
  while (i < size) {
    const size_t n = valid_utf8_sequence(p + i, size - i);
    if (n == 0) refuse("a byte that is not UTF-8", p[i], "0x%02X");
    const char c = text[i];
    if (n > 1) {
      const char32_t cp = code_point_of(p + i, n);
      if (in == In::bare) refuse("a non-ASCII character outside a string or comment", cp);
      if (in == In::multi_basic) {
        char escaped[16];
        if (cp <= 0xFFFF)
          std::snprintf(escaped, sizeof escaped, "\\u%04X", static_cast<unsigned>(cp));
        else
          std::snprintf(escaped, sizeof escaped, "\\U%08X", static_cast<unsigned>(cp));
        out += escaped;
      } else {
        out.append(text.substr(i, n));
      }
      i += n;
      continue;
    }
    if (c == '\n') ++line;
    size_t take = 1;
    switch (in) {
      case In::bare:
        if (c == '#') {
          in = In::comment;
        } else if (opens_string() && starts(i, "\"\"\"")) {
          in = In::multi_basic;
          take = 3;
        } else if (opens_string() && c == '"') {
          in = In::basic;
        } else if (opens_string() && starts(i, "'''")) {
          in = In::multi_literal;
          take = 3;
        } else if (opens_string() && c == '\'') {
          in = In::literal;
        } else {
          bare(c);
        }
        break;
      case In::comment:
        if (c == '\n') {
          in = In::bare;
          bare(c);
        }
        break;
      case In::basic:
      case In::multi_basic:
        if (c == '\\' && i + 1 < size) {
          const unsigned char next = p[i + 1];
          if (next >= 0x80) {
            const size_t m = valid_utf8_sequence(p + i + 1, size - i - 1);
            if (in == In::multi_basic && m > 1)
              refuse("an escape sequence that starts with a non-ASCII character",
                     code_point_of(p + i + 1, m));
            break;  // a single-line string's unknown escape is toml++'s to report; a byte not UTF-8 is
                    // refused next
          }
          if (next == '\n') ++line;
          take = 2;
        } else if (in == In::basic && (c == '"' || c == '\n')) {
          in = In::bare;
          last = c;
          if (c == '\n') bare(c);
        } else if (in == In::multi_basic && starts(i, "\"\"\"")) {
          take = 3;
          while (take < 5 && starts(i + take, "\""))
            ++take;  // up to two quotes end the content
          in = In::bare;
          last = c;
        }
        break;
      case In::literal:
        if (c == '\'' || c == '\n') {
          in = In::bare;
          last = c;
          if (c == '\n') bare(c);
        }
        break;
      case In::multi_literal:
        if (starts(i, "'''")) {
          take = 3;
          while (take < 5 && starts(i + take, "'"))
            ++take;
          in = In::bare;
          last = c;
        }
        break;
    }
    out.append(text.substr(i, take));
    i += take;
  }
  return out;
}

toml::table parse_toml_or_explain(std::string_view text, const std::string& file) {
  const std::string readable = text_toml_reads_safely(text, file);
  try {
    return toml::parse(readable, file);
  } catch (const toml::parse_error& e) {
    usage_error(policy_position(file, e.source()) + ": not valid TOML: " + std::string(e.description()));
  }
}

std::string resolved_path(const std::string& path) {
  std::error_code ec;
  const auto canonical = std::filesystem::canonical(path, ec);
  return ec ? std::string() : canonical.string();
}

// The repository root holding `dir`: the nearest directory with a `.git` entry ("" when none).
std::string repository_root(const std::string& dir) {
  std::string at = dir;
  while (!at.empty()) {
    struct stat st {};
    if (::stat((at + "/.git").c_str(), &st) == 0) return at;
    if (at == "/") break;
    const size_t slash = at.rfind('/');
    at = slash == 0 ? "/" : at.substr(0, slash);
  }
  return "";
}

// A repository's own `.csift-mcp.toml` with `[collect] disabled = true`. A file that does not parse switches
// collection off too: the repository asked for something, and reading its sessions anyway is the wrong guess.
PolicyVerdict repository_verdict(const std::string& dir) {
  const std::string root = repository_root(dir);
  if (root.empty()) return {};
  const std::string file = (root == "/" ? "" : root) + "/.csift-mcp.toml";
  std::ifstream in(file);
  if (!in) return {};
  std::stringstream text;
  text << in.rdbuf();
  try {
    const toml::table doc = parse_toml_or_explain(text.str(), file);
    const toml::table* collect = doc["collect"].as_table();
    if (collect && policy_bool(*collect, "disabled", file))
      return {"disabled", "the repository's " + file + " sets [collect] disabled"};
  } catch (const ToolError& e) {
    return {"disabled", std::string(e.what()) + " (collection stays off until it parses)"};
  }
  return {};
}

PolicyVerdict user_rules_verdict(const CollectPolicy& policy, const std::string& dir) {
  for (const std::string& entry : policy.deny_paths) {
    if (path_within(dir, entry)) return {"denied", dir + " lies within deny_paths entry " + entry};
  }
  if (policy.opt_in_only) {
    for (const std::string& entry : policy.opt_in_paths) {
      if (path_within(dir, entry)) return {};
    }
    return {"denied", dir + " lies outside every opt_in_paths entry and opt_in_only is set"};
  }
  return {};
}

}  // namespace

std::string policy_file_path(const Environment& env) {
  if (auto v = env.get("CSIFT_CONFIG"); v && !v->empty() && (*v)[0] == '/') return *v;
  if (auto v = env.get("XDG_CONFIG_HOME"); v && !v->empty() && (*v)[0] == '/')
    return *v + "/csift-mcp/config.toml";
  return home_dir(env) + "/.config/csift-mcp/config.toml";
}

CollectPolicy parse_collect_policy(std::string_view text, const std::string& file, const Environment& env) {
  CollectPolicy policy;
  policy.file = file;
  const toml::table doc = parse_toml_or_explain(text, file);
  const toml::node* collect_node = doc.get("collect");
  if (!collect_node) return policy;
  const toml::table* collect = collect_node->as_table();
  if (!collect)
    usage_error(policy_position(file, collect_node->source()) + ": collect must be a [collect] table");
  for (const auto& [key, value] : *collect) {
    const std::string_view k = key.str();
    if (k != "disabled" && k != "deny_paths" && k != "opt_in_paths" && k != "opt_in_only") {
      usage_error(policy_position(file, value.source()) + ": [collect] has no member " + std::string(k) +
                  "; it takes disabled, deny_paths, opt_in_paths and opt_in_only");
    }
  }
  policy.disabled = policy_bool(*collect, "disabled", file);
  policy.opt_in_only = policy_bool(*collect, "opt_in_only", file);
  policy.deny_paths = policy_paths(*collect, "deny_paths", file, env);
  policy.opt_in_paths = policy_paths(*collect, "opt_in_paths", file, env);
  return policy;
}

CollectPolicy load_collect_policy(const Environment& env) {
  const std::string file = policy_file_path(env);
  std::ifstream in(file);
  if (!in) return {};
  std::stringstream text;
  text << in.rdbuf();
  return parse_collect_policy(text.str(), file, env);
}

bool path_within(std::string_view dir, std::string_view entry) {
  if (entry == "/") return true;
  if (!dir.starts_with(entry)) return false;
  return dir.size() == entry.size() || dir[entry.size()] == '/';
}

PolicyVerdict check_directory(const CollectPolicy& policy, const std::string& dir) {
  if (policy.disabled) return {"disabled", "[collect] disabled is set in " + policy.file};
  CollectPolicy resolved = policy;
  for (auto* list : {&resolved.deny_paths, &resolved.opt_in_paths}) {
    for (std::string& entry : *list) {
      const std::string r = resolved_path(entry);
      if (!r.empty()) entry = r;
    }
  }
  const std::string dir_resolved = resolved_path(dir);
  for (const std::string* d : {&dir, &dir_resolved}) {
    if (d->empty()) continue;
    for (const CollectPolicy* p : {&policy, static_cast<const CollectPolicy*>(&resolved)}) {
      PolicyVerdict v = user_rules_verdict(*p, *d);
      if (v.state == "denied") return v;
    }
  }
  // opt_in_only: a directory is admitted when it lies within an entry in either form.
  if (policy.opt_in_only) {
    bool admitted = false;
    for (const std::string* d : {&dir, &dir_resolved})
      for (const CollectPolicy* p : {&policy, static_cast<const CollectPolicy*>(&resolved)})
        if (!d->empty() && user_rules_verdict(*p, *d).allowed()) admitted = true;
    if (!admitted) return {"denied", dir + " lies outside every opt_in_paths entry and opt_in_only is set"};
  }
  PolicyVerdict repo = repository_verdict(dir_resolved.empty() ? dir : dir_resolved);
  return repo;
}

PolicyVerdict check_directories(const CollectPolicy& policy, const std::vector<std::string>& dirs) {
  for (const std::string& dir : dirs) {
    PolicyVerdict v = check_directory(policy, dir);
    if (!v.allowed()) return v;
  }
  return {};
}

PolicyVerdict check_claude_encoded_dir(const CollectPolicy& policy, std::string_view encoded_name) {
  if (policy.disabled) return {"disabled", "[collect] disabled is set in " + policy.file};
  for (const std::string& entry : policy.deny_paths) {
    for (const std::string& form : {entry, resolved_path(entry)}) {
      if (form.empty()) continue;
      const std::string enc = encode_cwd(form);
      if (form == "/" || encoded_name == enc ||
          (encoded_name.starts_with(enc) && encoded_name[enc.size()] == '-')) {
        return {"denied", "the project directory " + std::string(encoded_name) +
                              " encodes a path within deny_paths entry " + entry +
                              " (checked before the open; a sibling sharing the prefix is refused too)"};
      }
    }
  }
  return {};
}

}  // namespace csift
