#!/usr/bin/env node
// Dynamic filtering checked against DuckDB: DuckDB writes a fact table
// partitioned on its join key as a Hive table (small row groups, a data
// column v that grows with the rows, NULL keys in the default partition)
// and the dimensions; each join runs on chive with
// table.optimizer.dynamic-filtering.enabled on and off and on DuckDB, and
// the three results must be the same rows.  Where the plan filters the
// probe side, EXPLAIN ANALYZE's counts are checked against what DuckDB
// says they must be: the partitions read are those of the build side's
// keys, the row groups read those whose statistics (parquet_metadata())
// overlap the build keys' range.
//
//   node dynfilter_compat.js CHIVE
//
// Exit 0 on success, 1 on a mismatch, 77 (skipped) without DuckDB.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { DuckDBInstance } = require('./duckdb_peer.js');

const peer = require('./peer_check.js')('dynfilter_compat.js');
const { check, sql, rowsOf, canon } = peer;

// [name, chive SQL, DuckDB SQL (null: the same), what to count: {parts:
// DuckDB SQL giving the partitions read, of the table's; rg: [lo, hi] SQL
// giving the build keys' range of v; rows: SQL giving the rows of f the
// keys' set keeps}, or null: nothing is filtered]
// (a probe side of many rows is counted by groups: chive prints them all)
const CASES = [
  ['inner, partitions', "SELECT f.id, d.name FROM f JOIN d ON f.k = d.k WHERE d.name <> 'n9'", null,
   { parts: "SELECT count(DISTINCT k) AS n FROM f WHERE k IN (SELECT k FROM d WHERE name <> 'n9')" }],
  ['inner, one key', "SELECT f.id, f.v FROM f JOIN d ON f.k = d.k WHERE d.name = 'n7'", null,
   { parts: "SELECT count(DISTINCT k) AS n FROM f WHERE k IN (SELECT k FROM d WHERE name = 'n7')" }],
  ['inner, no key matches', "SELECT f.id FROM f JOIN d ON f.k = d.k WHERE d.name = 'n99'", null,
   { parts: "SELECT count(DISTINCT k) AS n FROM f WHERE k IN (SELECT k FROM d WHERE name = 'n99')" }],
  ['inner, only NULL keys', "SELECT f.id FROM f JOIN d ON f.k = d.k WHERE d.name = 'nnull'", null,
   { parts: "SELECT 0 AS n" }],
  ['left semi', "SELECT f.id FROM f LEFT SEMI JOIN d ON f.k = d.k AND d.w > 3",
   'SELECT f.id FROM f SEMI JOIN d ON f.k = d.k AND d.w > 3',
   { parts: 'SELECT count(DISTINCT k) AS n FROM f WHERE k IN (SELECT k FROM d WHERE w > 3)' }],
  ['build side preserved', "SELECT d.name, f.id FROM d LEFT JOIN f ON f.k = d.k WHERE d.w < 3", null,
   { parts: 'SELECT count(DISTINCT k) AS n FROM f WHERE k IN (SELECT k FROM d WHERE w < 3)' }],
  ['row groups by a data column', 'SELECT f.id, r.tag FROM f JOIN r ON f.v = r.v', null,
   { rg: 'SELECT min(v) AS lo, max(v) AS hi FROM r' }],
  ['row groups and partitions', "SELECT f.id FROM f JOIN r ON f.v = r.v AND f.k = r.k WHERE r.tag <> 'x'", null,
   { parts: "SELECT count(DISTINCT k) AS n FROM f WHERE k IN (SELECT k FROM r WHERE tag <> 'x')" }],
  ['probe side preserved', "SELECT f.k, d.name, count(*) AS n FROM f LEFT JOIN d ON f.k = d.k AND d.name = 'n7' GROUP BY f.k, d.name", null, null],
  ['anti join', "SELECT f.k, count(*) AS n FROM f LEFT ANTI JOIN d ON f.k = d.k AND d.name = 'n7' GROUP BY f.k",
   "SELECT f.k, count(*) AS n FROM f ANTI JOIN d ON f.k = d.k AND d.name = 'n7' GROUP BY f.k", null],
  ['full join', "SELECT f.k, d.name, count(*) AS n FROM f FULL JOIN d ON f.k = d.k AND d.name = 'n7' GROUP BY f.k, d.name", null, null],
  ['null-safe key', "SELECT f.id, d.name FROM f JOIN d ON f.k <=> d.k WHERE d.name = 'nnull'",
   "SELECT f.id, d.name FROM f JOIN d ON f.k IS NOT DISTINCT FROM d.k WHERE d.name = 'nnull'", null],
  // a data column's range: every row group holds g0 to g4, none skipped
  ['string key', "SELECT f.k, count(*) AS n FROM f JOIN d ON f.g = d.g WHERE d.name = 'n3' GROUP BY f.k", null, {}],
  // the keys' set filters rows under an Aggregate grouping by the key: the
  // sub-query groups only the ids the build side has
  ['grouped sub-query', "SELECT d.name, s.m FROM d LEFT JOIN (SELECT id, max(v) AS m, count(*) AS c FROM f GROUP BY id) s ON d.w = s.id WHERE d.name <> 'n9'", null,
   { rows: "SELECT count(*) AS n FROM f WHERE id IN (SELECT w FROM d WHERE name <> 'n9')" }],
  ['correlated scalar sub-query', 'SELECT d.name, d.w FROM d WHERE d.w * 2 > (SELECT sum(v) FROM f WHERE f.id = d.w)', null,
   { rows: 'SELECT count(*) AS n FROM f WHERE id IN (SELECT w FROM d)' }],
  // integer keys: a bit map over their range (negative keys too), or a
  // table of integers with bloom bits (a range too wide, many keys) or
  // without (few keys); two keys tested together
  ['keys as a bit map', 'SELECT f.id FROM f JOIN (SELECT * FROM (VALUES (-5), (-1), (3), (7), (NULL), (119999)) t(x)) s ON f.v = s.x',
   null, { rows: 'SELECT count(*) AS n FROM f WHERE v IN (-5, -1, 3, 7, 119999)' }],
  ['keys too sparse for a bit map, many', 'SELECT f.id FROM f JOIN (SELECT id * 100000 AS x FROM f WHERE id < 2000) s ON f.v = s.x',
   null, { rows: 'SELECT count(*) AS n FROM f WHERE v IN (SELECT id * 100000 FROM f WHERE id < 2000)' }],
  ['keys too sparse for a bit map, few', 'SELECT f.id FROM f JOIN (SELECT id * 1000000 AS x FROM f WHERE id < 500) s ON f.v = s.x',
   null, { rows: 'SELECT count(*) AS n FROM f WHERE v IN (SELECT id * 1000000 FROM f WHERE id < 500)' }],
  // more than 65,536 integer keys (a set of bytes stops there)
  ['many integer keys, a bit map', 'SELECT count(*) AS n, sum(f.id) AS t FROM f JOIN (SELECT v AS x FROM f WHERE id % 10 <> 0) s ON f.v = s.x',
   null, { rows: 'SELECT count(*) AS n FROM f WHERE id % 10 <> 0' }],
  ['many integer keys, sparse', 'SELECT f.id FROM f JOIN (SELECT v * 1000 AS x FROM f WHERE id % 10 <> 0) s ON f.v = s.x',
   null, { rows: 'SELECT count(*) AS n FROM f WHERE v IN (SELECT v * 1000 FROM f WHERE id % 10 <> 0)' }],
  // keys 100 apart take 100 bits a key: a bit map (at most 128 bits a
  // key); 200 apart, past it: the table of integers
  ['many integer keys 100 apart, a bit map', 'SELECT f.id FROM f JOIN (SELECT v * 100 AS x FROM f WHERE id % 10 <> 0) s ON f.v = s.x',
   null, { rows: 'SELECT count(*) AS n FROM f WHERE v IN (SELECT v * 100 FROM f WHERE id % 10 <> 0)' }],
  ['many integer keys 200 apart, a table', 'SELECT f.id FROM f JOIN (SELECT v * 200 AS x FROM f WHERE id % 10 <> 0) s ON f.v = s.x',
   null, { rows: 'SELECT count(*) AS n FROM f WHERE v IN (SELECT v * 200 FROM f WHERE id % 10 <> 0)' }],
  // six build rows a key (m): 648,000 keys with duplicates, past the
  // 512 Ki an operator memory of 1 MB lets the join's array hold, go to a
  // table of integers (a bit map of it at 100 apart); p, of 1.2 million
  // rows 20 apart, probes, and finds every key
  ['integer keys past their array, a bit map', 'SELECT count(*) AS n, sum(p.v) AS t FROM p JOIN (SELECT w * 100 AS x FROM m WHERE w % 10 <> 0) s ON p.v = s.x',
   null, { set: "SET 'chive.exec.operator-memory' = '1mb'; ", scan: 'p',
           rows: 'SELECT count(*) AS n FROM p WHERE v IN (SELECT w * 100 FROM m WHERE w % 10 <> 0)' }],
  ['integer keys past their array, a table', 'SELECT count(*) AS n, sum(p.v) AS t FROM p JOIN (SELECT w * 200 AS x FROM m WHERE w % 10 <> 0) s ON p.v = s.x',
   null, { set: "SET 'chive.exec.operator-memory' = '1mb'; ", scan: 'p',
           rows: 'SELECT count(*) AS n FROM p WHERE v IN (SELECT w * 200 FROM m WHERE w % 10 <> 0)' }],
  ['two integer keys', 'SELECT f.id FROM f JOIN (SELECT id AS y, v AS x FROM f WHERE id % 1000 = 7) s ON f.v = s.x AND f.id = s.y',
   null, { rows: 'SELECT count(*) AS n FROM f WHERE id % 1000 = 7' }],
  // a whole table of many rows builds: its keys' range filters row groups,
  // no set of its keys rows
  ['a whole table of many rows builds', 'SELECT count(*) AS n, sum(b.id) AS s FROM f a JOIN f b ON a.v = b.v',
   null, { norows: true }],
];

const OFF = "SET 'table.optimizer.dynamic-filtering.enabled' = 'false'; ";

(async () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'chv-dynfilter-compat-'));
  try {
    const wh = path.join(tmp, 'wh');
    const db = await DuckDBInstance.create(':memory:');
    const con = await db.connect();
    const q = async (s) => (await con.runAndReadAll(s)).getRowObjects();
    const fdir = path.join(tmp, 'data', 'f');
    const ddir = path.join(tmp, 'data', 'd');
    const rdir = path.join(tmp, 'data', 'r');
    const mdir = path.join(tmp, 'data', 'm');
    const pdir = path.join(tmp, 'data', 'p');
    for (const d of [fdir, ddir, rdir, mdir, pdir]) fs.mkdirSync(d, { recursive: true });
    await q(`CREATE TABLE f AS SELECT i::INTEGER AS id, i::BIGINT AS v,
               'g' || (i % 5)::VARCHAR AS g,
               CASE WHEN i % 101 = 0 THEN NULL ELSE (i // 10000)::INTEGER END AS k
             FROM range(120000) r(i) ORDER BY i`);
    await q(`CREATE TABLE d AS SELECT * FROM (VALUES
               (1, 'n1', 1, 'g1'), (3, 'n3', 2, 'g2'), (3, 'n3b', 5, 'g3'),
               (7, 'n7', 4, 'g0'), (NULL, 'nnull', 6, 'g1'), (40, 'n40', 7, 'g4'),
               (9, 'n9', 9, 'g1'))
             AS d(k, name, w, g)`);
    await q(`CREATE TABLE r AS SELECT * FROM (VALUES
               (21000::BIGINT, 2, 'a'), (25000::BIGINT, 2, 'b'), (30500::BIGINT, 3, 'c'),
               (NULL, NULL, 'n'), (22000::BIGINT, 5, 'x'))
             AS r(v, k, tag)`);
    await q(`CREATE TABLE m AS SELECT (i // 6)::BIGINT AS w FROM range(720000) r(i)`);
    await q(`COPY m TO '${path.join(mdir, 'm.parquet')}' (FORMAT parquet)`);
    await q(`CREATE TABLE p AS SELECT (i * 20)::BIGINT AS v FROM range(1200000) r(i)`);
    await q(`COPY p TO '${path.join(pdir, 'p.parquet')}' (FORMAT parquet)`);
    await q(`COPY f TO '${fdir}' (FORMAT parquet, PARTITION_BY (k), ROW_GROUP_SIZE 2048)`);
    await q(`COPY d TO '${path.join(ddir, 'd.parquet')}' (FORMAT parquet)`);
    await q(`COPY r TO '${path.join(rdir, 'r.parquet')}' (FORMAT parquet)`);
    // DuckDB names the NULL partition k=NULL; Hive's is the default one
    if (fs.existsSync(path.join(fdir, 'k=NULL')))
      fs.renameSync(path.join(fdir, 'k=NULL'), path.join(fdir, 'k=__HIVE_DEFAULT_PARTITION__'));
    check('the NULL partition is the default one',
          fs.existsSync(path.join(fdir, 'k=__HIVE_DEFAULT_PARTITION__')),
          fs.readdirSync(fdir).join(' '));
    sql(wh, `CREATE EXTERNAL TABLE f (id int, v bigint, g string) PARTITIONED BY (k int)
               STORED AS PARQUET LOCATION '${fdir}';
             MSCK REPAIR TABLE f;
             CREATE EXTERNAL TABLE d (k int, name string, w int, g string) STORED AS PARQUET
               LOCATION '${ddir}';
             CREATE EXTERNAL TABLE r (v bigint, k int, tag string) STORED AS PARQUET
               LOCATION '${rdir}';
             CREATE EXTERNAL TABLE m (w bigint) STORED AS PARQUET LOCATION '${mdir}';
             CREATE EXTERNAL TABLE p (v bigint) STORED AS PARQUET LOCATION '${pdir}';
             ANALYZE TABLE f COMPUTE STATISTICS;
             ANALYZE TABLE d COMPUTE STATISTICS;
             ANALYZE TABLE r COMPUTE STATISTICS;`);
    const nparts = (await q(`SELECT count(DISTINCT k) + 1 AS n FROM f`))[0].n;
    // the row groups of f's files, with v's bounds
    const groups = await q(`SELECT file_name, row_group_id,
               stats_min_value::BIGINT AS lo, stats_max_value::BIGINT AS hi
             FROM parquet_metadata('${fdir}/*/*.parquet') WHERE path_in_schema = 'v'`);
    check('the fact table has many row groups', groups.length > 40,
          `${groups.length} row groups`);
    for (const [name, ours, theirs, count] of CASES) {
      let on, off, plan;
      const set = (count && count.set) || '';
      try {
        on = rowsOf(sql(wh, set + ours + ';')).map(canon).sort();
        off = rowsOf(sql(wh, set + OFF + ours + ';')).map(canon).sort();
        plan = rowsOf(sql(wh, set + 'EXPLAIN ANALYZE ' + ours + ';')).map((r) => r.plan);
      } catch (e) {
        check(name, false, `chive failed: ${e.stderr || e.message}`);
        continue;
      }
      const b = (await q(theirs || ours)).map(canon).sort();
      const same = (x, y) => x.length === y.length && x.every((v, i) => v === y[i]);
      check(name, same(on, b), `chive ${on.length} rows, DuckDB ${b.length}`);
      check(name + ' (option off)', same(off, b), `chive ${off.length} rows, DuckDB ${b.length}`);
      // the fact table's Scan line and the lines under it
      const at = plan.findIndex((l) => l.includes(`Scan default.${(count && count.scan) || 'f'}:`));
      const scan = at >= 0 ? plan[at] : '';
      const under = plan.slice(at + 1, at + 4).join('\n');
      const filtered = /Dynamic filter:/.test(under);
      check(name + ': filtered', filtered === !!count, `${scan}\n${under}`);
      if (!count) {
        check(name + ': all partitions', scan.includes(`partitions=${nparts}/${nparts}`), scan);
        continue;
      }
      if (count.parts) {
        const want = Number((await q(count.parts))[0].n);
        /* none: the join, with nothing to match, need not open the scan */
        check(name + ': partitions read', scan.includes(`partitions=${want}/${nparts}`) ||
              (want === 0 && scan.includes('not read')),
              `want ${want}/${nparts}: ${scan}`);
      }
      if (count.rg) {
        const { lo, hi } = (await q(count.rg))[0];
        const want = groups.filter((g) => Number(g.hi) >= Number(lo) && Number(g.lo) <= Number(hi)).length;
        const m = /row_groups=(\d+)\/(\d+) \((\d+) skipped\)/.exec(under);
        check(name + ': row groups read', m && Number(m[1]) === want && Number(m[2]) === groups.length,
              `want ${want}/${groups.length}: ${m && m[0]}`);
      }
      if (count.norows)
        check(name + ': no rows filtered by the keys\' set', !/rows by the keys' set/.test(under), under);
      if (count.rows) {
        const want = Number((await q(count.rows))[0].n);
        const m = /rows by the keys' set: (\d+) of (\d+) kept/.exec(under);
        check(name + ': rows the keys keep', m && Number(m[1]) === want,
              `want ${want}: ${m && m[0]}`);
      }
    }
  } finally {
    if (!process.env.KEEP) fs.rmSync(tmp, { recursive: true, force: true });
  }
  peer.finish();
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
