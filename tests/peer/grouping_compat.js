#!/usr/bin/env node
// GROUPING SETS, ROLLUP, CUBE, (), GROUPING() and Hive's GROUPING__ID, run
// by chive and by DuckDB over the same Parquet files (DuckDB writes them,
// three files so that chive groups them on several reader threads, with
// NULLs in keys and values), and their rows compared: in order where the
// query orders them, as a multiset where it does not.  DuckDB has no
// GROUPING__ID: Hive's is GROUPING() of every GROUP BY key in order, which
// DuckDB has; and Hive's own results (groupby_grouping_id1.q.out, Hive 2.3
// and later) are compared as they are printed there.
//
//   node grouping_compat.js CHIVE
//
// Exit 0 on success, 1 on a mismatch, 77 (skipped) without DuckDB.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { DuckDBInstance } = require('./duckdb_peer.js');

const peer = require('./peer_check.js')('grouping_compat.js');
const { check, sql, rowsOf } = peer;

const HIVE = "SET 'table.sql-dialect' = 'hive'; ";

// [name, chive SQL, DuckDB SQL (null: the same), ordered]
const CASES = [
  ['grouping sets', 'SELECT k, w, count(*) AS n, count(v) AS nv, sum(v) AS s, GROUPING(k) AS gk, GROUPING(k, w) AS g FROM t GROUP BY GROUPING SETS ((k, w), (k), ())',
   null, false],
  ['grouping sets of single keys', 'SELECT k, w, min(v) AS lo, max(v) AS hi FROM t GROUP BY GROUPING SETS (k, w)',
   null, false],
  ['rollup', 'SELECT k, w, count(*) AS n, sum(v) AS s, GROUPING(w, k) AS g FROM t GROUP BY ROLLUP (k, w)',
   null, false],
  ['cube', 'SELECT k, w, count(*) AS n, sum(v) AS s, GROUPING(k, w) AS g FROM t GROUP BY CUBE (k, w)',
   null, false],
  ['cube of three', 'SELECT k, w, b, count(*) AS n, GROUPING(k, w, b) AS g FROM t GROUP BY CUBE (k, w, b)',
   null, false],
  ['a key crossed with a rollup', 'SELECT k, w, b, count(*) AS n, GROUPING(k, w, b) AS g FROM t GROUP BY k, ROLLUP (w, b)',
   null, false],
  ['cube crossed with grouping sets', 'SELECT k, w, b, count(*) AS n, GROUPING(k, w, b) AS g FROM t GROUP BY CUBE (k), GROUPING SETS (w, b)',
   null, false],
  ['a composite rollup item', 'SELECT k, w, b, count(*) AS n, GROUPING(k, w, b) AS g FROM t GROUP BY ROLLUP ((k, w), b)',
   null, false],
  ['the empty set crossed in', 'SELECT k, count(*) AS n, GROUPING(k) AS g FROM t GROUP BY ROLLUP (k), ()',
   null, false],
  ['group by ()', 'SELECT count(*) AS n, sum(v) AS s FROM t GROUP BY ()', null, true],
  ['repeated sets', 'SELECT k, count(*) AS n, GROUPING(k) AS g FROM t GROUP BY GROUPING SETS (k, k, (), ())',
   null, false],
  ['a NULL key and a rolled-up one', 'SELECT k, GROUPING(k) AS g, count(*) AS n FROM t GROUP BY ROLLUP (k) ORDER BY g, k',
   'SELECT k, GROUPING(k) AS g, count(*) AS n FROM t GROUP BY ROLLUP (k) ORDER BY g, k NULLS FIRST', true],
  ['having on grouping()', 'SELECT k, w, count(*) AS n FROM t GROUP BY CUBE (k, w) HAVING GROUPING(k) = 1 AND count(*) > 3',
   null, false],
  ['order by grouping()', 'SELECT k, w, sum(v) AS s FROM t GROUP BY ROLLUP (k, w) ORDER BY GROUPING(k, w) DESC, k, w',
   'SELECT k, w, sum(v) AS s FROM t GROUP BY ROLLUP (k, w) ORDER BY GROUPING(k, w) DESC, k NULLS FIRST, w NULLS FIRST', true],
  ['an aggregate of a rolled-up key', 'SELECT k, count(k) AS ck, count(DISTINCT w) AS dw FROM t GROUP BY ROLLUP (k)',
   null, false],
  ['expressions as keys', 'SELECT upper(k) AS uk, w + 1 AS w1, count(*) AS n, GROUPING(upper(k), w + 1) AS g FROM t GROUP BY CUBE (upper(k), w + 1)',
   null, false],
  ['with a where', 'SELECT k, b, count(*) AS n FROM t WHERE v > 10 GROUP BY ROLLUP (b, k)',
   null, false],
  ['no rows', 'SELECT k, count(*) AS n, sum(v) AS s FROM t WHERE id < 0 GROUP BY ROLLUP (k)',
   null, false],
  ['no rows, repeated empty sets', 'SELECT count(*) AS n FROM t WHERE id < 0 GROUP BY GROUPING SETS ((), k, ())',
   null, false],
  ['grouping() in a plain group by', 'SELECT k, GROUPING(k) AS g FROM t GROUP BY k', null, false],
  ['over a sub-query', 'SELECT k, w, count(*) AS n FROM (SELECT k, w FROM t WHERE id % 2 = 0) s GROUP BY CUBE (k, w)',
   null, false],
  ['a filter over a sub-query', 'SELECT k, w, count(*) AS n, sum(v) AS s FROM (SELECT k, w, v FROM t) s WHERE v > 4 GROUP BY CUBE (k, w)',
   null, false],
  ['with rollup (Hive)', HIVE + 'SELECT k, w, GROUPING__ID AS gid, count(*) AS n FROM t GROUP BY k, w WITH ROLLUP',
   'SELECT k, w, GROUPING(k, w) AS gid, count(*) AS n FROM t GROUP BY ROLLUP (k, w)', false],
  ['with cube (Hive)', HIVE + 'SELECT k, w, b, GROUPING__ID AS gid, sum(v) AS s FROM t GROUP BY k, w, b WITH CUBE',
   'SELECT k, w, b, GROUPING(k, w, b) AS gid, sum(v) AS s FROM t GROUP BY CUBE (k, w, b)', false],
  ['grouping sets (Hive)', HIVE + 'SELECT k, w, GROUPING__ID AS gid, count(*) AS n FROM t GROUP BY k, w GROUPING SETS ((k, w), w, ())',
   'SELECT k, w, GROUPING(k, w) AS gid, count(*) AS n FROM t GROUP BY GROUPING SETS ((k, w), w, ())', false],
  ['grouping__id in having (Hive)', HIVE + 'SELECT k, GROUPING__ID AS gid, count(*) AS n FROM t GROUP BY k, w GROUPING SETS (k, (k, w)) HAVING GROUPING__ID = 1',
   'SELECT k, GROUPING(k, w) AS gid, count(*) AS n FROM t GROUP BY GROUPING SETS (k, (k, w)) HAVING GROUPING(k, w) = 1', false],
];

// Hive's rows for T1 (key STRING, val STRING) of data/files/T1.txt, as
// groupby_grouping_id1.q.out prints them (ORDER BY added; Hive sorts its
// results there).
const T1 = [['1', '11'], ['2', '12'], ['3', '13'], ['7', '17'], ['8', '18'],
            ['8', '28']];
const HIVE_CASES = [
  ['Hive: GROUPING__ID with cube',
   'SELECT key, val, GROUPING__ID FROM t1 GROUP BY key, val WITH CUBE',
   `1 11 0|1 NULL 1|2 12 0|2 NULL 1|3 13 0|3 NULL 1|7 17 0|7 NULL 1|8 18 0|8 28 0|8 NULL 1|
    NULL 11 2|NULL 12 2|NULL 13 2|NULL 17 2|NULL 18 2|NULL 28 2|NULL NULL 3`],
  ['Hive: GROUPING__ID with cube()',
   'SELECT key, val, GROUPING__ID FROM t1 GROUP BY CUBE (key, val)',
   `1 11 0|1 NULL 1|2 12 0|2 NULL 1|3 13 0|3 NULL 1|7 17 0|7 NULL 1|8 18 0|8 28 0|8 NULL 1|
    NULL 11 2|NULL 12 2|NULL 13 2|NULL 17 2|NULL 18 2|NULL 28 2|NULL NULL 3`],
  ['Hive: GROUPING__ID with rollup',
   'SELECT GROUPING__ID, key, val FROM t1 GROUP BY key, val WITH ROLLUP',
   `0 1 11|0 2 12|0 3 13|0 7 17|0 8 18|0 8 28|1 1 NULL|1 2 NULL|1 3 NULL|1 7 NULL|1 8 NULL|
    3 NULL NULL`],
  ['Hive: GROUPING__ID in CASE',
   'SELECT key, val, GROUPING__ID, CASE WHEN GROUPING__ID == 0 THEN "0" WHEN GROUPING__ID == 1 THEN "1" WHEN GROUPING__ID == 2 THEN "2" WHEN GROUPING__ID == 3 THEN "3" ELSE "nothing" END FROM t1 GROUP BY key, val WITH CUBE',
   `1 11 0 0|1 NULL 1 1|2 12 0 0|2 NULL 1 1|3 13 0 0|3 NULL 1 1|7 17 0 0|7 NULL 1 1|8 18 0 0|
    8 28 0 0|8 NULL 1 1|NULL 11 2 2|NULL 12 2 2|NULL 13 2 2|NULL 17 2 2|NULL 18 2 2|
    NULL 28 2 2|NULL NULL 3 3`],
];

(async () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'chv-grouping-compat-'));
  try {
    const wh = path.join(tmp, 'wh');
    const dir = path.join(tmp, 'data');
    fs.mkdirSync(dir);
    const db = await DuckDBInstance.create(':memory:');
    const con = await db.connect();
    const q = async (s) => (await con.runAndReadAll(s)).getRowObjects();
    await q(`CREATE TABLE t AS SELECT i::INTEGER AS id,
               CASE WHEN i % 9 = 0 THEN NULL ELSE 'k' || (i % 4)::VARCHAR END AS k,
               CASE WHEN i % 11 = 0 THEN NULL ELSE (i % 3)::INTEGER END AS w,
               CASE WHEN i % 13 = 0 THEN NULL ELSE i % 2 = 0 END AS b,
               CASE WHEN i % 7 = 0 THEN NULL ELSE (i * 37 % 50)::INTEGER END AS v
             FROM range(300) r(i)`);
    for (let f = 0; f < 3; f++)
      await q(`COPY (SELECT * FROM t WHERE id % 3 = ${f}) TO '${path.join(dir, `f${f}.parquet`)}' (FORMAT parquet)`);
    sql(wh, `CREATE EXTERNAL TABLE t (id int, k string, w int, b boolean, v int)
             STORED AS PARQUET LOCATION '${dir}';
             CREATE TABLE t1 (key STRING, val STRING);
             INSERT INTO t1 VALUES ${T1.map(([k, v]) => `('${k}', '${v}')`).join(', ')};`);
    await peer.cases(wh, CASES, q);
    for (const [name, ours, want] of HIVE_CASES) {
      let a;
      try {
        a = rowsOf(sql(wh, HIVE + ours + ';'))
              .map((r) => Object.values(r).map((v) => (v === null ? 'NULL' : String(v))).join(' '));
      } catch (e) {
        check(name, false, `chive failed: ${e.stderr || e.message}`);
        continue;
      }
      peer.same(name, a, want.split('|').map((s) => s.trim()), false, 'Hive');
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  peer.finish();
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
