// What the compatibility scripts here share: the chive binary from the
// command line, check() counting and naming each mismatch, chive's SQL
// with its rows as JSON Lines, and the summary that ends the script
// (exit 0, or 1 on a mismatch).
//
//   const peer = require('./peer_check.js')('name_compat.js');
//   peer.check('what', ok, 'detail'); peer.rowsOf(peer.sql(wh, 'SELECT ..'));
//   await peer.cases(wh, CASES, (sql) => duckdbRows(sql));
//   peer.finish();
'use strict';
const { execFileSync } = require('child_process');

module.exports = function peer(script) {
  const chive = process.argv[2];
  if (!chive) {
    console.error(`usage: ${script} CHIVE`);
    process.exit(2);
  }
  let passed = 0, failed = 0;
  const check = (name, ok, detail) => {
    if (ok) passed++;
    else {
      failed++;
      console.error(`MISMATCH ${name}${detail ? ': ' + detail : ''}`);
    }
  };
  const sql = (wh, text) =>
    execFileSync(chive, ['sql', '--warehouse', wh, '--format', 'jsonl', '-e', text],
                 { encoding: 'utf8' });
  const rowsOf = (out) => out.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l));
  // one canonical text a row: every value as a string (NULL as null)
  const canon = (r) => JSON.stringify(Object.values(r).map((v) =>
    v === null || v === undefined ? null : String(v)));
  // rows a (chive's) and b (the peer's, canonical), in order or as multisets
  const same = (name, a, b, ordered, who = 'DuckDB') => {
    if (!ordered) {
      a.sort();
      b.sort();
    }
    const ok = a.length === b.length && a.every((x, i) => x === b[i]);
    check(name, ok, `chive ${a.length} rows, ${who} ${b.length}; first differing: ` +
          `${a.find((x, i) => x !== b[i])} vs ${b.find((x, i) => x !== a[i])}`);
  };
  return {
    chive,
    check,
    sql,
    rowsOf,
    canon,
    same,
    // Each case [name, chive's SQL, the peer's (null: toPeer(chive's)),
    // ordered]: chive's rows against those peerRows(sql) resolves to.
    async cases(wh, cases, peerRows, toPeer = (s) => s) {
      for (const [name, ours, theirs, ordered] of cases) {
        let a, b;
        try {
          a = rowsOf(sql(wh, ours + ';')).map(canon);
        } catch (e) {
          check(name, false, `chive failed: ${e.stderr || e.message}`);
          continue;
        }
        const t = theirs || toPeer(ours);
        try {
          b = (await peerRows(t)).map(canon);
        } catch (e) {
          check(name, false, `DuckDB failed: ${e.message} in ${t}`);
          continue;
        }
        same(name, a, b, ordered);
      }
    },
    // fn({tmp, wh, q}) with a scratch folder (removed after, unless KEEP is
    // set), its warehouse folder and q(sql): DuckDB's rows as objects, of
    // an in-memory database; then the summary.
    // Each case [name, chive's SQL, DuckDB's (null: the same)] under each
    // variant [suffix of the name, SQL run before chive's]: chive's rows,
    // in no order, against those DuckDB's query q(sql) gives.
    async variantCases(wh, q, cases, variants) {
      for (const [name, ours, theirs] of cases) {
        const want = (await q(theirs || ours)).map(canon);
        for (const [suffix, prefix] of variants) {
          let got;
          try {
            got = rowsOf(sql(wh, prefix + ours + ';')).map(canon);
          } catch (e) {
            check(name + suffix, false, `chive failed: ${e.stderr || e.message}`);
            continue;
          }
          same(name + suffix, got, want.slice(), false);
        }
      }
    },
    async withDuckDB(prefix, fn) {
      const fs = require('fs');
      const os = require('os');
      const path = require('path');
      const { DuckDBInstance } = require('./duckdb_peer.js');
      const tmp = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
      try {
        const db = await DuckDBInstance.create(':memory:');
        const con = await db.connect();
        const q = async (s) => (await con.runAndReadAll(s)).getRowObjects();
        await fn({ tmp, wh: path.join(tmp, 'wh'), q });
      } catch (e) {
        console.error(e);
        process.exitCode = 1;
        failed++;
      } finally {
        if (!process.env.KEEP) fs.rmSync(tmp, { recursive: true, force: true });
      }
      this.finish();
    },
    finish() {
      console.log(`${script.replace(/\.js$/, '')}: ${passed} passed, ${failed} failed`);
      process.exit(failed ? 1 : 0);
    },
  };
};
