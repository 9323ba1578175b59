#include "core/store/session_registry.h"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/json/stored_json.h"

namespace csift {

namespace {

struct ProcessStat {
  int ppid = 0;
  std::optional<double> start;                    // seconds since the epoch
  std::optional<unsigned long long> start_ticks;  // starttime: clock ticks after boot, as /proc gives it
};

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return "";
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::optional<long long> boot_time() {
  std::ifstream in("/proc/stat");
  std::string key;
  long long value = 0;
  while (in >> key) {
    if (key == "btime" && (in >> value)) return value;
    in.ignore(1 << 20, '\n');
  }
  return std::nullopt;
}

// /proc/<pid>/stat: the fields after the command's closing parenthesis are state, ppid, ... and the 22nd
// field of the line, starttime, in clock ticks after boot.
std::optional<ProcessStat> read_process_stat(int pid) {
  const std::string text = slurp("/proc/" + std::to_string(pid) + "/stat");
  const size_t close = text.rfind(')');
  if (close == std::string::npos) return std::nullopt;
  std::istringstream fields(text.substr(close + 1));
  std::vector<std::string> f;
  for (std::string w; fields >> w;)
    f.push_back(w);
  if (f.size() < 20) return std::nullopt;
  ProcessStat out;
  out.ppid = std::atoi(f[1].c_str());
  if (f[19].empty() || f[19].find_first_not_of("0123456789") != std::string::npos) return out;
  out.start_ticks = std::strtoull(f[19].c_str(), nullptr, 10);
  const long hz = sysconf(_SC_CLK_TCK);
  if (auto boot = boot_time(); boot && hz > 0)
    out.start = static_cast<double>(*boot) + static_cast<double>(*out.start_ticks) / static_cast<double>(hz);
  return out;
}

std::string utc_text(double epoch) {
  const std::time_t t = static_cast<std::time_t>(epoch);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

// procStartFt when the row has it (Windows writes FILETIME there), else procStart.
std::string row_start_text(const nlohmann::json& row) {
  for (const char* key : {"procStartFt", "procStart"}) {
    if (!row.contains(key)) continue;
    const auto& v = row[key];
    if (v.is_string()) return v.get<std::string>();
    if (v.is_number_unsigned() || v.is_number_integer()) return v.dump();
  }
  return "";
}

constexpr const char* kStartUnread = "not checked: the process start time could not be read from /proc";

// The current form of procStart: the owner's starttime in clock ticks after boot, compared with the
// process's own: exactly equal for the process that wrote the row (a tolerance of kStartTimeToleranceSeconds
// is allowed, as for the other forms, so a rounding writer is not refused).
std::string start_ticks_refusal(unsigned long long row_ticks, const ProcessStat& process,
                                std::string& check) {
  if (!process.start_ticks) {
    check = kStartUnread;
    return "";
  }
  const unsigned long long mine = *process.start_ticks;
  if (row_ticks == mine) {
    check = "matched exactly: the process's starttime is " + std::to_string(mine) +
            " clock ticks after boot, as the row's procStart says";
    return "";
  }
  const long hz = sysconf(_SC_CLK_TCK);
  const double diff =
      static_cast<double>(row_ticks > mine ? row_ticks - mine : mine - row_ticks) / (hz > 0 ? hz : 100);
  if (diff > kStartTimeToleranceSeconds) {
    return "the row's procStart is " + std::to_string(row_ticks) +
           " clock ticks after boot but the process started at " + std::to_string(mine) +
           ": the pid was reused, the row is stale";
  }
  check = "matched within " + std::to_string(diff).substr(0, 4) + " s: the process's starttime is " +
          std::to_string(mine) + " clock ticks after boot, the row's procStart " + std::to_string(row_ticks);
  return "";
}

// The pid-reuse guard: "" when the row's process is this process, else why not. `check` says what was done.
std::string start_time_refusal(const nlohmann::json& row, const std::optional<ProcessStat>& process,
                               std::string& check) {
  const std::string text = row_start_text(row);
  if (const auto ticks = parse_registry_start_ticks(text)) {
    if (process) return start_ticks_refusal(*ticks, *process, check);
    check = kStartUnread;
    return "";
  }
  const std::optional<double> row_start = parse_registry_start(text);
  if (!row_start) {
    check = text.empty() ? "not checked: the row has no procStart"
                         : "not checked: procStart '" + text + "' is not a start time";
    return "";
  }
  if (!process || !process->start) {
    check = kStartUnread;
    return "";
  }
  const double started = *process->start;
  const double diff = std::fabs(*row_start - started);
  if (diff > kStartTimeToleranceSeconds) {
    return "the row's procStart is " + utc_text(*row_start) + " but the process started " +
           utc_text(started) + ": the pid was reused, the row is stale";
  }
  check = "matched: the process started " + utc_text(started) + " as the row's procStart says";
  return "";
}

}  // namespace

std::optional<double> parse_registry_start(const std::string& text) {
  if (text.empty()) return std::nullopt;
  if (text.find_first_not_of("0123456789") == std::string::npos) {
    if (text.size() < 15) return std::nullopt;  // not a FILETIME (those are 18 digits today)
    return std::strtod(text.c_str(), nullptr) / 1e7 - 11644473600.0;
  }
  char weekday[8] = {0}, month[8] = {0};
  int day = 0, hour = 0, minute = 0, second = 0, year = 0;
  if (std::sscanf(text.c_str(), "%3s %3s %d %d:%d:%d %d", weekday, month, &day, &hour, &minute, &second,
                  &year) != 7) {
    return std::nullopt;
  }
  static const char* const kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                        "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  int mon = -1;
  for (int i = 0; i < 12; ++i) {
    if (std::string(month) == kMonths[i]) mon = i;
  }
  if (mon < 0 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60 || year < 1970)
    return std::nullopt;
  std::tm tm{};
  tm.tm_year = year - 1900;
  tm.tm_mon = mon;
  tm.tm_mday = day;
  tm.tm_hour = hour;
  tm.tm_min = minute;
  tm.tm_sec = second;
  return static_cast<double>(timegm(&tm));
}

LocalPidDomain local_pid_domain() {
  LocalPidDomain out;
  for (const char* path : {"/etc/machine-id", "/var/lib/dbus/machine-id"}) {
    std::string id = slurp(path);
    while (!id.empty() && std::isspace(static_cast<unsigned char>(id.back())))
      id.pop_back();
    if (!id.empty()) {
      out.machine_id = id;
      break;
    }
  }
  char ns[128] = {0};
  const ssize_t n = readlink("/proc/self/ns/pid", ns, sizeof ns - 1);
  if (n > 0) out.pid_namespace = std::string(ns, static_cast<size_t>(n));
  return out;
}

std::string pid_domain_refusal(const std::string& domain, const LocalPidDomain& here) {
  if (domain.empty() || domain == "linux") return "";  // older rows: the platform alone
  const std::string shown = "names pid domain '" + domain + "'";
  if (domain.rfind("linux:", 0) != 0) return shown + ", not this machine's (linux)";
  // linux:<machine-id>:pid:[<pid-namespace inode>] (the namespace part may be absent)
  const std::string rest = domain.substr(6);
  const size_t colon = rest.find(':');
  const std::string machine = rest.substr(0, colon);
  const std::string ns = colon == std::string::npos ? "" : rest.substr(colon + 1);
  if (here.machine_id.empty())
    return shown + ", and this machine's id (/etc/machine-id) cannot be read to match it";
  if (machine != here.machine_id)
    return shown + ": another machine (its machine-id " + machine + ", this machine's " + here.machine_id +
           ")";
  if (!ns.empty() && ns != here.pid_namespace) {
    return shown + ": this machine, but another pid namespace (" + ns + "; this process is in " +
           (here.pid_namespace.empty() ? std::string("an unreadable one") : here.pid_namespace) +
           "), whose pids mean other processes here";
  }
  return "";
}

std::string pid_domain_refusal(const std::string& domain) {
  static const LocalPidDomain here = local_pid_domain();
  return pid_domain_refusal(domain, here);
}

std::optional<unsigned long long> parse_registry_start_ticks(const std::string& text) {
  // FILETIME counts are 18 digits today; a starttime in clock ticks after boot stays far below 15 (at 100 Hz,
  // 10^15 ticks is some 300,000 years of uptime).
  if (text.empty() || text.size() >= 15 || text.find_first_not_of("0123456789") != std::string::npos)
    return std::nullopt;
  return std::strtoull(text.c_str(), nullptr, 10);
}

RegistryLookup find_registry_caller(const std::string& claude_home, int first_pid, int levels) {
  RegistryLookup out;
  int pid = first_pid;
  for (int level = 1; level <= levels && pid > 1; ++level) {
    const std::optional<ProcessStat> stat = read_process_stat(pid);
    const std::string row_path = claude_home + "/sessions/" + std::to_string(pid) + ".json";
    const std::string who = "pid " + std::to_string(pid) + " (ancestor " + std::to_string(level) + ")";
    const std::string text = slurp(row_path);
    if (text.empty()) {
      out.evidence.push_back(who + ": no registry row " + row_path);
    } else {
      const nlohmann::json row = parse_stored_object(text);
      const std::string session = row.contains("sessionId") && row["sessionId"].is_string()
                                      ? row["sessionId"].get<std::string>()
                                      : "";
      const std::string domain = row.contains("pidDomain") && row["pidDomain"].is_string()
                                     ? row["pidDomain"].get<std::string>()
                                     : "";
      std::string check;
      if (session.empty()) {
        out.evidence.push_back(who + ": " + row_path + " names no sessionId");
      } else if (const std::string foreign = pid_domain_refusal(domain); !foreign.empty()) {
        out.evidence.push_back(who + ": " + row_path + " " + foreign);
      } else if (!stat) {
        out.evidence.push_back(who + ": " + row_path + " names session " + session +
                               " but no such process is running (a stale row)");
      } else if (std::string refusal = start_time_refusal(row, stat, check); !refusal.empty()) {
        out.evidence.push_back(who + ": " + row_path + " names session " + session + ", refused: " + refusal);
      } else {
        out.evidence.push_back(who + ": " + row_path + " names session " + session + " (start time " + check +
                               ")");
        out.caller = RegistryCaller{pid, level, row_path, session, check};
        return out;
      }
    }
    if (!stat) break;
    pid = stat->ppid;
  }
  return out;
}

const char* owner_state_name(OwnerState s) {
  switch (s) {
    case OwnerState::alive:
      return "alive";
    case OwnerState::dead:
      return "dead";
    case OwnerState::reused:
      return "pid-reused";
    case OwnerState::foreign_domain:
      return "foreign-pid-domain";
    case OwnerState::unprobed:
      return "not-probed";
  }
  return "not-probed";
}

namespace {

// statusUpdatedAt is written as epoch milliseconds by current binaries, as text by some older ones.
std::string instant_field(const nlohmann::json& row, const char* key) {
  if (!row.contains(key)) return "";
  const auto& v = row[key];
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number()) return v.dump();
  return "";
}

// Liveness of the row's owner: /proc/<pid> plus the start-time guard.
void probe_owner(const nlohmann::json& row, RegistryRow& out) {
  if (const std::string foreign = pid_domain_refusal(out.pid_domain); !foreign.empty()) {
    out.owner = OwnerState::foreign_domain;
    out.owner_check = foreign + ": not probed";
    return;
  }
  std::error_code ec;
  if (!std::filesystem::is_directory("/proc/self", ec)) {
    out.owner = OwnerState::unprobed;
    out.owner_check = "no /proc on this system: the owner's liveness was not probed";
    return;
  }
  const std::optional<ProcessStat> stat = read_process_stat(out.pid);
  if (!stat) {
    out.owner = OwnerState::dead;
    out.owner_check = "pid " + std::to_string(out.pid) + " is not running";
    return;
  }
  std::string check;
  const std::string refusal = start_time_refusal(row, stat, check);
  if (!refusal.empty()) {
    out.owner = OwnerState::reused;
    out.owner_check = refusal;
    out.start_guarded = true;
    return;
  }
  out.owner = OwnerState::alive;
  out.start_guarded = check.rfind("matched", 0) == 0;
  out.owner_check = "pid " + std::to_string(out.pid) + " is running; start time " + check;
}

}  // namespace

RegistryRowsForSession registry_rows_for_session(const std::string& claude_home,
                                                 const std::string& session_id) {
  RegistryRowsForSession out;
  const std::filesystem::path dir = std::filesystem::path(claude_home) / "sessions";
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) return out;
  out.registry_dir_present = true;
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    if (entry.path().extension() == ".json") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  for (const auto& path : files) {
    const std::string text = slurp(path.string());
    if (text.find(session_id) == std::string::npos) continue;  // cheap screen before a parse
    const nlohmann::json row = parse_stored_object(text);
    if (!row.is_object()) {
      ++out.unreadable_rows;
      continue;
    }
    if (json_string_at(row, "sessionId") != session_id) continue;
    RegistryRow r;
    r.row_path = path.string();
    r.pid = row.contains("pid") && row["pid"].is_number_integer() ? row["pid"].get<int>()
                                                                  : std::atoi(path.stem().string().c_str());
    r.status = json_string_at(row, "status");
    r.status_updated_at = instant_field(row, "statusUpdatedAt");
    r.waiting_for = json_string_at(row, "waitingFor");
    r.pid_domain = json_string_at(row, "pidDomain");
    probe_owner(row, r);
    out.rows.push_back(std::move(r));
  }
  return out;
}

}  // namespace csift
