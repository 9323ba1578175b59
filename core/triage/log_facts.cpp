// The tally of a log's triage facts (core/triage/log_facts.h): what one pass over its records adds up.
#include "core/triage/log_facts.h"

#include <utility>

#include "core/cache/disk_cache.h"

namespace csift {

void LogFactsTally::record(const Record& r) {
  if (r.offset >= complete_size_) return;  // the torn tail, or appended since the watermark
  ++facts_.entries;
  if (!r.timestamp.empty()) {
    if (facts_.start.empty()) facts_.start = r.timestamp;
    facts_.end = r.timestamp;
  }
  if (!r.cwd.empty() && r.cwd[0] == '/' && seen_.insert(r.cwd).second) facts_.cwds.push_back(r.cwd);
}

std::string encode_log_facts(const LogFacts& facts) {
  BlobWriter w;
  w.u64(facts.cwds.size());
  for (const std::string& cwd : facts.cwds)
    w.str(cwd);
  w.str(facts.start);
  w.str(facts.end);
  w.u64(facts.entries);
  w.u64(facts.unparsed);
  return w.take();
}

std::optional<LogFacts> decode_log_facts(std::string_view blob) {
  BlobReader r(blob);
  LogFacts facts;
  for (uint64_t n = r.count(); r.ok() && n > 0; --n)
    facts.cwds.push_back(r.str());
  facts.start = r.str();
  facts.end = r.str();
  facts.entries = r.u64();
  facts.unparsed = r.u64();
  if (!r.done()) return std::nullopt;
  return facts;
}

LogFacts LogFactsTally::finish(const ReadStats& stats) {
  facts_.unparsed = stats.skipped_lines - (stats.torn_tail ? 1 : 0);
  return std::move(facts_);
}

}  // namespace csift
