// How `show` reads one transcript (SPEC.md §9.3 "Reading an address"): the searcher's sparse load, told what
// to parse by an address instead of a pattern. The addressed lines, every possible turn opener and line 1 are
// parsed; every other line is checked and remembered by position, and the completions (search_load.h) read
// back the addressed records' tool partners or the addressed turns whole. Everything a record renders comes
// from itself, its tool partners and the turn numbering, so the rendered rows are a full read's
// (tests/mcp/test_show_sparse.py compares them).
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "core/search/search_load.h"

namespace csift {

// What an address names before anything is read: line numbers (a --line address, resolved against the
// file's line count) or record uuids (a --uuid address). A --turn address names no line up front: the load
// numbers the turns, then complete_turns reads the addressed ones.
struct AddressedLines {
  std::vector<LineSpan> lines;  // sorted, disjoint
  std::vector<std::string> uuids;
};

// A sparse load of `t` that parses the addressed lines and every line holding an addressed uuid (a uuid's
// characters are never JSON-escaped, the rule a search needle follows), the possible turn openers and line 1,
// and admits every record type to its completions (an address may name a gated leaf or an attachment).
// nullopt when the transcript is to be read whole: its harness has no byte probes, it has an elicitation
// sidecar to merge (`merge_sidecar`: the merge's ghost guard needs every native tool id), or
// CSIFT_SEARCH_DENSE is set.
std::optional<SearchLoad> load_addressed(const Transcript& t, const AddressedLines& address,
                                         bool merge_sidecar, const CancelToken* cancel);

// The records `load` parsed whose line or uuid `address` names, as the subjects of complete_tool_partners.
std::function<bool(const Record&)> addressed_records(const AddressedLines& address);

}  // namespace csift
