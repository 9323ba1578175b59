// Token accounting for `stats` (SPEC.md §9.4, v0.9.2 ②). Claude Code writes one line per content block and
// repeats the API message's identical `usage` on each, so summing per record over-reads 2-3.5x. Within one
// file, usage is counted once per `message.id`, taking each field's MAX over the id's admitted records (a
// compaction replay re-writes an id with zeroed usage); a record without an id counts on its own.
#pragma once
#include <climits>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "core/base/envelope.h"
#include "core/cache/disk_cache.h"
#include "core/record/record.h"

namespace csift {

class CostTally;

struct TokenCounts {
  int64_t input_tokens = 0;
  int64_t output_tokens = 0;
  int64_t cache_read_input_tokens = 0;
  int64_t cache_creation_input_tokens = 0;
  int64_t cache_creation_1h_input_tokens = 0;  // of cache_creation_input_tokens, the one-hour writes

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

// A UTC calendar day as days since 1970-01-01; kNoDay when a record has no readable timestamp.
inline constexpr int32_t kNoDay = INT32_MIN;
int32_t utc_day_of(const std::string& timestamp);
std::string utc_day_text(int32_t day);  // YYYY-MM-DD, or "(no timestamp)"

// A model name held once per process: a ledger names thousands of messages' models, a few distinct names.
// Never freed (the names a store's transcripts spell).
const std::string* interned_model(std::string_view model);

// One API message's usage as one transcript counted it (the max over its records). The message and its
// request are known by 128-bit hashes of their ids: as strings, with the model's, they were two thirds of a
// remembered tally's bytes (~300 of them per message; a ledger entry is now 88).
struct MessageUsage {
  Hash128 id;
  Hash128 request;                     // of the first non-empty request id seen for the id; {}: none yet
  const std::string* model = nullptr;  // the first non-empty model seen for the id (interned); nullptr: none
  TokenCounts max;
  int32_t day = kNoDay;  // the UTC day of the first record with a timestamp (the cost per day)

  const std::string& model_name() const;  // the model, or kUnknownModel
};

// Usage of records without a message id, summed per model and UTC day.
struct ModelDay {
  std::string model;
  int32_t day = kNoDay;
  auto operator<=>(const ModelDay&) const = default;
};
using TokensByModelDay = std::map<ModelDay, TokenCounts>;

// Counts hold no bytes beyond the object (for a memo's held_bytes, core/cache/result_memo.h, which finds it
// by argument-dependent lookup).
inline size_t held_bytes(const TokenCounts&) {
  return 0;
}

// One transcript's ledger: admit its records in any order, then read the deduped totals.
class TokenLedger {
 public:
  // Ignores records without `message.usage`.
  void admit(const Record& r);
  TokensByModel totals() const;
  // The per-message entries, in the order their ids were first admitted, and the summed usage of records
  // without an id.
  const std::vector<MessageUsage>& messages() const { return messages_; }
  const TokensByModelDay& without_id() const { return without_id_; }
  // The dollars of these tokens: each message priced on its own (cost.h). A non-empty `tokens_only` (the
  // transcript's harness logs no token kinds a price needs, cost.h's tokens_only_reason) names every model
  // with that reason instead.
  void cost_into(CostTally& cost, const std::string& tokens_only = {}) const;
  // A ledger as the disk cache keeps it (tools/stats/remembered_tally.cpp): its messages in order (costs are
  // summed in that order, and a float sum depends on it). nullopt when two messages share an id.
  static std::optional<TokenLedger> restored(std::vector<MessageUsage> messages, TokensByModelDay without_id);
  // Drops what only admitting needs (the id index, rebuilt by the next admit) and spare capacity: a ledger
  // kept in a memo is only read.
  void compact();
  // The bytes it holds beyond its own object (a memo's cost).
  size_t held_bytes() const;

 private:
  std::vector<MessageUsage> messages_;
  std::unordered_map<Hash128, uint32_t, Hash128Hasher> index_;  // id -> position in messages_ (admitting)
  TokensByModelDay without_id_;
};

// The scope's tokens counted once per API message across transcripts (SPEC.md §9.4): a copied or forked
// session repeats another's records, message ids and request ids, and summing rows would count them twice.
// Keyed by message id + request id; each field keeps its max over every transcript's count of the message.
// Each message keeps the UTC day and the project of the first transcript that added it, for the cost per day
// and per project.
class ScopeTokenLedger {
 public:
  // `tokens_only`: as TokenLedger::cost_into's, for every message this transcript adds.
  void add(const TokenLedger& transcript, const std::string& project, const std::string& tokens_only = {});
  TokensByModel totals() const;
  void cost_into(CostTally& cost) const;
  // Dollars per UTC day and per project (models the table prices; the others are in tokens only).
  std::map<std::string, double> usd_by_day() const;
  std::map<std::string, double> usd_by_project() const;

 private:
  struct Entry {
    MessageUsage usage;
    uint32_t project = 0;
    std::string tokens_only;
  };
  // An API message across transcripts: its id and its request id (the hashes MessageUsage holds).
  struct ApiMessage {
    Hash128 id, request;
    bool operator==(const ApiMessage&) const = default;
  };
  struct ApiMessageHasher {
    size_t operator()(const ApiMessage& m) const {
      return Hash128Hasher{}(m.id) ^ (Hash128Hasher{}(m.request) << 1);
    }
  };
  uint32_t project_index(const std::string& project);
  template <typename Group, typename Name>
  std::map<std::string, double> usd_by(Group group, Name name) const;
  std::unordered_map<ApiMessage, Entry, ApiMessageHasher> by_api_message_;
  // model, day, project, tokens-only reason.
  std::map<std::tuple<std::string, int32_t, uint32_t, std::string>, TokenCounts> without_id_;
  std::vector<std::string> projects_;
  std::unordered_map<std::string, uint32_t> project_ids_;
};

// Adds every model's counts of `from` into `into` (scope totals sum rows; they never dedupe across files).
void add_tokens(TokensByModel& into, const TokensByModel& from);
json tokens_json(const TokensByModel& tokens);

}  // namespace csift
