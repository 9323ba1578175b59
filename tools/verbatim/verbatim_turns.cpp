#include "tools/verbatim/verbatim_turns.h"

#include <algorithm>
#include <map>

#include "core/harness/claude_code/claude_fields.h"
#include "core/harness/claude_code/image_handles.h"

namespace csift {
namespace {

bool has_label(const Unit& u, Label l) {
  return std::find(u.labels.begin(), u.labels.end(), l) != u.labels.end();
}

bool is_human_side(const Unit& u) {
  if (u.labels.empty()) return false;
  const Label first = u.labels.front();
  return first == Label::user_message || first == Label::user_answer || first == Label::user_rejection;
}

TurnPiece piece_of(const Record& r, std::string_view text) {
  TurnPiece p;
  p.line = r.line;
  p.uuid = r.uuid;
  p.timestamp = r.timestamp;
  p.text = normalize_text(text);
  p.raw_newlines = static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
  for (const RecordImage& img : record_images(r))
    p.images.push_back(image_address(img, r.line));
  return p;
}

void extend(TurnSlice& t, uint64_t line) {
  if (t.first_line == 0 || line < t.first_line) t.first_line = line;
  t.last_line = std::max(t.last_line, line);
}

// One record's contribution to its turn: the human side when it opens the turn, its agent messages joined
// (one message per record), its tool calls and failed results.
void add_entry(TurnSlice& t, const ClassifiedEntry& e, bool opener) {
  const Record& r = *e.record;
  std::string agent_text;
  for (const Unit& u : e.units) {
    if (opener && !t.user && is_human_side(u)) t.user = piece_of(r, u.text);
    if (has_label(u, Label::agent_message)) agent_text += (agent_text.empty() ? "" : "\n\n") + u.text;
    if (u.is_tool_use) t.tool_use_lines.push_back(r.line);
    if (u.is_tool_result && u.is_error.value_or(false)) t.failed_lines.push_back(r.line);
  }
  if (!normalize_text(agent_text).empty()) t.agents.push_back(piece_of(r, agent_text));
  extend(t, r.line);
}

}  // namespace

std::string normalize_text(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\r' && i + 1 < text.size() && text[i + 1] == '\n') continue;
    out += text[i];
  }
  const size_t begin = out.find_first_not_of(" \t\n");
  if (begin == std::string::npos) return "";
  const size_t end = out.find_last_not_of(" \t\n");
  return out.substr(begin, end - begin + 1);
}

SessionTurns build_session_turns(const ClassifiedTranscript& ct) {
  SessionTurns out;
  out.turn_count = ct.turns.turn_count;
  std::map<int, size_t> slot;  // turn index -> position in out.turns
  for (size_t i = 0; i < ct.transcript_entries; ++i) {
    const ClassifiedEntry& e = ct.entries[i];
    const Record& r = *e.record;
    if (is_compact_summary(r)) {
      const std::string text = user_text(r);
      out.boundaries.push_back(Boundary{r.line, utf8_length(text), text});
      continue;
    }
    if (e.superseded_draft || e.units.empty()) continue;
    auto [it, fresh] = slot.try_emplace(e.turn_index, out.turns.size());
    if (fresh) {
      out.turns.emplace_back();
      out.turns.back().turn_index = e.turn_index;
    }
    add_entry(out.turns[it->second], e, ct.turns.is_opener[i]);
  }
  return out;
}

}  // namespace csift
