#include "tools/dispatch/schema_validator.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <mutex>
#include <regex>

#include "core/base/error.h"

namespace csift {
namespace {

std::string describe_value(const json& v) {
  const std::string text = dump_json(v);
  return text.size() > 80 ? excerpt(text, 80) : text;
}

std::string join_values(const json& values) {
  std::string out;
  for (const auto& v : values)
    out += (out.empty() ? "" : ", ") + describe_value(v);
  return out;
}

std::string type_name_with_article(const std::string& type) {
  if (type == "integer" || type == "object" || type == "array") return "an " + type;
  if (type == "null") return "null";
  return "a " + type;
}

bool has_type(const json& v, const std::string& type) {
  if (type == "integer") {
    return v.is_number_integer() || (v.is_number_float() && std::isfinite(v.get<double>()) &&
                                     std::floor(v.get<double>()) == v.get<double>());
  }
  if (type == "number") return v.is_number();
  if (type == "string") return v.is_string();
  if (type == "boolean") return v.is_boolean();
  if (type == "object") return v.is_object();
  if (type == "array") return v.is_array();
  if (type == "null") return v.is_null();
  return false;
}

// std::regex construction is costly; schemas are fixed, so each pattern compiles once per process.
const std::regex& compiled_pattern(const std::string& pattern) {
  static std::mutex mutex;
  static std::map<std::string, std::regex> cache;
  std::lock_guard lock(mutex);
  auto it = cache.find(pattern);
  if (it == cache.end()) it = cache.emplace(pattern, std::regex(pattern, std::regex::ECMAScript)).first;
  return it->second;
}

class Validator {
 public:
  Validator(const json& root, bool apply_defaults) : root_(root), apply_defaults_(apply_defaults) {}

  std::vector<SchemaIssue> issues;

  void check(const json& schema_in, json& v, const std::string& path) {
    const json& schema = resolve_schema_ref(root_, schema_in);
    if (schema.is_boolean()) {
      if (!schema.get<bool>()) fail(path, "is not allowed here");
      return;
    }
    if (!schema.is_object()) return;
    if (!check_type(schema, v, path)) return;
    if (!normalize_integer(schema, v, path)) return;
    check_enum_const(schema, v, path);
    check_number(schema, v, path);
    check_string(schema, v, path);
    if (v.is_array()) check_array(schema, v, path);
    if (v.is_object()) check_object(schema, v, path);
    check_combinators(schema, v, path);
  }

 private:
  const json& root_;
  bool apply_defaults_;

  void fail(const std::string& path, const std::string& what) {
    issues.push_back({path, (path.empty() ? std::string("arguments") : path) + ": " + what});
  }

  bool check_type(const json& schema, const json& v, const std::string& path) {
    if (!schema.contains("type")) return true;
    const json& t = schema["type"];
    std::vector<std::string> types;
    if (t.is_string()) types.push_back(t.get<std::string>());
    if (t.is_array()) {
      for (const auto& e : t)
        types.push_back(e.get<std::string>());
    }
    for (const auto& type : types) {
      if (has_type(v, type)) return true;
    }
    std::string expected;
    for (size_t i = 0; i < types.size(); ++i) {
      expected += (i == 0 ? "" : i + 1 == types.size() ? " or " : ", ") + type_name_with_article(types[i]);
    }
    fail(path, "expected " + expected + ", got " + describe_value(v));
    return false;
  }

  // JSON Schema 2020-12 counts 1e2 and 100.0 as the integer 100. The tools read integers as int64, so such
  // a value is rewritten as one (a float would read as "no integer" and fall back to a default), and an
  // integer outside int64 is refused instead of wrapping (2^63 would read as -2^63).
  bool normalize_integer(const json& schema, json& v, const std::string& path) {
    if (!v.is_number() || !schema.contains("type") || !allows(schema["type"], "integer")) return true;
    if (v.is_number_unsigned() && v.get<uint64_t>() > static_cast<uint64_t>(INT64_MAX)) {
      fail(path, "is out of range: integers run from -9223372036854775808 to 9223372036854775807, got " +
                     describe_value(v));
      return false;
    }
    if (!v.is_number_float() || allows(schema["type"], "number")) return true;
    const double d = v.get<double>();
    constexpr double kTwo63 = 9223372036854775808.0;
    if (!(d > -kTwo63 && d < kTwo63)) {
      fail(path, "is out of range: integers run from -9223372036854775808 to 9223372036854775807, got " +
                     describe_value(v));
      return false;
    }
    v = static_cast<int64_t>(d);
    return true;
  }

  static bool allows(const json& type, const char* name) {
    if (type.is_string()) return type.get<std::string>() == name;
    if (!type.is_array()) return false;
    return std::any_of(type.begin(), type.end(), [&](const json& t) { return t.is_string() && t == name; });
  }

  void check_enum_const(const json& schema, const json& v, const std::string& path) {
    if (schema.contains("const") && v != schema["const"]) {
      fail(path, "must be " + describe_value(schema["const"]) + ", got " + describe_value(v));
    }
    if (!schema.contains("enum")) return;
    for (const auto& allowed : schema["enum"]) {
      if (v == allowed) return;
    }
    fail(path, "expected one of " + join_values(schema["enum"]) + ", got " + describe_value(v));
  }

  void check_number(const json& schema, const json& v, const std::string& path) {
    if (!v.is_number()) return;
    const double x = v.get<double>();
    if (schema.contains("minimum") && x < schema["minimum"].get<double>()) {
      fail(path, "must be >= " + dump_json(schema["minimum"]) + ", got " + describe_value(v));
    }
    if (schema.contains("maximum") && x > schema["maximum"].get<double>()) {
      fail(path, "must be <= " + dump_json(schema["maximum"]) + ", got " + describe_value(v));
    }
  }

  void check_string(const json& schema, const json& v, const std::string& path) {
    if (!v.is_string()) return;
    const auto& s = v.get_ref<const std::string&>();
    if (schema.contains("minLength") && utf8_length(s) < schema["minLength"].get<size_t>()) {
      fail(path, "must be at least " + dump_json(schema["minLength"]) + " character(s) long, got " +
                     describe_value(v));
    }
    if (schema.contains("pattern")) {
      const auto pattern = schema["pattern"].get<std::string>();
      if (!std::regex_search(s, compiled_pattern(pattern))) {
        fail(path, "must match the pattern /" + pattern + "/, got " + describe_value(v));
      }
    }
  }

  void check_array(const json& schema, json& v, const std::string& path) {
    if (schema.contains("minItems") && v.size() < schema["minItems"].get<size_t>()) {
      fail(path,
           "needs at least " + dump_json(schema["minItems"]) + " item(s), got " + std::to_string(v.size()));
    }
    if (!schema.contains("items")) return;
    for (size_t i = 0; i < v.size(); ++i)
      check(schema["items"], v[i], path + "[" + std::to_string(i) + "]");
  }

  static std::string child_path(const std::string& path, const std::string& key) {
    return path.empty() ? key : path + "." + key;
  }

  void apply_property_defaults(const json& properties, json& v) {
    for (const auto& [key, sub_in] : properties.items()) {
      const json& sub = resolve_schema_ref(root_, sub_in);
      if (!v.contains(key) && sub.is_object() && sub.contains("default")) v[key] = sub["default"];
    }
  }

  void check_object(const json& schema, json& v, const std::string& path) {
    const json empty = json::object();
    const json& properties = schema.contains("properties") ? schema["properties"] : empty;
    if (apply_defaults_) apply_property_defaults(properties, v);
    if (schema.contains("required")) {
      for (const auto& key : schema["required"]) {
        if (!v.contains(key.get<std::string>()))
          fail(child_path(path, key.get<std::string>()), "is required");
      }
    }
    for (auto it = v.begin(); it != v.end(); ++it) {
      const std::string sub_path = child_path(path, it.key());
      if (properties.contains(it.key())) {
        check(properties[it.key()], it.value(), sub_path);
      } else if (schema.contains("additionalProperties")) {
        check_additional(schema["additionalProperties"], properties, it.value(), sub_path, it.key());
      }
    }
  }

  void check_additional(const json& additional, const json& properties, json& v, const std::string& path,
                        const std::string& key) {
    if (additional.is_boolean() && !additional.get<bool>()) {
      std::string valid;
      for (const auto& [name, _] : properties.items())
        valid += (valid.empty() ? "" : ", ") + name;
      fail(path, "unknown argument \"" + key + "\"; valid arguments: " + (valid.empty() ? "(none)" : valid));
      return;
    }
    check(additional, v, path);
  }

  // Runs `schema` on a copy of v in a scratch validator (no defaults: an alternative must not mutate input).
  std::vector<SchemaIssue> trial(const json& schema, const json& v, const std::string& path) {
    Validator scratch(root_, false);
    json copy = v;
    scratch.check(schema, copy, path);
    return scratch.issues;
  }

  void check_combinators(const json& schema, json& v, const std::string& path) {
    if (schema.contains("allOf")) {
      for (const auto& sub : schema["allOf"])
        check(sub, v, path);
    }
    if (schema.contains("anyOf")) check_any_of(schema["anyOf"], v, path);
    if (schema.contains("oneOf")) check_one_of(schema["oneOf"], v, path);
  }

  void check_any_of(const json& alternatives, const json& v, const std::string& path) {
    std::string reasons;
    for (const auto& sub : alternatives) {
      const auto found = trial(sub, v, path);
      if (found.empty()) return;
      reasons += (reasons.empty() ? "" : "; or ") + found.front().message;
    }
    fail(path, "matches none of the allowed forms (" + reasons + ")");
  }

  void check_one_of(const json& alternatives, const json& v, const std::string& path) {
    size_t matched = 0;
    std::string reasons;
    for (const auto& sub : alternatives) {
      const auto found = trial(sub, v, path);
      if (found.empty()) {
        ++matched;
      } else {
        reasons += (reasons.empty() ? "" : "; or ") + found.front().message;
      }
    }
    if (matched == 1) return;
    if (matched == 0) {
      fail(path, "matches none of the allowed forms (" + reasons + ")");
    } else {
      fail(path, "matches " + std::to_string(matched) + " of the exclusive forms; exactly one must match");
    }
  }
};

}  // namespace

const json& resolve_schema_ref(const json& root, const json& schema) {
  const json* current = &schema;
  for (int depth = 0; depth < 32 && current->is_object() && current->contains("$ref"); ++depth) {
    const auto ref = (*current)["$ref"].get<std::string>();
    if (ref.rfind("#", 0) != 0) failure_error("schema $ref " + ref + " is not local (#/...)");
    const json::json_pointer pointer(ref.substr(1));
    if (!root.contains(pointer)) failure_error("schema $ref " + ref + " names nothing in the schema");
    current = &root.at(pointer);
  }
  return *current;
}

std::vector<SchemaIssue> validate_json(const json& schema, const json& instance) {
  Validator v(schema, false);
  json copy = instance;
  v.check(schema, copy, "");
  return v.issues;
}

std::vector<SchemaIssue> validate_and_apply_defaults(const json& schema, json& instance) {
  Validator v(schema, true);
  v.check(schema, instance, "");
  return v.issues;
}

}  // namespace csift
