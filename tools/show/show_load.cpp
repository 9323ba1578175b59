#include "tools/show/show_load.h"

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <set>

#include "core/search/addressed_load.h"
#include "tools/show/show_address.h"
#include "tools/show/show_line_facts.h"

namespace csift {
namespace {

// Whether an address naming `addressed_lines` of the file's lines is read whole: the sparse read parses on
// one thread (a line address) or fetches back what it declined on one thread (a turn address), where the full
// read parses in parallel chunks. A line address is weighed before any read: read whole above a quarter. A
// turn address is weighed once the sparse read has numbered the turns, which is then paid for, so it is read
// again whole only above half: a 27 MB real-shaped file whose last turn held 27 % of its lines took 111 ms of
// CPU read again whole and 49 ms completed; on the 24 MB generated session (best of three, wall) the last
// turns holding 36 % of the lines took 84 ms completed against 123 ms whole, those holding 74 % 144 against
// 123 ms.
// CSIFT_SHOW_SPARSE=1 reads every address sparsely when it can (tests compare it with the full read on small
// files, where most addresses name a quarter).
bool names_most_of(uint64_t addressed_lines, uint64_t total_lines, uint64_t share_denominator) {
  static const bool always_sparse = [] {
    const char* v = std::getenv("CSIFT_SHOW_SPARSE");
    return v && std::string_view(v) == "1";
  }();
  return !always_sparse && addressed_lines * share_denominator > total_lines;
}

uint64_t span_lines(const std::vector<LineSpan>& spans) {
  uint64_t n = 0;
  for (const LineSpan& s : spans)
    n += s.hi - s.lo + 1;
  return n;
}

// A --line address: its spans are resolved against the remembered line count, which the read must confirm
// (a file that changed in between is read whole, as one snapshot).
std::optional<ClassifiedTranscript> load_lines(const ShowRequest& req, const Transcript& t, ResultMemo* memo,
                                               const CancelToken* cancel, ResultMemoUse& use) {
  const auto index = show_line_index(t, memo, cancel, use);
  if (!index) return std::nullopt;
  AddressedLines address;
  address.lines = resolve_line_spans(req.lines, index->lines());
  if (names_most_of(span_lines(address.lines), index->lines(), 4)) return std::nullopt;
  auto load = load_addressed(t, address, /*merge_sidecar=*/true, cancel);
  if (!load || load->ct.read.lines != index->lines()) return std::nullopt;
  complete_tool_partners(*load, addressed_records(address), cancel);
  return std::move(load->ct);
}

// A --uuid address. A uuid the load found on no record is left to the full read, whose error counts the
// uuids the file holds.
std::optional<ClassifiedTranscript> load_uuids(const ShowRequest& req, const Transcript& t,
                                               const CancelToken* cancel) {
  AddressedLines address;
  address.uuids = req.uuids;
  auto load = load_addressed(t, address, /*merge_sidecar=*/true, cancel);
  if (!load) return std::nullopt;
  const auto& records = load->ct.read.records;
  for (const std::string& u : req.uuids) {
    if (std::none_of(records.begin(), records.end(), [&](const Record& r) { return r.uuid == u; }))
      return std::nullopt;
  }
  complete_tool_partners(*load, addressed_records(address), cancel);
  return std::move(load->ct);
}

// A --turn address: the load numbers the turns from the openers it parsed, then reads the addressed ones
// back whole. A range naming no turn is left to the full read's error.
std::optional<ClassifiedTranscript> load_turns(const ShowRequest& req, const Transcript& t,
                                               const CancelToken* cancel) {
  auto load = load_addressed(t, AddressedLines{}, /*merge_sidecar=*/true, cancel);
  if (!load) return std::nullopt;
  const ClassifiedTranscript& ct = load->ct;
  const int count = ct.turns.turn_count;
  const auto range = resolve_range(req.turns, 0, int64_t{count} - 1);
  if (!range) return std::nullopt;
  const auto opener_line = [&](int64_t turn) {
    return turn < count ? ct.read.records[ct.turns.opener_index[static_cast<size_t>(turn)]].line
                        : ct.read.lines + 1;
  };
  if (names_most_of(opener_line(range->hi + 1) - opener_line(range->lo), ct.read.lines, 2))
    return std::nullopt;
  std::set<int> turns;
  for (int64_t k = range->lo; k <= range->hi; ++k)
    turns.insert(static_cast<int>(k));
  complete_turns(*load, turns, cancel);
  return std::move(load->ct);
}

}  // namespace

ClassifiedTranscript load_for_show(const ShowRequest& req, const Transcript& t, ResultMemo* memo,
                                   const CancelToken* cancel, ResultMemoUse& use) {
  std::optional<ClassifiedTranscript> sparse;
  switch (req.mode) {
    case ShowAddressMode::line:
      sparse = load_lines(req, t, memo, cancel, use);
      break;
    case ShowAddressMode::uuid:
      sparse = load_uuids(req, t, cancel);
      break;
    default:
      sparse = load_turns(req, t, cancel);
  }
  if (sparse) return std::move(*sparse);
  return load_classified_transcript(t, /*merge_sidecar=*/true, cancel);
}

ClassifiedTranscript load_uuid_records(const ShowRequest& req, const Transcript& t,
                                       const CancelToken* cancel) {
  AddressedLines address;
  address.uuids = req.uuids;
  if (auto load = load_addressed(t, address, /*merge_sidecar=*/false, cancel)) return std::move(load->ct);
  return load_classified_transcript(t, /*merge_sidecar=*/false, cancel);
}

}  // namespace csift
