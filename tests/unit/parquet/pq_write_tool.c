/*
** pq_write_tool: writes a deterministic table of every Hive type (nested
** ones to several levels, NULLs at each level, empty lists and maps,
** extremes, unicode) with the Parquet writer, and prints the same rows as
** JSON Lines on stdout (chv_jsonl_row), so that tests/peer/pq_write_compat.js
** can check that DuckDB reads back what chive meant to write.
**
**   pq_write_tool OUT [--rows N] [--batch N] [--set KEY=VALUE]...
**                     [--schema flat|all]
**
** --set applies a table property (chv_pq_write_options_set).  stderr gets
** "schema: <columns>" and a line on the row groups written.  Strings of the
** first half of the rows come from a small pool and later ones are all
** different, so a small parquet.dictionary.page.size makes column chunks
** fall back from dictionary to plain encoding part way.
*/
#include "format/parquet/pq_int.h"
#include "format/text/jsonl.h"

#include "chive/parquet.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static const char *all_schema =
    "b boolean, t tinyint, s smallint, i int, l bigint, f float, d double, "
    "m decimal(38,10), m2 decimal(5,2), m3 decimal(18,4), st string, "
    "vc varchar(10), ch char(5), bi binary, dt date, ts timestamp, "
    "ai array<int>, ast array<string>, aal array<array<bigint>>, "
    "ms map<string,int>, mi map<int,array<decimal(9,2)>>, "
    "sx struct<a:int,b:string,c:array<struct<x:bigint,y:map<string,double>>>>, "
    "asq array<struct<p:date,q:timestamp,r:boolean>>";

static const char *flat_schema =
    "b boolean, t tinyint, s smallint, i int, l bigint, f float, d double, "
    "m decimal(38,10), m2 decimal(5,2), st string, vc varchar(10), "
    "ch char(5), bi binary, dt date, ts timestamp";

static uint64_t rng = 88172645463325252ull;
static uint64_t next_rand(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}

static const char *pool[] = {"",
                             "plain",
                             "h\xc3\xa9llo w\xc3\xb6rld",
                             "a\"b",
                             "x,y;z",
                             "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e",
                             "back\\slash",
                             "emoji \xf0\x9f\x98\x80",
                             "  spaced  ",
                             "tab\there"};
#define NPOOL (sizeof pool / sizeof pool[0])

static bool ts_nanos; /* INT64 nanoseconds: keep timestamps in 1678..2261 */
static int nrows_total;

static int die(const char *what, const struct chv_error *err) {
  fprintf(stderr, "pq_write_tool: %s: %s\n", what, err ? err->msg : "");
  return 1;
}

/* ---- values ------------------------------------------------------------- */

static int put_str(struct chv_vector *v, const char *s, struct chv_error *err) {
  return chv_vector_append_string(v, s, strlen(s), err);
}

static const char *row_string(int r, char *buf) {
  if (r < nrows_total / 2) return pool[next_rand() % NPOOL];
  snprintf(buf, 64, "u%d-%llx \xc3\xa4", r,
           (unsigned long long)(next_rand() & 0xffffffffull));
  return buf;
}

static struct chv_timestamp rand_ts(void) {
  struct chv_timestamp ts = {0, 0, 0};
  int y0 = ts_nanos ? 1678 : 1, span = ts_nanos ? 583 : 9999;
  ts.seconds = (int64_t)chv_date_from_ymd(
                   y0 + (int)(next_rand() % (uint64_t)span), 1, 1) *
                   86400 +
               (int64_t)(next_rand() % (365ull * 86400));
  /* Microseconds: what DuckDB keeps of INT96 and INT64 micros. */
  ts.nanos = (int32_t)(next_rand() % 1000000) * 1000;
  if (next_rand() % 3 == 0) ts.nanos = 0;
  return ts;
}

static chv_i128 rand_dec(int digits) {
  chv_i128 lim = 1;
  for (int k = 0; k < digits; k++)
    lim *= 10;
  unsigned __int128 u = (unsigned __int128)next_rand() << 64 | next_rand();
  chv_i128 x = (chv_i128)(u % (unsigned __int128)lim);
  return next_rand() & 1 ? -x : x;
}

/* A nullable value: NULL for about one in `one_in`. */
static bool maybe_null(int one_in) {
  return next_rand() % (uint64_t)one_in == 0;
}

static int add_flat(struct chv_vector **c, int r, struct chv_error *err) {
  bool bv;
  int8_t t;
  int16_t s;
  int32_t i, dt;
  int64_t l;
  float f;
  double d;
  chv_i128 m, m2, m3;
  struct chv_timestamp ts;
  char sbuf[64];
  const char *st, *vc, *ch;
  uint8_t bin[32];
  size_t binlen;
  chv_i128 p38 = 1;
  for (int k = 0; k < 38; k++)
    p38 *= 10;
  if (r == 1 || r == 2) { /* extremes */
    bool lo = r == 1;
    bv = !lo;
    t = lo ? INT8_MIN : INT8_MAX;
    s = lo ? INT16_MIN : INT16_MAX;
    i = lo ? INT32_MIN : INT32_MAX;
    l = lo ? INT64_MIN : INT64_MAX;
    f = lo ? -INFINITY : (float)NAN;
    d = lo ? INFINITY : -0.0;
    m = lo ? -(p38 - 1) : p38 - 1;
    m2 = lo ? -99999 : 99999;
    m3 = lo ? -(chv_i128)999999999999999999ll : 999999999999999999ll;
    st = lo ? "" : pool[5];
    vc = lo ? ""
            : "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
              "\xc3\xa9\xc3\xa9\xc3\xa9";
    ch = lo ? "" : "abcde";
    dt = lo ? chv_date_from_ymd(1, 1, 1) : chv_date_from_ymd(9999, 12, 31);
    int32_t tsd = ts_nanos ? (lo ? chv_date_from_ymd(1678, 1, 1)
                                 : chv_date_from_ymd(2261, 12, 31))
                           : dt;
    ts.seconds = (int64_t)tsd * 86400 + (lo ? 0 : 86399);
    ts.nanos = lo ? 0 : 999999000;
    ts.pad_ = 0;
    binlen = lo ? 0 : 32;
    for (size_t k = 0; k < binlen; k++)
      bin[k] = (uint8_t)(k * 8 + 7);
  } else {
    uint64_t x = next_rand();
    bv = x & 1;
    t = (int8_t)(x >> 8);
    s = (int16_t)(x >> 16) % 100;
    i = (int32_t)(x >> 24);
    l = (int64_t)next_rand();
    if (r % 4 == 0) l = (int64_t)(next_rand() % 16); /* repeats */
    int e = (int)(next_rand() % 80) - 40;
    f = (float)ldexp((double)(next_rand() % 16777216), e - 24);
    if (r % 11 == 0) f = -f;
    d = ldexp((double)(next_rand() >> 11), (int)(next_rand() % 200) - 150);
    if (r % 7 == 0) d = -d;
    if (r % 13 == 0) d = (double)(r % 5);
    m = rand_dec(38);
    m2 = rand_dec(5);
    m3 = rand_dec(18);
    st = row_string(r, sbuf);
    vc = pool[next_rand() % NPOOL];
    ch = r % 3 ? "ab" : "x y";
    dt = chv_date_from_ymd(1 + (int)(next_rand() % 9999), 1, 1) +
         (int32_t)(next_rand() % 365);
    ts = rand_ts();
    binlen = next_rand() % 20;
    for (size_t k = 0; k < binlen; k++)
      bin[k] = (uint8_t)next_rand();
  }
  CHV_RETURN_IF_ERR(chv_vector_append_value(c[0], &bv, err));
  CHV_RETURN_IF_ERR(chv_vector_append_value(c[1], &t, err));
  CHV_RETURN_IF_ERR(chv_vector_append_value(c[2], &s, err));
  CHV_RETURN_IF_ERR(chv_vector_append_value(c[3], &i, err));
  CHV_RETURN_IF_ERR(chv_vector_append_value(c[4], &l, err));
  CHV_RETURN_IF_ERR(chv_vector_append_value(c[5], &f, err));
  CHV_RETURN_IF_ERR(chv_vector_append_value(c[6], &d, err));
  CHV_RETURN_IF_ERR(chv_vector_append_value(c[7], &m, err));
  CHV_RETURN_IF_ERR(chv_vector_append_value(c[8], &m2, err));
  int k = 9;
  if (c[9]->type->id == CHV_TYPE_DECIMAL)
    CHV_RETURN_IF_ERR(chv_vector_append_value(c[k++], &m3, err));
  CHV_RETURN_IF_ERR(put_str(c[k++], st, err));
  CHV_RETURN_IF_ERR(put_str(c[k++], vc, err));
  CHV_RETURN_IF_ERR(put_str(c[k++], ch, err));
  CHV_RETURN_IF_ERR(chv_vector_append_bytes(c[k++], bin, binlen, err));
  CHV_RETURN_IF_ERR(chv_vector_append_value(c[k++], &dt, err));
  CHV_RETURN_IF_ERR(chv_vector_append_value(c[k++], &ts, err));
  return k;
}

/* ai array<int>: NULL, empty, NULL elements. */
static int add_ai(struct chv_vector *v, struct chv_error *err) {
  uint64_t x = next_rand() % 8;
  if (x == 0) return chv_vector_append_null(v, err);
  int n = x == 1 ? 0 : (int)(next_rand() % 5);
  for (int j = 0; j < n; j++) {
    if (maybe_null(5)) {
      CHV_RETURN_IF_ERR(chv_vector_append_null(v->children[0], err));
    } else {
      int32_t e = (int32_t)next_rand();
      CHV_RETURN_IF_ERR(chv_vector_append_value(v->children[0], &e, err));
    }
  }
  return chv_vector_append_nested(v, err);
}

static int add_ast(struct chv_vector *v, int r, struct chv_error *err) {
  if (maybe_null(7)) return chv_vector_append_null(v, err);
  int n = (int)(next_rand() % 4);
  char buf[64];
  for (int j = 0; j < n; j++) {
    if (maybe_null(6))
      CHV_RETURN_IF_ERR(chv_vector_append_null(v->children[0], err));
    else
      CHV_RETURN_IF_ERR(put_str(v->children[0], row_string(r, buf), err));
  }
  return chv_vector_append_nested(v, err);
}

static int add_aal(struct chv_vector *v, struct chv_error *err) {
  if (maybe_null(6)) return chv_vector_append_null(v, err);
  struct chv_vector *inner = v->children[0];
  int n = (int)(next_rand() % 4);
  for (int j = 0; j < n; j++) {
    uint64_t x = next_rand() % 6;
    if (x == 0) {
      CHV_RETURN_IF_ERR(chv_vector_append_null(inner, err));
      continue;
    }
    int m = x == 1 ? 0 : (int)(next_rand() % 4);
    for (int q = 0; q < m; q++) {
      if (maybe_null(5)) {
        CHV_RETURN_IF_ERR(chv_vector_append_null(inner->children[0], err));
      } else {
        int64_t e = (int64_t)next_rand();
        CHV_RETURN_IF_ERR(chv_vector_append_value(inner->children[0], &e, err));
      }
    }
    CHV_RETURN_IF_ERR(chv_vector_append_nested(inner, err));
  }
  return chv_vector_append_nested(v, err);
}

static int add_ms(struct chv_vector *v, struct chv_error *err) {
  uint64_t x = next_rand() % 7;
  if (x == 0) return chv_vector_append_null(v, err);
  int n = x == 1 ? 0 : (int)(next_rand() % 4);
  for (int j = 0; j < n; j++) {
    char key[32];
    snprintf(key, sizeof key, "k%d", j); /* distinct keys */
    CHV_RETURN_IF_ERR(put_str(v->children[0], key, err));
    if (maybe_null(4)) {
      CHV_RETURN_IF_ERR(chv_vector_append_null(v->children[1], err));
    } else {
      int32_t e = (int32_t)(next_rand() % 1000);
      CHV_RETURN_IF_ERR(chv_vector_append_value(v->children[1], &e, err));
    }
  }
  return chv_vector_append_nested(v, err);
}

static int add_mi(struct chv_vector *v, struct chv_error *err) {
  if (maybe_null(5)) return chv_vector_append_null(v, err);
  int n = (int)(next_rand() % 3);
  for (int j = 0; j < n; j++) {
    int32_t key = j * 7 - 3;
    CHV_RETURN_IF_ERR(chv_vector_append_value(v->children[0], &key, err));
    struct chv_vector *val = v->children[1];
    uint64_t x = next_rand() % 5;
    if (x == 0) {
      CHV_RETURN_IF_ERR(chv_vector_append_null(val, err));
      continue;
    }
    int m = x == 1 ? 0 : (int)(next_rand() % 3);
    for (int q = 0; q < m; q++) {
      if (maybe_null(4)) {
        CHV_RETURN_IF_ERR(chv_vector_append_null(val->children[0], err));
      } else {
        chv_i128 d = rand_dec(9);
        CHV_RETURN_IF_ERR(chv_vector_append_value(val->children[0], &d, err));
      }
    }
    CHV_RETURN_IF_ERR(chv_vector_append_nested(val, err));
  }
  return chv_vector_append_nested(v, err);
}

/* sx struct<a:int,b:string,c:array<struct<x:bigint,y:map<string,double>>>> */
static int add_sx(struct chv_vector *v, int r, struct chv_error *err) {
  if (maybe_null(6)) return chv_vector_append_null(v, err);
  struct chv_vector *a = v->children[0], *b = v->children[1],
                    *c = v->children[2];
  if (maybe_null(4)) {
    CHV_RETURN_IF_ERR(chv_vector_append_null(a, err));
  } else {
    int32_t e = (int32_t)next_rand();
    CHV_RETURN_IF_ERR(chv_vector_append_value(a, &e, err));
  }
  char buf[64];
  if (maybe_null(4))
    CHV_RETURN_IF_ERR(chv_vector_append_null(b, err));
  else
    CHV_RETURN_IF_ERR(put_str(b, row_string(r, buf), err));
  uint64_t x = next_rand() % 5;
  if (x == 0) {
    CHV_RETURN_IF_ERR(chv_vector_append_null(c, err));
  } else {
    int n = x == 1 ? 0 : (int)(next_rand() % 3);
    struct chv_vector *el = c->children[0];
    for (int j = 0; j < n; j++) {
      if (maybe_null(5)) {
        CHV_RETURN_IF_ERR(chv_vector_append_null(el, err));
        continue;
      }
      int64_t xv = (int64_t)next_rand() >> (next_rand() % 60);
      if (maybe_null(4))
        CHV_RETURN_IF_ERR(chv_vector_append_null(el->children[0], err));
      else
        CHV_RETURN_IF_ERR(chv_vector_append_value(el->children[0], &xv, err));
      struct chv_vector *y = el->children[1];
      uint64_t z = next_rand() % 4;
      if (z == 0) {
        CHV_RETURN_IF_ERR(chv_vector_append_null(y, err));
      } else {
        int m = z == 1 ? 0 : (int)(next_rand() % 3);
        for (int q = 0; q < m; q++) {
          char key[16];
          snprintf(key, sizeof key, "\xc3\xbc%d", q);
          CHV_RETURN_IF_ERR(put_str(y->children[0], key, err));
          double dv = (double)(int64_t)next_rand() / 1e6;
          if (maybe_null(4))
            CHV_RETURN_IF_ERR(chv_vector_append_null(y->children[1], err));
          else
            CHV_RETURN_IF_ERR(
                chv_vector_append_value(y->children[1], &dv, err));
        }
        CHV_RETURN_IF_ERR(chv_vector_append_nested(y, err));
      }
      CHV_RETURN_IF_ERR(chv_vector_append_nested(el, err));
    }
    CHV_RETURN_IF_ERR(chv_vector_append_nested(c, err));
  }
  return chv_vector_append_nested(v, err);
}

/* asq array<struct<p:date,q:timestamp,r:boolean>> */
static int add_asq(struct chv_vector *v, struct chv_error *err) {
  if (maybe_null(8)) return chv_vector_append_null(v, err);
  int n = (int)(next_rand() % 3);
  struct chv_vector *el = v->children[0];
  for (int j = 0; j < n; j++) {
    if (maybe_null(6)) {
      CHV_RETURN_IF_ERR(chv_vector_append_null(el, err));
      continue;
    }
    int32_t p = ts_nanos ? chv_date_from_ymd(1900, 1, 1) +
                               (int32_t)(next_rand() % 100000)
                         : (int32_t)(next_rand() % 3000000) - 719162;
    struct chv_timestamp q = rand_ts();
    bool rv = next_rand() & 1;
    if (maybe_null(5))
      CHV_RETURN_IF_ERR(chv_vector_append_null(el->children[0], err));
    else
      CHV_RETURN_IF_ERR(chv_vector_append_value(el->children[0], &p, err));
    if (maybe_null(5))
      CHV_RETURN_IF_ERR(chv_vector_append_null(el->children[1], err));
    else
      CHV_RETURN_IF_ERR(chv_vector_append_value(el->children[1], &q, err));
    if (maybe_null(5))
      CHV_RETURN_IF_ERR(chv_vector_append_null(el->children[2], err));
    else
      CHV_RETURN_IF_ERR(chv_vector_append_value(el->children[2], &rv, err));
    CHV_RETURN_IF_ERR(chv_vector_append_nested(el, err));
  }
  return chv_vector_append_nested(v, err);
}

/* Fill row r (0-based) of every column. */
static int add_row(struct chv_batch *b, int r, struct chv_error *err) {
  struct chv_vector **c = b->cols;
  if (r == 0) { /* all NULL */
    for (int k = 0; k < b->ncols; k++)
      CHV_RETURN_IF_ERR(chv_vector_append_null(c[k], err));
    return CHV_OK;
  }
  int k = add_flat(c, r, err);
  if (k < 0) return k;
  int nflat = k;
  if (k < b->ncols) {
    CHV_RETURN_IF_ERR(add_ai(c[k++], err));
    CHV_RETURN_IF_ERR(add_ast(c[k++], r, err));
    CHV_RETURN_IF_ERR(add_aal(c[k++], err));
    CHV_RETURN_IF_ERR(add_ms(c[k++], err));
    CHV_RETURN_IF_ERR(add_mi(c[k++], err));
    CHV_RETURN_IF_ERR(add_sx(c[k++], r, err));
    CHV_RETURN_IF_ERR(add_asq(c[k++], err));
  }
  /* Scattered NULLs in every primitive column (not the extremes' rows). */
  if (r > 2)
    for (int q = 0; q < nflat; q++)
      if ((r * 7 + q * 3) % 17 == 0)
        CHV_RETURN_IF_ERR(chv_vector_set_null(c[q], c[q]->length - 1, err));
  return CHV_OK;
}

int main(int argc, char **argv) {
  const char *out = NULL;
  int rows = 300, batch = 100;
  const char *schema_text = all_schema;
  struct chv_error err;
  struct chv_pq_write_options o;
  chv_pq_write_options_init(&o);
  for (int a = 1; a < argc; a++) {
    if (!strcmp(argv[a], "--rows") && a + 1 < argc) {
      rows = atoi(argv[++a]);
    } else if (!strcmp(argv[a], "--batch") && a + 1 < argc) {
      batch = atoi(argv[++a]);
      if (batch < 1) batch = 1;
    } else if (!strcmp(argv[a], "--schema") && a + 1 < argc) {
      a++;
      schema_text = !strcmp(argv[a], "flat") ? flat_schema : all_schema;
    } else if (!strcmp(argv[a], "--set") && a + 1 < argc) {
      char *kv = argv[++a], *eq = strchr(kv, '=');
      if (eq == NULL) return die("--set needs KEY=VALUE", NULL);
      *eq = '\0';
      if (chv_pq_write_options_set(&o, kv, eq + 1, &err) != CHV_OK)
        return die("--set", &err);
    } else if (out == NULL) {
      out = argv[a];
    } else {
      return die("usage: pq_write_tool OUT [--rows N] [--batch N] "
                 "[--set K=V]... [--schema flat|all]",
                 NULL);
    }
  }
  if (out == NULL) return die("no output file given", NULL);
  nrows_total = rows;
  ts_nanos = o.timestamp_int64 && o.timestamp_unit == CHV_PQ_TS_NANOS;
  struct chv_type *schema;
  if (chv_type_parse_columns(schema_text, &schema, &err) != CHV_OK)
    return die("schema", &err);
  struct chv_batch *b;
  chv_pq_writer *w;
  if (chv_batch_open(schema, batch, &b, &err) != CHV_OK)
    return die("batch", &err);
  if (chv_pq_writer_open(chv_fs_local(), out, schema, &o, &w, &err) != CHV_OK)
    return die("open", &err);
  struct chv_buf json;
  chv_buf_init(&json);
  for (int r = 0; r < rows;) {
    chv_batch_reset(b);
    int n = 0;
    for (; n < batch && r < rows; n++, r++)
      if (add_row(b, r, &err) != CHV_OK) return die("row", &err);
    b->nrows = n;
    for (int k = 0; k < n; k++)
      chv_jsonl_row(b, k, &json);
    if (chv_pq_writer_write(w, b, &err) != CHV_OK) return die("write", &err);
  }
  struct chv_pq_write_stats st;
  if (chv_pq_writer_finish(w, &st, &err) != CHV_OK) return die("finish", &err);
  chv_pq_writer_close(w);
  if (json.len) fwrite(json.data, 1, json.len, stdout);
  fprintf(stderr, "schema: %s\n", schema_text);
  fprintf(stderr, "pq_write_tool: %lld rows, %d row groups, %lld bytes\n",
          (long long)st.rows, st.row_groups, (long long)st.file_bytes);
  chv_buf_free(&json);
  chv_batch_close(b);
  chv_type_free(schema);
  return 0;
}
