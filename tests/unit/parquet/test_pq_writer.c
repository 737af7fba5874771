/* Tests of the Parquet writer (src/format/parquet/pq_writer.c,
** pq_wcolumn.c): files are written through the local file system, their
** footers parsed with chv_pq_footer_parse() and their pages decoded here
** with the encoders' decoders (pq_encoding.h), independently of the reader.
** Checked: table properties; the schema of every Hive type (Hive's names
** and annotations, decimal widths, INT96 and INT64 timestamps) and its
** mapping back to Hive types; stored values (INT96 days and nanos,
** big-endian decimals, CHAR without trailing spaces); definition and
** repetition levels of nested values; statistics and their sort orders;
** row groups and page sizes; dictionary encoding, its fallback and v2
** encodings; page CRCs; rejected batches and values; failing writes;
** every allocation failing in turn. */
#include "chv_test.h"
#include "format/parquet/pq_encoding.h"
#include "format/parquet/pq_int.h"

#include "chive/jsonl.h"
#include "chive/parquet.h"
#include "codec/block.h"

#include <math.h>
#include <zlib.h>

/* ---- helpers ------------------------------------------------------------ */

typedef int (*fill_fn)(struct chv_batch *b, int row, struct chv_error *err);

static char *tmp_file(const char *name) {
  static char p[8][700];
  static int k;
  char *s = p[k++ % 8];
  snprintf(s, 700, "%s/%s", chv_test_tmpdir(), name);
  return s;
}

/* Write nrows rows of schema_text, batches of `batch` rows, with o. */
static int write_file(const char *path, const char *schema_text, fill_fn fill,
                      int nrows, int batch,
                      const struct chv_pq_write_options *o,
                      struct chv_pq_write_stats *st, struct chv_error *err) {
  struct chv_type *schema;
  int rc = chv_type_parse_columns(schema_text, &schema, err);
  if (rc) return rc;
  struct chv_batch *b = NULL;
  chv_pq_writer *w = NULL;
  if ((rc = chv_batch_open(schema, batch, &b, err))) goto out;
  if ((rc = chv_pq_writer_open(chv_fs_local(), path, schema, o, &w, err)))
    goto out;
  for (int r = 0; r < nrows;) {
    chv_batch_reset(b);
    int n = 0;
    for (; n < batch && r < nrows; n++, r++)
      if ((rc = fill(b, r, err))) goto out;
    b->nrows = n;
    if ((rc = chv_pq_writer_write(w, b, err))) goto out;
  }
  rc = chv_pq_writer_finish(w, st, err);
out:
  chv_pq_writer_close(w);
  chv_batch_close(b);
  chv_type_free(schema);
  return rc;
}

struct wfile {
  char *data;
  size_t len;
  struct chv_pq_file_meta *m;
};

static int load(const char *path, struct wfile *f, struct chv_error *err) {
  memset(f, 0, sizeof *f);
  int rc = chv_fs_read_all(chv_fs_local(), path, &f->data, &f->len, -1, err);
  if (rc) return rc;
  return chv_pq_footer_parse(f->data, f->len, path, &f->m, err);
}

static void unload(struct wfile *f) {
  chv_pq_file_meta_close(f->m);
  chv_free(f->data);
}

static const struct chv_pq_schema_element *element(const struct wfile *f,
                                                   const char *path) {
  for (int i = 0; i < f->m->nleaves + f->m->nschema; i++) {
    if (i >= f->m->nschema) break;
    struct chv_buf b;
    chv_buf_init(&b);
    chv_pq_node_path(&f->m->nodes[i], &b);
    bool same = b.data && strcmp(b.data, path) == 0;
    chv_buf_free(&b);
    if (same) return &f->m->schema[i];
  }
  return NULL;
}

static int leaf_index(const struct wfile *f, const char *path) {
  for (int i = 0; i < f->m->nleaves; i++) {
    struct chv_buf b;
    chv_buf_init(&b);
    chv_pq_node_path(f->m->leaves[i], &b);
    bool same = b.data && strcmp(b.data, path) == 0;
    chv_buf_free(&b);
    if (same) return i;
  }
  return -1;
}

/* ---- decoding a column chunk ------------------------------------------- */

struct dcol {
  int64_t n; /* levels */
  uint32_t *def, *rep;
  int64_t nv;          /* values */
  struct chv_buf vals; /* fixed-width values, booleans a byte each */
  struct chv_buf heap; /* byte arrays */
  int32_t *off;        /* nv + 1 offsets into heap */
  int ndata, ndict;    /* pages */
  int32_t enc[64];     /* value encoding of each data page */
  int64_t max_page_usize;
  int64_t max_page_rows;
  int64_t max_page_values;
  bool crc_ok; /* every page with a crc matched it */
  int ncrc;
  struct chv_pq_statistics pstats[64]; /* data page statistics */
};

static void dcol_free(struct dcol *d) {
  chv_free(d->def);
  chv_free(d->rep);
  chv_free(d->off);
  chv_buf_free(&d->vals);
  chv_buf_free(&d->heap);
}

static int push_ba(struct dcol *d, const uint8_t *p, uint32_t len) {
  d->off = chv_realloc(d->off, sizeof *d->off * (size_t)(d->nv + 2));
  if (d->nv == 0) d->off[0] = 0;
  chv_buf_append(&d->heap, p, len);
  d->off[d->nv + 1] = (int32_t)d->heap.len;
  d->nv++;
  return 0;
}

/* Decode n values of encoding enc from p[0, len) into d (the dictionary,
** when given, is a dcol of the dictionary values). */
static int decode_values(const struct chv_pq_schema_element *el, int32_t enc,
                         const uint8_t *p, size_t len, int64_t n,
                         const struct dcol *dict, struct dcol *d,
                         struct chv_error *err) {
  int32_t type = el->type;
  size_t w = type == CHV_PQ_TYPE_INT32 || type == CHV_PQ_TYPE_FLOAT    ? 4
             : type == CHV_PQ_TYPE_INT64 || type == CHV_PQ_TYPE_DOUBLE ? 8
             : type == CHV_PQ_TYPE_INT96                               ? 12
             : type == CHV_PQ_TYPE_FIXED_LEN_BYTE_ARRAY
                 ? (size_t)el->type_length
                 : 0;
  if (n == 0) return 0;
  if (enc == CHV_PQ_ENC_PLAIN_DICTIONARY || enc == CHV_PQ_ENC_RLE_DICTIONARY) {
    struct chv_pq_rle_dec r;
    uint32_t *ix = chv_malloc(sizeof *ix * (size_t)n);
    int rc = chv_pq_rle_init_dict(&r, p, len, (uint64_t)n, err);
    if (!rc)
      rc = chv_pq_rle_next_bounded(&r, (size_t)n, (uint32_t)dict->nv, ix, err);
    for (int64_t k = 0; !rc && k < n; k++) {
      if (type == CHV_PQ_TYPE_BYTE_ARRAY)
        push_ba(d, (const uint8_t *)dict->heap.data + dict->off[ix[k]],
                (uint32_t)(dict->off[ix[k] + 1] - dict->off[ix[k]]));
      else {
        chv_buf_append(&d->vals, dict->vals.data + ix[k] * w, w);
        d->nv++;
      }
    }
    chv_free(ix);
    return rc;
  }
  if (enc == CHV_PQ_ENC_PLAIN) {
    struct chv_pq_plain_dec pd;
    chv_pq_plain_init(&pd, p, len);
    if (type == CHV_PQ_TYPE_BOOLEAN) {
      uint8_t *b = chv_malloc((size_t)n);
      int rc = chv_pq_plain_next_bool(&pd, (size_t)n, b, err);
      chv_buf_append(&d->vals, b, (size_t)n);
      d->nv += n;
      chv_free(b);
      return rc;
    }
    if (type == CHV_PQ_TYPE_BYTE_ARRAY) {
      uint32_t *o = chv_malloc(4 * (size_t)n), *l = chv_malloc(4 * (size_t)n);
      int rc = chv_pq_plain_next_ba(&pd, (size_t)n, o, l, NULL, err);
      for (int64_t k = 0; !rc && k < n; k++)
        push_ba(d, p + o[k], l[k]);
      chv_free(o);
      chv_free(l);
      return rc;
    }
    chv_buf_reserve(&d->vals, w * (size_t)n);
    int rc = chv_pq_plain_next_fixed(&pd, w, (size_t)n,
                                     d->vals.data + d->vals.len, err);
    d->vals.len += w * (size_t)n;
    d->nv += n;
    return rc;
  }
  if (enc == CHV_PQ_ENC_RLE) { /* booleans */
    struct chv_pq_rle_dec r;
    size_t used;
    uint8_t *b = chv_malloc((size_t)n);
    int rc = chv_pq_rle_init_prefixed(&r, p, len, 1, (uint64_t)n, &used, err);
    if (!rc) rc = chv_pq_rle_next_u8(&r, (size_t)n, b, err);
    chv_buf_append(&d->vals, b, (size_t)n);
    d->nv += n;
    chv_free(b);
    return rc;
  }
  if (enc == CHV_PQ_ENC_DELTA_BINARY_PACKED) {
    struct chv_pq_delta_dec dd;
    int rc = chv_pq_delta_init(&dd, p, len, err);
    chv_buf_reserve(&d->vals, w * (size_t)n);
    void *out = d->vals.data + d->vals.len;
    if (!rc)
      rc = w == 4 ? chv_pq_delta_next_i32(&dd, (size_t)n, out, err)
                  : chv_pq_delta_next_i64(&dd, (size_t)n, out, err);
    d->vals.len += w * (size_t)n;
    d->nv += n;
    return rc;
  }
  if (enc == CHV_PQ_ENC_DELTA_BYTE_ARRAY) {
    struct chv_pq_dba_dec dd;
    struct chv_buf heap;
    chv_buf_init(&heap);
    int32_t *o = chv_malloc(sizeof *o * (size_t)(n + 1));
    int rc = chv_pq_dba_init(&dd, p, len, err);
    if (!rc) rc = chv_pq_dba_next(&dd, (size_t)n, &heap, o, err);
    for (int64_t k = 0; !rc && k < n; k++) {
      if (type == CHV_PQ_TYPE_BYTE_ARRAY) {
        push_ba(d, (const uint8_t *)heap.data + o[k],
                (uint32_t)(o[k + 1] - o[k]));
      } else {
        chv_buf_append(&d->vals, heap.data + o[k], (size_t)(o[k + 1] - o[k]));
        d->nv++;
      }
    }
    chv_pq_dba_free(&dd);
    chv_buf_free(&heap);
    chv_free(o);
    return rc;
  }
  return chv_error_set(err, CHV_ENOTSUP, "encoding %d", (int)enc);
}

static int crc_check(struct dcol *d, const struct chv_pq_page_header *h,
                     const uint8_t *body) {
  if (!h->has_crc) return 0;
  d->ncrc++;
  uint32_t c = (uint32_t)crc32(crc32(0L, Z_NULL, 0), body,
                               (uInt)h->compressed_page_size);
  if (c != h->crc) d->crc_ok = false;
  return 0;
}

/* Decode column chunk `col` of row group `rg`. */
static int decode_chunk(const struct wfile *f, int rg, int col, struct dcol *d,
                        struct chv_error *err) {
  memset(d, 0, sizeof *d);
  d->crc_ok = true;
  chv_buf_init(&d->vals);
  chv_buf_init(&d->heap);
  struct dcol dict;
  memset(&dict, 0, sizeof dict);
  chv_buf_init(&dict.vals);
  chv_buf_init(&dict.heap);
  const struct chv_pq_column_meta *cm =
      f->m->row_groups[rg].columns[col].meta_data;
  const struct chv_pq_node *leaf = f->m->leaves[col];
  const struct chv_pq_schema_element *el = leaf->el;
  int64_t start, len;
  chv_pq_chunk_range(cm, &start, &len);
  const uint8_t *p = (const uint8_t *)f->data + start, *end = p + len;
  int rc = 0;
  uint8_t *buf = NULL;
  while (p < end && !rc) {
    struct chv_pq_page_header h;
    size_t used;
    if ((rc = chv_pq_page_header_parse(p, (size_t)(end - p), "w", -1, &h, &used,
                                       err)))
      break;
    p += used;
    const uint8_t *body = p;
    p += h.compressed_page_size;
    crc_check(d, &h, body);
    chv_free(buf);
    buf = chv_malloc((size_t)h.uncompressed_page_size + 1);
    if (h.type == CHV_PQ_PAGE_DICTIONARY_PAGE) {
      d->ndict++;
      if ((rc = chv_block_decompress(NULL, cm->codec, body,
                                     (size_t)h.compressed_page_size, buf,
                                     (size_t)h.uncompressed_page_size, err)))
        break;
      rc = decode_values(el, CHV_PQ_ENC_PLAIN, buf,
                         (size_t)h.uncompressed_page_size,
                         h.dictionary_page.num_values, NULL, &dict, err);
      continue;
    }
    int64_t n;
    int32_t enc;
    const uint8_t *vals;
    size_t vlen;
    struct chv_pq_rle_dec r;
    uint32_t *def = NULL, *rep = NULL;
    int bwd = chv_pq_bit_width((uint64_t)leaf->def_level);
    int bwr = chv_pq_bit_width((uint64_t)leaf->rep_level);
    if (h.type == CHV_PQ_PAGE_DATA_PAGE) {
      n = h.data_page.num_values;
      enc = h.data_page.encoding;
      if (h.data_page.has_statistics && d->ndata < 64)
        d->pstats[d->ndata] = h.data_page.statistics;
      if ((rc = chv_block_decompress(NULL, cm->codec, body,
                                     (size_t)h.compressed_page_size, buf,
                                     (size_t)h.uncompressed_page_size, err)))
        break;
      size_t pos = 0, u;
      rep = chv_calloc((size_t)n + 1, 4);
      def = chv_calloc((size_t)n + 1, 4);
      if (leaf->rep_level > 0) {
        rc = chv_pq_rle_init_prefixed(&r, buf, (size_t)h.uncompressed_page_size,
                                      bwr, (uint64_t)n, &u, err);
        if (!rc) rc = chv_pq_rle_next(&r, (size_t)n, rep, err);
        pos += u;
      }
      if (!rc && leaf->def_level > 0) {
        rc = chv_pq_rle_init_prefixed(&r, buf + pos,
                                      (size_t)h.uncompressed_page_size - pos,
                                      bwd, (uint64_t)n, &u, err);
        if (!rc) rc = chv_pq_rle_next(&r, (size_t)n, def, err);
        pos += u;
      }
      vals = buf + pos;
      vlen = (size_t)h.uncompressed_page_size - pos;
    } else {
      const struct chv_pq_data_page_header_v2 *v2 = &h.data_page_v2;
      n = v2->num_values;
      enc = v2->encoding;
      if (v2->has_statistics && d->ndata < 64)
        d->pstats[d->ndata] = v2->statistics;
      size_t ll = (size_t)(v2->repetition_levels_byte_length +
                           v2->definition_levels_byte_length);
      rep = chv_calloc((size_t)n + 1, 4);
      def = chv_calloc((size_t)n + 1, 4);
      if (leaf->rep_level > 0) {
        rc =
            chv_pq_rle_init(&r, body, (size_t)v2->repetition_levels_byte_length,
                            bwr, (uint64_t)n, err);
        if (!rc) rc = chv_pq_rle_next(&r, (size_t)n, rep, err);
      }
      if (!rc && leaf->def_level > 0) {
        rc = chv_pq_rle_init(&r, body + v2->repetition_levels_byte_length,
                             (size_t)v2->definition_levels_byte_length, bwd,
                             (uint64_t)n, err);
        if (!rc) rc = chv_pq_rle_next(&r, (size_t)n, def, err);
      }
      size_t usize = (size_t)h.uncompressed_page_size - ll;
      if (!rc && v2->is_compressed)
        rc = chv_block_decompress(NULL, cm->codec, body + ll,
                                  (size_t)h.compressed_page_size - ll, buf,
                                  usize, err);
      else if (!rc)
        memcpy(buf, body + ll, usize);
      int64_t rows = 0;
      for (int64_t k = 0; k < n; k++)
        rows += rep[k] == 0;
      if (rows != v2->num_rows)
        rc = chv_error_set(err, CHV_ECORRUPT, "num_rows %d, levels say %lld",
                           v2->num_rows, (long long)rows);
      int64_t nulls = 0;
      for (int64_t k = 0; k < n; k++)
        nulls += def[k] < (uint32_t)leaf->def_level;
      if (nulls != v2->num_nulls)
        rc = chv_error_set(err, CHV_ECORRUPT, "num_nulls %d, levels say %lld",
                           v2->num_nulls, (long long)nulls);
      vals = buf;
      vlen = usize;
    }
    if (d->ndata < 64) d->enc[d->ndata] = enc;
    d->ndata++;
    if (h.uncompressed_page_size > d->max_page_usize)
      d->max_page_usize = h.uncompressed_page_size;
    int64_t rows = 0, nn = 0;
    for (int64_t k = 0; k < n; k++) {
      rows += rep[k] == 0;
      nn += def[k] == (uint32_t)leaf->def_level;
    }
    if (rows > d->max_page_rows) d->max_page_rows = rows;
    if (n > d->max_page_values) d->max_page_values = n;
    d->def = chv_realloc(d->def, 4 * (size_t)(d->n + n + 1));
    d->rep = chv_realloc(d->rep, 4 * (size_t)(d->n + n + 1));
    memcpy(d->def + d->n, def, 4 * (size_t)n);
    memcpy(d->rep + d->n, rep, 4 * (size_t)n);
    d->n += n;
    chv_free(def);
    chv_free(rep);
    if (!rc) rc = decode_values(el, enc, vals, vlen, nn, &dict, d, err);
  }
  chv_free(buf);
  dcol_free(&dict);
  if (!rc && d->n != cm->num_values)
    rc = chv_error_set(err, CHV_ECORRUPT, "%lld levels, num_values %lld",
                       (long long)d->n, (long long)cm->num_values);
  return rc;
}

/* ---- fill functions ----------------------------------------------------- */

static int put_s(struct chv_vector *v, const char *s, struct chv_error *err) {
  return chv_vector_append_string(v, s, strlen(s), err);
}

static const char *every_type =
    "b boolean, t tinyint, s smallint, i int, l bigint, f float, d double, "
    "d1 decimal(1,0), d2 decimal(2,1), d3 decimal(3,0), d5 decimal(5,2), "
    "d9 decimal(9,3), d10 decimal(10,0), d18 decimal(18,2), "
    "d19 decimal(19,0), d38 decimal(38,10), st string, vc varchar(4), "
    "ch char(5), bi binary, dt date, ts timestamp, a array<int>, "
    "m map<string,array<bigint>>, "
    "x struct<p:int,q:struct<r:string>,z:map<int,struct<u:date>>>";

static const char *every_hive =
    "struct<b:boolean,t:tinyint,s:smallint,i:int,l:bigint,f:float,d:double,"
    "d1:decimal(1,0),d2:decimal(2,1),d3:decimal(3,0),d5:decimal(5,2),"
    "d9:decimal(9,3),d10:decimal(10,0),d18:decimal(18,2),d19:decimal(19,0),"
    "d38:decimal(38,10),st:string,vc:string,ch:string,bi:binary,dt:date,"
    "ts:timestamp,a:array<int>,m:map<string,array<bigint>>,"
    "x:struct<p:int,q:struct<r:string>,z:map<int,struct<u:date>>>>";

/* Rows of every_type: row 0 all NULL, others values from r. */
static int fill_every(struct chv_batch *b, int r, struct chv_error *err) {
  struct chv_vector **c = b->cols;
  if (r == 0) {
    for (int k = 0; k < b->ncols; k++)
      CHV_RETURN_IF_ERR(chv_vector_append_null(c[k], err));
    return 0;
  }
  bool bv = r & 1;
  int8_t t = (int8_t)(r - 50);
  int16_t s = (int16_t)(r * 100);
  int32_t i = r * 1000, dt = r - 1000;
  int64_t l = (int64_t)r << 40;
  float f = (float)r / 4;
  double d = (double)r / 8;
  int k = 0;
  CHV_RETURN_IF_ERR(chv_vector_append_value(c[k++], &bv, err));
  CHV_RETURN_IF_ERR(chv_vector_append_value(c[k++], &t, err));
  CHV_RETURN_IF_ERR(chv_vector_append_value(c[k++], &s, err));
  CHV_RETURN_IF_ERR(chv_vector_append_value(c[k++], &i, err));
  CHV_RETURN_IF_ERR(chv_vector_append_value(c[k++], &l, err));
  CHV_RETURN_IF_ERR(chv_vector_append_value(c[k++], &f, err));
  CHV_RETURN_IF_ERR(chv_vector_append_value(c[k++], &d, err));
  for (int q = 0; q < 9; q++) {
    chv_i128 m = (chv_i128)(r % 9) * (r % 2 ? -1 : 1);
    CHV_RETURN_IF_ERR(chv_vector_append_value(c[k++], &m, err));
  }
  char sb[32];
  snprintf(sb, sizeof sb, "s%03d", r);
  CHV_RETURN_IF_ERR(put_s(c[k++], sb, err));
  CHV_RETURN_IF_ERR(put_s(c[k++], "vc", err));
  CHV_RETURN_IF_ERR(put_s(c[k++], r % 2 ? "ab" : "a b", err));
  CHV_RETURN_IF_ERR(chv_vector_append_bytes(c[k++], "\x00\xff", 2, err));
  CHV_RETURN_IF_ERR(chv_vector_append_value(c[k++], &dt, err));
  struct chv_timestamp ts = {(int64_t)r * 86400 + 1, r * 1000, 0};
  CHV_RETURN_IF_ERR(chv_vector_append_value(c[k++], &ts, err));
  /* a: [r, NULL] */
  struct chv_vector *a = c[k++];
  CHV_RETURN_IF_ERR(chv_vector_append_value(a->children[0], &i, err));
  CHV_RETURN_IF_ERR(chv_vector_append_null(a->children[0], err));
  CHV_RETURN_IF_ERR(chv_vector_append_nested(a, err));
  /* m: {"k": [l]} */
  struct chv_vector *m = c[k++];
  CHV_RETURN_IF_ERR(put_s(m->children[0], "k", err));
  CHV_RETURN_IF_ERR(
      chv_vector_append_value(m->children[1]->children[0], &l, err));
  CHV_RETURN_IF_ERR(chv_vector_append_nested(m->children[1], err));
  CHV_RETURN_IF_ERR(chv_vector_append_nested(m, err));
  /* x: {p: r, q: {r: "q"}, z: {1: {u: dt}}} */
  struct chv_vector *x = c[k++];
  CHV_RETURN_IF_ERR(chv_vector_append_value(x->children[0], &i, err));
  CHV_RETURN_IF_ERR(put_s(x->children[1]->children[0], "q", err));
  CHV_RETURN_IF_ERR(chv_vector_append_nested(x->children[1], err));
  struct chv_vector *z = x->children[2];
  int32_t one = 1;
  CHV_RETURN_IF_ERR(chv_vector_append_value(z->children[0], &one, err));
  CHV_RETURN_IF_ERR(
      chv_vector_append_value(z->children[1]->children[0], &dt, err));
  CHV_RETURN_IF_ERR(chv_vector_append_nested(z->children[1], err));
  CHV_RETURN_IF_ERR(chv_vector_append_nested(z, err));
  return chv_vector_append_nested(x, err);
}

/* ---- tests -------------------------------------------------------------- */

static void test_options(void) {
  struct chv_pq_write_options o;
  struct chv_error err;
  chv_pq_write_options_init(&o);
  CHV_CHECK(o.codec == CHV_PQ_CODEC_SNAPPY && o.block_size == 134217728 &&
            o.page_size == 1048576 && o.dictionary_page_size == 1048576 &&
            o.dictionary && !o.data_page_v2 && !o.timestamp_int64 &&
            o.timestamp_unit == CHV_PQ_TS_MICROS && o.page_row_limit == 20000 &&
            o.page_checksum);
  static const struct {
    const char *key, *value;
  } good[] = {{"parquet.compression", "gzip"},
              {"parquet.compression", "ZSTD"},
              {"parquet.compression", "lz4_raw"},
              {"parquet.compression", "none"},
              {"parquet.compression", "Uncompressed"},
              {"parquet.compression", "brotli"},
              {"parquet.compression", "snappy"},
              {"parquet.block.size", "1048576"},
              {"parquet.block.size", "256m"},
              {"parquet.page.size", " 8k "},
              {"parquet.dictionary.page.size", "65536"},
              {"parquet.page.row.count.limit", "100"},
              {"parquet.enable.dictionary", "FALSE"},
              {"parquet.writer.version", "PARQUET_2_0"},
              {"parquet.page.write-checksum.enabled", "false"},
              {"hive.parquet.write.int64.timestamp", "true"},
              {"hive.parquet.timestamp.time.unit", "NANOS"},
              {"parquet.compression.codec.zstd.level", "9"},
              {"zlib.compress.level", "BEST_SPEED"},
              {"some.other.property", "whatever"},
              {"parquet.unknown.key", "x"}};
  for (size_t k = 0; k < CHV_ARRAY_SIZE(good); k++)
    CHV_CHECK_OK(chv_pq_write_options_set(&o, good[k].key, good[k].value, &err),
                 &err);
  CHV_CHECK(o.codec == CHV_PQ_CODEC_SNAPPY && o.block_size == 256 << 20 &&
            o.page_size == 8192 && o.dictionary_page_size == 65536 &&
            o.page_row_limit == 100 && !o.dictionary && o.data_page_v2 &&
            !o.page_checksum && o.timestamp_int64 &&
            o.timestamp_unit == CHV_PQ_TS_NANOS && o.zstd_level == 9 &&
            o.gzip_level == 1);
  static const struct {
    const char *key, *value;
  } bad[] = {{"parquet.compression", "LZO"},
             {"parquet.compression", "lz4"},
             {"parquet.compression", "zip"},
             {"parquet.block.size", "-1"},
             {"parquet.block.size", "0"},
             {"parquet.block.size", "12x"},
             {"parquet.block.size", "99999999999999999999"},
             {"parquet.page.size", "2g"},
             {"parquet.dictionary.page.size", ""},
             {"parquet.page.row.count.limit", "0"},
             {"parquet.enable.dictionary", "yes"},
             {"parquet.writer.version", "v3"},
             {"hive.parquet.write.int64.timestamp", "1"},
             {"hive.parquet.timestamp.time.unit", "seconds"},
             {"parquet.compression.codec.zstd.level", "23"},
             {"zlib.compress.level", "10"}};
  for (size_t k = 0; k < CHV_ARRAY_SIZE(bad); k++) {
    struct chv_pq_write_options before = o;
    int rc = chv_pq_write_options_set(&o, bad[k].key, bad[k].value, &err);
    CHV_CHECK_EQ_INT(rc, CHV_EINVAL);
    CHV_CHECK_CONTAINS(err.msg, bad[k].key);
    char quoted[64];
    snprintf(quoted, sizeof quoted, "'%s'", bad[k].value);
    CHV_CHECK_CONTAINS(err.msg, quoted);
    CHV_CHECK(memcmp(&before, &o, sizeof o) == 0);
  }
  CHV_CHECK_EQ_INT(
      chv_pq_write_options_set(&o, "parquet.compression", NULL, &err),
      CHV_EINVAL);
  /* Out-of-range fields set directly are refused by open. */
  chv_pq_write_options_init(&o);
  o.page_size = 0;
  struct chv_type *schema;
  chv_type_parse_columns("a int", &schema, &err);
  chv_pq_writer *w = NULL;
  CHV_CHECK_EQ_INT(chv_pq_writer_open(chv_fs_local(), tmp_file("o.parquet"),
                                      schema, &o, &w, &err),
                   CHV_EINVAL);
  CHV_CHECK_CONTAINS(err.msg, "page_size");
  CHV_CHECK(w == NULL);
  chv_type_free(schema);
}

static void test_schema(void) {
  struct chv_error err;
  const char *path = tmp_file("every.parquet");
  struct chv_pq_write_stats st;
  CHV_REQUIRE_OK(
      write_file(path, every_type, fill_every, 10, 4, NULL, &st, &err), &err);
  CHV_CHECK(st.rows == 10 && st.row_groups == 1);
  struct wfile f;
  CHV_REQUIRE_OK(load(path, &f, &err), &err);
  const struct chv_pq_file_meta *m = f.m;
  CHV_CHECK_STREQ(m->schema[0].name, "hive_schema");
  CHV_CHECK(m->version == 1 && m->num_rows == 10 && m->nrow_groups == 1);
  CHV_CHECK_STREQ(m->created_by, "chive version " CHV_VERSION);
  CHV_CHECK(m->ncolumn_orders == m->nleaves);
  for (int i = 0; i < m->ncolumn_orders; i++)
    CHV_CHECK(m->column_orders[i] == CHV_PQ_ORDER_TYPE_DEFINED);
  CHV_REQUIRE(m->nkv == 2);
  CHV_CHECK_STREQ(m->kv[0].key, "writer.time.zone");
  CHV_CHECK_STREQ(m->kv[0].value, "UTC");
  CHV_CHECK_STREQ(m->kv[1].key, "writer.date.proleptic");
  CHV_CHECK_STREQ(m->kv[1].value, "true");

  const struct chv_pq_schema_element *e;
  /* Every column is optional. */
  for (int i = 1; i < m->nschema; i++)
    if (strcmp(m->schema[i].name, "bag") &&
        strcmp(m->schema[i].name, "key_value") &&
        strcmp(m->schema[i].name, "key"))
      CHV_CHECK(m->schema[i].repetition == CHV_PQ_REP_OPTIONAL);
  e = element(&f, "t");
  CHV_CHECK(e && e->type == CHV_PQ_TYPE_INT32 &&
            e->converted_type == CHV_PQ_CT_INT_8 &&
            e->logical.kind == CHV_PQ_LT_INTEGER && e->logical.bit_width == 8 &&
            e->logical.is_signed);
  e = element(&f, "s");
  CHV_CHECK(e && e->converted_type == CHV_PQ_CT_INT_16 &&
            e->logical.bit_width == 16);
  e = element(&f, "i");
  CHV_CHECK(e && e->type == CHV_PQ_TYPE_INT32 && !e->has_converted_type &&
            e->logical.kind == CHV_PQ_LT_NONE);
  e = element(&f, "l");
  CHV_CHECK(e && e->type == CHV_PQ_TYPE_INT64 && !e->has_converted_type);
  static const struct {
    const char *name;
    int p, bytes;
  } decs[] = {{"d1", 1, 1},   {"d2", 2, 1},   {"d3", 3, 2},
              {"d5", 5, 3},   {"d9", 9, 4},   {"d10", 10, 5},
              {"d18", 18, 8}, {"d19", 19, 9}, {"d38", 38, 16}};
  for (size_t k = 0; k < CHV_ARRAY_SIZE(decs); k++) {
    e = element(&f, decs[k].name);
    CHV_CHECK(e && e->type == CHV_PQ_TYPE_FIXED_LEN_BYTE_ARRAY &&
              e->type_length == decs[k].bytes &&
              e->converted_type == CHV_PQ_CT_DECIMAL &&
              e->precision == decs[k].p &&
              e->logical.kind == CHV_PQ_LT_DECIMAL &&
              e->logical.precision == decs[k].p);
  }
  e = element(&f, "d5");
  CHV_CHECK(e && e->scale == 2 && e->logical.scale == 2);
  for (const char *const *s = (const char *const[]){"st", "vc", "ch", NULL}; *s;
       s++) {
    e = element(&f, *s);
    CHV_CHECK(e && e->type == CHV_PQ_TYPE_BYTE_ARRAY &&
              e->converted_type == CHV_PQ_CT_UTF8 &&
              e->logical.kind == CHV_PQ_LT_STRING);
  }
  e = element(&f, "bi");
  CHV_CHECK(e && e->type == CHV_PQ_TYPE_BYTE_ARRAY && !e->has_converted_type);
  e = element(&f, "dt");
  CHV_CHECK(e && e->type == CHV_PQ_TYPE_INT32 &&
            e->converted_type == CHV_PQ_CT_DATE &&
            e->logical.kind == CHV_PQ_LT_DATE);
  e = element(&f, "ts");
  CHV_CHECK(e && e->type == CHV_PQ_TYPE_INT96 && !e->has_converted_type &&
            e->logical.kind == CHV_PQ_LT_NONE);
  e = element(&f, "a");
  CHV_CHECK(e && e->converted_type == CHV_PQ_CT_LIST &&
            e->logical.kind == CHV_PQ_LT_LIST && e->num_children == 1);
  e = element(&f, "a.bag");
  CHV_CHECK(e && e->repetition == CHV_PQ_REP_REPEATED && e->num_children == 1 &&
            !e->has_converted_type);
  e = element(&f, "a.bag.array_element");
  CHV_CHECK(e && e->repetition == CHV_PQ_REP_OPTIONAL &&
            e->type == CHV_PQ_TYPE_INT32);
  e = element(&f, "m");
  CHV_CHECK(e && e->converted_type == CHV_PQ_CT_MAP &&
            e->logical.kind == CHV_PQ_LT_MAP);
  e = element(&f, "m.key_value");
  CHV_CHECK(e && e->repetition == CHV_PQ_REP_REPEATED &&
            e->converted_type == CHV_PQ_CT_MAP_KEY_VALUE &&
            e->num_children == 2);
  e = element(&f, "m.key_value.key");
  CHV_CHECK(e && e->repetition == CHV_PQ_REP_REQUIRED &&
            e->type == CHV_PQ_TYPE_BYTE_ARRAY);
  e = element(&f, "m.key_value.value.bag.array_element");
  CHV_CHECK(e && e->type == CHV_PQ_TYPE_INT64);
  e = element(&f, "x.z.key_value.value.u");
  CHV_CHECK(e && e->type == CHV_PQ_TYPE_INT32 &&
            e->converted_type == CHV_PQ_CT_DATE);

  /* Levels. */
  int k = leaf_index(&f, "a.bag.array_element");
  CHV_CHECK(k >= 0 && m->leaves[k]->def_level == 3 &&
            m->leaves[k]->rep_level == 1);
  k = leaf_index(&f, "m.key_value.key");
  CHV_CHECK(k >= 0 && m->leaves[k]->def_level == 2 &&
            m->leaves[k]->rep_level == 1);
  k = leaf_index(&f, "m.key_value.value.bag.array_element");
  CHV_CHECK(k >= 0 && m->leaves[k]->def_level == 5 &&
            m->leaves[k]->rep_level == 2);

  /* Read as Hive would: the same types back (char and varchar as string). */
  struct chv_pq_hive_schema *h;
  CHV_REQUIRE_OK(chv_pq_hive_schema_open(m, path, &h, &err), &err);
  struct chv_buf b;
  chv_buf_init(&b);
  chv_type_format(h->type, &b);
  CHV_CHECK_STREQ(b.data, every_hive);
  chv_buf_free(&b);
  chv_pq_hive_schema_close(h);

  /* Row group accounting. */
  const struct chv_pq_row_group *g = &m->row_groups[0];
  int64_t unc = 0, comp = 0;
  for (int c = 0; c < g->ncolumns; c++) {
    const struct chv_pq_column_meta *cm = g->columns[c].meta_data;
    unc += cm->total_uncompressed_size;
    comp += cm->total_compressed_size;
    CHV_CHECK(cm->codec == CHV_PQ_CODEC_SNAPPY);
    int64_t start, len;
    chv_pq_chunk_range(cm, &start, &len);
    CHV_CHECK(g->columns[c].file_offset == start);
    if (c == 0) CHV_CHECK(g->file_offset == start && start == 4);
  }
  CHV_CHECK(g->total_byte_size == unc && g->total_compressed_size == comp);
  CHV_CHECK(g->num_rows == 10 && g->has_ordinal && g->ordinal == 0);
  CHV_CHECK(st.raw_bytes == unc && st.file_bytes == (int64_t)f.len);
  unload(&f);
}

static void test_int64_timestamps(void) {
  static const struct {
    const char *unit;
    int32_t lt_unit, ct;
    int64_t per_sec;
  } units[] = {
      {"millis", CHV_PQ_UNIT_MILLIS, CHV_PQ_CT_TIMESTAMP_MILLIS, 1000},
      {"micros", CHV_PQ_UNIT_MICROS, CHV_PQ_CT_TIMESTAMP_MICROS, 1000000},
      {"nanos", CHV_PQ_UNIT_NANOS, -1, 1000000000}};
  for (size_t u = 0; u < CHV_ARRAY_SIZE(units); u++) {
    struct chv_pq_write_options o;
    struct chv_error err;
    chv_pq_write_options_init(&o);
    chv_pq_write_options_set(&o, "hive.parquet.write.int64.timestamp", "true",
                             &err);
    chv_pq_write_options_set(&o, "hive.parquet.timestamp.time.unit",
                             units[u].unit, &err);
    const char *path = tmp_file("ts64.parquet");
    CHV_REQUIRE_OK(
        write_file(path, every_type, fill_every, 5, 5, &o, NULL, &err), &err);
    struct wfile f;
    CHV_REQUIRE_OK(load(path, &f, &err), &err);
    const struct chv_pq_schema_element *e = element(&f, "ts");
    CHV_CHECK(e && e->type == CHV_PQ_TYPE_INT64 &&
              e->logical.kind == CHV_PQ_LT_TIMESTAMP &&
              !e->logical.utc_adjusted && e->logical.unit == units[u].lt_unit);
    if (units[u].ct < 0)
      CHV_CHECK(e && !e->has_converted_type);
    else
      CHV_CHECK(e && e->converted_type == units[u].ct);
    struct dcol d;
    int k = leaf_index(&f, "ts");
    CHV_REQUIRE_OK(decode_chunk(&f, 0, k, &d, &err), &err);
    CHV_REQUIRE(d.nv == 4);
    for (int r = 1; r <= 4; r++) {
      int64_t v;
      memcpy(&v, d.vals.data + 8 * (r - 1), 8);
      /* ts of row r: r days + 1 s + r microseconds */
      int64_t want = ((int64_t)r * 86400 + 1) * units[u].per_sec +
                     (int64_t)r * 1000 * units[u].per_sec / 1000000000;
      CHV_CHECK_EQ_INT(v, want);
    }
    /* Signed INT64 statistics. */
    const struct chv_pq_statistics *s =
        &f.m->row_groups[0].columns[k].meta_data->statistics;
    CHV_CHECK(s->has_min_value && s->has_max_value && s->min_value.len == 8);
    dcol_free(&d);
    unload(&f);
  }
}

/* Values of every type as stored. */
static void test_values(void) {
  struct chv_error err;
  const char *path = tmp_file("values.parquet");
  struct chv_pq_write_options o;
  chv_pq_write_options_init(&o);
  o.dictionary = false;
  o.codec = CHV_PQ_CODEC_UNCOMPRESSED;
  CHV_REQUIRE_OK(write_file(path, every_type, fill_every, 6, 6, &o, NULL, &err),
                 &err);
  struct wfile f;
  CHV_REQUIRE_OK(load(path, &f, &err), &err);
  struct dcol d;
  /* tinyint widened to INT32, sign kept. */
  CHV_REQUIRE_OK(decode_chunk(&f, 0, leaf_index(&f, "t"), &d, &err), &err);
  CHV_CHECK(d.nv == 5 && d.n == 6 && d.def[0] == 0 && d.def[1] == 1);
  int32_t v32;
  memcpy(&v32, d.vals.data, 4);
  CHV_CHECK_EQ_INT(v32, -49);
  dcol_free(&d);
  /* decimal(5,2) in 3 big-endian bytes: row 1 is -1, row 4 is 4. */
  CHV_REQUIRE_OK(decode_chunk(&f, 0, leaf_index(&f, "d5"), &d, &err), &err);
  CHV_REQUIRE(d.nv == 5 && d.vals.len == 15);
  const uint8_t *p = (const uint8_t *)d.vals.data;
  CHV_CHECK(p[0] == 0xff && p[1] == 0xff && p[2] == 0xff);
  CHV_CHECK(p[9] == 0 && p[10] == 0 && p[11] == 4);
  dcol_free(&d);
  CHV_REQUIRE_OK(decode_chunk(&f, 0, leaf_index(&f, "d38"), &d, &err), &err);
  CHV_CHECK(d.vals.len == 5 * 16);
  dcol_free(&d);
  /* char(5) without its padding; varchar and strings as they are. */
  CHV_REQUIRE_OK(decode_chunk(&f, 0, leaf_index(&f, "ch"), &d, &err), &err);
  CHV_REQUIRE(d.nv == 5);
  CHV_CHECK(d.off[1] - d.off[0] == 2 && memcmp(d.heap.data, "ab", 2) == 0);
  CHV_CHECK(d.off[2] - d.off[1] == 3 &&
            memcmp(d.heap.data + d.off[1], "a b", 3) == 0);
  dcol_free(&d);
  CHV_REQUIRE_OK(decode_chunk(&f, 0, leaf_index(&f, "bi"), &d, &err), &err);
  CHV_CHECK(d.nv == 5 && d.off[1] == 2 &&
            memcmp(d.heap.data, "\x00\xff", 2) == 0);
  dcol_free(&d);
  /* INT96: nanos of the day, then the Julian day. */
  CHV_REQUIRE_OK(decode_chunk(&f, 0, leaf_index(&f, "ts"), &d, &err), &err);
  CHV_REQUIRE(d.nv == 5 && d.vals.len == 60);
  for (int r = 1; r <= 5; r++) {
    uint64_t nod;
    uint32_t jd;
    memcpy(&nod, d.vals.data + 12 * (r - 1), 8);
    memcpy(&jd, d.vals.data + 12 * (r - 1) + 8, 4);
    CHV_CHECK_EQ_INT(jd, 2440588 + r);
    CHV_CHECK_EQ_INT(nod, 1000000000ull + (uint64_t)r * 1000);
  }
  dcol_free(&d);
  /* booleans bit-packed */
  CHV_REQUIRE_OK(decode_chunk(&f, 0, leaf_index(&f, "b"), &d, &err), &err);
  CHV_CHECK(d.nv == 5 && d.vals.data[0] == 1 && d.vals.data[1] == 0);
  dcol_free(&d);
  unload(&f);

  /* INT96 of the edges of Hive's range and around the epoch. */
  static const struct {
    int64_t sec;
    int32_t nanos;
    uint32_t jd;
    uint64_t nod;
  } cases[] = {{0, 1, 2440588, 1},
               {-1, 999999999, 2440587, 86399999999999ull},
               {-62135596800, 0, 1721426, 0}, /* 0001-01-01 */
               {253402300799, 999999999, 5373484, 86399999999999ull}};
  for (size_t k = 0; k < CHV_ARRAY_SIZE(cases); k++) {
    struct chv_type *schema;
    chv_type_parse_columns("ts timestamp", &schema, &err);
    struct chv_batch *b;
    chv_batch_open(schema, 1, &b, &err);
    struct chv_timestamp ts = {cases[k].sec, cases[k].nanos, 0};
    chv_vector_append_value(b->cols[0], &ts, &err);
    b->nrows = 1;
    chv_pq_writer *w;
    const char *p96 = tmp_file("int96.parquet");
    CHV_REQUIRE_OK(
        chv_pq_writer_open(chv_fs_local(), p96, schema, &o, &w, &err), &err);
    CHV_CHECK_OK(chv_pq_writer_write(w, b, &err), &err);
    CHV_CHECK_OK(chv_pq_writer_finish(w, NULL, &err), &err);
    chv_pq_writer_close(w);
    CHV_REQUIRE_OK(load(p96, &f, &err), &err);
    CHV_REQUIRE_OK(decode_chunk(&f, 0, 0, &d, &err), &err);
    uint64_t nod;
    uint32_t jd;
    memcpy(&nod, d.vals.data, 8);
    memcpy(&jd, d.vals.data + 8, 4);
    CHV_CHECK_EQ_INT(jd, cases[k].jd);
    CHV_CHECK_EQ_INT(nod, cases[k].nod);
    dcol_free(&d);
    unload(&f);
    chv_batch_close(b);
    chv_type_free(schema);
  }
}

/* array<int> and map<string,struct<a:int>> rows with NULLs at each level. */
static int fill_nested(struct chv_batch *b, int r, struct chv_error *err) {
  struct chv_vector *a = b->cols[0], *m = b->cols[1];
  struct chv_vector *el = a->children[0];
  int32_t one = 1, two = 2;
  switch (r) {
  case 0: /* NULL list, NULL map */
    CHV_RETURN_IF_ERR(chv_vector_append_null(a, err));
    return chv_vector_append_null(m, err);
  case 1: /* [], {} */
    CHV_RETURN_IF_ERR(chv_vector_append_nested(a, err));
    return chv_vector_append_nested(m, err);
  case 2: /* [NULL], {"k": NULL} */
    CHV_RETURN_IF_ERR(chv_vector_append_null(el, err));
    CHV_RETURN_IF_ERR(chv_vector_append_nested(a, err));
    CHV_RETURN_IF_ERR(put_s(m->children[0], "k", err));
    CHV_RETURN_IF_ERR(chv_vector_append_null(m->children[1], err));
    return chv_vector_append_nested(m, err);
  default: /* [1, 2], {"k": {a: NULL}, "l": {a: 1}} */
    CHV_RETURN_IF_ERR(chv_vector_append_value(el, &one, err));
    CHV_RETURN_IF_ERR(chv_vector_append_value(el, &two, err));
    CHV_RETURN_IF_ERR(chv_vector_append_nested(a, err));
    CHV_RETURN_IF_ERR(put_s(m->children[0], "k", err));
    CHV_RETURN_IF_ERR(chv_vector_append_null(m->children[1]->children[0], err));
    CHV_RETURN_IF_ERR(chv_vector_append_nested(m->children[1], err));
    CHV_RETURN_IF_ERR(put_s(m->children[0], "l", err));
    CHV_RETURN_IF_ERR(
        chv_vector_append_value(m->children[1]->children[0], &one, err));
    CHV_RETURN_IF_ERR(chv_vector_append_nested(m->children[1], err));
    return chv_vector_append_nested(m, err);
  }
}

static void check_levels(const struct dcol *d, const uint32_t *def,
                         const uint32_t *rep, int n) {
  CHV_REQUIRE(d->n == n);
  for (int k = 0; k < n; k++) {
    if (d->def[k] != def[k] || d->rep[k] != rep[k])
      fprintf(stderr, "level %d: def %u rep %u, expected %u %u\n", k, d->def[k],
              d->rep[k], def[k], rep[k]);
    CHV_CHECK(d->def[k] == def[k] && d->rep[k] == rep[k]);
  }
}

static void test_levels(void) {
  for (int v2 = 0; v2 < 2; v2++) {
    struct chv_error err;
    const char *path = tmp_file("levels.parquet");
    struct chv_pq_write_options o;
    chv_pq_write_options_init(&o);
    o.data_page_v2 = v2;
    CHV_REQUIRE_OK(write_file(path, "a array<int>, m map<string,struct<a:int>>",
                              fill_nested, 4, 4, &o, NULL, &err),
                   &err);
    struct wfile f;
    CHV_REQUIRE_OK(load(path, &f, &err), &err);
    struct dcol d;
    CHV_REQUIRE_OK(decode_chunk(&f, 0, 0, &d, &err), &err);
    check_levels(&d, (const uint32_t[]){0, 1, 2, 3, 3},
                 (const uint32_t[]){0, 0, 0, 0, 1}, 5);
    CHV_CHECK(d.nv == 2);
    CHV_CHECK(f.m->row_groups[0].columns[0].meta_data->statistics.null_count ==
              3);
    dcol_free(&d);
    /* map keys: required, so present entries have def 2 */
    CHV_REQUIRE_OK(decode_chunk(&f, 0, 1, &d, &err), &err);
    check_levels(&d, (const uint32_t[]){0, 1, 2, 2, 2},
                 (const uint32_t[]){0, 0, 0, 0, 1}, 5);
    dcol_free(&d);
    /* m.key_value.value.a: value optional (3), a optional (4) */
    CHV_REQUIRE_OK(decode_chunk(&f, 0, 2, &d, &err), &err);
    check_levels(&d, (const uint32_t[]){0, 1, 2, 3, 4},
                 (const uint32_t[]){0, 0, 0, 0, 1}, 5);
    CHV_CHECK(d.nv == 1);
    dcol_free(&d);
    unload(&f);
  }
}

/* Statistics: orders and edge cases. */
static int fill_stats(struct chv_batch *b, int r, struct chv_error *err) {
  struct chv_vector **c = b->cols;
  /* i int: -5, 3, NULL, 7; s string: "b", "\xff", NULL, "a";
  ** d decimal(10,2): -300, 2, NULL, -1; f float: NaN always;
  ** z double: 0.0, -0.0, NULL, 0.0; t timestamp (no min/max) */
  static const int32_t iv[] = {-5, 3, 0, 7};
  static const char *sv[] = {"b", "\xff", NULL, "a"};
  static const int64_t dv[] = {-300, 2, 0, -1};
  static const double zv[] = {0.0, -0.0, 0, 0.0};
  if (r == 2) {
    for (int k = 0; k < b->ncols; k++)
      if (k != 3) CHV_RETURN_IF_ERR(chv_vector_append_null(c[k], err));
    float nan = NAN;
    return chv_vector_append_value(c[3], &nan, err);
  }
  CHV_RETURN_IF_ERR(chv_vector_append_value(c[0], &iv[r], err));
  CHV_RETURN_IF_ERR(put_s(c[1], sv[r], err));
  chv_i128 dd = dv[r];
  CHV_RETURN_IF_ERR(chv_vector_append_value(c[2], &dd, err));
  float nan = NAN;
  CHV_RETURN_IF_ERR(chv_vector_append_value(c[3], &nan, err));
  CHV_RETURN_IF_ERR(chv_vector_append_value(c[4], &zv[r], err));
  struct chv_timestamp ts = {r, 0, 0};
  CHV_RETURN_IF_ERR(chv_vector_append_value(c[5], &ts, err));
  bool bv = r == 1;
  return chv_vector_append_value(c[6], &bv, err);
}

static void test_statistics(void) {
  struct chv_error err;
  const char *path = tmp_file("stats.parquet");
  CHV_REQUIRE_OK(write_file(path,
                            "i int, s string, d decimal(10,2), f float, "
                            "z double, t timestamp, b boolean",
                            fill_stats, 4, 4, NULL, NULL, &err),
                 &err);
  struct wfile f;
  CHV_REQUIRE_OK(load(path, &f, &err), &err);
  const struct chv_pq_column_chunk *cc = f.m->row_groups[0].columns;
  const struct chv_pq_statistics *s = &cc[0].meta_data->statistics;
  int32_t lo, hi;
  CHV_REQUIRE(s->has_min_value && s->has_max_value && s->min_value.len == 4);
  memcpy(&lo, s->min_value.data, 4);
  memcpy(&hi, s->max_value.data, 4);
  CHV_CHECK(lo == -5 && hi == 7 && s->null_count == 1);
  CHV_CHECK(s->has_min && s->has_max && s->min.len == 4 &&
            memcmp(s->min.data, s->min_value.data, 4) == 0);
  CHV_CHECK(s->has_is_min_value_exact && s->is_min_value_exact &&
            s->is_max_value_exact);
  /* strings: unsigned byte order; no deprecated min/max */
  s = &cc[1].meta_data->statistics;
  CHV_CHECK(s->has_min_value && s->min_value.len == 1 &&
            s->min_value.data[0] == 'a');
  CHV_CHECK(s->max_value.len == 1 && s->max_value.data[0] == 0xff);
  CHV_CHECK(!s->has_min && !s->has_max && s->null_count == 1);
  /* decimals: signed, big-endian in the FLBA width (5 bytes) */
  s = &cc[2].meta_data->statistics;
  CHV_REQUIRE(s->has_min_value && s->min_value.len == 5);
  CHV_CHECK(memcmp(s->min_value.data, "\xff\xff\xff\xfe\xd4", 5) ==
            0); /* -300 */
  CHV_CHECK(memcmp(s->max_value.data, "\x00\x00\x00\x00\x02", 5) == 0);
  CHV_CHECK(s->has_min);
  /* floats: NaN only: no min/max, null count still there */
  s = &cc[3].meta_data->statistics;
  CHV_CHECK(!s->has_min_value && !s->has_max_value && !s->has_min &&
            s->has_null_count && s->null_count == 0);
  /* zeros: -0.0 as min, +0.0 as max */
  s = &cc[4].meta_data->statistics;
  double dlo, dhi;
  CHV_REQUIRE(s->has_min_value && s->min_value.len == 8);
  memcpy(&dlo, s->min_value.data, 8);
  memcpy(&dhi, s->max_value.data, 8);
  CHV_CHECK(dlo == 0 && signbit(dlo) && dhi == 0 && !signbit(dhi));
  /* INT96: no order, no min/max */
  s = &cc[5].meta_data->statistics;
  CHV_CHECK(!s->has_min_value && !s->has_min && s->null_count == 1);
  /* booleans: false < true */
  s = &cc[6].meta_data->statistics;
  CHV_CHECK(s->has_min_value && s->min_value.len == 1 &&
            s->min_value.data[0] == 0 && s->max_value.data[0] == 1);
  /* Page statistics repeat them (one page each here). */
  struct dcol d;
  CHV_REQUIRE_OK(decode_chunk(&f, 0, 0, &d, &err), &err);
  CHV_CHECK(d.ndata == 1 && d.pstats[0].has_min_value &&
            d.pstats[0].null_count == 1);
  memcpy(&lo, d.pstats[0].min_value.data, 4);
  CHV_CHECK(lo == -5);
  dcol_free(&d);
  unload(&f);
}

/* Many rows: row groups and pages bounded by their sizes. */
static int fill_many(struct chv_batch *b, int r, struct chv_error *err) {
  int64_t l = (int64_t)r * 7919;
  CHV_RETURN_IF_ERR(chv_vector_append_value(b->cols[0], &l, err));
  char s[64];
  snprintf(s, sizeof s, "row %d %x", r, (unsigned)(r * 2654435761u));
  CHV_RETURN_IF_ERR(put_s(b->cols[1], s, err));
  /* a few values repeated: a dictionary */
  static const char *cat[] = {"red", "green", "blue"};
  CHV_RETURN_IF_ERR(put_s(b->cols[2], cat[r % 3], err));
  struct chv_vector *a = b->cols[3];
  for (int k = 0; k < r % 4; k++) {
    int32_t x = r + k;
    CHV_RETURN_IF_ERR(chv_vector_append_value(a->children[0], &x, err));
  }
  return chv_vector_append_nested(a, err);
}

static void test_row_groups(void) {
  for (int v2 = 0; v2 < 2; v2++) {
    struct chv_error err;
    const char *path = tmp_file("many.parquet");
    struct chv_pq_write_options o;
    chv_pq_write_options_init(&o);
    chv_pq_write_options_set(&o, "parquet.block.size", "100k", &err);
    chv_pq_write_options_set(&o, "parquet.page.size", "4k", &err);
    o.data_page_v2 = v2;
    struct chv_pq_write_stats st;
    const int rows = 20000;
    CHV_REQUIRE_OK(write_file(path,
                              "l bigint, s string, c string, a array<int>",
                              fill_many, rows, 1000, &o, &st, &err),
                   &err);
    struct wfile f;
    CHV_REQUIRE_OK(load(path, &f, &err), &err);
    CHV_CHECK(f.m->nrow_groups >= 3 && f.m->nrow_groups == st.row_groups);
    int64_t total = 0, raw = 0;
    for (int g = 0; g < f.m->nrow_groups; g++) {
      const struct chv_pq_row_group *rg = &f.m->row_groups[g];
      total += rg->num_rows;
      raw += rg->total_byte_size;
      CHV_CHECK(rg->ordinal == g);
      /* a row group stops near the block size: its pages as stored stay
      ** within about one run of rows beyond it */
      CHV_CHECK(rg->total_compressed_size < 2 * 100 * 1024);
      for (int c = 0; c < rg->ncolumns; c++) {
        struct dcol d;
        CHV_REQUIRE_OK(decode_chunk(&f, g, c, &d, &err), &err);
        /* pages end near the page size (levels are estimated) */
        CHV_CHECK(d.max_page_usize < 4096 + 1024);
        CHV_CHECK(d.crc_ok && d.ncrc == d.ndata + d.ndict);
        if (c < 3) CHV_CHECK(d.n == rg->num_rows);
        dcol_free(&d);
      }
    }
    CHV_CHECK(total == rows && st.rows == rows && raw == st.raw_bytes);
    CHV_CHECK(st.file_bytes == (int64_t)f.len && st.buffered_bytes == 0);
    unload(&f);

    /* parquet.page.row.count.limit */
    chv_pq_write_options_init(&o);
    o.page_row_limit = 300;
    o.data_page_v2 = v2;
    CHV_REQUIRE_OK(write_file(path,
                              "l bigint, s string, c string, a array<int>",
                              fill_many, 1000, 128, &o, &st, &err),
                   &err);
    CHV_REQUIRE_OK(load(path, &f, &err), &err);
    for (int c = 0; c < 4; c++) {
      struct dcol d;
      CHV_REQUIRE_OK(decode_chunk(&f, 0, c, &d, &err), &err);
      CHV_CHECK(d.max_page_rows <= 300 && d.ndata >= 4);
      dcol_free(&d);
    }
    unload(&f);
  }
}

static void test_dictionary(void) {
  struct chv_error err;
  const char *path = tmp_file("dict.parquet");
  for (int v2 = 0; v2 < 2; v2++) {
    struct chv_pq_write_options o;
    chv_pq_write_options_init(&o);
    o.data_page_v2 = v2;
    o.page_row_limit = 500;
    o.dictionary_page_size = 4000;
    CHV_REQUIRE_OK(write_file(path,
                              "l bigint, s string, c string, a array<int>",
                              fill_many, 3000, 500, &o, NULL, &err),
                   &err);
    struct wfile f;
    CHV_REQUIRE_OK(load(path, &f, &err), &err);
    const struct chv_pq_column_chunk *cc = f.m->row_groups[0].columns;
    int32_t dict_enc =
        v2 ? CHV_PQ_ENC_RLE_DICTIONARY : CHV_PQ_ENC_PLAIN_DICTIONARY;
    /* c: three values, dictionary throughout */
    struct dcol d;
    CHV_REQUIRE_OK(decode_chunk(&f, 0, 2, &d, &err), &err);
    CHV_CHECK(d.ndict == 1 && d.ndata == 6);
    for (int k = 0; k < d.ndata; k++)
      CHV_CHECK(d.enc[k] == dict_enc);
    CHV_CHECK(d.nv == 3000 && memcmp(d.heap.data + d.off[4], "green", 5) == 0);
    const struct chv_pq_column_meta *cm = cc[2].meta_data;
    CHV_CHECK(cm->has_dictionary_page_offset &&
              cm->dictionary_page_offset < cm->data_page_offset);
    CHV_REQUIRE(cm->nencoding_stats == 2);
    CHV_CHECK(cm->encoding_stats[0].page_type == CHV_PQ_PAGE_DICTIONARY_PAGE &&
              cm->encoding_stats[0].encoding ==
                  (v2 ? CHV_PQ_ENC_PLAIN : CHV_PQ_ENC_PLAIN_DICTIONARY) &&
              cm->encoding_stats[0].count == 1);
    CHV_CHECK(cm->encoding_stats[1].encoding == dict_enc &&
              cm->encoding_stats[1].count == 6);
    dcol_free(&d);
    /* s: every value new; the first page shows the dictionary does not
    ** pay: plain (v2: DELTA_BYTE_ARRAY), no dictionary page */
    CHV_REQUIRE_OK(decode_chunk(&f, 0, 1, &d, &err), &err);
    CHV_CHECK(d.ndict == 0 && !cc[1].meta_data->has_dictionary_page_offset);
    for (int k = 0; k < d.ndata; k++)
      CHV_CHECK(d.enc[k] ==
                (v2 ? CHV_PQ_ENC_DELTA_BYTE_ARRAY : CHV_PQ_ENC_PLAIN));
    CHV_CHECK(d.nv == 3000 &&
              memcmp(d.heap.data + d.off[2999], "row 2999", 8) == 0);
    dcol_free(&d);
    /* l bigint: v2 without dictionary is DELTA_BINARY_PACKED */
    CHV_REQUIRE_OK(decode_chunk(&f, 0, 0, &d, &err), &err);
    int64_t x;
    memcpy(&x, d.vals.data + 8 * 2999, 8);
    CHV_CHECK(x == 2999LL * 7919);
    for (int k = 0; k < d.ndata; k++)
      CHV_CHECK(d.enc[k] ==
                (v2 ? CHV_PQ_ENC_DELTA_BINARY_PACKED : CHV_PQ_ENC_PLAIN));
    dcol_free(&d);
    unload(&f);
  }
}

/* Dictionary pages first, plain pages after the dictionary overflows. */
static int fill_fallback(struct chv_batch *b, int r, struct chv_error *err) {
  char s[32];
  if (r < 1000)
    snprintf(s, sizeof s, "v%d", r % 10);
  else
    snprintf(s, sizeof s, "unique-%d", r);
  return put_s(b->cols[0], s, err);
}

static void test_fallback(void) {
  struct chv_error err;
  const char *path = tmp_file("fallback.parquet");
  for (int v2 = 0; v2 < 2; v2++) {
    struct chv_pq_write_options o;
    chv_pq_write_options_init(&o);
    o.data_page_v2 = v2;
    o.page_row_limit = 200;
    o.dictionary_page_size = 1000;
    CHV_REQUIRE_OK(
        write_file(path, "s string", fill_fallback, 3000, 100, &o, NULL, &err),
        &err);
    struct wfile f;
    CHV_REQUIRE_OK(load(path, &f, &err), &err);
    struct dcol d;
    CHV_REQUIRE_OK(decode_chunk(&f, 0, 0, &d, &err), &err);
    int32_t dict_enc =
        v2 ? CHV_PQ_ENC_RLE_DICTIONARY : CHV_PQ_ENC_PLAIN_DICTIONARY;
    int32_t plain = v2 ? CHV_PQ_ENC_DELTA_BYTE_ARRAY : CHV_PQ_ENC_PLAIN;
    /* Pages of v0..v9 and one that filled the dictionary, then plain
    ** pages: 200 rows each, the dictionary ends within the 6th. */
    CHV_CHECK(d.ndict == 1 && d.ndata == 16);
    for (int k = 0; k < d.ndata; k++)
      CHV_CHECK(d.enc[k] == (k < 6 ? dict_enc : plain));
    CHV_REQUIRE(d.nv == 3000);
    for (int r = 0; r < 3000; r += 7) {
      char s[32];
      if (r < 1000)
        snprintf(s, sizeof s, "v%d", r % 10);
      else
        snprintf(s, sizeof s, "unique-%d", r);
      CHV_CHECK((size_t)(d.off[r + 1] - d.off[r]) == strlen(s) &&
                memcmp(d.heap.data + d.off[r], s, strlen(s)) == 0);
    }
    const struct chv_pq_column_meta *cm =
        f.m->row_groups[0].columns[0].meta_data;
    CHV_CHECK(cm->nencodings == (v2 ? 4 : 3)); /* v2: PLAIN dictionary page */
    dcol_free(&d);
    unload(&f);
  }
}

/* ---- rejected input ----------------------------------------------------- */

static chv_pq_writer *open_writer(const char *columns, struct chv_type **schema,
                                  const struct chv_pq_write_options *o,
                                  const char *path) {
  struct chv_error err;
  if (chv_type_parse_columns(columns, schema, &err)) return NULL;
  chv_pq_writer *w = NULL;
  if (chv_pq_writer_open(chv_fs_local(), path, *schema, o, &w, &err)) {
    fprintf(stderr, "open: %s\n", err.msg);
    return NULL;
  }
  return w;
}

static void test_bad_batches(void) {
  struct chv_error err;
  const char *path = tmp_file("bad.parquet");
  struct chv_type *schema, *other;
  chv_pq_writer *w = open_writer("d decimal(5,2), s string, a array<int>, "
                                 "m map<string,int>",
                                 &schema, NULL, path);
  CHV_REQUIRE(w != NULL);
  struct chv_batch *b;
  CHV_REQUIRE_OK(chv_batch_open(schema, 4, &b, &err), &err);
  chv_i128 d = 12345;
  int32_t one = 1;
  CHV_CHECK_OK(chv_vector_append_value(b->cols[0], &d, &err), &err);
  CHV_CHECK_OK(put_s(b->cols[1], "x", &err), &err);
  CHV_CHECK_OK(chv_vector_append_value(b->cols[2]->children[0], &one, &err),
               &err);
  CHV_CHECK_OK(chv_vector_append_nested(b->cols[2], &err), &err);
  CHV_CHECK_OK(put_s(b->cols[3]->children[0], "k", &err), &err);
  CHV_CHECK_OK(chv_vector_append_value(b->cols[3]->children[1], &one, &err),
               &err);
  CHV_CHECK_OK(chv_vector_append_nested(b->cols[3], &err), &err);
  b->nrows = 1;
  CHV_CHECK_OK(chv_pq_writer_write(w, b, &err), &err);

  /* Another schema. */
  chv_type_parse_columns(
      "d decimal(5,3), s string, a array<int>, m map<string,int>", &other,
      &err);
  const struct chv_type *keep = b->schema;
  b->schema = other;
  CHV_CHECK_EQ_INT(chv_pq_writer_write(w, b, &err), CHV_ETYPE);
  CHV_CHECK_CONTAINS(err.msg, "schema");
  b->schema = keep;
  chv_type_free(other);
  /* Too few rows in a vector. */
  b->nrows = 2;
  CHV_CHECK_EQ_INT(chv_pq_writer_write(w, b, &err), CHV_ETYPE);
  CHV_CHECK_CONTAINS(err.msg, "fewer rows");
  b->nrows = 1;
  /* String offsets past the heap. */
  int32_t save = b->cols[1]->offsets[1];
  b->cols[1]->offsets[1] = 1000;
  CHV_CHECK_EQ_INT(chv_pq_writer_write(w, b, &err), CHV_ETYPE);
  CHV_CHECK_CONTAINS(err.msg, "column s");
  b->cols[1]->offsets[1] = save;
  /* List offsets going backwards; a list child past its vector. */
  b->cols[2]->offsets[1] = -1;
  CHV_CHECK_EQ_INT(chv_pq_writer_write(w, b, &err), CHV_ETYPE);
  b->cols[2]->offsets[1] = 5;
  CHV_CHECK_EQ_INT(chv_pq_writer_write(w, b, &err), CHV_ETYPE);
  b->cols[2]->offsets[1] = 1;
  /* A missing buffer. */
  void *data = b->cols[0]->data;
  b->cols[0]->data = NULL;
  CHV_CHECK_EQ_INT(chv_pq_writer_write(w, b, &err), CHV_ETYPE);
  b->cols[0]->data = data;
  /* A decimal beyond its precision: ERANGE naming the column; nothing of
  ** the batch is written and the writer goes on. */
  ((chv_i128 *)b->cols[0]->data)[0] = 100000;
  CHV_CHECK_EQ_INT(chv_pq_writer_write(w, b, &err), CHV_ERANGE);
  CHV_CHECK_CONTAINS(err.msg, "column d");
  CHV_CHECK_CONTAINS(err.msg, "1000.00 does not fit decimal(5,2)");
  ((chv_i128 *)b->cols[0]->data)[0] = -99999;
  /* A NULL map key. */
  CHV_CHECK_OK(chv_vector_set_null(b->cols[3]->children[0], 0, &err), &err);
  CHV_CHECK_EQ_INT(chv_pq_writer_write(w, b, &err), CHV_EINVAL);
  CHV_CHECK_CONTAINS(err.msg, "NULL map key");
  CHV_CHECK_CONTAINS(err.msg, "m.key_value.key");
  chv_vector_set_valid(b->cols[3]->children[0], 0);
  /* No batch. */
  CHV_CHECK_EQ_INT(chv_pq_writer_write(w, NULL, &err), CHV_EINVAL);
  /* Still usable. */
  CHV_CHECK_OK(chv_pq_writer_write(w, b, &err), &err);
  struct chv_pq_write_stats st;
  CHV_CHECK_OK(chv_pq_writer_finish(w, &st, &err), &err);
  CHV_CHECK(st.rows == 2);
  CHV_CHECK_EQ_INT(chv_pq_writer_write(w, b, &err), CHV_EINVAL);
  CHV_CHECK_OK(chv_pq_writer_finish(w, &st, &err), &err); /* again: same */
  chv_pq_writer_close(w);
  struct wfile f;
  CHV_REQUIRE_OK(load(path, &f, &err), &err);
  CHV_CHECK(f.m->num_rows == 2);
  struct dcol dc;
  CHV_REQUIRE_OK(decode_chunk(&f, 0, 0, &dc, &err), &err);
  CHV_CHECK(dc.nv == 2 && memcmp(dc.vals.data + 3, "\xfe\x79\x61", 3) == 0);
  dcol_free(&dc);
  unload(&f);
  chv_batch_close(b);
  chv_type_free(schema);

  /* Timestamps outside their encoding's range. */
  struct chv_pq_write_options o;
  chv_pq_write_options_init(&o);
  o.timestamp_int64 = true;
  o.timestamp_unit = CHV_PQ_TS_NANOS;
  w = open_writer("ts timestamp, a array<timestamp>", &schema, &o, path);
  CHV_REQUIRE(w != NULL);
  CHV_REQUIRE_OK(chv_batch_open(schema, 4, &b, &err), &err);
  struct chv_timestamp ok = {0, 5, 0};
  struct chv_timestamp late = {(int64_t)chv_date_from_ymd(2300, 1, 1) * 86400,
                               0, 0};
  chv_vector_append_value(b->cols[0], &ok, &err);
  chv_vector_append_value(b->cols[1]->children[0], &late, &err);
  chv_vector_append_nested(b->cols[1], &err);
  b->nrows = 1;
  CHV_CHECK_EQ_INT(chv_pq_writer_write(w, b, &err), CHV_ERANGE);
  CHV_CHECK_CONTAINS(err.msg, "a.bag.array_element");
  CHV_CHECK_CONTAINS(err.msg, "nanoseconds");
  ((struct chv_timestamp *)b->cols[1]->children[0]->data)[0].nanos = 1000000000;
  ((struct chv_timestamp *)b->cols[1]->children[0]->data)[0].seconds = 0;
  CHV_CHECK_EQ_INT(chv_pq_writer_write(w, b, &err), CHV_ERANGE);
  ((struct chv_timestamp *)b->cols[1]->children[0]->data)[0].nanos = 0;
  CHV_CHECK_OK(chv_pq_writer_write(w, b, &err), &err);
  CHV_CHECK_OK(chv_pq_writer_finish(w, NULL, &err), &err);
  chv_pq_writer_close(w);
  chv_batch_close(b);
  chv_type_free(schema);
}

static void test_bad_schemas(void) {
  struct chv_error err;
  struct chv_type *t;
  chv_pq_writer *w = NULL;
  const char *path = tmp_file("s.parquet");
  /* No columns. */
  CHV_REQUIRE_OK(chv_type_new(CHV_TYPE_STRUCT, &t), NULL);
  CHV_CHECK_EQ_INT(chv_pq_writer_open(chv_fs_local(), path, t, NULL, &w, &err),
                   CHV_EINVAL);
  /* An empty struct column. */
  struct chv_type *e;
  chv_type_new(CHV_TYPE_STRUCT, &e);
  chv_type_struct_add(t, "e", e);
  CHV_CHECK_EQ_INT(chv_pq_writer_open(chv_fs_local(), path, t, NULL, &w, &err),
                   CHV_ENOTSUP);
  CHV_CHECK_CONTAINS(err.msg, "column e");
  chv_type_free(t);
  /* Not a struct. */
  chv_type_parse("int", &t, &err);
  CHV_CHECK_EQ_INT(chv_pq_writer_open(chv_fs_local(), path, t, NULL, &w, &err),
                   CHV_EINVAL);
  chv_type_free(t);
  /* Nesting beyond 64 Parquet levels: 33 lists (66 levels). */
  char text[1024] = "a ";
  for (int k = 0; k < 33; k++)
    strcat(text, "array<");
  strcat(text, "int");
  for (int k = 0; k < 33; k++)
    strcat(text, ">");
  CHV_REQUIRE_OK(chv_type_parse_columns(text, &t, &err), &err);
  CHV_CHECK_EQ_INT(chv_pq_writer_open(chv_fs_local(), path, t, NULL, &w, &err),
                   CHV_ENOTSUP);
  CHV_CHECK_CONTAINS(err.msg, "deeper");
  chv_type_free(t);
  /* 31 lists fit (63 levels) and the file reads back. */
  strcpy(text, "a ");
  for (int k = 0; k < 31; k++)
    strcat(text, "array<");
  strcat(text, "int");
  for (int k = 0; k < 31; k++)
    strcat(text, ">");
  CHV_REQUIRE_OK(chv_type_parse_columns(text, &t, &err), &err);
  CHV_CHECK_OK(chv_pq_writer_open(chv_fs_local(), path, t, NULL, &w, &err),
               &err);
  CHV_CHECK_OK(chv_pq_writer_finish(w, NULL, &err), &err);
  chv_pq_writer_close(w);
  struct wfile f;
  CHV_CHECK_OK(load(path, &f, &err), &err);
  unload(&f);
  chv_type_free(t);
  /* A folder that does not exist. */
  chv_type_parse_columns("a int", &t, &err);
  CHV_CHECK_EQ_INT(chv_pq_writer_open(chv_fs_local(),
                                      "/nonexistent/dir/x.parquet", t, NULL, &w,
                                      &err),
                   CHV_ENOENT);
  chv_type_free(t);
}

static int fill_none(struct chv_batch *b, int r, struct chv_error *err) {
  (void)b;
  (void)r;
  (void)err;
  return 0;
}

static void test_empty(void) {
  struct chv_error err;
  const char *path = tmp_file("empty.parquet");
  struct chv_pq_write_stats st;
  CHV_REQUIRE_OK(
      write_file(path, "a int, s string", fill_none, 0, 1, NULL, &st, &err),
      &err);
  CHV_CHECK(st.rows == 0 && st.row_groups == 0 && st.raw_bytes == 0);
  struct wfile f;
  CHV_REQUIRE_OK(load(path, &f, &err), &err);
  CHV_CHECK(f.m->nrow_groups == 0 && f.m->num_rows == 0 && f.m->nleaves == 2);
  unload(&f);
}

/* A file system whose writes fail once a number of bytes went through. */
static int64_t fs_bytes_left;
static struct chv_fs failing_fs;

static int failing_write(struct chv_file *f, const void *buf, size_t n,
                         struct chv_error *err) {
  if ((int64_t)n > fs_bytes_left)
    return chv_error_set(err, CHV_EIO, "write %s: disk full", f->path);
  fs_bytes_left -= (int64_t)n;
  return chv_fs_local()->write(f, buf, n, err);
}

static int failing_create(const struct chv_fs *fs, const char *path, bool excl,
                          struct chv_file **out, struct chv_error *err) {
  CHV_RETURN_IF_ERR(
      chv_fs_local()->create(chv_fs_local(), path, excl, out, err));
  (*out)->fs = fs;
  return CHV_OK;
}

static void test_write_failure(void) {
  failing_fs = *chv_fs_local();
  failing_fs.write = failing_write;
  failing_fs.create = failing_create;
  struct chv_error err;
  struct chv_type *schema;
  chv_type_parse_columns("l bigint, s string, c string, a array<int>", &schema,
                         &err);
  struct chv_pq_write_options o;
  chv_pq_write_options_init(&o);
  o.block_size = 300 << 10; /* row groups (and writes) while rows come */
  o.codec = CHV_PQ_CODEC_UNCOMPRESSED;
  static const int64_t limits[] = {0, 100000, 1500000, 3000000};
  for (size_t k = 0; k < CHV_ARRAY_SIZE(limits); k++) {
    fs_bytes_left = limits[k];
    chv_pq_writer *w;
    CHV_REQUIRE_OK(chv_pq_writer_open(&failing_fs, tmp_file("fail.parquet"),
                                      schema, &o, &w, &err),
                   &err);
    struct chv_batch *b;
    chv_batch_open(schema, 1000, &b, &err);
    int rc = CHV_OK, calls = 0;
    for (int q = 0; q < 200 && rc == CHV_OK; q++, calls++) {
      chv_batch_reset(b);
      for (int r = 0; r < 1000; r++)
        fill_many(b, q * 1000 + r, &err);
      b->nrows = 1000;
      rc = chv_pq_writer_write(w, b, &err);
    }
    if (rc == CHV_OK) rc = chv_pq_writer_finish(w, NULL, &err);
    CHV_CHECK_EQ_INT(rc, CHV_EIO);
    CHV_CHECK_CONTAINS(err.msg, "disk full");
    if (k >= 2) CHV_CHECK(calls > 1 && calls < 200); /* failed in write() */
    /* Broken from now on. */
    CHV_CHECK_EQ_INT(chv_pq_writer_write(w, b, &err), CHV_EIO);
    CHV_CHECK_CONTAINS(err.msg, "failed earlier");
    CHV_CHECK_EQ_INT(chv_pq_writer_finish(w, NULL, &err), CHV_EIO);
    chv_pq_writer_close(w);
    chv_batch_close(b);
  }
  chv_type_free(schema);
}

static void test_oom(void) {
  struct chv_error err;
  const char *path = tmp_file("oom.parquet");
  struct chv_pq_write_options o;
  chv_pq_write_options_init(&o);
  o.block_size = 1500;
  o.page_row_limit = 7;
  int k;
  for (k = 1; k < 100000; k++) {
    chv_alloc_fail_after(k);
    int rc = write_file(path, every_type, fill_every, 12, 5, &o, NULL, &err);
    chv_alloc_fail_after(0);
    if (rc == CHV_OK) break;
    if (rc != CHV_ENOMEM) {
      fprintf(stderr, "allocation %d: %d %s\n", k, rc, err.msg);
      CHV_CHECK_EQ_INT(rc, CHV_ENOMEM);
      break;
    }
  }
  CHV_CHECK(k > 50 && k < 100000);
  struct wfile f;
  CHV_REQUIRE_OK(load(path, &f, &err), &err);
  CHV_CHECK(f.m->num_rows == 12 && f.m->nrow_groups >= 1);
  unload(&f);
}

/* Metadata given by the caller, and a caller's key replacing ours. */
static void test_metadata(void) {
  struct chv_error err;
  const char *path = tmp_file("kv.parquet");
  struct chv_pq_write_options o;
  chv_pq_write_options_init(&o);
  struct chv_pq_write_kv kv[] = {{"writer.time.zone", "Europe/Paris"},
                                 {"flink.job", "x"},
                                 {"novalue", NULL}};
  o.metadata = kv;
  o.nmetadata = 3;
  CHV_REQUIRE_OK(write_file(path, "a int", fill_none, 0, 1, &o, NULL, &err),
                 &err);
  struct wfile f;
  CHV_REQUIRE_OK(load(path, &f, &err), &err);
  CHV_REQUIRE(f.m->nkv == 4);
  CHV_CHECK_STREQ(f.m->kv[0].key, "writer.date.proleptic");
  CHV_CHECK_STREQ(f.m->kv[1].key, "writer.time.zone");
  CHV_CHECK_STREQ(f.m->kv[1].value, "Europe/Paris");
  CHV_CHECK_STREQ(f.m->kv[2].value, "x");
  CHV_CHECK(f.m->kv[3].value == NULL);
  unload(&f);
}

/* Every codec round-trips its pages. */
static void test_codecs(void) {
  static const int codecs[] = {CHV_PQ_CODEC_UNCOMPRESSED, CHV_PQ_CODEC_SNAPPY,
                               CHV_PQ_CODEC_GZIP,         CHV_PQ_CODEC_BROTLI,
                               CHV_PQ_CODEC_ZSTD,         CHV_PQ_CODEC_LZ4_RAW};
  for (size_t k = 0; k < CHV_ARRAY_SIZE(codecs); k++)
    for (int v2 = 0; v2 < 2; v2++) {
      struct chv_error err;
      const char *path = tmp_file("codec.parquet");
      struct chv_pq_write_options o;
      chv_pq_write_options_init(&o);
      o.codec = codecs[k];
      o.data_page_v2 = v2;
      o.page_row_limit = 100;
      o.zstd_level = 5;
      o.gzip_level = 9;
      CHV_REQUIRE_OK(write_file(path,
                                "l bigint, s string, c string, a array<int>",
                                fill_many, 700, 300, &o, NULL, &err),
                     &err);
      struct wfile f;
      CHV_REQUIRE_OK(load(path, &f, &err), &err);
      for (int c = 0; c < 4; c++) {
        struct dcol d;
        CHV_CHECK_OK(decode_chunk(&f, 0, c, &d, &err), &err);
        CHV_CHECK(f.m->row_groups[0].columns[c].meta_data->codec == codecs[k]);
        CHV_CHECK(d.crc_ok && d.ndata == 7);
        dcol_free(&d);
      }
      unload(&f);
    }
}

/* ---- round trips through the reader ------------------------------------- */

/* Write nrows rows of `columns` with o, read them back with the table
** schema, and compare both sides' JSON Lines. */
static void round_trip(const char *columns, fill_fn fill, int nrows,
                       const struct chv_pq_write_options *o, const char *what) {
  struct chv_error err;
  struct chv_type *schema;
  CHV_REQUIRE_OK(chv_type_parse_columns(columns, &schema, &err), &err);
  const char *path = tmp_file("rt.parquet");
  struct chv_batch *b;
  CHV_REQUIRE_OK(chv_batch_open(schema, 97, &b, &err), &err);
  chv_pq_writer *w;
  CHV_REQUIRE_OK(chv_pq_writer_open(chv_fs_local(), path, schema, o, &w, &err),
                 &err);
  struct chv_buf want, got;
  chv_buf_init(&want);
  chv_buf_init(&got);
  for (int r = 0; r < nrows;) {
    chv_batch_reset(b);
    int n = 0;
    for (; n < 97 && r < nrows; n++, r++)
      CHV_REQUIRE_OK(fill(b, r, &err), &err);
    b->nrows = n;
    for (int k = 0; k < n; k++)
      chv_jsonl_row(b, k, &want);
    CHV_REQUIRE_OK(chv_pq_writer_write(w, b, &err), &err);
  }
  CHV_REQUIRE_OK(chv_pq_writer_finish(w, NULL, &err), &err);
  chv_pq_writer_close(w);
  chv_batch_close(b);

  struct chv_pq_read_options ro;
  chv_pq_read_options_init(&ro);
  ro.table_schema = schema;
  chv_pq_reader *r;
  CHV_REQUIRE_OK(chv_pq_reader_open(chv_fs_local(), path, &ro, &r, &err), &err);
  CHV_REQUIRE_OK(chv_batch_open(chv_pq_reader_schema(r), 61, &b, &err), &err);
  int64_t n, total = 0;
  int rc;
  while ((rc = chv_pq_reader_next(r, b, &n, &err)) == CHV_OK && n > 0) {
    for (int64_t k = 0; k < n; k++)
      chv_jsonl_row(b, k, &got);
    total += n;
  }
  CHV_CHECK_OK(rc, &err);
  CHV_CHECK_EQ_INT(total, nrows);
  bool same = want.len == got.len &&
              (want.len == 0 || memcmp(want.data, got.data, want.len) == 0);
  if (!same) {
    /* The first row that differs. */
    const char *a = want.data ? want.data : "", *g = got.data ? got.data : "";
    int line = 0;
    while (*a && *g) {
      const char *ea = strchr(a, '\n'), *eg = strchr(g, '\n');
      if (!ea || !eg) break;
      if (ea - a != eg - g || memcmp(a, g, (size_t)(ea - a))) {
        fprintf(stderr, "%s: row %d differs:\n  wrote %.*s\n  read  %.*s\n",
                what, line, (int)(ea - a), a, (int)(eg - g), g);
        break;
      }
      a = ea + 1;
      g = eg + 1;
      line++;
    }
  }
  CHV_CHECK(same);
  chv_buf_free(&want);
  chv_buf_free(&got);
  chv_batch_close(b);
  chv_pq_reader_close(r);
  chv_type_free(schema);
}

static void test_round_trip(void) {
  static const struct {
    const char *name;
    int codec;
    bool v2, dict, ts64;
    int unit;
    int64_t page_rows, dict_size;
  } vs[] = {
      {"default", CHV_PQ_CODEC_SNAPPY, false, true, false, 0, 20000, 1 << 20},
      {"v2", CHV_PQ_CODEC_ZSTD, true, true, false, 0, 20000, 1 << 20},
      {"nodict", CHV_PQ_CODEC_GZIP, false, false, false, 0, 20000, 1 << 20},
      {"v2 nodict", CHV_PQ_CODEC_LZ4_RAW, true, false, false, 0, 20000,
       1 << 20},
      {"small pages", CHV_PQ_CODEC_UNCOMPRESSED, false, true, false, 0, 3,
       1 << 20},
      {"v2 small pages", CHV_PQ_CODEC_BROTLI, true, true, false, 0, 5, 1 << 20},
      {"fallback", CHV_PQ_CODEC_SNAPPY, false, true, false, 0, 50, 300},
      {"v2 fallback", CHV_PQ_CODEC_SNAPPY, true, true, false, 0, 50, 300},
      {"int64 micros", CHV_PQ_CODEC_SNAPPY, false, true, true, CHV_PQ_TS_MICROS,
       20000, 1 << 20},
      {"int64 nanos", CHV_PQ_CODEC_SNAPPY, true, true, true, CHV_PQ_TS_NANOS,
       20000, 1 << 20},
  };
  for (size_t k = 0; k < CHV_ARRAY_SIZE(vs); k++) {
    struct chv_pq_write_options o;
    chv_pq_write_options_init(&o);
    o.codec = vs[k].codec;
    o.data_page_v2 = vs[k].v2;
    o.dictionary = vs[k].dict;
    o.timestamp_int64 = vs[k].ts64;
    if (vs[k].ts64) o.timestamp_unit = vs[k].unit;
    o.page_row_limit = vs[k].page_rows;
    o.dictionary_page_size = vs[k].dict_size;
    o.block_size = 50000;
    round_trip(every_type, fill_every, 400, &o, vs[k].name);
    round_trip("a array<int>, m map<string,struct<a:int>>", fill_nested, 40, &o,
               vs[k].name);
    round_trip("l bigint, s string, c string, a array<int>", fill_many, 3000,
               &o, vs[k].name);
    round_trip("i int, s string, d decimal(10,2), f float, z double, "
               "t timestamp, b boolean",
               fill_stats, 4, &o, vs[k].name);
    round_trip("s string", fill_fallback, 2000, &o, vs[k].name);
  }
}

CHV_TEST_MAIN("pq_writer", test_options, test_schema, test_int64_timestamps,
              test_values, test_levels, test_statistics, test_row_groups,
              test_dictionary, test_fallback, test_bad_batches,
              test_bad_schemas, test_empty, test_write_failure, test_oom,
              test_metadata, test_codecs, test_round_trip)
