// argv -> arguments object, per the tool's CLI model. Flag order is free (flags may follow positionals), `--`
// ends flags, `--flag=value` works for every flag, and a value token may start with '-' when it reads as a
// number or range (`--turn -3..`, `--max-count -5`, `--since -2h`).
#include <algorithm>
#include <cctype>
#include <charconv>

#include "core/base/error.h"
#include "core/base/text.h"
#include "core/store/targets.h"
#include "server/cli.h"
#include "server/cli_model.h"

namespace csift {
namespace {

// A token that can only be a value, never a flag: no flag starts with a digit or '.', and "-" means stdin.
bool is_value_token(std::string_view t) {
  if (t.empty() || t.front() != '-' || t == "-") return true;
  return t.size() > 1 && ((t[1] >= '0' && t[1] <= '9') || t[1] == '.');
}

// An integer filling the whole of `s`; `out_of_range` says it was one but does not fit 64 bits.
std::optional<int64_t> parse_integer(std::string_view s, bool& out_of_range) {
  int64_t v = 0;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  out_of_range = ec == std::errc::result_out_of_range && ptr == s.data() + s.size();
  if (ec != std::errc() || ptr != s.data() + s.size() || s.empty()) return std::nullopt;
  return v;
}

std::optional<double> parse_number(std::string_view s) {
  double v = 0;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || ptr != s.data() + s.size() || s.empty()) return std::nullopt;
  return v;
}

size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j)
    row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::string closest_flag(std::string_view flag, const std::vector<std::string>& candidates) {
  std::string best;
  size_t best_distance = std::max<size_t>(3, flag.size() / 3) + 1;
  for (const auto& c : candidates) {
    const size_t d = edit_distance(flag, c);
    if (d < best_distance) best_distance = d, best = c;
  }
  return best;
}

bool has(const std::vector<std::string>& types, const char* t) {
  return std::find(types.begin(), types.end(), t) != types.end();
}

class ArgvParser {
 public:
  ArgvParser(std::string_view tool, const CliModel& model, const std::vector<std::string>& tokens,
             const std::optional<std::string>& projects_root)
      : tool_(tool),
        model_(model),
        tokens_(tokens),
        positionals_(model.positionals()),
        projects_root_(projects_root) {}

  CliArgs parse() {
    bool flags_ended = false;
    for (i_ = 0; i_ < tokens_.size(); ++i_) {
      const std::string& t = tokens_[i_];
      if (flags_ended || is_value_token(t)) {
        positional(t);
      } else if (t == "--") {
        flags_ended = true;
      } else if (t == "--help" || t == "-h") {
        out_.help = true;
      } else if (t.rfind("--", 0) == 0) {
        long_flag(t);
      } else if (t.size() > 2 && takes_targets_next() && projects_root_ &&
                 names_project_dir(*projects_root_, t)) {
        positional(t);  // `-home-me-proj`: an encoded project directory, not a cluster of short flags
      } else {
        short_flags(t);
      }
    }
    return out_;
  }

 private:
  std::string_view tool_;
  const CliModel& model_;
  const std::vector<std::string>& tokens_;
  std::vector<const CliOption*> positionals_;
  size_t i_ = 0;
  size_t next_positional_ = 0;
  std::optional<std::string> projects_root_;
  CliArgs out_;

  // Whether the next positional is a list (targets), the only place a project directory can go.
  bool takes_targets_next() const {
    return next_positional_ < positionals_.size() && positionals_[next_positional_]->is_array;
  }

  // For a token shaped like an encoded project directory: why it was not one, and how to write one.
  std::string project_dir_hint() const {
    const std::string& t = tokens_[i_];
    const bool encoded_shape = t.size() > 2 && std::all_of(t.begin() + 1, t.end(), [](char c) {
                                 return std::isalnum(static_cast<unsigned char>(c)) || c == '-';
                               });
    if (!encoded_shape || positionals_.empty() || !positionals_.back()->is_array) return "";
    if (projects_root_ && names_project_dir(*projects_root_, t) && next_positional_ < positionals_.size()) {
      return "; '" + t + "' names a project directory, but the " + positionals_[next_positional_]->property +
             " comes before the targets: give it first (an empty one is '')";
    }
    return "; if '" + t + "' is meant as a project directory" +
           (projects_root_ ? ", there is none of that name under " + *projects_root_ : std::string()) +
           ": write it as @" + t + ", or put -- before it";
  }

  [[noreturn]] void unknown_flag(std::string_view flag) {
    const auto flags = model_.all_flags();
    const std::string guess = closest_flag(flag, flags);
    const std::string hint = flag.rfind("--", 0) == 0 ? std::string() : project_dir_hint();
    usage_error("unknown flag " + std::string(flag) + " for " + std::string(tool_) +
                (guess.empty() ? "" : " (did you mean " + guess + "?)") + hint +
                "; valid flags: " + join(flags, ", "));
  }

  void long_flag(const std::string& token) {
    const size_t eq = token.find('=');
    const std::string flag = token.substr(0, eq);
    const std::optional<std::string> inline_value =
        eq == std::string::npos ? std::nullopt : std::optional(token.substr(eq + 1));
    if (const CliOption* negated = model_.by_negate_flag(flag)) {
      if (inline_value) usage_error(flag + " takes no value (it sets " + negated->flag + " off)");
      set_scalar(*negated, flag, json(false));
      return;
    }
    const CliOption* o = model_.by_flag(flag);
    if (!o) unknown_flag(flag);
    if (o->is_boolean) {
      set_scalar(*o, flag, inline_value ? convert_boolean(flag, *inline_value) : json(true));
      return;
    }
    assign(*o, flag, inline_value ? *inline_value : take_value(flag));
  }

  // `-i`, `-ic` (bundled booleans), `-t agent`, `-tagent`.
  void short_flags(const std::string& token) {
    for (size_t k = 1; k < token.size(); ++k) {
      const std::string shown = flag_for_property({}, token[k]);
      const CliOption* o = model_.by_short(token[k]);
      if (!o) unknown_flag(k == 1 && token.size() == 2 ? token : shown);
      if (o->is_boolean) {
        set_scalar(*o, shown, json(true));
        continue;
      }
      assign(*o, shown, k + 1 < token.size() ? token.substr(k + 1) : take_value(shown));
      return;
    }
  }

  std::string take_value(const std::string& flag) {
    if (i_ + 1 >= tokens_.size() || !is_value_token(tokens_[i_ + 1])) {
      usage_error(flag + " needs a value" +
                  (i_ + 1 < tokens_.size() ? " (got the flag " + tokens_[i_ + 1] + " instead)" : ""));
    }
    return tokens_[++i_];
  }

  void positional(const std::string& token) {
    if (next_positional_ >= positionals_.size()) {
      if (positionals_.empty()) {
        usage_error("unexpected argument '" + token + "': " + std::string(tool_) +
                    " takes no positional arguments");
      }
      usage_error("unexpected argument '" + token + "': " + std::string(tool_) + " takes one " +
                  positionals_.back()->property +
                  " (already given: " + dump_json(out_.args[positionals_.back()->property]) + ")");
    }
    const CliOption& o = *positionals_[next_positional_];
    if (o.is_array) {
      append(o, o.property, token);
    } else {
      out_.args[o.property] = convert(o, o.property, token);
      ++next_positional_;
    }
  }

  void assign(const CliOption& o, const std::string& flag, const std::string& value) {
    if (o.is_array) {
      append(o, flag, value);
    } else {
      set_scalar(o, flag, convert(o, flag, value));
    }
  }

  void set_scalar(const CliOption& o, const std::string& flag, json value) {
    if (out_.args.contains(o.property)) {
      usage_error(flag + " given twice (" + dump_json(out_.args[o.property]) + " and " + dump_json(value) +
                  "); pass it once");
    }
    out_.args[o.property] = std::move(value);
  }

  void append(const CliOption& o, const std::string& flag, const std::string& value) {
    json& list = out_.args[o.property];
    if (!list.is_array()) list = json::array();
    std::vector<std::string> parts = o.split_commas ? split_commas(value) : std::vector<std::string>();
    // An empty value (`-t ''`, a positional '') is kept as given, so the tool refuses it exactly as it does
    // over MCP, instead of vanishing and widening the call.
    if (parts.empty()) parts.push_back(value);
    for (const std::string& part : parts)
      list.push_back(convert(o, flag, part));
  }

  json convert_boolean(const std::string& flag, const std::string& value) {
    if (value == "true") return true;
    if (value == "false") return false;
    usage_error(flag + ": expected true or false, got \"" + value + "\"");
  }

  json convert(const CliOption& o, const std::string& flag, const std::string& value) {
    if (has(o.types, "integer")) {
      bool out_of_range = false;
      if (auto v = parse_integer(value, out_of_range)) return *v;
      if (out_of_range) {
        usage_error(flag + ": " + value + " is out of range (integers run from -9223372036854775808 to " +
                    "9223372036854775807)");
      }
    }
    if (has(o.types, "number")) {
      if (auto v = parse_number(value)) return *v;
    }
    if (has(o.types, "boolean") && (value == "true" || value == "false")) return value == "true";
    if (o.types.empty() || has(o.types, "string")) return value;
    const char* expected = has(o.types, "integer")  ? "an integer"
                           : has(o.types, "number") ? "a number"
                                                    : "a boolean";
    usage_error(flag + ": expected " + std::string(expected) + ", got \"" + value + "\"");
  }
};

}  // namespace

CliArgs parse_cli_args(std::string_view tool, const json& input_schema,
                       const std::vector<std::string>& tokens,
                       const std::optional<std::string>& projects_root) {
  const CliModel model = build_cli_model(input_schema);
  return ArgvParser(tool, model, tokens, projects_root).parse();
}

}  // namespace csift
