#!/usr/bin/env node
// INSERT OVERWRITE [LOCAL] DIRECTORY read back by DuckDB:
//  1. chive exports a table of 3000 rows (NULLs, decimals, dates, two
//     partitions) as TEXTFILE with Hive's defaults (\001, \N), as Parquet
//     and as ORC; DuckDB reads the text and Parquet files (read_csv,
//     read_parquet) and gets exactly the rows chive's SELECT gives; chive's
//     own reader (`chive dump`) reads the ORC file.
//  2. ROW FORMAT DELIMITED FIELDS TERMINATED BY ',' NULL DEFINED AS ''
//     reads as DuckDB's CSV.
//  3. A query that fails (a damaged file in the table) leaves the folder
//     exported before as it was, with no staging folder beside it.
//
//   node directory_compat.js CHIVE
//
// Exit 0 on success, 1 on a mismatch, 77 (skipped) without DuckDB.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { execFileSync, spawnSync } = require('child_process');
const { DuckDBInstance } = require('./duckdb_peer.js');

const peer = require('./peer_check.js')('directory_compat.js');
const { chive, check, rowsOf } = peer;
function sql(wh, text) {
  const file = path.join(path.dirname(wh), 'script.sql');
  fs.writeFileSync(file, text);
  return execFileSync(chive, ['sql', '--warehouse', wh, '--format', 'jsonl', '-f', file],
                      { encoding: 'utf8', cwd: path.dirname(wh) });
}
const key = (r) => JSON.stringify([String(r.id), r.name === undefined ? null : r.name,
                                   r.amount === null ? null : String(r.amount),
                                   r.d === null ? null : String(r.d), String(r.dt)]);
const sorted = (rows) => rows.map(key).sort();

(async () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'chv-dir-compat-'));
  try {
    const wh = path.join(tmp, 'wh');
    const values = [];
    for (let i = 0; i < 3000; i++) {
      const name = i % 11 === 0 ? 'NULL' : `'n${i}'`;
      const amount = i % 13 === 0 ? 'NULL' : (i * 0.37).toFixed(2);
      const d = i % 17 === 0 ? 'NULL' : `DATE '2026-0${1 + i % 9}-1${i % 10}'`;
      values.push(`(${i}, ${name}, ${amount}, ${d}, '${i % 2 ? 'odd' : 'even'}')`);
    }
    sql(wh, `CREATE TABLE t (id INT, name STRING, amount DECIMAL(10,2), d DATE)
             PARTITIONED BY (dt STRING) STORED AS PARQUET;
             INSERT INTO t VALUES ${values.join(', ')};`);
    const ours = sorted(rowsOf(sql(wh, 'SELECT id, name, amount, d, dt FROM t;')));
    check('3000 rows in the table', ours.length === 3000, `${ours.length}`);
    sql(wh, `INSERT OVERWRITE LOCAL DIRECTORY '${tmp}/text' SELECT id, name, amount, d, dt FROM t;
             INSERT OVERWRITE DIRECTORY '${tmp}/pq' STORED AS PARQUET SELECT id, name, amount, d, dt FROM t;
             INSERT OVERWRITE LOCAL DIRECTORY '${tmp}/orc' STORED AS ORC SELECT id, name, amount, d, dt FROM t;
             INSERT OVERWRITE LOCAL DIRECTORY '${tmp}/csv' ROW FORMAT DELIMITED FIELDS TERMINATED BY ','
               NULL DEFINED AS '' SELECT id, name, amount, d, dt FROM t;`);

    const db = await DuckDBInstance.create(':memory:');
    const con = await db.connect();
    const q = async (s) => (await con.runAndReadAll(s)).getRowObjects();
    const cols = `columns = {'id': 'INTEGER', 'name': 'VARCHAR', 'amount': 'DECIMAL(10,2)',
                             'd': 'DATE', 'dt': 'VARCHAR'}`;
    const text = await q(`SELECT id::VARCHAR AS id, name, amount::VARCHAR AS amount,
                                 d::VARCHAR AS d, dt
                          FROM read_csv('${tmp}/text/000000_0', delim = chr(1), header = false,
                                        quote = '', escape = '', nullstr = '\\N', ${cols})`);
    check('TEXTFILE read by DuckDB', JSON.stringify(sorted(text)) === JSON.stringify(ours),
          `DuckDB ${text.length} rows`);
    const pq = await q(`SELECT id::VARCHAR AS id, name, amount::VARCHAR AS amount,
                               d::VARCHAR AS d, dt FROM read_parquet('${tmp}/pq/000000_0')`);
    check('PARQUET read by DuckDB', JSON.stringify(sorted(pq)) === JSON.stringify(ours),
          `DuckDB ${pq.length} rows`);
    const csv = await q(`SELECT id::VARCHAR AS id, name, amount::VARCHAR AS amount,
                                d::VARCHAR AS d, dt
                         FROM read_csv('${tmp}/csv/000000_0', delim = ',', header = false,
                                       quote = '', escape = '', nullstr = '', ${cols})`);
    check('ROW FORMAT DELIMITED read by DuckDB', JSON.stringify(sorted(csv)) === JSON.stringify(ours),
          `DuckDB ${csv.length} rows`);
    const dump = execFileSync(chive, ['dump', `${tmp}/orc/000000_0`], { encoding: 'utf8' });
    const orc = rowsOf(dump).map((r) => ({ ...r, amount: r.amount === null ? null : Number(r.amount).toFixed(2) }));
    check('ORC read by chive dump', JSON.stringify(sorted(orc)) === JSON.stringify(ours),
          `chive dump ${orc.length} rows`);
    check('one file in each folder', ['text', 'pq', 'orc', 'csv'].every(
      (d) => JSON.stringify(fs.readdirSync(path.join(tmp, d))) === '["000000_0"]'));

    // 3. A failing query leaves the old folder.
    const before = fs.readFileSync(`${tmp}/pq/000000_0`);
    const part = fs.readdirSync(path.join(wh, 't')).find((n) => n.startsWith('dt=odd'));
    fs.writeFileSync(path.join(wh, 't', part, 'damaged'), 'not a parquet file at all');
    const r = spawnSync(chive, ['sql', '--warehouse', wh, '-e',
      `INSERT OVERWRITE DIRECTORY '${tmp}/pq' STORED AS PARQUET SELECT id, name, amount, d, dt FROM t;`],
      { encoding: 'utf8' });
    check('the failing export fails', r.status === 1 && /damaged/.test(r.stderr), r.stderr);
    check('the old folder stays', Buffer.compare(before, fs.readFileSync(`${tmp}/pq/000000_0`)) === 0 &&
          fs.readdirSync(path.join(tmp, 'pq')).length === 1);
    const left = fs.readdirSync(tmp).filter((n) => n.startsWith('.'));  // beside pq
    check('no staging folder left', left.length === 0, left.join(' '));

    peer.finish();
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
})().catch((e) => { console.error(e); process.exit(1); });
