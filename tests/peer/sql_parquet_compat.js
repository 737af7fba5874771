#!/usr/bin/env node
// Hive-partitioned Parquet tables between chive and DuckDB, through
// `chive sql`:
//  1. DuckDB writes a table partitioned by dt and region as Parquet
//     (PARTITION_BY), with nested and temporal columns; chive registers it
//     (CREATE EXTERNAL TABLE ... STORED AS PARQUET LOCATION, MSCK REPAIR
//     TABLE) and its SELECT returns DuckDB's rows, whole and pruned, and a
//     predicate on a data column skips row groups (EXPLAIN).
//  2. chive INSERTs rows with dynamic partitions into a Parquet table (and
//     a CTAS, and LOAD DATA of a DuckDB file); DuckDB reads the table
//     folders with hive_partitioning and gets exactly chive's rows.
//
//   node sql_parquet_compat.js CHIVE
//
// Exit 0 on success, 1 on a mismatch, 77 (skipped) without DuckDB.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { execFileSync } = require('child_process');
const { DuckDBInstance } = require('./duckdb_peer.js');

const peer = require('./peer_check.js')('sql_parquet_compat.js');
const { chive, check, sql, rowsOf } = peer;
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

// One canonical text a row, from chive's JSON Lines or DuckDB's values.
function keyChive(r) {
  return JSON.stringify([String(r.id), r.name, r.amount, r.d, r.ts, r.tags,
                         r.dt, r.region]);
}
function keyDuck(r) {
  return JSON.stringify([String(r.id), r.name, r.amount, r.d, r.ts,
                         r.tags === null ? null : JSON.parse(r.tags), r.dt, r.region]);
}

(async () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'chv-pq-compat-'));
  try {
    const wh = path.join(tmp, 'wh');
    const ext = path.join(tmp, 'duck');
    const db = await DuckDBInstance.create(':memory:');
    const con = await db.connect();
    const q = async (s) => (await con.runAndReadAll(s)).getRowObjects();
    await q('SET threads = 1');
    const gen = `SELECT i::BIGINT AS id,
                   CASE WHEN i % 7 = 0 THEN NULL ELSE 'n' || i END AS name,
                   (i * 1.25)::DECIMAL(10,2) AS amount,
                   DATE '2026-01-01' + (i % 40)::INTEGER AS d,
                   TIMESTAMP '2026-01-01 10:00:00' + to_microseconds(i * 1500) AS ts,
                   CASE WHEN i % 5 = 0 THEN NULL ELSE [i, i + 1] END AS tags,
                   '2026-11-' || (20 + i // 1000)::VARCHAR AS dt,
                   ['eu', 'us'][1 + (i // 500) % 2] AS region
                 FROM range(3000) r(i)`;
    // each file holds 500 consecutive ids, so that a predicate on id can
    // rule out row groups by their statistics
    await q(`COPY (${gen} ORDER BY i) TO '${ext}'
             (FORMAT parquet, PARTITION_BY (dt, region), ROW_GROUP_SIZE 100)`);
    const duckView = `SELECT id::VARCHAR AS id, name, amount::VARCHAR AS amount,
                        d::VARCHAR AS d, strftime(ts, '%Y-%m-%d %H:%M:%S.%f') AS ts,
                        to_json(tags)::VARCHAR AS tags, dt, region`;
    const fixTs = (r) => ({ ...r, ts: r.ts === null ? null : r.ts.replace(/\.?0+$/, '').replace(/\.$/, '') });
    const duck = (await q(`${duckView} FROM read_parquet('${ext}/*/*/*.parquet',
        hive_partitioning = true, hive_types = {'dt': 'VARCHAR', 'region': 'VARCHAR'})`)).map(fixTs);
    sql(wh, `CREATE EXTERNAL TABLE ext (id bigint, name string, amount decimal(10,2),
               d date, ts timestamp, tags array<bigint>)
             PARTITIONED BY (dt string, region string) STORED AS PARQUET
             LOCATION '${ext}';
             MSCK REPAIR TABLE ext;`);
    const ours = rowsOf(sql(wh, 'SELECT * FROM ext;'));
    const a = ours.map(keyChive).sort(), b = duck.map(keyDuck).sort();
    check('duckdb-written rows', a.length === 3000 && same(a, b),
          `chive ${a.length} rows, DuckDB ${b.length}; first differing: ` +
          `${a.find((x, i) => x !== b[i])} vs ${b.find((x, i) => x !== a[i])}`);
    const one = rowsOf(sql(wh, "SELECT * FROM ext WHERE dt = '2026-11-21' AND region = 'us';"));
    const oneDuck = duck.filter((r) => r.dt === '2026-11-21' && r.region === 'us');
    check('pruned rows', one.length > 0 && same(one.map(keyChive).sort(), oneDuck.map(keyDuck).sort()),
          `chive ${one.length}, DuckDB ${oneDuck.length}`);
    const sel = rowsOf(sql(wh, 'SELECT id, name FROM ext WHERE id >= 2950;'));
    check('filtered rows', sel.length === 50, `${sel.length} rows`);
    const plan = execFileSync(chive, ['sql', '--warehouse', wh, '-e',
      'EXPLAIN SELECT id, name FROM ext WHERE id >= 2950;'], { encoding: 'utf8' });
    const m = plan.match(/row_groups=(\d+)\/(\d+)/);
    check('EXPLAIN skips row groups', m && Number(m[1]) < Number(m[2]) && Number(m[1]) > 0,
          plan.trim());

    // 2. chive writes, DuckDB reads.
    sql(wh, `CREATE TABLE mine (id bigint, name string, amount decimal(10,2),
               d date, ts timestamp, tags array<bigint>)
             PARTITIONED BY (dt string, region string) STORED AS PARQUET;
             INSERT INTO mine PARTITION (dt, region) SELECT * FROM ext;
             CREATE TABLE flat STORED AS PARQUET AS SELECT id, name, amount, d FROM ext WHERE region = 'eu';`);
    const mineRows = rowsOf(sql(wh, 'SELECT * FROM mine;'));
    const duck2 = (await q(`${duckView} FROM read_parquet('${path.join(wh, 'mine')}/*/*/part-*',
        hive_partitioning = true, hive_types = {'dt': 'VARCHAR', 'region': 'VARCHAR'})`)).map(fixTs);
    const c = mineRows.map(keyChive).sort(), d = duck2.map(keyDuck).sort();
    check('chive-written rows', c.length === 3000 && same(c, d) && same(c, a),
          `chive ${c.length} rows, DuckDB ${d.length}`);
    const flatChive = rowsOf(sql(wh, 'SELECT * FROM flat;'));
    const flatDuck = await q(`SELECT id::VARCHAR AS id, name, amount::VARCHAR AS amount, d::VARCHAR AS d
                              FROM read_parquet('${path.join(wh, 'flat')}/part-*')`);
    const fk = (r) => JSON.stringify([String(r.id), r.name, r.amount, r.d]);
    check('CTAS rows', flatChive.length === 1500 &&
          same(flatChive.map(fk).sort(), flatDuck.map(fk).sort()),
          `chive ${flatChive.length}, DuckDB ${flatDuck.length}`);
    // statistics from the footers
    const desc = sql(wh, 'DESCRIBE FORMATTED flat;');
    check('numRows from the writer', /numRows[^\n]*1500/.test(desc), desc);

    // 3. LOAD DATA of a DuckDB Parquet file; its rows counted from the footer.
    const f = path.join(tmp, 'load.parquet');
    await q(`COPY (SELECT i::BIGINT AS id, 'l' || i AS name, (i * 1.0)::DECIMAL(10,2) AS amount,
                    DATE '2026-02-01' AS d FROM range(77) r(i)) TO '${f}' (FORMAT parquet)`);
    sql(wh, `CREATE TABLE loaded (id bigint, name string, amount decimal(10,2), d date) STORED AS PARQUET;
             LOAD DATA LOCAL INPATH '${f}' INTO TABLE loaded;`);
    const cnt = rowsOf(sql(wh, 'SELECT COUNT(*) AS n FROM loaded;'));
    check('LOAD DATA rows', cnt.length === 1 && String(cnt[0].n) === '77', JSON.stringify(cnt));
    const desc2 = sql(wh, 'DESCRIBE FORMATTED loaded;');
    check('numRows from the footer', /numRows[^\n]*77/.test(desc2), desc2);

    peer.finish();
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
})().catch((e) => { console.error(e); process.exit(1); });
