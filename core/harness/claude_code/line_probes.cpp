// Byte-level probes over a raw jsonl line (SPEC.md §7): they run before any parse, so they must be cheap
// and CONSERVATIVE — a probe may say "maybe" for a line that turns out not to qualify, never "no" for one
// that does. Role markers tolerate json.dumps spacing (`"role": "user"`), which is why the spec's v0.6.9
// ledger retired the exact-byte needle.
#include <algorithm>
#include <cstring>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/text.h"
#include "core/harness/claude_code/classify.h"
#include "core/harness/claude_code/classify_detail.h"
#include "core/harness/claude_code/claude_fields.h"
#include "core/harness/claude_code/record_parser.h"
#include "core/json/json_syntax.h"
#include "core/scan/substring_finder.h"

namespace csift {

namespace {

// True when the quote at `pos` is a real JSON quote, not an escaped one inside a string.
bool quote_is_unescaped(std::string_view s, size_t pos) {
  size_t backslashes = 0;
  while (pos > backslashes && s[pos - 1 - backslashes] == '\\')
    ++backslashes;
  return backslashes % 2 == 0;
}

// The index of the quote that closes the JSON string opened by the quote at `open` (one not escaped: an even
// run of backslashes before it), or npos when the string runs off the end. memchr jumps over a long string's
// text: a byte-at-a-time walk of every string made peek_type 9 % of a cold `-t user.message` count, whose
// assistant lines name their type after the message.
size_t string_close(std::string_view s, size_t open) {
  size_t from = open + 1;
  while (from < s.size()) {
    const void* quote = std::memchr(s.data() + from, '"', s.size() - from);
    if (!quote) return std::string_view::npos;
    const size_t at = static_cast<size_t>(static_cast<const char*>(quote) - s.data());
    size_t backslashes = 0;
    while (at - backslashes > open + 1 && s[at - 1 - backslashes] == '\\')
      ++backslashes;
    if (backslashes % 2 == 0) return at;
    from = at + 1;
  }
  return std::string_view::npos;
}

// Finds `"key"` <ws> `:` <ws> `"value"` with the key's opening quote unescaped (so a pair quoted inside a
// string value, which arrives as \"key\":\"value\", is not mistaken for a real field).
// Not string_view::find: find() runs memchr on the needle's first byte, and a quoted key starts with '"', the
// commonest byte in JSON, so it stopped every few bytes (measured: a quarter of `list`'s time). The two keys
// the probes look for on every line, and the two a tool-partner search asks of every line it reads back, get
// the AVX2 SubstringFinder (memmem on `"id"` was 7 % of a cold absent-literal search); any other goes through
// memmem.
size_t find_quoted_key(std::string_view hay, std::string_view quoted_key, size_t from) {
  static const SubstringFinder kRole({"\"role\""}, false), kType({"\"type\""}, false), kId({"\"id\""}, false),
      kToolUseId({"\"tool_use_id\""}, false);
  if (quoted_key == "\"role\"") return kRole.find(hay, from);
  if (quoted_key == "\"type\"") return kType.find(hay, from);
  if (quoted_key == "\"id\"") return kId.find(hay, from);
  if (quoted_key == "\"tool_use_id\"") return kToolUseId.find(hay, from);
  if (from > hay.size()) return std::string_view::npos;
  const void* hit = memmem(hay.data() + from, hay.size() - from, quoted_key.data(), quoted_key.size());
  return hit ? static_cast<size_t>(static_cast<const char*>(hit) - hay.data()) : std::string_view::npos;
}

// The one walk over `"key"` <ws> `:` <ws> `"value"` pairs: calls on_value(value) for each, in order, with the
// value raw as on disk (escapes kept, an escaped `\"` does not end it), and stops at the first call that
// returns true (returning true). A key whose opening quote is escaped lies inside a string and is skipped; an
// unterminated value ends the walk.
template <class OnValue>
bool find_key_string_value(std::string_view line, std::string_view key, OnValue&& on_value) {
  const std::string quoted_key = "\"" + std::string(key) + "\"";
  size_t at = 0;
  while ((at = find_quoted_key(line, quoted_key, at)) != std::string_view::npos) {
    const bool real = quote_is_unescaped(line, at);
    size_t i = skip_json_space(line, at + quoted_key.size());
    at += quoted_key.size();
    if (!real || i >= line.size() || line[i] != ':') continue;
    i = skip_json_space(line, i + 1);
    if (i >= line.size() || line[i] != '"') continue;
    const size_t end = string_close(line, i);
    if (end == std::string_view::npos) return false;
    if (on_value(line.substr(i + 1, end - i - 1))) return true;
    at = end;
  }
  return false;
}

// True when `"key"` <ws> `:` <ws> `"value"` occurs for any of `values`, in one pass over the line.
bool has_key_string_value(std::string_view line, std::string_view key,
                          std::initializer_list<std::string_view> values) {
  return find_key_string_value(line, key, [&](std::string_view v) {
    for (std::string_view value : values) {
      if (v == value) return true;
    }
    return false;
  });
}

}  // namespace

bool line_is_blank(std::string_view line) {
  return trim_start(line, kJsonSpace).empty();
}

bool line_shape_malformed(std::string_view line) {
  const std::string_view t = trim(line, kJsonSpace);
  if (t.empty()) return false;  // blank is not malformed
  return t.front() != '{' || t.back() != '}';
}

std::vector<std::string_view> key_string_values(std::string_view line, std::string_view key) {
  std::vector<std::string_view> out;
  find_key_string_value(line, key, [&](std::string_view v) {
    out.push_back(v);
    return false;
  });
  return out;
}

std::string_view first_key_string_value(std::string_view line, std::string_view key) {
  std::string_view found;
  find_key_string_value(line, key, [&](std::string_view v) {
    found = v;
    return !v.empty();
  });
  return found;
}

bool line_has_role(std::string_view line, std::string_view role) {
  return has_key_string_value(line, "role", {role});
}

bool line_has_any_role(std::string_view line) {
  return has_key_string_value(line, "role", {"user", "assistant"});
}

namespace {

// Calls on_key(name, value_at) for each key of the line's top-level object, in order: `name` is the key's
// bytes (escapes kept verbatim), `value_at` the offset of its value past the colon and blanks (line.size()
// when the line ends there); on_key returns false to stop. Nested values are jumped over whole
// (json_container_end): an assistant line names its type after its message, and walking the message's strings
// one by one was 9 % of a cold `-t user.message` count. False when the structure breaks off (an unclosed
// string or container) before the walk ended.
template <class OnKey>
bool walk_top_level_keys(std::string_view line, OnKey&& on_key) {
  int depth = 0;
  size_t i = 0;
  while (i < line.size()) {
    const char c = line[i];
    if ((c == '{' || c == '[') && depth == 1) {
      i = json_container_end(line, i);
      if (i == std::string_view::npos) return false;
    } else if (c == '{' || c == '[') {
      ++depth;
      ++i;
    } else if (c == '}' || c == ']') {
      --depth;
      ++i;
    } else if (c == '"') {
      const size_t start = i + 1, j = string_close(line, i);
      if (j == std::string_view::npos) return false;
      i = j + 1;
      if (depth != 1) continue;
      const size_t k = skip_json_space(line, i);
      if (k >= line.size() || line[k] != ':') continue;  // a string value, not a key
      if (!on_key(line.substr(start, j - start), skip_json_space(line, k + 1))) return true;
    } else {
      ++i;
    }
  }
  return true;
}

// The value of the line's top-level key `key` (a container's or a string's bytes; "" for another value or no
// such key). nullopt when the key may be there more than once (a key with an escape counts, as the parser
// reads it unescaped): the parser reads duplicated keys into one value, later fields over earlier ones.
std::optional<std::string_view> top_level_value(std::string_view line, std::string_view key) {
  int count = 0;
  bool cut = false;
  std::string_view value;
  const bool whole = walk_top_level_keys(line, [&](std::string_view name, size_t v) {
    if (name != key && name.find('\\') == std::string_view::npos) return true;
    if (++count > 1 || v >= line.size()) {
      cut = true;
      return false;
    }
    size_t end = std::string_view::npos;  // just past the value
    if (line[v] == '{' || line[v] == '[') end = json_container_end(line, v);
    if (line[v] == '"' && (end = string_close(line, v)) != std::string_view::npos) ++end;
    if (end != std::string_view::npos) value = line.substr(v, end - v);
    return true;
  });
  if (!whole || cut) return std::nullopt;
  return value;
}

// Whether the message (a top-level message value's bytes) holds a tool_result block as the parser reads it:
// an object element of its one "content" array whose one "type" key is "tool_result". False when the bytes
// cannot tell (content or a type key that may repeat, content that is not an array): a type key of the
// message itself or one nested inside a block makes no carrier (the campaign's fourth claude_code find: a
// message whose own type was tool_result and whose content was a peer message's text).
bool message_holds_tool_result_block(std::string_view message) {
  const std::optional<std::string_view> content = top_level_value(message, "content");
  if (!content || content->empty() || content->front() != '[') return false;
  const std::string_view items = *content;
  size_t i = 1;
  while (i < items.size()) {
    i = skip_json_space(items, i);
    if (i >= items.size() || items[i] == ']') return false;
    size_t end = std::string_view::npos;  // just past the element
    if (items[i] == '{' || items[i] == '[') {
      end = json_container_end(items, i);
    } else if (items[i] == '"') {
      end = string_close(items, i);
      if (end != std::string_view::npos) ++end;
    } else {
      end = items.find_first_of(",]", i);
    }
    if (end == std::string_view::npos) return false;
    if (items[i] == '{' && top_level_value(items.substr(i, end - i), "type") == "\"tool_result\"")
      return true;
    i = skip_json_space(items, end);
    if (i < items.size() && items[i] == ',') ++i;
  }
  return false;
}

}  // namespace

// The string value of the line's first top-level "type" key ("" when that value is not a string, or no such
// key is read). Escapes inside the value are kept verbatim (type values are plain identifiers).
std::string peek_type(std::string_view line) {
  std::string type;
  walk_top_level_keys(line, [&](std::string_view name, size_t v) {
    if (name != "type") return true;
    if (v < line.size() && line[v] == '"') {
      const size_t end = string_close(line, v);
      if (end != std::string_view::npos) type.assign(line.substr(v + 1, end - v - 1));
    }
    return false;  // the first "type" key decides
  });
  return type;
}

bool may_hold_structured_answer(std::string_view tool_use_result_raw) {
  static const SubstringFinder kAnswerKeys({"\"answers\"", "\"response\"", "\\u"}, false);
  return kAnswerKeys.contains(tool_use_result_raw);
}

bool may_hold_classified_result_facts(std::string_view tool_use_result_raw) {
  static const SubstringFinder kClassifiedKeys(
      {"\"answers\"", "\"response\"", "\"status\"", "\"isAsync\"", "\"agentId\"", "\\u"}, false);
  return kClassifiedKeys.contains(tool_use_result_raw);
}

std::string sparse_result_text(std::string_view text) {
  constexpr size_t kKeptAfterBlank = 256;  // longer than every marker the rules test a start for
  const size_t keep = text.size() - trim_start(text).size() + kKeptAfterBlank;
  if (text.size() <= keep || contains(text, detail::kRejectionMarker)) return std::string(text);
  return std::string(text.substr(0, keep));
}

bool tool_input_classifies(std::string_view tool_name) {
  return tool_name == "ExitPlanMode" || tool_name == "SendMessage" || tool_name == "Task" ||
         tool_name == "Agent" || tool_name == "Workflow";
}

namespace {

// Whether a carrier line holds a marker by which it may open a turn anyway: an AskUserQuestion answer or a
// rejection with a typed message. One multi-needle pass over the (often long) line.
bool holds_carrier_opener_marker(std::string_view line) {
  static const SubstringFinder kCarrierOpeners(
      {std::string(claude_code_text::kAuqAnswerMarkers[0]),
       std::string(claude_code_text::kAuqAnswerMarkers[1]),
       std::string(claude_code_text::kAuqAnswerMarkers[2]), "\"answers\"", "\"response\"",
       std::string(claude_code_text::kRejectionUserSaidHead)},
      false);
  return kCarrierOpeners.contains(line);
}

}  // namespace

// SPEC.md §4 turn openers on raw bytes: a user-role line without a real tool_result block may be genuine, a
// peer message, a task-notification...; a carrier opens only as an AUQ answer or a rejection with a typed
// message.
bool may_open_turn(std::string_view line) {
  if (!line_has_role(line, "user")) return false;
  if (!has_key_string_value(line, "type", {"tool_result"})) return true;
  // The tool_result that makes the line a carrier is a block of its message's content (the campaign's finds:
  // one under another key, duplicated message keys, which the parser reads into one message, and the
  // message's own type key): a line whose message is not one plain key holding such a block is not ruled out.
  const std::optional<std::string_view> message = top_level_value(line, "message");
  if (!message || !message_holds_tool_result_block(*message)) return true;
  return holds_carrier_opener_marker(line);
}

namespace {

// Whether `message`, the value of a line's one "message" key, holds a tool_result block as the parser reads
// it: an object element of its one "content" array whose one "type" key is "tool_result" (keys with an
// escape count as repeats: the parser reads them unescaped). The keys are those the line's check recorded.
bool keys_hold_tool_result_block(const std::vector<OuterKey>& keys, std::string_view message) {
  const auto inside = [](std::string_view outer, const OuterKey& k) {
    return k.name.data() > outer.data() && k.name.data() < outer.data() + outer.size();
  };
  const OuterKey* content = nullptr;
  for (const OuterKey& k : keys) {
    if (k.depth != 2 || !inside(message, k)) continue;
    if (k.name != "content" && k.name.find('\\') == std::string_view::npos) continue;
    if (content) return false;
    content = &k;
  }
  if (!content || content->value.empty() || content->value.front() != '[') return false;
  uint32_t object = 0, types = 0;
  bool tool_result = false;
  const auto settled = [&] { return types == 1 && tool_result; };
  for (const OuterKey& k : keys) {
    if (k.depth != 4 || !inside(content->value, k)) continue;
    if (k.object != object) {
      if (settled()) return true;
      object = k.object;
      types = 0;
      tool_result = false;
    }
    if (k.name != "type" && k.name.find('\\') == std::string_view::npos) continue;
    ++types;
    tool_result = k.value == "\"tool_result\"";
  }
  return settled();
}

// The line's top-level `name` key among its recorded keys, as top_level_value reads it: the key (nullptr when
// absent), or nullopt when it may be there twice (a key with an escape counts: the parser reads it
// unescaped, so it may spell `name`).
std::optional<const OuterKey*> top_level_key_once(const std::vector<OuterKey>& keys, std::string_view name) {
  const OuterKey* found = nullptr;
  for (const OuterKey& k : keys) {
    if (k.depth != 1 || (k.name != name && k.name.find('\\') == std::string_view::npos)) continue;
    if (found) return std::nullopt;
    found = &k;
  }
  return found;
}

// The same, nullptr when absent or when it may repeat.
const OuterKey* single_top_level_key(const std::vector<OuterKey>& keys, std::string_view name) {
  return top_level_key_once(keys, name).value_or(nullptr);
}

// Whether a top-level key's name holds an escape: it may spell any key, or none, so only a parse can say
// which keys the record has.
bool escaped_top_level_key(const std::vector<OuterKey>& keys) {
  for (const OuterKey& k : keys)
    if (k.depth == 1 && k.name.find('\\') != std::string_view::npos) return true;
  return false;
}

}  // namespace

bool envelope_of(std::string_view line, const std::vector<OuterKey>& keys, Record& out) {
  // Each key once or not at all: a repeated one's last string wins, which a parse settles.
  const auto one = [&keys](std::string_view name, const OuterKey*& found) {
    const std::optional<const OuterKey*> once = top_level_key_once(keys, name);
    found = once.value_or(nullptr);
    return once.has_value();
  };
  // A string as take_string reads it, when its bytes are its text (no escape, nothing to repair).
  const auto text = [](const OuterKey* k, std::string& into) {
    if (!k || k->value.empty() || k->value.front() != '"') return true;  // absent or not a string: left empty
    const std::string_view inner = k->value.substr(1, k->value.size() - 2);
    for (const char c : inner)
      if (c == '\\' || static_cast<unsigned char>(c) >= 0x80) return false;
    into.assign(inner);
    return true;
  };
  if (escaped_top_level_key(keys)) return false;  // it may spell any of the four
  const OuterKey *type, *uuid, *timestamp, *compact;
  if (!one("type", type) || !one("uuid", uuid) || !one("timestamp", timestamp) ||
      !one("isCompactSummary", compact))
    return false;
  const uint64_t line_no = out.line, offset = out.offset;
  out = Record{};
  out.line = line_no;
  out.offset = offset;
  out.length = line.size();
  cc_mut(out).extra_json = "{}";
  if (!text(type, out.type) || !text(uuid, out.uuid) || !text(timestamp, out.timestamp)) return false;
  cc_mut(out).is_compact_summary = compact && compact->value == "true";
  return true;
}

std::optional<std::string_view> keyed_record_type(const std::vector<OuterKey>& keys) {
  if (escaped_top_level_key(keys)) return std::nullopt;
  const OuterKey* type = single_top_level_key(keys, "type");
  if (!type || type->value.size() < 2 || type->value.front() != '"' ||
      type->value.find('\\') != std::string_view::npos)
    return std::nullopt;
  return type->value.substr(1, type->value.size() - 2);
}

bool may_open_turn(std::string_view line, const std::vector<OuterKey>& keys) {
  // Every opener is a user record (opens_turn): a type the keys settle otherwise rules the line out.
  if (const auto type = keyed_record_type(keys); type && *type != "user") return false;
  if (!line_has_role(line, "user")) return false;
  if (!has_key_string_value(line, "type", {"tool_result"})) return true;
  const OuterKey* message = single_top_level_key(keys, "message");
  if (!message || !keys_hold_tool_result_block(keys, message->value)) return true;
  return holds_carrier_opener_marker(line);
}

LabelSet labels_bound(std::string_view line, const std::vector<OuterKey>& keys) {
  // "csift" marks an elicitation record, classified on its own terms.
  for (const OuterKey& k : keys)
    if (k.depth == 1 && k.name == "csift") return LabelSet::all();
  const std::optional<std::string_view> type = keyed_record_type(keys);
  if (!type) return LabelSet::all();
  if (*type != "user") return record_type_labels(*type);
  const OuterKey* message = single_top_level_key(keys, "message");  // nullptr too when repeated
  // A carrier that may_open_turn would rule out: classify_user labels it from its results alone.
  if (message && keys_hold_tool_result_block(keys, message->value) && !holds_carrier_opener_marker(line))
    return plain_result_carrier_labels();
  return LabelSet::all();
}

}  // namespace csift
