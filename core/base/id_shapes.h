// The shapes of session and agent ids (SPEC.md §2): a session uuid, a teammate's name-embedded agent id, and
// the agent id inside an `agent-<id>.jsonl` file name. Pure string tests, so every area can ask them.
#pragma once
#include <string>
#include <string_view>

namespace csift {

bool is_uuid(std::string_view s);
// A teammate's name-embedded agent id, `a<Name>-<16 hex>` (the name may carry dashes; never a uuid).
bool is_teammate_agent_id(std::string_view s);
// The agent id of an `agent-<id>.jsonl` file name, or "" when the name is not that shape.
std::string agent_id_from_filename(std::string_view filename);

}  // namespace csift
