// Every fixed text Claude Code writes that csift matches, in one place: the markers it synthesizes into user
// records (interrupts, rejections, slash-command and bash-mode wrappers, notifications, AUQ answers), the
// texts of its tool results (denials, persisted output) and the tags of its relayed messages. The classifier,
// the call outcomes (core/triage/tool_outcome.cpp) and search's byte screen
// (core/search/search_prefilter.cpp) all name them from here, so a text Claude Code rewords is changed once.
#pragma once
#include <string_view>

namespace csift::claude_code_text {

inline constexpr std::string_view kInterruptUser = "[Request interrupted by user]";
inline constexpr std::string_view kInterruptTool = "[Request interrupted by user for tool use]";
inline constexpr std::string_view kLocalCommandStdout = "<local-command-stdout>";
inline constexpr std::string_view kCommandName = "<command-name>";
inline constexpr std::string_view kCommandMessage = "<command-message>";
inline constexpr std::string_view kTaskNotificationOpen = "<task-notification>";
inline constexpr std::string_view kTaskNotificationClose = "</task-notification>";
// The line Claude Code appends after a notification that names an output file (part of the delivered text).
inline constexpr std::string_view kReadOutputTrailer = "Read the output file to retrieve the result: ";
inline constexpr std::string_view kTeammateOpen = "<teammate-message";
inline constexpr std::string_view kTeammateClose = "</teammate-message>";
inline constexpr std::string_view kAgentMessageOpen = "<agent-message";
inline constexpr std::string_view kAgentMessageClose = "</agent-message>";
inline constexpr std::string_view kRejectionMarker = "The user doesn't want to proceed with this tool use";
inline constexpr std::string_view kRejectionUserSaid = "To tell you how to proceed, the user said:\n";
inline constexpr std::string_view kToolUseError = "<tool_use_error>";
inline constexpr std::string_view kBashInput = "<bash-input>";
inline constexpr std::string_view kBashStdout = "<bash-stdout>";
inline constexpr std::string_view kBashStderr = "<bash-stderr>";
inline constexpr std::string_view kAsyncLaunchAck = "Async agent launched successfully";
inline constexpr std::string_view kContinuation = "Continue from where you left off.";
inline constexpr std::string_view kWakeupSentinel = "<<autonomous-loop-dynamic>>";
inline constexpr std::string_view kWakeupLoopCheck = "# Autonomous loop check";
inline constexpr std::string_view kWakeupTimer = "You're being invoked on a timer";
inline constexpr std::string_view kStopHookFeedback = "Stop hook feedback:";
inline constexpr std::string_view kLocalCommandCaveat = "<local-command-caveat>";
inline constexpr std::string_view kEditRetry = "The last Edit failed because the target file was modified";
inline constexpr std::string_view kLoopTick = "# Autonomous loop tick";
inline constexpr std::string_view kAutonomousCheck = "Run the autonomous check";
inline constexpr std::string_view kImageSource = "[Image: source:";
inline constexpr std::string_view kElicitationMarker = "elicitation-marker-v1";

// The three synthesized AUQ-answer phrasings (SPEC.md §4, v0.10.1 ⑩b). "The user did not answer the
// questions." is the unanswered branch and is deliberately absent.
inline constexpr std::string_view kAuqAnswerMarkers[] = {
    "User has answered your questions", "Your questions have been answered", "The user answered:"};
// The three relay preambles Claude Code 2.1.258 puts before a peer message (v0.10.1 ⑩a).
inline constexpr std::string_view kPeerPreambles[] = {
    "Another Claude session sent a message:", "Another Claude session sent a message while you were working:",
    "A peer session sent a message while you were working:"};

// A tool result the user rejected: the rejection text's head (what search's byte screen looks for) and the
// denial a permission rule writes.
inline constexpr std::string_view kRejectionHead = "The user doesn't want to proceed";
inline constexpr std::string_view kDenied = "has been denied";
// kRejectionUserSaid without its newline (written `\n` in a raw line).
inline constexpr std::string_view kRejectionUserSaidHead = "To tell you how to proceed, the user said:";
// Both interrupt markers (kInterruptUser, kInterruptTool) begin with this.
inline constexpr std::string_view kInterruptPrefix = "[Request interrupted by user";
// Both slash-command wrapper tags (kCommandName, kCommandMessage) begin with this.
inline constexpr std::string_view kCommandTagPrefix = "<command-";
// What every notice of stopped background agents holds (is_agents_stopped_notice): search's marker for the
// "[subagent stopped] …" text the classifier renders from one.
inline constexpr std::string_view kAgentsStoppedTail = "stopped by the user";
// The system subtype of a compaction boundary record.
inline constexpr std::string_view kCompactBoundarySubtype = "compact_boundary";
// A tool result Claude Code externalised to a file: the tag that wraps its pointer, and the tag's name (what
// search's byte screen looks for).
inline constexpr std::string_view kPersistedOutputTag = "<persisted-output>";
inline constexpr std::string_view kPersistedOutputName = "persisted-output";
// An MCP result too large to hand the model (Claude Code 2.1.332): the tool_result text becomes "Error:
// result (N characters) exceeds maximum allowed tokens. Output has been saved to <path>.\n" and instructions,
// the result itself goes to <session>/tool-results/mcp-<server>-<tool>-….txt (and stays in mcpMeta).
inline constexpr std::string_view kMcpSavedOutput = "Output has been saved to ";

}  // namespace csift::claude_code_text
