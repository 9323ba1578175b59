#include "core/mutations/file_mutations.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "core/harness/claude_code/claude_fields.h"
#include "core/harness/harness_entry.h"
#include "core/json/stored_json.h"
#include "core/record/call_join.h"
#include "core/record/transcript_reader.h"
#include "core/record/turns.h"
#include "core/scan/substring_finder.h"

namespace csift {

bool is_structured_mutation_tool(std::string_view name) {
  return name == "Edit" || name == "Write" || name == "MultiEdit" || name == "NotebookEdit";
}

namespace {

bool mutating_tool(std::string_view name) {
  return is_structured_mutation_tool(name) || name == "Bash";
}

// Cheap byte screen for a line that may carry an Edit/Write/MultiEdit/NotebookEdit/Bash call.
bool may_call_mutating_tool(std::string_view line) {
  static const SubstringFinder kToolUse({"tool_use"}, false),
      kMutatingTools({"Edit\"", "Write\"", "Bash\""}, false);
  return kToolUse.contains(line) && kMutatingTools.contains(line);
}

std::string structured_op(std::string_view tool) {
  if (tool == "Edit") return "edit";
  if (tool == "MultiEdit") return "multi-edit";
  if (tool == "NotebookEdit") return "notebook-edit";
  return "write";
}

// The integrity refusals that mark an edit-before-read boundary, by the text of the error result.
std::string boundary_cause(std::string_view text) {
  if (text.find("modified since read") != std::string_view::npos ||
      text.find("unexpectedly modified") != std::string_view::npos) {
    return "modified-since-read";
  }
  if (text.find("has not been read yet") != std::string_view::npos) return "not-read-yet";
  return "";
}

// toolUseResult.type == "create"; the parse is skipped when the bytes cannot say so (Edit results carry the
// whole original file).
bool result_says_create(const Record& r) {
  static const SubstringFinder kCreate({"\"create\""}, false);
  const std::string& raw = cc(r).tool_use_result_json;
  if (!kCreate.contains(raw)) return false;
  return stored_string_field(raw, "type") == "create";
}

class MutationScan {
 public:
  explicit MutationScan(const Transcript& t) : transcript_(t) {}

  TranscriptMutations run(const CancelToken* cancel) {
    // Claude Code's lines are screened by its tool names; another harness's log is read whole (its tool
    // names are its own, and its edit tools are few).
    const ReadStats stats = read_joined(
        transcript_,
        [this](std::string_view line) { return edits_ != nullptr || may_call_mutating_tool(line); }, join_,
        [this](Record&& r) { take(std::move(r)); }, cancel);
    if (stats.error.empty() && !stats.cancelled) join_.join_results_before_calls(transcript_, cancel);
    out_.skipped_lines = stats.skipped_lines;
    out_.error = stats.error;
    // A call with no result: a Bash command's text still names what it may have changed (kept, as a Bash
    // row always is); a structured call is not counted as a change, only as unconfirmed.
    for (auto& [id, p] : pending_) {
      if (p.heuristic) {
        flush_bash(std::move(p), false);
      } else {
        ++out_.unconfirmed;
      }
    }
    number_turns();
    std::stable_sort(out_.mutations.begin(), out_.mutations.end(),
                     [](const FileMutation& a, const FileMutation& b) { return a.line < b.line; });
    return std::move(out_);
  }

 private:
  struct Pending {
    bool heuristic = false;
    FileMutation structured;         // structured call
    std::vector<FileMutation> rows;  // another harness's edit call: one row per file it names
    std::vector<BashMutation> bash;  // Bash call
    uint64_t line = 0;
    std::string timestamp, tool, tool_use_id;
    size_t skeleton = 0;  // index of the call record in skeleton_
  };

  const Transcript& transcript_;
  // how another harness's calls read as edits and shell commands (null: Claude Code's tools)
  const ToolEditReading* edits_ = harness_entry(transcript_.harness).tool_edits;
  TranscriptMutations out_;
  std::unordered_map<std::string, Pending> pending_;
  // closes a pending call with its result, whichever of the two the transcript wrote first
  CallJoin join_{[this](const Record& r, const Block& b, size_t at) { close_call(r, b, at); }};
  TurnSkeleton skeleton_{turn_rule_of(transcript_)};  // what turn numbering needs of each record
  std::vector<size_t> mutation_skeleton_, boundary_skeleton_;

  void take(Record&& r) {
    const size_t at = skeleton_.keep(r);
    for (const Block& b : r.message.blocks) {
      if (b.kind == BlockKind::tool_use && edits_) {
        open_harness_call(r, b, at);
      } else if (b.kind == BlockKind::tool_use && mutating_tool(b.name)) {
        open_call(r, b, at);
      } else if (b.kind == BlockKind::tool_result) {
        join_.result(r, b, at);
      }
    }
  }

  // A call the scan may follow to its result: where it stands, before what it changes is read.
  static Pending pending_call(const Record& r, const Block& b, size_t at) {
    Pending p;
    p.line = r.line;
    p.timestamp = r.timestamp;
    p.tool = b.name;
    p.tool_use_id = b.id;
    p.skeleton = at;
    return p;
  }

  void open_call(const Record& r, const Block& b, size_t at) {
    Pending p = pending_call(r, b, at);
    if (b.name == "Bash") {
      p.heuristic = true;
      p.bash = bash_mutations(stored_string_field(b.input_json, "command"), r.cwd);
      if (p.bash.empty()) return;  // nothing to attribute; no need to wait for the result
    } else {
      const std::string key = b.name == "NotebookEdit" ? "notebook_path" : "file_path";
      const std::string path = stored_string_field(b.input_json, key);
      if (path.empty()) return;
      // one file, one spelling, whatever the cwd of the records that named it (paths.h)
      p.structured.path = resolve_path(path, r.cwd).value_or(path);
    }
    pending_[b.id] = std::move(p);
    join_.open(b.id, r.line, at);
  }

  // Another harness's call: its edit tools through the shared edit model (core/harness/tool_edits.h), one
  // row per file it names (a move: the file it leaves and the one it makes), its shell tools through the
  // Bash reading.
  void open_harness_call(const Record& r, const Block& b, size_t at) {
    Pending p = pending_call(r, b, at);
    ToolEdits te;
    if (edits_->edits && edits_->edits(b.name, b.input_json, te)) {
      for (const ToolEdit& e : te.files) {
        FileMutation m;
        m.path = resolve_path(e.path, r.cwd).value_or(e.path);
        m.op = e.kind == ToolEditKind::write    ? "write"
               : e.kind == ToolEditKind::remove ? "delete"
               : e.move_to.empty()              ? "edit"
                                                : "move-from";
        m.tool = b.name;
        m.is_create = e.create;
        if (!e.path.empty()) p.rows.push_back(std::move(m));
        if (!e.move_to.empty()) {
          FileMutation to;
          to.path = resolve_path(e.move_to, r.cwd).value_or(e.move_to);
          to.op = "move-to";
          to.tool = b.name;
          p.rows.push_back(std::move(to));
        }
      }
      if (p.rows.empty()) return;  // nothing it names (a patch that does not parse is refused by the harness)
    } else if (const auto command = te.command              ? te.command
                                    : edits_->shell_command ? edits_->shell_command(b.name, b.input_json)
                                                            : std::nullopt) {
      p.heuristic = true;
      p.bash = bash_mutations(*command, r.cwd);
      if (p.bash.empty()) return;
    } else {
      return;
    }
    pending_[b.id] = std::move(p);
    join_.open(b.id, r.line, at);
  }

  void close_call(const Record& r, const Block& b, size_t at) {
    auto it = pending_.find(b.tool_use_id);
    Pending p = std::move(it->second);
    pending_.erase(it);
    if (p.heuristic) {
      flush_bash(std::move(p), b.is_error);
      return;
    }
    if (!p.rows.empty()) {  // another harness's edit: a failed result never landed
      if (b.is_error) {
        ++out_.failed;
        return;
      }
      for (FileMutation& m : p.rows) {
        m.line = p.line;
        m.timestamp = p.timestamp;
        m.tool_use_id = p.tool_use_id;
        out_.mutations.push_back(std::move(m));
        mutation_skeleton_.push_back(p.skeleton);
      }
      return;
    }
    if (b.is_error) {
      ++out_.failed;
      const std::string cause = boundary_cause(b.content_text);
      if (!cause.empty()) {
        out_.boundaries.push_back({p.structured.path, cause, p.tool, r.line, r.timestamp, -1, p.tool_use_id});
        boundary_skeleton_.push_back(at);
      }
      return;
    }
    FileMutation m = std::move(p.structured);
    m.op = structured_op(p.tool);
    m.tool = p.tool;
    m.is_create = result_says_create(r);
    m.line = p.line;
    m.timestamp = p.timestamp;
    m.tool_use_id = p.tool_use_id;
    out_.mutations.push_back(std::move(m));
    mutation_skeleton_.push_back(p.skeleton);
  }

  void flush_bash(Pending&& p, bool errored) {
    for (BashMutation& b : p.bash) {
      FileMutation m;
      m.path = std::move(b.path);
      m.op = b.op;
      m.tool = p.tool;  // Bash, or another harness's shell tool
      m.heuristic = true;
      m.resolution = b.resolution;
      m.path_verbatim = std::move(b.path_verbatim);
      m.command_errored = errored;
      m.line = p.line;
      m.timestamp = p.timestamp;
      m.tool_use_id = p.tool_use_id;
      out_.mutations.push_back(std::move(m));
      mutation_skeleton_.push_back(p.skeleton);
    }
  }

  void number_turns() {
    const TurnAssignment turns = skeleton_.number();
    out_.turns = turns.turn_count;
    for (size_t i = 0; i < out_.mutations.size(); ++i)
      out_.mutations[i].turn = turns.turn_of[mutation_skeleton_[i]];
    for (size_t i = 0; i < out_.boundaries.size(); ++i)
      out_.boundaries[i].turn = turns.turn_of[boundary_skeleton_[i]];
  }
};

}  // namespace

TranscriptMutations scan_file_mutations(const Transcript& t, const CancelToken* cancel) {
  return MutationScan(t).run(cancel);
}

}  // namespace csift
