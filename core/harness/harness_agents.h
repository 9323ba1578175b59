// What a harness's own log records about the sub-agents a session started, read by each harness in its own
// folder (`core/harness/<name>/<name>_agents.cpp`) and handed to `agents` (tools/agents/, SPEC.md §9.6)
// through one seam: HarnessEntry::agents. Claude Code's subagents have their own discovery and join
// (core/store/spawn_index.h) and no entry here. A reader fills only what its harness records; every field it
// leaves empty is absent, never zero, and `not_recorded` says in a sentence what the harness does not keep.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/base/cancel.h"
#include "core/record/transcript.h"

namespace csift {

// One child session or sub-agent, as its parent's log (and its own, where it has one) records it.
struct HarnessChildAgent {
  std::string id;               // the harness's own id for it (Codex thread id, Copilot agentId, session id)
  std::string parent_agent_id;  // the child that started it ("" = the session itself)
  // Its own log, when it has one (a Codex rollout, an OpenCode child session, a Gemini CLI sub-agent file):
  // `agents` reads its lifecycle from it through the reader seam, and its ref is what show/search take.
  std::optional<Transcript> transcript;
  std::string ref;  // the ref whose records hold it (its own, or the session's when its events are inline)
  // The call that started it, when the log records one.
  std::string spawn_tool, spawn_call_id, trigger_timestamp;
  uint64_t spawn_line = 0;  // the spawn call's line in the issuer's log (0: none)
  std::string agent_type, description, name, prompt, model;
  // What the harness recorded of its outcome: completed, running, failed ("" = nothing recorded; agents
  // then reads it from the child's own records). `failure` is why it failed or never started.
  std::string status, failure;
  std::string returned_message, returned_source;  // what it returned, and which record said so
  std::string started_timestamp, completed_timestamp, last_activity_timestamp;
  // Figures the harness records itself (a Copilot sub-agent's totals), kept as recorded.
  std::optional<uint64_t> recorded_total_tokens, recorded_tool_calls, recorded_duration_ms;
  uint64_t tool_calls = 0;  // its own calls counted in an inline log (no transcript of its own)
  uint64_t turns = 0;
  std::string inline_tail;   // its newest answer in an inline log
  std::string not_recorded;  // what the harness does not keep about this child, in one sentence
};

struct HarnessAgents {
  std::vector<HarnessChildAgent> children;  // in the order the log records them
  // The session's own parent when it is itself a child (a Codex sub-agent rollout): `agents` lists it under
  // that parent instead of as a session of its own when both are in scope.
  std::string parent_ref;
  std::vector<std::string> notes;  // what the harness does not record, said once per call
  uint64_t skipped_lines = 0;      // lines that did not parse as JSON
  std::string error;
};

// What the readers of one `agents` call share: an index of a store that each session in scope would
// otherwise build again (Codex: every rollout's thread id and parent, from its first line), made once by the
// first reader that asks for it, whichever thread that is; the others wait for it and read it.
class HarnessAgentsCall {
 public:
  template <class T>
  const T& shared(const std::string& key, const std::function<T()>& make) {
    std::shared_ptr<Slot> slot;
    {
      std::lock_guard<std::mutex> lock(mu_);
      std::shared_ptr<Slot>& s = slots_[key];
      if (!s) s = std::make_shared<Slot>();
      slot = s;
    }
    std::call_once(slot->once, [&] { slot->value = std::make_shared<const T>(make()); });
    return *static_cast<const T*>(slot->value.get());
  }

 private:
  struct Slot {
    std::once_flag once;
    std::shared_ptr<const void> value;
  };
  std::mutex mu_;
  std::map<std::string, std::shared_ptr<Slot>> slots_;
};

// A harness's reader of sub-agents: one top-level session's children (and theirs, with parent_agent_id).
using HarnessAgentsFn = HarnessAgents (*)(const Transcript& session, const CancelToken* cancel,
                                          HarnessAgentsCall& call);

// The logs of the children that the listed sessions started and the store's listing leaves out (a Gemini
// CLI sub-agent file under chats/<session id>/, an OpenCode child session), each the very transcript
// `agents` reads for that child: a ref that names no listed session is looked up among them, so the ref
// `agents` prints for a child reaches `show` (and every tool that takes a ref).
using HarnessChildLogsFn = std::vector<Transcript> (*)(const std::vector<Transcript>& listed,
                                                       const CancelToken* cancel);

}  // namespace csift
