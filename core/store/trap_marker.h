// The `@trap:<marker>` grammar (SPEC.md §9.5): exactly three CamelCase words (one uppercase letter + at least
// two lowercase each) then exactly four digits that are not a trivial run. The strictness is the point: a
// hand-invented literary token is the easiest thing to produce, and it is unique enough to find one
// transcript.
#pragma once
#include <string>
#include <string_view>

namespace csift {

// The documentation's example marker: copied by many agents, so it can never name one transcript.
inline constexpr std::string_view kReservedTrapMarker = "JollyShinyBrook4283";

// "" when `marker` is acceptable, else what is wrong with it (one sentence, for the usage error).
std::string trap_marker_problem(std::string_view marker);

// The guidance appended to every marker refusal.
std::string trap_marker_guidance();

}  // namespace csift
