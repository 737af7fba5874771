#!/usr/bin/env node
// A join's table made in parts on several threads, checked against DuckDB.
// DuckDB writes a build table b of 100,000 rows in four Parquet files (so
// that chive reads it on two threads and makes the table of a join in
// parts, on a pool of as many threads, once its rows are in) with
// duplicate, NULL and negative integer keys, string keys and a second key,
// and a probe table p of 60,000 rows.  Each join kind runs on chive as it
// is, with one reader thread (the table made once the rows are in, in one
// part), and with an operator memory so small that the join partitions
// its sides to spill files; all three must give DuckDB's rows.  EXPLAIN
// ANALYZE must say the table was made in parts on two threads (when the
// machine has two CPUs).
//
//   node join_build_compat.js CHIVE
//
// Exit 0 on success, 1 on a mismatch, 77 (skipped) without DuckDB.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
require('./duckdb_peer.js'); // exit 77 without DuckDB

const peer = require('./peer_check.js')('join_build_compat.js');
const { check, sql, rowsOf } = peer;

// [name, chive SQL, DuckDB SQL (null: the same)]; aggregates keep the
// results small, a GROUP BY keeps them telling
const CASES = [
  ['inner, integer key',
   'SELECT p.k % 100 AS g, count(*) AS n, sum(b.v) AS sv, sum(p.id) AS si FROM p JOIN b ON p.k = b.k GROUP BY p.k % 100'],
  ['inner, two keys',
   'SELECT count(*) AS n, sum(b.v) AS sv, min(p.id) AS lo FROM p JOIN b ON p.k = b.k AND p.k2 = b.k2'],
  // two integer keys are packed into one while their values take 32 bits:
  // a probe value past them matches nothing (not the build value of its low
  // bits), a build value past them makes the table of the keys' bytes
  ['inner, two keys, probe values past 32 bits',
   'SELECT count(*) AS n, sum(b.id) AS si, sum(p.w) AS sw FROM p JOIN b ON p.k = b.k AND p.w = b.v32'],
  ['inner, two keys, a build value past 32 bits',
   'SELECT count(*) AS n, sum(b.id) AS si, sum(p.w) AS sw FROM p JOIN b ON p.k = b.k AND p.w = b.w'],
  ['left anti, two keys, a build value past 32 bits',
   'SELECT count(*) AS n, sum(p.id) AS si FROM p LEFT ANTI JOIN b ON p.w = b.w AND p.k = b.k',
   'SELECT count(*) AS n, sum(p.id) AS si FROM p ANTI JOIN b ON p.w = b.w AND p.k = b.k'],
  ['inner, string key',
   'SELECT substr(p.s, 1, 3) AS g, count(*) AS n, sum(b.id) AS si FROM p JOIN b ON p.s = b.s GROUP BY substr(p.s, 1, 3)'],
  ['inner, residual condition',
   'SELECT count(*) AS n, sum(b.v - p.id) AS d FROM p JOIN b ON p.k = b.k AND b.v > p.id * 3'],
  ['left outer, probe side kept',
   'SELECT b.k IS NULL AS unmatched, count(*) AS n, sum(p.id) AS si FROM p LEFT JOIN b ON p.k = b.k GROUP BY b.k IS NULL'],
  ['right outer, build side kept',
   'SELECT p.id IS NULL AS unmatched, count(*) AS n, sum(b.id) AS si FROM p RIGHT JOIN b ON p.k = b.k GROUP BY p.id IS NULL'],
  ['full outer',
   'SELECT p.id IS NULL AS lp, b.id IS NULL AS lb, count(*) AS n FROM p FULL JOIN b ON p.k = b.k AND p.k2 = b.k2 GROUP BY p.id IS NULL, b.id IS NULL'],
  ['left semi',
   'SELECT count(*) AS n, sum(p.id) AS si FROM p LEFT SEMI JOIN b ON p.s = b.s',
   'SELECT count(*) AS n, sum(p.id) AS si FROM p SEMI JOIN b ON p.s = b.s'],
  ['left anti',
   'SELECT count(*) AS n, sum(p.id) AS si FROM p LEFT ANTI JOIN b ON p.k = b.k AND p.k2 = b.k2',
   'SELECT count(*) AS n, sum(p.id) AS si FROM p ANTI JOIN b ON p.k = b.k AND p.k2 = b.k2'],
  ['NOT IN, a NULL key built',
   'SELECT count(*) AS n FROM p WHERE p.k NOT IN (SELECT k FROM b)'],
  ['NOT IN, no NULL key built',
   'SELECT count(*) AS n, sum(p.id) AS si FROM p WHERE p.k NOT IN (SELECT k FROM b WHERE k IS NOT NULL)'],
  ['IN',
   'SELECT count(*) AS n, sum(p.id) AS si FROM p WHERE p.k IN (SELECT k FROM b WHERE v % 3 = 0)'],
  // a WITH query named twice: its rows held (by default), or run twice
  // (spilled: past the memory)
  ['a WITH query named twice',
   'WITH w AS (SELECT k, count(*) AS n, max(s) AS m FROM b GROUP BY k) SELECT w.k, w.n, w.m, p.id FROM w JOIN p ON w.k = p.k WHERE w.n = (SELECT max(n) FROM w)'],
  // the rows themselves, in no order: every build row of a key
  ['inner, the rows', 'SELECT p.id, b.id AS bid, b.s FROM p JOIN b ON p.k = b.k WHERE p.id < 3000'],
];

const VARIANTS = [
  ['', ''],
  [' (one reader thread)', "SET 'table.exec.hive.infer-source-parallelism.max' = '1'; "],
  [' (spilled)', "SET 'chive.exec.operator-memory' = '1mb'; "],
];

peer.withDuckDB('chv-join-build-compat-', async ({ tmp, wh, q }) => {
  const bdir = path.join(tmp, 'data', 'b');
  const pdir = path.join(tmp, 'data', 'p');
  for (const d of [bdir, pdir]) fs.mkdirSync(d, { recursive: true });
  await q(`CREATE TABLE b AS SELECT i::INTEGER AS id,
             CASE WHEN i % 97 = 0 THEN NULL ELSE (i % 40000 - 2000)::INTEGER END AS k,
             (i % 7)::BIGINT AS k2,
             CASE WHEN i % 89 = 0 THEN NULL ELSE 's' || (i % 30000)::VARCHAR END AS s,
             (i * 7 % 100003)::BIGINT AS v,
             (i % 1000)::BIGINT AS v32,
             CASE WHEN i = 77777 THEN 5000000000 ELSE i % 1000 END::BIGINT AS w
           FROM range(100000) r(i)`);
  await q(`CREATE TABLE p AS SELECT i::INTEGER AS id,
             CASE WHEN i % 101 = 0 THEN NULL ELSE (i % 50000 - 5000)::INTEGER END AS k,
             (i % 5)::BIGINT AS k2,
             CASE WHEN i % 83 = 0 THEN NULL ELSE 's' || (i % 45000)::VARCHAR END AS s,
             CASE WHEN i % 7 = 0 THEN (i % 1000) + 4294967296
                  WHEN i = 40777 THEN 5000000000 ELSE i % 1000 END::BIGINT AS w
           FROM range(60000) r(i)`);
  for (let f = 0; f < 4; f++)
    await q(`COPY (SELECT * FROM b WHERE id % 4 = ${f} ORDER BY id)
             TO '${path.join(bdir, `b${f}.parquet`)}' (FORMAT parquet)`);
  for (let f = 0; f < 2; f++)
    await q(`COPY (SELECT * FROM p WHERE id % 2 = ${f} ORDER BY id)
             TO '${path.join(pdir, `p${f}.parquet`)}' (FORMAT parquet)`);
  sql(wh, `CREATE EXTERNAL TABLE b (id int, k int, k2 bigint, s string, v bigint,
             v32 bigint, w bigint)
             STORED AS PARQUET LOCATION '${bdir}';
           CREATE EXTERNAL TABLE p (id int, k int, k2 bigint, s string, w bigint)
             STORED AS PARQUET LOCATION '${pdir}';
           ANALYZE TABLE b COMPUTE STATISTICS;
           ANALYZE TABLE p COMPUTE STATISTICS;`);
  await peer.variantCases(wh, q, CASES, VARIANTS);
  // b's table is the one made in parts (b builds: it is read on two
  // threads, and so is p, which probes on its readers)
  if (os.cpus().length >= 2) {
    const plan = rowsOf(sql(wh, 'EXPLAIN ANALYZE SELECT count(*) FROM p JOIN b ON p.k = b.k;'))
      .map((r) => r.plan).join('\n');
    check('the table made in parts on two threads',
          /build=right .*\n\s*table: made in \d+ parts on 2 threads/.test(plan), plan);
    const one = rowsOf(sql(wh, "SET 'table.exec.hive.infer-source-parallelism.max' = '1'; " +
                           'EXPLAIN ANALYZE SELECT count(*) FROM p JOIN b ON p.k = b.k;'))
      .map((r) => r.plan).join('\n');
    check('one reader thread: one part', !/table: made in/.test(one), one);
    const spilled = rowsOf(sql(wh, "SET 'chive.exec.operator-memory' = '1mb'; " +
                               'EXPLAIN ANALYZE SELECT count(*) FROM p JOIN b ON p.k = b.k;'))
      .map((r) => r.plan).join('\n');
    check('a small memory: partitioned to spill files',
          /Hash Join Inner.*spilled=/.test(spilled), spilled);
  }
  // a WITH query named twice is run once and its rows held, when they fit
  // the operator memory; past it, and in a plan only explained, each
  // reference runs it
  const twice = 'WITH w AS (SELECT k, count(*) AS n, max(s) AS m FROM b GROUP BY k) ' +
                'SELECT count(*) FROM w a JOIN w c ON a.k = c.k WHERE a.n = (SELECT max(n) FROM w);';
  const held = rowsOf(sql(wh, 'EXPLAIN ANALYZE ' + twice)).map((r) => r.plan).join('\n');
  const nheld = (held.match(/Values: \d+ rows of WITH query w, held/g) || []).length;
  check('a WITH query named three times: held for each', nheld === 2, held);
  check('a WITH query held: b read once', (held.match(/Scan default\.b:/g) || []).length === 0, held);
  const big = rowsOf(sql(wh, "SET 'chive.exec.operator-memory' = '256kb'; EXPLAIN ANALYZE " + twice))
    .map((r) => r.plan).join('\n');
  check('a WITH query past the memory: run for each reference',
        !/held/.test(big) && (big.match(/Scan default\.b:/g) || []).length === 2, big);
  const plan = rowsOf(sql(wh, 'EXPLAIN ' + twice)).map((r) => r.plan).join('\n');
  check('a WITH query in a plan explained: not run', !/held/.test(plan), plan);
});
