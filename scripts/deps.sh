#!/usr/bin/env bash
# Install everything chive's build and tests need on Debian 12, as root.
# Idempotent: packages already present are not fetched again.
set -euo pipefail
cd "$(dirname "$0")/.."

# time: GNU time, whose peak RSS the shell's memory test reads.
pkgs=(build-essential cmake pkg-config git ca-certificates
      libsqlite3-dev sqlite3 zlib1g-dev libzstd-dev liblz4-dev libsnappy-dev
      libexpat1-dev libbrotli-dev liblzo2-dev libedit-dev clang libclang-rt-14-dev
      time)
command -v node >/dev/null 2>&1 || pkgs+=(nodejs)
command -v npm >/dev/null 2>&1 || pkgs+=(npm)

missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
    || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# The peer used by the compatibility tests and benchmarks: DuckDB, pinned by
# tests/peer/package-lock.json.
if [ ! -d tests/peer/node_modules/@duckdb/node-api ]; then
  (cd tests/peer && npm ci --no-audit --no-fund --loglevel=error)
fi
