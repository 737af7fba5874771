#!/usr/bin/env node
// SIGKILL `chive sql` at random moments of INSERT INTO and INSERT OVERWRITE
// (dynamic partitions, new and existing, and a static one) into a Parquet
// table, read from a source of two files (so written on two threads), half
// of them once the commit has begun (its write record seen
// PENDING or COMMITTED in the metastore), then run one `chive sql -e "SELECT 1"`, which finishes or undoes
// what the kill left.  After it, chive's count(*) must be the count before
// the statement or after it, and DuckDB, reading the bare partition folders
// with hive_partitioning, must count exactly what chive counts.
//
//   node kill_commit_duckdb.js CHIVE [TRIALS] [SEED]
//
// TRIALS defaults to 20, or 100 with CHIVE_LONG_TESTS=1.  Exit 0 when no
// trial saw a violation, 1 otherwise, 77 (skipped) without DuckDB.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { execFileSync, spawn, spawnSync } = require('child_process');

const { DuckDBInstance } = require('./duckdb_peer');
const chive = process.argv[2];
if (!chive) {
  console.error('usage: kill_commit_duckdb.js CHIVE [TRIALS] [SEED]');
  process.exit(2);
}
const trials = Number(process.argv[3] ||
                      (process.env.CHIVE_LONG_TESTS === '1' ? 100 : 20));
let seed = Number(process.argv[4] || Date.now() % 1000000);
console.log(`# seed ${seed} (pass it as the third argument to repeat)`);
const rand = () => { // xorshift, repeatable from the seed
  seed ^= seed << 13; seed >>>= 0; seed ^= seed >>> 17; seed ^= seed << 5; seed >>>= 0;
  return seed / 4294967296;
};

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'chv-kill-duck-'));
const wh = path.join(tmp, 'wh');
const sql = (text) =>
  execFileSync(chive, ['sql', '--warehouse', wh, '--format', 'csv', '-e', text],
               { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
const count = (where) => Number(sql(`SELECT count(*) FROM t${where ? ' WHERE ' + where : ''};`)
                                  .trim().split(/\r?\n/).pop());

// The statement of trial i and the count it leaves, from the count before.
const SRC = 4000;
function statement(i) {
  switch (i % 4) {
    case 0: return { text: `INSERT INTO t PARTITION (dt) SELECT id, s, concat('d', cast(id % 100 AS STRING)) FROM src;`,
                     after: (b) => b + SRC };
    case 1: return { text: `INSERT INTO t PARTITION (dt) SELECT id, s, concat('n${i}_', cast(id % 100 AS STRING)) FROM src;`,
                     after: (b) => b + SRC };
    case 2: return { text: `INSERT OVERWRITE TABLE t PARTITION (dt) SELECT id, s, concat('d', cast(id % 100 AS STRING)) FROM src;`,
                     after: (b) => b - count(`dt LIKE 'd%'`) + SRC };
    default: return { text: `INSERT OVERWRITE TABLE t PARTITION (dt='d1') SELECT id, s FROM src;`,
                      after: (b) => b - count(`dt = 'd1'`) + SRC };
  }
}

// The states of the write records now (1 PENDING, 2 COMMITTED), read from
// the metastore as any SQLite client can.
const recordStates = () => {
  try {
    return execFileSync('sqlite3', [path.join(wh, '.chive_metastore.db'),
                                    'SELECT state FROM commits;'],
                        { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch (e) { return ''; }
};

// Run text; kill it after killAfterMs, or (atCommit) as soon as its record
// is seen PENDING or COMMITTED, that is during the commit's moves, its
// metastore transaction or its clean-up.
function run(text, killAfterMs, atCommit) {
  return new Promise((resolve) => {
    const p = spawn(chive, ['sql', '--warehouse', wh, '-e', text], { stdio: 'ignore' });
    let killed = false, done = false;
    const timer = killAfterMs == null || atCommit ? null : setTimeout(() => {
      killed = p.kill('SIGKILL');
    }, killAfterMs);
    const poll = () => {
      if (done) return;
      if (/[12]/.test(recordStates())) { killed = p.kill('SIGKILL'); return; }
      setTimeout(poll, 1);
    };
    if (atCommit) poll();
    p.on('exit', (code, signal) => {
      done = true;
      if (timer) clearTimeout(timer);
      resolve({ killed: killed && signal === 'SIGKILL', code });
    });
  });
}

(async () => {
  let violations = 0, duckViolations = 0, killed = 0, completeSeen = 0;
  let finished = 0, undone = 0, discarded = 0;
  try {
    sql(`CREATE TABLE src (id BIGINT, s STRING) STORED AS PARQUET;
         CREATE TABLE t (id BIGINT, s STRING) PARTITIONED BY (dt STRING) STORED AS PARQUET;`);
    // Two files, so that the statements read src on two threads and write
    // on both (one writer per reader thread) where the machine has two CPUs.
    for (let half = 0; half < 2; half++) {
      const vals = [];
      for (let k = half * SRC / 2; k < (half + 1) * SRC / 2; k++) vals.push(`(${k}, 'v${k}')`);
      sql(`INSERT INTO src VALUES ${vals.join(',')};`);
    }
    // Calibration: one statement of each kind, timed, so kills spread over
    // a statement's whole run; the window narrows when one ends first.
    let span = 0;
    for (let i = 0; i < 4; i++) {
      const t0 = Date.now();
      const r = await run(statement(i).text, null);
      if (r.code !== 0) throw new Error(`calibration statement ${i} failed`);
      span = Math.max(span, Date.now() - t0);
    }
    console.log(`# one statement takes about ${span} ms; kills land within that`);

    const db = await DuckDBInstance.create(':memory:');
    const con = await db.connect();
    const glob = path.join(wh, 't', '*', 'part-*');
    const duckCount = async () => {
      const r = await con.runAndReadAll(
        `SELECT count(*)::BIGINT AS n FROM read_parquet('${glob}', hive_partitioning = true)`);
      return Number(r.getRowObjects()[0].n);
    };

    for (let i = 4; i < 4 + trials; i++) {
      const st = statement(i);
      const before = count();
      const after = st.after(before);
      // Half the kills anywhere in the run, half once the commit has begun.
      const atCommit = rand() < 0.5;
      const r = await run(st.text, Math.floor(rand() * span), atCommit);
      if (r.killed) killed++;
      else span = Math.max(20, Math.floor(span * 3 / 4));
      // The next chive process finishes or undoes it, and says which.
      const one = spawnSync(chive, ['sql', '--warehouse', wh, '-e', 'SELECT 1;'], { encoding: 'utf8' });
      const m = /\((\d+) finished, (\d+) undone, (\d+) discarded\)/.exec(one.stderr);
      if (m) { finished += Number(m[1]); undone += Number(m[2]); discarded += Number(m[3]); }
      const ours = count();
      const theirs = await duckCount();
      if (ours === after) completeSeen++;
      if (ours !== before && ours !== after) {
        violations++;
        console.log(`not ok - trial ${i}: chive counts ${ours}, neither ${before} before nor ${after} after`);
      }
      if (theirs !== ours) {
        duckViolations++;
        console.log(`not ok - trial ${i}: DuckDB counts ${theirs} over the folders, chive ${ours}`);
      }
      if (!r.killed && ours !== after) {
        violations++;
        console.log(`not ok - trial ${i}: the statement ran to the end but chive counts ${ours}, not ${after}`);
      }
    }
    const left = execFileSync('find', [wh, '-name', '.staging_*'], { encoding: 'utf8' }).trim();
    if (left) { violations++; console.log(`not ok - staging folders left: ${left}`); }
    console.log(`# recovered: ${finished} killed after the metastore commit (finished), ` +
                `${undone} while files moved in (undone), ${discarded} while writing (discarded)`);
    console.log(`# ${trials} trials, ${killed} killed while running, ${completeSeen} found complete; ` +
                `violations: chive ${violations}, DuckDB ${duckViolations}`);
    const bad = violations + duckViolations;
    console.log(`kill_commit_duckdb: ${trials - Math.min(trials, bad)} passed, ${bad} failed`);
    process.exitCode = bad ? 1 : 0;
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
})().catch((e) => { console.error(e); process.exit(1); });
