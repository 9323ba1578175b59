// Which images a call is about: the scope's images narrowed by the windows (turn, uuid, since/until), then
// either every distinct image (the listing) or the ones `id` names — where a handle naming more than one
// distinct image is an error listing its occurrences, never a guess.
#pragma once
#include <vector>

#include "core/store/targets.h"
#include "tools/image/image_request.h"
#include "tools/image/image_scan.h"

namespace csift {

// Keeps the occurrences inside the windows. `turn_counts` is per transcript.
std::vector<ImageOccurrence> apply_windows(const std::vector<ImageOccurrence>& all, const ImageRequest& req,
                                           const std::vector<int>& turn_counts);

// The images `req.ids` name among `windowed` (throws not_found / usage errors that list what exists).
std::vector<ImageOccurrence> select_by_id(const std::vector<ImageOccurrence>& windowed,
                                          const ImageRequest& req, const Scope& scope);

}  // namespace csift
