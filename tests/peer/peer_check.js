// What the compatibility scripts here share: the chive binary from the
// command line, check() counting and naming each mismatch, chive's SQL
// with its rows as JSON Lines, and the summary that ends the script
// (exit 0, or 1 on a mismatch).
//
//   const peer = require('./peer_check.js')('name_compat.js');
//   peer.check('what', ok, 'detail'); peer.rowsOf(peer.sql(wh, 'SELECT ..'));
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
  return {
    chive,
    check(name, ok, detail) {
      if (ok) passed++;
      else {
        failed++;
        console.error(`MISMATCH ${name}${detail ? ': ' + detail : ''}`);
      }
    },
    sql(wh, text) {
      return execFileSync(chive, ['sql', '--warehouse', wh, '--format', 'jsonl', '-e', text],
                          { encoding: 'utf8' });
    },
    rowsOf: (out) => out.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l)),
    finish() {
      console.log(`${script.replace(/\.js$/, '')}: ${passed} passed, ${failed} failed`);
      process.exit(failed ? 1 : 0);
    },
  };
};
