#!/usr/bin/env bash
# A warehouse moved (mv) or copied (cp -a) with its metastore reads and
# writes where it is now: the right counts, new rows land in the new place
# only, the old place is neither written nor made again.  An EXTERNAL table
# outside the warehouse keeps its absolute location; a table whose folder
# was removed is an error naming the folder; a write killed before the move
# is recovered in the new place by the next writer.
#
#   move_warehouse.sh CHIVE
set -u
chive=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
pass=0 fail=0
check() { # name, condition result
  if [ "$2" = 0 ]; then pass=$((pass + 1)); echo "ok - $1";
  else fail=$((fail + 1)); echo "not ok - $1"; fi
}
q() { # warehouse, SQL -> csv rows without the header
  "$chive" sql --warehouse "$1" --format csv -e "$2" | tr -d '\r' | tail -n +2
}
digest() { # folder -> digest of its files' names and contents
  (cd "$1" && find . -type f ! -name '.chive_metastore.db*' -print0 |
     sort -z | xargs -0 md5sum) | md5sum | cut -c1-32
}

"$chive" sql --warehouse "$tmp/w1" -e "
CREATE TABLE t (id INT);
INSERT INTO t VALUES (1), (2), (3);
CREATE DATABASE sales;
CREATE TABLE sales.p (id INT) PARTITIONED BY (dt STRING) STORED AS PARQUET;
INSERT INTO sales.p PARTITION (dt) VALUES (1, 'a'), (2, 'b');
CREATE EXTERNAL TABLE ext (id INT) LOCATION '$tmp/outside/ext';
INSERT INTO ext VALUES (7);" > /dev/null
check "warehouse w1 built" $?

# ---- cp -a w1 w3: writes to the copy stay in the copy
before=$(digest "$tmp/w1")
cp -a "$tmp/w1" "$tmp/w3"
"$chive" sql --warehouse w3 -e "
INSERT INTO t VALUES (5), (6);
INSERT INTO sales.p PARTITION (dt) VALUES (4, 'd');" > /dev/null
check "cp: INSERTs into w3 succeed" $?
[ "$(q w3 'SELECT count(*) FROM t')" = 5 ]; check "cp: t in w3 has the new rows" $?
[ -d "$tmp/w3/sales.db/p/dt=d" ] && [ ! -e "$tmp/w1/sales.db/p/dt=d" ]
check "cp: the new partition is in w3 only" $?
[ "$(digest "$tmp/w1")" = "$before" ]; check "cp: the files of w1 are unchanged" $?
[ "$(q w1 'SELECT count(*) FROM t')" = 3 ]; check "cp: t in w1 reads as before" $?
[ "$(q w1 "SELECT count(*) FROM sales.p WHERE dt = 'd'")" = 0 ]
check "cp: w1 has no partition dt=d" $?

# ---- mv w1 w2
mv "$tmp/w1" "$tmp/w2"
[ "$(q w2 'SELECT count(*) FROM t')" = 3 ]; check "mv: count(*) of t on w2" $?
[ "$(q w2 'SELECT count(*) FROM sales.p')" = 2 ]
check "mv: count(*) of a partitioned Parquet table on w2" $?
"$chive" sql --warehouse w2 -e "
INSERT INTO t VALUES (4);
INSERT INTO sales.p PARTITION (dt) VALUES (3, 'c');" > /dev/null
check "mv: INSERTs into w2 succeed" $?
[ "$(q w2 'SELECT count(*) FROM t')" = 4 ]; check "mv: t has the new row" $?
[ "$(q w2 "SELECT count(*) FROM sales.p WHERE dt = 'c'")" = 1 ]
check "mv: the new partition reads" $?
[ -d "$tmp/w2/sales.db/p/dt=c" ]; check "mv: the new partition's folder is under w2" $?
[ ! -e "$tmp/w1" ]; check "mv: w1 does not appear again" $?
q w2 'DESCRIBE FORMATTED t' | grep -q "$tmp/w2/t"
check "mv: DESCRIBE FORMATTED names the location under w2" $?

# The EXTERNAL table outside the warehouse keeps its absolute location.
[ "$(q w2 'SELECT count(*) FROM ext')" = 1 ]; check "mv: the external table reads" $?
q w2 'SHOW CREATE TABLE ext' | grep -q "'$tmp/outside/ext'"
check "mv: the external table's location stays absolute" $?
"$chive" sql --warehouse w2 -e "INSERT INTO ext VALUES (8);" > /dev/null
[ "$(ls "$tmp/outside/ext" | grep -c part-)" = 2 ] && [ ! -e "$tmp/w2/ext" ]
check "mv: a write to the external table lands outside the warehouse" $?

# ---- a table whose folder was removed: an error naming the folder
rm -rf "$tmp/w3/t"
"$chive" sql --warehouse w3 -e 'SELECT count(*) FROM t' > out 2> err
[ $? = 1 ] && grep -q "$tmp/w3/t does not exist" err && [ ! -s out ]
check "a removed table folder is an error naming it" $?

# ---- a write killed before the move is recovered where the warehouse is now
"$chive" sql --warehouse w4 -e "CREATE TABLE big (id INT, s STRING);" > /dev/null
rows=$(seq 1 60000 | sed 's/.*/(&, '"'x&'"')/' | paste -sd, -)
echo "INSERT INTO big VALUES $rows;" > big.sql
killed=1
for attempt in $(seq 1 20); do
  "$chive" sql --warehouse w4 -f big.sql > /dev/null 2>&1 &
  pid=$!
  for _ in $(seq 1 400); do
    [ -n "$(find w4/big -maxdepth 1 -name '.staging_*' 2> /dev/null)" ] && break
    sleep 0.005
  done
  kill -9 "$pid" 2> /dev/null
  wait "$pid" 2> /dev/null
  if [ -n "$(find w4/big -maxdepth 1 -name '.staging_*')" ]; then killed=0; break; fi
done
check "a write was killed with its staging folder left" $killed
if [ $killed = 0 ]; then
  mv "$tmp/w4" "$tmp/w5"
  n=$(q w5 'SELECT count(*) FROM big')
  [ "$n" = 0 ] || [ "$n" = 60000 ]; check "after the move the killed write reads all or nothing ($n)" $?
  "$chive" sql --warehouse w5 -e "INSERT INTO big VALUES (0, 'y');" > /dev/null
  check "the next write on w5 succeeds" $?
  [ -z "$(find w5/big -name '.staging_*')" ]
  check "the next write removed the killed write's staging folder under w5" $?
  [ "$(q w5 'SELECT count(*) FROM big')" = $((n + 1)) ]
  check "the killed write stays as it was read, plus the new row" $?
  [ ! -e "$tmp/w4" ]; check "w4 does not appear again" $?
fi

echo "move_warehouse: $pass passed, $fail failed"
[ "$fail" = 0 ]
