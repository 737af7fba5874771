#!/usr/bin/env node
// TABLESAMPLE checked against DuckDB where its meaning is deterministic.
// DuckDB's own sampling is random, so it is not asked to sample: it reads
// the rows chive's sample must give.  DuckDB writes a Parquet table
// partitioned on k, several files of different sizes in each partition,
// NULLs in v, and a table of one file of many row groups; every file is
// one split of chive's plan (each is far below the 32 MiB block).
//
//   - (n ROWS) on the one-file table is DuckDB's LIMIT n over the file, in
//     order;
//   - (n ROWS) on the partitioned table is the first n rows of each file
//     (row_number() over each file's rows), then the WHERE;
//   - (n PERCENT) and a length are every row of the first files in chive's
//     plan order (partition name, file name) whose sizes reach
//     ceil(n / 100 of all the files' bytes), or the length, worked out here
//     from the files; after partition pruning, of the pruned partitions'
//     bytes; 100 PERCENT is the whole table.  EXPLAIN's "X of Y splits"
//     must say as many files.
//
//   node tablesample_compat.js CHIVE
//
// Exit 0 on success, 1 on a mismatch, 77 (skipped) without DuckDB.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { DuckDBInstance } = require('./duckdb_peer.js');

const peer = require('./peer_check.js')('tablesample_compat.js');
const { check, sql, rowsOf, canon, same } = peer;

(async () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'chv-tablesample-compat-'));
  try {
    const wh = path.join(tmp, 'wh');
    const db = await DuckDBInstance.create(':memory:');
    const con = await db.connect();
    const q = async (s) => (await con.runAndReadAll(s)).getRowObjects();
    const fdir = path.join(tmp, 'data', 'f');
    const sdir = path.join(tmp, 'data', 's');
    fs.mkdirSync(sdir, { recursive: true });
    await q(`CREATE TABLE src AS SELECT i::INTEGER AS id,
               CASE WHEN i % 7 = 0 THEN NULL ELSE 'v' || i::VARCHAR END AS v,
               (i % 5)::INTEGER AS k, (i % 3)::INTEGER AS part
             FROM range(6000) r(i) ORDER BY i`);
    // three files in each partition, of 1, 2 and 3 parts of its rows
    for (let k = 0; k < 5; k++) {
      fs.mkdirSync(path.join(fdir, `k=${k}`), { recursive: true });
      for (const [j, parts] of [[0, '0'], [1, '1, 2'], [2, '0, 1, 2']]) {
        const lim = (j + 1) * 150;
        await q(`COPY (SELECT id, v FROM src WHERE k = ${k} AND part IN (${parts})
                   ORDER BY id LIMIT ${lim})
                 TO '${path.join(fdir, `k=${k}`, `f${j}.parquet`)}'
                 (FORMAT parquet, ROW_GROUP_SIZE 100)`);
      }
    }
    const sfile = path.join(sdir, 's.parquet');
    await q(`COPY (SELECT id, v FROM src ORDER BY id) TO '${sfile}'
             (FORMAT parquet, ROW_GROUP_SIZE 1000)`);
    sql(wh, `CREATE EXTERNAL TABLE f (id int, v string) PARTITIONED BY (k int)
               STORED AS PARQUET LOCATION '${fdir}';
             MSCK REPAIR TABLE f;
             CREATE EXTERNAL TABLE s (id int, v string) STORED AS PARQUET
               LOCATION '${sdir}';`);
    const rows = (text) => rowsOf(sql(wh, text + ';')).map(canon);
    const duck = async (text) => (await q(text)).map(canon);
    const groups = await q(`SELECT count(*) AS n FROM parquet_metadata('${sfile}')
                            WHERE path_in_schema = 'id'`);
    check('the one file has several row groups', Number(groups[0].n) > 1,
          `${groups[0].n} row groups`);

    // n ROWS of one file: the file's first n rows, in order
    for (const n of [0, 1, 7, 1000, 2500, 100000]) {
      same(`one file, ${n} ROWS`, rows(`SELECT id, v FROM s TABLESAMPLE (${n} ROWS)`),
           await duck(`SELECT id, v FROM read_parquet('${sfile}') LIMIT ${n}`), true);
    }
    // ...and a LIMIT over it
    same('one file, 500 ROWS, LIMIT 20',
         rows('SELECT id, v FROM s TABLESAMPLE (500 ROWS) LIMIT 20'),
         await duck(`SELECT id, v FROM read_parquet('${sfile}') LIMIT 20`), true);

    // n ROWS of each file, then the WHERE
    const firstN = (n, where) => `SELECT id, v, k FROM (SELECT *, row_number() OVER
        (PARTITION BY filename ORDER BY file_row_number) AS rn
        FROM read_parquet('${fdir}/*/*.parquet', hive_partitioning = true,
                          filename = true, file_row_number = true))
        WHERE rn <= ${n}${where ? ' AND (' + where + ')' : ''}`;
    for (const [n, where] of [[1, null], [10, null], [160, null], [10000, null],
                              [20, 'v IS NULL'], [50, 'id % 2 = 0 AND k <> 1'],
                              [5, 'k >= 3'], [0, null]]) {
      const w = where ? ` WHERE ${where}` : '';
      same(`partitioned, ${n} ROWS${w}`,
           rows(`SELECT id, v, k FROM f TABLESAMPLE (${n} ROWS)${w}`),
           await duck(firstN(n, where)), false);
    }

    // n PERCENT and lengths: the first files in plan order
    const files = [];
    for (const pdir of fs.readdirSync(fdir).sort())
      for (const name of fs.readdirSync(path.join(fdir, pdir)).sort())
        files.push({ k: Number(pdir.slice(2)), file: path.join(fdir, pdir, name),
                     size: fs.statSync(path.join(fdir, pdir, name)).size });
    const chosen = (list, target) => {
      const out = [];
      let got = 0;
      for (const f of list) {
        if (got >= target) break;
        out.push(f.file);
        got += f.size;
      }
      return out;
    };
    const readFiles = async (list, where) => list.length === 0 ? [] :
      duck(`SELECT id, v, k FROM read_parquet([${list.map((f) => `'${f}'`).join(', ')}],
              hive_partitioning = true)${where ? ' WHERE ' + where : ''}`);
    const splitsOf = (text) => {
      const plan = rowsOf(sql(wh, 'EXPLAIN ' + text + ';')).map((r) => r.plan).join('\n');
      const m = plan.match(/: (\d+) of (\d+) splits?\]/);
      return m ? [Number(m[1]), Number(m[2])] : null;
    };
    const forms = [];
    for (const p of [0, 0.01, 10, 25, 33.3, 50, 99, 100]) forms.push([`${p} PERCENT`, p, null]);
    for (const len of ['0b', '1b', '2K', '10k', '1M']) forms.push([len, null, len]);
    for (const [form, pct, len] of forms) {
      for (const [where, keep] of [[null, () => true], ['k >= 3', (f) => f.k >= 3],
                                   ['k = 2 AND v IS NOT NULL', (f) => f.k === 2]]) {
        const list = files.filter(keep);
        const total = list.reduce((a, f) => a + f.size, 0);
        const unit = len ? { b: 0, k: 10, m: 20, g: 30 }[len.slice(-1).toLowerCase()] : 0;
        const target = len ? Number(len.slice(0, -1)) * 2 ** unit
          : Math.min(total, Math.ceil(total * pct / 100));
        const pick = chosen(list, target);
        const w = where ? ` WHERE ${where}` : '';
        const text = `SELECT id, v, k FROM f TABLESAMPLE (${form})${w}`;
        const name = `partitioned, ${form}${w}`;
        try {
          same(name, rows(text), await readFiles(pick, where), false);
          const sp = splitsOf(text);
          check(`${name}: EXPLAIN's splits`, sp && sp[0] === pick.length && sp[1] === list.length,
                `EXPLAIN says ${sp}, expected ${pick.length} of ${list.length}`);
        } catch (e) {
          check(name, false, `failed: ${e.stderr || e.message}`);
        }
      }
    }
    same('100 PERCENT is the whole table',
         rows('SELECT id, v, k FROM f TABLESAMPLE (100 PERCENT)'),
         await duck(`SELECT id, v, k FROM read_parquet('${fdir}/*/*.parquet',
                       hive_partitioning = true)`), false);
    same('100 PERCENT of one file',
         rows('SELECT id, v FROM s TABLESAMPLE (100 PERCENT)'),
         await duck(`SELECT id, v FROM read_parquet('${sfile}')`), true);
    // a join of two samples
    same('a join of samples',
         rows('SELECT a.id, b.k FROM s TABLESAMPLE (300 ROWS) a JOIN f TABLESAMPLE (40 ROWS) b ON a.id = b.id'),
         await duck(`SELECT a.id, b.k FROM (SELECT * FROM read_parquet('${sfile}') LIMIT 300) a
                     JOIN (${firstN(40, null)}) b ON a.id = b.id`), false);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  peer.finish();
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
