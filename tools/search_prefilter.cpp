#include "tools/search_prefilter.h"

#include <atomic>

#include "core/record_parser.h"

namespace csift {
namespace {

// Lines whose matchable text is fabricated by a render (so the raw bytes may lack the pattern's needles): the
// record is parsed whenever one of these occurs, and the regex decides on the rendered text.
std::vector<std::string> synthesized_markers(const SearchRequest& req, bool diagnose) {
  const LabelFilter& f = req.labels;
  auto admits = [&](Label l) { return diagnose || f.admits(l); };
  auto reaches = [&](Label l) { return f.explicitly_reaches(l); };
  std::vector<std::string> m = {
      "<task-notification>", "User has answered your questions", "Your questions have been answered",
      "The user answered:",  "The user doesn't want to proceed", "<command-name>",
      "<command-message>"};
  if (admits(Label::harness_compaction_boundary)) m.push_back("compact_boundary");
  if (reaches(Label::harness_meta_turn_duration)) m.push_back("turn_duration");
  if (reaches(Label::harness_meta_stop_hooks)) m.push_back("stop_hook_summary");
  if (reaches(Label::harness_meta_snapshot)) m.push_back("file-history-");
  if (reaches(Label::harness_meta_away_summary)) m.push_back("away_summary");
  if (reaches(Label::harness_meta_system)) m.push_back("\"subtype\"");
  if (req.resolve_persisted) m.push_back("persisted-output");
  return m;
}

}  // namespace

SearchPrefilter::SearchPrefilter(const SearchRequest& req, bool diagnose_labels) {
  const NeedleSet& ns = req.compiled->needles();
  if (!ns.empty()) {
    needles_.emplace(ns.all(), ns.caseless);
    markers_.emplace(synthesized_markers(req, diagnose_labels), false);
  }
  queue_ = req.labels.explicitly_reaches(Label::user_queued);
  snapshot_ = req.labels.explicitly_reaches(Label::harness_meta_snapshot);
  attachments_ = req.attachments;
}

bool SearchPrefilter::may_match(std::string_view line) const {
  if (!needles_) return true;
  return needles_->contains(line) || markers_->contains(line);
}

// Only the three record types whose every unit is a gated leaf are refused at byte level; finer gating
// (gated system subtypes) happens on the classified labels, so this stays a conservative superset.
bool SearchPrefilter::label_candidate(std::string_view line) const {
  if (line_has_any_role(line)) return true;
  const std::string type = peek_type(line);
  if (type == "attachment") return attachments_;
  if (type == "queue-operation") return queue_;
  if (type == "file-history-snapshot") return snapshot_;
  return true;
}

// Runs the reader with a `want` that declines every line, so the reader's own shape check counts malformed
// lines; a line the full read would parse is validated here, so the malformed count is the same whether or
// not the gate fires (simdjson validation, no allocation per line).
SearchPrefilter::GateResult SearchPrefilter::skim(const Transcript& t, const CancelToken* cancel) const {
  CancelToken stop;
  std::atomic<bool> hit{false};
  std::atomic<uint64_t> invalid{0};
  ReadOptions options;
  options.cancel = &stop;
  options.want = [&](std::string_view line) {
    if (cancel && cancel->is_cancelled()) stop.cancelled.store(true);
    if (may_match(line)) {
      hit.store(true);
      stop.cancelled.store(true);
      return false;
    }
    if (!line_shape_malformed(line) && label_candidate(line)) {
      thread_local RecordParser parser;
      if (!parser.validate(line)) invalid.fetch_add(1);
    }
    return false;
  };
  const ReadResult r = claude_code_reader().read(t, options);
  GateResult out;
  out.may_match = hit.load();
  out.cancelled = cancel && cancel->is_cancelled();
  out.error = r.error;
  out.skipped_lines = r.skipped_lines + invalid.load();
  return out;
}

}  // namespace csift
