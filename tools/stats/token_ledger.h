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

// One transcript's ledger: admit its records in any order, then read the deduped totals.
class TokenLedger {
 public:
  // Ignores records without `message.usage`.
  void admit(const Record& r);
  TokensByModel totals() const;

 private:
  struct MessageUsage {
    std::string model;  // the first non-empty model seen for the id
    TokenCounts max;
  };
  std::unordered_map<std::string, MessageUsage> by_message_id_;
  TokensByModel without_id_;
};

// Adds every model's counts of `from` into `into` (scope totals sum rows; they never dedupe across files).
void add_tokens(TokensByModel& into, const TokensByModel& from);
json tokens_json(const TokensByModel& tokens);

}  // namespace csift
