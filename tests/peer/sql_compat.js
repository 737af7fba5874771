#!/usr/bin/env node
// Hive-partitioned TEXTFILE tables between chive and DuckDB, through
// `chive sql`:
//  1. DuckDB writes a table partitioned by dt and region as \001-delimited
//     text (PARTITION_BY); chive registers it (CREATE EXTERNAL TABLE ...
//     LOCATION, MSCK REPAIR TABLE) and its SELECT returns DuckDB's rows,
//     also pruned to one partition.
//  2. chive INSERTs rows with dynamic partitions; DuckDB reads the table
//     folder with hive_partitioning and gets exactly the rows chive's SELECT
//     returns.
//  3. A table of 365 registered partitions whose folders do not exist:
//     EXPLAIN of a one-day SELECT says partitions=1/365, so planning reads
//     the metastore and lists no partition folder.
//
//   node sql_compat.js CHIVE
//
// Exit 0 on success, 1 on a mismatch, 77 (skipped) without DuckDB.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { execFileSync } = require('child_process');
const { DuckDBInstance } = require('./duckdb_peer.js');

const peer = require('./peer_check.js')('sql_compat.js');
const { chive, check, sql, rowsOf } = peer;
const key = (r) => JSON.stringify([String(r.id), r.name, String(r.amount), String(r.dt), r.region]);

(async () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'chv-sql-compat-'));
  try {
    const wh = path.join(tmp, 'wh');
    const ext = path.join(tmp, 'duck');
    const db = await DuckDBInstance.create(':memory:');
    const con = await db.connect();
    const q = async (s) => (await con.runAndReadAll(s)).getRowObjects();

    // 1. DuckDB writes, chive reads after MSCK REPAIR.
    await q(`COPY (SELECT i AS id,
                     CASE WHEN i % 7 = 0 THEN NULL ELSE 'n' || i END AS name,
                     (i * 1.25)::DECIMAL(10,2) AS amount,
                     '2026-11-' || (20 + i % 3)::VARCHAR AS dt,
                     ['eu', 'us'][1 + i % 2] AS region
              FROM range(200) r(i))
             TO '${ext}' (FORMAT csv, DELIMITER '\x01', NULLSTR '\\N', HEADER false,
                          QUOTE '', PARTITION_BY (dt, region))`);
    const duck = await q(`SELECT id::VARCHAR AS id, name, amount::VARCHAR AS amount,
                                 dt, region FROM read_csv('${ext}/*/*/*.csv',
        delim = chr(1), header = false, quote = '', escape = '', nullstr = '\\N',
        hive_partitioning = true, hive_types = {'dt': 'VARCHAR', 'region': 'VARCHAR'},
        columns = {'id': 'BIGINT', 'name': 'VARCHAR', 'amount': 'DECIMAL(10,2)'})`);
    sql(wh, `CREATE EXTERNAL TABLE ext (id bigint, name string, amount decimal(10,2))
             PARTITIONED BY (dt string, region string) STORED AS TEXTFILE
             LOCATION '${ext}';
             MSCK REPAIR TABLE ext;`);
    const ours = rowsOf(sql(wh, 'SELECT * FROM ext;'));
    const a = ours.map(key).sort(), b = duck.map(key).sort();
    check('duckdb-written rows', a.length === 200 && JSON.stringify(a) === JSON.stringify(b),
          `chive ${a.length} rows, DuckDB ${b.length}`);
    const one = rowsOf(sql(wh, "SELECT * FROM ext WHERE dt = '2026-11-21' AND region = 'us';"));
    const oneDuck = duck.filter((r) => r.dt === '2026-11-21' && r.region === 'us');
    check('pruned rows', one.length > 0 && JSON.stringify(one.map(key).sort()) === JSON.stringify(oneDuck.map(key).sort()),
          `chive ${one.length}, DuckDB ${oneDuck.length}`);

    // 2. chive writes with dynamic partitions, DuckDB reads.
    const values = [];
    for (let i = 0; i < 60; i++)
      values.push(`(${i}, ${i % 5 === 0 ? 'NULL' : `'w${i}'`}, ${(i * 0.5).toFixed(2)}, ` +
                  `'2026-12-0${1 + i % 3}', '${i % 2 ? 'eu' : 'us'}')`);
    sql(wh, `CREATE TABLE mine (id bigint, name string, amount decimal(10,2))
             PARTITIONED BY (dt string, region string);
             INSERT INTO mine VALUES ${values.join(', ')};`);
    const mineRows = rowsOf(sql(wh, 'SELECT * FROM mine;'));
    const loc = path.join(wh, 'mine');
    const duck2 = await q(`SELECT id::VARCHAR AS id, name, amount::VARCHAR AS amount,
                                  dt, region FROM read_csv('${loc}/*/*/part-*',
        delim = chr(1), header = false, quote = '', escape = '', nullstr = '\\N',
        hive_partitioning = true, hive_types = {'dt': 'VARCHAR', 'region': 'VARCHAR'},
        columns = {'id': 'BIGINT', 'name': 'VARCHAR', 'amount': 'DECIMAL(10,2)'})`);
    const c = mineRows.map(key).sort(), d = duck2.map(key).sort();
    check('chive-written rows', c.length === 60 && JSON.stringify(c) === JSON.stringify(d),
          `chive ${c.length} rows, DuckDB ${d.length}`);

    // 3. EXPLAIN prunes through the metastore alone.
    const adds = [];
    for (let i = 0; i < 365; i++) {
      const day = new Date(Date.UTC(2025, 0, 1) + i * 86400000).toISOString().slice(0, 10);
      adds.push(`PARTITION (dt = '${day}') LOCATION '${path.join(tmp, 'nowhere', day)}'`);
    }
    const plan = execFileSync(chive, ['sql', '--warehouse', wh, '-e',
      `CREATE TABLE days (id int) PARTITIONED BY (dt date);
       ALTER TABLE days ADD ${adds.join(' ')};
       EXPLAIN SELECT id FROM days WHERE dt = DATE '2025-07-04';`], { encoding: 'utf8' });
    check('EXPLAIN partitions=1/365', plan.includes('partitions=1/365'), plan.trim());
    check('no partition folder exists', !fs.existsSync(path.join(tmp, 'nowhere')));

    peer.finish();
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
})().catch((e) => { console.error(e); process.exit(1); });
