#include "core/harness/read_probe.h"

#include "core/harness/claude_code/classify.h"
#include "core/harness/claude_code/claude_code_reader.h"
#include "core/record/transcript_reader.h"

namespace csift {

namespace {

void probe_note_identity(SessionProbe& p, const Record& r) {
  if (p.cwd.empty() && !r.cwd.empty()) p.cwd = r.cwd;
  if (!r.version.empty()) {
    if (p.version_first.empty()) p.version_first = r.version;
    p.version_last = r.version;
  }
  if (!r.git_branch.empty()) {
    if (p.git_branch_first.empty()) p.git_branch_first = r.git_branch;
    p.git_branch_last = r.git_branch;
  }
  if (!r.timestamp.empty()) {
    if (p.first_timestamp.empty()) p.first_timestamp = r.timestamp;
    p.last_timestamp = r.timestamp;
  }
}

}  // namespace

SessionProbe probe_by_reading(const Transcript& t) {
  SessionProbe p;
  ReadOptions opts;
  opts.sequential = true;
  const ReadStats stats = for_each_record(t, opts, [&](Record&& r) {
    probe_note_identity(p, r);
    if (is_genuine_user(r)) {
      p.last_user = probed_anchor(r, user_text(r));
      if (!p.first_user.found) p.first_user = p.last_user;
    }
    if (std::string text = agent_text(r); !text.empty()) p.last_agent = probed_anchor(r, text);
    return true;
  });
  p.skipped_lines = stats.skipped_lines;
  p.bytes_read = stats.bytes;
  p.head_end = stats.bytes;
  p.head_lines = stats.lines;
  p.read_whole_file = true;
  p.error = stats.error;
  p.unreadable = stats.unreadable;
  return p;
}

SessionProbe probe_transcript(const Transcript& t) {
  return t.harness == HarnessId::claude_code ? probe_session(t.path) : probe_by_reading(t);
}

}  // namespace csift
