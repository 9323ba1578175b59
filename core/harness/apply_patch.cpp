#include "core/harness/apply_patch.h"

#include "core/base/text.h"

#include <vector>

namespace csift {

namespace {

// Blanks and line ends around a patch line (not every isspace byte: a \v or \f is the patch's own).
std::string_view ap_trim_blank(std::string_view s) {
  return trim(s, " \t\r\n");
}

// Rust's str::lines: split at '\n', a trailing "\r" dropped from each line, no final empty line.
std::vector<std::string_view> ap_lines(std::string_view text) {
  std::vector<std::string_view> out;
  size_t at = 0;
  while (at < text.size()) {
    size_t nl = text.find('\n', at);
    if (nl == std::string_view::npos) nl = text.size();
    std::string_view line = text.substr(at, nl - at);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    out.push_back(line);
    at = nl + 1;
  }
  return out;
}

bool ap_marker(std::string_view line, std::string_view marker, std::string_view* rest = nullptr) {
  const std::string_view t = ap_trim_blank(line);
  if (!t.starts_with(marker)) return false;
  if (rest) *rest = t.substr(marker.size());
  return true;
}

bool ap_is_heredoc_open(std::string_view line) {
  return line == "<<EOF" || line == "<<'EOF'" || line == "<<\"EOF\"";
}

}  // namespace

void parse_apply_patch(std::string_view text, ToolEdits& out) {
  out.files.clear();
  std::vector<std::string_view> lines = ap_lines(ap_trim_blank(text));
  // a heredoc wrapper around the patch, as a model writes it for a shell
  if (lines.size() >= 4 && ap_is_heredoc_open(ap_trim_blank(lines.front())) &&
      ap_trim_blank(lines.back()).ends_with("EOF"))
    lines = std::vector<std::string_view>(lines.begin() + 1, lines.end() - 1);
  if (lines.empty() || ap_trim_blank(lines.front()) != "*** Begin Patch") {
    out.error = "the first line of the patch must be '*** Begin Patch'";
    return;
  }
  if (lines.size() < 2 || ap_trim_blank(lines.back()) != "*** End Patch") {
    out.error = "the last line of the patch must be '*** End Patch'";
    return;
  }
  std::vector<ToolEdit> files;
  size_t i = 1;
  const size_t end = lines.size() - 1;
  while (i < end) {
    std::string_view path;
    if (ap_marker(lines[i], "*** Add File: ", &path)) {
      ToolEdit e;
      e.kind = ToolEditKind::write;
      e.create = true;
      e.path = std::string(path);
      ++i;
      while (i < end && lines[i].starts_with("+")) {
        e.content.append(lines[i].substr(1));
        e.content += '\n';
        ++i;
      }
      files.push_back(std::move(e));
    } else if (ap_marker(lines[i], "*** Delete File: ", &path)) {
      ToolEdit e;
      e.kind = ToolEditKind::remove;
      e.path = std::string(path);
      files.push_back(std::move(e));
      ++i;
    } else if (ap_marker(lines[i], "*** Update File: ", &path)) {
      ToolEdit e;
      e.kind = ToolEditKind::patch;
      e.path = std::string(path);
      ++i;
      std::string_view to;
      if (i < end && ap_marker(lines[i], "*** Move to: ", &to)) {
        e.move_to = std::string(to);
        ++i;
      }
      // chunks until the next file hunk
      while (i < end && !lines[i].starts_with("***")) {
        if (ap_trim_blank(lines[i]).empty()) {  // blank lines between chunks
          ++i;
          continue;
        }
        PatchChunk c;
        if (lines[i] == "@@") {
          ++i;
        } else if (lines[i].starts_with("@@ ")) {
          c.context = std::string(lines[i].substr(3));
          ++i;
        } else if (!e.chunks.empty()) {
          out.error = "expected an '@@' line in the update of " + e.path;
          return;
        }
        size_t taken = 0;
        while (i < end) {
          const std::string_view l = lines[i];
          if (l == "*** End of File") {
            c.end_of_file = true;
            ++i;
            break;
          }
          if (l.empty()) {
            c.old_lines.emplace_back();
            c.new_lines.emplace_back();
          } else if (l[0] == ' ') {
            c.old_lines.emplace_back(l.substr(1));
            c.new_lines.emplace_back(l.substr(1));
          } else if (l[0] == '-') {
            c.old_lines.emplace_back(l.substr(1));
          } else if (l[0] == '+') {
            c.new_lines.emplace_back(l.substr(1));
          } else {
            if (taken == 0) {
              out.error = "an update chunk of " + e.path + " has no lines";
              return;
            }
            break;
          }
          ++taken;
          ++i;
        }
        if (taken == 0) {
          out.error = "an update chunk of " + e.path + " has no lines";
          return;
        }
        e.chunks.push_back(std::move(c));
      }
      if (e.chunks.empty()) {
        out.error = "the update of " + e.path + " is empty";
        return;
      }
      files.push_back(std::move(e));
    } else {
      out.error = "'" + std::string(ap_trim_blank(lines[i])) + "' is not a valid file hunk header";
      return;
    }
  }
  out.files = std::move(files);
}

std::string apply_patch_in_command(std::string_view command) {
  std::string_view s = ap_trim_blank(command);
  for (std::string_view name : {"apply_patch", "applypatch"}) {
    if (!s.starts_with(name)) continue;
    std::string_view rest = ap_trim_blank(s.substr(name.size()));
    if (!rest.starts_with("<<")) return "";
    const size_t nl = rest.find('\n');
    if (nl == std::string_view::npos) return "";
    std::string_view delim = ap_trim_blank(rest.substr(2, nl - 2));
    if (delim.size() >= 2 && (delim.front() == '\'' || delim.front() == '"') && delim.back() == delim.front())
      delim = delim.substr(1, delim.size() - 2);
    if (delim.empty()) return "";
    std::string_view body = rest.substr(nl + 1);
    const std::string closing = "\n" + std::string(delim);
    const size_t close = body.rfind(closing);
    if (close == std::string_view::npos) return "";
    if (!ap_trim_blank(body.substr(close + closing.size())).empty()) return "";
    return std::string(body.substr(0, close + 1));
  }
  return "";
}

}  // namespace csift
