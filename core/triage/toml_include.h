// toml++ (Debian's libtomlplusplus-dev), header-only, with exceptions so a parse error carries its position.
// Its headers are included through a SYSTEM include path (CMakeLists.txt), so its own warnings stay its own.
#pragma once
#define TOML_EXCEPTIONS 1
#include <toml++/toml.h>
