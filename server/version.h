#pragma once
namespace csift {
inline constexpr const char* kServerName = "csift-mcp";
const char* server_version();
}  // namespace csift
