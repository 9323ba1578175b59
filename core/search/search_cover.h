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
#include "core/record/transcript_reader.h"

namespace csift {

// Adds the bytes of `block` (whole lines) a search can match to `sketch`: the harness leaves out what none
// can (RawLineProbes::sketchable_spans); without probes, every byte.
inline void add_sketchable(GramSketch& sketch, std::string_view block, const RawLineProbes* probes) {
  if (!probes) return sketch.add(block);
  probes->sketchable_spans(block, [&sketch](std::string_view span) { sketch.add(span); });
}

// The 4-gram sketch of the raw lines a read offers its line filter. The filter runs on the read's parallel
// chunk workers, so each thread adds to a sketch of its own; merged() ORs them once the read is done.
class RawLineSketcher {
 public:
  RawLineSketcher(uint64_t file_bytes, const RawLineProbes* probes)
      : file_bytes_(file_bytes), probes_(probes), local_([file_bytes] { return GramSketch(file_bytes); }) {}
  void add(std::string_view line) { add_sketchable(local_.local(), line, probes_); }
  // The first thread's sketch, with the others ORed in (no fresh sketch of the file's size to fill).
  GramSketch merged() {
    auto it = local_.begin();
    if (it == local_.end()) return GramSketch(file_bytes_);
    GramSketch out = std::move(*it);
    for (++it; it != local_.end(); ++it)
      out.merge(*it);
    return out;
  }

 private:
  uint64_t file_bytes_;
  const RawLineProbes* probes_;
  tbb::enumerable_thread_specific<GramSketch> local_;
};

}  // namespace csift
