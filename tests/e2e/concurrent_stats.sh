#!/usr/bin/env bash
# Writers in several `chive sql` processes insert into the same tables at
# once; afterwards every partition's numRows (as EXPLAIN reports it from the
# metastore) and the unpartitioned table's must equal count(*), and numFiles
# the files in the folder.  Statistics are added under the metastore's write
# lock in the commit's transaction, so no writer's update is lost.
#
#   concurrent_stats.sh CHIVE
#
# CHIVE_LONG_TESTS=1: 8 writers x 20 statements and 2 x INSERT ... SELECT
# of 500,000 rows; else 8 writers x 5 statements and 2 x 50,000 rows.
set -u
chive=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
wh=$tmp/wh
writers=8 stmts=5 big=50000
if [ "${CHIVE_LONG_TESTS:-0}" = 1 ]; then stmts=20 big=500000; fi
pass=0 fail=0
sql() { "$chive" sql --warehouse "$wh" --format csv -e "$1" | tr -d '\r'; }

sql "CREATE TABLE p (id BIGINT, s STRING) PARTITIONED BY (dt STRING);
     CREATE TABLE q (id BIGINT, s STRING) PARTITIONED BY (dt STRING) STORED AS PARQUET;
     CREATE TABLE u (id BIGINT) STORED AS ORC;
     CREATE TABLE src (id BIGINT) STORED AS PARQUET;" > /dev/null || exit 1
# src holds $big rows, written in one statement through a derived relation.
sql "INSERT INTO src VALUES $(seq -s, 1 1000 | sed 's/\([0-9]*\)/(\1)/g');" > /dev/null || exit 1
n=1000
while [ $n -lt "$big" ]; do
  sql "INSERT INTO src SELECT id + $n FROM src;" > /dev/null || exit 1
  n=$((n * 2))
done
srcrows=$(sql "SELECT count(*) FROM src;" | tail -1)

# Writer w runs $stmts statements, each in its own transaction: INSERT
# VALUES into dynamic and static partitions and into u.
for w in $(seq 1 $writers); do
  {
    for i in $(seq 1 "$stmts"); do
      echo "INSERT INTO p PARTITION (dt) VALUES ($w$i, 'a', 'd$((i % 4))'), ($w$i, 'b', 'd$(((i + w) % 4))');"
      echo "INSERT INTO q PARTITION (dt='s$((w % 2))') VALUES ($w$i, 'c');"
      echo "INSERT INTO u VALUES ($w$i);"
    done
  } > "$tmp/w$w.sql"
  "$chive" sql --warehouse "$wh" -f "$tmp/w$w.sql" > "$tmp/w$w.out" 2>&1 &
done
# Two large dynamic-partition inserts at the same time as the writers.
for k in 1 2; do
  sql "INSERT INTO q PARTITION (dt) SELECT id, 'big', concat('b', cast(id % 5 AS STRING)) FROM src;" > "$tmp/big$k.out" 2>&1 &
done
wait
for f in "$tmp"/w*.out "$tmp"/big*.out; do
  if grep -qi "error" "$f"; then fail=$((fail + 1)); echo "not ok - $(basename "$f"): $(grep -i error "$f" | head -1)"; fi
done

# numRows of each partition as the metastore holds it, against count(*).
check_table() { # table
  local t=$1 parts d want got
  parts=$(sql "SELECT DISTINCT dt FROM $t ORDER BY dt;" | tail -n +2)
  for d in $parts; do
    want=$(sql "SELECT count(*) FROM $t WHERE dt = '$d';" | tail -1)
    got=$(sql "EXPLAIN SELECT * FROM $t WHERE dt = '$d';" | sed -n 's/.*rows=\([0-9]*\) (metastore).*/\1/p')
    files=$(find "$wh/$t/dt=$d" -type f ! -name '.*' ! -name '_*' | wc -l)
    gotf=$(sqlite3 "$wh/.chive_metastore.db" "SELECT pp.value FROM parts p JOIN part_params pp USING (part_id) JOIN tbls t USING (tbl_id) WHERE t.name = '$t' AND p.name = 'dt=$d' AND pp.key = 'numFiles';")
    if [ "$got" = "$want" ] && [ "$gotf" = "$files" ]; then pass=$((pass + 1))
    else fail=$((fail + 1)); echo "not ok - $t dt=$d: numRows ${got:-none} for $want rows, numFiles ${gotf:-none} for $files files"; fi
  done
}
check_table p
check_table q
want=$(sql "SELECT count(*) FROM u;" | tail -1)
got=$(sql "EXPLAIN SELECT * FROM u;" | sed -n 's/.*rows=\([0-9]*\) (metastore).*/\1/p')
[ "$want" = $((writers * stmts)) ] && [ "$got" = "$want" ] && pass=$((pass + 1)) ||
  { fail=$((fail + 1)); echo "not ok - u: numRows ${got:-none} for $want rows ($((writers * stmts)) inserted)"; }
want=$(sql "SELECT count(*) FROM q WHERE dt LIKE 'b%';" | tail -1)
[ "$want" = $((2 * srcrows)) ] && pass=$((pass + 1)) ||
  { fail=$((fail + 1)); echo "not ok - q: $want rows in the large inserts' partitions, $((2 * srcrows)) written"; }
echo "# $writers writers x $stmts x 3 statements, 2 x $srcrows rows INSERT ... SELECT"
echo "concurrent_stats: $pass passed, $fail failed"
[ "$fail" = 0 ]
