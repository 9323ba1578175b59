// How a path a tool recorded names a file (SPEC.md §9.7 "Paths"): the one rule every reader of file paths
// (`files`, `recover`, `plan`, the Bash reading) resolves and compares them by. A transcript may have been
// written on POSIX or on Windows; the platform is read from the path's own spelling (a drive letter, a UNC
// prefix) or else from the cwd of the record that used it (a cwd with a drive letter or a backslash is
// Windows). A Windows path is absolute with a drive letter (`D:\x`, `D:/x`), as UNC (`\\server\share\x`) or,
// under a Windows cwd, in Git-Bash's spelling (`/d/x`); it is normalised to backslashes and an upper-case
// drive letter, and compared case-insensitively (its key is lower-cased). A POSIX path is normalised by
// folding `.`,
// `..` and repeated slashes and compared byte for byte. Nothing here touches the disk.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace csift {

// A Windows spelling that is absolute by itself: `X:\…`, `X:/…`, `X:` alone, or UNC `\\server\share…`.
bool windows_absolute_spelling(std::string_view path);
// The cwd of a record that ran on Windows: a Windows absolute spelling, or (not starting with '/') a
// backslash.
bool windows_cwd(std::string_view cwd);

// Lexical normalisation of an absolute path: a Windows spelling in Windows' normal form, anything else with
// `.`, `..` and repeated slashes folded (POSIX).
std::string normalize_path(const std::string& path);
// `path` as the record with `cwd` meant it: absolute stays (normalised), relative is joined to `cwd`.
// nullopt when the path cannot be resolved: relative with no usable cwd, a drive-relative `X:x` on another
// drive than the cwd's, or a rooted non-drive path under a Windows cwd (Git-Bash's `/tmp` is not knowable).
std::optional<std::string> resolve_path(const std::string& path, const std::string& cwd);
// resolve_path, or when it cannot resolve, `base` + "/" + `path` folded the POSIX way (plan settings).
std::string join_path(const std::string& base, const std::string& path);
// An absolute, normalised spelling of a path a caller named (relative: to the process cwd), as recover and
// plan compare it with the paths a transcript recorded.
std::string absolute_target_path(const std::string& path);
// Is a path absolute as the record with `cwd` would read it?
bool is_absolute_path(std::string_view path, std::string_view cwd);

// The comparison key of a normalised path: a Windows path lower-cased (ASCII), a POSIX path itself.
std::string path_key(const std::string& normalised);
// Is a normalised path a Windows one (its key folds case)?
bool is_windows_path(std::string_view normalised);
// The keys a path a caller named matches: its own, plus for a POSIX `/c/…` the Windows file Git-Bash names
// so.
std::vector<std::string> target_path_keys(const std::string& normalised);
// The directory holding a normalised absolute path (`/a/b` → `/a`, `D:\a\b` → `D:\a`, `D:\a` → `D:\`), or
// nullopt when the path is not absolute.
std::optional<std::string> path_parent(const std::string& normalised);

}  // namespace csift
