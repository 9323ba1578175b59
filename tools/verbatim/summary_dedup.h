// What the newest compaction summary already quotes (SPEC.md §9.8 dedup): the bullets of its "All user
// messages" section and the quotes of its "Optional Next Step" section. A live-region unit whose opening
// matches one is flagged `also in summary` and selected after the others — never dropped.
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace csift {

class SummaryQuotes {
 public:
  SummaryQuotes() = default;
  explicit SummaryQuotes(std::string_view summary);
  bool quotes_user(std::string_view text) const { return matches(user_, text); }
  bool quotes_agent(std::string_view text) const { return matches(agent_, text); }
  size_t user_bullets() const { return user_.size(); }
  size_t agent_quotes() const { return agent_.size(); }

 private:
  static bool matches(const std::vector<std::string>& keys, std::string_view text);
  std::vector<std::string> user_;   // comparison keys of the user bullets
  std::vector<std::string> agent_;  // comparison keys of the assistant quotes
};

// The comparison key: ASCII lower-cased, whitespace runs folded, outer quotes and a trailing ellipsis
// dropped, at most 80 bytes.
std::string dedup_key(std::string_view text);

}  // namespace csift
