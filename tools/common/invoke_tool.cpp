// The single dispatcher: argument validation, the handler call, paging (row_offset / max_chars) and
// rendering. Every exception ends here as an error envelope, so nothing escapes to an MCP client or the CLI.
#include <algorithm>

#include "core/base/arg_ref.h"
#include "core/base/error.h"
#include "tools/common/schema_validator.h"
#include "tools/common/tool.h"

namespace csift {
namespace {

constexpr int kTimedOutExit = 124;

int exit_code_for(const std::string& error_kind) {
  return error_kind == "usage" ? 2 : 1;
}

std::string error_kind_of(const Envelope& env) {
  if (!env.summary.contains("error") || !env.summary["error"].is_object()) return "failure";
  return env.summary["error"].value("kind", "failure");
}

std::string error_text(const Envelope& env) {
  std::string message = "unknown error";
  if (env.summary.contains("error") && env.summary["error"].is_object()) {
    message = env.summary["error"].value("message", message);
  }
  const std::string kind = error_kind_of(env);
  return (kind == "not_found" ? "not found: " : "error: ") + message + "\n";
}

std::string validation_message(const std::vector<SchemaIssue>& issues) {
  std::string message;
  for (const auto& issue : issues)
    message += (message.empty() ? "" : "; ") + issue.message;
  return message;
}

int64_t integer_arg(const json& args, const char* name) {
  if (!args.is_object() || !args.contains(name) || !args[name].is_number()) return 0;
  return args[name].get<int64_t>();
}

Envelope run_guarded(const ToolSpec& tool, const json& args, ToolContext& ctx) {
  const std::string name(tool.name);
  try {
    return tool.run(args, ctx);
  } catch (const ToolError& e) {
    return error_envelope(name, e.kind_name(), e.what());
  } catch (const std::exception& e) {
    return error_envelope(name, "failure", std::string("internal error: ") + e.what());
  } catch (...) {
    return error_envelope(name, "failure", "internal error: unknown exception");
  }
}

void apply_row_offset(Envelope& env, int64_t offset) {
  if (offset <= 0) return;
  const size_t skipped = std::min(env.rows.size(), static_cast<size_t>(offset));
  env.rows.erase(env.rows.begin(), env.rows.begin() + static_cast<std::ptrdiff_t>(skipped));
  env.summary["rows_skipped"] = skipped;
}

bool wants_json(const json& args) {
  return args.is_object() && args.contains("format") && args["format"] == "json";
}

std::string render(const ToolSpec& tool, const Envelope& env, const json& args, const ToolContext& ctx) {
  if (wants_json(args)) return env.to_ndjson();
  if (env.is_error) return error_text(env);
  return tool.render_text(env, args, ctx);
}

// The paging inputs, fixed once per call, and the text footer that tells a reader how to continue.
struct Budget {
  const ToolSpec& tool;
  const ToolContext& ctx;
  const json& args;           // defaults applied (what the handler saw)
  const json& original_args;  // as the caller sent them (what continue_with repeats)
  int64_t max_chars;
  int64_t prior_offset;

  Envelope cut(const Envelope& full, size_t kept) const {
    Envelope out;
    out.header = full.header;
    out.rows.assign(full.rows.begin(), full.rows.begin() + static_cast<std::ptrdiff_t>(kept));
    out.summary = full.summary;
    out.notes = full.notes;
    if (kept == full.rows.size()) return out;
    json next = original_args.is_object() ? original_args : json::object();
    next["row_offset"] = prior_offset + static_cast<int64_t>(kept);
    out.summary["rows_omitted"] = full.rows.size() - kept;
    out.summary["continue_with"] = next;
    return out;
  }

  std::string footer(const Envelope& env) const {
    if (!env.summary.contains("continue_with") || wants_json(args)) return "";
    return "[" + dump_json(env.summary["rows_omitted"]) +
           " more row(s) cut by max_chars=" + std::to_string(max_chars) +
           "; continue with row_offset=" + dump_json(env.summary["continue_with"]["row_offset"]) + ": " +
           ctx.call_text(tool.name, env.summary["continue_with"]) + "]\n";
  }

  size_t rendered_size(const Envelope& env) const {
    const size_t text = utf8_length(render_with_footer(env));
    if (!ctx.budget_structured) return text;
    return std::max(text, utf8_length(dump_json(env.to_object())));
  }

  std::string render_with_footer(const Envelope& env) const {
    std::string text = render(tool, env, args, ctx);
    const std::string tail = footer(env);
    if (!tail.empty() && !text.empty() && text.back() != '\n') text += '\n';
    return text + tail;
  }
};

// Keeps the longest row prefix whose rendering fits the budget (at least one row, so paging always advances).
void apply_char_budget(Envelope& env, const Budget& budget) {
  if (budget.max_chars <= 0 || env.rows.size() <= 1) return;
  const auto limit = static_cast<size_t>(budget.max_chars);
  if (budget.rendered_size(env) <= limit) return;
  size_t fits = 1, too_big = env.rows.size();  // invariant: fits keeps (or is the floor), too_big does not
  while (too_big - fits > 1) {
    const size_t mid = fits + (too_big - fits) / 2;
    (budget.rendered_size(budget.cut(env, mid)) <= limit ? fits : too_big) = mid;
  }
  env = budget.cut(env, fits);
}

}  // namespace

std::string ToolContext::call_text(std::string_view tool, const json& args) const {
  if (spell_call) return spell_call(tool, args);
  return std::string(tool) + " " + dump_json(args);
}

std::string ToolContext::arg_text(std::string_view tool, std::string_view property, bool prefer_short) const {
  if (spell_arg) return spell_arg(tool, property, prefer_short);
  return std::string(property);
}

json follow_up_call(std::string_view tool, json arguments) {
  return json{{"tool", std::string(tool)}, {"arguments", std::move(arguments)}};
}

std::string follow_up_text(const json& call, const ToolContext& ctx) {
  return ctx.call_text(call.value("tool", ""), call.value("arguments", json::object()));
}

void spell_messages(Envelope& env, std::string_view tool, const ToolContext& ctx) {
  const MessageSpeller spell{
      [&](std::string_view property, bool prefer_short) {
        return ctx.arg_text(tool, property, prefer_short);
      },
      [&](std::string_view call_tool, const json& args) { return ctx.call_text(call_tool, args); }};
  auto rewrite = [&](json& j) {
    if (j.is_string()) j = spell_arg_refs(j.get<std::string>(), spell);
  };
  for (auto& note : env.notes)
    note = spell_arg_refs(note, spell);
  if (env.summary.contains("error") && env.summary["error"].is_object() &&
      env.summary["error"].contains("message"))
    rewrite(env.summary["error"]["message"]);
  if (env.summary.contains("active_filters")) rewrite(env.summary["active_filters"]);
  if (env.header.contains("address")) rewrite(env.header["address"]);
}

ToolOutcome invoke_tool_with_schema(const ToolSpec& tool, const json& schema, const json& original_args,
                                    ToolContext& ctx) {
  const std::string name(tool.name);
  ToolOutcome outcome;
  json args = original_args.is_null() ? json::object() : original_args;
  const auto issues = validate_and_apply_defaults(schema, args);
  if (!issues.empty()) {
    outcome.envelope = error_envelope(name, "usage", validation_message(issues));
  } else {
    outcome.envelope = run_guarded(tool, args, ctx);
  }
  Envelope& env = outcome.envelope;
  spell_messages(env, tool.name, ctx);
  if (!env.is_error) {
    const Budget budget{
        tool, ctx, args, original_args, integer_arg(args, "max_chars"), integer_arg(args, "row_offset")};
    apply_row_offset(env, budget.prior_offset);
    apply_char_budget(env, budget);
    try {
      outcome.text = budget.render_with_footer(env);
    } catch (const std::exception& e) {
      env = error_envelope(name, "failure", std::string("internal error while rendering: ") + e.what());
    }
  }
  if (env.is_error) {
    outcome.text = render(tool, env, args, ctx);
    outcome.exit_code = exit_code_for(error_kind_of(env));
  } else if (env.summary.is_object() && env.summary.value("timed_out", false)) {
    outcome.exit_code = kTimedOutExit;  // the GNU timeout convention: a bound expired, not an error
  }
  return outcome;
}

ToolOutcome invoke_tool(const ToolSpec& tool, const json& args, ToolContext& ctx) {
  try {
    return invoke_tool_with_schema(tool, input_schema_annotated(tool.name), args, ctx);
  } catch (const std::exception& e) {
    ToolOutcome outcome;
    outcome.envelope =
        error_envelope(std::string(tool.name), "failure", std::string("internal error: ") + e.what());
    outcome.text = error_text(outcome.envelope);
    outcome.exit_code = 1;
    return outcome;
  }
}

}  // namespace csift
