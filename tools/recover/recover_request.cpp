#include "tools/recover/recover_request.h"

#include "core/base/arg_ref.h"
#include "core/base/error.h"
#include "core/mutations/bash_mutations.h"

namespace csift {

const char* recover_mode_name(RecoverMode m) {
  switch (m) {
    case RecoverMode::salvage:
      return "salvage";
    case RecoverMode::patches:
      return "patches";
    case RecoverMode::at:
      return "at";
    case RecoverMode::coverage:
      return "coverage";
    default:
      return "restore";
  }
}

namespace {

std::string string_arg(const json& args, const char* name) {
  return args.contains(name) && args[name].is_string() ? args[name].get<std::string>() : std::string();
}

bool bool_arg(const json& args, const char* name) {
  return args.contains(name) && args[name].is_boolean() && args[name].get<bool>();
}

RecoverMode mode_of(const json& args) {
  std::vector<std::pair<const char*, RecoverMode>> chosen;
  if (bool_arg(args, "salvage")) chosen.push_back({"salvage", RecoverMode::salvage});
  if (bool_arg(args, "patches")) chosen.push_back({"patches", RecoverMode::patches});
  if (bool_arg(args, "coverage")) chosen.push_back({"coverage", RecoverMode::coverage});
  if (!string_arg(args, "at").empty()) chosen.push_back({"at", RecoverMode::at});
  if (chosen.size() > 1) {
    usage_error(arg_ref(chosen[0].first) + " and " + arg_ref(chosen[1].first) +
                " are two modes; pick one (none at all restores the final content)");
  }
  return chosen.empty() ? RecoverMode::restore : chosen.front().second;
}

int64_t sigil_number(const std::string& text, size_t prefix) {
  const std::string digits = text.substr(prefix);
  if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos || digits.size() > 15) {
    usage_error(arg_ref("at") + " " + text + " needs a non-negative number after '" + text.substr(0, prefix) +
                "' (e.g. @turn:3, @line:120)");
  }
  return std::stoll(digits);
}

std::optional<RangeSpec> range_arg(const json& args, const char* name, bool one_based) {
  const std::string v = string_arg(args, name);
  if (!args.contains(name)) return std::nullopt;
  return parse_range(v, arg_ref(name), one_based);
}

}  // namespace

RecoverCutoff parse_cutoff(const std::string& text) {
  RecoverCutoff c;
  c.text = text;
  if (text.empty() || text == "@latest") return c;
  if (text.rfind("@turn:", 0) == 0) {
    c.kind = RecoverCutoff::Kind::turn;
    c.value = sigil_number(text, 6);
  } else if (text.rfind("@line:", 0) == 0) {
    c.kind = RecoverCutoff::Kind::line;
    c.value = sigil_number(text, 6);
  } else if (text.front() == '@') {
    usage_error(
        arg_ref("at") + " " + text +
        " is not a known sigil: use @latest, @turn:N, @line:N, an ISO 8601 instant or an age such as 2h");
  } else {
    c.kind = RecoverCutoff::Kind::instant;
    c.value = parse_when(text, now_ms(), arg_ref("at"));
  }
  return c;
}

RecoverRequest parse_recover_request(const json& args) {
  RecoverRequest r;
  r.mode = mode_of(args);
  r.file = string_arg(args, "file");
  r.files_from = string_arg(args, "files_from");
  r.out = string_arg(args, "out");
  r.out_dir = string_arg(args, "out_dir");
  r.force = bool_arg(args, "force");
  if (r.mode == RecoverMode::at) r.cutoff = parse_cutoff(string_arg(args, "at"));
  if (args.contains("file") && r.file.empty())
    usage_error(arg_ref("file") + " is empty: name the file to recover");
  if (r.file.empty() && r.files_from.empty()) {
    usage_error("name the file to recover with " + arg_ref("file") +
                " (an absolute path, or @plan for the session's plan), or a list of them with " +
                arg_ref("files_from") + " and " + arg_ref("out_dir"));
  }
  if (!r.file.empty() && !r.files_from.empty())
    usage_error(arg_ref("file") + " and " + arg_ref("files_from") +
                " exclude each other: one file, or a list");
  if (!r.files_from.empty() && r.out_dir.empty())
    usage_error(arg_ref("files_from") + " writes every file it recovers: name the directory with " +
                arg_ref("out_dir"));
  if (!r.out_dir.empty() && r.files_from.empty())
    usage_error(arg_ref("out_dir") + " is for a list of files (" + arg_ref("files_from") +
                "); one file goes to " + arg_ref("out"));
  if (!r.files_from.empty() && (r.mode == RecoverMode::patches || r.mode == RecoverMode::coverage))
    usage_error(arg_ref("files_from") + " writes file contents; " + arg_ref(recover_mode_name(r.mode)) +
                " has none to write");
  r.file_lines = range_arg(args, "file_lines", true);
  r.turn = range_arg(args, "turn", false);
  r.window = parse_time_window(args);
  return r;
}

}  // namespace csift
