// The `regex` and `glob` path filters of `files`: both match the full path and are ANDed. A glob's `*` and
// `?` stay inside one path component, `**` crosses `/` (and a Windows path's `\`), `[...]` is a class. An
// invalid pattern is a usage error naming the argument.
#pragma once
#include <memory>
#include <optional>
#include <string>

#include "core/base/envelope.h"
#include "core/regex/regex.h"

namespace csift {

bool glob_matches(std::string_view pattern, std::string_view path);

class PathFilter {
 public:
  // Reads `regex` and `glob` from args (either may be absent).
  static PathFilter from_args(const json& args);
  bool active() const { return regex_ != nullptr || glob_.has_value(); }
  // Thread-safe: each call runs its own matcher.
  bool admits(const std::string& path) const;

 private:
  std::shared_ptr<const CompiledPattern> regex_;
  std::optional<std::string> glob_;
};

}  // namespace csift
