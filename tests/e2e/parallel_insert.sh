#!/usr/bin/env bash
# An INSERT ... SELECT whose scan is read on several threads writes on
# those threads (one writer per reader thread and partition).  For Parquet,
# ORC and text targets, sorted and unsorted dynamic partitions (and the
# default partition), the write on four threads must read exactly as the
# same write on one thread: per partition the rows, the sum of the ids, of
# the values and of the string lengths, the non-NULL counts and the sum of
# a DOUBLE.  Its files must carry distinct names, from several writers
# (in one write at least) when the machine has several CPUs; every
# partition's numRows, numFiles and totalSize must be its rows and files;
# with sink.parallelism = 2 at most two writers write; an INSERT ... LIMIT
# and an INSERT ... ORDER BY write exactly their rows.  With node and DuckDB (tests/peer/node_modules)
# DuckDB reads the Parquet folders and must find the same rows per
# partition, and each Parquet partition's rawDataSize must be the sum of
# its files' row group sizes.
#
#   parallel_insert.sh CHIVE
#
# CHIVE_LONG_TESTS=1: 8 source files of 100,000 rows; else 4 of 25,000.
set -u
chive=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
wh=$tmp/wh
files=4 per=25000
if [ "${CHIVE_LONG_TESTS:-0}" = 1 ]; then files=8 per=100000; fi
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "not ok - $*"; }
sql() { "$chive" sql --warehouse "$wh" --format csv -e "$1" | tr -d '\r'; }
meta() { sqlite3 "$wh/.chive_metastore.db" "$1"; }

# The source: $files text files of $per rows, every file holding rows of
# every partition (p = id % 20, NULL for every 53rd id).
for f in $(seq 0 $((files - 1))); do
  awk -v f="$f" -v n="$per" 'BEGIN {
    for (i = f * n; i < (f + 1) * n; i++)
      printf "%d\001%d\001%s\001%s\n", i, (i * 7919) % 1000,
             (i % 17 == 0 ? "\\N" : "s" (i % 97)),
             (i % 11 == 0 ? "\\N" : sprintf("%.2f", i / 4))
  }' > "$tmp/src$f.txt"
done
sql "CREATE TABLE src (id BIGINT, v INT, s STRING, d DOUBLE);" > /dev/null || exit 1
for f in $(seq 0 $((files - 1))); do
  sql "LOAD DATA LOCAL INPATH '$tmp/src$f.txt' INTO TABLE src;" > /dev/null || exit 1
done
rows=$((files * per))
cpus=$(getconf _NPROCESSORS_ONLN 2> /dev/null || echo 1)
pexpr="CASE WHEN id % 53 = 0 THEN NULL ELSE CAST(id % 20 AS INT) END"
summary="SELECT p, count(*), sum(id), sum(v), count(s), sum(length(s)), count(d), sum(d)"

# Write src into table $1 ($2: format, $3: SET lines) on $4 reader threads.
insert() {
  sql "$3
       SET 'table.exec.hive.infer-source-parallelism.max' = '$4';
       INSERT INTO $1 PARTITION (p) SELECT id, v, s, d, $pexpr FROM src;" > "$tmp/ins.out" 2>&1 ||
    { bad "$1: $(cat "$tmp/ins.out")"; return 1; }
}

# Partition by partition: numRows, numFiles, totalSize against the rows
# and files.
check_stats() { # table
  local t=$1 name want got files bytes
  while IFS=, read -r name want; do
    got=$(meta "SELECT pp.key || '=' || pp.value FROM parts p JOIN part_params pp USING (part_id) JOIN tbls t USING (tbl_id)
                WHERE t.name = '$t' AND p.name = '$name' AND pp.key IN ('numRows', 'numFiles', 'totalSize') ORDER BY pp.key;" | tr '\n' ' ')
    files=$(find "$wh/$t/$name" -type f -name 'part-*' | wc -l)
    bytes=$(find "$wh/$t/$name" -type f -name 'part-*' -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }')
    if [ "$got" = "numFiles=$files numRows=$want totalSize=$bytes " ]; then ok
    else bad "$t $name: statistics '$got', but $want rows, $files files, $bytes bytes"; fi
  done < <(sql "SELECT concat('p=', coalesce(cast(p AS STRING), '__HIVE_DEFAULT_PARTITION__')), count(*) FROM $t GROUP BY p;" | tail -n +2)
}

several=0 # writes whose files came from several writers
for fmt in PARQUET ORC TEXTFILE; do
  for sorted in true false; do
    [ "$fmt" != PARQUET ] && [ "$sorted" = false ] && continue
    set_sort="SET 'table.exec.hive.sink.sort-by-dynamic-partition.enable' = '$sorted';"
    one=one_${fmt,,}_$sorted many=many_${fmt,,}_$sorted
    for t in "$one" "$many"; do
      sql "CREATE TABLE $t (id BIGINT, v INT, s STRING, d DOUBLE) PARTITIONED BY (p INT) STORED AS $fmt;" > /dev/null
    done
    insert "$one" "$fmt" "$set_sort" 1 || continue
    insert "$many" "$fmt" "$set_sort" 4 || continue
    a=$(sql "$summary FROM $one GROUP BY p ORDER BY p;")
    b=$(sql "$summary FROM $many GROUP BY p ORDER BY p;")
    n=$(printf '%s\n' "$b" | awk -F, 'NR > 1 { s += $2 } END { print s + 0 }')
    if [ "$a" = "$b" ] && [ "$n" = "$rows" ] && [ "$(printf '%s\n' "$b" | wc -l)" = 22 ]; then ok
    else bad "$many ($n rows) reads otherwise than $one: $(diff <(echo "$a") <(echo "$b") | head -5)"; fi
    dups=$(find "$wh/$many" -name 'part-*' -printf '%f\n' | sort | uniq -d | wc -l)
    tasks=$(find "$wh/$many" -name 'part-*' -printf '%f\n' | sed 's/.*-task-\([0-9]*\)-file-.*/\1/' | sort -u | wc -l)
    [ "$dups" = 0 ] && ok || bad "$many: $dups file names taken twice"
    [ "$tasks" -ge 1 ] && [ "$tasks" -le 4 ] && ok || bad "$many: its files come from $tasks writers"
    [ "$tasks" -ge 2 ] && several=$((several + 1))
    [ "$(find "$wh/$one" -name 'part-*' -printf '%f\n' | grep -vc -- '-task-0-')" = 0 ] && ok ||
      bad "$one: files of another writer than task 0"
    check_stats "$many"
    echo "# $fmt, sorted=$sorted: $(find "$wh/$many" -name 'part-*' | wc -l) files from $tasks writers, $(find "$wh/$one" -name 'part-*' | wc -l) from one"
  done
done

# Which reader thread takes which split is a matter of timing (one may take
# them all on a busy machine), but over four writes several writers write.
if [ "$cpus" -ge 2 ]; then
  [ "$several" -ge 1 ] && ok || bad "no write of four reader threads had several writers ($cpus CPUs)"
fi

# sink.parallelism = 2 bounds the writers of four reader threads.
sql "CREATE TABLE bounded (id BIGINT, v INT, s STRING, d DOUBLE) PARTITIONED BY (p INT) STORED AS PARQUET;" > /dev/null
insert bounded PARQUET "SET 'sink.parallelism' = '2';" 4 &&
  { n=$(find "$wh/bounded" -name 'part-*' -printf '%f\n' | grep -vc -- '-task-[01]-')
    [ "$n" = 0 ] && ok || bad "bounded: $n files of writers past sink.parallelism = 2"
    [ "$(sql "$summary FROM bounded GROUP BY p ORDER BY p;")" = "$(sql "$summary FROM one_parquet_true GROUP BY p ORDER BY p;")" ] && ok ||
      bad "bounded reads otherwise than one_parquet_true"; }

# LIMIT and ORDER BY: exactly their rows, whatever the threads.
sql "CREATE TABLE lim (id BIGINT, v INT, s STRING, d DOUBLE) PARTITIONED BY (p INT) STORED AS PARQUET;
     CREATE TABLE ord (id BIGINT, v INT, s STRING, d DOUBLE) PARTITIONED BY (p INT) STORED AS PARQUET;" > /dev/null
sql "SET 'table.exec.hive.infer-source-parallelism.max' = '4';
     INSERT INTO lim PARTITION (p) SELECT id, v, s, d, $pexpr FROM src LIMIT 1234;
     INSERT INTO ord PARTITION (p) SELECT id, v, s, d, $pexpr FROM src ORDER BY id DESC LIMIT 777;" > /dev/null
got=$(sql "SELECT count(*), count(DISTINCT id) FROM lim;" | tail -1)
[ "$got" = "1234,1234" ] && ok || bad "INSERT ... LIMIT 1234 wrote $got rows (count, distinct ids)"
got=$(sql "SELECT count(*), min(id), max(id) FROM ord;" | tail -1)
[ "$got" = "777,$((rows - 777)),$((rows - 1))" ] && ok || bad "INSERT ... ORDER BY id DESC LIMIT 777 wrote $got"

# DuckDB over the bare Parquet folders: the same rows per partition, and
# rawDataSize the sum of the row groups' sizes.
if command -v node > /dev/null && [ -d "$root/tests/peer/node_modules/@duckdb/node-api" ]; then
  for t in one_parquet_true many_parquet_true many_parquet_false; do
    meta "SELECT p.name || ',' || pp.value FROM parts p JOIN part_params pp USING (part_id) JOIN tbls t USING (tbl_id)
          WHERE t.name = '$t' AND pp.key = 'rawDataSize' ORDER BY p.name;" > "$tmp/raw_$t.csv"
    sql "SELECT concat('p=', coalesce(cast(p AS STRING), '__HIVE_DEFAULT_PARTITION__')), count(*), sum(id), sum(v), count(s), count(d) FROM $t GROUP BY p;" |
      tail -n +2 | sort > "$tmp/chive_$t.csv"
  done
  if NODE_PATH="$root/tests/peer/node_modules" node - "$wh" "$tmp" > "$tmp/duck.out" 2>&1 <<'JS'
const { DuckDBInstance } = require('@duckdb/node-api');
const fs = require('fs');
const [wh, tmp] = process.argv.slice(2);
(async () => {
  const inst = await DuckDBInstance.create(':memory:');
  const c = await inst.connect();
  const q = async (s) => (await c.runAndReadAll(s)).getRows();
  let bad = 0;
  for (const t of ['one_parquet_true', 'many_parquet_true', 'many_parquet_false']) {
    const glob = `${wh}/${t}/*/part-*`;
    const rows = await q(`SELECT 'p=' || coalesce(CAST(p AS VARCHAR), '__HIVE_DEFAULT_PARTITION__'),
        count(*), sum(id), sum(v), count(s), count(d)
      FROM read_parquet('${glob}', hive_partitioning = true) GROUP BY ALL`);
    const duck = rows.map((r) => r.map(String).join(',')).sort();
    const chive = fs.readFileSync(`${tmp}/chive_${t}.csv`, 'utf8').trim().split('\n');
    if (duck.join('\n') !== chive.join('\n')) {
      console.log(`DuckDB reads ${t} otherwise:\n${duck.slice(0, 3).join('\n')}\nchive:\n${chive.slice(0, 3).join('\n')}`);
      bad++;
    }
    const raw = await q(`SELECT regexp_extract(file_name, '/(p=[^/]*)/', 1) AS part, sum(row_group_bytes)
      FROM (SELECT DISTINCT file_name, row_group_id, row_group_bytes FROM parquet_metadata('${glob}'))
      GROUP BY ALL ORDER BY part`);
    const want = raw.map((r) => `${r[0]},${r[1]}`).join('\n');
    const got = fs.readFileSync(`${tmp}/raw_${t}.csv`, 'utf8').trim();
    if (want !== got) {
      console.log(`${t}: rawDataSize per partition\n${got.split('\n').slice(0, 3).join('\n')}\nbut its row groups hold\n${want.split('\n').slice(0, 3).join('\n')}`);
      bad++;
    }
  }
  process.exit(bad ? 1 : 0);
})().catch((e) => { console.log(String(e)); process.exit(1); });
JS
  then ok; else bad "DuckDB: $(cat "$tmp/duck.out")"; fi
else
  echo "# node or DuckDB missing: the folders were not read by DuckDB"
fi

echo "# $rows rows in $files source files, $cpus CPUs"
echo "parallel_insert: $pass passed, $fail failed"
[ "$fail" = 0 ]
