#include "tools/recover/replay.h"

#include <algorithm>
#include <optional>

#include "core/base/text.h"

namespace csift {

std::string FileBuffer::text() const {
  std::string out;
  bool first = true;
  for (const auto& [n, l] : lines) {
    if (!first) out += '\n';
    out += l;
    first = false;
  }
  return out;
}

std::vector<std::string> split_file_lines(const std::string& text) {
  std::vector<std::string> out;
  size_t i = 0;
  while (true) {
    const size_t j = text.find('\n', i);
    if (j == std::string::npos) {
      out.push_back(text.substr(i));
      return out;
    }
    out.push_back(text.substr(i, j - i));
    i = j + 1;
  }
}

bool is_hard_cause(const std::string& cause) {
  return cause == "modified-since-read" || cause == "hint-modified" || cause == "external-edit" ||
         cause == "unresolved-path" || cause == "deleted" || cause == "moved-away" || cause == "moved-in" ||
         cause == "edit-disagreement" || cause == "unreadable-diff";
}

size_t ReplayResult::hard_boundaries() const {
  return static_cast<size_t>(
      std::count_if(boundaries.begin(), boundaries.end(), [](const ReplayBoundary& b) { return b.hard; }));
}

std::vector<std::pair<int64_t, int64_t>> known_ranges(const FileBuffer& b) {
  std::vector<std::pair<int64_t, int64_t>> out;
  for (const auto& [n, l] : b.lines) {
    if (!out.empty() && out.back().second + 1 == n) {
      out.back().second = n;
    } else {
      out.push_back({n, n});
    }
  }
  return out;
}

std::vector<std::pair<int64_t, int64_t>> missing_ranges(const FileBuffer& b) {
  std::vector<std::pair<int64_t, int64_t>> out;
  int64_t next = 1;
  for (const auto& [lo, hi] : known_ranges(b)) {
    if (lo > next) out.push_back({next, lo - 1});
    next = hi + 1;
  }
  if (!b.total) {
    out.push_back({next, -1});
  } else if (next <= *b.total) {
    out.push_back({next, *b.total});
  }
  return out;
}

std::string ranges_text(const std::vector<std::pair<int64_t, int64_t>>& ranges) {
  if (ranges.empty()) return "none";
  std::string out;
  for (const auto& [lo, hi] : ranges) {
    if (!out.empty()) out += ", ";
    out += std::to_string(lo);
    if (hi < 0) {
      out += "..?";
    } else if (hi != lo) {
      out += ".." + std::to_string(hi);
    }
  }
  return out;
}

namespace {

// The two sides of one hunk in the split-line model: a side marked "\ No newline at end of file" ends the
// file; the other side then ends in a newline, which this model writes as one more, empty, line.
struct HunkSides {
  std::vector<std::string> old_side, new_side;
};

HunkSides hunk_sides(const PatchHunk& h) {
  HunkSides s;
  bool old_noeol = false, new_noeol = false;
  char last = ' ';
  for (const std::string& l : h.lines) {
    if (l.empty()) {
      s.old_side.push_back("");
      s.new_side.push_back("");
      last = ' ';
      continue;
    }
    const char tag = l[0];
    const std::string body = l.substr(1);
    if (tag == '\\') {
      if (last == '-')
        old_noeol = true;
      else if (last == '+')
        new_noeol = true;
      else
        old_noeol = new_noeol = true;
      continue;
    }
    if (tag != '+') s.old_side.push_back(body);
    if (tag != '-') s.new_side.push_back(body);
    last = tag;
  }
  if (old_noeol && !new_noeol) s.new_side.push_back("");
  if (new_noeol && !old_noeol) s.old_side.push_back("");
  return s;
}

enum class HunkFit { placed, unanchored, disagrees };

// Replaces lines [at+1, at+old] by `fresh` (or, when `fresh` is null, by as many unknown lines as the new
// side has) and shifts the lines after it.
void splice(FileBuffer& b, int64_t at, int64_t old_count, const std::vector<std::string>* fresh,
            int64_t new_count) {
  std::map<int64_t, std::string> out;
  for (auto& [n, l] : b.lines) {
    if (n <= at) {
      out.emplace(n, std::move(l));
    } else if (n > at + old_count) {
      out.emplace(n + new_count - old_count, std::move(l));
    }
  }
  if (fresh)
    for (int64_t k = 0; k < new_count; ++k)
      out[at + 1 + k] = (*fresh)[static_cast<size_t>(k)];
  b.lines = std::move(out);
  if (b.total) *b.total += new_count - old_count;
}

HunkFit fit(const FileBuffer& b, int64_t at, const std::vector<std::string>& old_side) {
  if (old_side.empty()) return b.complete() ? HunkFit::placed : HunkFit::unanchored;
  size_t known = 0;
  for (size_t k = 0; k < old_side.size(); ++k) {
    auto it = b.lines.find(at + 1 + static_cast<int64_t>(k));
    if (it == b.lines.end()) continue;
    if (it->second != old_side[k]) return HunkFit::disagrees;
    ++known;
  }
  if (b.total && at + static_cast<int64_t>(old_side.size()) > *b.total) return HunkFit::disagrees;
  return known ? HunkFit::placed : HunkFit::unanchored;
}

// The buffer's lines joined, for a string replacement (only a complete buffer has a text to replace in).
// Each edit applies to the text the ones before it left, as the harness applied them: an old string that is
// not there, or is there more than once without replace_all (the harness refuses such an edit, so a buffer
// that shows it is not the file the edit saw), places nothing and the buffer is left as it was.
bool apply_string_edits(FileBuffer& b, const std::vector<StringEdit>& edits) {
  if (!b.complete() || edits.empty()) return false;
  std::string text = b.text();
  for (const StringEdit& e : edits) {
    if (e.old_string.empty()) return false;
    size_t at = text.find(e.old_string);
    if (at == std::string::npos) return false;
    if (e.expected > 0) {  // exactly that many occurrences (counted as the harness counts: no overlaps)
      int64_t n = 0;
      for (size_t k = at; k != std::string::npos; k = text.find(e.old_string, k + e.old_string.size()))
        ++n;
      if (n != e.expected) return false;
      at = text.find(e.old_string);
      do {
        text.replace(at, e.old_string.size(), e.new_string);
        at = text.find(e.old_string, at + e.new_string.size());
      } while (at != std::string::npos && e.expected > 1);
      continue;
    }
    if (!e.replace_all && text.find(e.old_string, at + 1) != std::string::npos) return false;
    do {
      text.replace(at, e.old_string.size(), e.new_string);
      at = e.replace_all ? text.find(e.old_string, at + e.new_string.size()) : std::string::npos;
    } while (at != std::string::npos);
  }
  const auto lines = split_file_lines(text);
  b.lines.clear();
  for (size_t i = 0; i < lines.size(); ++i)
    b.lines[static_cast<int64_t>(i) + 1] = lines[i];
  b.total = static_cast<int64_t>(lines.size());
  return true;
}

// Applies a structured patch: each hunk at its oldStart shifted by the hunks before it, placed only where its
// old side agrees with the known lines; any other hunk leaves its lines unknown. Returns the holes made.
uint64_t apply_patch(FileBuffer& b, const std::vector<PatchHunk>& patch) {
  uint64_t holes = 0;
  int64_t delta = 0;
  for (const PatchHunk& h : patch) {
    const HunkSides s = hunk_sides(h);
    const int64_t at = (h.old_lines == 0 ? h.old_start : h.old_start - 1) + delta;
    const auto old_n = static_cast<int64_t>(s.old_side.size());
    const auto new_n = static_cast<int64_t>(s.new_side.size());
    switch (fit(b, at, s.old_side)) {
      case HunkFit::placed:
        splice(b, at, old_n, &s.new_side, new_n);
        break;
      case HunkFit::unanchored:
      case HunkFit::disagrees:
        ++holes;
        splice(b, at, old_n, nullptr, new_n);
        break;
    }
    delta += new_n - old_n;
  }
  return holes;
}

// Where apply_patch finds a chunk's lines (codex-rs/apply-patch/src/seek_sequence.rs): from `start` (at the
// end when anchored there), first exactly, then ignoring trailing whitespace, then surrounding whitespace.
// Codex's last pass (Unicode punctuation folded) is not made: a chunk only it would place is not placed, and
// the replay says so rather than guess.
std::optional<size_t> seek_lines(const std::vector<std::string>& lines,
                                 const std::vector<std::string>& pattern, size_t start, bool at_end) {
  if (pattern.empty()) return start;
  if (pattern.size() > lines.size()) return std::nullopt;
  const size_t from = at_end ? lines.size() - pattern.size() : start;
  for (int pass = 0; pass < 3; ++pass) {
    for (size_t i = from; i + pattern.size() <= lines.size(); ++i) {
      bool same = true;
      for (size_t k = 0; k < pattern.size() && same; ++k) {
        const std::string& a = lines[i + k];
        const std::string& b = pattern[k];
        same = pass == 0 ? a == b : pass == 1 ? trim_end(a) == trim_end(b) : trim(a) == trim(b);
      }
      if (same) return i;
    }
  }
  return std::nullopt;
}

// An apply_patch update on a file's lines (split-line model), as Codex applies it
// (codex-rs/apply-patch/src/lib.rs, compute_replacements / apply_replacements): each chunk sought after its
// `@@` context line and after the chunk before it, a chunk without old lines appended at the end, and the
// result always ending in a newline. nullopt when a chunk's lines are not in the file.
std::optional<std::vector<std::string>> place_patch_chunks(std::vector<std::string> lines,
                                                           const std::vector<PatchChunk>& chunks) {
  if (!lines.empty() && lines.back().empty()) lines.pop_back();  // the final newline
  struct Replacement {
    size_t at, count;
    std::vector<std::string> with;
  };
  std::vector<Replacement> reps;
  size_t cursor = 0;
  for (const PatchChunk& c : chunks) {
    if (!c.context.empty()) {
      const auto at = seek_lines(lines, {c.context}, cursor, false);
      if (!at) return std::nullopt;
      cursor = *at + 1;
    }
    if (c.old_lines.empty()) {
      reps.push_back(
          {!lines.empty() && lines.back().empty() ? lines.size() - 1 : lines.size(), 0, c.new_lines});
      continue;
    }
    std::vector<std::string> pattern = c.old_lines, with = c.new_lines;
    auto at = seek_lines(lines, pattern, cursor, c.end_of_file);
    if (!at && pattern.back().empty()) {  // the empty line that stands for the file's final newline
      pattern.pop_back();
      if (!with.empty() && with.back().empty()) with.pop_back();
      at = seek_lines(lines, pattern, cursor, c.end_of_file);
    }
    if (!at) return std::nullopt;
    reps.push_back({*at, pattern.size(), std::move(with)});
    cursor = *at + pattern.size();
  }
  std::stable_sort(reps.begin(), reps.end(),
                   [](const Replacement& a, const Replacement& b) { return a.at < b.at; });
  for (auto it = reps.rbegin(); it != reps.rend(); ++it) {
    const auto at = static_cast<std::ptrdiff_t>(it->at);
    lines.erase(lines.begin() + at, lines.begin() + at + static_cast<std::ptrdiff_t>(it->count));
    lines.insert(lines.begin() + at, it->with.begin(), it->with.end());
  }
  if (lines.empty() || !lines.back().empty()) lines.emplace_back();
  return lines;
}

// Every tab as two spaces: how Claude Code 2.1.2xx writes the lines of an Edit's structuredPatch.
FileBuffer tabs_as_two_spaces(const FileBuffer& b) {
  FileBuffer out = b;
  for (auto& [n, l] : out.lines) {
    std::string w;
    for (char c : l)
      w += c == '\t' ? std::string("  ") : std::string(1, c);
    l = std::move(w);
  }
  return out;
}

bool same_lines(const FileBuffer& a, const FileBuffer& b) {
  return a.total == b.total && a.lines == b.lines;
}

std::string hunk_header(const PatchHunk& h) {
  return "@@ -" + std::to_string(h.old_start) + "," + std::to_string(h.old_lines) + " +" +
         std::to_string(h.new_start) + "," + std::to_string(h.new_lines) + " @@\n";
}

std::string patch_diff(const std::vector<PatchHunk>& patch) {
  std::string out;
  for (const PatchHunk& h : patch) {
    out += hunk_header(h);
    for (const std::string& l : h.lines)
      out += l + "\n";
  }
  return out;
}

// A whole-file change as one hunk: the common head and tail kept as context, the middle replaced. Lines are
// written as a unified diff counts them: a final newline ends the last line, and its absence is marked.
std::string snapshot_diff(const FileBuffer& before, const std::vector<std::string>& after_lines) {
  std::vector<std::string> old;
  if (before.complete())
    for (const auto& [n, l] : before.lines)
      old.push_back(l);
  std::vector<std::string> after = after_lines;
  const bool old_eol = !old.empty() && old.back().empty();
  const bool new_eol = !after.empty() && after.back().empty();
  if (old_eol || (old.size() == 1 && old[0].empty())) old.pop_back();
  if (new_eol || (after.size() == 1 && after[0].empty())) after.pop_back();
  size_t head = 0;
  while (head < old.size() && head < after.size() && old[head] == after[head])
    ++head;
  size_t tail = 0;
  while (tail < old.size() - head && tail < after.size() - head &&
         old[old.size() - 1 - tail] == after[after.size() - 1 - tail])
    ++tail;
  if (head == old.size() && head == after.size() && old_eol == new_eol) return "";
  if (tail > 0 && old_eol != new_eol) tail = 0;  // the last line differs by its newline
  const size_t lo = head > 3 ? head - 3 : 0;
  const size_t hi_old = std::min(old.size(), old.size() - tail + 3);
  const size_t hi_new = std::min(after.size(), after.size() - tail + 3);
  std::string out = "@@ -" + std::to_string(old.empty() ? 0 : lo + 1) + "," + std::to_string(hi_old - lo) +
                    " +" + std::to_string(after.empty() ? 0 : lo + 1) + "," + std::to_string(hi_new - lo) +
                    " @@\n";
  const std::string no_eol = "\\ No newline at end of file\n";
  for (size_t i = lo; i < head; ++i)
    out += " " + old[i] + "\n";
  for (size_t i = head; i < old.size() - tail; ++i)
    out += "-" + old[i] + "\n" + (i + 1 == old.size() && !old_eol ? no_eol : "");
  for (size_t i = head; i < after.size() - tail; ++i)
    out += "+" + after[i] + "\n" + (i + 1 == after.size() && !new_eol ? no_eol : "");
  for (size_t i = old.size() - tail; i < hi_old; ++i)
    out += " " + old[i] + "\n" + (i + 1 == old.size() && !old_eol ? no_eol : "");
  return out;
}

class Replayer {
 public:
  ReplayResult run(const std::vector<OrderedEvent>& events) {
    for (const OrderedEvent& oe : events) {
      ++step_;
      step(*oe.event, oe.transcript);
    }
    return std::move(r_);
  }

 private:
  ReplayResult r_;
  size_t segment_ = 0;
  size_t step_ = 0;

  void boundary(const ContentEvent& e, const Transcript* t, const std::string& cause, std::string detail) {
    const bool hard = is_hard_cause(cause);
    r_.boundaries.push_back({cause, hard, &e, t, std::move(detail), step_});
    ++r_.counts[cause];
    if (hard) {
      r_.buffer.clear();  // what was known before it may no longer be what is on disk
      ++segment_;
    }
  }

  void note_known() {
    if (!r_.buffer.lines.empty()) r_.ever_known = true;
  }

  void step(const ContentEvent& e, const Transcript* t) {
    switch (e.kind) {
      case ContentEventKind::boundary:
        return boundary(e, t, e.cause, e.detail);
      case ContentEventKind::annotation:
        ++r_.counts[e.cause];
        return;
      case ContentEventKind::read:
        ++r_.content_events;
        read(e);
        break;
      case ContentEventKind::write:
        ++r_.content_events;
        check_original(e, t);
        write(e, t);
        break;
      case ContentEventKind::edit:
        ++r_.content_events;
        check_original(e, t);
        edit(e, t);
        break;
    }
    note_known();
  }

  void set_whole(const std::vector<std::string>& lines) {
    r_.buffer.lines.clear();
    for (size_t i = 0; i < lines.size(); ++i)
      r_.buffer.lines[static_cast<int64_t>(i) + 1] = lines[i];
    r_.buffer.total = static_cast<int64_t>(lines.size());
  }

  void read(const ContentEvent& e) {
    auto parts = split_file_lines(e.content);
    const bool whole = e.total_lines > 0 && e.start_line <= 1 && e.num_lines >= e.total_lines;
    if (whole) {
      ++r_.counts["read-full"];
      set_whole(parts);
      return;
    }
    ++r_.counts[e.source == "read-gutter" ? "read-gutter" : "read-window"];
    if (e.num_lines >= 0 && static_cast<int64_t>(parts.size()) > e.num_lines)
      parts.resize(static_cast<size_t>(e.num_lines));
    for (size_t k = 0; k < parts.size(); ++k)
      r_.buffer.lines[e.start_line + static_cast<int64_t>(k)] = parts[k];
    if (e.total_lines > 0) {
      r_.buffer.total = e.total_lines;
      r_.buffer.lines.erase(r_.buffer.lines.upper_bound(e.total_lines), r_.buffer.lines.end());
    }
  }

  // `>>` from an exact Bash write: placed when the buffer knows where the file ends (every byte, or a known
  // final newline and the total); otherwise only the lines before the end stay known.
  void append(const ContentEvent& e, const Transcript* t) {
    ++r_.counts["bash-append"];
    FileBuffer& b = r_.buffer;
    const auto parts = split_file_lines(e.content);
    if (b.complete()) {
      const auto lines = split_file_lines(b.text() + e.content);
      r_.changes.push_back({segment_, &e, t, snapshot_diff(b, lines), step_});
      set_whole(lines);
      return;
    }
    if (b.total) {
      auto last = b.lines.find(*b.total);
      if (last != b.lines.end() && last->second.empty()) {
        for (size_t k = 0; k < parts.size(); ++k)
          b.lines[*b.total + static_cast<int64_t>(k)] = parts[k];
        *b.total += static_cast<int64_t>(parts.size()) - 1;
        r_.changes.push_back({segment_, &e, t, "", step_});
        return;
      }
      b.lines.erase(*b.total);  // its end may have changed
    }
    b.total.reset();
    boundary(e, t, "bash-append-unplaced", "an append the replay cannot place: the file's end is not known");
  }

  void write(const ContentEvent& e, const Transcript* t) {
    if (e.source == "bash-append") return append(e, t);
    ++r_.counts[e.source == "write" ? "write" : e.source];
    if (!e.applied_note.empty()) {
      ++r_.counts["patch-disagreement"];
      r_.patch_disagreements.push_back({&e, t, e.applied_note, step_});
    }
    const auto lines = split_file_lines(e.content);
    const std::string diff = snapshot_diff(r_.buffer, lines);
    set_whole(lines);
    r_.changes.push_back({segment_, &e, t, diff, step_});
  }

  // An edit's or an update's view of the file before it (originalFile) against the replayed buffer: a known
  // line it contradicts was changed outside the stream, so what the buffer knew is dropped, never kept as
  // current.
  void check_original(const ContentEvent& e, const Transcript* t) {
    if (!e.original_file || r_.buffer.lines.empty()) return;
    const auto orig = split_file_lines(*e.original_file);
    const auto n = static_cast<int64_t>(orig.size());
    int64_t first_bad = 0;
    if (r_.buffer.total && *r_.buffer.total != n) first_bad = -1;
    for (const auto& [k, l] : r_.buffer.lines) {
      if (first_bad) break;
      if (k > n || orig[static_cast<size_t>(k - 1)] != l) first_bad = k;
    }
    if (!first_bad) return;
    const std::string detail = first_bad < 0 ? "the edit's originalFile has " + std::to_string(n) +
                                                   " lines, the replay " + std::to_string(*r_.buffer.total)
                                             : "the edit's originalFile differs from the replay at line " +
                                                   std::to_string(first_bad);
    boundary(e, t, "original-file-disagreement", detail);
    r_.buffer.clear();
  }

  // Another harness's edit (core/harness/tool_edits.h): string replacements or an apply_patch update, which
  // determine the file afterwards only from a complete buffer. On a partial one the edit is a hole; on a
  // complete one whose lines do not hold its old text (where the patch says, or as many times as it says)
  // the buffer is not the file the harness edited: an `edit-disagreement` boundary, never a guess.
  //
  // An update whose applied diff the log recorded (Codex's patch_apply_end, `e.patch`) is what the harness
  // says it did: on a partial buffer its hunks are placed by their line numbers as an Edit's structuredPatch
  // is (holes where they cannot be); on a complete one, where the patch text gives other lines than the diff
  // (or none), the diff's lines are kept and the disagreement named.
  void harness_edit(const ContentEvent& e, const Transcript* t) {
    ++r_.counts[e.chunks.empty() ? "edit" : "apply-patch"];
    if (!r_.buffer.complete() && !e.patch.empty()) {
      const uint64_t holes = apply_patch(r_.buffer, e.patch);
      r_.holes += holes;
      if (holes) r_.counts["hole"] += holes;
      r_.changes.push_back({segment_, &e, t, patch_diff(e.patch), step_});
      return;
    }
    if (!r_.buffer.complete()) {
      hole_everywhere();
      r_.changes.push_back({segment_, &e, t, "", step_});
      return;
    }
    std::vector<std::string> after;
    if (!e.chunks.empty()) {
      std::vector<std::string> before;
      for (const auto& [n, l] : r_.buffer.lines)
        before.push_back(l);
      if (auto placed = place_patch_chunks(std::move(before), e.chunks)) after = std::move(*placed);
    } else {
      FileBuffer by_strings = r_.buffer;
      if (apply_string_edits(by_strings, e.edits))
        for (const auto& [n, l] : by_strings.lines)
          after.push_back(l);
    }
    if (!e.patch.empty()) {
      FileBuffer by_diff = r_.buffer;
      if (apply_patch(by_diff, e.patch) == 0 && by_diff.complete()) {
        std::vector<std::string> applied;
        for (const auto& [n, l] : by_diff.lines)
          applied.push_back(l);
        if (applied != after) {
          ++r_.counts["patch-disagreement"];
          r_.patch_disagreements.push_back(
              {&e, t,
               after.empty()
                   ? "its patch text cannot be placed on the replayed file, but the diff Codex's "
                     "patch_apply_end records as applied can: that diff is kept"
                   : "its patch text gives other lines than the diff Codex's patch_apply_end records "
                     "as applied: that diff is kept",
               step_});
          after = std::move(applied);
        }
      }
    }
    if (after.empty()) {
      boundary(e, t, "edit-disagreement",
               e.chunks.empty()
                   ? "its old text is not in the replayed file as the edit says (once, or as many "
                     "times as it expects)"
                   : "a chunk of its patch is not where the patch says in the replayed file");
      return;
    }
    r_.changes.push_back({segment_, &e, t, snapshot_diff(r_.buffer, after), step_});
    set_whole(after);
  }

  // An update known only by the unified diff Codex recorded as applied (its patch_apply_end or FileChange
  // item, no patch text): the diff was computed from the file Codex changed, so its line numbers place it.
  // On a complete buffer it applies exactly, or — a hunk whose old lines are not at its line numbers — the
  // buffer is not the file Codex changed: a hard `edit-disagreement`. On a partial one each hunk is placed
  // where its old lines agree with the known lines and is a hole elsewhere (an unknown prior content is
  // never guessed). An empty diff (a move alone) changes no line.
  void harness_diff(const ContentEvent& e, const Transcript* t) {
    ++r_.counts["applied-diff"];
    if (e.patch.empty()) {
      r_.changes.push_back({segment_, &e, t, "", step_});
      return;
    }
    if (!r_.buffer.complete()) {
      const uint64_t holes = apply_patch(r_.buffer, e.patch);
      r_.holes += holes;
      if (holes) r_.counts["hole"] += holes;
      r_.changes.push_back({segment_, &e, t, patch_diff(e.patch), step_});
      return;
    }
    FileBuffer by_diff = r_.buffer;
    if (apply_patch(by_diff, e.patch) != 0 || !by_diff.complete()) {
      boundary(e, t, "edit-disagreement",
               "the unified diff Codex recorded as applied does not fit the replayed file (a hunk's old "
               "lines are not at its line numbers)");
      return;
    }
    std::vector<std::string> after;
    for (const auto& [n, l] : by_diff.lines)
      after.push_back(l);
    r_.changes.push_back({segment_, &e, t, snapshot_diff(r_.buffer, after), step_});
    set_whole(after);
  }

  void edit(const ContentEvent& e, const Transcript* t) {
    if (e.source == "harness-edit") return harness_edit(e, t);
    if (e.source == "harness-diff") return harness_diff(e, t);
    ++r_.counts[e.tool == "MultiEdit" ? "multi-edit" : "edit"];
    if (e.patch.empty()) {
      if (!apply_string_edits(r_.buffer, e.edits)) hole_everywhere();
      r_.changes.push_back({segment_, &e, t, "", step_});
      return;
    }
    if (edit_by_strings(e, t)) return;
    const uint64_t holes = apply_patch(r_.buffer, e.patch);
    r_.holes += holes;
    if (holes) r_.counts["hole"] += holes;
    r_.changes.push_back({segment_, &e, t, patch_diff(e.patch), step_});
  }

  // On a complete buffer an edit's own old/new strings decide its result exactly; its structuredPatch is only
  // a cross-check (Claude Code 2.1.2xx writes each tab in it as two spaces), and a patch that does not give
  // the same lines is named, never a hole. False when the strings cannot be placed (the patch is then tried).
  bool edit_by_strings(const ContentEvent& e, const Transcript* t) {
    if (e.edits.empty() || !r_.buffer.complete()) return false;
    FileBuffer by_strings = r_.buffer;
    if (!apply_string_edits(by_strings, e.edits)) return false;
    FileBuffer by_patch = r_.buffer;
    const bool agrees = apply_patch(by_patch, e.patch) == 0 && same_lines(by_patch, by_strings);
    std::string diff = patch_diff(e.patch);
    if (!agrees) {
      FileBuffer shown = tabs_as_two_spaces(r_.buffer);
      const bool tabs = apply_patch(shown, e.patch) == 0 && same_lines(shown, tabs_as_two_spaces(by_strings));
      std::vector<std::string> after;
      for (const auto& [n, l] : by_strings.lines)
        after.push_back(l);
      diff = snapshot_diff(r_.buffer, after);
      ++r_.counts["patch-disagreement"];
      r_.patch_disagreements.push_back(
          {&e, t,
           tabs ? "its structuredPatch shows each tab as two spaces"
                : "its structuredPatch does not give the lines its old_string/new_string give",
           step_});
    }
    r_.buffer = std::move(by_strings);
    r_.changes.push_back({segment_, &e, t, std::move(diff), step_});
    return true;
  }

  // A string replacement with nothing to place it on: nothing known can be trusted to sit where it was.
  void hole_everywhere() {
    ++r_.holes;
    ++r_.counts["hole"];
    r_.buffer.clear();
  }
};

}  // namespace

ReplayResult replay_events(const std::vector<OrderedEvent>& events) {
  return Replayer().run(events);
}

std::optional<std::vector<std::string>> apply_patch_chunks(const std::vector<std::string>& lines,
                                                           const std::vector<PatchChunk>& chunks) {
  return place_patch_chunks(lines, chunks);
}

}  // namespace csift
