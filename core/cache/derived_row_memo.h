// A tool's JSON row remembered for the very remembered result it was built from (a `list` probe, a `stats`
// tally): with every such result from memory, rebuilding 1,501 rows was among the largest costs of a warm
// call. The row is kept under an empty stamp and proves its input itself: it holds that result weakly, so
// the memo never keeps it alive, and a result freed since (its address possibly reused) no longer locks and
// cannot be mistaken. Every other input of the row is spelled in the key's variant.
#pragma once
#include <memory>
#include <string>
#include <string_view>

#include "core/base/envelope.h"
#include "core/cache/json_held_bytes.h"
#include "core/cache/result_memo.h"

namespace csift {

template <class Source>
struct DerivedRow {
  std::weak_ptr<const Source> source;
  json row;
};

// build() remembered under (kind, path, variant) for `source`; without a memo, build() itself.
template <class Source, class Build>
json remembered_derived_row(ResultMemo* memo, ResultMemoUse& use, std::string_view kind,
                            const std::string& path, const std::string& variant,
                            const std::shared_ptr<const Source>& source, Build&& build) {
  if (memo == nullptr) return build();
  const std::string key = result_memo_key(kind, path, variant);
  const void* type = result_type_tag<DerivedRow<Source>>();
  if (auto hit =
          std::static_pointer_cast<const DerivedRow<Source>>(memo->find(key, type, FileStamp{}, use.call))) {
    if (hit->source.lock() == source) {
      ++use.hits;
      return hit->row;
    }
  }
  ++use.misses;
  auto made = std::make_shared<DerivedRow<Source>>();
  made->source = source;
  made->row = build();
  memo->remember(key, type, FileStamp{}, made, sizeof(DerivedRow<Source>) + json_held_bytes(made->row),
                 use.call);
  return made->row;
}

// Appends one field of a key's variant, length-prefixed, so no two different field lists spell the same
// variant.
inline void append_variant_field(std::string& out, std::string_view field) {
  out += std::to_string(field.size());
  out += ':';
  out += field;
}

}  // namespace csift
