// Reads and classifies one transcript for the core searcher (a `search` call).
//
// Dense (no required needle, or a session with an elicitation sidecar, whose ghost guard needs every native
// tool id): every line a label gate admits is parsed, as load_classified_transcript does.
//
// Sparse (the pattern has required needles): only the lines that can match (a needle or a synthesized-text
// marker), the possible turn openers (so turn numbers are exact) and line 1 (a /fork clone is known by it)
// are parsed; every other line is checked for well-formedness and remembered by position. Two completions
// then read remembered lines back (core/scan/line_fetch.h):
// - tool partners: a record's classification depends on its tool partner (a result is named by its
//   tool_use; a spawn's result is an inbox; a rejection cites the plan file), so each parsed record's tool
//   ids are paired up — first within its turn, then anywhere — before any record is matched;
// - whole turns: an exchange whose hit opens a turn shows the turn's answer, and --siblings shows the
//   turn's context, so those turns are read whole (every line the label gates admit), as the dense load has
//   them.
// When the gate saw a needle on a fifth of its hit block's lines (a common word), the load is dense from the
// start: piecemeal completion would cost more than it saves.
// A line without a needle cannot match, so the hits, their labels and everything an exchange renders are
// the dense load's; tests/cli/test_search_sparse.py compares the two on the fixtures and the corpus.
#include <sys/stat.h>

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string_view>
#include <unordered_set>

#include "core/base/error.h"
#include "core/harness/claude_code/claude_fields.h"
#include "core/scan/line_fetch.h"
#include "core/search/search_load.h"

namespace csift {
namespace {

bool file_exists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

bool fetch_declined(SearchLoad& load, const std::function<bool(size_t)>& eligible,
                    const std::function<bool(std::string_view)>& pick, const CancelToken* cancel);

}  // namespace

std::vector<Label> surviving_labels(const SearchConfig& cfg, const Unit& u, bool ignore_filter) {
  std::vector<Label> out;
  for (const Label l : u.labels)
    if (label_survives(cfg, l, ignore_filter)) out.push_back(l);
  std::stable_sort(out.begin(), out.end(),
                   [](Label a, Label b) { return label_richness(a) < label_richness(b); });
  return out;
}

bool dense_forced() {
  const char* v = std::getenv("CSIFT_SEARCH_DENSE");
  return v && *v && std::string_view(v) != "0";
}

bool has_sidecar(const Transcript& t) {
  return !t.is_subagent && !t.session_dir_absent && t.session_dir_may_hold_sidecar() &&
         file_exists(sidecar_path(t));
}

SearchLoad load_for_search(const Transcript& t, bool sidecar, const SearchPrefilter& pf,
                           const CancelToken* cancel, double needle_line_share, RawLineSketcher* raw,
                           const CountedLoad* counted, bool needles_only,
                           std::shared_ptr<const FileBytes> bytes) {
  // A needle on a fifth of the lines or more (a common word): piecemeal completion would read most of the
  // file back and classify it several times, so read it densely (bench store: 'scanner' -c 4.6 s sparse, 3.3
  // s dense). The share comes from the gate's first hit block.
  const bool common = needle_line_share >= 0.2;
  const RawLineProbes* probes = reader_for(t).raw_probes();
  if (!probes || sidecar || !pf.gates_files() || common || dense_forced()) {
    std::function<bool(std::string_view)> want;
    std::function<ReadOptions::Keyed(std::string_view, const std::vector<OuterKey>&)> want_keyed;
    if (!sidecar && probes) {
      want = [&pf, probes](std::string_view line) { return pf.label_candidate(line, *probes); };
      if (counted && counted->admitted_lines_only && probes->label_key_depth() > 0)
        want_keyed = [&pf, probes](std::string_view line, const std::vector<OuterKey>& keys) {
          return pf.labels_may_survive(line, keys, *probes) ? ReadOptions::Keyed::parse
                                                            : ReadOptions::Keyed::decline;
        };
    }
    ReadOptions options;
    options.cancel = cancel;
    options.want = std::move(want);
    options.want_keyed = std::move(want_keyed);
    if (options.want_keyed) options.keyed_depth = probes->label_key_depth();
    options.payloads = counted && counted->labels_only && !sidecar ? ReadOptions::Payloads::skip
                                                                   : ReadOptions::Payloads::full;
    options.preloaded = std::move(bytes);
    SearchLoad load;
    load.ct = load_classified_transcript(t, /*merge_sidecar=*/sidecar, std::move(options),
                                         counted ? counted->visit : EntryVisitor(),
                                         counted ? counted->context : nullptr);
    return load;
  }
  ReadOptions options;
  options.cancel = cancel;
  options.parse_first_line = true;
  // The byte screens first, the record-type gate only for a line they keep (most lines hold no needle and
  // open no turn): the same lines, fewer probes. may_open_turn walks a tool result's whole message, which
  // made it a fifth of a cold absent search (bench/README.md "The cold path, second pass").
  options.want = [&pf, probes, raw, needles_only](std::string_view line) {
    if (raw) raw->add(line);
    return (pf.may_match(line) || (!needles_only && probes->may_open_turn(line))) &&
           pf.label_candidate(line, *probes);
  };
  SearchLoad load = read_sparse(
      t, std::move(options),
      [&pf, probes](std::string_view line) { return pf.label_candidate(line, *probes); }, std::move(bytes));
  load.needles_only = needles_only;
  return load;
}

SearchLoad read_sparse(const Transcript& t, ReadOptions options, std::function<bool(std::string_view)> admits,
                       std::shared_ptr<const FileBytes> bytes) {
  SearchLoad load;
  load.sparse = true;
  load.probes = reader_for(t).raw_probes();
  load.admits = std::move(admits);
  load.ct.transcript = t;
  load.ct.owner = TranscriptIdentity::of(t);
  options.keep_declined = true;
  options.preloaded = bytes;
  load.bytes = std::move(bytes);
  load.ct.read = read_transcript(t, options);
  if (!load.ct.read.error.empty()) failure_error("cannot read " + t.path + ": " + load.ct.read.error);
  load.declined = std::move(load.ct.read.declined);
  load.fetched.assign(load.declined.size(), false);
  classify_read_records(load.ct, options.cancel);
  return load;
}

bool may_hold_match(const ClassifiedTranscript& ct, const std::shared_ptr<const CompiledPattern>& pattern) {
  Matcher m(pattern);
  for (const ClassifiedEntry& e : ct.entries) {
    for (const Unit& u : e.units) {
      // find, as the searcher's match does: its status (too complex included) is the one match() counts.
      if (m.find(u.text).status != MatchStatus::no_match) return true;
      if (!u.is_tool_result) continue;
      const std::string& structured = mcp_only_structured_content(*e.record);
      if (!structured.empty() && m.find(structured).status != MatchStatus::no_match) return true;
    }
  }
  return false;
}

namespace {

// The tool_use ids and tool_result ids the records carry (the two sides a pairing needs).
void note_tool_sides(const std::vector<Record>& records, std::unordered_set<std::string>& uses,
                     std::unordered_set<std::string>& results) {
  for (const Record& r : records) {
    for (const Block& b : r.message.blocks) {
      if (b.kind == BlockKind::tool_use && !b.id.empty()) uses.insert(b.id);
      if (b.kind == BlockKind::tool_result && !b.tool_use_id.empty()) results.insert(b.tool_use_id);
    }
  }
}

// The first line of each turn segment: segment 0 is before the first opener, segment k + 1 is turn k.
std::vector<uint64_t> segment_starts(const ClassifiedTranscript& ct) {
  std::vector<uint64_t> starts{0};
  for (size_t idx : ct.turns.opener_index)
    starts.push_back(ct.read.records[idx].line);
  return starts;
}

size_t segment_of(const std::vector<uint64_t>& starts, uint64_t line) {
  return static_cast<size_t>(std::upper_bound(starts.begin(), starts.end(), line) - starts.begin()) - 1;
}

// Parses the declined lines `pick` chooses among those `eligible` admits, marks them fetched and merges the
// new records in file order. Returns whether any record was added (the model then needs a rebuild).
bool fetch_declined(SearchLoad& load, const std::function<bool(size_t)>& eligible,
                    const std::function<bool(std::string_view)>& pick, const CancelToken* cancel) {
  std::vector<LineRef> refs;
  std::vector<size_t> index;
  for (size_t i = 0; i < load.declined.size(); ++i) {
    if (!load.fetched[i] && eligible(i)) {
      refs.push_back(load.declined[i]);
      index.push_back(i);
    }
  }
  if (refs.empty()) return false;
  const TranscriptReader& reader = reader_for(load.ct.transcript);
  std::vector<Record> added;
  std::string error;
  size_t k = 0;
  const auto parse_fetched = [&](const LineRef& ref, std::string_view bytes) {
    const size_t i = index[k++];
    if (!pick(bytes)) return;
    load.fetched[i] = true;
    Record r;
    r.line = ref.line;
    r.offset = ref.offset;
    // The line was well-formed when the reader checked it; a parse that fails now is reported.
    if (!reader.decode(bytes, r, error))
      failure_error("cannot parse " + load.ct.transcript.path + " line " + std::to_string(ref.line) +
                    " on its second read: " + error);
    added.push_back(std::move(r));
  };
  const std::string& path = load.ct.transcript.path;
  const std::string read_error = load.bytes ? fetch_lines(*load.bytes, path, refs, parse_fetched, cancel)
                                            : fetch_lines(path, refs, parse_fetched, cancel);
  if (!read_error.empty()) failure_error(read_error);
  if (added.empty()) return false;
  std::vector<Record>& records = load.ct.read.records;
  const size_t before = records.size();
  for (auto& r : added)
    records.push_back(std::move(r));
  std::inplace_merge(records.begin(), records.begin() + static_cast<std::ptrdiff_t>(before), records.end(),
                     [](const Record& a, const Record& b) { return a.line < b.line; });
  return true;
}

// The declined lines within kPartnerReach declined lines before or after a subject record missing a tool
// partner (`wanted`): where that partner almost always is.
constexpr size_t kPartnerReach = 4;
std::function<bool(size_t)> near_subjects(const SearchLoad& load,
                                          const std::function<bool(const Record&)>& subject,
                                          const std::unordered_set<std::string>& wanted) {
  auto near = std::make_shared<std::vector<bool>>(load.declined.size(), false);
  for (const ClassifiedEntry& e : load.ct.entries) {
    if (!subject(*e.record) || !std::any_of(e.units.begin(), e.units.end(),
                                            [&](const Unit& u) { return wanted.count(u.tool_use_id) > 0; }))
      continue;
    const auto at = std::lower_bound(load.declined.begin(), load.declined.end(), e.record->line,
                                     [](const LineRef& ref, uint64_t line) { return ref.line < line; });
    const size_t p = static_cast<size_t>(at - load.declined.begin());
    for (size_t i = p > kPartnerReach ? p - kPartnerReach : 0; i < std::min(p + kPartnerReach, near->size());
         ++i)
      (*near)[i] = true;
  }
  return [near](size_t i) { return (*near)[i]; };
}

}  // namespace

void complete_tool_partners(SearchLoad& load, const std::function<bool(const Record&)>& subject,
                            const CancelToken* cancel) {
  if (!load.sparse) return;
  std::unordered_set<std::string> uses, results, wanted;
  const std::vector<uint64_t> starts = segment_starts(load.ct);
  note_tool_sides(load.ct.read.records, uses, results);
  std::vector<bool> in_segment(starts.size(), false);
  for (const ClassifiedEntry& e : load.ct.entries) {
    if (!subject(*e.record)) continue;
    // Unit ids, not only block ids: a <task-notification> names its tool call in its text.
    for (const Unit& u : e.units) {
      const std::string& id = u.tool_use_id;
      if (id.empty() || (uses.count(id) && results.count(id))) continue;  // both sides already parsed
      wanted.insert(id);
      in_segment[segment_of(starts, e.record->line)] = true;
    }
  }
  if (wanted.empty()) return;
  auto pick = [&](std::string_view bytes) {
    return load.admits(bytes) && load.probes->mentions_tool_id(bytes, wanted);
  };
  auto settle = [&] {
    note_tool_sides(load.ct.read.records, uses, results);
    for (auto it = wanted.begin(); it != wanted.end();)
      it = uses.count(*it) && results.count(*it) ? wanted.erase(it) : std::next(it);
  };
  // Partners sit next to each other in practice: the declined lines beside each subject first (a result
  // follows its call within a line or two; reading whole turns for it read back 400 MB of a 1 GiB store for
  // an absent word), then the subjects' own turns, then the rest of the file for whatever is still unpaired
  // (a pending tool_use is looked for everywhere before it is called pending).
  bool added = fetch_declined(load, near_subjects(load, subject, wanted), pick, cancel);
  if (added) settle();
  if (!wanted.empty() &&
      fetch_declined(
          load, [&](size_t i) { return in_segment[segment_of(starts, load.declined[i].line)]; }, pick,
          cancel)) {
    added = true;
    settle();
  }
  // Lines of the subjects' turns were all looked at above; the rest of the file is what is left.
  if (!wanted.empty()) {
    added = fetch_declined(
                load, [&](size_t i) { return !in_segment[segment_of(starts, load.declined[i].line)]; }, pick,
                cancel) ||
            added;
  }
  if (added) classify_read_records(load.ct, cancel);
}

void complete_turns(SearchLoad& load, const std::set<int>& turns, const CancelToken* cancel) {
  if (!load.sparse || turns.empty()) return;
  const std::vector<uint64_t> starts = segment_starts(load.ct);
  auto eligible = [&](size_t i) {
    return turns.count(static_cast<int>(segment_of(starts, load.declined[i].line)) - 1) > 0;
  };
  if (fetch_declined(load, eligible, load.admits, cancel)) classify_read_records(load.ct, cancel);
  // The turns' records bring tool ids of their own (the answer's tool calls), and a turn whose lines were all
  // parsed already may still lack a partner elsewhere (a notification naming an earlier turn's spawn): pair
  // them all.
  const std::vector<uint64_t> new_starts = segment_starts(load.ct);
  complete_tool_partners(
      load,
      [&](const Record& r) { return turns.count(static_cast<int>(segment_of(new_starts, r.line)) - 1) > 0; },
      cancel);
}

void complete_turn_answers(SearchLoad& load, const std::set<int>& turns, const CancelToken* cancel) {
  if (!load.sparse || turns.empty()) return;
  const std::vector<uint64_t> starts = segment_starts(load.ct);
  auto eligible = [&](size_t i) {
    return turns.count(static_cast<int>(segment_of(starts, load.declined[i].line)) - 1) > 0;
  };
  // Agent text only ever sits on an assistant line; the calls such a line also makes are not shown, so their
  // partners need not be read.
  auto pick = [&](std::string_view b) { return load.probes->peek_type(b) == "assistant"; };
  if (fetch_declined(load, eligible, pick, cancel)) classify_read_records(load.ct, cancel);
}

}  // namespace csift
