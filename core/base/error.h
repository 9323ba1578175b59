// Errors csift-mcp reports to a caller. Tools throw ToolError; the tool table's dispatcher is the
// single place that turns any exception into a structured error result, so nothing escapes to a client.
#pragma once
#include <stdexcept>
#include <string>

namespace csift {

enum class ErrorKind {
  usage,      // the call's arguments are wrong (CLI exit 2, MCP isError)
  not_found,  // a target, line, uuid or turn resolved to nothing (exit 1)
  failure,    // anything else: I/O, a pattern too complex, an internal bug (exit 1)
};

class ToolError : public std::runtime_error {
 public:
  ToolError(ErrorKind kind, std::string message) : std::runtime_error(std::move(message)), kind_(kind) {}
  ErrorKind kind() const { return kind_; }
  const char* kind_name() const {
    switch (kind_) {
      case ErrorKind::usage:
        return "usage";
      case ErrorKind::not_found:
        return "not_found";
      default:
        return "failure";
    }
  }

 private:
  ErrorKind kind_;
};

[[noreturn]] inline void usage_error(std::string m) {
  throw ToolError(ErrorKind::usage, std::move(m));
}
[[noreturn]] inline void not_found_error(std::string m) {
  throw ToolError(ErrorKind::not_found, std::move(m));
}
[[noreturn]] inline void failure_error(std::string m) {
  throw ToolError(ErrorKind::failure, std::move(m));
}

}  // namespace csift
