#include "tools/wait/wait.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>

#include "core/base/arg_ref.h"
#include "core/base/error.h"
#include "core/harness/claude_code/classify.h"
#include "core/harness/claude_code/claude_fields.h"
#include "tools/common/scope_args.h"
#include "tools/status/status.h"
#include "tools/wait/file_watch.h"
#include "tools/wait/wait_conditions.h"

namespace csift {
namespace {

using Clock = std::chrono::steady_clock;

constexpr int kFloorMs = 200;        // adaptive polling starts here after any change
constexpr int kCeilingMs = 2000;     // and backs off to here while nothing changes
constexpr int kCancelSliceMs = 100;  // the longest a cancellation waits to be noticed
constexpr int64_t kHeartbeatMs = 1000;

// What landed after the baseline, by kind (the report's `activity`).
struct Census {
  std::map<std::string, size_t> tool_calls;
  size_t thinking = 0, messages = 0, prompts = 0, notifications = 0, sidecar_markers = 0, records = 0;
  std::vector<std::string> lanes_joined;

  void add(const Record& r, const std::string& lane) {
    ++records;
    if (lane == "sidecar") {
      ++sidecar_markers;
      return;
    }
    for (const auto& b : r.message.blocks) {
      if (b.kind == BlockKind::tool_use) ++tool_calls[b.name];
      if (b.kind == BlockKind::thinking || b.kind == BlockKind::redacted_thinking) ++thinking;
      if (b.kind == BlockKind::text && r.type == "assistant") ++messages;
    }
    if (r.type == "user" && is_genuine_user(r)) ++prompts;
    if (r.type == "user" && is_task_notification_record(r)) ++notifications;
  }

  json to_json() const {
    json tools = json::object();
    for (const auto& [name, n] : tool_calls)
      tools[name] = n;
    return json{{"records", records},
                {"tool_calls", std::move(tools)},
                {"thinking", thinking},
                {"messages", messages},
                {"prompts", prompts},
                {"notifications", notifications},
                {"sidecar_markers", sidecar_markers},
                {"lanes_joined", lanes_joined}};
  }
};

struct WaitRequest {
  LiveTarget target;
  std::vector<WaitCondition> conditions;
  int64_t timeout_ms = 0;
  int pinned_interval_ms = 0;
};

WaitRequest parse_wait_request(const json& args, const ToolContext& ctx) {
  WaitRequest req;
  if (!args.contains("timeout") || !args["timeout"].is_number()) {
    usage_error("wait needs " + arg_ref("timeout") +
                " (seconds): a background task can be built never to return (a dev server, a watcher), so an "
                "unbounded wait is a bug; bound it and read the report when it expires");
  }
  const double timeout = args["timeout"].get<double>();
  if (!(timeout > 0) || timeout > 86400)
    usage_error(arg_ref("timeout") + " must be between 0 and 86400 seconds");
  req.timeout_ms = static_cast<int64_t>(std::llround(timeout * 1000));
  const std::vector<std::string> until = string_array(args, "until");
  if (until.empty()) usage_error("wait needs at least one " + arg_ref("until") + " condition");
  for (const auto& u : until)
    req.conditions.push_back(parse_wait_condition(u));
  req.pinned_interval_ms = args.value("interval", 0);
  req.target = parse_live_target(args, ctx, "wait");
  return req;
}

// Milliseconds as seconds with one decimal: "12.3s".
std::string seconds_text(int64_t ms) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1fs", static_cast<double>(ms) / 1000.0);
  return buf;
}

std::string joined_conditions(const std::vector<WaitCondition>& cs) {
  std::string out;
  for (const auto& c : cs)
    out += (out.empty() ? "" : " | ") + c.text;
  return out;
}

std::string lens_words(const BackgroundLens& lens) {
  std::string out;
  if (lens.since) out += "background_since " + lens.since_text;
  for (const auto& p : lens.ignore_patterns)
    out += (out.empty() ? "" : ", ") + std::string("ignore_background ") + p;
  return out.empty() ? "every open background task counts" : out;
}

class Waiter {
 public:
  Waiter(const WaitRequest& req, ToolContext& ctx)
      : req_(req),
        ctx_(ctx),
        watch_(req.target.session, req.target.options.subagents, req.target.claude_home + "/sessions") {}

  Envelope run() {
    status_ = check_status();
    const std::string ready =
        "watching " + std::to_string(watch_.file_count()) + " file(s) of session " + req_.target.session.id +
        " (" + (watch_.uses_inotify() ? "inotify" : "polling") + "); until " +
        joined_conditions(req_.conditions) + "; timeout " + seconds_text(req_.timeout_ms) +
        "; lens: " + lens_words(req_.target.options.lens) + "; verdict now " + status_.verdict;
    if (ctx_.announce) ctx_.announce(ready);
    report(ready);
    check_state();
    int interval = req_.pinned_interval_ms > 0 ? req_.pinned_interval_ms : kFloorMs;
    while (fired_.empty()) {
      if (ctx_.cancelled()) return cancelled_envelope();
      if (elapsed_ms() >= req_.timeout_ms) break;
      const bool changed = sleep_until_change(interval);
      if (ctx_.cancelled()) return cancelled_envelope();
      const size_t before = census_.records;
      read_events();
      const bool grew = census_.records != before || changed;
      if (grew || elapsed_ms() - last_status_ms_ >= kCeilingMs) {
        const std::string was = status_.verdict;
        status_ = check_status();
        if (fired_.empty()) check_state();
        if (grew || was != status_.verdict)
          report("verdict " + (was == status_.verdict ? was : was + " -> " + status_.verdict) + "; " +
                 std::to_string(census_.records) + " record(s) since the baseline");
      }
      if (req_.pinned_interval_ms <= 0) interval = grew ? kFloorMs : std::min(kCeilingMs, interval * 3 / 2);
      if (elapsed_ms() - last_report_ms_ >= kHeartbeatMs)
        report("waiting; verdict " + status_.verdict + "; " + std::to_string(census_.records) +
               " record(s) since the baseline");
    }
    if (!fired_.empty()) status_ = check_status();
    return envelope();
  }

 private:
  int64_t elapsed_ms() const {
    return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start_).count();
  }

  StatusJoin check_status() {
    last_status_ms_ = elapsed_ms();
    return compute_status(req_.target.session, req_.target.claude_home, req_.target.options, ctx_.cancel);
  }

  // Sleeps up to `interval` (never past the deadline), in slices short enough to notice a cancellation.
  bool sleep_until_change(int interval) {
    int64_t left = std::min<int64_t>(interval, req_.timeout_ms - elapsed_ms());
    while (left > 0 && !ctx_.cancelled()) {
      const int slice = static_cast<int>(std::min<int64_t>(left, kCancelSliceMs));
      if (watch_.wait_for_change(slice)) return true;
      left -= slice;
    }
    return false;
  }

  void read_events() {
    std::vector<std::string> joined;
    for (const auto& batch : watch_.read_new(skipped_, joined)) {
      for (const auto& r : batch.records) {
        census_.add(r, batch.file->lane);
        for (const auto& c : req_.conditions) {
          if (!fired_.empty()) break;
          if (auto what = event_fires(c, r, batch.file->lane)) fire(c, *what);
        }
      }
    }
    for (auto& id : joined)
      census_.lanes_joined.push_back(std::move(id));
  }

  void check_state() {
    for (const auto& c : req_.conditions) {
      if (fired_.empty() && is_state_condition(c) && state_fires(c, status_.verdict))
        fire(c, "the verdict is " + status_.verdict);
    }
  }

  void fire(const WaitCondition& c, const std::string& what) {
    fired_ = c.text;
    fired_by_ = what;
    report("fired " + c.text + ": " + what);
  }

  void report(const std::string& what) {
    if (!ctx_.progress) return;
    last_report_ms_ = elapsed_ms();
    ctx_.progress(std::max(0.001, elapsed_ms() / 1000.0), req_.timeout_ms / 1000.0,
                  seconds_text(elapsed_ms()) + ": " + what);
  }

  Envelope cancelled_envelope() {
    return error_envelope("wait", "cancelled",
                          "the wait was cancelled after " + std::to_string(elapsed_ms()) + " ms");
  }

  Envelope envelope() {
    const EpochMs now = now_ms();
    const bool timed_out = fired_.empty();
    Envelope env = Envelope::make("wait");
    put_session_trio(env.header, req_.target.session);
    env.header["path"] = req_.target.session.path;
    env.header["until"] = joined_conditions(req_.conditions);
    json& row = env.add_row("wait");
    put_session_trio(row, req_.target.session);
    row["fired"] = timed_out ? "timeout" : fired_;
    row["fired_by"] = timed_out ? json(nullptr) : json(fired_by_);
    row["verdict"] = status_.verdict;
    row["waited_secs"] = elapsed_ms() / 1000.0;
    row["at_exit"] = status_.tail_state;
    row["activity"] = census_.to_json();
    const json status = status_row(status_, now);
    for (const char* key : {"evidence", "children", "pending", "background", "last"})
      row[key] = status[key];
    json notes = status["notes"];
    if (!watch_.uses_inotify()) notes.push_back("inotify is not available here: the files were polled");
    row["notes"] = std::move(notes);
    env.summary["fired"] = row["fired"];
    env.summary["timed_out"] = timed_out;
    env.summary["verdict"] = status_.verdict;
    env.summary["skipped_lines"] = skipped_ + status_.skipped_lines;
    if (timed_out)
      env.notes.push_back(
          "wait: the timeout expired before any condition fired (exit status 124); the report "
          "above is the session's state at exit");
    return env;
  }

  const WaitRequest& req_;
  ToolContext& ctx_;
  FileWatch watch_;
  Clock::time_point start_ = Clock::now();
  StatusJoin status_;
  Census census_;
  std::string fired_, fired_by_;
  uint64_t skipped_ = 0;
  int64_t last_status_ms_ = 0, last_report_ms_ = 0;
};

}  // namespace

Envelope run_wait(const json& args, ToolContext& ctx) {
  const WaitRequest req = parse_wait_request(args, ctx);
  Waiter waiter(req, ctx);
  return waiter.run();
}

std::string render_wait_text(const Envelope& env, const json&, const ToolContext&) {
  std::string out;
  for (const auto& row : env.rows) {
    out += "wait " + row["session_id"].get<std::string>() + ": fired " + row["fired"].get<std::string>();
    if (row["fired_by"].is_string()) out += " (" + row["fired_by"].get<std::string>() + ")";
    out += " after " + seconds_text(static_cast<int64_t>(row["waited_secs"].get<double>() * 1000)) +
           "; verdict " + row["verdict"].get<std::string>() + "\n";
    out += "at exit: " + row["at_exit"].get<std::string>() + "\n";
    const json& a = row["activity"];
    std::string tools;
    for (const auto& [name, n] : a["tool_calls"].items())
      tools += (tools.empty() ? "" : ", ") + name + " " + std::to_string(n.get<size_t>());
    out += "activity: " + std::to_string(a["records"].get<size_t>()) +
           " record(s); tool calls: " + (tools.empty() ? "none" : tools) + "; thinking " +
           std::to_string(a["thinking"].get<size_t>()) + "; messages " +
           std::to_string(a["messages"].get<size_t>()) + "; prompts " +
           std::to_string(a["prompts"].get<size_t>()) + "; notifications " +
           std::to_string(a["notifications"].get<size_t>()) + "; lanes joined " +
           std::to_string(a["lanes_joined"].size()) + "\n";
    json block = row;
    block.erase("tail_state");
    out += render_live_block(block, now_ms());
  }
  return out;
}

}  // namespace csift
