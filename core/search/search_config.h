// What the core searcher (SPEC.md §1, §7) is asked to find, as data: the compiled pattern, the label filter,
// the two gates that decide which records are read and which labels survive, and the time and turn windows.
// tools/search turns the call's arguments into this (its SearchRequest extends it with what only the tool's
// rows need), as ripgrep's flags become a matcher's configuration; the searcher never sees an argument.
#pragma once
#include <memory>
#include <optional>
#include <vector>

#include "core/base/timefmt.h"
#include "core/harness/claude_code/classify.h"
#include "core/record/labels.h"
#include "core/regex/regex.h"

namespace csift {

struct SearchConfig {
  std::shared_ptr<const CompiledPattern> compiled;  // never null once the request is parsed
  LabelFilter labels;
  bool resolve_persisted = false;
  bool attachments =
      false;  // the harness.meta.attachment gate (--attachments, implied by --count-by attachment)
  std::optional<RangeSpec> turn;  // the turn window, resolved per transcript
  TimeWindow window;              // the since/until window
};

// Whether one label survives -t/-T and the gates (`ignore_filter`: only the gates): gated leaves need an
// explicit selector, attachments the attachment gate.
inline bool label_survives(const SearchConfig& cfg, Label l, bool ignore_filter) {
  if (l == Label::harness_meta_attachment && !cfg.attachments) return false;
  if (label_gated(l) && !cfg.labels.explicitly_reaches(l)) return false;
  return ignore_filter || cfg.labels.admits(l);
}

// The labels of a unit that survive -t/-T and the gates; richest first. `ignore_filter`: only the gates apply
// (diagnosis). search_load.cpp.
std::vector<Label> surviving_labels(const SearchConfig& cfg, const Unit& u, bool ignore_filter);

}  // namespace csift
