#!/usr/bin/env node
// Window functions, each run by chive and by DuckDB over the same Parquet
// file (DuckDB writes it, with NULLs in the partition keys, the order keys
// and the values, and ties in the order keys), and their rows compared as
// a multiset (in order where the query orders them).  Every query's
// result is deterministic: where ties would leave ROW_NUMBER, NTILE, LAG,
// LEAD, FIRST_VALUE or a ROWS frame to the order the rows came in, id
// breaks them.  Each case gives chive's SQL and DuckDB's where the
// dialects differ: Hive orders NULLs first for ASC and last for DESC
// (DuckDB: last for both), FIRST_VALUE(x, true) is DuckDB's
// FIRST_VALUE(x IGNORE NULLS).
//
//   node window_compat.js CHIVE
//
// Exit 0 on success, 1 on a mismatch, 77 (skipped) without DuckDB.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { DuckDBInstance } = require('./duckdb_peer.js');

const peer = require('./peer_check.js')('window_compat.js');
const { sql } = peer;

// DuckDB's text of chive's: ASC keys NULLS FIRST (Hive's), DESC keys
// NULLS LAST, written out; Hive's skip-NULLs argument as IGNORE NULLS.
const duck = (s) => s
  .replace(/ORDER BY ([^)]*?)(?=\)| ROWS| RANGE| LIMIT|$)/g, (m, keys) =>
    'ORDER BY ' + keys.split(', ').map((key) => /NULLS/.test(key) ? key
      : / DESC$/.test(key) ? key + ' NULLS LAST' : key + ' NULLS FIRST').join(', '))
  .replace(/(first_value|last_value)\((\w+), true\)/g, '$1($2 IGNORE NULLS)');

// [name, chive SQL, DuckDB SQL (null: duck(chive's)), ordered]
const W = '(PARTITION BY k ORDER BY v, id)';
const CASES = [
  ['row_number', `SELECT id, k, v, row_number() OVER ${W} AS rn FROM t`],
  ['row_number, no partition', 'SELECT id, row_number() OVER (ORDER BY v DESC, id) AS rn FROM t'],
  ['rank, dense_rank (ties, NULL keys)',
   'SELECT id, rank() OVER (PARTITION BY k ORDER BY v) AS r, dense_rank() OVER (PARTITION BY k ORDER BY v) AS d FROM t'],
  ['rank desc', 'SELECT id, rank() OVER (PARTITION BY k ORDER BY v DESC) AS r FROM t'],
  ['percent_rank, cume_dist',
   'SELECT id, percent_rank() OVER (PARTITION BY k ORDER BY v) AS p, cume_dist() OVER (PARTITION BY k ORDER BY v) AS c FROM t'],
  ['ntile', `SELECT id, ntile(3) OVER ${W} AS a, ntile(7) OVER (ORDER BY id) AS b, ntile(200) OVER (ORDER BY id) AS c FROM t`],
  ['lag, lead', `SELECT id, lag(v) OVER ${W} AS a, lag(v, 2, -1) OVER ${W} AS b, lead(v) OVER ${W} AS c, lead(v, 3, 0) OVER ${W} AS d, lag(v, 0) OVER ${W} AS e FROM t`],
  ['lag of a string', 'SELECT id, lag(k, 1, \'none\') OVER (ORDER BY id) AS a, lead(k) OVER (ORDER BY id) AS b FROM t'],
  ['first_value, last_value (default frame)',
   `SELECT id, first_value(v) OVER ${W} AS f, last_value(v) OVER ${W} AS l FROM t`],
  ['first_value, last_value (ties: peers)',
   'SELECT id, first_value(v) OVER (PARTITION BY k ORDER BY v DESC) AS f, last_value(v) OVER (PARTITION BY k ORDER BY v) AS l FROM t'],
  ['first_value, last_value over rows',
   `SELECT id, first_value(v) OVER (PARTITION BY k ORDER BY id ROWS BETWEEN 1 PRECEDING AND 2 FOLLOWING) AS f, last_value(v) OVER (PARTITION BY k ORDER BY id ROWS BETWEEN 1 PRECEDING AND 2 FOLLOWING) AS l FROM t`],
  ['first_value, last_value skipping NULLs',
   'SELECT id, first_value(v, true) OVER (PARTITION BY k ORDER BY id) AS f, last_value(v, true) OVER (PARTITION BY k ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS l, last_value(v, true) OVER (PARTITION BY k ORDER BY id ROWS BETWEEN 3 PRECEDING AND 1 PRECEDING) AS m FROM t'],
  ['aggregates over the partition',
   'SELECT id, count(*) OVER (PARTITION BY k) AS n, count(v) OVER (PARTITION BY k) AS c, sum(v) OVER (PARTITION BY k) AS s, avg(v) OVER (PARTITION BY k) AS a, min(v) OVER (PARTITION BY k) AS mi, max(v) OVER (PARTITION BY k) AS ma, count(DISTINCT v) OVER (PARTITION BY k) AS d FROM t'],
  ['aggregates over everything', 'SELECT id, count(*) OVER () AS n, sum(x) OVER () AS s, max(k) OVER () AS m FROM t'],
  ['running aggregates (RANGE: peers)',
   'SELECT id, count(*) OVER (PARTITION BY k ORDER BY v) AS n, sum(v) OVER (PARTITION BY k ORDER BY v) AS s, avg(x) OVER (PARTITION BY k ORDER BY v) AS a, min(v) OVER (PARTITION BY k ORDER BY v DESC) AS mi, max(k) OVER (ORDER BY v) AS ma FROM t'],
  ['rows frames, sliding',
   'SELECT id, sum(v) OVER (PARTITION BY k ORDER BY id ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS s, count(v) OVER (PARTITION BY k ORDER BY id ROWS BETWEEN 1 FOLLOWING AND 3 FOLLOWING) AS c, avg(v) OVER (ORDER BY id ROWS BETWEEN 3 PRECEDING AND 3 FOLLOWING) AS a, sum(x) OVER (ORDER BY id ROWS BETWEEN 5 PRECEDING AND 2 PRECEDING) AS sx, count(*) OVER (ORDER BY id ROWS 4 PRECEDING) AS n FROM t'],
  ['rows frames, min and max',
   'SELECT id, min(v) OVER (PARTITION BY k ORDER BY id ROWS BETWEEN 2 PRECEDING AND 2 FOLLOWING) AS mi, max(v) OVER (PARTITION BY k ORDER BY id ROWS BETWEEN CURRENT ROW AND 3 FOLLOWING) AS ma, count(DISTINCT v) OVER (ORDER BY id ROWS BETWEEN 10 PRECEDING AND CURRENT ROW) AS d FROM t'],
  ['frames to the end',
   'SELECT id, sum(v) OVER (PARTITION BY k ORDER BY id ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) AS a, sum(v) OVER (PARTITION BY k ORDER BY v RANGE BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) AS b, max(v) OVER (PARTITION BY k ORDER BY v RANGE BETWEEN CURRENT ROW AND CURRENT ROW) AS c, min(v) OVER (PARTITION BY k ORDER BY id ROWS BETWEEN 2 FOLLOWING AND UNBOUNDED FOLLOWING) AS d FROM t'],
  ['unbounded rows', 'SELECT id, sum(v) OVER (PARTITION BY k ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS a, count(*) OVER (PARTITION BY k ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS b FROM t'],
  ['window over a group by',
   'SELECT k, sum(v) AS s, rank() OVER (ORDER BY sum(v) DESC) AS r, sum(sum(v)) OVER () AS total, count(*) AS n FROM t GROUP BY k',
   'SELECT k, sum(v) AS s, rank() OVER (ORDER BY sum(v) DESC NULLS LAST) AS r, sum(sum(v)) OVER () AS total, count(*) AS n FROM t GROUP BY k'],
  ['window over having',
   'SELECT k, count(*) AS n, row_number() OVER (ORDER BY count(*), k) AS rn FROM t GROUP BY k HAVING count(*) > 20',
   'SELECT k, count(*) AS n, row_number() OVER (ORDER BY count(*), k NULLS FIRST) AS rn FROM t GROUP BY k HAVING count(*) > 20'],
  ['named window', `SELECT id, rank() OVER w AS r, sum(v) OVER w AS s, lag(id) OVER (w2 ORDER BY id) AS l FROM t WINDOW w AS (PARTITION BY k ORDER BY v), w2 AS (PARTITION BY k)`,
   'SELECT id, rank() OVER w AS r, sum(v) OVER w AS s, lag(id) OVER (PARTITION BY k ORDER BY id) AS l FROM t WINDOW w AS (PARTITION BY k ORDER BY v NULLS FIRST)'],
  ['windows of several sorts', 'SELECT id, row_number() OVER (ORDER BY id) AS a, sum(v) OVER (PARTITION BY k) AS b, rank() OVER (PARTITION BY k ORDER BY v) AS c, dense_rank() OVER (ORDER BY x DESC) AS d FROM t'],
  ['ordered by a window', 'SELECT id, row_number() OVER (ORDER BY v DESC, id) AS rn FROM t ORDER BY rn LIMIT 10', null, true],
  ['expressions of windows', 'SELECT id, v - lag(v) OVER (ORDER BY id) AS d, 100 * rank() OVER (ORDER BY v) + 1 AS r FROM t WHERE v > 10'],
  ['top-N: row_number <= 2',
   'SELECT * FROM (SELECT k, id, v, row_number() OVER (PARTITION BY k ORDER BY v DESC, id) AS rn FROM t) s WHERE rn <= 2'],
  ['top-N: rank < 3', 'SELECT * FROM (SELECT k, id, rank() OVER (PARTITION BY k ORDER BY v) AS r FROM t) s WHERE r < 3'],
  ['top-N: = 1, dense_rank', 'SELECT k, id FROM (SELECT k, id, dense_rank() OVER (PARTITION BY k ORDER BY v DESC) AS r FROM t) s WHERE r = 1 AND id > 3'],
  ['top-N with a running sum', 'SELECT * FROM (SELECT id, row_number() OVER (PARTITION BY k ORDER BY id) AS rn, sum(v) OVER (PARTITION BY k ORDER BY id ROWS UNBOUNDED PRECEDING) AS s FROM t) s WHERE rn <= 3'],
  // RANGE frames with offsets over one key of each type (table r): NULL
  // keys are peers of each other only, in the order NULLS FIRST or LAST
  // puts them; ties in the keys; empty frames
  ['range, int key', 'SELECT id, sum(v) OVER (PARTITION BY k ORDER BY n RANGE BETWEEN 2 PRECEDING AND 1 FOLLOWING) AS s, count(*) OVER (PARTITION BY k ORDER BY n RANGE BETWEEN 2 PRECEDING AND 1 FOLLOWING) AS c, count(v) OVER (PARTITION BY k ORDER BY n RANGE 3 PRECEDING) AS cv, avg(v) OVER (PARTITION BY k ORDER BY n RANGE BETWEEN 1 PRECEDING AND 1 FOLLOWING) AS a, min(v) OVER (PARTITION BY k ORDER BY n RANGE BETWEEN 4 PRECEDING AND 2 FOLLOWING) AS mi, max(v) OVER (PARTITION BY k ORDER BY n RANGE BETWEEN 0 PRECEDING AND 5 FOLLOWING) AS ma FROM r'],
  ['range, int key desc', 'SELECT id, sum(v) OVER (PARTITION BY k ORDER BY n DESC RANGE BETWEEN 1 PRECEDING AND 3 FOLLOWING) AS s, max(v) OVER (ORDER BY n DESC RANGE BETWEEN CURRENT ROW AND 2 FOLLOWING) AS m, count(*) OVER (ORDER BY n DESC RANGE BETWEEN 3 PRECEDING AND CURRENT ROW) AS c FROM r'],
  ['range, NULLS FIRST and LAST with unbounded ends', 'SELECT id, sum(v) OVER (ORDER BY n NULLS LAST RANGE BETWEEN UNBOUNDED PRECEDING AND 2 PRECEDING) AS a, count(*) OVER (ORDER BY n NULLS FIRST RANGE BETWEEN UNBOUNDED PRECEDING AND 2 PRECEDING) AS b, sum(v) OVER (ORDER BY n DESC NULLS FIRST RANGE BETWEEN 1 FOLLOWING AND UNBOUNDED FOLLOWING) AS c, count(v) OVER (PARTITION BY k ORDER BY n DESC NULLS LAST RANGE BETWEEN 2 FOLLOWING AND UNBOUNDED FOLLOWING) AS d, min(v) OVER (ORDER BY n RANGE BETWEEN 3 FOLLOWING AND UNBOUNDED FOLLOWING) AS e FROM r'],
  ['range, empty frames', 'SELECT id, sum(v) OVER (PARTITION BY k ORDER BY n RANGE BETWEEN 3 PRECEDING AND 2 PRECEDING) AS a, count(*) OVER (PARTITION BY k ORDER BY n RANGE BETWEEN 1 FOLLOWING AND 2 FOLLOWING) AS b, max(v) OVER (ORDER BY n DESC RANGE BETWEEN 4 FOLLOWING AND 6 FOLLOWING) AS c FROM r'],
  ['range, bigint key', 'SELECT id, count(*) OVER (ORDER BY b RANGE BETWEEN 3000000000000 PRECEDING AND 1000000000000 FOLLOWING) AS c, sum(v) OVER (PARTITION BY k ORDER BY b DESC RANGE BETWEEN 5000000000000 PRECEDING AND CURRENT ROW) AS s FROM r'],
  ['range, decimal key', 'SELECT id, count(*) OVER (ORDER BY d RANGE BETWEEN 1.5 PRECEDING AND 0.25 FOLLOWING) AS c, sum(v) OVER (PARTITION BY k ORDER BY d DESC RANGE BETWEEN 2 PRECEDING AND 1.75 FOLLOWING) AS s, min(v) OVER (ORDER BY d RANGE BETWEEN CURRENT ROW AND 0.5 FOLLOWING) AS m FROM r'],
  ['range, double key', 'SELECT id, count(*) OVER (ORDER BY x RANGE BETWEEN 0.5 PRECEDING AND 1 FOLLOWING) AS c, sum(v) OVER (PARTITION BY k ORDER BY x DESC RANGE BETWEEN 1.5 PRECEDING AND 0.5 FOLLOWING) AS s, avg(v) OVER (ORDER BY x RANGE BETWEEN 2e0 PRECEDING AND CURRENT ROW) AS a FROM r'],
  ['range, date key, intervals', "SELECT id, count(*) OVER (ORDER BY dt RANGE BETWEEN INTERVAL '3' DAY PRECEDING AND INTERVAL 1 DAY FOLLOWING) AS c, sum(v) OVER (PARTITION BY k ORDER BY dt RANGE BETWEEN INTERVAL 1 MONTH PRECEDING AND CURRENT ROW) AS s, max(v) OVER (ORDER BY dt DESC RANGE BETWEEN INTERVAL '2' WEEK PRECEDING AND INTERVAL 1 MONTH FOLLOWING) AS m, count(v) OVER (ORDER BY dt RANGE BETWEEN INTERVAL 12 HOUR PRECEDING AND INTERVAL 36 HOUR FOLLOWING) AS h FROM r"],
  ['range, timestamp key, intervals', "SELECT id, count(*) OVER (ORDER BY ts RANGE BETWEEN INTERVAL 2 HOURS PRECEDING AND INTERVAL '30' MINUTE FOLLOWING) AS c, sum(v) OVER (PARTITION BY k ORDER BY ts DESC RANGE BETWEEN INTERVAL 1 DAY PRECEDING AND CURRENT ROW) AS s, count(v) OVER (ORDER BY ts RANGE BETWEEN INTERVAL 1 YEAR PRECEDING AND INTERVAL 1 MONTH PRECEDING) AS y, min(v) OVER (ORDER BY ts RANGE BETWEEN INTERVAL 90 SECOND PRECEDING AND INTERVAL 5 MINUTES FOLLOWING) AS m FROM r"],
  ['range, intervals of two units',
   "SELECT id, count(*) OVER (ORDER BY ts RANGE BETWEEN INTERVAL '1 12' DAY TO HOUR PRECEDING AND INTERVAL '0 01:30' DAY TO MINUTE FOLLOWING) AS c, sum(v) OVER (ORDER BY ts RANGE BETWEEN INTERVAL '1-2' YEAR TO MONTH PRECEDING AND INTERVAL '02:30.5' MINUTE TO SECOND PRECEDING) AS s, count(v) OVER (PARTITION BY k ORDER BY dt DESC RANGE BETWEEN INTERVAL '1:30' HOUR TO MINUTE PRECEDING AND INTERVAL '2 00:00:01' DAY TO SECOND FOLLOWING) AS d FROM r",
   "SELECT id, count(*) OVER (ORDER BY ts NULLS FIRST RANGE BETWEEN INTERVAL '1 day 12 hours' PRECEDING AND INTERVAL '1 hour 30 minutes' FOLLOWING) AS c, sum(v) OVER (ORDER BY ts NULLS FIRST RANGE BETWEEN INTERVAL '1 year 2 months' PRECEDING AND INTERVAL '150.5 seconds' PRECEDING) AS s, count(v) OVER (PARTITION BY k ORDER BY dt DESC NULLS LAST RANGE BETWEEN INTERVAL '1 hour 30 minutes' PRECEDING AND INTERVAL '2 days 1 second' FOLLOWING) AS d FROM r"],
  ['range, first_value and last_value', 'SELECT id, first_value(v) OVER (PARTITION BY k ORDER BY id RANGE BETWEEN 4 PRECEDING AND 2 FOLLOWING) AS f, last_value(v) OVER (PARTITION BY k ORDER BY id RANGE BETWEEN 4 PRECEDING AND 2 FOLLOWING) AS l FROM r'],
  ['range, count distinct', 'SELECT id, count(DISTINCT v) OVER (PARTITION BY k ORDER BY n RANGE BETWEEN 3 PRECEDING AND 3 FOLLOWING) AS d FROM r'],
];

(async () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'chv-window-compat-'));
  try {
    const wh = path.join(tmp, 'wh');
    const file = path.join(tmp, 'data', 't.parquet');
    fs.mkdirSync(path.dirname(file));
    const db = await DuckDBInstance.create(':memory:');
    const con = await db.connect();
    const q = async (s) => (await con.runAndReadAll(s)).getRowObjects();
    await q(`CREATE TABLE t AS SELECT i::INTEGER AS id,
               CASE WHEN i % 9 = 0 THEN NULL ELSE 'k' || (i % 4)::VARCHAR END AS k,
               CASE WHEN i % 7 = 0 THEN NULL ELSE (i * 37 % 13)::INTEGER END AS v,
               CASE WHEN i % 5 = 0 THEN NULL ELSE (i % 11) * 0.5 END::DOUBLE AS x
             FROM range(120) r(i)`);
    await q(`COPY t TO '${file}' (FORMAT parquet)`);
    sql(wh, `CREATE EXTERNAL TABLE t (id int, k string, v int, x double) STORED AS PARQUET
             LOCATION '${path.dirname(file)}';`);
    const rfile = path.join(tmp, 'rdata', 'r.parquet');
    fs.mkdirSync(path.dirname(rfile));
    await q(`CREATE TABLE r AS SELECT i::INTEGER AS id,
               CASE WHEN i % 10 = 0 THEN NULL ELSE 'p' || (i % 3)::VARCHAR END AS k,
               CASE WHEN i % 8 = 0 THEN NULL ELSE (i * 7 % 23)::INTEGER END AS n,
               CASE WHEN i % 9 = 0 THEN NULL ELSE (i * 13 % 31)::BIGINT * 1000000000000 END AS b,
               CASE WHEN i % 7 = 0 THEN NULL ELSE ((i * 17 % 40) * 0.25)::DECIMAL(8,2) END AS d,
               CASE WHEN i % 6 = 0 THEN NULL ELSE (i * 11 % 19) * 0.5 END::DOUBLE AS x,
               CASE WHEN i % 11 = 0 THEN NULL ELSE DATE '2024-01-25' + (i * 5 % 70)::INTEGER END AS dt,
               CASE WHEN i % 12 = 0 THEN NULL ELSE TIMESTAMP '2023-02-28 22:00:00'
                 + to_minutes((i * 47 % 600)::BIGINT) + to_days(((i % 5) * 100)::INTEGER) END AS ts,
               CASE WHEN i % 5 = 0 THEN NULL ELSE (i % 17)::INTEGER END AS v
             FROM range(150) r(i)`);
    await q(`COPY r TO '${rfile}' (FORMAT parquet)`);
    sql(wh, `CREATE EXTERNAL TABLE r (id int, k string, n int, b bigint, d decimal(8,2),
               x double, dt date, ts timestamp, v int) STORED AS PARQUET
             LOCATION '${path.dirname(rfile)}';`);
    await peer.cases(wh, CASES, q, duck);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  peer.finish();
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
