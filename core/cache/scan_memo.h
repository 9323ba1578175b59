// ScanMemo: what a long-lived server learned from screening a transcript whole, kept across calls. A screen
// that read every line of a file without a hit learned facts no pattern changes — the lines a read would skip
// as malformed, the values out of range, and which 4-grams the bytes hold (GramSketch) — so a later call
// with a different pattern can answer "no line of this file can match" from memory when a 4-gram of every
// needle is missing, without opening the file. SPEC.md §"Warm scan memo" states keying and invalidation.
//
// Keyed by path, valid only while (device, inode, size, mtime) are unchanged: any change (an append, a
// rewrite, a replaced file) makes the entry stale and the file is screened again from its first byte. Bounded
// by a byte budget over the sketches, least recently used first out, except that a call never evicts what it
// found or remembered itself (byte_budget_lru.h: scan resistance). Thread-safe. The CLI never installs one,
// so a one-shot run reads exactly what it always read.
#pragma once
#include <atomic>
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/cache/byte_budget_lru.h"
#include "core/cache/disk_cache.h"
#include "core/cache/file_stamp.h"
#include "core/cache/gram_sketch.h"
#include "core/cache/kept_texts.h"

namespace csift {

// What a rendered cover (below) covers: the records a search parses for their synthesized text are those
// holding one of these markers, minus the record types a gate keeps unparsed unless asked for.
struct CoverScope {
  std::vector<std::string> markers;  // sorted
  bool attachments = false, queued = false, snapshots = false;
  // Every record `other` parses, this scope parses too: an entry built under this scope answers for `other`.
  bool includes(const CoverScope& other) const;
  // The same for the record-type gates alone (the markers left out).
  bool includes_gates(const CoverScope& other) const;
};

// The pattern-independent facts of one whole-file screen that found no hit, or of one full read that built
// a rendered cover.
struct ScreenFacts {
  FileStamp stamp;
  uint64_t malformed_lines = 0;  // complete lines read() would skip
  bool torn_tail = false;        // the file ended in a line with no newline (read() skips it too)
  uint64_t screened_end = 0;     // end of the last complete line: where an append's screen starts
  uint64_t values_out_of_range = 0;
  uint64_t head_hash = 0;  // hash of the file's first line (at most kHeadBytes): an append keeps it
  uint64_t tail_hash = 0;  // hash of the bytes before screened_end (at most kTailBytes): an append keeps it
  GramSketch grams;
  // The markers the screen looked for and found nowhere (sorted): a later call need not ask the sketch.
  std::vector<std::string> absent_markers;
  // Set when `grams` also holds the rendered text of every record a search under this scope parses (a file
  // whose bytes hold a synthesized-text marker): then only the needles need be missing, not the markers.
  // When the file grows, such an entry is extended as a plain one is (only the appended bytes screened), for
  // a call whose scope it includes, and then covers that call's scope.
  std::optional<CoverScope> rendered;
  // With `rendered`: the text of every unit the cover's read parsed (the records synthesized text comes
  // from among them), when it fits kMaxKeptTextShare of the file. A needle the sketch may hold but no raw
  // byte holds can then only match one of these, and the pattern is tried on them instead of reading the
  // file whole (SearchPrefilter::rescreen_cover). Shared: an append extends a copy of the entry.
  std::shared_ptr<const KeptTexts> rendered_texts;
  explicit ScreenFacts(uint64_t file_bytes) : grams(file_bytes) {}
  uint64_t skipped_lines() const { return malformed_lines + (torn_tail ? 1 : 0); }
};

// A cover keeps its rendered texts while they hold at most this share of its file's bytes (and at least
// kMinKeptTextBytes may always be kept).
inline constexpr uint64_t kMaxKeptTextShare = 8;  // one eighth
inline constexpr uint64_t kMinKeptTextBytes = 16 * 1024;

// One call's use of the memo (reported in the tool's summary).
struct MemoTally {
  std::atomic<uint64_t> hits{0};              // files answered from memory, never opened
  std::atomic<uint64_t> rescreened{0};        // remembered, but a needle may occur: screened again
  std::atomic<uint64_t> misses{0};            // not remembered (new, changed, or evicted): screened
  std::atomic<uint64_t> appended{0};          // grown since: only the appended bytes screened
  std::atomic<uint64_t> bytes_not_read{0};    // the hits' file sizes
  std::atomic<uint64_t> rendered_hits{0};     // hits among files whose sketch covers their rendered text
  std::atomic<uint64_t> covers_built{0};      // full reads that remembered a rendered cover
  std::atomic<uint64_t> screens_deferred{0};  // misses whose screen is built after the reply (a server's)
  std::atomic<uint64_t> covers_deferred{0};   // full reads whose rendered cover is built after the reply
  std::atomic<uint64_t> texts_ruled_out{0};   // rescreened covers ruled out by their kept rendered texts
  DiskCacheUse disk;                          // the same call's use of the disk cache behind the memo
  // The call these are (ByteBudgetLru): what it found or remembered is not evicted by what it remembers
  // later.
  const uint64_t call = new_lru_call();
};

class ScanMemo {
 public:
  // `shards`: ByteBudgetLru's (1: one exact LRU, as the unit tests want it).
  explicit ScanMemo(size_t budget_bytes, size_t shards = 1) : lru_(budget_bytes, shards) {}
  // The facts remembered for `path` when still valid for `stamp` (and marks them recently used); a stale
  // entry is dropped, unless the file only grew (same device and inode, larger): find_grown() wants it.
  // `call`: the call looking (MemoTally::call; 0: none), which keeps a found entry from its own evictions.
  // `disk`, when given, counts the lookup of the disk cache behind the memo (a call's summary reports it).
  std::shared_ptr<const ScreenFacts> find(const std::string& path, const FileStamp& stamp, uint64_t call = 0,
                                          DiskCacheUse* disk = nullptr);
  // The facts remembered for `path` when the file is the same one grown since (same device and inode, larger
  // now): what an append screen extends. Anything else yields nullptr.
  std::shared_ptr<const ScreenFacts> find_grown(const std::string& path, const FileStamp& stamp);
  // Drops what is remembered for `path`.
  void forget(const std::string& path) { lru_.erase(path); }
  // Remembers facts for `path` (replacing any), evicting least recently used entries over the budget, but
  // none `call` found or remembered (then the facts are declined).
  void remember(const std::string& path, std::shared_ptr<const ScreenFacts> facts, uint64_t call = 0);
  // The same for `tally`'s call, and queued for the disk cache (kDiskScreenKind) when the process has one and
  // the facts' stamp was settled when the call began (the caller saw the file unchanged through its read).
  // find() asks the disk for what the memo does not hold: a fresh server answers from an earlier one's
  // screens.
  void remember(const std::string& path, std::shared_ptr<const ScreenFacts> facts, MemoTally& tally);

  using Usage = LruUsage;
  Usage usage() const { return lru_.usage(); }

 private:
  // Keeps facts as they are, unfolded: what the disk held was folded further than the memo folds
  // (kStoredSketchFill >= kMemoSketchFill), so measuring its fill again would only cost a pass over it.
  void keep(const std::string& path, std::shared_ptr<const ScreenFacts> facts, uint64_t call);

  ByteBudgetLru<std::shared_ptr<const ScreenFacts>> lru_;
};

// Screen facts as the disk cache keeps them (the stamp is the entry's), and back: nullopt for bytes that are
// not one (bounds-checked: the blob is untrusted). The sketch is folded while sparse (GramSketch::fold) and a
// cover's rendered texts are kept only when small (kMaxStoredTextShare of the file).
std::string encode_screen(const ScreenFacts& f);
std::optional<ScreenFacts> decode_screen(std::string_view blob, const FileStamp& stamp);
// A sketch is folded for the disk while its fill stays under this share (a denser sketch says maybe more
// often: a needle's 4-grams must all be set).
inline constexpr double kStoredSketchFill = 0.6;
// A cover's rendered texts go to the disk while they hold at most this share of the file (one in 64).
inline constexpr uint64_t kMaxStoredTextShare = 64;

// The process's memo: nullptr unless a server installed one.
ScanMemo* process_scan_memo();
// Installs the process's memo with this budget (0: none). Called once, before serving.
void install_scan_memo(size_t budget_bytes);
// A remembered sketch is folded (GramSketch::fold) while its share of set bits stays at most this: a
// needle's 4-grams must all be set for a maybe, so at a quarter a 3-gram needle absent from a file is
// still ruled out there ~98 % of the time, and the answer is the same either way (a maybe is screened).
inline constexpr double kMemoSketchFill = 0.25;
// The default budget of a server's memo.
inline constexpr size_t kDefaultScanMemoBytes = size_t{256} << 20;

}  // namespace csift
