#!/bin/sh
# The dynamic symbol table of libchive.so against the public headers:
#   - every exported symbol starts with chv_ (no internal helper leaks:
#     cat_*, conn_*, text_*, static tables ...);
#   - every function a public header declares CHV_API is exported;
#   - internal functions (declared only under src/) are not.
# usage: check_exports.sh <nm> <libchive.so> <include/chive dir>
set -eu
nm=$1
lib=$2
inc=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$nm" -D --defined-only "$lib" | awk 'NF >= 3 {print $3}' | sed 's/@.*//' |
  sort -u >"$tmp/exported"
status=0

leaked=$(grep -v '^chv_' "$tmp/exported" | grep -v '^_init$' |
  grep -v '^_fini$' || true)
if [ -n "$leaked" ]; then
  echo "exported symbols without the chv_ prefix:"
  echo "$leaked"
  status=1
fi

# Function names after CHV_API, declarations spanning lines joined first.
grep -hv "^#" "$inc"/*.h | tr '\n' ' ' | grep -o 'CHV_API [^;(]*(' |
  sed 's/($//; s/.*[ *]//' | sort -u >"$tmp/declared"
missing=$(comm -23 "$tmp/declared" "$tmp/exported")
if [ -n "$missing" ]; then
  echo "declared CHV_API but not exported:"
  echo "$missing"
  status=1
fi
undeclared=$(comm -13 "$tmp/declared" "$tmp/exported" | grep '^chv_' || true)
if [ -n "$undeclared" ]; then
  echo "exported but not declared CHV_API in a public header:"
  echo "$undeclared"
  status=1
fi

for f in chv_catalog_open chv_sink_open chv_scan_open chv_scan_export_stream \
  chv_batch_stream_export chv_arrow_validate chv_batch_copy chv_type_parse \
  chv_config_open chv_text_reader_open chv_malloc chv_free chv_buf_init \
  chv_status_name chv_version; do
  grep -qx "$f" "$tmp/exported" || {
    echo "missing export: $f"
    status=1
  }
done
for f in chv_error_setv chv_alloc_fail_after chv_pool_open cat_exec \
  conn_table_schema; do
  if grep -qx "$f" "$tmp/exported"; then
    echo "internal function exported: $f"
    status=1
  fi
done

n=$(wc -l <"$tmp/exported")
[ "$status" -eq 0 ] && echo "check_exports: ok ($n symbols, all declared)"
exit "$status"
