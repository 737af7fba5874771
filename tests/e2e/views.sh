#!/usr/bin/env bash
# Views in the embedded metastore, read with sqlite3 as Hive's schema has
# them: the tbls row (table_type VIRTUAL_VIEW, no location, the storage
# descriptor Hive gives a view, the original and expanded texts), the view's
# schema as its columns, its comment and properties as parameters, no
# folder.  A view written into the metastore as Hive writes one (its
# expanded text in Hive's own spelling) reads in chive; one whose text is
# damaged or empty is an error naming it, never a crash.
#
#   views.sh CHIVE
set -u
chive=$1
command -v sqlite3 > /dev/null || { echo "sqlite3 not found: skipped"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
wh="$tmp/wh"
ms="$wh/.chive_metastore.db"
pass=0 fail=0
check() { # name, condition result
  if [ "$2" = 0 ]; then pass=$((pass + 1)); echo "ok - $1";
  else fail=$((fail + 1)); echo "not ok - $1"; fi
}
q() { # SQL -> csv rows without the header
  "$chive" sql --warehouse "$wh" --format csv -e "$1" | tr -d '\r' | tail -n +2
}
ms_q() { # SQL on the metastore -> rows, '|' between columns, NULL as <null>
  sqlite3 -cmd '.nullvalue <null>' "$ms" "$1"
}

"$chive" sql --warehouse "$wh" -e "
CREATE TABLE src (key INT, value STRING) PARTITIONED BY (dt STRING);
INSERT INTO src PARTITION (dt='1') VALUES (86, 'val_86'), (1, 'val_1');
CREATE VIEW v1 AS SELECT value FROM src WHERE key=86;
CREATE VIEW v2 (valoo COMMENT 'upper case') COMMENT 'shouting' TBLPROPERTIES ('fear'='factor') AS SELECT upper(value) FROM src WHERE key=86;
CREATE VIEW v3 AS SELECT * FROM src;" > /dev/null
check "the views are created" $?

row=$(ms_q "SELECT table_type, location, input_format, output_format, serde_lib
            FROM tbls WHERE name = 'v1'")
[ "$row" = "VIRTUAL_VIEW|<null>|org.apache.hadoop.mapred.TextInputFormat|org.apache.hadoop.hive.ql.io.HiveIgnoreKeyTextOutputFormat|<null>" ]
check "v1: VIRTUAL_VIEW, no location, Hive's storage descriptor of a view, no SerDe ($row)" $?
[ "$(ms_q "SELECT view_original_text FROM tbls WHERE name = 'v1'")" = "SELECT value FROM src WHERE key=86" ]
check "v1: the original text is the query as written" $?
[ "$(ms_q "SELECT view_expanded_text FROM tbls WHERE name = 'v1'")" = 'SELECT `src`.`value` FROM `default`.`src` WHERE `src`.`key` = 86' ]
check "v1: the expanded text names the database, the table of each column" $?
[ "$(ms_q "SELECT group_concat(name || ' ' || type, ', ') FROM (SELECT c.name, c.type FROM tbl_columns c JOIN tbls t USING (tbl_id) WHERE t.name = 'v1' ORDER BY is_pkey, idx)")" = "value string" ]
check "v1: its schema is its columns" $?
[ "$(ms_q "SELECT count(*) FROM tbl_columns c JOIN tbls t USING (tbl_id) WHERE t.name LIKE 'v%' AND c.is_pkey = 1")" = 0 ]
check "no view has partition keys" $?
[ "$(ms_q "SELECT count(*) FROM serde_params s JOIN tbls t USING (tbl_id) WHERE t.name LIKE 'v%'")" = 0 ]
check "no view has SerDe parameters" $?

[ "$(ms_q "SELECT view_expanded_text FROM tbls WHERE name = 'v2'")" = 'SELECT `_c0` AS `valoo` FROM (SELECT upper(`src`.`value`) FROM `default`.`src` WHERE `src`.`key` = 86) `v2`' ]
check "v2: the column list renames the query's columns, as Hive expands it" $?
[ "$(ms_q "SELECT c.name || '|' || c.type || '|' || c.comment FROM tbl_columns c JOIN tbls t USING (tbl_id) WHERE t.name = 'v2'")" = "valoo|string|upper case" ]
check "v2: the column's name and comment from the column list" $?
[ "$(ms_q "SELECT group_concat(key || '=' || value, ',') FROM (SELECT p.key, p.value FROM tbl_params p JOIN tbls t USING (tbl_id) WHERE t.name = 'v2' AND p.key <> 'transient_lastDdlTime' ORDER BY p.key)")" = "comment=shouting,fear=factor" ]
check "v2: comment and properties as table parameters" $?
[ "$(ms_q "SELECT count(*) FROM tbl_params p JOIN tbls t USING (tbl_id) WHERE t.name = 'v2' AND p.key = 'transient_lastDdlTime'")" = 1 ]
check "v2: transient_lastDdlTime is set, as Hive sets it" $?
[ "$(ms_q "SELECT view_expanded_text FROM tbls WHERE name = 'v3'")" = 'SELECT `src`.`key`, `src`.`value`, `src`.`dt` FROM `default`.`src`' ]
check "v3: * is replaced by the columns, partition keys last" $?
[ "$(ms_q "SELECT group_concat(name, ',') FROM (SELECT c.name FROM tbl_columns c JOIN tbls t USING (tbl_id) WHERE t.name = 'v3' ORDER BY idx)")" = "key,value,dt" ]
check "v3: the partition key is a column of the view" $?
[ "$(ls "$wh")" = src ]; check "no folder for any view" $?

# ---- a view as Hive writes it: Hive keeps the original text's spelling in
# the expanded one (lower-case keywords, no spaces around =)
dbid=$(ms_q "SELECT db_id FROM dbs WHERE name = 'default'")
hive_view() { # name, expanded text, columns "name type,..."
  local text=${2//\'/\'\'}
  sqlite3 "$ms" "INSERT INTO tbls(db_id, name, table_type, input_format,
      output_format, view_original_text, view_expanded_text, create_time)
    VALUES ($dbid, '$1', 'VIRTUAL_VIEW', 'org.apache.hadoop.mapred.TextInputFormat',
      'org.apache.hadoop.hive.ql.io.HiveIgnoreKeyTextOutputFormat', 'as written',
      '$text', 1700000000)"
  local id i=0 c
  id=$(ms_q "SELECT tbl_id FROM tbls WHERE name = '$1'")
  IFS=, read -ra cols <<< "$3"
  for c in "${cols[@]}"; do
    sqlite3 "$ms" "INSERT INTO tbl_columns VALUES ($id, 0, $i, '${c% *}', '${c#* }', NULL)"
    i=$((i + 1))
  done
}
hive_view hv 'select `src`.`key`, upper(`src`.`value`) as `up` from `default`.`src` where `src`.`key`=86' "key int,up string"
[ "$(q 'SELECT * FROM hv')" = "86,VAL_86" ]; check "a view written as Hive writes it reads in chive" $?
[ "$(q "SELECT up FROM hv WHERE key > 1")" = "VAL_86" ]; check "and is filtered like any view" $?
hive_view hdq "select \"a\\tb\" as \`s\` from \`default\`.\`src\` where \`src\`.\`key\` = 1" "s string"
[ "$(q 'SELECT length(s) FROM hdq')" = 3 ]; check "Hive's escapes in its text are read as Hive reads them" $?
hive_view hn "select \`src\`.\`key\`, '12' from \`default\`.\`src\` where \`src\`.\`key\` = 86" "key int,_c1 string"
[ "$(q 'SELECT _c1, key FROM hn')" = "12,86" ]
check "the view's columns are named as the view names them (Hive's _c1, not the text's)" $?
hive_view hcount 'select `src`.`key`, `src`.`value` from `default`.`src`' "key int"
out=$("$chive" sql --warehouse "$wh" -e "SELECT * FROM hcount" 2>&1); rc=$?
[ $rc = 1 ] && grep -q "view default.hcount: its text gives 2 columns, but the view has 1" <<< "$out"
check "a text giving other columns than the view has is an error naming it ($out)" $?
hive_view broken 'select from where' "x int"
out=$("$chive" sql --warehouse "$wh" -e "SELECT * FROM broken" 2>&1); rc=$?
[ $rc = 1 ] && grep -q "view default.broken: its expanded text does not read" <<< "$out"
check "a damaged text is an error naming the view ($out)" $?
hive_view empty '' "x int"
out=$("$chive" sql --warehouse "$wh" -e "SELECT * FROM empty" 2>&1); rc=$?
[ $rc = 1 ] && grep -q "view default.empty has no expanded text" <<< "$out"
check "an empty text is an error naming the view" $?
out=$("$chive" sql --warehouse "$wh" -e "DESCRIBE FORMATTED broken; SHOW CREATE TABLE broken; DROP VIEW broken" 2>&1)
check "a damaged view can still be described and dropped" $?
[ "$(q "SHOW VIEWS")" = "$(printf 'empty\nhcount\nhdq\nhn\nhv\nv1\nv2\nv3')" ]
check "SHOW VIEWS lists the views left" $?

# ---- views of views: 64 deep read; a deeper one cannot be made, and one
# written deeper into the metastore is an error, not a stack overflow
{
  echo "CREATE VIEW n0 AS SELECT key FROM src WHERE key = 86;"
  for i in $(seq 1 63); do echo "CREATE VIEW n$i AS SELECT key + 1 AS key FROM n$((i - 1));"; done
} > nest.sql
"$chive" sql --warehouse "$wh" -f nest.sql > /dev/null
check "64 views, each reading the one before, are created" $?
[ "$(q 'SELECT key FROM n63')" = 149 ]; check "the view 64 deep reads" $?
out=$("$chive" sql --warehouse "$wh" -e "CREATE VIEW n64 AS SELECT key FROM n63" 2>&1); rc=$?
[ $rc = 1 ] && grep -q "views nested more than 64 deep" <<< "$out"
check "one deeper cannot be made ($out)" $?
hive_view deeper 'select `n63`.`key` from `default`.`n63`' "key int"
out=$("$chive" sql --warehouse "$wh" -e "SELECT key FROM deeper" 2>&1); rc=$?
[ $rc = 1 ] && grep -q "views nested more than 64 deep" <<< "$out"
check "one written deeper is an error when queried" $?

echo "views: $pass passed, $fail failed"
[ "$fail" = 0 ]
