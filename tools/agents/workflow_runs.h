// Inside `agents`: a session's workflow runs — the run manifests `<session>/workflows/wf_*.json` (never
// transcripts) and each run's `subagents/workflows/wf_<id>/journal.jsonl` (started / result events per agent,
// the result's payload being what the agent returned).
#pragma once
#include <map>
#include <string>
#include <vector>

#include "core/base/envelope.h"
#include "core/store/store.h"

namespace csift {

struct JournalEntry {
  bool started = false;
  bool has_result = false;
  std::string result;  // the result payload: a string as-is, anything else as compact JSON
};

struct WorkflowRun {
  std::string run_id;
  bool has_manifest = false;
  json manifest = json::object();               // the manifest as on disk
  std::map<std::string, JournalEntry> journal;  // agent id -> its events
  uint64_t journal_skipped_lines = 0;
};

// Every run of `session` that has a manifest or a journal, by run id.
std::map<std::string, WorkflowRun> read_workflow_runs(const Transcript& session);

}  // namespace csift
