#!/usr/bin/env node
// A stage's splits read in pieces, checked against DuckDB.  DuckDB writes
// one Parquet file t of 2,000,000 rows in row groups of 50,000, over 16
// MB: one split (Flink's 32 MB block), which a scan whose reader threads
// run a stage (an aggregate, a filter, a join's probe) reads in pieces of
// 8 MB, each taking the row groups whose midpoints lie in it.  Every row
// group must be read once: the aggregates give DuckDB's results on two
// reader threads and on one, and EXPLAIN ANALYZE counts the pieces (the
// file opened once a piece) and all 40 row groups.  A scan a LIMIT ended
// in its first piece still counts the file and row groups it read.
//
//   node stage_pieces_compat.js CHIVE
//
// Exit 0 on success, 1 on a mismatch, 77 (skipped) without DuckDB.
'use strict';
const fs = require('fs');
const path = require('path');
require('./duckdb_peer.js'); // exit 77 without DuckDB

const peer = require('./peer_check.js')('stage_pieces_compat.js');
const { check, sql, rowsOf } = peer;

const PIECE = 8 << 20;

// [name, chive SQL, DuckDB SQL (null: the same)]
const CASES = [
  ['an aggregate with keys',
   'SELECT g, count(*) AS n, sum(id) AS si, min(v) AS lo, max(v) AS hi FROM t GROUP BY g'],
  ['an aggregate without keys',
   'SELECT count(*) AS n, sum(id) AS si, sum(v) AS sv FROM t'],
  ['a filter and an aggregate',
   'SELECT count(*) AS n, sum(v) AS sv FROM t WHERE id % 7 = 3'],
  ['a join probing on the readers',
   'SELECT count(*) AS n, sum(t.v) AS sv, sum(s.w) AS sw FROM t JOIN s ON t.g = s.g'],
];

const VARIANTS = [
  ['', ''],
  [' (one reader thread)', "SET 'table.exec.hive.infer-source-parallelism.max' = '1'; "],
];

peer.withDuckDB('chv-stage-pieces-compat-', async ({ tmp, wh, q }) => {
  const tdir = path.join(tmp, 'data', 't');
  const sdir = path.join(tmp, 'data', 's');
  for (const d of [tdir, sdir]) fs.mkdirSync(d, { recursive: true });
  // v: a multiplicative hash of id, so that the file does not compress
  await q(`CREATE TABLE t AS SELECT i::BIGINT AS id,
             (i * 2654435761 % 4294967291)::BIGINT AS v,
             (i % 1000)::INTEGER AS g
           FROM range(2000000) r(i)`);
  await q(`CREATE TABLE s AS SELECT i::INTEGER AS g, (i * 3)::BIGINT AS w
           FROM range(0, 1000, 3) r(i)`);
  const file = path.join(tdir, 't.parquet');
  await q(`COPY t TO '${file}' (FORMAT parquet, ROW_GROUP_SIZE 50000)`);
  await q(`COPY s TO '${path.join(sdir, 's.parquet')}' (FORMAT parquet)`);
  const size = fs.statSync(file).size;
  const groups = Number((await q(`SELECT count(DISTINCT row_group_id) AS n
                                  FROM parquet_metadata('${file}')`))[0].n);
  check('the file is one split of several pieces',
        size > 2 * PIECE && size < 32 << 20, `${size} bytes`);
  sql(wh, `CREATE EXTERNAL TABLE t (id bigint, v bigint, g int)
             STORED AS PARQUET LOCATION '${tdir}';
           CREATE EXTERNAL TABLE s (g int, w bigint)
             STORED AS PARQUET LOCATION '${sdir}';
           ANALYZE TABLE t COMPUTE STATISTICS;
           ANALYZE TABLE s COMPUTE STATISTICS;`);
  await peer.variantCases(wh, q, CASES, VARIANTS);
  const read = (text) => {
    if (!text.includes('EXPLAIN')) text = 'EXPLAIN ANALYZE ' + text;
    const plan = rowsOf(sql(wh, text + ';')).map((r) => r.plan).join('\n');
    return { plan, m: /Read: files=(\d+) row_groups=(\d+)\/(\d+)/.exec(plan) };
  };
  const pieces = Math.floor(size / PIECE);
  const staged = read('SELECT g, count(*) FROM t GROUP BY g');
  check('a stage reads the split in pieces, every row group',
        staged.m && Number(staged.m[1]) === pieces && Number(staged.m[2]) === groups &&
        Number(staged.m[3]) === groups, `want files=${pieces} row_groups=${groups}: ${staged.plan}`);
  // a LIMIT ends the scan in its first piece: what it read still counts
  const early = read("SET 'table.exec.hive.infer-source-parallelism.max' = '1'; " +
                     'EXPLAIN ANALYZE SELECT id, v FROM t WHERE id > 10 LIMIT 5');
  check('a scan a LIMIT ended counts what it read',
        early.m && Number(early.m[1]) >= 1 && Number(early.m[2]) >= 1, early.plan);
});
