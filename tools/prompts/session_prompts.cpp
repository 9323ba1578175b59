#include "tools/prompts/session_prompts.h"

#include <algorithm>

#include "core/record/labels.h"

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

std::string string_arg(const json& args, const char* key) {
  return args.contains(key) && args[key].is_string() ? args[key].get<std::string>() : "";
}

// The search across past sessions, optionally narrowed to one project and one label selector.
PromptText search_sessions(const json& args) {
  const std::string pattern = string_arg(args, "pattern");
  const std::string project = string_arg(args, "project");
  const std::string label = string_arg(args, "label");
  if (!label.empty() && !expand_selector(label)) {
    return {"", "argument 'label' must be a label selector; " + valid_selectors_text()};
  }
  if (project.find_first_of("\n\r\t") != std::string::npos || project.size() > 4096)
    return {"", "argument 'project' must be a project path or an encoded project directory name"};
  json search{{"pattern", pattern}};
  json scope = json::object();
  if (!project.empty()) {
    search["targets"] = json::array({project});
    scope["targets"] = json::array({project});
  }
  if (!label.empty()) search["label"] = json::array({label});
  return {"Search my past Claude Code sessions" + (project.empty() ? "" : " of the project " + project) +
              " for /" + pattern + "/" + (label.empty() ? "" : " in records labelled " + label) +
              ". Use the csift tools:\n"
              "1. " +
              call("search", search) +
              " — the matching exchanges, each with the session, turn and time it came from.\n"
              "2. " +
              call("list", scope) +
              " — the sessions in scope, newest first, with their first and last messages, to place each "
              "hit.\n"
              "For a hit worth reading in full, call show with the hit's refetch arguments. Then answer: "
              "where it came up, what was decided each time, and which session to open next.",
          ""};
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
      {"search_sessions",
       "Search past sessions",
       "Where did something come up across past sessions, optionally in one project and one kind of record",
       {{"pattern", "A regular expression to look for (PCRE2 syntax, linear-time constructs)", true},
        {"project", "A project: its path (the session's working directory) or encoded directory name", false},
        {"label", "A label selector such as user.message, agent.tool.use or harness.compaction", false}}},
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
  if (prompt.name == "search_sessions") return search_sessions(args);
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
