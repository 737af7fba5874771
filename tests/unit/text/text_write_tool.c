/*
** text_write_tool: writes a deterministic table of every primitive type with
** the TEXTFILE writer and prints the same rows as JSON Lines on stdout, so
** that tests/peer/text_compat.js can check that DuckDB reads back what chive
** meant to write.
**
**   text_write_tool OUT [--rows N] [--gzip] [--serde-param KEY=VALUE]...
*/
#include "format/text/jsonl.h"
#include "format/text/text.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static const char *schema_text =
    "b boolean, t tinyint, s smallint, i int, l bigint, f float, d double, "
    "m decimal(38,10), m2 decimal(5,2), st string, dt date, ts timestamp, "
    "bi binary";

static uint64_t rng = 88172645463325252ull;
static uint64_t next_rand(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}

static const char *strings[] = {
    "",           "plain",        "h\xc3\xa9llo w\xc3\xb6rld",
    "a\"b",       "x,y;z",        "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e",
    "back\\slash", "emoji \xf0\x9f\x98\x80", "  spaced  ",
    "tab\there"};

static int die(const char *what, const struct chv_error *err) {
  fprintf(stderr, "text_write_tool: %s: %s\n", what, err ? err->msg : "");
  return 1;
}

/* Fill row r (0-based) of every column. */
static int add_row(struct chv_batch *b, int r, struct chv_error *err) {
  struct chv_vector **c = b->cols;
  if (r == 0) { /* all NULL */
    for (int k = 0; k < b->ncols; k++)
      CHV_RETURN_IF_ERR(chv_vector_append_null(c[k], err));
    return CHV_OK;
  }
  chv_i128 p38 = 1;
  for (int k = 0; k < 38; k++) p38 *= 10;
  bool bv;
  int8_t t;
  int16_t s;
  int32_t i, dt;
  int64_t l;
  float f;
  double d;
  chv_i128 m, m2;
  struct chv_timestamp ts = {0, 0, 0};
  const char *st;
  uint8_t bin[32];
  size_t binlen;
  if (r == 1 || r == 2) { /* extremes */
    bool lo = r == 1;
    bv = !lo;
    t = lo ? INT8_MIN : INT8_MAX;
    s = lo ? INT16_MIN : INT16_MAX;
    i = lo ? INT32_MIN : INT32_MAX;
    l = lo ? INT64_MIN : INT64_MAX;
    f = lo ? -INFINITY : (float)NAN;
    d = lo ? INFINITY : -INFINITY;
    m = lo ? -(p38 - 1) : p38 - 1;
    m2 = lo ? -99999 : 99999;
    st = lo ? "" : strings[5];
    dt = lo ? chv_date_from_ymd(1, 1, 1) : chv_date_from_ymd(9999, 12, 31);
    ts.seconds = (int64_t)dt * 86400 + (lo ? 0 : 86399);
    ts.nanos = lo ? 0 : 999999000;
    binlen = lo ? 0 : 32;
    for (size_t k = 0; k < binlen; k++) bin[k] = (uint8_t)(k * 8 + 7);
  } else {
    uint64_t x = next_rand();
    bv = x & 1;
    t = (int8_t)(x >> 8);
    s = (int16_t)(x >> 16);
    i = (int32_t)(x >> 24);
    l = (int64_t)next_rand();
    int e = (int)(next_rand() % 80) - 40;
    f = (float)ldexp((double)(next_rand() % 16777216), e - 24);
    if (r % 11 == 0) f = -f;
    d = ldexp((double)(next_rand() >> 11), (int)(next_rand() % 200) - 150);
    if (r % 5 == 0) d = (double)(next_rand() % 100000) / 100.0;
    if (r % 7 == 0) d = -d;
    if (r % 13 == 0) d = 1e-3 * (double)(r % 9); /* around Java's cut-over */
    m = (chv_i128)(int64_t)next_rand() * (chv_i128)(next_rand() % 1000000000);
    m2 = (chv_i128)(next_rand() % 199999) - 99999;
    st = strings[next_rand() % (sizeof strings / sizeof strings[0])];
    dt = chv_date_from_ymd(1 + (int)(next_rand() % 9999), 1, 1) +
         (int32_t)(next_rand() % 365);
    ts.seconds = (int64_t)chv_date_from_ymd(1 + (int)(next_rand() % 9999), 1, 1) *
                     86400 +
                 (int64_t)(next_rand() % (365ull * 86400));
    ts.nanos = (int32_t)(next_rand() % 1000000) * 1000;
    if (r % 3 == 0) ts.nanos = 0;
    binlen = next_rand() % 20;
    for (size_t k = 0; k < binlen; k++) bin[k] = (uint8_t)next_rand();
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
  CHV_RETURN_IF_ERR(chv_vector_append_bytes(c[9], st, strlen(st), err));
  CHV_RETURN_IF_ERR(chv_vector_append_value(c[10], &dt, err));
  CHV_RETURN_IF_ERR(chv_vector_append_value(c[11], &ts, err));
  CHV_RETURN_IF_ERR(chv_vector_append_bytes(c[12], bin, binlen, err));
  /* Scattered NULLs in every column. */
  for (int k = 0; k < b->ncols; k++)
    if ((r * 7 + k * 3) % 17 == 0)
      CHV_RETURN_IF_ERR(chv_vector_set_null(c[k], c[k]->length - 1, err));
  return CHV_OK;
}

int main(int argc, char **argv) {
  const char *out = NULL;
  int rows = 300;
  struct chv_text_param params[16];
  size_t np = 0;
  bool gzip = false;
  for (int a = 1; a < argc; a++) {
    if (!strcmp(argv[a], "--gzip")) {
      gzip = true;
    } else if (!strcmp(argv[a], "--rows") && a + 1 < argc) {
      rows = atoi(argv[++a]);
    } else if (!strcmp(argv[a], "--serde-param") && a + 1 < argc && np < 16) {
      char *kv = argv[++a], *eq = strchr(kv, '=');
      if (eq == NULL) return die("--serde-param needs KEY=VALUE", NULL);
      *eq = '\0';
      params[np].key = kv;
      params[np++].value = eq + 1;
    } else if (out == NULL) {
      out = argv[a];
    } else {
      return die("usage: text_write_tool OUT [--rows N] [--gzip] "
                 "[--serde-param K=V]...",
                 NULL);
    }
  }
  if (out == NULL) return die("no output file given", NULL);
  struct chv_error err;
  struct chv_type *schema;
  struct chv_text_options o;
  if (chv_type_parse_columns(schema_text, &schema, &err) != CHV_OK)
    return die("schema", &err);
  if (chv_text_options_from_serde(&o, params, np, &err) != CHV_OK)
    return die("serde parameters", &err);
  o.compress = gzip;
  struct chv_batch *b;
  chv_text_writer *w;
  if (chv_batch_open(schema, 64, &b, &err) != CHV_OK)
    return die("batch", &err);
  if (chv_text_writer_open(chv_fs_local(), out, schema, &o, &w, &err) !=
      CHV_OK)
    return die("open", &err);
  struct chv_buf json;
  chv_buf_init(&json);
  for (int r = 0; r < rows;) {
    chv_batch_reset(b);
    int n = 0;
    for (; n < 64 && r < rows; n++, r++)
      if (add_row(b, r, &err) != CHV_OK) return die("row", &err);
    b->nrows = n;
    for (int k = 0; k < n; k++) chv_jsonl_row(b, k, &json);
    if (chv_text_writer_write(w, b, &err) != CHV_OK) return die("write", &err);
  }
  struct chv_text_write_stats st;
  if (chv_text_writer_finish(w, &st, &err) != CHV_OK)
    return die("finish", &err);
  chv_text_writer_close(w);
  fwrite(json.data, 1, json.len, stdout);
  chv_buf_free(&json);
  chv_batch_close(b);
  chv_type_free(schema);
  return 0;
}
