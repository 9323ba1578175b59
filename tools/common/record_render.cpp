#include "tools/common/record_render.h"

#include <algorithm>

#include "core/base/timefmt.h"
#include "core/harness/claude_code/image_handles.h"
#include "core/record/labels.h"
#include "tools/common/tool.h"

namespace csift {
namespace {

constexpr const char* kEllipsis = "\xE2\x80\xA6";  // …

bool is_continuation_byte(char c) {
  return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
}

// Moves a byte index onto the start of the code point holding it (a span from a regex is byte-exact, but a
// caller-made one need not be).
size_t snap_to_char_start(std::string_view s, size_t i) {
  i = std::min(i, s.size());
  while (i > 0 && i < s.size() && is_continuation_byte(s[i]))
    --i;
  return i;
}

// Byte index `n` code points before / after `from` (stopping at the string's ends).
size_t back_chars(std::string_view s, size_t from, size_t n) {
  while (n > 0 && from > 0) {
    --from;
    while (from > 0 && is_continuation_byte(s[from]))
      --from;
    --n;
  }
  return from;
}
size_t forward_chars(std::string_view s, size_t from, size_t n) {
  while (n > 0 && from < s.size()) {
    ++from;
    while (from < s.size() && is_continuation_byte(s[from]))
      ++from;
    --n;
  }
  return from;
}

json local_iso_or_null(const std::string& ts) {
  const auto ms = parse_iso8601(ts);
  return ms ? json(format_local_iso(*ms)) : json(nullptr);
}

std::string get_string(const json& hit, const char* key) {
  const auto it = hit.find(key);
  return it != hit.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// Keeps a text's own line breaks but indents every continuation line, so full multi-line text (code, logs)
// stays verbatim while a line of it can never pass for a record header or another hit.
std::string indent_continuations(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    out += c;
    if (c == '\n') out += "    ";
  }
  return out;
}

// ` [2 image(s): #3, L7i2]`: each image by its `#N` handle when known (the number `image` takes as `id`),
// else by its locator.
std::string image_zone(const json& hit) {
  const auto it = hit.find("image_ids");
  if (it == hit.end() || !it->is_array() || it->empty()) return "";
  const auto handles = hit.find("image_handles");
  std::string out = " [" + std::to_string(it->size()) + " image(s):";
  for (size_t k = 0; k < it->size(); ++k) {
    const bool numbered = handles != hit.end() && handles->is_array() && k < handles->size() &&
                          (*handles)[k].is_number_integer();
    out += (k ? ", " : " ") +
           (numbered ? "#" + std::to_string((*handles)[k].get<int64_t>()) : (*it)[k].get<std::string>());
  }
  return out + "]";
}

}  // namespace

Excerpt apply_excerpt(std::string_view text, const ExcerptPolicy& policy) {
  if (policy.full || utf8_length(text) <= policy.width) return Excerpt{std::string(text), false};
  const size_t match_begin = snap_to_char_start(text, policy.match_begin);
  const size_t match_end = std::max(match_begin, snap_to_char_start(text, policy.match_end));
  const size_t match_chars = utf8_length(text.substr(match_begin, match_end - match_begin));
  size_t begin = match_begin, end = match_end;
  if (match_chars >= policy.width) {
    end = forward_chars(text, match_begin, policy.width);  // a match wider than the window keeps its head
  } else {
    // Split the spare width around the match; a side that runs out of text hands its share to the other.
    const size_t spare = policy.width - match_chars;
    const size_t left_available = utf8_length(text.substr(0, match_begin));
    const size_t right_available = utf8_length(text.substr(match_end));
    size_t left = std::min(spare / 2, left_available);
    const size_t right = std::min(spare - left, right_available);
    left = std::min(spare - right, left_available);
    begin = back_chars(text, match_begin, left);
    end = forward_chars(text, match_end, right);
  }
  std::string out;
  if (begin > 0) out += "(+" + std::to_string(utf8_length(text.substr(0, begin))) + " chars) " + kEllipsis;
  out += text.substr(begin, end - begin);
  if (end < text.size())
    out += std::string(kEllipsis) + " (+" + std::to_string(utf8_length(text.substr(end))) + " chars)";
  return Excerpt{std::move(out), true};
}

HitInput hit_input_of(const ClassifiedTranscript& ct, const ClassifiedEntry& e, size_t unit) {
  HitInput in;
  in.record = e.record;
  in.unit = &e.units[unit];
  in.owner = &ct.owner;
  in.turn_index = e.superseded_draft ? -1 : e.turn_index;
  in.superseded_draft = e.superseded_draft;
  in.pairing = ct.pairing_of(e, e.units[unit]);
  in.source = e.source;
  in.first_image_ordinal = first_image_ordinal(e, unit);
  in.record_units = &e.units;
  return in;
}

json refetch_call(const std::string& transcript_id, uint64_t line) {
  return follow_up_call("show", json{{"targets", json::array({"@" + transcript_id})},
                                     {"line", json::array({std::to_string(line)})}});
}

json refetch_call(const HitInput& in) {
  if (in.source != RecordSource::elicitation_sidecar) return refetch_call(in.owner->id, in.record->line);
  const json target = json::array({"@" + in.owner->id});
  if (!in.record->uuid.empty())
    return follow_up_call("show", json{{"targets", target}, {"uuid", json::array({in.record->uuid})}});
  if (in.turn_index >= 0)
    return follow_up_call("show", json{{"targets", target}, {"turn", std::to_string(in.turn_index)}});
  return nullptr;
}

json build_hit_json(const HitInput& in, const ExcerptPolicy& policy, const HitJsonOptions& options) {
  const Record& r = *in.record;
  const Unit& u = *in.unit;
  const bool from_sidecar = in.source == RecordSource::elicitation_sidecar;
  json hit = json::object();
  hit["kind"] = options.kind;
  hit["session_id"] = in.owner->id;
  hit["is_subagent"] = in.owner->is_subagent;
  hit["parent_session_id"] = in.owner->parent_session_id;
  hit["turn_index"] = in.turn_index >= 0 ? json(in.turn_index) : json(nullptr);
  hit["line"] = from_sidecar ? json(nullptr) : json(r.line);
  hit["uuid"] = string_or_null(r.uuid);
  hit["label"] = u.labels.empty() ? json(nullptr) : json(std::string(label_path(u.labels.front())));
  hit["labels"] = json::array();
  for (const Label l : u.labels)
    hit["labels"].push_back(std::string(label_path(l)));
  for (const Label l : u.section_labels)
    hit["labels"].push_back(std::string(label_path(l)));
  // The record's whole label set, the same on every unit of the record: a section of a batched record (a
  // task notification and a peer message delivered together) still says what else the record delivered.
  std::vector<Label> record_labels;
  const auto add_labels = [&record_labels](const Unit& unit) {
    for (const Label l : unit.labels)
      if (std::find(record_labels.begin(), record_labels.end(), l) == record_labels.end())
        record_labels.push_back(l);
  };
  if (in.record_units) {
    for (const Unit& unit : *in.record_units)
      add_labels(unit);
  } else {
    add_labels(u);
  }
  hit["record_labels"] = json::array();
  for (const Label l : record_labels)
    hit["record_labels"].push_back(std::string(label_path(l)));
  hit["tool_name"] = string_or_null(u.tool_name);
  hit["from"] = string_or_null(u.from);
  hit["to"] = string_or_null(u.to);
  const char* pairing = pairing_name(in.pairing);
  hit["pairing"] = pairing ? json(pairing) : json(nullptr);
  hit["tool_use_id"] = string_or_null(u.tool_use_id);
  // A result hit always states its error flag (false when the block had none); other hits carry null.
  hit["is_error"] = u.is_tool_result ? json(u.is_error.value_or(false)) : json(nullptr);
  hit["source"] = from_sidecar ? "elicitation-sidecar" : "transcript";
  hit["ts_utc"] = string_or_null(r.timestamp);
  hit["ts_local"] = local_iso_or_null(r.timestamp);
  hit["marker"] = string_or_null(u.marker);
  hit["queue_operation"] = string_or_null(u.queue_operation);
  hit["queue_reason"] = string_or_null(u.queue_reason);
  Excerpt text = apply_excerpt(u.text, policy);
  hit["text"] = std::move(text.text);
  if (!policy.full) hit["excerpt_truncated"] = text.truncated;
  hit["images"] = u.images;
  hit["image_ids"] = json::array();
  hit["image_handles"] = json::array();
  const std::vector<RecordImage> images = from_sidecar ? std::vector<RecordImage>{} : record_images(r);
  for (int k = 0; k < u.images && !from_sidecar; ++k) {
    const int ordinal = in.first_image_ordinal + k;
    hit["image_ids"].push_back(image_locator(r.line, ordinal));
    const bool known = ordinal >= 1 && static_cast<size_t>(ordinal) <= images.size() &&
                       images[static_cast<size_t>(ordinal) - 1].handle;
    hit["image_handles"].push_back(known ? json(*images[static_cast<size_t>(ordinal) - 1].handle)
                                         : json(nullptr));
  }
  hit["superseded_draft"] = in.superseded_draft;
  if (options.with_refetch) {
    hit["refetch"] = refetch_call(in);
  }
  return hit;
}

std::string render_label_zone(const json& hit) {
  const std::string label = get_string(hit, "label");
  const std::string pairing = get_string(hit, "pairing");
  const std::string marker = get_string(hit, "marker");
  std::string zone = label;
  if (pairing == "paired" && label == "agent.tool.use") zone += " \xE2\x96\xB9 agent.tool.result";  // ▹
  if (pairing == "pending") zone += " (no result \xE2\x80\x94 pending)";
  if (pairing == "orphan") zone += " (use not in scope)";
  const std::string from = get_string(hit, "from"), to = get_string(hit, "to");
  if (!from.empty() || !to.empty()) {
    zone += " " + (from.empty() ? "?" : from) + " \xE2\x87\xA8 " + (to.empty() ? "?" : to);  // ⇨
  }
  if (!marker.empty()) zone += " " + marker;
  const auto is_error = hit.find("is_error");
  if (is_error != hit.end() && is_error->is_boolean() && is_error->get<bool>() &&
      marker.find("error") == std::string::npos) {  // a harness's own status marker may say it already
    zone += " [error]";
  }
  const std::string tool = get_string(hit, "tool_name");
  if (!tool.empty()) zone += " " + tool;
  return zone + image_zone(hit);
}

std::string render_location(const json& hit) {
  const auto line = hit.find("line");
  if (line == hit.end() || !line->is_number()) return "(elicitation sidecar)";
  return "L" + std::to_string(line->get<uint64_t>());
}

namespace {

// The text a hit line shows: a tool_use unit's text leads with its tool name (so a search for the name
// matches), which the label zone already names; trailing newlines would only leave a dangling indent.
std::string display_text(const json& hit) {
  std::string text = get_string(hit, "text");
  const std::string tool = get_string(hit, "tool_name");
  if (!tool.empty() && text.size() > tool.size() && text.compare(0, tool.size(), tool) == 0 &&
      text[tool.size()] == ' ') {
    text.erase(0, tool.size() + 1);
  }
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r'))
    text.pop_back();
  return text;
}

}  // namespace

std::string render_hit_line(const json& hit, const HitLineStyle& style) {
  const auto label = label_from_path(get_string(hit, "label"));
  const std::string glyph(label ? role_glyph(label_role(*label)) : std::string_view("?"));
  std::string out = " " + glyph + " " + render_label_zone(hit) + " " + render_location(hit);
  const std::string text = display_text(hit);
  if (!text.empty()) out += " " + (style.fold_newlines ? one_line(text) : indent_continuations(text));
  return out;
}

namespace {

// The first n characters of an id; a ref of another harness (`codex:<id>`) keeps its harness name whole.
std::string id_head(const std::string& id, size_t n) {
  const size_t colon = id.find(':');
  return id.substr(0, (colon == std::string::npos ? 0 : colon + 1) + n);
}

}  // namespace

void HeaderTokens::add(const std::string& id) {
  if (!ids_.insert(id).second) return;
  ++prefix8_[id_head(id, 8)];
  ++prefix12_[id_head(id, 12)];
}

std::string HeaderTokens::token(const std::string& id) const {
  const auto count = [](const auto& counts, const std::string& prefix) {
    const auto it = counts.find(prefix);
    return it == counts.end() ? size_t{0} : it->second;
  };
  if (count(prefix8_, id_head(id, 8)) <= 1) return id_head(id, 8);
  if (count(prefix12_, id_head(id, 12)) <= 1) return id_head(id, 12);
  return id;
}

std::string render_turn_tag(const json& hit, const HeaderTokens& tokens) {
  std::string tag = tokens.token(get_string(hit, "session_id")) + "\xC2\xB7";  // ·
  const auto turn = hit.find("turn_index");
  const auto draft = hit.find("superseded_draft");
  const auto sidechain = hit.find("sidechain");
  if (draft != hit.end() && draft->is_boolean() && draft->get<bool>()) {
    tag += "draft";
  } else if (sidechain != hit.end() && sidechain->is_boolean() && sidechain->get<bool>()) {
    tag += "sidechain";
  } else if (turn != hit.end() && turn->is_number()) {
    tag += "t" + std::to_string(turn->get<int64_t>());
  } else {
    tag += "pre";
  }
  const auto sub = hit.find("is_subagent");
  if (sub != hit.end() && sub->is_boolean() && sub->get<bool>()) {
    tag += " (parent " + get_string(hit, "parent_session_id").substr(0, 8) + ")";
  }
  return tag;
}

std::string render_record_header(const json& hit, const HeaderTokens& tokens) {
  std::string header = render_turn_tag(hit, tokens);
  const auto ms = parse_iso8601(get_string(hit, "ts_utc"));
  if (ms) header += " " + format_local(*ms, true);
  return header;
}

}  // namespace csift
