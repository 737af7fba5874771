#!/usr/bin/env node
// Parquet written by chive, read by DuckDB (the peer, pinned in
// package-lock.json).
//
//   node pq_write_compat.js PQ_WRITE_TOOL
//
// For each variant (codecs, dictionary on and off, the dictionary falling
// back to plain part way, data page v1 and v2, INT96 and INT64 timestamps
// in each unit, many row groups and pages, one-row batches), pq_write_tool
// writes a table of every Hive type, nested to several levels with NULLs at
// each level, and prints the rows it meant to write; DuckDB's read_parquet
// must read exactly those values.  DuckDB's parquet_schema(),
// parquet_metadata(), parquet_file_metadata() and parquet_kv_metadata()
// then confirm the types, row groups, encodings, codecs, the statistics of
// each row group (min/max/null count recomputed here from the rows) and the
// footer's created_by and key/value metadata.
// Exit 0 on success, 1 on a mismatch, 77 (skipped) without DuckDB.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');

const { DuckDBInstance } = require('./duckdb_peer');
const [tool] = process.argv.slice(2);
if (!tool) {
  console.error('usage: pq_write_compat.js PQ_WRITE_TOOL');
  process.exit(2);
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'chv-pq-write-compat-'));
let failures = 0;
function fail(msg) {
  failures++;
  if (failures <= 30) console.error('MISMATCH: ' + msg);
}

// ---- Hive types ----------------------------------------------------------

// "a int, b array<struct<x:int>>" -> [{name, type}], type = {id, ...}.
function parseColumns(text) {
  let i = 0;
  const ws = () => { while (/\s/.test(text[i])) i++; };
  const ident = () => {
    ws();
    const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(i));
    if (!m) throw new Error('type syntax at ' + i + ': ' + text.slice(i));
    i += m[0].length;
    return m[0];
  };
  const expect = c => {
    ws();
    if (text[i] !== c) throw new Error(`expected ${c} at ${i}`);
    i++;
  };
  function type() {
    const id = ident().toLowerCase();
    ws();
    if (id === 'array') {
      expect('<');
      const e = type();
      expect('>');
      return { id, elem: e };
    }
    if (id === 'map') {
      expect('<');
      const k = type();
      expect(',');
      const v = type();
      expect('>');
      return { id, key: k, value: v };
    }
    if (id === 'struct') {
      expect('<');
      const fields = [];
      for (;;) {
        const n = ident();
        expect(':');
        fields.push({ name: n, type: type() });
        ws();
        if (text[i] === ',') { i++; continue; }
        break;
      }
      expect('>');
      return { id, fields };
    }
    if (text[i] === '(') {
      const j = text.indexOf(')', i);
      const args = text.slice(i + 1, j).split(',').map(Number);
      i = j + 1;
      return { id, args };
    }
    return { id };
  }
  const cols = [];
  for (;;) {
    const n = ident();
    cols.push({ name: n, type: type() });
    ws();
    if (text[i] === ',') { i++; continue; }
    break;
  }
  return cols;
}

// JSON.parse loses 64-bit integers: quote long integer literals first.
function parseJsonl(text) {
  return text.split('\n').filter(l => l.length).map(l =>
    JSON.parse(l.replace(/([:\[,])(-?\d{16,})(?=[,}\]])/g, '$1"$2"')));
}

function num(v) {
  if (typeof v === 'string') {
    if (v === 'NaN') return NaN;
    if (v === 'Infinity') return Infinity;
    if (v === '-Infinity') return -Infinity;
  }
  return Number(v);
}

// "2020-01-01 10:00:00.120000" -> "2020-01-01 10:00:00.12"; digits kept to
// `digits` when given (INT64 millis keep 3).
function normTs(s, digits) {
  let [dt, frac] = String(s).split('.');
  if (frac === undefined) frac = '';
  if (digits !== undefined) frac = frac.slice(0, digits);
  frac = frac.replace(/0+$/, '');
  return frac ? `${dt}.${frac}` : dt;
}

// Compare an expected value (chive's JSON Lines form) with DuckDB's JSON.
function same(t, want, got, ctx) {
  if (want === null || want === undefined || got === null || got === undefined)
    return (want === null || want === undefined) &&
           (got === null || got === undefined);
  switch (t.id) {
    case 'boolean': case 'tinyint': case 'smallint': case 'int':
    case 'date': case 'string': case 'varchar':
      return want === got;
    case 'char':
      return want.replace(/ +$/, '') === got;
    case 'bigint': case 'decimal':
      return String(want) === String(got);
    case 'binary':
      return want === got; // base64 on both sides (to_base64 in SQL)
    case 'float': {
      const a = Math.fround(num(want)), b = Math.fround(num(got));
      return (Number.isNaN(a) && Number.isNaN(b)) || a === b;
    }
    case 'double': {
      const a = num(want), b = num(got);
      return (Number.isNaN(a) && Number.isNaN(b)) || a === b;
    }
    case 'timestamp':
      return normTs(want, ctx.tsDigits) === normTs(got);
    case 'array':
      return Array.isArray(got) && want.length === got.length &&
             want.every((w, k) => same(t.elem, w, got[k], ctx));
    case 'map':
      return Array.isArray(got) && want.length === got.length &&
             want.every((w, k) => same(t.key, w.key, got[k].key, ctx) &&
                                  same(t.value, w.value, got[k].value, ctx));
    case 'struct':
      return typeof got === 'object' &&
             t.fields.every(f => same(f.type, want[f.name], got[f.name], ctx));
    default:
      throw new Error('no comparison for ' + t.id);
  }
}

// ---- statistics ----------------------------------------------------------

// Order of flat columns' values as Parquet statistics order them; null for
// types without min/max (INT96 timestamps, booleans are not checked here).
function statKey(t, v) {
  switch (t.id) {
    case 'tinyint': case 'smallint': case 'int': return BigInt(v);
    case 'bigint': return BigInt(v);
    case 'decimal': {
      const [ip, fp = ''] = String(v).split('.');
      const neg = ip.startsWith('-');
      const digits = (neg ? ip.slice(1) : ip) + fp.padEnd(t.args[1] || 0, '0');
      const n = BigInt(digits);
      return neg ? -n : n;
    }
    case 'double': case 'float': {
      const x = num(v);
      return Number.isNaN(x) ? undefined : x;
    }
    case 'date': return v;
    case 'string': case 'varchar': return Buffer.from(v, 'utf8');
    case 'char': return Buffer.from(v.replace(/ +$/, ''), 'utf8');
    default: return null;
  }
}

function cmpKey(a, b) {
  if (Buffer.isBuffer(a)) return Buffer.compare(a, b);
  return a < b ? -1 : a > b ? 1 : 0;
}

// DuckDB's rendering of a statistic back to a comparable key.
function statFromDuck(t, s) {
  if (s === null || s === undefined) return undefined;
  switch (t.id) {
    case 'string': case 'varchar': case 'char': return Buffer.from(s, 'utf8');
    default: return statKey(t, s);
  }
}

// ---- variants ------------------------------------------------------------

const small = ['--set', 'parquet.block.size=65536', '--set',
               'parquet.page.size=4096', '--set',
               'parquet.dictionary.page.size=2048'];
const fallback = ['--set', 'parquet.page.row.count.limit=1000', '--set',
                  'parquet.dictionary.page.size=2048'];
const VARIANTS = [
  { name: 'default', args: [] },
  { name: 'gzip-nodict', args: ['--set', 'parquet.compression=GZIP', '--set',
                                'parquet.enable.dictionary=false'] },
  { name: 'zstd-v2', args: ['--set', 'parquet.compression=zstd', '--set',
                            'parquet.writer.version=v2'], v2: true },
  { name: 'lz4raw-v2-nodict', args: ['--set', 'parquet.compression=LZ4_RAW',
                                     '--set', 'parquet.writer.version=v2',
                                     '--set', 'parquet.enable.dictionary=false'],
    v2: true },
  { name: 'uncompressed', args: ['--set', 'parquet.compression=UNCOMPRESSED'] },
  { name: 'brotli', args: ['--set', 'parquet.compression=BROTLI'] },
  { name: 'int64-micros', args: ['--set', 'hive.parquet.write.int64.timestamp=true'],
    ts: 'MICROS' },
  { name: 'int64-millis', args: ['--set', 'hive.parquet.write.int64.timestamp=true',
                                 '--set', 'hive.parquet.timestamp.time.unit=millis'],
    ts: 'MILLIS', tsDigits: 3 },
  { name: 'int64-nanos-v2', args: ['--set', 'hive.parquet.write.int64.timestamp=true',
                                   '--set', 'hive.parquet.timestamp.time.unit=nanos',
                                   '--set', 'parquet.writer.version=v2'],
    ts: 'NANOS', v2: true },
  { name: 'small-v1', args: small, rows: 6000, many: true },
  { name: 'small-v2-snappy', args: small.concat(['--set', 'parquet.writer.version=v2']),
    rows: 6000, many: true, v2: true },
  // One row group whose string dictionary overflows half way.
  { name: 'fallback-v1', args: fallback, rows: 6000, fallback: true },
  { name: 'fallback-v2', args: fallback.concat(['--set', 'parquet.writer.version=v2']),
    rows: 6000, fallback: true, v2: true },
  { name: 'rowlimit-nochecksum', args: ['--set', 'parquet.page.row.count.limit=7',
                                        '--set', 'parquet.page.write-checksum.enabled=false'],
    rows: 500 },
  { name: 'flat-batch1', args: ['--schema', 'flat', '--batch', '1'], rows: 400 },
  { name: 'empty', args: [], rows: 0 },
];

async function main() {
  const inst = await DuckDBInstance.create(':memory:');
  const con = await inst.connect();
  const q = async sql => (await con.runAndReadAll(sql)).getRowObjectsJson();
  await q('SET threads=1');

  for (const v of VARIANTS) {
    const file = path.join(tmp, v.name + '.parquet');
    const rows = v.rows ?? 3000;
    const run = spawnSync(tool, [file, '--rows', String(rows), '--batch', '250',
                                 ...v.args],
                          { encoding: 'utf8', maxBuffer: 1 << 29 });
    if (run.status !== 0) {
      fail(`${v.name}: pq_write_tool failed: ${run.stderr || run.error}`);
      continue;
    }
    const out = run.stdout, stderr = run.stderr;
    const schemaLine = stderr.split('\n').find(l => l.startsWith('schema: '));
    const cols = parseColumns(schemaLine.slice(8));
    const want = parseJsonl(out);
    const ctx = { tsDigits: v.tsDigits };

    // Values.
    const sel = cols.map(c => c.type.id === 'binary'
      ? `to_base64("${c.name}") AS "${c.name}"` : `"${c.name}"`).join(', ');
    let got;
    try {
      got = await q(`SELECT ${sel} FROM read_parquet('${file}')`);
    } catch (e) {
      fail(`${v.name}: DuckDB cannot read the file: ${e}`);
      continue;
    }
    if (got.length !== want.length)
      fail(`${v.name}: ${want.length} rows written, DuckDB read ${got.length}`);
    let compared = 0;
    for (let r = 0; r < Math.min(got.length, want.length); r++)
      for (const c of cols) {
        compared++;
        if (!same(c.type, want[r][c.name], got[r][c.name], ctx))
          fail(`${v.name} row ${r} column ${c.name}: expected ` +
               `${JSON.stringify(want[r][c.name])}, DuckDB read ` +
               `${JSON.stringify(got[r][c.name])}`);
      }

    // Schema as DuckDB maps it.
    const schema = await q(`SELECT name, type, converted_type, logical_type,
                              duckdb_type FROM parquet_schema('${file}')`);
    const byName = {};
    for (const s of schema) if (!(s.name in byName)) byName[s.name] = s;
    const tsWant = v.ts ? (v.ts === 'NANOS' ? 'TIMESTAMP_NS' : 'TIMESTAMP')
                        : 'TIMESTAMP';
    if (byName.ts.duckdb_type !== tsWant ||
        byName.ts.type !== (v.ts ? 'INT64' : 'INT96'))
      fail(`${v.name}: ts is ${byName.ts.type} / ${byName.ts.duckdb_type}`);
    if (v.ts && !String(byName.ts.logical_type).includes('isAdjustedToUTC=0'))
      fail(`${v.name}: ts logical type ${byName.ts.logical_type}`);
    if (byName.t.duckdb_type !== 'TINYINT' || byName.s.duckdb_type !== 'SMALLINT' ||
        byName.m.duckdb_type !== 'DECIMAL(38,10)' || byName.dt.duckdb_type !== 'DATE')
      fail(`${v.name}: primitive types as DuckDB sees them: ` +
           JSON.stringify([byName.t, byName.s, byName.m, byName.dt]));

    // File metadata.
    const fm = (await q(`SELECT created_by, num_rows, num_row_groups,
                           format_version FROM parquet_file_metadata('${file}')`))[0];
    if (!String(fm.created_by).startsWith('chive version ') ||
        Number(fm.num_rows) !== rows)
      fail(`${v.name}: file metadata ${JSON.stringify(fm)}`);
    const kv = await q(`SELECT decode(key) AS k, decode(value) AS v
                        FROM parquet_kv_metadata('${file}')`);
    const kvs = Object.fromEntries(kv.map(e => [e.k, e.v]));
    if (kvs['writer.time.zone'] !== 'UTC' || kvs['writer.date.proleptic'] !== 'true')
      fail(`${v.name}: key/value metadata ${JSON.stringify(kvs)}`);

    // Row groups, encodings, codec, statistics.
    const md = await q(`SELECT row_group_id, row_group_num_rows, path_in_schema,
                          stats_min_value, stats_max_value, stats_null_count,
                          compression, encodings, num_values
                        FROM parquet_metadata('${file}')
                        ORDER BY row_group_id, column_id`);
    const groups = [...new Set(md.map(m => Number(m.row_group_id)))];
    if (v.many && groups.length < 3)
      fail(`${v.name}: only ${groups.length} row groups with a 64 KiB block size`);
    let first = 0, statsChecked = 0, fellBack = 0;
    for (const g of groups) {
      const chunks = md.filter(m => Number(m.row_group_id) === g);
      const n = Number(chunks[0].row_group_num_rows);
      for (const c of cols) {
        const chunk = chunks.find(m => m.path_in_schema === c.name);
        if (!chunk) continue; // nested columns: path has more parts
        const enc = String(chunk.encodings);
        // Dictionary pages, then plain ones (v2: DELTA_BYTE_ARRAY; its
        // dictionary page itself is PLAIN).
        if (c.name === 'st' && (v.v2
              ? /RLE_DICTIONARY/.test(enc) && /DELTA_BYTE_ARRAY/.test(enc)
              : /PLAIN_DICTIONARY/.test(enc) && /(^|, )PLAIN(,|$)/.test(enc)))
          fellBack++;
        if (v.args.includes('parquet.enable.dictionary=false') && /DICTIONARY/.test(enc))
          fail(`${v.name}: ${c.name} uses a dictionary: ${enc}`);
        let lo, hi, nulls = 0;
        for (let r = first; r < first + n; r++) {
          const x = want[r][c.name];
          if (x === null) { nulls++; continue; }
          const k = statKey(c.type, x);
          if (k === null || k === undefined) continue;
          if (lo === undefined || cmpKey(k, lo) < 0) lo = k;
          if (hi === undefined || cmpKey(k, hi) > 0) hi = k;
        }
        if (Number(chunk.stats_null_count) !== nulls)
          fail(`${v.name} rg ${g} ${c.name}: null_count ${chunk.stats_null_count}, ` +
               `expected ${nulls}`);
        if (statKey(c.type, want[1][c.name]) === null) continue;
        const dlo = statFromDuck(c.type, chunk.stats_min_value);
        const dhi = statFromDuck(c.type, chunk.stats_max_value);
        if (lo === undefined) {
          if (dlo !== undefined)
            fail(`${v.name} rg ${g} ${c.name}: min/max given without values`);
          continue;
        }
        const eq = (d, x) => {
          if (c.type.id === 'float' || c.type.id === 'double') {
            // DuckDB renders infinite bounds as NULL and floats with fewer
            // digits than they have.
            if (!Number.isFinite(x)) return d === undefined;
            return d !== undefined && (c.type.id === 'float'
              ? Math.fround(d) === Math.fround(x) : d === x);
          }
          return d !== undefined && cmpKey(d, x) === 0;
        };
        if (!eq(dlo, lo) || !eq(dhi, hi))
          fail(`${v.name} rg ${g} ${c.name}: min/max ${chunk.stats_min_value} / ` +
               `${chunk.stats_max_value}, expected ${lo} / ${hi}`);
        statsChecked++;
      }
      first += n;
    }
    if (first !== rows) fail(`${v.name}: row groups hold ${first} rows, not ${rows}`);
    const codec = { default: 'SNAPPY', 'gzip-nodict': 'GZIP', 'zstd-v2': 'ZSTD',
                    'lz4raw-v2-nodict': 'LZ4_RAW', uncompressed: 'UNCOMPRESSED',
                    brotli: 'BROTLI' }[v.name];
    if (codec && md.some(m => m.compression !== codec))
      fail(`${v.name}: compression ${md[0].compression}, expected ${codec}`);
    if (v.fallback && fellBack === 0)
      fail(`${v.name}: no chunk of st fell back from dictionary to plain`);
    if (v.v2 && !v.args.includes('parquet.enable.dictionary=false') &&
        !md.some(m => /RLE_DICTIONARY/.test(m.encodings)))
      fail(`${v.name}: v2 pages without RLE_DICTIONARY`);
    console.log(`${v.name}: ${want.length} rows, ${compared} values, ` +
                `${groups.length} row groups, ${statsChecked} chunk statistics ` +
                `checked, ${fellBack} dictionary fallbacks`);
  }

  fs.rmSync(tmp, { recursive: true, force: true });
  if (failures) {
    console.error(`${failures} mismatches`);
    process.exit(1);
  }
  console.log('pq_write_compat: DuckDB reads every value chive wrote');
}

main().catch(e => {
  console.error(e && e.stack ? e.stack : e);
  process.exit(1);
});
