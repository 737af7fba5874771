#!/usr/bin/env bash
# `chive sql -e "SELECT * FROM big" > /dev/null` runs in memory that does not
# grow with the result, in every format (the table too: it keeps no more
# than its first 1000 rows for their widths, then streams): the peak RSS of
# 1 million rows (a 15 MB text file) stays under 64 MB in each format,
# where holding every row's text took about 130 MB.  And the table prints
# every row when standard output is no terminal, the first 1000 rows
# fixing the widths.  Nothing is timed.
#
#   shell_memory.sh CHIVE [SANITIZED]
#
# Skipped (77) without GNU time, and under a sanitizer (SANITIZED = ON),
# whose shadow memory and quarantine have nothing to do with the result.
set -u
chive=$1
case "${2:-OFF}" in ON|on|1|TRUE|true) echo "SKIP: sanitized build"; exit 77 ;; esac
[ -x /usr/bin/time ] || { echo "SKIP: no /usr/bin/time (scripts/deps.sh installs it)"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
check() { # name, condition result
  if [ "$2" = 0 ]; then pass=$((pass + 1)); echo "ok - $1";
  else fail=$((fail + 1)); echo "not ok - $1"; fi
}
rows=1000000
seq 1 $rows | awk '{printf "%d\001name_%d\001%d.%02d\n", $1, $1 % 1000, $1 % 100000, $1 % 100}' > "$tmp/rows.txt"
"$chive" sql --warehouse "$tmp/wh" -e "CREATE TABLE big (id BIGINT, name STRING, amount DECIMAL(10,2));
  LOAD DATA LOCAL INPATH '$tmp/rows.txt' INTO TABLE big" > /dev/null || exit 1
for f in table csv tsv jsonl markdown; do
  /usr/bin/time -f %M -o "$tmp/rss" "$chive" sql --warehouse "$tmp/wh" --format $f \
    -e "SELECT * FROM big" > "$tmp/out.$f"
  rc=$?
  kb=$(tail -n 1 "$tmp/rss")
  echo "# $f: peak RSS $((kb / 1024)) MB for $rows rows"
  [ $rc = 0 ] && [ "$kb" -lt 65536 ]
  check "--format $f: $rows rows in under 64 MB" $?
done
[ "$(wc -l < "$tmp/out.table")" = $((rows + 3)) ] && tail -n 1 "$tmp/out.table" | grep -q "^($rows rows)$"
check "not a terminal: the table prints every row" $?
# The first 1000 rows fix the widths (id up to 1000, amount up to 1000.00);
# the wider ids of the later rows push their lines to the right.
sed -n '1,3p' "$tmp/out.table" | tr '\n' '|' |
  grep -q '^  id | name     |  amount|-----+----------+--------|   1 | name_1   |    1.01|$'
check "the first 1000 rows fix the widths" $?
grep -q '^1000000 | name_0   |    0.00$' "$tmp/out.table"
check "a wider value later pushes its line" $?
echo "shell_memory: $pass passed, $fail failed"
[ "$fail" = 0 ]
