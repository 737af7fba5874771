#!/bin/sh
# The command line takes from libchive only what libchive.so exports: every
# symbol its objects leave undefined that libchive.a defines must be in the
# dynamic symbol table of libchive.so.  (The include path keeps src/ headers
# out of the command line; this keeps out a prototype of an internal
# function written by hand, which would link against libchive.a.)
# usage: check_cli_symbols.sh <nm> <libchive.so> <libchive.a> <object>...
# (an argument may hold several objects separated by ';', as CMake's
# $<TARGET_OBJECTS:...> gives them)
set -eu
nm=$1
so=$2
ar=$3
shift 3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$nm" -D --defined-only "$so" | awk 'NF >= 3 {print $3}' | sed 's/@.*//' |
  sort -u >"$tmp/exported"
# global symbols the archive defines (upper-case type letters)
"$nm" --defined-only "$ar" 2>/dev/null |
  awk 'NF >= 3 && $2 ~ /^[A-Z]$/ {print $3}' | sort -u >"$tmp/defined"
comm -23 "$tmp/defined" "$tmp/exported" >"$tmp/internal"

status=0
nobj=0
for arg in "$@"; do
  printf '%s\n' "$arg" | tr ';' '\n'
done >"$tmp/objects"
while IFS= read -r o; do
  [ -n "$o" ] || continue
  nobj=$((nobj + 1))
  "$nm" -u "$o" | awk '{print $NF}' | sort -u >"$tmp/undef"
  bad=$(comm -12 "$tmp/undef" "$tmp/internal")
  if [ -n "$bad" ]; then
    echo "$(basename "$o") uses functions internal to libchive:"
    echo "$bad" | sed 's/^/  /'
    status=1
  fi
done <"$tmp/objects"
if [ "$nobj" -eq 0 ]; then
  echo "check_cli_symbols: no objects given"
  exit 2
fi
[ "$status" -eq 0 ] &&
  echo "check_cli_symbols: ok ($nobj objects, $(wc -l <"$tmp/exported") exported symbols)"
exit "$status"
