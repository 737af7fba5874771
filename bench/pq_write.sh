#!/usr/bin/env bash
# Parquet-write benchmark: chive's writer beside DuckDB's COPY ... (FORMAT
# parquet) on the same rows (ints, bigints, doubles, strings, dates, a
# decimal; snappy), both single-threaded.  Prints seconds, rows/s and MB/s
# (of the values' bytes) side by side and the ratio.
#
#   bench/pq_write.sh [BUILD_DIR] [ROWS]
#
# BUILD_DIR (default build) must hold bench/bench_pq_write; DuckDB comes from
# tests/peer/node_modules (scripts/deps.sh).  DuckDB's rows are read from
# chive's file into a table first, so both write identical values from
# memory.  Not a test: nothing is asserted beyond DuckDB reading chive's file.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
rows=${2:-2000000}
tool=$build/bench/bench_pq_write
[ -x "$tool" ] || { echo "build $tool first (cmake --build $build --target bench_pq_write)" >&2; exit 2; }
[ -d tests/peer/node_modules/@duckdb/node-api ] || { echo "DuckDB missing: run scripts/deps.sh" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/chv-bench-pqw-XXXXXX")
trap 'rm -rf "$work"' EXIT

"$tool" "$work/chive.parquet" "$rows" --repeat 3 > "$work/chive.txt"
# Row groups of about DuckDB's size (~120000 rows here; DuckDB: 122880), not Hive's
# 128 MiB: buffers are then reused from one row group to the next.
"$tool" "$work/chive8.parquet" "$rows" --repeat 3 --set parquet.block.size=4m \
  > "$work/chive8.txt"
data=$(sed -n 's/.*data_bytes=\([^ ]*\).*/\1/p' "$work/chive.txt")

NODE_PATH=tests/peer/node_modules node - "$work/chive.parquet" "$work/duck.parquet" "$data" \
  > "$work/duck.txt" <<'JS'
const { DuckDBInstance } = require('@duckdb/node-api');
const fs = require('fs');
const [src, dst, data] = process.argv.slice(2);
(async () => {
  const inst = await DuckDBInstance.create(':memory:');
  const c = await inst.connect();
  const q = async s => (await c.runAndReadAll(s)).getRowObjects();
  await q(`CREATE TABLE t AS SELECT * FROM read_parquet('${src}')`);
  const n = Number((await q('SELECT count(*) AS n FROM t'))[0].n);
  await q('SET threads=1');
  let best = 1e300;
  for (let k = 0; k < 3; k++) {
    const t0 = process.hrtime.bigint();
    await q(`COPY t TO '${dst}' (FORMAT parquet, COMPRESSION snappy)`);
    const secs = Number(process.hrtime.bigint() - t0) / 1e9;
    if (secs < best) best = secs;
  }
  const v = (await q('SELECT version() AS v'))[0].v;
  const groups = Number((await q(`SELECT count(DISTINCT row_group_id) AS g
                                  FROM parquet_metadata('${dst}')`))[0].g);
  console.log(`duckdb ${v} rows=${n} data_bytes=${data} ` +
              `file_bytes=${fs.statSync(dst).size} row_groups=${groups} ` +
              `seconds=${best.toFixed(3)} rows_per_s=${Math.round(n / best)} ` +
              `mb_per_s=${(Number(data) / best / 1e6).toFixed(1)}`);
})().catch(e => { console.error(e); process.exit(1); });
JS

field() { sed -n "s/.*$1=\([^ ]*\).*/\1/p" "$2"; }
printf 'rows: %s (id bigint, i int, d double, s string, dt date, m decimal(12,2)); %.1f MB of values; snappy\n' \
  "$rows" "$(awk -v s="$data" 'BEGIN{print s/1e6}')"
printf '%-32s %9s %12s %8s %10s %6s\n' engine seconds rows/s MB/s file_MB groups
for e in chive chive8 duck; do
  case $e in
    chive) name="chive Parquet writer" ;;
    chive8) name="chive, parquet.block.size=4m" ;;
    *) name="DuckDB COPY parquet (1 thread)" ;;
  esac
  printf '%-32s %9s %12s %8s %10.1f %6s\n' "$name" "$(field seconds "$work/$e.txt")" \
    "$(field rows_per_s "$work/$e.txt")" "$(field mb_per_s "$work/$e.txt")" \
    "$(awk -v s="$(field file_bytes "$work/$e.txt")" 'BEGIN{print s/1e6}')" \
    "$(field row_groups "$work/$e.txt")"
done
c=$(field rows_per_s "$work/chive.txt"); d=$(field rows_per_s "$work/duck.txt")
printf 'chive / DuckDB rows/s ratio: %.2f\n' "$(awk -v c="$c" -v d="$d" 'BEGIN{print c/d}')"
c8=$(field rows_per_s "$work/chive8.txt")
printf 'chive (4 MiB row groups) / DuckDB rows/s ratio: %.2f\n' "$(awk -v c="$c8" -v d="$d" 'BEGIN{print c/d}')"
