// The synthesized-text renders search's byte screen finds by a marker (core/search/search_prefilter.cpp),
// with the fixed texts each writes between the pieces it copies from its record (SPEC.md §7 "Confined
// needles"). The renders themselves are in classify.cpp, classify_render.cpp and classify_sections.cpp: a
// change to what one of them writes between its pieces is a change to its entry here.
// tests/unit/render_joiners_test.cpp renders every marker record of the fixtures and the corpus and checks
// each confined needle of its text against the record's bytes.
#pragma once
#include <string_view>

#include "core/regex/needles.h"

namespace csift::claude_code_text {

// The joiners of the render `marker` stands for (one of search's synthesized-text markers); nullptr for a
// marker whose render is not listed (its marker is then always looked for).
const RenderJoiners* render_joiners_of(std::string_view marker);

}  // namespace csift::claude_code_text
