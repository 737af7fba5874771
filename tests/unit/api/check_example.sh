#!/bin/sh
# docs/api.md shows examples/session_query.c verbatim, and the program runs:
# its output on a fresh warehouse is the aggregate the page promises.
# usage: check_example.sh <session_query binary> <session_query.c> <api.md>
set -eu
bin=$1
src=$2
doc=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# the ```c block that follows the marker line in the page
awk '/<!-- example: examples\/session_query.c -->/ {f = 1; next}
     f && /^```c$/ {on = 1; next}
     on && /^```$/ {exit}
     on {print}' "$doc" >"$tmp/doc.c"
if ! cmp -s "$tmp/doc.c" "$src"; then
  echo "docs/api.md does not show examples/session_query.c as it is:"
  diff "$src" "$tmp/doc.c" || true
  exit 1
fi
"$bin" "$tmp/wh" >"$tmp/out"
printf 'item | total\nink | 1\npen | 8\n' >"$tmp/want"
if ! cmp -s "$tmp/out" "$tmp/want"; then
  echo "session_query printed:"
  cat "$tmp/out"
  exit 1
fi
echo "check_example: ok"
