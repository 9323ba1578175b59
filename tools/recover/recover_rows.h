// The rows `recover` answers with (SPEC.md §9.13), built from one file's replay: boundary objects, the
// coverage figures every mode carries, and the text of a numbered snapshot with explicit gaps.
#pragma once
#include <string>

#include "core/base/envelope.h"
#include "tools/common/tool.h"
#include "tools/recover/recover_request.h"
#include "tools/recover/recover_scan.h"

namespace csift {

json boundary_json(const ReplayBoundary& b);
// file, known/total lines, covered/missing, counts, boundaries with the hard/soft split, opaque commands and
// the search that inspects them.
json coverage_fields(const char* kind, const FileRecovery& fr, const RecoverRequest& req);
// Known lines numbered, every unknown run one `??? lines A..B unknown` line, within the file_lines window.
std::string numbered_snapshot(const FileBuffer& b, const RecoverRequest& req);
// The bytes restore hands back: the file, or the file_lines window of it. nullopt: a line in it is unknown.
std::optional<std::string> restorable_bytes(const FileBuffer& b, const RecoverRequest& req);
// Why a restore cannot answer: no-history, invalidated or partial.
std::string refusal_reason(const FileRecovery& fr);
std::string refusal_message(const FileRecovery& fr, const std::string& reason);

}  // namespace csift
