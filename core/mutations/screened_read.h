// The forward read both mutation scans (files' and recover's) make of one transcript.
#pragma once
#include <functional>
#include <string>
#include <string_view>
#include <unordered_set>

#include "core/base/cancel.h"
#include "core/record/transcript_reader.h"

namespace csift {

// Reads `t` front to back on the calling thread and hands each parsed record to `take`. Where the harness
// offers raw-line probes, a line is parsed only when `admits` accepts its bytes, when it may open a turn (the
// scans number turns), or when it is the result of a call in `pending_ids`. The set is read as the scan fills
// it, which is why the read is sequential.
ReadStats read_screened(const Transcript& t, const std::function<bool(std::string_view)>& admits,
                        const std::unordered_set<std::string>& pending_ids,
                        const std::function<void(Record&&)>& take, const CancelToken* cancel);

}  // namespace csift
