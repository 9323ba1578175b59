#include "server/hook_elicitation.h"

#include <fcntl.h>
#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <iterator>

#include "core/base/envelope.h"
#include "core/base/timefmt.h"

namespace csift {
namespace {

constexpr const char* kMarker = "elicitation-marker-v1";

std::string str(const json& j, const char* key) {
  return j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : "";
}

bool is_native_ask(const std::string& tool) {
  return tool == "AskUserQuestion" || tool == "ExitPlanMode";
}

// <project dir>/<session uuid>.jsonl -> <project dir>/<session uuid>/elicitations.jsonl
std::string sidecar_for(const std::string& transcript_path, const std::string& session_id) {
  std::filesystem::path p(transcript_path);
  const std::string stem = session_id.empty() ? p.stem().string() : session_id;
  return (p.parent_path() / stem / "elicitations.jsonl").string();
}

json marker(const json& hook, const char* phase, const std::string& kind, const std::string& key) {
  json m = json::object();
  m["sessionId"] = str(hook, "session_id");
  m["cwd"] = str(hook, "cwd");
  m["timestamp"] = format_utc(now_ms());
  m["csift"] = kMarker;
  m["csiftPhase"] = phase;
  m["csiftKind"] = kind;
  m["csiftKey"] = key;
  return m;
}

}  // namespace

std::string elicitation_marker_line(const std::string& payload, std::string& sidecar_path,
                                    std::string& error) {
  json hook;
  try {
    hook = json::parse(payload);
  } catch (const json::exception& e) {
    error = std::string("the hook payload on stdin is not JSON: ") + e.what();
    return "";
  }
  if (!hook.is_object()) {
    error = "the hook payload on stdin is not a JSON object";
    return "";
  }
  const std::string event = str(hook, "hook_event_name");
  const std::string transcript = str(hook, "transcript_path");
  if (transcript.empty()) {
    error = "the hook payload has no transcript_path";
    return "";
  }
  sidecar_path = sidecar_for(transcript, str(hook, "session_id"));
  json line;
  if (event == "PreToolUse" || event == "PostToolUse") {
    const std::string tool = str(hook, "tool_name");
    if (!is_native_ask(tool)) return "";  // the matcher should keep other tools away; nothing to mark
    const std::string key = str(hook, "tool_use_id");
    if (key.empty()) {
      error = event + " for " + tool + " carries no tool_use_id to pair its markers";
      return "";
    }
    if (event == "PreToolUse") {
      line = marker(hook, "pending", tool, key);
      line["type"] = "assistant";
      line["uuid"] = "csift-pending-" + key;
      json input = hook.contains("tool_input") ? hook["tool_input"] : json::object();
      line["message"] =
          json{{"role", "assistant"},
               {"content",
                json::array({json{{"type", "tool_use"}, {"id", key}, {"name", tool}, {"input", input}}})}};
    } else {
      line = marker(hook, "resolved", tool, key);
      line["type"] = "csift-elicitation-resolved";
    }
  } else if (event == "Elicitation" || event == "ElicitationResult") {
    const std::string server = str(hook, "mcp_server_name");
    const std::string key = "mcp:" + server;  // pairs first-in first-out per server: the hook carries no id
    if (event == "Elicitation") {
      line = marker(hook, "pending", "mcp-elicitation", key);
      line["type"] = "system";
      line["subtype"] = "csift-mcp-elicitation";
      line["content"] = "MCP elicitation from " + server + ": " + str(hook, "message");
    } else {
      line = marker(hook, "resolved", "mcp-elicitation", key);
      line["type"] = "csift-elicitation-resolved";
    }
  } else {
    return "";  // another event: the settings snippet routes only the four above here
  }
  return dump_json(line) + "\n";
}

int run_elicitation_hook(std::istream& in) {
  const std::string payload((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::string path, error;
  const std::string line = elicitation_marker_line(payload, path, error);
  if (!error.empty()) {
    std::cerr << "csift-mcp hook elicitation: " << error << "\n";
    return 1;
  }
  if (line.empty()) return 0;
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
  // One append of the whole line: readers hold a line without its newline back, so they never see half.
  const int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0 || ::write(fd, line.data(), line.size()) != static_cast<ssize_t>(line.size())) {
    std::cerr << "csift-mcp hook elicitation: cannot append to " << path << "\n";
    if (fd >= 0) ::close(fd);
    return 1;
  }
  ::close(fd);
  return 0;
}

}  // namespace csift
