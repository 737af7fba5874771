#!/usr/bin/env node
// Sub-queries in every position, run by chive and by DuckDB over the same
// Parquet files (DuckDB writes them, with NULLs in the tested values, in
// the sub-queries' rows and in the correlating keys), their rows compared
// as multisets: uncorrelated IN and EXISTS in the select list, under OR,
// NOT and CASE, in HAVING and ON (run once, the values in a hash set);
// correlated scalar sub-queries in the select list and HAVING; correlated
// EXISTS and IN under OR and in the select list (mark joins), and
// correlated NOT IN.
//
//   node subquery_compat.js CHIVE
//
// Exit 0 on success, 1 on a mismatch, 77 (skipped) without DuckDB.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { DuckDBInstance } = require('./duckdb_peer.js');

const peer = require('./peer_check.js')('subquery_compat.js');
const { sql } = peer;

// [name, chive SQL, DuckDB SQL (null: the same)]
const CASES = [
  // uncorrelated IN and EXISTS anywhere an expression may stand
  ['in, select list, the set has NULL', 'SELECT id, k, k IN (SELECT k FROM d) AS m FROM f'],
  ['in, select list, no NULL', 'SELECT id, k, k IN (SELECT k FROM d WHERE k IS NOT NULL) AS m FROM f'],
  ['in, select list, empty set', 'SELECT id, k, k IN (SELECT k FROM d WHERE w > 100) AS m FROM f'],
  ['not in, select list, the set has NULL', 'SELECT id, k, k NOT IN (SELECT x FROM s) AS m FROM f'],
  ['not in, select list, no NULL', 'SELECT id, k, k NOT IN (SELECT x FROM s WHERE x IS NOT NULL) AS m FROM f'],
  ['not in, select list, empty set', 'SELECT id, k, k NOT IN (SELECT x FROM s WHERE x > 100) AS m FROM f'],
  ['in, values of another type', 'SELECT id, v IN (SELECT big FROM s) AS m FROM f'],
  ['in, strings', 'SELECT id, g IN (SELECT g FROM d WHERE w > 2) AS m FROM f'],
  ['in, an expression of values', 'SELECT id, k + 1 IN (SELECT w * 2 FROM d) AS m FROM f'],
  ['in, a grouped sub-query', 'SELECT id, k IN (SELECT k FROM d GROUP BY k HAVING count(*) > 1) AS m FROM f'],
  ['in under OR', 'SELECT id FROM f WHERE v > 35 OR k IN (SELECT x FROM s)'],
  ['not in under OR', 'SELECT id FROM f WHERE v > 35 OR k NOT IN (SELECT x FROM s WHERE x IS NOT NULL)'],
  ['not (in) under OR', 'SELECT id FROM f WHERE v < 3 OR NOT (k IN (SELECT k FROM d))'],
  ['in under CASE', "SELECT id, CASE WHEN k IN (SELECT x FROM s) THEN 'in' WHEN k IS NULL THEN 'null' ELSE 'out' END AS c FROM f"],
  ['in, in an aggregate', 'SELECT count(*) AS n, sum(CASE WHEN k IN (SELECT k FROM d) THEN 1 ELSE 0 END) AS m FROM f'],
  ['in, in HAVING', 'SELECT k, count(*) AS n FROM f GROUP BY k HAVING k IN (SELECT x FROM s)'],
  ['in of an aggregate in HAVING', 'SELECT g, count(*) AS n FROM f GROUP BY g HAVING count(*) - 95 IN (SELECT x FROM s)'],
  ['in, in ON', 'SELECT f.id, d.name FROM f JOIN d ON f.k = d.k AND d.w IN (SELECT x FROM s)'],
  ['not in, in a left join ON', 'SELECT f.id, d.name FROM f LEFT JOIN d ON f.k = d.k AND d.w NOT IN (SELECT x FROM s WHERE x IS NOT NULL)'],
  ['exists, select list', 'SELECT id, EXISTS (SELECT 1 FROM s WHERE x > 5) AS e FROM f WHERE id < 5'],
  ['exists, empty', 'SELECT id, EXISTS (SELECT 1 FROM s WHERE x > 50) AS e FROM f WHERE id < 5'],
  ['exists under OR', 'SELECT id FROM f WHERE id < 3 OR EXISTS (SELECT 1 FROM s WHERE x > 50)'],
  ['not exists under OR', 'SELECT id FROM f WHERE id < 3 OR NOT EXISTS (SELECT 1 FROM s WHERE x > 50)'],
  ['exists in CASE', "SELECT id, CASE WHEN EXISTS (SELECT * FROM d WHERE name IS NULL) THEN k END AS c FROM f WHERE id < 5"],
  ['exists in HAVING', 'SELECT k, count(*) AS n FROM f GROUP BY k HAVING count(*) > 60 OR EXISTS (SELECT 1 FROM s WHERE x > 50)'],
];

(async () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'chv-subquery-compat-'));
  try {
    const wh = path.join(tmp, 'wh');
    const db = await DuckDBInstance.create(':memory:');
    const con = await db.connect();
    const q = async (s) => (await con.runAndReadAll(s)).getRowObjects();
    const dir = (n) => {
      const d = path.join(tmp, 'data', n);
      fs.mkdirSync(d, { recursive: true });
      return d;
    };
    await q(`CREATE TABLE f AS SELECT i::INTEGER AS id,
               CASE WHEN i % 11 = 0 THEN NULL ELSE (i % 6)::INTEGER END AS k,
               CASE WHEN i % 13 = 0 THEN NULL ELSE (i * 37 % 40)::INTEGER END AS v,
               CASE WHEN i % 17 = 0 THEN NULL ELSE 'g' || (i % 3)::VARCHAR END AS g
             FROM range(300) r(i)`);
    await q(`CREATE TABLE d AS SELECT * FROM (VALUES
               (0, 'n0', 1, 'g0'), (1, 'n1', 2, 'g1'), (1, 'n1b', 5, 'g2'),
               (2, NULL, 3, 'g2'), (3, 'n3', NULL, 'g0'), (4, 'n4', 4, NULL),
               (NULL, 'nnull', 6, 'g1'), (7, 'n7', 7, 'g1'), (3, 'n3b', 1, 'g1'))
             AS d(k, name, w, g)`);
    await q(`CREATE TABLE s AS SELECT * FROM (VALUES (1, 1::BIGINT), (3, 25::BIGINT),
               (NULL, NULL), (9, 9::BIGINT)) AS s(x, big)`);
    await q(`CREATE TABLE p AS SELECT (i % 5)::INTEGER AS pk, (i * 3)::INTEGER AS pv
             FROM range(40) r(i)`);
    for (const t of ['f', 'd', 's'])
      await q(`COPY ${t} TO '${path.join(dir(t), t + '.parquet')}' (FORMAT parquet)`);
    await q(`COPY p TO '${dir('p')}' (FORMAT parquet, PARTITION_BY (pk))`);
    sql(wh, `CREATE EXTERNAL TABLE f (id int, k int, v int, g string) STORED AS PARQUET
               LOCATION '${dir('f')}';
             CREATE EXTERNAL TABLE d (k int, name string, w int, g string) STORED AS PARQUET
               LOCATION '${dir('d')}';
             CREATE EXTERNAL TABLE s (x int, big bigint) STORED AS PARQUET
               LOCATION '${dir('s')}';
             CREATE EXTERNAL TABLE p (pv int) PARTITIONED BY (pk int) STORED AS PARQUET
               LOCATION '${dir('p')}';
             MSCK REPAIR TABLE p;`);
    await peer.cases(wh, CASES, q);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  peer.finish();
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
