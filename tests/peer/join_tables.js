// The tables the join and sub-query compatibility scripts share: f (300
// rows, NULLs in k, v and g), d (a dimension with duplicate and NULL keys),
// s (a few keys, a BIGINT), p (partitioned by pk) and w (keys of every
// integer width and DATE, negative and NULL ones too), written by DuckDB as
// Parquet and registered in chive's warehouse.
//
//   await joinTables(q, dir, sql)
//
// q runs DuckDB SQL, dir(name) gives a new folder for a table's files, and
// sql runs chive SQL on the warehouse.
'use strict';
const path = require('path');

module.exports = async function joinTables(q, dir, sql) {
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
  await q(`CREATE TABLE w AS SELECT i::INTEGER AS id,
             CASE WHEN i % 7 = 0 THEN NULL ELSE (i % 9 - 4)::TINYINT END AS t8,
             CASE WHEN i % 5 = 0 THEN NULL ELSE (i % 13 * 1000 - 6000)::SMALLINT END AS t16,
             CASE WHEN i % 6 = 0 THEN NULL ELSE (i % 11 * 3000000000 - 15000000000)::BIGINT END AS t64,
             CASE WHEN i % 8 = 0 THEN NULL ELSE DATE '1969-12-25' + (i % 10)::INTEGER END AS dt
           FROM range(120) r(i)`);
  for (const t of ['f', 'd', 's', 'w'])
    await q(`COPY ${t} TO '${path.join(dir(t), t + '.parquet')}' (FORMAT parquet)`);
  await q(`COPY p TO '${dir('p')}' (FORMAT parquet, PARTITION_BY (pk))`);
  sql(`CREATE EXTERNAL TABLE f (id int, k int, v int, g string) STORED AS PARQUET
         LOCATION '${dir('f')}';
       CREATE EXTERNAL TABLE d (k int, name string, w int, g string) STORED AS PARQUET
         LOCATION '${dir('d')}';
       CREATE EXTERNAL TABLE s (x int, big bigint) STORED AS PARQUET
         LOCATION '${dir('s')}';
       CREATE EXTERNAL TABLE w (id int, t8 tinyint, t16 smallint, t64 bigint, dt date)
         STORED AS PARQUET LOCATION '${dir('w')}';
       CREATE EXTERNAL TABLE p (pv int) PARTITIONED BY (pk int) STORED AS PARQUET
         LOCATION '${dir('p')}';
       MSCK REPAIR TABLE p;`);
};
