// argv -> arguments object, per the tool's CLI model. Flag order is free (flags may follow positionals), `--`
// ends flags, `--flag=value` works for every flag, and a value token may start with '-' when it reads as a
// number or range (`--turn -3..`, `--max-count -5`, `--since -2h`).
#include <algorithm>
#include <charconv>

#include "core/base/error.h"
#include "core/base/text.h"
#include "server/cli.h"
#include "server/cli_model.h"

namespace csift {
namespace {

// A token that can only be a value, never a flag: no flag starts with a digit or '.', and "-" means stdin.
bool is_value_token(std::string_view t) {
  if (t.empty() || t.front() != '-' || t == "-") return true;
  return t.size() > 1 && ((t[1] >= '0' && t[1] <= '9') || t[1] == '.');
}

std::optional<int64_t> parse_integer(std::string_view s) {
  int64_t v = 0;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
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
  ArgvParser(std::string_view tool, const CliModel& model, const std::vector<std::string>& tokens)
      : tool_(tool), model_(model), tokens_(tokens), positionals_(model.positionals()) {}

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
  CliArgs out_;

  [[noreturn]] void unknown_flag(std::string_view flag) {
    const auto flags = model_.all_flags();
    const std::string guess = closest_flag(flag, flags);
    usage_error("unknown flag " + std::string(flag) + " for " + std::string(tool_) +
                (guess.empty() ? "" : " (did you mean " + guess + "?)") +
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
    if (!o.split_commas) {
      list.push_back(convert(o, flag, value));
      return;
    }
    for (const std::string& part : split_commas(value))
      list.push_back(convert(o, flag, part));
  }

  json convert_boolean(const std::string& flag, const std::string& value) {
    if (value == "true") return true;
    if (value == "false") return false;
    usage_error(flag + ": expected true or false, got \"" + value + "\"");
  }

  json convert(const CliOption& o, const std::string& flag, const std::string& value) {
    if (has(o.types, "integer")) {
      if (auto v = parse_integer(value)) return *v;
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
                       const std::vector<std::string>& tokens) {
  const CliModel model = build_cli_model(input_schema);
  return ArgvParser(tool, model, tokens).parse();
}

}  // namespace csift
