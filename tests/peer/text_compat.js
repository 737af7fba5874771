#!/usr/bin/env node
// TEXTFILE compatibility with DuckDB, the peer (pinned in package-lock.json).
//
//   node text_compat.js CHIVE TEXT_WRITE_TOOL
//
// 1. DuckDB writes Hive text files (\001 fields, \N nulls; a '|' + "NULL"
//    + gzip variant) from a generated table holding every primitive type
//    (VARCHAR(n) and CHAR(n) checked against left()/rpad() of DuckDB strings),
//    NULLs in every column, extremes, unicode and empty strings; `chive dump`
//    must print the same values DuckDB holds.
// 2. text_write_tool writes a table with chive's text writer (plain and
//    gzip, default and custom delimiters) and prints the rows it meant to
//    write; DuckDB's read_csv must read the same values back.
// Exit 0 on success, 1 on a mismatch, 77 (skipped) without DuckDB.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { execFileSync } = require('child_process');

const { DuckDBInstance } = require('./duckdb_peer');
const [chive, tool] = process.argv.slice(2);
if (!chive || !tool) {
  console.error('usage: text_compat.js CHIVE TEXT_WRITE_TOOL');
  process.exit(2);
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'chv-text-compat-'));
let failures = 0;
function fail(msg) {
  failures++;
  if (failures <= 20) console.error('MISMATCH: ' + msg);
}

// Columns: name, Hive type, DuckDB type, kind of comparison.
const COLS = [
  ['b', 'boolean', 'BOOLEAN', 'exact'],
  ['t', 'tinyint', 'TINYINT', 'exact'],
  ['s', 'smallint', 'SMALLINT', 'exact'],
  ['i', 'int', 'INTEGER', 'exact'],
  ['l', 'bigint', 'BIGINT', 'string'],
  ['f', 'float', 'FLOAT', 'float'],
  ['d', 'double', 'DOUBLE', 'double'],
  ['m', 'decimal(38,10)', 'DECIMAL(38,10)', 'string'],
  ['m2', 'decimal(5,2)', 'DECIMAL(5,2)', 'string'],
  ['st', 'string', 'VARCHAR', 'exact'],
  ['dt', 'date', 'DATE', 'string'],
  ['ts', 'timestamp', 'TIMESTAMP', 'string'],
  ['bi', 'binary', 'BLOB', 'exact'],
];
// Reading also covers VARCHAR(n) and CHAR(n) (DuckDB has neither: its
// expected values are computed with left() and rpad()).
const COLS_READ = COLS.concat([['vc', 'varchar(5)', 'VARCHAR', 'exact'],
                               ['ch', 'char(12)', 'VARCHAR', 'exact']]);
const SCHEMA = COLS_READ.map(c => `${c[0]} ${c[1]}`).join(', ');

// JSON.parse loses 64-bit integers: quote long integer literals first.
function parseJsonl(text) {
  return text.split('\n').filter(l => l.length).map(l =>
    JSON.parse(l.replace(/([:\[,])(-?\d{16,})(?=[,}\]])/g, '$1"$2"')));
}

function num(v) {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string') {
    if (v === 'NaN') return NaN;
    if (v === 'Infinity') return Infinity;
    if (v === '-Infinity') return -Infinity;
    return Number(v);
  }
  return Number(v);
}

function same(kind, a, b) {
  if (a === null || b === null) return a === b;
  switch (kind) {
    case 'float': {
      const x = Math.fround(num(a)), y = Math.fround(num(b));
      return (Number.isNaN(x) && Number.isNaN(y)) || x === y;
    }
    case 'double': {
      const x = num(a), y = num(b);
      return (Number.isNaN(x) && Number.isNaN(y)) || x === y;
    }
    case 'string':
      return String(a) === String(b);
    default:
      return a === b;
  }
}

function compareRows(label, want, got, cols = COLS) {
  if (want.length !== got.length)
    fail(`${label}: ${want.length} rows expected, chive gave ${got.length}`);
  const n = Math.min(want.length, got.length);
  let checked = 0;
  for (let r = 0; r < n; r++) {
    for (const [name, , , kind] of cols) {
      const a = want[r][name] === undefined ? null : want[r][name];
      const b = got[r][name] === undefined ? null : got[r][name];
      if (!same(kind, a, b))
        fail(`${label} row ${r} column ${name}: expected ${JSON.stringify(a)}` +
             `, got ${JSON.stringify(b)}`);
      checked++;
    }
  }
  console.log(`${label}: ${n} rows, ${checked} values compared`);
}

// DuckDB values normalised to what `chive dump` prints.
function normSelect(src, binIsText, withChar) {
  return `SELECT b, t, s, i, l::VARCHAR AS l, f, d, m::VARCHAR AS m,
            m2::VARCHAR AS m2, st, dt::VARCHAR AS dt, ts::VARCHAR AS ts,
            ${binIsText ? 'bi' : 'to_base64(bi)'} AS bi
            ${withChar ? ", left(vc, 5) AS vc, rpad(left(ch, 12), 12, ' ') AS ch" : ''}
          FROM ${src}`;
}

function realText(c) { // DuckDB float -> Hive/Java spelling
  return `CASE WHEN isnan(${c}) THEN 'NaN'
               WHEN isinf(${c}) AND ${c} > 0 THEN 'Infinity'
               WHEN isinf(${c}) THEN '-Infinity'
               ELSE ${c}::VARCHAR END AS ${c}`;
}

async function main() {
  const inst = await DuckDBInstance.create(':memory:');
  const con = await inst.connect();
  const q = async sql => (await con.runAndReadAll(sql)).getRowObjects();
  await q('SET threads=1');

  // ---- 1. DuckDB writes, chive reads -------------------------------------
  const pool = ["''", "'plain'", "'héllo wörld'", "'a\"b'", "'x,y;z'",
                "'日本語'", "'back\\slash'", "'emoji 😀'", "'  spaced  '"];
  const nul = (k, e) => `CASE WHEN hash(i * 31 + ${k}) % 9 = 0 THEN NULL ` +
                        `ELSE ${e} END`;
  await q(`CREATE TABLE g AS
    SELECT i AS id,
      ${nul(1, 'i % 3 = 0')} AS b,
      ${nul(2, '(hash(i) % 256)::INTEGER - 128')}::TINYINT AS t,
      ${nul(3, '(hash(i) % 65536)::INTEGER - 32768')}::SMALLINT AS s,
      ${nul(4, '(hash(i) % 4294967296)::BIGINT - 2147483648')}::INTEGER AS i,
      ${nul(5, '(hash(i)::HUGEINT - 9223372036854775808)')}::BIGINT AS l,
      ${nul(6, '((hash(i * 7) % 2000001)::DOUBLE - 1000000) / 977.0')}::FLOAT AS f,
      ${nul(7, '((hash(i * 5) % 2000001)::DOUBLE - 1000000) * pow(10, (i % 41) - 20) / 3.0')}::DOUBLE AS d,
      ${nul(8, "((CASE WHEN i % 2 = 0 THEN '-' ELSE '' END) || (hash(i * 3) % 1000000000000000000)::VARCHAR || '.' || lpad((hash(i * 19) % 10000000000)::VARCHAR, 10, '0'))")}::DECIMAL(38,10) AS m,
      ${nul(9, '((hash(i * 11) % 199999)::INTEGER - 99999)::DECIMAL(7,0) / 100')}::DECIMAL(5,2) AS m2,
      ${nul(10, `[${pool.join(',')}][(i % ${pool.length}) + 1]`)} AS st,
      ${nul(11, "DATE '0001-01-01' + (hash(i * 13) % 3652058)::INTEGER")} AS dt,
      ${nul(12, "make_timestamp(((hash(i * 17) % 315537897599999999)::BIGINT - 62135596800000000) // (CASE WHEN i % 3 = 0 THEN 1000000 ELSE 1 END) * (CASE WHEN i % 3 = 0 THEN 1000000 ELSE 1 END))")} AS ts,
      ${nul(13, "unhex(md5(i::VARCHAR))[1:(i % 17)]")} AS bi
    FROM range(3, 400) r(i)`);
  await q(`ALTER TABLE g ADD COLUMN vc VARCHAR`);
  await q(`ALTER TABLE g ADD COLUMN ch VARCHAR`);
  await q(`UPDATE g SET vc = CASE WHEN id % 5 = 0 THEN 'abcdefgh' ELSE st END,
                        ch = CASE WHEN id % 4 = 0 THEN 'ünïcödé and more' ELSE st END`);
  // Special rows: all NULL, and the extremes.
  await q(`INSERT INTO g (id, b, t, s, i, l, f, d, m, m2, st, dt, ts, bi) VALUES
    (0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
    (1, false, -128, -32768, -2147483648, -9223372036854775808, '-inf', 'nan',
     '-9999999999999999999999999999.9999999999', -999.99, '', DATE '0001-01-01',
     TIMESTAMP '0001-01-01 00:00:00', ''::BLOB),
    (2, true, 127, 32767, 2147483647, 9223372036854775807, 'inf', '-inf',
     '9999999999999999999999999999.9999999999', 999.99, '¡unicode ✓!',
     DATE '9999-12-31', TIMESTAMP '9999-12-31 23:59:59.999999', '\\x00\\xFF'::BLOB)`);
  await q(`UPDATE g SET vc = '¡unicode ✓!', ch = 'ab' WHERE id = 2`);
  const hiveText = `SELECT b, t, s, i, l, ${realText('f')}, ${realText('d')},
      m, m2, st, dt, ts, to_base64(bi) AS bi, vc, ch FROM g ORDER BY id`;
  const want1 = await q(normSelect('(SELECT * FROM g ORDER BY id)', false,
                                   true));

  const f1 = path.join(tmp, 'duck.txt');
  await q(`COPY (${hiveText}) TO '${f1}' (FORMAT csv, DELIMITER '\x01',
           NULLSTR '\\N', HEADER false, QUOTE '')`);
  const got1 = parseJsonl(execFileSync(chive, ['dump', '--schema', SCHEMA, f1],
                                       { encoding: 'utf8', maxBuffer: 1 << 28 }));
  compareRows('duckdb \\001 file -> chive', want1, got1, COLS_READ);

  const f2 = path.join(tmp, 'duck_pipe.txt.gz');
  await q(`COPY (${hiveText}) TO '${f2}' (FORMAT csv, DELIMITER '|',
           NULLSTR 'NULL', HEADER false, QUOTE '', COMPRESSION gzip)`);
  const got2 = parseJsonl(execFileSync(chive,
    ['dump', '--schema', SCHEMA, '--serde-param', 'field.delim=124',
     '--serde-param', 'serialization.null.format=NULL', f2],
    { encoding: 'utf8', maxBuffer: 1 << 28 }));
  compareRows("duckdb '|' NULL gzip file -> chive", want1, got2, COLS_READ);

  // A projection through --columns and --limit.
  const got3 = parseJsonl(execFileSync(chive,
    ['dump', '--schema', SCHEMA, '--columns', 'ts,b', '--limit', '5', f1],
    { encoding: 'utf8' }));
  if (got3.length !== 5 || Object.keys(got3[3]).join() !== 'ts,b' ||
      got3[3].ts !== want1[3].ts)
    fail(`--columns ts,b --limit 5 gave ${JSON.stringify(got3.slice(0, 4))}`);

  // Exit statuses: usage errors 2, unreadable data 1, each naming the cause.
  const run = args => {
    try {
      execFileSync(chive, args, { encoding: 'utf8', stdio: 'pipe' });
      return [0, ''];
    } catch (e) {
      return [e.status, String(e.stderr)];
    }
  };
  const checks = [
    [['dump', f1], 2, '--schema'],
    [['dump', '--schema', 'a int', '--limit', 'x', f1], 2, '--limit'],
    [['dump', '--schema', 'a nosuchtype', f1], 2, '--schema'],
    [['dump', '--schema', 'a int', '--columns', 'zz', f1], 2, 'zz'],
    [['dump', '--schema', 'a int', path.join(tmp, 'missing.txt')], 1,
     'missing.txt'],
  ];
  const badGz = path.join(tmp, 'bad.txt.gz');
  fs.writeFileSync(badGz, fs.readFileSync(f2).subarray(0, 100));
  checks.push([['dump', '--schema', SCHEMA, badGz], 1, 'bad.txt.gz']);
  for (const [args, status, needle] of checks) {
    const [st, err] = run(args);
    if (st !== status || !err.includes(needle))
      fail(`chive ${args.join(' ')}: exit ${st} (want ${status}), ` +
           `stderr ${JSON.stringify(err.slice(0, 200))} lacks ${needle}`);
  }

  // ---- 2. chive writes, DuckDB reads -------------------------------------
  const duckCols = '{' + COLS.map(c =>
    `'${c[0]}': '${c[0] === 'bi' ? 'VARCHAR' : c[2]}'`).join(', ') + '}';
  const variants = [
    ['chive.txt', [], '\x01', '\\N'],
    ['chive.txt.gz', ['--gzip'], '\x01', '\\N'],
    ['chive_pipe.txt', ['--serde-param', 'field.delim=|',
                        '--serde-param', 'serialization.null.format=NULL'],
     '|', 'NULL'],
  ];
  for (const [name, args, delim, nullstr] of variants) {
    const out = path.join(tmp, name);
    const want = parseJsonl(execFileSync(tool, [out, '--rows', '400', ...args],
                                         { encoding: 'utf8', maxBuffer: 1 << 28 }));
    const src = `read_csv('${out}', delim='${delim}', quote='', escape='',
                  nullstr='${nullstr}', header=false,
                  auto_detect=false, columns=${duckCols})`;
    const got = await q(normSelect(src, true));
    compareRows(`chive ${name} -> duckdb`, want, got.map(r => {
      const o = {};
      for (const k of Object.keys(r)) {
        const v = r[k];
        o[k] = typeof v === 'bigint' ? v.toString() : v;
      }
      return o;
    }));
  }

  fs.rmSync(tmp, { recursive: true, force: true });
  if (failures) {
    console.error(`${failures} mismatches`);
    process.exit(1);
  }
  console.log('text_compat: all values agree');
}

main().catch(e => {
  console.error(e && e.stack ? e.stack : e);
  process.exit(1);
});
