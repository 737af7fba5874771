#!/usr/bin/env bash
# ORC-write benchmark: chive's ORC writer (ZLIB, Hive's default, and SNAPPY)
# beside chive's Parquet writer (SNAPPY, its default, and GZIP) on the same
# 2M rows (ints, bigints, doubles, strings, dates, a decimal), all
# single-threaded.  No ORC writer outside chive is at hand (DuckDB writes
# no ORC), so the Parquet writer is the yardstick.  Prints seconds, rows/s
# and MB/s (of the values' bytes) side by side.
#
#   bench/orc_write.sh [BUILD_DIR] [ROWS]
#
# BUILD_DIR (default build) must hold bench/bench_orc_write.  Not a test:
# nothing is asserted.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
rows=${2:-2000000}
tool=$build/bench/bench_orc_write
[ -x "$tool" ] || { echo "build $tool first (cmake --build $build --target bench_orc_write)" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/chv-bench-orcw-XXXXXX")
trap 'rm -rf "$work"' EXIT

"$tool" "$work/z.orc" "$rows" --repeat 3 > "$work/orc_zlib.txt"
"$tool" "$work/s.orc" "$rows" --repeat 3 --set orc.compress=SNAPPY > "$work/orc_snappy.txt"
"$tool" "$work/s.parquet" "$rows" --repeat 3 --parquet > "$work/pq_snappy.txt"
"$tool" "$work/g.parquet" "$rows" --repeat 3 --parquet --set parquet.compression=GZIP \
  > "$work/pq_gzip.txt"

field() { sed -n "s/.*$1=\([^ ]*\).*/\1/p" "$2"; }
data=$(field data_bytes "$work/orc_zlib.txt")
printf 'rows: %s (id bigint, i int, d double, s string, dt date, m decimal(12,2)); %.1f MB of values\n' \
  "$rows" "$(awk -v s="$data" 'BEGIN{print s/1e6}')"
printf '%-30s %9s %12s %8s %10s %7s\n' writer seconds rows/s MB/s file_MB units
for e in orc_zlib orc_snappy pq_snappy pq_gzip; do
  case $e in
    orc_zlib) name="chive ORC, ZLIB (default)" ;;
    orc_snappy) name="chive ORC, SNAPPY" ;;
    pq_snappy) name="chive Parquet, SNAPPY (default)" ;;
    *) name="chive Parquet, GZIP" ;;
  esac
  printf '%-30s %9s %12s %8s %10.1f %7s\n' "$name" "$(field seconds "$work/$e.txt")" \
    "$(field rows_per_s "$work/$e.txt")" "$(field mb_per_s "$work/$e.txt")" \
    "$(awk -v s="$(field file_bytes "$work/$e.txt")" 'BEGIN{print s/1e6}')" \
    "$(field units "$work/$e.txt")"
done
o=$(field rows_per_s "$work/orc_zlib.txt"); p=$(field rows_per_s "$work/pq_gzip.txt")
printf 'ORC ZLIB / Parquet GZIP rows/s ratio: %.2f\n' "$(awk -v a="$o" -v b="$p" 'BEGIN{print a/b}')"
o=$(field rows_per_s "$work/orc_snappy.txt"); p=$(field rows_per_s "$work/pq_snappy.txt")
printf 'ORC SNAPPY / Parquet SNAPPY rows/s ratio: %.2f\n' "$(awk -v a="$o" -v b="$p" 'BEGIN{print a/b}')"
