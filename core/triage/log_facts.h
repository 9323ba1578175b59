// What the triage inventory knows of a session from its log (SPEC.md §12.5's list row): the working
// directories it records, its first and last entry time as recorded, and its counts, over complete lines
// only. One tally serves both reads that can take them — the inventory's own and the digest's
// (core/triage/session_digest.h) — so a digested session's log is read once.
#pragma once
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/record/transcript_reader.h"

namespace csift {

struct LogFacts {
  std::vector<std::string> cwds;  // absolute ('/') working directories, first-seen order
  std::string start, end;         // first and last entry time as recorded, in log order
  uint64_t entries = 0;           // records starting before the complete size (every lane's)
  uint64_t unparsed = 0;          // malformed or oversized lines, the torn tail not counted
};

// The facts as a disk cache blob, and back (nullopt: a blob that is not one, cut or overlong).
std::string encode_log_facts(const LogFacts& facts);
std::optional<LogFacts> decode_log_facts(std::string_view blob);

class LogFactsTally {
 public:
  // `complete_size`: the watermark's size; a record starting at or past it is not counted.
  explicit LogFactsTally(uint64_t complete_size) : complete_size_(complete_size) {}
  // Every record the reader yields, in log order.
  void record(const Record& r);
  // The facts, with `unparsed` from the read's stats.
  LogFacts finish(const ReadStats& stats);

 private:
  uint64_t complete_size_;
  std::set<std::string> seen_;
  LogFacts facts_;
};

}  // namespace csift
