/*
** sql/exec aggregates: Hive's result types, each function per type with
** NULLs and empty input, groups, merge of partials, hash aggregation with
** NULL keys, its memory bound, and allocation failure at every step.
*/
#include "exec_fixture.h"

static const struct chv_type *parse_t(struct fx *f, const char *s) {
  struct chv_type *t0;
  if (chv_type_parse(s, &t0, NULL) != CHV_OK) return NULL;
  const struct chv_type *t = chv_exec_type(
      f->a, t0->id, t0->id == CHV_TYPE_DECIMAL ? t0->precision : t0->length,
      t0->scale);
  chv_type_free(t0);
  return t;
}

static void test_result_types(void) {
  static const struct {
    enum chv_agg_fn fn;
    const char *arg, *want; /* want NULL: CHV_ETYPE */
  } cases[] = {
      {CHV_AGG_COUNT_STAR, NULL, "bigint"},
      {CHV_AGG_COUNT, "string", "bigint"},
      {CHV_AGG_COUNT_DISTINCT, "decimal(5,2)", "bigint"},
      {CHV_AGG_SUM, "tinyint", "bigint"},
      {CHV_AGG_SUM, "int", "bigint"},
      {CHV_AGG_SUM, "float", "double"},
      {CHV_AGG_SUM, "double", "double"},
      {CHV_AGG_SUM, "decimal(10,2)", "decimal(20,2)"},
      {CHV_AGG_SUM, "decimal(30,5)", "decimal(38,5)"},
      {CHV_AGG_AVG, "int", "double"},
      {CHV_AGG_AVG, "bigint", "double"},
      {CHV_AGG_AVG, "double", "double"},
      {CHV_AGG_AVG, "decimal(10,2)", "decimal(14,6)"},
      {CHV_AGG_AVG, "decimal(36,35)", "decimal(38,38)"},
      {CHV_AGG_MIN, "string", "string"},
      {CHV_AGG_MAX, "date", "date"},
      {CHV_AGG_MAX, "decimal(7,3)", "decimal(7,3)"},
      {CHV_AGG_SUM, "string", NULL},
      {CHV_AGG_AVG, "boolean", NULL},
      {CHV_AGG_SUM, "timestamp", NULL},
  };
  struct fx f;
  const char *data[] = {""};
  CHV_REQUIRE_OK(fx_open(&f, "x int", data), &f.err);
  for (size_t i = 0; i < CHV_ARRAY_SIZE(cases); i++) {
    const struct chv_type *arg = cases[i].arg ? parse_t(&f, cases[i].arg) : NULL, *r;
    int rc = chv_agg_result_type(f.a, cases[i].fn, arg, &r, &f.err);
    char b[64];
    if (cases[i].want == NULL) {
      CHV_CHECK_EQ_INT(rc, CHV_ETYPE);
    } else if (rc != CHV_OK || strcmp(fx_type(r, b), cases[i].want) != 0) {
      fprintf(stderr, "agg case %zu: %s, want %s\n", i, rc ? f.err.msg : b,
              cases[i].want);
      CHV_CHECK(0);
    }
  }
  CHV_CHECK(chv_agg_result_type(f.a, CHV_AGG_SUM, parse_t(&f, "string"), NULL,
                                &f.err) == CHV_ETYPE);
  CHV_CHECK_STREQ(f.err.msg, "cannot apply 'sum' to string");
  fx_close(&f);
}

struct agg_case {
  enum chv_agg_fn fn;
  const char *type, *vals, *want;
};

static const struct agg_case agg_cases[] = {
    {CHV_AGG_COUNT_STAR, "int", "1|NULL|3", "3"},
    {CHV_AGG_COUNT, "int", "1|NULL|3", "2"},
    {CHV_AGG_COUNT_DISTINCT, "int", "1|1|NULL|2|2|3", "3"},
    {CHV_AGG_COUNT_DISTINCT, "string", "a|b|a|NULL|", "3"},
    {CHV_AGG_COUNT_DISTINCT, "double", "0|-0|NaN|NaN|1", "3"},
    {CHV_AGG_SUM, "int", "1|NULL|3|2147483647", "2147483651"},
    {CHV_AGG_SUM, "tinyint", "100|100", "200"},
    {CHV_AGG_SUM, "bigint", "9223372036854775807|1", "-9223372036854775808"},
    {CHV_AGG_SUM, "double", "0.5|NULL|1.25", "1.75"},
    {CHV_AGG_SUM, "float", "0.5|1.25", "1.75"},
    {CHV_AGG_SUM, "decimal(10,2)", "1.25|2.50|NULL", "3.75"},
    {CHV_AGG_SUM, "decimal(38,0)",
     "99999999999999999999999999999999999999|1", "NULL"},
    {CHV_AGG_SUM, "decimal(28,0)",
     "9999999999999999999999999999|9999999999999999999999999999",
     "19999999999999999999999999998"},
    {CHV_AGG_AVG, "int", "1|2|NULL", "1.5"},
    {CHV_AGG_AVG, "double", "1|2|4", "2.3333333333333335"},
    {CHV_AGG_AVG, "decimal(10,2)", "1.00|2.00|2.00", "1.666667"},
    {CHV_AGG_AVG, "decimal(10,2)", "-1.00|-2.00|-2.00", "-1.666667"},
    {CHV_AGG_MIN, "int", "3|NULL|-7|5", "-7"},
    {CHV_AGG_MAX, "int", "3|NULL|-7|5", "5"},
    {CHV_AGG_MIN, "string", "b|a|NULL|c|ab", "a"},
    {CHV_AGG_MAX, "string", "b|a|NULL|c|ab", "c"},
    {CHV_AGG_MAX, "double", "1|NaN|2", "NaN"},
    {CHV_AGG_MIN, "double", "1|NaN|2", "1.0"},
    {CHV_AGG_MIN, "double", "0|-0", "-0.0"},
    {CHV_AGG_MAX, "double", "-0|0", "0.0"},
    {CHV_AGG_MIN, "decimal(5,2)", "1.50|-2.25|NULL", "-2.25"},
    {CHV_AGG_MAX, "date", "2024-01-02|2023-12-31|NULL", "2024-01-02"},
    {CHV_AGG_MIN, "timestamp", "2024-01-02 00:00:00.5|2024-01-02 00:00:00.25",
     "2024-01-02 00:00:00.25"},
    {CHV_AGG_MIN, "boolean", "true|false|NULL", "false"},
    {CHV_AGG_MAX, "boolean", "false|NULL", "false"},
    /* empty input and all NULL: COUNT 0, the others NULL */
    {CHV_AGG_COUNT_STAR, "int", "", "0"},
    {CHV_AGG_COUNT, "int", "", "0"},
    {CHV_AGG_COUNT_DISTINCT, "int", "NULL|NULL", "0"},
    {CHV_AGG_SUM, "int", "", "NULL"},
    {CHV_AGG_SUM, "int", "NULL|NULL", "NULL"},
    {CHV_AGG_AVG, "decimal(5,2)", "NULL", "NULL"},
    {CHV_AGG_MIN, "string", "", "NULL"},
    {CHV_AGG_MAX, "double", "NULL", "NULL"},
};

/* Run fn over the column of f in one pass, and again as two partials
** (rows split at `split`) merged; both must give `want`. */
static void run_agg(struct fx *f, const struct agg_case *c, size_t idx) {
  const struct chv_type *arg = f->schema->children[0], *rt;
  CHV_REQUIRE_OK(chv_agg_result_type(f->a, c->fn, arg, &rt, &f->err), &f->err);
  int64_t n = f->b->nrows;
  struct chv_vector *v;
  CHV_REQUIRE_OK(chv_vector_open(rt, 1, &v, NULL), NULL);
  for (int mode = 0; mode < 2; mode++) {
    chv_agg_state *s = NULL, *s2 = NULL;
    CHV_REQUIRE_OK(chv_agg_state_open(c->fn, arg, rt, &s, NULL), NULL);
    CHV_REQUIRE_OK(chv_agg_state_open(c->fn, arg, rt, &s2, NULL), NULL);
    const struct chv_vector *col = c->fn == CHV_AGG_COUNT_STAR ? NULL : f->b->cols[0];
    if (mode == 0) {
      CHV_CHECK_OK(chv_agg_update(s, col, NULL, n, NULL, &f->err), &f->err);
    } else {
      uint32_t lo[16], hi[16];
      int64_t nl = 0, nh = 0;
      for (int64_t r = 0; r < n; r++) {
        if (r % 2) hi[nh++] = (uint32_t)r;
        else lo[nl++] = (uint32_t)r;
      }
      CHV_CHECK_OK(chv_agg_update(s, col, lo, nl, NULL, &f->err), &f->err);
      CHV_CHECK_OK(chv_agg_update(s2, col, hi, nh, NULL, &f->err), &f->err);
      CHV_CHECK_OK(chv_agg_merge(s, s2, NULL, &f->err), &f->err);
    }
    CHV_CHECK_OK(chv_agg_ensure_groups(s, 1, &f->err), &f->err);
    CHV_CHECK_OK(chv_agg_finalize(s, v, &f->err), &f->err);
    const char *got = fx_render(f, v);
    if (strcmp(got, c->want) != 0) {
      fprintf(stderr, "agg case %zu (%s of %s, %s): got %s, want %s\n", idx,
              c->fn == CHV_AGG_SUM ? "sum" : "fn", c->type,
              mode ? "merged" : "one pass", got, c->want);
      CHV_CHECK(0);
    }
    chv_agg_state_close(s);
    chv_agg_state_close(s2);
  }
  chv_vector_close(v);
}

static void test_agg_values(void) {
  for (size_t i = 0; i < CHV_ARRAY_SIZE(agg_cases); i++) {
    struct fx f;
    char cols[64];
    snprintf(cols, sizeof cols, "v %s", agg_cases[i].type);
    const char *data[] = {agg_cases[i].vals};
    if (fx_open(&f, cols, data) != CHV_OK) {
      fprintf(stderr, "agg case %zu: fixture %s\n", i, f.err.msg);
      CHV_CHECK(0);
    } else {
      run_agg(&f, &agg_cases[i], i);
    }
    fx_close(&f);
  }
}

/* Group ids: groups[i] for each selected row; merge through a map. */
static void test_agg_groups(void) {
  struct fx f;
  const char *data[] = {"1|2|3|4|NULL|6"};
  CHV_REQUIRE_OK(fx_open(&f, "v int", data), &f.err);
  const struct chv_type *rt;
  CHV_REQUIRE_OK(chv_agg_result_type(f.a, CHV_AGG_SUM, f.schema->children[0],
                                     &rt, NULL), NULL);
  chv_agg_state *s, *o;
  CHV_REQUIRE_OK(chv_agg_state_open(CHV_AGG_SUM, f.schema->children[0], rt, &s,
                                    NULL), NULL);
  CHV_REQUIRE_OK(chv_agg_state_open(CHV_AGG_SUM, f.schema->children[0], rt, &o,
                                    NULL), NULL);
  uint32_t g[] = {0, 1, 0, 2, 2, 1};
  CHV_CHECK_OK(chv_agg_update(s, f.b->cols[0], NULL, 6, g, NULL), NULL);
  CHV_CHECK_EQ_INT(chv_agg_ngroups(s), 3);
  uint32_t sel[] = {1, 4, 5}, g2[] = {0, 1, 0};
  CHV_CHECK_OK(chv_agg_update(o, f.b->cols[0], sel, 3, g2, NULL), NULL);
  uint32_t map[] = {3, 2}; /* o's 0 -> new group 3, o's 1 -> 2 */
  CHV_CHECK_OK(chv_agg_merge(s, o, map, NULL), NULL);
  struct chv_vector *v;
  CHV_REQUIRE_OK(chv_vector_open(rt, 1, &v, NULL), NULL);
  CHV_CHECK_OK(chv_agg_finalize(s, v, NULL), NULL);
  CHV_CHECK_STREQ(fx_render(&f, v), "4|8|4|8");
  chv_vector_close(v);
  chv_agg_state_close(s);
  chv_agg_state_close(o);
  fx_close(&f);
}

/* Render a result batch as sorted "k|k|a|a" rows joined by ';'. */
static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static void render_batch(struct fx *f, const struct chv_batch *b, char *out,
                         size_t cap) {
  char *rows[64];
  int64_t n = b->nrows < 64 ? b->nrows : 64;
  for (int64_t r = 0; r < n; r++) {
    rows[r] = calloc(1, 512);
    for (int c = 0; c < b->ncols; c++) {
      struct chv_vector *one;
      chv_vector_open(b->cols[c]->type, 1, &one, NULL);
      chv_vector_append_from(one, b->cols[c], r, NULL);
      size_t o = strlen(rows[r]);
      snprintf(rows[r] + o, 512 - o, "%s%s", c ? "," : "", fx_render(f, one));
      chv_vector_close(one);
    }
  }
  qsort(rows, (size_t)n, sizeof *rows, cmp_str);
  out[0] = '\0';
  for (int64_t r = 0; r < n; r++) {
    size_t o = strlen(out);
    snprintf(out + o, cap - o, "%s%s", r ? ";" : "", rows[r]);
    free(rows[r]);
  }
}

static const char *ha_cols = "k1 string, k2 int, v bigint, d double";
static const char *ha_data[] = {
    "a|b|a|NULL|a|NULL|b|a", "1|1|1|NULL|2|NULL|1|1",
    "10|20|NULL|5|7|5|1|10", "1.5|NULL|2.5|0|1|-1|2|NaN"};
static const int ha_keys[] = {0, 1};
static const enum chv_agg_fn ha_fns[] = {CHV_AGG_COUNT_STAR, CHV_AGG_SUM,
                                         CHV_AGG_MIN, CHV_AGG_COUNT_DISTINCT,
                                         CHV_AGG_AVG};
static const int ha_aggs[] = {-1, 2, 3, 2, 3};
static const char *ha_want =
    "NULL,NULL,2,10,-1.0,1,-0.5;"
    "a,1,3,20,1.5,1,NaN;"
    "a,2,1,7,1.0,1,1.0;"
    "b,1,2,21,2.0,2,2.0";

static void test_hash_agg(void) {
  struct fx f;
  CHV_REQUIRE_OK(fx_open(&f, ha_cols, ha_data), &f.err);
  struct chv_hash_agg_spec spec = {2, ha_keys, 5, ha_fns, ha_aggs, 0};
  chv_hash_agg *h, *h2;
  struct chv_batch *r;
  CHV_REQUIRE_OK(chv_hash_agg_open(f.schema, &spec, &h, &f.err), &f.err);
  CHV_CHECK_OK(chv_hash_agg_add(h, f.b, NULL, 0, &f.err), &f.err);
  CHV_REQUIRE_OK(chv_hash_agg_result(h, &r, &f.err), &f.err);
  CHV_CHECK_EQ_INT(r->nrows, 0); /* keys and no input: no groups */
  for (int c = 0; c < r->ncols; c++) CHV_CHECK_EQ_INT(r->cols[c]->length, 0);
  chv_batch_close(r);
  CHV_CHECK_OK(chv_hash_agg_add(h, f.b, NULL, f.b->nrows, &f.err), &f.err);
  CHV_CHECK_EQ_INT(chv_hash_agg_ngroups(h), 4);
  char got[2048];
  CHV_REQUIRE_OK(chv_hash_agg_result(h, &r, &f.err), &f.err);
  render_batch(&f, r, got, sizeof got);
  CHV_CHECK_STREQ(got, ha_want);
  chv_batch_close(r);
  chv_hash_agg_close(h);
  /* two partials over alternate rows, merged, give the same groups */
  uint32_t lo[] = {0, 2, 4, 6}, hi[] = {1, 3, 5, 7};
  CHV_REQUIRE_OK(chv_hash_agg_open(f.schema, &spec, &h, &f.err), &f.err);
  CHV_REQUIRE_OK(chv_hash_agg_open(f.schema, &spec, &h2, &f.err), &f.err);
  CHV_CHECK_OK(chv_hash_agg_add(h, f.b, lo, 4, &f.err), &f.err);
  CHV_CHECK_OK(chv_hash_agg_add(h2, f.b, hi, 4, &f.err), &f.err);
  CHV_CHECK_OK(chv_hash_agg_merge(h, h2, &f.err), &f.err);
  CHV_REQUIRE_OK(chv_hash_agg_result(h, &r, &f.err), &f.err);
  render_batch(&f, r, got, sizeof got);
  CHV_CHECK_STREQ(got, ha_want);
  CHV_CHECK_STREQ(r->schema->names[0], "k1");
  chv_batch_close(r);
  chv_hash_agg_close(h);
  chv_hash_agg_close(h2);
  /* no keys: one row even on no input */
  struct chv_hash_agg_spec none = {0, NULL, 5, ha_fns, ha_aggs, 0};
  CHV_REQUIRE_OK(chv_hash_agg_open(f.schema, &none, &h, &f.err), &f.err);
  CHV_CHECK_OK(chv_hash_agg_add(h, f.b, NULL, 0, &f.err), &f.err);
  CHV_REQUIRE_OK(chv_hash_agg_result(h, &r, &f.err), &f.err);
  render_batch(&f, r, got, sizeof got);
  CHV_CHECK_STREQ(got, "0,NULL,NULL,0,NULL");
  chv_batch_close(r);
  CHV_CHECK_OK(chv_hash_agg_add(h, f.b, NULL, f.b->nrows, &f.err), &f.err);
  CHV_REQUIRE_OK(chv_hash_agg_result(h, &r, &f.err), &f.err);
  render_batch(&f, r, got, sizeof got);
  CHV_CHECK_STREQ(got, "8,58,-1.0,5,NaN");
  chv_batch_close(r);
  chv_hash_agg_close(h);
  fx_close(&f);
}

/* Spilling: past its bound the aggregate takes rows only for the groups it
** holds and gives the others back; partitions split a level's rows again
** at the next level; the held groups plus the others aggregated apart are
** the groups of the whole. */
static void test_hash_agg_known_and_partition(void) {
  struct fx f;
  CHV_REQUIRE_OK(fx_open(&f, ha_cols, ha_data), &f.err);
  struct chv_hash_agg_spec spec = {2, ha_keys, 5, ha_fns, ha_aggs, 0};
  chv_hash_agg *h, *h2;
  struct chv_batch *r;
  char got[2048];
  uint32_t lo[] = {0, 1}, rest[] = {2, 3, 4, 5, 6, 7}, miss[8];
  int64_t nm = -1;
  CHV_REQUIRE_OK(chv_hash_agg_open(f.schema, &spec, &h, &f.err), &f.err);
  CHV_CHECK_OK(chv_hash_agg_add(h, f.b, lo, 2, &f.err), &f.err);
  int64_t held = chv_hash_agg_ngroups(h);
  size_t m = chv_hash_agg_memory(h);
  CHV_CHECK(m > 0);
  CHV_CHECK_OK(chv_hash_agg_add_known(h, f.b, rest, 6, miss, &nm, &f.err),
               &f.err);
  CHV_CHECK_EQ_INT(chv_hash_agg_ngroups(h), held); /* no group added */
  CHV_CHECK(nm > 0 && nm < 6);
  /* the rows given back, aggregated apart: with the held groups, the whole */
  CHV_REQUIRE_OK(chv_hash_agg_open(f.schema, &spec, &h2, &f.err), &f.err);
  CHV_CHECK_OK(chv_hash_agg_add(h2, f.b, miss, nm, &f.err), &f.err);
  CHV_CHECK_EQ_INT(chv_hash_agg_ngroups(h) + chv_hash_agg_ngroups(h2), 4);
  CHV_CHECK_OK(chv_hash_agg_merge(h, h2, &f.err), &f.err);
  CHV_CHECK_EQ_INT(chv_hash_agg_ngroups(h), 4);
  CHV_REQUIRE_OK(chv_hash_agg_result(h, &r, &f.err), &f.err);
  render_batch(&f, r, got, sizeof got);
  /* ha_want's groups and values (rendered in key order) */
  CHV_CHECK_STREQ(got, ha_want);
  CHV_CHECK_EQ_INT(nm, 3);
  chv_batch_close(r);
  chv_hash_agg_close(h2);
  /* partitions: equal keys together at every level, levels differ */
  uint8_t p0[8], p1[8], q0[8];
  struct chv_buf kb;
  chv_buf_init(&kb);
  CHV_CHECK_OK(chv_hash_agg_partition(h, f.b, NULL, 8, 0, 16, p0, &kb), NULL);
  CHV_CHECK_OK(chv_hash_agg_partition(h, f.b, NULL, 8, 0, 16, q0, &kb), NULL);
  CHV_CHECK_OK(chv_hash_agg_partition(h, f.b, NULL, 8, 1, 16, p1, &kb), NULL);
  CHV_CHECK(memcmp(p0, q0, 8) == 0);
  for (int i = 0; i < 8; i++) CHV_CHECK(p0[i] < 16 && p1[i] < 16);
  chv_buf_free(&kb);
  chv_hash_agg_close(h);
  fx_close(&f);
}

static void test_hash_agg_memory_limit(void) {
  struct fx f;
  const char *data[] = {""};
  CHV_REQUIRE_OK(fx_open(&f, "k bigint", data), &f.err);
  for (int64_t i = 0; i < 5000; i++)
    CHV_REQUIRE_OK(chv_vector_append_value(f.b->cols[0], &i, NULL), NULL);
  f.b->nrows = 5000;
  int keys[] = {0}, aggs[] = {-1};
  enum chv_agg_fn fns[] = {CHV_AGG_COUNT_STAR};
  struct chv_hash_agg_spec spec = {1, keys, 1, fns, aggs, 64 * 1024};
  chv_hash_agg *h;
  CHV_REQUIRE_OK(chv_hash_agg_open(f.schema, &spec, &h, &f.err), &f.err);
  int rc = chv_hash_agg_add(h, f.b, NULL, f.b->nrows, &f.err);
  CHV_CHECK_EQ_INT(rc, CHV_ENOMEM);
  CHV_CHECK_CONTAINS(f.err.msg, "hash aggregation (GROUP BY): more than its "
                                "memory limit of 65536 bytes");
  chv_hash_agg_close(h);
  /* the same input fits a larger bound */
  spec.memory_limit = 4 << 20;
  CHV_REQUIRE_OK(chv_hash_agg_open(f.schema, &spec, &h, &f.err), &f.err);
  CHV_CHECK_OK(chv_hash_agg_add(h, f.b, NULL, f.b->nrows, &f.err), &f.err);
  CHV_CHECK_EQ_INT(chv_hash_agg_ngroups(h), 5000);
  chv_hash_agg_close(h);
  fx_close(&f);
}

static void test_hash_agg_oom(void) {
  struct fx f;
  CHV_REQUIRE_OK(fx_open(&f, ha_cols, ha_data), &f.err);
  struct chv_hash_agg_spec spec = {2, ha_keys, 5, ha_fns, ha_aggs, 0};
  int failures = 0;
  for (long k = 1; k < 10000; k++) {
    chv_hash_agg *h = NULL, *h2 = NULL;
    struct chv_batch *r = NULL;
    chv_alloc_fail_after(k);
    int rc = chv_hash_agg_open(f.schema, &spec, &h, &f.err);
    if (rc == CHV_OK) rc = chv_hash_agg_open(f.schema, &spec, &h2, &f.err);
    if (rc == CHV_OK) rc = chv_hash_agg_add(h, f.b, NULL, 5, &f.err);
    if (rc == CHV_OK) rc = chv_hash_agg_add(h2, f.b, NULL, 8, &f.err);
    if (rc == CHV_OK) rc = chv_hash_agg_merge(h, h2, &f.err);
    if (rc == CHV_OK) rc = chv_hash_agg_result(h, &r, &f.err);
    chv_alloc_fail_after(0);
    chv_batch_close(r);
    chv_hash_agg_close(h);
    chv_hash_agg_close(h2);
    if (rc == CHV_OK) break;
    CHV_CHECK_EQ_INT(rc, CHV_ENOMEM);
    failures++;
  }
  CHV_CHECK(failures > 10);
  fx_close(&f);
}

/* MIN/MAX of strings and COUNT(DISTINCT) of strings keep copies: fail
** each allocation in turn through update, merge and finalize. */
static void test_agg_state_oom(void) {
  struct fx f;
  const char *data[] = {"pear|apple|NULL|fig|apple|kiwi|zucchini|"};
  CHV_REQUIRE_OK(fx_open(&f, "s string", data), &f.err);
  const struct chv_type *arg = f.schema->children[0];
  static const enum chv_agg_fn fns[] = {CHV_AGG_MIN, CHV_AGG_MAX,
                                        CHV_AGG_COUNT_DISTINCT};
  static const char *want[] = {"|apple", "zucchini|kiwi", "4|3"};
  uint32_t groups[] = {0, 1, 0, 1, 0, 1, 0, 0};
  for (size_t i = 0; i < CHV_ARRAY_SIZE(fns); i++) {
    const struct chv_type *rt;
    CHV_REQUIRE_OK(chv_agg_result_type(f.a, fns[i], arg, &rt, NULL), NULL);
    int failures = 0;
    for (long k = 1; k < 1000; k++) {
      chv_agg_state *s = NULL, *o = NULL;
      struct chv_vector *v = NULL;
      chv_alloc_fail_after(k);
      int rc = chv_agg_state_open(fns[i], arg, rt, &s, NULL);
      if (rc == CHV_OK) rc = chv_agg_state_open(fns[i], arg, rt, &o, NULL);
      if (rc == CHV_OK) rc = chv_agg_update(s, f.b->cols[0], NULL, 4, groups, NULL);
      if (rc == CHV_OK) {
        uint32_t sel[] = {4, 5, 6, 7};
        rc = chv_agg_update(o, f.b->cols[0], sel, 4, groups + 4, NULL);
      }
      if (rc == CHV_OK) rc = chv_agg_merge(s, o, NULL, NULL);
      if (rc == CHV_OK) rc = chv_vector_open(rt, 1, &v, NULL);
      if (rc == CHV_OK) rc = chv_agg_finalize(s, v, NULL);
      chv_alloc_fail_after(0);
      if (rc == CHV_OK) CHV_CHECK_STREQ(fx_render(&f, v), want[i]);
      chv_vector_close(v);
      chv_agg_state_close(s);
      chv_agg_state_close(o);
      if (rc == CHV_OK) break;
      CHV_CHECK_EQ_INT(rc, CHV_ENOMEM);
      failures++;
    }
    CHV_CHECK(failures > 3);
  }
  fx_close(&f);
}

/* One integer or string key goes through the group id cache; the same rows
** grouped by it and a constant second key (no cache) must give the same
** groups in the same order with the same counts and sums: strings of 0 to
** 10 bytes (NUL bytes inside, "a" and "a\0" apart), NULLs, more distinct
** keys than the cache holds, negative integers, and a selection. */
static void test_hash_agg_one_key_cache(void) {
  struct chv_error err = {0};
  struct chv_type *schema;
  CHV_REQUIRE_OK(
      chv_type_parse_columns("s string, i int, b bigint, z int, t string",
                             &schema, &err),
      &err);
  enum { N = 3000 };
  struct chv_batch *in;
  CHV_REQUIRE_OK(chv_batch_open(schema, N, &in, &err), &err);
  uint64_t seed = 7;
  uint32_t sel[N];
  int64_t nsel = 0;
  for (int r = 0; r < N; r++) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    unsigned u = (unsigned)(seed >> 33);
    char str[16] = {0};
    size_t len = u % 11;
    for (size_t j = 0; j < len; j++)
      str[j] = (char)(j == 1 && u % 3 == 0 ? 0 : 'a' + (u >> (j + 4)) % 3);
    if (u % 53 == 0)
      CHV_REQUIRE_OK(chv_vector_append_null(in->cols[0], &err), &err);
    else
      CHV_REQUIRE_OK(chv_vector_append_string(in->cols[0], str, len, &err),
                     &err);
    int32_t i = (int32_t)(u % 600) - 300;
    if (u % 41 == 0)
      CHV_REQUIRE_OK(chv_vector_append_null(in->cols[1], &err), &err);
    else
      CHV_REQUIRE_OK(chv_vector_append_value(in->cols[1], &i, &err), &err);
    int64_t b = (int64_t)i * 1000000007LL;
    CHV_REQUIRE_OK(chv_vector_append_value(in->cols[2], &b, &err), &err);
    int32_t z = 0;
    CHV_REQUIRE_OK(chv_vector_append_value(in->cols[3], &z, &err), &err);
    /* t: the strings of s without its NULLs (the no-NULL loop) */
    CHV_REQUIRE_OK(chv_vector_append_string(in->cols[4], str, len, &err),
                   &err);
    if (u % 5) sel[nsel++] = (uint32_t)r;
  }
  in->nrows = N;
  enum chv_agg_fn fns[] = {CHV_AGG_COUNT_STAR, CHV_AGG_SUM};
  for (int key = 0; key < 5; key++)
    for (int use_sel = 0; use_sel < 2; use_sel++) {
      if (key == 3) continue; /* the constant */
      int k1[] = {key}, k2[] = {key, 3}, aggs[] = {-1, 2};
      struct chv_hash_agg_spec one = {1, k1, 2, fns, aggs, 0};
      struct chv_hash_agg_spec two = {2, k2, 2, fns, aggs, 0};
      chv_hash_agg *h1, *h2;
      CHV_REQUIRE_OK(chv_hash_agg_open(schema, &one, &h1, &err), &err);
      CHV_REQUIRE_OK(chv_hash_agg_open(schema, &two, &h2, &err), &err);
      if (!use_sel) { /* all rows, twice: the second time all cached */
        for (int t = 0; t < 2; t++) {
          CHV_REQUIRE_OK(chv_hash_agg_add(h1, in, NULL, N, &err), &err);
          CHV_REQUIRE_OK(chv_hash_agg_add(h2, in, NULL, N, &err), &err);
        }
      } else { /* selected rows in pieces */
        for (int64_t a = 0; a < nsel; a += 700) {
          int64_t n = CHV_MIN(700, nsel - a);
          CHV_REQUIRE_OK(chv_hash_agg_add(h1, in, sel + a, n, &err), &err);
          CHV_REQUIRE_OK(chv_hash_agg_add(h2, in, sel + a, n, &err), &err);
        }
      }
      struct chv_batch *r1, *r2;
      CHV_REQUIRE_OK(chv_hash_agg_result(h1, &r1, &err), &err);
      CHV_REQUIRE_OK(chv_hash_agg_result(h2, &r2, &err), &err);
      CHV_CHECK_EQ_INT(r1->nrows, r2->nrows);
      CHV_CHECK(r1->nrows > (key == 0 || key == 4 ? 256 : 300));
      for (int64_t g = 0; g < r1->nrows && g < r2->nrows; g++) {
        struct chv_value a, b;
        chv_func_get_value(r1->cols[0], g, &a);
        chv_func_get_value(r2->cols[0], g, &b);
        CHV_CHECK(a.is_null == b.is_null);
        if (key == 0 || key == 4)
          CHV_CHECK(a.len == b.len &&
                    (a.len == 0 || memcmp(a.str, b.str, (size_t)a.len) == 0));
        else
          CHV_CHECK(a.i64 == b.i64);
        for (int c = 0; c < 2; c++) {
          chv_func_get_value(r1->cols[1 + c], g, &a);
          chv_func_get_value(r2->cols[2 + c], g, &b);
          CHV_CHECK(a.i64 == b.i64);
        }
      }
      chv_batch_close(r1);
      chv_batch_close(r2);
      chv_hash_agg_close(h1);
      chv_hash_agg_close(h2);
    }
  chv_batch_close(in);
  chv_type_free(schema);
}

CHV_TEST_MAIN("exec_agg", test_result_types, test_agg_values, test_agg_groups,
              test_hash_agg, test_hash_agg_one_key_cache,
              test_hash_agg_memory_limit, test_hash_agg_known_and_partition,
              test_hash_agg_oom,
              test_agg_state_oom)
