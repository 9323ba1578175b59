#include "tools/sessions_mark/sessions_mark.h"

#include "core/base/arg_ref.h"
#include "core/base/error.h"
#include "tools/triage/triage_run.h"

namespace csift {
namespace {

// RFC 9562's text form: 8-4-4-4-12 hexadecimal digits.
bool is_submission_uid(std::string_view s) {
  if (s.size() != 36) return false;
  for (size_t i = 0; i < s.size(); ++i) {
    const bool dash = i == 8 || i == 13 || i == 18 || i == 23;
    if (dash ? s[i] != '-' : !std::isxdigit(static_cast<unsigned char>(s[i]))) return false;
  }
  return true;
}

std::vector<std::string> sessions_mark_uids(const json& args) {
  std::vector<std::string> uids;
  if (!args.contains("uids")) return uids;
  for (const json& u : args["uids"]) {
    const std::string uid = u.get<std::string>();
    if (!is_submission_uid(uid))
      usage_error(arg_ref("uids") + " " + uid +
                  " is not a submission uid; write an RFC 9562 UUID, 8-4-4-4-12 " +
                  "hexadecimal digits such as 0190c3a2-7b1e-7c4d-9a2f-3e5d6c7b8a90; nothing was marked");
    uids.push_back(uid);
  }
  return uids;
}

}  // namespace

Envelope run_sessions_mark(const json& args, ToolContext& ctx) {
  const std::vector<std::string> refs = triage_refs(args, "refs");
  if (refs.empty()) usage_error("sessions_mark needs " + arg_ref("refs") + ": the digested sessions to mark");
  const std::string outcome = args.at("outcome").get<std::string>();
  const std::vector<std::string> uids = sessions_mark_uids(args);
  if (outcome == "filed" && uids.empty())
    usage_error(arg_ref("outcome") + " filed needs " + arg_ref("uids") +
                ": the uid of each submission filed; nothing was marked");
  TriageRun run = open_triage_run(args, ctx);
  const std::vector<MarkRecorded> marked = run.db->mark(refs, outcome, uids, run.now);
  Envelope env = Envelope::make("sessions_mark");
  env.header["state_db"] = triage_scrub(run, run.db->path());
  size_t followed_others = 0;
  for (const MarkRecorded& m : marked) {
    json& row = env.add_row("marked");
    row["ref"] = m.ref;
    row["outcome"] = outcome;
    row["uids"] = uids;
    row["watermark"] = {{"size", m.watermark.size},
                        {"first_line_sha256", m.watermark.first_line_sha256},
                        {"mtime_ns", m.watermark.mtime_ns},
                        {"digested_at", m.watermark.at}};
    row["digests_followed"] = m.digests_followed;
    if (m.digests_followed > 1) {
      ++followed_others;
      env.notes.push_back(
          m.ref + ": " + std::to_string(m.digests_followed) +
          " digests were recorded since its previous mark (another triage run, or a run that " +
          "stopped before its mark); the watermark marked is the latest digest's, from " + m.watermark.at +
          ", covering " + std::to_string(m.watermark.size) + " bytes");
    }
  }
  env.summary["marked"] = marked.size();
  env.summary["outcome"] = outcome;
  env.summary["followed_several_digests"] = followed_others;
  return env;
}

std::string render_sessions_mark_text(const Envelope& env, const json& args, const ToolContext& ctx) {
  (void)args;
  (void)ctx;
  std::string out;
  for (const json& row : env.rows)
    out += "marked " + row["ref"].get<std::string>() + " " + row["outcome"].get<std::string>() + " at " +
           std::to_string(row["watermark"]["size"].get<uint64_t>()) + " bytes\n";
  out += std::to_string(env.summary.value("marked", 0)) + " session(s) marked\n";
  return out;
}

}  // namespace csift
