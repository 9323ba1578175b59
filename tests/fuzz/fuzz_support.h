// What the fuzz targets share: a failure that names its reason, an in-memory scratch file per process for the
// parsers that read a file, and the read of one log through the reader seam with the seam's own accounting
// checked. Header-only: each target is one file linked against the clang build's libraries.
#pragma once
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <string_view>

#include "core/harness/claude_code/classify.h"
#include "core/record/transcript_reader.h"
#include "core/record/turns.h"

namespace csift_fuzz {

// A broken invariant: printed, then abort(), which libFuzzer reports as a crash and keeps the input of.
[[noreturn]] inline void fail(const char* what, std::string_view detail = {}) {
  std::fprintf(stderr, "FUZZ INVARIANT BROKEN: %s\n%.*s\n", what, static_cast<int>(detail.size()),
               detail.data());
  std::abort();
}
#define FUZZ_CHECK(cond, detail)                                      \
  do {                                                                \
    if (!(cond)) ::csift_fuzz::fail(#cond " (" __FILE__ ")", detail); \
  } while (0)

// The targets: each file defines one with CSIFT_FUZZ_TARGET(name) { ... } (the body sees `data` and `size`),
// which registers it under its name; tests/fuzz/driver.cpp hands libFuzzer the one a run names. The targets
// share one executable (one unity unit: the heavy headers compiled once, one link), run as fuzz_<name>.
using FuzzFn = int (*)(const uint8_t* data, size_t size);
inline std::map<std::string, FuzzFn>& registry() {
  static std::map<std::string, FuzzFn> targets;
  return targets;
}
struct Register {
  Register(const char* name, FuzzFn fn) { registry()[name] = fn; }
};
#define CSIFT_FUZZ_TARGET(name)                                                              \
  static int csift_fuzz_##name(const uint8_t* data, size_t size);                            \
  static const ::csift_fuzz::Register csift_fuzz_register_##name(#name, &csift_fuzz_##name); \
  static int csift_fuzz_##name(const uint8_t* data, size_t size)

inline std::string_view as_text(const uint8_t* data, size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// This process's scratch file, rewritten with `bytes` on every call: the readers read files, and this one is
// an anonymous file in memory (memfd_create), opened by its /proc/self/fd path like any other file, so a read
// takes the same path as a read of a log on disk. A file on disk cost every execution a write-back: ext4's
// auto_da_alloc flushes a file truncated and rewritten when it is closed (2-30 ms each, ~30 exec/s).
inline const std::string& scratch_file(std::string_view bytes) {
  static const int fd = ::memfd_create("csift-fuzz", MFD_CLOEXEC);
  static const std::string path = "/proc/self/fd/" + std::to_string(fd);
  if (fd < 0 || ::ftruncate(fd, 0) != 0) fail("cannot make the in-memory scratch file");
  for (size_t at = 0; at < bytes.size();) {
    ssize_t n = ::pwrite(fd, bytes.data() + at, bytes.size() - at, static_cast<off_t>(at));
    if (n <= 0) fail("cannot write the in-memory scratch file", path);
    at += static_cast<size_t>(n);
  }
  return path;
}

// Collects what a read pushes, so two reads of one file can be compared.
struct CountingSink : csift::RecordSink {
  std::vector<csift::Record> records;
  uint64_t skipped_count = 0, declined_count = 0;
  bool record(csift::Record&& r) override {
    records.push_back(std::move(r));
    return true;
  }
  void skipped(csift::SkippedLine&&) override { ++skipped_count; }
  void declined(const csift::LineRef&) override { ++declined_count; }
};

// Reads `bytes` as a log of harness `h` through its reader, the way the tools do: a dense read, a sparse read
// (payloads skipped), each raw line read back and decoded alone, turns numbered and every record classified.
// Fails when the seam's accounting breaks (records + skipped + blank + declined != lines), when the dense and
// sparse reads disagree on any count, or when the raw lines are not the read's lines.
inline void read_through_seam(csift::HarnessId h, std::string_view bytes) {
  using namespace csift;
  Transcript t;
  t.harness = h;
  t.path = scratch_file(bytes);
  t.project_dir = "/tmp";
  t.id = t.session_id = "fuzz";
  t.size = bytes.size();
  const TranscriptReader& reader = reader_for(t);

  ReadOptions dense;
  dense.sequential = true;
  dense.census_types = true;
  CountingSink full;
  const ReadStats a = reader.read(t, dense, full);
  if (!a.error.empty()) return;  // a store format the bytes are not (a database): nothing was read
  FUZZ_CHECK(full.records.size() + a.skipped_lines + a.blank_lines + a.non_candidate_lines == a.lines,
             "dense read");
  FUZZ_CHECK(full.skipped_count == a.skipped_lines, "dense read: skipped lines pushed vs counted");

  ReadOptions sparse = dense;
  sparse.sequential = false;
  sparse.parallel_threshold = 64;  // the chunked path on small inputs
  sparse.chunk_bytes = 64;
  sparse.payloads = ReadOptions::Payloads::skip;
  CountingSink part;
  const ReadStats b = reader.read(t, sparse, part);
  FUZZ_CHECK(b.lines == a.lines && b.skipped_lines == a.skipped_lines && b.blank_lines == a.blank_lines &&
                 part.records.size() == full.records.size() && b.torn_tail == a.torn_tail &&
                 b.values_out_of_range == a.values_out_of_range,
             "sparse/chunked read vs dense read");
  for (size_t i = 0; i < full.records.size(); ++i)
    FUZZ_CHECK(full.records[i].line == part.records[i].line && full.records[i].type == part.records[i].type,
               "sparse/chunked record vs dense record");

  uint64_t raw = 0;
  reader.read_raw_lines(
      t,
      [&](const RawLine& line) {
        ++raw;
        Record r;
        std::string error;
        (void)reader.decode(line.bytes, r, error);
        return true;
      },
      nullptr);
  if (reader.raw_lines_are_file_lines()) FUZZ_CHECK(raw == a.lines, "raw lines vs read lines");

  assign_turns(full.records, turn_rule_of(t));
  ClassifyContext ctx;
  ctx.owner_id = t.id;
  for (const Record& r : full.records)
    (void)classify_record(r, ctx);
}

}  // namespace csift_fuzz
