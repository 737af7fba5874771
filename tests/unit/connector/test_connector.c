/* Tests of src/connector: the batch sink's commit protocol and the scan. */
#include "chv_test.h"
#include "connector/connector.h"
#include "chive/source.h"
#include "conn_fixture.h"

#include <sys/stat.h>

/* Sum of ids and row count of a scan with an optional filter and limit. */
static int scan_sum(chv_catalog *cat, const struct chv_part_filter *f,
                    int64_t limit, int64_t *rows, int64_t *sum,
                    struct chv_scan_stats *st, struct chv_error *err) {
  struct chv_scan_options o;
  chv_scan_options_init(&o);
  o.filter = f;
  o.limit = limit;
  o.batch_rows = 7;
  chv_scan *s;
  int rc = chv_scan_open(cat, "default", "t", &o, &s, err);
  if (rc != CHV_OK) return rc;
  *rows = *sum = 0;
  struct chv_batch *b;
  while ((rc = chv_scan_next(s, &b, err)) == CHV_OK && b) {
    const int32_t *ids = b->cols[0]->data;
    for (int64_t i = 0; i < b->nrows; i++) *sum += ids[i];
    *rows += b->nrows;
    if (b->cols[0]->length != b->nrows) rc = CHV_EINTERNAL;
  }
  if (st) chv_scan_stats(s, st);
  chv_scan_close(s);
  return rc;
}

static void test_sink_and_scan_partitioned(void) {
  struct chv_error err;
  const char *wh = chv_test_tmpdir();
  chv_catalog *cat = open_table(wh, "string", &err);
  CHV_REQUIRE(cat != NULL);
  CHV_REQUIRE_OK(write_rows(cat, "2026-01-01", 0, 10, false, true, &err), &err);
  CHV_REQUIRE_OK(write_rows(cat, "2026-01-02", 100, 20, false, true, &err),
                 &err);

  char path[700];
  snprintf(path, sizeof path, "%s/t/dt=2026-01-01/_SUCCESS", wh);
  struct stat sb;
  CHV_CHECK(stat(path, &sb) == 0);

  int64_t rows, sum;
  struct chv_scan_stats st;
  CHV_REQUIRE_OK(scan_sum(cat, NULL, -1, &rows, &sum, &st, &err), &err);
  CHV_CHECK_EQ_INT(rows, 30);
  CHV_CHECK_EQ_INT(sum, 45 + 20 * 100 + 190);
  CHV_CHECK_EQ_INT(st.partitions_read, 2);

  chv_arena *a;
  CHV_REQUIRE_OK(chv_arena_open(0, &a), NULL);
  struct chv_part_filter *f = chv_pf_cmp(a, "dt", CHV_PF_GT, "2026-01-01");
  CHV_REQUIRE_OK(scan_sum(cat, f, -1, &rows, &sum, &st, &err), &err);
  CHV_CHECK_EQ_INT(rows, 20);
  CHV_CHECK_EQ_INT(st.partitions_read, 1);
  CHV_CHECK_EQ_INT(st.partitions_total, 2);
  chv_arena_close(a);

  /* Statistics come with the partition. */
  struct chv_partition p;
  char *values[1] = {"2026-01-02"};
  CHV_REQUIRE_OK(chv_catalog_get_partition(cat, "default", "t", values, &p,
                                           &err), &err);
  struct chv_stats s;
  chv_stats_from_params(p.params, p.nparams, &s);
  CHV_CHECK_EQ_INT(s.num_rows, 20);
  CHV_CHECK_EQ_INT(s.num_files, 1);
  CHV_CHECK(s.total_size > 0);
  chv_partition_free(&p);
  chv_catalog_close(cat);
}

static void test_append_and_overwrite(void) {
  struct chv_error err;
  chv_catalog *cat = open_table(chv_test_tmpdir(), "int", &err);
  CHV_REQUIRE(cat != NULL);
  CHV_REQUIRE_OK(write_rows(cat, "1", 0, 5, false, true, &err), &err);
  CHV_REQUIRE_OK(write_rows(cat, "1", 5, 5, false, true, &err), &err);
  int64_t rows, sum;
  CHV_REQUIRE_OK(scan_sum(cat, NULL, -1, &rows, &sum, NULL, &err), &err);
  CHV_CHECK_EQ_INT(rows, 10);
  struct chv_partition p;
  char *values[1] = {"1"};
  CHV_REQUIRE_OK(chv_catalog_get_partition(cat, "default", "t", values, &p,
                                           &err), &err);
  struct chv_stats s;
  chv_stats_from_params(p.params, p.nparams, &s);
  CHV_CHECK_EQ_INT(s.num_rows, 10);
  CHV_CHECK_EQ_INT(s.num_files, 2);
  chv_partition_free(&p);

  CHV_REQUIRE_OK(write_rows(cat, "1", 1000, 3, true, true, &err), &err);
  CHV_REQUIRE_OK(scan_sum(cat, NULL, -1, &rows, &sum, NULL, &err), &err);
  CHV_CHECK_EQ_INT(rows, 3);
  CHV_CHECK_EQ_INT(sum, 3003);
  chv_catalog_close(cat);
}

static void test_abandoned_write_leaves_table_unchanged(void) {
  struct chv_error err;
  const char *wh = chv_test_tmpdir();
  chv_catalog *cat = open_table(wh, "string", &err);
  CHV_REQUIRE(cat != NULL);
  CHV_REQUIRE_OK(write_rows(cat, "a", 0, 4, false, true, &err), &err);
  /* Written but never committed, with OVERWRITE: nothing changes. */
  CHV_REQUIRE_OK(write_rows(cat, "a", 50, 9, true, false, &err), &err);
  CHV_REQUIRE_OK(write_rows(cat, "b", 50, 9, false, false, &err), &err);
  int64_t rows, sum;
  CHV_REQUIRE_OK(scan_sum(cat, NULL, -1, &rows, &sum, NULL, &err), &err);
  CHV_CHECK_EQ_INT(rows, 4);
  CHV_CHECK_EQ_INT(sum, 6);
  int64_t nparts;
  CHV_REQUIRE_OK(chv_catalog_count_partitions(cat, "default", "t", NULL,
                                              &nparts, &err), &err);
  CHV_CHECK_EQ_INT(nparts, 1);
  /* No staging folder is left behind. */
  struct chv_dirlist l = {0};
  char dir[700];
  snprintf(dir, sizeof dir, "%s/t", wh);
  CHV_REQUIRE_OK(chv_fs_local()->list(chv_fs_local(), dir, 0, &l, &err), &err);
  for (size_t i = 0; i < l.count; i++)
    CHV_CHECK(strncmp(l.entries[i].name, ".staging_", 9) != 0);
  chv_dirlist_free(&l);
  chv_catalog_close(cat);
}

static void test_unpartitioned_and_limit(void) {
  struct chv_error err;
  chv_catalog *cat = open_table(chv_test_tmpdir(), NULL, &err);
  CHV_REQUIRE(cat != NULL);
  CHV_REQUIRE_OK(write_rows(cat, NULL, 0, 50, false, true, &err), &err);
  CHV_REQUIRE_OK(write_rows(cat, NULL, 50, 50, false, true, &err), &err);
  int64_t rows, sum;
  CHV_REQUIRE_OK(scan_sum(cat, NULL, -1, &rows, &sum, NULL, &err), &err);
  CHV_CHECK_EQ_INT(rows, 100);
  CHV_CHECK_EQ_INT(sum, 4950);
  struct chv_stats s;
  CHV_REQUIRE_OK(chv_catalog_get_table_stats(cat, "default", "t", &s, &err),
                 &err);
  CHV_CHECK_EQ_INT(s.num_rows, 100);
  CHV_CHECK_EQ_INT(s.num_files, 2);
  for (int64_t limit = 0; limit <= 101; limit += 3) {
    struct chv_scan_stats st;
    CHV_REQUIRE_OK(scan_sum(cat, NULL, limit, &rows, &sum, &st, &err), &err);
    CHV_CHECK_EQ_INT(rows, limit < 100 ? limit : 100);
    if (limit <= 50 && limit > 0) CHV_CHECK_EQ_INT(st.files_read, 1);
  }
  chv_catalog_close(cat);
}

static void test_partition_values_typed(void) {
  struct chv_error err;
  struct chv_type *t;
  const char *types[] = {"int", "date", "decimal(5,2)", "boolean", "string",
                         "bigint"};
  const char *vals[] = {"42", "2026-02-28", "1.5", "TRUE", NULL, "x"};
  for (size_t i = 0; i < CHV_ARRAY_SIZE(types); i++) {
    CHV_REQUIRE_OK(chv_type_parse(types[i], &t, &err), &err);
    struct chv_vector *v;
    CHV_REQUIRE_OK(chv_vector_open(t, 4, &v, &err), &err);
    CHV_CHECK_OK(chv_part_value_append(v, vals[i], &err), &err);
    CHV_CHECK_EQ_INT(v->length, 1);
    /* A string keeps the default partition's name; a bigint that does not
    ** parse is NULL, as Hive's cast gives. */
    if (i == 4) CHV_CHECK(!chv_vector_is_null(v, 0));
    if (i == 5) CHV_CHECK(chv_vector_is_null(v, 0));
    if (i == 0) CHV_CHECK_EQ_INT(((int32_t *)v->data)[0], 42);
    if (i == 2) CHV_CHECK(((chv_i128 *)v->data)[0] == 150);
    chv_vector_close(v);
    chv_type_free(t);
  }
}

static void test_errors_name_the_table(void) {
  struct chv_error err;
  chv_catalog *cat = open_table(chv_test_tmpdir(), "string", &err);
  CHV_REQUIRE(cat != NULL);
  chv_sink *s;
  CHV_CHECK_EQ_INT(chv_sink_open(cat, "default", "nope", NULL, &s, &err),
                   CHV_ENOENT);
  CHV_CHECK_CONTAINS(err.msg, "nope");
  struct chv_scan_options o;
  chv_scan_options_init(&o);
  const char *cols[] = {"id", "missing"};
  o.columns = cols;
  o.ncolumns = 2;
  chv_scan *sc;
  CHV_CHECK_EQ_INT(chv_scan_open(cat, "default", "t", &o, &sc, &err),
                   CHV_ENOENT);
  CHV_CHECK_CONTAINS(err.msg, "missing");
  const char *twice[] = {"id", "ID"};
  o.columns = twice;
  CHV_CHECK_EQ_INT(chv_scan_open(cat, "default", "t", &o, &sc, &err),
                   CHV_EINVAL);
  CHV_CHECK_CONTAINS(err.msg, "projected twice");
  /* Partition values are required for a partitioned table. */
  CHV_REQUIRE_OK(chv_sink_open(cat, "default", "t", NULL, &s, &err), &err);
  struct chv_batch *b;
  CHV_REQUIRE_OK(chv_batch_open(chv_sink_schema(s), 1, &b, &err), &err);
  CHV_CHECK_EQ_INT(chv_sink_write(s, NULL, b, &err), CHV_EINVAL);
  chv_batch_close(b);
  chv_sink_close(s);
  chv_catalog_close(cat);
}

/* A view (VIRTUAL_VIEW, no location) is refused by everything that reads
** or writes files, with an error naming it, never a crash. */
static void test_views_refused(void) {
  struct chv_error err;
  chv_catalog *cat = open_table(chv_test_tmpdir(), NULL, &err);
  CHV_REQUIRE(cat != NULL);
  struct chv_column cols[] = {{"id", "int", NULL}};
  struct chv_table v = {.db = "default", .name = "v", .columns = cols,
                        .ncols = 1, .type = CHV_VIRTUAL_VIEW,
                        .view_original_text = "select id from t",
                        .view_expanded_text =
                            "SELECT `t`.`id` FROM `default`.`t`"};
  CHV_REQUIRE_OK(chv_catalog_create_table(cat, &v, 0, &err), &err);
  chv_scan *sc;
  CHV_CHECK_EQ_INT(chv_scan_open(cat, "default", "v", NULL, &sc, &err),
                   CHV_EINVAL);
  CHV_CHECK_CONTAINS(err.msg, "default.v is a view, which has no files to scan");
  chv_sink *s;
  CHV_CHECK_EQ_INT(chv_sink_open(cat, "default", "v", NULL, &s, &err),
                   CHV_EINVAL);
  CHV_CHECK_CONTAINS(err.msg, "default.v is a view");
  CHV_CHECK_EQ_INT(chv_table_truncate(cat, "default", "v", NULL, &err),
                   CHV_EINVAL);
  CHV_CHECK_CONTAINS(err.msg, "default.v is a view");
  int added;
  CHV_CHECK_EQ_INT(chv_table_repair(cat, "default", "v", &added, &err),
                   CHV_EINVAL);
  CHV_CHECK_CONTAINS(err.msg, "default.v is a view");
  struct chv_split_plan *plan;
  CHV_CHECK_EQ_INT(chv_split_plan_open(cat, "default", "v", NULL, &plan, &err),
                   CHV_EINVAL);
  CHV_CHECK_CONTAINS(err.msg, "default.v is a view");
  struct chv_parallelism par;
  CHV_CHECK_EQ_INT(
      chv_split_infer_parallelism(cat, "default", "v", NULL, &par, &err),
      CHV_EINVAL);
  chv_source *src;
  CHV_CHECK_EQ_INT(chv_source_open(cat, "default", "v", NULL, 0, NULL, &src,
                                   &err),
                   CHV_EINVAL);
  CHV_CHECK_CONTAINS(err.msg, "default.v is a view");
  /* the table beside it still works */
  CHV_CHECK_OK(write_rows(cat, NULL, 0, 3, false, true, &err), &err);
  chv_catalog_close(cat);
}

/* Allocation counting, to size the failure-injection loop below. */
static long alloc_count;
static void *count_malloc(size_t n) {
  alloc_count++;
  return malloc(n);
}
static void *count_realloc(void *p, size_t n) {
  alloc_count++;
  return realloc(p, n);
}

/* Fail each allocation of one write in turn: every failure is reported and
** leaves the table reading exactly as before; the write then succeeds. */
static void oom_each_step(chv_catalog *cat, const char *part, int nrows,
                          bool overwrite, int64_t rows_before,
                          int64_t rows_after, long needed) {
  struct chv_error err;
  int failures = 0, rc = CHV_ENOMEM;
  for (long n = 1; n <= needed * 4 && rc != CHV_OK; n++) {
    chv_alloc_fail_after(n);
    rc = write_rows(cat, part, 100, nrows, overwrite, true, &err);
    chv_alloc_fail_after(0);
    int64_t rows, sum;
    CHV_REQUIRE_OK(scan_sum(cat, NULL, -1, &rows, &sum, NULL, &err), &err);
    if (rc != CHV_OK) {
      failures++;
      if (rows != rows_before)
        fprintf(stderr, "allocation %ld of a write into %s: %lld rows\n", n,
                part, (long long)rows);
      CHV_REQUIRE(rows == rows_before);
    } else {
      CHV_CHECK_EQ_INT(rows, rows_after);
    }
  }
  printf("# write into %s%s: %d injected failures, each left the table as "
         "it was\n", part, overwrite ? " (overwrite)" : "", failures);
  CHV_CHECK(rc == CHV_OK);
  CHV_CHECK(failures > 5);
}

static void test_sink_oom(void) {
  struct chv_error err;
  chv_catalog *cat = open_table(chv_test_tmpdir(), "string", &err);
  CHV_REQUIRE(cat != NULL);
  CHV_REQUIRE_OK(write_rows(cat, "p", 0, 3, false, true, &err), &err);
  struct chv_alloc_hooks h = {count_malloc, count_realloc, free};
  chv_alloc_set_hooks(&h);
  alloc_count = 0;
  CHV_REQUIRE_OK(write_rows(cat, "q", 0, 3, false, true, &err), &err);
  long needed = alloc_count;
  chv_alloc_set_hooks(NULL);
  oom_each_step(cat, "r", 3, false, 6, 9, needed);  /* a new partition */
  oom_each_step(cat, "p", 5, true, 9, 11, needed);  /* overwrite one */
  oom_each_step(cat, "q", 2, false, 11, 13, needed); /* append to one */
  chv_catalog_close(cat);
}


/* Write through a sink with a config and optional table properties. */
static int write_opts(chv_catalog *cat, const chv_config *cfg, const char *dt,
                      const struct chv_kv *topts, int ntopts,
                      struct chv_error *err) {
  struct chv_sink_options o;
  chv_sink_options_init(&o);
  o.config = cfg;
  o.table_options = topts;
  o.ntable_options = ntopts;
  chv_sink *s;
  int rc = chv_sink_open(cat, "default", "t", &o, &s, err);
  if (rc != CHV_OK) return rc;
  struct chv_batch *b = NULL;
  rc = chv_batch_open(chv_sink_schema(s), 1, &b, err);
  int32_t id = 7;
  if (rc == CHV_OK) rc = chv_vector_append_value(b->cols[0], &id, err);
  if (rc == CHV_OK) rc = chv_vector_append_string(b->cols[1], "x", 1, err);
  if (b) b->nrows = 1;
  char *values[1] = {(char *)dt};
  if (rc == CHV_OK) rc = chv_sink_write(s, values, b, err);
  chv_batch_close(b);
  if (rc == CHV_OK) rc = chv_sink_commit(s, err);
  chv_sink_close(s);
  return rc;
}

static int write_with(chv_catalog *cat, const chv_config *cfg, const char *dt,
                      struct chv_error *err) {
  return write_opts(cat, cfg, dt, NULL, 0, err);
}

static int set_table_prop(chv_catalog *cat, const char *key, const char *value,
                          struct chv_error *err) {
  struct chv_kv kv = {(char *)key, (char *)value};
  return chv_catalog_alter_table_params(cat, "default", "t", &kv, 1, err);
}

/* Commit options come from table properties, then the session/config. */
static void test_sink_options_layered(void) {
  struct chv_error err;
  const char *wh = chv_test_tmpdir();
  chv_catalog *cat = open_table(wh, "string", &err);
  CHV_REQUIRE(cat != NULL);
  chv_config *cfg;
  CHV_REQUIRE_OK(chv_config_open(&cfg, &err), &err);
  CHV_REQUIRE_OK(chv_config_set(cfg, CHV_LAYER_SESSION,
                                "sink.partition-commit.success-file.name",
                                "_DONE", &err), &err);
  CHV_REQUIRE_OK(set_table_prop(cat, "hive.exec.compress.output", "true", &err),
                 &err);
  CHV_REQUIRE_OK(write_with(cat, cfg, "a", &err), &err);
  char path[800];
  snprintf(path, sizeof path, "%s/t/dt=a/_DONE", wh);
  CHV_CHECK(chv_fs_exists(chv_fs_local(), path));
  snprintf(path, sizeof path, "%s/t/dt=a/_SUCCESS", wh);
  CHV_CHECK(!chv_fs_exists(chv_fs_local(), path));
  /* The file is gzip-compressed, named so, and reads back. */
  struct chv_dirlist l = {0};
  snprintf(path, sizeof path, "%s/t/dt=a", wh);
  CHV_REQUIRE_OK(chv_fs_local()->list(chv_fs_local(), path,
                                      CHV_LIST_SKIP_HIDDEN, &l, &err), &err);
  CHV_REQUIRE(l.count == 1);
  size_t n = strlen(l.entries[0].name);
  CHV_CHECK(n > 3 && strcmp(l.entries[0].name + n - 3, ".gz") == 0);
  chv_dirlist_free(&l);
  int64_t rows, sum;
  CHV_REQUIRE_OK(scan_sum(cat, NULL, -1, &rows, &sum, NULL, &err), &err);
  CHV_CHECK_EQ_INT(rows, 1);
  CHV_CHECK_EQ_INT(sum, 7);

  /* A table property wins over the session. */
  CHV_REQUIRE_OK(set_table_prop(cat, "sink.partition-commit.policy.kind",
                                "metastore", &err), &err);
  CHV_REQUIRE_OK(write_with(cat, cfg, "b", &err), &err);
  snprintf(path, sizeof path, "%s/t/dt=b/_DONE", wh);
  CHV_CHECK(!chv_fs_exists(chv_fs_local(), path));

  /* Bad or unsupported values are errors naming table and option, and
  ** change nothing. */
  CHV_REQUIRE_OK(set_table_prop(cat, "hive.exec.compress.output", "maybe",
                                &err), &err);
  CHV_CHECK_EQ_INT(write_with(cat, cfg, "c", &err), CHV_EINVAL);
  CHV_CHECK_CONTAINS(err.msg, "default.t");
  CHV_CHECK_CONTAINS(err.msg, "hive.exec.compress.output");
  CHV_CHECK_CONTAINS(err.msg, "maybe");
  CHV_REQUIRE_OK(set_table_prop(cat, "hive.exec.compress.output", NULL, &err),
                 &err);
  CHV_REQUIRE_OK(set_table_prop(cat, "sink.partition-commit.policy.kind",
                                "success-file", &err), &err);
  CHV_CHECK_EQ_INT(write_with(cat, cfg, "c", &err), CHV_EINVAL);
  CHV_CHECK_CONTAINS(err.msg, "'metastore'");
  CHV_REQUIRE_OK(set_table_prop(cat, "sink.partition-commit.policy.kind",
                                "metastore,custom", &err), &err);
  CHV_CHECK_EQ_INT(write_with(cat, cfg, "c", &err), CHV_ENOTSUP);
  CHV_CHECK_CONTAINS(err.msg, "custom");
  int64_t nparts;
  CHV_REQUIRE_OK(chv_catalog_count_partitions(cat, "default", "t", NULL,
                                              &nparts, &err), &err);
  CHV_CHECK_EQ_INT(nparts, 2);

  /* Without statistics gathering, a write without the metastore policy
  ** lands its files but registers nothing, as Flink's does. */
  CHV_REQUIRE_OK(chv_config_set(cfg, CHV_LAYER_SESSION,
                                "table.exec.hive.sink.statistic-auto-gather.enable",
                                "false", &err), &err);
  CHV_REQUIRE_OK(set_table_prop(cat, "sink.partition-commit.policy.kind",
                                "success-file", &err), &err);
  CHV_REQUIRE_OK(write_with(cat, cfg, "d", &err), &err);
  CHV_REQUIRE_OK(chv_catalog_count_partitions(cat, "default", "t", NULL,
                                              &nparts, &err), &err);
  CHV_CHECK_EQ_INT(nparts, 2);
  snprintf(path, sizeof path, "%s/t/dt=d/_DONE", wh);
  CHV_CHECK(chv_fs_exists(chv_fs_local(), path));

  /* Table options of one write (a statement's OPTIONS hints) win over the
  ** table's properties, the later of two over the earlier, and are never
  ** stored. */
  struct chv_kv topts[] = {
      {"sink.partition-commit.policy.kind", "metastore"},
      {"sink.partition-commit.policy.kind", "metastore,success-file"},
      {"sink.partition-commit.success-file.name", "_HINTED"}};
  CHV_REQUIRE_OK(write_opts(cat, cfg, "e", topts, 3, &err), &err);
  snprintf(path, sizeof path, "%s/t/dt=e/_HINTED", wh);
  CHV_CHECK(chv_fs_exists(chv_fs_local(), path));
  CHV_REQUIRE_OK(chv_catalog_count_partitions(cat, "default", "t", NULL,
                                              &nparts, &err), &err);
  CHV_CHECK_EQ_INT(nparts, 3);
  struct chv_table t;
  CHV_REQUIRE_OK(chv_catalog_get_table(cat, "default", "t", &t, &err), &err);
  CHV_CHECK_STREQ(chv_kv_get(t.params, t.nparams,
                             "sink.partition-commit.policy.kind"),
                  "success-file");
  CHV_CHECK(chv_kv_get(t.params, t.nparams,
                       "sink.partition-commit.success-file.name") == NULL);
  chv_table_free(&t);
  chv_config_close(cfg);
  chv_catalog_close(cat);
}

CHV_TEST_MAIN("connector", test_sink_options_layered, test_sink_and_scan_partitioned,
              test_append_and_overwrite,
              test_abandoned_write_leaves_table_unchanged,
              test_unpartitioned_and_limit, test_partition_values_typed,
              test_errors_name_the_table, test_views_refused, test_sink_oom)
