// The tally of a log's triage facts (core/triage/log_facts.h): what one pass over its records adds up.
#include "core/triage/log_facts.h"

#include <utility>

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

LogFacts LogFactsTally::finish(const ReadStats& stats) {
  facts_.unparsed = stats.skipped_lines - (stats.torn_tail ? 1 : 0);
  return std::move(facts_);
}

}  // namespace csift
