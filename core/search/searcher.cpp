// The searcher (searcher.h): the per-transcript pipeline — label census, whole-file gate, dense or sparse
// read and classification, tool-partner and turn completions, the matcher — and the loop over a scope's
// transcripts that pushes each result into the sink.
#include "core/search/searcher.h"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <utility>

#include "core/base/arg_ref.h"
#include "core/base/error.h"
#include "core/harness/claude_code/claude_fields.h"
#include "core/harness/claude_code/fixed_texts.h"
#include "core/search/deferred_covers.h"
#include "core/search/search_label_census.h"
#include "core/search/search_load.h"
#include "core/search/search_persisted.h"

namespace csift {

// Transcripts the parallel workers set aside (a server's label censuses left for after the reply).
struct TranscriptsAside {
  std::mutex mu;
  std::vector<Transcript> items;
  void add(const Transcript& t) {
    std::lock_guard<std::mutex> lock(mu);
    items.push_back(t);
  }
};

namespace {

// Entries between two cancel checks: cheap enough to be invisible, small enough to stop within milliseconds.
constexpr size_t kCancelStride = 1024;

struct TranscriptScanner {
  const SearchConfig& req;
  const SearchPass& pass;
  const SearchPrefilter& pf;
  const std::string& projects_root;
  bool diagnose;
  bool counts_only;                  // -c / -l without a diagnosis: the models are released once counted
  ResultMemoUse* census_use;         // non-null when a server's result memo keeps label censuses
  ResultMemo* census_memo;           // that memo (the call's ToolContext::result_memo)
  DiskCache* census_disk;            // the disk cache behind it (ToolContext::disk_cache), or null
  DeferredCovers* covers_later;      // a server's: the covers to build after the reply (null: build them now)
  TranscriptsAside* censuses_later;  // a server's: censuses to take after the reply (null: take them now)
  const CancelToken* cancel;
  std::vector<std::string> notes;
  // The saved results this transcript's pointers name that were not read, by (line, content block): kept
  // across the two matches of a sparse read, where the second sees the first's replaced text.
  std::map<std::pair<uint64_t, int>, SavedResultUnread> saved_unread = {};

  // The per-transcript turn window (from-end forms resolve against this transcript's turn count).
  std::optional<ResolvedRange> turn_range(const ClassifiedTranscript& ct) const {
    if (!req.turn || ct.turns.turn_count == 0) return std::nullopt;
    return resolve_range(*req.turn, 0, ct.turns.turn_count - 1);
  }

  bool in_window(const ClassifiedEntry& e, const std::optional<ResolvedRange>& turns) const {
    if (req.window.bounded()) {
      const auto ts = parse_iso8601(e.record->timestamp);
      if (!ts || !req.window.contains(*ts)) return false;
    }
    if (req.turn) {
      if (!turns || e.turn_index < 0 || e.superseded_draft) return false;
      if (e.turn_index < turns->lo || e.turn_index > turns->hi) return false;
    }
    return true;
  }

  // --resolve-persisted: a tool result whose text stands for a result kept elsewhere is searched as that
  // result. A <persisted-output> pointer or Claude Code's "Output has been saved to <path>" (an MCP result
  // too large to hand over) is replaced by the saved file; when that file cannot be read, by the copy of an
  // MCP result Claude Code kept in mcpMeta.structuredContent. A text-first MCP result, whose
  // structuredContent is not its text, is searched with that object appended.
  void maybe_resolve(TranscriptHits& th, const TranscriptIdentity& owner, ClassifiedEntry& e, Unit& u,
                     bool* resolved) {
    if (!req.resolve_persisted || !u.is_tool_result) return;
    const std::string& structured = mcp_only_structured_content(*e.record);
    const bool pointer = u.text.find(claude_code_text::kPersistedOutputTag) != std::string::npos ||
                         !mcp_saved_output_path(u.text).empty();
    if (!pointer) {
      if (structured.empty()) return;
      u.text += "\n" + structured;
      *resolved = true;
      return;
    }
    std::string note;
    bool refused = false;
    auto content = resolve_persisted_output(*e.record, u, projects_root, &note, &refused);
    if (!content)
      saved_unread.emplace(std::make_pair(e.record->line, u.block_index),
                           SavedResultUnread{owner.id, e.record->line, note, refused, !structured.empty()});
    if (!content && !structured.empty()) {
      content = structured;
      note += "; searched the copy Claude Code kept in mcpMeta.structuredContent instead";
    }
    if (!note.empty())
      notes.push_back(arg_ref("resolve_persisted") + ": " + owner.id + " L" + std::to_string(e.record->line) +
                      ": " + note);
    if (!content) {
      ++th.unresolved_pointers;
      return;
    }
    u.text = std::move(*content);
    *resolved = true;
  }

  // Without --resolve-persisted: whether the pattern occurs in the only copy of an MCP result the tool
  // result's text does not hold (mcpMeta.structuredContent beside a saved-file pointer or a text-first
  // result). Such a record is no hit, but a zero then is no definitive absence.
  bool matches_hidden_copy(Matcher& m, const ClassifiedEntry& e, const Unit& u) const {
    if (req.resolve_persisted || !u.is_tool_result || req.compiled->matches_everything()) return false;
    const std::string& structured = mcp_only_structured_content(*e.record);
    return !structured.empty() && m.find(structured).matched();
  }

  // Matches one unit; returns the status and the span.
  MatchResult match_unit(Matcher& m, const Unit& u) const {
    if (req.compiled->matches_everything()) return MatchResult{MatchStatus::match, 0, 0, 0};
    return m.find(u.text);
  }

  void tally_excluded(TranscriptHits& th, const std::set<Label>& leaves) {
    if (leaves.empty()) return;
    ++th.excluded_records;
    for (const Label l : leaves)
      ++th.excluded_by_label[l];
  }

  // Matches entry `index` of a transcript owned by `owner` into th's hits and counters.
  void scan_entry(TranscriptHits& th, const TranscriptIdentity& owner, ClassifiedEntry& e, size_t index,
                  Matcher& m, const std::optional<ResolvedRange>& turns) {
    if (e.units.empty() || !in_window(e, turns)) return;
    RecordHit rh;
    rh.entry_index = index;
    bool too_complex = false;
    std::set<Label> excluded;
    // A draft the label filter excludes is still matched, to be counted in the draft disclosure.
    const bool count_excluded = diagnose || e.superseded_draft;
    bool draft_excluded = false;
    for (size_t k = 0; k < e.units.size(); ++k) {
      Unit& u = e.units[k];
      const auto survivors = surviving_labels(req, u, false);
      if (survivors.empty() && !count_excluded) continue;
      bool resolved = false;
      maybe_resolve(th, owner, e, u, &resolved);
      const MatchResult mr = match_unit(m, u);
      if (mr.status == MatchStatus::too_complex) too_complex = true;
      if (!mr.matched()) {
        if (!survivors.empty() && matches_hidden_copy(m, e, u)) ++th.hidden_copy_matches;
        continue;
      }
      if (survivors.empty()) {
        const auto unfiltered = surviving_labels(req, u, true);
        if (!unfiltered.empty()) {
          excluded.insert(unfiltered.front());
          draft_excluded = draft_excluded || e.superseded_draft;
        }
        continue;
      }
      rh.units.push_back(UnitHit{k, survivors.front(), mr.start, mr.end, resolved});
    }
    if (too_complex) ++th.too_complex_lines;
    if (!rh.units.empty()) {
      if (e.superseded_draft) ++th.draft_hits;
      th.hits.push_back(std::move(rh));
    } else {
      if (draft_excluded) ++th.drafts_excluded_by_label;
      if (diagnose) tally_excluded(th, excluded);
    }
  }

  // The turns with a hit: each exchange's frame shows its turn's end-of-turn agent text, and --siblings
  // shows each hit turn's context (every line of it).
  std::set<int> context_turns(const TranscriptHits& th) const {
    std::set<int> turns;
    if (pass.context == SearchPass::Context::none) return turns;
    for (const RecordHit& rh : th.hits) {
      const ClassifiedEntry& e = th.ct.entries[rh.entry_index];
      if (e.turn_index >= 0 && !e.superseded_draft) turns.insert(e.turn_index);
    }
    return turns;
  }

  // The whole-file counters of a loaded transcript.
  static void take_read_counts(TranscriptHits& th) {
    th.skipped_lines = th.ct.read.skipped_lines + th.ct.sidecar.skipped_lines;
    th.values_out_of_range = th.ct.read.values_out_of_range;
    if (!th.ct.read.unreadable.empty()) th.unreadable = th.ct.transcript.id + ": " + th.ct.read.unreadable;
  }

  // Matches every entry of ct; the scan's per-transcript result.
  std::unique_ptr<TranscriptHits> match(ClassifiedTranscript&& ct, size_t scope_index) {
    notes.clear();
    auto out = std::make_unique<TranscriptHits>(scope_index, std::move(ct));
    TranscriptHits& th = *out;
    take_read_counts(th);
    Matcher m(req.compiled);
    const auto turns = turn_range(th.ct);
    for (size_t i = 0; i < th.ct.entries.size(); ++i) {
      // A huge transcript's regex pass can run for seconds after its read: honour a cancel within a block.
      if (i % kCancelStride == 0 && cancel && cancel->is_cancelled()) break;
      scan_entry(th, th.ct.owner, th.ct.entries[i], i, m, turns);
    }
    take_saved_unread(th);
    return out;
  }

  void take_saved_unread(TranscriptHits& th) const {
    th.saved_unread.clear();
    for (const auto& [where, unread] : saved_unread)
      th.saved_unread.push_back(unread);
  }

  // -c and -l read nothing of a unit once it is matched: a dense load matches each entry as it is classified
  // and drops its units there, so a large transcript's units (as big as its records) are never all held.
  // With `census`, each entry's labels are also folded into a label census before its units go.
  EntryVisitor matching_visitor(TranscriptHits& th, Matcher& m, LabelCensusBuilder* census) {
    return [this, &th, &m, census, turns = std::optional<std::optional<ResolvedRange>>()](
               const ClassifiedTranscript& ct, ClassifiedEntry& e, size_t index) mutable {
      if (!turns) turns = turn_range(ct);  // the turns are assigned before the first entry
      if (census) census->add(e);
      scan_entry(th, ct.owner, e, index, m, *turns);
      std::vector<Unit>().swap(e.units);
    };
  }

  // An empty pattern counted reads only the entries' labels, turns and timestamps: a sparse parse gives the
  // same (tests/unit/label_sparse_test.cpp), except an attachment's label, so not with the attachment gate
  // open.
  bool counts_labels_only() const {
    return counts_only && req.compiled->matches_everything() && !req.resolve_persisted && !req.attachments;
  }

  // A transcript whose label census a server may keep: Claude Code, no sidecar merged into its records.
  bool keeps_census(const Transcript& t, bool sidecar) const {
    return census_use != nullptr && counts_only && t.harness == HarnessId::claude_code && !sidecar;
  }

  // How a census's appended lines are read: as the dense load that takes a census reads (its label-candidate
  // filter, assistant lines included), sparsely unless an attachment's label is wanted.
  ReadOptions census_read_options(const Transcript& t) const {
    ReadOptions options;
    options.cancel = cancel;
    if (const RawLineProbes* probes = reader_for(t).raw_probes())
      options.want = [this, probes](std::string_view line) { return pf.label_candidate(line, *probes); };
    options.payloads = req.attachments ? ReadOptions::Payloads::full : ReadOptions::Payloads::skip;
    return options;
  }

  std::unique_ptr<TranscriptHits> counted_from_census(const Transcript& t, size_t scope_index) {
    if (!census_answers(req)) return nullptr;
    const auto census = recalled_label_census(*census_memo, census_disk, t, pf.label_gates(), *census_use,
                                              census_read_options(t));
    if (!census) return nullptr;
    auto out = std::make_unique<TranscriptHits>();
    out->scope_index = scope_index;
    out->ct.transcript = t;
    out->ct.owner = TranscriptIdentity::of(t);
    count_from_census(*census, req, *out);
    return out;
  }

  std::unique_ptr<TranscriptHits> scan(const Transcript& t, size_t scope_index) {
    const bool sidecar = has_sidecar(t);  // one stat, asked of below and by the load
    const bool census = keeps_census(t, sidecar);
    if (census)
      if (auto counted = counted_from_census(t, scope_index)) return counted;
    // A server takes the census after its reply (censuses_later): this call reads as the CLI does, without
    // the assistant lines only a later count under an agent filter would want from it. A census is
    // remembered under `before`, stamped before the gate reads the file: every byte it is taken from, the
    // gate's included, was read after the stamp (remember_label_census then checks the file is unchanged).
    const bool take_census = census && !censuses_later;
    const std::optional<FileStamp> before = take_census ? stamp_of(t) : std::nullopt;
    double needle_share = 0;
    std::optional<FileStamp> cover;
    std::shared_ptr<const FileBytes> bytes;  // the file as the gate read it whole, parsed from there
    if (pf.gates_files() && !sidecar) {
      const auto gate = pf.skim(t, cancel, &cover);
      if (!gate.error.empty()) failure_error("cannot read " + t.path + ": " + gate.error);
      if (!gate.may_match) {
        auto skipped = std::make_unique<TranscriptHits>();
        skipped->scope_index = scope_index;
        skipped->skipped_lines = gate.skipped_lines;
        skipped->values_out_of_range = gate.values_out_of_range;
        skipped->ct.transcript = t;
        skipped->ct.owner = TranscriptIdentity::of(t);
        return skipped;
      }
      needle_share = gate.needle_line_share;
      bytes = gate.bytes;
    }
    const bool needles_only =
        pf.gates_files() && !sidecar && needle_share == 0 && !req.resolve_persisted && pf.needles_only_pays();
    if (cover && covers_later) {
      covers_later->add(t, *cover, needle_share, needles_only);
      pf.note_cover_deferred();
      cover.reset();
    }
    std::optional<RawLineSketcher> raw;
    if (cover) raw.emplace(cover->size, reader_for(t).raw_probes());
    // -c / -l: a dense load is matched as it is classified, into `counted` (a sparse one is matched below).
    std::unique_ptr<TranscriptHits> counted = counts_only ? std::make_unique<TranscriptHits>() : nullptr;
    std::optional<Matcher> counting;
    std::optional<CountedLoad> counted_load;
    if (census && censuses_later) censuses_later->add(t);
    const std::optional<uint64_t> head = before ? head_hash_of(t.path) : std::nullopt;
    LabelCensusBuilder taker;
    ClassifyContext context;
    if (counts_only) {
      counting.emplace(req.compiled);
      // A server taking a census parses every line the label gates admit: a census of fewer lines would not
      // answer a later count under other labels, and its answers are what make the second count cheap.
      counted_load = CountedLoad{matching_visitor(*counted, *counting, before ? &taker : nullptr),
                                 counts_labels_only(), !before, before ? &context : nullptr};
    }
    // The gate's hit block held a marker and no needle: most such files (a third of a real store's, most of
    // its bytes) hold no needle at all, and a sparse load that parses only the needle and marker lines
    // shows it without parsing (or probing) the turn openers. Not with --resolve-persisted, whose pointers
    // are replaced by another file's text (needles_only, above).
    SearchLoad load = load_for_search(t, sidecar, pf, cancel, needle_share, raw ? &*raw : nullptr,
                                      counted_load ? &*counted_load : nullptr, needles_only, bytes);
    if (counts_only && !load.sparse) {
      counted->scope_index = scope_index;
      counted->ct = std::move(load.ct);
      take_read_counts(*counted);
      take_saved_unread(*counted);
      if (before && !(cancel && cancel->is_cancelled()))
        remember_label_census(*census_memo, census_disk, t, *before, pf.label_gates(),
                              taker.take(counted->ct, context, head), *census_use);
      return counted;
    }
    // A record classifies as the full read would only once its tool partners are in (search_load.cpp).
    complete_tool_partners(
        load, [](const Record&) { return true; }, cancel);
    // A needles-only load makes a cover too: what a later call could match is a raw line it sketched or the
    // rendered text of a needle or marker line it parsed (a turn opener's text is its own bytes).
    if (raw && load.sparse) pf.remember_cover(t, *cover, load.ct, raw->merged());
    if (load.needles_only) {
      // No unit may match: the full read's answer is no hit, with these very counts (may_hold_match).
      const bool may = !(cancel && cancel->is_cancelled()) && may_hold_match(load.ct, req.compiled);
      pf.note_needles_only(may);
      if (!may) return match(std::move(load.ct), scope_index);
      // One may: read again with the turn openers, which number the turns a hit is reported in.
      load = load_for_search(t, sidecar, pf, cancel, needle_share, nullptr, nullptr, false, bytes);
      complete_tool_partners(
          load, [](const Record&) { return true; }, cancel);
    }
    auto out = match(std::move(load.ct), scope_index);
    if (!load.sparse || out->hits.empty()) return out;
    const std::set<int> turns = context_turns(*out);
    if (turns.empty()) return out;
    load.ct = std::move(out->ct);
    if (pass.context == SearchPass::Context::whole_turns) {
      complete_turns(load, turns, cancel);
    } else {
      complete_turn_answers(load, turns, cancel);
    }
    // Lines read back hold no needle, so they add no hit: matching again re-derives the entry indices.
    return match(std::move(load.ct), scope_index);
  }
};

}  // namespace

// The label censuses a server's counted search leaves for after its reply: each transcript scanned again as
// the search would have scanned it taking one (its result dropped), under a copy of the call's configuration.
struct Searcher::CensusesLater {
  SearchConfig cfg;
  SearchPass pass;
  SearchCaches caches;
  std::string projects_root;
  TranscriptsAside transcripts;

  void take(const SearchPrefilter& pf, const CancelToken& stop) {
    ResultMemoUse use;
    tbb::parallel_for(size_t{0}, transcripts.items.size(), [&](size_t i) {
      if (stop.is_cancelled()) return;
      TranscriptScanner s{cfg,
                          pass,
                          pf,
                          projects_root,
                          pass.diagnose,
                          pass.counts_only,
                          &use,
                          caches.result_memo,
                          caches.disk_cache,
                          nullptr,
                          nullptr,
                          nullptr,
                          {},
                          {}};
      try {
        s.scan(transcripts.items[i], i);
      } catch (const std::exception&) {
        // Unreadable now: the next call that counts it says so.
      }
    });
    transcripts.items.clear();
  }
};

Searcher::~Searcher() = default;

Searcher::Searcher(const SearchConfig& cfg, const SearchPass& pass, const SearchCaches& caches,
                   std::string projects_root, const CancelToken* cancel)
    : cfg_(cfg),
      pass_(pass),
      caches_(caches),
      projects_root_(std::move(projects_root)),
      cancel_(cancel),
      pf_(std::make_shared<SearchPrefilter>(cfg, pass.diagnose, caches.scan_memo,
                                            caches.after_reply != nullptr)),
      census_use_(pass.counts_only && caches.result_memo != nullptr ? std::make_unique<ResultMemoUse>()
                                                                    : nullptr),
      covers_later_(caches.after_reply && caches.scan_memo ? std::make_shared<DeferredCovers>() : nullptr),
      censuses_later_(census_use_ && caches.after_reply ? std::shared_ptr<CensusesLater>(new CensusesLater{
                                                              cfg, pass, caches, projects_root_, {}})
                                                        : nullptr) {}

void Searcher::search(const std::vector<Transcript>& transcripts, SearchSink& sink) {
  tbb::parallel_for(size_t{0}, transcripts.size(), [&](size_t i) {
    if (cancel_ && cancel_->is_cancelled()) return;
    TranscriptScanner s{cfg_,
                        pass_,
                        *pf_,
                        projects_root_,
                        pass_.diagnose,
                        pass_.counts_only,
                        census_use_.get(),
                        caches_.result_memo,
                        caches_.disk_cache,
                        covers_later_.get(),
                        censuses_later_ ? &censuses_later_->transcripts : nullptr,
                        cancel_,
                        {},
                        {}};
    std::unique_ptr<TranscriptHits> th;
    std::string error;
    try {
      th = s.scan(transcripts[i], i);
    } catch (const std::exception& e) {
      error = e.what();
    }
    sink.searched(i, std::move(th), std::move(s.notes), std::move(error));
  });
  const bool censuses = censuses_later_ && !censuses_later_->transcripts.items.empty();
  if (censuses || pf_->screens_deferred() || (covers_later_ && !covers_later_->empty())) {
    caches_.after_reply->defer(
        [pf = pf_, covers = covers_later_, later = censuses_later_](const CancelToken& stop) {
          if (later) later->take(*pf, stop);  // first: a census read with needles may leave a screen too
          pf->screen_deferred(&stop);
          if (covers) covers->build(*pf, &stop);
        });
  }
}

}  // namespace csift
