// A JSON Schema validator for the subset the tool schemas use (schemas/README.md): type (a name or an array
// of names, "integer" included), properties, required, additionalProperties (bool or schema), items (one
// schema), enum, const, minimum/maximum, minLength, minItems, pattern, anyOf/oneOf/allOf, $ref to
// #/$defs/..., and `default` application for tool input. Each message names the JSON path, what was wrong and
// what is valid.
#pragma once
#include <string>
#include <vector>

#include "core/base/envelope.h"

namespace csift {

struct SchemaIssue {
  std::string path;     // "max_count", "targets[2]", "" for the root
  std::string message;  // "max_count: expected an integer, got \"abc\""
};

// Checks `instance` against `schema` (the root, against which $ref resolves). Empty when valid.
std::vector<SchemaIssue> validate_json(const json& schema, const json& instance);

// Like validate_json, but first fills every absent object property that declares a `default` (recursively,
// outside anyOf/oneOf alternatives), so a handler sees the full argument set.
std::vector<SchemaIssue> validate_and_apply_defaults(const json& schema, json& instance);

// Resolves `{"$ref": "#/..."}` against root (following chains); other schemas are returned as is.
const json& resolve_schema_ref(const json& root, const json& schema);

}  // namespace csift
