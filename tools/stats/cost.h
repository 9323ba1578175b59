// Money for `stats` (SPEC.md §9.4): the price table shipped as data (tools/stats/prices.json, embedded at
// build time) and the cost of counted tokens. Each API message is priced on its own, since whether it pays
// the long-context rates depends on that one request's input; a model the table does not name is never priced
// at a guess: its tokens stay, and the answer says why it has no cost.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "core/base/envelope.h"
#include "tools/stats/token_ledger.h"

namespace csift {

// US dollars per million tokens of each kind.
struct TokenPrice {
  double input = 0, output = 0, cache_write_5m = 0, cache_write_1h = 0, cache_read = 0;
};

struct ModelPrice {
  std::string model;  // the table's name: matches itself and itself + "-YYYYMMDD"
  std::string source, as_published;
  TokenPrice base;
  std::optional<TokenPrice> long_context;  // a request whose input exceeds long_context_above pays these
  int64_t long_context_above = 0;
};

// The entry pricing `model`, or null (never a near match).
const ModelPrice* price_of(const std::string& model);
// Where the table's prices come from, by source name: "<url> (<when taken>)".
json price_sources();
// Why a harness's usage is never priced (its log lacks token kinds a price needs), or "" when it is priced.
const std::string& tokens_only_reason(std::string_view harness);

// The dollars of one priced request; `long_context` says whether its input passed the threshold. A sum of
// several requests (`one_request` false) is priced at the base rates: no one request's size is known.
double request_usd(const ModelPrice& price, const TokenCounts& c, bool* long_context,
                   bool one_request = true);

struct ModelCost {
  double usd = 0;
  bool priced = false;
  uint64_t long_context_messages = 0;
  std::string tokens_only;  // why some of its tokens came from a harness whose usage is never priced
  // The table's entry, looked up once per model of a tally rather than once per API message.
  const ModelPrice* price = nullptr;
  bool looked_up = false;
};

// Costs accumulated per model.
class CostTally {
 public:
  // `one_request`: the tokens of one API message (its long-context rate decided on them); otherwise a sum of
  // records without a message id, priced at the base rates.
  void add(const std::string& model, const TokenCounts& c, bool one_request);
  // Tokens of `model` from a harness whose usage is never priced (tokens_only_reason): named, not priced.
  void add_tokens_only(const std::string& model, const std::string& why);
  double usd() const;
  const std::map<std::string, ModelCost>& models() const { return models_; }
  // model -> dollars, null for a model not priced.
  json by_model_json() const;
  // model -> why it has no cost (models not priced, and priced models some of whose tokens are tokens only).
  json unpriced_json() const;
  uint64_t long_context_messages() const;

 private:
  std::map<std::string, ModelCost> models_;
};

// Dollars rounded to a millionth: sums of per-message doubles carry float noise no reader wants.
double round_usd(double usd);

}  // namespace csift
