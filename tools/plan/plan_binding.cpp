#include "tools/plan/plan_binding.h"

#include <filesystem>

#include "core/harness/claude_code/claude_fields.h"
#include "core/json/stored_json.h"
#include "core/mutations/bash_mutations.h"
#include "core/record/transcript_reader.h"
#include "core/scan/substring_finder.h"

namespace csift {

bool valid_plan_slug(const std::string& slug) {
  if (slug.empty() || slug.size() > 120) return false;
  auto lower_alnum = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); };
  if (!lower_alnum(slug.front())) return false;
  for (char c : slug)
    if (!lower_alnum(c) && c != '-' && !(c >= 'A' && c <= 'Z')) return false;
  return true;
}

namespace {

// plansDirectory from the merged settings: the project's settings.local.json over its settings.json over the
// home's settings.json; a relative value is taken against the project root and must stay inside it.
std::string plans_directory(const std::string& root, const std::string& home_as_given) {
  std::error_code ec;
  const std::string home = normalize_path(std::filesystem::absolute(home_as_given, ec).string());
  const std::string fallback = normalize_path(home + "/plans");
  std::string value;
  for (const std::string& file :
       {root + "/.claude/settings.local.json", root + "/.claude/settings.json", home + "/settings.json"}) {
    if (file.front() != '/') continue;  // a Windows session's project is not on this machine's disk
    const auto settings = read_json_file(file);
    value = json_string_at(settings, "plansDirectory");
    if (!value.empty()) break;
  }
  if (value.empty() || root.empty()) return fallback;
  const std::string dir = join_path(root, value);
  const std::string root_norm = normalize_path(root);
  if (dir != root_norm && dir.rfind(root_norm + "/", 0) != 0) return fallback;
  return dir;
}

}  // namespace

std::optional<PlanBinding> plan_binding_of(const Transcript& t, const std::string& claude_home,
                                           const CancelToken* cancel) {
  std::optional<PlanBinding> by_attachment, by_slug;
  std::string root;
  bool want_cwd = true;
  ReadOptions opts;
  opts.sequential = true;
  opts.cancel = cancel;
  static const SubstringFinder kCwd({"\"cwd\""}, false), kPlanMode({"plan_mode"}, false),
      kSlug({"\"slug\""}, false);
  opts.want = [&](std::string_view line) {
    return (want_cwd && kCwd.contains(line)) || kPlanMode.contains(line) ||
           (!by_slug && kSlug.contains(line));
  };
  for_each_record(t, opts, [&](Record&& r) {
    if (root.empty() && !r.cwd.empty()) {
      root = r.cwd;
      want_cwd = false;
    }
    if (!by_attachment && r.type == "attachment") {
      const auto a = parse_stored_object(cc(r).attachment_json);
      if (json_string_at(a, "type") == "plan_mode" && !json_string_at(a, "planFilePath").empty()) {
        PlanBinding b;
        b.plan_file = json_string_at(a, "planFilePath");
        b.source = "plan_mode";
        b.line = r.line;
        by_attachment = b;
      }
    }
    if (!by_slug) {
      const std::string slug = stored_string_field(cc(r).extra_json, "slug");
      if (valid_plan_slug(slug)) {
        PlanBinding b;
        b.slug = slug;
        b.source = "slug-only";
        b.line = r.line;
        b.minted_at_compaction = r.type == "system" && r.subtype == "compact_boundary";
        by_slug = b;
      }
    }
    return !by_attachment;
  });
  if (by_attachment) {
    if (by_slug) by_attachment->slug = by_slug->slug;
    by_attachment->project_root = root;
    return by_attachment;
  }
  if (!by_slug) return std::nullopt;
  by_slug->plan_file = plans_directory(root, claude_home) + "/" + by_slug->slug + ".md";
  by_slug->project_root = root;
  return by_slug;
}

}  // namespace csift
