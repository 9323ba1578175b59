// Where harness readers are registered: one line per harness. A transcript names its harness
// (Transcript::harness) and reader_for() hands it the matching reader.
#include "core/harness/claude_code/claude_code_reader.h"
#include "core/record/transcript_reader.h"

namespace csift {

const std::vector<const TranscriptReader*>& registered_readers() {
  static const std::vector<const TranscriptReader*> readers = {
      &claude_code_reader(),
  };
  return readers;
}

const TranscriptReader& reader_for(const Transcript& t) {
  for (const TranscriptReader* r : registered_readers()) {
    if (r->harness() == t.harness) return *r;
  }
  // Discovery only builds transcripts of registered harnesses; an unknown name is a programming error.
  throw std::logic_error("no reader registered for harness '" + t.harness + "' (" + t.path + ")");
}

}  // namespace csift
