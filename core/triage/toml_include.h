// toml++ (Debian's libtomlplusplus-dev), header-only, with exceptions so a parse error carries its position.
// Its headers are included through a SYSTEM include path (CMakeLists.txt), so its own warnings stay its own.
#pragma once
#define TOML_EXCEPTIONS 1
// toml++ 3.3.0 asserts invariants its parser does not keep on malformed text: a table header `[#` fails
// parse_key's `is_bare_key_character(*cp) || is_string_delimiter(*cp)`, and the lines after it report the
// parse error a Release build gives (found by tests/fuzz, collect_policy). The assert aborted the sanitizer
// build on such a config file, and in a clang Release build it is an assumption (__builtin_assume: undefined
// behaviour). So the library's asserts and assumptions are off in every build: its parse errors still report.
#define TOML_ASSERT(expr) static_assert(true)
#include <toml++/impl/preprocessor.h>
#undef TOML_ASSERT_ASSUME
#define TOML_ASSERT_ASSUME(expr) static_assert(true)
#undef TOML_ASSUME
#define TOML_ASSUME(...) static_assert(true)
#include <toml++/toml.h>
