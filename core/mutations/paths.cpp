#include "core/mutations/paths.h"

#include <filesystem>

namespace csift {
namespace {

bool path_is_letter(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}
bool path_is_sep(char c) {
  return c == '/' || c == '\\';
}
char path_upper(char c) {
  return c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c;
}
char path_lower(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

// `X:` at the start: a drive letter (absolute with a separator after it, drive-relative without).
bool has_drive(std::string_view p) {
  return p.size() >= 2 && path_is_letter(p[0]) && p[1] == ':';
}

// Git-Bash's `/c` or `/c/…`: the drive letter it names, or 0.
char git_bash_drive(std::string_view p) {
  if (p.size() >= 2 && p[0] == '/' && path_is_letter(p[1]) && (p.size() == 2 || p[2] == '/')) return p[1];
  return 0;
}

// `.`, `..` and empty components of `rest` (split at both separators) folded onto `parts`; `..` never climbs
// above the root.
void fold_components(std::string_view rest, std::vector<std::string_view>& parts, bool any_separator) {
  size_t i = 0;
  while (i <= rest.size()) {
    size_t j = i;
    while (j < rest.size() && !(rest[j] == '/' || (any_separator && rest[j] == '\\')))
      ++j;
    const std::string_view part = rest.substr(i, j - i);
    if (part == "..") {
      if (!parts.empty()) parts.pop_back();
    } else if (!part.empty() && part != ".") {
      parts.push_back(part);
    }
    i = j + 1;
  }
}

std::string posix_normal(std::string_view path) {
  std::vector<std::string_view> parts;
  fold_components(path, parts, false);
  std::string out;
  for (std::string_view p : parts) {
    out += '/';
    out += p;
  }
  return out.empty() ? "/" : out;
}

// `root` (`D:\` or `\\server\share\`) and the folded components of `rest`, joined by backslashes.
std::string windows_join(std::string root, std::string_view rest) {
  std::vector<std::string_view> parts;
  fold_components(rest, parts, true);
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i) root += '\\';
    root += parts[i];
  }
  return root;
}

// The Windows normal form of an absolute Windows path (`X:…`, UNC, or Git-Bash `/x/…`); nullopt otherwise.
std::optional<std::string> windows_normal(std::string_view p) {
  if (has_drive(p) && (p.size() == 2 || path_is_sep(p[2])))
    return windows_join(std::string{path_upper(p[0]), ':', '\\'}, p.substr(2));
  if (const char d = git_bash_drive(p))
    return windows_join(std::string{path_upper(d), ':', '\\'}, p.substr(2));
  if (p.size() > 2 && path_is_sep(p[0]) && path_is_sep(p[1]) && !path_is_sep(p[2])) {
    // UNC: \\server\share is the root
    std::vector<std::string_view> parts;
    fold_components(p.substr(2), parts, true);
    if (parts.size() < 2) return std::nullopt;
    std::string root = "\\\\" + std::string(parts[0]) + "\\" + std::string(parts[1]) + "\\";
    std::string out = root;
    for (size_t i = 2; i < parts.size(); ++i)
      out += (i > 2 ? "\\" : "") + std::string(parts[i]);
    return out;
  }
  return std::nullopt;
}

// The root of a normalised Windows path: `D:\` or `\\server\share\`.
std::string windows_root(std::string_view normal) {
  if (has_drive(normal)) return std::string(normal.substr(0, 2)) + "\\";
  const size_t server_end = normal.find('\\', 2);
  const size_t share_end =
      server_end == std::string_view::npos ? server_end : normal.find('\\', server_end + 1);
  return share_end == std::string_view::npos ? std::string(normal) + "\\"
                                             : std::string(normal.substr(0, share_end + 1));
}

std::optional<std::string> resolve_windows(std::string_view path, std::string_view cwd) {
  if (auto abs = windows_normal(path)) return abs;
  const auto base = windows_normal(cwd);
  if (!base) return std::nullopt;
  if (has_drive(path)) {  // `X:rel`: relative to the cwd only when the cwd is on drive X
    if (!has_drive(*base) || path_upper(path[0]) != (*base)[0]) return std::nullopt;
    return windows_normal(*base + "\\" + std::string(path.substr(2)));
  }
  if (path.front() == '\\')
    return windows_normal(windows_root(*base) + std::string(path));  // the cwd's drive
  if (path.front() == '/') return std::nullopt;  // Git-Bash's own tree (/tmp, /usr): not knowable here
  return windows_normal(*base + "\\" + std::string(path));
}

}  // namespace

bool windows_absolute_spelling(std::string_view p) {
  return (has_drive(p) && (p.size() == 2 || path_is_sep(p[2]))) || p.starts_with("\\\\");
}

bool windows_cwd(std::string_view cwd) {
  return windows_absolute_spelling(cwd) ||
         (!cwd.empty() && cwd.front() != '/' && cwd.find('\\') != std::string_view::npos);
}

bool is_windows_path(std::string_view normalised) {
  return windows_absolute_spelling(normalised);
}

std::string normalize_path(const std::string& path) {
  if (windows_absolute_spelling(path))
    if (auto w = windows_normal(path)) return *w;
  return posix_normal(path);
}

std::optional<std::string> resolve_path(const std::string& path, const std::string& cwd) {
  if (path.empty()) return std::nullopt;
  if (windows_absolute_spelling(path) || windows_cwd(cwd)) return resolve_windows(path, cwd);
  if (path.front() == '/') return posix_normal(path);
  if (cwd.empty() || cwd.front() != '/') return std::nullopt;
  return posix_normal(cwd + "/" + path);
}

std::string join_path(const std::string& base, const std::string& path) {
  if (auto p = resolve_path(path, base)) return *p;
  return posix_normal(base + "/" + path);
}

bool is_absolute_path(std::string_view path, std::string_view cwd) {
  if (windows_absolute_spelling(path)) return true;
  if (windows_cwd(cwd)) return git_bash_drive(path) != 0;
  return !path.empty() && path.front() == '/';
}

std::string absolute_target_path(const std::string& path) {
  if (windows_absolute_spelling(path))
    if (auto w = windows_normal(path)) return *w;
  if (!path.empty() && path.front() == '/') return posix_normal(path);
  std::error_code ec;
  return posix_normal(std::filesystem::absolute(path, ec).string());
}

std::string path_key(const std::string& normalised) {
  if (!is_windows_path(normalised)) return normalised;
  std::string key = normalised;
  for (char& c : key)
    c = path_lower(c);
  return key;
}

std::vector<std::string> target_path_keys(const std::string& normalised) {
  std::vector<std::string> keys{path_key(normalised)};
  if (git_bash_drive(normalised))
    if (auto w = windows_normal(normalised)) keys.push_back(path_key(*w));
  return keys;
}

std::optional<std::string> path_parent(const std::string& normalised) {
  if (is_windows_path(normalised)) {
    const std::string root = windows_root(normalised);
    if (normalised.size() <= root.size()) return root;
    const size_t sep = normalised.rfind('\\');
    return sep < root.size() ? root : normalised.substr(0, sep);
  }
  if (normalised.empty() || normalised.front() != '/') return std::nullopt;
  const size_t slash = normalised.rfind('/');
  return slash == 0 ? "/" : normalised.substr(0, slash);
}

}  // namespace csift
