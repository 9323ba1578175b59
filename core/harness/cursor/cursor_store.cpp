#include "core/harness/cursor/cursor_store.h"

#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "core/cache/file_stamp.h"

namespace csift {

namespace {

bool cursor_ends_with(std::string_view s, std::string_view tail) {
  return s.size() >= tail.size() && s.substr(s.size() - tail.size()) == tail;
}

// The entries of `dir` (no `.`/`..`), sorted; nullopt with a problem when it exists but cannot be listed.
std::optional<std::vector<std::string>> cursor_list(const std::string& dir,
                                                    std::vector<StoreProblem>& problems) {
  DIR* d = ::opendir(dir.c_str());
  if (!d) {
    if (errno != ENOENT && errno != ENOTDIR)
      problems.push_back({dir, "cannot list: " + std::string(std::strerror(errno))});
    return std::nullopt;
  }
  std::vector<std::string> out;
  while (const dirent* e = ::readdir(d)) {
    const std::string name = e->d_name;
    if (name != "." && name != "..") out.push_back(name);
  }
  ::closedir(d);
  std::sort(out.begin(), out.end());
  return out;
}

bool cursor_is_dir(const std::string& p) {
  struct stat st {};
  return ::stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

void cursor_add(CursorStore& out, const std::string& path, const std::string& id, const std::string& slug) {
  if (auto why = irregular_entry_reason(path)) {
    out.problems.push_back({path, *why});
    return;
  }
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    out.problems.push_back({path, "cannot stat: " + std::string(std::strerror(errno))});
    return;
  }
  CursorSession s;
  s.transcript.harness = HarnessId::cursor;
  s.transcript.path = path;
  s.conversation_id = id;
  s.transcript.id = std::string(kCursorHarness) + ":" + id;
  s.transcript.session_id = s.transcript.id;
  s.transcript.size = static_cast<uint64_t>(st.st_size);
  s.transcript.mtime_ns = stamp_of_stat(st).mtime_ns;
  s.mtime_ms = s.transcript.mtime_ns / 1000000;
  s.project_slug = slug;
  out.sessions.push_back(std::move(s));
}

// One conversation folder `<id>/`: its `<id>.jsonl`, and its sub-agents' transcripts (counted).
void cursor_conversation_dir(CursorStore& out, const std::string& dir, const std::string& id,
                             const std::string& slug) {
  const std::string main = dir + "/" + id + ".jsonl";
  struct stat st {};
  if (::lstat(main.c_str(), &st) == 0)
    cursor_add(out, main, id, slug);
  else
    out.problems.push_back({dir, "conversation folder without its " + id + ".jsonl transcript"});
  if (auto subs = cursor_list(dir + "/subagents", out.problems))
    for (const std::string& s : *subs)
      out.subagent_transcripts += cursor_ends_with(s, ".jsonl");
}

void cursor_transcripts_dir(CursorStore& out, const std::string& dir, const std::string& slug) {
  const auto entries = cursor_list(dir, out.problems);
  if (!entries) return;
  for (const std::string& name : *entries) {
    const std::string path = dir + "/" + name;
    if (cursor_ends_with(name, ".jsonl")) {
      cursor_add(out, path, name.substr(0, name.size() - 6), slug);
    } else if (cursor_ends_with(name, ".txt")) {
      out.problems.push_back({path,
                              "unsupported-format: a plain-text Cursor transcript (older IDE releases), "
                              "not read"});
    } else if (cursor_is_dir(path)) {
      cursor_conversation_dir(out, path, name, slug);
    }
  }
}

// Cursor's CLI chat stores (`chats/<workspace hash>/<id>/store.db`): undocumented, never read, counted once.
void cursor_note_chat_stores(CursorStore& out) {
  std::vector<StoreProblem> ignored;
  const std::string chats = out.root + "/chats";
  const auto buckets = cursor_list(chats, ignored);
  if (!buckets) return;
  uint64_t stores = 0;
  for (const std::string& b : *buckets)
    if (auto ids = cursor_list(chats + "/" + b, ignored))
      for (const std::string& id : *ids) {
        struct stat st {};
        stores += ::stat((chats + "/" + b + "/" + id + "/store.db").c_str(), &st) == 0;
      }
  if (stores)
    out.problems.push_back(
        {chats, "unsupported-format: " + std::to_string(stores) +
                    " store.db chat store(s), Cursor's undocumented SQLite/protobuf format, not "
                    "read (their conversations are read from agent-transcripts when Cursor "
                    "wrote one)"});
}

}  // namespace

CursorLocation locate_cursor_store(const Environment& env) {
  return {home_dir(env) + "/.cursor", "default ~/.cursor"};
}

CursorStore list_cursor_store(const std::string& root) {
  CursorStore out;
  out.root = root;
  const std::string projects = root + "/projects";
  if (const auto slugs = cursor_list(projects, out.problems)) {
    for (const std::string& slug : *slugs) {
      const std::string dir = projects + "/" + slug + "/agent-transcripts";
      if (cursor_is_dir(dir)) cursor_transcripts_dir(out, dir, slug);
    }
  }
  cursor_note_chat_stores(out);
  std::sort(out.sessions.begin(), out.sessions.end(), [](const CursorSession& a, const CursorSession& b) {
    return a.transcript.path < b.transcript.path;
  });
  return out;
}

void list_cursor_transcripts(const std::string& root, std::vector<Transcript>& transcripts,
                             std::vector<StoreProblem>& problems) {
  CursorStore store = list_cursor_store(root);
  for (CursorSession& s : store.sessions)
    transcripts.push_back(std::move(s.transcript));
  for (StoreProblem& p : store.problems)
    problems.push_back(std::move(p));
}

CursorStore list_cursor_sessions(const Environment& env) {
  return list_cursor_store(locate_cursor_store(env).path);
}

}  // namespace csift
