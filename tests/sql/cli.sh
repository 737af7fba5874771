#!/usr/bin/env bash
# chive sql outside -f: statements on standard input (no prompt when it is
# not a terminal), -e, usage errors, --conf; \q, quit and exit in piped
# input, -f and -e; help and an unknown dot-command; --format markdown,
# --maxrows.
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

# The summary of an INSERT and the error of the next statement each end
# their line, with stdout and stderr on one pipe (and on one terminal below).
"$chive" sql --warehouse "$wh" -e 'INSERT INTO t VALUES (3); SELECT nosuch FROM t' > "$tmp/out" 2>&1
sed -n '1,2p' "$tmp/out" | grep -c -e '^Inserted 1 row$' -e '^chive: line 1, column 34: ' |
  grep -q '^2$'; check "INSERT summary and the next error on lines of their own" $?

# A 1 MB name: the message quotes it shortened in the middle with its
# length and keeps its reason; the source line is shown by its start, the
# text at the caret and its end, with its length.
t64=$(head -c 64 /dev/zero | tr '\0' t)
long() { head -c 1048576 /dev/zero | tr '\0' t; }
dots=$'\xe2\x80\xa6'
{ printf 'SELECT a FROM t WHERE '; long; printf ' = 1;\n'; } > "$tmp/long.sql"
"$chive" sql --warehouse "$wh" -f "$tmp/long.sql" > /dev/null 2> "$tmp/err"
{ printf "chive: line 1, column 23: column '%s\xe2\x80\xa6%s (1048576 bytes)' does not exist in default.t\n" "$t64" "$t64"
  printf 'SELECT a FROM t WHERE %s\xe2\x80\xa6%s = 1; (1048603 bytes)\n' "$t64" "${t64:5}"
  printf '%22s^\n' ''; } > "$tmp/want"
cmp -s "$tmp/want" "$tmp/err"; check "a 1 MB column name is quoted shortened, the reason kept" $?
[ "$(wc -c < "$tmp/err")" -lt 1000 ]; check "a 1 MB statement is not echoed whole" $?
{ printf "SELECT a FROM t WHERE a = '"; long; printf "' +"; } > "$tmp/long.sql"
"$chive" sql --warehouse "$wh" -f "$tmp/long.sql" > /dev/null 2> "$tmp/err"
{ printf 'chive: line 1, column 1048607: expected an expression, found end of input\n'
  printf "SELECT a FROM t WHERE a = '%s\xe2\x80\xa6%s' + (1048606 bytes)\n" "${t64:27}" "${t64:3}"
  printf '%129s^\n' ''; } > "$tmp/want"
cmp -s "$tmp/want" "$tmp/err"; check "the caret at the end of a 1 MB statement" $?
{ printf "SELECT 1 '"; long; printf "';"; } > "$tmp/long.sql"
"$chive" sql --warehouse "$wh" -f "$tmp/long.sql" > /dev/null 2> "$tmp/err"
head -n 1 "$tmp/err" | grep -q "after the statement, found '${t64:1}$dots${t64:1}' (1048578 bytes)$"
check "a 1 MB token is quoted shortened" $?
{ printf 'CREATE TABLE '; long; printf ' (a INT);\n'; } > "$tmp/long.sql"
"$chive" sql --warehouse "$wh" -f "$tmp/long.sql" > /dev/null 2> "$tmp/err"
head -n 1 "$tmp/err" | grep -q "^chive: line 1, column 14: .*$t64 (10485[0-9]* bytes).*: File name too long$"
check "a 1 MB table name keeps the system's reason" $?

# \q, quit, exit and .quit end piped input and -f scripts with status 0;
# the statements after them do not run.
for q in '\q' 'quit' 'exit;' 'QUIT ;' '.quit' '.exit'; do
  printf 'SELECT 1 AS one;\n%s\nCREATE TABLE after_quit (a INT);\n' "$q" |
    "$chive" sql --warehouse "$wh" > "$tmp/out" 2>&1
  rc=$?
  [ $rc = 0 ] && grep -q '^  1$' "$tmp/out" && ! grep -q chive: "$tmp/out"
  check "piped '$q' ends the script with status 0" $?
  printf 'SELECT 1 AS one;\n%s\nCREATE TABLE after_quit (a INT);\n' "$q" > "$tmp/q.sql"
  "$chive" sql --warehouse "$wh" -f "$tmp/q.sql" > "$tmp/out" 2>&1
  check "-f with '$q' exits 0" $?
done
"$chive" sql --warehouse "$wh" -e 'SELECT 1; exit; CREATE TABLE after_quit (a INT)' > /dev/null 2>&1
check "-e with exit exits 0" $?
"$chive" sql --warehouse "$wh" -e 'SHOW TABLES' | grep -q after_quit; [ $? = 1 ]
check "nothing after \q, quit or exit ran" $?
printf '.help\nhelp\n\\?\n' | "$chive" sql --warehouse "$wh" > "$tmp/out" 2>&1
[ $? = 0 ] && [ "$(grep -c '^Shell commands' "$tmp/out")" = 3 ]
check ".help, help and \\? print the help" $?
printf 'SELECT 1;\n.frobnicate\nSELECT 2;\n' | "$chive" sql --warehouse "$wh" > "$tmp/out" 2> "$tmp/err"
[ $? = 1 ] && grep -q "line 2, column 1: unknown command '.frobnicate'" "$tmp/err" && ! grep -q '^2$' "$tmp/out"
check "an unknown dot-command is an error naming it, and stops the script" $?

# --format markdown, --maxrows
"$chive" sql --warehouse "$wh" --format markdown -e 'SELECT 1 AS n, 2 AS m' > "$tmp/out"
printf '|   n |   m |\n|----:|----:|\n|   1 |   2 |\n' | cmp -s - "$tmp/out"
check "--format markdown" $?
"$chive" sql --warehouse "$wh" -e 'SELECT * FROM t' > "$tmp/out"
grep -q '^(3 rows)$' "$tmp/out"; check "not a terminal: a table shows every row" $?
"$chive" sql --warehouse "$wh" --maxrows 2 -e 'SELECT a FROM t ORDER BY a' > "$tmp/out"
printf 'a\n-\n1\n\xe2\x80\xa6\n3\n(3 rows, 2 shown, 1 left out)\n' | cmp -s - "$tmp/out"
check "--maxrows 2 shows the first and the last row" $?
"$chive" sql --warehouse "$wh" --maxrows lots -e 'SELECT 1' > /dev/null 2>&1; [ $? = 2 ]
check "a bad --maxrows is a usage error" $?

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
  timeout 60 script -qec "$chive sql --warehouse $tmp/wp -e 'INSERT INTO p VALUES (1, NULL); SELECT nosuch FROM p'" /dev/null < /dev/null > "$tmp/pty" 2>&1
  tr -d '\r' < "$tmp/pty" | sed -n '1,2p' | grep -c -e '^Inserted 1 row$' -e '^chive: line 1, column ' |
    grep -q '^2$'; check "terminal: INSERT summary and the next error on lines of their own" $?
fi

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
