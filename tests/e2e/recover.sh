#!/usr/bin/env bash
# Recovery on open, with write records planted as a writer killed at each
# step leaves them (its process gone): every command that opens the
# warehouse (chive sql, chive dump of a table's file, chive recover, MSCK
# REPAIR TABLE) finishes or undoes them before anything else, so the bare
# folders hold exactly the committed files.
#
#   recover.sh CHIVE
set -u
chive=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
wh=$tmp/wh
ms=$wh/.chive_metastore.db
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "not ok - $*"; }
sql() { "$chive" sql --warehouse "$wh" --format csv -e "$1" 2> "$tmp/err" | tr -d '\r'; }

sql "CREATE TABLE t (id int) PARTITIONED BY (dt string);
     INSERT INTO t PARTITION (dt='a') VALUES (1), (2);" > /dev/null
# A pid no process has: one that ran and exited.
sh -c 'exit 0' & dead=$!; wait $dead
tid=$(sqlite3 "$ms" "SELECT tbl_id FROM tbls WHERE name = 't';")

# plant STATE NEW_FILES OLD_FILES NEW_DIRS: a record of a dead writer
plant() {
  local state=$1 f
  mkdir -p "$wh/t/.staging_dead/task-0-attempt-0"
  sqlite3 "$ms" "INSERT INTO commits(tbl_id, pid, state, staging, create_time) VALUES($tid, $dead, $state, '$wh/t/.staging_dead', 0);"
  local id; id=$(sqlite3 "$ms" "SELECT max(commit_id) FROM commits;")
  for f in $2; do sqlite3 "$ms" "INSERT INTO commit_files VALUES($id, 0, '$f');"; done
  for f in $3; do sqlite3 "$ms" "INSERT INTO commit_files VALUES($id, 1, '$f');"; done
  for f in $4; do sqlite3 "$ms" "INSERT INTO commit_files VALUES($id, 2, '$f');"; done
}
records() { sqlite3 "$ms" "SELECT count(*) FROM commits;"; }

# 1. Killed while its files moved in (PENDING): a new partition folder and a
#    file in an existing one are taken out again by `chive sql -e "SELECT 1"`.
mkdir -p "$wh/t/dt=new"
cp "$wh"/t/dt=a/part-* "$wh/t/dt=new/part-x"
cp "$wh"/t/dt=a/part-* "$wh/t/dt=a/part-y"
plant 1 "$wh/t/dt=new/part-x $wh/t/dt=a/part-y" "" "$wh/t/dt=new"
sql "SELECT 1;" > /dev/null
grep -q "recovered 1 interrupted write (0 finished, 1 undone, 0 discarded)" "$tmp/err" && ok || bad "SELECT 1 did not report the undone write: $(cat "$tmp/err")"
[ ! -e "$wh/t/dt=new" ] && [ ! -e "$wh/t/dt=a/part-y" ] && ok || bad "the killed write's files or folder are still there"
[ "$(ls "$wh/t/dt=a" | grep -c '^part-')" = 1 ] && ok || bad "dt=a holds $(ls "$wh/t/dt=a")"
[ "$(records)" = 0 ] && [ ! -e "$wh/t/.staging_dead" ] && ok || bad "record or staging folder left"

# 2. Killed after the metastore commit of an overwrite (COMMITTED): the old
#    files it replaced are deleted by `chive dump` of one of the table's files.
cp "$wh"/t/dt=a/part-* "$wh/t/dt=a/old-z"
plant 2 "" "$wh/t/dt=a/old-z" ""
"$chive" dump --schema 'id int' "$(ls "$wh"/t/dt=a/part-*)" > "$tmp/dump" 2> "$tmp/err"
grep -q "1 finished, 0 undone" "$tmp/err" && [ ! -e "$wh/t/dt=a/old-z" ] && ok || bad "chive dump did not finish the write: $(cat "$tmp/err")"
[ "$(wc -l < "$tmp/dump")" = 2 ] && ok || bad "chive dump printed $(cat "$tmp/dump")"

# 3. Killed while writing (WRITING): chive recover removes the staging folder.
plant 0 "" "" ""
out=$("$chive" recover --warehouse "$wh")
[ "$out" = "$wh: 0 interrupted writes finished, 0 undone, 1 discarded, 0 running left alone" ] && ok || bad "chive recover printed: $out"
[ "$(records)" = 0 ] && [ ! -e "$wh/t/.staging_dead" ] && ok || bad "chive recover left the record"
out=$("$chive" recover "$tmp" 2>&1); [ $? = 1 ] && echo "$out" | grep -q "is not a warehouse" && ok || bad "chive recover of a non-warehouse: $out"

# 4. MSCK REPAIR TABLE recovers before it looks: a killed write's new folder
#    is not registered as a partition.  (The record is planted after the
#    shell opened the warehouse, as by a writer killed meanwhile.)
mkdir -p "$wh/t/dt=half"
cp "$wh"/t/dt=a/part-* "$wh/t/dt=half/part-h"
mkfifo "$tmp/in"
"$chive" sql --warehouse "$wh" --format csv < "$tmp/in" > "$tmp/msck" 2>&1 &
spid=$!
exec 3> "$tmp/in"
echo "SELECT 1;" >&3
sleep 0.5
plant 1 "$wh/t/dt=half/part-h" "" "$wh/t/dt=half"
echo "MSCK REPAIR TABLE t; SHOW PARTITIONS t;" >&3
exec 3>&-
wait $spid
! grep -q "dt=half" "$tmp/msck" && [ ! -e "$wh/t/dt=half" ] && ok || bad "MSCK REPAIR registered a killed write's folder: $(cat "$tmp/msck")"

echo "recover: $pass passed, $fail failed"
[ "$fail" = 0 ]
