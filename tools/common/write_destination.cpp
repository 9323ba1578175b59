#include "tools/common/write_destination.h"

#include "core/base/arg_ref.h"

namespace csift {
namespace fs = std::filesystem;

fs::path clean_absolute_path(const std::string& p) {
  std::error_code ec;
  fs::path abs = fs::weakly_canonical(fs::absolute(p, ec), ec);
  return abs.empty() ? fs::absolute(p).lexically_normal() : abs;
}

std::string store_write_refusal(const std::string& arg, const std::string& given, const fs::path& dest,
                                const std::string& claude_home) {
  if (claude_home.empty()) return {};
  const fs::path home = clean_absolute_path(claude_home);
  const auto rel = dest.lexically_relative(home);
  const bool within = dest == home || (!rel.empty() && *rel.begin() != "..");
  if (!within) return {};
  return arg_ref(arg) + " " + given + " lies inside the Claude Code store (" + home.string() +
         "); csift-mcp never writes there: name a path outside it";
}

}  // namespace csift
