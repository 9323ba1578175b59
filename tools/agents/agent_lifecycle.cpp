#include "tools/agents/agent_lifecycle.h"

#include <optional>
#include <unordered_set>

#include "core/base/timefmt.h"
#include "core/record/transcript_reader.h"
#include "core/record/turns.h"

namespace csift {
namespace {

bool is_conversation(const Record& r) {
  return (r.type == "user" || r.type == "assistant") && r.message.present;
}

std::string assistant_text(const Record& r) {
  std::string text;
  for (const Block& b : r.message.blocks)
    if (b.kind == BlockKind::text && !b.text.empty()) text += (text.empty() ? "" : "\n") + b.text;
  if (text.empty() && r.message.content_is_string) text = r.message.content_string;
  return text;
}

class LifecycleScan {
 public:
  explicit LifecycleScan(const Transcript& t) : transcript_(t), spawns_(t.id) {}

  AgentLifecycle run(const CancelToken* cancel) {
    ReadOptions opts;
    opts.sequential = true;
    opts.parse_first_line = true;
    opts.cancel = cancel;
    const ReadStats stats = for_each_record(transcript_, opts, [this](Record&& r) {
      take(std::move(r));
      return true;
    });
    out_.skipped_lines = stats.skipped_lines;
    out_.error = stats.error;
    out_.tokens = ledger_.totals();
    out_.turns = skeleton_.number().turn_count;
    if (stats.error.empty() && !stats.cancelled) spawns_.join_results_before_calls(transcript_, cancel);
    out_.spawns = spawns_.finish();
    decide_status();
    return std::move(out_);
  }

 private:
  const Transcript& transcript_;
  AgentLifecycle out_;
  SpawnCollector spawns_;
  TokenLedger ledger_;
  TurnSkeleton skeleton_{turn_rule_of(transcript_)};  // what turn numbering needs of each record
  std::optional<EpochMs> first_, last_;
  std::unordered_set<std::string> unanswered_;  // tool_use ids with no result yet
  // results written before their call (a streamed parallel batch): the call, when it comes, is answered
  std::unordered_set<std::string> answered_first_;
  // The newest conversation record: was it an assistant answer with no open call?
  bool last_is_answer_ = false;
  std::string last_call_id_, last_call_name_, last_call_ts_;

  void note_time(const Record& r) {
    const auto t = parse_iso8601(r.timestamp);
    if (!t) return;
    if (!first_ || *t < *first_) first_ = t, out_.first_timestamp = r.timestamp;
    if (!last_ || *t >= *last_) last_ = t, out_.last_timestamp = r.timestamp;
  }

  void take(Record&& r) {
    note_time(r);
    ledger_.admit(r);
    spawns_.take(r);
    skeleton_.keep(r);
    if (!is_conversation(r)) return;
    last_is_answer_ = false;
    last_call_id_.clear();
    for (const Block& b : r.message.blocks) {
      if (b.kind == BlockKind::tool_use) {
        ++out_.tool_calls[b.name];
        if (!answered_first_.erase(b.id)) unanswered_.insert(b.id);
        last_call_id_ = b.id;
        last_call_name_ = b.name;
        last_call_ts_ = r.timestamp;
      } else if (b.kind == BlockKind::tool_result) {
        if (!unanswered_.erase(b.tool_use_id)) answered_first_.insert(b.tool_use_id);
      }
    }
    if (r.type == "assistant") {
      const std::string text = assistant_text(r);
      if (!text.empty()) out_.tail_text = text;
      last_is_answer_ = !text.empty() && last_call_id_.empty();
    }
  }

  void decide_status() {
    if (out_.last_timestamp.empty()) {
      out_.status = "unknown";
    } else if (!last_call_id_.empty() && unanswered_.count(last_call_id_)) {
      out_.status = "running";  // frozen on a call that never returned
      out_.pending_tool_use_id = last_call_id_;
      out_.pending_tool_name = last_call_name_;
      out_.pending_since = last_call_ts_;
    } else {
      out_.status = last_is_answer_ ? "completed" : "running";
    }
  }
};

}  // namespace

AgentLifecycle read_agent_lifecycle(const Transcript& agent, const CancelToken* cancel) {
  return LifecycleScan(agent).run(cancel);
}

}  // namespace csift
