#include "core/search/addressed_load.h"

#include <algorithm>
#include <memory>
#include <unordered_set>

namespace csift {

std::optional<SearchLoad> load_addressed(const Transcript& t, const AddressedLines& address,
                                         bool merge_sidecar, const CancelToken* cancel) {
  const RawLineProbes* probes = reader_for(t).raw_probes();
  if (!probes || dense_forced() || (merge_sidecar && has_sidecar(t))) return std::nullopt;
  ReadOptions options;
  options.cancel = cancel;
  options.parse_first_line = true;
  options.parse_lines = address.lines;
  options.want = [probes, uuids = address.uuids](std::string_view line) {
    return probes->may_open_turn(line) || std::any_of(uuids.begin(), uuids.end(), [&](const std::string& u) {
             return line.find(u) != std::string_view::npos;
           });
  };
  return read_sparse(t, std::move(options), [](std::string_view) { return true; });
}

std::function<bool(const Record&)> addressed_records(const AddressedLines& address) {
  auto uuids = std::make_shared<std::unordered_set<std::string>>(address.uuids.begin(), address.uuids.end());
  return [lines = address.lines, uuids](const Record& r) {
    return in_spans(lines, r.line) || uuids->count(r.uuid);
  };
}

}  // namespace csift
