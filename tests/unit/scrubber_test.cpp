// Each scrub pattern of SPEC.md §13.4: a value it must replace (naming its kind) and a near miss it must
// keep.
#include <doctest/doctest.h>

#include <string>

#include "core/scrub/scrubber.h"
#include "tools/dispatch/invoke_tool.h"

namespace scrubber_unit {

namespace {

std::string scrubber_test_text(const std::string& s) {
  return csift::default_scrubber().scrub(s);
}

struct ScrubberTestCase {
  const char* kind;
  std::string planted;    // replaced, and never seen in the output
  std::string near_miss;  // kept byte for byte
};

}  // namespace

TEST_CASE("scrubber: each pattern replaces its secret and keeps a near miss") {
  const ScrubberTestCase cases[] = {
      {"anthropic-key", "key sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123",
       "a task-ant-api03-abcdefghijklmnopqrstu"},
      {"openai-key", "OPENAI=sk-proj-abcdefghijklmnopqrstuvwxyz", "use sk-learn for this"},
      {"openai-key", "sk-abcdefghijklmnopqrstuvwxyz01", "disk-abcdefghijklmnopqrstuvwxyz01"},
      {"github-token", "token ghp_abcdefghijklmnopqrstuvwxyz0123456789", "ghp_short123"},
      {"github-token", "github_pat_11ABCDEFG0123456789_abcdefghijklm", "github_pat_tooShort"},
      {"gitlab-token", "glpat-abcdefghij0123456789", "glpat-short"},
      {"slack-token", "xoxb-1234567890-abcdef", "xoxz-1234567890-abcdef"},
      {"aws-access-key", "id AKIAIOSFODNN7EXAMPLE.", "AKIAIOSFODNN7EXAMPLEX (21)"},
      {"aws-secret-key", "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
       "aws_secret_access_key = short/value"},
      {"google-api-key", "AIzaSyA0123456789abcdefghijklmnopqrstuv", "AIza-is-a-prefix"},
      {"stripe-key", "sk_live_0123456789abcdefgh", "sk_test_0123456789abcdefgh"},
      {"npm-token", "npm_0123456789abcdefghijklmnopqrstuvwxyz", "npm_install_script"},
      {"jwt", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.SflKxwRJSMeKKF2QT4fw",
       "eyJhbGciOiJIUzI1NiJ9 alone"},
      {"bearer-token", "Authorization: Bearer abc123def456ghi789", "the bearer of bad news"},
      {"private-key",
       "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk\n-----END OPENSSH PRIVATE KEY-----",
       "-----BEGIN PUBLIC KEY-----\nMIIBIjANBg\n-----END PUBLIC KEY-----"},
      {"url-password", "https://bob:s3cretPass@example.com/x", "https://example.com/user:name@x"},
      {"email", "write to jane.doe+ci@mail.example.co.uk today", "git@github.com:org/repo.git"},
      {"home-user", "/home/alice/projects/x", "/srv/home-alice/x"},
      {"home-user", "C:\\Users\\Bob\\src", "C:\\Program Files\\x"},
      {"home-user", "/Users/carol", "/usr/share/Users"},
  };
  for (const ScrubberTestCase& c : cases) {
    CAPTURE(c.kind);
    CAPTURE(c.planted);
    const std::string out = scrubber_test_text(c.planted);
    CHECK(out.find("[REDACTED:" + std::string(c.kind) + "]") != std::string::npos);
    CHECK(scrubber_test_text(c.near_miss) == c.near_miss);
  }
  // The parts around a secret stay; the secret itself is gone.
  CHECK(scrubber_test_text("https://bob:s3cretPass@example.com/x") ==
        "https://bob:[REDACTED:url-password]@example.com/x");
  CHECK(scrubber_test_text("/home/alice/x and /Users/alice") ==
        "/home/[REDACTED:home-user]/x and /Users/[REDACTED:home-user]");
  CHECK(scrubber_test_text("a@b.c") == "a@b.c");  // a one-letter top-level domain is no address
  // A home path inside a home path is one path: scrubbing scrubbed text changes nothing (a fuzz find).
  const std::string nested = scrubber_test_text("/Users/dev/home/y-app");
  CHECK(nested == "/Users/[REDACTED:home-user]/home/y-app");
  CHECK(scrubber_test_text(nested) == nested);
  // After a JSON escape in a raw line the path starts afresh.
  CHECK(scrubber_test_text(R"("ls\n/home/alice/x")") == R"("ls\n/home/[REDACTED:home-user]/x")");
}

TEST_CASE("scrubber: a redaction marker's colon in a URL's userinfo separates no password") {
  // A token as a URL's user: its marker's colon read as the userinfo's made `github-token]` a password on
  // the next scrub (tests/fuzz, scrubber: regressions/scrubber/*-marker-as-url-user).
  const std::string token =
      scrubber_test_text("git clone https://ghp_abcdefghijklmnopqrstuvwxyz0123456789@github.com/o/r");
  CHECK(token == "git clone https://[REDACTED:github-token]@github.com/o/r");
  CHECK(scrubber_test_text(token) == token);
  // A colon after the marker still ends the user, so the password goes.
  CHECK(scrubber_test_text("https://[REDACTED:email]:hunter22@host/x") ==
        "https://[REDACTED:email]:[REDACTED:url-password]@host/x");
  // An address in the userinfo hid the password behind its `@` until the e-mail pass replaced it.
  const std::string behind = scrubber_test_text("ssh://bob@example.com:pw@host/x");
  CHECK(behind == "ssh://[REDACTED:email]:[REDACTED:url-password]@host/x");
  CHECK(scrubber_test_text(behind) == behind);
}

TEST_CASE("scrubber: raw JSON lines, escapes and every kind documented") {
  // A raw transcript line: JSON escapes before a token and a PEM block with \n escapes.
  const std::string raw =
      R"({"text":"x\nghp_abcdefghijklmnopqrstuvwxyz0123456789\n-----BEGIN RSA PRIVATE KEY-----\nMIIEsecret\n-----END RSA PRIVATE KEY-----"})";
  const std::string out = scrubber_test_text(raw);
  CHECK(out.find("ghp_abc") == std::string::npos);
  CHECK(out.find("MIIEsecret") == std::string::npos);
  CHECK(scrubber_test_text(R"("C:\\Users\\dave\\x")") == R"("C:\\Users\\[REDACTED:home-user]\\x")");
  nlohmann::json j = {{"rows", {"mail me: a.b@example.com", 3}}};
  csift::default_scrubber().scrub_json(j);
  CHECK(j["rows"][0] == "mail me: [REDACTED:email]");
  CHECK(csift::Scrubber::kinds().size() == 16);
  // Linear on adversarial input: a long run of prefixes and at-signs finishes (no timing assert: a
  // quadratic scan of 2 MB would not finish within the suite's timeout).
  std::string big;
  for (int i = 0; i < 100000; ++i)
    big += "ghp_sk-@a.";
  CHECK(scrubber_test_text(big).size() >= big.size() / 2);
  std::string pems, keys;
  for (int i = 0; i < 100000; ++i) {
    pems += "-----BEGIN x ";
    keys += "secret_access_key=x ";
  }
  CHECK(scrubber_test_text(pems) == pems);
  CHECK(scrubber_test_text(keys) == keys);
}

TEST_CASE("scrubber: the scrub argument through the dispatcher, off by default, forced on over HTTP") {
  const std::string home = std::string(CSIFT_SOURCE_DIR) + "/fixtures/triage/home";
  csift::ToolContext ctx;
  ctx.env.vars["HOME"] = home;
  ctx.env.cwd = "/";
  const csift::json args = {{"targets", {"@7a1a0000-0000-4000-8000-00000000cc01"}}, {"line", {".."}}};
  const csift::ToolSpec& show = *csift::find_tool("show");
  const std::string plain = csift::invoke_tool(show, args, ctx).text;
  CHECK(plain.find("ghp_R2d2C3po") != std::string::npos);  // stdio / CLI: off unless asked
  csift::json asked = args;
  asked["scrub"] = true;
  const csift::ToolOutcome scrubbed = csift::invoke_tool(show, asked, ctx);
  CHECK(scrubbed.text.find("ghp_R2d2C3po") == std::string::npos);
  CHECK(scrubbed.text.find("[REDACTED:github-token]") != std::string::npos);
  CHECK(scrubbed.envelope.rows.front().dump().find("ghp_R2d2C3po") == std::string::npos);
  ctx.env.caller = csift::CallerLink::network;  // HTTP: on by default, false refused
  CHECK(csift::invoke_tool(show, args, ctx).text.find("[REDACTED:github-token]") != std::string::npos);
  asked["scrub"] = false;
  const csift::ToolOutcome refused = csift::invoke_tool(show, asked, ctx);
  CHECK(refused.envelope.is_error);
  CHECK(refused.exit_code == 2);
  CHECK(refused.text.find("HTTP") != std::string::npos);
}

}  // namespace scrubber_unit
