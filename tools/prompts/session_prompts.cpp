#include "tools/prompts/session_prompts.h"

#include <algorithm>

namespace csift {
namespace {

const PromptArgument kSession{"session",
                              "The session: a uuid, a unique uuid prefix (4-11 hex digits), an agent id, or "
                              "main (the session this server runs in)",
                              true};

std::string call(std::string_view tool, const json& args) {
  return "`" + std::string(tool) + " " + args.dump() + "`";
}

// A session argument as a target: "@<id>" (an "@" already there is kept).
std::string target_of(const std::string& session) {
  return session.front() == '@' ? session : "@" + session;
}

bool valid_session(const std::string& s) {
  if (s.empty() || s.size() > 200) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '@';
  });
}

std::string recap(const json& targets, const std::string& turns) {
  return "Recap the Claude Code session " + targets[0].get<std::string>() +
         " for me. Use the csift tools:\n"
         "1. " +
         call("stats", {{"targets", targets}}) +
         " for its size, duration, turns and tools.\n"
         "2. " +
         call("show", {{"targets", targets}, {"turn", turns}}) +
         " for the turns themselves; if the result says rows were omitted, repeat the call with its "
         "summary.continue_with.\n"
         "Then write: the goal, what was done (in order), the decisions and why, and what was left open.";
}

std::string went_wrong(const json& targets) {
  return "Find what went wrong in the Claude Code session " + targets[0].get<std::string>() +
         ". Use the csift tools:\n"
         "1. " +
         call("search", {{"pattern", "error|failed|exception|exit code [1-9]|not found|denied"},
                         {"targets", targets},
                         {"label", {"agent.tool.result"}},
                         {"ignore_case", true}}) +
         " for failed tool calls.\n"
         "2. " +
         call("search", {{"pattern", ""},
                         {"targets", targets},
                         {"label", {"user.rejection", "harness.interrupt.user", "harness.interrupt.tool"}}}) +
         " for the user's rejections and interrupts.\n"
         "3. For each hit worth a closer look, the `show` call its row names (or `show` with the turn) gives "
         "the full records around it.\n"
         "Then list each problem: what was attempted, what failed and why, and how (or whether) it was "
         "resolved.";
}

std::string what_changed(const json& targets) {
  return "List what the Claude Code session " + targets[0].get<std::string>() +
         " changed. Use the csift tools:\n"
         "1. " +
         call("search", {{"pattern", "\"(Edit|MultiEdit|Write|NotebookEdit)\""},
                         {"targets", targets},
                         {"label", {"agent.tool.use"}}}) +
         " for every file edit and write (the tool input names the file).\n"
         "2. " +
         call("search", {{"pattern", "git (commit|push|checkout|reset|rm|mv)|rm -|mv "},
                         {"targets", targets},
                         {"label", {"agent.tool.use"}}}) +
         " for shell commands that changed the repository or files.\n"
         "Then give the files changed, grouped by purpose, with one line each on what changed.";
}

std::string subagents(const json& targets) {
  return "Tell me what the subagents of the Claude Code session " + targets[0].get<std::string>() +
         " were asked and what they returned. Use the csift tools:\n"
         "1. " +
         call("list", {{"targets", targets}}) +
         " for the session and its subagent transcripts.\n"
         "2. " +
         call("search", {{"pattern", ""}, {"targets", targets}, {"label", {"agent.communication.sent"}}}) +
         " for what each subagent was asked.\n"
         "3. " +
         call("search", {{"pattern", ""}, {"targets", targets}, {"label", {"agent.communication.inbox"}}}) +
         " for what came back.\n"
         "Then, per subagent: its task, its answer in brief, and whether the parent used it.";
}

}  // namespace

const std::vector<SessionPrompt>& session_prompts() {
  static const std::vector<SessionPrompt> prompts{
      {"recap",
       "Recap a session",
       "Summarise a Claude Code session: goal, what was done, decisions, open ends",
       {kSession,
        {"turns", "Which turns: a range such as -5.. (the last five) or 0..10; all by default", false}}},
      {"what_went_wrong",
       "What went wrong",
       "Failed tool calls, interrupts and rejections in a session, and how each ended",
       {kSession}},
      {"what_changed", "What changed", "The files and repository changes a session made", {kSession}},
      {"subagent_results",
       "What did my subagents return",
       "Each subagent's task and answer in a session",
       {kSession}},
  };
  return prompts;
}

const SessionPrompt* find_session_prompt(std::string_view name) {
  for (const auto& p : session_prompts())
    if (p.name == name) return &p;
  return nullptr;
}

PromptText render_session_prompt(const SessionPrompt& prompt, const json& arguments) {
  const json args = arguments.is_object() ? arguments : json::object();
  for (const auto& a : prompt.arguments) {
    const bool present =
        args.contains(a.name) && args[a.name].is_string() && !args[a.name].get<std::string>().empty();
    if (a.required && !present) return {"", "argument '" + a.name + "' is required: " + a.description};
  }
  const std::string session = args["session"].get<std::string>();
  if (!valid_session(session)) {
    return {"", "argument 'session' must be a session id, prefix or agent id (letters, digits, '-', '_')"};
  }
  const json targets = json::array({target_of(session)});
  if (prompt.name == "recap") {
    const std::string turns =
        args.contains("turns") && args["turns"].is_string() && !args["turns"].get<std::string>().empty()
            ? args["turns"].get<std::string>()
            : "..";
    return {recap(targets, turns), ""};
  }
  if (prompt.name == "what_went_wrong") return {went_wrong(targets), ""};
  if (prompt.name == "what_changed") return {what_changed(targets), ""};
  return {subagents(targets), ""};
}

}  // namespace csift
