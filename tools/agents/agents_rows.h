// Inside `agents`: the envelope rows of one session tree (session, run and agent rows, pre-order).
#pragma once
#include <vector>

#include "core/base/envelope.h"
#include "core/mutations/file_mutations.h"
#include "tools/agents/agent_tree.h"

namespace csift {

struct AgentRowOptions {
  bool returned_message = false;
  bool with_files = false;
};

json session_row(const SessionTree& tree, size_t runs, size_t agents);
json run_row(const SessionTree& tree, const RunNode& run);
// `files` is the node's own mutations (read only with with_files).
json agent_row(const SessionTree& tree, const AgentNode& node, const AgentRowOptions& opts,
               const TranscriptMutations* files);

}  // namespace csift
