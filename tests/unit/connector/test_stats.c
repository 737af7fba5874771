/*
** Tests of chv_source_report_statistics(): row counts from the metastore,
** from Parquet footers and ORC tails when the metastore has none, and a
** mix of both; text without numRows, source.report-statistics NONE and
** read errors give unknown statistics; a limit caps the count; pruned
** partitions count alone; no partitions, or no files, give 0.
*/
#include "chv_test.h"
#include "chive/source.h"
#include "conn_fixture.h"

#include <stdlib.h>

enum fmt { TEXT, PARQUET, ORC };

static const char *const dts[] = {"2026-01-01", "2026-01-02", "2026-01-03"};

/* default.t (id int, name string), PARTITIONED BY (dt string) when
** partitioned, stored as fmt, with n rows: partitioned, n / 3 in each of
** three partitions written in two commits each (two files per partition);
** else two commits of n / 2. */
static chv_catalog *make_table(const char *wh, enum fmt fmt, bool partitioned,
                               int n, struct chv_error *err) {
  chv_catalog *cat = NULL;
  if (chv_catalog_open(wh, NULL, &cat, err) != CHV_OK) return NULL;
  struct chv_column cols[] = {{"id", "int", NULL}, {"name", "string", NULL}};
  struct chv_column pkeys[] = {{"dt", "string", NULL}};
  struct chv_table t = {.db = "default", .name = "t", .columns = cols,
                        .ncols = 2, .pkeys = pkeys,
                        .npkeys = partitioned ? 1 : 0,
                        .type = CHV_MANAGED_TABLE};
  if (fmt == ORC) {
    t.serde_lib = "org.apache.hadoop.hive.ql.io.orc.OrcSerde";
    t.input_format = "org.apache.hadoop.hive.ql.io.orc.OrcInputFormat";
    t.output_format = "org.apache.hadoop.hive.ql.io.orc.OrcOutputFormat";
  } else if (fmt == PARQUET) {
    t.serde_lib =
        "org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe";
    t.input_format =
        "org.apache.hadoop.hive.ql.io.parquet.MapredParquetInputFormat";
    t.output_format =
        "org.apache.hadoop.hive.ql.io.parquet.MapredParquetOutputFormat";
  }
  if (chv_catalog_create_table(cat, &t, 0, err) != CHV_OK) goto fail;
  int nw = partitioned ? 6 : 2, per = n / nw;
  for (int w = 0; w < nw; w++) {
    int first = w * per, count = w == nw - 1 ? n - first : per;
    if (write_rows(cat, partitioned ? dts[w % 3] : NULL, first, count, false,
                   true, err) != CHV_OK)
      goto fail;
  }
  return cat;
fail:
  chv_catalog_close(cat);
  return NULL;
}

/* Forget the row count of partition dt (NULL: of the table) in the
** metastore. */
static void forget_rows(chv_catalog *cat, const char *dt) {
  struct chv_error err;
  struct chv_kv kv = {"numRows", NULL};
  char *values[1] = {(char *)dt};
  if (dt)
    CHV_CHECK_OK(chv_catalog_alter_partition_params(cat, "default", "t",
                                                    values, &kv, 1, &err),
                 &err);
  else
    CHV_CHECK_OK(
        chv_catalog_alter_table_params(cat, "default", "t", &kv, 1, &err),
        &err);
}

/* The statistics of a source on default.t with the filter, limit and
** session options (pairs, NULL-terminated) given. */
static struct chv_source_stats report(chv_catalog *cat,
                                      const struct chv_part_filter *filter,
                                      int64_t limit,
                                      const char *const *session) {
  struct chv_error err;
  struct chv_source_stats st;
  memset(&st, 0xab, sizeof st);
  chv_config *cfg = NULL;
  if (session) {
    CHV_CHECK_OK(chv_config_open(&cfg, &err), &err);
    for (int i = 0; session[i]; i += 2)
      CHV_CHECK_OK(chv_config_set(cfg, CHV_LAYER_SESSION, session[i],
                                  session[i + 1], &err),
                   &err);
  }
  chv_source *src;
  CHV_CHECK_OK(chv_source_open(cat, "default", "t", NULL, 0, cfg, &src, &err),
               &err);
  chv_source_set_partitions(src, filter);
  chv_source_set_limit(src, limit);
  CHV_CHECK_OK(chv_source_report_statistics(src, &st, &err), &err);
  chv_source_close(src);
  chv_config_close(cfg);
  return st;
}

static void check_known(const struct chv_source_stats *st, int64_t rows,
                        enum chv_stats_origin origin, int64_t files_read) {
  CHV_CHECK(st->known);
  CHV_CHECK_EQ_INT(st->row_count, rows);
  CHV_CHECK_STREQ(chv_stats_origin_name(st->origin),
                  chv_stats_origin_name(origin));
  CHV_CHECK_EQ_INT(st->files_read, files_read);
  CHV_CHECK(st->why == NULL);
  CHV_CHECK_EQ_INT(st->error, CHV_OK);
}

static void check_unknown(const struct chv_source_stats *st,
                          const char *why) {
  CHV_CHECK(!st->known);
  CHV_CHECK_EQ_INT(st->row_count, -1);
  CHV_CHECK(st->origin == CHV_STATS_UNKNOWN);
  CHV_CHECK_EQ_INT(st->files_read, 0);
  CHV_REQUIRE(st->why != NULL);
  CHV_CHECK_CONTAINS(st->why, why);
}

/* Text, Parquet and ORC tables whose writes recorded numRows: the
** metastore's figures, no file read. */
static void test_metastore(void) {
  for (int f = TEXT; f <= ORC; f++) {
    struct chv_error err;
    chv_catalog *cat = make_table(chv_test_tmpdir(), f, true, 600, &err);
    CHV_REQUIRE(cat != NULL);
    struct chv_source_stats st = report(cat, NULL, -1, NULL);
    check_known(&st, 600, CHV_STATS_METASTORE, 0);
    CHV_CHECK_EQ_INT(st.partitions, 3);
    CHV_CHECK(st.splits >= 6);
    chv_catalog_close(cat);

    cat = make_table(chv_test_tmpdir(), f, false, 150, &err);
    CHV_REQUIRE(cat != NULL);
    st = report(cat, NULL, -1, NULL);
    check_known(&st, 150, CHV_STATS_METASTORE, 0);
    CHV_CHECK_EQ_INT(st.partitions, 1);
    chv_catalog_close(cat);
  }
}

/* Parquet and ORC without numRows: every file's footer (tail) is read,
** on the default threads and on one; numRows 0 counts as unknown. */
static void test_footers(void) {
  static const char *const one_thread[] = {
      "table.exec.hive.read-statistics.thread-num", "1", NULL};
  for (int f = PARQUET; f <= ORC; f++) {
    struct chv_error err;
    chv_catalog *cat = make_table(chv_test_tmpdir(), f, true, 600, &err);
    CHV_REQUIRE(cat != NULL);
    for (int i = 0; i < 3; i++) forget_rows(cat, dts[i]);
    struct chv_source_stats st = report(cat, NULL, -1, NULL);
    check_known(&st, 600, CHV_STATS_FOOTERS, 6);
    st = report(cat, NULL, -1, one_thread);
    check_known(&st, 600, CHV_STATS_FOOTERS, 6);
    chv_catalog_close(cat);

    cat = make_table(chv_test_tmpdir(), f, false, 150, &err);
    CHV_REQUIRE(cat != NULL);
    struct chv_kv zero = {"numRows", "0"};
    CHV_CHECK_OK(
        chv_catalog_alter_table_params(cat, "default", "t", &zero, 1, &err),
        &err);
    st = report(cat, NULL, -1, NULL);
    check_known(&st, 150, CHV_STATS_FOOTERS, 2);
    chv_catalog_close(cat);
  }
}

/* One partition without numRows: its files' footers, the others' figures. */
static void test_mixed(void) {
  for (int f = PARQUET; f <= ORC; f++) {
    struct chv_error err;
    chv_catalog *cat = make_table(chv_test_tmpdir(), f, true, 600, &err);
    CHV_REQUIRE(cat != NULL);
    forget_rows(cat, dts[1]);
    struct chv_source_stats st = report(cat, NULL, -1, NULL);
    check_known(&st, 600, CHV_STATS_MIXED, 2);
    /* A figure the metastore has wins over the files: it is what it says. */
    char *values[1] = {(char *)dts[0]};
    struct chv_kv kv = {"numRows", "1000"};
    CHV_CHECK_OK(chv_catalog_alter_partition_params(cat, "default", "t",
                                                    values, &kv, 1, &err),
                 &err);
    st = report(cat, NULL, -1, NULL);
    check_known(&st, 1400, CHV_STATS_MIXED, 2);
    chv_catalog_close(cat);
  }
}

/* Text files without numRows have no footer: unknown, unless the pruning
** leaves them out. */
static void test_text_unknown(void) {
  struct chv_error err;
  chv_catalog *cat = make_table(chv_test_tmpdir(), TEXT, true, 600, &err);
  CHV_REQUIRE(cat != NULL);
  forget_rows(cat, dts[2]);
  struct chv_source_stats st = report(cat, NULL, -1, NULL);
  check_unknown(&st, "text");
  CHV_CHECK_EQ_INT(st.partitions, 3);
  CHV_CHECK_EQ_INT(st.error, CHV_OK);
  chv_arena *a;
  CHV_REQUIRE_OK(chv_arena_open(0, &a), NULL);
  st = report(cat, chv_pf_cmp(a, "dt", CHV_PF_LT, dts[2]), -1, NULL);
  check_known(&st, 400, CHV_STATS_METASTORE, 0);
  /* A limit does not make unknown statistics known. */
  st = report(cat, NULL, 10, NULL);
  check_unknown(&st, "text");
  chv_arena_close(a);
  chv_catalog_close(cat);

  cat = make_table(chv_test_tmpdir(), TEXT, false, 150, &err);
  CHV_REQUIRE(cat != NULL);
  forget_rows(cat, NULL);
  st = report(cat, NULL, -1, NULL);
  check_unknown(&st, "text");
  chv_catalog_close(cat);
}

/* source.report-statistics NONE: unknown, nothing planned. */
static void test_none(void) {
  static const char *const none[] = {"source.report-statistics", "NONE", NULL};
  static const char *const all[] = {"source.report-statistics", "all", NULL};
  struct chv_error err;
  chv_catalog *cat = make_table(chv_test_tmpdir(), PARQUET, true, 600, &err);
  CHV_REQUIRE(cat != NULL);
  struct chv_source_stats st = report(cat, NULL, -1, none);
  check_unknown(&st, "NONE");
  CHV_CHECK_EQ_INT(st.partitions, -1);
  CHV_CHECK_EQ_INT(st.splits, -1);
  st = report(cat, NULL, -1, all);
  check_known(&st, 600, CHV_STATS_METASTORE, 0);
  chv_catalog_close(cat);
}

/* A limit caps the count, from either origin. */
static void test_limit(void) {
  struct chv_error err;
  chv_catalog *cat = make_table(chv_test_tmpdir(), ORC, true, 600, &err);
  CHV_REQUIRE(cat != NULL);
  struct chv_source_stats st = report(cat, NULL, 10, NULL);
  check_known(&st, 10, CHV_STATS_METASTORE, 0);
  st = report(cat, NULL, 0, NULL);
  check_known(&st, 0, CHV_STATS_METASTORE, 0);
  st = report(cat, NULL, 100000, NULL);
  check_known(&st, 600, CHV_STATS_METASTORE, 0);
  for (int i = 0; i < 3; i++) forget_rows(cat, dts[i]);
  st = report(cat, NULL, 599, NULL);
  check_known(&st, 599, CHV_STATS_FOOTERS, 6);
  chv_catalog_close(cat);
}

/* Pruned partitions alone count, from the metastore or their footers. */
static void test_pruning(void) {
  struct chv_error err;
  chv_catalog *cat = make_table(chv_test_tmpdir(), PARQUET, true, 600, &err);
  CHV_REQUIRE(cat != NULL);
  chv_arena *a;
  CHV_REQUIRE_OK(chv_arena_open(0, &a), NULL);
  const struct chv_part_filter *one = chv_pf_cmp(a, "dt", CHV_PF_EQ, dts[1]);
  const struct chv_part_filter *two = chv_pf_cmp(a, "dt", CHV_PF_GE, dts[1]);
  struct chv_source_stats st = report(cat, one, -1, NULL);
  check_known(&st, 200, CHV_STATS_METASTORE, 0);
  CHV_CHECK_EQ_INT(st.partitions, 1);
  forget_rows(cat, dts[1]);
  forget_rows(cat, dts[2]);
  st = report(cat, one, -1, NULL);
  check_known(&st, 200, CHV_STATS_FOOTERS, 2);
  st = report(cat, two, -1, NULL);
  check_known(&st, 400, CHV_STATS_FOOTERS, 4);
  CHV_CHECK_EQ_INT(st.partitions, 2);
  chv_arena_close(a);
  chv_catalog_close(cat);
}

/* No partitions (pruned away, or none yet) or no files: 0 rows, even for
** text without numRows. */
static void test_zero(void) {
  struct chv_error err;
  chv_catalog *cat = make_table(chv_test_tmpdir(), TEXT, true, 600, &err);
  CHV_REQUIRE(cat != NULL);
  chv_arena *a;
  CHV_REQUIRE_OK(chv_arena_open(0, &a), NULL);
  struct chv_source_stats st =
      report(cat, chv_pf_cmp(a, "dt", CHV_PF_GT, "2030"), -1, NULL);
  check_known(&st, 0, CHV_STATS_NO_FILES, 0);
  CHV_CHECK_EQ_INT(st.partitions, 0);
  CHV_CHECK_EQ_INT(st.splits, 0);
  chv_arena_close(a);
  chv_catalog_close(cat);

  /* A partitioned table without partitions; an unpartitioned one without
  ** files. */
  cat = open_table(chv_test_tmpdir(), "string", &err);
  CHV_REQUIRE(cat != NULL);
  st = report(cat, NULL, -1, NULL);
  check_known(&st, 0, CHV_STATS_NO_FILES, 0);
  chv_catalog_close(cat);
  cat = open_table(chv_test_tmpdir(), NULL, &err);
  CHV_REQUIRE(cat != NULL);
  st = report(cat, NULL, -1, NULL);
  check_known(&st, 0, CHV_STATS_NO_FILES, 0);
  CHV_CHECK_EQ_INT(st.partitions, 1);
  chv_catalog_close(cat);
}

/* A file that is not Parquet where a footer must be read: unknown, the
** error kept, its message naming the file; the call itself succeeds. */
static void test_error(void) {
  const char *wh = chv_test_tmpdir();
  struct chv_error err;
  chv_catalog *cat = make_table(wh, PARQUET, true, 600, &err);
  CHV_REQUIRE(cat != NULL);
  char path[700];
  snprintf(path, sizeof path, "%s/t/dt=%s/bad.parquet", wh, dts[1]);
  FILE *fp = fopen(path, "w");
  CHV_REQUIRE(fp != NULL);
  fputs("not a parquet file at all", fp);
  fclose(fp);
  /* With numRows the file is not read. */
  struct chv_source_stats st = report(cat, NULL, -1, NULL);
  check_known(&st, 600, CHV_STATS_METASTORE, 0);
  forget_rows(cat, dts[1]);
  chv_source *src;
  CHV_REQUIRE_OK(
      chv_source_open(cat, "default", "t", NULL, 0, NULL, &src, &err), &err);
  memset(&err, 0, sizeof err);
  CHV_CHECK_OK(chv_source_report_statistics(src, &st, &err), &err);
  check_unknown(&st, "error");
  CHV_CHECK(st.error != CHV_OK);
  CHV_CHECK_EQ_INT(err.code, st.error);
  CHV_CHECK_CONTAINS(err.msg, "bad.parquet");
  /* err may be NULL. */
  CHV_CHECK_OK(chv_source_report_statistics(src, &st, NULL), NULL);
  CHV_CHECK(!st.known);
  chv_source_close(src);
  chv_catalog_close(cat);
}

static void test_origin_names(void) {
  CHV_CHECK_STREQ(chv_stats_origin_name(CHV_STATS_UNKNOWN), "unknown");
  CHV_CHECK_STREQ(chv_stats_origin_name(CHV_STATS_NO_FILES), "no files");
  CHV_CHECK_STREQ(chv_stats_origin_name(CHV_STATS_METASTORE), "metastore");
  CHV_CHECK_STREQ(chv_stats_origin_name(CHV_STATS_FOOTERS), "footers");
  CHV_CHECK_STREQ(chv_stats_origin_name(CHV_STATS_MIXED), "mixed");
  CHV_CHECK_STREQ(chv_stats_origin_name((enum chv_stats_origin)99), "?");
}

CHV_TEST_MAIN("stats", test_metastore, test_footers, test_mixed,
              test_text_unknown, test_none, test_limit, test_pruning,
              test_zero, test_error, test_origin_names)
