/* Tests of the ORC writer (src/format/orc/orc_writer.c, orc_wcolumn.c):
** files written for every Hive type, nesting, codec and option are read back
** with the tail model (orc_meta.c) and every stream is decoded with the
** run-length decoders of orc_rle.h, independently of the writer:
** encodings, values, PRESENT streams only where NULLs are, statistics at
** file, stripe and row-group level, row index positions (each group's
** streams sought and decoded to the end of the stripe), bloom filters
** (membership, shape), stripes cut by size, options, bad batches and
** values, and the hashes against ORC's own test vectors; then round trips
** of every type, nesting, codec and random tiny settings through chive's
** ORC reader, and the reader skipping stripes and row groups by the
** statistics and bloom filters written. */
#include "chv_test.h"
#include "format/orc/orc_write.h"

#include "chive/fs.h"
#include "chive/jsonl.h"
#include "common/common.h"
#include "chive/orc.h"

#include <math.h>

/* ---- reading a written file back ----------------------------------------- */

struct wfile {
  char *data;
  size_t len;
  struct chv_orc_input in;
  struct chv_orc_tail *t;
  struct chv_orc_metadata *md;
  chv_orc_codec *codec;
  chv_arena *a;
};

static void wfile_close(struct wfile *f) {
  chv_orc_metadata_close(f->md);
  chv_orc_tail_close(f->t);
  chv_orc_codec_close(f->codec);
  chv_arena_close(f->a);
  chv_free(f->data);
  memset(f, 0, sizeof *f);
}

static int wfile_open(const char *path, struct wfile *f,
                      struct chv_error *err) {
  memset(f, 0, sizeof *f);
  CHV_RETURN_IF_ERR(
      chv_fs_read_all(chv_fs_local(), path, &f->data, &f->len, -1, err));
  chv_orc_input_memory(&f->in, f->data, f->len, path);
  CHV_RETURN_IF_ERR(chv_orc_tail_open(&f->in, &f->t, err));
  CHV_RETURN_IF_ERR(chv_orc_metadata_open(f->t, &f->in, &f->md, err));
  CHV_RETURN_IF_ERR(chv_orc_tail_codec_open(f->t, &f->codec, err));
  if (chv_arena_open(1 << 16, &f->a)) return CHV_ENOMEM;
  return CHV_OK;
}

/* Values of one column decoded from a stripe (from a row group on). */
struct dec {
  int64_t n;           /* entries */
  uint8_t *present;    /* per entry */
  int64_t nv;          /* values */
  int64_t *i;          /* ints, booleans, bytes, dates, lengths, seconds */
  int64_t *i2;         /* SECONDARY */
  chv_i128 *m;         /* decimals */
  double *d;           /* floats */
  struct chv_buf heap; /* strings, back to back */
  int64_t *off;        /* nv + 1 offsets into heap */
  int32_t encoding;
};

static void dec_free(struct dec *d) {
  free(d->present);
  free(d->i);
  free(d->i2);
  free(d->m);
  free(d->d);
  free(d->off);
  chv_buf_free(&d->heap);
  memset(d, 0, sizeof *d);
}

struct sview {
  struct chv_orc_stream s;
  bool have;
};

static int open_stream(struct wfile *f, const struct chv_orc_stripe_footer *sf,
                       uint32_t col, int32_t kind, struct sview *v) {
  const struct chv_orc_stream_info *si =
      chv_orc_stripe_find_stream(sf, col, kind);
  v->have = si != NULL;
  if (si == NULL) {
    chv_orc_stream_init(&v->s, f->codec, NULL, 0, "none");
    return CHV_OK;
  }
  chv_orc_stream_init(&v->s, f->codec, f->data + si->offset, si->length,
                      chv_orc_stream_kind_name(kind));
  return CHV_OK;
}

/* Decode `entries` entries of column col of stripe s, from the start of row
** group rg (-1: the stripe's start). */
static int decode_col(struct wfile *f, uint32_t s, uint32_t col, int64_t rg,
                      int64_t entries, struct dec *d, struct chv_error *err) {
  memset(d, 0, sizeof *d);
  struct chv_orc_stripe_footer sf;
  CHV_RETURN_IF_ERR(
      chv_orc_stripe_footer_read(f->t, &f->in, f->codec, s, f->a, &sf, err));
  int32_t kind = f->t->footer.types[col].kind;
  d->encoding = sf.columns[col].kind;
  bool dict = d->encoding == CHV_ORC_ENC_DICTIONARY_V2;
  struct sview pr, da, ln, se, dd;
  open_stream(f, &sf, col, CHV_ORC_STREAM_PRESENT, &pr);
  open_stream(f, &sf, col, CHV_ORC_STREAM_DATA, &da);
  open_stream(f, &sf, col, CHV_ORC_STREAM_LENGTH, &ln);
  open_stream(f, &sf, col, CHV_ORC_STREAM_SECONDARY, &se);
  open_stream(f, &sf, col, CHV_ORC_STREAM_DICTIONARY_DATA, &dd);
  struct chv_orc_bool_rle pb, db;
  struct chv_orc_byte_rle bb;
  struct chv_orc_int_rle di, li, si;
  chv_orc_bool_rle_init(&pb, &pr.s);
  chv_orc_bool_rle_init(&db, &da.s);
  chv_orc_byte_rle_init(&bb, &da.s);
  bool is_str = kind == CHV_ORC_KIND_STRING || kind == CHV_ORC_KIND_VARCHAR ||
                kind == CHV_ORC_KIND_CHAR;
  bool di_signed = !is_str;
  int rc = chv_orc_int_rle_init(&di, &da.s, 2, di_signed, err);
  if (rc == CHV_OK) rc = chv_orc_int_rle_init(&li, &ln.s, 2, false, err);
  if (rc == CHV_OK)
    rc = chv_orc_int_rle_init(&si, &se.s, 2, kind == CHV_ORC_KIND_DECIMAL, err);
  /* The dictionary, read whole. */
  int64_t ndict = dict ? sf.columns[col].dictionary_size : 0;
  int64_t *dlen = NULL, *doff = NULL;
  struct chv_buf dheap;
  chv_buf_init(&dheap);
  if (rc == CHV_OK && dict) {
    dlen = calloc((size_t)ndict + 1, sizeof *dlen);
    doff = calloc((size_t)ndict + 1, sizeof *doff);
    if (ndict) rc = chv_orc_int_rle_read(&li, dlen, (size_t)ndict, err);
    for (int64_t k = 0; rc == CHV_OK && k < ndict; k++) {
      doff[k + 1] = doff[k] + dlen[k];
      chv_buf_reserve(&dheap, (size_t)dlen[k]);
      rc = chv_orc_stream_read(&dd.s, dheap.data + dheap.len, (size_t)dlen[k],
                               err);
      dheap.len += (size_t)dlen[k];
    }
  }
  /* Seek to the row group. */
  if (rc == CHV_OK && rg >= 0) {
    const struct chv_orc_stream_info *ix =
        chv_orc_stripe_find_stream(&sf, col, CHV_ORC_STREAM_ROW_INDEX);
    struct chv_orc_row_index ri;
    if (ix == NULL) {
      rc = chv_error_set(err, CHV_ECORRUPT, "no row index");
      goto out;
    }
    rc = chv_orc_row_index_decode(f->codec, f->data + ix->offset, ix->length,
                                  f->a, "index", &ri, err);
    if (rc) goto out;
    if ((uint32_t)rg >= ri.nentries) {
      rc = chv_error_set(err, CHV_ECORRUPT, "no entry %d", (int)rg);
      goto out;
    }
    const uint64_t *p = ri.entries[rg].positions;
    uint32_t np = ri.entries[rg].npositions, i = 0;
#define SEEK(sv) chv_orc_stream_seek_positions(&(sv).s, p, np, &i, err)
    if (pr.have) {
      rc = SEEK(pr);
      if (rc == CHV_OK && i + 2 <= np) {
        rc = chv_orc_bool_rle_seek(&pb, p[i], p[i + 1], err);
        i += 2;
      }
    }
    if (rc) goto out;
    switch (kind) {
    case CHV_ORC_KIND_BOOLEAN:
      rc = SEEK(da);
      if (rc == CHV_OK) rc = chv_orc_bool_rle_seek(&db, p[i], p[i + 1], err);
      i += 2;
      break;
    case CHV_ORC_KIND_BYTE:
      rc = SEEK(da);
      if (rc == CHV_OK) rc = chv_orc_byte_rle_seek(&bb, p[i++], err);
      break;
    case CHV_ORC_KIND_SHORT:
    case CHV_ORC_KIND_INT:
    case CHV_ORC_KIND_LONG:
    case CHV_ORC_KIND_DATE:
      rc = SEEK(da);
      if (rc == CHV_OK) rc = chv_orc_int_rle_seek(&di, p[i++], err);
      break;
    case CHV_ORC_KIND_FLOAT:
    case CHV_ORC_KIND_DOUBLE:
      rc = SEEK(da);
      break;
    case CHV_ORC_KIND_STRING:
    case CHV_ORC_KIND_VARCHAR:
    case CHV_ORC_KIND_CHAR:
    case CHV_ORC_KIND_BINARY:
      rc = SEEK(da);
      if (rc == CHV_OK && dict) {
        rc = chv_orc_int_rle_seek(&di, p[i++], err);
      } else if (rc == CHV_OK) {
        rc = SEEK(ln);
        if (rc == CHV_OK) rc = chv_orc_int_rle_seek(&li, p[i++], err);
      }
      break;
    case CHV_ORC_KIND_DECIMAL:
      rc = SEEK(da);
      if (rc == CHV_OK) rc = SEEK(se);
      if (rc == CHV_OK) rc = chv_orc_int_rle_seek(&si, p[i++], err);
      break;
    case CHV_ORC_KIND_TIMESTAMP:
      rc = SEEK(da);
      if (rc == CHV_OK) rc = chv_orc_int_rle_seek(&di, p[i++], err);
      if (rc == CHV_OK) rc = SEEK(se);
      if (rc == CHV_OK) rc = chv_orc_int_rle_seek(&si, p[i++], err);
      break;
    case CHV_ORC_KIND_LIST:
    case CHV_ORC_KIND_MAP:
      rc = SEEK(ln);
      if (rc == CHV_OK) rc = chv_orc_int_rle_seek(&li, p[i++], err);
      break;
    default:
      break;
    }
#undef SEEK
    if (rc == CHV_OK && i != np)
      rc = chv_error_set(err, CHV_ECORRUPT, "%u positions, %u used", np, i);
    if (rc) goto out;
  }
  if (rc) goto out;
  d->n = entries;
  d->present = calloc((size_t)entries + 1, 1);
  if (pr.have) {
    rc = chv_orc_bool_rle_read(&pb, d->present, (size_t)entries, err);
    if (rc) goto out;
  } else {
    memset(d->present, 1, (size_t)entries);
  }
  int64_t nv = 0;
  for (int64_t k = 0; k < entries; k++)
    nv += d->present[k];
  d->nv = nv;
  size_t cnt = (size_t)nv + 1;
  d->i = calloc(cnt, sizeof *d->i);
  d->i2 = calloc(cnt, sizeof *d->i2);
  d->m = calloc(cnt, sizeof *d->m);
  d->d = calloc(cnt, sizeof *d->d);
  d->off = calloc(cnt, sizeof *d->off);
  chv_buf_init(&d->heap);
  if (nv == 0) goto out;
  switch (kind) {
  case CHV_ORC_KIND_BOOLEAN: {
    uint8_t *b = calloc(cnt, 1);
    rc = chv_orc_bool_rle_read(&db, b, (size_t)nv, err);
    for (int64_t k = 0; k < nv; k++)
      d->i[k] = b[k];
    free(b);
    break;
  }
  case CHV_ORC_KIND_BYTE: {
    uint8_t *b = calloc(cnt, 1);
    rc = chv_orc_byte_rle_read(&bb, b, (size_t)nv, err);
    for (int64_t k = 0; k < nv; k++)
      d->i[k] = (int8_t)b[k];
    free(b);
    break;
  }
  case CHV_ORC_KIND_SHORT:
  case CHV_ORC_KIND_INT:
  case CHV_ORC_KIND_LONG:
  case CHV_ORC_KIND_DATE:
    rc = chv_orc_int_rle_read(&di, d->i, (size_t)nv, err);
    break;
  case CHV_ORC_KIND_FLOAT:
  case CHV_ORC_KIND_DOUBLE:
    for (int64_t k = 0; rc == CHV_OK && k < nv; k++) {
      if (kind == CHV_ORC_KIND_FLOAT) {
        float x;
        rc = chv_orc_stream_read(&da.s, &x, 4, err);
        d->d[k] = x;
      } else {
        rc = chv_orc_stream_read(&da.s, &d->d[k], 8, err);
      }
    }
    break;
  case CHV_ORC_KIND_STRING:
  case CHV_ORC_KIND_VARCHAR:
  case CHV_ORC_KIND_CHAR:
  case CHV_ORC_KIND_BINARY:
    if (dict) {
      rc = chv_orc_int_rle_read(&di, d->i, (size_t)nv, err);
      for (int64_t k = 0; rc == CHV_OK && k < nv; k++) {
        int64_t e = d->i[k];
        if (e < 0 || e >= ndict) {
          rc = chv_error_set(err, CHV_ECORRUPT, "id %lld", (long long)e);
          break;
        }
        chv_buf_append(&d->heap, dheap.data + doff[e], (size_t)dlen[e]);
        d->off[k + 1] = (int64_t)d->heap.len;
      }
    } else {
      int64_t *l = calloc(cnt, sizeof *l);
      rc = chv_orc_int_rle_read(&li, l, (size_t)nv, err);
      for (int64_t k = 0; rc == CHV_OK && k < nv; k++) {
        chv_buf_reserve(&d->heap, (size_t)l[k] + 1);
        rc = chv_orc_stream_read(&da.s, d->heap.data + d->heap.len,
                                 (size_t)l[k], err);
        d->heap.len += (size_t)l[k];
        d->off[k + 1] = (int64_t)d->heap.len;
      }
      free(l);
    }
    break;
  case CHV_ORC_KIND_DECIMAL:
    for (int64_t k = 0; rc == CHV_OK && k < nv; k++)
      rc = chv_orc_decimal_read(&da.s, &d->m[k], err);
    if (rc == CHV_OK) rc = chv_orc_int_rle_read(&si, d->i2, (size_t)nv, err);
    break;
  case CHV_ORC_KIND_TIMESTAMP:
    rc = chv_orc_int_rle_read(&di, d->i, (size_t)nv, err);
    if (rc == CHV_OK) rc = chv_orc_int_rle_read(&si, d->i2, (size_t)nv, err);
    break;
  case CHV_ORC_KIND_LIST:
  case CHV_ORC_KIND_MAP:
    rc = chv_orc_int_rle_read(&li, d->i, (size_t)nv, err);
    break;
  default:
    break;
  }
out:
  free(dlen);
  free(doff);
  chv_buf_free(&dheap);
  chv_orc_stream_free(&pr.s);
  chv_orc_stream_free(&da.s);
  chv_orc_stream_free(&ln.s);
  chv_orc_stream_free(&se.s);
  chv_orc_stream_free(&dd.s);
  return rc;
}

/* ---- a model of the rows written ----------------------------------------- */

/* Values of one column as the file should hold them. */
struct col_model {
  int64_t n;
  uint8_t *present;
  int64_t *i;  /* ints; timestamps: DATA seconds */
  int64_t *i2; /* timestamps: nanos */
  chv_i128 *m;
  double *d;
  char **s;
  size_t *slen;
};

static void model_init(struct col_model *c, int64_t n) {
  memset(c, 0, sizeof *c);
  c->present = calloc((size_t)n + 1, 1);
  c->i = calloc((size_t)n + 1, sizeof *c->i);
  c->i2 = calloc((size_t)n + 1, sizeof *c->i2);
  c->m = calloc((size_t)n + 1, sizeof *c->m);
  c->d = calloc((size_t)n + 1, sizeof *c->d);
  c->s = calloc((size_t)n + 1, sizeof *c->s);
  c->slen = calloc((size_t)n + 1, sizeof *c->slen);
}

static void model_free(struct col_model *c) {
  for (int64_t k = 0; k < c->n; k++)
    free(c->s[k]);
  free(c->present);
  free(c->i);
  free(c->i2);
  free(c->m);
  free(c->d);
  free(c->s);
  free(c->slen);
}

/* Compare decoded d with model rows [r0, r0 + d->n). */
static bool same_values(const struct dec *d, const struct col_model *c,
                        int64_t r0, int32_t kind, const char *what) {
  int64_t v = 0;
  for (int64_t k = 0; k < d->n; k++) {
    int64_t r = r0 + k;
    if (d->present[k] != c->present[r]) {
      fprintf(stderr, "%s: entry %lld: present %d, want %d\n", what,
              (long long)r, d->present[k], c->present[r]);
      return false;
    }
    if (!c->present[r]) continue;
    bool ok = true;
    switch (kind) {
    case CHV_ORC_KIND_FLOAT:
    case CHV_ORC_KIND_DOUBLE:
      ok = memcmp(&d->d[v], &c->d[r], 8) == 0 ||
           (d->d[v] != d->d[v] && c->d[r] != c->d[r]);
      break;
    case CHV_ORC_KIND_STRING:
    case CHV_ORC_KIND_VARCHAR:
    case CHV_ORC_KIND_CHAR:
    case CHV_ORC_KIND_BINARY:
      ok = (size_t)(d->off[v + 1] - d->off[v]) == c->slen[r] &&
           memcmp(d->heap.data + d->off[v], c->s[r], c->slen[r]) == 0;
      break;
    case CHV_ORC_KIND_DECIMAL:
      ok = d->m[v] == c->m[r] && d->i2[v] == c->i2[r];
      break;
    case CHV_ORC_KIND_TIMESTAMP:
      ok = d->i[v] == c->i[r] && d->i2[v] == c->i2[r];
      break;
    default:
      ok = d->i[v] == c->i[r];
      break;
    }
    if (!ok) {
      fprintf(stderr, "%s: entry %lld (value %lld) differs\n", what,
              (long long)r, (long long)v);
      return false;
    }
    v++;
  }
  return v == d->nv;
}

/* ---- hashes -------------------------------------------------------------- */

static void test_hashes(void) {
  /* ORC's TestMurmur3.testHashCodeM3_64 and TestBloomFilter.testLongHash. */
  const char *text =
      "It was the best of times, it was the worst of times,"
      " it was the age of wisdom, it was the age of foolishness,"
      " it was the epoch of belief, it was the epoch of incredulity,"
      " it was the season of Light, it was the season of Darkness,"
      " it was the spring of hope, it was the winter of despair,"
      " we had everything before us, we had nothing before us,"
      " we were all going direct to Heaven,"
      " we were all going direct the other way.";
  CHV_CHECK_EQ_INT((int64_t)ow_murmur3_64(text, strlen(text)),
                   305830725663368540ll);
  static const int64_t v[][2] = {
      {0, 0},
      {-1, 6614246905173314819ll},
      {-2, -5218250166726157773ll},
      {-3, 1396019780946710816ll},
      {-9223372036854775805ll, 3691278333958578070ll},
      {-9223372036854775806ll, -1192099642781211952ll},
      {-9223372036854775807ll, -9102499068535824902ll},
      {790302201, 1499534499340523007ll},
      {790302202, -5108695154500810163ll},
      {790302203, -2450623810987162260ll},
      {18000000000ll, -1097054448615658549ll},
      {9223372036064673413ll, -4986173376161118712ll},
      {9223372036064673414ll, 3785699328822078862ll},
      {9223372036064673415ll, 294188322706112357ll},
  };
  for (size_t k = 0; k < CHV_ARRAY_SIZE(v); k++)
    CHV_CHECK_EQ_INT((int64_t)ow_wang64(v[k][0]), v[k][1]);
  /* A filter holds what was added. */
  uint64_t bits[16] = {0};
  for (int k = 0; k < 20; k++)
    ow_bloom_add(bits, 1024, 3, ow_wang64(k * 7));
  for (int k = 0; k < 20; k++)
    CHV_CHECK(ow_bloom_test(bits, 1024, 3, ow_wang64(k * 7)));
}

/* ---- options ------------------------------------------------------------- */

static void test_options(void) {
  struct chv_orc_write_options o;
  struct chv_error err;
  chv_orc_write_options_init(&o);
  CHV_CHECK_EQ_INT(o.compression, CHV_ORC_COMP_ZLIB);
  CHV_CHECK_EQ_INT(o.compress_size, 262144);
  CHV_CHECK_EQ_INT(o.stripe_size, 64 << 20);
  CHV_CHECK_EQ_INT(o.row_index_stride, 10000);
  CHV_CHECK(o.create_index);
  CHV_CHECK(o.dictionary_key_threshold == 0.8);
  CHV_CHECK(o.bloom_filter_fpp == 0.05);
  CHV_CHECK(o.bloom_filter_columns == NULL);
  static const struct {
    const char *value;
    int kind;
  } codecs[] = {{"none", 0}, {"ZLIB", 1}, {"snappy", 2},
                {"LZO", 3},  {"Lz4", 4},  {"ZSTD", 5}};
  for (size_t k = 0; k < CHV_ARRAY_SIZE(codecs); k++) {
    CHV_CHECK_OK(
        chv_orc_write_options_set(&o, "orc.compress", codecs[k].value, &err),
        &err);
    CHV_CHECK_EQ_INT(o.compression, codecs[k].kind);
  }
  CHV_CHECK_OK(chv_orc_write_options_set(&o, "orc.compress.size", "8k", &err),
               &err);
  CHV_CHECK_EQ_INT(o.compress_size, 8192);
  CHV_CHECK_OK(
      chv_orc_write_options_set(&o, "orc.stripe.size", "1048576", &err), &err);
  CHV_CHECK_EQ_INT(o.stripe_size, 1048576);
  CHV_CHECK_OK(
      chv_orc_write_options_set(&o, "orc.row.index.stride", "5000", &err),
      &err);
  CHV_CHECK_EQ_INT(o.row_index_stride, 5000);
  CHV_CHECK_OK(chv_orc_write_options_set(&o, "orc.create.index", "FALSE", &err),
               &err);
  CHV_CHECK(!o.create_index);
  CHV_CHECK_OK(chv_orc_write_options_set(&o, "orc.dictionary.key.threshold",
                                         "0.5", &err),
               &err);
  CHV_CHECK(o.dictionary_key_threshold == 0.5);
  CHV_CHECK_OK(
      chv_orc_write_options_set(&o, "orc.bloom.filter.fpp", "0.01", &err),
      &err);
  CHV_CHECK(o.bloom_filter_fpp == 0.01);
  const char *cols = "a,b";
  CHV_CHECK_OK(
      chv_orc_write_options_set(&o, "orc.bloom.filter.columns", cols, &err),
      &err);
  CHV_CHECK(o.bloom_filter_columns == cols);
  /* Other keys are not the writer's. */
  struct chv_orc_write_options before = o;
  CHV_CHECK_OK(chv_orc_write_options_set(&o, "parquet.compression", "x", &err),
               &err);
  CHV_CHECK(memcmp(&before, &o, sizeof o) == 0);
  static const char *const bad[][2] = {
      {"orc.compress", "GZIP"},
      {"orc.compress", "BROTLI"},
      {"orc.compress.size", "0"},
      {"orc.compress.size", "16m"},
      {"orc.compress.size", "abc"},
      {"orc.stripe.size", "-1"},
      {"orc.stripe.size", "0"},
      {"orc.row.index.stride", "-5"},
      {"orc.row.index.stride", "3000000000"},
      {"orc.create.index", "yes"},
      {"orc.dictionary.key.threshold", "-0.1"},
      {"orc.dictionary.key.threshold", "nan"},
      {"orc.bloom.filter.fpp", "0"},
      {"orc.bloom.filter.fpp", "1"},
      {"orc.bloom.filter.fpp", "x"},
  };
  for (size_t k = 0; k < CHV_ARRAY_SIZE(bad); k++) {
    before = o;
    CHV_CHECK_EQ_INT(chv_orc_write_options_set(&o, bad[k][0], bad[k][1], &err),
                     CHV_EINVAL);
    CHV_CHECK_CONTAINS(err.msg, bad[k][0]);
    CHV_CHECK_CONTAINS(err.msg, bad[k][1]);
    CHV_CHECK(memcmp(&before, &o, sizeof o) == 0);
  }
  /* Out-of-range fields are refused at open. */
  struct chv_type *s;
  CHV_REQUIRE_OK(chv_type_parse_columns("a int", &s, &err), &err);
  chv_orc_write_options_init(&o);
  o.compression = 6;
  chv_orc_writer *w = NULL;
  char path[700];
  snprintf(path, sizeof path, "%s/x.orc", chv_test_tmpdir());
  CHV_CHECK_EQ_INT(chv_orc_writer_open(chv_fs_local(), path, s, &o, &w, &err),
                   CHV_EINVAL);
  CHV_CHECK(w == NULL);
  chv_orc_write_options_init(&o);
  o.bloom_filter_fpp = 2;
  CHV_CHECK_EQ_INT(chv_orc_writer_open(chv_fs_local(), path, s, &o, &w, &err),
                   CHV_EINVAL);
  chv_type_free(s);
}

/* ---- an empty file ------------------------------------------------------- */

static void test_empty(void) {
  struct chv_error err;
  struct chv_type *s;
  CHV_REQUIRE_OK(
      chv_type_parse_columns("a int, b string, c decimal(5,1)", &s, &err),
      &err);
  char path[700];
  snprintf(path, sizeof path, "%s/empty.orc", chv_test_tmpdir());
  chv_orc_writer *w;
  CHV_REQUIRE_OK(chv_orc_writer_open(chv_fs_local(), path, s, NULL, &w, &err),
                 &err);
  struct chv_orc_write_stats st;
  CHV_REQUIRE_OK(chv_orc_writer_finish(w, &st, &err), &err);
  CHV_CHECK_OK(chv_orc_writer_finish(w, NULL, &err), &err);
  chv_orc_writer_close(w);
  CHV_CHECK_EQ_INT(st.rows, 0);
  CHV_CHECK_EQ_INT(st.stripes, 0);
  struct wfile f;
  CHV_REQUIRE_OK(wfile_open(path, &f, &err), &err);
  CHV_CHECK_EQ_INT(st.file_bytes, (int64_t)f.len);
  CHV_CHECK(memcmp(f.data, "ORC", 3) == 0);
  CHV_CHECK_EQ_INT(f.t->version, CHV_ORC_V0_12);
  CHV_CHECK_EQ_INT(f.t->ps.writer_version, 6);
  CHV_CHECK_EQ_INT(f.t->compression, CHV_ORC_COMP_ZLIB);
  CHV_CHECK_EQ_INT(f.t->nrows, 0);
  CHV_CHECK_EQ_INT(f.t->footer.nstripes, 0);
  CHV_CHECK_EQ_INT(f.t->footer.ntypes, 4);
  CHV_CHECK_EQ_INT(f.t->footer.writer, 2147483647u);
  CHV_CHECK_STREQ(f.t->footer.software_version, "chive " CHV_VERSION);
  CHV_CHECK_EQ_INT(f.t->footer.calendar, CHV_ORC_CAL_PROLEPTIC_GREGORIAN);
  CHV_CHECK_EQ_INT(f.t->footer.row_index_stride, 10000);
  CHV_CHECK_EQ_INT(f.t->footer.nstatistics, 4);
  CHV_CHECK_EQ_INT(f.t->footer.statistics[1].number_of_values, 0);
  CHV_CHECK(f.t->footer.statistics[1].has_int);
  CHV_CHECK(!f.t->footer.statistics[1].int_stats.has_min);
  struct chv_buf b;
  chv_buf_init(&b);
  chv_orc_type_format(&f.t->footer, 0, &b);
  CHV_CHECK_STREQ(b.data, "struct<a:int,b:string,c:decimal(5,1)>");
  chv_buf_free(&b);
  /* rawDataSize of an empty string column counts one empty string, as
  ** ORC's reader does. */
  CHV_CHECK_EQ_INT(st.raw_bytes, 84);
  wfile_close(&f);
  chv_type_free(s);
}

/* ---- every primitive type, every codec ----------------------------------- */

static uint64_t rs = 88172645463325252ull;
static uint64_t rnd(void) {
  rs ^= rs << 13;
  rs ^= rs >> 7;
  rs ^= rs << 17;
  return rs;
}

#define NFLAT 15
static const char *const flat_schema =
    "b boolean, t tinyint, s smallint, i int, l bigint, f float, d double, "
    "m decimal(10,2), mm decimal(30,5), str string, vc varchar(5), "
    "ch char(4), bin binary, dt date, ts timestamp";

/* Fill a batch of rows [r0, r0 + n) of the flat schema, and the models. */
static int fill_flat(struct chv_batch *b, int64_t r0, int64_t n,
                     struct col_model *mo, int card, struct chv_error *err) {
  struct chv_vector **c = b->cols;
  for (int64_t k = 0; k < n; k++) {
    int64_t r = r0 + k;
    for (int col = 0; col < NFLAT; col++) {
      struct col_model *m = &mo[col];
      /* Column i has no NULLs; the others some, more in later rows. */
      bool null = col != 3 && (rnd() % (col == 0 ? 3 : 11)) == 0 && r > 2500;
      m->n = r + 1;
      if (null) {
        CHV_RETURN_IF_ERR(chv_vector_append_null(c[col], err));
        m->present[r] = 0;
        continue;
      }
      m->present[r] = 1;
      uint64_t x = rnd();
      switch (col) {
      case 0: {
        bool v = x & 1;
        m->i[r] = v;
        CHV_RETURN_IF_ERR(chv_vector_append_value(c[col], &v, err));
        break;
      }
      case 1: {
        int8_t v = (int8_t)x;
        m->i[r] = v;
        CHV_RETURN_IF_ERR(chv_vector_append_value(c[col], &v, err));
        break;
      }
      case 2: {
        int16_t v = (int16_t)(r % 100 - 50);
        m->i[r] = v;
        CHV_RETURN_IF_ERR(chv_vector_append_value(c[col], &v, err));
        break;
      }
      case 3: {
        int32_t v = (int32_t)r * 3;
        m->i[r] = v;
        CHV_RETURN_IF_ERR(chv_vector_append_value(c[col], &v, err));
        break;
      }
      case 4: {
        int64_t v = (int64_t)x;
        m->i[r] = v;
        CHV_RETURN_IF_ERR(chv_vector_append_value(c[col], &v, err));
        break;
      }
      case 5: {
        float v = (float)((double)(x % 100000) / 7.0);
        m->d[r] = v;
        CHV_RETURN_IF_ERR(chv_vector_append_value(c[col], &v, err));
        break;
      }
      case 6: {
        double v = (double)(int64_t)x / 1e9;
        m->d[r] = v;
        CHV_RETURN_IF_ERR(chv_vector_append_value(c[col], &v, err));
        break;
      }
      case 7:
      case 8: {
        chv_i128 v = (chv_i128)(int64_t)(x % 2000000000) - 1000000000;
        if (col == 8) v = v * (chv_i128)1000000000000ll + 7;
        m->m[r] = v;
        m->i2[r] = col == 7 ? 2 : 5;
        CHV_RETURN_IF_ERR(chv_vector_append_value(c[col], &v, err));
        break;
      }
      case 9:
      case 10:
      case 11:
      case 12: {
        char s[64];
        int len;
        if (col == 12)
          len = snprintf(s, sizeof s, "%c%c\x01bin%d", 0, 255, (int)(x % 50));
        else if (col == 11 && x % 5 == 0)
          len = snprintf(s, sizeof s, "é");
        else
          len = snprintf(s, sizeof s, "v%d-%s", (int)(x % (uint64_t)card),
                         r % 2 ? "long value" : "");
        CHV_RETURN_IF_ERR(chv_vector_append_bytes(c[col], s, (size_t)len, err));
        /* What the file holds: varchar(5) cut, char(4) padded or cut. */
        size_t keep = (size_t)len;
        char shaped[64];
        memcpy(shaped, s, (size_t)len);
        if (col == 10 || col == 11) {
          int64_t chars;
          keep = chv_utf8_prefix(s, (size_t)len, col == 10 ? 5 : 4, &chars);
          if (col == 11)
            for (; chars < 4; chars++)
              shaped[keep++] = ' ';
        }
        m->s[r] = malloc(keep + 1);
        memcpy(m->s[r], shaped, keep);
        m->slen[r] = keep;
        break;
      }
      case 13: {
        int32_t v = (int32_t)(x % 40000) - 20000;
        m->i[r] = v;
        CHV_RETURN_IF_ERR(chv_vector_append_value(c[col], &v, err));
        break;
      }
      case 14: {
        struct chv_timestamp v = {(int64_t)(x % 4000000000ull) - 2000000000,
                                  (int32_t)(rnd() % 1000000000), 0};
        if (r % 7 == 0) v.nanos = (int32_t)(r % 1000) * 1000000;
        if (r % 13 == 0) v.nanos = 0;
        int64_t ms = v.seconds * 1000 + v.nanos / 1000000;
        m->i[r] = ms / 1000 - OW_TS_BASE;
        m->i2[r] = (int64_t)chv_orc_nanos_encode(v.nanos);
        CHV_RETURN_IF_ERR(chv_vector_append_value(c[col], &v, err));
        break;
      }
      default:
        break;
      }
    }
  }
  b->nrows = n;
  return CHV_OK;
}

static const int32_t flat_kinds[NFLAT] = {
    CHV_ORC_KIND_BOOLEAN, CHV_ORC_KIND_BYTE,    CHV_ORC_KIND_SHORT,
    CHV_ORC_KIND_INT,     CHV_ORC_KIND_LONG,    CHV_ORC_KIND_FLOAT,
    CHV_ORC_KIND_DOUBLE,  CHV_ORC_KIND_DECIMAL, CHV_ORC_KIND_DECIMAL,
    CHV_ORC_KIND_STRING,  CHV_ORC_KIND_VARCHAR, CHV_ORC_KIND_CHAR,
    CHV_ORC_KIND_BINARY,  CHV_ORC_KIND_DATE,    CHV_ORC_KIND_TIMESTAMP};

/* Write `rows` rows of the flat schema with options o; check every value of
** every stripe, from the stripe's start and from each row group. */
static void flat_roundtrip(const struct chv_orc_write_options *o, int64_t rows,
                           int card, int *nstripes, int32_t *str_encoding) {
  struct chv_error err;
  struct chv_type *s;
  CHV_REQUIRE_OK(chv_type_parse_columns(flat_schema, &s, &err), &err);
  struct col_model mo[NFLAT];
  for (int k = 0; k < NFLAT; k++)
    model_init(&mo[k], rows);
  char path[700];
  snprintf(path, sizeof path, "%s/flat.orc", chv_test_tmpdir());
  chv_orc_writer *w;
  CHV_REQUIRE_OK(chv_orc_writer_open(chv_fs_local(), path, s, o, &w, &err),
                 &err);
  struct chv_batch *b;
  CHV_REQUIRE_OK(chv_batch_open(s, 1000, &b, &err), &err);
  for (int64_t r = 0; r < rows;) {
    int64_t n = (int64_t)(rnd() % 999 + 1);
    if (n > rows - r) n = rows - r;
    chv_batch_reset(b);
    CHV_REQUIRE_OK(fill_flat(b, r, n, mo, card, &err), &err);
    CHV_REQUIRE_OK(chv_orc_writer_write(w, b, &err), &err);
    r += n;
  }
  struct chv_orc_write_stats st;
  CHV_REQUIRE_OK(chv_orc_writer_finish(w, &st, &err), &err);
  chv_orc_writer_close(w);
  chv_batch_close(b);
  CHV_CHECK_EQ_INT(st.rows, rows);

  struct wfile f;
  CHV_REQUIRE_OK(wfile_open(path, &f, &err), &err);
  CHV_CHECK_EQ_INT((int64_t)f.len, st.file_bytes);
  CHV_CHECK_EQ_INT((int64_t)f.t->nrows, rows);
  CHV_CHECK_EQ_INT(f.t->compression, o->compression);
  CHV_CHECK_EQ_INT(f.t->footer.nstripes, st.stripes);
  CHV_CHECK_EQ_INT(f.md->nstripes, f.t->footer.nstripes);
  *nstripes = (int)f.t->footer.nstripes;
  int64_t stride = o->create_index ? o->row_index_stride : 0;
  CHV_CHECK_EQ_INT(f.t->footer.row_index_stride, stride);
  for (uint32_t k = 0; k < NFLAT; k++)
    CHV_CHECK_EQ_INT(f.t->footer.types[k + 1].kind, flat_kinds[k]);
  CHV_CHECK_EQ_INT(f.t->footer.types[11].maximum_length, 5);
  CHV_CHECK_EQ_INT(f.t->footer.types[12].maximum_length, 4);
  CHV_CHECK_EQ_INT(f.t->footer.types[8].precision, 10);
  CHV_CHECK_EQ_INT(f.t->footer.types[8].scale, 2);
  int64_t row0 = 0;
  *str_encoding = -1;
  for (uint32_t si = 0; si < f.t->footer.nstripes; si++) {
    const struct chv_orc_stripe_info *sinfo = &f.t->footer.stripes[si];
    int64_t srows = (int64_t)sinfo->number_of_rows;
    struct chv_orc_stripe_footer sf;
    CHV_REQUIRE_OK(
        chv_orc_stripe_footer_read(f.t, &f.in, f.codec, si, f.a, &sf, &err),
        &err);
    CHV_CHECK_STREQ(sf.writer_timezone, "UTC");
    for (uint32_t col = 1; col <= NFLAT; col++) {
      const struct col_model *m = &mo[col - 1];
      int32_t kind = flat_kinds[col - 1];
      /* PRESENT only where the stripe has a NULL. */
      bool nulls = false;
      for (int64_t r = row0; r < row0 + srows; r++)
        if (!m->present[r]) nulls = true;
      CHV_CHECK_EQ_INT(
          chv_orc_stripe_find_stream(&sf, col, CHV_ORC_STREAM_PRESENT) != NULL,
          nulls);
      struct dec d;
      char what[64];
      snprintf(what, sizeof what, "stripe %u column %u", si, col);
      int rc = decode_col(&f, si, col, -1, srows, &d, &err);
      CHV_CHECK_OK(rc, &err);
      if (rc == CHV_OK) CHV_CHECK(same_values(&d, m, row0, kind, what));
      if (col == 10 && si == 0) *str_encoding = d.encoding;
      dec_free(&d);
      /* Each row group from its index positions. */
      for (int64_t g = 1; stride > 0 && g * stride < srows; g++) {
        snprintf(what, sizeof what, "stripe %u column %u group %d", si, col,
                 (int)g);
        rc = decode_col(&f, si, col, g, srows - g * stride, &d, &err);
        CHV_CHECK_OK(rc, &err);
        if (rc == CHV_OK)
          CHV_CHECK(same_values(&d, m, row0 + g * stride, kind, what));
        dec_free(&d);
      }
      /* Stripe statistics: counts and NULLs. */
      const struct chv_orc_column_stats *cs = &f.md->stripes[si].columns[col];
      int64_t cnt = 0;
      for (int64_t r = row0; r < row0 + srows; r++)
        cnt += m->present[r];
      CHV_CHECK_EQ_INT(cs->number_of_values, cnt);
      CHV_CHECK_EQ_INT(cs->has_null, nulls);
      CHV_CHECK(cs->has_bytes_on_disk && cs->bytes_on_disk > 0);
    }
    row0 += srows;
  }
  CHV_CHECK_EQ_INT(row0, rows);
  /* File statistics of a few columns against the model. */
  const struct chv_orc_column_stats *fs = f.t->footer.statistics;
  CHV_CHECK_EQ_INT(fs[0].number_of_values, rows);
  int64_t mn = INT64_MAX, mx = INT64_MIN, sum = 0, trues = 0;
  for (int64_t r = 0; r < rows; r++) {
    mn = CHV_MIN(mn, mo[3].i[r]);
    mx = CHV_MAX(mx, mo[3].i[r]);
    sum += mo[3].i[r];
    if (mo[0].present[r]) trues += mo[0].i[r];
  }
  CHV_CHECK(fs[4].int_stats.has_min && fs[4].int_stats.min == mn);
  CHV_CHECK(fs[4].int_stats.has_max && fs[4].int_stats.max == mx);
  CHV_CHECK(fs[4].int_stats.has_sum && fs[4].int_stats.sum == sum);
  CHV_CHECK(!fs[4].has_null);
  CHV_CHECK(fs[1].has_bucket && fs[1].bucket_stats.count[0] == (uint64_t)trues);
  /* bigint values are random 64-bit: the sum overflows and is left out. */
  CHV_CHECK(fs[5].has_int && !fs[5].int_stats.has_sum);
  CHV_CHECK(fs[10].has_string && fs[10].string_stats.has_min &&
            fs[10].string_stats.has_sum);
  CHV_CHECK(fs[13].has_binary && fs[13].binary_stats.has_sum);
  CHV_CHECK(fs[15].has_timestamp && fs[15].timestamp_stats.has_min_utc);
  CHV_CHECK(fs[14].has_date && fs[14].date_stats.has_min);
  wfile_close(&f);
  for (int k = 0; k < NFLAT; k++)
    model_free(&mo[k]);
  chv_type_free(s);
}

static void test_flat_codecs(void) {
  static const int codecs[] = {CHV_ORC_COMP_NONE,   CHV_ORC_COMP_ZLIB,
                               CHV_ORC_COMP_SNAPPY, CHV_ORC_COMP_LZO,
                               CHV_ORC_COMP_LZ4,    CHV_ORC_COMP_ZSTD};
  for (size_t k = 0; k < CHV_ARRAY_SIZE(codecs); k++) {
    struct chv_orc_write_options o;
    chv_orc_write_options_init(&o);
    o.compression = codecs[k];
    o.row_index_stride = 1000;
    o.compress_size = 1000; /* many chunks: positions inside them */
    int nst;
    int32_t enc;
    flat_roundtrip(&o, 5003, 50, &nst, &enc);
    CHV_CHECK_EQ_INT(nst, 1);
    CHV_CHECK_EQ_INT(enc, CHV_ORC_ENC_DICTIONARY_V2);
  }
}

static void test_flat_stripes(void) {
  struct chv_orc_write_options o;
  chv_orc_write_options_init(&o);
  o.row_index_stride = 1000;
  o.stripe_size = 40000;
  int nst;
  int32_t enc;
  /* Many distinct strings: direct. */
  flat_roundtrip(&o, 20000, 1000000, &nst, &enc);
  CHV_CHECK(nst > 3);
  CHV_CHECK_EQ_INT(enc, CHV_ORC_ENC_DIRECT_V2);
  /* No index at all. */
  o.create_index = false;
  o.compression = CHV_ORC_COMP_NONE;
  flat_roundtrip(&o, 3000, 10, &nst, &enc);
  CHV_CHECK_EQ_INT(enc, CHV_ORC_ENC_DICTIONARY_V2);
  /* Dictionary off. */
  o.create_index = true;
  o.dictionary_key_threshold = 0;
  flat_roundtrip(&o, 3000, 10, &nst, &enc);
  CHV_CHECK_EQ_INT(enc, CHV_ORC_ENC_DIRECT_V2);
  /* Always a dictionary, even of distinct values. */
  o.dictionary_key_threshold = 1;
  flat_roundtrip(&o, 3000, 1000000, &nst, &enc);
  CHV_CHECK_EQ_INT(enc, CHV_ORC_ENC_DICTIONARY_V2);
}

/* ---- nesting ------------------------------------------------------------- */

/* Column models of the nested schema, by ORC column id, and for each column
** the entries the top-level rows before row r contributed (start[r]). */
#define NNEST 10
struct nest_model {
  struct col_model c[NNEST];
  int64_t *start[NNEST];
};

static void push_entry(struct col_model *m, bool present, int64_t i,
                       const char *s) {
  int64_t k = m->n++;
  m->present[k] = present;
  m->i[k] = i;
  if (s) {
    m->slen[k] = strlen(s);
    m->s[k] = strdup(s);
  }
}

static int fill_nested(struct chv_batch *b, int64_t r0, int64_t n,
                       struct nest_model *nm, struct chv_error *err) {
  struct chv_vector *a = b->cols[0], *mp = b->cols[1], *st = b->cols[2];
  struct col_model *c = nm->c;
  for (int64_t k = 0; k < n; k++) {
    int64_t r = r0 + k;
    for (int col = 0; col < NNEST; col++)
      nm->start[col][r] = c[col].n;
    /* a array<int> */
    if (r % 5 == 0) {
      CHV_RETURN_IF_ERR(chv_vector_append_null(a, err));
      push_entry(&c[1], false, 0, NULL);
    } else {
      int len = (int)(r % 4);
      for (int j = 0; j < len; j++) {
        if ((r + j) % 3 == 0) {
          CHV_RETURN_IF_ERR(chv_vector_append_null(a->children[0], err));
          push_entry(&c[2], false, 0, NULL);
        } else {
          int32_t v = (int32_t)(r * 10 + j);
          CHV_RETURN_IF_ERR(chv_vector_append_value(a->children[0], &v, err));
          push_entry(&c[2], true, v, NULL);
        }
      }
      CHV_RETURN_IF_ERR(chv_vector_append_nested(a, err));
      push_entry(&c[1], true, len, NULL);
    }
    /* mp map<string,bigint> */
    if (r % 7 == 1) {
      CHV_RETURN_IF_ERR(chv_vector_append_null(mp, err));
      push_entry(&c[3], false, 0, NULL);
    } else {
      int len = (int)(r % 3);
      for (int j = 0; j < len; j++) {
        char key[32];
        snprintf(key, sizeof key, "k%d", j);
        CHV_RETURN_IF_ERR(
            chv_vector_append_bytes(mp->children[0], key, strlen(key), err));
        push_entry(&c[4], true, 0, key);
        if (j == 1) {
          CHV_RETURN_IF_ERR(chv_vector_append_null(mp->children[1], err));
          push_entry(&c[5], false, 0, NULL);
        } else {
          int64_t v = r + j;
          CHV_RETURN_IF_ERR(chv_vector_append_value(mp->children[1], &v, err));
          push_entry(&c[5], true, v, NULL);
        }
      }
      CHV_RETURN_IF_ERR(chv_vector_append_nested(mp, err));
      push_entry(&c[3], true, len, NULL);
    }
    /* st struct<x:int,y:array<string>> */
    if (r % 6 == 2) {
      CHV_RETURN_IF_ERR(chv_vector_append_null(st, err));
      push_entry(&c[6], false, 0, NULL);
      continue;
    }
    struct chv_vector *x = st->children[0], *y = st->children[1];
    if (r % 4 == 0) {
      CHV_RETURN_IF_ERR(chv_vector_append_null(x, err));
      push_entry(&c[7], false, 0, NULL);
    } else {
      int32_t v = (int32_t)r;
      CHV_RETURN_IF_ERR(chv_vector_append_value(x, &v, err));
      push_entry(&c[7], true, v, NULL);
    }
    if (r % 5 == 3) {
      CHV_RETURN_IF_ERR(chv_vector_append_null(y, err));
      push_entry(&c[8], false, 0, NULL);
    } else {
      int len = (int)(r % 3);
      for (int j = 0; j < len; j++) {
        char v[32];
        snprintf(v, sizeof v, "s%d-%d", (int)r, j);
        CHV_RETURN_IF_ERR(
            chv_vector_append_bytes(y->children[0], v, strlen(v), err));
        push_entry(&c[9], true, 0, v);
      }
      CHV_RETURN_IF_ERR(chv_vector_append_nested(y, err));
      push_entry(&c[8], true, len, NULL);
    }
    CHV_RETURN_IF_ERR(chv_vector_append_nested(st, err));
    push_entry(&c[6], true, 0, NULL);
  }
  b->nrows = n;
  return CHV_OK;
}

static void test_nested(void) {
  static const int codecs[] = {CHV_ORC_COMP_NONE, CHV_ORC_COMP_ZLIB,
                               CHV_ORC_COMP_ZSTD};
  const int64_t rows = 3000;
  for (size_t ci = 0; ci < CHV_ARRAY_SIZE(codecs); ci++) {
    struct chv_error err;
    struct chv_type *s;
    CHV_REQUIRE_OK(chv_type_parse_columns("a array<int>, mp map<string,bigint>,"
                                          " st struct<x:int,y:array<string>>",
                                          &s, &err),
                   &err);
    struct nest_model nm;
    for (int k = 0; k < NNEST; k++) {
      model_init(&nm.c[k], rows * 4);
      nm.start[k] = calloc((size_t)rows + 1, sizeof(int64_t));
    }
    struct chv_orc_write_options o;
    chv_orc_write_options_init(&o);
    o.compression = codecs[ci];
    o.row_index_stride = 250;
    o.compress_size = 512;
    char path[700];
    snprintf(path, sizeof path, "%s/nested.orc", chv_test_tmpdir());
    chv_orc_writer *w;
    CHV_REQUIRE_OK(chv_orc_writer_open(chv_fs_local(), path, s, &o, &w, &err),
                   &err);
    struct chv_batch *b;
    CHV_REQUIRE_OK(chv_batch_open(s, 700, &b, &err), &err);
    for (int64_t r = 0; r < rows;) {
      int64_t n = CHV_MIN(rows - r, (int64_t)700);
      chv_batch_reset(b);
      CHV_REQUIRE_OK(fill_nested(b, r, n, &nm, &err), &err);
      CHV_REQUIRE_OK(chv_orc_writer_write(w, b, &err), &err);
      r += n;
    }
    for (int col = 0; col < NNEST; col++)
      nm.start[col][rows] = nm.c[col].n;
    CHV_REQUIRE_OK(chv_orc_writer_finish(w, NULL, &err), &err);
    chv_orc_writer_close(w);
    chv_batch_close(b);

    struct wfile f;
    CHV_REQUIRE_OK(wfile_open(path, &f, &err), &err);
    struct chv_buf tb;
    chv_buf_init(&tb);
    chv_orc_type_format(&f.t->footer, 0, &tb);
    CHV_CHECK_STREQ(tb.data, "struct<a:array<int>,mp:map<string,bigint>,"
                             "st:struct<x:int,y:array<string>>>");
    chv_buf_free(&tb);
    CHV_REQUIRE(f.t->footer.nstripes == 1);
    for (uint32_t col = 1; col < NNEST; col++) {
      int32_t kind = f.t->footer.types[col].kind;
      for (int64_t g = -1; g < rows / o.row_index_stride; g++) {
        int64_t from = g < 0 ? 0 : nm.start[col][g * o.row_index_stride];
        struct dec d;
        char what[64];
        snprintf(what, sizeof what, "column %u group %d", col, (int)g);
        int rc = decode_col(&f, 0, col, g, nm.c[col].n - from, &d, &err);
        CHV_CHECK_OK(rc, &err);
        if (rc == CHV_OK)
          CHV_CHECK(same_values(&d, &nm.c[col], from, kind, what));
        dec_free(&d);
      }
      /* Statistics: values and NULLs. */
      const struct chv_orc_column_stats *cs = &f.t->footer.statistics[col];
      int64_t cnt = 0;
      for (int64_t k = 0; k < nm.c[col].n; k++)
        cnt += nm.c[col].present[k];
      CHV_CHECK_EQ_INT(cs->number_of_values, cnt);
      CHV_CHECK_EQ_INT(cs->has_null, cnt < nm.c[col].n);
    }
    /* Collection statistics of a: 0 .. 3 children, total = a._elem entries. */
    const struct chv_orc_column_stats *as = &f.t->footer.statistics[1];
    CHV_CHECK(as->has_collection);
    CHV_CHECK_EQ_INT(as->collection_stats.min_children, 0);
    CHV_CHECK_EQ_INT(as->collection_stats.max_children, 3);
    CHV_CHECK_EQ_INT(as->collection_stats.total_children, nm.c[2].n);
    wfile_close(&f);
    for (int k = 0; k < NNEST; k++) {
      model_free(&nm.c[k]);
      free(nm.start[k]);
    }
    chv_type_free(s);
  }
}

/* ---- bloom filters ------------------------------------------------------- */

static void test_bloom(void) {
  struct chv_error err;
  struct chv_type *s;
  CHV_REQUIRE_OK(chv_type_parse_columns("i int, s string, d double, "
                                        "ts timestamp, dt date, "
                                        "m decimal(10,2), st struct<x:bigint>,"
                                        " nob int",
                                        &s, &err),
                 &err);
  const int64_t rows = 3500, stride = 1000;
  struct chv_orc_write_options o;
  chv_orc_write_options_init(&o);
  o.row_index_stride = stride;
  o.bloom_filter_columns = " i, S,d ,ts,dt,m,st.x,nothere";
  char path[700];
  snprintf(path, sizeof path, "%s/bloom.orc", chv_test_tmpdir());
  chv_orc_writer *w;
  CHV_REQUIRE_OK(chv_orc_writer_open(chv_fs_local(), path, s, &o, &w, &err),
                 &err);
  struct chv_batch *b;
  CHV_REQUIRE_OK(chv_batch_open(s, rows, &b, &err), &err);
  /* hashes[col][row] of the values, as the spec says to hash them */
  uint64_t *h[9];
  for (int k = 0; k < 9; k++)
    h[k] = calloc((size_t)rows, sizeof(uint64_t));
  for (int64_t r = 0; r < rows; r++) {
    int32_t i = (int32_t)(r * 7919 % 100003);
    char str[32];
    snprintf(str, sizeof str, "name-%d", (int)(r * 31 % 977));
    double d = (double)r / 3.0;
    struct chv_timestamp ts = {1600000000 + r * 1000, (int32_t)(r * 1001), 0};
    int32_t dt = (int32_t)(18000 + r);
    chv_i128 m = (chv_i128)(r * 50); /* r * 0.50 */
    int64_t x = r * 1000003;
    chv_vector_append_value(b->cols[0], &i, &err);
    chv_vector_append_bytes(b->cols[1], str, strlen(str), &err);
    chv_vector_append_value(b->cols[2], &d, &err);
    chv_vector_append_value(b->cols[3], &ts, &err);
    chv_vector_append_value(b->cols[4], &dt, &err);
    chv_vector_append_value(b->cols[5], &m, &err);
    chv_vector_append_value(b->cols[6]->children[0], &x, &err);
    chv_vector_append_nested(b->cols[6], &err);
    chv_vector_append_value(b->cols[7], &i, &err);
    h[1][r] = ow_wang64(i);
    h[2][r] = ow_murmur3_64(str, strlen(str));
    int64_t bits;
    memcpy(&bits, &d, 8);
    h[3][r] = ow_wang64(bits);
    h[4][r] = ow_wang64(ts.seconds * 1000 + ts.nanos / 1000000);
    h[5][r] = ow_wang64(dt);
    char dec[64];
    int64_t whole = r * 50 / 100, frac = r * 50 % 100;
    if (frac == 0)
      snprintf(dec, sizeof dec, "%lld", (long long)whole);
    else if (frac % 10 == 0)
      snprintf(dec, sizeof dec, "%lld.%lld", (long long)whole,
               (long long)(frac / 10));
    else
      snprintf(dec, sizeof dec, "%lld.%02lld", (long long)whole,
               (long long)frac);
    h[6][r] = ow_murmur3_64(dec, strlen(dec));
    h[8][r] = ow_wang64(x);
  }
  b->nrows = rows;
  CHV_REQUIRE_OK(chv_orc_writer_write(w, b, &err), &err);
  CHV_REQUIRE_OK(chv_orc_writer_finish(w, NULL, &err), &err);
  chv_orc_writer_close(w);
  chv_batch_close(b);

  struct wfile f;
  CHV_REQUIRE_OK(wfile_open(path, &f, &err), &err);
  struct chv_orc_stripe_footer sf;
  CHV_REQUIRE_OK(
      chv_orc_stripe_footer_read(f.t, &f.in, f.codec, 0, f.a, &sf, &err), &err);
  /* ORC Java's shape for 1000 entries at 5%: 6272 bits, 4 functions. */
  const uint32_t nbits = 6272, k = 4;
  for (uint32_t col = 1; col <= 9; col++) {
    const struct chv_orc_stream_info *bs =
        chv_orc_stripe_find_stream(&sf, col, CHV_ORC_STREAM_BLOOM_FILTER_UTF8);
    bool want = col != 9 && col != 7; /* "st.x" names x, not st */
    CHV_CHECK_EQ_INT(bs != NULL, want);
    CHV_CHECK_EQ_INT(sf.columns[col].has_bloom_encoding, want);
    if (bs == NULL) continue;
    CHV_CHECK_EQ_INT(sf.columns[col].bloom_encoding, 1);
    CHV_CHECK(chv_orc_stripe_find_stream(&sf, col,
                                         CHV_ORC_STREAM_BLOOM_FILTER) == NULL);
    struct chv_orc_bloom_index bi;
    CHV_REQUIRE_OK(chv_orc_bloom_index_decode(f.codec, f.data + bs->offset,
                                              bs->length, f.a, "bloom", &bi,
                                              &err),
                   &err);
    CHV_CHECK_EQ_INT(bi.nfilters, 4);
    int idx = col == 8 ? 8 : (int)col;
    for (uint32_t g = 0; g < bi.nfilters; g++) {
      const struct chv_orc_bloom_filter *bf = &bi.filters[g];
      CHV_CHECK(chv_orc_bloom_filter_usable(bf));
      CHV_CHECK_EQ_INT(bf->num_hash_functions, k);
      CHV_REQUIRE(bf->utf8bitset.len == nbits / 8);
      uint64_t words[6272 / 64];
      for (uint32_t q = 0; q < nbits / 64; q++) {
        uint64_t v = 0;
        for (int j = 7; j >= 0; j--)
          v = v << 8 | bf->utf8bitset.data[q * 8 + (uint32_t)j];
        words[q] = v;
      }
      int misses = 0, fp = 0;
      for (int64_t r = g * stride; r < CHV_MIN(rows, (g + 1) * stride); r++)
        if (!ow_bloom_test(words, nbits, k, h[idx][r])) misses++;
      CHV_CHECK_EQ_INT(misses, 0);
      /* Values of other groups are mostly absent. */
      for (int64_t r = 0; r < rows; r++)
        if ((r < g * stride || r >= (g + 1) * stride) &&
            ow_bloom_test(words, nbits, k, h[idx][r] ^ 0x5bd1e995ull))
          fp++;
      CHV_CHECK(fp < rows / 5);
    }
  }
  wfile_close(&f);
  for (int q = 0; q < 9; q++)
    free(h[q]);
  chv_type_free(s);
}

/* ---- statistics ---------------------------------------------------------- */

static void test_stats(void) {
  struct chv_error err;
  struct chv_type *s;
  CHV_REQUIRE_OK(chv_type_parse_columns("s string, m decimal(10,2), "
                                        "big decimal(18,0), huge decimal(38,0),"
                                        " d double, ts timestamp, b boolean, "
                                        "bin binary, dt date, l bigint",
                                        &s, &err),
                 &err);
  char path[700];
  snprintf(path, sizeof path, "%s/stats.orc", chv_test_tmpdir());
  chv_orc_writer *w;
  CHV_REQUIRE_OK(chv_orc_writer_open(chv_fs_local(), path, s, NULL, &w, &err),
                 &err);
  struct chv_batch *b;
  CHV_REQUIRE_OK(chv_batch_open(s, 8, &b, &err), &err);
  char longs[2][2000];
  memset(longs[0], 'b', sizeof longs[0]);
  memset(longs[1], 'y', sizeof longs[1]);
  memcpy(longs[1] + 1020, "\xc3\xa9\xc3\xa9", 4); /* é straddling byte 1024 */
  const char *strs[] = {"m", longs[0], longs[1], "c"};
  chv_i128 ms[] = {150, -50, 10000, 0};
  chv_i128 bigs[] = {999999999999999999ll, 999999999999999999ll, 1, 1};
  chv_i128 nines = 9;
  for (int q = 0; q < 37; q++)
    nines = nines * 10 + 9;
  chv_i128 huges[] = {nines, nines, -5, 7};
  double ds[] = {1.5, NAN, -2.0, 4.0};
  struct chv_timestamp tss[] = {{-1, 500000000, 0},
                                {100, 123456789, 0},
                                {100, 123000001, 0},
                                {-100, 999999, 0}};
  bool bs[] = {true, false, true, true};
  int64_t ls[] = {INT64_MAX, 1, 5, -7};
  for (int r = 0; r < 4; r++) {
    size_t sl = r == 1 || r == 2 ? 2000 : strlen(strs[r]);
    chv_vector_append_bytes(b->cols[0], strs[r], sl, &err);
    chv_vector_append_value(b->cols[1], &ms[r], &err);
    chv_vector_append_value(b->cols[2], &bigs[r], &err);
    chv_vector_append_value(b->cols[3], &huges[r], &err);
    chv_vector_append_value(b->cols[4], &ds[r], &err);
    chv_vector_append_value(b->cols[5], &tss[r], &err);
    chv_vector_append_value(b->cols[6], &bs[r], &err);
    chv_vector_append_bytes(b->cols[7], "xyz", (size_t)r, &err);
    if (r == 2) {
      chv_vector_append_null(b->cols[8], &err);
    } else {
      int32_t dt = 100 * r - 50;
      chv_vector_append_value(b->cols[8], &dt, &err);
    }
    chv_vector_append_value(b->cols[9], &ls[r], &err);
  }
  b->nrows = 4;
  CHV_REQUIRE_OK(chv_orc_writer_write(w, b, &err), &err);
  struct chv_orc_write_stats st;
  CHV_REQUIRE_OK(chv_orc_writer_finish(w, &st, &err), &err);
  chv_orc_writer_close(w);
  chv_batch_close(b);
  struct wfile f;
  CHV_REQUIRE_OK(wfile_open(path, &f, &err), &err);
  const struct chv_orc_column_stats *fs = f.t->footer.statistics;
  /* Strings over 1024 bytes give bounds (ORC-203). */
  const struct chv_orc_string_stats *ss = &fs[1].string_stats;
  CHV_CHECK(!ss->has_min && ss->has_lower_bound);
  CHV_CHECK(ss->lower_bound.len == 1024 &&
            memcmp(ss->lower_bound.data, longs[0], 1024) == 0);
  /* The characters before byte 1024, the last (é) incremented (ê). */
  CHV_CHECK(!ss->has_max && ss->has_upper_bound);
  CHV_CHECK_EQ_INT(ss->upper_bound.len, 1024);
  CHV_CHECK(memcmp(ss->upper_bound.data, longs[1], 1022) == 0);
  CHV_CHECK(memcmp(ss->upper_bound.data + 1022, "\xc3\xaa", 2) == 0);
  CHV_CHECK_EQ_INT(ss->sum, 1 + 2000 + 2000 + 1);
  /* Decimals as HiveDecimal prints them; sums left out past their range. */
  CHV_CHECK_STREQ(fs[2].decimal_stats.min, "-0.5");
  CHV_CHECK_STREQ(fs[2].decimal_stats.max, "100");
  CHV_CHECK_STREQ(fs[2].decimal_stats.sum, "101");
  CHV_CHECK(fs[3].decimal_stats.sum == NULL);
  CHV_CHECK_STREQ(fs[3].decimal_stats.max, "999999999999999999");
  CHV_CHECK(fs[4].decimal_stats.sum == NULL);
  CHV_CHECK_STREQ(fs[4].decimal_stats.min, "-5");
  /* Doubles: NaN out of min/max, in the sum. */
  CHV_CHECK(fs[5].double_stats.min == -2.0 && fs[5].double_stats.max == 4.0);
  CHV_CHECK(isnan(fs[5].double_stats.sum));
  /* Timestamps: UTC milliseconds as readers get them back, nanos below. */
  const struct chv_orc_timestamp_stats *ts = &fs[6].timestamp_stats;
  CHV_CHECK(!ts->has_min && ts->has_min_utc && ts->has_max_utc);
  CHV_CHECK_EQ_INT(ts->min_utc, -100000 + 0);
  CHV_CHECK_EQ_INT(ts->min_nanos, 999999 + 1);
  CHV_CHECK_EQ_INT(ts->max_utc, 100123);
  CHV_CHECK_EQ_INT(ts->max_nanos, 456789 + 1);
  CHV_CHECK(fs[7].bucket_stats.ncount == 1 && fs[7].bucket_stats.count[0] == 3);
  CHV_CHECK(fs[8].binary_stats.has_sum && fs[8].binary_stats.sum == 6);
  CHV_CHECK(fs[9].has_null && fs[9].number_of_values == 3);
  CHV_CHECK(fs[9].date_stats.min == -50 && fs[9].date_stats.max == 250);
  CHV_CHECK(fs[10].int_stats.max == INT64_MAX && !fs[10].int_stats.has_sum);
  for (uint32_t c = 1; c <= 10; c++)
    CHV_CHECK(fs[c].has_bytes_on_disk && fs[c].bytes_on_disk > 0);
  /* rawDataSize as ORC's reader computes it. */
  int64_t raw = 4 * (84 + 1000) + 3 * 4 * 112 + 4 * 8 + 4 * 40 + 4 * 4 + 6 +
                3 * 56 + 4 * 8;
  CHV_CHECK_EQ_INT(st.raw_bytes, raw);
  wfile_close(&f);
  chv_type_free(s);
}

/* ---- errors -------------------------------------------------------------- */

static void test_errors(void) {
  struct chv_error err;
  struct chv_type *s, *other;
  CHV_REQUIRE_OK(chv_type_parse_columns("id int, m decimal(4,2), "
                                        "a array<decimal(3,0)>, ts timestamp",
                                        &s, &err),
                 &err);
  CHV_REQUIRE_OK(chv_type_parse_columns("id bigint", &other, &err), &err);
  char path[700];
  snprintf(path, sizeof path, "%s/errors.orc", chv_test_tmpdir());
  chv_orc_writer *w;
  CHV_REQUIRE_OK(chv_orc_writer_open(chv_fs_local(), path, s, NULL, &w, &err),
                 &err);
  struct chv_batch *ob;
  CHV_REQUIRE_OK(chv_batch_open(other, 4, &ob, &err), &err);
  ob->nrows = 0;
  CHV_CHECK_EQ_INT(chv_orc_writer_write(w, ob, &err), CHV_ETYPE);
  chv_batch_close(ob);
  CHV_CHECK_EQ_INT(chv_orc_writer_write(w, NULL, &err), CHV_EINVAL);
  struct chv_batch *b;
  CHV_REQUIRE_OK(chv_batch_open(s, 8, &b, &err), &err);
  for (int r = 0; r < 4; r++) {
    int32_t id = r;
    chv_i128 m = 1234;
    chv_i128 e = 999;
    struct chv_timestamp ts = {r, 0, 0};
    chv_vector_append_value(b->cols[0], &id, &err);
    chv_vector_append_value(b->cols[1], &m, &err);
    chv_vector_append_value(b->cols[2]->children[0], &e, &err);
    chv_vector_append_nested(b->cols[2], &err);
    chv_vector_append_value(b->cols[3], &ts, &err);
  }
  b->nrows = 4;
  /* Decimals beyond their precision, top-level and nested. */
  ((chv_i128 *)b->cols[1]->data)[3] = 10000;
  CHV_CHECK_EQ_INT(chv_orc_writer_write(w, b, &err), CHV_ERANGE);
  CHV_CHECK_CONTAINS(err.msg, "column m, row 3");
  CHV_CHECK_CONTAINS(err.msg, "100.00");
  ((chv_i128 *)b->cols[1]->data)[3] = -9999;
  ((chv_i128 *)b->cols[2]->children[0]->data)[2] = -1000;
  CHV_CHECK_EQ_INT(chv_orc_writer_write(w, b, &err), CHV_ERANGE);
  CHV_CHECK_CONTAINS(err.msg, "column a._elem, row 2");
  ((chv_i128 *)b->cols[2]->children[0]->data)[2] = 5;
  /* Nanoseconds out of range. */
  ((struct chv_timestamp *)b->cols[3]->data)[1].nanos = 1000000000;
  CHV_CHECK_EQ_INT(chv_orc_writer_write(w, b, &err), CHV_ERANGE);
  CHV_CHECK_CONTAINS(err.msg, "column ts, row 1");
  ((struct chv_timestamp *)b->cols[3]->data)[1].nanos = 0;
  /* Shapes: offsets out of order, a missing vector, a short vector. */
  b->cols[2]->offsets[2] = 5;
  CHV_CHECK_EQ_INT(chv_orc_writer_write(w, b, &err), CHV_ETYPE);
  CHV_CHECK_CONTAINS(err.msg, "column a");
  b->cols[2]->offsets[2] = 2;
  b->nrows = 5;
  CHV_CHECK_EQ_INT(chv_orc_writer_write(w, b, &err), CHV_ETYPE);
  b->nrows = 4;
  struct chv_vector *keep = b->cols[1];
  b->cols[1] = NULL;
  CHV_CHECK_EQ_INT(chv_orc_writer_write(w, b, &err), CHV_ETYPE);
  b->cols[1] = keep;
  /* The writer goes on: only good rows are in the file. */
  CHV_CHECK_OK(chv_orc_writer_write(w, b, &err), &err);
  struct chv_orc_write_stats st;
  CHV_REQUIRE_OK(chv_orc_writer_finish(w, &st, &err), &err);
  CHV_CHECK_EQ_INT(st.rows, 4);
  CHV_CHECK_EQ_INT(chv_orc_writer_write(w, b, &err), CHV_EINVAL);
  chv_orc_writer_close(w);
  struct wfile f;
  CHV_REQUIRE_OK(wfile_open(path, &f, &err), &err);
  CHV_CHECK_EQ_INT(f.t->nrows, 4);
  CHV_CHECK_STREQ(f.t->footer.statistics[2].decimal_stats.min, "-99.99");
  wfile_close(&f);
  chv_batch_close(b);
  /* Schemas the writer refuses. */
  struct chv_type *notstruct;
  CHV_REQUIRE_OK(chv_type_parse("int", &notstruct, &err), &err);
  CHV_CHECK_EQ_INT(
      chv_orc_writer_open(chv_fs_local(), path, notstruct, NULL, &w, &err),
      CHV_EINVAL);
  chv_type_free(notstruct);
  CHV_CHECK_EQ_INT(chv_orc_writer_open(chv_fs_local(), "/nonexistent/dir/x.orc",
                                       s, NULL, &w, &err) != CHV_OK,
                   1);
  chv_type_free(other);
  chv_type_free(s);
}

/* Stripes cut by size keep memory near orc.stripe.size. */
static void test_memory_bound(void) {
  struct chv_error err;
  struct chv_type *s;
  CHV_REQUIRE_OK(chv_type_parse_columns("id bigint, s string", &s, &err), &err);
  struct chv_orc_write_options o;
  chv_orc_write_options_init(&o);
  o.stripe_size = 256 * 1024;
  o.compression = CHV_ORC_COMP_NONE;
  char path[700];
  snprintf(path, sizeof path, "%s/mem.orc", chv_test_tmpdir());
  chv_orc_writer *w;
  CHV_REQUIRE_OK(chv_orc_writer_open(chv_fs_local(), path, s, &o, &w, &err),
                 &err);
  struct chv_batch *b;
  CHV_REQUIRE_OK(chv_batch_open(s, 10000, &b, &err), &err);
  int64_t worst = 0;
  for (int k = 0; k < 20; k++) {
    chv_batch_reset(b);
    for (int r = 0; r < 10000; r++) {
      int64_t id = (int64_t)rnd();
      char v[40];
      int n = snprintf(v, sizeof v, "%016llx", (unsigned long long)rnd());
      chv_vector_append_value(b->cols[0], &id, &err);
      chv_vector_append_bytes(b->cols[1], v, (size_t)n, &err);
    }
    b->nrows = 10000;
    CHV_REQUIRE_OK(chv_orc_writer_write(w, b, &err), &err);
    struct chv_orc_write_stats st;
    chv_orc_writer_stats(w, &st);
    worst = CHV_MAX(worst, st.buffered_bytes);
  }
  struct chv_orc_write_stats st;
  CHV_REQUIRE_OK(chv_orc_writer_finish(w, &st, &err), &err);
  chv_orc_writer_close(w);
  chv_batch_close(b);
  CHV_CHECK(st.stripes >= 10);
  CHV_CHECK(worst < o.stripe_size);
  struct wfile f;
  CHV_REQUIRE_OK(wfile_open(path, &f, &err), &err);
  CHV_CHECK_EQ_INT(f.t->nrows, 200000);
  uint64_t sum = 0;
  for (uint32_t k = 0; k < f.t->footer.nstripes; k++)
    sum += f.t->footer.stripes[k].number_of_rows;
  CHV_CHECK_EQ_INT(sum, 200000);
  CHV_CHECK_EQ_INT(f.t->footer.statistics[1].number_of_values, 200000);
  wfile_close(&f);
  chv_type_free(s);
}

/* ---- round trips through chive's reader ---------------------------------- */

/* Random rows of every type, nested, with NULLs at every level. */
static const char *const rt_schema =
    "b boolean, t tinyint, s smallint, i int, l bigint, f float, d double, "
    "m decimal(10,2), mm decimal(38,6), str string, vc varchar(5), "
    "ch char(4), bin binary, dt date, ts timestamp, a array<int>, "
    "mp map<string,array<bigint>>, "
    "st struct<x:int,y:array<struct<p:string,q:decimal(5,1)>>>";

static int rt_value(struct chv_vector *v, int depth, struct chv_error *err);

static int rt_nested(struct chv_vector *v, int depth, struct chv_error *err) {
  switch (v->type->id) {
  case CHV_TYPE_ARRAY:
  case CHV_TYPE_MAP: {
    int n = (int)(rnd() % 4);
    for (int k = 0; k < n; k++)
      for (int c = 0; c < v->nchildren; c++)
        CHV_RETURN_IF_ERR(rt_value(v->children[c], depth + 1, err));
    return chv_vector_append_nested(v, err);
  }
  default:
    for (int c = 0; c < v->nchildren; c++)
      CHV_RETURN_IF_ERR(rt_value(v->children[c], depth + 1, err));
    return chv_vector_append_nested(v, err);
  }
}

static int rt_value(struct chv_vector *v, int depth, struct chv_error *err) {
  uint64_t x = rnd();
  if (x % 9 == 0) return chv_vector_append_null(v, err);
  x = rnd();
  char s[80];
  switch (v->type->id) {
  case CHV_TYPE_BOOLEAN: {
    bool b = x & 1;
    return chv_vector_append_value(v, &b, err);
  }
  case CHV_TYPE_TINYINT: {
    int8_t b = (int8_t)x;
    return chv_vector_append_value(v, &b, err);
  }
  case CHV_TYPE_SMALLINT: {
    int16_t b = (int16_t)x;
    return chv_vector_append_value(v, &b, err);
  }
  case CHV_TYPE_INT: {
    int32_t b = (int32_t)x;
    return chv_vector_append_value(v, &b, err);
  }
  case CHV_TYPE_BIGINT: {
    int64_t b = (int64_t)(x >> (x % 60));
    return chv_vector_append_value(v, &b, err);
  }
  case CHV_TYPE_FLOAT: {
    float b = (float)((double)(int64_t)x / 1e12);
    return chv_vector_append_value(v, &b, err);
  }
  case CHV_TYPE_DOUBLE: {
    double b = x % 50 == 0 ? NAN : (double)(int64_t)x / 1e9;
    return chv_vector_append_value(v, &b, err);
  }
  case CHV_TYPE_DECIMAL: {
    chv_i128 lim = 1;
    for (int k = 0; k < v->type->precision; k++)
      lim *= 10;
    __extension__ unsigned __int128 u = (unsigned __int128)x << 64 | rnd();
    chv_i128 b = (chv_i128)(u % (unsigned __int128)lim);
    if (x & 1) b = -b;
    return chv_vector_append_value(v, &b, err);
  }
  case CHV_TYPE_STRING:
  case CHV_TYPE_VARCHAR:
  case CHV_TYPE_CHAR: {
    int n = snprintf(s, sizeof s, "%s%llu%s", x % 3 ? "v" : "é",
                     (unsigned long long)(x % 1000), x % 5 ? "" : "  ");
    return chv_vector_append_string(v, s, (size_t)n, err);
  }
  case CHV_TYPE_BINARY: {
    int n = (int)(x % 20);
    for (int k = 0; k < n; k++)
      s[k] = (char)rnd();
    return chv_vector_append_bytes(v, s, (size_t)n, err);
  }
  case CHV_TYPE_DATE: {
    int32_t b = (int32_t)(x % 800000) - 400000;
    return chv_vector_append_value(v, &b, err);
  }
  case CHV_TYPE_TIMESTAMP: {
    struct chv_timestamp b = {(int64_t)(x % 400000000000ull) - 200000000000ll,
                              (int32_t)(rnd() % 1000000000), 0};
    if (x % 3 == 0) b.nanos = (int32_t)(b.nanos / 1000000 * 1000000);
    /* The second before 1970 with a millisecond fraction has no ORC form
    ** (docs/orc.md): left out. */
    if (b.seconds == -1) b.seconds = -2;
    return chv_vector_append_value(v, &b, err);
  }
  default:
    return rt_nested(v, depth, err);
  }
}

static int rt_fill(struct chv_batch *b, int64_t n, struct chv_error *err) {
  for (int64_t r = 0; r < n; r++)
    for (int c = 0; c < b->ncols; c++)
      CHV_RETURN_IF_ERR(rt_value(b->cols[c], 0, err));
  b->nrows = n;
  return CHV_OK;
}

static void rt_json(const struct chv_batch *b, struct chv_buf *out) {
  for (int64_t r = 0; r < b->nrows; r++)
    chv_jsonl_row(b, r, out);
}

static void test_reader_roundtrip(void) {
  static const int codecs[] = {CHV_ORC_COMP_NONE,   CHV_ORC_COMP_ZLIB,
                               CHV_ORC_COMP_SNAPPY, CHV_ORC_COMP_LZO,
                               CHV_ORC_COMP_LZ4,    CHV_ORC_COMP_ZSTD};
  for (size_t ci = 0; ci < CHV_ARRAY_SIZE(codecs); ci++) {
    struct chv_error err;
    struct chv_type *s;
    CHV_REQUIRE_OK(chv_type_parse_columns(rt_schema, &s, &err), &err);
    struct chv_orc_write_options o;
    chv_orc_write_options_init(&o);
    o.compression = codecs[ci];
    o.row_index_stride = ci % 2 ? 1000 : 0;
    o.stripe_size = ci % 3 ? 100000 : 64 << 20;
    o.compress_size = 4096;
    o.dictionary_key_threshold = ci == 2 ? 0 : 0.8;
    o.bloom_filter_columns = "*";
    char path[700];
    snprintf(path, sizeof path, "%s/rt.orc", chv_test_tmpdir());
    chv_orc_writer *w;
    CHV_REQUIRE_OK(chv_orc_writer_open(chv_fs_local(), path, s, &o, &w, &err),
                   &err);
    struct chv_buf want, got;
    chv_buf_init(&want);
    chv_buf_init(&got);
    int64_t rows = 0;
    for (int k = 0; k < 12; k++) {
      int64_t n = (int64_t)(rnd() % 1500);
      struct chv_batch *b;
      CHV_REQUIRE_OK(chv_batch_open(s, n ? n : 1, &b, &err), &err);
      CHV_REQUIRE_OK(rt_fill(b, n, &err), &err);
      CHV_REQUIRE_OK(chv_orc_writer_write(w, b, &err), &err);
      rt_json(b, &want);
      rows += n;
      chv_batch_close(b);
    }
    struct chv_orc_write_stats st;
    CHV_REQUIRE_OK(chv_orc_writer_finish(w, &st, &err), &err);
    chv_orc_writer_close(w);
    chv_orc_reader *r;
    CHV_REQUIRE_OK(chv_orc_reader_open(chv_fs_local(), path, NULL, &r, &err),
                   &err);
    CHV_CHECK(chv_type_equal(chv_orc_reader_schema(r), s));
    struct chv_batch *b;
    CHV_REQUIRE_OK(chv_batch_open(chv_orc_reader_schema(r), 777, &b, &err),
                   &err);
    int64_t n, total = 0;
    int rc;
    while ((rc = chv_orc_reader_next(r, b, &n, &err)) == CHV_OK && n > 0) {
      rt_json(b, &got);
      total += n;
    }
    CHV_CHECK_OK(rc, &err);
    CHV_CHECK_EQ_INT(total, rows);
    CHV_CHECK_EQ_INT(got.len, want.len);
    if (got.len != want.len || memcmp(got.data, want.data, got.len) != 0) {
      size_t k = 0;
      while (k < got.len && k < want.len && got.data[k] == want.data[k])
        k++;
      fprintf(
          stderr,
          "codec %d: rows differ at byte %zu:\n want %.300s\n got  %.300s\n",
          codecs[ci], k, want.data + (k > 100 ? k - 100 : 0),
          got.data + (k > 100 ? k - 100 : 0));
      CHV_CHECK(false);
    }
    chv_batch_close(b);
    chv_orc_reader_close(r);
    struct chv_orc_file_stats fs;
    CHV_CHECK_OK(chv_orc_file_stats(chv_fs_local(), path, &fs, &err), &err);
    CHV_CHECK_EQ_INT(fs.num_rows, rows);
    CHV_CHECK_EQ_INT(fs.raw_data_size, st.raw_bytes);
    CHV_CHECK_EQ_INT(fs.stripes, st.stripes);
    chv_buf_free(&want);
    chv_buf_free(&got);
    chv_type_free(s);
  }
}

/* The statistics chive writes let the reader skip stripes and row groups
** (and bloom filters rule out equality). */
static void test_reader_skips(void) {
  struct chv_error err;
  struct chv_type *s;
  CHV_REQUIRE_OK(
      chv_type_parse_columns("id bigint, name string, day date", &s, &err),
      &err);
  struct chv_orc_write_options o;
  chv_orc_write_options_init(&o);
  o.stripe_size = 64 * 1024;
  o.row_index_stride = 1000;
  o.bloom_filter_columns = "name";
  char path[700];
  snprintf(path, sizeof path, "%s/skip.orc", chv_test_tmpdir());
  chv_orc_writer *w;
  CHV_REQUIRE_OK(chv_orc_writer_open(chv_fs_local(), path, s, &o, &w, &err),
                 &err);
  const int64_t rows = 100000;
  struct chv_batch *b;
  CHV_REQUIRE_OK(chv_batch_open(s, 1000, &b, &err), &err);
  for (int64_t r = 0; r < rows; r += 1000) {
    chv_batch_reset(b);
    for (int64_t k = r; k < r + 1000; k++) {
      char name[32];
      int n = snprintf(name, sizeof name, "n%llu",
                       (unsigned long long)(rnd() % 100000000));
      if (k == 54321) n = snprintf(name, sizeof name, "needle");
      int32_t day = (int32_t)(k / 100);
      chv_vector_append_value(b->cols[0], &k, &err);
      chv_vector_append_bytes(b->cols[1], name, (size_t)n, &err);
      chv_vector_append_value(b->cols[2], &day, &err);
    }
    b->nrows = 1000;
    CHV_REQUIRE_OK(chv_orc_writer_write(w, b, &err), &err);
  }
  chv_batch_close(b);
  struct chv_orc_write_stats st;
  CHV_REQUIRE_OK(chv_orc_writer_finish(w, &st, &err), &err);
  chv_orc_writer_close(w);
  CHV_REQUIRE(st.stripes > 4);
  struct {
    struct chv_pred p;
    int64_t lo, hi; /* ids that match */
  } cases[] = {
      {{"id", CHV_PRED_GE, "95000"}, 95000, rows},
      {{"id", CHV_PRED_LT, "1500"}, 0, 1500},
      {{"ID", CHV_PRED_EQ, "54321"}, 54321, 54322},
      {{"day", CHV_PRED_EQ, "1970-02-10"}, 4000, 4100},
      {{"name", CHV_PRED_EQ, "needle"}, 54321, 54322},
  };
  for (size_t k = 0; k < CHV_ARRAY_SIZE(cases); k++) {
    struct chv_orc_read_options ro;
    chv_orc_read_options_init(&ro);
    ro.preds = &cases[k].p;
    ro.npreds = 1;
    chv_orc_reader *r;
    CHV_REQUIRE_OK(chv_orc_reader_open(chv_fs_local(), path, &ro, &r, &err),
                   &err);
    CHV_REQUIRE_OK(chv_batch_open(chv_orc_reader_schema(r), 4096, &b, &err),
                   &err);
    int64_t n, total = 0, found = 0;
    while (chv_orc_reader_next(r, b, &n, &err) == CHV_OK && n > 0) {
      total += n;
      const int64_t *id = b->cols[0]->data;
      for (int64_t q = 0; q < n; q++)
        if (id[q] >= cases[k].lo && id[q] < cases[k].hi) found++;
    }
    struct chv_orc_read_stats rst;
    chv_orc_reader_stats(r, &rst);
    CHV_CHECK_EQ_INT(found, cases[k].hi - cases[k].lo);
    CHV_CHECK(total < rows / 2);
    CHV_CHECK(rst.stripes_skipped > 0);
    if (k >= 2) CHV_CHECK(rst.row_groups_skipped > 0);
    chv_batch_close(b);
    chv_orc_reader_close(r);
  }
  chv_type_free(s);
}

/* Random tiny settings: row groups of a few rows, stripes of a few KiB,
** compression chunks of a few bytes, through the reader. */
static void test_reader_tiny(void) {
  for (int it = 0; it < 8; it++) {
    struct chv_error err;
    struct chv_type *s;
    CHV_REQUIRE_OK(chv_type_parse_columns(rt_schema, &s, &err), &err);
    struct chv_orc_write_options o;
    chv_orc_write_options_init(&o);
    o.compression = (int)(rnd() % 6);
    o.row_index_stride = (int64_t)(rnd() % 20);
    o.stripe_size = (int64_t)(rnd() % 20000 + 1);
    o.compress_size = (int64_t)(rnd() % 300 + 1);
    o.dictionary_key_threshold = (double)(rnd() % 3) / 2;
    o.bloom_filter_columns = it % 2 ? "str,st,a" : NULL;
    char path[700];
    snprintf(path, sizeof path, "%s/tiny.orc", chv_test_tmpdir());
    chv_orc_writer *w;
    CHV_REQUIRE_OK(chv_orc_writer_open(chv_fs_local(), path, s, &o, &w, &err),
                   &err);
    struct chv_buf want, got;
    chv_buf_init(&want);
    chv_buf_init(&got);
    int64_t rows = 0;
    for (int k = 0; k < 6; k++) {
      int64_t n = (int64_t)(rnd() % 300);
      struct chv_batch *b;
      CHV_REQUIRE_OK(chv_batch_open(s, n ? n : 1, &b, &err), &err);
      CHV_REQUIRE_OK(rt_fill(b, n, &err), &err);
      CHV_REQUIRE_OK(chv_orc_writer_write(w, b, &err), &err);
      rt_json(b, &want);
      rows += n;
      chv_batch_close(b);
    }
    CHV_REQUIRE_OK(chv_orc_writer_finish(w, NULL, &err), &err);
    chv_orc_writer_close(w);
    chv_orc_reader *r;
    CHV_REQUIRE_OK(chv_orc_reader_open(chv_fs_local(), path, NULL, &r, &err),
                   &err);
    struct chv_batch *b;
    CHV_REQUIRE_OK(chv_batch_open(chv_orc_reader_schema(r), 101, &b, &err),
                   &err);
    int64_t n, total = 0;
    int rc;
    while ((rc = chv_orc_reader_next(r, b, &n, &err)) == CHV_OK && n > 0) {
      rt_json(b, &got);
      total += n;
    }
    CHV_CHECK_OK(rc, &err);
    CHV_CHECK_EQ_INT(total, rows);
    CHV_CHECK(got.len == want.len &&
              (got.len == 0 || memcmp(got.data, want.data, got.len) == 0));
    chv_batch_close(b);
    chv_orc_reader_close(r);
    chv_buf_free(&want);
    chv_buf_free(&got);
    chv_type_free(s);
  }
}

/* Every allocation failing in turn: CHV_ENOMEM each time (no other error,
** no crash, nothing leaked), then a good file. */
static void test_oom(void) {
  struct chv_error err;
  struct chv_type *s;
  CHV_REQUIRE_OK(chv_type_parse_columns("id bigint, s string, "
                                        "a array<struct<d:decimal(20,3),"
                                        "t:timestamp>>, "
                                        "mp map<string,double>",
                                        &s, &err),
                 &err);
  struct chv_batch *b;
  CHV_REQUIRE_OK(chv_batch_open(s, 300, &b, &err), &err);
  CHV_REQUIRE_OK(rt_fill(b, 300, &err), &err);
  struct chv_orc_write_options o;
  chv_orc_write_options_init(&o);
  o.row_index_stride = 50;
  o.stripe_size = 6000;
  o.compress_size = 500;
  o.bloom_filter_columns = "s,a";
  char path[700];
  snprintf(path, sizeof path, "%s/oom.orc", chv_test_tmpdir());
  int k;
  for (k = 1; k < 1000000; k++) {
    chv_orc_writer *w = NULL;
    chv_alloc_fail_after(k);
    int rc = chv_orc_writer_open(chv_fs_local(), path, s, &o, &w, &err);
    if (rc == CHV_OK) rc = chv_orc_writer_write(w, b, &err);
    if (rc == CHV_OK) rc = chv_orc_writer_write(w, b, &err);
    if (rc == CHV_OK) rc = chv_orc_writer_finish(w, NULL, &err);
    chv_alloc_fail_after(0);
    chv_orc_writer_close(w);
    if (rc == CHV_OK) break;
    if (rc != CHV_ENOMEM) {
      fprintf(stderr, "allocation %d: %d %s\n", k, rc, err.msg);
      CHV_CHECK_EQ_INT(rc, CHV_ENOMEM);
      break;
    }
  }
  CHV_CHECK(k > 100 && k < 1000000);
  struct wfile f;
  CHV_REQUIRE_OK(wfile_open(path, &f, &err), &err);
  CHV_CHECK_EQ_INT(f.t->nrows, 600);
  CHV_CHECK(f.t->footer.nstripes > 1);
  wfile_close(&f);
  chv_batch_close(b);
  chv_type_free(s);
}

/* ---- statistics beside ORC Java's ---------------------------------------- */

static bool dec_eq(const char *a, const char *b, int scale) {
  if (a == NULL || b == NULL) return a == b;
  chv_i128 x, y;
  if (chv_decimal_parse(a, strlen(a), 38, scale, &x) != CHV_OK ||
      chv_decimal_parse(b, strlen(b), 38, scale, &y) != CHV_OK)
    return false;
  return x == y;
}

static bool near(double a, double b) {
  if (a == b) return true;
  if (a != a && b != b) return true;
  return fabs(a - b) <= 1e-9 * CHV_MAX(fabs(a), fabs(b));
}

/* Compare statistics a (ORC Java's) with b (chive's) of column `col`;
** print what differs. */
static int stats_diff(const char *file, uint32_t col,
                      const struct chv_orc_type *t,
                      const struct chv_orc_column_stats *a,
                      const struct chv_orc_column_stats *b) {
  int bad = 0;
#define DIFF(cond, what)                                                       \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "%s column %u: %s differs\n", file, col, what);          \
      bad++;                                                                   \
    }                                                                          \
  } while (0)
  DIFF(a->number_of_values == b->number_of_values, "numberOfValues");
  if (a->has_has_null) DIFF(a->has_null == b->has_null, "hasNull");
  if (a->has_int) {
    const struct chv_orc_int_stats *x = &a->int_stats, *y = &b->int_stats;
    DIFF(b->has_int, "int statistics");
    DIFF(x->has_min == y->has_min && (!x->has_min || x->min == y->min),
         "int min");
    DIFF(x->has_max == y->has_max && (!x->has_max || x->max == y->max),
         "int max");
    DIFF(x->has_sum == y->has_sum && (!x->has_sum || x->sum == y->sum),
         "int sum");
  }
  if (a->has_double) {
    const struct chv_orc_double_stats *x = &a->double_stats,
                                      *y = &b->double_stats;
    DIFF(b->has_double, "double statistics");
    DIFF(x->has_min == y->has_min && (!x->has_min || near(x->min, y->min)),
         "double min");
    DIFF(x->has_max == y->has_max && (!x->has_max || near(x->max, y->max)),
         "double max");
    DIFF(!x->has_sum || near(x->sum, y->sum), "double sum");
  }
  if (a->has_string) {
    const struct chv_orc_string_stats *x = &a->string_stats,
                                      *y = &b->string_stats;
    DIFF(b->has_string, "string statistics");
    DIFF(x->has_min == y->has_min &&
             (!x->has_min ||
              (x->min.len == y->min.len &&
               memcmp(x->min.data, y->min.data, x->min.len) == 0)),
         "string min");
    DIFF(x->has_max == y->has_max &&
             (!x->has_max ||
              (x->max.len == y->max.len &&
               memcmp(x->max.data, y->max.data, x->max.len) == 0)),
         "string max");
    DIFF(x->has_sum == y->has_sum && (!x->has_sum || x->sum == y->sum),
         "string sum");
  }
  if (a->has_binary)
    DIFF(b->has_binary && a->binary_stats.sum == b->binary_stats.sum,
         "binary sum");
  if (a->has_bucket)
    DIFF(b->has_bucket && a->bucket_stats.ncount >= 1 &&
             b->bucket_stats.ncount >= 1 &&
             a->bucket_stats.count[0] == b->bucket_stats.count[0],
         "true count");
  if (a->has_date)
    DIFF(b->has_date && a->date_stats.has_min == b->date_stats.has_min &&
             a->date_stats.min == b->date_stats.min &&
             a->date_stats.max == b->date_stats.max,
         "date min/max");
  if (a->has_decimal) {
    int sc = t->has_scale ? (int)t->scale : 18;
    DIFF(b->has_decimal &&
             dec_eq(a->decimal_stats.min, b->decimal_stats.min, sc) &&
             dec_eq(a->decimal_stats.max, b->decimal_stats.max, sc),
         "decimal min/max");
    DIFF(dec_eq(a->decimal_stats.sum, b->decimal_stats.sum, sc), "decimal sum");
  }
  if (a->has_timestamp && a->timestamp_stats.has_min_utc) {
    const struct chv_orc_timestamp_stats *x = &a->timestamp_stats,
                                         *y = &b->timestamp_stats;
    DIFF(y->has_min_utc && x->min_utc == y->min_utc && x->max_utc == y->max_utc,
         "timestamp min/max");
  }
#undef DIFF
  return bad;
}

/* Files ORC Java wrote, read with chive's reader and written again with
** chive's writer: the footer statistics agree column by column. */
static void test_fixture_stats(void) {
  const char *dir = getenv("CHV_FIXTURES_DIR");
  if (dir == NULL || *dir == '\0') {
    fprintf(stderr, "# the format fixtures were not found; skipped\n");
    return;
  }
  static const char *const files[] = {
      "TestOrcFile.test1.orc",
      "TestOrcFile.testStringAndBinaryStatistics.orc",
      "TestOrcFile.testStripeLevelStats.orc",
      "TestOrcFile.testSnappy.orc",
      "TestOrcFile.testDate1900.orc",
      "TestVectorOrcFile.testLz4.orc",
      "TestVectorOrcFile.testZstd.0.12.orc",
      "nulls-at-end-snappy.orc",
      "decimal.orc",
      "orc_index_int_string.orc",
      "over1k_bloom.orc",
      "complextypes_iceberg.orc",
      "demo-12-zlib.orc",
  };
  int64_t groups = 0;
  for (size_t fi = 0; fi < CHV_ARRAY_SIZE(files); fi++) {
    struct chv_error err;
    char src[1024], dst[700];
    snprintf(src, sizeof src, "%s/orc/%s", dir, files[fi]);
    snprintf(dst, sizeof dst, "%s/again.orc", chv_test_tmpdir());
    chv_orc_reader *r;
    CHV_REQUIRE_OK(chv_orc_reader_open(chv_fs_local(), src, NULL, &r, &err),
                   &err);
    const struct chv_type *s = chv_orc_reader_schema(r);
    chv_orc_writer *w;
    CHV_REQUIRE_OK(chv_orc_writer_open(chv_fs_local(), dst, s, NULL, &w, &err),
                   &err);
    struct chv_batch *b;
    CHV_REQUIRE_OK(chv_batch_open(s, 4096, &b, &err), &err);
    int64_t n;
    int rc;
    while ((rc = chv_orc_reader_next(r, b, &n, &err)) == CHV_OK && n > 0)
      CHV_REQUIRE_OK(chv_orc_writer_write(w, b, &err), &err);
    CHV_CHECK_OK(rc, &err);
    CHV_REQUIRE_OK(chv_orc_writer_finish(w, NULL, &err), &err);
    chv_orc_writer_close(w);
    chv_batch_close(b);
    chv_orc_reader_close(r);
    struct wfile a, c;
    CHV_REQUIRE_OK(wfile_open(src, &a, &err), &err);
    CHV_REQUIRE_OK(wfile_open(dst, &c, &err), &err);
    CHV_CHECK_EQ_INT(a.t->footer.ntypes, c.t->footer.ntypes);
    int bad = 0;
    for (uint32_t col = 0;
         col < a.t->footer.nstatistics && col < c.t->footer.nstatistics &&
         col < a.t->footer.ntypes;
         col++)
      bad += stats_diff(files[fi], col, &a.t->footer.types[col],
                        &a.t->footer.statistics[col],
                        &c.t->footer.statistics[col]);
    /* Row groups too, when both files hold one stripe cut alike. */
    if (a.t->footer.nstripes == 1 && c.t->footer.nstripes == 1 &&
        a.t->footer.row_index_stride == c.t->footer.row_index_stride &&
        a.t->footer.row_index_stride > 0) {
      struct chv_orc_stripe_footer sa, sc;
      CHV_REQUIRE_OK(
          chv_orc_stripe_footer_read(a.t, &a.in, a.codec, 0, a.a, &sa, &err),
          &err);
      CHV_REQUIRE_OK(
          chv_orc_stripe_footer_read(c.t, &c.in, c.codec, 0, c.a, &sc, &err),
          &err);
      for (uint32_t col = 0; col < a.t->footer.ntypes; col++) {
        const struct chv_orc_stream_info *xa =
            chv_orc_stripe_find_stream(&sa, col, CHV_ORC_STREAM_ROW_INDEX);
        const struct chv_orc_stream_info *xc =
            chv_orc_stripe_find_stream(&sc, col, CHV_ORC_STREAM_ROW_INDEX);
        if (xa == NULL) continue;
        CHV_REQUIRE(xc != NULL);
        struct chv_orc_row_index ra, rc2;
        CHV_REQUIRE_OK(chv_orc_row_index_decode(a.codec, a.data + xa->offset,
                                                xa->length, a.a, "a", &ra,
                                                &err),
                       &err);
        CHV_REQUIRE_OK(chv_orc_row_index_decode(c.codec, c.data + xc->offset,
                                                xc->length, c.a, "c", &rc2,
                                                &err),
                       &err);
        CHV_CHECK_EQ_INT(ra.nentries, rc2.nentries);
        for (uint32_t e = 0; e < ra.nentries && e < rc2.nentries; e++)
          if (ra.entries[e].statistics && rc2.entries[e].statistics)
            bad +=
                stats_diff(files[fi], col, &a.t->footer.types[col],
                           ra.entries[e].statistics, rc2.entries[e].statistics);
        groups += ra.nentries;
      }
    }
    CHV_CHECK_EQ_INT(bad, 0);
    wfile_close(&a);
    wfile_close(&c);
  }
  CHV_CHECK(groups > 100);
}

CHV_TEST_MAIN("orc_writer", test_hashes, test_options, test_empty,
              test_flat_codecs, test_flat_stripes, test_nested, test_bloom,
              test_stats, test_errors, test_memory_bound, test_reader_roundtrip,
              test_reader_skips, test_reader_tiny, test_oom, test_fixture_stats)
