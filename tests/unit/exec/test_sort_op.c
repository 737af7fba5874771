/*
** sql/exec sort.c: the Sort and TopN operators fed by a fake input
** operator (fixed batches, with and without a selection, or rows made on
** the fly): Hive's order (ASC/DESC, NULLS FIRST/LAST by default and
** given, several keys, ties in input order) on every primitive type,
** TopN's limits and its compaction over many chunks against a full sort,
** the scan bound it tightens, the memory bound's message, cancel (before
** next, while giving rows, and within a long sort), output chunks of at
** most 2048 rows, EXPLAIN ANALYZE's counts and allocation failure at each
** step.
*/
#include "exec_fixture.h"
#include "sql/exec/op.h"
#include "sql/exec/spill.h"

#include <dirent.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static chv_scan_bound *test_bound;

/* ---- the bound a TopN tightens ------------------------------------------
** A real chv_scan_bound; the values it is given are read back from what
** it rules out. */
static chv_scan_bound *find_bound(struct sql_op *op) {
  (void)op;
  return test_bound;
}

/* ---- the fake input ----------------------------------------------------- */

#define MAX_CHUNKS 64

struct fake_in {
  struct sql_op op;
  struct chv_batch *b[MAX_CHUNKS];
  uint32_t *sel[MAX_CHUNKS];
  int64_t n[MAX_CHUNKS];
  int nb, at;
  /* or rows made on the fly: gen fills b[0] with chunk `at` (0 rows: end) */
  int64_t (*gen)(struct fake_in *f, int at);
  void *ctx;
  int ends;                     /* end chunks given */
  int fail_at;                  /* > 0: chunk fail_at - 1 fails (CHV_EIO) */
  int cancel_at;                /* > 0: the flag is set at chunk cancel_at - 1 */
  volatile int *cancel;
};

static int fake_open(struct sql_op *op, struct chv_error *err) {
  (void)op;
  (void)err;
  return CHV_OK;
}

static int fake_next(struct sql_op *op, struct sql_chunk *out,
                     struct chv_error *err) {
  struct fake_in *f = (struct fake_in *)op;
  out->b = NULL;
  out->sel = NULL;
  out->n = 0;
  if (f->fail_at > 0 && f->at == f->fail_at - 1)
    return chv_error_set(err, CHV_EIO, "the input failed");
  if (f->cancel_at > 0 && f->at == f->cancel_at - 1) *f->cancel = 1;
  if (f->gen) {
    int64_t n = f->gen(f, f->at++);
    if (n > 0) {
      out->b = f->b[0];
      out->n = n;
      return CHV_OK;
    }
  } else if (f->at < f->nb) {
    out->b = f->b[f->at];
    out->sel = f->sel[f->at];
    out->n = f->n[f->at];
    f->at++;
    return CHV_OK;
  }
  f->ends++;
  return CHV_OK;
}

static void fake_close(struct sql_op *op) { (void)op; }

static const struct sql_op_vt fake_vt = {fake_open, fake_next, fake_close};

/* ---- the harness -------------------------------------------------------- */

struct t {
  chv_arena *a;
  struct chv_type *schema;      /* the input's columns */
  struct sql_col cols[8];
  struct sql_node inn, nd;
  struct sql_node *inp;
  struct sql_sort_key keys[8];
  int nkeys;
  struct fake_in fin;
  struct sql_op *finp;
  struct sql_exec x;
  volatile int cancel;
  struct chv_error err;
  struct chv_buf out;           /* the rows given: "v,v;v,v" */
  int64_t rows, chunks, maxchunk;
  int64_t spill_files, spill_bytes; /* the last run's */
};

static int t_open(struct t *t, const char *cols) {
  memset(t, 0, sizeof *t);
  chv_buf_init(&t->out);
  if (chv_arena_open(0, &t->a) != CHV_OK) return CHV_ENOMEM;
  int rc = chv_type_parse_columns(cols, &t->schema, &t->err);
  if (rc != CHV_OK) return rc;
  for (int c = 0; c < t->schema->nchildren && c < 8; c++) {
    t->cols[c].name = "c";
    t->cols[c].type = t->schema->children[c];
  }
  t->inn.kind = SQL_NODE_VALUES;
  t->inn.cols = t->cols;
  t->inn.ncols = t->schema->nchildren;
  t->inp = &t->inn;
  t->nd.in = &t->inp;
  t->nd.nin = 1;
  t->nd.cols = t->cols;
  t->nd.ncols = t->inn.ncols;
  t->fin.op.vt = &fake_vt;
  t->fin.op.node = &t->inn;
  t->fin.op.x = &t->x;
  t->finp = &t->fin.op;
  t->x.cancel = &t->cancel;
  t->fin.cancel = &t->cancel;
  t->x.analyze = true;
  test_bound = NULL;
  return CHV_OK;
}

static void t_close(struct t *t) {
  for (int i = 0; i < t->fin.nb; i++) {
    chv_batch_close(t->fin.b[i]);
    free(t->fin.sel[i]);
  }
  if (t->fin.gen) chv_batch_close(t->fin.b[0]);
  chv_buf_free(&t->out);
  chv_type_free(t->schema);
  chv_arena_close(t->a);
}

/* A chunk of the input: "v|v|NULL" per column; sel "0,2" (NULL: all rows). */
static int t_chunk(struct t *t, const char *const *data, const char *sel) {
  struct chv_batch *b = NULL;
  int rc = chv_batch_open(t->schema, 4, &b, &t->err);
  for (int c = 0; rc == CHV_OK && c < b->ncols; c++)
    rc = fx_fill(b->cols[c], data[c]);
  if (rc != CHV_OK) {
    chv_batch_close(b);
    return rc;
  }
  b->nrows = b->cols[0]->length;
  int i = t->fin.nb++;
  t->fin.b[i] = b;
  t->fin.n[i] = b->nrows;
  if (sel) {
    t->fin.sel[i] = malloc(sizeof(uint32_t) * 64);
    int64_t n = 0;
    for (const char *p = sel; *p;) {
      char *e;
      t->fin.sel[i][n++] = (uint32_t)strtoul(p, &e, 10);
      p = *e ? e + 1 : e;
    }
    t->fin.n[i] = n;
  }
  return CHV_OK;
}

/* Key k: column col, desc, nulls (0 Hive's, 1 FIRST, 2 LAST). */
static void t_key(struct t *t, int col, bool desc, int nulls) {
  struct chv_expr *e = NULL;
  chv_expr_column(t->a, col, t->schema->children[col], &e, &t->err);
  t->keys[t->nkeys++] = (struct sql_sort_key){e, desc, nulls};
}

static void t_cell(struct chv_buf *o, const struct chv_vector *v, int64_t i) {
  static const struct chv_type str = {.id = CHV_TYPE_STRING};
  struct chv_value x, y;
  chv_func_get_value(v, i, &x);
  struct chv_buf buf;
  chv_buf_init(&buf);
  int crc = CHV_OK;
  if (x.is_null)
    chv_buf_puts(o, "NULL");
  else if (chv_exec_cast_value(v->type, &x, &str, &y, &buf, &crc))
    chv_buf_append(o, y.str, (size_t)y.len);
  else
    chv_buf_puts(o, "?");
  chv_buf_free(&buf);
}

/* Runs a Sort (limit < 0) or TopN over the input; the rows in t->out.
** Every chunk given must be dense, of at most 2048 rows. */
static int t_run(struct t *t, int64_t limit) {
  t->nd.kind = limit < 0 ? SQL_NODE_SORT : SQL_NODE_TOPN;
  t->nd.u.sort.keys = t->keys;
  t->nd.u.sort.nkeys = t->nkeys;
  t->nd.u.sort.limit = limit;
  t->fin.at = 0;
  t->fin.ends = 0;
  chv_buf_reset(&t->out);
  t->rows = t->chunks = t->maxchunk = 0;
  struct sql_op *op = NULL;
  int rc = sql_op_sort_new(&t->x, &t->nd, &op, &t->err);
  if (rc != CHV_OK) return rc;
  op->in = &t->finp;
  op->nin = 1;
  rc = sql_op_open(op, &t->err);
  while (rc == CHV_OK) {
    struct sql_chunk ch;
    rc = sql_op_next(op, &ch, &t->err);
    if (rc != CHV_OK || !ch.b) break;
    CHV_CHECK(ch.sel == NULL);
    CHV_CHECK(ch.n > 0 && ch.n <= 2048);
    CHV_CHECK_EQ_INT(ch.b->nrows, ch.n);
    CHV_CHECK_EQ_INT(ch.b->ncols, t->nd.ncols);
    t->chunks++;
    t->rows += ch.n;
    if (ch.n > t->maxchunk) t->maxchunk = ch.n;
    for (int64_t i = 0; i < ch.n; i++) {
      if (t->out.len) chv_buf_putc(&t->out, ';');
      for (int c = 0; c < ch.b->ncols; c++) {
        if (c) chv_buf_putc(&t->out, ',');
        t_cell(&t->out, ch.b->cols[c], i);
      }
    }
  }
  if (rc == CHV_OK) { /* the end stays the end */
    struct sql_chunk ch;
    rc = sql_op_next(op, &ch, &t->err);
    CHV_CHECK(rc == CHV_OK && ch.b == NULL);
    CHV_CHECK_EQ_INT(op->rows, t->rows);
  }
  t->spill_files = op->spill_files;
  t->spill_bytes = op->spill_bytes;
  op->vt->close(op);
  chv_free(op);
  return rc;
}

static const char *t_out(struct t *t) { return t->out.data ? t->out.data : ""; }

/* Sorts one column of values (its own key) and gives the rows. */
static void check_order(const char *type, const char *vals, bool desc,
                        int nulls, const char *want) {
  struct t t;
  char cols[64];
  snprintf(cols, sizeof cols, "k %s", type);
  const char *data[] = {vals};
  CHV_REQUIRE_OK(t_open(&t, cols), &t.err);
  CHV_REQUIRE_OK(t_chunk(&t, data, NULL), &t.err);
  t_key(&t, 0, desc, nulls);
  int rc = t_run(&t, -1);
  CHV_CHECK_OK(rc, &t.err);
  if (rc == CHV_OK && strcmp(t_out(&t), want) != 0) {
    fprintf(stderr, "%s %s%s: got %s, want %s\n", type,
            desc ? "DESC" : "ASC",
            nulls == 1 ? " NULLS FIRST" : nulls == 2 ? " NULLS LAST" : "",
            t_out(&t), want);
    CHV_CHECK(0);
  }
  t_close(&t);
}

/* ---- order -------------------------------------------------------------- */

static void test_asc_desc_nulls(void) {
  const char *v = "3|NULL|1|2|NULL|-5";
  check_order("int", v, false, 0, "NULL;NULL;-5;1;2;3");
  check_order("int", v, true, 0, "3;2;1;-5;NULL;NULL");
  check_order("int", v, false, 1, "NULL;NULL;-5;1;2;3");
  check_order("int", v, false, 2, "-5;1;2;3;NULL;NULL");
  check_order("int", v, true, 1, "NULL;NULL;3;2;1;-5");
  check_order("int", v, true, 2, "3;2;1;-5;NULL;NULL");
  check_order("int", "", false, 0, "");
  check_order("int", "NULL", true, 0, "NULL");
}

static void test_types(void) {
  check_order("boolean", "true|false|NULL|true|false", false, 0,
              "NULL;false;false;true;true");
  check_order("boolean", "true|false|NULL", true, 0, "true;false;NULL");
  check_order("tinyint", "5|-128|127|0|NULL", false, 0,
              "NULL;-128;0;5;127");
  check_order("smallint", "300|-32768|32767|-1", true, 0,
              "32767;300;-1;-32768");
  check_order("int", "2147483647|-2147483648|0", false, 0,
              "-2147483648;0;2147483647");
  check_order("bigint", "9223372036854775807|-9223372036854775808|1|-1",
              false, 0, "-9223372036854775808;-1;1;9223372036854775807");
  check_order("double", "1.5|-Infinity|NaN|Infinity|NULL|-2.25|0", false, 0,
              "NULL;-Infinity;-2.25;0.0;1.5;Infinity;NaN");
  check_order("double", "1.5|NaN|Infinity|-2.25", true, 0,
              "NaN;Infinity;1.5;-2.25");
  check_order("float", "0.5|NaN|-3|2", false, 0, "-3.0;0.5;2.0;NaN");
  check_order("decimal(10,2)", "1.05|-1.10|1.5|0.00|-0.01|12345678.99", false,
              0, "-1.10;-0.01;0.00;1.05;1.50;12345678.99");
  check_order("decimal(38,0)",
              "99999999999999999999999999999999999999|-1|"
              "-99999999999999999999999999999999999999|"
              "99999999999999999999999999999999999998|"
              "-99999999999999999999999999999999999998|"
              "9223372036854775807|9223372036854775806",
              false, 0,
              "-99999999999999999999999999999999999999;"
              "-99999999999999999999999999999999999998;-1;"
              "9223372036854775806;9223372036854775807;"
              "99999999999999999999999999999999999998;"
              "99999999999999999999999999999999999999");
  check_order("date", "2024-01-02|1969-12-31|2024-01-01|NULL|0001-01-01",
              true, 0, "2024-01-02;2024-01-01;1969-12-31;0001-01-01;NULL");
  check_order("timestamp",
              "2024-01-01 00:00:00.5|2024-01-01 00:00:00.25|"
              "1960-06-01 12:00:00|2024-01-01 00:00:00.000000001|"
              "2024-01-01 00:00:00",
              false, 0,
              "1960-06-01 12:00:00;2024-01-01 00:00:00;"
              "2024-01-01 00:00:00.000000001;2024-01-01 00:00:00.25;"
              "2024-01-01 00:00:00.5");
  /* strings: bytes, a prefix first; the empty string before all */
  check_order("string", "ab|a|abc||b|NULL|B|é|aa", false, 0,
              "NULL;;B;a;aa;ab;abc;b;é");
  check_order("string", "ab|a|abc||b", true, 2, "b;abc;ab;a;");
  check_order("varchar(5)", "zz|z|zza|a", false, 0, "a;z;zz;zza");
  /* past the first 8 bytes (what the sort's entries hold of a key) */
  check_order("string", "abcdefgh2|abcdefgh10|abcdefgh|abcdefgh1|abcdefgi",
              false, 0, "abcdefgh;abcdefgh1;abcdefgh10;abcdefgh2;abcdefgi");
  check_order("string", "abcdefgh2|abcdefgh10|abcdefgh|abcdefgh1", true, 0,
              "abcdefgh2;abcdefgh10;abcdefgh1;abcdefgh");
  check_order("char(3)", "b|a |ab", false, 0, "a;ab;b"); /* CAST drops the padding */
}

/* sql_sort_cmp() directly: two key vectors, rows across them. */
static void test_sort_cmp(void) {
  struct fx f;
  const char *data[] = {"1|NULL|NaN", "x|y|NULL"};
  CHV_REQUIRE_OK(fx_open(&f, "d double, s string", data), &f.err);
  struct chv_vector *const *k = f.b->cols;
  struct sql_sort_key keys[2] = {{NULL, false, 0}, {NULL, true, 0}};
  CHV_CHECK(sql_sort_cmp(k, 0, k, 0, keys, 2) == 0);
  CHV_CHECK(sql_sort_cmp(k, 1, k, 0, keys, 2) < 0); /* NULL first (ASC) */
  CHV_CHECK(sql_sort_cmp(k, 0, k, 2, keys, 2) < 0); /* 1 before NaN */
  CHV_CHECK(sql_sort_cmp(k, 2, k, 0, keys, 2) > 0);
  keys[0].nulls = 2;
  CHV_CHECK(sql_sort_cmp(k, 1, k, 2, keys, 2) > 0); /* NULLS LAST */
  keys[0].desc = true;
  keys[0].nulls = 0;
  CHV_CHECK(sql_sort_cmp(k, 2, k, 0, keys, 2) < 0); /* NaN first (DESC) */
  CHV_CHECK(sql_sort_cmp(k, 1, k, 0, keys, 2) > 0); /* NULL last (DESC) */
  /* the second key decides between equal first keys (DESC: y before x) */
  const char *d2[] = {"1|1", "x|y"};
  struct fx g;
  CHV_REQUIRE_OK(fx_open(&g, "d double, s string", d2), &g.err);
  struct chv_vector *const *k2 = g.b->cols;
  CHV_CHECK(sql_sort_cmp(k2, 0, k2, 1, keys, 2) > 0);
  CHV_CHECK(sql_sort_cmp(k2, 0, k2, 1, keys, 1) == 0);
  /* the rows of two different vectors */
  CHV_CHECK(sql_sort_cmp(k2, 1, k, 0, keys, 2) < 0);
  fx_close(&g);
  fx_close(&f);
}

/* Several keys, ties in input order, rows of chunks with a selection, a
** key that is an expression. */
static void test_multikey_stable(void) {
  struct t t;
  CHV_REQUIRE_OK(t_open(&t, "a int, b string, id int"), &t.err);
  const char *c1[] = {"2|1|2|1|NULL", "x|y|y|x|z", "1|2|3|4|5"};
  const char *c2[] = {"9|1|2|1|1|7", "y|x|x|y|x|q", "6|7|8|9|10|11"};
  const char *c3[] = {"2|1", "x|x", "12|13"};
  CHV_REQUIRE_OK(t_chunk(&t, c1, NULL), &t.err);
  CHV_REQUIRE_OK(t_chunk(&t, c2, "1,2,3,4"), &t.err); /* not 9 and 7 */
  CHV_REQUIRE_OK(t_chunk(&t, c3, NULL), &t.err);
  t_key(&t, 0, false, 0);
  t_key(&t, 1, true, 0);
  CHV_CHECK_OK(t_run(&t, -1), &t.err);
  CHV_CHECK_STREQ(t_out(&t), "NULL,z,5;1,y,2;1,y,9;1,x,4;1,x,7;1,x,10;"
                             "1,x,13;2,y,3;2,x,1;2,x,8;2,x,12");
  /* one key: the ties keep the order they came in */
  t.nkeys = 1;
  CHV_CHECK_OK(t_run(&t, -1), &t.err);
  CHV_CHECK_STREQ(t_out(&t), "NULL,z,5;1,y,2;1,x,4;1,x,7;1,y,9;1,x,10;"
                             "1,x,13;2,x,1;2,y,3;2,x,8;2,x,12");
  t.keys[0].desc = true;
  CHV_CHECK_OK(t_run(&t, -1), &t.err);
  CHV_CHECK_STREQ(t_out(&t), "2,x,1;2,y,3;2,x,8;2,x,12;1,y,2;1,x,4;1,x,7;"
                             "1,y,9;1,x,10;1,x,13;NULL,z,5");
  /* the key: -id (an expression over the input) */
  struct chv_expr *neg = NULL, *id = NULL;
  CHV_REQUIRE_OK(chv_expr_column(t.a, 2, t.schema->children[2], &id, &t.err),
                 &t.err);
  CHV_REQUIRE_OK(chv_expr_call(t.a, CHV_FN_NEG, &id, 1, &neg, &t.err),
                 &t.err);
  t.keys[0] = (struct sql_sort_key){neg, false, 0};
  CHV_CHECK_OK(t_run(&t, 3), &t.err);
  CHV_CHECK_STREQ(t_out(&t), "1,x,13;2,x,12;1,x,10");
  t_close(&t);
}

/* ---- TopN --------------------------------------------------------------- */

static void test_topn_limits(void) {
  struct t t;
  CHV_REQUIRE_OK(t_open(&t, "a int, id int"), &t.err);
  const char *c1[] = {"5|3|NULL|3", "1|2|3|4"};
  const char *c2[] = {"1|9|3", "5|6|7"};
  CHV_REQUIRE_OK(t_chunk(&t, c1, NULL), &t.err);
  CHV_REQUIRE_OK(t_chunk(&t, c2, "0,2"), &t.err);
  t_key(&t, 0, false, 2);
  CHV_CHECK_OK(t_run(&t, -1), &t.err);
  CHV_CHECK_STREQ(t_out(&t), "1,5;3,2;3,4;3,7;5,1;NULL,3");
  static const struct {
    int64_t limit;
    const char *want;
  } cases[] = {
      {0, ""},
      {1, "1,5"},
      {3, "1,5;3,2;3,4"},
      {5, "1,5;3,2;3,4;3,7;5,1"},
      {6, "1,5;3,2;3,4;3,7;5,1;NULL,3"},
      {1000, "1,5;3,2;3,4;3,7;5,1;NULL,3"},
  };
  for (size_t i = 0; i < CHV_ARRAY_SIZE(cases); i++) {
    CHV_CHECK_OK(t_run(&t, cases[i].limit), &t.err);
    CHV_CHECK_STREQ(t_out(&t), cases[i].want);
  }
  /* LIMIT 0 does not read its input */
  CHV_CHECK_OK(t_run(&t, 0), &t.err);
  CHV_CHECK_EQ_INT(t.fin.at, 0);
  CHV_CHECK_EQ_INT(t.fin.ends, 0);
  t_close(&t);
}

/* The big input: chunks of rows (a int with ties and NULLs, id bigint in
** input order, s its text); every third chunk with a selection of its odd
** rows. */
#define BIG_CHUNK 1000
struct big {
  int nchunks;
  uint64_t seed;
  int keyrange;
};

static int big_chunks(struct t *t, const struct big *g) {
  uint64_t r = g->seed;
  int64_t id = 0;
  for (int c = 0; c < g->nchunks; c++) {
    struct chv_batch *b = NULL;
    CHV_RETURN_IF_ERR(chv_batch_open(t->schema, BIG_CHUNK, &b, &t->err));
    for (int i = 0; i < BIG_CHUNK; i++) {
      r = r * 6364136223846793005ull + 1442695040888963407ull;
      int32_t a = (int32_t)((r >> 33) % (uint64_t)g->keyrange);
      if ((r >> 20) % 29 == 0)
        chv_vector_append_null(b->cols[0], NULL);
      else
        chv_vector_append_value(b->cols[0], &a, NULL);
      chv_vector_append_value(b->cols[1], &id, NULL);
      char s[32];
      int n = snprintf(s, sizeof s, "r%lld", (long long)id);
      chv_vector_append_bytes(b->cols[2], s, (size_t)n, NULL);
      id++;
    }
    b->nrows = BIG_CHUNK;
    int k = t->fin.nb++;
    t->fin.b[k] = b;
    t->fin.n[k] = BIG_CHUNK;
    if (c % 3 == 2) {
      t->fin.sel[k] = malloc(sizeof(uint32_t) * BIG_CHUNK / 2);
      for (int i = 0; i < BIG_CHUNK / 2; i++)
        t->fin.sel[k][i] = (uint32_t)(2 * i + 1);
      t->fin.n[k] = BIG_CHUNK / 2;
    }
  }
  return CHV_OK;
}

/* The first n rows of "r;r;r" (all when fewer). */
static char *first_rows(const char *s, int64_t n) {
  const char *p = s;
  for (int64_t i = 0; i < n && p; i++) {
    p = strchr(p, ';');
    if (p && i < n - 1) p++;
  }
  size_t len = p ? (size_t)(p - s) : strlen(s);
  if (n == 0) len = 0;
  char *r = malloc(len + 1);
  memcpy(r, s, len);
  r[len] = '\0';
  return r;
}

/* Checks that the rows "a,id,s;..." are ordered by a (desc, nulls) with
** ties in id order, and that each id appears once. */
static void check_sorted(const char *s, bool desc, bool nulls_first,
                         int64_t want_rows) {
  int64_t n = 0, pa = 0, pid = -1;
  bool pnull = false;
  char *seen = calloc(100000, 1);
  for (const char *p = s; *p;) {
    bool null = strncmp(p, "NULL", 4) == 0;
    char *e;
    long long a = null ? 0 : strtoll(p, &e, 10);
    const char *q = strchr(p, ',') + 1;
    long long id = strtoll(q, &e, 10);
    if (n > 0) {
      int c; /* < 0: the previous row may come first */
      if (pnull || null)
        c = pnull == null ? 0 : (pnull ? -1 : 1) * (nulls_first ? 1 : -1);
      else
        c = (pa < a ? -1 : pa > a) * (desc ? -1 : 1);
      if (c > 0 || (c == 0 && pid >= id)) {
        fprintf(stderr, "out of order at row %lld\n", (long long)n);
        CHV_CHECK(0);
        break;
      }
    }
    CHV_CHECK(id >= 0 && id < 100000 && !seen[id]);
    if (id >= 0 && id < 100000) seen[id] = 1;
    pnull = null;
    pa = a;
    pid = id;
    n++;
    p = strchr(p, ';');
    p = p ? p + 1 : "";
  }
  free(seen);
  CHV_CHECK_EQ_INT(n, want_rows);
}

/* TopN over many chunks (compactions, the entry test) gives exactly the
** first rows of a full sort, for limits around the thresholds. */
static void test_topn_many_chunks(void) {
  static const struct {
    bool desc;
    int nulls;
    int keyrange;
  } orders[] = {{false, 0, 500}, {true, 0, 500}, {false, 2, 100000},
                {true, 1, 3}};
  static const int64_t limits[] = {1,    2,    10,    1000,  4095,
                                   4096, 5000, 9000,  12000, 27499,
                                   27500, 40000};
  for (size_t o = 0; o < CHV_ARRAY_SIZE(orders); o++) {
    struct t t;
    CHV_REQUIRE_OK(t_open(&t, "a int, id bigint, s string"), &t.err);
    struct big g = {33, 42 + o, orders[o].keyrange}; /* 27500 rows */
    CHV_REQUIRE_OK(big_chunks(&t, &g), &t.err);
    t_key(&t, 0, orders[o].desc, orders[o].nulls);
    CHV_REQUIRE_OK(t_run(&t, -1), &t.err);
    CHV_CHECK_EQ_INT(t.rows, 27500);
    CHV_CHECK_EQ_INT(t.maxchunk, 2048);
    bool nf = orders[o].nulls ? orders[o].nulls == 1 : !orders[o].desc;
    check_sorted(t_out(&t), orders[o].desc, nf, 27500);
    char *full = strdup(t_out(&t));
    for (size_t l = 0; l < CHV_ARRAY_SIZE(limits); l++) {
      int rc = t_run(&t, limits[l]);
      CHV_CHECK_OK(rc, &t.err);
      char *want = first_rows(full, limits[l]);
      if (rc == CHV_OK && strcmp(t_out(&t), want) != 0) {
        fprintf(stderr, "order %zu limit %lld: not the sort's first rows\n",
                o, (long long)limits[l]);
        CHV_CHECK(0);
      }
      CHV_CHECK_EQ_INT(t.rows, limits[l] < 27500 ? limits[l] : 27500);
      free(want);
    }
    free(full);
    t_close(&t);
  }
}

/* After each compaction the bound gets the last kept row's first key:
** ever tighter, never past what the result needs. */
static void test_topn_bound(void) {
  struct t t;
  CHV_REQUIRE_OK(t_open(&t, "a int, id bigint, s string"), &t.err);
  struct big g = {33, 7, 1000000};
  CHV_REQUIRE_OK(big_chunks(&t, &g), &t.err);
  t_key(&t, 0, true, 0); /* DESC: NULLS LAST, the bound is a >= */
  CHV_REQUIRE_OK(chv_scan_bound_open("a", CHV_PRED_GE, &test_bound, &t.err),
                 &t.err);
  t.x.find_bound = find_bound;
  CHV_REQUIRE_OK(t_run(&t, 10), &t.err);
  /* 27500 rows: compactions at 4096 rows held, then at each 4116; the
  ** bound is the last kept row's key then: the result's last row is at
  ** or above it */
  char v[64];
  CHV_REQUIRE(chv_scan_bound_value(test_bound, v, sizeof v));
  long long b = strtoll(v, NULL, 10);
  const char *last = strrchr(t_out(&t), ';');
  CHV_REQUIRE(last != NULL);
  CHV_CHECK(strtoll(last + 1, NULL, 10) >= b);
  CHV_CHECK_EQ_INT(t.rows, 10);
  chv_scan_bound_close(test_bound);
  /* a NULL first key sets nothing: NULLS FIRST keeps NULLs at the top */
  CHV_REQUIRE_OK(chv_scan_bound_open("a", CHV_PRED_GE, &test_bound, &t.err),
                 &t.err);
  t.keys[0].nulls = 1;
  CHV_REQUIRE_OK(t_run(&t, 10), &t.err);
  CHV_CHECK(!chv_scan_bound_value(test_bound, v, sizeof v));
  CHV_CHECK(strncmp(t_out(&t), "NULL,", 5) == 0);
  /* a full Sort sets no bound */
  CHV_REQUIRE_OK(t_run(&t, -1), &t.err);
  CHV_CHECK(!chv_scan_bound_value(test_bound, v, sizeof v));
  chv_scan_bound_close(test_bound);
  test_bound = NULL;
  t_close(&t);
}

/* ---- bounds, cancel, chunks ---------------------------------------------- */

/* Entries of folder d (not . and ..). */
static int dir_entries(const char *d) {
  DIR *dir = opendir(d);
  if (!dir) return -1;
  int n = 0;
  struct dirent *e;
  while ((e = readdir(dir)))
    if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) n++;
  closedir(dir);
  return n;
}

/* Past its memory a Sort spills sorted runs and merges them: the same
** rows, in the same order (ties in input order), as in memory. */
static void test_memory_bound(void) {
  struct t t;
  CHV_REQUIRE_OK(t_open(&t, "a int"), &t.err);
  const char *d[] = {"5|4|3|2|1|0|9|8|7|6"};
  for (int i = 0; i < 20; i++) CHV_REQUIRE_OK(t_chunk(&t, d, NULL), &t.err);
  t_key(&t, 0, false, 0);
  t.x.memory = 0;
  CHV_CHECK_OK(t_run(&t, -1), &t.err);
  CHV_CHECK_EQ_INT(t.rows, 200);
  CHV_CHECK_EQ_INT(t.spill_files, 0);
  char *want = strdup(t_out(&t));
  /* the column and its key: 4 bytes a row and a bit, each */
  t.x.memory = 1000;
  int64_t opened = sql_spill_files_opened();
  CHV_CHECK_OK(t_run(&t, -1), &t.err);
  CHV_CHECK_STREQ(t_out(&t), want);
  CHV_CHECK_EQ_INT(t.spill_files, 2); /* 130 rows, then 70 */
  CHV_CHECK_EQ_INT(sql_spill_files_opened() - opened, 2);
  CHV_CHECK(t.spill_bytes > 200 * 8);
  CHV_CHECK_EQ_INT(sql_spill_files_live(), 0);
  /* a TopN holds a bounded number of rows */
  t.x.memory = 100;
  CHV_CHECK_OK(t_run(&t, 3), &t.err);
  CHV_CHECK_STREQ(t_out(&t), "0;0;0");
  free(want);
  t_close(&t);
}

/* A sort of 50,000 rows (ties, NULLs, selections) within 4 kb: dozens of
** runs, merged in two passes; a TopN of a huge limit spills as a Sort;
** every result equals the unbounded one; the files are counted and none
** is left in the folder, nor open. */
static void test_spill_sort(void) {
  struct t t;
  CHV_REQUIRE_OK(t_open(&t, "a int, id bigint, s string"), &t.err);
  struct big g = {60, 11, 50}; /* 40 * 1000 + 20 * 500 rows */
  CHV_REQUIRE_OK(big_chunks(&t, &g), &t.err);
  char dir[] = "/tmp/chv-spill-test-XXXXXX";
  CHV_REQUIRE(mkdtemp(dir) != NULL);
  t.x.tmp_dirs = dir;
  for (int keys = 0; keys < 3; keys++) {
    t.nkeys = 0;
    if (keys == 0) t_key(&t, 0, false, 0);         /* ties: input order */
    if (keys == 1) t_key(&t, 0, true, 1);          /* DESC NULLS FIRST */
    if (keys == 1) t_key(&t, 2, false, 0);
    if (keys == 2) t_key(&t, 2, true, 0);          /* strings */
    t.x.memory = 0;
    CHV_REQUIRE_OK(t_run(&t, -1), &t.err);
    CHV_CHECK_EQ_INT(t.rows, 50000);
    char *want = strdup(t_out(&t));
    t.x.memory = 4096;
    int64_t opened = sql_spill_files_opened();
    CHV_CHECK_OK(t_run(&t, -1), &t.err);
    CHV_CHECK_EQ_INT(t.rows, 50000);
    CHV_CHECK(strcmp(t_out(&t), want) == 0);
    CHV_CHECK(t.spill_files > 2 * 16); /* more runs than one merge takes */
    CHV_CHECK_EQ_INT(sql_spill_files_opened() - opened, t.spill_files);
    CHV_CHECK_EQ_INT(sql_spill_files_live(), 0);
    CHV_CHECK_EQ_INT(dir_entries(dir), 0);
    printf("# sort of 50000 rows in 4 kb: %lld spill files, %lld bytes\n",
           (long long)t.spill_files, (long long)t.spill_bytes);
    /* a TopN whose rows pass the bound sorts as a Sort */
    CHV_CHECK_OK(t_run(&t, 30000), &t.err);
    char *head = first_rows(want, 30000);
    CHV_CHECK(strcmp(t_out(&t), head) == 0);
    CHV_CHECK(t.spill_files > 0);
    free(head);
    /* a small one never spills */
    CHV_CHECK_OK(t_run(&t, 5), &t.err);
    CHV_CHECK_EQ_INT(t.spill_files, 0);
    head = first_rows(want, 5);
    CHV_CHECK_STREQ(t_out(&t), head);
    free(head);
    free(want);
  }
  /* an error and a cancel mid-way: no file left open or behind */
  t.fin.fail_at = 40;
  CHV_CHECK_EQ_INT(t_run(&t, -1), CHV_EIO);
  CHV_CHECK_STREQ(t.err.msg, "the input failed");
  CHV_CHECK(t.spill_files > 0);
  CHV_CHECK_EQ_INT(sql_spill_files_live(), 0);
  CHV_CHECK_EQ_INT(dir_entries(dir), 0);
  t.fin.fail_at = 0;
  t.fin.cancel_at = 40;
  CHV_CHECK_EQ_INT(t_run(&t, -1), CHV_ECANCELED);
  CHV_CHECK(t.spill_files > 0);
  CHV_CHECK_EQ_INT(sql_spill_files_live(), 0);
  CHV_CHECK_EQ_INT(dir_entries(dir), 0);
  t.fin.cancel_at = 0;
  t.cancel = 0;
  /* a missing folder, a file that is no folder: errors naming them */
  t.x.tmp_dirs = "/nonexistent/chv-spill";
  CHV_CHECK_EQ_INT(t_run(&t, -1), CHV_EIO);
  CHV_CHECK_STREQ(t.err.msg,
                  "io.tmp.dirs: cannot create a spill file in folder "
                  "'/nonexistent/chv-spill': No such file or directory");
  char file[sizeof dir + 8];
  snprintf(file, sizeof file, "%s/plain", dir);
  FILE *fp = fopen(file, "w");
  CHV_REQUIRE(fp != NULL);
  fclose(fp);
  t.x.tmp_dirs = file;
  CHV_CHECK_EQ_INT(t_run(&t, -1), CHV_EIO);
  CHV_CHECK_CONTAINS(t.err.msg, "/plain': Not a directory");
  /* several folders are taken in turn: the second file goes to the
  ** missing one */
  char two[sizeof dir + 32];
  snprintf(two, sizeof two, "%s, /nonexistent/b", dir);
  t.x.tmp_dirs = two;
  CHV_CHECK_EQ_INT(t_run(&t, -1), CHV_EIO);
  CHV_CHECK_EQ_INT(t.spill_files, 1);
  CHV_CHECK_CONTAINS(t.err.msg, "'/nonexistent/b'");
  CHV_CHECK_EQ_INT(sql_spill_files_live(), 0);
  unlink(file);
  CHV_CHECK_EQ_INT(dir_entries(dir), 0);
  rmdir(dir);
  t_close(&t);
}

/* io.tmp.dirs as a list. */
static void test_tmp_dirs_list(void) {
  char b[64];
  CHV_CHECK_EQ_INT(sql_spill_dirs_count("/a"), 1);
  CHV_CHECK_EQ_INT(sql_spill_dirs_count(" /a , /b:/c,, "), 3);
  CHV_CHECK_EQ_INT(sql_spill_dirs_count("  "), 0);
  CHV_CHECK_EQ_INT(sql_spill_dirs_count(""), 0);
  CHV_CHECK(sql_spill_dir_at(" /a , /b:/c,, ", 1, b, sizeof b));
  CHV_CHECK_STREQ(b, "/b");
  CHV_CHECK(sql_spill_dir_at(" /a , /b:/c,, ", 2, b, sizeof b));
  CHV_CHECK_STREQ(b, "/c");
  CHV_CHECK(!sql_spill_dir_at(" /a , /b:/c,, ", 3, b, sizeof b));
  CHV_CHECK(!sql_spill_dir_at("/abcdef", 0, b, 4));
}

static void test_chunks_and_analyze(void) {
  struct t t;
  CHV_REQUIRE_OK(t_open(&t, "a int, id bigint, s string"), &t.err);
  struct big g = {6, 3, 50}; /* 5000 rows */
  CHV_REQUIRE_OK(big_chunks(&t, &g), &t.err);
  t_key(&t, 0, false, 0);
  CHV_REQUIRE_OK(t_run(&t, -1), &t.err);
  CHV_CHECK_EQ_INT(t.rows, 5000);
  CHV_CHECK_EQ_INT(t.chunks, 3); /* 2048, 2048, 904 */
  CHV_CHECK_EQ_INT(t.maxchunk, 2048);
  CHV_REQUIRE_OK(t_run(&t, 3000), &t.err);
  CHV_CHECK_EQ_INT(t.rows, 3000);
  CHV_CHECK_EQ_INT(t.chunks, 2); /* 2048, 952 */
  CHV_REQUIRE_OK(t_run(&t, 2048), &t.err);
  CHV_CHECK_EQ_INT(t.chunks, 1);
  /* the counts of EXPLAIN ANALYZE */
  t.nd.kind = SQL_NODE_SORT;
  struct sql_op *op = NULL;
  CHV_REQUIRE_OK(sql_op_sort_new(&t.x, &t.nd, &op, &t.err), &t.err);
  op->in = &t.finp;
  op->nin = 1;
  t.fin.at = 0;
  CHV_CHECK_OK(sql_op_open(op, &t.err), &t.err);
  struct sql_chunk ch;
  int64_t given = 0;
  do {
    CHV_CHECK_OK(sql_op_next(op, &ch, &t.err), &t.err);
    given += ch.b ? ch.n : 0;
  } while (ch.b);
  CHV_CHECK_EQ_INT(given, 5000);
  CHV_CHECK_EQ_INT(op->rows, 5000);
  CHV_CHECK(op->ns > 0);
  op->vt->close(op);
  chv_free(op);
  /* without analyze nothing is counted */
  t.x.analyze = false;
  CHV_REQUIRE_OK(sql_op_sort_new(&t.x, &t.nd, &op, &t.err), &t.err);
  op->in = &t.finp;
  op->nin = 1;
  t.fin.at = 0;
  CHV_CHECK_OK(sql_op_open(op, &t.err), &t.err);
  CHV_CHECK_OK(sql_op_next(op, &ch, &t.err), &t.err);
  CHV_CHECK(ch.b != NULL && ch.n == 2048);
  CHV_CHECK_EQ_INT(op->rows, 0);
  CHV_CHECK_EQ_INT(op->ns, 0);
  op->vt->close(op);
  chv_free(op); /* closed before its end: frees all the same */
  t_close(&t);
}

static void test_cancel(void) {
  struct t t;
  CHV_REQUIRE_OK(t_open(&t, "a int, id bigint, s string"), &t.err);
  struct big g = {6, 3, 50};
  CHV_REQUIRE_OK(big_chunks(&t, &g), &t.err);
  t_key(&t, 0, false, 0);
  struct sql_op *op = NULL;
  struct sql_chunk ch;
  for (int limit = -1; limit <= 10; limit += 11) {
    t.nd.kind = limit < 0 ? SQL_NODE_SORT : SQL_NODE_TOPN;
    t.nd.u.sort.keys = t.keys;
    t.nd.u.sort.nkeys = 1;
    t.nd.u.sort.limit = limit;
    /* set before the first next: nothing is read */
    CHV_REQUIRE_OK(sql_op_sort_new(&t.x, &t.nd, &op, &t.err), &t.err);
    op->in = &t.finp;
    op->nin = 1;
    t.fin.at = 0;
    CHV_CHECK_OK(sql_op_open(op, &t.err), &t.err);
    t.cancel = 1;
    CHV_CHECK_EQ_INT(sql_op_next(op, &ch, &t.err), CHV_ECANCELED);
    CHV_CHECK_EQ_INT(t.err.code, CHV_ECANCELED);
    CHV_CHECK_STREQ(t.err.msg, "the statement was cancelled");
    CHV_CHECK_EQ_INT(t.fin.at, 0);
    op->vt->close(op);
    chv_free(op);
    t.cancel = 0;
  }
  /* set while the rows are given */
  t.nd.kind = SQL_NODE_SORT;
  CHV_REQUIRE_OK(sql_op_sort_new(&t.x, &t.nd, &op, &t.err), &t.err);
  op->in = &t.finp;
  op->nin = 1;
  t.fin.at = 0;
  CHV_CHECK_OK(sql_op_open(op, &t.err), &t.err);
  CHV_CHECK_OK(sql_op_next(op, &ch, &t.err), &t.err);
  CHV_CHECK(ch.b != NULL);
  t.cancel = 1;
  CHV_CHECK_EQ_INT(sql_op_next(op, &ch, &t.err), CHV_ECANCELED);
  op->vt->close(op);
  chv_free(op);
  t.cancel = 0;
  t_close(&t);
}

/* A long sort ends soon after the flag is set. */
#define LONG_ROWS 2000000
struct long_ctx {
  struct t *t;
  volatile int input_done;
  int64_t set_at;               /* when the flag was set */
};

static int64_t long_gen(struct fake_in *f, int at) {
  struct long_ctx *c = f->ctx;
  int64_t first = (int64_t)at * 2048;
  if (first >= LONG_ROWS) {
    __atomic_store_n(&c->input_done, 1, __ATOMIC_RELEASE);
    return 0;
  }
  struct chv_batch *b = f->b[0];
  chv_batch_reset(b);
  int64_t n = LONG_ROWS - first < 2048 ? LONG_ROWS - first : 2048;
  for (int64_t i = 0; i < n; i++) {
    uint64_t r = (uint64_t)(first + i) * 0x9E3779B97F4A7C15ull;
    int64_t v = (int64_t)(r >> 1);
    chv_vector_append_value(b->cols[0], &v, NULL);
  }
  b->nrows = n;
  return n;
}

static void *long_cancel(void *p) {
  struct long_ctx *c = p;
  while (!__atomic_load_n(&c->input_done, __ATOMIC_ACQUIRE)) {
    struct timespec ts = {0, 200000};
    nanosleep(&ts, NULL);
  }
  struct timespec ts = {0, 20000000}; /* 20 ms into the sort */
  nanosleep(&ts, NULL);
  c->set_at = sql_exec_now();
  __atomic_store_n(&c->t->cancel, 1, __ATOMIC_RELEASE);
  return NULL;
}

static void test_cancel_long_sort(void) {
  struct t t;
  CHV_REQUIRE_OK(t_open(&t, "v bigint"), &t.err);
  struct long_ctx c = {&t, 0, 0};
  CHV_REQUIRE_OK(chv_batch_open(t.schema, 2048, &t.fin.b[0], &t.err), &t.err);
  t.fin.gen = long_gen;
  t.fin.ctx = &c;
  t.x.analyze = false;
  t_key(&t, 0, false, 0);
  t.nd.kind = SQL_NODE_SORT;
  t.nd.u.sort.keys = t.keys;
  t.nd.u.sort.nkeys = 1;
  struct sql_op *op = NULL;
  CHV_REQUIRE_OK(sql_op_sort_new(&t.x, &t.nd, &op, &t.err), &t.err);
  op->in = &t.finp;
  op->nin = 1;
  CHV_CHECK_OK(sql_op_open(op, &t.err), &t.err);
  pthread_t th;
  struct sql_chunk ch;
  CHV_REQUIRE(pthread_create(&th, NULL, long_cancel, &c) == 0);
  int rc = sql_op_next(op, &ch, &t.err);
  int64_t ended = sql_exec_now();
  pthread_join(th, NULL);
  CHV_CHECK_EQ_INT(rc, CHV_ECANCELED);
  double ms = (double)(ended - c.set_at) / 1e6;
  printf("# cancel latency of a sort of %d rows: %.3f ms\n", LONG_ROWS, ms);
  CHV_CHECK(ms >= 0 && ms < 100);
  op->vt->close(op);
  chv_free(op);
  t_close(&t);
}

/* Allocation failure at every step: CHV_ENOMEM, nothing leaked. */
static void test_oom(void) {
  struct t t;
  CHV_REQUIRE_OK(t_open(&t, "a int, id bigint, s string"), &t.err);
  struct big g = {6, 9, 50}; /* 5000 rows: a TopN of 10 compacts */
  CHV_REQUIRE_OK(big_chunks(&t, &g), &t.err);
  t_key(&t, 0, true, 0);
  t_key(&t, 2, false, 0);
  for (int64_t limit = -1; limit <= 10; limit += 11) {
    int failures = 0;
    for (long k = 1; k < 100000; k++) {
      chv_alloc_fail_after(k);
      int rc = t_run(&t, limit);
      chv_alloc_fail_after(0);
      if (rc == CHV_OK) break;
      CHV_CHECK_EQ_INT(rc, CHV_ENOMEM);
      if (rc != CHV_ENOMEM) break;
      failures++;
    }
    CHV_CHECK(failures > 10);
    CHV_CHECK_EQ_INT(t.rows, limit < 0 ? 5000 : limit);
  }
  t_close(&t);
}

static void test_bad_nodes(void) {
  struct t t;
  CHV_REQUIRE_OK(t_open(&t, "a int"), &t.err);
  t_key(&t, 0, false, 0);
  struct sql_op *op = NULL;
  t.nd.kind = SQL_NODE_FILTER;
  t.nd.u.sort.keys = t.keys;
  t.nd.u.sort.nkeys = 1;
  CHV_CHECK_EQ_INT(sql_op_sort_new(&t.x, &t.nd, &op, &t.err), CHV_EINTERNAL);
  t.nd.kind = SQL_NODE_TOPN;
  t.nd.u.sort.limit = -1;
  CHV_CHECK_EQ_INT(sql_op_sort_new(&t.x, &t.nd, &op, &t.err), CHV_EINTERNAL);
  CHV_CHECK(op == NULL);
  t_close(&t);
}

CHV_TEST_MAIN("exec_sort_op", test_asc_desc_nulls, test_types, test_sort_cmp,
              test_multikey_stable, test_topn_limits, test_topn_many_chunks,
              test_topn_bound, test_memory_bound, test_spill_sort,
              test_tmp_dirs_list, test_chunks_and_analyze,
              test_cancel, test_cancel_long_sort, test_oom, test_bad_nodes)
