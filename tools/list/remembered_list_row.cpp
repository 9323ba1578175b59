#include "tools/list/remembered_list_row.h"

#include "core/cache/derived_row_memo.h"
#include "core/harness/claude_code/claude_code_reader.h"

namespace csift {
namespace {

// Every input of list_row besides the probe and the path (which the key holds).
std::string row_inputs(const ListEntry& e) {
  const Transcript& t = *e.transcript;
  std::string v;
  for (const std::string_view f :
       {std::string_view(t.id), harness_name(t.harness), std::string_view(t.parent_session_id()),
        std::string_view(t.agent_type()), std::string_view(t.description())})
    append_variant_field(v, f);
  append_variant_field(v, t.is_subagent ? "subagent" : "session");
  append_variant_field(v, shape_name(t.shape));
  append_variant_field(v, std::to_string(t.size));
  append_variant_field(v, e.sidecar.present ? "sidecar" : "-");
  append_variant_field(v, std::to_string(e.sidecar.skipped_lines));
  append_variant_field(v, std::to_string(e.sidecar.pending.size()));
  for (const SidecarPending& p : e.sidecar.pending) {
    append_variant_field(v, p.kind);
    append_variant_field(v, p.key);
    append_variant_field(v, p.record.timestamp);
  }
  append_variant_field(v, e.clone_of ? "clone_of" : "-");
  append_variant_field(v, e.clone_of.value_or(""));
  return v;
}

}  // namespace

json remembered_list_row(const ListEntry& entry, ResultMemo* memo, ResultMemoUse& use) {
  // A probe the memo does not keep (another harness's, or one that could not read its file) is a new object
  // on every call: a row built from it could never be found again.
  if (entry.transcript->harness != HarnessId::claude_code || !entry.probe->error.empty()) memo = nullptr;
  if (memo == nullptr) return list_row(entry);
  return remembered_derived_row(memo, use, "list-row", entry.transcript->path, row_inputs(entry), entry.probe,
                                [&entry] { return list_row(entry); });
}

}  // namespace csift
