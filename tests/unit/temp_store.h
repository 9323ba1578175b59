// A throwaway ~/.claude layout for store/target/whoami tests: a unique temp dir, removed on destruction.
#pragma once
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "core/store/store.h"

namespace csift_test {

namespace fs = std::filesystem;

// A unique empty temp dir, removed on destruction; write() puts a file under it, creating its parent dirs.
struct TempDir {
  fs::path root;
  explicit TempDir(const std::string& prefix = "csift-tmp") {
    static int counter = 0;
    root = fs::temp_directory_path() /
           (prefix + "-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    fs::remove_all(root);
    fs::create_directories(root);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(root, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  std::string write(const std::string& rel, const std::string& text) const {
    fs::create_directories((root / rel).parent_path());
    std::ofstream(root / rel, std::ios::binary) << text;
    return (root / rel).string();
  }
};

struct TempStore {
  fs::path root;  // plays $HOME
  TempStore() {
    static int counter = 0;
    root = fs::temp_directory_path() /
           ("csift-store-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    fs::remove_all(root);
    fs::create_directories(projects());
    root = fs::canonical(root);
  }
  ~TempStore() {
    std::error_code ec;
    fs::remove_all(root, ec);
  }
  TempStore(const TempStore&) = delete;
  TempStore& operator=(const TempStore&) = delete;

  fs::path home() const { return root / ".claude"; }
  fs::path projects() const { return root / ".claude" / "projects"; }
  // Writes `content` at projects()/rel, creating parent dirs; returns the absolute path.
  std::string write(const std::string& rel, const std::string& content) const {
    fs::path p = projects() / rel;
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << content;
    return p.string();
  }
  csift::Environment env(const std::string& cwd = "/") const {
    csift::Environment e;
    e.vars["HOME"] = root.string();
    e.cwd = cwd;
    return e;
  }
};

// Appends `bytes` to the file at `p`, as a harness appends a record.
inline void append_to(const fs::path& p, const std::string& bytes) {
  std::ofstream(p, std::ios::binary | std::ios::app) << bytes;
}

// A minimal transcript line for session `sid`.
inline std::string user_line(const std::string& sid, const std::string& text = "hi") {
  return "{\"type\":\"user\",\"sessionId\":\"" + sid + "\",\"message\":{\"role\":\"user\",\"content\":\"" +
         text + "\"},\"uuid\":\"u1\",\"timestamp\":\"2026-01-01T00:00:00Z\"}\n";
}

// An assistant line carrying one tool_use block.
inline std::string tool_use_line(const std::string& sid, const std::string& id, const std::string& name,
                                 const std::string& input_json) {
  return "{\"type\":\"assistant\",\"sessionId\":\"" + sid +
         "\",\"message\":{\"role\":\"assistant\",\"content\":[{\"type\":\"tool_use\",\"id\":\"" + id +
         "\",\"name\":\"" + name + "\",\"input\":" + input_json + "}]},\"uuid\":\"a1\"}\n";
}

}  // namespace csift_test
