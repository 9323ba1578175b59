#include "tools/common/unread_report.h"

namespace csift {

namespace {
constexpr size_t kNamedInNote = 5;
}

void report_unread(Envelope& env, const std::vector<StoreProblem>& unread) {
  json listed = json::array();
  for (size_t i = 0; i < unread.size() && i < kMaxListedUnread; ++i)
    listed.push_back({{"path", unread[i].path}, {"reason", unread[i].reason}});
  env.summary["unread_transcripts"] = std::move(listed);
  env.summary["unread_transcripts_total"] = unread.size();
  if (unread.empty()) return;
  std::string note = "\xE2\x9A\xA0 " + std::to_string(unread.size()) +
                     " transcript(s) in scope were NOT read, so this answer does not cover them:";
  for (size_t i = 0; i < unread.size() && i < kNamedInNote; ++i)
    note += "\n  " + unread[i].path + ": " + unread[i].reason;
  if (unread.size() > kNamedInNote)
    note += "\n  … (+" + std::to_string(unread.size() - kNamedInNote) + " more)";
  env.notes.push_back(std::move(note));
}

}  // namespace csift
