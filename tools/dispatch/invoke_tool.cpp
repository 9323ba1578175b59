// The single dispatcher: argument validation, the handler call, paging (row_offset / max_chars) and
// rendering. Every exception ends here as an error envelope, so nothing escapes to an MCP client or the CLI.
#include <tbb/parallel_for.h>

#include <algorithm>
#include <filesystem>

#include "core/base/after_reply.h"
#include "core/base/arg_ref.h"
#include "core/base/call_activity.h"
#include "core/base/error.h"
#include "core/base/terminal_text.h"
#include "core/cache/disk_cache.h"
#include "core/store/watched_stamps.h"
#include "tools/common/tool.h"
#include "tools/dispatch/invoke_tool.h"
#include "tools/dispatch/output_scrub.h"
#include "tools/dispatch/row_window.h"
#include "tools/dispatch/schema_validator.h"
#include "tools/dispatch/tool_table.h"

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

// The budget a page is cut at: the call's max_chars, or the context's ceiling when max_chars is 0 (none) or
// larger.
int64_t page_budget(const json& args, const ToolContext& ctx) {
  const int64_t asked = integer_arg(args, "max_chars");
  if (ctx.answer_ceiling > 0 && (asked <= 0 || asked > ctx.answer_ceiling)) return ctx.answer_ceiling;
  return asked;
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
  const size_t made = std::min(env.rows.size(), static_cast<size_t>(offset));
  env.rows.erase(env.rows.begin(), env.rows.begin() + static_cast<std::ptrdiff_t>(made));
  // Deferred rows before the offset are never made.
  const size_t unmade = std::min(env.deferred.count, static_cast<size_t>(offset) - made);
  env.deferred.next += unmade;
  env.deferred.count -= unmade;
  env.summary["rows_skipped"] = made + unmade;
}

bool wants_json(const json& args) {
  return args.is_object() && args.contains("format") && args["format"] == "json";
}

// Text reaches a terminal: control bytes from a transcript are shown escaped, never sent raw (raw modes use
// JSON escapes, so a verbatim line that was well formed stays well formed). JSON output escapes them already.
std::string render(const ToolSpec& tool, const Envelope& env, const json& args, const ToolContext& ctx) {
  if (wants_json(args)) return env.to_ndjson();
  if (env.is_error) return escape_terminal_controls(error_text(env));
  const bool raw = args.is_object() && args.contains("raw") && args["raw"] == true;
  return escape_terminal_controls(tool.render_text(env, args, ctx),
                                  raw ? ControlEscape::json : ControlEscape::hex);
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
    out.media = full.media;
    mark_cut(out, full.rows.size() + full.deferred.count, kept);
    return out;
  }

  // The same cut made in `env` itself: nothing kept is copied, and the dropped rows are freed on oneTBB
  // workers; freeing 1,491 of 1,501 rows one by one was a tenth of a warm list call. Rows still deferred are
  // dropped unmade.
  void cut_in_place(Envelope& env, size_t kept) const {
    const size_t made = env.rows.size();
    const size_t total = made + env.deferred.count;
    tbb::parallel_for(kept, made, [&env](size_t i) { json().swap(env.rows[i]); });
    env.rows.resize(kept);
    env.deferred = {};
    mark_cut(env, total, kept);
  }

  void mark_cut(Envelope& out, size_t total, size_t kept) const {
    if (kept == total) return;
    json next = original_args.is_object() ? original_args : json::object();
    next["row_offset"] = prior_offset + static_cast<int64_t>(kept);
    out.summary["rows_omitted"] = total - kept;
    out.summary["continue_with"] = next;
  }

  std::string footer(const Envelope& env) const {
    if (!env.summary.contains("continue_with") || wants_json(args)) return "";
    if (env.summary.contains("row_chars_omitted")) {
      return "[row cut by max_chars=" + std::to_string(max_chars) + ": " +
             dump_json(env.summary["row_chars_omitted"]) + " more char(s) of it; continue with char_offset=" +
             dump_json(env.summary["continue_with"]["char_offset"]) + ": " +
             ctx.call_text(tool.name, env.summary["continue_with"]) + "]\n";
    }
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

// The fewest leading rows whose JSON alone is over `limit` characters (rows.size() + 1 when all of them are
// not), when every rendering measured holds each kept row's JSON (the JSON format, or a call whose
// structured content is budgeted too); 0 when it does not. A cut keeping that many rows or more cannot fit,
// so the search below never renders it: a long listing dumps the few rows that fill the budget instead of
// rendering every row at each step. Decisions are the same as rendering each cut.
size_t rows_over_limit(const Envelope& env, const Budget& budget, size_t limit) {
  if (!wants_json(budget.args) && !budget.ctx.budget_structured) return 0;
  size_t chars = 0;
  for (size_t k = 0; k < env.rows.size(); ++k) {
    chars += utf8_length(dump_json(env.rows[k]));
    if (chars > limit) return k + 1;
  }
  return env.rows.size() + 1;
}

// Keeps the longest row prefix whose rendering fits the budget (at least one row, so paging always advances).
void apply_char_budget(Envelope& env, const Budget& budget) {
  if (budget.max_chars > 0 && env.rows.size() <= 1 && env.deferred.count > 0) {
    budget.cut_in_place(env, env.rows.size());  // one row over the budget: the unmade ones are omitted
    return;
  }
  if (budget.max_chars <= 0 || env.rows.size() <= 1) return;
  const auto limit = static_cast<size_t>(budget.max_chars);
  const size_t over_from = rows_over_limit(env, budget, limit);
  const auto fits_with = [&](size_t kept) {
    if (over_from != 0 && kept >= over_from) return false;
    return budget.rendered_size(kept == env.rows.size() ? env : budget.cut(env, kept)) <= limit;
  };
  if (fits_with(env.rows.size())) return;
  size_t fits = 1, too_big = env.rows.size();  // invariant: fits keeps (or is the floor), too_big does not
  while (too_big - fits > 1) {
    const size_t mid = fits + (too_big - fits) / 2;
    (fits_with(mid) ? fits : too_big) = mid;
  }
  budget.cut_in_place(env, fits);
}

// The claude_home a follow-up must repeat: the one in force when the call named a store other than the
// default its follow-ups would otherwise read.
json carried_args_of(const json& args, const Environment& env) {
  if (!args.is_object() || !args.contains("claude_home") || !args["claude_home"].is_string())
    return json::object();
  // Absolute, so a follow-up run from another directory reads the same store.
  const auto absolute = [](const std::string& dir) {
    std::error_code ec;
    const std::filesystem::path p = std::filesystem::absolute(dir, ec);
    return (ec ? std::filesystem::path(dir) : p).lexically_normal().string();
  };
  const std::string chosen = absolute(resolve_claude_home(args["claude_home"].get<std::string>(), env));
  if (chosen == absolute(resolve_claude_home(std::nullopt, env))) return json::object();
  return json{{"claude_home", chosen}};
}

// Every {"tool", "arguments"} follow-up in the envelope's rows, header and summary gets the carried
// arguments (continue_with already repeats the caller's own).
void carry_into_follow_ups(json& j, const json& carried) {
  if (j.is_object()) {
    if (j.contains("tool") && j["tool"].is_string() && j.contains("arguments") &&
        j["arguments"].is_object()) {
      j["arguments"] = with_carried(j["arguments"], carried);
      return;
    }
    for (auto& [_, v] : j.items())
      carry_into_follow_ups(v, carried);
  } else if (j.is_array()) {
    for (auto& v : j)
      carry_into_follow_ups(v, carried);
  }
}

void carry_into_follow_ups(Envelope& env, const json& carried) {
  if (carried.empty()) return;
  carry_into_follow_ups(env.header, carried);
  carry_into_follow_ups(env.summary, carried);
  for (auto& row : env.rows)
    carry_into_follow_ups(row, carried);
}

// Makes the deferred rows a page can show, each carried and scrubbed as the envelope's other rows were: all
// of them, unless a page is bounded by the JSON of its rows (rows_over_limit), in which case only until the
// rows' JSON passes the budget. The rest stay unmade, and the budget's cut omits them. A row that cannot be
// made turns the envelope into the error (false), as a tool's own failure does.
bool make_deferred_rows(Envelope& env, const Budget& budget, bool scrub) {
  Envelope::DeferredRows& d = env.deferred;
  if (!d.make) return true;
  const bool bounded = budget.max_chars > 0 && (wants_json(budget.args) || budget.ctx.budget_structured);
  const auto limit = static_cast<size_t>(std::max<int64_t>(budget.max_chars, 0));
  size_t chars = 0;
  if (bounded) {
    for (const json& row : env.rows)
      chars += utf8_length(dump_json(row));
  }
  try {
    while (d.count > 0 && (!bounded || chars <= limit)) {
      json row = d.make(d.next++);
      --d.count;
      if (!budget.ctx.carried_args.empty()) carry_into_follow_ups(row, budget.ctx.carried_args);
      if (scrub) scrub_row(row);
      if (bounded) chars += utf8_length(dump_json(row));
      env.rows.push_back(std::move(row));
    }
    if (d.settle) d.settle(env);
  } catch (const ToolError& e) {
    env = error_envelope(std::string(budget.tool.name), e.kind_name(), e.what());
    return false;
  } catch (const std::exception& e) {
    env =
        error_envelope(std::string(budget.tool.name), "failure", std::string("internal error: ") + e.what());
    return false;
  }
  d.make = nullptr;
  d.settle = nullptr;
  return true;
}

// The first row alone over the budget, or a continuation inside a row (`char_offset`): that row is shown
// as a window of its longest text (row_window.h) sized to fit, and the continuation names the next window,
// or the next row once this one is done.
void apply_row_window(Envelope& env, const Budget& budget, int64_t char_offset) {
  if (env.rows.empty()) return;
  const auto limit = static_cast<size_t>(std::max<int64_t>(budget.max_chars, 0));
  if (char_offset <= 0 && (limit == 0 || budget.rendered_size(env) <= limit)) return;
  // A row whose longest text is short is over the budget by its shape, not by a text worth windowing: it is
  // kept whole (at least one row), as before.
  constexpr size_t kMinWindowedChars = 256;
  const auto field = longest_text_field(env.rows.front());
  if (!field || (char_offset <= 0 && field->chars < kMinWindowedChars)) return;
  const size_t from = std::min(static_cast<size_t>(std::max<int64_t>(char_offset, 0)), field->chars);
  // Rows still deferred are after this one too (a continuation inside a row skips the budget's cut).
  const size_t rows_after =
      env.rows.size() - 1 + env.summary.value("rows_omitted", size_t{0}) + env.deferred.count;
  const json original_row = env.rows.front();
  env.rows.resize(1);
  const json original_summary = env.summary;
  // The row's window of `count` characters and the summary that continues after it, as they will be
  // rendered: the continuation is part of what the budget measures.
  const auto shown = [&](size_t count) {
    env.rows.front() = original_row;
    window_row_field(env.rows.front(), *field, from, count);
    env.summary = original_summary;
    env.summary.erase("continue_with");
    env.summary.erase("rows_omitted");
    json next = budget.original_args.is_object() ? budget.original_args : json::object();
    next.erase("char_offset");
    if (from + count < field->chars) {
      next["row_offset"] = budget.prior_offset;
      next["char_offset"] = from + count;
      env.summary["row_chars_omitted"] = field->chars - from - count;
    } else if (rows_after > 0) {
      next["row_offset"] = budget.prior_offset + 1;
    } else {
      return;
    }
    env.summary["rows_omitted"] = rows_after;
    env.summary["continue_with"] = next;
  };
  size_t count = field->chars - from;
  shown(count);
  if (limit == 0 || budget.rendered_size(env) <= limit) return;
  shown(0);
  const size_t base = budget.rendered_size(env);
  count = base < limit ? std::min(count, limit - base) : 1;
  for (shown(count); count > 1 && budget.rendered_size(env) > limit; shown(count)) {
    const size_t over = budget.rendered_size(env) - limit;
    count = count > over + count / 32 + 1 ? count - over - count / 32 - 1 : 1;
  }
}

}  // namespace

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
    note = escape_terminal_controls(spell_arg_refs(note, spell));
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
  ctx.carried_args = issues.empty() ? carried_args_of(args, ctx.env) : json::object();
  std::string scrub_refusal;
  const bool scrub = output_scrub_wanted(args, ctx, scrub_refusal);
  if (!issues.empty()) {
    outcome.envelope = error_envelope(name, "usage", validation_message(issues));
  } else if (!scrub_refusal.empty()) {
    outcome.envelope = error_envelope(name, "usage", scrub_refusal);
  } else {
    outcome.envelope = run_guarded(tool, args, ctx);
    carry_into_follow_ups(outcome.envelope, ctx.carried_args);
  }
  Envelope& env = outcome.envelope;
  spell_messages(env, tool.name, ctx);
  // Before paging and rendering: every size a budget measures is of the scrubbed text.
  if (scrub) scrub_envelope(env);
  if (!env.is_error) {
    const Budget budget{
        tool, ctx, args, original_args, page_budget(args, ctx), integer_arg(args, "row_offset")};
    apply_row_offset(env, budget.prior_offset);
    if (make_deferred_rows(env, budget, scrub)) {
      const int64_t char_offset = integer_arg(args, "char_offset");
      if (char_offset <= 0) apply_char_budget(env, budget);
      apply_row_window(env, budget, char_offset);
      try {
        outcome.text = budget.render_with_footer(env);
      } catch (const std::exception& e) {
        env = error_envelope(name, "failure", std::string("internal error while rendering: ") + e.what());
      }
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

// What the call queued for the disk cache (its context's) is written in one transaction once its answer is
// made (never failing or holding the answer: a busy database skips the write); by a server after the reply
// is sent, following the work the call left for then (which may queue entries too). A server's watched
// stamps watch the directories the call looked into unwatched on their own thread (watched_stamps.h).
struct DiskCacheFlushAtEnd {
  DiskCache* disk;
  AfterReply* after_reply;
  ~DiskCacheFlushAtEnd() {
    if (WatchedStamps* watched = process_watched_stamps(); watched && watched->has_noted())
      watched->watch_noted_later();
    if (!disk) return;
    if (after_reply) {
      after_reply->defer([d = disk](const CancelToken&) { d->flush(); });
    } else {
      disk->flush();
    }
  }
};

ToolOutcome invoke_tool(const ToolSpec& tool, const json& args, ToolContext& ctx) {
  const CallUnderWay under_way;  // idle-time work (a server's watches) waits for it
  DiskCacheFlushAtEnd flush_at_end{ctx.disk_cache, ctx.after_reply};
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
