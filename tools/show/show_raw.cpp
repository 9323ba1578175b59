// show --raw: the VERBATIM line bytes of the addressed lines (malformed and torn lines included — the escape
// hatch for everything csift does not render). Reads the transcript only (no sidecar merge); caps by line.
#include "core/base/arg_ref.h"
#include "core/base/error.h"
#include "core/cache/result_memo_report.h"
#include "core/record/transcript_reader.h"
#include "tools/show/show_address.h"
#include "tools/show/show_line_facts.h"
#include "tools/show/show_load.h"
#include "tools/show/show_modes.h"

namespace csift {
namespace {

// Physical lines of the file, a torn tail included.
uint64_t count_lines(const Transcript& t, const CancelToken* cancel) {
  uint64_t total = 0;
  const ScanStats stats = reader_for(t).read_raw_lines(
      t,
      [&](const RawLine&) {
        ++total;
        return true;
      },
      cancel);
  if (!stats.error.empty()) failure_error("cannot read " + t.path + ": " + stats.error);
  return total;
}

// The lines of a turn window: from each turn's opener to the line before the next turn's opener (the last
// turn runs to the end of the file), so the verbatim slice keeps every line between, malformed ones included.
std::vector<LineSpan> turn_spans(const ShowRequest& req, const TurnOpeners& openers) {
  const int count = static_cast<int>(openers.lines.size());
  const auto range = resolve_range(req.turns, 0, int64_t{count} - 1);
  if (!range) not_found_error(turn_miss_message(req.turns, count));
  const uint64_t lo = openers.lines[range->lo];
  const uint64_t hi = range->hi + 1 < count ? openers.lines[range->hi + 1] - 1 : openers.physical_lines;
  return {LineSpan{lo, hi}};
}

std::vector<LineSpan> uuid_spans(const ShowRequest& req, const ClassifiedTranscript& ct) {
  std::vector<LineSpan> spans;
  std::string missing;
  for (const auto& u : req.uuids) {
    bool found = false;
    for (const auto& r : ct.read.records) {
      if (r.uuid != u) continue;
      spans.push_back(LineSpan{r.line, r.line});
      found = true;
    }
    if (!found) missing += (missing.empty() ? "" : ", ") + u;
  }
  if (!missing.empty()) {
    not_found_error("no such uuid(s): " + missing + " — no record line of " + ct.transcript.path +
                    " carries it");
  }
  std::sort(spans.begin(), spans.end(), [](const LineSpan& a, const LineSpan& b) { return a.lo < b.lo; });
  spans.erase(std::unique(spans.begin(), spans.end(),
                          [](const LineSpan& a, const LineSpan& b) { return a.lo == b.lo; }),
              spans.end());
  return spans;
}

// The addressed lines, and the indexed line start the read may begin at (the file's first byte without an
// index). Line addressing needs the file's line count (for ranges from the end), turn addressing the turn
// openers, uuid addressing the classified read.
struct RawAddress {
  std::vector<LineSpan> spans;
  LineIndex::Start start;
};

RawAddress addressed_spans(const ShowRequest& req, const Transcript& t, ResultMemo* memo,
                           const CancelToken* cancel, ResultMemoUse& use) {
  const auto index = show_line_index(t, memo, cancel, use);  // nullptr: lines synthesized from a database
  RawAddress a;
  if (req.mode == ShowAddressMode::line) {
    a.spans = resolve_line_spans(req.lines, index ? index->lines() : count_lines(t, cancel));
  } else if (req.mode == ShowAddressMode::turn) {
    a.spans = turn_spans(req, *show_turn_openers(t, memo, cancel, use));
  } else {
    a.spans = uuid_spans(req, load_uuid_records(req, t, cancel));
  }
  if (index && !a.spans.empty()) {
    uint64_t first = a.spans.front().lo;
    for (const LineSpan& s : a.spans)
      first = std::min(first, s.lo);
    a.start = index->start_at_or_before(first);
  }
  return a;
}

void add_raw_row(Envelope& env, uint64_t line, std::string bytes) {
  json& row = env.add_row("raw");
  row["line"] = line;
  row["text"] =
      std::move(bytes);  // exact bytes; the JSON dump replaces invalid UTF-8, the text render does not
}

}  // namespace

Envelope run_show_raw(const ShowRequest& req, const Transcript& t, ToolContext& ctx) {
  ResultMemoUse memo_use;
  const RawAddress address = addressed_spans(req, t, ctx.result_memo, ctx.cancel, memo_use);
  const std::vector<LineSpan>& spans = address.spans;
  Envelope env = Envelope::make("show");
  fill_show_header(env, req, t);

  uint64_t dropped = 0, first_dropped = 0, last_line = 0;
  const auto take = [&](uint64_t line, std::string bytes) {
    last_line = line;
    if (req.max_count != 0 && env.rows.size() >= req.max_count) {
      if (dropped++ == 0) first_dropped = line;
      return;
    }
    add_raw_row(env, line, std::move(bytes));
  };
  const uint64_t stop_after = spans.empty() ? 0 : spans.back().hi;
  reader_for(t).read_raw_lines_from(
      t, address.start.offset, address.start.line,
      [&](const RawLine& line) {
        if (in_spans(spans, line.line)) take(line.line, std::string(line.bytes));
        return line.line < stop_after;
      },
      ctx.cancel);

  env.summary["lines"] = env.rows.size();
  env.summary["dropped_by_cap"] = dropped;
  env.summary["cap"] = req.max_count;
  env.summary["refetch_remainder"] = nullptr;
  if (dropped) {
    const json more =
        json{{"targets", json::array({"@" + t.id})},
             {"line", json::array({std::to_string(first_dropped) + ".." + std::to_string(last_line)})},
             {"raw", true}};
    env.summary["refetch_remainder"] = follow_up_call("show", more);
    env.notes.push_back("+" + std::to_string(dropped) + " more line(s) beyond the " +
                        std::to_string(req.max_count) + "-line cap · continue: " + call_ref("show", more) +
                        " (or " + arg_ref("max_count") + " 0 = uncapped)");
  }
  env.summary["with_elicitation_sidecar"] = false;
  report_result_memo(env, memo_use);
  return env;
}

}  // namespace csift
