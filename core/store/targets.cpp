// The shared positional target grammar (SPEC.md §3). Every form fails loud: a target that
// resolves to nothing is an error naming what was tried, never a silent empty scope.
#include "core/store/targets.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>
#include <string_view>
#include <unordered_set>

#include "core/base/arg_ref.h"
#include "core/base/error.h"
#include "core/base/text.h"
#include "core/harness/claude_code/claude_code_reader.h"
#include "core/store/agent_topology.h"
#include "core/store/caller_session.h"
#include "core/store/discovery_memo.h"
#include "core/store/harness_scope.h"
#include "core/store/project_walk_memo.h"
#include "core/store/self_resolve.h"
#include "core/store/session_env.h"
#include "core/store/store_index.h"
#include "core/store/trap_resolve.h"

namespace csift {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kAtGrammar =
    "the @-forms are @<uuid>, @<4-11 hex uuid prefix>, @<agent-id>, @main, @self, @trap:<marker>, "
    "@self:<marker>, "
    "or "
    "an encoded "
    "project dir @-Users-… / @C--Users-… / @--server-…";

bool is_encoded_chars(std::string_view s) {
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '-'; });
}

// `-Users-x` (Unix) or `C--Users-x` (a Windows drive); a UNC `--server-…` also starts with '-'.
bool looks_encoded(std::string_view s) {
  if (s.empty() || !is_encoded_chars(s)) return false;
  if (s[0] == '-') return true;
  return s.size() >= 3 && std::isalpha(static_cast<unsigned char>(s[0])) && s[1] == '-' && s[2] == '-';
}

// A leading run of the 8-4-4-4-12 uuid layout (dashes only where the layout has them); counts its hex digits.
bool is_uuid_layout_prefix(std::string_view s, size_t& hex_digits) {
  hex_digits = 0;
  if (s.empty() || s.size() > 36) return false;
  for (size_t i = 0; i < s.size(); ++i) {
    bool dash_slot = i == 8 || i == 13 || i == 18 || i == 23;
    if (s[i] == '-') {
      if (!dash_slot) return false;
    } else if (!std::isxdigit(static_cast<unsigned char>(s[i]))) {
      return false;
    } else if (dash_slot) {
      return false;  // a hex digit where the layout has a dash: a dashless 9+ run (an agent id candidate)
    } else {
      ++hex_digits;
    }
  }
  return true;
}

bool is_all_hex(std::string_view s) {
  return !s.empty() &&
         std::all_of(s.begin(), s.end(), [](char c) { return std::isxdigit(static_cast<unsigned char>(c)); });
}

bool is_agent_id_shape(std::string_view s) {
  return !s.empty() && std::isalnum(static_cast<unsigned char>(s[0])) &&
         std::all_of(s.begin(), s.end(), [](char c) {
           return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_';
         });
}

bool is_dir(const std::string& p) {
  std::error_code ec;
  return fs::is_directory(p, ec);
}

// Collects the transcripts of a scope, expanding sessions and agents per the span rule, then orders them.
class ScopeBuilder {
 public:
  ScopeBuilder(const Environment& env, const std::string& root, bool subagents)
      : env_(env), root_(root), subagents_(subagents), index_(root) {}

  void target(const std::string& t);
  void id_token(const std::string& token);
  void all_projects();
  std::vector<Transcript> take_ordered();
  std::vector<std::string>& notes() { return notes_; }
  bool project_wide() const { return project_wide_; }
  std::vector<StoreProblem> take_problems();

 private:
  void at_target(const std::string& body);
  void id_target(const std::string& body, const std::string& shown);
  void jsonl_target(const std::string& t);
  void path_target(const std::string& t);
  bool project_dir(const std::string& dir, const std::string& shown);
  void session(const Transcript& s);
  void agent(const Transcript& a, const std::vector<Transcript>* siblings);
  void main_session();
  void trap(const std::string& marker);
  void self(const std::string& marker);
  void calling_transcript();
  void caller_lane(const TrapResolution& hit, const std::string& main_note);
  void caller_session();
  std::string absolutize(const std::string& p) const;
  // Every project dir's finds, walked (all_projects' when its last walk cannot answer).
  ProjectWalkFinds walk_projects() const;

  const Environment& env_;
  std::string root_;
  bool subagents_;
  StoreIndex index_;
  std::vector<Transcript> picked_;
  std::vector<std::string> notes_;
  bool project_wide_ = false;
  std::vector<StoreProblem> problems_;
  // Legacy flat agents per project dir, listed once: a project of N sessions asked for them N times, each a
  // directory listing plus a head read per agent (quadratic: 3 s of scope resolution for 2,400 sessions).
  std::map<std::string, std::vector<Transcript>> legacy_agents_;
  const std::vector<Transcript>& legacy_agents(const std::string& project_dir);
};

namespace {

// A session and, with subagents, its subagents and the legacy flat agents that name it, in pick order.
void pick_session(Transcript s, bool subagents, const std::vector<Transcript>& legacy,
                  std::vector<Transcript>& picked, std::vector<StoreProblem>& problems) {
  picked.push_back(std::move(s));
  if (!subagents) return;
  const Transcript& session = picked.back();
  std::vector<Transcript> agents;
  if (!session.session_dir_absent) agents = list_subagents(session, &problems);
  for (const Transcript& a : legacy)
    if (a.session_id == session.id) agents.push_back(a);
  for (Transcript& a : agents)  // appended after: `session` refers into `picked` until here
    picked.push_back(std::move(a));
}

// What discovery finds in one project dir, in the order a sequential walk picks it.
struct ProjectFinds {
  std::vector<Transcript> picked;
  std::vector<StoreProblem> problems;
};

// One read of the dir serves its sessions and its legacy flat agents (and says whether it is a project dir).
ProjectFinds find_in_project(const std::string& dir, bool subagents) {
  ProjectFinds out;
  std::optional<ProjectListing> listing = list_project(dir, subagents, &out.problems);
  if (!listing) return out;
  for (Transcript& s : listing->sessions)
    pick_session(std::move(s), subagents, listing->legacy_agents, out.picked, out.problems);
  for (Transcript& a : listing->legacy_agents)
    out.picked.push_back(std::move(a));
  return out;
}

}  // namespace

std::string ScopeBuilder::absolutize(const std::string& p) const {
  fs::path path(expand_home(p, env_));
  if (path.is_relative()) path = fs::path(env_.cwd) / path;
  std::error_code ec;
  fs::path real = fs::canonical(path, ec);
  return (ec ? path.lexically_normal() : real).string();
}

void ScopeBuilder::session(const Transcript& s) {
  static const std::vector<Transcript> kNoAgents;
  pick_session(s, subagents_, subagents_ ? legacy_agents(s.project_dir) : kNoAgents, picked_, problems_);
}

const std::vector<Transcript>& ScopeBuilder::legacy_agents(const std::string& project_dir) {
  auto it = legacy_agents_.find(project_dir);
  if (it == legacy_agents_.end())
    it = legacy_agents_.emplace(project_dir, list_legacy_agents(project_dir, &problems_)).first;
  return it->second;
}

// An agent and, under the span, its topological descendants among its session's subagents.
void ScopeBuilder::agent(const Transcript& a, const std::vector<Transcript>* siblings) {
  picked_.push_back(a);
  if (!subagents_ || a.shape == TranscriptShape::legacy_flat) return;
  Transcript owner;
  owner.id = a.session_id;
  owner.project_dir = a.project_dir;
  owner.path = a.project_dir + "/" + a.session_id + ".jsonl";
  std::vector<Transcript> listed;
  if (!siblings) {
    listed = list_subagents(owner);
    siblings = &listed;
  }
  AgentTopology topo = build_agent_topology(owner, *siblings);
  std::set<std::string> below;
  for (const std::string& id : topo.descendants(a.id))
    below.insert(id);
  for (const Transcript& t : *siblings) {
    if (below.count(t.id)) picked_.push_back(t);
  }
}

bool ScopeBuilder::project_dir(const std::string& dir, const std::string& shown) {
  project_wide_ = true;
  std::vector<StoreProblem> unreadable;
  std::vector<Transcript> sessions = list_sessions(dir, &unreadable);
  if (sessions.empty()) {
    std::string why;
    for (const StoreProblem& p : unreadable)
      why += "; " + p.path + " is " + p.reason;
    not_found_error("'" + shown + "': the project dir " + dir + " holds no session transcript" + why);
  }
  for (StoreProblem& p : unreadable)
    problems_.push_back(std::move(p));
  for (const Transcript& s : sessions)
    session(s);
  if (subagents_) {
    for (const Transcript& a : legacy_agents(dir))
      picked_.push_back(a);
  }
  return true;
}

void ScopeBuilder::main_session() {
  if (env_.caller != CallerLink::command_line) return caller_session();
  auto who = env_session_id(env_);
  if (!who) usage_error("@main: " + whoami_guidance());
  auto s = find_session_file(root_, who->id, env_.cwd);
  if (!s) {
    not_found_error("@main: session " + who->id + " ($" + who->var + ") has no transcript under " + root_ +
                    " (looked in " + root_ + "/" + encode_cwd(env_.cwd) + " and every project dir)");
  }
  notes_.push_back("@main " + env_lane_note(*who));
  session(*s);
}

void ScopeBuilder::trap(const std::string& marker) {
  TrapResolution hit = resolve_trap(marker, env_, root_);
  if (hit.agent) {
    agent(*hit.agent, &hit.agents);
  } else {
    notes_.push_back(trap_main_lane_note(hit.session.id));
    session(hit.session);
  }
}

// @main for a server: the session holding this very call when the client named its tool_use, else the
// registry row of an ancestor process (stdio), else the environment, saying which.
void ScopeBuilder::caller_session() {
  const std::string home = fs::path(root_).parent_path().string();
  const CallerSession who = resolve_caller_session(env_, home);
  std::string missed;
  if (!env_.caller_tool_use_id.empty()) {
    const CallingTranscript call = find_calling_transcript(env_, home, who);
    if (call.hit) {
      notes_.push_back("@main is session " + call.hit->session.id + ": " + call.evidence);
      session(call.hit->session);
      return;
    }
    missed = "; " + call.evidence;
  }
  if (who.id.empty()) usage_error("@main: " + who.guidance);
  auto s = find_session_file(root_, who.id, env_.cwd);
  if (!s) {
    not_found_error("@main: session " + who.id + " (" + who.source + ") has no transcript under " + root_ +
                    " (looked in " + root_ + "/" + encode_cwd(env_.cwd) + " and every project dir)");
  }
  notes_.push_back("@main is session " + who.id + " (" + who.source + ")" +
                   (who.note.empty() ? "" : "; " + who.note) + missed);
  session(*s);
}

// Bare @self: the transcript holding this very call (its lane and what it spawned), by the tool_use the
// client named; a client that names none is told to use a marker.
void ScopeBuilder::calling_transcript() {
  if (env_.caller_tool_use_id.empty()) {
    usage_error(bare_self_guidance());
  }
  const std::string home = fs::path(root_).parent_path().string();
  const CallingTranscript call = find_calling_transcript(env_, home, resolve_caller_session(env_, home));
  if (!call.hit) not_found_error("@self: " + call.evidence);
  notes_.push_back("@self: " + call.evidence);
  caller_lane(*call.hit, "");
}

void ScopeBuilder::self(const std::string& marker) {
  const TrapResolution hit = resolve_self_marker(marker, root_);
  caller_lane(hit, self_main_lane_note(marker, hit.session.id));
}

// The lane a @self form resolved to: the agent (with what it spawned), or the session with `main_note`.
void ScopeBuilder::caller_lane(const TrapResolution& hit, const std::string& main_note) {
  if (hit.agent) return agent(*hit.agent, &hit.agents);
  if (!main_note.empty()) notes_.push_back(main_note);
  session(hit.session);
}

// `@<uuid>`, `@<uuid-prefix>`, `@<agent-id>` (also the --sessions-from tokens).
void ScopeBuilder::id_target(const std::string& body, const std::string& shown) {
  if (is_uuid(body)) {
    if (auto s = index_.session_by_id(body)) return session(*s);
    not_found_error("'" + shown + "': no session " + body + " under " + root_);
  }
  size_t hex_digits = 0;
  bool prefix_shape = is_uuid_layout_prefix(body, hex_digits);
  if (prefix_shape && hex_digits < 4) {
    usage_error("'" + shown +
                "' is too short for a session-uuid prefix — needs 4-11 leading (dashless) hex chars");
  }
  if (!prefix_shape && !is_all_hex(body) && !is_agent_id_shape(body)) {
    usage_error("'" + shown + "' is not a recognized @-target; " + std::string(kAtGrammar));
  }
  // An exact agent id wins; else a unique prefix over session uuids ∪ agent ids (prefix shapes only). An
  // id that is not prefix-shaped is looked up as an agent's (a look per session folder); a prefix is matched
  // against the ids the store's listings name (listing every transcript for it, a stat each and every
  // meta.json, made `@0a1b` three times a whole-store search on a 10,000-transcript store).
  if (!prefix_shape) {
    if (auto a = index_.agent_by_id(body)) return agent(*a, nullptr);
    if (!is_all_hex(body))
      not_found_error("'" + shown + "': no subagent with agent id '" + body + "' under " + root_ + " (" +
                      std::string(kAtGrammar) + ")");
  }
  const std::vector<ListedId>& ids = index_.ids();
  const auto exact = std::find_if(ids.begin(), ids.end(), [&body](const ListedId& l) {
    return l.kind != ListedId::Kind::session && l.id == body;
  });
  std::vector<const ListedId*> hits;
  if (exact != ids.end()) {
    hits.push_back(&*exact);
  } else {
    for (const ListedId& l : ids) {
      if (starts_with_ignoring_case(l.id, body)) hits.push_back(&l);
    }
  }
  if (hits.empty())
    not_found_error("'" + shown + "': no session uuid or agent id under " + root_ + " starts with '" + body +
                    "'");
  if (hits.size() > 1) {
    std::string list;
    for (size_t i = 0; i < hits.size() && i < 20; ++i)
      list += (i ? ", " : "") + hits[i]->id;
    if (hits.size() > 20) list += ", … (+" + std::to_string(hits.size() - 20) + " more)";
    usage_error("'" + shown + "' is ambiguous: it prefixes " + std::to_string(hits.size()) + " ids (" + list +
                "); add more characters");
  }
  const std::optional<Transcript> hit = transcript_of(*hits[0]);
  if (!hit)
    not_found_error("'" + shown + "': " + hits[0]->id + " is gone from " + root_ + " since it was listed");
  if (hit->is_subagent) return agent(*hit, nullptr);
  session(*hit);
}

void ScopeBuilder::at_target(const std::string& body) {
  const std::string shown = "@" + body;
  if (body == "main") return main_session();
  if (body == "self") return calling_transcript();
  if (body.rfind("trap:", 0) == 0) return trap(body.substr(5));
  if (body.rfind("self:", 0) == 0) return self(body.substr(5));
  if (body.empty()) usage_error("'@' names nothing; " + std::string(kAtGrammar));
  if (looks_encoded(body) && !is_uuid(body)) {
    std::string dir = root_ + "/" + body;
    if (!is_dir(dir)) not_found_error("'" + shown + "': no project dir " + dir);
    project_dir(dir, shown);
    return;
  }
  id_target(body, shown);
}

void ScopeBuilder::jsonl_target(const std::string& t) {
  std::string abs = absolutize(t);
  auto file = transcript_for_file(abs);
  if (!file) {
    const auto reason = irregular_entry_reason(abs);
    not_found_error("'" + t + "': " + abs +
                    (reason ? " is " + *reason : std::string(" is no transcript file")));
  }
  if (is_sidecar_path(abs)) {
    usage_error("'" + t +
                "' is the elicitation sidecar: it is merged into its session automatically and is "
                "never a target; target the session (@<uuid>) instead");
  }
  if (file->is_subagent) return agent(*file, nullptr);
  picked_.push_back(*file);
  if (!subagents_ || !is_uuid(file->id)) return;
  for (Transcript& a : list_subagents(*file, &problems_))
    picked_.push_back(std::move(a));
}

// A real filesystem cwd (incl. `.`), or a project dir itself, or an encoded dir under the projects root.
void ScopeBuilder::path_target(const std::string& t) {
  std::string expanded = expand_home(t, env_);
  std::string root_prefix = root_ + "/";
  // `~/.claude/projects/<ENCODED>` names the dir under whichever projects root is in force.
  std::string default_root_prefix = home_dir(env_) + "/.claude/projects/";
  for (const std::string& prefix : {root_prefix, default_root_prefix}) {
    if (expanded.rfind(prefix, 0) != 0) continue;
    std::string rest = expanded.substr(prefix.size());
    while (!rest.empty() && rest.back() == '/')
      rest.pop_back();
    if (!rest.empty() && rest.find('/') == std::string::npos && is_dir(root_prefix + rest)) {
      project_dir(root_prefix + rest, t);
      return;
    }
  }
  std::string abs = absolutize(t);
  std::string encoded = encode_cwd(abs);
  if (is_dir(root_prefix + encoded)) {
    project_dir(root_prefix + encoded, t);
    return;
  }
  if (encoded.size() > kMaxEncodedLength) {
    // CC stores `<first-200>-<hash>` and finds it by prefix (the hash differs between its writers).
    std::string head = encoded.substr(0, kMaxEncodedLength) + "-";
    std::vector<std::string> matches;
    std::error_code ec;
    for (fs::directory_iterator it(root_, ec), end; !ec && it != end; it.increment(ec)) {
      if (it->path().filename().string().rfind(head, 0) == 0 && is_dir(it->path().string()))
        matches.push_back(it->path().string());
    }
    std::sort(matches.begin(), matches.end());
    if (!matches.empty()) {
      for (const std::string& dir : matches)
        project_dir(dir, t);
      return;
    }
    not_found_error("'" + t + "': no Claude Code project dir for " + abs + " (looked for " + root_prefix +
                    head + "<hash>)");
  }
  not_found_error("'" + t + "': no Claude Code project dir for " + abs + " (looked for " + root_prefix +
                  encoded + ")");
}

void ScopeBuilder::target(const std::string& t) {
  if (t.empty()) usage_error("an empty target names nothing");
  if (t[0] == '@') return at_target(t.substr(1));
  if (t.rfind("--", 0) == 0) {
    usage_error("'" + t +
                "' is not a flag this tool knows — did you mistype a flag? (a UNC-encoded project dir "
                "is targeted as '@" +
                t + "')");
  }
  if (is_uuid(t)) usage_error("'" + t + "' is a bare session id — did you mean '@" + t + "'?");
  if (t.size() > 6 && t.substr(t.size() - 6) == ".jsonl") return jsonl_target(t);
  if (looks_encoded(t) && t.find('/') == std::string::npos) {
    std::string dir = root_ + "/" + t;
    if (is_dir(dir)) {
      project_dir(dir, t);
      return;
    }
    if (t[0] == '-') not_found_error("'" + t + "': no project dir " + dir);
  }
  path_target(t);
}

void ScopeBuilder::id_token(const std::string& token) {
  std::string body = token[0] == '@' ? token.substr(1) : token;
  if (body == "main" || body.rfind("trap:", 0) == 0 || body.rfind("self:", 0) == 0 ||
      (looks_encoded(body) && !is_uuid(body)) || body.empty()) {
    usage_error(arg_ref("sessions_from") + " takes session uuids, uuid prefixes and agent ids; '" + token +
                "' is none");
  }
  id_target(body, token);
}

// Project dirs are walked on oneTBB workers: a store of many small sessions makes discovery a few thousand
// directory reads, stats and meta.json reads, which is most of a warm server's call. A server answers the
// walk again from its last one while its watches saw nothing change it (project_walk_memo.h).
void ScopeBuilder::all_projects() {
  project_wide_ = true;
  const uint64_t walk = DiscoveryWalk::current();
  ProjectWalkMemo* walks = process_project_walk_memo();
  const std::string root = absolute_path(root_);
  const std::optional<ProjectWalkMemo::Mark> began = walks ? ProjectWalkMemo::mark(root, walk) : std::nullopt;
  std::optional<ProjectWalkFinds> again = began ? walks->reuse(root, subagents_, *began) : std::nullopt;
  if (!again) {
    again = walk_projects();
    if (began) walks->keep(root, subagents_, *began, *again);
  }
  picked_.reserve(picked_.size() + again->picked.size());
  for (Transcript& t : again->picked)
    picked_.push_back(std::move(t));
  for (StoreProblem& p : again->problems)
    problems_.push_back(std::move(p));
}

ProjectWalkFinds ScopeBuilder::walk_projects() const {
  const std::vector<std::string> dirs = list_subdirs(root_);
  std::vector<ProjectFinds> finds(dirs.size());
  on_walk_workers(dirs.size(), [&](size_t i) { finds[i] = find_in_project(dirs[i], subagents_); });
  ProjectWalkFinds out;
  size_t found = 0;
  for (const ProjectFinds& f : finds)
    found += f.picked.size();
  out.picked.reserve(found);  // one allocation: doubling would move thousands of ~0.25 KB transcripts
  for (ProjectFinds& f : finds) {
    for (Transcript& t : f.picked)
      out.picked.push_back(std::move(t));
    for (StoreProblem& p : f.problems)
      out.problems.push_back(std::move(p));
  }
  return out;
}

// One entry per path, in path order (a project listed twice reports its problems once).
std::vector<StoreProblem> ScopeBuilder::take_problems() {
  std::sort(problems_.begin(), problems_.end(),
            [](const StoreProblem& a, const StoreProblem& b) { return a.path < b.path; });
  std::vector<StoreProblem> out;
  for (StoreProblem& p : problems_) {
    if (out.empty() || out.back().path != p.path) out.push_back(std::move(p));
  }
  problems_.clear();
  return out;
}

// Moves v[from[j]] to slot j for every j, in place, one cycle of the permutation at a time (a slot placed
// is marked in `from` as its own source).
void apply_order(std::vector<Transcript>& v, std::vector<size_t> from) {
  for (size_t start = 0; start < v.size(); ++start) {
    if (from[start] == start) continue;
    Transcript held = std::move(v[start]);
    size_t slot = start;
    while (from[slot] != start) {
      const size_t next = from[slot];
      v[slot] = std::move(v[next]);
      from[slot] = slot;
      slot = next;
    }
    v[slot] = std::move(held);
    from[slot] = slot;
  }
}

// Sessions by path, each followed by its subagents by path; one entry per file. The sort keys are built once
// per transcript (building them per comparison was thousands of string allocations on a large scope).
std::vector<Transcript> ScopeBuilder::take_ordered() {
  struct OrderKey {
    std::string owner;  // the owning session's path (a session's own path)
    bool is_subagent;
    const std::string* path;
    size_t index;
  };
  std::vector<OrderKey> keys;
  keys.reserve(picked_.size());
  for (size_t i = 0; i < picked_.size(); ++i) {
    const Transcript& t = picked_[i];
    keys.push_back(
        {t.is_subagent ? t.project_dir + "/" + t.session_id + ".jsonl" : t.path, t.is_subagent, &t.path, i});
  }
  std::stable_sort(keys.begin(), keys.end(), [](const OrderKey& a, const OrderKey& b) {
    if (a.owner != b.owner) return a.owner < b.owner;
    if (a.is_subagent != b.is_subagent) return a.is_subagent < b.is_subagent;
    return *a.path < *b.path;
  });
  // picked_ is rearranged in place (a second vector of ~0.25 KB transcripts was fresh memory, so page faults,
  // on every warm call): `from[j]` is the index whose transcript goes to slot j, the kept ones first, then
  // the repeats, which are cut off.
  std::vector<size_t> from, repeated;
  from.reserve(picked_.size());
  std::unordered_set<std::string_view> seen;
  seen.reserve(picked_.size());
  for (const OrderKey& k : keys)  // picked_ is not moved until the order is known
    (seen.insert(*k.path).second ? from : repeated).push_back(k.index);
  const size_t kept_count = from.size();
  from.insert(from.end(), repeated.begin(), repeated.end());
  apply_order(picked_, std::move(from));
  picked_.resize(kept_count);
  std::vector<Transcript> out = std::move(picked_);
  picked_.clear();
  return out;
}

}  // namespace

// A named home that is not a directory is a mistake at once; the default home is required only by a call
// that reads Claude Code's store (a call that reads only other harnesses' stores works without one).
TargetResolver::TargetResolver(const Environment& env, std::optional<std::string> claude_home_override)
    : env_(env),
      home_override_(std::move(claude_home_override)),
      home_(resolve_claude_home(home_override_, env)),
      root_(csift::projects_root(home_)) {
  if (home_override_ || !env_.claude_home.empty()) require_claude_home(home_, home_override_, env_);
}

namespace {

// The targets split by store: refs of other harnesses, and Claude Code's grammar (`claude-code:<id>` is
// `@<id>`).
struct SplitTargets {
  std::vector<std::string> claude;
  std::vector<HarnessRef> refs;
};

SplitTargets split_targets(const std::vector<std::string>& targets) {
  SplitTargets out;
  for (const std::string& t : targets) {
    auto ref = parse_harness_ref(t);
    if (!ref) {
      out.claude.push_back(t);
    } else if (ref->harness->id() == HarnessId::claude_code) {
      out.claude.push_back("@" + ref->id);
    } else {
      out.refs.push_back(std::move(*ref));
    }
  }
  return out;
}

bool is_directory_path(const std::string& p) {
  std::error_code ec;
  return fs::is_directory(p, ec);
}

}  // namespace

Scope TargetResolver::resolve(const TargetRequest& req) const {
  const DiscoveryWalk walk(new_lru_call());  // the memo keeps what this walk uses from its own evictions
  Scope scope;
  scope.claude_home = home_;
  scope.projects_root = root_;
  const HarnessSelection selection = select_harnesses(req.harnesses);
  SplitTargets targets = split_targets(req.targets);
  std::optional<std::vector<std::string>> id_tokens;
  if (req.sessions_from_ids) {
    SplitTargets ids = split_targets(*req.sessions_from_ids);
    id_tokens = std::move(ids.claude);
    for (HarnessRef& r : ids.refs)
      targets.refs.push_back(std::move(r));
  }
  scope.unscoped = req.targets.empty() && !req.sessions_from_ids;
  // Claude Code's store is read for its own targets and ids, and by an unscoped call that selects it (under
  // "all" only when it exists: an absent store is reported, not an error).
  const bool claude_unscoped =
      scope.unscoped && selection.claude && (!selection.all || is_directory_path(home_) || home_override_);
  const bool claude_part = !targets.claude.empty() || (id_tokens && !id_tokens->empty()) || claude_unscoped ||
                           (id_tokens && targets.refs.empty());
  scope.claude_store_read = claude_part;
  if (claude_part) {
    require_claude_home(home_, home_override_, env_);
    ScopeBuilder builder(env_, root_, req.subagents);
    for (const std::string& t : targets.claude)
      builder.target(t);
    if (id_tokens) {
      for (const std::string& id : *id_tokens)
        builder.id_token(id);
    }
    if (claude_unscoped) builder.all_projects();
    scope.transcripts = builder.take_ordered();
    scope.notes = std::move(builder.notes());
    scope.project_wide = builder.project_wide();
    scope.problems = builder.take_problems();
  }
  if (scope.unscoped && selection.all && !claude_unscoped)
    scope.notes.push_back("no Claude Code store at " + home_ +
                          ": only the other harnesses' stores were read");
  const std::vector<const HarnessEntry*> whole =
      scope.unscoped ? selection.others : std::vector<const HarnessEntry*>{};
  if (!whole.empty() || !targets.refs.empty()) {
    if (scope.unscoped) scope.project_wide = true;
    resolve_harness_scope(env_, targets.refs, whole, scope.transcripts, scope.problems, scope.stores,
                          scope.notes);
  }
  for (const Transcript& t : scope.transcripts) {
    ++(t.is_subagent ? scope.subagent_sessions : scope.top_level_sessions);
  }
  return scope;
}

Transcript TargetResolver::resolve_one(const std::string& target) const {
  TargetRequest req;
  req.targets = {target};
  req.subagents = false;
  Scope scope = resolve(req);
  if (scope.transcripts.size() != 1) {
    usage_error(
        "'" + target + "' resolves to " + std::to_string(scope.transcripts.size()) +
        " transcripts; this reads exactly ONE (use @<uuid>, @<agent-id>, <harness>:<session id> or a *.jsonl "
        "path)");
  }
  return scope.transcripts.front();
}

bool names_project_dir(const std::string& projects_root, std::string_view token) {
  return looks_encoded(token) && token != "-" && is_dir(projects_root + "/" + std::string(token));
}

std::vector<std::string> parse_id_list(const std::string& text) {
  std::vector<std::string> ids;  // bare ids: a leading '@' is dropped
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i])))
      ++i;
    size_t start = i;
    while (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i])))
      ++i;
    if (i > start && text[start] == '@') ++start;
    if (i > start) ids.push_back(text.substr(start, i - start));
  }
  return ids;
}

}  // namespace csift
