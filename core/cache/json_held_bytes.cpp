#include "core/cache/json_held_bytes.h"

#include "core/cache/result_memo.h"

namespace csift {

size_t json_held_bytes(const json& j) {
  size_t n = 0;
  if (j.is_object()) {
    for (const auto& [key, value] : j.items())
      n += sizeof(json) + sizeof(std::string) + held_bytes(key) + json_held_bytes(value);
  } else if (j.is_array()) {
    for (const auto& value : j)
      n += sizeof(json) + json_held_bytes(value);
  } else if (j.is_string()) {
    n += sizeof(std::string) + held_bytes(j.get_ref<const std::string&>());
  }
  return n;
}

}  // namespace csift
