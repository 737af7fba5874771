#!/usr/bin/env bash
# ORC-scan benchmark: chive's ORC reader beside its Parquet and TEXTFILE
# readers on the same rows, single-threaded: every column, then a projection
# of two (an int and a string).  The rows (ROWS of id bigint, i int,
# l bigint, d double, s string, c string with NULLs, dt date,
# m decimal(12,2)) are written by chive's writers: ORC with ZLIB (Hive's
# default) and SNAPPY (Parquet's codec, for a like-for-like comparison),
# Parquet with SNAPPY (its default), text with \001 fields.
# No ORC reader outside chive is at hand (DuckDB reads no ORC), so the other
# formats are the yardstick.  Prints seconds, rows/s, MB/s (of the file's
# size), the file sizes and the bytes each scan read; best of 5 runs each.
#
#   bench/orc_scan.sh [BUILD_DIR] [ROWS]
#
# BUILD_DIR (default build) must hold bench/bench_orc_scan.  Not a test:
# nothing is asserted.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
rows=${2:-2000000}
tool=$build/bench/bench_orc_scan
[ -x "$tool" ] || { echo "build $tool first (cmake --build $build --target bench_orc_scan)" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/chv-bench-orcs-XXXXXX")
trap 'rm -rf "$work"' EXIT

"$tool" gen "$work" "$rows"
for f in scan.orc snappy.orc scan.parquet scan.txt; do
  "$tool" scan "$work/$f" --repeat 5 | sed 's/^/all /' >> "$work/out.txt"
  "$tool" scan "$work/$f" --repeat 5 --columns i,s | sed 's/^/two /' >> "$work/out.txt"
done

field() { sed -n "s/^$1 $2 .* $3=\([^ ]*\).*/\1/p" "$work/out.txt"; }
mb() { awk -v s="$1" 'BEGIN{printf "%.1f", s/1e6}'; }
printf 'rows: %s (id bigint, i int, l bigint, d double, s string, c string, dt date, m decimal(12,2))\n' "$rows"
printf '%-34s %9s %12s %9s %9s %9s\n' reader seconds rows/s MB/s file_MB read_MB
for c in all two; do
  what=$( [ $c = all ] && echo "all columns" || echo "2 columns (i, s)")
  for f in orc orc_snappy parquet text; do
    case $f in
      orc) name="ORC (ZLIB)" ;;
      orc_snappy) name="ORC (SNAPPY)" ;;
      parquet) name="Parquet (SNAPPY)" ;;
      *) name="text" ;;
    esac
    printf '%-34s %9s %12s %9s %9s %9s\n' "$name, $what" "$(field $c $f seconds)" \
      "$(field $c $f rows_per_s)" "$(field $c $f mb_per_s)" \
      "$(mb "$(field $c $f bytes)")" "$(mb "$(field $c $f read_bytes)")"
  done
  o=$(field $c orc rows_per_s); s=$(field $c orc_snappy rows_per_s)
  p=$(field $c parquet rows_per_s); t=$(field $c text rows_per_s)
  printf 'rows/s ratios, %s: ORC ZLIB / Parquet %.2f, ORC SNAPPY / Parquet %.2f, ORC ZLIB / text %.2f\n' \
    "$what" "$(awk -v a="$o" -v b="$p" 'BEGIN{print a/b}')" \
    "$(awk -v a="$s" -v b="$p" 'BEGIN{print a/b}')" "$(awk -v a="$o" -v b="$t" 'BEGIN{print a/b}')"
done
