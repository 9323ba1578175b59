// The classified transcript a rendered show selects from (SPEC.md §9.3 "Reading an address"): the
// searcher's sparse load of what the address names (core/search/addressed_load.h) when the address names a
// small part of the file, the whole file otherwise.
#pragma once
#include "core/cache/result_memo.h"
#include "core/store/classified_transcript.h"
#include "tools/show/show_request.h"

namespace csift {

// `memo`: the call's result memo (the line count a --line address resolves against is remembered there).
// The sidecar is merged as the full read merges it (a session with one is read whole).
ClassifiedTranscript load_for_show(const ShowRequest& req, const Transcript& t, ResultMemo* memo,
                                   const CancelToken* cancel, ResultMemoUse& use);

// What `show --raw --uuid` looks among for the addressed records' lines: a sparse load of the lines holding
// an addressed uuid when the transcript allows one (the sidecar is not merged), the whole file otherwise.
ClassifiedTranscript load_uuid_records(const ShowRequest& req, const Transcript& t,
                                       const CancelToken* cancel);

}  // namespace csift
