// Where the call running now was written (SPEC.md §9.5): the transcript — a top-level session or a subagent
// lane — whose assistant record holds the calling tool_use, found by the id the client names for the call
// (Claude Code's `_meta["claudecode/toolUseId"]`) or by a marker in the call's input (`@self:<marker>`).
//
// Claude Code writes a conversation's records to disk in batches (about every 100 ms), so a call usually
// arrives before its own tool_use is in the file (measured with 2.1.332: 3–517 ms later). The search
// therefore reads what is on disk, and when the call is not there yet it waits, bounded, for the record to
// land: woken by inotify on the candidate transcripts' directories (a new lane file or session directory
// joins as it appears), reading only the bytes appended since the last look.
//
// Candidates are read in an order that finds the caller first: the sessions the caller's process names (the
// registry row, the environment) with their lanes, then the transcripts written most recently, newest first.
// Every line is screened on its raw bytes before any parse.
#pragma once
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/record/record.h"
#include "core/store/store.h"

namespace csift {

// How long a call waits for its own record to land. Claude Code's measured lag is at most about half a second
// (517 ms over 35 calls); four times that covers a loaded machine, and a call whose record never comes (a
// client that writes no transcript here) is held no longer than this.
inline constexpr int kCallLandingWaitMs = 2000;

// The recent transcripts read: at most this many, written within this long, and the tail of each.
inline constexpr size_t kLandingRecentTranscripts = 64;
inline constexpr int64_t kLandingRecentSeconds = 3600;
inline constexpr uint64_t kLandingTailBytes = 1024ull * 1024;

struct LandingQuery {
  std::string needle;                           // bytes every matching line holds (the prefilter)
  std::function<bool(const Record&)> matches;   // the decoded record is the call
  std::vector<std::string> preferred_sessions;  // session ids read first, with their lanes
  std::string cwd;                              // where a preferred session's project dir is looked for
  bool stop_at_first = true;                    // false: read every candidate (to see an ambiguity)
  int wait_ms = kCallLandingWaitMs;             // 0: no wait, what is on disk now
};

struct CallLanding {
  std::vector<Transcript> hits;  // the transcripts holding the call (one, unless a marker is reused)
  int64_t waited_ms = 0;         // from the search's start until the hit (or until it gave up)
  bool landed_late = false;      // it was not on disk when the search began: found while waiting
  bool waited = false;           // the search waited at all
  std::string woken_by;          // "inotify", or "polling" where inotify cannot be had
  std::string found_among;       // "preferred" (a named session), "recent", "appended" (while waiting)
  size_t candidates = 0;         // candidate transcripts read
  size_t transcripts = 0;        // transcripts seen in the store's listing (0 when it was not listed)
  std::string searched;          // what was read, in words (for a miss and for the evidence)
};

CallLanding find_call_landing(const std::string& projects_root, const LandingQuery& query);

// A transcript's place in the store, relative to the projects root: <project>/<uuid>.jsonl, or
// agent-<id>.jsonl below a `subagents` folder (or beside the sessions, the CC 1.x layout). Sidecars, journals
// and tool-output files are not transcripts.
bool is_transcript_place(const std::filesystem::path& rel);

// True when the record is an assistant message holding a tool_use block with this id.
bool record_has_tool_use_id(const Record& record, std::string_view tool_use_id);

// The landing of the call whose tool_use has `tool_use_id` (stops at the first hit: ids are unique).
CallLanding find_tool_use_landing(const std::string& projects_root, const std::string& tool_use_id,
                                  const std::vector<std::string>& preferred_sessions, const std::string& cwd,
                                  int wait_ms = kCallLandingWaitMs);

// "main transcript of session S (path)" or "subagent lane A of session S (path)".
std::string landing_place(const Transcript& t);
// One evidence line: how long it waited, how it was woken and where it was found (or what was searched).
std::string landing_evidence(const CallLanding& landing, const std::string& what);

}  // namespace csift
