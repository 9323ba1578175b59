#include "tools/files/path_filter.h"

#include <algorithm>

#include "core/base/arg_ref.h"
#include "core/base/error.h"
#include "core/mutations/paths.h"

namespace csift {
namespace {

// [...] at p[0]; returns whether c is in the class and sets `len` to the class's length (0: not a class).
bool class_matches(std::string_view p, char c, size_t& len) {
  size_t i = 1;
  const bool negate = i < p.size() && (p[i] == '!' || p[i] == '^');
  if (negate) ++i;
  bool hit = false;
  for (bool first = true; i < p.size() && (first || p[i] != ']'); ++i, first = false) {
    if (i + 2 < p.size() && p[i + 1] == '-' && p[i + 2] != ']') {
      hit = hit || (c >= p[i] && c <= p[i + 2]);
      i += 2;
    } else {
      hit = hit || c == p[i];
    }
  }
  if (i >= p.size()) {
    len = 0;
    return false;
  }
  len = i + 1;
  return hit != negate && c != '/';
}

}  // namespace

bool glob_matches(std::string_view p, std::string_view s) {
  if (p.empty()) return s.empty();
  if (p.starts_with("**")) {
    std::string_view rest = p.substr(2);
    // `**/` also matches no directory at all.
    if (rest.starts_with("/") && glob_matches(rest.substr(1), s)) return true;
    for (size_t i = 0; i <= s.size(); ++i)
      if (glob_matches(rest, s.substr(i))) return true;
    return false;
  }
  if (p[0] == '*') {
    for (size_t i = 0; i <= s.size(); ++i) {
      if (glob_matches(p.substr(1), s.substr(i))) return true;
      if (i < s.size() && s[i] == '/') break;
    }
    return false;
  }
  if (s.empty()) return false;
  if (p[0] == '[') {
    size_t len = 0;
    const bool hit = class_matches(p, s[0], len);
    if (len > 0) return hit && glob_matches(p.substr(len), s.substr(1));
  }
  if (p[0] == '?') return s[0] != '/' && glob_matches(p.substr(1), s.substr(1));
  if (p[0] == '\\' && p.size() > 1) return p[1] == s[0] && glob_matches(p.substr(2), s.substr(1));
  return p[0] == s[0] && glob_matches(p.substr(1), s.substr(1));
}

PathFilter PathFilter::from_args(const json& args) {
  PathFilter f;
  if (args.contains("regex") && args["regex"].is_string() && !args["regex"].get<std::string>().empty()) {
    try {
      f.regex_ = CompiledPattern::compile(args["regex"].get<std::string>(), RegexOptions{});
    } catch (const ToolError& e) {
      usage_error(arg_ref("regex") + ": " + e.what());
    }
  }
  if (args.contains("glob") && args["glob"].is_string()) {
    const std::string g = args["glob"].get<std::string>();
    if (g.empty()) usage_error(arg_ref("glob") + " is empty: give a pattern such as **/src/**");
    size_t open = 0;
    for (size_t i = 0; i < g.size(); ++i) {
      if (g[i] == '\\')
        ++i;
      else if (g[i] == '[')
        open = i + 1;
      else if (g[i] == ']' && open)
        open = 0;
    }
    if (open) usage_error(arg_ref("glob") + " has an unclosed [ class: " + g);
    f.glob_ = g;
  }
  return f;
}

bool PathFilter::admits(const std::string& path) const {
  if (glob_) {
    // a Windows path's components are split by backslashes: the glob walks them as it walks '/'
    std::string walked = path;
    if (is_windows_path(path)) std::replace(walked.begin(), walked.end(), '\\', '/');
    if (!glob_matches(*glob_, walked)) return false;
  }
  if (regex_) {
    Matcher m(regex_);
    if (m.is_match(path) != MatchStatus::match) return false;
  }
  return true;
}

}  // namespace csift
