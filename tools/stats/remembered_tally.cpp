#include "tools/stats/remembered_tally.h"

#include <cstring>
#include <unordered_map>

#include "core/harness/claude_code/claude_code_reader.h"
#include "tools/stats/stats_fold.h"

namespace csift {

namespace {

constexpr ResultKind<ResumableTally> kTallyKind{"stats-tally"};

std::string optional_number(const std::optional<int64_t>& v) {
  return v ? std::to_string(*v) : std::string("-");
}

void encode_counts(BlobWriter& w, const TokenCounts& c) {
  for (const int64_t v : {c.input_tokens, c.output_tokens, c.cache_read_input_tokens,
                          c.cache_creation_input_tokens, c.cache_creation_1h_input_tokens})
    w.i64(v);
}

TokenCounts decode_counts(BlobReader& r) {
  TokenCounts c;
  for (int64_t* v : {&c.input_tokens, &c.output_tokens, &c.cache_read_input_tokens,
                     &c.cache_creation_input_tokens, &c.cache_creation_1h_input_tokens})
    *v = r.i64();
  return c;
}

void encode_names(BlobWriter& w, const CountByName& m) {
  w.u64(m.size());
  for (const auto& [name, n] : m) {
    w.str(name);
    w.u64(n);
  }
}

CountByName decode_names(BlobReader& r) {
  CountByName m;
  for (uint64_t n = r.count(); n > 0 && r.ok(); --n) {
    std::string name = r.str();
    m[std::move(name)] = r.u64();
  }
  return m;
}

int32_t decode_day(BlobReader& r) {
  const int64_t d = r.i64();
  return static_cast<int32_t>(d);
}

// tally_resumable(t, window) through the disk cache: an unbounded window's tally (without its fold) while
// the file's stamp is the one it was read under; else tallied, and queued for the disk when the read had no
// error, was not cancelled, and the stamp was settled and held through the read.
Vouched<ResumableTally> tally_through_disk(DiskCache* disk, const Transcript& t, const std::string& key,
                                           const std::optional<FileStamp>& stamp, const StatsWindow& window,
                                           const CancelToken* cancel, bool keep_fold, DiskCacheUse& use) {
  if (disk == nullptr || !stamp) return {tally_resumable(t, window, cancel, keep_fold), {}};
  if (auto tally = disk_recall(disk, kDiskTallyKind, key, *stamp, &use, decode_tally)) {
    ResumableTally r;
    r.tally = std::move(*tally);
    return {std::move(r), stamp};
  }
  ResumableTally r = tally_resumable(t, window, cancel, keep_fold);
  if (r.tally.error.empty() && !(cancel && cancel->is_cancelled()))
    disk_keep(disk, kDiskTallyKind, key, t.path, *stamp, use, [&] { return encode_tally(r.tally); });
  return {std::move(r), {}};
}

}  // namespace

std::string encode_tally(const TranscriptTally& t) {
  BlobWriter w;
  for (const uint64_t v : {t.lines, t.skipped_lines, t.values_out_of_range, t.bytes})
    w.u64(v);
  encode_names(w, t.line_types);
  for (const uint64_t v : {t.user_records, t.assistant_records, t.compactions})
    w.u64(v);
  w.i64(t.turns);
  w.str(t.first_timestamp);
  w.str(t.last_timestamp);
  w.u64(t.tokens.size());
  for (const auto& [model, c] : t.tokens) {
    w.str(model);
    encode_counts(w, c);
  }
  encode_names(w, t.narration_blocks);
  encode_names(w, t.unknown_thinking_tags);
  encode_names(w, t.tools);
  w.boolean(t.harness_cost_usd.has_value());
  if (t.harness_cost_usd) {
    uint64_t bits;
    std::memcpy(&bits, &*t.harness_cost_usd, sizeof bits);
    w.u64(bits);
  }
  // Sorted hashes: each as its distance from the one before (modulo 2^64, so any order decodes exactly).
  w.u64(t.record_keys.size());
  uint64_t prev = 0;
  for (const uint64_t k : t.record_keys) {
    w.u64(k - prev);
    prev = k;
  }
  const TokensByModelDay& without = t.ledger.without_id();
  w.u64(without.size());
  for (const auto& [key, c] : without) {
    w.str(key.model);
    w.i64(key.day);
    encode_counts(w, c);
  }
  // The models once each; a message names its model by its place there, plus one (0: none).
  std::vector<const std::string*> models;
  std::unordered_map<const std::string*, uint64_t> model_at;
  for (const MessageUsage& u : t.ledger.messages())
    if (u.model && model_at.emplace(u.model, models.size() + 1).second) models.push_back(u.model);
  w.u64(models.size());
  for (const std::string* m : models)
    w.str(*m);
  w.u64(t.ledger.messages().size());
  for (const MessageUsage& u : t.ledger.messages()) {
    w.hash128(u.id);
    w.hash128(u.request);
    w.u64(u.model ? model_at[u.model] : 0);
    encode_counts(w, u.max);
    w.i64(u.day);
  }
  return w.take();  // `error` is always empty: a tally with one is never stored
}

std::optional<TranscriptTally> decode_tally(std::string_view blob) {
  BlobReader r(blob);
  TranscriptTally t;
  for (uint64_t* v : {&t.lines, &t.skipped_lines, &t.values_out_of_range, &t.bytes})
    *v = r.u64();
  t.line_types = decode_names(r);
  for (uint64_t* v : {&t.user_records, &t.assistant_records, &t.compactions})
    *v = r.u64();
  t.turns = static_cast<int>(r.i64());
  t.first_timestamp = r.str();
  t.last_timestamp = r.str();
  for (uint64_t n = r.count(); n > 0 && r.ok(); --n) {
    std::string model = r.str();
    t.tokens[std::move(model)] = decode_counts(r);
  }
  t.narration_blocks = decode_names(r);
  t.unknown_thinking_tags = decode_names(r);
  t.tools = decode_names(r);
  if (r.boolean()) {
    const uint64_t bits = r.u64();
    double v;
    std::memcpy(&v, &bits, sizeof v);
    t.harness_cost_usd = v;
  }
  const uint64_t keys = r.count();
  t.record_keys.reserve(static_cast<size_t>(keys));
  uint64_t prev = 0;
  for (uint64_t i = 0; i < keys && r.ok(); ++i)
    t.record_keys.push_back(prev += r.u64());
  TokensByModelDay without;
  for (uint64_t n = r.count(); n > 0 && r.ok(); --n) {
    ModelDay key;
    key.model = r.str();
    key.day = decode_day(r);
    without[std::move(key)] = decode_counts(r);
  }
  std::vector<const std::string*> models;
  for (uint64_t n = r.count(); n > 0 && r.ok(); --n)
    models.push_back(interned_model(r.str()));
  std::vector<MessageUsage> messages(static_cast<size_t>(r.count()));
  for (MessageUsage& u : messages) {
    if (!r.ok()) break;
    u.id = r.hash128();
    u.request = r.hash128();
    const uint64_t model = r.u64();
    if (model > models.size()) return std::nullopt;
    u.model = model == 0 ? nullptr : models[static_cast<size_t>(model - 1)];
    u.max = decode_counts(r);
    u.day = decode_day(r);
  }
  if (!r.done()) return std::nullopt;
  std::optional<TokenLedger> ledger = TokenLedger::restored(std::move(messages), std::move(without));
  if (!ledger) return std::nullopt;
  t.ledger = std::move(*ledger);
  return t;
}

std::string tally_signature(const Transcript& t, const StatsWindow& window) {
  std::string sig =
      "since=" + optional_number(window.time.since) + ";until=" + optional_number(window.time.until);
  if (window.turn) {
    const RangeSpec& r = *window.turn;
    sig += ";turn=" + optional_number(r.lo) + ".." + optional_number(r.hi) + (r.single ? ",single" : "") +
           (r.open ? ",open" : "") + ";text=" + r.text;
  }
  sig += t.is_subagent ? ";subagent" : ";session";
  return sig;
}

size_t tally_memo_cost(const TranscriptTally& tally) {
  return held_bytes(tally.line_types) + held_bytes(tally.first_timestamp) + held_bytes(tally.last_timestamp) +
         held_bytes(tally.tokens) + held_bytes(tally.narration_blocks) +
         held_bytes(tally.unknown_thinking_tags) + held_bytes(tally.tools) + held_bytes(tally.error) +
         held_bytes(tally.record_keys) + tally.ledger.held_bytes();
}

// What a resumable tally's fold holds beyond the tally's own copies.
static size_t fold_memo_cost(const StatsFold& f) {
  size_t n = held_bytes(f.record_keys) + held_bytes(f.first_timestamp) + held_bytes(f.last_timestamp) +
             held_bytes(f.narration_blocks) + held_bytes(f.unknown_thinking_tags) + held_bytes(f.tools) +
             f.ledger.held_bytes();
  for (const auto* ids : {&f.tool_ids, &f.opener_parents})
    for (const std::string& id : *ids)
      n += 48 + held_bytes(id);  // a node, its hash and the string
  return n;
}

std::shared_ptr<const TranscriptTally> remembered_tally(const Transcript& t, const StatsWindow& window,
                                                        const CancelToken* cancel, const StatsCaches& caches,
                                                        ResultMemoUse& use) {
  ResultMemo* memo = t.harness == HarnessId::claude_code ? caches.memo : nullptr;
  const std::optional<FileStamp> stamp = discovered_stamp(t);
  const bool keep_fold = memo != nullptr && likely_to_grow(stamp);
  // An unbounded tally is extended over an append (its fold resumed from where its read ended); any other
  // change, or a bounded window, tallies the transcript afresh.
  // Behind the memo (and in a process without one, the CLI) the disk cache keeps the unbounded window's
  // tallies of Claude Code transcripts.
  DiskCache* disk = t.harness == HarnessId::claude_code ? caches.disk : nullptr;
  if (window.bounded()) disk = nullptr;  // one window, the same for every call: few entries, many uses
  const std::string signature = memo || disk ? tally_signature(t, window) : std::string();
  const std::string disk_key = disk ? t.path + '\0' + signature : std::string();
  const auto remembered = recall_extend_or_compute(
      memo, use, kTallyKind, t.path, signature, stamp,
      [&] { return tally_through_disk(disk, t, disk_key, stamp, window, cancel, keep_fold, use.disk); },
      [&](const ResumableTally& was, const FileStamp&) { return extend_tally(t, was, cancel); },
      [cancel](const ResumableTally& r) {
        return r.tally.error.empty() && !(cancel && cancel->is_cancelled());
      },
      [](const ResumableTally& r) { return tally_memo_cost(r.tally) + fold_memo_cost(r.fold); });
  return std::shared_ptr<const TranscriptTally>(remembered, &remembered->tally);
}

}  // namespace csift
