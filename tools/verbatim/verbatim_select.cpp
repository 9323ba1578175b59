#include "tools/verbatim/verbatim_select.h"

#include <algorithm>
#include <limits>
#include <map>
#include <optional>
#include <set>

#include "core/base/timefmt.h"
#include "tools/verbatim/agent_filter.h"
#include "tools/verbatim/summary_dedup.h"
#include "tools/verbatim/verbatim_render.h"
#include "tools/verbatim/verbatim_slices.h"

namespace csift {
namespace {

constexpr uint64_t kNoLine = std::numeric_limits<uint64_t>::max();

struct Caps {
  size_t user = kUserCap, agent = kAgentCap;
};

// One turn's candidate rows: its human side and its assistant side (kept messages and placeholders).
struct Candidate {
  int turn_index = -1;
  uint64_t last_line = 0;
  std::optional<json> user;
  std::vector<json> agents;
  int eot = -1;  // index in agents of the last kept message
  size_t tool_calls = 0;
  bool user_dup = false, agent_dup = false;
  bool complete() const { return user && eot >= 0; }
};

size_t compactions_after(const std::vector<Boundary>& boundaries, uint64_t line) {
  size_t n = 0;
  for (const auto& b : boundaries)
    n += b.line > line ? 1 : 0;
  return n;
}

json turn_row(const TurnPiece& p, bool user, int turn_index, size_t compactions, const Caps& caps,
              const TranscriptIdentity& owner) {
  json row = owner.row("turn");
  row["line"] = p.line;
  row["uuid"] = string_or_null(p.uuid);
  row["role"] = user ? "user" : "assistant";
  row["turn_index"] = turn_index >= 0 ? json(turn_index) : json(nullptr);
  row["ts_utc"] = string_or_null(p.timestamp);
  const auto ms = parse_iso8601(p.timestamp);
  row["ts_local"] = ms ? json(format_local_iso(*ms)) : json(nullptr);
  row["tool_calls"] = 0;
  const Elision e =
      plan_elision(p.text, user ? caps.user : caps.agent, user ? kUserHeadFraction : kAgentHeadFraction);
  row["full_chars"] = utf8_length(p.text);
  row["rendered_chars"] = 0;
  row["truncated"] = e.truncated;
  row["elided_chars"] = e.elided_chars;
  row["elided_lines"] = e.elided_lines;
  row["head_chars"] = e.truncated ? json(e.head_chars) : json(nullptr);
  row["tail_chars"] = e.truncated ? json(e.tail_chars) : json(nullptr);
  row["also_in_summary"] = false;
  row["compactions_before"] = compactions;
  row["images"] = p.images;
  row["text"] = p.text;
  return row;
}

json collapsed_row(const TurnSlice& t, const std::vector<TurnPiece>& run, int turn_index, size_t compactions,
                   const TranscriptIdentity& owner) {
  const uint64_t first = run.front().line, last = run.back().line;
  auto in_run = [&](const std::vector<uint64_t>& lines) {
    return static_cast<size_t>(
        std::count_if(lines.begin(), lines.end(), [&](uint64_t l) { return l >= first && l <= last; }));
  };
  json row = owner.row("collapsed_agents");
  row["line"] = first;
  row["first_line"] = first;
  row["last_line"] = last;
  row["turn_index"] = turn_index >= 0 ? json(turn_index) : json(nullptr);
  row["agent_messages"] = run.size();
  row["tool_calls"] = in_run(t.tool_use_lines);
  row["failed"] = in_run(t.failed_lines);
  row["compactions_before"] = compactions;
  row["rendered_chars"] = 0;
  row["refetch"] = follow_up_call(
      "show", json{{"targets", json::array({"@" + owner.id})},
                   {"line", json::array({std::to_string(first) + ".." + std::to_string(last)})}});
  return row;
}

bool in_time(const TimeWindow& w, const std::string& ts) {
  if (!w.bounded()) return true;
  const auto ms = parse_iso8601(ts);
  return ms && w.contains(*ms);
}

Candidate build_candidate(const TurnSlice& t, const SessionTurns& st, const VerbatimRequest& req,
                          const Caps& caps, const SummaryQuotes& quotes, const TranscriptIdentity& owner) {
  Candidate c;
  c.turn_index = t.turn_index;
  c.last_line = t.last_line;
  c.tool_calls = t.tool_use_lines.size();
  auto allowed = [&](const TurnPiece& p) {
    const size_t before = compactions_after(st.boundaries, p.line);
    return in_time(req.window, p.timestamp) &&
           (req.max_compactions <= 0 || before <= static_cast<size_t>(req.max_compactions));
  };
  if (t.user && allowed(*t.user)) {
    const size_t before = compactions_after(st.boundaries, t.user->line);
    c.user = turn_row(*t.user, true, t.turn_index, before, caps, owner);
    c.user_dup = before == 0 && quotes.quotes_user(t.user->text);
    (*c.user)["also_in_summary"] = c.user_dup;
  }
  std::vector<TurnPiece> agents;
  for (const auto& a : t.agents)
    if (allowed(a)) agents.push_back(a);
  const std::vector<bool> keep = keep_agent_messages(agents, req.agent_msgs, req.thresholds);
  std::vector<TurnPiece> run;
  auto flush = [&] {
    if (run.empty()) return;
    c.agents.push_back(
        collapsed_row(t, run, t.turn_index, compactions_after(st.boundaries, run.front().line), owner));
    run.clear();
  };
  for (size_t i = 0; i < agents.size(); ++i) {
    if (!keep[i]) {
      run.push_back(agents[i]);
      continue;
    }
    flush();
    const size_t before = compactions_after(st.boundaries, agents[i].line);
    c.agents.push_back(turn_row(agents[i], false, t.turn_index, before, caps, owner));
    c.eot = static_cast<int>(c.agents.size()) - 1;
    c.agent_dup = before == 0 && quotes.quotes_agent(agents[i].text);
  }
  flush();
  if (c.eot >= 0) c.agents[static_cast<size_t>(c.eot)]["also_in_summary"] = c.agent_dup;
  return c;
}

size_t block_chars(const json& row) {
  return utf8_length(render_row_block(row));
}

// The running selection: chosen rows, the turns whose tool-call marker is paid, the earliest line restored
// (banners are drawn for every boundary after it), and the characters spent.
class Selector {
 public:
  Selector(std::vector<Candidate>& cands, const std::vector<Boundary>& boundaries, uint64_t banner_limit,
           const TranscriptIdentity& owner, size_t budget)
      : cands_(&cands),
        boundaries_(&boundaries),
        banner_limit_(banner_limit),
        owner_(&owner),
        budget_(budget) {}

  // Takes `pieces` (indices into the candidate: -1 = user, k = agents[k]) when they fit within `limit`.
  bool take(size_t ci, const std::vector<int>& pieces, size_t limit) {
    const size_t cost = cost_of(ci, pieces);
    if (used_ + cost > limit) return false;
    used_ += cost;
    for (int p : pieces) {
      chosen_.insert({ci, p});
      min_line_ = std::min(min_line_, line_of(ci, p));
    }
    charged_.insert(ci);
    return true;
  }
  bool chosen(size_t ci, int piece) const { return chosen_.count({ci, piece}) > 0; }
  size_t used() const { return used_; }
  size_t budget() const { return budget_; }
  uint64_t min_line() const { return min_line_; }
  const std::set<std::pair<size_t, int>>& chosen_set() const { return chosen_; }

 private:
  uint64_t line_of(size_t ci, int p) const {
    const json& row = p < 0 ? *(*cands_)[ci].user : (*cands_)[ci].agents[static_cast<size_t>(p)];
    return row["line"].get<uint64_t>();
  }
  size_t banner_cost(uint64_t from, uint64_t to) const {  // banners for boundaries in (from, to]
    size_t cost = 0;
    for (const auto& b : *boundaries_) {
      if (b.line > from && b.line <= to && b.line <= banner_limit_)
        cost += block_chars(banner_row(b, *owner_));
    }
    return cost;
  }
  size_t cost_of(size_t ci, const std::vector<int>& pieces) const {
    size_t cost = 0;
    uint64_t lowest = min_line_;
    for (int p : pieces) {
      if (chosen(ci, p)) continue;
      cost += block_chars(p < 0 ? *(*cands_)[ci].user : (*cands_)[ci].agents[static_cast<size_t>(p)]);
      lowest = std::min(lowest, line_of(ci, p));
    }
    const size_t calls = (*cands_)[ci].tool_calls;
    if (!charged_.count(ci) && calls > 0)
      cost += utf8_length("[" + std::to_string(calls) + (calls == 1 ? " tool call]\n" : " tool calls]\n"));
    if (lowest < min_line_) cost += banner_cost(lowest, min_line_ == kNoLine ? kNoLine - 1 : min_line_);
    return cost;
  }

 public:
  static json banner_row(const Boundary& b, const TranscriptIdentity& owner) {
    json row = owner.row("compaction_boundary");
    row["line"] = b.line;
    row["summary_chars"] = b.summary_chars;
    row["rendered_chars"] = 0;
    return row;
  }

 private:
  std::vector<Candidate>* cands_;
  const std::vector<Boundary>* boundaries_;
  uint64_t banner_limit_;
  const TranscriptIdentity* owner_;
  size_t budget_;
  std::set<std::pair<size_t, int>> chosen_;
  std::set<size_t> charged_;
  uint64_t min_line_ = kNoLine;
  size_t used_ = 0;
};

std::vector<int> all_pieces(const Candidate& c) {
  std::vector<int> p;
  if (c.user) p.push_back(-1);
  for (size_t k = 0; k < c.agents.size(); ++k)
    p.push_back(static_cast<int>(k));
  return p;
}

std::vector<int> agent_pieces(const Candidate& c) {
  std::vector<int> p;
  for (size_t k = 0; k < c.agents.size(); ++k)
    p.push_back(static_cast<int>(k));
  return p;
}

// Recency order (newest last line first, then higher turn), non-duplicates before duplicates.
std::vector<size_t> recency_order(const std::vector<Candidate>& cands, bool by_agent_dup) {
  std::vector<size_t> order(cands.size());
  for (size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    const bool da = by_agent_dup ? cands[a].agent_dup : cands[a].user_dup;
    const bool db = by_agent_dup ? cands[b].agent_dup : cands[b].user_dup;
    if (da != db) return !da;
    if (cands[a].last_line != cands[b].last_line) return cands[a].last_line > cands[b].last_line;
    return cands[a].turn_index > cands[b].turn_index;
  });
  return order;
}

void select_budgeted(Selector& sel, std::vector<Candidate>& cands, const VerbatimRequest& req) {
  const size_t budget = sel.budget();
  const auto floor = static_cast<size_t>(static_cast<double>(budget) * req.round_trip_fraction);
  for (size_t ci : recency_order(cands, false)) {
    if (cands[ci].complete()) sel.take(ci, all_pieces(cands[ci]), floor);
  }
  for (size_t ci : recency_order(cands, false)) {
    if (cands[ci].user && !sel.chosen(ci, -1)) sel.take(ci, {-1}, budget);
  }
  for (size_t ci : recency_order(cands, true)) {
    const Candidate& c = cands[ci];
    if (c.eot < 0 || sel.chosen(ci, c.eot)) continue;
    if (!sel.take(ci, agent_pieces(c), budget)) sel.take(ci, {c.eot}, budget);
  }
}

// Fixed fleet: whole turns, newest first, while the document still packs (from its end) into the slices.
void select_fleet(Selector& sel, std::vector<Candidate>& cands, const std::vector<Boundary>& boundaries,
                  uint64_t banner_limit, const TranscriptIdentity& owner, const VerbatimRequest& req) {
  const size_t window = static_cast<size_t>(req.window_chars);
  for (size_t ci : recency_order(cands, false)) {
    std::vector<int> pieces = all_pieces(cands[ci]);
    if (pieces.empty()) continue;
    Selector trial = sel;
    if (!trial.take(ci, pieces, sel.budget())) break;
    std::vector<std::string> blocks;
    std::vector<std::pair<uint64_t, std::string>> ordered;
    for (const auto& [c, p] : trial.chosen_set()) {
      const json& row = p < 0 ? *cands[c].user : cands[c].agents[static_cast<size_t>(p)];
      ordered.emplace_back(row["line"].get<uint64_t>(), render_row_block(row) + "\n");  // + room for a marker
    }
    for (const auto& b : boundaries) {
      if (b.line > trial.min_line() && b.line <= banner_limit)
        ordered.emplace_back(b.line, render_row_block(Selector::banner_row(b, owner)));
    }
    std::sort(ordered.begin(), ordered.end());
    for (auto& o : ordered)
      blocks.push_back(std::move(o.second));
    if (pack_from_end(blocks, window).size() > static_cast<size_t>(*req.slices)) break;
    sel = trial;
  }
}

}  // namespace

SessionSelection select_verbatim(const SessionTurns& st, const VerbatimRequest& req,
                                 const TranscriptIdentity& owner) {
  SessionSelection out;
  const bool fleet = req.slices.has_value();
  Caps caps;
  if (fleet) caps.user = caps.agent = static_cast<size_t>(std::max<int64_t>(req.window_chars - 160, 40));
  const SummaryQuotes quotes =
      st.boundaries.empty() ? SummaryQuotes() : SummaryQuotes(st.boundaries.back().summary_text);
  std::vector<Candidate> cands;
  uint64_t banner_limit = 0;
  std::optional<ResolvedRange> turn_range;
  if (req.turns)
    turn_range = st.turn_count > 0 ? resolve_range(*req.turns, 0, st.turn_count - 1) : std::nullopt;
  bool after_window = false;
  for (size_t i = 0; i < st.turns.size(); ++i) {
    const TurnSlice& t = st.turns[i];
    if (req.turns && (!turn_range || t.turn_index < turn_range->lo || t.turn_index > turn_range->hi)) {
      if (turn_range && t.turn_index > turn_range->hi && !after_window) {
        after_window = true;
        banner_limit = t.first_line;
      }
      continue;
    }
    ++out.turns_in_window;
    cands.push_back(build_candidate(t, st, req, caps, quotes, owner));
  }
  if (!after_window) banner_limit = kNoLine - 1;
  for (const auto& c : cands) {
    out.candidate_user += c.user ? 1 : 0;
    for (const auto& a : c.agents)
      out.candidate_assistant += a["kind"] == "turn" ? 1 : 0;
  }
  const size_t budget =
      fleet ? static_cast<size_t>(*req.slices * req.window_chars) : static_cast<size_t>(req.budget);
  Selector sel(cands, st.boundaries, banner_limit, owner, budget);
  if (fleet)
    select_fleet(sel, cands, st.boundaries, banner_limit, owner, req);
  else
    select_budgeted(sel, cands, req);

  // The turn's tool-call marker rides on its first restored unit: the human side when it is restored, else
  // the first agent message (never a placeholder, which counts its own calls).
  std::map<size_t, int> marker_piece;
  for (const auto& [ci, p] : sel.chosen_set()) {
    const bool unit = p < 0 || cands[ci].agents[static_cast<size_t>(p)]["kind"] == "turn";
    if (unit && cands[ci].tool_calls > 0 && !marker_piece.count(ci)) marker_piece[ci] = p;
  }
  for (const auto& [ci, p] : sel.chosen_set()) {
    json row = p < 0 ? *cands[ci].user : cands[ci].agents[static_cast<size_t>(p)];
    const auto marker = marker_piece.find(ci);
    if (marker != marker_piece.end() && marker->second == p) row["tool_calls"] = cands[ci].tool_calls;
    out.also_in_summary += row.value("also_in_summary", false) ? 1 : 0;
    if (row["kind"] == "turn")
      (row["role"] == "user" ? out.selected_user : out.selected_assistant) += 1;
    else
      ++out.collapsed;
    out.rows.push_back(std::move(row));
  }
  for (const auto& b : st.boundaries) {
    if (b.line > sel.min_line() && b.line <= banner_limit && sel.min_line() != kNoLine) {
      out.rows.push_back(Selector::banner_row(b, owner));
      ++out.boundaries_spanned;
    }
  }
  std::stable_sort(out.rows.begin(), out.rows.end(), [](const json& a, const json& b) {
    return a["line"].get<uint64_t>() < b["line"].get<uint64_t>();
  });
  for (auto& row : out.rows) {
    row["rendered_chars"] = block_chars(row);
    out.chars_used += row["rendered_chars"].get<size_t>();
  }
  return out;
}

}  // namespace csift
