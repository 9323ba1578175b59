// The scrubber's passes. Each pass reads its input once, left to right, and writes a new string; a pass only
// ever looks a bounded distance back or scans a run it then skips, so the whole scrub is linear in the text's
// length. Passes run from the widest match (a PEM block) to the narrowest (a user name in a path), and a
// replacement `[REDACTED:<kind>]` holds no byte a later pass matches. Its colon would end the user of a URL's
// userinfo, so the URL password pass steps over a whole marker, and it runs once more last: the passes after
// it can remove what first ended a userinfo (an e-mail's `@`), and scrubbed text must scrub to itself.
#include "core/scrub/scrubber.h"

#include <algorithm>
#include <array>
#include <cstdint>

#include "core/base/text.h"

namespace csift {

namespace {

constexpr bool scrub_is_alnum(char c) {
  return is_ascii_alnum(static_cast<unsigned char>(c));
}
// The characters of a provider token: letters, digits, `_` and `-`.
constexpr bool scrub_is_token_char(char c) {
  return scrub_is_alnum(c) || c == '_' || c == '-';
}

// The end of the run of token characters starting at each position, computed once right to left so each
// token check is O(1).
std::vector<uint32_t> scrub_token_run_ends(std::string_view s) {
  std::vector<uint32_t> end(s.size() + 1);
  end[s.size()] = static_cast<uint32_t>(s.size());
  for (size_t i = s.size(); i-- > 0;)
    end[i] = scrub_is_token_char(s[i]) ? end[i + 1] : static_cast<uint32_t>(i);
  return end;
}

// A token may start here: the byte before is no letter or digit, or ends a JSON escape (`\n`, `\t`) of a raw
// line, where the letter belongs to the escape.
bool scrub_token_boundary(std::string_view s, size_t i) {
  if (i == 0 || !scrub_is_alnum(s[i - 1])) return true;
  return i >= 2 && s[i - 2] == '\\';
}

struct TokenRule {
  std::string_view prefix;
  std::string_view kind;
  size_t min_body;  // token characters required after the prefix
};

// Longer prefixes first where one extends another (sk-ant- and sk-proj- before sk-).
constexpr std::array kTokenRules = {
    TokenRule{"sk-ant-", "anthropic-key", 20}, TokenRule{"sk-proj-", "openai-key", 20},
    TokenRule{"sk-", "openai-key", 20},        TokenRule{"github_pat_", "github-token", 22},
    TokenRule{"ghp_", "github-token", 30},     TokenRule{"gho_", "github-token", 30},
    TokenRule{"ghs_", "github-token", 30},     TokenRule{"ghu_", "github-token", 30},
    TokenRule{"ghr_", "github-token", 30},     TokenRule{"glpat-", "gitlab-token", 20},
    TokenRule{"xoxb-", "slack-token", 10},     TokenRule{"xoxp-", "slack-token", 10},
    TokenRule{"xoxa-", "slack-token", 10},     TokenRule{"xoxo-", "slack-token", 10},
    TokenRule{"xoxr-", "slack-token", 10},     TokenRule{"xoxs-", "slack-token", 10},
    TokenRule{"AIza", "google-api-key", 35},   TokenRule{"sk_live_", "stripe-key", 16},
    TokenRule{"rk_live_", "stripe-key", 16},   TokenRule{"npm_", "npm-token", 36},
};

// AKIA / ASIA followed by exactly 16 upper-case letters or digits, then no letter or digit.
size_t scrub_aws_key_length(std::string_view s, size_t i) {
  const std::string_view rest = s.substr(i);
  if (!(rest.starts_with("AKIA") || rest.starts_with("ASIA")) || rest.size() < 20) return 0;
  for (size_t k = 4; k < 20; ++k) {
    const char c = rest[k];
    if (!((c >= 'A' && c <= 'Z') || is_ascii_digit(c))) return 0;
  }
  return rest.size() > 20 && scrub_is_alnum(rest[20]) ? 0 : 20;
}

// A JSON Web Token: three base64url parts joined by dots, the first two JSON objects (`eyJ`).
size_t scrub_jwt_length(std::string_view s, size_t i, const std::vector<uint32_t>& run_end) {
  if (!s.substr(i).starts_with("eyJ")) return 0;
  size_t head_end = run_end[i];
  if (head_end - i < 10 || head_end >= s.size() || s[head_end] != '.') return 0;
  size_t body = head_end + 1;
  if (!s.substr(body).starts_with("eyJ")) return 0;
  size_t body_end = run_end[body];
  if (body_end - body < 10 || body_end >= s.size() || s[body_end] != '.') return 0;
  size_t sig = body_end + 1;
  size_t sig_end = run_end[sig];
  if (sig_end - sig < 8) return 0;
  return sig_end - i;
}

// Provider tokens, AWS access key ids and JWTs.
std::string scrub_tokens(std::string_view s) {
  const std::vector<uint32_t> run_end = scrub_token_run_ends(s);
  std::string out;
  out.reserve(s.size());
  size_t i = 0;
  while (i < s.size()) {
    size_t len = 0;
    std::string_view kind;
    if (scrub_token_boundary(s, i)) {
      for (const TokenRule& rule : kTokenRules) {
        if (!s.substr(i).starts_with(rule.prefix)) continue;
        const size_t body = i + rule.prefix.size();
        if (run_end[body] - body >= rule.min_body) {
          len = run_end[body] - i;
          kind = rule.kind;
        }
        break;
      }
      if (len == 0 && (len = scrub_aws_key_length(s, i)) > 0) kind = "aws-access-key";
      if (len == 0 && (len = scrub_jwt_length(s, i, run_end)) > 0) kind = "jwt";
    }
    if (len == 0) {
      out += s[i++];
      continue;
    }
    out += redacted(kind);
    i += len;
  }
  return out;
}

// PEM private key blocks, `-----BEGIN ... PRIVATE KEY-----` through the matching END line (or to the end of
// the text when the block is cut off).
std::string scrub_pem_blocks(std::string_view s) {
  constexpr std::string_view begin = "-----BEGIN ";
  constexpr std::string_view key_tail = "PRIVATE KEY-----";
  constexpr std::string_view end_mark = "-----END ";
  std::string out;
  size_t copied = 0;
  size_t at = 0;
  while ((at = s.find(begin, at)) != std::string_view::npos) {
    // The BEGIN line ends at a newline or, in a raw JSON line, at the backslash of its `\n` escape. With no
    // PRIVATE KEY on it, no later BEGIN on the same line has one either: resume after the line (linear).
    const size_t line_end = std::min(s.find_first_of("\n\\", at), s.size());
    const size_t tail = s.substr(0, line_end).find(key_tail, at + begin.size());
    if (tail == std::string_view::npos) {
      at = line_end;
      continue;
    }
    size_t stop = s.find(end_mark, tail + key_tail.size());
    if (stop != std::string_view::npos) {
      const size_t close = s.find(key_tail, stop);
      stop = close == std::string_view::npos ? s.size() : close + key_tail.size();
    } else {
      stop = s.size();
    }
    out.append(s.substr(copied, at - copied));
    out += redacted("private-key");
    copied = at = stop;
  }
  out.append(s.substr(copied));
  return out;
}

constexpr bool scrub_is_bearer_char(char c) {
  return scrub_is_alnum(c) || c == '.' || c == '_' || c == '~' || c == '+' || c == '/' || c == '=' ||
         c == '-';
}

// `Bearer <credential>` (an Authorization header, in any case), the credential at least 8 characters.
std::string scrub_bearer(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  size_t i = 0;
  while (i < s.size()) {
    if ((s[i] == 'B' || s[i] == 'b') && (i == 0 || !scrub_is_alnum(s[i - 1])) &&
        starts_with_ignoring_case(s.substr(i), "bearer ")) {
      size_t v = i + 7;
      while (v < s.size() && s[v] == ' ')
        ++v;
      size_t e = v;
      while (e < s.size() && scrub_is_bearer_char(s[e]))
        ++e;
      if (e - v >= 8) {
        out.append(s.substr(i, v - i));
        out += redacted("bearer-token");
        i = e;
        continue;
      }
    }
    out += s[i++];
  }
  return out;
}

// The length of the `[REDACTED:<kind>]` of a kind this scrubber knows starting at `i`, else 0.
size_t scrub_marker_length(std::string_view s, size_t i) {
  constexpr std::string_view open = "[REDACTED:";
  if (s.compare(i, open.size(), open) != 0) return 0;
  const size_t name = i + open.size();
  for (const ScrubKind& kind : Scrubber::kinds()) {
    if (s.compare(name, kind.name.size(), kind.name) == 0 && name + kind.name.size() < s.size() &&
        s[name + kind.name.size()] == ']')
      return open.size() + kind.name.size() + 1;
  }
  return 0;
}

// `scheme://user:password@host`: the password goes, the user and host stay. A redaction marker in the
// userinfo is stepped over whole: its colon separates no password (`https://[REDACTED:github-token]@host`,
// a token as the user, would otherwise lose `github-token]` as a password on the next scrub).
std::string scrub_url_passwords(std::string_view s) {
  std::string out;
  size_t copied = 0;
  size_t at = 0;
  while ((at = s.find("://", at)) != std::string_view::npos) {
    const size_t user = at + 3;
    size_t e = user;
    size_t colon = std::string_view::npos;
    // The userinfo ends at '@'; a '/', space, quote or backslash first means there is none.
    while (e < s.size() && s[e] != '@' && s[e] != '/' && !is_ascii_space(s[e]) && s[e] != '"' &&
           s[e] != '\\') {
      if (const size_t marker = scrub_marker_length(s, e)) {
        e += marker;
        continue;
      }
      if (s[e] == ':' && colon == std::string_view::npos) colon = e;
      ++e;
    }
    if (e < s.size() && s[e] == '@' && colon != std::string_view::npos && colon > user && e > colon + 1) {
      out.append(s.substr(copied, colon + 1 - copied));
      out += redacted("url-password");
      copied = e;
    }
    at = e;
  }
  out.append(s.substr(copied));
  return out;
}

// `aws_secret_access_key = <40 characters>` in any case and spelling (`AWS_SECRET_ACCESS_KEY=`,
// `aws_secret_access_key:`, `"SecretAccessKey": "..."`).
std::string scrub_aws_secrets(std::string_view s) {
  const std::string low = lower_ascii(s);
  std::string out;
  size_t copied = 0;
  size_t at = 0;
  // The next occurrence of each spelling, found again only once passed (each search runs forward once).
  size_t a = low.find("secret_access_key");
  size_t b = low.find("secretaccesskey");
  while (at < low.size()) {
    if (a != std::string::npos && a < at) a = low.find("secret_access_key", at);
    if (b != std::string::npos && b < at) b = low.find("secretaccesskey", at);
    const size_t hit = std::min(a, b);
    if (hit == std::string::npos) break;
    size_t v = hit + (hit == a ? 17 : 15);
    size_t gap = 0;
    while (v < s.size() && gap < 8 &&
           (s[v] == ' ' || s[v] == '"' || s[v] == '\'' || s[v] == '=' || s[v] == ':' || s[v] == '\\'))
      ++v, ++gap;
    size_t e = v;
    while (e < s.size() && (scrub_is_alnum(s[e]) || s[e] == '/' || s[e] == '+'))
      ++e;
    if (e - v == 40) {
      out.append(s.substr(copied, v - copied));
      out += redacted("aws-secret-key");
      copied = e;
    }
    at = e > hit ? e : hit + 1;
  }
  out.append(s.substr(copied));
  return out;
}

constexpr bool scrub_is_local_char(char c) {
  return scrub_is_alnum(c) || c == '.' || c == '_' || c == '%' || c == '+' || c == '-';
}
constexpr bool scrub_is_domain_char(char c) {
  return scrub_is_alnum(c) || c == '.' || c == '-';
}

// An e-mail address: local@domain.tld (a dot in the domain, a final label of two or more letters). `git@`
// (an SSH remote's user, not a person) is kept.
std::string scrub_emails(std::string_view s) {
  std::string out;
  size_t copied = 0;
  size_t at = 0;
  while ((at = s.find('@', at)) != std::string_view::npos) {
    size_t l = at;
    while (l > copied && scrub_is_local_char(s[l - 1]))
      --l;
    // A JSON escape before the address (`\n` then the local part) is not part of it.
    if (l >= 1 && l < at && s[l - 1] == '\\' && scrub_is_alnum(s[l])) ++l;
    size_t r = at + 1;
    while (r < s.size() && scrub_is_domain_char(s[r]))
      ++r;
    while (r > at + 1 && (s[r - 1] == '.' || s[r - 1] == '-'))
      --r;  // a sentence's full stop
    const std::string_view domain = s.substr(at + 1, r - at - 1);
    const size_t dot = domain.rfind('.');
    bool tld_ok = dot != std::string_view::npos && dot > 0 && domain.size() - dot - 1 >= 2;
    for (size_t k = dot + 1; tld_ok && k < domain.size(); ++k)
      if (!((domain[k] >= 'a' && domain[k] <= 'z') || (domain[k] >= 'A' && domain[k] <= 'Z'))) tld_ok = false;
    const std::string_view local = s.substr(l, at - l);
    if (!local.empty() && tld_ok && local != "git") {
      out.append(s.substr(copied, l - copied));
      out += redacted("email");
      copied = r;
      at = r;
      continue;
    }
    at = at + 1;
  }
  out.append(s.substr(copied));
  return out;
}

constexpr bool scrub_is_user_char(char c) {
  return scrub_is_alnum(c) || c == '.' || c == '_' || c == '-' || c == '$' ||
         static_cast<unsigned char>(c) >= 0x80;
}

// The user name of a home directory: /home/<user>, /Users/<user>, C:\Users\<user> (also JSON-escaped,
// `C:\\Users\\<user>`). The name ends at a separator, a quote, a space or the end.
std::string scrub_home_users(std::string_view s) {
  static constexpr std::array<std::string_view, 4> kRoots = {"/home/", "/Users/", "\\Users\\\\", "\\Users\\"};
  std::string out;
  out.reserve(s.size());
  size_t i = 0;
  while (i < s.size()) {
    size_t name = 0;
    if (s[i] == '/' || s[i] == '\\') {
      for (std::string_view root : kRoots) {
        if (!s.substr(i).starts_with(root)) continue;
        // "/home/" must start a path: not "x/home/" inside another word or path component. A `]` before it
        // ends a redaction marker (`/Users/[REDACTED:home-user]/home/app`): the path goes on, so scrubbing
        // scrubbed text changes nothing (tests/fuzz, scrubber).
        // A JSON escape (`\n/home/x` in a raw line) is a separator, not a word.
        const bool after_escape =
            i > 1 && s[i - 2] == '\\' && (s[i - 1] == 'n' || s[i - 1] == 't' || s[i - 1] == 'r');
        if (root[0] == '/' && i > 0 && !after_escape && (scrub_is_user_char(s[i - 1]) || s[i - 1] == ']'))
          break;
        name = i + root.size();
        break;
      }
    }
    if (name != 0) {
      size_t e = name;
      while (e < s.size() && scrub_is_user_char(s[e]))
        ++e;
      const bool ends_name = e == s.size() || s[e] == '/' || s[e] == '\\' || s[e] == '"' || s[e] == '\'' ||
                             is_ascii_space(s[e]) || s[e] == ':' || s[e] == ')' || s[e] == ',';
      if (e > name && ends_name && !s.substr(name, e - name).starts_with("[REDACTED")) {
        out.append(s.substr(i, name - i));
        out += redacted("home-user");
        i = e;
        continue;
      }
    }
    out += s[i++];
  }
  return out;
}

bool scrub_may_hold_secret(std::string_view s) {
  // Every kind needs one of these bytes (`@`, `/`, `\`, `-`, `_`, a digit-bearing token...): a cheap screen
  // would miss too much, so only the empty string is skipped.
  return !s.empty();
}

template <class Json>
void scrub_json_value(const Scrubber& scrubber, Json& v) {
  if (v.is_string()) {
    auto& str = v.template get_ref<std::string&>();
    std::string clean = scrubber.scrub(str);
    if (clean != str) str = std::move(clean);
  } else if (v.is_array() || v.is_object()) {
    for (auto& item : v)
      scrub_json_value(scrubber, item);
  }
}

}  // namespace

std::string redacted(std::string_view kind) {
  return "[REDACTED:" + std::string(kind) + "]";
}

std::string Scrubber::scrub(std::string_view text) const {
  if (!scrub_may_hold_secret(text)) return std::string(text);
  std::string s = scrub_pem_blocks(text);
  s = scrub_bearer(s);
  s = scrub_url_passwords(s);
  s = scrub_aws_secrets(s);
  s = scrub_tokens(s);
  s = scrub_emails(s);
  s = scrub_home_users(s);
  // Again, on what the passes after the first left: an address or AWS secret they replaced may have held the
  // byte that ended a userinfo (`ssh://bob@example.com:pw@host`: the e-mail's `@`), and the next scrub
  // would find the password that uncovered.
  return scrub_url_passwords(s);
}

void Scrubber::scrub_json(nlohmann::json& value) const {
  scrub_json_value(*this, value);
}
void Scrubber::scrub_json(nlohmann::ordered_json& value) const {
  scrub_json_value(*this, value);
}

const std::vector<ScrubKind>& Scrubber::kinds() {
  static const std::vector<ScrubKind> all = {
      {"private-key", "a PEM block from -----BEGIN ... PRIVATE KEY----- through its END line"},
      {"bearer-token", "the credential after `Bearer ` (8+ of [A-Za-z0-9._~+/=-])"},
      {"url-password", "the password of scheme://user:password@host"},
      {"aws-secret-key", "40 characters after aws_secret_access_key / SecretAccessKey and = or :"},
      {"anthropic-key", "sk-ant- + 20 or more token characters"},
      {"openai-key", "sk- / sk-proj- + 20 or more token characters"},
      {"github-token", "ghp_ gho_ ghs_ ghu_ ghr_ + 30 or more, github_pat_ + 22 or more"},
      {"gitlab-token", "glpat- + 20 or more"},
      {"slack-token", "xoxb- xoxp- xoxa- xoxo- xoxr- xoxs- + 10 or more"},
      {"google-api-key", "AIza + 35 or more"},
      {"stripe-key", "sk_live_ / rk_live_ + 16 or more"},
      {"npm-token", "npm_ + 36 or more"},
      {"aws-access-key", "AKIA / ASIA + exactly 16 of [A-Z0-9]"},
      {"jwt", "eyJ... . eyJ... . signature (base64url parts of 10, 10 and 8 or more)"},
      {"email", "local@domain.tld (not git@)"},
      {"home-user", "the user name in /home/<user>, /Users/<user>, C:\\Users\\<user>"},
  };
  return all;
}

const Scrubber& default_scrubber() {
  static const Scrubber instance;
  return instance;
}

}  // namespace csift
