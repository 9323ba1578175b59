// Token accounting for `stats` (SPEC.md §9.4, v0.9.2 ②). Claude Code writes one line per content block and
// repeats the API message's identical `usage` on each, so summing per record over-reads 2-3.5x. Within one
// file, usage is counted once per `message.id`, taking each field's MAX over the id's admitted records (a
// compaction replay re-writes an id with zeroed usage); a record without an id counts on its own.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>

#include "core/base/envelope.h"
#include "core/record/record.h"

namespace csift {

struct TokenCounts {
  int64_t input_tokens = 0;
  int64_t output_tokens = 0;
  int64_t cache_read_input_tokens = 0;
  int64_t cache_creation_input_tokens = 0;

  static TokenCounts of(const Usage& u);
  TokenCounts& operator+=(const TokenCounts& o);
  void raise_to(const TokenCounts& o);  // per-field max
  bool operator==(const TokenCounts&) const = default;
  json to_json() const;
};

// Per-model token totals; models sort by name.
using TokensByModel = std::map<std::string, TokenCounts>;

// The model name recorded for usage with no `message.model`.
inline constexpr const char* kUnknownModel = "(unknown)";

// One API message's usage as one transcript counted it (the max over its records).
struct MessageUsage {
  std::string model;       // the first non-empty model seen for the id
  std::string request_id;  // the first non-empty request id seen for the id
  TokenCounts max;
};

// One transcript's ledger: admit its records in any order, then read the deduped totals.
class TokenLedger {
 public:
  // Ignores records without `message.usage`.
  void admit(const Record& r);
  TokensByModel totals() const;
  // The per-message entries (message id -> usage) and the summed usage of records without an id.
  const std::unordered_map<std::string, MessageUsage>& messages() const { return by_message_id_; }
  const TokensByModel& without_id() const { return without_id_; }

 private:
  std::unordered_map<std::string, MessageUsage> by_message_id_;
  TokensByModel without_id_;
};

// The scope's tokens counted once per API message across transcripts (SPEC.md §9.4): a copied or forked
// session repeats another's records, message ids and request ids, and summing rows would count them twice.
// Keyed by message id + request id; each field keeps its max over every transcript's count of the message.
class ScopeTokenLedger {
 public:
  void add(const TokenLedger& transcript);
  TokensByModel totals() const;

 private:
  std::unordered_map<std::string, MessageUsage> by_api_message_;
  TokensByModel without_id_;
};

// Adds every model's counts of `from` into `into` (scope totals sum rows; they never dedupe across files).
void add_tokens(TokensByModel& into, const TokensByModel& from);
json tokens_json(const TokensByModel& tokens);

}  // namespace csift
