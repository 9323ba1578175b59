#include "tools/stats/remembered_scope_figures.h"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <functional>
#include <string_view>

#include "core/cache/derived_row_memo.h"
#include "core/cache/json_held_bytes.h"
#include "tools/list/list_row.h"
#include "tools/stats/remembered_stats_row.h"
#include "tools/stats/remembered_tally.h"
#include "tools/stats/shared_records.h"
#include "tools/stats/stats_row.h"

namespace csift {
namespace {

// Figures and what they were made from: the tallies, held weakly (the memo never keeps a tally alive, and a
// tally freed since, its address possibly reused by a new one, no longer locks, so it cannot be mistaken),
// and each transcript's row inputs.
struct ScopeFiguresEntry {
  std::vector<std::weak_ptr<const TranscriptTally>> from;
  std::vector<std::string> row_inputs;
  StatsScopeFigures figures;
};

size_t figures_cost(const StatsScopeFigures& f) {
  size_t n = sizeof(StatsScopeFigures) + json_held_bytes(f.summary) + held_bytes(f.shared) +
             held_bytes(f.first_timestamp) + held_bytes(f.last_timestamp);
  for (const SharedRecords& s : f.shared)
    n += held_bytes(s.with);
  return n;
}

size_t scope_figures_entry_cost(const ScopeFiguresEntry& e) {
  size_t n =
      sizeof(ScopeFiguresEntry) + held_bytes(e.from) + held_bytes(e.row_inputs) + figures_cost(e.figures);
  for (const std::string& s : e.row_inputs)
    n += held_bytes(s);
  return n;
}

std::vector<std::string> all_row_inputs(const std::vector<const Transcript*>& transcripts) {
  std::vector<std::string> inputs;
  inputs.reserve(transcripts.size());
  for (const Transcript* t : transcripts)
    inputs.push_back(stats_row_inputs(*t));
  return inputs;
}

bool figures_made_from(const ScopeFiguresEntry& e,
                       const std::vector<std::shared_ptr<const TranscriptTally>>& counted,
                       const std::vector<const Transcript*>& transcripts) {
  if (e.from.size() != counted.size()) return false;
  for (size_t k = 0; k < counted.size(); ++k) {
    if (e.from[k].lock() != counted[k] || e.row_inputs[k] != stats_row_inputs(*transcripts[k])) return false;
  }
  return true;
}

// The entry's key names the tallies by address (a hash of them): figures_made_from() proves the match.
std::string scope_figures_key(const std::vector<std::shared_ptr<const TranscriptTally>>& counted) {
  size_t h = counted.size();
  for (const auto& t : counted)
    h = h * 1099511628211ull ^ std::hash<const void*>{}(t.get());
  return result_memo_key("stats-scope-figures", "", std::to_string(h));
}

StatsScopeFigures compute_scope_figures(const std::vector<std::shared_ptr<const TranscriptTally>>& counted,
                                        const std::vector<const Transcript*>& counted_transcripts) {
  StatsScopeFigures figures;
  StatsTotals totals;
  std::vector<const TranscriptTally*> tallies;
  tallies.reserve(counted.size());
  for (size_t k = 0; k < counted.size(); ++k) {
    totals.add(*counted[k], counted_transcripts[k]->harness, counted_transcripts[k]->project_dir);
    tallies.push_back(counted[k].get());
  }
  SharedRecordsScan shared = find_shared_records(tallies);
  size_t sharing = 0;
  for (const SharedRecords& s : shared.per_transcript)
    sharing += s.records != 0 ? 1 : 0;
  figures.summary = json::object();
  totals.write(figures.summary, shared.distinct_records, sharing);
  figures.shared = std::move(shared.per_transcript);
  figures.first_timestamp = totals.first_timestamp();
  figures.last_timestamp = totals.last_timestamp();
  return figures;
}

// The kind of the figures remembered by their scope's stamps (in memory and on disk).
constexpr std::string_view kScopeStampsKind = "stats-scope";

std::string hex64(uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

}  // namespace

std::shared_ptr<const StatsScopeFigures> remembered_scope_figures(
    const std::vector<std::shared_ptr<const TranscriptTally>>& counted,
    const std::vector<const Transcript*>& counted_transcripts, ResultMemo* memo, ResultMemoUse& use) {
  if (memo == nullptr)
    return std::make_shared<const StatsScopeFigures>(compute_scope_figures(counted, counted_transcripts));
  const std::string key = scope_figures_key(counted);
  const void* type = result_type_tag<ScopeFiguresEntry>();
  if (auto hit =
          std::static_pointer_cast<const ScopeFiguresEntry>(memo->find(key, type, FileStamp{}, use.call))) {
    if (figures_made_from(*hit, counted, counted_transcripts)) {
      ++use.hits;
      return std::shared_ptr<const StatsScopeFigures>(hit, &hit->figures);
    }
  }
  ++use.misses;
  auto entry = std::make_shared<ScopeFiguresEntry>();
  entry->from.assign(counted.begin(), counted.end());
  entry->row_inputs = all_row_inputs(counted_transcripts);
  entry->figures = compute_scope_figures(counted, counted_transcripts);
  memo->remember(key, type, FileStamp{}, entry, scope_figures_entry_cost(*entry), use.call);
  return std::shared_ptr<const StatsScopeFigures>(entry, &entry->figures);
}

std::optional<ScopeStamps> scope_stamps(const std::vector<const Transcript*>& transcripts, int64_t began_ns) {
  ScopeStamps out;
  out.settled = true;
  // The names, a newline and the stamps, in one string built in place: grown by appends and then joined,
  // they were copied over and over (a tenth of a warm `stats` over 9,696 transcripts).
  size_t names_bytes = 0, stamps_bytes = 0;
  for (const Transcript* t : transcripts) {
    names_bytes += t->path.size() + 16;
    stamps_bytes += t->project_dir.size() + 72;
  }
  std::string all;
  all.reserve(names_bytes + 1 + stamps_bytes);
  for (const Transcript* t : transcripts) {
    if (t->harness != HarnessId::claude_code || !discovered_stamp(*t)) return std::nullopt;
    append_variant_field(all, t->path);
    append_variant_field(all, t->is_subagent ? "subagent" : "session");
  }
  const size_t names_end = all.size();
  all += '\n';
  for (const Transcript* t : transcripts) {
    const FileStamp stamp = *discovered_stamp(*t);
    append_variant_field(all, t->project_dir);
    for (const uint64_t v : {stamp.device, stamp.inode, stamp.size, static_cast<uint64_t>(stamp.mtime_ns)}) {
      char digits[24];
      const auto [end, ec] = std::to_chars(digits, digits + sizeof digits, v);
      append_variant_field(all, std::string_view(digits, static_cast<size_t>(end - digits)));
    }
    out.settled = out.settled && disk_settled(stamp, began_ns);
  }
  const std::string_view names(all.data(), names_end);
  out.identity = hex64(stable_hash64(names)) + hex64(stable_hash64(names, 1));
  out.stamps = FileStamp{stable_hash64(all), stable_hash64(all, 1), transcripts.size(), 0};
  return out;
}

std::shared_ptr<const StatsScopeFigures> recalled_scope_figures(const ScopeStamps& stamps,
                                                                const StatsCaches& caches,
                                                                ResultMemoUse& use) {
  ResultMemo* memo = caches.memo;
  const void* type = result_type_tag<StatsScopeFigures>();
  const std::string key = result_memo_key(kScopeStampsKind, stamps.identity, "");
  if (memo) {
    if (auto hit = memo->find(key, type, stamps.stamps, use.call)) {
      ++use.hits;
      return std::static_pointer_cast<const StatsScopeFigures>(std::move(hit));
    }
  }
  std::optional<StatsScopeFigures> decoded = disk_recall(caches.disk, kDiskStatsScopeKind, stamps.identity,
                                                         stamps.stamps, &use.disk, decode_scope_figures);
  if (!decoded) return nullptr;
  ++use.hits;
  auto figures = std::make_shared<const StatsScopeFigures>(std::move(*decoded));
  if (memo) memo->remember(key, type, stamps.stamps, figures, figures_cost(*figures), use.call);
  return figures;
}

void keep_scope_figures(const ScopeStamps& stamps, const std::shared_ptr<const StatsScopeFigures>& figures,
                        const StatsCaches& caches, ResultMemoUse& use) {
  if (ResultMemo* memo = caches.memo)
    memo->remember(result_memo_key(kScopeStampsKind, stamps.identity, ""),
                   result_type_tag<StatsScopeFigures>(), stamps.stamps, figures, figures_cost(*figures),
                   use.call);
  DiskCache* disk = caches.disk;
  if (disk && stamps.settled)
    disk->put(kDiskStatsScopeKind, stamps.identity, stamps.stamps, encode_scope_figures(*figures), &use.disk);
}

std::string encode_scope_figures(const StatsScopeFigures& f) {
  BlobWriter w;
  w.str(f.first_timestamp);
  w.str(f.last_timestamp);
  const std::vector<uint8_t> summary = json::to_cbor(f.summary);
  w.str(std::string_view(reinterpret_cast<const char*>(summary.data()), summary.size()));
  w.u64(f.shared.size());
  for (const SharedRecords& s : f.shared) {
    w.u64(s.records);
    w.u64(s.with.size());
    size_t prev = 0;
    for (const size_t other : s.with) {  // ascending: each as its distance from the one before
      w.u64(other - prev);
      prev = other;
    }
  }
  return w.take();
}

std::optional<StatsScopeFigures> decode_scope_figures(std::string_view blob) {
  BlobReader r(blob);
  StatsScopeFigures f;
  f.first_timestamp = r.str();
  f.last_timestamp = r.str();
  const std::string summary = r.str();
  f.shared.resize(static_cast<size_t>(r.count()));
  for (SharedRecords& s : f.shared) {
    if (!r.ok()) break;
    s.records = static_cast<size_t>(r.u64());
    s.with.resize(static_cast<size_t>(r.count()));
    size_t prev = 0;
    for (size_t& other : s.with) {
      other = prev + static_cast<size_t>(r.u64());
      if (other >= f.shared.size() || (&other != s.with.data() && other <= prev)) return std::nullopt;
      prev = other;
    }
  }
  if (!r.done()) return std::nullopt;
  try {  // a damaged size can still throw (an object claiming more members than fit)
    f.summary = json::from_cbor(summary, /*strict=*/true, /*allow_exceptions=*/false);
  } catch (const json::exception&) {
    return std::nullopt;
  }
  if (!f.summary.is_object()) return std::nullopt;
  // The local times are this process's (the zone is not part of the key).
  put_instant(f.summary, "first", f.first_timestamp);
  put_instant(f.summary, "last", f.last_timestamp);
  return f;
}

void apply_scope_figures(std::shared_ptr<const StatsScopeFigures> figures,
                         std::shared_ptr<const StatsRowSources> sources, const StatsCaches& caches,
                         std::shared_ptr<ResultMemoUse> use, std::shared_ptr<const void> keep_alive,
                         Envelope& env) {
  for (const auto& [name, value] : figures->summary.items())
    env.summary[name] = value;
  // Thousands of rows, of which a page shows a few: each is made (or copied from the memo) and marked only
  // when the pager makes it.
  env.deferred.count = sources->transcripts.size();
  // Without the call's tallies (figures remembered by their stamps) a row's tally is the unbounded window's,
  // taken under the stamp the figures were remembered for, from memory or the disk: fetched in parallel
  // batches growing from 8 (an MCP page shows a few rows, a text answer all of them).
  struct Fetched {
    std::vector<std::shared_ptr<const TranscriptTally>> tallies;
    size_t batch = 8;
  };
  auto fetched = std::make_shared<Fetched>();
  env.deferred.make = [figures, sources, caches, use, keep_alive, fetched](size_t k) {
    const Transcript& t = *sources->transcripts[k];
    std::shared_ptr<const TranscriptTally> tally;
    if (!sources->tallies.empty()) {
      tally = sources->tallies[k];
    } else {
      std::vector<std::shared_ptr<const TranscriptTally>>& got = fetched->tallies;
      got.resize(sources->transcripts.size());
      if (!got[k]) {
        // From k on (a page that skips rows fetches none of them).
        const size_t to = std::min(got.size(), k + fetched->batch);
        fetched->batch = std::min<size_t>(fetched->batch * 2, 1024);
        tbb::parallel_for(k, to, [&](size_t i) {
          if (!got[i])
            got[i] = remembered_tally(*sources->transcripts[i], StatsWindow{}, nullptr, caches, *use);
        });
      }
      tally = std::move(got[k]);  // made once: the pager asks each index once, in order
    }
    json row = remembered_stats_row(t, tally, caches.memo, *use);
    const SharedRecords& s = figures->shared[k];
    if (s.records != 0) {
      std::vector<std::string> with;
      for (const size_t other : s.with)
        with.push_back(sources->transcripts[other]->path);
      mark_shared(row, s.records, with);
    }
    return row;
  };
}

}  // namespace csift
