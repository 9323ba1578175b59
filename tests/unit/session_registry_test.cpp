// The session registry reader: every start-time form (clock ticks, asctime, FILETIME), the pid domain (this
// machine and pid namespace or not), and the pid-reuse guard against this very process.
#include <doctest/doctest.h>
#include <unistd.h>

#include <ctime>
#include <fstream>
#include <sstream>

#include "core/store/session_registry.h"
#include "tests/unit/temp_store.h"

namespace session_registry_unit {

using namespace csift;
using csift_test::TempStore;

namespace {

// This process's starttime in clock ticks after boot, as Claude Code 2.1.332 writes procStart.
std::string own_start_ticks() {
  std::ifstream stat("/proc/self/stat");
  std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
  std::istringstream fields(text.substr(text.rfind(')') + 1));
  std::string f;
  for (int i = 0; i < 20; ++i)
    fields >> f;
  return f;
}

// This process's start time rendered as Claude Code writes procStart on unix (asctime, UTC).
std::string own_start_asctime() {
  std::ifstream proc_stat("/proc/stat");
  std::string key;
  long long btime = 0;
  while (proc_stat >> key) {
    if (key == "btime") {
      proc_stat >> btime;
      break;
    }
  }
  const std::time_t start =
      static_cast<std::time_t>(btime + std::stoll(own_start_ticks()) / sysconf(_SC_CLK_TCK));
  std::tm tm{};
  gmtime_r(&start, &tm);
  char buf[64];
  std::strftime(buf, sizeof buf, "%a %b %e %H:%M:%S %Y", &tm);
  return buf;
}

// The pidDomain Claude Code 2.1.332 writes for a process of this machine and pid namespace.
std::string own_pid_domain() {
  const LocalPidDomain here = local_pid_domain();
  return "linux:" + here.machine_id + ":" + here.pid_namespace;
}

void write_row(const TempStore& store, int pid, const std::string& start, const std::string& domain = "") {
  std::filesystem::create_directories(store.home() / "sessions");
  std::ofstream(store.home() / "sessions" / (std::to_string(pid) + ".json"))
      << R"({"pid":)" << pid << R"(,"sessionId":"0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d","procStart":")"
      << start << "\"" << (domain.empty() ? std::string() : R"(,"pidDomain":")" + domain + "\"") << "}";
}

}  // namespace

TEST_CASE("registry start times parse in the unix and the Windows form") {
  CHECK(parse_registry_start("Tue Dec  1 17:02:03 2026") == doctest::Approx(1796144523.0));
  CHECK(parse_registry_start("Thu Jan  1 00:00:00 1970") == doctest::Approx(0.0));
  // FILETIME: 100 ns ticks since 1601-01-01; 116444736000000000 is the unix epoch.
  CHECK(parse_registry_start("116444736000000000") == doctest::Approx(0.0));
  CHECK(parse_registry_start("116444736010000000") == doctest::Approx(1.0));
  CHECK_FALSE(parse_registry_start(""));
  CHECK_FALSE(parse_registry_start("yesterday"));
  CHECK_FALSE(parse_registry_start("Tue Foo  1 17:02:03 2026"));
}

TEST_CASE("the current procStart form is a starttime in clock ticks; FILETIME and asctime are not") {
  CHECK(parse_registry_start_ticks("231277") == 231277ull);
  CHECK(parse_registry_start_ticks("0") == 0ull);
  CHECK_FALSE(parse_registry_start_ticks("116444736000000000"));  // FILETIME: 18 digits
  CHECK_FALSE(parse_registry_start_ticks("Tue Dec  1 17:02:03 2026"));
  CHECK_FALSE(parse_registry_start_ticks(""));
  CHECK_FALSE(parse_registry_start_ticks("12a"));
  CHECK_FALSE(parse_registry_start("231277"));  // not an epoch instant either
}

TEST_CASE("pidDomain: this machine and pid namespace, another machine, another namespace, older forms") {
  const LocalPidDomain here{"3d1219c7c4c5404aaa1f6d2a48adfda4", "pid:[4026531836]"};
  CHECK(pid_domain_refusal("", here).empty());
  CHECK(pid_domain_refusal("linux", here).empty());
  CHECK(pid_domain_refusal("linux:3d1219c7c4c5404aaa1f6d2a48adfda4:pid:[4026531836]", here).empty());
  CHECK(pid_domain_refusal("linux:3d1219c7c4c5404aaa1f6d2a48adfda4", here).empty());
  const std::string machine = pid_domain_refusal("linux:0000aaaa:pid:[4026531836]", here);
  CHECK(machine.find("another machine") != std::string::npos);
  CHECK(machine.find("0000aaaa") != std::string::npos);
  CHECK(machine.find("3d1219c7c4c5404aaa1f6d2a48adfda4") != std::string::npos);
  const std::string ns = pid_domain_refusal("linux:3d1219c7c4c5404aaa1f6d2a48adfda4:pid:[4026532999]", here);
  CHECK(ns.find("another pid namespace") != std::string::npos);
  CHECK(ns.find("pid:[4026532999]") != std::string::npos);
  CHECK(ns.find("pid:[4026531836]") != std::string::npos);
  CHECK(pid_domain_refusal("win32", here).find("not this machine's") != std::string::npos);
  CHECK(pid_domain_refusal("linux:x:pid:[1]", LocalPidDomain{}).find("cannot be read") != std::string::npos);
}

TEST_CASE("a current-format row (machine-id domain, procStart in clock ticks) names its live process") {
  TempStore store;
  const int me = static_cast<int>(getpid());
  REQUIRE_FALSE(local_pid_domain().machine_id.empty());
  SUBCASE("the caller walk takes it, the start time matched exactly") {
    write_row(store, me, own_start_ticks(), own_pid_domain());
    const RegistryLookup r = find_registry_caller(store.home().string(), me, 1);
    REQUIRE(r.caller);
    CHECK(r.caller->start_check.rfind("matched exactly", 0) == 0);
  }
  SUBCASE("a reused pid: the ticks differ by more than the tolerance") {
    write_row(store, me, std::to_string(std::stoull(own_start_ticks()) + 100000), own_pid_domain());
    const RegistryLookup r = find_registry_caller(store.home().string(), me, 1);
    CHECK_FALSE(r.caller);
    REQUIRE(r.evidence.size() == 1);
    CHECK(r.evidence[0].find("pid was reused") != std::string::npos);
  }
  SUBCASE("another machine's row is passed over, saying whose it is") {
    write_row(store, me, own_start_ticks(), "linux:00000000000000000000000000000000:pid:[4026531836]");
    const RegistryLookup r = find_registry_caller(store.home().string(), me, 1);
    CHECK_FALSE(r.caller);
    REQUIRE(r.evidence.size() == 1);
    CHECK(r.evidence[0].find("another machine") != std::string::npos);
  }
  SUBCASE("status probes its owner: alive, guarded, not a foreign domain") {
    write_row(store, me, own_start_ticks(), own_pid_domain());
    const RegistryRowsForSession rows =
        registry_rows_for_session(store.home().string(), "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d");
    REQUIRE(rows.rows.size() == 1);
    CHECK(rows.rows[0].owner == OwnerState::alive);
    CHECK(rows.rows[0].start_guarded);
    CHECK(rows.rows[0].owner_check.find("matched exactly") != std::string::npos);
  }
  SUBCASE("an older row (bare linux domain, asctime) still names it") {
    write_row(store, me, own_start_asctime(), "linux");
    const RegistryRowsForSession rows =
        registry_rows_for_session(store.home().string(), "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d");
    REQUIRE(rows.rows.size() == 1);
    CHECK(rows.rows[0].owner == OwnerState::alive);
    CHECK(rows.rows[0].start_guarded);
  }
}

TEST_CASE("a registry row is trusted only for the process that wrote it") {
  TempStore store;
  const int me = static_cast<int>(getpid());
  SUBCASE("matching start time") {
    write_row(store, me, own_start_asctime());
    const RegistryLookup r = find_registry_caller(store.home().string(), me, 1);
    REQUIRE(r.caller);
    CHECK(r.caller->session_id == "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d");
    CHECK(r.caller->start_check.rfind("matched", 0) == 0);
  }
  SUBCASE("a reused pid") {
    write_row(store, me, "Mon Jan  1 00:00:00 2024");
    const RegistryLookup r = find_registry_caller(store.home().string(), me, 1);
    CHECK_FALSE(r.caller);
    REQUIRE(r.evidence.size() == 1);
    CHECK(r.evidence[0].find("pid was reused") != std::string::npos);
  }
  SUBCASE("the row two levels up") {
    write_row(store, static_cast<int>(getppid()), "garbage");
    const RegistryLookup r = find_registry_caller(store.home().string(), me, 2);
    REQUIRE(r.caller);
    CHECK(r.caller->level == 2);
    CHECK(r.caller->start_check.find("not checked") != std::string::npos);
    CHECK(r.evidence[0].find("no registry row") != std::string::npos);
  }
}

}  // namespace session_registry_unit
