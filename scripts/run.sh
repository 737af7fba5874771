#!/usr/bin/env bash
# Install, build, and run chive's demo on the embedded metastore: create a
# warehouse, write a partitioned TEXTFILE table and print it back.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
cmake -S . -B build
cmake --build build -j"$(nproc 2>/dev/null || echo 2)"
./build/chive demo "${1:-./warehouse}"
