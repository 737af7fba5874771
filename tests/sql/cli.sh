#!/usr/bin/env bash
# chive sql outside -f: statements on standard input (no prompt when it is
# not a terminal), -e, usage errors, --conf.
# usage: cli.sh CHIVE
set -u
chive=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
check() { # name, condition result
  if [ "$2" = 0 ]; then pass=$((pass + 1)); echo "ok - $1";
  else fail=$((fail + 1)); echo "not ok - $1"; fi
}
wh="$tmp/wh"

printf 'CREATE TABLE t (a INT);\nINSERT INTO t\n  VALUES (1), (2);\nSELECT * FROM t;\n' |
  "$chive" sql --warehouse "$wh" > "$tmp/out" 2>&1
check "stdin script exits 0" $?
! grep -q 'chive>' "$tmp/out"; check "no prompt without a terminal" $?
grep -q '^(2 rows)$' "$tmp/out"; check "stdin script runs every statement" $?

printf 'SELECT * FROM t;\nSELECT * FROM nosuch;\nDROP TABLE t;\n' |
  "$chive" sql --warehouse "$wh" > "$tmp/out" 2> "$tmp/err"
[ $? = 1 ]; check "stdin script stops at an error with exit 1" $?
grep -q 'line 2, column 15: table default.nosuch does not exist' "$tmp/err"
check "stdin error has line and column" $?
"$chive" sql --warehouse "$wh" -e 'SHOW TABLES' | grep -q '^t$'
check "statements after the error did not run" $?

"$chive" sql --warehouse "$wh" --format csv -e 'SELECT a FROM t LIMIT 1' > "$tmp/out"
printf 'a\r\n1\r\n' | cmp -s - "$tmp/out"; check "-e with csv" $?

"$chive" sql -e 'SHOW TABLES' -f x.sql > /dev/null 2>&1; [ $? = 2 ]
check "-e with -f is a usage error" $?
"$chive" sql --format xml -e 'SHOW TABLES' > /dev/null 2>&1; [ $? = 2 ]
check "unknown format is a usage error" $?
"$chive" sql --warehouse "$wh" -f "$tmp/nosuch.sql" > /dev/null 2> "$tmp/err"
[ $? = 1 ] && grep -q nosuch.sql "$tmp/err"; check "missing -f file is named" $?

printf 'table.exec.hive.infer-source-parallelism.max: 0\n' > "$tmp/bad.yaml"
"$chive" sql --warehouse "$wh" --conf "$tmp/bad.yaml" -e 'SHOW TABLES' > /dev/null 2> "$tmp/err"
[ $? = 1 ] && grep -q 'bad.yaml' "$tmp/err"; check "bad --conf file is named" $?

(cd "$tmp" && "$chive" sql -e 'CREATE DATABASE d' > /dev/null) &&
  [ -f "$tmp/warehouse/.chive_metastore.db" ]
check "default warehouse ./warehouse is created" $?

# On a terminal: prompts, continuation lines, errors do not end the
# session, \q does (util-linux script gives the terminal).
if command -v script > /dev/null 2>&1; then
  printf 'CREATE TABLE p (a INT,\nb STRING);\nSELECT * FROM nosuch;\nSHOW TABLES;\n\\q\nDROP TABLE p;\n' |
    timeout 60 script -qec "$chive sql --warehouse $tmp/wp" /dev/null > "$tmp/pty" 2>&1
  check "terminal session exits 0" $?
  tr -d '\r' < "$tmp/pty" > "$tmp/pty.txt"
  grep -q '^    -> b STRING);$' "$tmp/pty.txt" && grep -q '^chive> SHOW TABLES;$' "$tmp/pty.txt"; check "terminal prompts and continuation" $?
  grep -q 'table default.nosuch does not exist' "$tmp/pty.txt" &&
    grep -q '^p$' "$tmp/pty.txt"
  check "terminal session goes on after an error" $?
  "$chive" sql --warehouse "$tmp/wp" -e 'SHOW TABLES' | grep -q '^p$'
  check "\\q ends the session" $?
fi

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
