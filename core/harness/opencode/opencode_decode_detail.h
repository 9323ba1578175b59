// Helpers the OpenCode line decoders share (opencode_decode_v1.cpp, opencode_decode_v2.cpp,
// opencode_outcome.cpp). Internal to this folder.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "core/harness/opencode/opencode_fields.h"

namespace csift::opencode_detail {

using json = nlohmann::json;

const json* member(const json& obj, const char* key);
std::string str(const json& obj, const char* key);
// obj[key] as an integer (a whole double counts: OpenCode may write 1.0); nullopt otherwise.
std::optional<int64_t> whole(const json& obj, const char* key);
// An absolute path, or "" (a relative recorded directory is ignored, as if not recorded).
std::string absolute_or_empty(const std::string& p);
// ISO-8601 UTC of epoch milliseconds at obj.time.<key>, "" when absent.
std::string time_at(const json& obj, const char* key);
std::string iso_of_ms(int64_t ms);
// Usage from an OpenCode `tokens` object {input, output, reasoning, cache: {read, write}}.
void read_tokens(const json& tokens, Record& r, OpenCodeFields& f);
// A JSON value as raw text (a string stays quoted: it is JSON).
std::string raw(const json& v);

// Tool status rules (opencode_outcome.cpp).
OpenCodeToolOutcome v1_tool_outcome(const json& part);
OpenCodeToolOutcome v2_tool_outcome(const json& content);

// Appends a tool call and, when it finished, its result to r's blocks and the outcome to f.
void push_tool(Record& r, OpenCodeFields& f, OpenCodeToolOutcome outcome, const json* input,
               std::string result_text);

bool decode_v1(const json& line, Record& r, std::string& error);
bool decode_v2(const json& line, Record& r, std::string& error);

}  // namespace csift::opencode_detail
