/*
** Tests of split planning (chv_split_plan_open): Flink's ORC split size,
** worked out here from the partition folders as Flink lists them, and
** Hive's packing of stripes, checked split by split against the stripes of
** each file; splits read back give every row once.
*/
#include "chv_test.h"
#include "chive/orc.h"
#include "connector/connector.h"

#include <dirent.h>
#include <stdio.h>
#include <sys/stat.h>

#define ROWS_PER_PART 20000

/* default.o (id bigint, s string) PARTITIONED BY (dt string) STORED AS ORC,
** stripes of a few thousand rows; three partitions of ROWS_PER_PART rows,
** the second written in two files. */
static void orc_table(const char *wh, chv_catalog **out,
                      struct chv_error *err) {
  chv_catalog *cat = NULL;
  *out = NULL;
  CHV_REQUIRE_OK(chv_catalog_open(wh, NULL, &cat, err), err);
  struct chv_column cols[] = {{"id", "bigint", NULL}, {"s", "string", NULL}};
  struct chv_column pkeys[] = {{"dt", "string", NULL}};
  struct chv_kv params[] = {{"orc.stripe.size", "32k"},
                            {"orc.compress", "NONE"}};
  struct chv_table t = {
      .db = "default", .name = "o", .columns = cols, .ncols = 2,
      .pkeys = pkeys, .npkeys = 1, .type = CHV_MANAGED_TABLE,
      .serde_lib = "org.apache.hadoop.hive.ql.io.orc.OrcSerde",
      .input_format = "org.apache.hadoop.hive.ql.io.orc.OrcInputFormat",
      .output_format = "org.apache.hadoop.hive.ql.io.orc.OrcOutputFormat",
      .params = params, .nparams = 2};
  CHV_REQUIRE_OK(chv_catalog_create_table(cat, &t, 0, err), err);
  static const char *const dts[] = {"a", "b", "b", "c"};
  int64_t id = 0;
  for (int f = 0; f < 4; f++) {
    struct chv_sink_options so;
    chv_sink_options_init(&so);
    chv_sink *s;
    CHV_REQUIRE_OK(chv_sink_open(cat, "default", "o", &so, &s, err), err);
    int n = f == 1 || f == 2 ? ROWS_PER_PART / 2 : ROWS_PER_PART;
    struct chv_batch *b;
    CHV_REQUIRE_OK(chv_batch_open(chv_sink_schema(s), 1000, &b, err), err);
    char *values[1] = {(char *)dts[f]};
    for (int i = 0; i < n; i++) {
      char text[32];
      int len = snprintf(text, sizeof text, "value %lld", (long long)id * 7919);
      CHV_REQUIRE_OK(chv_vector_append_value(b->cols[0], &id, err), err);
      CHV_REQUIRE_OK(chv_vector_append_string(b->cols[1], text, (size_t)len,
                                              err), err);
      id++;
      if (++b->nrows == 1000) {
        CHV_REQUIRE_OK(chv_sink_write(s, values, b, err), err);
        chv_batch_reset(b);
      }
    }
    chv_batch_close(b);
    CHV_REQUIRE_OK(chv_sink_commit(s, err), err);
    chv_sink_close(s);
  }
  *out = cat;
}

/* Flink's weight of a partition folder: every top-level entry's length
** (0 for a folder) plus the open cost. */
static int64_t folder_weight(const char *dir, int64_t open_cost) {
  DIR *d = opendir(dir);
  if (d == NULL) return 0;
  int64_t w = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    struct stat st;
    CHV_CHECK(stat(path, &st) == 0);
    w += (S_ISDIR(st.st_mode) ? 0 : st.st_size) + open_cost;
  }
  closedir(d);
  return w;
}

/* Every split is a run of whole stripes of its file; the runs of a file
** cover its stripes once, in order; a run ends at the first stripe that
** brings it to max bytes, or at the file's last stripe. */
static void check_packing(const struct chv_split_plan *p, int64_t max,
                          int64_t *nstripes) {
  *nstripes = 0;
  int i = 0;
  while (i < p->nsplits) {
    const char *path = p->splits[i].path;
    struct chv_orc_unit *u;
    int n;
    struct chv_error err;
    CHV_REQUIRE_OK(chv_orc_file_units(chv_fs_local(), path, &u, &n, &err),
                   &err);
    *nstripes += n;
    int k = 0;
    for (; i < p->nsplits && !strcmp(p->splits[i].path, path); i++) {
      const struct chv_split *s = &p->splits[i];
      CHV_REQUIRE(k < n);
      CHV_CHECK_EQ_INT(s->start, u[k].offset);
      int first = k;
      int64_t len = 0;
      while (k < n && len < max) {
        len = u[k].offset + u[k].length - u[first].offset;
        k++;
      }
      CHV_CHECK_EQ_INT(s->length, len);
      if (k < n) CHV_CHECK(len >= max);
      struct stat st;
      CHV_REQUIRE(stat(path, &st) == 0);
      CHV_CHECK_EQ_INT(s->file_size, st.st_size);
    }
    CHV_CHECK_EQ_INT(k, n); /* every stripe in some split */
    chv_free(u);
  }
}

/* Rows of every split read through the ORC reader with its range: each id
** once. */
static void check_read(const struct chv_split_plan *p, int64_t rows) {
  uint8_t *seen = chv_calloc((size_t)rows, 1);
  CHV_REQUIRE(seen != NULL);
  int64_t total = 0;
  for (int i = 0; i < p->nsplits; i++) {
    struct chv_orc_read_options o;
    chv_orc_read_options_init(&o);
    o.range_start = p->splits[i].start;
    o.range_length = p->splits[i].length;
    static const char *const cols[] = {"id"};
    o.columns = cols;
    o.ncolumns = 1;
    chv_orc_reader *r;
    struct chv_error err;
    CHV_REQUIRE_OK(chv_orc_reader_open(chv_fs_local(), p->splits[i].path, &o,
                                       &r, &err), &err);
    struct chv_batch *b;
    CHV_REQUIRE_OK(chv_batch_open(chv_orc_reader_schema(r), 4096, &b, &err),
                   &err);
    int64_t n;
    while (chv_orc_reader_next(r, b, &n, &err) == CHV_OK && n > 0) {
      const int64_t *ids = b->cols[0]->data;
      for (int64_t k = 0; k < n; k++) {
        CHV_REQUIRE(ids[k] >= 0 && ids[k] < rows);
        CHV_CHECK(!seen[ids[k]]);
        seen[ids[k]] = 1;
      }
      total += n;
    }
    chv_batch_close(b);
    chv_orc_reader_close(r);
  }
  CHV_CHECK_EQ_INT(total, rows);
  chv_free(seen);
}

static struct chv_split_plan *plan_with(chv_catalog *cat, chv_config *cfg,
                                        int min_splits,
                                        const struct chv_part_filter *f) {
  struct chv_split_options o = {.filter = f, .min_splits = min_splits,
                                .cfg = cfg};
  struct chv_split_plan *p = NULL;
  struct chv_error err;
  if (chv_split_plan_open(cat, "default", "o", &o, &p, &err) != CHV_OK) {
    fprintf(stderr, "plan: %s\n", err.msg);
    exit(1);
  }
  return p;
}

static void set(chv_config *cfg, const char *key, const char *value) {
  struct chv_error err;
  CHV_REQUIRE_OK(chv_config_set(cfg, CHV_LAYER_SESSION, key, value, &err),
                 &err);
}

static void test_orc_split_size(void) {
  struct chv_error err;
  const char *wh = chv_test_tmpdir();
  chv_catalog *cat;
  orc_table(wh, &cat, &err);
  CHV_REQUIRE(cat != NULL);
  chv_config *cfg;
  CHV_REQUIRE_OK(chv_config_open(&cfg, &err), &err);
  char dir[3][700];
  for (int i = 0; i < 3; i++)
    snprintf(dir[i], sizeof dir[i], "%s/o/dt=%c", wh, 'a' + i);

  /* Defaults: n = infer-source-parallelism.max = 1000, so the size is the
  ** open cost, 4 MiB; every file is smaller: one split per file. */
  struct chv_split_plan *p = plan_with(cat, NULL, 0, NULL);
  int64_t w = 0;
  for (int i = 0; i < 3; i++) w += folder_weight(dir[i], 4 << 20);
  CHV_CHECK_EQ_INT(p->npartitions, 3);
  CHV_CHECK_EQ_INT(p->files, 4);
  CHV_CHECK_EQ_INT(p->min_splits, 1000);
  CHV_CHECK_EQ_INT(p->total_weighted, w);
  CHV_CHECK_EQ_INT(p->max_split_bytes, CHV_MIN(128 << 20,
                                               CHV_MAX(4 << 20, w / 1000)));
  CHV_CHECK_EQ_INT(p->nsplits, 4);
  int64_t stripes;
  check_packing(p, p->max_split_bytes, &stripes);
  CHV_CHECK(stripes >= 8); /* several stripes in each file */
  check_read(p, 3 * ROWS_PER_PART);
  chv_split_plan_free(p);

  /* No open cost, one split wanted: the size is all the bytes. */
  set(cfg, "table.exec.hive.file-open-cost", "0");
  p = plan_with(cat, cfg, 1, NULL);
  w = 0;
  for (int i = 0; i < 3; i++) w += folder_weight(dir[i], 0);
  CHV_CHECK_EQ_INT(p->total_weighted, w);
  CHV_CHECK_EQ_INT(p->max_split_bytes, w);
  CHV_CHECK_EQ_INT(p->nsplits, 4);
  chv_split_plan_free(p);

  /* split-max-size caps it: a split of a few stripes each. */
  struct chv_orc_unit *u;
  int nu;
  {
    p = plan_with(cat, cfg, 1, NULL);
    CHV_REQUIRE_OK(chv_orc_file_units(chv_fs_local(), p->splits[0].path, &u,
                                      &nu, &err), &err);
    chv_split_plan_free(p);
  }
  CHV_REQUIRE(nu >= 3);
  char text[32];
  int64_t cap = u[0].length * 5 / 2; /* 2.5 stripes: splits of 3 */
  snprintf(text, sizeof text, "%lld", (long long)cap);
  chv_free(u);
  set(cfg, "table.exec.hive.split-max-size", text);
  p = plan_with(cat, cfg, 1, NULL);
  CHV_CHECK_EQ_INT(p->max_split_bytes, cap);
  CHV_CHECK(p->nsplits > 4);
  check_packing(p, cap, &stripes);
  CHV_CHECK(p->nsplits < stripes);
  check_read(p, 3 * ROWS_PER_PART);
  chv_split_plan_free(p);

  /* A size under every stripe: a split per stripe. */
  set(cfg, "table.exec.hive.split-max-size", "1");
  p = plan_with(cat, cfg, 7, NULL);
  CHV_CHECK_EQ_INT(p->max_split_bytes, 1);
  check_packing(p, 1, &stripes);
  CHV_CHECK_EQ_INT(p->nsplits, stripes);
  check_read(p, 3 * ROWS_PER_PART);
  chv_split_plan_free(p);

  /* n = 2 with a 1 KiB open cost and one thread for each pool: the weight
  ** counts only the pruned partitions. */
  chv_config_clear(cfg, CHV_LAYER_SESSION);
  set(cfg, "table.exec.hive.file-open-cost", "1kb");
  set(cfg, "table.exec.hive.calculate-partition-size.thread-num", "1");
  set(cfg, "table.exec.hive.load-partition-splits.thread-num", "1");
  chv_arena *a;
  CHV_REQUIRE_OK(chv_arena_open(0, &a), NULL);
  struct chv_part_filter *f = chv_pf_cmp(a, "dt", CHV_PF_GE, "b");
  p = plan_with(cat, cfg, 2, f);
  w = folder_weight(dir[1], 1024) + folder_weight(dir[2], 1024);
  CHV_CHECK_EQ_INT(p->npartitions, 2);
  CHV_CHECK_EQ_INT(p->total_weighted, w);
  CHV_CHECK_EQ_INT(p->max_split_bytes, CHV_MAX(1024, w / 2));
  check_packing(p, p->max_split_bytes, &stripes);
  for (int i = 0; i < p->nsplits; i++) CHV_CHECK(p->splits[i].partition >= 0);
  chv_split_plan_free(p);
  chv_arena_close(a);

  /* A sub-folder weighs its open cost; its files are split only when
  ** read-partition-with-subdirectory.enabled. */
  char sub[800], cmd[2000];
  snprintf(sub, sizeof sub, "%s/nested", dir[0]);
  CHV_REQUIRE(mkdir(sub, 0755) == 0);
  snprintf(cmd, sizeof cmd, "cp \"$(ls %s/part-* | head -1)\" %s/x.orc",
           dir[0], sub);
  CHV_REQUIRE(system(cmd) == 0);
  chv_config_clear(cfg, CHV_LAYER_SESSION);
  p = plan_with(cat, cfg, 1000, NULL);
  CHV_CHECK_EQ_INT(p->files, 5);
  w = 0;
  for (int i = 0; i < 3; i++) w += folder_weight(dir[i], 4 << 20);
  CHV_CHECK_EQ_INT(p->total_weighted, w);
  chv_split_plan_free(p);
  set(cfg, "table.exec.hive.read-partition-with-subdirectory.enabled",
      "false");
  p = plan_with(cat, cfg, 1000, NULL);
  CHV_CHECK_EQ_INT(p->files, 4);
  CHV_CHECK_EQ_INT(p->total_weighted, w);
  chv_split_plan_free(p);

  /* A file that is not ORC fails the plan, naming it. */
  char bad[800];
  snprintf(bad, sizeof bad, "%s/zz-bad", dir[2]);
  FILE *fp = fopen(bad, "w");
  CHV_REQUIRE(fp != NULL);
  fputs("not an orc file at all", fp);
  fclose(fp);
  struct chv_split_options o = {.cfg = cfg};
  CHV_CHECK_EQ_INT(chv_split_plan_open(cat, "default", "o", &o, &p, &err),
                   CHV_ECORRUPT);
  CHV_CHECK(strstr(err.msg, "zz-bad") != NULL);
  CHV_CHECK(p == NULL);

  chv_config_close(cfg);
  chv_catalog_close(cat);
}

/* Other formats: a split per file, whole. */
static void test_text_one_split_per_file(void) {
  struct chv_error err;
  const char *wh = chv_test_tmpdir();
  chv_catalog *cat = NULL;
  CHV_REQUIRE_OK(chv_catalog_open(wh, NULL, &cat, &err), &err);
  struct chv_column cols[] = {{"id", "int", NULL}};
  struct chv_table t = {.db = "default", .name = "o", .columns = cols,
                        .ncols = 1, .type = CHV_MANAGED_TABLE};
  CHV_REQUIRE_OK(chv_catalog_create_table(cat, &t, 0, &err), &err);
  for (int f = 0; f < 3; f++) {
    char path[800];
    snprintf(path, sizeof path, "%s/o/f%d", wh, f);
    FILE *fp = fopen(path, "w");
    CHV_REQUIRE(fp != NULL);
    for (int i = 0; i <= f * 100; i++) fprintf(fp, "%d\n", i);
    fclose(fp);
  }
  struct chv_split_plan *p;
  CHV_REQUIRE_OK(chv_split_plan_open(cat, "default", "o", NULL, &p, &err),
                 &err);
  CHV_CHECK_EQ_INT(p->nsplits, 3);
  CHV_CHECK_EQ_INT(p->max_split_bytes, 0);
  for (int i = 0; i < 3; i++) {
    CHV_CHECK_EQ_INT(p->splits[i].start, 0);
    CHV_CHECK_EQ_INT(p->splits[i].length, p->splits[i].file_size);
    CHV_CHECK(p->splits[i].length > 0);
  }
  chv_split_plan_free(p);
  chv_catalog_close(cat);
}

CHV_TEST_MAIN("split", test_orc_split_size, test_text_one_split_per_file)
