#include "tools/status/background_tasks.h"

#include <algorithm>
#include <unordered_map>

#include "core/harness/claude_code/classify.h"
#include "core/harness/claude_code/claude_fields.h"
#include "core/harness/claude_code/fixed_texts.h"
#include "core/json/stored_json.h"
#include "core/record/transcript_reader.h"
#include "core/regex/regex.h"

namespace csift {
namespace {

// Bytes every launch, launch result and completion notice carries (the prefilter of the whole-file scan).
constexpr std::string_view kNeedles[] = {"run_in_background", "backgroundTaskId", "task-notification",
                                         "KillShell",         "KillBash",         "\"Monitor\"",
                                         "TaskStop",          "agents stopped"};

bool has_needle(std::string_view line) {
  return std::any_of(std::begin(kNeedles), std::end(kNeedles),
                     [&](std::string_view n) { return line.find(n) != std::string_view::npos; });
}

std::string tag_value(std::string_view section, std::string_view tag) {
  const std::string open = "<" + std::string(tag) + ">", close = "</" + std::string(tag) + ">";
  const size_t a = section.find(open);
  if (a == std::string_view::npos) return "";
  const size_t b = section.find(close, a + open.size());
  if (b == std::string_view::npos) return "";
  return std::string(section.substr(a + open.size(), b - a - open.size()));
}

struct Notice {
  std::string task_id, status, output_file;
};

std::vector<Notice> notices_in(std::string_view text) {
  std::vector<Notice> out;
  for (size_t at = text.find(claude_code_text::kTaskNotificationOpen); at != std::string_view::npos;
       at = text.find(claude_code_text::kTaskNotificationOpen, at + 1)) {
    const size_t end = text.find(claude_code_text::kTaskNotificationClose, at);
    const std::string_view section =
        text.substr(at, end == std::string_view::npos ? std::string_view::npos : end - at);
    Notice n{tag_value(section, "task-id"), tag_value(section, "status"), tag_value(section, "output-file")};
    if (!n.task_id.empty()) out.push_back(std::move(n));
  }
  return out;
}

// The text a record carries on any of the notice carriers: a user record, a queue-operation enqueue, a
// queued_command attachment.
std::string carrier_text(const Record& r) {
  std::string text = r.message.content_is_string ? r.message.content_string : "";
  for (const auto& b : r.message.blocks) {
    if (b.kind == BlockKind::text) text += "\n" + b.text;
  }
  text += "\n" + r.content_text + "\n" + cc(r).attachment_json;
  return text;
}

std::string launch_kind(const Block& b, const nlohmann::json& input) {
  const bool background = input.is_object() && input.value("run_in_background", false);
  if (b.name == "Monitor") return "monitor";
  if (!background) return "";
  if (b.name == "Bash" || b.name == "PowerShell") return "shell";
  if (b.name == "Task" || b.name == "Agent") return "agent";
  return "";
}

// The task id a launch's result names: toolUseResult.backgroundTaskId / agentId / taskId, else "ID: X" in
// text.
std::string result_task_id(const Record& r, const Block& b) {
  const nlohmann::json result = parse_stored_object(cc(r).tool_use_result_json);
  for (const char* key : {"backgroundTaskId", "agentId", "taskId", "shellId"}) {
    if (std::string v = json_string_at(result, key); !v.empty()) return v;
  }
  const std::string& text = b.content_text;
  for (std::string_view marker : {"with ID: ", "agentId: ", "task ID: ", "ID: "}) {
    const size_t at = text.find(marker);
    if (at == std::string::npos) continue;
    size_t end = at + marker.size();
    while (end < text.size() &&
           (std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '_' || text[end] == '-'))
      ++end;
    if (end > at + marker.size()) return text.substr(at + marker.size(), end - at - marker.size());
  }
  return "";
}

std::string closed_state(const std::string& status) {
  if (status == "completed" || status == "failed" || status == "killed" || status == "stopped") return status;
  if (status == "timed_out" || status == "timeout" || status == "timed out") return "timed_out";
  return status.empty() ? "completed" : status;
}

class Scan {
 public:
  explicit Scan(BackgroundReport& out) : out_(out) {}

  // `lane` is the launching agent's id ("" = the main lane); `notices` is false on a subagent lane, whose
  // completions the harness reports on the main transcript.
  void record(const Record& r, const std::string& lane, bool notices) {
    lane_ = &lane;
    for (const auto& b : r.message.blocks) {
      if (b.kind == BlockKind::tool_use) launch_or_kill(r, b);
      if (b.kind == BlockKind::tool_result) result(r, b);
    }
    if (!notices) return;
    const std::string text = carrier_text(r);
    for (const auto& n : notices_in(text))
      close(n);
    if (text.find("agents stopped") != std::string::npos) out_.agents_stopped_notice = true;
  }

  std::vector<std::string> launches_without_result() const {
    std::vector<std::string> ids;
    for (const auto& t : out_.tasks) {
      if (t.task_id.empty()) ids.push_back(t.launch_id);
    }
    return ids;
  }

  void result_only(const Record& r) {
    for (const auto& b : r.message.blocks) {
      if (b.kind == BlockKind::tool_result) result(r, b);
    }
  }

 private:
  void launch_or_kill(const Record& r, const Block& b) {
    const nlohmann::json input = parse_stored_object(b.input_json);
    if (b.name == "KillShell" || b.name == "KillBash" || b.name == "TaskStop") {
      for (const char* key : {"shell_id", "task_id", "bash_id", "id"}) {
        if (std::string id = json_string_at(input, key); !id.empty()) close(Notice{id, "killed", ""});
      }
      return;
    }
    const std::string kind = launch_kind(b, input);
    if (kind.empty() || by_launch_.count(b.id)) return;
    BackgroundTask t;
    t.kind = kind;
    t.launch_id = b.id;
    t.lane = lane_ ? *lane_ : "";
    t.tool = b.name;
    t.description = json_string_at(input, "description");
    const std::string command = json_string_at(input, "command");
    if (t.description.empty())
      t.description = command.empty() ? json_string_at(input, "prompt") : command;
    else if (!command.empty())
      t.description += " — " + command;
    t.launched_ts = r.timestamp;
    t.launched_at = parse_iso8601(r.timestamp);
    by_launch_[b.id] = out_.tasks.size();
    out_.tasks.push_back(std::move(t));
  }

  void result(const Record& r, const Block& b) {
    const auto it = by_launch_.find(b.tool_use_id);
    if (it == by_launch_.end()) return;
    BackgroundTask& t = out_.tasks[it->second];
    if (!t.task_id.empty()) return;
    t.task_id = result_task_id(r, b);
    if (t.task_id.empty()) t.task_id = t.launch_id;
    if (b.is_error) t.state = "failed";  // the launch itself failed: nothing runs
    if (auto pending = early_.find(t.task_id); pending != early_.end()) apply(t, pending->second);
  }

  void close(const Notice& n) {
    out_.notified_ids.insert(n.task_id);
    for (auto& t : out_.tasks) {
      if (t.task_id == n.task_id || t.launch_id == n.task_id) return apply(t, n);
    }
    early_[n.task_id] = n;  // its launch result may come later in a second pass
  }

  static void apply(BackgroundTask& t, const Notice& n) {
    if (t.state == "open") t.state = closed_state(n.status);
    if (!n.output_file.empty()) t.output_file = n.output_file;
  }

  BackgroundReport& out_;
  const std::string* lane_ = nullptr;
  std::unordered_map<std::string, size_t> by_launch_;
  std::unordered_map<std::string, Notice> early_;
};

void apply_lens(BackgroundReport& r, const BackgroundLens& lens) {
  std::vector<std::unique_ptr<Matcher>> matchers;
  for (const auto& p : lens.ignore_patterns)
    matchers.push_back(std::make_unique<Matcher>(CompiledPattern::compile(p, RegexOptions{})));
  for (auto& t : r.tasks) {
    if (t.state != "open") {
      ++r.closed[t.state];
      continue;
    }
    ++r.open;
    if (lens.since && (!t.launched_at || *t.launched_at < *lens.since)) {
      t.counted = false;
      t.excluded_by = "launched before background_since " + lens.since_text;
    }
    for (size_t i = 0; t.counted && i < matchers.size(); ++i) {
      if (matchers[i]->is_match(t.description) == MatchStatus::match) {
        t.counted = false;
        t.excluded_by = "matches ignore_background " + lens.ignore_patterns[i];
      }
    }
    if (t.counted) ++r.open_counted;
  }
}

// One transcript's launches and results (and, on the main lane, its notices and kills), then a read-back
// of the lines naming launches whose result held no needle (an agent's or a Monitor's launch result).
uint64_t scan_lane(const Transcript& t, const std::string& lane, Scan& scan, const CancelToken* cancel) {
  const bool main_lane = lane.empty();
  ReadOptions opts;
  opts.sequential = true;
  opts.cancel = cancel;
  opts.want = [](std::string_view line) { return has_needle(line); };
  const ReadStats stats = for_each_record(t, opts, [&](Record&& r) {
    scan.record(r, lane, main_lane);
    return true;
  });
  if (auto ids = scan.launches_without_result(); !ids.empty()) {
    ReadOptions again;
    again.sequential = true;
    again.cancel = cancel;
    again.want = [&ids](std::string_view line) {
      return std::any_of(ids.begin(), ids.end(),
                         [&](const std::string& id) { return line.find(id) != std::string_view::npos; });
    };
    for_each_record(t, again, [&](Record&& r) {
      scan.result_only(r);
      return true;
    });
  }
  return stats.skipped_lines;
}

}  // namespace

BackgroundReport scan_background(const Transcript& main, const std::vector<Transcript>& lanes,
                                 const BackgroundLens& lens, const CancelToken* cancel) {
  BackgroundReport out;
  Scan scan(out);
  // Subagent lanes first, so the main lane's notices and kills find every launch already known.
  for (const auto& lane : lanes) {
    out.skipped_lines += scan_lane(lane, lane.id, scan, cancel);
    ++out.lanes_scanned;
  }
  out.skipped_lines += scan_lane(main, "", scan, cancel);
  apply_lens(out, lens);
  return out;
}

json background_json(const BackgroundReport& r) {
  json open = json::array();
  for (const auto& t : r.tasks) {
    if (t.state != "open") continue;
    open.push_back(json{{"kind", t.kind},
                        {"task_id", string_or_null(t.task_id)},
                        {"launch_tool_use_id", t.launch_id},
                        {"tool", t.tool},
                        {"lane", t.lane.empty() ? json("main") : json(t.lane)},
                        {"description", excerpt(one_line(t.description), 200)},
                        {"launched_utc", string_or_null(t.launched_ts)},
                        {"output_file", string_or_null(t.output_file)},
                        {"counted", t.counted},
                        {"excluded_by", string_or_null(t.excluded_by)}});
  }
  json closed = json::object();
  for (const auto& [state, n] : r.closed)
    closed[state] = n;
  json out{{"open", r.open},
           {"open_counted", r.open_counted},
           {"tasks", std::move(open)},
           {"closed", std::move(closed)},
           {"agents_stopped_notice", r.agents_stopped_notice},
           {"note",
            "an open task has no completion notice in the main transcript; that is not proof it still "
            "runs (a UI stop, a Monitor timeout or a teardown leaves no marker)"},
           {"lanes_scanned", r.lanes_scanned + 1}};
  return out;
}

std::vector<std::string> background_lines(const json& background, EpochMs now) {
  std::vector<std::string> lines;
  for (const auto& t : background["tasks"]) {
    std::string line = "bg " + t["kind"].get<std::string>() + " " +
                       (t["task_id"].is_string() ? t["task_id"].get<std::string>()
                                                 : t["launch_tool_use_id"].get<std::string>());
    if (t["launched_utc"].is_string()) {
      if (auto at = parse_iso8601(t["launched_utc"].get<std::string>()))
        line += " launched " + format_local(*at) + " (" + std::to_string((now - *at) / 1000) + "s ago)";
    }
    line += " — " + t["description"].get<std::string>();
    if (!t["counted"].get<bool>()) line += "  [not counted: " + t["excluded_by"].get<std::string>() + "]";
    lines.push_back(line);
  }
  std::string closed;
  for (const auto& [state, n] : background["closed"].items())
    closed += (closed.empty() ? "" : ", ") + std::to_string(n.get<size_t>()) + " " + state;
  if (!closed.empty()) lines.push_back("bg closed: " + closed);
  return lines;
}

}  // namespace csift
