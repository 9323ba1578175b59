// Rendered covers (SPEC.md §7 "Warm scan memo"): a file whose bytes hold a synthesized-text marker cannot be
// vouched for by a sketch of its bytes alone, because a record's rendered text can hold a needle its bytes
// lack
// (`<command-name>foo</command-name><command-args>bar</command-args>` is searched as "/foo bar"). A sparse
// full read parses exactly the records such text comes from, so the sketch of every raw line it saw plus the
// rendered text of every record it parsed covers whatever a later search under the same scope could match.
#pragma once
#include <tbb/enumerable_thread_specific.h>

#include <cstdint>
#include <string_view>

#include "core/cache/gram_sketch.h"

namespace csift {

// The 4-gram sketch of the raw lines a read offers its line filter. The filter runs on the read's parallel
// chunk workers, so each thread adds to a sketch of its own; merged() ORs them once the read is done.
class RawLineSketcher {
 public:
  explicit RawLineSketcher(uint64_t file_bytes)
      : file_bytes_(file_bytes), local_([file_bytes] { return GramSketch(file_bytes); }) {}
  void add(std::string_view line) { local_.local().add(line); }
  GramSketch merged() {
    GramSketch out(file_bytes_);
    for (const GramSketch& s : local_)
      out.merge(s);
    return out;
  }

 private:
  uint64_t file_bytes_;
  tbb::enumerable_thread_specific<GramSketch> local_;
};

}  // namespace csift
