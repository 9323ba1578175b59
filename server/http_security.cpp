#include "server/http_security.h"

#include "core/base/text.h"

#include <algorithm>
#include <cctype>

namespace csift {
namespace {

bool is_wildcard(std::string_view host) {
  return host == "0.0.0.0" || host == "::" || host == "[::]";
}

// A Host (or Origin host) the server answers to: a loopback name, the bound address, or anything when bound
// to every interface (there the token is what keeps strangers out).
bool host_allowed(const AccessPolicy& policy, const std::string& host) {
  if (is_loopback_host(host)) return true;
  if (is_loopback_host(policy.bind_host)) return false;
  return is_wildcard(policy.bind_host) || host == host_of_authority(policy.bind_host);
}

}  // namespace

bool is_loopback_host(std::string_view host) {
  std::string h = lower_ascii(host);
  if (h.size() >= 2 && h.front() == '[' && h.back() == ']') h = h.substr(1, h.size() - 2);
  if (h == "localhost" || h == "::1") return true;
  // 127.0.0.0/8, dotted quad only.
  if (h.rfind("127.", 0) != 0) return false;
  int dots = 0;
  for (char c : h) {
    if (c == '.')
      ++dots;
    else if (!std::isdigit(static_cast<unsigned char>(c)))
      return false;
  }
  return dots == 3;
}

std::string host_of_authority(std::string_view authority) {
  if (!authority.empty() && authority.front() == '[') {
    const auto close = authority.find(']');
    return lower_ascii(close == std::string_view::npos ? authority : authority.substr(0, close + 1));
  }
  // A bare IPv6 address (bind hosts are given that way) has several colons and no port.
  if (std::count(authority.begin(), authority.end(), ':') > 1) return lower_ascii(authority);
  return lower_ascii(authority.substr(0, authority.find(':')));
}

bool constant_time_equals(std::string_view a, std::string_view b) {
  const size_t n = std::max(a.size(), b.size());
  unsigned char diff = a.size() == b.size() ? 0 : 1;
  for (size_t i = 0; i < n; ++i) {
    const unsigned char x = i < a.size() ? static_cast<unsigned char>(a[i]) : 0;
    const unsigned char y = i < b.size() ? static_cast<unsigned char>(b[i]) : 0;
    diff |= static_cast<unsigned char>(x ^ y);
  }
  return diff == 0;
}

AccessDecision check_access(const AccessPolicy& policy, std::string_view host_header, std::string_view origin,
                            std::string_view authorization) {
  const std::string host = host_of_authority(host_header);
  if (host.empty() || !host_allowed(policy, host)) {
    return {Access::forbidden, "Host '" + std::string(host_header) + "' is not allowed"};
  }
  if (!origin.empty()) {
    const auto scheme_end = origin.find("://");
    const std::string origin_host =
        scheme_end == std::string_view::npos ? "" : host_of_authority(origin.substr(scheme_end + 3));
    if (origin_host.empty() || !host_allowed(policy, origin_host)) {
      return {Access::forbidden, "Origin '" + std::string(origin) + "' is not allowed"};
    }
  }
  if (!policy.token.empty()) {
    // RFC 9110 §11.1: the scheme name is case-insensitive ("bearer", "BEARER"); spaces before the token
    // are allowed.
    constexpr std::string_view kBearer = "bearer";
    const bool has_bearer = authorization.size() > kBearer.size() &&
                            lower_ascii(authorization.substr(0, kBearer.size())) == kBearer &&
                            (authorization[kBearer.size()] == ' ' || authorization[kBearer.size()] == '\t');
    std::string_view given;
    if (has_bearer) {
      given = authorization.substr(kBearer.size());
      given.remove_prefix(std::min(given.find_first_not_of(" \t"), given.size()));
    }
    if (!constant_time_equals(given, policy.token)) {
      return {Access::unauthorized, "a valid bearer token is required (Authorization: Bearer <token>)"};
    }
  }
  return {};
}

}  // namespace csift
