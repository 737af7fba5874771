#!/usr/bin/env node
// Parquet read compatibility with DuckDB, the peer (pinned in
// package-lock.json).
//
//   node pq_read_compat.js CHIVE
//
// DuckDB writes one table -- every primitive type it maps to Parquet
// (signed and unsigned integers, float, double, decimals on INT32, INT64
// and FIXED_LEN_BYTE_ARRAY, strings, enums, blobs, date, time, timestamps
// in each unit and with a time zone, uuid) and nesting (lists, maps,
// structs, lists of structs, structs of lists, lists of lists, maps of
// structs; NULLs and empty values at every level) -- with every codec it
// writes and both PARQUET_VERSION V1 and V2 (V2: data pages v2 and the
// DELTA encodings), in several row groups.  `chive dump` reads each file
// and every value must equal what DuckDB reads back from it, turned into
// chive's canonical JSON form (docs/parquet.md has the type mapping: TIME
// as microseconds, UBIGINT as decimal(20,0), blobs as base64, ...).
// Exit 0 on success, 1 on a mismatch, 77 (skipped) without DuckDB.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { execFileSync } = require('child_process');

const duck = require('./duckdb_peer');
const { DuckDBInstance } = duck;
const [chive] = process.argv.slice(2);
if (!chive) {
  console.error('usage: pq_read_compat.js CHIVE');
  process.exit(2);
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'chv-pq-read-compat-'));
let failures = 0;
function fail(msg) {
  failures++;
  if (failures <= 25) console.error('MISMATCH: ' + msg);
}

// JSON.parse loses 64-bit integers: quote long integer literals first.
function parseJsonl(text) {
  return text.split('\n').filter(l => l.length).map(l =>
    JSON.parse(l.replace(/([:\[,])(-?\d{16,})(?=[,}\]])/g, '$1"$2"')));
}

// ---- DuckDB values in chive's canonical JSON form -------------------------

const pad = (n, w) => String(n).padStart(w, '0');

// Days since 1970-01-01 as YYYY-MM-DD (proleptic Gregorian).
function dateText(days) {
  const d = new Date(Number(days) * 86400000);
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1, 2)}-` +
         `${pad(d.getUTCDate(), 2)}`;
}

// units since the epoch at perSec units a second -> chive's timestamp text.
function tsText(units, perSec) {
  units = BigInt(units);
  perSec = BigInt(perSec);
  let secs = units / perSec, frac = units % perSec;
  if (frac < 0n) {
    frac += perSec;
    secs -= 1n;
  }
  let days = secs / 86400n, sod = secs % 86400n;
  if (sod < 0n) {
    sod += 86400n;
    days -= 1n;
  }
  const n = Number(sod);
  let s = `${dateText(days)} ${pad(Math.floor(n / 3600), 2)}:` +
          `${pad(Math.floor(n / 60) % 60, 2)}:${pad(n % 60, 2)}`;
  const nanos = frac * (1000000000n / perSec);
  if (nanos > 0n) s += '.' + pad(nanos, 9).replace(/0+$/, '');
  return s;
}

function real(x) {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return 'Infinity';
  if (x === -Infinity) return '-Infinity';
  return x;
}

function canon(v) {
  if (v === null || v === undefined) return null;
  switch (typeof v) {
    case 'boolean': return v;
    case 'number': return real(v);
    case 'bigint': return v.toString();
    case 'string': return v;
  }
  const c = v.constructor.name;
  switch (c) {
    case 'DuckDBListValue':
    case 'DuckDBArrayValue':
      return v.items.map(canon);
    case 'DuckDBStructValue': {
      const o = {};
      for (const k of Object.keys(v.entries)) o[k] = canon(v.entries[k]);
      return o;
    }
    case 'DuckDBMapValue':
      return v.entries.map(e => ({ key: canon(e.key), value: canon(e.value) }));
    case 'DuckDBDecimalValue': return v.toString();
    case 'DuckDBDateValue': return dateText(v.days);
    case 'DuckDBTimeValue': return v.micros.toString();
    case 'DuckDBTimestampValue':
    case 'DuckDBTimestampTZValue':
      return tsText(v.micros, 1000000);
    case 'DuckDBTimestampMillisecondsValue': return tsText(v.millis, 1000);
    case 'DuckDBTimestampNanosecondsValue':
      return tsText(v.nanos, 1000000000);
    case 'DuckDBTimestampSecondsValue': return tsText(v.seconds, 1);
    case 'DuckDBBlobValue': return Buffer.from(v.bytes).toString('base64');
    case 'DuckDBUUIDValue': return v.toString().toLowerCase();
    default:
      throw new Error(`no canonical form for ${c}`);
  }
}

// want (canonical) against got (chive's parsed JSON).
function same(want, got) {
  if (want === null || got === null) return want === got;
  if (Array.isArray(want)) {
    return Array.isArray(got) && want.length === got.length &&
           want.every((w, i) => same(w, got[i]));
  }
  if (typeof want === 'object') {
    if (typeof got !== 'object' || Array.isArray(got)) return false;
    const wk = Object.keys(want), gk = Object.keys(got);
    return wk.length === gk.length && wk.every((k, i) =>
      k === gk[i] && same(want[k], got[k]));
  }
  if (typeof want === 'number') {
    // Long integers in chive's plain notation were quoted by parseJsonl.
    if (typeof got === 'string' && /^-?\d+$/.test(got)) got = Number(got);
    if (typeof got !== 'number') return false;
    return want === got || Math.fround(want) === Math.fround(got);
  }
  if (typeof want === 'string' && typeof got === 'number')
    return String(got) === want;
  return want === got;
}

// ---- the table ------------------------------------------------------------

const N = 5000;
// NULL for about one row in nine, different rows for each k.
const nul = (k, e) => `CASE WHEN hash(i * 31 + ${k}) % 9 = 0 THEN NULL ` +
                      `ELSE ${e} END`;
const h = (k, m) => `(hash(i * ${k} + 7) % ${m})`;

const TABLE = `
  SELECT i AS id,
    ${nul(1, 'i % 3 = 0')} AS b,
    ${nul(2, `${h(3, 256)}::INTEGER - 128`)}::TINYINT AS t,
    ${nul(3, `${h(5, 65536)}::INTEGER - 32768`)}::SMALLINT AS s,
    ${nul(4, `${h(7, 4294967296)}::BIGINT - 2147483648`)}::INTEGER AS i32,
    ${nul(5, `(hash(i)::HUGEINT - 9223372036854775808)`)}::BIGINT AS l,
    ${nul(6, h(11, 256))}::UTINYINT AS ut,
    ${nul(7, h(13, 65536))}::USMALLINT AS us,
    ${nul(8, h(17, 4294967296))}::UINTEGER AS ui,
    ${nul(9, 'hash(i * 19)')}::UBIGINT AS ul,
    ${nul(10, `(${h(23, 2000001)}::DOUBLE - 1000000) / 977.0`)}::FLOAT AS f,
    ${nul(11, `CASE WHEN i % 97 = 5 THEN 'nan'::DOUBLE WHEN i % 97 = 6 THEN
                 '-inf'::DOUBLE ELSE (${h(29, 2000001)}::DOUBLE - 1000000) *
                 pow(10, (i % 41) - 20) / 3.0 END`)}::DOUBLE AS d,
    ${nul(12, `(${h(31, 19999)}::INTEGER - 9999)::DECIMAL(4,0) / 100`)}::DECIMAL(4,2) AS dec4,
    ${nul(13, `(${h(37, 1999999999999)}::BIGINT - 999999999999)::DECIMAL(18,0) / 1000000`)}::DECIMAL(18,6) AS dec18,
    ${nul(14, `((CASE WHEN i % 2 = 0 THEN '-' ELSE '' END) || ${h(41, 1000000000000000000)}::VARCHAR || '.' || lpad(${h(43, 10000000000)}::VARCHAR, 10, '0'))`)}::DECIMAL(38,10) AS dec38,
    ${nul(15, `['', 'plain', 'héllo wörld', 'a"b', '日本語', 'back\\slash', 'emoji 😀', 'line
break', repeat('long-', 40)][(i % 9) + 1]`)} AS st,
    ${nul(16, `['red', 'green', 'blue'][(i % 3) + 1]`)}::mood AS en,
    ${nul(17, `unhex(md5(i::VARCHAR))[1:(i % 17)]`)} AS bl,
    ${nul(18, `DATE '0001-01-01' + ${h(47, 3652058)}::INTEGER`)} AS dt,
    ${nul(19, `TIME '00:00:00' + to_microseconds(${h(53, 86400000000)}::BIGINT)`)} AS tm,
    ${nul(20, `make_timestamp(${h(59, 315537897599999999)}::BIGINT - 62135596800000000)`)} AS ts,
    ${nul(21, `make_timestamp(${h(61, 4000000000000000)}::BIGINT)`)}::TIMESTAMP_MS AS tsms,
    ${nul(22, `make_timestamp(${h(67, 4000000000000000)}::BIGINT - 2000000000000000)`)}::TIMESTAMP_NS AS tsns,
    ${nul(23, `make_timestamp(${h(71, 4000000000000000)}::BIGINT)`)}::TIMESTAMPTZ AS tstz,
    ${nul(24, `md5(i::VARCHAR)::UUID`)} AS u,
    ${nul(25, `CASE WHEN i % 7 = 0 THEN []::INTEGER[] ELSE [i, NULL, i * 2][1:(i % 4)] END`)} AS li,
    ${nul(26, `CASE WHEN i % 5 = 0 THEN []::VARCHAR[] ELSE ['x' || i, NULL, ''][1:(i % 4)] END`)} AS ls,
    ${nul(27, `CASE WHEN i % 6 = 0 THEN MAP {}::MAP(VARCHAR, INTEGER) ELSE MAP {'k' || i: i, 'n': NULL} END`)} AS m,
    ${nul(28, `{'a': CASE WHEN i % 4 = 0 THEN NULL ELSE i END, 'b': 'v' || (i % 10)}`)} AS stc,
    ${nul(29, `CASE WHEN i % 8 = 0 THEN [] ELSE [{'x': i, 'y': NULL}, NULL, {'x': NULL, 'y': 'z' || i}][1:(i % 4)] END`)} AS los,
    ${nul(30, `{'a': CASE WHEN i % 3 = 0 THEN NULL WHEN i % 3 = 1 THEN []::INTEGER[] ELSE [i, NULL] END, 'b': CASE WHEN i % 5 = 0 THEN NULL ELSE {'c': [i / 2.0, NULL]} END}`)} AS sol,
    ${nul(31, `CASE WHEN i % 4 = 0 THEN [] ELSE [[i], NULL, [], [NULL, i]][1:(i % 5)] END`)} AS lol,
    ${nul(32, `CASE WHEN i % 5 = 0 THEN MAP {}::MAP(INTEGER, STRUCT(p INTEGER[], q VARCHAR)) ELSE MAP {i: {'p': [i, NULL], 'q': NULL}, -i: NULL} END`)} AS mos
  FROM range(${N}) r(i)`;

const CODECS = ['uncompressed', 'snappy', 'gzip', 'zstd', 'lz4_raw', 'lz4',
                'brotli'];
const VERSIONS = ['V1', 'V2'];

async function main() {
  const inst = await DuckDBInstance.create(':memory:');
  const con = await inst.connect();
  const q = async sql => (await con.runAndReadAll(sql)).getRowObjects();
  await q('SET threads=1');
  await q(`CREATE TYPE mood AS ENUM ('red', 'green', 'blue')`);
  await q(`CREATE TABLE g AS ${TABLE}`);

  const chiveRows = file => parseJsonl(execFileSync(chive, ['dump', file], {
    encoding: 'utf8', maxBuffer: 1 << 30 }));
  let files = 0, values = 0;
  for (const version of VERSIONS) {
    for (const codec of CODECS) {
      const file = path.join(tmp, `t_${codec}_${version}.parquet`);
      await q(`COPY (SELECT * FROM g ORDER BY id) TO '${file}' (FORMAT parquet,
               COMPRESSION ${codec}, PARQUET_VERSION ${version},
               ROW_GROUP_SIZE 2048)`);
      const want = (await q(`SELECT * FROM read_parquet('${file}')`));
      let got;
      try {
        got = chiveRows(file);
      } catch (e) {
        fail(`${path.basename(file)}: chive dump failed: ${e.stderr || e}`);
        continue;
      }
      if (got.length !== want.length)
        fail(`${path.basename(file)}: ${want.length} rows, chive gave ` +
             `${got.length}`);
      const n = Math.min(got.length, want.length);
      for (let r = 0; r < n; r++) {
        for (const k of Object.keys(want[r])) {
          const w = canon(want[r][k]);
          if (!same(w, got[r][k]))
            fail(`${path.basename(file)} row ${r} column ${k}: DuckDB ` +
                 `${JSON.stringify(w)}, chive ${JSON.stringify(got[r][k])}`);
          values++;
        }
        if (Object.keys(got[r]).join() !== Object.keys(want[r]).join())
          fail(`${path.basename(file)} row ${r}: columns ` +
               `${Object.keys(got[r]).join()}`);
      }
      files++;
    }
  }

  // A projection, in its own order and names without case, and --limit.
  const file = path.join(tmp, 't_zstd_V2.parquet');
  const got = parseJsonl(execFileSync(chive, ['dump', '--columns', 'SOL,li',
                                              '--limit', '7', file],
                                      { encoding: 'utf8' }));
  const want = await q(`SELECT sol, li FROM read_parquet('${file}') LIMIT 7`);
  if (got.length !== 7 || Object.keys(got[0]).join() !== 'sol,li' ||
      !want.every((w, r) => same(canon(w.sol), got[r].sol) &&
                            same(canon(w.li), got[r].li)))
    fail(`--columns SOL,li --limit 7 gave ${JSON.stringify(got.slice(0, 2))}`);

  fs.rmSync(tmp, { recursive: true, force: true });
  if (failures) {
    console.error(`${failures} mismatches`);
    process.exit(1);
  }
  console.log(`pq_read_compat: ${files} files, ${values} values agree`);
}

main().catch(e => {
  console.error(e && e.stack ? e.stack : e);
  process.exit(1);
});
