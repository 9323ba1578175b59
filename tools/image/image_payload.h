// Reads one image's payload back from its transcript line and decodes it: the base64 text exactly as the
// record holds it and the bytes it decodes to. A payload that is not base64 is an error, never a file.
#pragma once
#include <string>

#include "core/store/store.h"
#include "tools/image/image_scan.h"

namespace csift {

struct ImagePayload {
  std::string base64;  // the source.data text, JSON escapes resolved
  std::string bytes;   // its decoding
};

// Throws ToolError(failure) naming the image and what went wrong (unreadable line, no inline data, bad
// base64).
ImagePayload read_image_payload(const Transcript& t, const ImageOccurrence& image);

}  // namespace csift
