// What the benchmarks beside DuckDB share (bench/lineitem.js,
// bench/tpch.js): running one timed `chive sql` process, reading its JSON
// Lines with numbers kept as text, decimal numbers in one canonical form,
// and the median.
'use strict';
const fs = require('fs');
const { spawnSync } = require('child_process');

// One chive process running `text`; {out, err, code, secs, cpu, timedOut}.
// bash starts it and reads the clock around it, so the time of forking
// the (large) node process is not counted; `times` gives its CPU seconds.
// timeoutSecs (optional) has coreutils' timeout kill a process that runs
// longer (the timeout process is then part of every run's time).
const TIMED = 't0=$EPOCHREALTIME; "$@"; rc=$?; t1=$EPOCHREALTIME; ' +
              '{ echo "$t0 $t1"; times; } > "$TIMEFILE"; exit $rc';
function chiveRun(chive, wh, timeFile, text, timeoutSecs) {
  const argv = ['sql', '--warehouse', wh, '--format', 'jsonl', '-e', text];
  const cmd = timeoutSecs ? ['timeout', '-s', 'KILL', String(timeoutSecs), chive] : [chive];
  fs.rmSync(timeFile, { force: true });
  const r = spawnSync('bash', ['-c', TIMED, 'bash', ...cmd, ...argv],
                      { encoding: 'utf8', maxBuffer: 1 << 30,
                        env: { ...process.env, LC_ALL: 'C', TIMEFILE: timeFile } });
  if (r.error) throw r.error;
  if (timeoutSecs && r.status === 137)
    return { out: r.stdout, err: `chive: killed after ${timeoutSecs} s (--timeout)`, code: 137,
             secs: timeoutSecs, cpu: 0, timedOut: true };
  const t = fs.readFileSync(timeFile, 'utf8').trim().split('\n');
  const [t0, t1] = t[0].split(' ').map(Number);
  const secs = (s) => { const m = /^([0-9]+)m([0-9.]+)s$/.exec(s); return Number(m[1]) * 60 + Number(m[2]); };
  const [user, sys] = t[2].split(' ');
  return { out: r.stdout, err: r.stderr, code: r.status, secs: t1 - t0, cpu: secs(user) + secs(sys) };
}

// chive's JSON Lines, one array of values a row; numbers keep their text
// (a BIGINT past 2^53 stays exact).
function parseJsonl(out) {
  const rows = [];
  for (const line of out.split('\n')) {
    if (!line.startsWith('{')) continue;
    const row = [];
    let i = 1;
    const ws = () => { while (line[i] === ' ') i++; };
    const str = () => {
      let s = '';
      for (i++; ; i++) {
        const c = line[i];
        if (c === undefined) throw new Error(`bad JSON line: ${line}`);
        if (c === '"') { i++; return s; }
        if (c !== '\\') { s += c; continue; }
        const e = line[++i];
        if (e === 'u') { s += String.fromCharCode(parseInt(line.substr(i + 1, 4), 16)); i += 4; }
        else s += { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f' }[e] || e;
      }
    };
    for (;;) {
      ws();
      if (line[i] === '}') break;
      str(); ws(); i++; ws(); // key and ':'
      if (line[i] === '"') row.push(str());
      else {
        const m = /^[^,}\s]+/.exec(line.slice(i));
        row.push(m[0] === 'null' ? null : m[0]);
        i += m[0].length;
      }
      ws();
      if (line[i] === ',') i++;
    }
    rows.push(row);
  }
  return rows;
}

// A decimal number's text without leading and trailing zeros, so that
// 12.50 and 12.5 are equal.
const EXACT = /^-?[0-9]+(\.[0-9]+)?$/;
function canonNumber(s) {
  let [int, frac = ''] = s.replace(/^-/, '').split('.');
  int = int.replace(/^0+(?=.)/, '');
  frac = frac.replace(/0+$/, '');
  const v = frac ? `${int}.${frac}` : int;
  return s.startsWith('-') && v !== '0' ? `-${v}` : v;
}

const median = (xs) => {
  const s = [...xs].sort((x, y) => x - y);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

module.exports = { chiveRun, parseJsonl, EXACT, canonNumber, median };
