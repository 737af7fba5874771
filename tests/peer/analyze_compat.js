#!/usr/bin/env node
// ANALYZE TABLE ... COMPUTE STATISTICS FOR COLUMNS checked against DuckDB
// over the same files: DuckDB writes a Hive-partitioned Parquet table and a
// text (CSV) table, with NULLs, and computes count(*), count(c),
// count(DISTINCT c), min, max and avg/max(length(s)); chive analyzes the
// tables and DESCRIBE FORMATTED t [PARTITION (...)] c must give the same
// figures, the distinct counts within the HyperLogLog's error (exact up to
// 1024 values, then 3% here: 0.81% standard error), per partition and for
// the table (the partitions merged).
//
//   node analyze_compat.js CHIVE
//
// Exit 0 on success, 1 on a mismatch, 77 (skipped) without DuckDB.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { DuckDBInstance } = require('./duckdb_peer.js');

const peer = require('./peer_check.js')('analyze_compat.js');
const { check, sql, rowsOf } = peer;

// DESCRIBE FORMATTED's rows as { property: value }
const described = (wh, text) => {
  const o = {};
  for (const r of rowsOf(sql(wh, text))) o[r.column_property] = r.value;
  return o;
};

const num = (v) => (v === null || v === undefined || v === '' ? null : Number(v));

(async () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'chv-analyze-compat-'));
  try {
    const wh = path.join(tmp, 'wh');
    const pdir = path.join(tmp, 'pq');
    const tdir = path.join(tmp, 'txt');
    fs.mkdirSync(tdir);
    const db = await DuckDBInstance.create(':memory:');
    const con = await db.connect();
    const q = async (s) => (await con.runAndReadAll(s)).getRowObjects();
    await q(`CREATE TABLE t AS SELECT i::BIGINT AS id,
               CASE WHEN i % 11 = 0 THEN NULL ELSE (i % 1500)::INTEGER END AS k,
               CASE WHEN i % 13 = 0 THEN NULL ELSE 'v' || (i % 3000)::VARCHAR || repeat('x', (i % 7)::INTEGER) END AS s,
               CASE WHEN i % 17 = 0 THEN NULL ELSE (i % 500) / 4.0 - 20 END::DOUBLE AS d,
               ['a', 'b', 'c'][(i % 3) + 1] AS dt
             FROM range(30000) r(i)`);
    await q(`COPY t TO '${pdir}' (FORMAT parquet, PARTITION_BY (dt))`);
    await q(`COPY (SELECT id, k, s, d FROM t) TO '${tdir}/t.csv'
             (FORMAT csv, HEADER false, DELIMITER ',', NULLSTR '\\N')`);
    sql(wh, `CREATE EXTERNAL TABLE p (id bigint, k int, s string, d double)
             PARTITIONED BY (dt string) STORED AS PARQUET LOCATION '${pdir}';
             MSCK REPAIR TABLE p;
             CREATE EXTERNAL TABLE x (id bigint, k int, s string, d double)
             ROW FORMAT DELIMITED FIELDS TERMINATED BY ',' LOCATION '${tdir}';
             ANALYZE TABLE p COMPUTE STATISTICS FOR COLUMNS;
             ANALYZE TABLE x COMPUTE STATISTICS FOR ALL COLUMNS;`);

    // one scope: a table (and partition) in chive, a WHERE in DuckDB
    const scopes = [['p', null, 'TRUE'], ['p', 'a', "dt = 'a'"],
                    ['p', 'c', "dt = 'c'"], ['x', null, 'TRUE']];
    for (const [table, part, where] of scopes) {
      const name = table + (part ? ` dt=${part}` : '');
      const [ref] = await q(`SELECT count(*) AS n FROM t WHERE ${where}`);
      const spec = part ? ` PARTITION (dt='${part}')` : '';
      if (part || table === 'x') {
        const rows = rowsOf(sql(wh, `DESCRIBE FORMATTED ${table}${spec};`));
        const nr = rows.find((r) => r.data_type === 'numRows');
        const tbl = table === 'x' ? rowsOf(sql(wh, 'DESCRIBE FORMATTED x;'))
            .find((r) => r.data_type === 'numRows') : nr;
        check(`${name} numRows`, tbl && Number(tbl.comment) === Number(ref.n),
              `chive ${tbl && tbl.comment}, DuckDB ${ref.n}`);
      }
      for (const c of ['id', 'k', 's', 'd']) {
        const st = described(wh, `DESCRIBE FORMATTED ${table}${spec} ${c};`);
        const [r] = await q(`SELECT count(*) - count(${c}) AS nulls,
            count(DISTINCT ${c}) AS ndv, min(${c})::VARCHAR AS lo,
            max(${c})::VARCHAR AS hi,
            ${c === 's' ? `avg(length(s)) AS avgl, max(length(s)) AS maxl`
                        : 'NULL AS avgl, NULL AS maxl'}
            FROM t WHERE ${where}`);
        const what = `${name}.${c}`;
        check(`${what} nulls`, num(st.num_nulls) === Number(r.nulls),
              `chive ${st.num_nulls}, DuckDB ${r.nulls}`);
        const ndv = Number(r.ndv), got = num(st.distinct_count);
        const ok = ndv <= 1024 ? got === ndv : Math.abs(got - ndv) <= 0.03 * ndv;
        check(`${what} distinct`, ok, `chive ${got}, DuckDB ${ndv}`);
        if (c === 's') {
          check(`${what} avg length`, Math.abs(num(st.avg_col_len) - Number(r.avgl)) < 1e-9,
                `chive ${st.avg_col_len}, DuckDB ${r.avgl}`);
          check(`${what} max length`, num(st.max_col_len) === Number(r.maxl),
                `chive ${st.max_col_len}, DuckDB ${r.maxl}`);
        } else {
          check(`${what} min`, num(st.min) === Number(r.lo), `chive ${st.min}, DuckDB ${r.lo}`);
          check(`${what} max`, num(st.max) === Number(r.hi), `chive ${st.max}, DuckDB ${r.hi}`);
        }
      }
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  peer.finish();
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
