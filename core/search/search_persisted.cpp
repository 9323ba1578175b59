// --resolve-persisted (SPEC.md §9.2): a tool_result Claude Code externalised carries a <persisted-output>
// pointer, or (an MCP result too large to hand the model) "Output has been saved to <path>."; the saved file
// is the ONLY file outside the transcript search reads, and only on demand. A path written on another machine
// (or under another home) is mapped onto this store by its part after `projects/`. Every failure becomes a
// note, never an error.
//
// The pointer is transcript data, so it is not trusted: only a regular file inside the Claude home (where
// Claude Code writes persisted output) is read, opened non-blocking and at most kMaxPersistedBytes of it.
// `/etc/passwd`, `/dev/zero` or a FIFO named by a transcript is reported, never read.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>

#include "core/search/search_persisted.h"

#include "core/harness/claude_code/claude_fields.h"

namespace csift {
namespace {

std::string pointer_path(const Record& r, const Unit& u) {
  if (std::string path = persisted_output_path(r); !path.empty()) return path;
  if (std::string path = mcp_saved_output_path(u.text); !path.empty()) return path;
  static constexpr std::string_view kSaved = "Full output saved to: ";
  const size_t at = u.text.find(kSaved);
  if (at == std::string::npos) return "";
  const size_t begin = at + kSaved.size();
  const size_t end = u.text.find('\n', begin);
  return u.text.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
}

std::string real_path(const std::string& path) {
  char buf[PATH_MAX];
  return ::realpath(path.c_str(), buf) ? std::string(buf) : std::string();
}

// The file's content, or nullopt with `why` set, and `refused` when the path names something that exists
// (only a missing path is not a refusal). `home` is the canonical Claude home.
std::optional<std::string> read_persisted_file(const std::string& path, const std::string& home,
                                               std::string& why, bool& refused) {
  const std::string real = real_path(path);
  if (real.empty()) {
    refused = errno != ENOENT && errno != ENOTDIR;
    why = std::strerror(errno);
    return std::nullopt;
  }
  refused = true;  // it exists: every failure below is a file left unread
  if (home.empty() || real.compare(0, home.size() + 1, home + "/") != 0) {
    why = "outside the Claude home " + (home.empty() ? std::string("(not found)") : home) + ", not read";
    return std::nullopt;
  }
  const int fd = ::open(real.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) {
    why = std::strerror(errno);
    return std::nullopt;
  }
  struct stat st {};
  std::optional<std::string> out;
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    why = "not a regular file, not read";
  } else if (static_cast<uint64_t>(st.st_size) > kMaxPersistedBytes) {
    why = "larger than " + std::to_string(kMaxPersistedBytes >> 20) + " MiB (" + std::to_string(st.st_size) +
          " bytes), not read";
  } else {
    std::string text(static_cast<size_t>(st.st_size), '\0');
    size_t got = 0;
    while (got < text.size()) {
      const ssize_t n = ::read(fd, text.data() + got, text.size() - got);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      got += static_cast<size_t>(n);
    }
    text.resize(got);  // a file that shrank meanwhile: what it held
    out = std::move(text);
  }
  ::close(fd);
  return out;
}

}  // namespace

std::optional<std::string> resolve_persisted_output(const Record& r, const Unit& u,
                                                    const std::string& projects_root, std::string* note,
                                                    bool* refused) {
  *refused = false;
  const std::string path = pointer_path(r, u);
  if (path.empty()) {
    *note = "the saved-output pointer names no file";
    return std::nullopt;
  }
  const std::string home = real_path(projects_root + "/..");
  std::string why;
  if (auto content = read_persisted_file(path, home, why, *refused)) return content;
  static constexpr std::string_view kProjects = "/projects/";
  const size_t at = path.rfind(kProjects);
  if (at != std::string::npos) {
    const std::string mapped = projects_root + "/" + path.substr(at + kProjects.size());
    std::string mapped_why;
    bool mapped_refused = false;
    if (auto content = read_persisted_file(mapped, home, mapped_why, mapped_refused)) {
      *refused = false;  // the file the pointer meant, found under this store, was read
      return content;
    }
    *refused = *refused || mapped_refused;
    *note = "cannot read the persisted output " + path + " (" + why + "), nor " + mapped + " (" + mapped_why +
            ")";
    return std::nullopt;
  }
  *note = "cannot read the persisted output " + path + " (" + why + ")";
  return std::nullopt;
}

}  // namespace csift
