#!/usr/bin/env bash
# End-to-end checks of the chive command line: the demo against its golden
# output (run twice: INSERT OVERWRITE makes it repeatable), usage errors and
# clean errors for bad input.
set -u
chive=$1
here=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
check() { # name, condition result
  if [ "$2" = 0 ]; then pass=$((pass + 1)); echo "ok - $1";
  else fail=$((fail + 1)); echo "not ok - $1"; fi
}

for run in 1 2; do
  "$chive" demo "$tmp/wh" > "$tmp/demo.out" 2> "$tmp/demo.err"
  rc=$?
  check "demo run $run exits 0" $rc
  grep -v '^warehouse: ' "$tmp/demo.out" > "$tmp/demo.cmp"
  diff -u "$here/golden/demo.out" "$tmp/demo.cmp"
  check "demo run $run output matches golden/demo.out" $?
done
# Exactly one data file per partition after the second (overwriting) run,
# and no staging folder left behind.
n=$(find "$tmp/wh/demo.db/page_views" -name 'part-*' | wc -l)
[ "$n" = 3 ]; check "overwrite left one file per partition" $?
n=$(find "$tmp/wh" -name '.staging_*' | wc -l)
[ "$n" = 0 ]; check "no staging folder left" $?

"$chive" > /dev/null 2>&1; [ $? = 2 ]; check "no command is a usage error" $?
"$chive" nosuch > /dev/null 2>&1; [ $? = 2 ]; check "unknown command is a usage error" $?
"$chive" demo a b > /dev/null 2>&1; [ $? = 2 ]; check "demo with two args is a usage error" $?
"$chive" version | grep -q '^chive '; check "version" $?

# A warehouse that cannot be created: a clear error naming the path.
touch "$tmp/file"
"$chive" demo "$tmp/file/wh" > /dev/null 2> "$tmp/err"
[ $? = 1 ] && grep -q "$tmp/file/wh" "$tmp/err"; check "bad warehouse path is named" $?
# A metastore that is not a database: a clear error, not a crash.
mkdir -p "$tmp/bad" && echo "not sqlite" > "$tmp/bad/.chive_metastore.db"
"$chive" demo "$tmp/bad" > /dev/null 2> "$tmp/err"
[ $? = 1 ] && grep -qi "metastore" "$tmp/err"; check "corrupt metastore is reported" $?

echo "e2e_cli: $pass passed, $fail failed"
[ "$fail" = 0 ]
