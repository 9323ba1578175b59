#include "core/harness/claude_code/render_joiners.h"

#include <vector>

#include "core/harness/claude_code/fixed_texts.h"

namespace csift::claude_code_text {
namespace {

// What nlohmann's dump() writes around the pieces of a value that is not a string (scalar_text in
// classify_render.cpp): structure, literals, numbers (a digit stands for a run of them) and string escapes.
// A literal or a number stands between structure, another joiner or the text's ends, never beside a piece:
// it is listed inside spaces, so only a needle within it is refused (one running on into its neighbour meets
// that neighbour). An escape's last letter is followed by the rest of its string, a piece; a short escape
// (`\n`) may be spelt `\u000a` in the record's bytes, a hex one only with other-case digits.
constexpr std::string_view kJsonValueJoiners[] = {"{",       "}",      "[",   "]",   ":",    ",",    " true ",
                                                  " false ", " null ", " -0", "0.0", "0e+0", "0e-0", "0E+0",
                                                  "0E-0",    "0e0",    "\\b", "\\f", "\\n",  "\\r",  "\\t"};
constexpr std::string_view kJsonHexEscapes[] = {"\\u000b", "\\u000e", "\\u000f", "\\u001a", "\\u001b",
                                                "\\u001c", "\\u001d", "\\u001e", "\\u001f"};

RenderJoiners with_json_values(std::vector<std::string_view> joiners, std::vector<std::string_view> openers) {
  joiners.insert(joiners.end(), std::begin(kJsonValueJoiners), std::end(kJsonValueJoiners));
  return RenderJoiners{std::move(joiners), /*numbers=*/true, std::move(openers),
                       std::vector<std::string_view>(std::begin(kJsonHexEscapes), std::end(kJsonHexEscapes))};
}

// A slash command with arguments: "/" + name + " " + one_line(args) (classify_user_text). The openers (the
// last field) begin the rendered text: nothing runs into them from before.
const RenderJoiners kSlashCommand{{" "}, false, {"/"}};
// A notice of stopped background agents: "[subagent stopped] " + one_line(text) (classify_user_text).
const RenderJoiners kAgentsStopped{{" "}, false, {"[subagent stopped] "}};
// A <task-notification> section: "[" + kind + " " + ids (", ", or "?") + " " + state (or "completed") + "]",
// then " (orphan reconciliation: " + kind + ")" and " " + one_line(summary); a report is one_line(result)
// (automation_label, scan_sections). The kinds are kind_slug's.
const RenderJoiners kTaskNotification{
    {", ", "?", " completed]", "]", " (orphan reconciliation: ", ")", " "},
    false,
    {"[background-command ", "[workflow ", "[monitor ", "[agent ", "[task "}};
// A rejection with the user's words: the words + "\n[plan: " + path + "]" (tool_result_unit).
const RenderJoiners kRejection{{"\n[plan: ", "]"}, false};
// An AskUserQuestion answer (auq_exchange_text).
const RenderJoiners kAuqAnswer =
    with_json_values({"\nQ0 (", "): ", "\nQ0: ", " options: ", " \xE2\x80\x94 ", " | ", "\nA0: ", "\nN0: "},
                     {"[AskUserQuestion \xC2\xB7 0 question]", "[AskUserQuestion \xC2\xB7 0 questions]"});
// A compaction boundary (compact_boundary_text).
const RenderJoiners kCompactBoundary = with_json_values(
    {" [compaction boundary:", " trigger=", " preTokens=", " postTokens=", " durationMs=", " (no metadata)",
     "]"},
    {"Conversation compacted"});

}  // namespace

const RenderJoiners* render_joiners_of(std::string_view marker) {
  if (marker == kCommandTagPrefix) return &kSlashCommand;
  if (marker == kAgentsStoppedTail) return &kAgentsStopped;
  if (marker == kTaskNotificationOpen) return &kTaskNotification;
  if (marker == kRejectionHead) return &kRejection;
  if (marker == kCompactBoundarySubtype) return &kCompactBoundary;
  for (const std::string_view m : kAuqAnswerMarkers)
    if (marker == m) return &kAuqAnswer;
  return nullptr;
}

}  // namespace csift::claude_code_text
