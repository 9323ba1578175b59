// The per-axis key of one matched record (the `--count-by` domains). Unit-level axes (tool, pairing, result)
// take the first unit among the record's hits that carries a value — a text+tool_use record whose prose
// matched still counts under its tool — and record-level axes read the record itself.
#include <functional>

#include "core/harness/claude_code/claude_fields.h"
#include "tools/search/search_census.h"

namespace csift {
namespace {

using UnitValue = std::function<std::optional<std::string>(const ClassifiedEntry&, const Unit&)>;

std::optional<std::string> first_unit_value(const TranscriptHits& th, const RecordHit& rh,
                                            const UnitValue& f) {
  const ClassifiedEntry& e = th.ct.entries[rh.entry_index];
  for (const UnitHit& uh : rh.units) {
    if (auto v = f(e, e.units[uh.unit_index])) return v;
  }
  return std::nullopt;
}

std::optional<std::string> non_empty(const std::string& s) {
  if (s.empty()) return std::nullopt;
  return s;
}

std::optional<std::string> turn_key(const TranscriptHits& th, const ClassifiedEntry& e, bool qualify) {
  if (e.turn_index < 0) return std::nullopt;  // before the first opener, or a superseded draft
  const std::string turn = "t" + std::to_string(e.turn_index);
  return qualify ? th.ct.owner.id + "\xC2\xB7" + turn : turn;  // ·
}

}  // namespace

std::optional<std::string> census_key(CountAxis axis, const TranscriptHits& th, const RecordHit& rh,
                                      bool qualify_turns) {
  const ClassifiedEntry& e = th.ct.entries[rh.entry_index];
  switch (axis) {
    case CountAxis::tool:
      return first_unit_value(th, rh,
                              [](const ClassifiedEntry&, const Unit& u) { return non_empty(u.tool_name); });
    case CountAxis::turn:
      return turn_key(th, e, qualify_turns);
    case CountAxis::session:
      return th.ct.owner.id;
    case CountAxis::pairing:
      // The join rides the tool BLOCK whatever view it renders under (a SendMessage's comm.sent view
      // included).
      return first_unit_value(th, rh, [&th](const ClassifiedEntry& entry, const Unit& u) {
        const char* name = pairing_name(th.ct.pairing_of(entry, u));
        return name ? std::optional<std::string>(name) : std::nullopt;
      });
    case CountAxis::model:
      return e.record->type == "assistant" ? non_empty(e.record->message.model) : std::nullopt;
    case CountAxis::attachment:
      return attachment_type(*e.record);
    case CountAxis::version:
      return non_empty(e.record->version);
    case CountAxis::result:
      return first_unit_value(th, rh,
                              [](const ClassifiedEntry&, const Unit& u) -> std::optional<std::string> {
                                if (!u.is_tool_result) return std::nullopt;
                                return u.is_error.value_or(false) ? "error" : "ok";
                              });
    case CountAxis::label:
      break;
  }
  return std::nullopt;
}

LabelSet census_labels(const SearchRequest& req, const TranscriptHits& th, const RecordHit& rh) {
  const ClassifiedEntry& e = th.ct.entries[rh.entry_index];
  LabelSet out;
  for (const UnitHit& uh : rh.units) {
    for (const Label l : e.units[uh.unit_index].labels) {
      if (req.labels.admits(l)) out.add(l);
    }
  }
  return out;
}

}  // namespace csift
