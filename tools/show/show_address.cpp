#include "tools/show/show_address.h"

#include <algorithm>
#include <unordered_map>

#include "core/base/arg_ref.h"
#include "core/base/error.h"
#include "core/harness/claude_code/claude_fields.h"
#include "core/record/labels.h"

namespace csift {

const char* const kRawOnlyLines =
    "what only raw shows: the session-state cache lines (mode, ai-title, agent-name, permission-mode), a "
    "content-less queue dequeue, the bookkeeping types bridge-session and fork-context-ref, and blank, "
    "malformed or torn lines";

namespace {

std::string line_domain(uint64_t total) {
  if (total == 0) return "the transcript has 0 lines";
  return "the transcript has " + std::to_string(total) + " line(s) (L1..L" + std::to_string(total) + ")";
}

// What sits on a line that rendered nothing, for the --raw pointer.
std::string describe_line(const ClassifiedTranscript& ct, uint64_t line) {
  for (const auto& s : ct.read.skipped) {
    if (s.line == line) return s.reason;
  }
  for (size_t i = 0; i < ct.transcript_entries; ++i) {
    const Record& r = *ct.entries[i].record;
    if (r.line == line) {
      std::string what = "a \"" + r.type + "\" line";
      if (!r.subtype.empty()) what += " (subtype " + r.subtype + ")";
      if (!queue_operation(r).empty()) what += " (operation " + queue_operation(r) + ")";
      return what + " that is not a rendered record";
    }
  }
  return "a blank line";
}

// `single_line` is the one addressed line (0 when the address names several).
[[noreturn]] void raw_pointer_error(const ClassifiedTranscript& ct, const ShowRequest& req,
                                    uint64_t single_line, uint64_t addressed_lines) {
  const std::string what =
      single_line
          ? "L" + std::to_string(single_line) + " is " + describe_line(ct, single_line)
          : "none of the " + std::to_string(addressed_lines) + " addressed line(s) is a rendered record";
  json call = address_args(req);
  call["targets"] = json::array({"@" + ct.owner.id});
  call["raw"] = true;
  not_found_error("show " + address_text(req) + " renders nothing: " + what + " — inspect it verbatim with " +
                  arg_ref("raw") + ": " + call_ref("show", call) + " (" + kRawOnlyLines + ")");
}

// A turn fetch is the conversation: gated leaves (queue, telemetry, snapshots, system subtypes) and
// attachment records stay out unless a --line/--uuid address names them.
bool omitted_from_turn(const ClassifiedEntry& e, const Unit& u) {
  if (e.record->type == "attachment") return true;
  return std::all_of(u.labels.begin(), u.labels.end(), [](Label l) { return label_gated(l); });
}

SelectedEntry all_units(size_t entry, const ClassifiedEntry& e) {
  SelectedEntry s{entry, {}};
  for (size_t u = 0; u < e.units.size(); ++u)
    s.units.push_back(u);
  return s;
}

ShowSelection select_lines(const ShowRequest& req, const ClassifiedTranscript& ct) {
  const auto spans = resolve_line_spans(req.lines, ct.read.lines);
  ShowSelection sel;
  uint64_t addressed = 0;
  for (const auto& s : spans)
    addressed += s.hi - s.lo + 1;
  for (size_t i = 0; i < ct.transcript_entries; ++i) {
    const auto& e = ct.entries[i];
    if (!e.units.empty() && in_spans(spans, e.record->line)) sel.entries.push_back(all_units(i, e));
  }
  sel.non_record_lines = addressed - sel.entries.size();
  // An address open at the end (`N..`, `..`) reaches past the last line: the merged pending records.
  const bool open_end =
      std::any_of(req.lines.begin(), req.lines.end(), [](const RangeSpec& r) { return !r.hi; });
  for (size_t i = ct.transcript_entries; open_end && i < ct.entries.size(); ++i) {
    sel.entries.push_back(all_units(i, ct.entries[i]));
  }
  if (sel.entries.empty()) {
    const bool single = spans.size() == 1 && spans.front().lo == spans.front().hi;
    raw_pointer_error(ct, req, single ? spans.front().lo : 0, addressed);
  }
  return sel;
}

ShowSelection select_uuids(const ShowRequest& req, const ClassifiedTranscript& ct) {
  std::unordered_map<std::string, std::vector<size_t>> by_uuid;
  for (size_t i = 0; i < ct.entries.size(); ++i) {
    if (!ct.entries[i].record->uuid.empty()) by_uuid[ct.entries[i].record->uuid].push_back(i);
  }
  std::string missing;
  std::vector<size_t> hits;
  for (const auto& u : req.uuids) {
    const auto it = by_uuid.find(u);
    if (it == by_uuid.end()) {
      missing += (missing.empty() ? "" : ", ") + u;
      continue;
    }
    hits.insert(hits.end(), it->second.begin(), it->second.end());
  }
  if (!missing.empty()) {
    not_found_error("no such uuid(s): " + missing + " — none of the " + std::to_string(by_uuid.size()) +
                    " record uuid(s) of " + ct.transcript.path + " matches (record uuids, not message ids)");
  }
  std::sort(hits.begin(), hits.end());
  hits.erase(std::unique(hits.begin(), hits.end()), hits.end());
  ShowSelection sel;
  for (const size_t i : hits) {
    if (ct.entries[i].units.empty()) {
      ++sel.non_record_lines;
    } else {
      sel.entries.push_back(all_units(i, ct.entries[i]));
    }
  }
  if (sel.entries.empty()) {
    raw_pointer_error(ct, req, hits.size() == 1 ? ct.entries[hits.front()].record->line : 0, hits.size());
  }
  return sel;
}

ShowSelection select_turns(const ShowRequest& req, const ClassifiedTranscript& ct) {
  const int count = ct.turns.turn_count;
  const auto range = resolve_range(req.turns, 0, int64_t{count} - 1);
  if (!range) not_found_error(turn_miss_message(req.turns, count));
  ShowSelection sel;
  for (size_t i = 0; i < ct.entries.size(); ++i) {
    const auto& e = ct.entries[i];
    if (e.superseded_draft || e.turn_index < range->lo || e.turn_index > range->hi) continue;
    SelectedEntry s{i, {}};
    for (size_t u = 0; u < e.units.size(); ++u) {
      if (!omitted_from_turn(e, e.units[u])) s.units.push_back(u);
    }
    if (!s.units.empty()) {
      sel.entries.push_back(std::move(s));
    } else if (!e.units.empty()) {
      ++sel.gated_omitted;
    }
  }
  if (sel.entries.empty()) {
    not_found_error("show " + address_text(req) +
                    " renders nothing: the addressed turn(s) hold no rendered record");
  }
  return sel;
}

}  // namespace

std::string turn_miss_message(const RangeSpec& turns, int turn_count) {
  const std::string domain = turn_count == 0 ? "the transcript has 0 turns"
                                             : "the transcript has " + std::to_string(turn_count) +
                                                   " turn(s) (t0..t" + std::to_string(turn_count - 1) + ")";
  return "no such turn(s): t" + turns.text + " — " + domain +
         "; a range is clamped to the transcript, and nothing of this one is in it";
}

std::vector<LineSpan> resolve_line_spans(const std::vector<RangeSpec>& specs, uint64_t total_lines) {
  std::vector<LineSpan> spans;
  std::string missing;
  for (const auto& spec : specs) {
    const auto r = resolve_range(spec, 1, static_cast<int64_t>(total_lines));
    if (r) {
      spans.push_back(LineSpan{static_cast<uint64_t>(r->lo), static_cast<uint64_t>(r->hi)});
    } else if (!spec.open) {
      missing += (missing.empty() ? "L" : ", L") + spec.text;
    }
  }
  if (!missing.empty() || spans.empty()) {
    if (missing.empty()) {
      for (const auto& spec : specs)
        missing += (missing.empty() ? "L" : ", L") + spec.text;
    }
    not_found_error("no such line(s): " + missing + " — " + line_domain(total_lines));
  }
  std::sort(spans.begin(), spans.end(), [](const LineSpan& a, const LineSpan& b) { return a.lo < b.lo; });
  std::vector<LineSpan> merged;
  for (const auto& s : spans) {
    if (!merged.empty() && s.lo <= merged.back().hi + 1) {
      merged.back().hi = std::max(merged.back().hi, s.hi);
    } else {
      merged.push_back(s);
    }
  }
  return merged;
}

ShowSelection select_addressed(const ShowRequest& req, const ClassifiedTranscript& ct) {
  switch (req.mode) {
    case ShowAddressMode::line:
      return select_lines(req, ct);
    case ShowAddressMode::uuid:
      return select_uuids(req, ct);
    default:
      return select_turns(req, ct);
  }
}

}  // namespace csift
