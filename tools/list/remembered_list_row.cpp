#include "tools/list/remembered_list_row.h"

#include <string_view>

#include "core/harness/claude_code/claude_code_reader.h"
#include "tools/common/json_held_bytes.h"

namespace csift {
namespace {

// A row and the probe it was built from, held weakly: the memo never keeps a probe alive, and a probe
// freed since (its address possibly reused by a new one) no longer locks, so it cannot be mistaken.
struct ListRowEntry {
  std::weak_ptr<const SessionProbe> probe;
  json row;
};

// Each field length-prefixed, so no two different input sets spell the same variant.
void put_field(std::string& out, std::string_view field) {
  out += std::to_string(field.size());
  out += ':';
  out += field;
}

// Every input of list_row besides the probe and the path (which the key holds).
std::string row_inputs(const ListEntry& e) {
  const Transcript& t = *e.transcript;
  std::string v;
  for (const std::string_view f :
       {std::string_view(t.id), std::string_view(t.harness), std::string_view(t.parent_session_id()),
        std::string_view(t.agent_type), std::string_view(t.description)})
    put_field(v, f);
  put_field(v, t.is_subagent ? "subagent" : "session");
  put_field(v, shape_name(t.shape));
  put_field(v, std::to_string(t.size));
  put_field(v, e.sidecar.present ? "sidecar" : "-");
  put_field(v, std::to_string(e.sidecar.skipped_lines));
  put_field(v, std::to_string(e.sidecar.pending.size()));
  for (const SidecarPending& p : e.sidecar.pending) {
    put_field(v, p.kind);
    put_field(v, p.key);
    put_field(v, p.record.timestamp);
  }
  put_field(v, e.clone_of ? "clone_of" : "-");
  put_field(v, e.clone_of.value_or(""));
  return v;
}

}  // namespace

json remembered_list_row(const ListEntry& entry, ResultMemoUse& use) {
  // A probe the memo does not keep (another harness's, or one that could not read its file) is a new object
  // on every call: a row built from it could never be found again.
  ResultMemo* memo = entry.transcript->harness == kClaudeCodeHarness && entry.probe->error.empty()
                         ? process_result_memo()
                         : nullptr;
  if (memo == nullptr) return list_row(entry);
  const std::string key = result_memo_key("list-row", entry.transcript->path, row_inputs(entry));
  const void* type = result_type_tag<ListRowEntry>();
  if (auto hit = std::static_pointer_cast<const ListRowEntry>(memo->find(key, type, FileStamp{}))) {
    if (hit->probe.lock() == entry.probe) {
      ++use.hits;
      return hit->row;
    }
  }
  ++use.misses;
  auto made = std::make_shared<ListRowEntry>();
  made->probe = entry.probe;
  made->row = list_row(entry);
  memo->remember(key, type, FileStamp{}, made, sizeof(ListRowEntry) + json_held_bytes(made->row));
  return made->row;
}

}  // namespace csift
