// What `verbatim` restores from one transcript, by turn (SPEC.md §9.8): each turn's human side (the opener a
// person wrote: a prompt, an AskUserQuestion answer, a rejection with a message), every agent message of
// the turn in order, and its tool calls; plus the compaction boundaries (each summary's line). A summary is
// a member of its turn, never a delimiter, so turns read straight across compactions.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/store/classified_transcript.h"

namespace csift {

struct TurnPiece {
  uint64_t line = 0;
  std::string uuid, timestamp;
  std::string text;                 // normalized (line ends unified, outer whitespace trimmed)
  size_t raw_newlines = 0;          // newlines of the text as written (the elision marker's line count)
  std::vector<std::string> images;  // `#N` or `L<line>i<n>` per image of the record
};

struct TurnSlice {
  int turn_index = -1;  // -1: before the first opener
  std::optional<TurnPiece> user;
  std::vector<TurnPiece> agents;         // every agent message, file order
  std::vector<uint64_t> tool_use_lines;  // one per tool call
  std::vector<uint64_t> failed_lines;    // one per errored tool result
  uint64_t first_line = 0, last_line = 0;
};

struct Boundary {
  uint64_t line = 0;  // the summary record's line
  size_t summary_chars = 0;
  std::string summary_text;
};

struct SessionTurns {
  std::vector<TurnSlice> turns;  // file order
  std::vector<Boundary> boundaries;
  int turn_count = 0;
};

std::string normalize_text(std::string_view text);
SessionTurns build_session_turns(const ClassifiedTranscript& ct);

}  // namespace csift
