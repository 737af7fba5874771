#!/usr/bin/env bash
# Text-scan benchmark: chive's TEXTFILE reader beside DuckDB's read_csv on the
# same \001-delimited file, both single-threaded.  Prints rows/s and MB/s.
#
#   bench/text_scan.sh [BUILD_DIR] [ROWS]
#
# BUILD_DIR (default build) must hold bench/bench_text_scan; DuckDB comes from
# tests/peer/node_modules (scripts/deps.sh).  Not a test: nothing is asserted.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
rows=${2:-2000000}
tool=$build/bench/bench_text_scan
[ -x "$tool" ] || { echo "build $tool first (cmake --build $build --target bench_text_scan)" >&2; exit 2; }
[ -d tests/peer/node_modules/@duckdb/node-api ] || { echo "DuckDB missing: run scripts/deps.sh" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/chv-bench-text-XXXXXX")
trap 'rm -rf "$work"' EXIT
file=$work/scan.txt
schema='id bigint, i int, d double, m decimal(12,2), s string, dt date, ts timestamp, b boolean'
duckcols="{'id':'BIGINT','i':'INTEGER','d':'DOUBLE','m':'DECIMAL(12,2)','s':'VARCHAR','dt':'DATE','ts':'TIMESTAMP','b':'BOOLEAN'}"

NODE_PATH=tests/peer/node_modules node - "$file" "$rows" "$duckcols" > "$work/duck.txt" <<'JS'
const { DuckDBInstance } = require('@duckdb/node-api');
const [file, rows, cols] = process.argv.slice(2);
(async () => {
  const inst = await DuckDBInstance.create(':memory:');
  const c = await inst.connect();
  const q = async s => (await c.runAndReadAll(s)).getRowObjects();
  await q(`COPY (SELECT i AS id, (hash(i) % 2000000000)::INTEGER - 1000000000 AS i,
             (hash(i * 3) % 100000000)::DOUBLE / 7.0 AS d,
             ((hash(i * 5) % 10000000)::DECIMAL(12,2) / 100)::DECIMAL(12,2) AS m,
             'name-' || (hash(i * 7) % 100000)::VARCHAR || '-' || repeat('x', (i % 20)::INTEGER) AS s,
             DATE '1970-01-01' + (hash(i * 11) % 20000)::INTEGER AS dt,
             TIMESTAMP '2000-01-01' + to_microseconds((hash(i * 13) % 600000000000000)::BIGINT) AS ts,
             i % 2 = 0 AS b
           FROM range(${rows}) r(i))
           TO '${file}' (FORMAT csv, DELIMITER '\x01', NULLSTR '\\N', HEADER false, QUOTE '')`);
  await q('SET threads=1');
  const sql = `SELECT count(*) AS n, sum(id), sum(i), sum(d), sum(m), max(length(s)),
      max(dt), max(ts), count(b) FROM read_csv('${file}', delim='\x01', quote='',
      escape='', nullstr='\\N', header=false, auto_detect=false, columns=${cols})`;
  let best = 1e300, n = 0;
  for (let k = 0; k < 3; k++) {
    const t0 = process.hrtime.bigint();
    const r = await q(sql);
    const secs = Number(process.hrtime.bigint() - t0) / 1e9;
    n = Number(r[0].n);
    if (secs < best) best = secs;
  }
  const bytes = require('fs').statSync(file).size;
  const v = (await q('SELECT version() AS v'))[0].v;
  console.log(`duckdb ${v} rows=${n} bytes=${bytes} seconds=${best.toFixed(3)} ` +
              `rows_per_s=${Math.round(n / best)} mb_per_s=${(bytes / best / 1e6).toFixed(1)}`);
})().catch(e => { console.error(e); process.exit(1); });
JS

"$tool" "$file" "$schema" --repeat 3 > "$work/chive.txt"

field() { sed -n "s/.*$1=\([^ ]*\).*/\1/p" "$2"; }
size=$(stat -c %s "$file")
printf 'file: %s rows, %.1f MB, \\001-delimited, 8 columns (%s)\n' "$rows" "$(awk -v s="$size" 'BEGIN{print s/1e6}')" "$schema"
printf '%-28s %12s %14s %10s\n' engine seconds rows/s MB/s
for e in chive duck; do
  name=$( [ $e = chive ] && echo "chive text reader" || echo "DuckDB read_csv (1 thread)")
  printf '%-28s %12s %14s %10s\n' "$name" "$(field seconds "$work/$e.txt")" \
    "$(field rows_per_s "$work/$e.txt")" "$(field mb_per_s "$work/$e.txt")"
done
c=$(field rows_per_s "$work/chive.txt"); d=$(field rows_per_s "$work/duck.txt")
printf 'chive / DuckDB rows/s ratio: %.2f\n' "$(awk -v c="$c" -v d="$d" 'BEGIN{print c/d}')"
