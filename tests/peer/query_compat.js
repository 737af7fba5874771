#!/usr/bin/env node
// Queries of Hive's and Flink's language, each run by chive and by DuckDB
// over the same Parquet file (DuckDB writes it, with NULLs in keys and
// values), and their rows compared: in order where the query orders them,
// as a multiset where it does not.  Each case gives chive's SQL and
// DuckDB's where the dialects differ (Hive's SORT BY and CLUSTER BY are
// DuckDB's ORDER BY in one process; LIMIT m, n is LIMIT n OFFSET m; MINUS
// is EXCEPT; DuckDB puts NULLs last, Hive first for ASC).
//
//   node query_compat.js CHIVE
//
// Exit 0 on success, 1 on a mismatch, 77 (skipped) without DuckDB.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { DuckDBInstance } = require('./duckdb_peer.js');

const peer = require('./peer_check.js')('query_compat.js');
const { sql } = peer;

// [name, chive SQL, DuckDB SQL (null: the same), ordered]
const CASES = [
  ['limit offset (Hive)', 'SELECT k, v FROM t ORDER BY k, id LIMIT 3, 4',
   'SELECT k, v FROM t ORDER BY k NULLS FIRST, id LIMIT 4 OFFSET 3', true],
  ['limit n offset m', 'SELECT id FROM t ORDER BY v DESC, id LIMIT 5 OFFSET 10',
   'SELECT id FROM t ORDER BY v DESC NULLS LAST, id LIMIT 5 OFFSET 10', true],
  ['offset past the end', 'SELECT id FROM t ORDER BY id LIMIT 1000, 5',
   'SELECT id FROM t ORDER BY id LIMIT 5 OFFSET 1000', true],
  ['limit 0 with offset', 'SELECT id FROM t ORDER BY id LIMIT 2, 0',
   'SELECT id FROM t ORDER BY id LIMIT 0 OFFSET 2', true],
  ['offset without order', 'SELECT count(*) AS n FROM (SELECT id FROM t LIMIT 7, 20) s',
   'SELECT count(*) AS n FROM (SELECT id FROM t LIMIT 20 OFFSET 7) s', true],
  ['offset over a group by', 'SELECT k, count(*) AS n FROM t GROUP BY k ORDER BY k LIMIT 1, 2',
   'SELECT k, count(*) AS n FROM t GROUP BY k ORDER BY k NULLS FIRST LIMIT 2 OFFSET 1', true],
  ['offset over a union', 'SELECT id FROM t WHERE id < 5 UNION ALL SELECT id FROM t WHERE id > 95 ORDER BY id LIMIT 2, 3',
   'SELECT id FROM t WHERE id < 5 UNION ALL SELECT id FROM t WHERE id > 95 ORDER BY id LIMIT 3 OFFSET 2', true],
  ['sort by', 'SELECT id, k FROM t SORT BY k DESC, id',
   'SELECT id, k FROM t ORDER BY k DESC NULLS LAST, id', true],
  ['sort by with limit', 'SELECT id, v FROM t SORT BY v, id LIMIT 6',
   'SELECT id, v FROM t ORDER BY v NULLS FIRST, id LIMIT 6', true],
  ['cluster by', 'SELECT k, id FROM t CLUSTER BY k, id',
   'SELECT k, id FROM t ORDER BY k NULLS FIRST, id', true],
  ['distribute by', 'SELECT id, k FROM t DISTRIBUTE BY k',
   'SELECT id, k FROM t', false],
  ['distribute by, sort by', 'SELECT k, id FROM t DISTRIBUTE BY k SORT BY k, id DESC',
   'SELECT k, id FROM t ORDER BY k NULLS FIRST, id DESC', true],
  ['cluster by an aggregate query', 'SELECT k, sum(v) AS s FROM t GROUP BY k CLUSTER BY k',
   'SELECT k, sum(v) AS s FROM t GROUP BY k ORDER BY k NULLS FIRST', true],
  ['values as a relation', "SELECT * FROM (VALUES (1, 'a'), (2, NULL), (NULL, 'c')) AS v(x, y) ORDER BY x",
   "SELECT * FROM (VALUES (1, 'a'), (2, NULL), (NULL, 'c')) AS v(x, y) ORDER BY x NULLS FIRST", true],
  ['values grouped', "SELECT y, count(*) AS n, sum(x) AS s FROM (VALUES (1, 'a'), (2, 'a'), (3, NULL), (NULL, NULL)) v(x, y) GROUP BY y ORDER BY y",
   "SELECT y, count(*) AS n, sum(x) AS s FROM (VALUES (1, 'a'), (2, 'a'), (3, NULL), (NULL, NULL)) v(x, y) GROUP BY y ORDER BY y NULLS FIRST", true],
  ['values with a table', "SELECT count(*) AS n FROM (SELECT id FROM t UNION ALL SELECT x FROM (VALUES (1000), (1001)) v(x)) u",
   null, true],
  ['intersect', 'SELECT k FROM t WHERE id < 60 INTERSECT SELECT k FROM t WHERE id >= 40 ORDER BY k',
   'SELECT k FROM t WHERE id < 60 INTERSECT SELECT k FROM t WHERE id >= 40 ORDER BY k NULLS FIRST', true],
  ['intersect all', 'SELECT k, v FROM t WHERE id < 70 INTERSECT ALL SELECT k, v FROM t WHERE id >= 20',
   null, false],
  ['except', 'SELECT v FROM t WHERE id < 50 EXCEPT SELECT v FROM t WHERE id >= 50',
   null, false],
  ['except all', 'SELECT k FROM t EXCEPT ALL SELECT k FROM t WHERE v > 20',
   null, false],
  ['minus (Hive)', 'SELECT v FROM t WHERE id < 50 MINUS SELECT v FROM t WHERE id >= 50',
   'SELECT v FROM t WHERE id < 50 EXCEPT SELECT v FROM t WHERE id >= 50', false],
  ['intersect before union', "SELECT k FROM t WHERE id < 10 UNION SELECT k FROM t WHERE id < 30 INTERSECT SELECT k FROM t WHERE v > 40",
   null, false],
  ['set operations with a count', "SELECT count(*) AS n FROM (SELECT k, v FROM t EXCEPT ALL SELECT k, v FROM t WHERE id % 3 = 0) s",
   null, true],
  // an argument shared by aggregates is computed once, and where no input
  // can fail they are computed over a whole batch when its filter keeps
  // most of it (rows then picked out), over the rows kept when it keeps few
  ['shared aggregate arguments, most rows kept',
   'SELECT k, sum(v) AS s, avg(v) AS a, count(v) AS c, sum(v * 2) AS s2, avg(v * 2) AS a2, max(v * 2) AS m2 FROM t WHERE id > 10 GROUP BY k',
   null, false],
  ['shared aggregate arguments, few rows kept',
   'SELECT k, sum(v) AS s, avg(v) AS a, sum(v * 2) AS s2, avg(v * 2) AS a2 FROM t WHERE id < 20 GROUP BY k',
   null, false],
  ['decimal aggregate arguments over a filter',
   'SELECT k, sum(CAST(v AS DECIMAL(10,2)) * CAST(id AS DECIMAL(8,2))) AS p, avg(CAST(v AS DECIMAL(10,2)) * CAST(id AS DECIMAL(8,2))) AS ap, sum(CAST(v AS DECIMAL(10,2)) - CAST(id AS DECIMAL(8,1))) AS d FROM t WHERE v > 3 GROUP BY k',
   // Hive's AVG of a decimal of scale s has scale s + 4
   'SELECT k, sum(CAST(v AS DECIMAL(10,2)) * CAST(id AS DECIMAL(8,2))) AS p, CAST(avg(CAST(v AS DECIMAL(10,2)) * CAST(id AS DECIMAL(8,2))) AS DECIMAL(30,8)) AS ap, sum(CAST(v AS DECIMAL(10,2)) - CAST(id AS DECIMAL(8,1))) AS d FROM t WHERE v > 3 GROUP BY k',
   false],
  // IN of literals over a column reads it in place; items that are not
  // literals make an OR of equalities, with IN's NULLs
  ['in of literals and of expressions',
   "SELECT id, k IN ('k1', 'k3') AS a, k NOT IN ('k1', NULL) AS b, v IN (10, 12, NULL) AS c, v NOT IN (10, 12) AS d, v IN (id % 50, 10, -5) AS e, v NOT IN (id - 1, NULL) AS f, v IN (-(id % 7), 1 + 1) AS g FROM t WHERE id > 3",
   null, false],
  // a comparison of two columns of one type in WHERE: one loop over both,
  // NULL on either side dropping the row
  ['columns compared, int and bigint',
   'SELECT id FROM t WHERE v < id AND b >= v AND id <> b AND NOT (v = b)', null, false],
  ['columns compared, double and date',
   'SELECT id FROM t WHERE f <= v AND d1 > d2 OR f = b OR d1 = d2', null, false],
  // an AND's conjuncts that are such loops run first, the others on the
  // rows they keep
  ['conjuncts of every kind',
   "SELECT id, k FROM t WHERE k IN ('k1', 'k2') AND v < id AND k LIKE 'k%' AND b > 5 AND (f > 1 OR d1 IS NULL) AND d2 >= DATE '2020-01-07' AND id % 3 <> 1", null, false],
  ['conjuncts under NOT and OR',
   "SELECT id FROM t WHERE NOT (v > 10 AND k = 'k1') AND (b < v AND k <> 'k3' OR d1 < d2 AND f IS NOT NULL)", null, false],
  // decimals: a column with a literal or a column of its scale in one loop,
  // BETWEEN as its two comparisons; other scales the general way
  ['decimals compared',
   'SELECT id FROM t WHERE p1 BETWEEN 0.25 AND 1.5 AND p2 < p1 AND p1 <> 1.02 AND p3 < 0.250', null, false],
  ['decimals compared, other scales and NOT BETWEEN',
   'SELECT id FROM t WHERE p3 < p1 AND p2 NOT BETWEEN 0.5 AND 1.2 OR p1 >= 1.95 OR p2 = 0.11', null, false],
  ['columns compared, the same column', 'SELECT count(*) AS n FROM t WHERE d1 = d1 AND f <> f', null, false],
  ['values, offset', "SELECT x FROM (VALUES (5), (3), (9), (1)) v(x) ORDER BY x LIMIT 1, 2",
   "SELECT x FROM (VALUES (5), (3), (9), (1)) v(x) ORDER BY x LIMIT 2 OFFSET 1", true],
];

(async () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'chv-query-compat-'));
  try {
    const wh = path.join(tmp, 'wh');
    const file = path.join(tmp, 'data', 't.parquet');
    fs.mkdirSync(path.dirname(file));
    const db = await DuckDBInstance.create(':memory:');
    const con = await db.connect();
    const q = async (s) => (await con.runAndReadAll(s)).getRowObjects();
    await q(`CREATE TABLE t AS SELECT i::INTEGER AS id,
               CASE WHEN i % 9 = 0 THEN NULL ELSE 'k' || (i % 4)::VARCHAR END AS k,
               CASE WHEN i % 7 = 0 THEN NULL ELSE (i * 37 % 50)::INTEGER END AS v,
               CASE WHEN i % 11 = 0 THEN NULL ELSE (i * 13 % 40)::BIGINT END AS b,
               CASE WHEN i % 13 = 0 THEN NULL ELSE (i * 7 % 30) / 4.0 END::DOUBLE AS f,
               CASE WHEN i % 6 = 0 THEN NULL ELSE DATE '2020-01-01' + (i * 3 % 20)::INTEGER END AS d1,
               CASE WHEN i % 8 = 0 THEN NULL ELSE DATE '2020-01-05' + (i * 5 % 17)::INTEGER END AS d2,
               CASE WHEN i % 9 = 4 THEN NULL ELSE ((i * 17 % 200) / 100.0)::DECIMAL(10,2) END AS p1,
               CASE WHEN i % 10 = 3 THEN NULL ELSE ((i * 11 % 190) / 100.0)::DECIMAL(10,2) END AS p2,
               ((i * 7 % 300) / 1000.0)::DECIMAL(12,3) AS p3
             FROM range(100) r(i)`);
    await q(`COPY t TO '${file}' (FORMAT parquet)`);
    sql(wh, `CREATE EXTERNAL TABLE t (id int, k string, v int, b bigint, f double,
               d1 date, d2 date, p1 decimal(10,2), p2 decimal(10,2), p3 decimal(12,3))
             STORED AS PARQUET
             LOCATION '${path.dirname(file)}';`);
    await peer.cases(wh, CASES, q);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  peer.finish();
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
