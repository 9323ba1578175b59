// The dispatcher's scrub pass: one walk of the envelope's JSON, skipping the follow-up calls it carries.
#include "tools/dispatch/output_scrub.h"

#include "core/base/arg_ref.h"
#include "core/scrub/scrubber.h"

namespace csift {

namespace {

bool scrub_is_follow_up(const json& j) {
  return j.is_object() && j.contains("tool") && j["tool"].is_string() && j.contains("arguments") &&
         j["arguments"].is_object();
}

void scrub_output_value(json& j, const Scrubber& s) {
  if (j.is_string()) {
    std::string clean = s.scrub(j.get_ref<const std::string&>());
    if (clean != j.get_ref<const std::string&>()) j = std::move(clean);
  } else if (scrub_is_follow_up(j)) {
    return;
  } else if (j.is_object()) {
    for (auto& [key, v] : j.items())
      if (key != "continue_with") scrub_output_value(v, s);
  } else if (j.is_array()) {
    for (auto& v : j)
      scrub_output_value(v, s);
  }
}

}  // namespace

bool output_scrub_wanted(const json& args, const ToolContext& ctx, std::string& refusal) {
  const bool network = ctx.env.caller == CallerLink::network;
  const auto it = args.is_object() ? args.find("scrub") : args.end();
  if (!args.is_object() || it == args.end() || !it->is_boolean()) return network;
  if (network && !it->get<bool>()) {
    refusal = arg_ref("scrub") +
              " cannot be false over HTTP: the server may answer another machine, so its output is always "
              "scrubbed; read unscrubbed text over stdio or the command line";
    return true;
  }
  return it->get<bool>();
}

void scrub_row(json& row) {
  scrub_output_value(row, default_scrubber());
}

void scrub_envelope(Envelope& env) {
  const Scrubber& s = default_scrubber();
  scrub_output_value(env.header, s);
  scrub_output_value(env.summary, s);
  for (json& row : env.rows)
    scrub_output_value(row, s);
  for (std::string& note : env.notes)
    note = s.scrub(note);
}

}  // namespace csift
