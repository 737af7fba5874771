#!/usr/bin/env bash
# The lineitem benchmark (docs/bench.md): DuckDB generates a lineitem-like
# table partitioned by day into 40 folders, as Parquet (snappy) and Hive text;
# chive registers both and writes an ORC (zlib) copy; then seven queries
# (count, sum, filter, one partition, GROUP BY, ORDER BY ... LIMIT 10,
# INSERT ... SELECT into a partitioned Parquet table) run on chive and on
# DuckDB over the same files with 1 and 2 threads.  The results must be
# equal; then one table prints the median times and the ratio chive/DuckDB.
#
#   bench/lineitem.sh [--build DIR | --chive PATH] [ROWS] [--runs R]
#                     [--threads 1,2] [--formats parquet,orc,text]
#                     [--queries count,sum,...] [--data DIR] [--check]
#
# ROWS defaults to 10000000 (100000 for a quick run).  --data DIR keeps the
# generated files and warehouse in DIR and reuses them when ROWS matches;
# without it they go to a temporary folder removed at the end.  --check
# compares the results once and times nothing (the test suite runs it so).
# chive is BUILD/chive (default build); DuckDB comes from
# tests/peer/node_modules (scripts/deps.sh).
#
# Exit 0 on success, 1 on a mismatch or failure, 77 (skipped) without node
# or DuckDB.
set -euo pipefail
exec "$(dirname "$0")/node_driver.sh" lineitem "$@"
