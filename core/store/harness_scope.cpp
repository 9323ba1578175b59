#include "core/store/harness_scope.h"

#include <algorithm>
#include <map>
#include <set>

#include "core/base/arg_ref.h"
#include "core/base/error.h"
#include "core/harness/claude_code/claude_code_reader.h"

namespace csift {

namespace {

// One listing per store and call, however many refs name it.
class StoreCache {
 public:
  StoreCache(const Environment& env, std::vector<StoreProblem>& problems, std::vector<StoreReport>& reports)
      : env_(env), problems_(problems), reports_(reports) {}

  const std::vector<Transcript>& sessions(const HarnessEntry& h) {
    auto it = listed_.find(h.name);
    if (it != listed_.end()) return it->second;
    StoreListing listing;
    reports_.push_back(list_harness_store(h, env_, listing));
    for (StoreProblem& p : listing.problems)
      problems_.push_back(std::move(p));
    return listed_.emplace(h.name, std::move(listing.transcripts)).first->second;
  }
  // The child logs the listing leaves out (HarnessEntry::child_logs), looked for only when a ref names no
  // listed session.
  const std::vector<Transcript>& children(const HarnessEntry& h) {
    auto it = children_.find(h.name);
    if (it != children_.end()) return it->second;
    std::vector<Transcript> found;
    if (h.child_logs) found = h.child_logs(sessions(h), nullptr);
    return children_.emplace(h.name, std::move(found)).first->second;
  }
  const StoreReport& report(const HarnessEntry& h) const {
    for (const StoreReport& r : reports_)
      if (r.harness == h.name) return r;
    throw std::logic_error("store not listed");
  }

 private:
  const Environment& env_;
  std::vector<StoreProblem>& problems_;
  std::vector<StoreReport>& reports_;
  std::map<std::string_view, std::vector<Transcript>> listed_;
  std::map<std::string_view, std::vector<Transcript>> children_;
};

std::string store_whereabouts(const StoreReport& r) {
  if (r.root.empty()) return "no " + r.harness + " store location (HOME is not set)";
  return r.root + " (" + r.source + ")" + (r.found ? "" : ", which does not exist");
}

// The session a ref names: a listed one (its whole id, or a unique prefix of at least 4 characters), else,
// by the same rule, a child log the listing leaves out (a sub-agent's, as `agents` prints its ref).
const Transcript& session_of_ref(StoreCache& cache, const HarnessRef& ref) {
  const std::string full = harness_ref(ref.harness->name, ref.id);
  std::vector<const Transcript*> hits;
  for (int pass = 0; pass < 2 && hits.empty(); ++pass) {
    for (const Transcript& t : pass == 0 ? cache.sessions(*ref.harness) : cache.children(*ref.harness)) {
      if (t.id == full) return t;
      if (ref.id.size() >= 4 && t.id.starts_with(full)) hits.push_back(&t);
    }
  }
  if (hits.size() == 1) return *hits.front();
  if (hits.empty()) {
    not_found_error("'" + ref.shown + "': no " + std::string(ref.harness->name) + " session " + ref.id +
                    " in " + store_whereabouts(cache.report(*ref.harness)) +
                    (ref.id.size() < 4 ? " (a prefix needs at least 4 characters)" : ""));
  }
  std::string list;
  for (size_t i = 0; i < hits.size() && i < 20; ++i)
    list += (i ? ", " : "") + hits[i]->id;
  usage_error("'" + ref.shown + "' is ambiguous: it prefixes " + std::to_string(hits.size()) + " sessions (" +
              list + "); add more characters");
}

}  // namespace

std::optional<HarnessRef> parse_harness_ref(std::string_view target) {
  std::string_view body = target.starts_with("@") ? target.substr(1) : target;
  const size_t colon = body.find(':');
  if (colon == std::string_view::npos || colon == 0) return std::nullopt;
  const HarnessEntry* h = harness_named(body.substr(0, colon));
  if (!h) return std::nullopt;
  return HarnessRef{h, std::string(body.substr(colon + 1)), std::string(target)};
}

std::string harness_names_text() {
  std::string out;
  for (const HarnessEntry& h : registered_harnesses())
    out += std::string(out.empty() ? "" : ", ") + std::string(h.name);
  return out + ", all";
}

HarnessSelection select_harnesses(const std::vector<std::string>& names) {
  HarnessSelection sel;
  if (names.empty()) return sel;
  sel.claude = false;
  std::set<std::string_view> picked;
  for (const std::string& name : names) {
    if (name == "all") {
      sel.all = true;
      continue;
    }
    const HarnessEntry* h = harness_named(name);
    if (!h) {
      usage_error(arg_ref("harness") + " '" + name + "' is not a harness csift-mcp reads; the values are " +
                  harness_names_text());
    }
    picked.insert(h->name);
  }
  for (const HarnessEntry& h : registered_harnesses()) {
    if (!sel.all && !picked.count(h.name)) continue;
    if (h.id() == HarnessId::claude_code)
      sel.claude = true;
    else
      sel.others.push_back(&h);
  }
  return sel;
}

void resolve_harness_scope(const Environment& env, const std::vector<HarnessRef>& refs,
                           const std::vector<const HarnessEntry*>& whole, std::vector<Transcript>& out,
                           std::vector<StoreProblem>& problems, std::vector<StoreReport>& reports,
                           std::vector<std::string>& notes) {
  StoreCache cache(env, problems, reports);
  std::vector<Transcript> picked;
  for (const HarnessEntry* h : whole) {
    for (const Transcript& t : cache.sessions(*h))
      picked.push_back(t);
  }
  for (const HarnessRef& ref : refs)
    picked.push_back(session_of_ref(cache, ref));
  std::stable_sort(picked.begin(), picked.end(), [](const Transcript& a, const Transcript& b) {
    // By the harness's name, as rows have always been ordered.
    return std::forward_as_tuple(harness_name(a.harness), a.path, a.id) <
           std::forward_as_tuple(harness_name(b.harness), b.path, b.id);
  });
  // A session named twice (a ref inside a whole store) is read once; SQLite-backed harnesses list several
  // sessions under one path, so the key is the ref, not the path.
  std::set<std::string> seen;
  std::set<std::string> harnesses;
  for (Transcript& t : picked) {
    harnesses.insert(std::string(harness_name(t.harness)));
    if (seen.insert(t.id).second) out.push_back(std::move(t));
  }
  for (const std::string& name : harnesses) {
    const HarnessEntry* h = harness_named(name);
    if (h && !h->not_recorded.empty()) notes.push_back(std::string(h->not_recorded));
  }
}

}  // namespace csift
