#include "tools/stats/remembered_shared_records.h"

#include <functional>
#include <string_view>

namespace csift {
namespace {

// A scan and the tallies it was made from, held weakly: the memo never keeps a tally alive, and a tally
// freed since (its address possibly reused by a new one) no longer locks, so it cannot be mistaken.
struct SharedRecordsEntry {
  std::vector<std::weak_ptr<const TranscriptTally>> from;
  SharedRecordsScan scan;
};

size_t shared_records_entry_cost(const SharedRecordsEntry& e) {
  size_t n = sizeof(SharedRecordsEntry) + held_bytes(e.from) + held_bytes(e.scan.per_transcript);
  for (const SharedRecords& s : e.scan.per_transcript)
    n += held_bytes(s.with);
  return n;
}

bool made_from(const SharedRecordsEntry& e,
               const std::vector<std::shared_ptr<const TranscriptTally>>& counted) {
  if (e.from.size() != counted.size()) return false;
  for (size_t k = 0; k < counted.size(); ++k) {
    if (e.from[k].lock() != counted[k]) return false;
  }
  return true;
}

// The entry's key names the tallies by address (a hash of them): made_from() is what proves the match.
std::string shared_records_key(const std::vector<std::shared_ptr<const TranscriptTally>>& counted) {
  size_t h = counted.size();
  for (const auto& t : counted)
    h = h * 1099511628211ull ^ std::hash<const void*>{}(t.get());
  return result_memo_key("stats-shared-records", "", std::to_string(h));
}

}  // namespace

std::shared_ptr<const SharedRecordsScan> remembered_shared_records(
    const std::vector<std::shared_ptr<const TranscriptTally>>& counted, ResultMemoUse& use) {
  std::vector<const TranscriptTally*> tallies;
  for (const auto& t : counted)
    tallies.push_back(t.get());
  ResultMemo* memo = process_result_memo();
  if (memo == nullptr) return std::make_shared<const SharedRecordsScan>(find_shared_records(tallies));
  const std::string key = shared_records_key(counted);
  const void* type = result_type_tag<SharedRecordsEntry>();
  if (auto hit = std::static_pointer_cast<const SharedRecordsEntry>(memo->find(key, type, FileStamp{}))) {
    if (made_from(*hit, counted)) {
      ++use.hits;
      return std::shared_ptr<const SharedRecordsScan>(hit, &hit->scan);
    }
  }
  ++use.misses;
  auto entry = std::make_shared<SharedRecordsEntry>();
  entry->from.assign(counted.begin(), counted.end());
  entry->scan = find_shared_records(tallies);
  const size_t cost = shared_records_entry_cost(*entry);
  memo->remember(key, type, FileStamp{}, entry, cost);
  return std::shared_ptr<const SharedRecordsScan>(entry, &entry->scan);
}

}  // namespace csift
