// The per-record rendering pipeline `show` and `search` share, and the tools that quote records reuse
// (SPEC.md §9.2 hit lines, §4 labels, the seed's §6.10 sidecar rows, the row schemas in schemas/): one
// classified unit of one record becomes a JSON hit object, and the text forms (record header `<tok>·t<N>
// <ts>`, hit line ` <glyph> <label>[ <tool>] L<line> <text>`) are rendered FROM that object, so the text and
// JSON outputs of a tool can never disagree.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "core/base/envelope.h"
#include "core/harness/claude_code/classify.h"
#include "core/record/record.h"
#include "core/store/classified_transcript.h"
#include "core/store/record_pairing.h"
#include "core/store/store.h"

namespace csift {

// How much of a unit's text a hit carries: all of it, or a window of ~`width` code points centred on a match
// (byte span [match_begin, match_end) of the unit text), cut with explicit `… (+N chars)` markers.
struct ExcerptPolicy {
  bool full = true;
  size_t match_begin = 0;
  size_t match_end = 0;
  size_t width = 400;
  static ExcerptPolicy full_text() { return {}; }
  static ExcerptPolicy centered(size_t begin, size_t end, size_t width = 400) {
    return ExcerptPolicy{false, begin, end, width};
  }
};

struct Excerpt {
  std::string text;
  bool truncated = false;
};
Excerpt apply_excerpt(std::string_view text, const ExcerptPolicy& policy);

// Everything one hit row is built from.
struct HitInput {
  const Record* record = nullptr;
  const Unit* unit = nullptr;
  const TranscriptIdentity* owner = nullptr;
  int turn_index = -1;  // -1: outside turn numbering (before the first opener, or a draft)
  bool superseded_draft = false;
  Pairing pairing = Pairing::none;
  RecordSource source = RecordSource::transcript;
  int first_image_ordinal = 1;  // `L<line>i<n>` numbering of this unit's first image within its record
  // Every unit of the record (the unit above among them), for the hit's `record_labels`. Null: the unit
  // stands for its record alone.
  const std::vector<Unit>* record_units = nullptr;
};

struct HitJsonOptions {
  std::string kind = "record";  // the envelope row kind ("record" for show; search embeds hits in exchanges)
  bool with_refetch = false;    // add `refetch`: the ready-to-run show command for the hit's own line
};

// The JSON hit/record object (fields as in schemas/show.output.json; absent values are null, never omitted).
json build_hit_json(const HitInput& in, const ExcerptPolicy& policy, const HitJsonOptions& options = {});

// Everything build_hit_json needs for unit `unit` of entry `e` of `ct` (a superseded draft has no turn).
HitInput hit_input_of(const ClassifiedTranscript& ct, const ClassifiedEntry& e, size_t unit);

// The show call for line N of the transcript that owns it, as data: {"tool": "show", "arguments": {...}}.
json refetch_call(const std::string& transcript_id, uint64_t line);
// The show call that answers the hit's record: its line, or for a merged elicitation-sidecar record (which
// has no line) its uuid, else its turn; null only for a sidecar record with neither.
json refetch_call(const HitInput& in);

// The label zone: `<label>[ ▹ pairing][ from ⇨ to][ markers][ [error]][ <tool>]`.
std::string render_label_zone(const json& hit);
// The location token: `L<line>`, or `(elicitation sidecar)` for a merged record.
std::string render_location(const json& hit);

struct HitLineStyle {
  // Fold newlines and whitespace runs to single spaces (search excerpts); otherwise keep the text's own line
  // breaks, indenting continuation lines so they cannot be mistaken for a header or another hit (show).
  bool fold_newlines = false;
};
// ` <glyph> <label zone> <location> <text>` from a hit object built by build_hit_json.
std::string render_hit_line(const json& hit, const HitLineStyle& style = {});

// Header tokens: the first 8 characters of each transcript id; ids whose 8-prefix collides within one output
// grow to 12, and to the full id when 12 still collides (SPEC.md §9.2). Register every id before asking for
// tokens.
class HeaderTokens {
 public:
  void add(const std::string& id);
  std::string token(const std::string& id) const;

 private:
  std::unordered_map<std::string, size_t> prefix8_, prefix12_;  // distinct ids per prefix
  std::unordered_set<std::string> ids_;
};

// `<tok>·t<N>` (`<tok>·draft` for a superseded draft, `<tok>·sidechain` for a session file's inline
// subagent records, `<tok>·pre` before the first opener), plus
// ` (parent <first-8>)` on a subagent.
std::string render_turn_tag(const json& hit, const HeaderTokens& tokens);
// The per-record header: the turn tag and the record's local instant (omitted when the record has none).
std::string render_record_header(const json& hit, const HeaderTokens& tokens);

}  // namespace csift
