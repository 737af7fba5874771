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
const joinTables = require('./join_tables.js');

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
  // correlated scalar sub-queries in the select list and HAVING
  ['correlated scalar, select list', 'SELECT id, k, (SELECT max(d.w) FROM d WHERE d.k = f.k) AS m FROM f'],
  ['correlated count, select list', 'SELECT id, k, (SELECT count(*) FROM d WHERE d.k = f.k) AS n FROM f'],
  ['correlated count of a column, select list', 'SELECT id, (SELECT count(d.name) FROM d WHERE d.k = f.k) AS n FROM f'],
  ['correlated scalar, two keys', 'SELECT id, (SELECT sum(d.w) FROM d WHERE d.k = f.k AND d.g = f.g) AS s FROM f'],
  ['correlated scalar with a condition of its own', 'SELECT id, (SELECT min(d.name) FROM d WHERE d.k = f.k AND d.w > 1) AS s FROM f'],
  ['correlated scalar in an expression', 'SELECT id, v - (SELECT avg(d.w) FROM d WHERE d.k = f.k) AS dv FROM f'],
  ['correlated scalar, same table', 'SELECT id, (SELECT count(*) FROM f f2 WHERE f2.k = f.k) AS n FROM f WHERE id < 30'],
  ['correlated scalar, no match anywhere', 'SELECT id, (SELECT count(*) FROM d WHERE d.k = f.k AND d.w > 100) AS n, (SELECT max(w) FROM d WHERE d.k = f.k AND d.w > 100) AS m FROM f WHERE id < 20'],
  ['correlated scalar under CASE', "SELECT id, CASE WHEN k IS NULL THEN -1 ELSE (SELECT count(*) FROM d WHERE d.k = f.k) END AS n FROM f"],
  ['correlated scalar with GROUP BY outside', 'SELECT k, count(*) AS c, (SELECT count(*) FROM d WHERE d.k = f.k) AS n FROM f GROUP BY k'],
  ['correlated scalar, GROUP BY two keys', 'SELECT k, g, sum(v) AS sv, (SELECT max(d.w) FROM d WHERE d.k = f.k AND d.g = f.g) AS m FROM f GROUP BY k, g'],
  ['correlated scalar in HAVING', 'SELECT k, count(*) AS c FROM f GROUP BY k HAVING count(*) > 10 * (SELECT count(*) FROM d WHERE d.k = f.k)'],
  ['correlated scalar in HAVING, NULL where none', 'SELECT g, sum(v) AS s FROM f GROUP BY g HAVING sum(v) > (SELECT sum(w) FROM d WHERE d.g = f.g) * 200'],
  ['correlated scalar inside an aggregate', 'SELECT g, sum((SELECT count(*) FROM d WHERE d.k = f.k)) AS s FROM f GROUP BY g'],
  ['correlated scalar with DISTINCT outside', 'SELECT DISTINCT k, (SELECT count(*) FROM d WHERE d.k = f.k) AS n FROM f'],
  // correlated EXISTS and IN where a semi join cannot stand: marks
  ['correlated exists, select list', 'SELECT id, k, EXISTS (SELECT 1 FROM d WHERE d.k = f.k) AS e FROM f'],
  ['correlated not exists, select list', 'SELECT id, NOT EXISTS (SELECT 1 FROM d WHERE d.k = f.k AND d.w > 2) AS e FROM f'],
  ['correlated exists under OR', 'SELECT id FROM f WHERE v > 35 OR EXISTS (SELECT 1 FROM d WHERE d.k = f.k AND d.g = f.g)'],
  ['correlated not exists under OR', 'SELECT id FROM f WHERE v > 35 OR NOT EXISTS (SELECT * FROM d WHERE d.k = f.k)'],
  ['correlated exists in CASE', "SELECT id, CASE WHEN EXISTS (SELECT 1 FROM d WHERE d.k = f.k AND d.name IS NULL) THEN 'y' ELSE 'n' END AS c FROM f"],
  ['correlated in, select list', 'SELECT id, k, g, k IN (SELECT d.k FROM d WHERE d.g = f.g) AS m FROM f'],
  ['correlated in, NULLs among the values', 'SELECT id, v, v IN (SELECT d.w FROM d WHERE d.k = f.k) AS m FROM f'],
  ['correlated not in, select list', 'SELECT id, v, v NOT IN (SELECT d.w FROM d WHERE d.k = f.k) AS m FROM f'],
  ['correlated in under OR', 'SELECT id FROM f WHERE v < 3 OR k IN (SELECT d.k FROM d WHERE d.g = f.g AND d.w > 1)'],
  ['correlated in of an expression', 'SELECT id, k + 1 IN (SELECT d.w FROM d WHERE d.g = f.g) AS m FROM f'],
  ['correlated in, strings', 'SELECT id, g IN (SELECT d.g FROM d WHERE d.k = f.k) AS m FROM f'],
  ['correlated in, values of another type', 'SELECT id, v IN (SELECT s.big FROM s WHERE s.x = f.k) AS m FROM f'],
  ['correlated exists with GROUP BY outside', 'SELECT k, count(*) AS c, EXISTS (SELECT 1 FROM d WHERE d.k = f.k AND d.w > 3) AS e FROM f GROUP BY k'],
  ['correlated in in HAVING', 'SELECT k, g, count(*) AS c FROM f GROUP BY k, g HAVING k IN (SELECT d.k FROM d WHERE d.g = f.g) OR count(*) > 18'],
  ['correlated exists inside an aggregate', 'SELECT g, count(*) AS c, sum(CASE WHEN EXISTS (SELECT 1 FROM d WHERE d.k = f.k) THEN 1 ELSE 0 END) AS e FROM f GROUP BY g'],
  // correlated NOT IN in WHERE, with its NULL rules
  ['correlated not in', 'SELECT id, v FROM f WHERE v NOT IN (SELECT d.w FROM d WHERE d.k = f.k)'],
  ['correlated not in, NULLs among the values', 'SELECT id, k FROM f WHERE k NOT IN (SELECT d.k FROM d WHERE d.g = f.g)'],
  ['correlated not in, none NULL', 'SELECT id, k FROM f WHERE k NOT IN (SELECT d.k FROM d WHERE d.g = f.g AND d.k IS NOT NULL)'],
  ['correlated not in with other conditions', 'SELECT id FROM f WHERE id > 100 AND v NOT IN (SELECT d.w FROM d WHERE d.k = f.k AND d.w > 2)'],
  ['not (correlated in)', 'SELECT id FROM f WHERE NOT (k IN (SELECT d.k FROM d WHERE d.g = f.g))'],
  // mixed: joins outside, sub-queries inside sub-queries, derived tables
  ['correlated scalar over a join', 'SELECT f.id, d.name, (SELECT count(*) FROM s WHERE s.x = d.k) AS n FROM f JOIN d ON f.k = d.k'],
  ['correlated by an expression of the outer query', 'SELECT id, (SELECT count(*) FROM d WHERE d.k = f.k + 1) AS n FROM f'],
  ['correlated scalar with an uncorrelated IN inside', 'SELECT id, (SELECT count(*) FROM d WHERE d.k = f.k AND d.w IN (SELECT x FROM s)) AS n FROM f'],
  ['correlated scalar in a derived table', 'SELECT t.k, sum(t.n) AS sn FROM (SELECT k, (SELECT count(*) FROM d WHERE d.k = f.k) AS n FROM f) t GROUP BY t.k'],
  ['correlated scalar, ordered by its alias', 'SELECT id, (SELECT max(w) FROM d WHERE d.k = f.k) AS m FROM f ORDER BY m DESC NULLS LAST, id LIMIT 15',
   'SELECT id, (SELECT max(w) FROM d WHERE d.k = f.k) AS m FROM f ORDER BY m DESC NULLS LAST, id LIMIT 15', true],
  ['semi join and mark in one query', 'SELECT id, EXISTS (SELECT 1 FROM d WHERE d.k = f.k AND d.w > 4) AS e FROM f WHERE k IN (SELECT x FROM s) AND NOT EXISTS (SELECT 1 FROM d WHERE d.g = f.g AND d.w = 7)'],
  ['correlated and uncorrelated side by side', 'SELECT id, k IN (SELECT x FROM s) AS u, k IN (SELECT d.k FROM d WHERE d.g = f.g) AS c, (SELECT count(*) FROM d WHERE d.k = f.k) AS n FROM f'],
  ['a correlated scalar on the left of an uncorrelated IN', 'SELECT id FROM f WHERE (SELECT count(*) FROM d WHERE d.k = f.k) IN (SELECT x FROM s)'],
  ['two correlated scalars in HAVING', 'SELECT k, g, count(*) AS c FROM f GROUP BY k, g HAVING (SELECT sum(d.w) FROM d WHERE d.k = f.k) < count(*) OR (SELECT count(*) FROM d WHERE d.k = f.k) > 1'],
  ['correlated in and exists in HAVING, one correlation', 'SELECT k, g, count(*) AS c FROM f GROUP BY k, g HAVING k IN (SELECT d.w FROM d WHERE d.k = f.k AND d.g = f.g) OR EXISTS (SELECT 1 FROM d WHERE d.k = f.k AND d.g = f.g)'],
  ['two correlated marks over groups', 'SELECT k, count(*) AS c, EXISTS (SELECT 1 FROM d WHERE d.k = f.k) AS e, NOT EXISTS (SELECT 1 FROM d WHERE d.w = f.k) AS ne, k IN (SELECT d.w FROM d WHERE d.k = f.k) AS i FROM f GROUP BY k'],
  ['correlated sub-queries in ORDER BY', 'SELECT id, k FROM f ORDER BY (SELECT count(*) FROM d WHERE d.k = f.k) DESC, EXISTS (SELECT 1 FROM d WHERE d.g = f.g AND d.w > 4), id LIMIT 40',
   'SELECT id, k FROM f ORDER BY (SELECT count(*) FROM d WHERE d.k = f.k) DESC, EXISTS (SELECT 1 FROM d WHERE d.g = f.g AND d.w > 4), id LIMIT 40', true],
  ['correlated scalar as a window argument', 'SELECT id, sum((SELECT count(*) FROM d WHERE d.k = f.k)) OVER (PARTITION BY g ORDER BY id) AS s FROM f'],
  ['correlated exists in an inner join ON', 'SELECT f.id, d.name FROM f JOIN d ON f.k = d.k AND EXISTS (SELECT 1 FROM s WHERE s.x = d.w)'],
  ['correlated scalar and in in inner join ONs', 'SELECT f.id, d.name, s.x FROM f JOIN d ON f.k = d.k AND d.w >= (SELECT min(d2.w) FROM d d2 WHERE d2.g = f.g) JOIN s ON s.x = d.k AND f.v NOT IN (SELECT d3.w FROM d d3 WHERE d3.k = s.x)'],
  ['correlated in ON under a LEFT join\'s preserved side', 'SELECT f.id, d.name, s.x FROM f JOIN d ON f.k = d.k AND EXISTS (SELECT 1 FROM s WHERE s.x = f.k) LEFT JOIN s ON s.x = d.w'],
];

// Generated cases (a fixed seed): predicates of every form (IN, NOT IN,
// EXISTS, NOT EXISTS, scalar, correlated by one or two columns with
// conditions of their own, or not) combined in the select list, under OR,
// AND and CASE, and over groups in the select list, HAVING and inside an
// aggregate.
const rnd = (() => {
  let seed = 12345;
  return () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
})();
const pick = (a) => a[Math.floor(rnd() * a.length)];
{
  const corr = ['d.k = f.k', 'd.g = f.g', 'd.w = f.k', 'd.k = f.k AND d.g = f.g'];
  const own = ['', ' AND d.w > 2', ' AND d.name IS NOT NULL', ' AND d.w IS NULL'];
  const vals = [['d.w', 'f.v'], ['d.k', 'f.k'], ['d.k', 'f.id'], ['d.g', 'f.g'], ['d.w', 'f.k']];
  const forms = (sub, v) => [
    `${v[1]} IN (SELECT ${v[0]} ${sub})`,
    `${v[1]} NOT IN (SELECT ${v[0]} ${sub})`,
    `EXISTS (SELECT 1 ${sub})`,
    `NOT EXISTS (SELECT 1 ${sub})`,
    `(SELECT count(*) ${sub}) > 1`,
    `(SELECT max(d.w) ${sub}) >= f.v`,
    `${v[1]} IN (SELECT ${v[0]} FROM d WHERE d.w > 3)`,
    `${v[1]} NOT IN (SELECT ${v[0]} FROM d WHERE d.w < 3)`,
  ];
  for (let n = 0; n < 100; n++) {
    const sub = `FROM d WHERE ${pick(corr)}${pick(own)}`;
    const p = pick(forms(sub, pick(vals))), q = pick(forms(sub, pick(vals)));
    const shape = pick(['select', 'two', 'or', 'and', 'case']);
    const s = shape === 'select' ? `SELECT id, ${p} AS m FROM f`
      : shape === 'two' ? `SELECT id, ${p} AS m, ${q} AS m2 FROM f`
      : shape === 'or' ? `SELECT id FROM f WHERE ${p} OR ${q}`
      : shape === 'and' ? `SELECT id FROM f WHERE ${p} AND (${q})`
      : `SELECT id, CASE WHEN ${p} THEN 1 WHEN NOT (${q}) THEN 2 ELSE 3 END AS c FROM f`;
    CASES.push([`generated ${n}: ${s}`, s]);
  }
  // over groups: correlated by GROUP BY keys only (f.k, f.g)
  const gsubs = ['FROM d WHERE d.k = f.k', 'FROM d WHERE d.k = f.k AND d.w > 2',
                 'FROM d WHERE d.w = f.k', 'FROM d WHERE d.k = f.k AND d.g = f.g'];
  const gforms = (sub, agg) => [
    `f.k IN (SELECT d.w ${sub})`, `f.k NOT IN (SELECT d.w ${sub})`,
    `EXISTS (SELECT 1 ${sub})`, `NOT EXISTS (SELECT 1 ${sub})`,
    `(SELECT count(*) ${sub}) > 1`, `(SELECT sum(d.w) ${sub}) < ${agg ? 'count(*)' : '5'}`,
  ];
  for (let n = 0; n < 60; n++) {
    const shape = pick(['select', 'having', 'in an aggregate']);
    const agg = shape !== 'in an aggregate';
    const p = pick(gforms(pick(gsubs), agg)), q = pick(gforms(pick(gsubs), agg));
    const s = shape === 'select'
      ? `SELECT f.k, f.g, count(*) AS c, ${p} AS m, ${q} AS m2 FROM f GROUP BY f.k, f.g`
      : shape === 'having'
        ? `SELECT f.k, f.g, count(*) AS c FROM f GROUP BY f.k, f.g HAVING ${p} OR ${q}`
        : `SELECT f.g, sum(CASE WHEN ${p} THEN 1 ELSE 0 END) AS c FROM f GROUP BY f.g`;
    CASES.push([`generated over groups ${n}: ${s}`, s]);
  }
}

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
    await joinTables(q, dir, (stmts) => sql(wh, stmts));
    await peer.cases(wh, CASES, q);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  peer.finish();
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
