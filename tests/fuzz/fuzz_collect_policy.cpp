// Fuzzes the TOML collection policy (core/triage/collection_policy.h): the input is the user's config file
// text, parsed by parse_collect_policy (toml++ underneath), and a policy that parses is asked about a few
// directories and encoded Claude Code project names. A failure is a sanitizer report, or an exception other
// than the documented ToolError(usage) naming the file escaping the parse or a check.
#include "core/base/error.h"
#include "core/triage/collection_policy.h"
#include "tests/fuzz/fuzz_support.h"

CSIFT_FUZZ_TARGET(collect_policy) {
  using namespace csift;
  const std::string_view s = csift_fuzz::as_text(data, size);
  Environment env;
  env.vars["HOME"] = "/nonexistent-fuzz-home";
  env.cwd = "/";
  CollectPolicy policy;
  try {
    policy = parse_collect_policy(s, "/fuzz/config.toml", env);
  } catch (const ToolError& e) {
    FUZZ_CHECK(e.kind() == ErrorKind::usage, std::string("parse failed otherwise than usage: ") + e.what());
    return 0;
  }
  (void)policy.restricts_paths();
  for (const std::string& entry : policy.deny_paths)
    (void)path_within("/nonexistent-fuzz/a/b", entry);
  for (const std::string& entry : policy.opt_in_paths)
    (void)path_within(entry, entry);
  (void)check_directories(policy, {"/nonexistent-fuzz/a/b", "/"});
  (void)check_claude_encoded_dir(policy, "-nonexistent-fuzz-a-b");
  (void)check_claude_encoded_dir(policy, "");
  return 0;
}
