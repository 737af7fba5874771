#!/usr/bin/env node
// The lineitem benchmark: chive and DuckDB on the same Hive-partitioned
// table, in Parquet, ORC and text, with 1 and 2 threads.  Run it through
// bench/lineitem.sh, which finds chive and node.
//
//  1. DuckDB generates the table deterministically (SET threads=1, every
//     value a function of the row number): 10 data columns (BIGINT, INT,
//     DECIMAL(12,2), DOUBLE with NULLs, DATE, a short string, a low-
//     cardinality flag, a long string with NULLs) partitioned by
//     l_shipdate DATE into 40 folders l_shipdate=YYYY-MM-DD.  DuckDB writes
//     it as Parquet (snappy) and as Hive TEXTFILE (\001 between fields, \N
//     for NULL, dates as yyyy-MM-dd, decimals at their scale).  chive
//     registers both folders as external tables (CREATE EXTERNAL TABLE ...
//     LOCATION, MSCK REPAIR TABLE) and writes the ORC (zlib) copy itself
//     (CREATE TABLE ... STORED AS ORC, INSERT INTO ... SELECT from the
//     Parquet table).  DuckDB cannot read ORC: it answers the ORC rows from
//     the Parquet files.
//  2. Every query runs once on both engines with each thread count, and
//     the results must be equal (decimals, integers, dates and strings
//     exactly; doubles to a relative 1e-9; rows of the filter as a
//     multiset).  A mismatch prints both sides and exits 1.  A query chive
//     refuses as not supported is skipped with its message.
//  3. Unless --check, each query runs --runs more times on each engine
//     (alternating) and one table prints the medians.
//
// What is timed:
//  - DuckDB: the query in the node process, from the call to runAndReadAll
//    to all rows read (hrtime), over views of read_parquet / read_csv with
//    hive_partitioning, so every run lists the folders and reads the files
//    again.  The external file cache is off, as chive has none either.
//  - chive: the whole `chive sql --warehouse W --format jsonl -e "SET ...;
//    QUERY"` process, exec to exit (bash reads the clock around it), so its
//    start, option registry and metastore open count too.  "startup" is
//    the median of the same process running `SELECT 1` instead; "net" is
//    the median minus it, and the ratio is net / DuckDB (the raw ratio is
//    printed beside it).
//  - INSERT: DuckDB's COPY ... TO (FORMAT parquet, PARTITION_BY
//    (l_shipdate)) into an empty folder; chive's INSERT INTO an empty
//    dynamically partitioned Parquet table (the DROP and CREATE before it
//    run in a separate, untimed process).  Both outputs are checked by
//    DuckDB against the source: rows, partitions, an order-independent hash
//    of every row.
//  - cpu: user+system CPU seconds over wall seconds of the median run
//    (chive's from bash's `times`; DuckDB's from the node process's CPU
//    time), which shows how many cores a run kept busy.
//
//   node lineitem.js --chive CHIVE [ROWS] [--rows N] [--runs R]
//        [--threads 1,2] [--formats parquet,orc,text] [--queries q,..]
//        [--data DIR] [--check]
//
// Exit 0 on success, 1 on a mismatch or failure, 2 on bad usage, 77
// (skipped) without DuckDB.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { DuckDBInstance } = require('../tests/peer/duckdb_peer.js');
const { chiveRun: runChive, parseJsonl, EXACT, canonNumber, median } = require('./benchlib.js');

const DATA_VERSION = 1; // bump when the generated data changes
const PARTS = 40;       // partitions (days from 2024-03-01)

function usage(msg) {
  if (msg) console.error(`lineitem: ${msg}`);
  console.error('usage: lineitem.js --chive CHIVE [ROWS] [--rows N] [--runs R] ' +
                '[--threads 1,2] [--formats parquet,orc,text] [--queries q,..] ' +
                '[--data DIR] [--check]');
  process.exit(2);
}
const opt = { rows: 10000000, runs: 5, threads: [1, 2],
              formats: ['parquet', 'orc', 'text'], queries: null,
              data: null, check: false, chive: null };
{
  const a = process.argv.slice(2);
  const list = (s) => s.split(',').filter((x) => x);
  const num = (s, what) => {
    if (!/^[0-9]+$/.test(s || '') || Number(s) < 1) usage(`${what} must be a positive integer`);
    return Number(s);
  };
  for (let k = 0; k < a.length; k++) {
    const v = () => (k + 1 < a.length ? a[++k] : usage(`${a[k]} needs a value`));
    switch (a[k]) {
      case '--chive': opt.chive = v(); break;
      case '--rows': opt.rows = num(v(), '--rows'); break;
      case '--runs': opt.runs = num(v(), '--runs'); break;
      case '--threads': opt.threads = list(v()).map((t) => num(t, '--threads')); break;
      case '--formats': opt.formats = list(v()); break;
      case '--queries': opt.queries = list(v()); break;
      case '--data': opt.data = path.resolve(v()); break;
      case '--check': opt.check = true; break;
      case '-h': case '--help': usage();
      default:
        if (/^[0-9]+$/.test(a[k])) opt.rows = num(a[k], 'ROWS');
        else usage(`unknown argument ${a[k]}`);
    }
  }
  if (!opt.chive) usage('--chive is required');
  for (const f of opt.formats)
    if (!['parquet', 'orc', 'text'].includes(f)) usage(`unknown format ${f}`);
  if (opt.rows < PARTS) usage(`--rows must be at least ${PARTS}`);
}

// ---- the table -----------------------------------------------------------

const COLUMNS = [
  ['l_orderkey', 'BIGINT', 'BIGINT'],
  ['l_linenumber', 'INT', 'INTEGER'],
  ['l_suppkey', 'INT', 'INTEGER'],
  ['l_quantity', 'INT', 'INTEGER'],
  ['l_extendedprice', 'DECIMAL(12,2)', 'DECIMAL(12,2)'],
  ['l_discount', 'DOUBLE', 'DOUBLE'],
  ['l_commitdate', 'DATE', 'DATE'],
  ['l_shipmode', 'STRING', 'VARCHAR'],
  ['l_returnflag', 'STRING', 'VARCHAR'],
  ['l_comment', 'STRING', 'VARCHAR'],
];
const HIVE_COLS = COLUMNS.map(([n, h]) => `${n} ${h}`).join(', ');
const ALL_COLS = COLUMNS.map(([n]) => n).concat(['l_shipdate']).join(', ');
const WORDS = ['carefully', 'final', 'deposits', 'haggle', 'slyly', 'express',
               'requests', 'among', 'the', 'furiously', 'regular', 'accounts',
               'blithely', 'ironic', 'packages', 'boost'];

// Row i of the table; the partition column last.  Every value is integer
// arithmetic on i (u(k, n): i times the k-th multiplier, modulo the prime
// 2^32 - 5, modulo n; uniform, and unrelated between columns), so any
// DuckDB version writes the same rows.
const MULT = [2654435761, 2246822519, 3266489917, 668265263, 374761393, 2869860233,
              1103515245, 3432918353, 461845907, 2336365089, 1597334677, 2999951447,
              1779033703];
const u = (k, n) => `(((i * ${MULT[k]}) % 4294967291) % ${n})`;
function generator(rows) {
  const w = `[${WORDS.map((x) => `'${x}'`).join(', ')}]`;
  return `SELECT 1000000000000 + (i // 4) * 3 AS l_orderkey,
      (i % 4 + 1)::INTEGER AS l_linenumber,
      ${u(0, 10000)}::INTEGER AS l_suppkey,
      (1 + ${u(1, 50)})::INTEGER AS l_quantity,
      ((${u(2, 10000000)} + 90000) / 100)::DECIMAL(12,2) AS l_extendedprice,
      CASE WHEN i % 997 = 0 THEN NULL ELSE ${u(3, 11)} / 100 END::DOUBLE AS l_discount,
      DATE '2024-01-01' + ${u(4, 120)}::INTEGER AS l_commitdate,
      ['AIR', 'FOB', 'MAIL', 'RAIL', 'REG AIR', 'SHIP', 'TRUCK'][1 + ${u(5, 7)}] AS l_shipmode,
      ['N', 'R', 'A', 'N'][1 + ${u(6, 4)}] AS l_returnflag,
      CASE WHEN i % 101 = 0 THEN NULL ELSE concat_ws(' ',
        ${[7, 8, 9, 10, 11].map((k) => `${w}[1 + ${u(k, 16)}]`).join(', ')},
        'of order', (1000000000000 + (i // 4) * 3)::VARCHAR) END AS l_comment,
      DATE '2024-03-01' + ${u(12, PARTS)}::INTEGER AS l_shipdate
    FROM range(${rows}) r(i)`;
}

// The queries, one SQL text for both engines (DuckDB's tables are views of
// the same name).  approx: output columns compared with a tolerance;
// unordered: rows compared as a multiset.
const QUERIES = [
  { name: 'count', sql: (t) => `SELECT count(*) AS n FROM ${t}` },
  { name: 'sum', sql: (t) => `SELECT sum(l_extendedprice) AS price, sum(l_quantity) AS qty FROM ${t}` },
  { name: 'filter', unordered: true,
    sql: (t) => `SELECT l_orderkey, l_extendedprice FROM ${t} WHERE l_suppkey = 4242` },
  { name: 'partition',
    sql: (t) => `SELECT count(*) AS n, sum(l_extendedprice) AS price, max(l_commitdate) AS commitdate,
                 max(l_comment) AS comment FROM ${t} WHERE l_shipdate = DATE '2024-03-15'` },
  { name: 'group_by', approx: [4],
    sql: (t) => `SELECT l_returnflag, count(*) AS n, sum(l_quantity) AS qty,
                 sum(l_extendedprice) AS price, avg(l_discount) AS disc
                 FROM ${t} GROUP BY l_returnflag ORDER BY l_returnflag` },
  { name: 'top10',
    sql: (t) => `SELECT l_orderkey, l_linenumber, l_extendedprice, l_shipmode, l_shipdate
                 FROM ${t} ORDER BY l_extendedprice DESC, l_orderkey, l_linenumber LIMIT 10` },
  { name: 'insert', insert: true,
    sql: (t) => `INSERT INTO lineitem_out SELECT ${ALL_COLS} FROM ${t}` },
];
const queries = opt.queries
  ? opt.queries.map((n) => QUERIES.find((q) => q.name === n) || usage(`unknown query ${n}`))
  : QUERIES;

// ---- chive ---------------------------------------------------------------

let dir, wh, timeFile;

function setThreads(n) {
  return `SET 'table.exec.hive.infer-source-parallelism.max' = '${n}';\n`;
}
// One chive process; {out, err, code, secs, cpu} (bench/benchlib.js).
const chiveRun = (text) => runChive(opt.chive, wh, timeFile, text);
function chiveMust(text) {
  const r = chiveRun(text);
  if (r.code !== 0) throw new Error(`chive failed (exit ${r.code}):\n${text}\n${r.err}`);
  return r;
}

// ---- comparing -----------------------------------------------------------

function cellEqual(a, b, approx) {
  if (a === null || b === null) return a === b;
  a = String(a); b = String(b);
  if (a === b) return true;
  if (approx) {
    const x = Number(a), y = Number(b);
    return Math.abs(x - y) <= 1e-9 * Math.max(1, Math.abs(x), Math.abs(y));
  }
  return EXACT.test(a) && EXACT.test(b) && canonNumber(a) === canonNumber(b);
}
function canonRow(r) {
  return JSON.stringify(r.map((v) => (v === null ? null : EXACT.test(String(v)) ? canonNumber(String(v)) : String(v))));
}
// null when equal, else what differs.
function compare(q, chiveRows, duckRows) {
  let a = chiveRows, b = duckRows;
  if (q.unordered) {
    const key = (r) => canonRow(r);
    a = [...a].sort((x, y) => (key(x) < key(y) ? -1 : key(x) > key(y) ? 1 : 0));
    b = [...b].sort((x, y) => (key(x) < key(y) ? -1 : key(x) > key(y) ? 1 : 0));
  }
  if (a.length !== b.length) return `${a.length} rows from chive, ${b.length} from DuckDB`;
  for (let r = 0; r < a.length; r++) {
    if (a[r].length !== b[r].length) return `row ${r}: ${a[r].length} columns from chive, ${b[r].length} from DuckDB`;
    for (let c = 0; c < a[r].length; c++)
      if (!cellEqual(a[r][c], b[r][c], (q.approx || []).includes(c)))
        return `row ${r} column ${c}: chive ${JSON.stringify(a[r])}, DuckDB ${JSON.stringify(b[r])}`;
  }
  return null;
}

// ---- main ----------------------------------------------------------------

const rmrf = (p) => fs.rmSync(p, { recursive: true, force: true });
const log = (s) => console.log(s);

(async () => {
  const temp = !opt.data;
  dir = opt.data || fs.mkdtempSync(path.join(os.tmpdir(), 'chv-bench-lineitem-'));
  fs.mkdirSync(dir, { recursive: true });
  wh = path.join(dir, 'wh');
  timeFile = path.join(dir, 'time.txt');
  const pqDir = path.join(dir, 'parquet'), txtDir = path.join(dir, 'text');
  const outDuck = path.join(dir, 'out_duckdb');
  let failed = false;
  try {
    const db = await DuckDBInstance.create(':memory:');
    const con = await db.connect();
    const run = (s) => con.runAndReadAll(s);
    const q = async (s) => (await run(s)).getRowsJson();
    const duckVersion = (await q('SELECT version()'))[0][0];
    await q('SET enable_external_file_cache = false');

    // 1. the data, or the data of an earlier run in --data DIR
    const metaFile = path.join(dir, 'meta.json');
    const meta = { version: DATA_VERSION, rows: opt.rows, parts: PARTS, duckdb: duckVersion };
    let reuse = false;
    try { reuse = JSON.stringify(JSON.parse(fs.readFileSync(metaFile, 'utf8'))) === JSON.stringify(meta); }
    catch (e) { reuse = false; }
    if (reuse) log(`data: ${dir} (reused)`);
    else {
      for (const p of [metaFile, pqDir, txtDir, wh, outDuck]) rmrf(p);
      const t0 = Date.now();
      await q('SET threads = 1'); // one writer: the same files every time
      await q(`COPY (${generator(opt.rows)}) TO '${pqDir}'
               (FORMAT parquet, COMPRESSION snappy, PARTITION_BY (l_shipdate))`);
      await q(`COPY (${generator(opt.rows)}) TO '${txtDir}'
               (FORMAT csv, DELIMITER '\x01', NULLSTR '\\N', HEADER false, QUOTE '',
                ESCAPE '', PARTITION_BY (l_shipdate))`);
      const t1 = Date.now();
      chiveMust(`SET table.sql-dialect=hive;
        CREATE EXTERNAL TABLE lineitem_parquet (${HIVE_COLS}) PARTITIONED BY (l_shipdate DATE)
          STORED AS PARQUET LOCATION '${pqDir}';
        MSCK REPAIR TABLE lineitem_parquet;
        CREATE EXTERNAL TABLE lineitem_text (${HIVE_COLS}) PARTITIONED BY (l_shipdate DATE)
          ROW FORMAT DELIMITED FIELDS TERMINATED BY '\\001' NULL DEFINED AS '\\\\N'
          STORED AS TEXTFILE LOCATION '${txtDir}';
        MSCK REPAIR TABLE lineitem_text;
        CREATE TABLE lineitem_orc (${HIVE_COLS}) PARTITIONED BY (l_shipdate DATE) STORED AS ORC
          TBLPROPERTIES ('orc.compress' = 'ZLIB');`);
      const t2 = Date.now();
      chiveMust(`INSERT INTO lineitem_orc SELECT ${ALL_COLS} FROM lineitem_parquet`);
      const t3 = Date.now();
      fs.writeFileSync(metaFile, JSON.stringify(meta));
      log(`data: ${dir}: DuckDB wrote Parquet and text in ${((t1 - t0) / 1e3).toFixed(1)} s, ` +
          `chive registered them in ${((t2 - t1) / 1e3).toFixed(1)} s and wrote ORC in ${((t3 - t2) / 1e3).toFixed(1)} s`);
    }
    const du = (p) => {
      let n = 0;
      const walk = (d) => { for (const e of fs.readdirSync(d, { withFileTypes: true })) {
        const f = path.join(d, e.name);
        if (e.isDirectory()) walk(f); else if (!e.name.startsWith('.') && !e.name.startsWith('_')) n += fs.statSync(f).size;
      } };
      walk(p);
      return (n / 1e6).toFixed(1);
    };
    const hive = `hive_partitioning = true, hive_types = {'l_shipdate': 'DATE'}`;
    // A Parquet table seen by DuckDB: rows, partitions, price, a hash of
    // every row (order-independent).
    const fingerprint = async (glob) => (await q(`SELECT count(*), count(DISTINCT l_shipdate),
        sum(l_extendedprice), bit_xor(hash(${ALL_COLS})) FROM read_parquet('${glob}', ${hive})`))[0];
    const source = await fingerprint(`${pqDir}/*/*.parquet`);
    if (String(source[0]) !== String(opt.rows) || String(source[1]) !== String(PARTS))
      throw new Error(`the generated table has ${source[0]} rows in ${source[1]} partitions`);
    log(`table: ${source[0]} rows, ${source[1]} partitions by l_shipdate; Parquet (snappy, DuckDB ${duckVersion}) ` +
        `${du(pqDir)} MB, ORC (zlib, chive) ${du(path.join(wh, 'lineitem_orc'))} MB, text (DuckDB) ${du(txtDir)} MB`);

    // DuckDB's tables: views over the same folders (ORC: the Parquet files)
    const pqView = `SELECT ${ALL_COLS} FROM read_parquet('${pqDir}/*/*.parquet', ${hive})`;
    const duckCols = `{${COLUMNS.map(([n, , d]) => `'${n}': '${d}'`).join(', ')}}`;
    await q(`CREATE VIEW lineitem_parquet AS ${pqView}`);
    await q(`CREATE VIEW lineitem_orc AS ${pqView}`);
    await q(`CREATE VIEW lineitem_text AS SELECT ${ALL_COLS} FROM read_csv('${txtDir}/*/*.csv',
               delim = '\x01', quote = '', escape = '', nullstr = '\\N', header = false,
               auto_detect = false, columns = ${duckCols}, ${hive})`);

    const chiveOut = path.join(wh, 'lineitem_out');
    const prepareInsert = () => {
      chiveMust(`DROP TABLE IF EXISTS lineitem_out;
        CREATE TABLE lineitem_out (${HIVE_COLS}) PARTITIONED BY (l_shipdate DATE) STORED AS PARQUET;`);
      rmrf(outDuck);
    };

    // One run of a query on each engine: {chive: {secs, cpu, rows}, duck: {...}}
    // or {skip: reason}.
    async function runOnce(query, fmt, threads) {
      const table = `lineitem_${fmt}`;
      if (query.insert) prepareInsert();
      const c = chiveRun(setThreads(threads) + query.sql(table));
      if (c.code !== 0) {
        if (/not supported/i.test(c.err)) return { skip: c.err.trim().split('\n')[0] };
        throw new Error(`chive failed on ${query.name}/${fmt}/${threads} (exit ${c.code}):\n${c.err}`);
      }
      await q(`SET threads = ${threads}`);
      const duckSql = query.insert
        ? `COPY (SELECT ${ALL_COLS} FROM ${table}) TO '${outDuck}'
           (FORMAT parquet, COMPRESSION snappy, PARTITION_BY (l_shipdate))`
        : query.sql(table);
      const cpu0 = process.cpuUsage();
      const t0 = process.hrtime.bigint();
      const reader = await run(duckSql);
      const secs = Number(process.hrtime.bigint() - t0) / 1e9;
      const cu = process.cpuUsage(cpu0);
      const res = {
        chive: { secs: c.secs, cpu: c.cpu, rows: parseJsonl(c.out) },
        duck: { secs, cpu: (cu.user + cu.system) / 1e6, rows: reader.getRowsJson() },
      };
      if (query.insert) {
        res.chive.rows = [await fingerprint(`${chiveOut}/*/part-*`)];
        res.duck.rows = [await fingerprint(`${outDuck}/*/*.parquet`)];
        const n = parseJsonl(chiveMust('SELECT count(*) FROM lineitem_out').out)[0][0];
        if (String(n) !== String(source[0]))
          res.chive.rows.push([`chive counts ${n} rows in lineitem_out`]);
      }
      return res;
    }
    const check = (query, fmt, threads, r) => {
      const diff = compare(query, r.chive.rows, r.duck.rows) ||
        (query.insert ? compare(query, r.chive.rows, [source]) : null);
      if (diff) {
        failed = true;
        console.error(`MISMATCH ${query.name} ${fmt} threads=${threads}: ${diff}`);
      }
      return !diff;
    };

    // 2. results
    const cells = [];
    const skipped = new Map();
    for (const fmt of opt.formats)
      for (const query of queries)
        for (const threads of opt.threads) {
          const r = await runOnce(query, fmt, threads);
          if (r.skip) {
            skipped.set(`${query.name} ${fmt}`, r.skip);
            log(`SKIP ${query.name} on ${fmt}: chive does not run it: ${r.skip}`);
            continue;
          }
          if (check(query, fmt, threads, r)) cells.push({ query, fmt, threads });
        }
    if (failed) throw new Error('chive and DuckDB disagree (MISMATCH above)');
    log(`results: ${cells.length} query runs of chive equal DuckDB's` +
        (skipped.size ? `, ${skipped.size} skipped` : ''));
    if (opt.check) return;

    // 3. timings
    const base = {};
    for (const threads of opt.threads) {
      const xs = [];
      for (let k = 0; k < opt.runs; k++) xs.push(chiveMust(setThreads(threads) + 'SELECT 1').secs);
      base[threads] = median(xs);
    }
    for (const cell of cells) {
      cell.c = []; cell.d = [];
      for (let k = 0; k < opt.runs; k++) {
        const r = await runOnce(cell.query, cell.fmt, cell.threads);
        if (r.skip || !check(cell.query, cell.fmt, cell.threads, r))
          throw new Error(`${cell.query.name} ${cell.fmt}: a timed run's result differs (MISMATCH above)`);
        cell.c.push(r.chive); cell.d.push(r.duck);
      }
    }
    const pick = (runs) => {
      const m = median(runs.map((r) => r.secs));
      const near = runs.reduce((a, r) => (Math.abs(r.secs - m) < Math.abs(a.secs - m) ? r : a));
      return { secs: m, cpu: near.cpu / near.secs };
    };
    const header = ['query', 'format', 'threads', 'chive s', 'chive net s', 'DuckDB s',
                    'ratio (net)', 'ratio (raw)', 'chive cpu', 'DuckDB cpu'];
    const rows = cells.map((cell) => {
      const c = pick(cell.c), d = pick(cell.d);
      const net = Math.max(c.secs - base[cell.threads], 0);
      cell.cpu = c.cpu;
      return [cell.query.name, cell.fmt + (cell.fmt === 'orc' ? '*' : ''), String(cell.threads),
              c.secs.toFixed(3), net.toFixed(3), d.secs.toFixed(3),
              (net / d.secs).toFixed(2), (c.secs / d.secs).toFixed(2),
              c.cpu.toFixed(2), d.cpu.toFixed(2)];
    });
    const width = header.map((h, k) => Math.max(h.length, ...rows.map((r) => r[k].length)));
    const line = (r) => '| ' + r.map((v, k) => (k < 3 ? v.padEnd(width[k]) : v.padStart(width[k]))).join(' | ') + ' |';
    log('');
    log(`lineitem, ${opt.rows} rows, median of ${opt.runs} runs; chive startup (SELECT 1) ` +
        opt.threads.map((t) => `${base[t].toFixed(3)} s at threads=${t}`).join(', ') +
        `; load average ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}; ${os.cpus().length} CPUs`);
    log(line(header));
    log('|' + width.map((w, k) => (k < 3 ? '-'.repeat(w + 2) : '-'.repeat(w + 1) + ':')).join('|') + '|');
    for (const r of rows) log(line(r));
    log('* ORC: chive reads its ORC (zlib) table, DuckDB the Parquet copy (DuckDB has no ORC reader).');
    log('net = chive s - chive startup; ratio (net) = net / DuckDB s; cpu = CPU seconds / wall seconds.');
    const multi = cells.filter((c) => c.threads > 1);
    if (multi.length && Math.max(...multi.map((c) => c.cpu)) < 1.2)
      log('note: chive kept at most one core busy at every thread count (chive cpu): it read ' +
          "with one thread whatever 'table.exec.hive.infer-source-parallelism.max' said.");
    for (const [k, v] of skipped) log(`skipped: ${k}: ${v}`);
  } catch (e) {
    failed = true;
    console.error(`lineitem: ${e.message}`);
  } finally {
    if (temp) rmrf(dir);
    else rmrf(timeFile);
  }
  process.exit(failed ? 1 : 0);
})();
