/* Tests of the statistics the metastore keeps for a planner
** (src/catalog/colstats.c): basic statistics of a table, a partition and a
** partitioned table summed; column statistics stored as Hive's
** TAB_COL_STATS / PART_COL_STATS rows, read back, merged over partitions;
** COLUMN_STATS_ACCURATE as Hive writes it and what a write does to it; the
** migration of a version 3 metastore; and the distinct-value counter
** (common/hll.c). */
#include "chv_test.h"
#include "catalog/catalog.h"
#include "fs/fs.h"

#include <math.h>
#include <sqlite3.h>

static chv_catalog *open_wh(const char *wh) {
  struct chv_error err;
  chv_catalog *c = NULL;
  if (chv_catalog_open(wh, NULL, &c, &err) != CHV_OK)
    fprintf(stderr, "open: %s\n", err.msg);
  return c;
}

/* t (id bigint, s string, f double, m decimal(10,2), ok boolean, a
** array<int>) [PARTITIONED BY (dt string)] */
static int make(chv_catalog *c, const char *name, bool parted,
                struct chv_error *err) {
  struct chv_column cols[6] = {
      {"id", "bigint", NULL},       {"s", "string", NULL},
      {"f", "double", NULL},        {"m", "decimal(10,2)", NULL},
      {"ok", "boolean", NULL},      {"a", "array<int>", NULL}};
  struct chv_column keys[1] = {{"dt", "string", NULL}};
  struct chv_table t;
  memset(&t, 0, sizeof t);
  t.name = (char *)name;
  t.columns = cols;
  t.ncols = 6;
  t.pkeys = keys;
  t.npkeys = parted ? 1 : 0;
  return chv_catalog_create_table(c, &t, 0, err);
}

static int add_part(chv_catalog *c, const char *v, int64_t rows,
                    struct chv_error *err) {
  char *vals[1] = {(char *)v};
  char n[24];
  snprintf(n, sizeof n, "%lld", (long long)rows);
  struct chv_kv kv[2] = {{"numRows", n}, {"numFiles", "1"}};
  struct chv_partition p = {.values = vals, .nvalues = 1, .params = kv,
                            .nparams = rows >= 0 ? 2 : 1};
  if (rows < 0) p.params = &kv[1];
  return chv_catalog_add_partitions(c, NULL, "p", &p, 1, 0, err);
}

static void test_kinds_and_json(void) {
  enum chv_colstats_kind k;
  CHV_CHECK(chv_colstats_kind_of("INT", &k) && k == CHV_COLSTATS_LONG);
  CHV_CHECK(chv_colstats_kind_of("decimal(38,18)", &k) &&
            k == CHV_COLSTATS_DECIMAL);
  CHV_CHECK(chv_colstats_kind_of("varchar(10)", &k) && k == CHV_COLSTATS_STRING);
  CHV_CHECK(chv_colstats_kind_of("timestamp", &k) &&
            k == CHV_COLSTATS_TIMESTAMP);
  CHV_CHECK(!chv_colstats_kind_of("array<int>", &k));
  CHV_CHECK(!chv_colstats_kind_of("struct<a:int>", &k));
  CHV_CHECK(!chv_colstats_kind_of("interval", &k));
  CHV_CHECK_STREQ(chv_colstats_kind_name(CHV_COLSTATS_BOOLEAN), "boolean");

  char *cols[3] = {"b", "a", "b"};
  char *j = chv_colstats_accurate_format(true, cols, 3);
  CHV_CHECK_STREQ(j, "{\"BASIC_STATS\":\"true\",\"COLUMN_STATS\":"
                     "{\"a\":\"true\",\"b\":\"true\"}}");
  bool basic;
  char **got;
  int n;
  CHV_CHECK_OK(chv_colstats_accurate_parse(j, &basic, &got, &n), NULL);
  CHV_CHECK(basic);
  CHV_CHECK_EQ_INT(n, 2);
  if (n == 2) {
    CHV_CHECK_STREQ(got[0], "a");
    CHV_CHECK_STREQ(got[1], "b");
  }
  chv_strv_free(got, n);
  chv_free(j);
  j = chv_colstats_accurate_format(true, NULL, 0);
  CHV_CHECK_STREQ(j, "{\"BASIC_STATS\":\"true\"}");
  chv_free(j);
  /* Hive's other spellings; a false column; text that is not JSON */
  CHV_CHECK_OK(chv_colstats_accurate_parse(
                   " { \"COLUMN_STATS\" : {\"x\":\"true\", \"y\":\"false\"},"
                   "\"BASIC_STATS\":true}",
                   &basic, &got, &n),
               NULL);
  CHV_CHECK(basic);
  CHV_CHECK_EQ_INT(n, 1);
  chv_strv_free(got, n);
  CHV_CHECK_OK(chv_colstats_accurate_parse("{\"BASIC_STATS\":", &basic, &got,
                                           &n),
               NULL);
  CHV_CHECK(!basic);
  CHV_CHECK_EQ_INT(n, 0);
  CHV_CHECK_OK(chv_colstats_accurate_parse("true", &basic, &got, &n), NULL);
  CHV_CHECK(!basic);
}

static void test_table_stats(void) {
  struct chv_error err;
  char *wh = chv_path_join(chv_test_tmpdir(), "basic");
  chv_catalog *c = open_wh(wh);
  CHV_REQUIRE(c != NULL);
  CHV_REQUIRE_OK(make(c, "t", false, &err), &err);
  CHV_REQUIRE_OK(make(c, "p", true, &err), &err);
  struct chv_table_stats ts;
  /* nothing stored: unknown */
  CHV_REQUIRE_OK(chv_catalog_table_stats(c, NULL, "t", NULL, &ts, &err), &err);
  CHV_CHECK_EQ_INT(ts.num_rows, -1);
  CHV_CHECK(!ts.accurate);
  struct chv_stats s = {10, 2, 300, 250};
  CHV_REQUIRE_OK(chv_catalog_set_table_stats(c, NULL, "t", &s, &err), &err);
  CHV_REQUIRE_OK(chv_catalog_table_stats(c, NULL, "t", NULL, &ts, &err), &err);
  CHV_CHECK_EQ_INT(ts.num_rows, 10);
  CHV_CHECK_EQ_INT(ts.total_size, 300);
  CHV_CHECK(!ts.accurate); /* no COLUMN_STATS_ACCURATE yet */
  CHV_REQUIRE_OK(chv_catalog_stats_basic_accurate(c, NULL, "t", NULL, &err),
                 &err);
  CHV_REQUIRE_OK(chv_catalog_table_stats(c, NULL, "t", NULL, &ts, &err), &err);
  CHV_CHECK(ts.accurate);
  CHV_CHECK_EQ_INT(ts.partitions, 0);
  /* a partitioned table: the sum, unknown while one partition lacks it */
  CHV_REQUIRE_OK(chv_catalog_table_stats(c, NULL, "p", NULL, &ts, &err), &err);
  CHV_CHECK_EQ_INT(ts.num_rows, 0);
  CHV_CHECK_EQ_INT(ts.partitions, 0);
  CHV_REQUIRE_OK(add_part(c, "a", 5, &err), &err);
  CHV_REQUIRE_OK(add_part(c, "b", 7, &err), &err);
  CHV_REQUIRE_OK(chv_catalog_table_stats(c, NULL, "p", NULL, &ts, &err), &err);
  CHV_CHECK_EQ_INT(ts.num_rows, 12);
  CHV_CHECK_EQ_INT(ts.num_files, 2);
  CHV_CHECK_EQ_INT(ts.total_size, -1);
  CHV_CHECK_EQ_INT(ts.partitions, 2);
  CHV_CHECK_EQ_INT(ts.partitions_with_rows, 2);
  CHV_REQUIRE_OK(add_part(c, NULL, -1, &err), &err); /* the default one */
  CHV_REQUIRE_OK(chv_catalog_table_stats(c, NULL, "p", NULL, &ts, &err), &err);
  CHV_CHECK_EQ_INT(ts.num_rows, -1);
  CHV_CHECK_EQ_INT(ts.partitions, 3);
  CHV_CHECK_EQ_INT(ts.partitions_with_rows, 2);
  CHV_REQUIRE_OK(chv_catalog_table_stats(c, NULL, "p", "dt=b", &ts, &err),
                 &err);
  CHV_CHECK_EQ_INT(ts.num_rows, 7);
  CHV_REQUIRE_OK(chv_catalog_table_stats(c, NULL, "p",
                                         "dt=" CHV_DEFAULT_PARTITION_NAME, &ts,
                                         &err),
                 &err);
  CHV_CHECK_EQ_INT(ts.num_rows, -1);
  /* errors */
  CHV_CHECK_EQ_INT(chv_catalog_table_stats(c, NULL, "p", "dt=zz", &ts, &err),
                   CHV_ENOENT);
  CHV_CHECK_CONTAINS(err.msg, "dt=zz");
  CHV_CHECK_EQ_INT(chv_catalog_table_stats(c, NULL, "t", "dt=a", &ts, &err),
                   CHV_EINVAL);
  CHV_CHECK_EQ_INT(chv_catalog_table_stats(c, NULL, "nope", NULL, &ts, &err),
                   CHV_ENOENT);
  chv_catalog_close(c);
  chv_free(wh);
}

/* Statistics of an id column holding lo..hi (n values), with a sketch. */
static void long_stats(struct chv_column_stats *s, int64_t lo, int64_t hi,
                       int64_t nulls) {
  memset(s, 0, sizeof *s);
  s->column = "id";
  s->type = "bigint";
  s->kind = CHV_COLSTATS_LONG;
  s->has_low_high = true;
  s->long_low = lo;
  s->long_high = hi;
  s->num_nulls = nulls;
  s->avg_col_len = s->max_col_len = -1;
  s->num_trues = s->num_falses = -1;
  struct chv_hll h = {0};
  for (int64_t v = lo; v <= hi; v++)
    chv_hll_add(&h, chv_hash64(&v, sizeof v, 1));
  s->num_distincts = chv_hll_count(&h);
  chv_hll_serialize(&h, &s->bit_vector, &s->bit_vector_len);
  chv_hll_free(&h);
}

static void test_column_stats(void) {
  struct chv_error err;
  char *wh = chv_path_join(chv_test_tmpdir(), "columns");
  chv_catalog *c = open_wh(wh);
  CHV_REQUIRE(c != NULL);
  CHV_REQUIRE_OK(make(c, "t", false, &err), &err);
  struct chv_column_stats in[4];
  long_stats(&in[0], 1, 100, 3);
  memset(&in[1], 0, sizeof in[1]);
  in[1] = (struct chv_column_stats){
      .column = "S", .type = "string", .kind = CHV_COLSTATS_STRING,
      .num_nulls = 0, .num_distincts = 40, .avg_col_len = 3.5,
      .max_col_len = 9, .num_trues = -1, .num_falses = -1,
      .last_analyzed = 1700000000};
  in[2] = (struct chv_column_stats){
      .column = "m", .type = "decimal(10,2)", .kind = CHV_COLSTATS_DECIMAL,
      .has_low_high = true, .decimal_low = "-1.50", .decimal_high = "99.99",
      .num_nulls = 1, .num_distincts = 7, .avg_col_len = -1,
      .max_col_len = -1, .num_trues = -1, .num_falses = -1};
  in[3] = (struct chv_column_stats){
      .column = "ok", .type = "boolean", .kind = CHV_COLSTATS_BOOLEAN,
      .num_nulls = 2, .num_distincts = -1, .avg_col_len = -1,
      .max_col_len = -1, .num_trues = 10, .num_falses = 5};
  CHV_REQUIRE_OK(chv_catalog_set_column_stats(c, NULL, "t", NULL, in, 4, &err),
                 &err);
  /* Hive's row shape, readable by any SQLite client */
  char *path = chv_path_join(wh, CHV_METASTORE_FILE);
  sqlite3 *db;
  CHV_REQUIRE(sqlite3_open(path, &db) == SQLITE_OK);
  sqlite3_stmt *st;
  CHV_REQUIRE(sqlite3_prepare_v2(
                  db,
                  "SELECT long_low_value, long_high_value, num_nulls, "
                  "num_distincts, engine FROM tab_col_stats WHERE "
                  "column_name = 'id'",
                  -1, &st, NULL) == SQLITE_OK);
  CHV_REQUIRE(sqlite3_step(st) == SQLITE_ROW);
  CHV_CHECK_EQ_INT(sqlite3_column_int64(st, 0), 1);
  CHV_CHECK_EQ_INT(sqlite3_column_int64(st, 1), 100);
  CHV_CHECK_EQ_INT(sqlite3_column_int64(st, 2), 3);
  CHV_CHECK_EQ_INT(sqlite3_column_int64(st, 3), 100);
  CHV_CHECK_STREQ((const char *)sqlite3_column_text(st, 4), "hive");
  sqlite3_finalize(st);

  struct chv_column_stats *out;
  int n;
  CHV_REQUIRE_OK(chv_catalog_column_stats(c, NULL, "t", NULL, NULL, 0, &out,
                                          &n, &err),
                 &err);
  CHV_REQUIRE(n == 4); /* in table order: id, s, m, ok */
  CHV_CHECK_STREQ(out[0].column, "id");
  CHV_CHECK_EQ_INT(out[0].num_distincts, 100);
  CHV_CHECK(out[0].bit_vector != NULL);
  CHV_CHECK(out[0].accurate);
  CHV_CHECK_STREQ(out[1].column, "s");
  CHV_CHECK(fabs(out[1].avg_col_len - 3.5) < 1e-9);
  CHV_CHECK_EQ_INT(out[1].max_col_len, 9);
  CHV_CHECK_EQ_INT(out[1].last_analyzed, 1700000000);
  CHV_CHECK(!out[1].has_low_high);
  CHV_CHECK_STREQ(out[2].decimal_low, "-1.50");
  CHV_CHECK_STREQ(out[2].decimal_high, "99.99");
  CHV_CHECK_EQ_INT(out[3].num_trues, 10);
  CHV_CHECK_EQ_INT(out[3].num_distincts, -1);
  chv_column_stats_free(out, n);
  struct chv_table t;
  CHV_REQUIRE_OK(chv_catalog_get_table(c, NULL, "t", &t, &err), &err);
  CHV_CHECK_STREQ(chv_kv_get(t.params, t.nparams, "COLUMN_STATS_ACCURATE"),
                  "{\"COLUMN_STATS\":{\"id\":\"true\",\"m\":\"true\","
                  "\"ok\":\"true\",\"s\":\"true\"}}");
  chv_table_free(&t);

  /* asked by name; a column without statistics is left out */
  const char *want[2] = {"F", "id"};
  CHV_REQUIRE_OK(chv_catalog_column_stats(c, NULL, "t", NULL, want, 2, &out,
                                          &n, &err),
                 &err);
  CHV_CHECK_EQ_INT(n, 1);
  chv_column_stats_free(out, n);

  /* a write: the rows stay, no longer accurate */
  CHV_REQUIRE_OK(chv_catalog_stats_basic_accurate(c, NULL, "t", NULL, &err),
                 &err);
  CHV_REQUIRE_OK(chv_catalog_stats_changed(c, NULL, "t", NULL, true, &err),
                 &err);
  CHV_REQUIRE_OK(chv_catalog_get_table(c, NULL, "t", &t, &err), &err);
  CHV_CHECK_STREQ(chv_kv_get(t.params, t.nparams, "COLUMN_STATS_ACCURATE"),
                  "{\"BASIC_STATS\":\"true\"}");
  CHV_REQUIRE_OK(chv_catalog_column_stats(c, NULL, "t", NULL, NULL, 0, &out,
                                          &n, &err),
                 &err);
  CHV_CHECK_EQ_INT(n, 4);
  CHV_CHECK(n > 0 && !out[0].accurate);
  chv_column_stats_free(out, n);
  CHV_REQUIRE_OK(chv_catalog_stats_changed(c, NULL, "t", NULL, false, &err),
                 &err);
  chv_table_free(&t);
  CHV_REQUIRE_OK(chv_catalog_get_table(c, NULL, "t", &t, &err), &err);
  CHV_CHECK(chv_kv_get(t.params, t.nparams, "COLUMN_STATS_ACCURATE") == NULL);

  /* errors: an unknown column, a kind that does not fit, a nested type */
  struct chv_column_stats bad = in[1];
  bad.column = "nope";
  CHV_CHECK_EQ_INT(
      chv_catalog_set_column_stats(c, NULL, "t", NULL, &bad, 1, &err),
      CHV_EINVAL);
  CHV_CHECK_CONTAINS(err.msg, "nope");
  bad.column = "id";
  CHV_CHECK_EQ_INT(
      chv_catalog_set_column_stats(c, NULL, "t", NULL, &bad, 1, &err),
      CHV_EINVAL);
  bad.column = "a";
  CHV_CHECK_EQ_INT(
      chv_catalog_set_column_stats(c, NULL, "t", NULL, &bad, 1, &err),
      CHV_EINVAL);
  const char *nope[1] = {"nope"};
  CHV_CHECK_EQ_INT(chv_catalog_column_stats(c, NULL, "t", NULL, nope, 1, &out,
                                            &n, &err),
                   CHV_EINVAL);

  /* ALTER TABLE dropping a column and retyping another drops their rows */
  struct chv_column cols[3] = {{"id", "int", NULL},
                               {"s", "string", NULL},
                               {"ok", "boolean", NULL}};
  struct chv_table nt = t; /* t's definition with these columns */
  nt.columns = cols;
  nt.ncols = 3;
  CHV_REQUIRE_OK(chv_catalog_alter_table(c, NULL, "t", &nt, &err), &err);
  CHV_REQUIRE_OK(chv_catalog_column_stats(c, NULL, "t", NULL, NULL, 0, &out,
                                          &n, &err),
                 &err);
  CHV_CHECK_EQ_INT(n, 2); /* s and ok */
  chv_column_stats_free(out, n);
  chv_table_free(&t);
  /* dropping the table drops them */
  CHV_REQUIRE_OK(chv_catalog_drop_table(c, NULL, "t", 0, &err), &err);
  CHV_REQUIRE(sqlite3_prepare_v2(db, "SELECT count(*) FROM tab_col_stats",
                                 -1, &st, NULL) == SQLITE_OK);
  CHV_REQUIRE(sqlite3_step(st) == SQLITE_ROW);
  CHV_CHECK_EQ_INT(sqlite3_column_int64(st, 0), 0);
  sqlite3_finalize(st);
  sqlite3_close(db);
  chv_free(in[0].bit_vector);
  chv_catalog_close(c);
  chv_free(path);
  chv_free(wh);
}

static void test_partition_merge(void) {
  struct chv_error err;
  char *wh = chv_path_join(chv_test_tmpdir(), "merge");
  chv_catalog *c = open_wh(wh);
  CHV_REQUIRE(c != NULL);
  CHV_REQUIRE_OK(make(c, "p", true, &err), &err);
  CHV_REQUIRE_OK(add_part(c, "a", 2000, &err), &err);
  CHV_REQUIRE_OK(add_part(c, "b", 1000, &err), &err);
  CHV_REQUIRE_OK(add_part(c, "c", 10, &err), &err);
  struct chv_column_stats a[2], b[2];
  long_stats(&a[0], 1, 2000, 0);   /* overlapping ranges: */
  long_stats(&b[0], 1501, 2500, 4); /* 2500 distinct in all */
  a[1] = (struct chv_column_stats){
      .column = "s", .type = "string", .kind = CHV_COLSTATS_STRING,
      .num_nulls = 0, .num_distincts = 10, .avg_col_len = 2.0,
      .max_col_len = 3, .num_trues = -1, .num_falses = -1};
  b[1] = a[1];
  b[1].avg_col_len = 5.0;
  b[1].max_col_len = 8;
  /* an unpartitioned call on a partitioned table is refused */
  CHV_CHECK_EQ_INT(chv_catalog_set_column_stats(c, NULL, "p", NULL, a, 2, &err),
                   CHV_EINVAL);
  CHV_REQUIRE_OK(chv_catalog_set_column_stats(c, NULL, "p", "dt=a", a, 2, &err),
                 &err);
  CHV_REQUIRE_OK(chv_catalog_set_column_stats(c, NULL, "p", "dt=b", b, 2, &err),
                 &err);
  struct chv_column_stats *out;
  int n;
  CHV_REQUIRE_OK(chv_catalog_column_stats(c, NULL, "p", NULL, NULL, 0, &out,
                                          &n, &err),
                 &err);
  CHV_REQUIRE(n == 2);
  CHV_CHECK_EQ_INT(out[0].long_low, 1);
  CHV_CHECK_EQ_INT(out[0].long_high, 2500);
  CHV_CHECK_EQ_INT(out[0].num_nulls, 4);
  /* sketches merged: near 2500, not 3000 (a sum) nor 2000 (a max) */
  CHV_CHECK(llabs(out[0].num_distincts - 2500) < 2500 / 25);
  /* the average weighted by values: (2 * 2000 + 5 * 1000) / 3000 */
  CHV_CHECK(fabs(out[1].avg_col_len - 3.0) < 1e-9);
  CHV_CHECK_EQ_INT(out[1].max_col_len, 8);
  /* partition c has none: not accurate as a whole */
  CHV_CHECK(!out[0].accurate);
  chv_column_stats_free(out, n);
  CHV_REQUIRE_OK(chv_catalog_column_stats(c, NULL, "p", "dt=b", NULL, 0, &out,
                                          &n, &err),
                 &err);
  CHV_CHECK_EQ_INT(n, 2);
  CHV_CHECK(n > 0 && out[0].accurate);
  chv_column_stats_free(out, n);
  /* a write to partition b: its column statistics stop being accurate */
  CHV_REQUIRE_OK(chv_catalog_stats_changed(c, NULL, "p", "dt=b", true, &err),
                 &err);
  CHV_REQUIRE_OK(chv_catalog_column_stats(c, NULL, "p", "dt=b", NULL, 0, &out,
                                          &n, &err),
                 &err);
  CHV_CHECK(n > 0 && !out[0].accurate);
  chv_column_stats_free(out, n);
  /* dropping a partition drops its rows (the merge forgets them) */
  char *v[1] = {"b"};
  char **vals[1] = {v};
  CHV_REQUIRE_OK(chv_catalog_drop_partitions(c, NULL, "p", vals, 1,
                                             CHV_CAT_KEEP_DATA, &err),
                 &err);
  CHV_REQUIRE_OK(chv_catalog_column_stats(c, NULL, "p", NULL, NULL, 0, &out,
                                          &n, &err),
                 &err);
  CHV_CHECK(n > 0 && out[0].long_high == 2000);
  chv_column_stats_free(out, n);
  chv_free(a[0].bit_vector);
  chv_free(b[0].bit_vector);
  chv_catalog_close(c);
  chv_free(wh);
}

/* A version 3 metastore (before column statistics) opens, gains the
** tables, keeps its data; user_version becomes 4. */
static void test_migrate_v3(void) {
  struct chv_error err;
  char *wh = chv_path_join(chv_test_tmpdir(), "v3");
  chv_catalog *c = open_wh(wh);
  CHV_REQUIRE(c != NULL);
  CHV_REQUIRE_OK(make(c, "t", false, &err), &err);
  chv_catalog_close(c);
  char *path = chv_path_join(wh, CHV_METASTORE_FILE);
  sqlite3 *db;
  CHV_REQUIRE(sqlite3_open(path, &db) == SQLITE_OK);
  CHV_REQUIRE(sqlite3_exec(db,
                           "DROP TABLE tab_col_stats; DROP TABLE "
                           "part_col_stats; PRAGMA user_version = 3;",
                           NULL, NULL, NULL) == SQLITE_OK);
  sqlite3_close(db);
  c = open_wh(wh);
  CHV_REQUIRE(c != NULL);
  CHV_CHECK(chv_catalog_table_exists(c, NULL, "t"));
  struct chv_column_stats s;
  long_stats(&s, 5, 9, 0);
  CHV_CHECK_OK(chv_catalog_set_column_stats(c, NULL, "t", NULL, &s, 1, &err),
               &err);
  chv_free(s.bit_vector);
  chv_catalog_close(c);
  CHV_REQUIRE(sqlite3_open(path, &db) == SQLITE_OK);
  sqlite3_stmt *st;
  CHV_REQUIRE(sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, NULL) ==
              SQLITE_OK);
  CHV_REQUIRE(sqlite3_step(st) == SQLITE_ROW);
  CHV_CHECK_EQ_INT(sqlite3_column_int(st, 0), 4);
  sqlite3_finalize(st);
  sqlite3_close(db);
  chv_free(path);
  chv_free(wh);
}

static void test_hll(void) {
  struct chv_hll h = {0};
  /* exact while small, duplicates ignored */
  for (int r = 0; r < 3; r++)
    for (int64_t v = 0; v < CHV_HLL_EXACT; v++)
      CHV_REQUIRE(chv_hll_add(&h, chv_hash64(&v, sizeof v, 0)) == CHV_OK);
  CHV_CHECK_EQ_INT(chv_hll_count(&h), CHV_HLL_EXACT);
  CHV_CHECK(h.reg == NULL);
  unsigned char *b;
  size_t len;
  CHV_REQUIRE(chv_hll_serialize(&h, &b, &len) == CHV_OK);
  struct chv_hll back = {0};
  struct chv_error err;
  CHV_REQUIRE_OK(chv_hll_deserialize(b, len, &back, &err), &err);
  CHV_CHECK_EQ_INT(chv_hll_count(&back), CHV_HLL_EXACT);
  chv_hll_free(&back);
  /* damaged bytes */
  b[5] = 'Q';
  CHV_CHECK_EQ_INT(chv_hll_deserialize(b, len, &back, &err), CHV_ECORRUPT);
  CHV_CHECK_EQ_INT(chv_hll_deserialize(b, 3, &back, &err), CHV_ECORRUPT);
  b[5] = 'E';
  CHV_CHECK_EQ_INT(chv_hll_deserialize(b, len - 1, &back, &err), CHV_ECORRUPT);
  chv_free(b);
  /* estimates within 3 standard errors (0.81%) at several sizes */
  static const int64_t sizes[] = {2000, 20000, 300000};
  for (size_t i = 0; i < CHV_ARRAY_SIZE(sizes); i++) {
    chv_hll_free(&h);
    for (int64_t v = 0; v < sizes[i]; v++)
      chv_hll_add(&h, chv_hash64(&v, sizeof v, 7));
    double e = (double)chv_hll_count(&h) / (double)sizes[i] - 1;
    CHV_CHECK(fabs(e) < 0.025);
    if (fabs(e) >= 0.025)
      fprintf(stderr, "n=%lld error %.4f\n", (long long)sizes[i], e);
  }
  /* merge: the union of two halves, one exact and one dense */
  struct chv_hll x = {0}, y = {0};
  for (int64_t v = 0; v < 500; v++) chv_hll_add(&x, chv_hash64(&v, 8, 3));
  for (int64_t v = 250; v < 60000; v++) chv_hll_add(&y, chv_hash64(&v, 8, 3));
  CHV_REQUIRE(chv_hll_merge(&x, &y) == CHV_OK);
  double e = (double)chv_hll_count(&x) / 60000.0 - 1;
  CHV_CHECK(fabs(e) < 0.025);
  CHV_REQUIRE(chv_hll_serialize(&x, &b, &len) == CHV_OK);
  CHV_REQUIRE_OK(chv_hll_deserialize(b, len, &back, &err), &err);
  CHV_CHECK_EQ_INT(chv_hll_count(&back), chv_hll_count(&x));
  b[10] = 200; /* a register out of range */
  struct chv_hll bad = {0};
  CHV_CHECK_EQ_INT(chv_hll_deserialize(b, len, &bad, &err), CHV_ECORRUPT);
  chv_free(b);
  chv_hll_free(&back);
  chv_hll_free(&x);
  chv_hll_free(&y);
  chv_hll_free(&h);
}

CHV_TEST_MAIN("colstats", test_kinds_and_json, test_table_stats,
              test_column_stats, test_partition_merge, test_migrate_v3,
              test_hll)
