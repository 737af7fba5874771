#!/usr/bin/env node
// The TPC-H benchmark: the 22 TPC-H queries on chive and on DuckDB over the
// same Parquet files, with 1 and 2 threads (docs/bench.md, "The TPC-H
// benchmark").  Run it through bench/tpch.sh, which finds chive and node.
//
//  1. DuckDB writes the eight tables at scale factor SF with
//     bench/tpch/gen.sql (plain SQL, every value a function of the row
//     number, the files written by one thread: the same bytes every run)
//     into DIR/sf<SF>; lineitem and orders are Hive tables partitioned by
//     l_shipyear and o_orderyear.  chive registers the folders in a
//     warehouse of its own (CREATE EXTERNAL TABLE ... LOCATION, MSCK
//     REPAIR TABLE) and gathers their column statistics (ANALYZE TABLE ...
//     COMPUTE STATISTICS FOR COLUMNS, untimed); DuckDB reads them through
//     views of read_parquet with hive_partitioning.  Data of an earlier run
//     with the same SF and the same gen.sql is reused.
//  2. Each query (bench/tpch/qNN.sql, one text for both engines) runs once
//     on each engine with each thread count and the results are compared:
//     row counts, then row by row (as a multiset when the query has no
//     ORDER BY; rows tied on the ORDER BY keys in any order), integers and
//     strings exactly, other numbers to a small tolerance (chive's
//     decimals against DuckDB's doubles).  A query chive cannot run shows
//     ERROR and chive's first error line; the run goes on.
//  3. Unless --results-only, each query that both engines ran runs --runs
//     more times on each engine, alternating, and one table prints the
//     medians, the ratio chive/DuckDB and the geometric mean of the ratios.
//
// What is timed is what bench/lineitem.js times: DuckDB's statement inside
// the node process (views re-read the files every run, its external file
// cache off), chive's whole `chive sql -e` process less its start-up (the
// median of the same process running SELECT 1).
//
//   node tpch.js --chive CHIVE SF [--data DIR] [--runs N] [--threads 1,2]
//        [--queries 1,3,5] [--results-only] [--expect-pass LIST]
//        [--timeout SECS]
//
// Exit 0 on success; 1 when a result differs, DuckDB fails a query, or a
// query of --expect-pass does not give DuckDB's result on every thread
// count; 2 on bad usage; 77 (skipped) without DuckDB.
'use strict';
const crypto = require('crypto');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { DuckDBInstance } = require('../tests/peer/duckdb_peer.js');
const { chiveRun, parseJsonl, EXACT, canonNumber, median } = require('./benchlib.js');

const QDIR = path.join(__dirname, 'tpch');
const ALL = Array.from({ length: 22 }, (_, k) => k + 1);

function usage(msg) {
  if (msg) console.error(`tpch: ${msg}`);
  console.error('usage: tpch.js --chive CHIVE SF [--data DIR] [--runs N] [--threads 1,2] ' +
                '[--queries 1,3,5] [--results-only] [--expect-pass LIST] [--timeout SECS]');
  process.exit(2);
}
const opt = { sf: null, data: null, runs: 3, threads: [1, 2], queries: ALL,
              resultsOnly: false, expectPass: null, timeout: 600, chive: null };
{
  const a = process.argv.slice(2);
  const num = (s, what) => {
    if (!/^[0-9]+$/.test(s || '') || Number(s) < 1) usage(`${what} must be a positive integer`);
    return Number(s);
  };
  const queryList = (s, what) => s.split(',').filter((x) => x).map((x) => {
    const n = num(x.replace(/^q/i, ''), what);
    if (n > 22) usage(`${what}: there is no query ${x}`);
    return n;
  });
  for (let k = 0; k < a.length; k++) {
    const v = () => (k + 1 < a.length ? a[++k] : usage(`${a[k]} needs a value`));
    switch (a[k]) {
      case '--chive': opt.chive = v(); break;
      case '--data': opt.data = path.resolve(v()); break;
      case '--runs': opt.runs = num(v(), '--runs'); break;
      case '--threads': opt.threads = v().split(',').filter((x) => x).map((t) => num(t, '--threads')); break;
      case '--queries': opt.queries = queryList(v(), '--queries'); break;
      case '--results-only': opt.resultsOnly = true; break;
      case '--expect-pass': opt.expectPass = queryList(v(), '--expect-pass'); break;
      case '--timeout': opt.timeout = num(v(), '--timeout'); break;
      case '-h': case '--help': usage();
      default:
        if (opt.sf === null && /^([0-9]+\.?[0-9]*|\.[0-9]+)$/.test(a[k])) opt.sf = a[k];
        else usage(`unknown argument ${a[k]}`);
    }
  }
  if (!opt.chive) usage('--chive is required');
  if (opt.sf === null) usage('the scale factor SF is required (e.g. 0.01 or 1)');
  if (!(Number(opt.sf) > 0)) usage('SF must be above 0');
  if (!opt.threads.length) usage('--threads needs at least one count');
  for (const q of opt.expectPass || [])
    if (!opt.queries.includes(q)) usage(`--expect-pass names Q${q}, which --queries leaves out`);
}
const SF = Number(opt.sf);
// The tables' sizes; the scale factor is read so that SF * 10,000 is whole.
const card = (n) => Math.round(SF * n);
const CARD = { SUPPLIERS: card(10000), CUSTOMERS: card(150000), PARTS: card(200000),
               ORDERS: card(1500000), CLERKS: Math.max(1, card(1000)) };
if (CARD.SUPPLIERS < 4) usage('SF must be at least 0.0004 (four suppliers, one for each partsupp row of a part)');
if (CARD.ORDERS * 8 > 2 ** 31) usage('SF must be at most 178 (gen.sql\'s row numbers stay below 2^31)');

// ---- the tables ----------------------------------------------------------

// Columns as chive declares them (DuckDB's Parquet types: BIGINT, INTEGER,
// DECIMAL(15,2), DATE, VARCHAR for STRING); checked against the files.
const K = 'BIGINT', I = 'INT', M = 'DECIMAL(15,2)', D = 'DATE', S = 'STRING';
const TABLES = {
  region: { cols: [['r_regionkey', K], ['r_name', S], ['r_comment', S]] },
  nation: { cols: [['n_nationkey', K], ['n_name', S], ['n_regionkey', K], ['n_comment', S]] },
  supplier: { cols: [['s_suppkey', K], ['s_name', S], ['s_address', S], ['s_nationkey', K],
                     ['s_phone', S], ['s_acctbal', M], ['s_comment', S]] },
  part: { cols: [['p_partkey', K], ['p_name', S], ['p_mfgr', S], ['p_brand', S], ['p_type', S],
                 ['p_size', I], ['p_container', S], ['p_retailprice', M], ['p_comment', S]] },
  partsupp: { cols: [['ps_partkey', K], ['ps_suppkey', K], ['ps_availqty', I],
                     ['ps_supplycost', M], ['ps_comment', S]] },
  customer: { cols: [['c_custkey', K], ['c_name', S], ['c_address', S], ['c_nationkey', K],
                     ['c_phone', S], ['c_acctbal', M], ['c_mktsegment', S], ['c_comment', S]] },
  orders: { part: 'o_orderyear',
            cols: [['o_orderkey', K], ['o_custkey', K], ['o_orderstatus', S], ['o_totalprice', M],
                   ['o_orderdate', D], ['o_orderpriority', S], ['o_clerk', S],
                   ['o_shippriority', I], ['o_comment', S]] },
  lineitem: { part: 'l_shipyear',
              cols: [['l_orderkey', K], ['l_partkey', K], ['l_suppkey', K], ['l_linenumber', I],
                     ['l_quantity', M], ['l_extendedprice', M], ['l_discount', M], ['l_tax', M],
                     ['l_returnflag', S], ['l_linestatus', S], ['l_shipdate', D],
                     ['l_commitdate', D], ['l_receiptdate', D], ['l_shipinstruct', S],
                     ['l_shipmode', S], ['l_comment', S]] },
};
const DUCK_TYPE = { BIGINT: 'BIGINT', INT: 'INTEGER', 'DECIMAL(15,2)': 'DECIMAL(15,2)',
                    DATE: 'DATE', STRING: 'VARCHAR' };
const EXPECT_ROWS = { region: 5, nation: 25, supplier: CARD.SUPPLIERS, part: CARD.PARTS,
                      partsupp: 4 * CARD.PARTS, customer: CARD.CUSTOMERS, orders: CARD.ORDERS };

// ---- the queries ---------------------------------------------------------

// The text of query n; {{FRACTION}} of Q11 is 0.0001 / SF.
function queryText(n) {
  const file = path.join(QDIR, `q${String(n).padStart(2, '0')}.sql`);
  const fraction = (0.0001 / SF).toFixed(12).replace(/0+$/, '');
  return fs.readFileSync(file, 'utf8').replace(/\{\{FRACTION\}\}/g, fraction)
    .replace(/;\s*$/, '').trim();
}
// The output columns of the ORDER BY keys of query n, to compare rows tied
// on them in any order; none for the queries without ORDER BY.
const TIES = { 1: [0, 1], 2: [0, 2, 1, 3], 3: [1, 2], 4: [0], 5: [1], 7: [0, 1, 2], 8: [0],
               9: [0, 1], 10: [2], 11: [1], 12: [0], 13: [1, 0], 15: [0], 16: [3, 0, 1, 2],
               18: [4, 3], 20: [0], 21: [1, 0], 22: [0] };

// ---- comparing -----------------------------------------------------------

// Equal cells: NULL only with NULL; integers exactly; other numbers to an
// absolute 1e-6 or a relative 1e-13, whichever is larger (a decimal rounded
// to 6 places against a double; no money amount below a cent's difference);
// everything else (strings, dates) as text.
function cellEqual(a, b) {
  if (a === null || b === null) return a === b;
  a = String(a); b = String(b);
  if (a === b) return true;
  const num = /^-?[0-9]+(\.[0-9]*)?([eE][-+]?[0-9]+)?$/;
  if (!num.test(a) || !num.test(b)) return false;
  if (EXACT.test(a) && EXACT.test(b) && canonNumber(a) === canonNumber(b)) return true;
  const x = Number(a), y = Number(b);
  if (/^-?[0-9]+$/.test(a) && /^-?[0-9]+$/.test(b)) return false;
  return Math.abs(x - y) <= Math.max(1e-6, 1e-13 * Math.max(Math.abs(x), Math.abs(y)));
}
const rowEqual = (x, y) => x.length === y.length && x.every((v, c) => cellEqual(v, y[c]));
const keyText = (r, cols) => JSON.stringify(cols.map((c) => r[c]));
// Rows as a multiset: each row of a matched by an equal row of b.
function sameRows(a, b) {
  const left = [...b];
  for (const r of a) {
    const k = left.findIndex((s) => rowEqual(r, s));
    if (k < 0) return r;
    left.splice(k, 1);
  }
  return null;
}
// null when equal, else what differs.
function compare(n, sql, chiveRows, duckRows) {
  const a = chiveRows, b = duckRows;
  const show = (r) => JSON.stringify(r);
  if (a.length !== b.length) return `${a.length} rows from chive, ${b.length} from DuckDB`;
  for (let r = 0; r < a.length; r++)
    if (a[r].length !== b[r].length)
      return `row ${r + 1}: ${a[r].length} columns from chive, ${b[r].length} from DuckDB`;
  if (!/\border\s+by\b/i.test(sql)) {
    const r = sameRows(a, b);
    return r ? `chive's row ${show(r)} is not among DuckDB's` : null;
  }
  // In order, except that rows tied on the ORDER BY keys (their text the
  // same on both sides) may come in any order among themselves.
  const ties = TIES[n] || [];
  for (let r = 0; r < a.length;) {
    if (rowEqual(a[r], b[r])) { r++; continue; }
    if (!ties.length) return `row ${r + 1}: chive ${show(a[r])}, DuckDB ${show(b[r])}`;
    let e = r;
    while (e < a.length && keyText(a[e], ties) === keyText(a[r], ties)) e++;
    const bad = e > r + 1 ? sameRows(a.slice(r, e), b.slice(r, e)) : a[r];
    if (bad) return `row ${r + 1}: chive ${show(a[r])}, DuckDB ${show(b[r])}`;
    r = e;
  }
  return null;
}

// ---- main ----------------------------------------------------------------

const rmrf = (p) => fs.rmSync(p, { recursive: true, force: true });
const log = (s) => console.log(s);
const firstLine = (s) => (s || '').trim().split('\n')[0] || '(no message)';

(async () => {
  const temp = !opt.data;
  const top = opt.data || fs.mkdtempSync(path.join(os.tmpdir(), 'chv-bench-tpch-'));
  const dir = path.join(top, `sf${SF}`); // 1.0 and 1 are one folder
  const wh = path.join(dir, 'wh');
  const timeFile = path.join(top, `time-${process.pid}.txt`);
  let failed = false;
  try {
    fs.mkdirSync(dir, { recursive: true });
    const db = await DuckDBInstance.create(':memory:');
    const con = await db.connect();
    const q = async (s) => (await con.runAndReadAll(s)).getRowsJson();
    const duckVersion = (await q('SELECT version()'))[0][0];
    const chiveMust = (text) => {
      const r = chiveRun(opt.chive, wh, timeFile, text);
      if (r.code !== 0) throw new Error(`chive failed (exit ${r.code}):\n${text}\n${r.err}`);
      return r;
    };

    // 1. the data, or the data of an earlier run in --data DIR
    const gen = fs.readFileSync(path.join(QDIR, 'gen.sql'), 'utf8');
    const metaFile = path.join(dir, 'meta.json');
    const meta = { sf: SF, cardinalities: CARD, analyzed: true,
                   gen: crypto.createHash('sha256').update(gen).digest('hex').slice(0, 16) };
    let reuse = false;
    try { reuse = JSON.stringify(JSON.parse(fs.readFileSync(metaFile, 'utf8'))) === JSON.stringify(meta); }
    catch (e) { reuse = false; }
    if (reuse) log(`data: ${dir} (reused)`);
    else {
      rmrf(metaFile);
      for (const t of [...Object.keys(TABLES), 'wh']) rmrf(path.join(dir, t));
      for (const [t, def] of Object.entries(TABLES))
        if (!def.part) fs.mkdirSync(path.join(dir, t));
      const t0 = Date.now();
      const vars = { ...CARD, DIR: dir };
      // A DuckDB of its own, closed after: its temporary tables go with it.
      const gdb = await DuckDBInstance.create(':memory:');
      const gcon = await gdb.connect();
      await gcon.run(gen.replace(/\{\{([A-Z]+)\}\}/g, (m, k) => {
        if (!(k in vars)) throw new Error(`gen.sql: unknown placeholder ${m}`);
        return String(vars[k]);
      }));
      gcon.closeSync();
      gdb.closeSync();
      const t1 = Date.now();
      const ddl = ['SET table.sql-dialect=hive;'];
      for (const [t, def] of Object.entries(TABLES)) {
        ddl.push(`CREATE EXTERNAL TABLE ${t} (${def.cols.map(([c, ty]) => `${c} ${ty}`).join(', ')})` +
                 (def.part ? ` PARTITIONED BY (${def.part} INT)` : '') +
                 ` STORED AS PARQUET LOCATION '${path.join(dir, t)}';`);
        if (def.part) ddl.push(`MSCK REPAIR TABLE ${t};`);
        // the column statistics the planner orders joins by, as a Hive
        // user gathers them once after a load
        ddl.push(`ANALYZE TABLE ${t} COMPUTE STATISTICS FOR COLUMNS;`);
      }
      chiveMust(ddl.join('\n'));
      const t2 = Date.now();
      fs.writeFileSync(metaFile, JSON.stringify(meta));
      log(`data: ${dir}: DuckDB wrote the tables in ${((t1 - t0) / 1e3).toFixed(1)} s, ` +
          `chive registered and analyzed them in ${((t2 - t1) / 1e3).toFixed(1)} s`);
    }

    // DuckDB's tables: views over the same folders; their columns and the
    // row counts checked against the schema above.
    await q('SET enable_external_file_cache = false');
    const sizes = [];
    let bytes = 0;
    for (const [t, def] of Object.entries(TABLES)) {
      const glob = path.join(dir, t, def.part ? '*/*.parquet' : '*.parquet');
      const hive = def.part ? `, hive_partitioning = true, hive_types = {'${def.part}': 'INTEGER'}` : '';
      await q(`CREATE VIEW ${t} AS SELECT * FROM read_parquet('${glob}'${hive})`);
      const got = (await q(`DESCRIBE ${t}`)).map((r) => `${r[0]} ${r[1]}`);
      const want = def.cols.map(([c, ty]) => `${c} ${DUCK_TYPE[ty]}`)
        .concat(def.part ? [`${def.part} INTEGER`] : []);
      if (got.join(', ') !== want.join(', '))
        throw new Error(`the files of ${t} have columns (${got.join(', ')}), not (${want.join(', ')})`);
      const n = Number((await q(`SELECT count(*) FROM ${t}`))[0][0]);
      if (t in EXPECT_ROWS && n !== EXPECT_ROWS[t])
        throw new Error(`${t} has ${n} rows, not ${EXPECT_ROWS[t]}`);
      for (const f of fs.readdirSync(path.join(dir, t), { recursive: true }))
        if (String(f).endsWith('.parquet')) bytes += fs.statSync(path.join(dir, t, String(f))).size;
      sizes.push(`${t} ${n}`);
    }
    log(`tables (rows): ${sizes.join(', ')}; ${(bytes / 1e6).toFixed(1)} MB of Parquet (snappy, DuckDB ${duckVersion})`);

    // One run of query n on each engine with a thread count.
    const setThreads = (t) => `SET 'table.exec.hive.infer-source-parallelism.max' = '${t}'; `;
    const runChive = (sql, t) => {
      const r = chiveRun(opt.chive, wh, timeFile, setThreads(t) + sql, opt.timeout);
      if (r.code !== 0) return { error: firstLine(r.err), secs: r.secs };
      return { rows: parseJsonl(r.out), secs: r.secs };
    };
    const runDuck = async (sql, t) => {
      await q(`SET threads = ${t}`);
      const t0 = process.hrtime.bigint();
      try {
        const reader = await con.runAndReadAll(sql);
        const secs = Number(process.hrtime.bigint() - t0) / 1e9;
        return { rows: reader.getRowsJson(), secs };
      } catch (e) {
        return { error: firstLine(e.message) };
      }
    };

    // 2. results
    const cells = []; // {n, t, status, note, c: [secs], d: [secs], rows}
    for (const t of opt.threads)
      for (const n of opt.queries) {
        const sql = queryText(n);
        const c = runChive(sql, t);
        const d = await runDuck(sql, t);
        const cell = { n, t, sql, c: [], d: [] };
        if (d.error) {
          cell.status = 'ERROR'; cell.note = `DuckDB: ${d.error}`;
          failed = true;
        } else if (c.error) {
          cell.status = 'ERROR'; cell.note = c.error;
        } else {
          const diff = compare(n, sql, c.rows, d.rows);
          cell.status = diff ? 'DIFF' : 'ok';
          cell.note = diff;
          if (diff) failed = true;
        }
        cell.rows = d.rows ? d.rows.length : null;
        cells.push(cell);
      }

    // 3. timings: the queries both engines ran
    const base = {};
    if (!opt.resultsOnly) {
      for (const t of opt.threads) {
        const xs = [];
        for (let k = 0; k < opt.runs; k++) {
          const r = chiveRun(opt.chive, wh, timeFile, setThreads(t) + 'SELECT 1', opt.timeout);
          if (r.code !== 0) throw new Error(`chive failed on SELECT 1 (exit ${r.code}): ${r.err}`);
          xs.push(r.secs);
        }
        base[t] = median(xs);
      }
      for (const cell of cells) {
        if (cell.status === 'ERROR') continue;
        for (let k = 0; k < opt.runs; k++) {
          const c = runChive(cell.sql, cell.t);
          const d = await runDuck(cell.sql, cell.t);
          if (c.error || d.error) {
            cell.status = 'ERROR'; cell.note = c.error || `DuckDB: ${d.error}`;
            failed = failed || !!d.error;
            break;
          }
          cell.c.push(c.secs); cell.d.push(d.secs);
        }
      }
    }

    // The table: a row a query, a group of columns a thread count.
    const find = (n, t) => cells.find((x) => x.n === n && x.t === t);
    const ms = (s) => (s * 1e3).toFixed(s < 0.1 ? 1 : 0);
    const header = ['query', 'rows'];
    for (const t of opt.threads)
      header.push(...(opt.resultsOnly ? [`result t=${t}`]
        : [`chive ms t=${t}`, `DuckDB ms t=${t}`, `ratio t=${t}`, `result t=${t}`]));
    const rows = [];
    const ratios = Object.fromEntries(opt.threads.map((t) => [t, []]));
    for (const n of opt.queries) {
      const first = find(n, opt.threads[0]);
      const row = [`Q${String(n).padStart(2, '0')}`, first.rows === null ? '' : String(first.rows)];
      for (const t of opt.threads) {
        const cell = find(n, t);
        if (!opt.resultsOnly) {
          if (cell.c.length) {
            const c = Math.max(median(cell.c) - base[t], 0), d = median(cell.d);
            const ratio = c / d;
            if (ratio > 0) ratios[t].push(ratio);
            row.push(ms(c), ms(d), ratio > 0 ? ratio.toFixed(2) : 'n/a');
          } else row.push('', '', '');
        }
        row.push(cell.status);
      }
      rows.push(row);
    }
    if (!opt.resultsOnly) {
      const row = ['geomean', ''];
      for (const t of opt.threads) {
        const r = ratios[t];
        const g = r.length ? Math.exp(r.reduce((s, x) => s + Math.log(x), 0) / r.length) : null;
        row.push('', '', g === null ? '' : g.toFixed(2), `${r.length} queries`);
      }
      rows.push(row);
    }
    const width = header.map((h, k) => Math.max(h.length, ...rows.map((r) => r[k].length)));
    const line = (r) => '| ' + r.map((v, k) => (k === 0 || header[k].startsWith('result')
      ? v.padEnd(width[k]) : v.padStart(width[k]))).join(' | ') + ' |';
    log('');
    log(`TPC-H SF ${SF}` + (opt.resultsOnly ? ', results only'
      : `, median of ${opt.runs} runs; chive startup (SELECT 1) ` +
        opt.threads.map((t) => `${ms(base[t])} ms at t=${t}`).join(', ') +
        `; load average ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}; ${os.cpus().length} CPUs`));
    log(line(header));
    log('|' + width.map((w, k) => (k === 0 || header[k].startsWith('result')
      ? '-'.repeat(w + 2) : '-'.repeat(w + 1) + ':')).join('|') + '|');
    for (const r of rows) log(line(r));
    if (!opt.resultsOnly)
      log('chive ms: the chive process less its startup; ratio: chive / DuckDB (n/a: chive\'s ' +
          'time within its startup\'s); geomean: of the ratios of the queries both engines ran.');
    // What went wrong, once per query and message.
    const seen = new Set();
    for (const cell of cells) {
      if (cell.status === 'ok') continue;
      const key = `${cell.n} ${cell.status} ${cell.note}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const ts = cells.filter((x) => x.n === cell.n && x.status === cell.status && x.note === cell.note)
        .map((x) => x.t).join(',');
      log(`Q${String(cell.n).padStart(2, '0')} ${cell.status} (t=${ts}): ${cell.note}`);
    }

    const passing = opt.queries.filter((n) => opt.threads.every((t) => find(n, t).status === 'ok'));
    log(`chive gives DuckDB's results on ${passing.length} of ${opt.queries.length} queries` +
        (passing.length ? `: ${passing.map((n) => `Q${n}`).join(' ')}` : ''));
    if (opt.expectPass) {
      const missing = opt.expectPass.filter((n) => !passing.includes(n));
      const extra = passing.filter((n) => !opt.expectPass.includes(n));
      if (missing.length) {
        failed = true;
        log(`FAIL: expected to pass, but did not: ${missing.map((n) => `Q${n}`).join(' ')}`);
      }
      if (extra.length)
        log(`note: passing beyond --expect-pass (widen the list): ${extra.map((n) => `Q${n}`).join(' ')}`);
    }
    if (cells.some((x) => x.status === 'DIFF')) log('FAIL: chive and DuckDB disagree (DIFF above)');
  } catch (e) {
    failed = true;
    console.error(`tpch: ${e.message}`);
  } finally {
    rmrf(timeFile);
    if (temp) rmrf(top);
  }
  process.exit(failed ? 1 : 0);
})();
