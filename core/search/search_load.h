// How the core searcher reads one transcript (SPEC.md §1, §7): whether it has an elicitation sidecar, the
// dense or sparse load that classifies it, and the completions that read back what a sparse load left
// unparsed.
#pragma once
#include <functional>
#include <set>
#include <vector>

#include "core/search/search_cover.h"
#include "core/search/search_prefilter.h"
#include "core/store/classified_transcript.h"

namespace csift {

bool has_sidecar(const Transcript& t);
// CSIFT_SEARCH_DENSE=1 (set, not "0"): every load is dense, the reference the sparse loads are tested
// against.
bool dense_forced();

// One transcript as search reads it (search_load.cpp): dense, or sparse with the positions of the lines it
// did not parse, which the completions below may read back.
struct SearchLoad {
  ClassifiedTranscript ct;
  bool sparse = false;
  const RawLineProbes* probes = nullptr;  // sparse: the harness's byte-level probes
  std::vector<LineRef> declined;          // sparse: the well-formed lines not parsed, file order
  std::vector<bool> fetched;              // per declined line: read back and parsed since
  // sparse: only the lines holding a needle or a marker (and line 1) were parsed, not the possible turn
  // openers: enough to tell that no record can match (may_hold_match), not to number turns.
  bool needles_only = false;
  // The bytes the load parsed when the byte screen had read the file whole: declined lines are fetched
  // from them, not read again (and cannot have moved).
  std::shared_ptr<const FileBytes> bytes;
  // sparse: which declined lines a completion may parse (the record types the load's label gates admit).
  std::function<bool(std::string_view)> admits;
};
// What a counted search (-c, -l) asks of a dense load, which never needs a unit after matching it.
struct CountedLoad {
  EntryVisitor
      visit;  // sees each entry as it is classified (a sparse load never calls it: it classifies again)
  // The caller reads only labels, turns and timestamps of the entries (an empty pattern counted): a dense
  // load without a sidecar parses sparsely (ReadOptions::Payloads::skip).
  bool labels_only = false;
  // No label census is taken: a dense load without a sidecar leaves unparsed a line whose record can carry no
  // label the call admits, nor give one to another record (SearchPrefilter::labels_may_survive: an assistant
  // line, a tool result or a progress line under `-t user.message`).
  bool admitted_lines_only = false;
  // Receives the classifier's context after a dense load's last entry (what a label census keeps).
  ClassifyContext* context = nullptr;
};
// `sidecar`: whether `t` has an elicitation sidecar (the caller's has_sidecar(t)). With `raw`, a sparse load
// also sketches every line it offers its line filter (a rendered cover's bytes). With `needles_only`, a
// sparse load parses no possible turn opener that holds no needle or marker (SearchLoad::needles_only).
// With `bytes` (SkimResult::bytes), the file is parsed from them rather than read again.
SearchLoad load_for_search(const Transcript& t, bool sidecar, const SearchPrefilter& pf,
                           const CancelToken* cancel, double needle_line_share = 0,
                           RawLineSketcher* raw = nullptr, const CountedLoad* counted = nullptr,
                           bool needles_only = false, std::shared_ptr<const FileBytes> bytes = nullptr);
// The sparse read every sparse load shares: parses the lines `options` wants, keeps the position of every
// other well-formed line (checked all the same), and classifies what it parsed. `admits` becomes the load's.
SearchLoad read_sparse(const Transcript& t, ReadOptions options, std::function<bool(std::string_view)> admits,
                       std::shared_ptr<const FileBytes> bytes = nullptr);
// Whether a unit of `ct` (its text, or the only copy of an MCP result beside it) may match the pattern, under
// any label and window: false only when the matcher rules every one out. The text of a unit comes from its
// record and the record's tool partners, never from a turn opener elsewhere in the file, and a line holding
// no needle and no marker matches only through its own bytes, which lack every needle: so when a
// needles-only load (tool partners completed) holds no unit that may match, neither does the full read, and
// its answer for the file is no hit with the read's exact skipped and out-of-range counts.
bool may_hold_match(const ClassifiedTranscript& ct, const std::shared_ptr<const CompiledPattern>& pattern);
// Sparse only: reads back the lines holding the missing tool partner of any tool id a `subject` record
// carries (its own turn first, then the whole file) and rebuilds the model, so those records classify as a
// full read would classify them.
void complete_tool_partners(SearchLoad& load, const std::function<bool(const Record&)>& subject,
                            const CancelToken* cancel);
// Sparse only: reads back every line of these turns the load admits (then pairs their tool ids).
void complete_turns(SearchLoad& load, const std::set<int>& turns, const CancelToken* cancel);
// Sparse only: reads back the assistant lines of these turns, so each turn's end-of-turn agent text (an
// exchange's frame) is the one a full read finds.
void complete_turn_answers(SearchLoad& load, const std::set<int>& turns, const CancelToken* cancel);

}  // namespace csift
