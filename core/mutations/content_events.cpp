#include "core/mutations/content_events.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include "core/harness/claude_code/claude_fields.h"
#include "core/harness/harness_entry.h"
#include "core/json/stored_json.h"
#include "core/mutations/bash_content.h"
#include "core/mutations/bash_mutations.h"
#include "core/record/call_join.h"
#include "core/record/transcript_reader.h"
#include "core/record/turns.h"
#include "core/scan/substring_finder.h"

namespace csift {

std::string path_basename(const std::string& path) {
  const size_t slash = path.find_last_of("/\\");
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

namespace {

using ce_json = nlohmann::json;

// Any of many needles (SubstringFinder takes at most 16 at a time).
class NeedleSet {
 public:
  NeedleSet(const std::vector<std::string>& needles, bool caseless) {
    std::vector<std::string> group;
    for (const std::string& n : needles) {
      if (n.empty()) continue;
      group.push_back(n);
      if (group.size() == SubstringFinder::kMaxNeedles) {
        finders_.push_back(std::make_shared<SubstringFinder>(group, caseless));
        group.clear();
      }
    }
    if (!group.empty()) finders_.push_back(std::make_shared<SubstringFinder>(group, caseless));
  }
  bool any_in(std::string_view text) const {
    for (const auto& f : finders_)
      if (f->contains(text)) return true;
    return false;
  }

 private:
  std::vector<std::shared_ptr<const SubstringFinder>> finders_;
};

bool content_tool(std::string_view name) {
  return name == "Read" || name == "Write" || name == "Edit" || name == "MultiEdit";
}

// A mutating-class marker (SPEC.md §9.13): index-only git commands change no worktree file.
bool opaque_marker(const std::string& marker) {
  if (marker.rfind("git:", 0) == 0) return marker != "git:add" && marker != "git:commit";
  return marker.rfind("fmt:", 0) == 0 || marker.rfind("interp:", 0) == 0 || marker.rfind("pkg:", 0) == 0 ||
         marker.rfind("extract:", 0) == 0;
}

std::string integrity_cause(std::string_view text) {
  if (text.find("modified since read") != std::string_view::npos ||
      text.find("unexpectedly modified") != std::string_view::npos)
    return "modified-since-read";
  if (text.find("has not been read yet") != std::string_view::npos) return "not-read-yet";
  if (text.find("String to replace not found") != std::string_view::npos) return "string-not-found";
  if (text.find("does not exist") != std::string_view::npos) return "file-not-exist";
  return "";
}

// The largest line number or line count a record may name. No file we could hold has such a line, and sums of
// a few such numbers stay far from int64's end: the replay adds a hunk's start, its lengths and the shift of
// the hunks before it, so an unbounded start (a hostile `9223372036854775807`) overflowed there.
constexpr int64_t kMostLineNumber = int64_t{1} << 40;

// A line number or count as the log holds it: an integer (or an integral float) within the bound, else none.
std::optional<int64_t> ce_line_number(const ce_json& v) {
  if (v.is_number_unsigned()) {
    const auto u = v.get<uint64_t>();
    return u <= static_cast<uint64_t>(kMostLineNumber) ? std::optional<int64_t>(static_cast<int64_t>(u))
                                                       : std::nullopt;
  }
  if (v.is_number_integer()) {
    const auto i = v.get<int64_t>();
    return i >= -kMostLineNumber && i <= kMostLineNumber ? std::optional<int64_t>(i) : std::nullopt;
  }
  if (v.is_number_float()) {
    const double d = v.get<double>();
    const auto bound = static_cast<double>(kMostLineNumber);
    if (d >= -bound && d <= bound && d == std::floor(d)) return static_cast<int64_t>(d);
  }
  return std::nullopt;
}

// A number or flag of a tool result or input (an object), as the log holds it: a field of another type or
// out of bounds (a hand-made or damaged record) reads as the default, never as an exception that fails the
// whole call.
int64_t ce_number_at(const ce_json& obj, const char* key, int64_t fallback) {
  const auto it = obj.find(key);
  return it != obj.end() ? ce_line_number(*it).value_or(fallback) : fallback;
}
bool ce_flag_at(const ce_json& obj, const char* key) {
  const auto it = obj.find(key);
  return it != obj.end() && it->is_boolean() && it->get<bool>();
}

std::vector<PatchHunk> parse_patch(const ce_json& v) {
  std::vector<PatchHunk> out;
  if (!v.is_array()) return out;
  for (const ce_json& h : v) {
    if (!h.is_object()) continue;
    PatchHunk p;
    // A hunk naming a line it cannot mean (another type, or past kMostLineNumber) cannot be placed: the patch
    // reads as none, as an unreadable unified diff does, and the edit is replayed by its strings alone.
    for (const char* key : {"oldStart", "oldLines", "newStart", "newLines"})
      if (h.contains(key) && !ce_line_number(h[key])) return {};
    p.old_start = ce_number_at(h, "oldStart", 0);
    p.old_lines = ce_number_at(h, "oldLines", 0);
    p.new_start = ce_number_at(h, "newStart", 0);
    p.new_lines = ce_number_at(h, "newLines", 0);
    if (h.contains("lines") && h["lines"].is_array())
      for (const ce_json& l : h["lines"])
        if (l.is_string()) p.lines.push_back(l.get<std::string>());
    out.push_back(std::move(p));
  }
  return out;
}

// A unified diff's hunks (`@@ -a,b +c,d @@`, a count of 1 left out; then ' ', '-', '+' and `\ No newline`
// lines), as Claude Code's structuredPatch holds them. A header without line numbers ends the reading: such a
// diff cannot be placed, and no hunks are returned.
std::vector<PatchHunk> parse_unified_diff(std::string_view diff) {
  std::vector<PatchHunk> out;
  const auto range = [](std::string_view s, int64_t& start, int64_t& count) {
    const size_t comma = s.find(',');
    try {
      start = std::stoll(std::string(s.substr(0, comma)));
      count = comma == std::string_view::npos ? 1 : std::stoll(std::string(s.substr(comma + 1)));
    } catch (...) {
      return false;
    }
    return start >= 0 && count >= 0 && start <= kMostLineNumber && count <= kMostLineNumber;
  };
  size_t at = 0;
  while (at < diff.size()) {
    const size_t nl = std::min(diff.find('\n', at), diff.size());
    const std::string_view line = diff.substr(at, nl - at);
    at = nl + 1;
    if (line.starts_with("@@")) {
      // @@ -a[,b] +c[,d] @@
      const size_t minus = line.find(" -"),
                   plus = line.find(" +", minus == std::string_view::npos ? 0 : minus);
      if (minus == std::string_view::npos || plus == std::string_view::npos) return {};
      const size_t old_end = line.find(' ', minus + 2), new_end = line.find(' ', plus + 2);
      PatchHunk h;
      if (!range(line.substr(minus + 2, old_end - minus - 2), h.old_start, h.old_lines) ||
          !range(line.substr(plus + 2, new_end == std::string_view::npos ? new_end : new_end - plus - 2),
                 h.new_start, h.new_lines))
        return {};
      out.push_back(std::move(h));
    } else if (!out.empty() && !line.empty() &&
               (line[0] == ' ' || line[0] == '-' || line[0] == '+' || line[0] == '\\')) {
      out.back().lines.emplace_back(line);
    } else if (line.starts_with("---") || line.starts_with("+++") || (out.empty() && line.empty())) {
      continue;  // file headers before the first hunk
    } else if (!out.empty() && line.empty() && at >= diff.size()) {
      break;  // the diff's final newline
    } else {
      return {};
    }
  }
  return out;
}

std::vector<StringEdit> parse_edits(const ce_json& input) {
  std::vector<StringEdit> out;
  auto one = [&](const ce_json& e) {
    if (!e.is_object()) return;
    out.push_back(
        {json_string_at(e, "old_string"), json_string_at(e, "new_string"), ce_flag_at(e, "replace_all")});
  };
  if (input.contains("edits") && input["edits"].is_array()) {
    for (const ce_json& e : input["edits"])
      one(e);
  } else {
    one(input);
  }
  return out;
}

// The paths a staleReadFileStateHint names: "[This command modified N file(s) you've previously read: a, b
// and 3 more. Call Read before editing.]" — relative to the shell's cwd; a capped list names its first few.
std::vector<std::string> hint_paths(const std::string& hint) {
  std::vector<std::string> out;
  const std::string lead = "previously read: ";
  size_t at = hint.find(lead);
  if (at == std::string::npos) return out;
  at += lead.size();
  size_t end = hint.find(". Call Read", at);
  if (end == std::string::npos) end = hint.find(']', at);
  if (end == std::string::npos) end = hint.size();
  std::string list = hint.substr(at, end - at);
  const size_t more = list.rfind(" and ");
  std::vector<std::string> parts;
  auto split_commas = [&](const std::string& s) {
    size_t i = 0;
    while (i <= s.size()) {
      size_t j = s.find(", ", i);
      if (j == std::string::npos) j = s.size();
      if (j > i) parts.push_back(s.substr(i, j - i));
      i = j + 2;
    }
  };
  if (more != std::string::npos) {
    split_commas(list.substr(0, more));
    const std::string tail = list.substr(more + 5);
    if (tail.find(" more") == std::string::npos) parts.push_back(tail);
  } else {
    split_commas(list);
  }
  for (std::string& p : parts)
    out.push_back(std::move(p));
  return out;
}

class ContentScan {
 public:
  ContentScan(const Transcript& t, const std::vector<std::string>& files) : transcript_(t), files_(files) {
    for (size_t i = 0; i < files.size(); ++i) {
      for (const std::string& key : target_path_keys(files[i])) {
        index_[key] = i;
        caseless_ = caseless_ || key != files[i];  // a Windows file: any case of its name is it
      }
      basenames_.push_back(path_basename(files[i]));
    }
  }

  TranscriptContent run(const CancelToken* cancel) {
    const TranscriptReader& reader = reader_for(transcript_);
    const NeedleSet names(basenames_, caseless_);
    const SkimResult gate = reader.skim(
        transcript_, [&names](std::string_view block) { return names.any_in(block); },
        [](std::string_view) { return 0.0; }, cancel);
    if (!gate.error.empty() || !gate.may_match) {
      out_.screened_out = gate.error.empty();
      out_.skipped_lines = gate.skipped_lines;
      out_.error = gate.error;
      return std::move(out_);
    }
    const auto admits = [this, &names](std::string_view line) {
      // another harness's log: every line (its shell tools have names of their own)
      return edits_ != nullptr || names.any_in(line) ||
             (line.find("tool_use") != std::string_view::npos &&
              (line.find("Bash\"") != std::string_view::npos ||
               line.find("PowerShell\"") != std::string_view::npos));
    };
    const ReadStats stats = read_joined(
        transcript_, admits, join_, [this](Record&& r) { take(std::move(r)); }, cancel);
    if (stats.error.empty() && !stats.cancelled) {
      const size_t in_pass = out_.events.size();
      join_.join_results_before_calls(transcript_, cancel);
      place_late_events(in_pass);
    }
    out_.skipped_lines = stats.skipped_lines;
    out_.error = stats.error;
    number_turns();
    return std::move(out_);
  }

 private:
  struct Pending {
    std::string tool;
    size_t target = 0;
    bool bash = false;
    std::string cwd;
    ce_json input;
    uint64_t line = 0;
    std::optional<ContentEvent> exact_write;  // Bash: a deterministic whole-file write, kept until its result
    size_t skeleton = 0;
    bool harness_edit = false;  // another harness's edit call: `events` land with its result
    bool harness_read = false;  // another harness's file read: its result's window is a read of `target`
    std::vector<ContentEvent> events;
  };

  const Transcript& transcript_;
  // how another harness's calls read as edits and shell commands (null: Claude Code's tools)
  const ToolEditReading* edits_ = harness_entry(transcript_.harness).tool_edits;
  const std::vector<std::string>& files_;
  std::unordered_map<std::string, size_t> index_;
  std::vector<std::string> basenames_;
  bool caseless_ = false;
  TranscriptContent out_;
  std::unordered_map<std::string, Pending> pending_;
  // closes a pending call with its result, whichever of the two the transcript wrote first
  CallJoin join_{[this](const Record& r, const Block& b, size_t at) { close_call(r, b, at); }};
  TurnSkeleton skeleton_{turn_rule_of(transcript_)};  // what turn numbering needs of each record
  std::vector<size_t> event_skeleton_, opaque_skeleton_;

  // The file a path names, resolved the way the record that used it meant it (paths.h).
  std::optional<size_t> target_of(const std::string& path, const std::string& cwd) const {
    const auto abs = resolve_path(path, cwd);
    if (!abs) return std::nullopt;
    auto it = index_.find(path_key(*abs));
    if (it == index_.end()) return std::nullopt;
    return it->second;
  }

  // A path that cannot be resolved (relative with no cwd, Git-Bash's own tree) but whose name is a target's
  // may be that file: the target it may be, for a change to count as a boundary rather than be missed.
  std::optional<size_t> maybe_target(const std::string& path, const std::string& cwd) const {
    if (path.empty() || resolve_path(path, cwd)) return std::nullopt;
    const std::string name = path_basename(path);
    auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
    for (size_t i = 0; i < files_.size(); ++i)
      if (std::equal(name.begin(), name.end(), basenames_[i].begin(), basenames_[i].end(),
                     [&](char a, char b) { return lower(a) == lower(b); }))
        return i;
    return std::nullopt;
  }

  void emit(ContentEvent e, const Record& r, size_t at) {
    e.line = e.line ? e.line : r.line;
    if (e.timestamp.empty()) e.timestamp = r.timestamp;
    out_.events.push_back(std::move(e));
    event_skeleton_.push_back(at);
  }

  void take(Record&& r) {
    const size_t at = skeleton_.keep(r);
    if (r.type == "attachment") take_attachment(r, at);
    if (edits_ && edits_->applied) {
      std::string call_id;
      ToolEdits applied;
      if (edits_->applied(r, call_id, applied)) confirm_applied(call_id, applied, r);
    }
    for (const Block& b : r.message.blocks) {
      if (b.kind == BlockKind::tool_use && edits_) {
        open_harness_call(r, b, at);
      } else if (b.kind == BlockKind::tool_use) {
        open_call(r, b, at);
      } else if (b.kind == BlockKind::tool_result) {
        join_.result(r, b, at);
      }
    }
  }

  void take_attachment(const Record& r, size_t at) {
    const ce_json a = parse_stored_object(cc(r).attachment_json);
    if (json_string_at(a, "type") != "edited_text_file") return;
    const auto target = target_of(json_string_at(a, "filename"), r.cwd);
    if (!target) return;
    ContentEvent e;
    e.kind = ContentEventKind::boundary;
    e.target = *target;
    e.tool = "attachment";
    e.cause = "external-edit";
    e.detail = json_string_at(a, "snippet").empty()
                   ? "edited_text_file attachment with an empty snippet (over Claude Code's budget)"
                   : "edited_text_file attachment: the file changed outside the tool stream";
    // the formatter-class clue: the latest formatter or interpreter run before it in this transcript
    for (auto it = out_.opaque.rbegin(); it != out_.opaque.rend(); ++it) {
      if (it->marker.rfind("fmt:", 0) == 0 || it->marker.rfind("interp:", 0) == 0) {
        e.detail += "; " + it->marker + " ran at line " + std::to_string(it->line);
        break;
      }
    }
    emit(std::move(e), r, at);
  }

  // A PowerShell call (Claude Code's tool, Copilot CLI's): opaque, only counted (SPEC.md §9.13).
  void note_powershell(const Record& r, const Block& b, size_t at) {
    out_.opaque.push_back(
        {"powershell", stored_string_field(b.input_json, "command"), r.line, r.timestamp, -1});
    opaque_skeleton_.push_back(at);
  }

  void open_call(const Record& r, const Block& b, size_t at) {
    if (b.name == "Bash") return open_bash(r, b, stored_string_field(b.input_json, "command"), at);
    if (b.name == "PowerShell") return note_powershell(r, b, at);
    if (!content_tool(b.name)) return;
    const std::string path = stored_string_field(b.input_json, "file_path");
    const auto target = target_of(path, r.cwd);
    if (!target) {
      const auto maybe = b.name == "Read" ? std::nullopt : maybe_target(path, r.cwd);
      if (!maybe) return;
      ContentEvent e;
      e.kind = ContentEventKind::boundary;
      e.target = *maybe;
      e.tool = b.name;
      e.cause = "unresolved-path";
      e.detail = b.name + " of " + path + ", which cannot be resolved" +
                 (r.cwd.empty() ? " (its record has no cwd)" : " against the cwd " + r.cwd) +
                 ": it may be this file";
      return emit(std::move(e), r, at);
    }
    Pending p;
    p.tool = b.name;
    p.target = *target;
    p.line = r.line;
    if (b.name != "Read") p.input = parse_stored_object(b.input_json);
    pending_[b.id] = std::move(p);
    join_.open(b.id, r.line, at);
  }

  // What the log says a pending edit call applied (Codex's patch_apply_end, read before the call's result
  // lands it): a write takes the logged content, an update the logged diff, which the replay places and
  // prefers to the patch text where the two disagree (tools/recover/replay.cpp). A call already landed, or a
  // file its call did not name, is left as it is.
  void confirm_applied(const std::string& call_id, const ToolEdits& applied, const Record& r) {
    const auto it = pending_.find(call_id);
    if (it == pending_.end() || !it->second.harness_edit) return;
    for (ContentEvent& e : it->second.events) {
      for (const ToolEdit& f : applied.files) {
        if (target_of(f.path, r.cwd) != e.target) continue;
        if (e.kind == ContentEventKind::write && f.kind == ToolEditKind::write && f.content != e.content) {
          e.content = f.content;
          e.applied_note =
              "Codex's patch_apply_end records other content than the patch's Add File: the recorded one, "
              "which Codex applied, is kept";
        } else if (e.kind == ContentEventKind::edit && f.kind == ToolEditKind::patch) {
          e.patch = parse_unified_diff(f.unified_diff);
        }
      }
    }
  }

  // An unresolvable path whose name is a target's: a boundary naming the call (SPEC.md §9.13).
  void unresolved_boundary(const Record& r, size_t at, size_t target, const std::string& tool,
                           const std::string& path) {
    ContentEvent e;
    e.kind = ContentEventKind::boundary;
    e.target = target;
    e.tool = tool;
    e.cause = "unresolved-path";
    e.detail = tool + " of " + path + ", which cannot be resolved" +
               (r.cwd.empty() ? " (its record has no cwd)" : " against the cwd " + r.cwd) +
               ": it may be this file";
    emit(std::move(e), r, at);
  }

  // The updated file left for `to`: a boundary on the file it left (its content is not carried across).
  static void moved_away(Pending& p, ContentEvent m, const std::string& tool, const std::string& to) {
    m.cause = "moved-away";
    m.detail = tool + " moved the file to " + to;
    p.events.push_back(std::move(m));
  }

  // Another harness's call (core/harness/tool_edits.h): an edit tool's changes become events that land with
  // a result that is not an error; a shell tool is read as Claude Code's Bash is.
  void open_harness_call(const Record& r, const Block& b, size_t at) {
    if (b.name == "powershell" || b.name == "PowerShell") return note_powershell(r, b, at);
    if (const auto path = edits_->read_path ? edits_->read_path(b.name, b.input_json) : std::nullopt) {
      // a read, as Claude Code's Read: of a target only, and never a boundary (it changes nothing)
      const auto target = target_of(*path, r.cwd);
      if (!target) return;
      Pending p;
      p.tool = b.name;
      p.target = *target;
      p.line = r.line;
      p.harness_read = true;
      pending_[b.id] = std::move(p);
      join_.open(b.id, r.line, at);
      return;
    }
    ToolEdits te;
    if (!edits_->edits || !edits_->edits(b.name, b.input_json, te)) {
      const auto command = te.command              ? te.command
                           : edits_->shell_command ? edits_->shell_command(b.name, b.input_json)
                                                   : std::nullopt;
      if (command) open_bash(r, b, *command, at);
      return;
    }
    Pending p;
    p.tool = b.name;
    p.line = r.line;
    p.harness_edit = true;
    auto event = [&](ContentEventKind kind, size_t target) {
      ContentEvent e;
      e.kind = kind;
      e.target = target;
      e.tool = b.name;
      return e;
    };
    for (const ToolEdit& f : te.files) {
      const auto target = target_of(f.path, r.cwd);
      if (!target) {
        if (const auto maybe = maybe_target(f.path, r.cwd))
          unresolved_boundary(r, at, *maybe, b.name, f.path);
      } else if (f.kind == ToolEditKind::write) {
        ContentEvent e = event(ContentEventKind::write, *target);
        e.source = "write";
        e.content = f.content;
        p.events.push_back(std::move(e));
      } else if (f.kind == ToolEditKind::remove) {
        ContentEvent e = event(ContentEventKind::boundary, *target);
        e.cause = "deleted";
        e.detail = b.name + " deleted the file";
        p.events.push_back(std::move(e));
      } else if (f.chunks.empty() && f.edits.empty()) {
        // An update known only by the diff Codex recorded as applied (its end event or FileChange item, no
        // patch text): placed by the diff's line numbers (tools/recover/replay.cpp); a diff that cannot be
        // read leaves the file changed in a way nothing here shows.
        ContentEvent e = event(ContentEventKind::edit, *target);
        e.source = "harness-diff";
        e.patch = parse_unified_diff(f.unified_diff);
        if (e.patch.empty() && f.unified_diff.find_first_not_of(" \t\r\n") != std::string::npos) {
          e.kind = ContentEventKind::boundary;
          e.cause = "unreadable-diff";
          e.detail = b.name + " recorded the update of " + f.path +
                     " as a unified diff this replay cannot read (no hunk with line numbers)";
        }
        p.events.push_back(std::move(e));
        if (!f.move_to.empty()) moved_away(p, event(ContentEventKind::boundary, *target), b.name, f.move_to);
      } else {
        ContentEvent e = event(ContentEventKind::edit, *target);
        e.source = "harness-edit";  // replayed from a complete buffer only (tools/recover/replay.cpp)
        for (const ToolStringEdit& s : f.edits)
          e.edits.push_back({s.old_string, s.new_string, s.replace_all, s.expected});
        e.chunks = f.chunks;
        p.events.push_back(std::move(e));
        if (!f.move_to.empty()) moved_away(p, event(ContentEventKind::boundary, *target), b.name, f.move_to);
      }
      if (f.move_to.empty()) continue;
      if (const auto to = target_of(f.move_to, r.cwd)) {
        ContentEvent e = event(ContentEventKind::boundary, *to);
        e.cause = "moved-in";
        e.detail = b.name + " moved " + f.path + " here after updating it (its content is that file's)";
        p.events.push_back(std::move(e));
      } else if (const auto maybe = maybe_target(f.move_to, r.cwd)) {
        unresolved_boundary(r, at, *maybe, b.name, f.move_to);
      }
    }
    if (p.events.empty()) return;
    pending_[b.id] = std::move(p);
    join_.open(b.id, r.line, at);
  }

  void open_bash(const Record& r, const Block& b, const std::string& command, size_t at) {
    Pending p;
    if (const auto w = bash_exact_write(command, r.cwd)) {
      auto it = index_.find(path_key(w->path));
      if (it != index_.end()) {
        ContentEvent e;
        e.kind = ContentEventKind::write;
        e.target = it->second;
        e.tool = b.name;
        e.source = w->append ? "bash-append" : w->source;
        e.content = w->content;
        e.detail = command;
        p.exact_write = std::move(e);
      }
    }
    for (const BashMutation& m : bash_mutations(command, r.cwd)) {
      if (m.resolution == PathResolution::marker) {
        if (opaque_marker(m.path)) {
          out_.opaque.push_back({m.path, command, r.line, r.timestamp, -1});
          opaque_skeleton_.push_back(at);
        }
        continue;
      }
      if (m.resolution == PathResolution::unresolved) continue;
      auto it = index_.find(path_key(m.path));
      if (it == index_.end()) continue;
      ContentEvent e;
      e.kind = ContentEventKind::boundary;
      e.target = it->second;
      e.tool = b.name;
      e.cause = "bash-mutation";
      e.detail = m.op + " " + m.path_verbatim + " (" + resolution_name(m.resolution) + ")";
      // an exact write of this file replaces its heuristic row once its result shows it ran
      if (p.exact_write && p.exact_write->target == e.target) {
        p.exact_write->detail = e.detail;
        continue;
      }
      emit(std::move(e), r, at);
    }
    if (p.exact_write) {
      p.exact_write->line = r.line;
      p.exact_write->timestamp = r.timestamp;
      p.skeleton = at;
    }
    p.bash = true;
    p.tool = b.name;
    p.cwd = r.cwd;
    p.line = r.line;
    pending_[b.id] = std::move(p);
    join_.open(b.id, r.line, at);
  }

  void close_call(const Record& r, const Block& b, size_t at) {
    auto it = pending_.find(b.tool_use_id);
    Pending p = std::move(it->second);
    pending_.erase(it);
    if (p.bash) return close_bash(r, b, p, at);
    if (p.harness_read) return close_harness_read(r, b, p, at);
    if (p.harness_edit) {
      // a failed result never landed: each file it named is annotated, nothing replays
      for (ContentEvent& e : p.events) {
        if (b.is_error) {
          if (e.kind == ContentEventKind::boundary) continue;
          e.kind = ContentEventKind::annotation;
          e.cause = "failed-edit";
          e.detail = one_line_excerpt(b.content_text);
          e.content.clear();
          e.edits.clear();
          e.chunks.clear();
        }
        emit(std::move(e), r, at);
      }
      return;
    }
    if (b.is_error) {
      const std::string cause = integrity_cause(b.content_text);
      if (cause.empty()) return;
      ContentEvent e;
      e.kind = cause == "modified-since-read" ? ContentEventKind::boundary : ContentEventKind::annotation;
      e.target = p.target;
      e.tool = p.tool;
      e.cause = cause;
      e.detail = one_line_excerpt(b.content_text);
      emit(std::move(e), r, at);
      return;
    }
    const ce_json result = parse_stored_object(cc(r).tool_use_result_json);
    if (p.tool == "Read") return close_read(r, b, result, p, at);
    if (p.tool == "Write") return close_write(r, result, p, at);
    close_edit(r, result, p, at);
  }

  static std::string one_line_excerpt(const std::string& text) {
    std::string s = text.substr(0, 200);
    for (char& c : s)
      if (c == '\n') c = ' ';
    return s;
  }

  void close_read(const Record& r, const Block& b, const ce_json& result, const Pending& p, size_t at) {
    if (!result.contains("file") || !result["file"].is_object()) return close_gutter_read(r, b, p, at);
    const ce_json& f = result["file"];
    if (!f.contains("content") || !f["content"].is_string()) return;
    ContentEvent e;
    e.kind = ContentEventKind::read;
    e.target = p.target;
    e.tool = "Read";
    e.source = "read";
    e.content = f["content"].get<std::string>();
    e.start_line = ce_number_at(f, "startLine", 1);
    e.num_lines = ce_number_at(f, "numLines", 0);
    e.total_lines = ce_number_at(f, "totalLines", 0);
    emit(std::move(e), r, at);
  }

  // Another harness's read that did not fail: the lines its result shows (the harness's own reading of its
  // result text, core/harness/tool_edits.h), a window of the file unless it shows every line.
  void close_harness_read(const Record& r, const Block& b, const Pending& p, size_t at) {
    ToolReadWindow w;
    if (b.is_error || !edits_->read_window || !edits_->read_window(p.tool, b.content_text, w)) return;
    ContentEvent e;
    e.kind = ContentEventKind::read;
    e.target = p.target;
    e.tool = p.tool;
    e.source = "read";
    e.content = std::move(w.content);
    e.start_line = w.start_line;
    e.num_lines = w.num_lines;
    e.total_lines = w.total_lines;
    emit(std::move(e), r, at);
  }

  // A Read whose result carries no toolUseResult.file (older or trimmed transcripts): the numbered lines the
  // model saw (`     7→text`, or a tab), consecutive from the first, up to the first line of another shape.
  // The file's length is not shown, so this is a window; a line at Read's display cut is not trusted.
  void close_gutter_read(const Record& r, const Block& b, const Pending& p, size_t at) {
    const std::string& text = b.content_text;
    ContentEvent e;
    e.kind = ContentEventKind::read;
    e.target = p.target;
    e.tool = "Read";
    e.source = "read-gutter";
    int64_t expect = 0;
    size_t i = 0;
    while (i < text.size()) {
      size_t eol = text.find('\n', i);
      if (eol == std::string::npos) eol = text.size();
      const std::string_view line(text.data() + i, eol - i);
      size_t k = line.find_first_not_of(' ');
      size_t digits_end = k == std::string_view::npos ? k : line.find_first_not_of("0123456789", k);
      if (k == std::string_view::npos || digits_end == k || digits_end == std::string_view::npos) break;
      const int64_t n = std::stoll(std::string(line.substr(k, std::min<size_t>(digits_end - k, 15))));
      std::string_view rest = line.substr(digits_end);
      if (rest.rfind("\xE2\x86\x92", 0) == 0)
        rest.remove_prefix(3);
      else if (rest.rfind("\t", 0) == 0)
        rest.remove_prefix(1);
      else
        break;
      if ((expect && n != expect) || rest.size() >= 2000) break;
      if (!expect) e.start_line = n;
      expect = n + 1;
      if (e.num_lines) e.content += '\n';
      e.content.append(rest);
      ++e.num_lines;
      i = eol + 1;
    }
    if (e.num_lines == 0) return;
    emit(std::move(e), r, at);
  }

  void close_write(const Record& r, const ce_json& result, const Pending& p, size_t at) {
    ContentEvent e;
    e.kind = ContentEventKind::write;
    e.target = p.target;
    e.tool = "Write";
    e.source = "write";
    if (result.contains("content") && result["content"].is_string()) {
      e.content = result["content"].get<std::string>();
    } else {
      e.content = json_string_at(p.input, "content");
    }
    if (result.contains("originalFile") && result["originalFile"].is_string())
      e.original_file = result["originalFile"].get<std::string>();
    emit(std::move(e), r, at);
  }

  void close_edit(const Record& r, const ce_json& result, const Pending& p, size_t at) {
    ContentEvent e;
    e.kind = ContentEventKind::edit;
    e.target = p.target;
    e.tool = p.tool;
    if (result.contains("structuredPatch")) e.patch = parse_patch(result["structuredPatch"]);
    e.edits = parse_edits(p.input);
    for (const char* key : {"originalFile", "originalFileContents"})
      if (result.contains(key) && result[key].is_string()) e.original_file = result[key].get<std::string>();
    const bool stale = ce_flag_at(result, "staleRecovered");
    emit(std::move(e), r, at);
    if (stale) {
      ContentEvent s;
      s.kind = ContentEventKind::boundary;
      s.target = p.target;
      s.tool = p.tool;
      s.cause = "stale-recovered";
      s.detail = "the edit applied, but the file had changed on disk since it was read";
      emit(std::move(s), r, at);
    }
  }

  void close_bash(const Record& r, const Block& b, Pending& p, size_t at) {
    if (p.exact_write) {
      ContentEvent e = std::move(*p.exact_write);
      if (b.is_error) {  // it may have written part, or nothing: only the heuristic reading stays
        e.kind = ContentEventKind::boundary;
        e.cause = "bash-mutation";
        e.content.clear();
      }
      out_.events.push_back(std::move(e));
      event_skeleton_.push_back(p.skeleton);
    }
    const std::string& raw = cc(r).tool_use_result_json;
    if (raw.find("staleReadFileStateHint") == std::string::npos) return;
    const std::string hint = stored_string_field(raw, "staleReadFileStateHint");
    for (const std::string& named : hint_paths(hint)) {
      const auto target = target_of(named, p.cwd.empty() ? r.cwd : p.cwd);
      if (!target) continue;
      ContentEvent e;
      e.kind = ContentEventKind::boundary;
      e.target = *target;
      e.tool = p.tool;
      e.cause = "hint-modified";
      e.detail =
          "Claude Code's staleReadFileStateHint names it after the command at line " + std::to_string(p.line);
      emit(std::move(e), r, at);
    }
  }

  // The events of results joined after the pass (each written before its call) go where their result line
  // puts them among the events of the pass, so the replay meets them in transcript order.
  void place_late_events(size_t in_pass) {
    for (size_t k = in_pass; k < out_.events.size(); ++k) {
      size_t to = 0;
      while (to < k && out_.events[to].line <= out_.events[k].line)
        ++to;
      std::rotate(out_.events.begin() + static_cast<std::ptrdiff_t>(to),
                  out_.events.begin() + static_cast<std::ptrdiff_t>(k),
                  out_.events.begin() + static_cast<std::ptrdiff_t>(k) + 1);
      std::rotate(event_skeleton_.begin() + static_cast<std::ptrdiff_t>(to),
                  event_skeleton_.begin() + static_cast<std::ptrdiff_t>(k),
                  event_skeleton_.begin() + static_cast<std::ptrdiff_t>(k) + 1);
    }
  }

  void number_turns() {
    const TurnAssignment turns = skeleton_.number();
    out_.turns = turns.turn_count;
    for (size_t i = 0; i < out_.events.size(); ++i)
      out_.events[i].turn = turns.turn_of[event_skeleton_[i]];
    for (size_t i = 0; i < out_.opaque.size(); ++i)
      out_.opaque[i].turn = turns.turn_of[opaque_skeleton_[i]];
  }
};

}  // namespace

TranscriptContent scan_content_events(const Transcript& t, const std::vector<std::string>& files,
                                      const CancelToken* cancel) {
  return ContentScan(t, files).run(cancel);
}

}  // namespace csift
