// The spawn join (SPEC.md §4 "Direction") as the classifier uses it: which child agent each spawn call of a
// transcript started. A store question, not a reading one: it lists the owning session's subagents (their
// meta.json toolUseIds), so it sits above the Claude Code classifier whose context it fills.
#pragma once
#include <vector>

#include "core/harness/claude_code/classify.h"
#include "core/record/record.h"
#include "core/record/transcript.h"

namespace csift {

// Fills ctx.spawned_child for transcript `t`: the meta.json toolUseIds of the owning
// session's subagents, then the agentId each spawn result names. Lists the subagent folder only when the
// records hold a spawn call or a notification that could name one. Called again with the records appended
// since (ctx as the first join left it), it joins them as a join over all the records would, listing the
// folder again only when they hold a new spawn call or notification or a spawn's result the join cannot
// name (the labels of a result depend on its child).
void join_spawned_children(const Transcript& t, const std::vector<Record>& records, ClassifyContext& ctx);

}  // namespace csift
