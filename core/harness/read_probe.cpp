#include "core/harness/read_probe.h"

#include "core/harness/claude_code/classify.h"
#include "core/harness/claude_code/claude_code_reader.h"
#include "core/record/transcript_reader.h"

namespace csift {

namespace {

void probe_take_anchor(ProbedMessage& m, const Record& r, std::string text) {
  m.found = true;
  m.text = std::move(text);
  m.timestamp = r.timestamp;
  m.line = r.line;
  m.offset = r.offset;
}

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
      const std::string text = user_text(r);
      if (!p.first_user.found) probe_take_anchor(p.first_user, r, text);
      probe_take_anchor(p.last_user, r, text);
    }
    if (std::string text = agent_text(r); !text.empty()) probe_take_anchor(p.last_agent, r, std::move(text));
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
