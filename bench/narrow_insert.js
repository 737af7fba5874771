#!/usr/bin/env node
// The narrow INSERT benchmark: ROWS rows of (id BIGINT, v INT, s STRING,
// d DOUBLE) written into a Parquet table partitioned into 20 partitions
// (p INT), by chive's INSERT INTO ... SELECT and by DuckDB's COPY ...
// (FORMAT parquet, PARTITION_BY (p)), from the same source files, with 1
// and 2 threads.  Run it through bench/narrow_insert.sh, which finds chive
// and node.
//
//  1. DuckDB generates the source with one thread: 4 Parquet files
//     (snappy) of ROWS / 4 rows, unpartitioned, every value a function of
//     the row number i: id = i, v = i * 7919 mod 1000003, s = 's' and a
//     number of 1 to 6 digits, d = i / 8 (NULL on every 101st row), p =
//     (i * 2654435761) mod 2^32 mod 20, so every file holds rows of every
//     partition, unordered.  chive registers the folder as an external
//     table.
//  2. Each run: chive's `INSERT INTO narrow_out SELECT id, v, s, d, p FROM
//     narrow_src` into an empty table (the DROP and CREATE before it in a
//     separate, untimed process), `SET 'table.exec.hive.infer-source-
//     parallelism.max' = N`; DuckDB's COPY into an empty folder, `SET
//     threads = N`.  DuckDB then reads both outputs and each must hold the
//     source's rows (count, partitions, sums, a hash of every row).
//  3. The table: medians of R runs, chive beside DuckDB, and the CPU
//     seconds over wall seconds of each engine's median run.
//
// What is timed: chive's whole `chive sql -e` process (bash reads the clock
// around it; startup is a few milliseconds); DuckDB's statement inside the
// node process (hrtime).
//
//   node narrow_insert.js --chive CHIVE [ROWS] [--runs R] [--threads 1,2]
//        [--data DIR]
//
// Exit 0 on success, 1 on a mismatch or failure, 2 on bad usage, 77
// (skipped) without DuckDB.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');
const { DuckDBInstance } = require('../tests/peer/duckdb_peer.js');

const DATA_VERSION = 1;
const FILES = 4;
const PARTS = 20;

function usage(msg) {
  if (msg) console.error(`narrow_insert: ${msg}`);
  console.error('usage: narrow_insert.js --chive CHIVE [ROWS] [--runs R] [--threads 1,2] [--data DIR]');
  process.exit(2);
}
const opt = { rows: 3000000, runs: 3, threads: [1, 2], data: null, chive: null };
{
  const a = process.argv.slice(2);
  const num = (s, what) => {
    if (!/^[0-9]+$/.test(s || '') || Number(s) < 1) usage(`${what} must be a positive integer`);
    return Number(s);
  };
  for (let k = 0; k < a.length; k++) {
    switch (a[k]) {
      case '--chive': opt.chive = a[++k]; break;
      case '--rows': opt.rows = num(a[++k], '--rows'); break;
      case '--runs': opt.runs = num(a[++k], '--runs'); break;
      case '--threads': opt.threads = (a[++k] || '').split(',').map((x) => num(x, '--threads')); break;
      case '--data': opt.data = a[++k]; break;
      default:
        if (/^[0-9]+$/.test(a[k])) opt.rows = num(a[k], 'ROWS');
        else usage(`unknown argument ${a[k]}`);
    }
  }
  if (!opt.chive) usage('--chive is required');
  if (opt.rows % FILES) usage(`ROWS must be a multiple of ${FILES}`);
}

const COLS = 'id, v, s, d, p';
let dir, wh, timeFile;
const TIMED = 't0=$EPOCHREALTIME; "$@"; rc=$?; t1=$EPOCHREALTIME; ' +
              '{ echo "$t0 $t1"; times; } > "$TIMEFILE"; exit $rc';
function chive(text) {
  const argv = ['sql', '--warehouse', wh, '--format', 'csv', '-e', text];
  const r = spawnSync('bash', ['-c', TIMED, 'bash', opt.chive, ...argv],
                      { encoding: 'utf8', maxBuffer: 1 << 28,
                        env: { ...process.env, LC_ALL: 'C', TIMEFILE: timeFile } });
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`chive failed (exit ${r.status}):\n${text}\n${r.stderr}`);
  const t = fs.readFileSync(timeFile, 'utf8').trim().split('\n');
  const [t0, t1] = t[0].split(' ').map(Number);
  const secs = (s) => { const m = /^([0-9]+)m([0-9.]+)s$/.exec(s); return Number(m[1]) * 60 + Number(m[2]); };
  const [user, sys] = t[2].split(' ');
  return { out: r.stdout, secs: t1 - t0, cpu: secs(user) + secs(sys) };
}
const median = (xs) => {
  const s = [...xs].sort((x, y) => x - y);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const rmrf = (p) => fs.rmSync(p, { recursive: true, force: true });

(async () => {
  const temp = !opt.data;
  dir = opt.data || fs.mkdtempSync(path.join(os.tmpdir(), 'chv-bench-narrow-'));
  fs.mkdirSync(dir, { recursive: true });
  wh = path.join(dir, 'wh');
  timeFile = path.join(dir, 'time.txt');
  const srcDir = path.join(dir, 'src'), outDuck = path.join(dir, 'out_duckdb');
  let failed = false;
  try {
    const db = await DuckDBInstance.create(':memory:');
    const con = await db.connect();
    const run = (s) => con.runAndReadAll(s);
    const q = async (s) => (await run(s)).getRowsJson();
    const duckVersion = (await q('SELECT version()'))[0][0];
    await q('SET enable_external_file_cache = false');

    const metaFile = path.join(dir, 'meta.json');
    const meta = { version: DATA_VERSION, rows: opt.rows, duckdb: duckVersion };
    let reuse = false;
    try { reuse = JSON.stringify(JSON.parse(fs.readFileSync(metaFile, 'utf8'))) === JSON.stringify(meta); }
    catch (e) { reuse = false; }
    if (!reuse) {
      for (const p of [metaFile, srcDir, wh, outDuck]) rmrf(p);
      fs.mkdirSync(srcDir, { recursive: true });
      await q('SET threads = 1');
      const per = opt.rows / FILES;
      for (let f = 0; f < FILES; f++)
        await q(`COPY (SELECT i AS id, CAST(i * 7919 % 1000003 AS INTEGER) AS v,
                   's' || CAST((i * 48271) % 999983 AS VARCHAR) AS s,
                   CASE WHEN i % 101 = 0 THEN NULL ELSE i / 8 END AS d,
                   CAST((i * 2654435761) % 4294967296 % ${PARTS} AS INTEGER) AS p
                 FROM range(${f * per}, ${(f + 1) * per}) r(i))
                 TO '${srcDir}/src-${f}.parquet' (FORMAT parquet, COMPRESSION snappy)`);
      chive(`CREATE EXTERNAL TABLE narrow_src (id BIGINT, v INT, s STRING, d DOUBLE, p INT)
               STORED AS PARQUET LOCATION '${srcDir}';`);
      fs.writeFileSync(metaFile, JSON.stringify(meta));
    }
    console.log(`data: ${dir}${reuse ? ' (reused)' : ''}: ${opt.rows} rows in ${FILES} Parquet files, ${PARTS} partitions`);
    const fingerprint = async (glob, hive) => (await q(`SELECT count(*), count(DISTINCT p), sum(id),
        sum(v), sum(length(s)), count(d), bit_xor(hash(${COLS}))
        FROM read_parquet('${glob}'${hive ? ", hive_partitioning = true, hive_types = {'p': 'INTEGER'}" : ''})`))[0]
      .map(String).join(',');
    const source = await fingerprint(`${srcDir}/*.parquet`, false);

    const times = {};
    for (const threads of opt.threads) times[threads] = { chive: [], duck: [] };
    // one untimed run of each, checked, then the timed runs, alternating
    for (let k = 0; k <= opt.runs; k++) {
      for (const threads of opt.threads) {
        chive(`DROP TABLE IF EXISTS narrow_out;
               CREATE TABLE narrow_out (id BIGINT, v INT, s STRING, d DOUBLE)
                 PARTITIONED BY (p INT) STORED AS PARQUET;`);
        const c = chive(`SET 'table.exec.hive.infer-source-parallelism.max' = '${threads}';
                         INSERT INTO narrow_out SELECT ${COLS} FROM narrow_src;`);
        rmrf(outDuck);
        await q(`SET threads = ${threads}`);
        const cpu0 = process.cpuUsage();
        const t0 = process.hrtime.bigint();
        await run(`COPY (SELECT ${COLS} FROM read_parquet('${srcDir}/*.parquet')) TO '${outDuck}'
                   (FORMAT parquet, COMPRESSION snappy, PARTITION_BY (p))`);
        const secs = Number(process.hrtime.bigint() - t0) / 1e9;
        const cu = process.cpuUsage(cpu0);
        const a = await fingerprint(`${path.join(wh, 'narrow_out')}/*/part-*`, true);
        const b = await fingerprint(`${outDuck}/*/*.parquet`, true);
        if (a !== source || b !== source) {
          failed = true;
          console.error(`MISMATCH threads=${threads}: source ${source}, chive ${a}, DuckDB ${b}`);
        }
        if (k === 0) continue;
        times[threads].chive.push({ secs: c.secs, cpu: c.cpu });
        times[threads].duck.push({ secs, cpu: (cu.user + cu.system) / 1e6 });
      }
    }
    const pick = (xs) => {
      const m = median(xs.map((x) => x.secs));
      return xs.find((x) => x.secs === m) || xs[0];
    };
    console.log(`\nnarrow insert, ${opt.rows} rows into ${PARTS} Parquet partitions, median of ${opt.runs} runs; ` +
                `DuckDB ${duckVersion}; load average ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}; ` +
                `${os.cpus().length} CPUs`);
    console.log('| threads | chive s | DuckDB s | ratio | chive cpu | DuckDB cpu |');
    console.log('|---------|--------:|---------:|------:|----------:|-----------:|');
    for (const threads of opt.threads) {
      const c = pick(times[threads].chive), d = pick(times[threads].duck);
      const cm = median(times[threads].chive.map((x) => x.secs));
      const dm = median(times[threads].duck.map((x) => x.secs));
      console.log(`| ${threads} | ${cm.toFixed(3)} | ${dm.toFixed(3)} | ${(cm / dm).toFixed(2)} | ` +
                  `${(c.cpu / c.secs).toFixed(2)} | ${(d.cpu / d.secs).toFixed(2)} |`);
    }
  } catch (e) {
    console.error(`narrow_insert: ${e.message || e}`);
    failed = true;
  } finally {
    if (temp) rmrf(dir);
  }
  process.exit(failed ? 1 : 0);
})();
