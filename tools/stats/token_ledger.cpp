#include "tools/stats/token_ledger.h"

#include <algorithm>
#include <mutex>
#include <set>
#include <unordered_set>

#include "core/base/timefmt.h"
#include "core/cache/result_memo.h"
#include "core/harness/claude_code/claude_fields.h"
#include "tools/stats/cost.h"

namespace csift {

TokenCounts TokenCounts::of(const Usage& u) {
  return TokenCounts{u.input_tokens, u.output_tokens, u.cache_read_input_tokens,
                     u.cache_creation_input_tokens, u.cache_creation_1h_input_tokens};
}

TokenCounts& TokenCounts::operator+=(const TokenCounts& o) {
  input_tokens += o.input_tokens;
  output_tokens += o.output_tokens;
  cache_read_input_tokens += o.cache_read_input_tokens;
  cache_creation_input_tokens += o.cache_creation_input_tokens;
  cache_creation_1h_input_tokens += o.cache_creation_1h_input_tokens;
  return *this;
}

void TokenCounts::raise_to(const TokenCounts& o) {
  input_tokens = std::max(input_tokens, o.input_tokens);
  output_tokens = std::max(output_tokens, o.output_tokens);
  cache_read_input_tokens = std::max(cache_read_input_tokens, o.cache_read_input_tokens);
  cache_creation_input_tokens = std::max(cache_creation_input_tokens, o.cache_creation_input_tokens);
  cache_creation_1h_input_tokens = std::max(cache_creation_1h_input_tokens, o.cache_creation_1h_input_tokens);
}

// The one-hour share of the cache writes is named only where there is one: most usage writes five-minute
// entries alone, and the field would repeat a zero on every model of every row.
json TokenCounts::to_json() const {
  json out = json::object({{"input_tokens", input_tokens},
                           {"output_tokens", output_tokens},
                           {"cache_read_input_tokens", cache_read_input_tokens},
                           {"cache_creation_input_tokens", cache_creation_input_tokens}});
  if (cache_creation_1h_input_tokens != 0)
    out["cache_creation_1h_input_tokens"] = cache_creation_1h_input_tokens;
  return out;
}

int32_t utc_day_of(const std::string& timestamp) {
  const auto t = parse_iso8601(timestamp);
  if (!t) return kNoDay;
  constexpr EpochMs kDay = 86400000;
  return static_cast<int32_t>(*t >= 0 ? *t / kDay : (*t - kDay + 1) / kDay);
}

std::string utc_day_text(int32_t day) {
  if (day == kNoDay) return "(no timestamp)";
  return format_utc(static_cast<EpochMs>(day) * 86400000).substr(0, 10);
}

const std::string* interned_model(std::string_view model) {
  static std::mutex mu;
  static std::set<std::string, std::less<>>* names = new std::set<std::string, std::less<>>();  // never freed
  // Transcripts name a model per message, mostly the one before: that one is found without the lock.
  thread_local const std::string* last = nullptr;
  if (last != nullptr && *last == model) return last;
  std::lock_guard<std::mutex> lock(mu);
  auto it = names->find(model);
  if (it == names->end()) it = names->emplace(model).first;
  return last = &*it;  // a set never moves its elements
}

const std::string& MessageUsage::model_name() const {
  static const std::string unknown = kUnknownModel;
  return model ? *model : unknown;
}

void TokenLedger::admit(const Record& r) {
  if (!r.message.usage.present) return;
  const TokenCounts counts = TokenCounts::of(r.message.usage);
  const std::string& model = r.message.model;
  if (r.message.id.empty()) {
    without_id_[{model.empty() ? kUnknownModel : model, utc_day_of(r.timestamp)}] += counts;
    return;
  }
  if (index_.size() != messages_.size()) {  // compacted: index the messages again
    index_.clear();
    for (size_t i = 0; i < messages_.size(); ++i)
      index_.emplace(messages_[i].id, static_cast<uint32_t>(i));
  }
  const Hash128 id = stable_hash128(r.message.id);
  const auto [at, added] = index_.emplace(id, static_cast<uint32_t>(messages_.size()));
  if (added) messages_.push_back(MessageUsage{id, {}, nullptr, {}, kNoDay});
  MessageUsage& entry = messages_[at->second];
  if (entry.model == nullptr && !model.empty()) entry.model = interned_model(model);
  if (entry.request == Hash128{}) {
    if (const std::string& request = api_request_id(r); !request.empty())
      entry.request = stable_hash128(request);
  }
  if (entry.day == kNoDay) entry.day = utc_day_of(r.timestamp);
  entry.max.raise_to(counts);
}

void TokenLedger::compact() {
  index_ = {};
  messages_.shrink_to_fit();
}

static size_t held_bytes(const ModelDay& k) {
  return held_bytes(k.model);
}

size_t TokenLedger::held_bytes() const {
  const size_t index = index_.bucket_count() * sizeof(void*) +
                       index_.size() * (sizeof(std::pair<const Hash128, uint32_t>) + 16);
  return messages_.capacity() * sizeof(MessageUsage) + index + csift::held_bytes(without_id_);
}

namespace {

// One count into a cost tally: priced, or named with why its harness's usage is never priced.
void cost_one(CostTally& cost, const std::string& model, const TokenCounts& c, bool one_request,
              const std::string& tokens_only) {
  if (tokens_only.empty()) {
    cost.add(model, c, one_request);
  } else {
    cost.add_tokens_only(model, tokens_only);
  }
}

}  // namespace

void TokenLedger::cost_into(CostTally& cost, const std::string& tokens_only) const {
  for (const auto& [key, counts] : without_id_)
    cost_one(cost, key.model, counts, false, tokens_only);
  for (const MessageUsage& usage : messages_)
    cost_one(cost, usage.model_name(), usage.max, true, tokens_only);
}

uint32_t ScopeTokenLedger::project_index(const std::string& project) {
  const auto [it, added] = project_ids_.emplace(project, static_cast<uint32_t>(projects_.size()));
  if (added) projects_.push_back(project);
  return it->second;
}

void ScopeTokenLedger::add(const TokenLedger& transcript, const std::string& project,
                           const std::string& tokens_only) {
  const uint32_t p = project_index(project);
  for (const auto& [key, counts] : transcript.without_id())
    without_id_[{key.model, key.day, p, tokens_only}] += counts;
  for (const MessageUsage& usage : transcript.messages()) {
    Entry& entry = by_api_message_[ApiMessage{usage.id, usage.request}];
    if (entry.usage.model == nullptr) entry.usage.model = usage.model;
    if (entry.usage.day == kNoDay) {
      entry.usage.day = usage.day;
      entry.project = p;
    }
    if (entry.tokens_only.empty()) entry.tokens_only = tokens_only;
    entry.usage.max.raise_to(usage.max);
  }
}

TokensByModel ScopeTokenLedger::totals() const {
  TokensByModel out;
  for (const auto& [key, counts] : without_id_)
    out[std::get<0>(key)] += counts;
  for (const auto& [key, entry] : by_api_message_)
    out[entry.usage.model_name()] += entry.usage.max;
  return out;
}

void ScopeTokenLedger::cost_into(CostTally& cost) const {
  for (const auto& [key, counts] : without_id_)
    cost_one(cost, std::get<0>(key), counts, false, std::get<3>(key));
  for (const auto& [key, entry] : by_api_message_)
    cost_one(cost, entry.usage.model_name(), entry.usage.max, true, entry.tokens_only);
}

// Tallied by the raw group (a day number, a project index) and named once per group at the end: naming
// every API message's day would format a date per message.
template <typename Group, typename Name>
std::map<std::string, double> ScopeTokenLedger::usd_by(Group group, Name name) const {
  std::map<int64_t, CostTally> tallies;
  for (const auto& [k, counts] : without_id_)
    cost_one(tallies[group(std::get<1>(k), std::get<2>(k))], std::get<0>(k), counts, false, std::get<3>(k));
  for (const auto& [k, entry] : by_api_message_) {
    const std::string& model = entry.usage.model_name();
    cost_one(tallies[group(entry.usage.day, entry.project)], model, entry.usage.max, true, entry.tokens_only);
  }
  std::map<std::string, double> out;
  for (const auto& [g, tally] : tallies)
    out[name(g)] = round_usd(tally.usd());
  return out;
}

std::map<std::string, double> ScopeTokenLedger::usd_by_day() const {
  return usd_by([](int32_t day, uint32_t) { return int64_t{day}; },
                [](int64_t day) { return utc_day_text(static_cast<int32_t>(day)); });
}

std::map<std::string, double> ScopeTokenLedger::usd_by_project() const {
  return usd_by([](int32_t, uint32_t project) { return int64_t{project}; },
                [this](int64_t project) { return projects_[static_cast<size_t>(project)]; });
}

std::optional<TokenLedger> TokenLedger::restored(std::vector<MessageUsage> messages,
                                                 TokensByModelDay without_id) {
  TokenLedger l;
  l.without_id_ = std::move(without_id);
  l.messages_ = std::move(messages);
  std::unordered_set<Hash128, Hash128Hasher> ids;
  ids.reserve(l.messages_.size());
  for (const MessageUsage& m : l.messages_)
    if (!ids.insert(m.id).second) return std::nullopt;
  return l;
}

TokensByModel TokenLedger::totals() const {
  TokensByModel out;
  for (const auto& [key, counts] : without_id_)
    out[key.model] += counts;
  for (const MessageUsage& usage : messages_)
    out[usage.model_name()] += usage.max;
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
