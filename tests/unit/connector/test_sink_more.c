/* Tests of dynamic partition writes, bounded open writers, empty
** partitions, LOAD DATA and MSCK REPAIR (src/connector). */
#include "chv_test.h"
#include "conn_fixture.h"
#include "chive/source.h"

#include <sys/stat.h>

/* Rows and sum of ids per partition value of default.t, read by a scan:
** counts[i] and sums[i] for the partition named names[i]. */
static int64_t scan_part(chv_catalog *cat, const char *dt, int64_t *sum,
                         struct chv_error *err) {
  chv_arena *a;
  if (chv_arena_open(0, &a) != CHV_OK) return -1;
  struct chv_scan_options o;
  chv_scan_options_init(&o);
  o.filter = dt ? chv_pf_cmp(a, "dt", CHV_PF_EQ, dt) : chv_pf_is_null(a, "dt", false);
  chv_scan *s;
  int64_t rows = -1;
  *sum = 0;
  if (chv_scan_open(cat, "default", "t", &o, &s, err) == CHV_OK) {
    struct chv_batch *b;
    rows = 0;
    while (chv_scan_next(s, &b, err) == CHV_OK && b) {
      for (int64_t i = 0; i < b->nrows; i++) *sum += ((int32_t *)b->cols[0]->data)[i];
      rows += b->nrows;
    }
    chv_scan_close(s);
  }
  chv_arena_close(a);
  return rows;
}

/* A batch (id int, name string, dt <type>) of n rows, dt from dts[i % ndt]. */
static struct chv_batch *dyn_batch(const struct chv_type *schema, int n,
                                   const char *const *dts, int ndt) {
  struct chv_batch *b;
  if (chv_batch_open(schema, n, &b, NULL) != CHV_OK) return NULL;
  for (int i = 0; i < n; i++) {
    int32_t id = i;
    chv_vector_append_value(b->cols[0], &id, NULL);
    chv_vector_append_string(b->cols[1], "n", 1, NULL);
    const char *dt = dts[i % ndt];
    if (dt)
      chv_vector_append_string(b->cols[2], dt, strlen(dt), NULL);
    else
      chv_vector_append_null(b->cols[2], NULL);
    b->nrows++;
  }
  return b;
}

static void test_dynamic_partitions(void) {
  struct chv_error err;
  chv_catalog *cat = open_table(chv_test_tmpdir(), "string", &err);
  CHV_REQUIRE(cat != NULL);
  struct chv_type *schema;
  CHV_REQUIRE_OK(chv_type_parse_columns("id int, name string, dt string",
                                        &schema, &err), &err);
  const char *dts[] = {"b", "a", NULL, "a/b", ""};
  struct chv_batch *b = dyn_batch(schema, 100, dts, 5);
  CHV_REQUIRE(b != NULL);
  struct chv_sink_options o;
  chv_sink_options_init(&o);
  o.max_open_writers = 2; /* fewer than the 4 partitions */
  chv_sink *s;
  CHV_REQUIRE_OK(chv_sink_open(cat, "default", "t", &o, &s, &err), &err);
  CHV_REQUIRE_OK(chv_sink_write_dynamic(s, 0, NULL, b, &err), &err);
  CHV_REQUIRE_OK(chv_sink_write_dynamic(s, 0, NULL, b, &err), &err);
  CHV_REQUIRE_OK(chv_sink_commit(s, &err), &err);
  chv_sink_close(s);
  int64_t n, sum;
  CHV_REQUIRE_OK(chv_catalog_count_partitions(cat, "default", "t", NULL, &n,
                                              &err), &err);
  CHV_CHECK_EQ_INT(n, 4); /* b, a, a/b and the default partition */
  CHV_CHECK_EQ_INT(scan_part(cat, "a", &sum, &err), 40);
  CHV_CHECK_EQ_INT(scan_part(cat, "a/b", &sum, &err), 40);
  /* NULL and "" went to the default partition, whose string key reads as
  ** its name, as Flink reads it: pruning agrees with what the rows hold. */
  CHV_CHECK_EQ_INT(scan_part(cat, CHV_DEFAULT_PARTITION_NAME, &sum, &err), 80);
  CHV_CHECK_EQ_INT(scan_part(cat, NULL, &sum, &err), 0);
  /* The '/' is escaped in the folder name, as Hive escapes it. */
  char path[800];
  snprintf(path, sizeof path, "%s/t/dt=a%%2Fb", chv_catalog_warehouse(cat));
  struct stat sb;
  CHV_CHECK(stat(path, &sb) == 0);

  /* Type errors name the column. */
  struct chv_type *bad;
  CHV_REQUIRE_OK(chv_type_parse_columns("id bigint, name string, dt string",
                                        &bad, &err), &err);
  struct chv_batch *bb;
  CHV_REQUIRE_OK(chv_batch_open(bad, 1, &bb, &err), &err);
  CHV_REQUIRE_OK(chv_sink_open(cat, "default", "t", NULL, &s, &err), &err);
  CHV_CHECK_EQ_INT(chv_sink_write_dynamic(s, 0, NULL, bb, &err), CHV_ETYPE);
  CHV_CHECK_CONTAINS(err.msg, "'id'");
  CHV_CHECK_EQ_INT(chv_sink_write_dynamic(s, 2, NULL, bb, &err), CHV_EINVAL);
  chv_sink_close(s);
  chv_batch_close(bb);
  chv_type_free(bad);
  chv_batch_close(b);
  chv_type_free(schema);
  chv_catalog_close(cat);
}

static void test_typed_dynamic_values(void) {
  struct chv_error err;
  chv_catalog *cat = open_table(chv_test_tmpdir(), "date", &err);
  CHV_REQUIRE(cat != NULL);
  struct chv_type *schema;
  CHV_REQUIRE_OK(chv_type_parse_columns("id int, name string, dt date",
                                        &schema, &err), &err);
  struct chv_batch *b;
  CHV_REQUIRE_OK(chv_batch_open(schema, 3, &b, &err), &err);
  for (int i = 0; i < 3; i++) {
    int32_t id = i, day = 20000 + (i % 2);
    chv_vector_append_value(b->cols[0], &id, NULL);
    chv_vector_append_string(b->cols[1], "n", 1, NULL);
    chv_vector_append_value(b->cols[2], &day, NULL);
    b->nrows++;
  }
  chv_sink *s;
  CHV_REQUIRE_OK(chv_sink_open(cat, "default", "t", NULL, &s, &err), &err);
  CHV_REQUIRE_OK(chv_sink_write_dynamic(s, 0, NULL, b, &err), &err);
  CHV_REQUIRE_OK(chv_sink_commit(s, &err), &err);
  chv_sink_close(s);
  char **names;
  int n;
  CHV_REQUIRE_OK(chv_catalog_list_partition_names(cat, "default", "t", NULL,
                                                  &names, &n, &err), &err);
  CHV_REQUIRE(n == 2);
  CHV_CHECK_STREQ(names[0], "dt=2024-10-04");
  CHV_CHECK_STREQ(names[1], "dt=2024-10-05");
  chv_strv_free(names, n);
  chv_batch_close(b);
  chv_type_free(schema);
  chv_catalog_close(cat);
}

/* INSERT OVERWRITE of a static partition with no rows empties it. */
static void test_empty_overwrite(void) {
  struct chv_error err;
  chv_catalog *cat = open_table(chv_test_tmpdir(), "string", &err);
  CHV_REQUIRE(cat != NULL);
  CHV_REQUIRE_OK(write_rows(cat, "a", 0, 5, false, true, &err), &err);
  CHV_REQUIRE_OK(write_rows(cat, "a", 0, 0, true, true, &err), &err);
  int64_t sum;
  CHV_CHECK_EQ_INT(scan_part(cat, "a", &sum, &err), 0);
  struct chv_partition p;
  char *values[1] = {"a"};
  CHV_REQUIRE_OK(chv_catalog_get_partition(cat, "default", "t", values, &p,
                                           &err), &err);
  struct chv_stats st;
  chv_stats_from_params(p.params, p.nparams, &st);
  CHV_CHECK_EQ_INT(st.num_rows, 0);
  CHV_CHECK_EQ_INT(st.num_files, 0);
  chv_partition_free(&p);
  /* A new partition written with no rows exists, empty. */
  CHV_REQUIRE_OK(write_rows(cat, "z", 0, 0, false, true, &err), &err);
  int64_t n;
  CHV_REQUIRE_OK(chv_catalog_count_partitions(cat, "default", "t", NULL, &n,
                                              &err), &err);
  CHV_CHECK_EQ_INT(n, 2);
  chv_catalog_close(cat);
}

static void write_file(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  if (f) {
    fputs(text, f);
    fclose(f);
  }
}

static void test_load_data(void) {
  struct chv_error err;
  const char *wh = chv_test_tmpdir();
  chv_catalog *cat = open_table(wh, "string", &err);
  CHV_REQUIRE(cat != NULL);
  char src[800], src2[800];
  snprintf(src, sizeof src, "%s/in.txt", wh);
  snprintf(src2, sizeof src2, "%s/keep.txt", wh);
  write_file(src, "1\x01x\n2\x01y\n");
  write_file(src2, "10\x01z\n");
  char *values[1] = {"a"};
  for (int round = 0; round < 2; round++) {
    chv_sink *s;
    CHV_REQUIRE_OK(chv_sink_open(cat, "default", "t", NULL, &s, &err), &err);
    if (round == 0)
      CHV_REQUIRE_OK(chv_sink_add_file(s, values, src, false, &err), &err);
    CHV_REQUIRE_OK(chv_sink_add_file(s, values, src2, true, &err), &err);
    CHV_CHECK_EQ_INT(chv_sink_add_file(s, values, src2, true, &err),
                     CHV_EEXIST);
    CHV_REQUIRE_OK(chv_sink_commit(s, &err), &err);
    chv_sink_close(s);
  }
  /* The moved file is gone, the copied one kept, and the second load of
  ** keep.txt did not replace the first: it was named keep_copy_1.txt. */
  CHV_CHECK(!chv_fs_exists(chv_fs_local(), src));
  CHV_CHECK(chv_fs_exists(chv_fs_local(), src2));
  char path[900];
  snprintf(path, sizeof path, "%s/t/dt=a/keep_copy_1.txt", wh);
  CHV_CHECK(chv_fs_exists(chv_fs_local(), path));
  int64_t sum;
  CHV_CHECK_EQ_INT(scan_part(cat, "a", &sum, &err), 4);
  CHV_CHECK_EQ_INT(sum, 23);
  /* Loaded files have no row count. */
  struct chv_partition p;
  CHV_REQUIRE_OK(chv_catalog_get_partition(cat, "default", "t", values, &p,
                                           &err), &err);
  struct chv_stats st;
  chv_stats_from_params(p.params, p.nparams, &st);
  CHV_CHECK_EQ_INT(st.num_rows, -1);
  CHV_CHECK_EQ_INT(st.num_files, 3);
  chv_partition_free(&p);
  /* An abandoned load keeps the source. */
  write_file(src, "5\x01q\n");
  chv_sink *s;
  CHV_REQUIRE_OK(chv_sink_open(cat, "default", "t", NULL, &s, &err), &err);
  CHV_REQUIRE_OK(chv_sink_add_file(s, values, src, false, &err), &err);
  chv_sink_close(s);
  CHV_CHECK(chv_fs_exists(chv_fs_local(), src));
  CHV_CHECK_EQ_INT(scan_part(cat, "a", &sum, &err), 4);
  /* Errors name the file. */
  CHV_REQUIRE_OK(chv_sink_open(cat, "default", "t", NULL, &s, &err), &err);
  CHV_CHECK_EQ_INT(chv_sink_add_file(s, values, wh, false, &err), CHV_EINVAL);
  CHV_CHECK_CONTAINS(err.msg, "folder");
  snprintf(path, sizeof path, "%s/missing.txt", wh);
  CHV_CHECK_EQ_INT(chv_sink_add_file(s, values, path, false, &err), CHV_ENOENT);
  CHV_CHECK_CONTAINS(err.msg, "missing.txt");
  chv_sink_close(s);
  chv_catalog_close(cat);
}

static void test_msck_repair(void) {
  struct chv_error err;
  const char *wh = chv_test_tmpdir();
  chv_catalog *cat = open_table(wh, "string", &err);
  CHV_REQUIRE(cat != NULL);
  CHV_REQUIRE_OK(write_rows(cat, "a", 0, 3, false, true, &err), &err);
  char path[900];
  snprintf(path, sizeof path, "%s/t/dt=x%%2Fy", wh);
  CHV_REQUIRE(mkdir(path, 0777) == 0);
  snprintf(path, sizeof path, "%s/t/dt=x%%2Fy/f1", wh);
  write_file(path, "7\x01q\n8\x01r\n");
  snprintf(path, sizeof path, "%s/t/dt=__HIVE_DEFAULT_PARTITION__", wh);
  CHV_REQUIRE(mkdir(path, 0777) == 0);
  snprintf(path, sizeof path, "%s/t/_tmp", wh); /* hidden: ignored */
  CHV_REQUIRE(mkdir(path, 0777) == 0);
  int added = -1;
  CHV_REQUIRE_OK(chv_table_repair(cat, "default", "t", &added, &err), &err);
  CHV_CHECK_EQ_INT(added, 2);
  int64_t sum;
  CHV_CHECK_EQ_INT(scan_part(cat, "x/y", &sum, &err), 2);
  CHV_CHECK_EQ_INT(sum, 15);
  CHV_REQUIRE_OK(chv_table_repair(cat, "default", "t", &added, &err), &err);
  CHV_CHECK_EQ_INT(added, 0);
  /* A folder that is not a partition fails the repair, naming it, and adds
  ** nothing. */
  snprintf(path, sizeof path, "%s/t/dt=b", wh);
  CHV_REQUIRE(mkdir(path, 0777) == 0);
  snprintf(path, sizeof path, "%s/t/stray", wh);
  CHV_REQUIRE(mkdir(path, 0777) == 0);
  CHV_CHECK_EQ_INT(chv_table_repair(cat, "default", "t", &added, &err),
                   CHV_EINVAL);
  CHV_CHECK_CONTAINS(err.msg, "stray");
  int64_t n;
  CHV_REQUIRE_OK(chv_catalog_count_partitions(cat, "default", "t", NULL, &n,
                                              &err), &err);
  CHV_CHECK_EQ_INT(n, 3);
  chv_catalog_close(cat);
}

static void test_truncate(void) {
  struct chv_error err;
  chv_catalog *cat = open_table(chv_test_tmpdir(), "string", &err);
  CHV_REQUIRE(cat != NULL);
  CHV_REQUIRE_OK(write_rows(cat, "a", 0, 3, false, true, &err), &err);
  CHV_REQUIRE_OK(write_rows(cat, "b", 10, 3, false, true, &err), &err);
  char *va[1] = {"a"}, *vq[1] = {"q"};
  CHV_REQUIRE_OK(chv_table_truncate(cat, "default", "t", va, &err), &err);
  int64_t sum;
  CHV_CHECK_EQ_INT(scan_part(cat, "a", &sum, &err), 0);
  CHV_CHECK_EQ_INT(scan_part(cat, "b", &sum, &err), 3);
  CHV_CHECK_EQ_INT(chv_table_truncate(cat, "default", "t", vq, &err),
                   CHV_ENOENT);
  CHV_REQUIRE_OK(chv_table_truncate(cat, "default", "t", NULL, &err), &err);
  CHV_CHECK_EQ_INT(scan_part(cat, "b", &sum, &err), 0);
  int64_t n;
  CHV_REQUIRE_OK(chv_catalog_count_partitions(cat, "default", "t", NULL, &n,
                                              &err), &err);
  CHV_CHECK_EQ_INT(n, 2);
  chv_catalog_close(cat);
  /* Unpartitioned. */
  cat = open_table(chv_test_tmpdir(), NULL, &err);
  CHV_REQUIRE(cat != NULL);
  CHV_REQUIRE_OK(write_rows(cat, NULL, 0, 3, false, true, &err), &err);
  CHV_REQUIRE_OK(chv_table_truncate(cat, "default", "t", NULL, &err), &err);
  struct chv_stats st;
  CHV_REQUIRE_OK(chv_catalog_get_table_stats(cat, "default", "t", &st, &err),
                 &err);
  CHV_CHECK_EQ_INT(st.num_rows, 0);
  CHV_CHECK_EQ_INT(st.num_files, 0);
  chv_catalog_close(cat);
}

/* Two writers started in the same millisecond do not share a staging
** folder: closing one does not lose the other's rows. */
static void test_writers_same_millisecond(void) {
  struct chv_error err;
  chv_catalog *cat = open_table(chv_test_tmpdir(), "string", &err);
  CHV_REQUIRE(cat != NULL);
  struct chv_sink_options o;
  chv_sink_options_init(&o);
  o.now_ms = 1700000000000;
  chv_sink *s1, *s2;
  CHV_REQUIRE_OK(chv_sink_open(cat, "default", "t", &o, &s1, &err), &err);
  CHV_REQUIRE_OK(chv_sink_open(cat, "default", "t", &o, &s2, &err), &err);
  struct chv_batch *b;
  CHV_REQUIRE_OK(chv_batch_open(chv_sink_schema(s1), 1, &b, &err), &err);
  int32_t id = 5;
  chv_vector_append_value(b->cols[0], &id, NULL);
  chv_vector_append_string(b->cols[1], "n", 1, NULL);
  b->nrows = 1;
  char *va[1] = {"a"};
  CHV_REQUIRE_OK(chv_sink_write(s1, va, b, &err), &err);
  CHV_REQUIRE_OK(chv_sink_write(s2, va, b, &err), &err);
  chv_sink_close(s1); /* abandoned */
  CHV_REQUIRE_OK(chv_sink_commit(s2, &err), &err);
  chv_sink_close(s2);
  chv_batch_close(b);
  int64_t sum;
  CHV_CHECK_EQ_INT(scan_part(cat, "a", &sum, &err), 1);
  chv_catalog_close(cat);
}

/* A transactional (ACID) table, whatever the case of the key, is neither
** written nor read, as Flink's connector refuses it. */
static void test_acid_refused(void) {
  struct chv_error err;
  chv_catalog *cat = NULL;
  char wh[700];
  snprintf(wh, sizeof wh, "%s/acid", chv_test_tmpdir());
  CHV_REQUIRE_OK(chv_catalog_open(wh, NULL, &cat, &err), &err);
  struct chv_column cols[] = {{"id", "int", NULL}, {"name", "string", NULL}};
  struct chv_kv params[] = {{"TRANSACTIONAL", "true"}};
  struct chv_table t = {.db = "default", .name = "t", .columns = cols,
                        .ncols = 2, .params = params, .nparams = 1,
                        .type = CHV_MANAGED_TABLE};
  CHV_REQUIRE_OK(chv_catalog_create_table(cat, &t, 0, &err), &err);
  chv_sink *sink = NULL;
  CHV_CHECK_EQ_INT(chv_sink_open(cat, "default", "t", NULL, &sink, &err),
                   CHV_ENOTSUP);
  CHV_CHECK_CONTAINS(err.msg, "default.t");
  CHV_CHECK_CONTAINS(err.msg, "marks a transactional (ACID) table");
  chv_scan *scan = NULL;
  CHV_CHECK_EQ_INT(chv_scan_open(cat, "default", "t", NULL, &scan, &err),
                   CHV_ENOTSUP);
  CHV_CHECK_CONTAINS(err.msg, "transactional (ACID)");
  chv_source *src = NULL;
  CHV_CHECK_EQ_INT(
      chv_source_open(cat, "default", "t", NULL, 0, NULL, &src, &err),
      CHV_ENOTSUP);
  CHV_CHECK(sink == NULL && scan == NULL && src == NULL);
  /* 'false' is an ordinary table. */
  params[0].value = "false";
  CHV_REQUIRE_OK(chv_catalog_alter_table_params(cat, "default", "t", params, 1,
                                                &err),
                 &err);
  CHV_CHECK_OK(chv_scan_open(cat, "default", "t", NULL, &scan, &err), &err);
  chv_scan_close(scan);
  chv_catalog_close(cat);
}

CHV_TEST_MAIN("sink_more", test_truncate, test_writers_same_millisecond, test_dynamic_partitions, test_typed_dynamic_values,
              test_empty_overwrite, test_load_data, test_msck_repair,
              test_acid_refused)
