#include "core/store/remembered_probe.h"

#include "core/harness/claude_code/claude_code_reader.h"
#include "core/harness/read_probe.h"
#include "core/store/discovery_memo.h"

namespace csift {
namespace {

constexpr ResultKind<SessionProbe> kProbeKind{"probe"};

size_t probed_message_cost(const ProbedMessage& m) {
  return held_bytes(m.text) + held_bytes(m.timestamp);
}

void encode_probed(BlobWriter& w, const ProbedMessage& m) {
  w.boolean(m.found);
  w.str(m.text);
  w.str(m.timestamp);
  w.u64(m.line);
  w.u64(m.offset);
  w.u64(m.chars);
}

ProbedMessage decode_probed(BlobReader& r) {
  ProbedMessage m;
  m.found = r.boolean();
  m.text = r.str();
  m.timestamp = r.str();
  m.line = r.u64();
  m.offset = r.u64();
  m.chars = r.u64();
  return m;
}

// The probe the disk cache holds for `t` at `stamp` (one that does not decode is dropped from it).
std::optional<SessionProbe> stored_probe(DiskCache& disk, const Transcript& t, const FileStamp& stamp,
                                         DiskCacheUse& use) {
  if (auto blob = disk.get(kDiskProbeKind, t.path, stamp, &use)) {
    if (auto probe = decode_probe(*blob)) return probe;
    disk.discard(kDiskProbeKind, t.path);
  }
  return std::nullopt;
}

// probe_transcript(t) through the disk cache: the stored probe while the file's stamp is the one it was read
// under (vouched for at that stamp); else read, and stored when the read had no error, the file did not
// change during it, and its mtime was settled when the read began.
Vouched<SessionProbe> probe_through_disk(DiskCache& disk, const Transcript& t, DiskCacheUse& use) {
  const std::optional<FileStamp> before = stamp_of(t);
  if (!before) return {probe_transcript(t), std::nullopt};
  if (auto probe = stored_probe(disk, t, *before, use)) return {std::move(*probe), before};
  const int64_t began = realtime_ns();
  SessionProbe probe = probe_transcript(t);
  // A stamp within the racy window of the read may hide a second write in the same clock tick (same size,
  // same mtime): a cache that outlives the process must not keep it (git's racy-index rule, as discovery's).
  if (probe.error.empty() && settled_stamp(*before, began) && stamp_file(t.path) == before)
    disk.put(kDiskProbeKind, t.path, *before, encode_probe(probe), &use);
  return {std::move(probe), std::nullopt};
}

}  // namespace

std::string encode_probe(const SessionProbe& p) {
  BlobWriter w;
  encode_probed(w, p.first_user);
  encode_probed(w, p.last_user);
  encode_probed(w, p.last_agent);
  for (const std::string* s : {&p.cwd, &p.version_first, &p.version_last, &p.git_branch_first,
                               &p.git_branch_last, &p.first_timestamp, &p.last_timestamp})
    w.str(*s);
  w.boolean(p.is_clone);
  w.str(p.clone_boundary_uuid);
  w.u64(p.skipped_lines);
  w.u64(p.head_end);
  w.u64(p.head_lines);
  w.u64(p.bytes_read);
  w.boolean(p.read_whole_file);
  w.str(p.unreadable);
  return w.take();  // `error` is always empty: a probe with one is never stored
}

std::optional<SessionProbe> decode_probe(std::string_view blob) {
  BlobReader r(blob);
  SessionProbe p;
  p.first_user = decode_probed(r);
  p.last_user = decode_probed(r);
  p.last_agent = decode_probed(r);
  for (std::string* s : {&p.cwd, &p.version_first, &p.version_last, &p.git_branch_first, &p.git_branch_last,
                         &p.first_timestamp, &p.last_timestamp})
    *s = r.str();
  p.is_clone = r.boolean();
  p.clone_boundary_uuid = r.str();
  p.skipped_lines = r.u64();
  p.head_end = r.u64();
  p.head_lines = r.u64();
  p.bytes_read = r.u64();
  p.read_whole_file = r.boolean();
  p.unreadable = r.str();
  if (!r.done()) return std::nullopt;
  return p;
}

size_t probe_memo_cost(const SessionProbe& p) {
  return probed_message_cost(p.first_user) + probed_message_cost(p.last_user) +
         probed_message_cost(p.last_agent) + held_bytes(p.cwd) + held_bytes(p.version_first) +
         held_bytes(p.version_last) + held_bytes(p.git_branch_first) + held_bytes(p.git_branch_last) +
         held_bytes(p.first_timestamp) + held_bytes(p.last_timestamp) + held_bytes(p.clone_boundary_uuid) +
         held_bytes(p.error) + held_bytes(p.unreadable);
}

std::shared_ptr<const SessionProbe> remembered_probe(const Transcript& t, ResultMemoUse& use) {
  const bool claude = t.harness == HarnessId::claude_code;
  ResultMemo* memo = claude ? process_result_memo() : nullptr;
  DiskCache* disk = claude ? process_disk_cache() : nullptr;
  return recall_or_compute(
      memo, use, kProbeKind, t.path, "", discovered_stamp(t),
      [&t, &use, disk] {
        return disk ? probe_through_disk(*disk, t, use.disk) : Vouched<SessionProbe>{probe_transcript(t), {}};
      },
      [](const SessionProbe& p) { return p.error.empty(); }, probe_memo_cost);
}

bool recall_stored_probe(const Transcript& t, ResultMemoUse& use) {
  ResultMemo* memo = process_result_memo();
  DiskCache* disk = process_disk_cache();
  const std::optional<FileStamp> stamp = discovered_stamp(t);
  if (t.harness != HarnessId::claude_code || memo == nullptr || disk == nullptr || !stamp) return false;
  const auto probe = recall_or_compute(
      memo, use, kProbeKind, t.path, "", stamp,
      [&]() -> Vouched<SessionProbe> {
        if (auto stored = stored_probe(*disk, t, *stamp, use.disk)) return {std::move(*stored), stamp};
        SessionProbe none;
        none.error = "not in the disk cache";  // not kept, and never an answer: only this function sees it
        return {std::move(none), std::nullopt};
      },
      [](const SessionProbe& p) { return p.error.empty(); }, probe_memo_cost);
  return probe->error.empty();
}

}  // namespace csift
