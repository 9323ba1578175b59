// The session registry reader: both start-time forms, and the pid-reuse guard against this very process.
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

// This process's start time rendered as Claude Code writes procStart on unix (asctime, UTC).
std::string own_start_asctime() {
  std::ifstream stat("/proc/self/stat");
  std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
  std::istringstream fields(text.substr(text.rfind(')') + 1));
  std::string f;
  for (int i = 0; i < 20; ++i)
    fields >> f;
  std::ifstream proc_stat("/proc/stat");
  std::string key;
  long long btime = 0;
  while (proc_stat >> key) {
    if (key == "btime") {
      proc_stat >> btime;
      break;
    }
  }
  const std::time_t start = static_cast<std::time_t>(btime + std::stoll(f) / sysconf(_SC_CLK_TCK));
  std::tm tm{};
  gmtime_r(&start, &tm);
  char buf[64];
  std::strftime(buf, sizeof buf, "%a %b %e %H:%M:%S %Y", &tm);
  return buf;
}

void write_row(const TempStore& store, int pid, const std::string& start) {
  std::filesystem::create_directories(store.home() / "sessions");
  std::ofstream(store.home() / "sessions" / (std::to_string(pid) + ".json"))
      << R"({"pid":)" << pid << R"(,"sessionId":"0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d","procStart":")"
      << start << R"("})";
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
