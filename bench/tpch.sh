#!/usr/bin/env bash
# The TPC-H benchmark (docs/bench.md): DuckDB writes the eight TPC-H tables
# at scale factor SF from plain SQL (bench/tpch/gen.sql) as Parquet,
# lineitem and orders partitioned by year as Hive tables; chive registers
# the same files; the 22 queries (bench/tpch/qNN.sql) run on chive and on
# DuckDB with 1 and 2 threads; every result is compared, and one table
# prints the median times, the ratio chive/DuckDB and their geometric mean.
#
#   bench/tpch.sh [--build DIR | --chive PATH] SF [--data DIR] [--runs N]
#                 [--threads 1,2] [--queries 1,3,5] [--results-only]
#                 [--expect-pass LIST] [--timeout SECS]
#
# --data DIR keeps the tables (DIR/sf<SF>) and chive's warehouse, reused
# by the next run with the same SF; without it they go to a temporary
# folder removed at the end.  --results-only compares once and times
# nothing; --expect-pass 1,6 fails the run unless those queries give
# DuckDB's results (the test suite runs it so).  chive is BUILD/chive
# (default build); DuckDB comes from tests/peer/node_modules
# (scripts/deps.sh).
#
# Exit 0 on success, 1 on a differing result or failure, 77 (skipped)
# without node or DuckDB.
set -euo pipefail
exec "$(dirname "$0")/node_driver.sh" tpch "$@"
