// What a remembered JSON value costs a server's result memo (core/cache/result_memo.h): its nodes and the
// strings they hold, approximately.
#pragma once
#include <cstddef>

#include "core/base/envelope.h"

namespace csift {

size_t json_held_bytes(const json& j);

}  // namespace csift
