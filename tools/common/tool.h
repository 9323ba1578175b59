// The tool contract every tool folder includes: the call's context (ToolContext), a handler's and a text
// renderer's signatures, and follow-up calls as data. Nothing here knows any tool: the table that registers
// them and the dispatcher that runs them are tools/dispatch/, which includes the tools (never the reverse).
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/envelope.h"
#include "core/scan/line_scanner.h"
#include "core/store/store.h"

namespace csift {

class ScanMemo;
class ResultMemo;
class DiskCache;
class AfterReply;

struct ToolContext {
  Environment env;
  CancelToken* cancel = nullptr;
  // Called with (done, total, message) as a long scan advances; may be empty.
  std::function<void(double, double, const std::string&)> progress;
  // A line a long call states once it is under way (wait's readiness line, after its baseline snapshot): the
  // CLI prints it on stderr at once; may be empty (over MCP the same words travel as the first progress).
  std::function<void(const std::string&)> announce;
  // The text of standard input, for `sessions_from: "-"` on the CLI ("" when none is available).
  std::optional<std::string> stdin_text;
  // How a rendering names a follow-up call (`tool` with `args`). Empty: the MCP form, `tool {args}`. The CLI
  // shim sets it to the equivalent command line, so flag spellings stay in server/.
  std::function<std::string(std::string_view tool, const json& args)> spell_call;
  // Arguments every follow-up call repeats: the call's claude_home when it is not the default one, so a
  // refetch or continuation reads the same store. Set by the dispatcher; call_text adds them.
  json carried_args = json::object();
  std::string call_text(std::string_view tool, const json& args) const;
  // How a message names argument `property` of `tool` (core/base/arg_ref.h). Empty: the bare property name
  // (MCP). The CLI shim sets it to the flag spelling.
  std::function<std::string(std::string_view tool, std::string_view property, bool prefer_short)> spell_arg;
  std::string arg_text(std::string_view tool, std::string_view property, bool prefer_short = false) const;
  // Set by the MCP server, where the envelope travels beside the text (structuredContent): max_chars then
  // bounds both, and both are cut at the same row, so one continue_with serves either.
  bool budget_structured = false;
  // Set by the MCP server: the transport delivers Envelope::media as content of its own (MCP `image`).
  bool accepts_media = false;
  // Set by the MCP server: the most characters a page holds whatever max_chars asks (0: no ceiling), what
  // the client passes on to its model. max_chars 0 or a larger budget pages at it; the tool still sees the
  // max_chars the call gave (media, which the client counts apart, is not held to it).
  int64_t answer_ceiling = 0;
  // The caches the process installed (core/cache/), handed to the code a tool runs (the searcher, stats and
  // list take them from here, never from the process): null when the process has none (the CLI has no
  // memos, only the disk cache; a test's context has none unless it sets them).
  ScanMemo* scan_memo = nullptr;
  ResultMemo* result_memo = nullptr;
  DiskCache* disk_cache = nullptr;
  // Set by a server: work for after the reply is sent (core/base/after_reply.h). Null: do it at once.
  AfterReply* after_reply = nullptr;
  bool cancelled() const { return cancel && cancel->is_cancelled(); }
};

using ToolHandler = Envelope (*)(const json& args, ToolContext& ctx);
// Text renderers get the context too: a refetch hint is spelled with ctx.call_text / ctx.arg_text.
using TextRenderer = std::string (*)(const Envelope& env, const json& args, const ToolContext& ctx);

// `args` with the carried arguments (ToolContext::carried_args) it lacks: a follow-up names its own store
// only when it chose one.
json with_carried(const json& args, const json& carried);

// A follow-up call as data (JSON rows carry this, never a command line): {"tool": ..., "arguments": ...}.
json follow_up_call(std::string_view tool, json arguments);
// The follow-up call as text for this context (ctx.call_text of its tool and arguments).
std::string follow_up_text(const json& call, const ToolContext& ctx);

}  // namespace csift
