#include "core/harness/harness_listing.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "core/cache/file_stamp.h"

namespace csift {

namespace fs = std::filesystem;

std::optional<StoreRoot> store_root_from(const Environment& env, const char* var, std::string_view under,
                                         std::string_view home_default) {
  if (auto v = env.get(var); v && !v->empty() && (*v)[0] == '/') {
    std::string path = *v;
    if (!under.empty()) path += "/" + std::string(under);
    return StoreRoot{path, "$" + std::string(var)};
  }
  const std::string home = home_dir(env);
  if (home.empty()) return std::nullopt;
  return StoreRoot{home + "/" + std::string(home_default), "default ~/" + std::string(home_default)};
}

std::vector<DirEntry> list_store_dir(const std::string& dir, std::vector<StoreProblem>& problems) {
  std::vector<DirEntry> out;
  std::error_code ec;
  fs::directory_iterator it(dir, ec);
  if (ec) {
    problems.push_back({dir, "store directory cannot be listed: " + ec.message()});
    return out;
  }
  for (fs::directory_iterator end; it != end; it.increment(ec)) {
    if (ec) {
      problems.push_back({dir, "store directory listing failed: " + ec.message()});
      break;
    }
    DirEntry e;
    e.name = it->path().filename().string();
    e.path = it->path().string();
    std::error_code sec;
    const fs::file_status st = fs::status(it->path(), sec);
    e.is_dir = !sec && fs::is_directory(st);
    e.is_regular = !sec && fs::is_regular_file(st);
    out.push_back(std::move(e));
  }
  std::sort(out.begin(), out.end(), [](const DirEntry& a, const DirEntry& b) { return a.name < b.name; });
  return out;
}

Transcript harness_transcript(std::string_view harness, const std::string& path,
                              const std::string& session_id, const std::string& store_dir) {
  Transcript t;
  t.harness = *harness_id_named(harness);
  t.path = path;
  t.project_dir = store_dir;
  t.id = harness_ref(harness, session_id);
  t.session_id = t.id;
  // Size and mtime as stat(2) gives them, through the one conversion every stamp takes: the filesystem
  // library's file_clock has another epoch than the system clock.
  if (const std::optional<FileStamp> st = stamp_file(path)) {
    t.size = st->size;
    t.mtime_ns = st->mtime_ns;
  }
  return t;
}

StoreProblem unsupported_format(const std::string& path, const std::string& why) {
  return {path, "unsupported-format: " + why};
}

}  // namespace csift
