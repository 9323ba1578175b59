#include "tools/stats/cost.h"

#include <cmath>
#include <string_view>
#include <vector>

namespace csift {

std::string_view embedded_prices();  // generated from tools/stats/prices.json (embed_prices.cmake)

namespace {

struct PriceTable {
  std::vector<ModelPrice> models;
  json sources = json::object();
  json not_priced = json::object();
  std::map<std::string, std::string, std::less<>> tokens_only;  // harness -> why its usage is never priced
};

// OpenAI and Google publish no cache-write price and their harnesses record no cache writes: an entry may
// omit the two write kinds (none to pay). Input, output and cache reads every entry names.
TokenPrice token_price(const json& j) {
  return TokenPrice{j.at("input").get<double>(), j.at("output").get<double>(), j.value("cache_write_5m", 0.0),
                    j.value("cache_write_1h", 0.0), j.at("cache_read").get<double>()};
}

const PriceTable& price_table() {
  static const PriceTable table = [] {
    PriceTable t;
    const json j = json::parse(embedded_prices());
    for (const auto& [name, s] : j.at("sources").items())
      t.sources[name] = s.at("url").get<std::string>() + " (" + s.at("taken").get<std::string>() + ")";
    t.not_priced = j.value("not_priced", json::object());
    const json tokens_only = j.value("tokens_only_harnesses", json::object());
    for (const auto& [harness, why] : tokens_only.items())
      t.tokens_only[harness] = why.get<std::string>();
    for (const json& m : j.at("models")) {
      ModelPrice p;
      p.model = m.at("model").get<std::string>();
      p.source = m.at("source").get<std::string>();
      p.as_published = m.at("as_published").get<std::string>();
      p.base = token_price(m);
      if (m.contains("long_context")) {
        p.long_context = token_price(m["long_context"]);
        p.long_context_above = m["long_context"].at("above_input_tokens").get<int64_t>();
      }
      t.models.push_back(std::move(p));
    }
    return t;
  }();
  return table;
}

// "name" or "name-YYYYMMDD": a snapshot of the named model. claude-opus-4 must not price claude-opus-4-1.
bool names_model(const std::string& entry, const std::string& model) {
  if (model == entry) return true;
  if (model.size() != entry.size() + 9 || model.compare(0, entry.size(), entry) != 0) return false;
  if (model[entry.size()] != '-') return false;
  for (size_t i = entry.size() + 1; i < model.size(); ++i) {
    if (model[i] < '0' || model[i] > '9') return false;
  }
  return true;
}

}  // namespace

const ModelPrice* price_of(const std::string& model) {
  for (const ModelPrice& p : price_table().models) {
    if (names_model(p.model, model)) return &p;
  }
  return nullptr;
}

json price_sources() {
  return price_table().sources;
}

const std::string& tokens_only_reason(std::string_view harness) {
  static const std::string kPriced;
  const auto& reasons = price_table().tokens_only;
  const auto it = reasons.find(harness);
  return it == reasons.end() ? kPriced : it->second;
}

double request_usd(const ModelPrice& price, const TokenCounts& c, bool* long_context, bool one_request) {
  const int64_t prompt = c.input_tokens + c.cache_read_input_tokens + c.cache_creation_input_tokens;
  const bool lc = one_request && price.long_context && prompt > price.long_context_above;
  if (long_context) *long_context = lc;
  const TokenPrice& p = lc ? *price.long_context : price.base;
  const int64_t write_1h = c.cache_creation_1h_input_tokens;
  const int64_t write_5m = std::max<int64_t>(0, c.cache_creation_input_tokens - write_1h);
  return (c.input_tokens * p.input + c.output_tokens * p.output + write_5m * p.cache_write_5m +
          write_1h * p.cache_write_1h + c.cache_read_input_tokens * p.cache_read) /
         1e6;
}

void CostTally::add(const std::string& model, const TokenCounts& c, bool one_request) {
  ModelCost& m = models_[model];
  if (!m.looked_up) {
    m.price = price_of(model);
    m.looked_up = true;
  }
  if (m.price == nullptr) return;
  m.priced = true;
  bool lc = false;
  m.usd += request_usd(*m.price, c, &lc, one_request);
  if (lc) ++m.long_context_messages;
}

void CostTally::add_tokens_only(const std::string& model, const std::string& why) {
  models_[model].tokens_only = why;
}

double CostTally::usd() const {
  double sum = 0;
  for (const auto& [model, m] : models_)
    sum += m.usd;
  return sum;
}

uint64_t CostTally::long_context_messages() const {
  uint64_t n = 0;
  for (const auto& [model, m] : models_)
    n += m.long_context_messages;
  return n;
}

json CostTally::by_model_json() const {
  json out = json::object();
  for (const auto& [model, m] : models_)
    out[model] = m.priced ? json(round_usd(m.usd)) : json(nullptr);
  return out;
}

json CostTally::unpriced_json() const {
  json out = json::object();
  const json& reasons = price_table().not_priced;
  for (const auto& [model, m] : models_) {
    if (!m.tokens_only.empty()) {
      out[model] = m.priced ? "partly priced: " + m.tokens_only : m.tokens_only;
      continue;
    }
    if (m.priced) continue;
    out[model] = reasons.contains(model)
                     ? reasons[model]
                     : json("not in the price table: tokens only, never priced at a guess");
  }
  return out;
}

double round_usd(double usd) {
  return std::round(usd * 1e6) / 1e6;
}

}  // namespace csift
