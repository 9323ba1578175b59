#include "tools/common/scope_args.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <numeric>

#include "core/base/arg_ref.h"
#include "core/base/error.h"

namespace csift {

std::vector<std::string> string_array(const json& args, const char* name) {
  std::vector<std::string> out;
  if (!args.contains(name)) return out;
  const json& v = args[name];
  if (v.is_string()) out.push_back(v.get<std::string>());
  if (v.is_array()) {
    for (const auto& item : v) {
      if (item.is_string()) out.push_back(item.get<std::string>());
    }
  }
  return out;
}

namespace {

std::optional<std::string> optional_string(const json& args, const char* name) {
  if (!args.contains(name) || !args[name].is_string()) return std::nullopt;
  return args[name].get<std::string>();
}

[[noreturn]] void id_list_too_large(const std::string& source) {
  usage_error(arg_ref("sessions_from") + ": the id list " + source + " is longer than " +
              std::to_string(kMaxIdListBytes >> 20) + " MiB; split it");
}

// Only a regular file is read (a directory would read as an empty list, i.e. an empty scope and a false
// "absence"; a FIFO could block; /dev/zero never ends), and at most kMaxIdListBytes of it.
std::string read_id_list_file(const std::string& source) {
  const std::string what = arg_ref("sessions_from") + ": the id list " + source;
  struct stat st {};
  if (::stat(source.c_str(), &st) != 0) not_found_error(what + " cannot be read: " + std::strerror(errno));
  if (!S_ISREG(st.st_mode)) {
    const auto reason = irregular_entry_reason(source);
    usage_error(what + " is " + reason.value_or("not a regular file") + "; name a file of session ids");
  }
  const int fd = ::open(source.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) not_found_error(what + " cannot be read: " + std::strerror(errno));
  std::string text;
  char buf[65536];
  for (;;) {
    const ssize_t got = ::read(fd, buf, sizeof buf);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) {
      const int err = errno;
      ::close(fd);
      not_found_error(what + " cannot be read: " + std::strerror(err));
    }
    if (got == 0) break;
    text.append(buf, static_cast<size_t>(got));
    if (text.size() > kMaxIdListBytes) {
      ::close(fd);
      id_list_too_large(source);
    }
  }
  ::close(fd);
  return text;
}

std::string read_id_list_text(const std::string& source, const ToolContext& ctx) {
  if (source == "-") {
    if (!ctx.stdin_text) usage_error("sessions_from \"-\" reads standard input, but none is available here");
    if (ctx.stdin_text->size() > kMaxIdListBytes) id_list_too_large("on standard input");
    return *ctx.stdin_text;
  }
  return read_id_list_file(source);
}

std::optional<EpochMs> when_arg(const json& args, const char* name, EpochMs now) {
  const auto text = optional_string(args, name);
  if (!text) return std::nullopt;  // an empty value is refused by parse_when, never read as "no bound"
  return parse_when(*text, now, arg_ref(name));
}

}  // namespace

Scope resolve_span_scope(const json& args, const ToolContext& ctx) {
  TargetRequest request;
  request.targets = string_array(args, "targets");
  request.subagents = !args.value("no_subagents", false);
  request.claude_home = optional_string(args, "claude_home");
  request.harnesses = string_array(args, "harness");
  if (const auto source = optional_string(args, "sessions_from")) {
    request.sessions_from_ids = parse_id_list(read_id_list_text(*source, ctx));
  }
  TargetResolver resolver(ctx.env, request.claude_home);
  return resolver.resolve(request);
}

TimeWindow parse_time_window(const json& args) {
  const EpochMs now = now_ms();
  TimeWindow window{when_arg(args, "since", now), when_arg(args, "until", now)};
  if (window.since && window.until && *window.since > *window.until) {
    usage_error(arg_ref("since") + " (" + format_utc(*window.since) + ") is after " + arg_ref("until") +
                " (" + format_utc(*window.until) + "): the window is empty");
  }
  return window;
}

bool probe_span_meets(const SessionProbe& probe, const TimeWindow& window) {
  if (!window.bounded()) return true;
  const auto first = parse_iso8601(probe.first_timestamp);
  const auto last = parse_iso8601(probe.last_timestamp);
  if (!first && !last) return false;
  const EpochMs lo = first ? *first : *last;
  const EpochMs hi = last ? std::max(*last, lo) : lo;
  return window.intersects(lo, hi);
}

void echo_scope_counts(const Scope& scope, json& header) {
  header["sessions_in_scope"] = scope.transcripts.size();
  header["top_level_sessions"] = scope.top_level_sessions;
  header["subagent_sessions"] = scope.subagent_sessions;
  if (!scope.stores.empty()) header["stores"] = stores_json(scope);
}

// Which stores of other harnesses were read, where, and what each held; an absent one is listed as such.
json stores_json(const Scope& scope) {
  json stores = json::array();
  for (const StoreReport& r : scope.stores) {
    stores.push_back(json{{"harness", r.harness},
                          {"root", r.root.empty() ? json(nullptr) : json(r.root)},
                          {"root_from", r.source.empty() ? json(nullptr) : json(r.source)},
                          {"found", r.found},
                          {"sessions", r.sessions},
                          {"problems", r.problems}});
  }
  return stores;
}

void report_stores(Envelope& env, const Scope& scope) {
  if (!scope.stores.empty()) env.summary["stores"] = stores_json(scope);
}

json span_header(const std::string& command, const Scope& scope) {
  json header = Envelope::make(command).header;
  echo_scope_counts(scope, header);
  header["unscoped"] = scope.unscoped;
  header["claude_home"] = scope.claude_home;
  return header;
}

void echo_time_window(const TimeWindow& window, json& header) {
  if (window.since) {
    header["since_utc"] = format_utc(*window.since);
    header["since_local"] = format_local_iso(*window.since);
  }
  if (window.until) {
    header["until_utc"] = format_utc(*window.until);
    header["until_local"] = format_local_iso(*window.until);
  }
}

std::optional<size_t> effective_row_cap(const json& args, bool unscoped,
                                        std::optional<size_t> unscoped_default) {
  if (args.contains("max_count") && args["max_count"].is_number_integer()) {
    const int64_t n = args["max_count"].get<int64_t>();
    if (n < 0)
      usage_error(arg_ref("max_count") + " must be 0 (uncapped) or a positive count, got " +
                  std::to_string(n));
    if (n == 0) return std::nullopt;
    return static_cast<size_t>(n);
  }
  return unscoped ? unscoped_default : std::nullopt;
}

std::vector<size_t> keep_most_recent(const std::vector<int64_t>& activity, size_t cap) {
  std::vector<size_t> order(activity.size());
  std::iota(order.begin(), order.end(), size_t{0});
  if (cap >= order.size()) return order;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return activity[a] > activity[b]; });
  order.resize(cap);
  std::sort(order.begin(), order.end());
  return order;
}

}  // namespace csift
