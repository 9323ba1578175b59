// The checks every HTTP request passes before routing: DNS-rebinding protection (Host and Origin must be
// local, or name the address bound) and the bearer token, compared in constant time.
#pragma once
#include <string>
#include <string_view>

namespace csift {

bool is_loopback_host(std::string_view host);  // localhost, 127.0.0.0/8, ::1 (brackets optional)
// "host:port" / "[v6]:port" to the host part, lower-cased.
std::string host_of_authority(std::string_view authority);

struct AccessPolicy {
  std::string bind_host;  // what the server listens on
  std::string token;      // "" = no token required
};

enum class Access { allowed, forbidden, unauthorized };

struct AccessDecision {
  Access access = Access::allowed;
  std::string reason;
};

AccessDecision check_access(const AccessPolicy& policy, std::string_view host_header, std::string_view origin,
                            std::string_view authorization);

// Equal-length-independent comparison whose time does not depend on where the strings differ.
bool constant_time_equals(std::string_view a, std::string_view b);

}  // namespace csift
