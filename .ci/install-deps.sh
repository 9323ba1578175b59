#!/usr/bin/env bash
# Installs the Debian packages csift-mcp builds and tests with, only when something is missing.
set -euo pipefail
pkgs=(cmake ninja-build g++ make pkg-config python3 clang-format git
      nlohmann-json3-dev libsimdjson-dev libpcre2-dev libtbb-dev libfmt-dev doctest-dev
      libutf8proc-dev libsqlite3-dev sqlite3 libzstd-dev zstd libssl-dev libtomlplusplus-dev libpng-dev libjpeg62-turbo-dev libwebp-dev libgif-dev libjemalloc-dev ripgrep nodejs npm
      clang libclang-rt-14-dev)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# node/npm may come from outside Debian's packages on a developer machine: a working binary is enough.
filtered=()
for p in "${missing[@]}"; do
  case "$p" in
    nodejs) command -v node >/dev/null || filtered+=("$p") ;;
    npm) command -v npm >/dev/null || filtered+=("$p") ;;
    python3) command -v python3 >/dev/null || filtered+=("$p") ;;
    *) filtered+=("$p") ;;
  esac
done
if [ ${#filtered[@]} -gt 0 ]; then
  echo "installing: ${filtered[*]}"
  if [ "$(id -u)" -ne 0 ]; then echo "need root to apt-get install: ${filtered[*]}" >&2; exit 1; fi
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${filtered[@]}" >/dev/null
fi
