#include "tools/search/search_exchange.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <tuple>
#include <unordered_map>

namespace csift {
namespace {

using UnitKey = std::pair<size_t, size_t>;  // (entry, unit)

// tool_use id -> the units carrying it, split by side (a tool_use's partner is a result and back).
struct PartnerIndex {
  std::unordered_map<std::string, std::vector<UnitKey>> uses, results;
  explicit PartnerIndex(const ClassifiedTranscript& ct) {
    for (size_t i = 0; i < ct.entries.size(); ++i) {
      const auto& units = ct.entries[i].units;
      for (size_t k = 0; k < units.size(); ++k) {
        const Unit& u = units[k];
        if (u.tool_use_id.empty()) continue;
        if (u.is_tool_use) uses[u.tool_use_id].push_back({i, k});
        if (u.is_tool_result) results[u.tool_use_id].push_back({i, k});
      }
    }
  }
};

// The turn's end-of-turn agent text: its last agent.message unit (std::nullopt when the turn has none, e.g.
// it was interrupted). Turns are contiguous runs in file order; drafts and inline sidechain records inside
// a run belong to no turn and are passed over.
std::optional<UnitKey> end_of_turn_text(const ClassifiedTranscript& ct, int turn) {
  const auto& openers = ct.turns.opener_index;
  const auto t = static_cast<size_t>(turn);
  const size_t end = t + 1 < openers.size() ? openers[t + 1] : ct.transcript_entries;
  for (size_t i = end; i-- > openers[t];) {
    const ClassifiedEntry& e = ct.entries[i];
    if (e.turn_index != turn || e.superseded_draft) continue;
    for (size_t k = e.units.size(); k-- > 0;)
      if (!e.units[k].labels.empty() && e.units[k].labels.front() == Label::agent_message)
        return UnitKey{i, k};
  }
  return std::nullopt;
}

struct Group {
  int turn = -1;
  bool draft = false;
  bool sidechain = false;
  std::map<UnitKey, ExchangeUnit> units;  // ordered by (entry, unit) = file order
};

// The exchange rules (SPEC.md §9.2) for one matched unit: the unit, its tool partner, and its turn's frame —
// the opener and the end-of-turn agent text. The rest of the turn shows only under --siblings.
void complete(Group& g, const ClassifiedTranscript& ct, const PartnerIndex& partners,
              const ExchangeUnit& hit) {
  const ClassifiedEntry& e = ct.entries[hit.entry_index];
  const Unit& u = e.units[hit.unit_index];
  auto add = [&](UnitKey k, FrameRole role) {
    g.units.try_emplace(k, ExchangeUnit{k.first, k.second, nullptr, nullptr, role});
  };
  if (!u.tool_use_id.empty()) {
    const auto& side = u.is_tool_use ? partners.results : partners.uses;
    if (const auto it = side.find(u.tool_use_id); it != side.end())
      for (const auto& k : it->second)
        add(k, FrameRole::partner);
  }
  if (e.turn_index < 0 || e.superseded_draft) return;
  const size_t opener = ct.turns.opener_index[static_cast<size_t>(e.turn_index)];
  for (size_t k = 0; k < ct.entries[opener].units.size(); ++k)
    add({opener, k}, FrameRole::opener);
  if (const auto answer = end_of_turn_text(ct, e.turn_index)) add(*answer, FrameRole::answer);
}

Exchange finish(const Group& g, const ClassifiedTranscript& ct) {
  Exchange x;
  x.turn_index = g.turn;
  x.superseded_draft = g.draft;
  x.sidechain = g.sidechain;
  std::set<size_t> entries;
  for (const auto& [key, unit] : g.units) {
    x.units.push_back(unit);
    entries.insert(key.first);
  }
  for (size_t i : entries)
    if (!ct.entries[i].record->uuid.empty()) x.record_uuids.push_back(ct.entries[i].record->uuid);
  auto take = [&](const std::string& ts) {
    const auto t = parse_iso8601(ts);
    if (t && (!x.started || *t < *x.started)) {
      x.started = t;
      x.started_utc = ts;
    }
  };
  if (g.turn >= 0 && !g.draft)
    take(ct.entries[ct.turns.opener_index[static_cast<size_t>(g.turn)]].record->timestamp);
  if (!x.started) {
    for (const auto& u : x.units)
      if (u.unit_hit) take(ct.entries[u.entry_index].record->timestamp);
  }
  return x;
}

}  // namespace

const char* frame_role_name(FrameRole r) {
  switch (r) {
    case FrameRole::opener:
      return "opener";
    case FrameRole::partner:
      return "partner";
    case FrameRole::answer:
      return "answer";
    case FrameRole::none:
      break;
  }
  return nullptr;
}

namespace {

// One exchange per (turn, draft, sidechain) of a transcript: a superseded draft and a session file's inline
// sidechain records stand apart from turn numbering (and from the records before the first opener).
using ExchangeKey = std::tuple<int, bool, bool>;
ExchangeKey exchange_key(const ClassifiedEntry& e) {
  return {e.superseded_draft ? -1 : e.turn_index, e.superseded_draft, e.foreign_lane};
}

}  // namespace

size_t count_exchange_groups(const TranscriptHits& th) {
  std::set<ExchangeKey> keys;
  for (const RecordHit& rh : th.hits)
    keys.insert(exchange_key(th.ct.entries[rh.entry_index]));
  return keys.size();
}

ExchangeCount count_exchanges(const SearchScan& scan, int64_t max_count) {
  ExchangeCount c;
  for (const TranscriptHits& th : scan.transcripts)
    c.matched += th.exchange_groups;
  const size_t cap = static_cast<size_t>(max_count < 0 ? -max_count : max_count);
  c.kept = max_count == 0 ? c.matched : std::min(c.matched, cap);
  c.dropped_by_cap = c.matched - c.kept;
  return c;
}

std::vector<Exchange> transcript_exchanges(const TranscriptHits& th) {
  const PartnerIndex partners(th.ct);
  std::map<ExchangeKey, Group> groups;  // in turn order
  for (const RecordHit& rh : th.hits) {
    const auto key = exchange_key(th.ct.entries[rh.entry_index]);
    Group& g = groups[key];
    g.turn = std::get<0>(key);
    g.draft = std::get<1>(key);
    g.sidechain = std::get<2>(key);
    for (const UnitHit& uh : rh.units) {
      const ExchangeUnit hit{rh.entry_index, uh.unit_index, &rh, &uh};
      g.units[{rh.entry_index, uh.unit_index}] = hit;
      complete(g, th.ct, partners, hit);
    }
  }
  std::vector<Exchange> out;
  for (const auto& [key, g] : groups)
    out.push_back(finish(g, th.ct));
  return out;
}

bool ExchangeTimeline::Key::operator<(const Key& o) const {
  if (undated != o.undated) return !undated;
  if (!undated && started != o.started) return started < o.started;
  if (scope_index != o.scope_index) return scope_index < o.scope_index;
  return seq < o.seq;
}

ExchangeTimeline::Key ExchangeTimeline::key_of(const std::optional<EpochMs>& started, size_t scope_index,
                                               size_t seq) {
  Key k;
  k.undated = !started.has_value();
  if (started) k.started = *started;
  k.scope_index = scope_index;
  k.seq = seq;
  return k;
}

bool ExchangeTimeline::admits_locked(const Key& k) const {
  const size_t cap = static_cast<size_t>(max_count_ < 0 ? -max_count_ : max_count_);
  if (max_count_ == 0 || kept_.size() < cap) return true;
  return max_count_ > 0 ? k < kept_.rbegin()->first : kept_.begin()->first < k;
}

bool ExchangeTimeline::admits(const Key& k) const {
  std::lock_guard<std::mutex> lock(mu_);
  return admits_locked(k);
}

void ExchangeTimeline::offer(const Key& k, const std::optional<EpochMs>& started, json row) {
  std::lock_guard<std::mutex> lock(mu_);
  ++matched_;
  if (!admits_locked(k)) return;
  kept_.emplace(k, RenderedExchange{started, std::move(row)});
  const size_t cap = static_cast<size_t>(max_count_ < 0 ? -max_count_ : max_count_);
  if (max_count_ == 0 || kept_.size() <= cap) return;
  kept_.erase(max_count_ > 0 ? std::prev(kept_.end()) : kept_.begin());
}

ExchangeList ExchangeTimeline::finish() {
  std::lock_guard<std::mutex> lock(mu_);
  ExchangeList out;
  out.matched = matched_;
  out.dropped_by_cap = matched_ - kept_.size();
  if (out.dropped_by_cap > 0) out.dropped_side = max_count_ > 0 ? "later" : "earlier";
  for (auto& [key, x] : kept_) {
    out.undated = out.undated || key.undated;
    out.kept.push_back(std::move(x));
  }
  kept_.clear();
  return out;
}

}  // namespace csift
