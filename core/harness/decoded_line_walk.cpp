#include "core/harness/decoded_line_walk.h"

#include "core/json/json_syntax.h"

namespace csift {

void DecodedLineWalk::census(const std::string& type) {
  if (opts.census_types) ++stats.line_types[type.empty() ? "(untyped)" : type];
}

void DecodedLineWalk::skip(uint64_t line, std::string reason) {
  ++stats.skipped_lines;
  census("(malformed)");
  sink.skipped({line, std::move(reason)});
}

bool DecodedLineWalk::line(std::string_view bytes, uint64_t number, uint64_t offset) {
  const bool candidate = opts.parses(bytes, number, number == 1);
  if (!candidate) {
    size_t out_of_range = 0;
    if (!json_object_well_formed(bytes, &out_of_range)) {
      skip(number, std::string(not_an_object));
      return true;
    }
    ++stats.non_candidate_lines;
    stats.values_out_of_range += out_of_range;
    if (opts.keep_declined) sink.declined({number, offset, bytes.size()});
    census("(declined)");
    return true;
  }
  Record r;
  std::string error;
  if (!decode(bytes, r, error)) {
    skip(number, error);
    return true;
  }
  r.line = number;
  r.offset = offset;
  r.length = bytes.size();
  census(r.type);
  return sink.record(std::move(r));
}

ScanStats walk_laid_out_lines(const std::vector<std::string>& lines, const std::string& error,
                              const RawLineFn& fn, const CancelToken* cancel) {
  ScanStats stats;
  stats.error = error;
  uint64_t offset = 0;
  for (size_t i = 0; i < lines.size(); ++i) {
    if (cancel && cancel->is_cancelled()) {
      stats.stopped = true;
      break;
    }
    ++stats.lines;
    stats.bytes += lines[i].size() + 1;
    if (!fn(RawLine{lines[i], i + 1, offset, false})) {
      stats.stopped = true;
      break;
    }
    offset += lines[i].size() + 1;
  }
  return stats;
}

}  // namespace csift
