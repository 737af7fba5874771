#!/usr/bin/env node
// Joins, and sub-queries (which chive makes joins), run by chive and by
// DuckDB over the same Parquet files (DuckDB
// writes them, with NULLs and duplicates in keys and NULLs in values), and
// their rows compared as multisets (in order where the query orders them
// the same way in both).  One table is partitioned on its join key as a
// Hive table, so that conditions pushed through joins prune partitions.
//
//   node join_compat.js CHIVE
//
// Exit 0 on success, 1 on a mismatch, 77 (skipped) without DuckDB.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { DuckDBInstance } = require('./duckdb_peer.js');
const joinTables = require('./join_tables.js');

const peer = require('./peer_check.js')('join_compat.js');
const { sql } = peer;

// [name, chive SQL, DuckDB SQL (null: the same)]
const CASES = [
  ['inner', 'SELECT f.id, f.k, d.name FROM f JOIN d ON f.k = d.k'],
  ['inner, using the keyword', 'SELECT f.id, d.name FROM f INNER JOIN d ON d.k = f.k'],
  ['left outer', 'SELECT f.id, f.k, d.name FROM f LEFT JOIN d ON f.k = d.k'],
  ['left outer join', 'SELECT f.id, d.k, d.name FROM f LEFT OUTER JOIN d ON f.k = d.k'],
  ['right outer', 'SELECT f.id, d.k, d.name FROM f RIGHT JOIN d ON f.k = d.k'],
  ['full outer', 'SELECT f.id, f.k, d.k AS dk, d.name FROM f FULL JOIN d ON f.k = d.k'],
  ['full outer with residual', 'SELECT f.id, d.name FROM f FULL OUTER JOIN d ON f.k = d.k AND f.v > d.w'],
  // keys whose texts are the same but for the qualifier: each select
  // expression is the key it computes
  ['grouped by one test of each side', 'SELECT f.k IS NULL AS fk, d.k IS NULL AS dk, count(*) AS n FROM f FULL JOIN d ON f.k = d.k GROUP BY f.k IS NULL, d.k IS NULL'],
  ['grouped by one test of each side, other order', 'SELECT d.k IS NULL AS dk, count(*) AS n, f.k IS NULL AS fk FROM f FULL JOIN d ON f.k = d.k GROUP BY f.k IS NULL, d.k IS NULL'],
  ['cross', 'SELECT s.x, d.name FROM s CROSS JOIN d'],
  ['comma', 'SELECT s.x, d.k FROM s, d'],
  ['comma with where', 'SELECT f.id, d.name FROM f, d WHERE f.k = d.k AND f.v > 10'],
  ['left semi', 'SELECT f.id, f.k FROM f LEFT SEMI JOIN d ON f.k = d.k',
   'SELECT f.id, f.k FROM f SEMI JOIN d ON f.k = d.k'],
  ['left semi with residual', 'SELECT f.id FROM f LEFT SEMI JOIN d ON f.k = d.k AND d.w < f.v',
   'SELECT f.id FROM f SEMI JOIN d ON f.k = d.k AND d.w < f.v'],
  ['left anti', 'SELECT f.id, f.k FROM f LEFT ANTI JOIN d ON f.k = d.k',
   'SELECT f.id, f.k FROM f ANTI JOIN d ON f.k = d.k'],
  ['left anti with residual', 'SELECT f.id FROM f LEFT ANTI JOIN d ON f.k = d.k AND d.w > 3',
   'SELECT f.id FROM f ANTI JOIN d ON f.k = d.k AND d.w > 3'],
  ['two keys', 'SELECT f.id, d.name FROM f JOIN d ON f.k = d.k AND f.g = d.g'],
  ['expression keys', 'SELECT f.id, d.name FROM f JOIN d ON f.k + 1 = d.k + 1 AND lower(f.g) = lower(d.g)'],
  ['keys of two types', 'SELECT f.id, s.x FROM f JOIN s ON f.v = s.big'],
  ['null-safe key', 'SELECT f.id, d.name FROM f JOIN d ON f.k <=> d.k',
   'SELECT f.id, d.name FROM f JOIN d ON f.k IS NOT DISTINCT FROM d.k'],
  ['non-equi only', 'SELECT s.x, d.name FROM s JOIN d ON s.x < d.k'],
  ['residual on an inner join', 'SELECT f.id, d.name FROM f JOIN d ON f.k = d.k AND (f.v < d.w OR d.name IS NULL)'],
  ['left join, condition on the right in ON', "SELECT f.id, d.name FROM f LEFT JOIN d ON f.k = d.k AND d.name <> 'n3'"],
  ['left join, condition on the left in ON', 'SELECT f.id, d.name FROM f LEFT JOIN d ON f.k = d.k AND f.v > 20'],
  ['left join, WHERE on the right', 'SELECT f.id, d.name FROM f LEFT JOIN d ON f.k = d.k WHERE d.name IS NULL'],
  ['left join, WHERE on the left', 'SELECT f.id, d.name FROM f LEFT JOIN d ON f.k = d.k WHERE f.v < 15'],
  ['right join, WHERE on both', 'SELECT f.id, d.name FROM f RIGHT JOIN d ON f.k = d.k WHERE d.w > 2 AND (f.v IS NULL OR f.v > 5)'],
  ['three-way', 'SELECT f.id, d.name, s.x FROM f JOIN d ON f.k = d.k JOIN s ON d.k = s.x'],
  ['three-way, comma, out of order', 'SELECT f.id, d.name, s.x FROM s, f, d WHERE f.k = d.k AND s.x = f.k'],
  ['four-way mixed', 'SELECT f.id, d.name, s.x, p.pv FROM f LEFT JOIN d ON f.k = d.k JOIN p ON p.pk = f.k LEFT JOIN s ON s.x = d.k'],
  ['join then aggregate', 'SELECT d.name, count(*) AS n, sum(f.v) AS sv FROM f JOIN d ON f.k = d.k GROUP BY d.name'],
  ['outer join then aggregate', 'SELECT d.k, count(f.id) AS n FROM d LEFT JOIN f ON f.k = d.k GROUP BY d.k'],
  ['join with a sub-query', 'SELECT f.id, a.n FROM f JOIN (SELECT k, count(*) AS n FROM d GROUP BY k) a ON f.k = a.k'],
  ['join with a WITH query', 'WITH dd AS (SELECT k, name FROM d WHERE w > 1) SELECT f.id, dd.name FROM f JOIN dd ON f.k = dd.k'],
  // WITH queries named more than once: their rows held for each reference
  ['a WITH query joined to itself', 'WITH dd AS (SELECT k, name, w FROM d WHERE w > 1) SELECT a.name, b.name AS n2, b.w FROM dd a JOIN dd b ON a.k = b.k'],
  ['a WITH query in FROM and in a scalar sub-query', 'WITH fk AS (SELECT k, count(*) AS n FROM f GROUP BY k) SELECT k, n FROM fk WHERE n = (SELECT max(n) FROM fk)'],
  ['a WITH query in IN and in a scalar sub-query', 'WITH dd AS (SELECT k, w FROM d WHERE k IS NOT NULL) SELECT f.id FROM f WHERE f.k IN (SELECT k FROM dd) AND f.v > (SELECT min(w) FROM dd)'],
  ['a WITH query over one held', 'WITH a AS (SELECT k, v FROM f WHERE v IS NOT NULL), b AS (SELECT k, sum(v) AS s FROM a GROUP BY k) SELECT a.k, a.v, b.s FROM a JOIN b ON a.k = b.k WHERE a.v * 2 > (SELECT min(s) FROM b)'],
  ['a WITH query in both branches of UNION ALL', 'WITH dd AS (SELECT k, name FROM d) SELECT k, name FROM dd UNION ALL SELECT k + 1, name FROM dd'],
  ['a WITH name hidden by an inner WITH', 'WITH w AS (SELECT k FROM d) SELECT (SELECT count(*) FROM w) AS a, x.n FROM (WITH w AS (SELECT id FROM f) SELECT count(*) AS n FROM w) x'],
  ['a WITH query named once, its name twice elsewhere', 'WITH dd AS (SELECT k FROM d) SELECT count(*) AS n FROM f WHERE k IN (SELECT k FROM dd) AND id IN (SELECT id FROM (WITH dd AS (SELECT id FROM f) SELECT id FROM dd) t)'],
  ['self join', 'SELECT a.id, b.id AS id2 FROM f a JOIN f b ON a.k = b.k AND a.id < b.id WHERE a.id < 50'],
  ['partitioned table, pruned through the join', 'SELECT f.id, p.pv FROM f JOIN p ON f.k = p.pk WHERE p.pk IN (1, 2)'],
  ['partitioned table as the outer side', 'SELECT p.pk, p.pv, d.name FROM p LEFT JOIN d ON p.pk = d.k WHERE p.pk > 2'],
  ['star over a join', 'SELECT * FROM s JOIN d ON s.x = d.k'],
  ['qualified star', 'SELECT d.*, s.x FROM s JOIN d ON s.x = d.k'],
  ['distinct star over a join', 'SELECT DISTINCT * FROM s JOIN d ON s.x = d.k'],
  ['ordered', 'SELECT f.id, d.name FROM f JOIN d ON f.k = d.k ORDER BY f.id, d.name LIMIT 20',
   'SELECT f.id, d.name FROM f JOIN d ON f.k = d.k ORDER BY f.id, d.name NULLS FIRST LIMIT 20', true],
  ['count of a join', 'SELECT count(*) AS n FROM f JOIN d ON f.k = d.k'],
  ['empty build side', 'SELECT f.id FROM f JOIN d ON f.k = d.k WHERE d.w > 1000'],
  ['empty build side, left join', 'SELECT f.id, d.name FROM f LEFT JOIN d ON f.k = d.k AND d.w > 1000'],
  ['anti join, empty right', 'SELECT f.id FROM f LEFT ANTI JOIN d ON f.k = d.k AND d.w > 1000',
   'SELECT f.id FROM f ANTI JOIN d ON f.k = d.k AND d.w > 1000'],
  ['string keys', 'SELECT f.id, d.name FROM f JOIN d ON f.g = d.g'],
  ['a key in every branch of an OR', "SELECT f.id, d.name FROM f, d WHERE (f.k = d.k AND f.v > 20 AND d.w > 2) OR (d.k = f.k AND f.v < 5) OR (f.k = d.k AND d.name IS NULL)"],
  ['an OR without a common key', "SELECT f.id, d.name FROM f JOIN d ON f.k = d.k OR f.v = d.w"],
  ['an OR of one side in ON of a left join', "SELECT f.id, d.name FROM f LEFT JOIN d ON f.k = d.k AND (d.w > 4 OR f.v < 3)"],
  // JOIN ... USING and NATURAL JOIN: chive puts the USING columns first in
  // * (the standard's order); DuckDB keeps them where the left side has
  // them, so its * is reordered here with EXCLUDE
  ['using, inner, *', 'SELECT * FROM f JOIN d USING (k, g)',
   'SELECT k, g, * EXCLUDE (k, g) FROM f JOIN d USING (k, g)'],
  ['using, left', 'SELECT k, id, name, f.g AS fg, d.g AS dg FROM f LEFT JOIN d USING (k)'],
  ['using, right', 'SELECT k, id, name, f.g AS fg, d.g AS dg FROM f RIGHT JOIN d USING (k)'],
  ['using, full', 'SELECT k, id, name, f.g AS fg, d.g AS dg FROM f FULL JOIN d USING (k)'],
  ['using, full, qualified', 'SELECT k, f.k AS fk, d.k AS dk, id, name FROM f FULL OUTER JOIN d USING (k)'],
  ['using, full, two columns, *', 'SELECT * FROM f FULL JOIN d USING (g, k)',
   'SELECT g, k, * EXCLUDE (k, g) FROM f FULL JOIN d USING (g, k)'],
  ['natural', 'SELECT * FROM f NATURAL JOIN d',
   'SELECT k, g, * EXCLUDE (k, g) FROM f NATURAL JOIN d'],
  ['natural left', 'SELECT * FROM f NATURAL LEFT JOIN d',
   'SELECT k, g, * EXCLUDE (k, g) FROM f NATURAL LEFT JOIN d'],
  ['natural right', 'SELECT * FROM d NATURAL RIGHT JOIN f',
   'SELECT k, g, * EXCLUDE (k, g) FROM d NATURAL RIGHT JOIN f'],
  ['natural full', 'SELECT * FROM f NATURAL FULL OUTER JOIN d',
   'SELECT k, g, * EXCLUDE (k, g) FROM f NATURAL FULL OUTER JOIN d'],
  ['using, left semi', 'SELECT * FROM f LEFT SEMI JOIN d USING (k)',
   'SELECT k, * EXCLUDE (k) FROM f SEMI JOIN d USING (k)'],
  ['using, left anti', 'SELECT * FROM f LEFT ANTI JOIN d USING (k, g)',
   'SELECT k, g, * EXCLUDE (k, g) FROM f ANTI JOIN d USING (k, g)'],
  ['using, keys of two types', 'SELECT * FROM (SELECT big AS k, x FROM s) t FULL JOIN d USING (k)'],
  ['using, grouped', 'SELECT k, count(*) AS n, sum(w) AS sw FROM f FULL JOIN d USING (k) GROUP BY k'],
  ['using, where', 'SELECT k, id, w FROM f RIGHT JOIN d USING (k) WHERE k > 1 OR k IS NULL'],
  ['using, three relations', 'SELECT k, id, name, pv FROM f JOIN d USING (k) JOIN (SELECT pk AS k, pv FROM p) q USING (k)'],
  ['using over a full using join', 'SELECT * FROM (SELECT k, id FROM f) a FULL JOIN (SELECT k, w FROM d) b USING (k) FULL JOIN (SELECT x AS k, big FROM s) c USING (k)'],
  ['aggregates of columns of one name', 'SELECT max(f.g) AS a, max(d.g) AS b, count(DISTINCT f.g) AS c, count(DISTINCT d.g) AS e, min(f.k) AS m, min(d.k) AS n FROM f FULL JOIN d ON f.k = d.k'],
  ['windows of columns of one name', 'SELECT id, max(f.g) OVER (PARTITION BY k) AS a, max(d.g) OVER (PARTITION BY k) AS b, count(*) OVER (PARTITION BY f.g) AS c, count(*) OVER (PARTITION BY d.g) AS e FROM f JOIN d USING (k)'],
  ['grouping sets of columns of one name', 'SELECT f.g, d.g AS dg, count(*) AS n, GROUPING(d.g) AS gd, GROUPING(f.g, d.g) AS gg FROM f JOIN d ON f.k = d.k GROUP BY ROLLUP (f.g, d.g)'],
  ['distinct of columns of one name', 'SELECT DISTINCT f.g, d.g AS dg FROM f RIGHT JOIN d ON f.k = d.k'],
  // sub-queries: NULLs in the tested values and in the sub-queries' rows
  ['in', 'SELECT id, k FROM f WHERE k IN (SELECT k FROM d WHERE w > 1)'],
  ['in, the sub-query has NULL', 'SELECT id FROM f WHERE k IN (SELECT k FROM d)'],
  ['not in, the sub-query has NULL', 'SELECT id FROM f WHERE k NOT IN (SELECT k FROM d)'],
  ['not in, no NULL', 'SELECT id, k FROM f WHERE k NOT IN (SELECT k FROM d WHERE k IS NOT NULL)'],
  ['not in, empty sub-query', 'SELECT id, k FROM f WHERE k NOT IN (SELECT k FROM d WHERE w > 100)'],
  ['not (in)', 'SELECT id FROM f WHERE NOT (k IN (SELECT x FROM s WHERE x IS NOT NULL))'],
  ['in with a grouped sub-query', 'SELECT id FROM f WHERE k IN (SELECT k FROM d GROUP BY k HAVING count(*) > 1)'],
  ['in on an expression', 'SELECT id FROM f WHERE k + 1 IN (SELECT x + 1 FROM s)'],
  ['correlated in', 'SELECT id FROM f WHERE k IN (SELECT d.k FROM d WHERE d.g = f.g)'],
  ['exists', 'SELECT id FROM f WHERE EXISTS (SELECT * FROM d WHERE d.k = f.k AND d.w > 2)'],
  ['not exists', 'SELECT id, k FROM f WHERE NOT EXISTS (SELECT 1 FROM d WHERE d.k = f.k)'],
  ['exists with a non-equality', 'SELECT id FROM f WHERE EXISTS (SELECT 1 FROM d WHERE d.k = f.k AND d.w < f.v)'],
  ['not exists with a non-equality', 'SELECT id FROM f WHERE NOT EXISTS (SELECT 1 FROM d WHERE d.k = f.k AND d.w < f.v)'],
  ['uncorrelated exists', 'SELECT count(*) AS n FROM f WHERE EXISTS (SELECT 1 FROM s WHERE x > 5)'],
  ['uncorrelated not exists', 'SELECT count(*) AS n FROM f WHERE NOT EXISTS (SELECT 1 FROM s WHERE x > 50)'],
  ['scalar sub-query', 'SELECT id FROM f WHERE v > (SELECT avg(w) FROM d)'],
  ['scalar sub-query in the select list', 'SELECT id, (SELECT max(w) FROM d) AS m FROM f WHERE id < 5'],
  ['scalar sub-query of no row', 'SELECT id, (SELECT w FROM d WHERE w > 100) AS m FROM f WHERE id < 3'],
  ['scalar sub-query in HAVING', 'SELECT k, count(*) AS n FROM f GROUP BY k HAVING count(*) > (SELECT count(*) FROM d) * 5'],
  ['correlated scalar sub-query', 'SELECT id FROM f WHERE v > (SELECT avg(d.w) FROM d WHERE d.k = f.k)'],
  ['correlated scalar, two keys', 'SELECT id FROM f WHERE v >= (SELECT min(d.w) FROM d WHERE d.k = f.k AND d.g = f.g)'],
  ['correlated count', 'SELECT id, k FROM f WHERE id < 40 AND 1 > (SELECT count(*) FROM d WHERE d.k = f.k)'],
  ['same table inside and out', 'SELECT id FROM f WHERE v < (SELECT avg(v) FROM f f2 WHERE f2.k = f.k)'],
  ['same table, unqualified', 'SELECT count(*) AS n FROM f WHERE id IN (SELECT id FROM f WHERE v > 20)'],
  ['nested sub-queries', 'SELECT id FROM f WHERE k IN (SELECT k FROM d WHERE w > (SELECT min(big) FROM s) AND EXISTS (SELECT 1 FROM p WHERE p.pk = d.k))'],
  ['sub-query with a join inside', 'SELECT id FROM f WHERE k IN (SELECT d.k FROM d JOIN s ON d.k = s.x)'],
  ['sub-query and join', 'SELECT f.id, d.name FROM f JOIN d ON f.k = d.k WHERE f.v > (SELECT avg(v) FROM f)'],
  // one integer or DATE key: its values numbered as integers
  ['tinyint key', 'SELECT a.id, b.id AS bid FROM w a JOIN w b ON a.t8 = b.t8'],
  ['smallint key, left', 'SELECT a.id, b.id AS bid FROM w a LEFT JOIN w b ON a.t16 = b.t16 AND b.id < 60'],
  ['bigint key, full', 'SELECT a.id, b.id AS bid FROM (SELECT * FROM w WHERE id < 80) a FULL JOIN (SELECT * FROM w WHERE id > 40) b ON a.t64 = b.t64'],
  ['date key, right', 'SELECT a.id, b.id AS bid FROM (SELECT * FROM w WHERE id < 30) a RIGHT JOIN w b ON a.dt = b.dt'],
  ['date key, semi', 'SELECT id FROM w WHERE dt IN (SELECT dt FROM w WHERE id % 3 = 0 AND id < 40)'],
  ['bigint key, anti', 'SELECT id FROM w a WHERE NOT EXISTS (SELECT 1 FROM w b WHERE b.t64 = a.t64 AND b.id > 100)'],
  ['tinyint key, not in', 'SELECT id FROM w WHERE t8 NOT IN (SELECT t8 FROM w WHERE id > 100 AND t8 IS NOT NULL)'],
  ['keys of two widths', 'SELECT a.id, b.id AS bid FROM w a JOIN w b ON a.t8 = b.t16 / 1000'],
  ['tinyint key against int', 'SELECT w.id, f.id AS fid FROM w JOIN f ON w.t8 = f.k WHERE f.id < 50'],
];

(async () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'chv-join-compat-'));
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
    await joinTables(q, dir, (stmts) => sql(wh, stmts));
    await peer.cases(wh, CASES, q);
    // the names of the columns, as DuckDB gives them
    for (const [name, ours, theirs] of [
      ['names: using, full', 'SELECT k, f.k, d.k, id FROM f FULL JOIN d USING (k) LIMIT 1'],
      ['names: using, *', 'SELECT * FROM f JOIN d USING (k, g) LIMIT 1',
       'SELECT k, g, * EXCLUDE (k, g) FROM f JOIN d USING (k, g) LIMIT 1'],
      ['names: natural right', 'SELECT * FROM d NATURAL RIGHT JOIN f LIMIT 1',
       'SELECT k, g, * EXCLUDE (k, g) FROM d NATURAL RIGHT JOIN f LIMIT 1'],
    ]) {
      const got = JSON.parse(peer.sql(wh, ours + ';').split('\n').find((l) => l.startsWith('{')));
      const want = (await con.runAndReadAll(theirs || ours)).columnNames();
      const keys = Object.keys(got);
      peer.check(name, keys.join(',') === [...new Set(want)].join(','),
                 `chive ${keys} vs DuckDB ${want}`);
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  peer.finish();
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
