// The census tally over a whole scan, its output order and cap, and its envelope / text forms.
#include "tools/search/search_census.h"

#include <algorithm>
#include <map>
#include <tuple>

#include "core/base/arg_ref.h"
#include "tools/common/text_fields.h"
#include "tools/search/search_envelope.h"

namespace csift {
namespace {

bool is_comm_label(Label l) {
  return l == Label::agent_communication_inbox || l == Label::agent_communication_sent ||
         l == Label::agent_communication_signal;
}

// A pairing exclusion caused by a record-text comm unit (a teammate message, an idle signal): the census note
// names these, since "any pending tools?" users expect comm traffic to be in the pairing domain.
bool has_comm_hit(const TranscriptHits& th, const RecordHit& rh) {
  const ClassifiedEntry& e = th.ct.entries[rh.entry_index];
  for (const UnitHit& uh : rh.units) {
    const auto& labels = e.units[uh.unit_index].labels;
    if (std::any_of(labels.begin(), labels.end(), is_comm_label)) return true;
  }
  return false;
}

std::vector<CensusRow> ordered_rows(CountAxis axis, const std::map<std::string, CensusKeyTally>& tallies) {
  std::vector<std::pair<std::string, CensusKeyTally>> v(tallies.begin(), tallies.end());
  if (axis == CountAxis::turn) {
    std::stable_sort(v.begin(), v.end(), [](const auto& a, const auto& b) {
      return std::tie(a.second.scope_index, a.second.turn) < std::tie(b.second.scope_index, b.second.turn);
    });
  } else if (axis == CountAxis::label) {
    std::stable_sort(v.begin(), v.end(), [](const auto& a, const auto& b) {
      return label_richness(*label_from_path(a.first)) < label_richness(*label_from_path(b.first));
    });
  } else {
    // std::map iteration is already key order, so a stable sort on the count leaves ties by key.
    std::stable_sort(v.begin(), v.end(),
                     [](const auto& a, const auto& b) { return a.second.records > b.second.records; });
  }
  std::vector<CensusRow> rows;
  rows.reserve(v.size());
  for (auto& [key, t] : v)
    rows.push_back(CensusRow{key, t.records});
  return rows;
}

void apply_cap(int64_t max_count, Census& c) {
  const size_t n = c.rows.size();
  const size_t keep = static_cast<size_t>(max_count < 0 ? -max_count : max_count);
  if (max_count == 0 || keep >= n) return;
  c.dropped_by_cap = n - keep;
  if (max_count > 0) {
    c.rows.resize(keep);
  } else {
    c.rows.erase(c.rows.begin(), c.rows.begin() + static_cast<std::ptrdiff_t>(n - keep));
  }
}

void tally_record(const SearchRequest& req, CountAxis axis, bool qualify, const TranscriptHits& th,
                  const RecordHit& rh, std::map<std::string, CensusKeyTally>& tallies, Census& c) {
  ++c.matched_records;
  if (axis == CountAxis::label) {
    const LabelSet leaves = census_labels(req, th, rh);
    for (const Label l : all_labels()) {
      if (leaves.has(l)) ++tallies[std::string(label_path(l))].records;
    }
    return;
  }
  const auto key = census_key(axis, th, rh, qualify);
  if (!key) {
    ++c.excluded_records;
    if (axis == CountAxis::pairing && has_comm_hit(th, rh)) ++c.excluded_comm_records;
    return;
  }
  CensusKeyTally& t = tallies[*key];
  ++t.records;
  t.scope_index = th.scope_index;
  t.turn = th.ct.entries[rh.entry_index].turn_index;
}

std::vector<std::string> accounting_notes(const Census& c, const SearchScan& scan) {
  const std::string axis = count_axis_name(c.axis);
  std::string line = "census by " + axis + ": " +
                     plural(c.matched_records, "matched record", "matched records") + " · " +
                     plural(c.distinct_keys, "distinct key", "distinct keys");
  if (c.axis == CountAxis::label) line += " (a record counts under every leaf it carries)";
  std::vector<std::string> notes{line};
  if (c.excluded_records > 0) {
    std::string ex =
        plural(c.excluded_records, "record", "records") + " excluded: outside the " + axis + " domain";
    if (c.excluded_comm_records > 0) {
      ex += " (" + std::to_string(c.excluded_comm_records) +
            " of them record-text communication units: a message, not a tool block)";
    }
    notes.push_back(ex);
  }
  if (c.dropped_by_cap > 0) {
    notes.push_back(plural(c.dropped_by_cap, "key", "keys") + " dropped by " + arg_ref("max_count") + " (" +
                    std::to_string(c.rows.size()) + " shown of " + std::to_string(c.distinct_keys) + ")");
  }
  if (scan.too_complex_lines > 0) {
    notes.push_back(plural(scan.too_complex_lines, "line was", "lines were") +
                    " too complex for the pattern (not searched): not counted");
  }
  if (scan.skipped_lines > 0) {
    notes.push_back(plural(scan.skipped_lines, "unreadable line", "unreadable lines") +
                    " skipped (malformed, too large or torn): not counted");
  }
  return notes;
}

}  // namespace

CensusTally::CensusTally(const SearchRequest& req, bool qualify_turns)
    : req_(req), axis_(req.count_by.value_or(CountAxis::label)), qualify_turns_(qualify_turns) {
  census_.axis = axis_;
}

void CensusTally::add(const TranscriptHits& th) {
  std::lock_guard<std::mutex> lock(mu_);
  for (const RecordHit& rh : th.hits)
    tally_record(req_, axis_, qualify_turns_, th, rh, tallies_, census_);
}

Census CensusTally::finish() {
  std::lock_guard<std::mutex> lock(mu_);
  Census c = census_;
  c.distinct_keys = tallies_.size();
  c.rows = ordered_rows(c.axis, tallies_);
  apply_cap(req_.max_count, c);
  return c;
}

Census tally_census(const SearchRequest& req, const SearchScan& scan) {
  CensusTally tally(req, scan.transcripts_scanned > 1);
  for (const TranscriptHits& th : scan.transcripts)
    tally.add(th);
  return tally.finish();
}

Envelope census_envelope(const SearchRequest& req, const Scope& scope, const SearchScan& scan) {
  return census_envelope(req, scope, scan, tally_census(req, scan));
}

Envelope census_envelope(const SearchRequest& req, const Scope& scope, const SearchScan& scan,
                         const Census& c) {
  Envelope env = search_envelope_base(req, scope);
  env.notes = req.notes;
  const char* axis = count_axis_name(c.axis);
  for (const CensusRow& r : c.rows) {
    json& row = env.add_row("census");
    row["axis"] = axis;
    row["key"] = r.key;
    row["records"] = r.records;
  }
  env.summary["axis"] = axis;
  env.summary["matched_records"] = c.matched_records;
  env.summary["distinct_keys"] = c.distinct_keys;
  env.summary["excluded_records"] = c.excluded_records;
  env.summary["dropped_by_cap"] = c.dropped_by_cap;
  env.summary["skipped_lines"] = scan.skipped_lines;
  env.summary["values_out_of_range"] = scan.values_out_of_range;
  for (std::string& note : accounting_notes(c, scan))
    env.notes.push_back(std::move(note));
  for (const std::string& note : scan.notes)
    env.notes.push_back(note);
  return env;
}

std::string render_census_text(const Envelope& env) {
  std::string out;
  for (const json& row : env.rows) {
    if (row.value("kind", "") != "census") continue;
    out += std::to_string(row.value("records", uint64_t{0})) + " " + row.value("key", "") + "\n";
  }
  return out;
}

}  // namespace csift
