// The --siblings policy: which context units of a turn show, which the caps hide, and the turn's line span.
#include "tools/search/search_siblings.h"

#include <algorithm>
#include <map>

namespace csift {
namespace {

json sibling_json(const SearchRequest& req, const ClassifiedTranscript& ct, const ClassifiedEntry& e,
                  size_t u) {
  const HitInput in = hit_input_of(ct, e, u);
  // A context record has no match to centre on: the excerpt is its head (full under --no-truncate).
  const ExcerptPolicy policy = req.no_truncate ? ExcerptPolicy::full_text() : ExcerptPolicy::centered(0, 0);
  json hit = build_hit_json(in, policy, HitJsonOptions{"hit", /*with_refetch=*/true});
  hit["matched"] = false;
  hit["sibling"] = true;
  return hit;
}

// Entry indices [begin, end) of one turn's transcript records: turns are contiguous runs in file order (a
// superseded draft inside the run sits outside numbering), so the turn is found without scanning the file.
std::pair<size_t, size_t> turn_range(const ClassifiedTranscript& ct, int turn) {
  const auto& openers = ct.turns.opener_index;
  const auto t = static_cast<size_t>(turn);
  if (turn < 0 || t >= openers.size()) return {0, 0};
  return {openers[t], t + 1 < openers.size() ? openers[t + 1] : ct.transcript_entries};
}

std::optional<std::pair<uint64_t, uint64_t>> turn_span(const ClassifiedTranscript& ct, int turn) {
  auto [begin, end] = turn_range(ct, turn);
  while (end > begin && ct.entries[end - 1].turn_index != turn)
    --end;
  if (begin == end) return std::nullopt;
  return std::make_pair(ct.entries[begin].record->line, ct.entries[end - 1].record->line);
}

// The turn's entries in file order: its transcript run, then the merged sidecar records it owns.
std::vector<size_t> turn_entries(const ClassifiedTranscript& ct, int turn) {
  std::vector<size_t> out;
  const auto [begin, end] = turn_range(ct, turn);
  for (size_t i = begin; i < end; ++i)
    out.push_back(i);
  for (size_t i = ct.transcript_entries; i < ct.entries.size(); ++i)
    out.push_back(i);
  return out;
}

}  // namespace

std::optional<size_t> sibling_cap(Label l) {
  switch (l) {
    case Label::agent_thinking:
      return 2;
    case Label::agent_thinking_narration:
      return 1;
    case Label::agent_tool_use:
    case Label::agent_tool_result:
      return 3;
    default:
      break;
  }
  if (label_role(l) == Role::harness) return 2;
  return std::nullopt;  // user.*, agent.message, agent.communication.*: the conversation itself
}

bool sibling_visible(const SearchRequest& req, Label l) {
  if (req.labels.explicitly_reaches(l)) return true;
  if (l == Label::harness_meta_attachment || l == Label::harness_meta_hook) return req.attachments;
  return !label_gated(l);
}

TurnSiblings select_siblings(const SearchRequest& req, const ClassifiedTranscript& ct, int turn,
                             const std::set<std::pair<size_t, size_t>>& rendered) {
  TurnSiblings out;
  out.turn_lines = turn_span(ct, turn);
  std::map<Label, size_t> shown;
  for (const size_t i : turn_entries(ct, turn)) {
    const ClassifiedEntry& e = ct.entries[i];
    if (e.turn_index != turn || e.superseded_draft) continue;
    for (size_t u = 0; u < e.units.size(); ++u) {
      if (rendered.count({i, u})) continue;
      const Label leaf = e.units[u].labels.front();
      if (!sibling_visible(req, leaf)) continue;
      const auto cap = sibling_cap(leaf);
      if (cap && shown[leaf] >= *cap) {
        const std::string key(label_path(leaf));
        out.hidden[key] = out.hidden.value(key, size_t{0}) + 1;
        ++out.hidden_total;
        continue;
      }
      ++shown[leaf];
      out.siblings.push_back(sibling_json(req, ct, e, u));
    }
  }
  return out;
}

void add_siblings(json& row, const SearchRequest& req, const ClassifiedTranscript& ct, const Exchange& x) {
  if (x.turn_index < 0) {  // a pre-turn or draft exchange has no turn to give context from
    row["siblings"] = json::array();
    row["siblings_hidden"] = json::object();
    row["turn_lines"] = nullptr;
    return;
  }
  std::set<std::pair<size_t, size_t>> rendered;
  for (const ExchangeUnit& u : x.units)
    rendered.insert({u.entry_index, u.unit_index});
  TurnSiblings s = select_siblings(req, ct, x.turn_index, rendered);
  row["siblings"] = std::move(s.siblings);
  row["siblings_hidden"] = std::move(s.hidden);
  row["turn_lines"] = s.turn_lines ? json::array({s.turn_lines->first, s.turn_lines->second}) : json(nullptr);
}

std::string render_siblings_text(const json& exchange, const ToolContext& ctx) {
  const auto siblings = exchange.find("siblings");
  if (siblings == exchange.end() || !siblings->is_array()) return "";
  std::string out;
  for (const json& s : *siblings)
    out += "  \xC2\xB7" + render_hit_line(s, HitLineStyle{/*fold_newlines=*/true}) + "\n";  // ·
  size_t hidden = 0;
  const json per_leaf = exchange.value("siblings_hidden", json::object());
  for (const auto& [leaf, n] : per_leaf.items())
    hidden += n.get<size_t>();
  const json lines = exchange.value("turn_lines", json());
  if (hidden > 0 && lines.is_array() && lines.size() == 2) {
    const std::string range =
        std::to_string(lines[0].get<uint64_t>()) + ".." + std::to_string(lines[1].get<uint64_t>());
    const json call{{"targets", json::array({"@" + exchange.value("session_id", "")})},
                    {"line", json::array({range})}};
    out += "  \xC2\xB7 (+" + std::to_string(hidden) + " more \xC2\xB7 " + ctx.call_text("show", call) + ")\n";
  }
  return out;
}

}  // namespace csift
