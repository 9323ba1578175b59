#include "core/harness/jsonl_entry_reader.h"

#include "core/harness/claude_code/classify.h"
#include "core/harness/claude_code/classify_detail.h"
#include "core/harness/claude_code/record_parser.h"
#include "core/json/json_syntax.h"
#include "core/json/stored_json.h"
#include "core/json/utf8_repair.h"
#include "core/scan/file_handle.h"
#include "core/scan/zstd_lines.h"

namespace csift {

namespace {

// Parses one non-blank line into r through the mapper; a reason when it is not a record.
std::optional<std::string> map_entry_line(std::string_view bytes, EntryMapper& mapper, Record& r,
                                          uint64_t& out_of_range, std::string* kind = nullptr) {
  if (bytes.size() > kMaxRecordLineBytes) return std::string("line too large");
  size_t overflowing = 0;
  if (!json_object_well_formed(bytes, &overflowing)) return std::string("malformed JSON: not a JSON object");
  out_of_range += overflowing;
  nlohmann::json entry = parse_stored_json(bytes);
  if (!entry.is_object()) {
    // Invalid UTF-8 inside a string: nlohmann refuses it, so the entry is read from a repaired copy.
    Utf8Repair repair;
    entry = parse_stored_json(repair.prepare(bytes));
    if (!entry.is_object()) return std::string("malformed JSON: unreadable entry");
    r.text_repaired = true;
  }
  r.length = bytes.size();
  // A mapper reads the fields its harness writes; a field of another type than that (nlohmann throws on
  // value() of a non-object, get<> of the wrong type) is a line of an unknown shape, skipped and counted
  // with the reason, never an exception that ends the read (the codex fuzz find: a string `metadata`).
  try {
    std::string k = mapper.map(entry, r);
    if (kind) *kind = std::move(k);
  } catch (const nlohmann::json::exception& e) {
    return "a record of an unknown shape (" + std::string(e.what()) + ")";
  }
  return std::nullopt;
}

// The file's lines: a plain file's through LineScanner, a compressed one's decompressed as a stream (what
// does not decode is left in `z.broken`).
ScanStats scan_entry_lines(const std::string& path, const BlockFn& fn, bool compressed,
                           const CancelToken* cancel, ZstdScanStats& z) {
  if (!compressed) {
    LineScanner scanner;
    return scanner.scan(path, fn, 0, UINT64_MAX, 1, cancel);
  }
  z = scan_zstd_lines(path, fn, cancel);
  return z;
}

}  // namespace

ReadStats JsonlEntryReader::read(const Transcript& t, const ReadOptions& opts, RecordSink& sink) const {
  std::unique_ptr<EntryMapper> m = mapper(&t);
  ReadStats stats;
  bool stopped = false;
  uint64_t consumed = 0;
  const auto census = [&](const std::string& key) {
    if (opts.census_types) ++stats.line_types[key.empty() ? "(untyped)" : key];
  };
  ZstdScanStats zstd;
  const ScanStats scan = scan_entry_lines(
      t.path,
      [&](const LineBlock& block) {
        for_each_line(block, [&](const LineView& lv) {
          ++stats.lines;
          if (line_is_blank(lv.bytes)) {
            ++stats.blank_lines;
            census("(blank)");
          } else {
            Record r;
            r.line = lv.line;
            r.offset = lv.offset;
            std::string kind;
            if (auto why = map_entry_line(lv.bytes, *m, r, stats.values_out_of_range, &kind)) {
              ++stats.skipped_lines;
              census("(malformed)");
              sink.skipped({lv.line, std::move(*why)});
            } else {
              census(kind);
              stopped = !sink.record(std::move(r));
            }
          }
          stopped = stopped || (opts.max_lines && stats.lines >= opts.max_lines);
          return !stopped;
        });
        consumed += block.data.size();
        if (opts.on_bytes) opts.on_bytes(consumed);
        return !stopped && !(opts.cancel && opts.cancel->is_cancelled());
      },
      compressed(t), opts.cancel, zstd);
  stats.error = scan.error;
  stats.bytes = scan.bytes;
  stats.stopped = stopped;
  stats.cancelled = !stopped && (scan.stopped || (opts.cancel && opts.cancel->is_cancelled()));
  if (scan.torn_tail && !stopped) {
    stats.torn_tail = true;
    ++stats.lines;
    ++stats.skipped_lines;
    census("(torn)");
    sink.skipped({scan.torn_tail_line, "torn final line (no newline)"});
  }
  if (!zstd.broken.empty() && !stopped) {
    // The rest of a compressed file that does not decode: one line, skipped with libzstd's reason.
    ++stats.lines;
    ++stats.skipped_lines;
    census("(corrupt)");
    sink.skipped({zstd.broken_line, zstd.broken});
    stats.unreadable = unreadable_rest(zstd);
  }
  return stats;
}

bool JsonlEntryReader::decode(std::string_view line, Record& out, std::string& error) const {
  std::unique_ptr<EntryMapper> m = mapper(nullptr);
  uint64_t out_of_range = 0;
  if (auto why = map_entry_line(line, *m, out, out_of_range)) {
    error = *why;
    return false;
  }
  return true;
}

ScanStats JsonlEntryReader::read_raw_lines(const Transcript& t, const RawLineFn& fn,
                                           const CancelToken* cancel) const {
  if (!compressed(t)) return read_jsonl_raw_lines(t.path, fn, cancel);
  const ZstdScanStats stats = scan_zstd_lines(
      t.path,
      [&](const LineBlock& block) {
        return for_each_line(block, [&](const LineView& lv) {
          return fn(RawLine{lv.bytes, lv.line, lv.offset, false});
        });
      },
      cancel);
  if (stats.torn_tail && !stats.stopped)
    fn(RawLine{stats.torn_tail_text, stats.torn_tail_line, stats.torn_tail_offset, true});
  return stats;
}

TurnOpener JsonlEntryReader::turn_opener() const {
  return &opens_turn;
}

std::string entry_string(const nlohmann::json& j, const char* key) {
  if (!j.is_object()) return "";
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : "";
}

Block text_block(std::string text) {
  Block b;
  b.kind = BlockKind::text;
  b.type = "text";
  b.text = std::move(text);
  return b;
}

Block thinking_block(std::string text) {
  Block b;
  b.kind = BlockKind::thinking;
  b.type = "thinking";
  b.text = std::move(text);
  return b;
}

Block tool_use_block(std::string id, std::string name, std::string input_json) {
  Block b;
  b.kind = BlockKind::tool_use;
  b.type = "tool_use";
  b.id = std::move(id);
  b.name = std::move(name);
  b.input_json = std::move(input_json);
  return b;
}

void make_message(Record& r, const char* role) {
  r.type = role;
  r.message.present = true;
  r.message.role = role;
  r.message.has_content = true;
}

void interrupt_pending_calls(Record& r, std::set<std::string>& pending, std::set<std::string>& answered,
                             const std::string& why) {
  make_message(r, "user");
  if (pending.empty()) {
    r.message.content_is_string = true;
    r.message.content_string = std::string(detail::kInterruptUser);
    return;
  }
  for (const std::string& id : pending) {
    r.message.blocks.push_back(tool_result_block(id, why, true, CallStatus::interrupted, std::nullopt));
    answered.insert(id);
  }
  pending.clear();
}

Block tool_result_block(std::string call_id, std::string text, bool is_error, CallStatus status,
                        std::optional<int64_t> exit_code) {
  Block b;
  b.kind = BlockKind::tool_result;
  b.type = "tool_result";
  b.tool_use_id = std::move(call_id);
  b.content_text = std::move(text);
  b.is_error = is_error;
  b.has_is_error = true;
  b.result_status = status;
  b.result_exit_code = exit_code;
  return b;
}

std::optional<std::string> shell_script_of(const nlohmann::json& argv) {
  if (!argv.is_array() || argv.size() != 3 || !argv[0].is_string() || !argv[1].is_string() ||
      !argv[2].is_string())
    return std::nullopt;
  const std::string shell = argv[0].get<std::string>();
  const std::string base =
      shell.substr(shell.find_last_of('/') == std::string::npos ? 0 : shell.find_last_of('/') + 1);
  const std::string flag = argv[1].get<std::string>();
  // The shell's options: `-c` (run the script), optionally with `l` (a login shell) before it.
  const bool runs_script = flag == "-lc" || (flag.size() == 2 && flag[0] == '-' && flag[1] == 'c');
  if ((base != "bash" && base != "zsh" && base != "sh") || !runs_script) return std::nullopt;
  return argv[2].get<std::string>();
}

}  // namespace csift
