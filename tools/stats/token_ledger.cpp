#include "tools/stats/token_ledger.h"

#include <algorithm>

#include "core/harness/claude_code/claude_fields.h"

namespace csift {

TokenCounts TokenCounts::of(const Usage& u) {
  return TokenCounts{u.input_tokens, u.output_tokens, u.cache_read_input_tokens,
                     u.cache_creation_input_tokens};
}

TokenCounts& TokenCounts::operator+=(const TokenCounts& o) {
  input_tokens += o.input_tokens;
  output_tokens += o.output_tokens;
  cache_read_input_tokens += o.cache_read_input_tokens;
  cache_creation_input_tokens += o.cache_creation_input_tokens;
  return *this;
}

void TokenCounts::raise_to(const TokenCounts& o) {
  input_tokens = std::max(input_tokens, o.input_tokens);
  output_tokens = std::max(output_tokens, o.output_tokens);
  cache_read_input_tokens = std::max(cache_read_input_tokens, o.cache_read_input_tokens);
  cache_creation_input_tokens = std::max(cache_creation_input_tokens, o.cache_creation_input_tokens);
}

json TokenCounts::to_json() const {
  return json::object({{"input_tokens", input_tokens},
                       {"output_tokens", output_tokens},
                       {"cache_read_input_tokens", cache_read_input_tokens},
                       {"cache_creation_input_tokens", cache_creation_input_tokens}});
}

void TokenLedger::admit(const Record& r) {
  if (!r.message.usage.present) return;
  const TokenCounts counts = TokenCounts::of(r.message.usage);
  const std::string& model = r.message.model;
  if (r.message.id.empty()) {
    without_id_[model.empty() ? kUnknownModel : model] += counts;
    return;
  }
  MessageUsage& entry = by_message_id_[r.message.id];
  if (entry.model.empty()) entry.model = model;
  if (entry.request_id.empty()) entry.request_id = api_request_id(r);
  entry.max.raise_to(counts);
}

void ScopeTokenLedger::add(const TokenLedger& transcript) {
  add_tokens(without_id_, transcript.without_id());
  for (const auto& [id, usage] : transcript.messages()) {
    MessageUsage& entry = by_api_message_[id + '\n' + usage.request_id];
    if (entry.model.empty()) entry.model = usage.model;
    entry.max.raise_to(usage.max);
  }
}

TokensByModel ScopeTokenLedger::totals() const {
  TokensByModel out = without_id_;
  for (const auto& [key, usage] : by_api_message_)
    out[usage.model.empty() ? kUnknownModel : usage.model] += usage.max;
  return out;
}

TokensByModel TokenLedger::totals() const {
  TokensByModel out = without_id_;
  for (const auto& [id, usage] : by_message_id_)
    out[usage.model.empty() ? kUnknownModel : usage.model] += usage.max;
  return out;
}

void add_tokens(TokensByModel& into, const TokensByModel& from) {
  for (const auto& [model, counts] : from)
    into[model] += counts;
}

json tokens_json(const TokensByModel& tokens) {
  json out = json::object();
  for (const auto& [model, counts] : tokens)
    out[model] = counts.to_json();
  return out;
}

}  // namespace csift
