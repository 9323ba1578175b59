#include "tools/stats/shared_records.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <unordered_map>

namespace csift {

SharedRecordsScan find_shared_records(const std::vector<const TranscriptTally*>& tallies) {
  SharedRecordsScan out;
  out.per_transcript.resize(tallies.size());
  // The first holder of every key, and every holder of the keys seen twice (those are few: no map of
  // vectors for the whole scope).
  std::unordered_map<uint64_t, size_t> first_holder;
  std::unordered_map<uint64_t, std::vector<size_t>> holders;
  for (size_t k = 0; k < tallies.size(); ++k) {
    for (const uint64_t key : tallies[k]->record_keys) {
      const auto [it, fresh] = first_holder.emplace(key, k);
      if (fresh) continue;
      std::vector<size_t>& h = holders[key];
      if (h.empty()) h.push_back(it->second);
      h.push_back(k);
    }
  }
  out.distinct_records = holders.size();
  // Keys held by the very same transcripts form one group: a session copied or forked into fifty others
  // shares thousands of records with the same fifty, and marking each key's holders pairwise (a set insert
  // per pair, per key) was a third of a fresh server's stats on the corpus replica. A holder list is in
  // transcript order and without repeats (each tally's keys are unique), so equal lists are equal groups.
  std::map<std::vector<size_t>, size_t> groups;  // holders -> how many keys they share
  for (auto& [key, h] : holders)
    ++groups[std::move(h)];
  std::vector<std::set<size_t>> with(tallies.size());
  for (const auto& [h, keys] : groups) {
    for (const size_t k : h) {
      out.per_transcript[k].records += keys;
      for (const size_t other : h)
        if (other != k) with[k].insert(other);
    }
  }
  for (size_t k = 0; k < tallies.size(); ++k)
    out.per_transcript[k].with.assign(with[k].begin(), with[k].end());
  return out;
}

}  // namespace csift
