// Fuzzes the lexical shell reader behind the Bash mutations (core/mutations/shell_words.h) and the reading of
// a Bash command for the files it changes (core/mutations/bash_mutations.h), on arbitrary command text.
// shell_tokens promises never to fail (unbalanced quotes end at the end of the text). A failure is a
// sanitizer report, an exception, a hang (libFuzzer's timeout), or a word token carrying an operator or an
// operator token with no operator text.
#include "core/mutations/bash_mutations.h"
#include "core/mutations/shell_words.h"
#include "tests/fuzz/fuzz_support.h"

CSIFT_FUZZ_TARGET(shell_words) {
  using namespace csift;
  const std::string command(csift_fuzz::as_text(data, size));
  for (const ShellToken& t : shell_tokens(command)) {
    if (t.kind == ShellTokenKind::word)
      FUZZ_CHECK(t.op.empty(), "a word token with operator text");
    else
      FUZZ_CHECK(!t.op.empty(), "an operator token without its operator");
  }
  for (const BashMutation& m : bash_mutations(command, "/work/fuzz"))
    (void)resolution_name(m.resolution);
  return 0;
}
