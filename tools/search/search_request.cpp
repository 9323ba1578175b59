// parse_search_request: the argument surface of `search` validated in one place (SPEC.md §9.2): the mode
// conflicts name both flags, the pattern is compiled (dialect errors surface here), selectors and ranges
// parse before any file is read.
#include <array>
#include <cstdint>

#include "core/base/arg_ref.h"
#include "core/base/error.h"
#include "core/store/store.h"
#include "tools/common/scope_args.h"
#include "tools/search/search_types.h"

namespace csift {
namespace {

constexpr std::array<const char*, 9> kAxisNames = {"label", "tool",       "turn",    "session", "pairing",
                                                   "model", "attachment", "version", "result"};

bool flag(const json& args, const char* name) {
  return args.contains(name) && args[name].is_boolean() && args[name].get<bool>();
}

void refuse_pair(const json& args, const char* a, const char* b) {
  if (flag(args, a) && flag(args, b)) {
    usage_error(arg_ref(a) + " and " + arg_ref(b) + " cannot be combined: they are different output modes");
  }
}

void check_conflicts(const json& args) {
  const bool json_format = args.value("format", "text") == "json";
  if (flag(args, "raw")) {
    if (json_format)
      usage_error(arg_ref("raw") + " and " + arg_ref("format") +
                  " json cannot be combined: " + arg_ref("raw") + " prints verbatim jsonl lines");
    for (const char* other : {"siblings", "count_only", "sessions_with_matches", "no_truncate"}) {
      refuse_pair(args, "raw", other);
    }
  }
  if (args.contains("count_by") && args["count_by"].is_string()) {
    for (const char* other : {"count_only", "sessions_with_matches", "siblings", "raw"}) {
      if (flag(args, other)) {
        usage_error(arg_ref("count_by") + " and " + arg_ref(other) +
                    " cannot be combined: " + arg_ref("count_by") + " is its own output mode");
      }
    }
  }
  refuse_pair(args, "count_only", "sessions_with_matches");
}

SearchMode mode_of(const json& args) {
  if (flag(args, "raw")) return SearchMode::raw;
  if (args.contains("count_by") && args["count_by"].is_string()) return SearchMode::count_by;
  if (flag(args, "count_only")) return SearchMode::count_only;
  if (flag(args, "sessions_with_matches")) return SearchMode::sessions_with_matches;
  return SearchMode::exchanges;
}

std::optional<CountAxis> axis_of(const json& args) {
  if (!args.contains("count_by") || !args["count_by"].is_string()) return std::nullopt;
  const std::string name = args["count_by"].get<std::string>();
  for (size_t i = 0; i < kAxisNames.size(); ++i) {
    if (name == kAxisNames[i]) return static_cast<CountAxis>(i);
  }
  usage_error(arg_ref("count_by") + " " + name +
              " is not an axis; use one of label tool turn session pairing model attachment "
              "version result");
}

void check_pattern_shape(SearchRequest& req) {
  if (!req.pattern.empty() && req.pattern.front() == '@') {
    usage_error("the pattern \"" + req.pattern +
                "\" starts with '@', which is a TARGET, not a pattern: pass the "
                "pattern first, e.g. search \"\" " +
                req.pattern + " (or search <pattern> " + req.pattern + ")");
  }
  if (is_uuid(req.pattern)) {
    req.notes.push_back("note: the pattern \"" + req.pattern +
                        "\" is a uuid, searched as a LITERAL; to scope to that session pass @" + req.pattern +
                        " as a target");
  }
}

}  // namespace

const char* count_axis_name(CountAxis a) {
  return kAxisNames[static_cast<size_t>(a)];
}

SearchRequest parse_search_request(const json& args) {
  check_conflicts(args);
  SearchRequest req;
  req.args = args;
  req.pattern = args.value("pattern", "");
  check_pattern_shape(req);
  req.regex_options.ignore_case = flag(args, "ignore_case");
  req.regex_options.multiline = flag(args, "multiline");
  req.compiled = CompiledPattern::compile(req.pattern, req.regex_options);

  const auto include = string_array(args, "label"), exclude = string_array(args, "label_not");
  req.labels = parse_label_filter(include, exclude);
  req.label_filter_active = !include.empty() || !exclude.empty();
  if (args.contains("turn") && args["turn"].is_string()) {
    req.turn = parse_range(args["turn"].get<std::string>(), arg_ref("turn"), false);
  }
  req.window = parse_time_window(args);
  if (args.contains("max_count") && args["max_count"].is_number_integer()) {
    req.max_count = args["max_count"].get<int64_t>();
    // -N keeps the latest N; the one int64 whose negation does not exist would wrap.
    if (req.max_count == INT64_MIN)
      usage_error(arg_ref("max_count") + " is out of range: the latest N needs N <= 9223372036854775807");
  }
  req.mode = mode_of(args);
  req.count_by = axis_of(args);
  req.json_format = args.value("format", "text") == "json";
  req.siblings = flag(args, "siblings");
  req.no_truncate = flag(args, "no_truncate");
  req.resolve_persisted = flag(args, "resolve_persisted");
  req.attachments = flag(args, "attachments") || req.count_by == CountAxis::attachment;
  return req;
}

}  // namespace csift
