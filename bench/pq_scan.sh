#!/usr/bin/env bash
# Parquet-scan benchmark: chive's Parquet reader beside DuckDB's read_parquet
# on the same file, both single-threaded: every column, then a projection of
# two (an int and a string).  Prints rows/s and MB/s (of the file's size) and
# the ratio of rows/s.
#
#   bench/pq_scan.sh [BUILD_DIR] [ROWS]
#
# BUILD_DIR (default build) must hold bench/bench_pq_scan; DuckDB comes from
# tests/peer/node_modules (scripts/deps.sh) and writes the file: ids, ints,
# bigints, doubles, strings (one column of distinct strings, one of a few
# repeated ones, with NULLs), dates and a decimal, snappy.  Best of 5 runs
# each.  Not a test: nothing is asserted.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
rows=${2:-2000000}
tool=$build/bench/bench_pq_scan
[ -x "$tool" ] || { echo "build $tool first (cmake --build $build --target bench_pq_scan)" >&2; exit 2; }
[ -d tests/peer/node_modules/@duckdb/node-api ] || { echo "DuckDB missing: run scripts/deps.sh" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/chv-bench-pq-XXXXXX")
trap 'rm -rf "$work"' EXIT
file=$work/scan.parquet

NODE_PATH=tests/peer/node_modules node - "$file" "$rows" > "$work/duck.txt" <<'JS'
const { DuckDBInstance } = require('@duckdb/node-api');
const [file, rows] = process.argv.slice(2);
(async () => {
  const inst = await DuckDBInstance.create(':memory:');
  const c = await inst.connect();
  const q = async s => (await c.runAndReadAll(s)).getRowObjects();
  await q(`COPY (SELECT i AS id,
             (hash(i) % 2000000000)::INTEGER - 1000000000 AS i,
             (hash(i * 3) % 1000000000000)::BIGINT AS l,
             (hash(i * 5) % 100000000)::DOUBLE / 7.0 AS d,
             'name-' || (hash(i * 7) % 100000)::VARCHAR || '-' ||
               repeat('x', (i % 20)::INTEGER) AS s,
             CASE WHEN i % 10 = 0 THEN NULL
                  ELSE ['red', 'green', 'blue', 'cyan'][(i % 4)::INTEGER + 1] END AS c,
             DATE '1970-01-01' + (hash(i * 11) % 20000)::INTEGER AS dt,
             ((hash(i * 13) % 10000000)::DECIMAL(12,2) / 100)::DECIMAL(12,2) AS m
           FROM range(${rows}) r(i))
           TO '${file}' (FORMAT parquet, COMPRESSION snappy)`);
  await q('SET threads=1');
  const bytes = require('fs').statSync(file).size;
  const v = (await q('SELECT version() AS v'))[0].v;
  const cases = {
    all: `SELECT count(*) AS n, sum(id), sum(i), sum(l), sum(d), sum(length(s)),
            count(c), max(dt), sum(m) FROM read_parquet('${file}')`,
    two: `SELECT count(*) AS n, sum(i), sum(length(s)) FROM read_parquet('${file}')`,
  };
  for (const [name, sql] of Object.entries(cases)) {
    let best = 1e300, n = 0;
    for (let k = 0; k < 5; k++) {
      const t0 = process.hrtime.bigint();
      const r = await q(sql);
      const secs = Number(process.hrtime.bigint() - t0) / 1e9;
      n = Number(r[0].n);
      if (secs < best) best = secs;
    }
    console.log(`${name} duckdb ${v} rows=${n} bytes=${bytes} seconds=${best.toFixed(3)} ` +
                `rows_per_s=${Math.round(n / best)} mb_per_s=${(bytes / best / 1e6).toFixed(1)}`);
  }
})().catch(e => { console.error(e); process.exit(1); });
JS

"$tool" "$file" --repeat 5 | sed 's/^/all /' > "$work/chive.txt"
"$tool" "$file" --repeat 5 --columns i,s | sed 's/^/two /' >> "$work/chive.txt"

field() { sed -n "s/^$1 .*$2=\([^ ]*\).*/\1/p" "$3"; }
size=$(stat -c %s "$file")
printf 'file: %s rows, %.1f MB, snappy, 8 columns (id bigint, i int, l bigint, d double, s string, c string with NULLs, dt date, m decimal(12,2))\n' \
  "$rows" "$(awk -v s="$size" 'BEGIN{print s/1e6}')"
printf '%-34s %9s %14s %10s\n' engine seconds rows/s MB/s
for c in all two; do
  what=$( [ $c = all ] && echo "all columns" || echo "2 columns (i, s)")
  for e in chive duck; do
    name=$( [ $e = chive ] && echo "chive, $what" || echo "DuckDB (1 thread), $what")
    printf '%-34s %9s %14s %10s\n' "$name" "$(field $c seconds "$work/$e.txt")" \
      "$(field $c rows_per_s "$work/$e.txt")" "$(field $c mb_per_s "$work/$e.txt")"
  done
  ch=$(field $c rows_per_s "$work/chive.txt"); du=$(field $c rows_per_s "$work/duck.txt")
  printf 'chive / DuckDB rows/s ratio, %s: %.2f\n' "$what" "$(awk -v c="$ch" -v d="$du" 'BEGIN{print c/d}')"
done
