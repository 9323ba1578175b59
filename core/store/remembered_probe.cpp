#include "core/store/remembered_probe.h"

#include "core/harness/claude_code/claude_code_reader.h"
#include "core/harness/read_probe.h"

namespace csift {
namespace {

constexpr ResultKind<SessionProbe> kProbeKind{"probe"};

size_t probed_message_cost(const ProbedMessage& m) {
  return held_bytes(m.text) + held_bytes(m.timestamp);
}

}  // namespace

size_t probe_memo_cost(const SessionProbe& p) {
  return probed_message_cost(p.first_user) + probed_message_cost(p.last_user) +
         probed_message_cost(p.last_agent) + held_bytes(p.cwd) + held_bytes(p.version_first) +
         held_bytes(p.version_last) + held_bytes(p.git_branch_first) + held_bytes(p.git_branch_last) +
         held_bytes(p.first_timestamp) + held_bytes(p.last_timestamp) + held_bytes(p.clone_boundary_uuid) +
         held_bytes(p.error) + held_bytes(p.unreadable);
}

std::shared_ptr<const SessionProbe> remembered_probe(const Transcript& t, ResultMemoUse& use) {
  ResultMemo* memo = t.harness == HarnessId::claude_code ? process_result_memo() : nullptr;
  return recall_or_compute(
      memo, use, kProbeKind, t.path, "", discovered_stamp(t), [&t] { return probe_transcript(t); },
      [](const SessionProbe& p) { return p.error.empty(); }, probe_memo_cost);
}

}  // namespace csift
