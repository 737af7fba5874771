#!/usr/bin/env node
// The warehouse `chive demo` writes is Hive's layout: DuckDB, reading the
// partition folders with hive_partitioning and the files as \001-delimited
// text, must find the very rows chive reads back through its catalog.
//
//   node demo_compat.js CHIVE
//
// Exit 0 on success, 1 on a mismatch, 77 (skipped) without DuckDB.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { execFileSync } = require('child_process');

const { DuckDBInstance } = require('./duckdb_peer');
const chive = process.argv[2];
if (!chive) {
  console.error('usage: demo_compat.js CHIVE');
  process.exit(2);
}

(async () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'chv-demo-compat-'));
  try {
    const wh = path.join(tmp, 'wh');
    const out = execFileSync(chive, ['demo', wh], { encoding: 'utf8' });
    // The first block of JSON lines is the full table scan.
    const lines = out.split('\n');
    const start = lines.findIndex((l) => l.startsWith('SELECT * FROM demo.page_views ('));
    const ours = [];
    for (let i = start + 1; i < lines.length && lines[i].startsWith('{'); i++)
      ours.push(JSON.parse(lines[i]));

    const db = await DuckDBInstance.create(':memory:');
    const con = await db.connect();
    const glob = path.join(wh, 'demo.db', 'page_views', '*', '*', 'part-*');
    const r = await con.runAndReadAll(`
      SELECT user_id::VARCHAR AS user_id, page, duration_ms::VARCHAR AS duration_ms,
             amount::VARCHAR AS amount, dt::VARCHAR AS dt, country
      FROM read_csv('${glob}', delim = chr(1), header = false, quote = '',
                    escape = '', nullstr = '\\N', hive_partitioning = true,
                    hive_types = {'dt': 'VARCHAR', 'country': 'VARCHAR'},
                    columns = {'user_id': 'BIGINT', 'page': 'VARCHAR',
                               'duration_ms': 'INTEGER', 'amount': 'DECIMAL(10,2)'})`);
    const theirs = r.getRowObjects();
    const key = (o) => JSON.stringify([o.dt, o.country, String(o.user_id), o.page,
                                       String(o.duration_ms), String(o.amount)]);
    const a = ours.map(key).sort();
    const b = theirs.map(key).sort();
    let failures = 0;
    if (a.length !== 6) { console.error(`chive read ${a.length} rows, expected 6`); failures++; }
    if (a.length !== b.length) { console.error(`row counts differ: chive ${a.length}, DuckDB ${b.length}`); failures++; }
    for (let i = 0; i < Math.min(a.length, b.length); i++)
      if (a[i] !== b[i]) { console.error(`row ${i}: chive ${a[i]} DuckDB ${b[i]}`); failures++; }
    console.log(`demo_compat: ${failures ? 0 : 1} passed, ${failures ? 1 : 0} failed (${b.length} rows compared)`);
    process.exit(failures ? 1 : 0);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
})().catch((e) => { console.error(e); process.exit(1); });
