#!/usr/bin/env bash
# Install, build, and open the chive shell (`chive sql`) on the embedded
# metastore of ./warehouse (or the folder given).  A new warehouse gets the
# demo table demo.page_views first, so there is something to query.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
cmake -S . -B build
cmake --build build -j"$(nproc 2>/dev/null || echo 2)"
wh=${1:-./warehouse}
if [ ! -e "$wh/.chive_metastore.db" ]; then
  ./build/chive demo "$wh"
fi
exec ./build/chive sql --warehouse "$wh"
