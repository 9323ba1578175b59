#include "tools/image/image_request.h"

#include "core/base/arg_ref.h"
#include "core/base/error.h"

namespace csift {
namespace {

bool all_digits(std::string_view s) {
  if (s.empty() || s.size() > 12) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

int64_t to_int(std::string_view s) {
  int64_t n = 0;
  for (char c : s)
    n = n * 10 + (c - '0');
  return n;
}

}  // namespace

ImageId parse_image_id(const std::string& token) {
  ImageId id;
  id.text = token;
  if (!token.empty() && token.front() == '#') {
    usage_error(arg_ref("id") + " " + token + ": give a handle as bare digits (" + token.substr(1) +
                "), without the # (an unquoted # starts a shell comment)");
  }
  if (all_digits(token)) {
    id.handle = to_int(token);
    return id;
  }
  const size_t i = token.find('i');
  if (token.size() > 3 && (token[0] == 'L' || token[0] == 'l') && i != std::string::npos &&
      all_digits(std::string_view(token).substr(1, i - 1)) &&
      all_digits(std::string_view(token).substr(i + 1))) {
    id.line = static_cast<uint64_t>(to_int(std::string_view(token).substr(1, i - 1)));
    id.ordinal = static_cast<int>(to_int(std::string_view(token).substr(i + 1)));
    if (id.line > 0 && id.ordinal > 0) return id;
  }
  usage_error(
      arg_ref("id") + " " + token +
      ": expected a handle number (32, the #N Claude Code showed) or a locator L<line>i<n> (L6812i2)");
}

ImageRequest parse_image_request(const json& args) {
  ImageRequest req;
  for (const std::string& token : string_array(args, "id"))
    req.ids.push_back(parse_image_id(token));
  if (args.contains("turn") && args["turn"].is_string() && !args["turn"].get<std::string>().empty()) {
    req.turns = parse_range(args["turn"].get<std::string>(), arg_ref("turn"), false);
  }
  req.uuid_prefix = args.value("uuid", std::string());
  req.window = parse_time_window(args);
  req.out = args.value("out", std::string());
  req.attach = args.value("attach", false);
  if (req.attach && !req.out.empty()) {
    usage_error(arg_ref("attach") + " returns the image in the answer and " + arg_ref("out") +
                " writes it to a file: choose one");
  }
  return req;
}

}  // namespace csift
