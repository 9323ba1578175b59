#include "tools/image/image.h"

#include <tbb/parallel_for.h>

#include "core/base/arg_ref.h"
#include "core/base/error.h"
#include "core/base/timefmt.h"
#include "core/harness/claude_code/image_handles.h"
#include "tools/common/scope_args.h"
#include "tools/image/image_codec.h"
#include "tools/image/image_extract.h"
#include "tools/image/image_payload.h"
#include "tools/image/image_request.h"
#include "tools/image/image_select.h"

namespace csift {
namespace {

struct ScopeImages {
  std::vector<ImageOccurrence> all;  // scope order, file order within a transcript
  std::vector<int> turn_counts;
  uint64_t skipped_lines = 0;
  std::vector<std::string> errors;
};

ScopeImages scan_scope(const Scope& scope, ToolContext& ctx) {
  std::vector<TranscriptImages> per(scope.transcripts.size());
  tbb::parallel_for(size_t{0}, per.size(), [&](size_t i) {
    if (!ctx.cancelled()) per[i] = scan_images(scope.transcripts[i], i, ctx.cancel);
  });
  if (ctx.cancelled()) failure_error("image was cancelled");
  ScopeImages out;
  for (size_t i = 0; i < per.size(); ++i) {
    out.turn_counts.push_back(per[i].turn_count);
    out.skipped_lines += per[i].skipped_lines;
    if (!per[i].error.empty()) out.errors.push_back(scope.transcripts[i].path + ": " + per[i].error);
    for (auto& o : per[i].images)
      out.all.push_back(std::move(o));
  }
  return out;
}

uint64_t estimated_bytes(const ImageRef& ref) {
  return ref.data_length / 4 * 3 + (ref.data_length % 4 == 3 ? 2 : ref.data_length % 4 == 2 ? 1 : 0);
}

json image_row(const ImageOccurrence& o, const Transcript& t, size_t seq) {
  json row = json::object();
  row["kind"] = "image";
  row["handle"] = o.handle ? json(*o.handle) : json(nullptr);
  row["seq"] = seq;
  row["id"] = image_locator(o.line, o.ordinal);
  row["line"] = o.line;
  row["img_index"] = o.ordinal;
  row["session_id"] = t.id;
  row["is_subagent"] = t.is_subagent;
  row["parent_session_id"] = t.parent_session_id();
  row["source_kind"] = o.in_tool_result ? "tool_result" : "message";
  row["source_type"] = string_or_null(o.ref.source_type);
  row["media_type"] = string_or_null(o.ref.media_type);
  row["b64_len"] = o.ref.data_length;
  row["est_bytes"] = estimated_bytes(o.ref);
  row["url"] = string_or_null(o.ref.url);
  row["record_uuid"] = string_or_null(o.uuid);
  row["turn_index"] = o.turn_index >= 0 ? json(o.turn_index) : json(nullptr);
  row["ts_utc"] = string_or_null(o.timestamp);
  const auto ms = parse_iso8601(o.timestamp);
  row["ts_local"] = ms ? json(format_local_iso(*ms)) : json(nullptr);
  row["occurrences"] = o.occurrences;
  return row;
}

// Over MCP: the one selected image as image content, when its base64 fits the call's budget.
void attach_image(Envelope& env, const std::vector<ImageOccurrence>& selected, const Scope& scope,
                  const json& args, const ToolContext& ctx) {
  if (selected.size() != 1) {
    usage_error(arg_ref("attach") + " returns exactly one image, and " + std::to_string(selected.size()) +
                " are selected: name one with " + arg_ref("id"));
  }
  if (!ctx.accepts_media) {
    usage_error(arg_ref("attach") +
                " returns the image as MCP image content, which this front end cannot carry; "
                "write it to a file with " +
                arg_ref("out") + " instead");
  }
  const ImageOccurrence& o = selected.front();
  const Transcript& t = scope.transcripts[o.transcript];
  const ImageFormat format = format_of_media_type(o.ref.media_type);
  if (format == ImageFormat::unknown) {
    usage_error(image_locator(o.line, o.ordinal) + " has media type '" + o.ref.media_type +
                "', which MCP image content does not carry; write it with " + arg_ref("out"));
  }
  const int64_t budget = args.value("max_chars", int64_t{0});
  if (budget > 0 && o.ref.data_length > static_cast<uint64_t>(budget)) {
    usage_error(image_locator(o.line, o.ordinal) + " is " + std::to_string(o.ref.data_length) +
                " characters of base64, over the output budget " + arg_ref("max_chars") + "=" +
                std::to_string(budget) + ": call again with " + arg_ref("max_chars") + " of at least " +
                std::to_string(o.ref.data_length + 4000) + " (0 lifts the budget), or write it with " +
                arg_ref("out"));
  }
  ImagePayload payload = read_image_payload(t, o);
  env.media.push_back(MediaAttachment{media_type_of(format), std::move(payload.base64)});
  env.summary["attached"] = image_locator(o.line, o.ordinal);
}

}  // namespace

Envelope run_image(const json& args, ToolContext& ctx) {
  const ImageRequest req = parse_image_request(args);
  const Scope scope = resolve_span_scope(args, ctx);
  const ScopeImages found = scan_scope(scope, ctx);
  const std::vector<ImageOccurrence> windowed = apply_windows(found.all, req, found.turn_counts);
  const std::vector<ImageOccurrence> selected =
      req.ids.empty() ? dedup_by_content(windowed) : select_by_id(windowed, req, scope);

  Envelope env = Envelope::make("image");
  env.header = span_header("image", scope);
  echo_time_window(req.window, env.header);
  env.header["mode"] = req.out.empty() ? "list" : "extract";
  env.header["out"] = string_or_null(req.out);
  env.header["id"] = json::array();
  for (const auto& id : req.ids)
    env.header["id"].push_back(id.text);
  if (req.out.empty()) {
    for (const auto& o : selected)
      env.rows.push_back(image_row(o, scope.transcripts[o.transcript], env.rows.size() + 1));
  } else {
    env.rows = extract_images(selected, scope, req.out);
  }
  size_t failed = 0, transcripts_with_images = 0;
  for (const auto& row : env.rows)
    failed += row.contains("error") && !row["error"].is_null() ? 1 : 0;
  std::vector<bool> seen(scope.transcripts.size(), false);
  for (const auto& o : selected)
    seen[o.transcript] = true;
  for (bool s : seen)
    transcripts_with_images += s ? 1 : 0;
  env.summary["images"] = selected.size();
  env.summary["occurrences"] = windowed.size();
  env.summary["transcripts"] = transcripts_with_images;
  env.summary["transcripts_scanned"] = scope.transcripts.size();
  env.summary["failed"] = failed;
  env.summary["skipped_lines"] = found.skipped_lines;
  env.notes = scope.notes;
  for (const auto& e : found.errors)
    env.notes.push_back("could not read " + e);
  if (failed > 0)
    env.notes.push_back(std::to_string(failed) + " image(s) could not be written; each row says why");
  if (req.attach) attach_image(env, selected, scope, args, ctx);
  return env;
}

}  // namespace csift
