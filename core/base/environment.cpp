// The process environment read once into an Environment, and home-directory resolution.
#include "core/base/environment.h"

#include <pwd.h>
#include <unistd.h>

#include <cerrno>
#include <string_view>

extern char** environ;

namespace csift {

Environment Environment::from_process() {
  Environment env;
  for (char** e = environ; e && *e; ++e) {
    std::string_view entry(*e);
    size_t eq = entry.find('=');
    if (eq == std::string_view::npos) continue;
    env.vars.emplace(std::string(entry.substr(0, eq)), std::string(entry.substr(eq + 1)));
  }
  std::string buf(4096, '\0');
  while (::getcwd(buf.data(), buf.size()) == nullptr && errno == ERANGE)
    buf.resize(buf.size() * 2);
  env.cwd = buf.c_str();
  if (env.cwd.empty()) env.cwd = env.get("PWD").value_or("/");
  return env;
}

std::optional<std::string> Environment::get(const std::string& name) const {
  auto it = vars.find(name);
  if (it == vars.end() || it->second.empty()) return std::nullopt;
  return it->second;
}

std::string home_dir(const Environment& env) {
  if (auto home = env.get("HOME")) return *home;
  if (const passwd* pw = ::getpwuid(::getuid()); pw && pw->pw_dir) return pw->pw_dir;
  return "/";
}

std::string expand_home(const std::string& path, const Environment& env) {
  if (path == "~") return home_dir(env);
  if (path.rfind("~/", 0) == 0) return home_dir(env) + path.substr(1);
  if (path == "$HOME") return home_dir(env);
  if (path.rfind("$HOME/", 0) == 0) return home_dir(env) + path.substr(5);
  return path;
}

}  // namespace csift
