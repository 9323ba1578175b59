// Internal pieces of the search scan (one transcript at a time), shared by search_scan.cpp, search_load.cpp
// and search_persisted.cpp.
#pragma once
#include <optional>
#include <string>

#include "tools/search_prefilter.h"
#include "tools/search_types.h"

namespace csift {

bool has_sidecar(const Transcript& t);
ClassifiedTranscript load_for_search(const Transcript& t, const SearchPrefilter& pf,
                                     const CancelToken* cancel);

// --resolve-persisted: the content of the file a <persisted-output> tool result points at, or nullopt with
// `*note` saying why it could not be read. Only called for a unit whose text carries the pointer.
std::optional<std::string> resolve_persisted_output(const Record& r, const Unit& u,
                                                    const std::string& projects_root, std::string* note);

// The labels of a unit that survive -t/-T and the gates (gated leaves need an explicit selector,
// attachments the --attachments gate); richest first. `ignore_filter`: only the gates apply (diagnosis).
std::vector<Label> surviving_labels(const SearchRequest& req, const Unit& u, bool ignore_filter);

}  // namespace csift
