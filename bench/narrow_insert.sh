#!/usr/bin/env bash
# The narrow INSERT benchmark (docs/bench.md): ROWS rows (3,000,000 by
# default) of (BIGINT, INT, STRING, DOUBLE) into 20 Parquet partitions, by
# chive's INSERT ... SELECT and DuckDB's COPY ... PARTITION_BY from the same
# 4 source files, with 1 and 2 threads; prints the medians side by side.
#
#   bench/narrow_insert.sh [--build DIR | --chive PATH] [ROWS] [--runs R]
#                          [--threads 1,2] [--data DIR]
#
# chive is BUILD/chive (default build); DuckDB comes from
# tests/peer/node_modules (scripts/deps.sh).  Exit 0 on success, 1 on a
# mismatch or failure, 77 (skipped) without node or DuckDB.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
chive=
build=$root/build
args=()
while [ $# -gt 0 ]; do
  case "$1" in
  --build) build=$2; shift 2 ;;
  --chive) chive=$2; shift 2 ;;
  *) args+=("$1"); shift ;;
  esac
done
chive=${chive:-$build/chive}
[ -x "$chive" ] || { echo "narrow_insert: no chive at $chive (build it, or give --build DIR or --chive PATH)" >&2; exit 2; }
command -v node > /dev/null || { echo "SKIP: node is not installed"; exit 77; }
exec node "$root/bench/narrow_insert.js" --chive "$(cd "$(dirname "$chive")" && pwd)/$(basename "$chive")" "${args[@]}"
