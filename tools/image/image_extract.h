// `image` with `out`: writes the selected images. A directory (or a path without an image extension) gets
// each image's source bytes, auto-named; a path ending .png/.jpg/.jpeg/.gif/.webp gets the one selected image
// in that format, converted when the source differs. Never writes under the transcript store.
#pragma once
#include <string>
#include <vector>

#include "core/base/envelope.h"
#include "core/store/targets.h"
#include "tools/image/image_scan.h"

namespace csift {

// One `extract` row per image (a failure is a row with `error`, never a wrong file). Throws ToolError(usage)
// for an out path the call cannot use (under the store, a file for several images).
std::vector<json> extract_images(const std::vector<ImageOccurrence>& selected, const Scope& scope,
                                 const std::string& out);

}  // namespace csift
