#include "tools/export/export.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <set>

#include "core/base/arg_ref.h"
#include "core/base/error.h"
#include "core/store/retention.h"
#include "tools/common/scope_args.h"
#include "tools/common/unread_report.h"
#include "tools/common/write_destination.h"
#include "tools/plan/plan_binding.h"

namespace csift {
namespace {

namespace fs = std::filesystem;

// What one session's export did.
struct Tally {
  size_t files = 0, copied = 0, skipped = 0;
  uint64_t bytes_copied = 0;
  json not_copied = json::array();
};

std::string errno_text(int e) {
  return std::strerror(e);
}

// Copies `src` to `dst` unless `dst` already has its size and mtime; the copy gets the source's atime and
// mtime (taken before the read: a file that grows meanwhile differs from its copy's stamp and is copied
// again next time). Written beside `dst` and renamed over it, so an interrupted export leaves no torn copy.
void copy_one(const std::string& src, const std::string& dst, Tally& t) {
  ++t.files;
  struct stat s {};
  if (::stat(src.c_str(), &s) != 0) {
    t.not_copied.push_back({{"path", src}, {"reason", errno_text(errno)}});
    return;
  }
  if (!S_ISREG(s.st_mode)) {
    t.not_copied.push_back({{"path", src}, {"reason", "not a regular file"}});
    return;
  }
  struct stat d {};
  if (::stat(dst.c_str(), &d) == 0 && S_ISREG(d.st_mode) && d.st_size == s.st_size &&
      d.st_mtim.tv_sec == s.st_mtim.tv_sec && d.st_mtim.tv_nsec == s.st_mtim.tv_nsec) {
    ++t.skipped;
    return;
  }
  std::error_code ec;
  fs::create_directories(fs::path(dst).parent_path(), ec);
  if (ec) {
    t.not_copied.push_back(
        {{"path", src},
         {"reason", "cannot create " + fs::path(dst).parent_path().string() + ": " + ec.message()}});
    return;
  }
  const int in = ::open(src.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (in < 0) {
    t.not_copied.push_back({{"path", src}, {"reason", errno_text(errno)}});
    return;
  }
  const std::string tmp = dst + ".csift-export-tmp";
  const int out = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (out < 0) {
    const int e = errno;
    ::close(in);
    t.not_copied.push_back({{"path", src}, {"reason", "cannot write " + tmp + ": " + errno_text(e)}});
    return;
  }
  std::string reason;
  uint64_t bytes = 0;
  char buf[1 << 16];
  for (;;) {
    const ssize_t n = ::read(in, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      reason = errno_text(errno);
      break;
    }
    if (n == 0) break;
    for (ssize_t off = 0; off < n;) {
      const ssize_t w = ::write(out, buf + off, static_cast<size_t>(n - off));
      if (w < 0 && errno == EINTR) continue;
      if (w < 0) {
        reason = "cannot write " + tmp + ": " + errno_text(errno);
        break;
      }
      off += w;
    }
    if (!reason.empty()) break;
    bytes += static_cast<uint64_t>(n);
  }
  // The copy is as private as its source (a transcript is often 0600 and can hold secrets), whatever the
  // umask.
  if (reason.empty() && ::fchmod(out, s.st_mode & 0777) != 0)
    reason = "cannot set the mode of " + tmp + ": " + errno_text(errno);
  const struct timespec times[2] = {s.st_atim, s.st_mtim};
  if (reason.empty() && ::futimens(out, times) != 0)
    reason = "cannot stamp " + tmp + ": " + errno_text(errno);
  if (::close(out) != 0 && reason.empty()) reason = "cannot write " + tmp + ": " + errno_text(errno);
  ::close(in);
  if (reason.empty() && ::rename(tmp.c_str(), dst.c_str()) != 0)
    reason = "cannot rename onto " + dst + ": " + errno_text(errno);
  if (!reason.empty()) {
    ::unlink(tmp.c_str());
    t.not_copied.push_back({{"path", src}, {"reason", reason}});
    return;
  }
  ++t.copied;
  t.bytes_copied += bytes;
}

// Every regular file below `dir` (none when it does not exist), in a stable order.
std::vector<std::string> files_below(const std::string& dir, Tally& t) {
  std::vector<std::string> out;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return out;
  fs::recursive_directory_iterator it(dir, fs::directory_options::none, ec), end;
  for (; !ec && it != end; it.increment(ec)) {
    if (!it->is_directory(ec)) out.push_back(it->path().string());
    ec.clear();
  }
  if (ec) t.not_copied.push_back({{"path", dir}, {"reason", "cannot list: " + ec.message()}});
  std::sort(out.begin(), out.end());
  return out;
}

class Exporter {
 public:
  Exporter(std::string home, std::string to) : home_(std::move(home)), to_(std::move(to)) {}

  // Where a store file goes: its path below the Claude home, else below `external/` by its absolute path.
  std::string dest_of(const std::string& src) const {
    if (src.size() > home_.size() + 1 && src.compare(0, home_.size(), home_) == 0 && src[home_.size()] == '/')
      return to_ + src.substr(home_.size());
    return to_ + "/external" + fs::absolute(src).lexically_normal().string();
  }
  void copy(const std::string& src, Tally& t) const { copy_one(src, dest_of(src), t); }
  void copy_tree(const std::string& dir, Tally& t) const {
    for (const std::string& f : files_below(dir, t))
      copy(f, t);
  }

 private:
  std::string home_, to_;
};

// A session row's and the summary's figures: one spelling for both.
void put_counts(json& j, const Tally& t) {
  j["files"] = t.files;
  j["copied"] = t.copied;
  j["skipped"] = t.skipped;
  j["bytes_copied"] = t.bytes_copied;
}

// The destination, absolute; refused when it is inside the Claude home (the store is only ever read).
std::string checked_destination(const json& args, const std::string& home) {
  const std::string to = args.value("to", std::string());
  if (to.empty()) usage_error("export needs " + arg_ref("to") + ": the directory to copy the sessions into");
  const fs::path dest = clean_absolute_path(to);
  const std::string refusal = store_write_refusal("to", to, dest, home);
  if (!refusal.empty()) usage_error(refusal);
  std::error_code ec;
  if (fs::exists(dest, ec) && !fs::is_directory(dest, ec))
    usage_error(arg_ref("to") + " " + to + " exists and is not a directory");
  return dest.string();
}

}  // namespace

Envelope run_export(const json& args, ToolContext& ctx) {
  const Scope scope = resolve_span_scope(args, ctx);
  const std::string to = checked_destination(args, scope.claude_home);
  std::error_code ec;
  std::string home = fs::absolute(scope.claude_home, ec).lexically_normal().string();
  if (home.size() > 1 && home.ends_with('/')) home.pop_back();
  const Exporter exporter(home, to);
  const CleanupPeriod period = claude_cleanup_period(scope.claude_home);
  const bool expiring_only = args.value("expiring", false);
  const EpochMs now = now_ms();

  Envelope env = Envelope::make("export");
  env.header = span_header("export", scope);
  env.header["to"] = to;
  std::vector<StoreProblem> unread = scope.problems;
  std::set<std::string> done;
  Tally all;
  size_t sessions = 0;
  for (const Transcript& t : scope.transcripts) {
    if (ctx.cancelled()) failure_error("export was cancelled");
    if (t.harness != HarnessId::claude_code) {
      unread.push_back({t.path, "a " + std::string(harness_name(t.harness)) +
                                    " session: export copies Claude Code sessions only"});
      continue;
    }
    // A subagent lane travels with its session (the session's folder holds it); a CC 1.x flat agent file
    // beside the sessions is a unit of its own.
    const bool own_unit = !t.is_subagent || t.shape == TranscriptShape::legacy_flat || t.session_id.empty();
    const std::string id = own_unit ? t.id : t.session_id;
    const std::string main = own_unit ? t.path : t.project_dir + "/" + t.session_id + ".jsonl";
    if (!done.insert(main).second) continue;
    Transcript session = t;
    if (!own_unit) {
      session.path = main;
      session.id = session.session_id;
      session.is_subagent = false;
      session.shape = TranscriptShape::session;
      session.mtime_ns = 0;  // not the lane's stamp: expires_in_days stats the session file
    }
    const std::optional<int64_t> left = expires_in_days(session, period, now);
    if (expiring_only && !left) continue;
    Tally tally;
    std::error_code exists_ec;
    if (fs::exists(main, exists_ec)) exporter.copy(main, tally);
    if (!t.is_subagent || !own_unit) {
      const std::string folder = t.project_dir + "/" + id;
      exporter.copy_tree(folder, tally);
      exporter.copy_tree(home + "/file-history/" + id, tally);
      if (fs::exists(main, exists_ec)) {
        const std::optional<PlanBinding> plan = plan_binding_of(session, scope.claude_home, ctx.cancel);
        if (plan && fs::exists(plan->plan_file, exists_ec)) exporter.copy(plan->plan_file, tally);
      }
    }
    ++sessions;
    json& row = env.add_row("session");
    row["session_id"] = id;
    row["path"] = main;
    put_counts(row, tally);
    if (left) row["expires_in_days"] = *left;
    row["not_copied"] = tally.not_copied;
    all.files += tally.files;
    all.copied += tally.copied;
    all.skipped += tally.skipped;
    all.bytes_copied += tally.bytes_copied;
    for (const json& n : tally.not_copied)
      all.not_copied.push_back(n);
  }
  json& s = env.summary;
  s["to"] = to;
  s["sessions"] = sessions;
  put_counts(s, all);
  s["not_copied"] = all.not_copied.size();
  report_unread(env, unread);
  env.notes = scope.notes;
  return env;
}

}  // namespace csift
