// The per-session digest: one front-to-back read of the transcript through its harness's reader, pairing
// each tool call with its first result. Everything before from_offset is read too (a call made there may
// have its result after it) but only what a line at or after from_offset completes is counted or reported.
// Under the session cap, events are kept in the order their completing line appears, and the watermark
// (covered_size) stops at the line completing the first one left out.
#include "core/triage/session_digest.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "core/base/text.h"
#include "core/base/timefmt.h"
#include "core/record/transcript_reader.h"
#include "core/scrub/scrubber.h"
#include "core/triage/call_facts.h"
#include "core/triage/digest_text.h"
#include "core/triage/log_facts.h"
#include "core/triage/result_excerpt.h"
#include "core/triage/tool_outcome.h"

namespace csift {

namespace {

using ojson = nlohmann::ordered_json;

// One item the cap decides on: an event, or a retry (which completes on the retrying call's line).
struct DigestItem {
  ojson json;
  bool is_retry = false;
  uint64_t order = 0;        // log order of the prompt or call
  uint64_t done_offset = 0;  // start of the line that completes it
  uint64_t done_seq = 0;     // order among items completed by the same line
  std::string denial_span;   // a denied call's span (enters denials[])
  ojson flag;                // a flagged prompt's {span, phrase}, or null
};

struct CallSeen {
  std::string tool;
  std::string input_json;
  std::string span;
  std::string at;
  std::string digest;
  uint64_t order = 0;
  bool answered = false;
  bool answered_ok = false;  // its result was ok (a later Codex record may still fail it)
};

struct DigestCounts {
  uint64_t entries = 0, prompts = 0, tool_calls = 0, tool_errors = 0, interrupts = 0, denials = 0,
           unparsed = 0;
};

std::string digest_entry_span(const Record& r) {
  return r.uuid.empty() ? "L" + std::to_string(r.offset) : r.uuid;
}

// A tool call's span (SPEC.md §13.2): Codex names a call by its call id; OpenCode by the message and the
// call; every other harness by the entry carrying the call.
std::string digest_call_span(HarnessId harness, const Record& r, const Block& use) {
  if (harness == HarnessId::codex && !use.id.empty()) return use.id;
  if (is_opencode(harness)) return digest_entry_span(r) + "/" + use.id;
  return digest_entry_span(r);
}

std::string digest_utc(const std::string& timestamp) {
  if (timestamp.empty()) return "";
  const auto ms = parse_iso8601(timestamp);
  return ms ? format_utc(*ms) : timestamp;
}

// The human's text of a prompt record: its string content, else its text blocks joined.
std::string digest_prompt_text(const Record& r) {
  if (r.message.content_is_string) return r.message.content_string;
  std::string out;
  for (const Block& b : r.message.blocks)
    if (b.kind == BlockKind::text) out += (out.empty() ? "" : "\n") + b.text;
  if (out.empty()) out = r.content_text;
  return out;
}

std::string digest_assistant_text(const Record& r) {
  if (r.message.role != "assistant") return "";
  if (r.message.content_is_string) return r.message.content_string;
  std::string out;
  for (const Block& b : r.message.blocks)
    if (b.kind == BlockKind::text && !trim(b.text).empty()) out += (out.empty() ? "" : "\n") + b.text;
  return out;
}

bool digest_is_absolute(const std::string& p) {
  return (!p.empty() && p[0] == '/') || (p.size() > 2 && p[1] == ':' && (p[2] == '\\' || p[2] == '/'));
}

class DigestBuilder : public RecordSink {
 public:
  DigestBuilder(const SessionDigestInput& in, const Scrubber& scrubber)
      : in_(in), scrubber_(scrubber), turn_rule_(turn_rule_of(*in.transcript)) {
    if (in.facts) facts_.emplace(in.complete_size);
  }

  bool record(Record&& r) override {
    if (r.offset >= in_.complete_size) return false;  // past the complete lines this digest covers
    if (facts_) facts_->record(r);
    if (r.offset < in_.from_offset) last_line_before_ = std::max(last_line_before_, r.line);
    if (turn_rule_.is_foreign(r)) return true;
    const bool fresh = r.offset >= in_.from_offset;
    if (fresh) ++counts_.entries;
    note_metadata(r);
    uint64_t seq = 0;
    bool closed_interrupted = false;
    for (const Block& b : r.message.blocks) {
      if (b.kind == BlockKind::tool_use) on_call(r, b, fresh, seq);
      if (b.kind == BlockKind::tool_result) closed_interrupted |= on_result(r, b, fresh, seq);
    }
    if (turn_rule_.opens_turn(r) && !is_interrupt_entry(in_.transcript->harness, r)) on_prompt(r, fresh, seq);
    // Claude Code writes the interrupt twice: as the call's result and as a text entry after it.
    if (is_interrupt_entry(in_.transcript->harness, r) && fresh && !previous_closed_interrupted_)
      ++counts_.interrupts;
    previous_closed_interrupted_ = closed_interrupted;
    if (const std::string text = digest_assistant_text(r); !text.empty()) final_text_ = text;
    return true;
  }

  void skipped(SkippedLine&& s) override {
    if (s.reason.starts_with("torn")) return;
    if (s.line > last_line_before_) ++counts_.unparsed;
  }

  SessionDigestResult finish(const ReadStats& stats);
  std::optional<LogFactsTally> facts_;

 private:
  void note_metadata(const Record& r) {
    if (digest_is_absolute(r.cwd)) {
      if (std::find(cwds_.begin(), cwds_.end(), r.cwd) == cwds_.end()) cwds_.push_back(r.cwd);
      last_cwd_ = r.cwd;
    }
    // The earliest and latest times: a message written again later (Gemini CLI) keeps its first time.
    if (const auto ms = r.timestamp.empty() ? std::nullopt : parse_iso8601(r.timestamp)) {
      if (!first_ms_ || *ms < *first_ms_) first_ms_ = ms;
      if (!last_ms_ || *ms > *last_ms_) last_ms_ = ms;
    }
    if (!r.message.model.empty() && r.message.model != "<synthetic>") model_ = r.message.model;
  }

  std::string scrubbed_cut(std::string_view text, size_t cap, ojson& into, const char* key) {
    bool cut = false;
    const std::string clean = scrubber_.scrub(text);
    into[key] = cut_utf8(clean, cap, cut);
    if (cut) into[std::string(key) + "_full_bytes"] = clean.size();
    return clean;
  }

  void on_prompt(const Record& r, bool fresh, uint64_t& seq) {
    // A message written again under its id (Gemini CLI) is the same prompt.
    if (!r.uuid.empty() && !prompt_ids_.insert(r.uuid).second) return;
    if (!fresh) return;
    ++counts_.prompts;
    const std::string text = digest_prompt_text(r);
    DigestItem item;
    const std::string span = digest_entry_span(r);
    item.order = next_order_++;
    item.done_offset = r.offset;
    item.done_seq = seq++;
    item.json["type"] = "prompt";
    item.json["span"] = span;
    item.json["ref"] = ref_ + "#" + span;
    if (const std::string at = digest_utc(r.timestamp); !at.empty()) item.json["at"] = at;
    scrubbed_cut(first_non_empty_line(text), in_.caps.summary_bytes, item.json, "summary");
    if (const std::string phrase = flagged_phrase(text); !phrase.empty())
      item.flag = ojson{{"span", span}, {"phrase", phrase}};
    items_.push_back(std::move(item));
  }

  void on_call(const Record& r, const Block& use, bool fresh, uint64_t& seq) {
    if (use.id.empty() || calls_.count(use.id)) return;  // a message written again under its id
    if (fresh) ++counts_.tool_calls;
    CallSeen call{use.name,
                  use.input_json,
                  digest_call_span(in_.transcript->harness, r, use),
                  digest_utc(r.timestamp),
                  args_digest(use.input_json),
                  next_order_++,
                  false,
                  false};
    const auto earlier = failed_.find({call.tool, call.digest});
    if (fresh && earlier != failed_.end()) {
      DigestItem retry;
      retry.is_retry = true;
      retry.order = call.order;
      retry.done_offset = r.offset;
      retry.done_seq = seq++;
      retry.json = ojson{{"span", call.span},
                         {"of_span", earlier->second},
                         {"tool", call.tool},
                         {"args_digest", call.digest}};
      items_.push_back(std::move(retry));
    }
    calls_.emplace(use.id, std::move(call));
  }

  // Returns whether the result closed its call as interrupted.
  bool on_result(const Record& r, const Block& result, bool fresh, uint64_t& seq) {
    const auto it = calls_.find(result.tool_use_id);
    if (it == calls_.end()) return false;  // no call
    CallSeen& call = it->second;
    const CallOutcome outcome = call_outcome(in_.transcript->harness, r, result);
    // Not its first result: only a later Codex record that fails a call its first result left ok counts
    // (the reader emits one only then: an item or end event refining the status).
    const bool refines = call.answered && call.answered_ok && in_.transcript->harness == HarnessId::codex &&
                         outcome.status != CallStatus::ok;
    if (call.answered && !refines) return false;
    call.answered = true;
    call.answered_ok = outcome.status == CallStatus::ok;
    if (outcome.status == CallStatus::ok) return false;
    failed_.try_emplace({call.tool, call.digest}, call.span);
    if (!fresh) return outcome.status == CallStatus::interrupted;
    if (outcome.status == CallStatus::error) ++counts_.tool_errors;
    if (outcome.status == CallStatus::denied) ++counts_.denials;
    if (outcome.status == CallStatus::interrupted) ++counts_.interrupts;
    DigestItem item;
    item.order = call.order;
    item.done_offset = r.offset;
    item.done_seq = seq++;
    item.json["type"] = "tool_call";
    item.json["span"] = call.span;
    item.json["ref"] = ref_ + "#" + call.span;
    if (!call.at.empty()) item.json["at"] = call.at;
    item.json["tool"] = scrubber_.scrub(call.tool);
    item.json["args_digest"] = call.digest;
    item.json["status"] = call_status_name(outcome.status);
    item.json["error_class"] = outcome.error_class;
    item.json["exit_code"] = outcome.exit_code ? ojson(*outcome.exit_code) : ojson(nullptr);
    scrubbed_cut(result_excerpt_body(in_.transcript->harness, call.tool, result.content_text),
                 in_.caps.excerpt_bytes, item.json, "excerpt");
    item.json["self"] = is_self_call(call.tool, call.input_json);
    if (outcome.status == CallStatus::denied) item.denial_span = call.span;
    items_.push_back(std::move(item));
    return outcome.status == CallStatus::interrupted;
  }

 public:
  std::string ref_;

 private:
  const SessionDigestInput& in_;
  const Scrubber& scrubber_;
  TurnRule turn_rule_;
  DigestCounts counts_;
  std::vector<std::string> cwds_;
  std::string last_cwd_, model_, final_text_;
  std::optional<EpochMs> first_ms_, last_ms_;
  std::map<std::string, CallSeen> calls_;
  std::set<std::string> prompt_ids_;
  std::map<std::pair<std::string, std::string>, std::string> failed_;  // (tool, args digest) -> first span
  std::vector<DigestItem> items_;
  uint64_t next_order_ = 0;
  uint64_t last_line_before_ = 0;
  bool previous_closed_interrupted_ = false;
};

// Keeps the items completed first that fit in `budget` bytes; returns the offset of the line completing the
// first item left out (nullopt: all fit). Items completed by that same line are left out too, so the next
// digest, starting there, reports each of them exactly once.
std::optional<uint64_t> digest_apply_cap(std::vector<DigestItem>& items, int64_t budget) {
  std::vector<size_t> by_done(items.size());
  for (size_t i = 0; i < items.size(); ++i)
    by_done[i] = i;
  std::stable_sort(by_done.begin(), by_done.end(), [&](size_t a, size_t b) {
    return std::tie(items[a].done_offset, items[a].done_seq) <
           std::tie(items[b].done_offset, items[b].done_seq);
  });
  std::optional<uint64_t> stop;
  for (size_t i : by_done) {
    const DigestItem& it = items[i];
    int64_t cost = static_cast<int64_t>(it.json.dump().size()) + 1;
    if (!it.denial_span.empty()) cost += static_cast<int64_t>(it.denial_span.size()) + 3;
    if (!it.flag.is_null()) cost += static_cast<int64_t>(it.flag.dump().size()) + 1;
    if (cost > budget) {
      stop = it.done_offset;
      break;
    }
    budget -= cost;
  }
  if (stop) std::erase_if(items, [&](const DigestItem& it) { return it.done_offset >= *stop; });
  return stop;
}

SessionDigestResult DigestBuilder::finish(const ReadStats& stats) {
  SessionDigestResult out;
  out.project = cwds_.empty() ? "" : cwds_.front();
  out.cwds = cwds_;
  out.covered_size = in_.complete_size;
  if (!stats.error.empty()) out.error = stats.error;
  out.unreadable = stats.unreadable;
  ojson& s = out.session;
  const Transcript& t = *in_.transcript;
  s["ref"] = ref_;
  s["harness"] = std::string(harness_name(t.harness));
  s["session_id"] = ref_.substr(harness_name(t.harness).size() + 1);
  s["project"] = out.project.empty() ? ojson(nullptr) : ojson(scrubber_.scrub(out.project));
  s["cwd"] = last_cwd_.empty() ? ojson(nullptr) : ojson(scrubber_.scrub(last_cwd_));
  s["start"] = first_ms_ ? ojson(format_utc(*first_ms_)) : ojson(nullptr);
  s["end"] = last_ms_ ? ojson(format_utc(*last_ms_)) : ojson(nullptr);
  s["model"] = model_.empty() ? ojson(nullptr) : ojson(scrubber_.scrub(model_));
  s["from_offset"] = in_.from_offset;
  s["truncated"] = false;
  s["counts"] = ojson{{"entries", counts_.entries},       {"prompts", counts_.prompts},
                      {"tool_calls", counts_.tool_calls}, {"tool_errors", counts_.tool_errors},
                      {"interrupts", counts_.interrupts}, {"denials", counts_.denials},
                      {"unparsed", counts_.unparsed}};
  ojson tail;
  scrubbed_cut(final_text_, in_.caps.excerpt_bytes, tail, "final_excerpt");
  if (final_text_.empty()) tail["final_excerpt"] = nullptr;
  // What the session costs without its lists: the lists get the rest of the cap.
  ojson base = s;
  base["events"] = base["retries"] = base["denials"] = base["flagged"] = ojson::array();
  base.update(tail);
  const int64_t budget =
      static_cast<int64_t>(in_.caps.session_bytes) - static_cast<int64_t>(base.dump().size());
  if (const auto stop = digest_apply_cap(items_, budget)) {
    s["truncated"] = true;
    out.covered_size = *stop;
  }
  std::stable_sort(items_.begin(), items_.end(),
                   [](const DigestItem& a, const DigestItem& b) { return a.order < b.order; });
  ojson events = ojson::array(), retries = ojson::array(), denials = ojson::array(), flagged = ojson::array();
  for (DigestItem& it : items_) {
    if (!it.denial_span.empty()) denials.push_back(it.denial_span);
    if (!it.flag.is_null()) flagged.push_back(it.flag);
    (it.is_retry ? retries : events).push_back(std::move(it.json));
  }
  s["events"] = std::move(events);
  s["retries"] = std::move(retries);
  s["denials"] = std::move(denials);
  s["flagged"] = std::move(flagged);
  s.update(tail);
  return out;
}

}  // namespace

SessionDigestResult digest_session(const SessionDigestInput& in) {
  if (!in.transcript) {
    SessionDigestResult out;
    out.error = "no transcript was given to digest";
    return out;
  }
  const Transcript& t = *in.transcript;
  const Scrubber& scrubber = in.scrubber ? *in.scrubber : default_scrubber();
  if (in.from_offset > in.complete_size) {
    SessionDigestResult out;
    out.error = "the digest would start at byte " + std::to_string(in.from_offset) +
                ", past the session's complete lines (" + std::to_string(in.complete_size) +
                " bytes): the session was truncated since it was marked; digest it from 0";
    return out;
  }
  DigestBuilder builder(in, scrubber);
  const std::string prefix = std::string(harness_name(t.harness)) + ":";
  builder.ref_ = t.id.starts_with(prefix) ? t.id : prefix + t.id;
  ReadOptions opts;
  opts.sequential = true;
  const ReadStats stats = reader_for(t).read(t, opts, builder);
  if (in.facts) *in.facts = builder.facts_->finish(stats);
  return builder.finish(stats);
}

}  // namespace csift
