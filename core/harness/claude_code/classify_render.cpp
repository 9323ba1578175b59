// The matchable texts csift fabricates for records whose searchable content is structure rather than prose:
// the AskUserQuestion Q+options+answer unit, the compaction boundary excerpt and the promoted
// meta leaves (SPEC.md §4: turn duration, stop hooks, file-history snapshot/delta, other system subtypes,
// Claude Code's own bookkeeping records) and the request-plumbing attachments.
#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/harness/claude_code/classify_detail.h"
#include "core/harness/claude_code/claude_fields.h"
#include "core/json/compact_json.h"
#include "core/json/stored_json.h"

namespace csift::detail {

using nlohmann::json;

namespace {

std::string scalar_text(const json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_null()) return "";
  return v.dump();
}

// `"<q>"="<a>"` pairs of the synthesized answer string, for carriers without toolUseResult.
std::vector<std::pair<std::string, std::string>> parse_synthesized_pairs(std::string_view text) {
  std::vector<std::pair<std::string, std::string>> pairs;
  size_t at = 0;
  while ((at = text.find('"', at)) != std::string_view::npos) {
    size_t q_end = text.find("\"=\"", at + 1);
    if (q_end == std::string_view::npos) break;
    size_t a_begin = q_end + 3, a_end = text.find('"', a_begin);
    if (a_end == std::string_view::npos) break;
    pairs.emplace_back(std::string(text.substr(at + 1, q_end - at - 1)),
                       std::string(text.substr(a_begin, a_end - a_begin)));
    at = a_end + 1;
  }
  return pairs;
}

// The notes the user typed beside a question's answer: toolUseResult.annotations{question: {notes}}.
std::string annotation_notes(const json& tur, const std::string& question) {
  const auto annotations = tur.find("annotations");
  if (annotations == tur.end() || !annotations->is_object()) return "";
  const auto entry = annotations->find(question);
  if (entry == annotations->end()) return "";
  if (entry->is_string()) return entry->get<std::string>();
  return entry->is_object() ? scalar_text(entry->value("notes", json())) : "";
}

// The same notes as the synthesized result string carries them: `"<q>"="<a>" user notes: <notes>`, ending
// at the next `, "<q>"=` pair or the closing `. You can now continue` sentence.
std::string synthesized_notes(std::string_view text, const std::string& question) {
  const std::string pair_head = "\"" + question + "\"=\"";
  size_t at = text.find(pair_head);
  if (at == std::string_view::npos) return "";
  at = text.find('"', at + pair_head.size());
  if (at == std::string_view::npos) return "";
  constexpr std::string_view kNotes = " user notes: ";
  if (text.substr(at + 1, kNotes.size()) != kNotes) return "";
  const size_t begin = at + 1 + kNotes.size();
  size_t end = text.find(". You can now continue", begin);
  const size_t next_pair = text.find(", \"", begin);
  if (next_pair != std::string_view::npos && (end == std::string_view::npos || next_pair < end))
    end = next_pair;
  return std::string(
      text.substr(begin, end == std::string_view::npos ? std::string_view::npos : end - begin));
}

std::string question_count(size_t n) {
  return std::to_string(n) + (n == 1 ? " question" : " questions");
}

}  // namespace

std::string json_string_field(const std::string& raw_json, std::string_view key) {
  json j = parse_stored_json(raw_json);
  if (!j.is_object()) return "";
  auto it = j.find(std::string(key));
  return it != j.end() && it->is_string() ? it->get<std::string>() : "";
}

std::string auq_exchange_text(const Record& r, std::string_view result_text) {
  json tur = parse_stored_json(cc(r).tool_use_result_json);
  if (tur.is_object() && tur.contains("questions") && tur["questions"].is_array()) {
    const json& qs = tur["questions"];
    json answers = tur.value("answers", json::object());
    std::string out = "[AskUserQuestion · " + question_count(qs.size()) + "]";
    size_t n = 0;
    for (const auto& q : qs) {
      ++n;
      std::string question = q.is_object() ? scalar_text(q.value("question", json())) : "";
      std::string header = q.is_object() ? scalar_text(q.value("header", json())) : "";
      std::string options;
      if (q.is_object() && q.contains("options") && q["options"].is_array()) {
        for (const auto& o : q["options"]) {
          std::string label = o.is_object() ? scalar_text(o.value("label", json())) : scalar_text(o);
          // The description is what the user read when choosing: it is searchable with the label.
          std::string description = o.is_object() ? scalar_text(o.value("description", json())) : "";
          if (!description.empty()) label += " \xE2\x80\x94 " + description;  // —
          options += (options.empty() ? "" : " | ") + label;
        }
      }
      out += "\nQ" + std::to_string(n) + (header.empty() ? "" : " (" + header + ")") + ": " + question;
      if (!options.empty()) out += " options: " + options;
      std::string answer;
      if (answers.is_object() && answers.contains(question)) answer = scalar_text(answers[question]);
      if (answer.empty() && tur.contains("response")) answer = scalar_text(tur["response"]);
      out += "\nA" + std::to_string(n) + ": " + answer;
      std::string notes = annotation_notes(tur, question);
      if (notes.empty()) notes = synthesized_notes(result_text, question);
      if (!notes.empty()) out += "\nN" + std::to_string(n) + ": " + notes;
    }
    return out;
  }
  auto pairs = parse_synthesized_pairs(result_text);
  if (pairs.empty()) return std::string(result_text);
  std::string out = "[AskUserQuestion · " + question_count(pairs.size()) + "]";
  for (size_t i = 0; i < pairs.size(); ++i) {
    out += "\nQ" + std::to_string(i + 1) + ": " + pairs[i].first;
    out += "\nA" + std::to_string(i + 1) + ": " + pairs[i].second;
    const std::string notes = synthesized_notes(result_text, pairs[i].first);
    if (!notes.empty()) out += "\nN" + std::to_string(i + 1) + ": " + notes;
  }
  return out;
}

std::string compact_boundary_text(const Record& r) {
  std::string out = r.content_text.empty() ? "Conversation compacted" : r.content_text;
  json meta = parse_stored_json(cc(r).compact_metadata_json);
  std::string fields;
  if (meta.is_object()) {
    for (const char* key : {"trigger", "preTokens", "postTokens", "durationMs"}) {
      if (meta.contains(key) && !meta[key].is_null())
        fields += std::string(" ") + key + "=" + scalar_text(meta[key]);
    }
  }
  return out + " [compaction boundary:" + (fields.empty() ? " (no metadata)" : fields) + "]";
}

std::string human_duration(int64_t ms) {
  int64_t s = (std::max<int64_t>(ms, 0) + 500) / 1000;
  int64_t d = s / 86400, h = s % 86400 / 3600, m = s % 3600 / 60, sec = s % 60;
  if (d > 0) return std::to_string(d) + "d " + std::to_string(h) + "h";
  if (h > 0) return std::to_string(h) + "h " + std::to_string(m) + "m";
  if (m > 0) return std::to_string(m) + "m " + std::to_string(sec) + "s";
  return std::to_string(sec) + "s";
}

// A number field as an integer; a value that is not a number, or is beyond int64, reads as absent.
std::optional<int64_t> int_field(const json& obj, const char* key) {
  const auto it = obj.find(key);
  if (it == obj.end() || !it->is_number()) return std::nullopt;
  if (it->is_number_integer() && !(it->is_number_unsigned() && it->get<uint64_t>() > INT64_MAX))
    return it->get<int64_t>();
  const double d = it->get<double>();
  if (!(d >= -9.2e18 && d <= 9.2e18)) return std::nullopt;
  return static_cast<int64_t>(d);
}

std::string turn_duration_text(const Record& r) {
  json extra = parse_stored_object(cc(r).extra_json);
  std::string out = "[turn duration: ";
  if (const auto ms = int_field(extra, "durationMs")) {
    out += human_duration(*ms) + " ·";
  } else {
    out += "? ·";
  }
  for (const char* key :
       {"durationMs", "messageCount", "pendingBackgroundAgentCount", "pendingWorkflowCount"}) {
    if (extra.contains(key)) out += fmt::format(" {}={}", key, scalar_text(extra[key]));
  }
  return out + "]";
}

std::string stop_hooks_text(const Record& r) {
  json extra = parse_stored_object(cc(r).extra_json);
  const json infos = extra.value("hookInfos", json::array());
  const int64_t count = int_field(extra, "hookCount").value_or(infos.is_array() ? infos.size() : 0);
  const json errors = extra.value("hookErrors", json::array());
  const int64_t error_count =
      errors.is_array() ? static_cast<int64_t>(errors.size()) : int_field(extra, "hookErrors").value_or(0);
  // value() would throw on a field of another type: every field here is read as absent when mistyped.
  const bool prevented = extra.contains("preventedContinuation") &&
                         extra["preventedContinuation"].is_boolean() &&
                         extra["preventedContinuation"].get<bool>();
  std::string out =
      fmt::format("[stop hooks: count={} errors={} prevented={}]", count, error_count, prevented);
  if (infos.is_array()) {
    for (const auto& info : infos) {
      if (!info.is_object()) continue;
      out += fmt::format("\n{}", scalar_text(info.value("command", json())));
      if (info.contains("durationMs")) out += fmt::format(" ({}ms)", scalar_text(info["durationMs"]));
    }
  }
  return out;
}

std::string snapshot_text(const Record& r) {
  json extra = parse_stored_object(cc(r).extra_json);
  if (r.type == "file-history-delta") {
    std::string ts = extra.contains("backupTime") ? scalar_text(extra["backupTime"]) : r.timestamp;
    std::string out = "[file-history delta at " + (ts.empty() ? "?" : ts) + ": " +
                      scalar_text(extra.value("trackingPath", json())) + "@v" +
                      scalar_text(extra.value("version", json("?")));
    if (extra.contains("backupFileName")) out += " backup=" + scalar_text(extra["backupFileName"]);
    return out + "]";
  }
  json snap = parse_stored_json(cc(r).snapshot_json);
  std::string ts = snap.is_object() ? scalar_text(snap.value("timestamp", json())) : "";
  std::map<std::string, std::string> tracked;  // sorted by path
  if (snap.is_object() && snap.contains("trackedFileBackups") && snap["trackedFileBackups"].is_object()) {
    for (const auto& [path, backup] : snap["trackedFileBackups"].items()) {
      tracked[path] = backup.is_object() ? scalar_text(backup.value("version", json("?"))) : "?";
    }
  }
  std::string list;
  for (const auto& [path, version] : tracked)
    list += (list.empty() ? "" : ", ") + path + "@v" + version;
  return "[file-history snapshot at " + (ts.empty() ? "?" : ts) + ": " + list + "]";
}

std::string system_text(const Record& r) {
  std::string head = "[" + r.subtype + (cc(r).level.empty() ? "" : " " + cc(r).level) + "]";
  if (!r.content_text.empty()) return head + " " + r.content_text;
  if (!cc(r).content_json.empty() && cc(r).content_json != "null") {
    const auto c = compact_json_text(cc(r).content_json);
    return head + " " + (c ? *c : cc(r).content_json);
  }
  return head;
}

bool is_bookkeeping_type(std::string_view type) {
  for (std::string_view t : kBookkeepingTypes)
    if (type == t) return true;
  return false;
}

namespace {

std::string head_of(const json& v, size_t n = 12) {
  const std::string s = scalar_text(v);
  return s.size() > n ? s.substr(0, n) : s;
}

std::string names_text(const json& list) {
  std::string out;
  if (!list.is_array()) return out;
  for (const auto& v : list)
    out += (out.empty() ? "" : ", ") + scalar_text(v);
  return out;
}

// cost-state: Claude Code's own running tally of the session, written when it exits (SPEC.md §4).
std::string cost_state_text(const json& extra) {
  std::string out = "[cost-state]";
  if (extra.contains("totalCostUSD") && extra["totalCostUSD"].is_number())
    out += fmt::format(" ${:.4f}", extra["totalCostUSD"].get<double>());
  const json usage = extra.value("modelUsage", json::object());
  if (usage.is_object()) {
    for (const auto& [model, u] : usage.items()) {
      if (!u.is_object()) continue;
      out += " · " + model + ":";
      for (const auto& [key, name] : {std::pair{"inputTokens", "in"}, std::pair{"outputTokens", "out"},
                                      std::pair{"cacheReadInputTokens", "cache read"},
                                      std::pair{"cacheCreationInputTokens", "cache write"}}) {
        if (const auto n = int_field(u, key)) out += fmt::format(" {} {}", name, *n);
      }
    }
  }
  if (const auto a = int_field(extra, "totalLinesAdded")) out += fmt::format(" · lines +{}", *a);
  if (const auto d = int_field(extra, "totalLinesRemoved")) out += fmt::format(" -{}", *d);
  if (const auto ms = int_field(extra, "totalAPIDuration")) out += " · api " + human_duration(*ms);
  if (const auto ms = int_field(extra, "totalDuration")) out += " · total " + human_duration(*ms);
  return out;
}

}  // namespace

std::string bookkeeping_text(const Record& r) {
  const json extra = parse_stored_object(cc(r).extra_json);
  if (r.type == "api-request") {
    std::string out = "[api-request " + scalar_text(extra.value("id", json())) + "]";
    if (extra.contains("querySource")) out += " source " + scalar_text(extra["querySource"]);
    if (extra.contains("shapeHash")) out += " · shape " + head_of(extra["shapeHash"]);
    if (extra.contains("tail") && extra["tail"].is_array())
      out += fmt::format(" · {} message blob(s)", extra["tail"].size());
    return out;
  }
  if (r.type == "api-request-blob") {
    std::string out = "[api-request-blob " + head_of(extra.value("hash", json())) + "]";
    if (!r.message.role.empty())
      out += fmt::format(" a {} message as sent ({} block(s))", r.message.role,
                         r.message.content_is_string ? 1 : r.message.blocks.size());
    return out;
  }
  if (r.type == "api-request-shape")
    return "[api-request-shape " + head_of(extra.value("shapeHash", json())) +
           "] the system prompt and tool definitions as sent";
  if (r.type == "tools-used") return "[tools-used] " + names_text(extra.value("tools", json()));
  if (r.type == "last-prompt") return "[last-prompt] " + scalar_text(extra.value("lastPrompt", json()));
  if (r.type == "atis-latch") {
    const std::string atis = scalar_text(extra.value("atis", json()));
    return atis.empty() ? "[atis-latch]" : "[atis-latch] " + atis;
  }
  return cost_state_text(extra);
}

std::optional<std::string> plumbing_attachment_text(const std::string& type, const nlohmann::json& att) {
  if (type == "prompt_snapshot") {
    const json system = att.value("systemPrompt", json::array());
    const json tools = att.value("tools", json::array());
    return fmt::format("[prompt_snapshot] the system prompt ({} part(s)) and {} tool definition(s) as sent",
                       system.is_array() ? system.size() : 0, tools.is_array() ? tools.size() : 0);
  }
  if (type == "deferred_tools_record") {
    std::string names;
    const json entries = att.value("entries", json::array());
    if (entries.is_array())
      for (const auto& e : entries)
        if (e.is_object()) names += (names.empty() ? "" : ", ") + scalar_text(e.value("name", json()));
    return "[deferred_tools_record] the definitions of the tools loaded: " + names;
  }
  return std::nullopt;
}

std::string tool_use_text(const Block& b) {
  if (b.input_json.empty()) return b.name;
  const auto input = compact_json_text(b.input_json);
  return b.name + " " + (input ? *input : b.input_json);
}

}  // namespace csift::detail
