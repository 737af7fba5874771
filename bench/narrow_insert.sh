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
exec "$(dirname "$0")/node_driver.sh" narrow_insert "$@"
