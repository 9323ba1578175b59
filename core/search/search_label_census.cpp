#include "core/search/search_label_census.h"

#include <climits>
#include <map>
#include <set>
#include <tuple>
#include <unordered_map>

#include "core/cache/disk_cache.h"
#include "core/store/agent_topology.h"
#include "core/store/spawn_join.h"

namespace csift {
namespace {

constexpr ResultKind<LabelCensus> kCensusKind{"search.label_census"};

uint64_t label_bit(Label l) {
  return uint64_t{1} << static_cast<unsigned>(l);
}

static_assert(kLabelCount <= 64, "a census keeps an entry's labels in one 64-bit set");

// The labels of the Label enum that survive the request (ignore_filter: only the gates apply).
uint64_t surviving_set(const SearchConfig& req, bool ignore_filter) {
  uint64_t set = 0;
  for (size_t i = 0; i < kLabelCount; ++i) {
    const Label l = static_cast<Label>(i);
    if (label_survives(req, l, ignore_filter)) set |= label_bit(l);
  }
  return set;
}

size_t census_cost(const LabelCensus& c) {
  size_t bytes = sizeof(LabelCensus) + held_bytes(c.runs);
  if (c.resume)
    bytes +=
        sizeof(LabelCensus::Resume) + held_bytes(c.resume->context.tool_names) +
        held_bytes(c.resume->context.spawned_child) + held_bytes(c.resume->context.spawn_join.spawn_calls) +
        held_bytes(c.resume->context.spawn_join.result_agents) + held_bytes(c.resume->turns.opener_of_parent);
  return bytes;
}

// The disk cache's key of a census: the memo's (path, gates) and what its labels take from outside the file
// (the transcript's id and, for a subagent, its parent's, which discovery reads from meta.json).
std::string census_disk_key(const Transcript& t, const std::string& gates) {
  std::string key = t.path + '\0' + gates + '\0' + t.id;
  if (t.is_subagent) key += '\0' + (t.parent_agent_id().empty() ? t.session_id : t.parent_agent_id());
  return key;
}

}  // namespace

namespace {

// A spawn join's maps in a blob (sorted: the same map, the same bytes).
void encode_children(BlobWriter& w, const std::unordered_map<std::string, std::string>& m) {
  const std::map<std::string, std::string> sorted(m.begin(), m.end());
  w.u64(sorted.size());
  for (const auto& [k, v] : sorted) {
    w.str(k);
    w.str(v);
  }
}

bool decode_children(BlobReader& r, std::unordered_map<std::string, std::string>& m) {
  for (uint64_t n = r.count(); n > 0 && r.ok(); --n) {
    std::string k = r.str();
    m[std::move(k)] = r.str();
  }
  return r.ok();
}

// Whether the census's read joined spawns to children (it met a spawn call or a notification): then its
// labels took children's names from the subagents' meta.json files as well as from the file.
bool census_joined(const LabelCensus& c) {
  return c.resume &&
         (!c.resume->context.spawn_join.spawn_calls.empty() || c.resume->context.spawn_join.notification);
}

}  // namespace

std::string encode_label_census(const LabelCensus& c) {
  BlobWriter w;
  w.u64(c.skipped_lines);
  w.u64(c.values_out_of_range);
  w.u64(c.runs.size());
  for (const LabelCensus::Run& r : c.runs) {
    w.u64(r.labels);
    w.i64(r.turn);
    w.u64((r.draft ? 1 : 0) | (r.foreign ? 2 : 0));
    w.u64(r.entries);
  }
  // The children the labels were classified with, and the part of them the file's own spawn results named:
  // a fresh process joins the meta.json files again and uses the census only when it gets the same map.
  const bool joined = census_joined(c);
  w.boolean(joined);
  if (joined) {
    encode_children(w, c.resume->context.spawned_child);
    encode_children(w, c.resume->context.spawn_join.result_agents);
  }
  return w.take();  // the resume state is not kept: a grown file is read afresh
}

std::optional<StoredCensus> decode_label_census(std::string_view blob) {
  BlobReader r(blob);
  StoredCensus stored;
  LabelCensus& c = stored.census;
  c.skipped_lines = r.u64();
  c.values_out_of_range = r.u64();
  c.runs.resize(static_cast<size_t>(r.count()));
  for (LabelCensus::Run& run : c.runs) {
    run.labels = r.u64();
    const int64_t turn = r.i64();
    const uint64_t flags = r.u64();
    const uint64_t entries = r.u64();
    if (turn < INT32_MIN || turn > INT32_MAX || flags > 3 || entries == 0 || entries > UINT32_MAX ||
        (kLabelCount < 64 && (run.labels >> kLabelCount) != 0))
      return std::nullopt;
    run.turn = static_cast<int32_t>(turn);
    run.draft = flags & 1;
    run.foreign = flags & 2;
    run.entries = static_cast<uint32_t>(entries);
  }
  stored.joined = r.boolean();
  if (stored.joined && (!decode_children(r, stored.children) || !decode_children(r, stored.result_agents)))
    return std::nullopt;
  if (!r.done()) return std::nullopt;
  return stored;
}

bool StoredCensus::holds_for(const Transcript& t) const {
  if (!joined) return true;
  // join_spawned_children's map for the same records: the meta.json files' children first, then the spawn
  // results' agent ids for spawns the files do not name.
  std::unordered_map<std::string, std::string> now = spawned_agents_by_tool_use(t);
  for (const auto& [spawn, child] : result_agents)
    now.emplace(spawn, child);
  return now == children;
}

void LabelCensusBuilder::add(const ClassifiedEntry& e) {
  LabelCensus::Run run;
  for (const Unit& u : e.units)
    for (const Label l : u.labels)
      run.labels |= label_bit(l);
  run.turn = e.turn_index;
  run.draft = e.superseded_draft;
  run.foreign = e.foreign_lane;
  run.entries = 1;
  auto& runs = census_.runs;
  if (!runs.empty()) {
    LabelCensus::Run& last = runs.back();
    if (last.labels == run.labels && last.turn == run.turn && last.draft == run.draft &&
        last.foreign == run.foreign && last.entries < UINT32_MAX) {
      ++last.entries;
      return;
    }
  }
  runs.push_back(run);
}

LabelCensus LabelCensusBuilder::take(const ClassifiedTranscript& ct, const ClassifyContext& context,
                                     std::optional<uint64_t> head_hash) {
  const ReadResult& read = ct.read;
  census_.skipped_lines = read.skipped_lines;
  census_.values_out_of_range = read.values_out_of_range;
  const std::optional<uint64_t> tail = head_hash && read.error.empty() && !read.cancelled && !read.stopped &&
                                               reader_for(ct.transcript).raw_lines_are_file_lines()
                                           ? tail_hash_of(ct.transcript.path, complete_end(read, 0))
                                           : std::nullopt;
  if (tail) {
    auto resume = std::make_shared<LabelCensus::Resume>();
    resume->end = complete_end(read, 0);
    resume->tail_hash = *tail;
    resume->lines = read.lines;
    resume->torn = read.torn_tail;
    resume->head_hash = *head_hash;
    resume->context = labels_context(context);
    resume->turns = turn_state_after(read.records, ct.turns);
    census_.resume = std::move(resume);
  }
  return finish();
}

LabelCensus LabelCensusBuilder::finish() {
  census_.runs.shrink_to_fit();
  return std::move(census_);
}

namespace {

// Entry `at` of `runs` becomes a superseded draft (one user.unsent unit outside every turn), and every entry
// after it in a turn moves to the turn before: the resend, appended later, opens the turn instead.
void supersede(std::vector<LabelCensus::Run>& runs, size_t at) {
  size_t first = 0;  // the index of runs[k]'s first entry
  size_t k = 0;
  while (k < runs.size() && first + runs[k].entries <= at) {
    first += runs[k].entries;
    ++k;
  }
  if (k == runs.size()) return;
  LabelCensus::Run before = runs[k], after = runs[k];
  before.entries = static_cast<uint32_t>(at - first);
  after.entries = runs[k].entries - before.entries - 1;
  LabelCensus::Run draft;
  draft.labels = label_bit(Label::user_unsent);
  draft.draft = true;
  draft.entries = 1;
  std::vector<LabelCensus::Run> pieces;
  if (before.entries > 0) pieces.push_back(before);
  pieces.push_back(draft);
  if (after.entries > 0) pieces.push_back(after);
  runs.erase(runs.begin() + static_cast<std::ptrdiff_t>(k));
  runs.insert(runs.begin() + static_cast<std::ptrdiff_t>(k), pieces.begin(), pieces.end());
  for (size_t j = k + (before.entries > 0 ? 2 : 1); j < runs.size(); ++j)
    if (runs[j].turn >= 0) --runs[j].turn;
}

}  // namespace

std::optional<LabelCensus> extend_label_census(const Transcript& t, const LabelCensus& was,
                                               ReadOptions options) {
  if (!was.resume) return std::nullopt;
  const LabelCensus::Resume& from = *was.resume;
  if (!appended_since(t.path, from.head_hash, from.end, from.tail_hash)) return std::nullopt;
  // The torn line the earlier read counted as skipped is read again from its start.
  options.begin = from.end;
  options.first_line = from.lines - (from.torn ? 1 : 0) + 1;
  ReadResult read = read_transcript(t, options);
  if (!read.error.empty() || read.cancelled || read.stopped) return std::nullopt;

  LabelCensus grown{was.runs, was.skipped_lines - (from.torn ? 1 : 0) + read.skipped_lines,
                    was.values_out_of_range + read.values_out_of_range, nullptr};
  auto resume = std::make_shared<LabelCensus::Resume>();
  resume->context = from.context;
  resume->turns = from.turns;
  ClassifyContext& ctx = resume->context;
  join_spawned_children(t, read.records, ctx);
  const AppendedTurns turns = assign_appended_turns(resume->turns, read.records, turn_rule_of(t));
  for (const size_t at : turns.superseded)
    supersede(grown.runs, at);
  LabelCensusBuilder builder(std::move(grown));
  for (size_t i = 0; i < read.records.size(); ++i)
    builder.add(classify_entry(read.records[i], ctx, turns.appended, i));
  LabelCensus out = builder.finish();
  resume->end = complete_end(read, from.end);
  const auto tail = tail_hash_of(t.path, resume->end);
  if (!tail) return std::nullopt;
  resume->tail_hash = *tail;
  resume->lines = options.first_line - 1 + read.lines;
  resume->torn = read.torn_tail;
  resume->head_hash = from.head_hash;
  resume->context = labels_context(ctx);
  out.resume = std::move(resume);
  return out;
}

bool census_answers(const SearchConfig& cfg) {
  return cfg.compiled->matches_everything() && !cfg.turn && !cfg.window.bounded() && !cfg.resolve_persisted;
}

namespace {

// The census an earlier process stored for `t` at this very stamp, remembered in `memo` under `key`; nullptr
// when the disk holds none that still holds for `t` (the disk cache's count, not the memo's).
std::shared_ptr<const LabelCensus> census_from_disk(ResultMemo& memo, DiskCache* disk, const Transcript& t,
                                                    const FileStamp& now, const std::string& key,
                                                    const std::string& gates, ResultMemoUse& use) {
  auto stored =
      disk_recall(disk, kDiskCensusKind, census_disk_key(t, gates), now, &use.disk, decode_label_census);
  if (!stored || !stored->holds_for(t)) return nullptr;
  auto kept = std::make_shared<const LabelCensus>(std::move(stored->census));
  memo.remember(key, result_type_tag<LabelCensus>(), now, kept, census_cost(*kept), use.call);
  return kept;
}

}  // namespace

std::string label_gates_text(bool queue, bool snapshot, bool attachments) {
  return std::string("queue=") + (queue ? "1" : "0") + ",snapshot=" + (snapshot ? "1" : "0") +
         ",attachment=" + (attachments ? "1" : "0");
}

bool recall_stored_census(ResultMemo& memo, DiskCache* disk, const Transcript& t, const std::string& gates,
                          ResultMemoUse& use) {
  const std::optional<FileStamp> now = stamp_of(t);
  if (!now) return false;
  const std::string key = result_memo_key(kCensusKind.name, t.path, gates);
  if (memo.find(key, result_type_tag<LabelCensus>(), *now, use.call)) return true;
  return census_from_disk(memo, disk, t, *now, key, gates, use) != nullptr;
}

std::function<bool(const Transcript&)> census_warm_up_step() {
  // One use for the whole warm-up: its censuses are one call's, and none evicts another of them.
  return [use = std::make_shared<ResultMemoUse>(),
          gates = label_gates_text(false, false, false)](const Transcript& t) {
    ResultMemo* memo = process_result_memo();
    return memo != nullptr && t.harness == HarnessId::claude_code &&
           recall_stored_census(*memo, process_disk_cache(), t, gates, *use);
  };
}

std::shared_ptr<const LabelCensus> recalled_label_census(ResultMemo& memo, DiskCache* disk,
                                                         const Transcript& t, const std::string& gates,
                                                         ResultMemoUse& use, const ReadOptions& appended) {
  const std::optional<FileStamp> now = stamp_of(t);
  if (!now) return nullptr;
  const std::string key = result_memo_key(kCensusKind.name, t.path, gates);
  const void* type = result_type_tag<LabelCensus>();
  if (auto hit = memo.find(key, type, *now, use.call)) {
    ++use.hits;
    return std::static_pointer_cast<const LabelCensus>(std::move(hit));
  }
  // A fresh process: the census an earlier one stored for this very stamp.
  if (auto kept = census_from_disk(memo, disk, t, *now, key, gates, use)) return kept;
  if (auto grown = memo.find_grown(key, type, *now)) {
    const auto& was = *std::static_pointer_cast<const LabelCensus>(grown->value);
    if (std::optional<LabelCensus> extended = extend_label_census(t, was, appended)) {
      ++use.extended;
      auto kept = std::make_shared<const LabelCensus>(std::move(*extended));
      if (stamp_file(t.path) == now) memo.remember(key, type, *now, kept, census_cost(*kept), use.call);
      return kept;
    }
  }
  ++use.misses;
  return nullptr;
}

void remember_label_census(ResultMemo& memo, DiskCache* disk, const Transcript& t, const FileStamp& before,
                           const std::string& gates, LabelCensus&& census, ResultMemoUse& use) {
  const uint64_t call = use.call;
  if (stamp_file(t.path) != before) return;
  // Kept on disk only from a read that completed without an error (it has resume state). A census whose read
  // met a spawn call or a notification took children's names from the subagents' meta.json files, which the
  // file's stamp does not cover: it keeps the children it was classified with, and answers a later process
  // only while the join gives the same (StoredCensus::holds_for).
  if (census.resume && (census_joined(census) || census.resume->context.spawned_child.empty()))
    disk_keep(disk, kDiskCensusKind, census_disk_key(t, gates), t.path, before, use.disk,
              [&] { return encode_label_census(census); });
  // An idle file's census is kept without what an append would resume from (likely_to_grow): on the corpus
  // replica that state (every tool call's id and name, the spawn join's) was a quarter of the censuses'
  // bytes.
  if (!likely_to_grow(before)) census.resume.reset();
  auto kept = std::make_shared<const LabelCensus>(std::move(census));
  const size_t cost = census_cost(*kept);
  memo.remember(result_memo_key(kCensusKind.name, t.path, gates), result_type_tag<LabelCensus>(), before,
                std::move(kept), cost, call);
}

// scan_entry (searcher.cpp) for a pattern that matches everything, with no window, per run of entries:
// a record is a hit when one of its labels survives; a draft no label of which survives is still disclosed
// when one survives the gates alone.
void count_from_census(const LabelCensus& census, const SearchConfig& req, TranscriptHits& th) {
  const uint64_t survives = surviving_set(req, false);
  const uint64_t gated_in = surviving_set(req, true);
  std::set<std::tuple<int, bool, bool>> exchanges;
  for (const LabelCensus::Run& run : census.runs) {
    if ((run.labels & survives) != 0) {
      th.census_matches += run.entries;
      if (run.draft) th.draft_hits += run.entries;
      exchanges.insert({run.draft ? -1 : run.turn, run.draft, run.foreign});
    } else if (run.draft && (run.labels & gated_in) != 0) {
      th.drafts_excluded_by_label += run.entries;
    }
  }
  th.exchange_groups = exchanges.size();
  th.skipped_lines = census.skipped_lines;
  th.values_out_of_range = census.values_out_of_range;
  th.from_census = true;
}

}  // namespace csift
