// The reader shared by the harnesses whose logs are one JSON entry per line (Codex, Gemini CLI, Copilot
// CLI): it keeps the seam's line accounting (records + skipped + blank == lines; a torn final line is
// skipped), checks every line with the shared well-formedness rule, and hands each parsed entry to the
// harness's EntryMapper, which fills the shared record model. Every line is parsed (these logs are small and
// a mapper carries state from line to line: Codex's model, Copilot's working directory), so `want` is not
// consulted and nothing is declined.
#pragma once
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>

#include "core/record/transcript_reader.h"

namespace csift {

// Turns one parsed entry into a Record. One mapper reads one transcript front to back; decode() uses a fresh
// one, so a line read back alone is mapped without the state earlier lines would have given it.
class EntryMapper {
 public:
  virtual ~EntryMapper() = default;
  // Fills r (line, offset and length are already set; r.type is "user" / "assistant" for an entry that
  // carries a conversational message) and returns the entry's kind as the harness names it, for the census.
  virtual std::string map(const nlohmann::json& entry, Record& r) = 0;
};

class JsonlEntryReader : public TranscriptReader {
 public:
  ReadStats read(const Transcript& t, const ReadOptions& opts, RecordSink& sink) const override;
  bool decode(std::string_view line, Record& out, std::string& error) const override;
  ScanStats read_raw_lines(const Transcript& t, const RawLineFn& fn,
                           const CancelToken* cancel) const override;
  // The mapped records follow Claude Code's shapes for a prompt (a `user` record with string content), so
  // Claude Code's turn rule applies to them unchanged.
  TurnOpener turn_opener() const override;
  // A compressed file's lines are the decompressed stream's.
  bool laid_out_in_memory(const Transcript& t) const override { return compressed(t); }

 protected:
  // A mapper for transcript t (nullptr: a line decoded alone).
  virtual std::unique_ptr<EntryMapper> mapper(const Transcript* t) const = 0;
  // Whether t's file is zstd-compressed (Codex's `.jsonl.zst`): then its lines are those of the decompressed
  // stream (core/scan/zstd_lines.h), and a frame that does not decode is one skipped line naming why.
  virtual bool compressed(const Transcript& t) const {
    (void)t;
    return false;
  }
};

// Helpers the mappers share.
// Makes r a message record of `role` ("user", "assistant") with content: the shape of every mapped entry.
void make_message(Record& r, const char* role);
// An interrupt or abort: r becomes the user record that closes every call still `pending` with the result
// `why`, marked interrupted (each moved to `answered`); with none pending, Claude Code's interrupt text.
void interrupt_pending_calls(Record& r, std::set<std::string>& pending, std::set<std::string>& answered,
                             const std::string& why);
std::string entry_string(const nlohmann::json& j, const char* key);
// A text block / the content string of a message.
Block text_block(std::string text);
Block thinking_block(std::string text);
Block tool_use_block(std::string id, std::string name, std::string input_json);
// A tool result with the status and exit code its harness recorded (ok / none when it recorded none).
Block tool_result_block(std::string call_id, std::string text, bool is_error,
                        CallStatus status = CallStatus::ok, std::optional<int64_t> exit_code = std::nullopt);
// A `bash -lc <script>` style argv (any shell, -c or -lc) read as its script; nullopt for any other argv.
std::optional<std::string> shell_script_of(const nlohmann::json& argv);

}  // namespace csift
