// --resolve-persisted (SPEC.md §9.2): a tool_result Claude Code externalised carries a <persisted-output>
// pointer; the saved file is the ONLY file outside the transcript search reads, and only on demand. A path
// written on another machine (or under another home) is mapped onto this store by its part after
// `projects/`. Every failure becomes a note, never an error.
#include <fstream>
#include <sstream>

#include "core/harness/claude_code/claude_fields.h"
#include "tools/common/record_render.h"
#include "tools/search/search_scan.h"

namespace csift {
namespace {

std::string pointer_path(const Record& r, const Unit& u) {
  if (std::string path = persisted_output_path(r); !path.empty()) return path;
  static constexpr std::string_view kSaved = "Full output saved to: ";
  const size_t at = u.text.find(kSaved);
  if (at == std::string::npos) return "";
  const size_t begin = at + kSaved.size();
  const size_t end = u.text.find('\n', begin);
  return u.text.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
}

std::optional<std::string> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

std::optional<std::string> resolve_persisted_output(const Record& r, const Unit& u,
                                                    const std::string& projects_root, std::string* note) {
  const std::string path = pointer_path(r, u);
  if (path.empty()) {
    *note = "the <persisted-output> pointer names no file";
    return std::nullopt;
  }
  if (auto content = read_file(path)) return content;
  static constexpr std::string_view kProjects = "/projects/";
  const size_t at = path.rfind(kProjects);
  if (at != std::string::npos) {
    const std::string mapped = projects_root + "/" + path.substr(at + kProjects.size());
    if (auto content = read_file(mapped)) return content;
    *note = "cannot read the persisted output " + path + " (nor " + mapped + ")";
    return std::nullopt;
  }
  *note = "cannot read the persisted output " + path;
  return std::nullopt;
}

}  // namespace csift
