// Which of a turn's agent messages `verbatim` restores (SPEC.md §9.8 agent_msgs): the longest message, a
// substantive first and every rich middle (`longest`); the last only (`eot-only`); in a long run, everything
// but short signal-less intent openers (`rich`); or all. Keep on doubt: a wrongly kept declaration costs a
// few lines, a wrongly dropped finding is lost.
#pragma once
#include <string_view>
#include <vector>

#include "tools/verbatim/verbatim_request.h"
#include "tools/verbatim/verbatim_turns.h"

namespace csift {

// A signal of substance: a number of two or more digits, a commit-hash-like hex run, a file reference
// (`name.ext:NN`, `src/…`), a backtick code span, or a finding/decision word.
bool has_signal(std::string_view text);
// A short, signal-less opener that only announces what comes next (`Let me …`, `Now I …`).
bool is_declaration(std::string_view text, const RichnessThresholds& th);
bool is_rich(std::string_view text, const RichnessThresholds& th);

// One flag per message of `agents`: kept (true) or collapsed into a placeholder.
std::vector<bool> keep_agent_messages(const std::vector<TurnPiece>& agents, AgentMsgs mode,
                                      const RichnessThresholds& th);

}  // namespace csift
