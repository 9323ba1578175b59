// RecordParser: simdjson On-Demand over one padded copy of the line. Every object is walked once, switching
// on the key, because Claude Code writes keys in no fixed order. Wrong-typed fields are skipped, never
// errors.
#include "core/harness/claude_code/record_parser.h"
#include "core/harness/claude_code/claude_fields.h"

#include <simdjson.h>

#include <cstring>
#include <optional>
#include <utility>
#include <vector>

#include "core/base/text.h"
#include "core/json/json_syntax.h"
#include "core/json/json_text_repair.h"

namespace csift {

namespace od = simdjson::ondemand;

namespace {

constexpr size_t kMaxLineBytes = kMaxRecordLineBytes;

// Top-level keys whose raw JSON a leaf renders; they travel in Record::extra_json as one object.
bool is_extra_key(std::string_view k) {
  static constexpr std::string_view kKeys[] = {
      "durationMs", "messageCount", "pendingBackgroundAgentCount", "pendingWorkflowCount", "hookCount",
      "hookInfos", "hookErrors", "preventedContinuation", "stopReason", "hasOutput", "toolUseID",
      "trackingPath", "backupFileName", "backupTime", "slug", "isSnapshotUpdate", "messageId", "promptSource",
      "snapshotTimestamp",
      // Claude Code 2.1.332's bookkeeping records: the small top-level facts their harness.meta.system text
      // names.
      "id", "querySource", "shapeHash", "hash", "tail", "lastPrompt", "atis", "tools", "totalCostUSD",
      "totalAPIDuration", "totalDuration", "totalLinesAdded", "totalLinesRemoved", "modelUsage"};
  for (auto key : kKeys) {
    if (k == key) return true;
  }
  return false;
}

// The raw JSON text of any value (consumes it).
std::string raw_of(od::value v) {
  switch (v.type().value()) {
    case od::json_type::object: {
      od::object o = v.get_object();
      return std::string(o.raw_json().value());
    }
    case od::json_type::array: {
      od::array a = v.get_array();
      return std::string(a.raw_json().value());
    }
    default:
      return std::string(trim(v.raw_json_token(), kJsonSpace));
  }
}

void take_string(od::value v, std::string& out) {
  if (v.type().value() == od::json_type::string) out = std::string(v.get_string().value());
}

void take_bool(od::value v, bool& out) {
  if (v.type().value() == od::json_type::boolean) out = v.get_bool().value();
}

// A count field. A value that is not a number, lies beyond a finite double (1e400: valid JSON, which the
// validator counts in values_out_of_range) or beyond int64 reads as absent (0): the record is kept.
int64_t int_of(od::value v) {
  od::json_type type;
  if (v.type().get(type) != simdjson::SUCCESS || type != od::json_type::number) return 0;
  int64_t n = 0;
  if (v.get_int64().get(n) == simdjson::SUCCESS) return n;
  double d = 0;
  if (v.get_double().get(d) != simdjson::SUCCESS) return 0;
  if (!(d >= -9.2e18 && d <= 9.2e18)) return 0;
  return static_cast<int64_t>(d);
}

}  // namespace

struct RecordParser::Impl {
  od::parser parser;
  simdjson::dom::parser dom;
  std::unique_ptr<char[]> buf;
  size_t cap = 0;
  bool sparse = false;  // ReadOptions::Payloads::skip

  // Copies `line` into the reused buffer with SIMDJSON_PADDING readable bytes after it.
  void load(std::string_view line) {
    size_t need = line.size() + simdjson::SIMDJSON_PADDING;
    if (need > cap) {
      cap = std::max(need, cap * 2);
      buf = std::make_unique_for_overwrite<char[]>(cap);  // each line is copied in: no zero fill
    }
    std::memcpy(buf.get(), line.data(), line.size());
    std::memset(buf.get() + line.size(), ' ', simdjson::SIMDJSON_PADDING);
  }

  void parse_top(od::object obj, Record& r);
  void parse_message(od::object obj, Message& m);
  void parse_block(od::object obj, Block& b);
  void parse_tool_result_content(od::value v, Block& b);
  void parse_usage(od::object obj, Usage& u);
  void flatten_result_parts(od::array parts, Block& b, bool with_sources);
  void parse_tool_use_result(od::value v, Record& r);
  void parse_image_source(od::value v, ImageRef& img);
};

// An image's `source`: its kind, media type and url, and where its base64 text lies in the line (the payload
// is never copied: only `image` reads it, back from the file).
void RecordParser::Impl::parse_image_source(od::value v, ImageRef& img) {
  if (v.type().value() != od::json_type::object) return;
  for (auto field : v.get_object()) {
    std::string_view k = field.unescaped_key().value();
    od::value fv = field.value();
    if (k == "type")
      take_string(fv, img.source_type);
    else if (k == "media_type")
      take_string(fv, img.media_type);
    else if (k == "url")
      take_string(fv, img.url);
    else if (k == "data" && fv.type().value() == od::json_type::string) {
      const std::string_view token = trim(fv.raw_json_token(), kJsonSpace);
      if (token.size() < 2) continue;
      const std::string_view body = token.substr(1, token.size() - 2);
      img.data_offset = static_cast<uint64_t>(body.data() - buf.get());
      img.data_length = body.size();
      img.data_escaped = body.find('\\') != std::string_view::npos;
      img.data_hash = std::hash<std::string_view>{}(body);
    }
  }
}

void RecordParser::Impl::parse_usage(od::object obj, Usage& u) {
  u.present = true;
  int64_t split_5m = 0;
  for (auto field : obj) {
    std::string_view k = field.unescaped_key().value();
    od::value v = field.value();
    if (k == "input_tokens")
      u.input_tokens = int_of(v);
    else if (k == "output_tokens")
      u.output_tokens = int_of(v);
    else if (k == "cache_read_input_tokens")
      u.cache_read_input_tokens = int_of(v);
    else if (k == "cache_creation_input_tokens")
      u.cache_creation_input_tokens = int_of(v);
    else if (k == "cache_creation" && v.type().value() == od::json_type::object) {
      // The cache writes split by lifetime; cache_creation_input_tokens is their sum.
      for (auto part : v.get_object()) {
        const std::string_view lifetime = part.unescaped_key().value();
        od::value n = part.value();
        if (lifetime == "ephemeral_5m_input_tokens")
          split_5m = int_of(n);
        else if (lifetime == "ephemeral_1h_input_tokens")
          u.cache_creation_1h_input_tokens = int_of(n);
      }
    }
  }
  if (u.cache_creation_input_tokens == 0)
    u.cache_creation_input_tokens = split_5m + u.cache_creation_1h_input_tokens;
}

// tool_result content: a string as it is, or an array's text parts flattened and image parts counted (the raw
// JSON is not kept: no reader wants it, and it doubled every result's bytes in memory).
void RecordParser::Impl::parse_tool_result_content(od::value v, Block& b) {
  od::json_type t = v.type().value();
  if (t == od::json_type::string) {
    const std::string_view text = v.get_string().value();
    b.content_text = sparse ? sparse_result_text(text) : std::string(text);
    return;
  }
  if (t != od::json_type::array) return;
  flatten_result_parts(v.get_array(), b, /*with_sources=*/!sparse);
  if (sparse) b.content_text = sparse_result_text(b.content_text);
}

// A tool_result's content parts: the text parts flattened into content_text, the image parts counted, and
// with_sources each image's source read (a sparse read wants none: no payload hashed).
void RecordParser::Impl::flatten_result_parts(od::array parts, Block& b, bool with_sources) {
  bool first_text = true;
  for (auto elem : parts) {
    od::value part = elem.value();
    if (part.type().value() != od::json_type::object) continue;
    std::string type, text, tool_name;
    ImageRef img;
    for (auto field : part.get_object()) {
      std::string_view k = field.unescaped_key().value();
      if (k == "type")
        take_string(field.value(), type);
      else if (k == "text")
        take_string(field.value(), text);
      else if (k == "tool_name")  // a tool_reference part
        take_string(field.value(), tool_name);
      else if (with_sources && k == "source")
        parse_image_source(field.value(), img);
    }
    if (type == "image") {
      ++b.content_images;
      b.images.push_back(std::move(img));
    } else if (type == "text" || type == "tool_reference") {
      // A ToolSearch result is a list of tool_reference parts, one per tool it loaded: it reads as the names
      // of those tools, one a line, instead of an empty result.
      if (type == "tool_reference") text = std::move(tool_name);
      if (!first_text) b.content_text += '\n';
      b.content_text += text;
      first_text = false;
    }
  }
}

void RecordParser::Impl::parse_block(od::object obj, Block& b) {
  std::string thinking, data;
  ImageRef img;
  for (auto field : obj) {
    std::string_view k = field.unescaped_key().value();
    od::value v = field.value();
    if (k == "type")
      take_string(v, b.type);
    else if (k == "text")
      take_string(v, b.text);
    else if (k == "thinking") {
      if (!sparse) take_string(v, thinking);
    } else if (k == "signature")
      take_string(v, b.signature);
    else if (k == "id")
      take_string(v, b.id);
    else if (k == "name")
      take_string(v, b.name);
    else if (k == "input") {
      // `name` usually comes first; when it does not, the input is kept until the name is known.
      if (!sparse || b.name.empty() || tool_input_classifies(b.name)) b.input_json = raw_of(v);
    } else if (k == "tool_use_id")
      take_string(v, b.tool_use_id);
    else if (k == "content")
      parse_tool_result_content(v, b);
    else if (k == "source") {
      if (!sparse) parse_image_source(v, img);
    } else if (k == "is_error") {
      if (v.type().value() == od::json_type::boolean) {
        b.is_error = v.get_bool().value();
        b.has_is_error = true;
      }
    }
  }
  if (sparse && !tool_input_classifies(b.name)) b.input_json.clear();
  // `type` may arrive after the payload fields, so the kind is settled once the object is walked.
  if (b.type == "text")
    b.kind = BlockKind::text;
  else if (b.type == "thinking")
    b.kind = BlockKind::thinking, b.text = std::move(thinking);
  else if (b.type == "redacted_thinking")
    b.kind = BlockKind::redacted_thinking;
  else if (b.type == "tool_use" || b.type == "server_tool_use")
    b.kind = BlockKind::tool_use;
  else if (b.type == "tool_result")
    b.kind = BlockKind::tool_result;
  else if (b.type == "image")
    b.kind = BlockKind::image, b.images.push_back(std::move(img));
  else
    b.kind = BlockKind::unknown;
}

void RecordParser::Impl::parse_message(od::object obj, Message& m) {
  m.present = true;
  for (auto field : obj) {
    std::string_view k = field.unescaped_key().value();
    od::value v = field.value();
    if (k == "role")
      take_string(v, m.role);
    else if (k == "id")
      take_string(v, m.id);
    else if (k == "model")
      take_string(v, m.model);
    else if (k == "stop_reason")
      take_string(v, m.stop_reason);
    else if (k == "usage") {
      if (v.type().value() == od::json_type::object) parse_usage(v.get_object().value(), m.usage);
    } else if (k == "content") {
      od::json_type t = v.type().value();
      if (t == od::json_type::string) {
        m.has_content = m.content_is_string = true;
        m.content_string = std::string(v.get_string().value());
      } else if (t == od::json_type::array) {
        m.has_content = true;
        for (auto elem : v.get_array()) {
          od::value bv = elem.value();
          if (bv.type().value() != od::json_type::object) continue;
          Block b;
          parse_block(bv.get_object().value(), b);
          m.blocks.push_back(std::move(b));
        }
      }
    }
  }
}

namespace {

void parse_origin(od::value v, Record& r) {
  if (v.type().value() != od::json_type::object) return;
  for (auto field : v.get_object()) {
    if (field.unescaped_key().value() == "kind") take_string(field.value(), cc_mut(r).origin_kind);
  }
}

void parse_paste_ids(od::value v, Record& r) {
  if (v.type().value() != od::json_type::array) return;
  for (auto elem : v.get_array()) {
    od::value id = elem.value();
    if (id.type().value() == od::json_type::number) cc_mut(r).image_paste_ids.push_back(int_of(id));
  }
}

void parse_top_content(od::value v, Record& r) {
  if (v.type().value() == od::json_type::string) {
    cc_mut(r).content_json = std::string(trim(v.raw_json_token(), kJsonSpace));
    r.content_text = std::string(v.get_string().value());
  } else {
    cc_mut(r).content_json = raw_of(v);
  }
}

void append_extra(std::string& extra, std::string_view key, const std::string& raw) {
  extra += extra.size() > 1 ? ",\"" : "\"";
  extra += key;
  extra += "\":";
  extra += raw;
}

}  // namespace

// toolUseResult, often a tool's whole output. A sparse read keeps it only when it is an object that may hold
// what classification reads (an AskUserQuestion answer, a spawn's launch facts).
void RecordParser::Impl::parse_tool_use_result(od::value v, Record& r) {
  ClaudeCodeFields& f = cc_mut(r);
  if (!sparse) {
    f.tool_use_result_json = raw_of(v);
  } else {
    if (v.type().value() != od::json_type::object) return;
    od::object o = v.get_object();
    const std::string_view raw = o.raw_json().value();
    if (!may_hold_classified_result_facts(raw)) return;
    f.tool_use_result_json = std::string(raw);
  }
  f.tool_use_result_may_answer = may_hold_structured_answer(f.tool_use_result_json);
}

// mcpMeta.structuredContent of an MCP tool result (Claude Code 2.1.332), raw as on disk; "" when absent.
std::string_view structured_content_of(od::value v) {
  if (v.type().value() != od::json_type::object) return {};
  for (auto field : v.get_object()) {
    if (field.unescaped_key().value() != "structuredContent") continue;
    od::value sc = field.value();
    if (sc.type().value() != od::json_type::object) return {};
    od::object o = sc.get_object();
    return o.raw_json().value();
  }
  return {};
}

// Claude Code keeps an MCP result's structuredContent a third time in mcpMeta. Usually the tool_result's text
// is that object serialised (the same bytes), and the copy is dropped; when the text is something else (the
// "Output has been saved to" pointer that replaces a result too large to hand over, or a text-first result)
// the object is the only copy of the result in the transcript, and is kept for search.
void keep_distinct_structured(std::string_view structured, Record& r) {
  if (structured.empty()) return;
  for (const Block& b : r.message.blocks)
    if (b.kind == BlockKind::tool_result && b.content_text == structured) return;
  cc_mut(r).mcp_structured_json = std::string(structured);
}

void RecordParser::Impl::parse_top(od::object obj, Record& r) {
  std::string extra = "{";
  std::string_view structured;
  for (auto field : obj) {
    std::string_view k = field.unescaped_key().value();
    od::value v = field.value();
    if (k == "type")
      take_string(v, r.type);
    else if (k == "uuid")
      take_string(v, r.uuid);
    else if (k == "parentUuid")
      take_string(v, r.parent_uuid);
    else if (k == "logicalParentUuid")
      take_string(v, cc_mut(r).logical_parent_uuid);
    else if (k == "timestamp")
      take_string(v, r.timestamp);
    else if (k == "sessionId")
      take_string(v, r.session_id);
    else if (k == "agentId")
      take_string(v, r.agent_id);
    else if (k == "cwd")
      take_string(v, r.cwd);
    else if (k == "version") {
      // A file-history-delta's `version` is the tracked path's counter (a number), not the CC version.
      if (v.type().value() == od::json_type::string)
        take_string(v, r.version);
      else
        append_extra(extra, k, raw_of(v));
    } else if (k == "gitBranch")
      take_string(v, r.git_branch);
    else if (k == "subtype")
      take_string(v, r.subtype);
    else if (k == "level")
      take_string(v, cc_mut(r).level);
    else if (k == "promptId")
      take_string(v, cc_mut(r).prompt_id);
    else if (k == "requestId")
      take_string(v, cc_mut(r).request_id);
    else if (k == "sourceToolAssistantUUID")
      take_string(v, cc_mut(r).source_tool_assistant_uuid);
    else if (k == "origin")
      parse_origin(v, r);
    else if (k == "imagePasteIds")
      parse_paste_ids(v, r);
    else if (k == "isSidechain")
      take_bool(v, cc_mut(r).is_sidechain);
    else if (k == "isMeta")
      take_bool(v, cc_mut(r).is_meta);
    else if (k == "isCompactSummary")
      take_bool(v, cc_mut(r).is_compact_summary);
    else if (k == "isVisibleInTranscriptOnly")
      take_bool(v, cc_mut(r).is_visible_in_transcript_only);
    else if (k == "content")
      parse_top_content(v, r);
    else if (k == "toolUseResult")
      parse_tool_use_result(v, r);
    else if (k == "attachment") {
      if (!sparse) cc_mut(r).attachment_json = raw_of(v);
    } else if (k == "snapshot") {
      if (!sparse) cc_mut(r).snapshot_json = raw_of(v);
    } else if (k == "compactMetadata")
      cc_mut(r).compact_metadata_json = raw_of(v);
    else if (k == "operation")
      take_string(v, cc_mut(r).operation);
    else if (k == "reason")
      take_string(v, cc_mut(r).reason);
    else if (k == "csift")
      take_string(v, cc_mut(r).csift_marker);
    else if (k == "csiftPhase")
      take_string(v, cc_mut(r).csift_phase);
    else if (k == "csiftKind")
      take_string(v, cc_mut(r).csift_kind);
    else if (k == "csiftKey")
      take_string(v, cc_mut(r).csift_key);
    else if (k == "message") {
      if (v.type().value() == od::json_type::object) parse_message(v.get_object().value(), r.message);
    } else if (k == "mcpMeta") {
      if (!sparse) structured = structured_content_of(v);
    } else if (is_extra_key(k))
      append_extra(extra, k, raw_of(v));
  }
  keep_distinct_structured(structured, r);
  extra += '}';
  cc_mut(r).extra_json = std::move(extra);
}

RecordParser::RecordParser() : impl_(std::make_unique<Impl>()) {}
RecordParser::~RecordParser() = default;

void RecordParser::set_sparse(bool sparse) {
  impl_->sparse = sparse;
}

ParseStatus RecordParser::parse(std::string_view line, Record& out) {
  const ParseStatus status = parse_line(line, out, false);
  out.length = line.size();  // the line as on disk (a repaired copy may differ in length)
  return status;
}

ParseStatus RecordParser::parse_checked(std::string_view line, Record& out) {
  const ParseStatus status = parse_line(line, out, true);
  out.length = line.size();
  return status;
}

ParseStatus RecordParser::parse_line(std::string_view line, Record& out, bool checked) {
  // One definition of well-formed for every path (json_syntax.h): On-Demand checks only what it visits, so
  // without this a malformed value under an unread key would count as malformed on the whole-file gate's
  // path and as a record here. A checked line passed it already.
  if (!checked) out_of_range_ = 0;
  if (!checked && line.size() <= kMaxLineBytes && !json_object_well_formed(line, &out_of_range_)) {
    uint64_t line_no = out.line, offset = out.offset;
    out = Record{};
    out.line = line_no;
    out.offset = offset;
    explain_malformed(line);
    return ParseStatus::malformed;
  }
  ParseStatus status = parse_exactly(line, out);
  if (status != ParseStatus::malformed) return status;
  // Invalid UTF-8 or a lone surrogate escape makes simdjson refuse an otherwise valid record. Such a line is
  // still a record: parse a repaired copy (U+FFFD in place of the bad text), say so on the record, and keep
  // the original error when the repair does not help.
  std::optional<std::string> repaired = repair_json_text(line);
  if (!repaired) return status;
  std::string first_error = error_;
  if (parse_exactly(*repaired, out) == ParseStatus::ok) {
    out.text_repaired = true;
    return ParseStatus::ok;
  }
  error_ = first_error;
  return ParseStatus::malformed;
}

ParseStatus RecordParser::parse_exactly(std::string_view line, Record& out) {
  uint64_t line_no = out.line, offset = out.offset;
  out = Record{};
  out.line = line_no;
  out.offset = offset;
  cc_mut(out).extra_json = "{}";
  error_.clear();
  if (line.size() > kMaxLineBytes) {
    error_ = "line too large (" + std::to_string(line.size()) + " bytes, limit 64 MiB)";
    return ParseStatus::too_large;
  }
  impl_->load(line);
  try {
    od::document doc = impl_->parser.iterate(impl_->buf.get(), line.size(), impl_->cap).value();
    if (doc.type().value() != od::json_type::object) {
      error_ = "top-level value is not an object";
      return ParseStatus::malformed;
    }
    impl_->parse_top(doc.get_object().value(), out);
    // A location left after the object means trailing bytes (`{} x`): On-Demand would not look at them.
    if (doc.current_location().error() == simdjson::SUCCESS) {
      error_ = "trailing content after the object";
      return ParseStatus::malformed;
    }
  } catch (const simdjson::simdjson_error& e) {
    error_ = e.what();
    return ParseStatus::malformed;
  }
  return ParseStatus::ok;
}

bool RecordParser::begin_check(std::string_view line) {
  error_.clear();
  out_of_range_ = 0;
  if (line.size() <= kMaxLineBytes) return true;
  error_ = "line too large (" + std::to_string(line.size()) + " bytes, limit 64 MiB)";
  return false;
}

bool RecordParser::validate(std::string_view line) {
  if (!begin_check(line)) return false;
  if (json_object_well_formed(line, &out_of_range_)) return true;
  explain_malformed(line);
  return false;
}

bool RecordParser::validate_keyed(std::string_view line, size_t depth, std::vector<OuterKey>& keys) {
  keys.clear();
  if (!begin_check(line)) return false;
  if (json_object_outer_keys(line, depth, keys, &out_of_range_)) return true;
  explain_malformed(line);
  return false;
}

// simdjson's account of why a line is malformed (only ever run on a malformed line, so its cost is moot).
void RecordParser::explain_malformed(std::string_view line) {
  if (!validate_exactly(line)) return;
  error_ = "not a well-formed JSON object";  // simdjson accepted what the grammar check refused
}

bool RecordParser::validate_exactly(std::string_view line) {
  error_.clear();
  if (line.size() > kMaxLineBytes) {
    error_ = "line too large";
    return false;
  }
  impl_->load(line);
  simdjson::dom::element root;
  auto err = impl_->dom.parse(impl_->buf.get(), line.size(), false).get(root);
  if (err) {
    error_ = simdjson::error_message(err);
    return false;
  }
  if (!root.is_object()) {
    error_ = "top-level value is not an object";
    return false;
  }
  return true;
}

}  // namespace csift
