/*
** Tests of split planning (chv_split_plan_open): Flink's ORC split size,
** worked out here from the partition folders as Flink lists them, and
** Hive's packing of stripes, checked split by split against the stripes of
** each file; Hadoop's FileInputFormat sizing of text and Parquet tables,
** checked split by split against the formula worked out here, at the slop
** boundary, with empty, compressed and hidden files and the default block
** size; splits read back through the connector's readers give every row
** once.  Parallelism inference (chv_split_infer_parallelism) in each of
** its branches.  TABLESAMPLE's choice of splits and what a sampled scan
** reads.
*/
#include "chv_test.h"
#include "chive/orc.h"
#include "connector/connector.h"
#include "connector/connector_int.h"

#include <dirent.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

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

  /* A sub-folder weighs its open cost; its files are split when
  ** read-partition-with-subdirectory.enabled, and fail the plan, named,
  ** when not (Hadoop's "Not a file"). */
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
  struct chv_split_options no_sub = {.cfg = cfg};
  CHV_CHECK_EQ_INT(
      chv_split_plan_open(cat, "default", "o", &no_sub, &p, &err), CHV_EINVAL);
  CHV_CHECK_CONTAINS(err.msg, "Not a file: ");
  CHV_CHECK_CONTAINS(err.msg, sub);
  CHV_CHECK(p == NULL);
  chv_config_clear(cfg, CHV_LAYER_SESSION);

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

/* ---- text and Parquet: Hadoop's FileInputFormat ------------------------- */

/* default.<name> (id bigint) STORED AS TEXTFILE, partitioned by dt when
** parts is not NULL (those partitions registered, without folders). */
static void text_table(chv_catalog *cat, const char *name,
                       const char *const *parts, int nparts) {
  struct chv_error err;
  struct chv_column cols[] = {{"id", "bigint", NULL}};
  struct chv_column pkeys[] = {{"dt", "string", NULL}};
  struct chv_table t = {.db = "default", .name = (char *)name,
                        .columns = cols, .ncols = 1,
                        .pkeys = parts ? pkeys : NULL, .npkeys = parts ? 1 : 0,
                        .type = CHV_MANAGED_TABLE};
  CHV_REQUIRE_OK(chv_catalog_create_table(cat, &t, 0, &err), &err);
  for (int i = 0; i < nparts; i++) {
    char *values[1] = {(char *)parts[i]};
    struct chv_partition p = {.values = values, .nvalues = 1};
    CHV_REQUIRE_OK(chv_catalog_add_partitions(cat, "default", name, &p, 1, 0,
                                              &err), &err);
  }
}

/* Writes ids [*next, *next + n) as text lines to path (gzipped when gz),
** creating its folder. */
static void write_ids(const char *path, int64_t *next, int n, bool gz) {
  char dir[1100];
  snprintf(dir, sizeof dir, "mkdir -p \"$(dirname '%s')\"", path);
  CHV_REQUIRE(system(dir) == 0);
  struct chv_buf text;
  chv_buf_init(&text);
  for (int i = 0; i < n; i++) chv_buf_printf(&text, "%lld\n", (long long)(*next)++);
  struct chv_buf out;
  chv_buf_init(&out);
  if (gz) {
    chv_comp *c;
    struct chv_error err;
    CHV_REQUIRE_OK(chv_comp_open(CHV_CODEC_GZIP, 0, &c, &err), &err);
    CHV_REQUIRE_OK(chv_comp_run(c, text.data, text.len, &out, &err), &err);
    CHV_REQUIRE_OK(chv_comp_finish(c, &out, &err), &err);
    chv_comp_close(c);
  } else if (text.len) {
    chv_buf_append(&out, text.data, text.len);
  }
  FILE *f = fopen(path, "wb");
  CHV_REQUIRE(f != NULL);
  if (out.len) CHV_REQUIRE(fwrite(out.data, 1, out.len, f) == out.len);
  fclose(f);
  chv_buf_free(&text);
  chv_buf_free(&out);
}

/* A file of `size` bytes that takes no room (its bytes are never read). */
static void sparse_file(const char *path, int64_t size) {
  FILE *f = fopen(path, "wb");
  CHV_REQUIRE(f != NULL);
  CHV_REQUIRE(ftruncate(fileno(f), (off_t)size) == 0);
  fclose(f);
}

static int64_t file_size(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 ? st.st_size : -1;
}

static bool ends_with(const char *s, const char *e) {
  size_t n = strlen(s), k = strlen(e);
  return n > k && strcmp(s + n - k, e) == 0;
}

/* Hadoop's getSplits() for the files of one partition, worked out here:
** the splits of file f (its size) given the partition's bytes. */
static int64_t hadoop_splits(int64_t size, int64_t part_bytes, int64_t n,
                             int64_t block, bool whole, int64_t *start,
                             int64_t *len, int max) {
  int64_t goal = part_bytes / (n > 0 ? n : 1);
  int64_t split = goal < block ? goal : block;
  if (split < 1) split = 1;
  int k = 0;
  if (size == 0 || whole) {
    start[0] = 0;
    len[0] = size;
    return 1;
  }
  int64_t left = size;
  while ((double)left / (double)split > 1.1 && k < max) {
    start[k] = size - left;
    len[k++] = split;
    left -= split;
  }
  if (left > 0 && k < max) {
    start[k] = size - left;
    len[k++] = left;
  }
  return k;
}

/* Every split of p against the formula: the files of each partition,
** grouped, cut as hadoop_splits() cuts them, in order; text files a codec
** compresses whole.  Returns the splits checked. */
static int check_hadoop(const struct chv_split_plan *p, bool text) {
  int i = 0;
  while (i < p->nsplits) {
    int part = p->splits[i].partition;
    /* The partition's files: its splits' distinct paths. */
    int64_t bytes = 0;
    int end = i;
    const char *last = NULL;
    for (; end < p->nsplits && p->splits[end].partition == part; end++) {
      if (last == NULL || strcmp(last, p->splits[end].path) != 0)
        bytes += p->splits[end].file_size;
      last = p->splits[end].path;
    }
    while (i < end) {
      const struct chv_split *s = &p->splits[i];
      CHV_CHECK_EQ_INT(s->file_size, file_size(s->path));
      bool whole = text && (ends_with(s->path, ".gz") ||
                            ends_with(s->path, ".bz2") ||
                            ends_with(s->path, ".deflate") ||
                            ends_with(s->path, ".lz4") ||
                            ends_with(s->path, ".snappy") ||
                            ends_with(s->path, ".zst"));
      int64_t st[4096], ln[4096];
      int64_t k = hadoop_splits(s->file_size, bytes, p->num_splits,
                                p->block_size, whole, st, ln, 4096);
      for (int64_t j = 0; j < k; j++, i++) {
        if (i >= end) {
          CHV_CHECK(i < end);
          return i;
        }
        CHV_CHECK_STREQ(p->splits[i].path, s->path);
        CHV_CHECK_EQ_INT(p->splits[i].start, st[j]);
        CHV_CHECK_EQ_INT(p->splits[i].length, ln[j]);
      }
    }
  }
  return i;
}

/* Reads every split of p through the connector's reader with its range:
** ids 0..nids-1 each once. */
static void read_splits(chv_catalog *cat, const char *table,
                        const struct chv_split_plan *p, int64_t nids) {
  struct chv_error err;
  struct chv_table t;
  CHV_REQUIRE_OK(chv_catalog_get_table(cat, "default", table, &t, &err), &err);
  struct conn_format fmt;
  CHV_REQUIRE_OK(conn_table_format(&t, NULL, &fmt, &err), &err);
  struct chv_type *schema;
  CHV_REQUIRE_OK(conn_table_schema(&t, false, &schema, &err), &err);
  uint8_t *seen = chv_calloc((size_t)nids + 1, 1);
  int64_t total = 0;
  int cols[1] = {0};
  for (int i = 0; i < p->nsplits; i++) {
    struct conn_read_args a = {.file_schema = schema, .cols = cols,
                               .ncols = 1, .batch_rows = 1024,
                               .range_start = p->splits[i].start,
                               .range_length = p->splits[i].length};
    struct conn_reader r;
    CHV_REQUIRE_OK(conn_reader_open(&fmt, chv_fs_local(), p->splits[i].path,
                                    &a, &r, &err), &err);
    struct chv_batch *b;
    CHV_REQUIRE_OK(chv_batch_open(conn_reader_schema(&r), 300, &b, &err),
                   &err);
    int64_t n;
    for (;;) {
      CHV_REQUIRE_OK(conn_reader_next(&r, b, &n, &err), &err);
      if (n == 0) break;
      const int64_t *ids = b->cols[0]->data;
      for (int64_t k = 0; k < n; k++) {
        CHV_REQUIRE(!chv_vector_is_null(b->cols[0], k));
        CHV_REQUIRE(ids[k] >= 0 && ids[k] < nids);
        CHV_CHECK(!seen[ids[k]]);
        seen[ids[k]] = 1;
      }
      total += n;
    }
    chv_batch_close(b);
    conn_reader_close(&r, NULL);
  }
  CHV_CHECK_EQ_INT(total, nids);
  chv_free(seen);
  chv_type_free(schema);
  chv_table_free(&t);
}

static struct chv_split_plan *plan_table(chv_catalog *cat, const char *table,
                                         const chv_config *cfg,
                                         int min_splits, int64_t block) {
  struct chv_split_options o = {.min_splits = min_splits, .cfg = cfg,
                                .block_size = block};
  struct chv_split_plan *p = NULL;
  struct chv_error err;
  if (chv_split_plan_open(cat, "default", table, &o, &p, &err) != CHV_OK) {
    fprintf(stderr, "plan of %s: %s\n", table, err.msg);
    exit(1);
  }
  return p;
}

/* A text table of three partitions: two files, an empty one, a gzipped one
** and hidden ones in the first, one in the second, none (no folder) in
** the third; planned with n = 1, 4, 1000 and while inferring, at the
** default block size and a small one; every split read back. */
static void test_text_sizing(void) {
  struct chv_error err;
  const char *wh = chv_test_tmpdir();
  chv_catalog *cat;
  CHV_REQUIRE_OK(chv_catalog_open(wh, NULL, &cat, &err), &err);
  static const char *const parts[] = {"a", "b", "c"};
  text_table(cat, "t", parts, 3);
  char path[900];
  int64_t next = 0;
  snprintf(path, sizeof path, "%s/t/dt=a/f1", wh);
  write_ids(path, &next, 300, false);
  snprintf(path, sizeof path, "%s/t/dt=a/f2", wh);
  write_ids(path, &next, 700, false);
  snprintf(path, sizeof path, "%s/t/dt=a/empty", wh);
  write_ids(path, &next, 0, false);
  snprintf(path, sizeof path, "%s/t/dt=a/z.gz", wh);
  write_ids(path, &next, 2000, true);
  int64_t visible = next;
  snprintf(path, sizeof path, "%s/t/dt=a/_tmp", wh);
  write_ids(path, &next, 50, false);
  snprintf(path, sizeof path, "%s/t/dt=a/.crc", wh);
  write_ids(path, &next, 50, false);
  next = visible;
  snprintf(path, sizeof path, "%s/t/dt=b/g", wh);
  write_ids(path, &next, 1500, false);

  /* n = 1: each file one split; the empty file one empty split. */
  struct chv_split_plan *p = plan_table(cat, "t", NULL, 1, 0);
  CHV_CHECK_EQ_INT(p->npartitions, 3);
  CHV_CHECK_EQ_INT(p->files, 5);
  CHV_CHECK_EQ_INT(p->num_splits, 1);
  CHV_CHECK_EQ_INT(p->block_size, CHV_SPLIT_BLOCK_SIZE);
  CHV_CHECK_EQ_INT(p->max_split_bytes, 0);
  CHV_CHECK_EQ_INT(check_hadoop(p, true), 5);
  CHV_CHECK_EQ_INT(p->nsplits, 5);
  read_splits(cat, "t", p, next);
  chv_split_plan_free(p);

  /* n = 4: a quarter of each partition's bytes per split; the gzipped file
  ** stays whole. */
  p = plan_table(cat, "t", NULL, 4, 0);
  CHV_CHECK_EQ_INT(p->num_splits, 4);
  CHV_CHECK_EQ_INT(check_hadoop(p, true), p->nsplits);
  CHV_CHECK(p->nsplits > 8);
  read_splits(cat, "t", p, next);
  chv_split_plan_free(p);

  /* A block size under the goal caps the splits. */
  p = plan_table(cat, "t", NULL, 4, 97);
  CHV_CHECK_EQ_INT(p->block_size, 97);
  CHV_CHECK_EQ_INT(check_hadoop(p, true), p->nsplits);
  for (int i = 0; i < p->nsplits; i++)
    if (!ends_with(p->splits[i].path, ".gz"))
      CHV_CHECK(p->splits[i].length <= 97 * 11 / 10);
  read_splits(cat, "t", p, next);
  chv_split_plan_free(p);

  /* n = 1000: splits of a few bytes, lines still read once. */
  p = plan_table(cat, "t", NULL, 1000, 0);
  CHV_CHECK_EQ_INT(check_hadoop(p, true), p->nsplits);
  CHV_CHECK(p->nsplits > 1000);
  read_splits(cat, "t", p, next);
  chv_split_plan_free(p);

  /* Inferring (n <= 0): Flink passes 0, which Hadoop takes as 1; ORC's n
  ** would be infer-source-parallelism.max. */
  p = plan_table(cat, "t", NULL, 0, 0);
  CHV_CHECK_EQ_INT(p->num_splits, 1);
  CHV_CHECK_EQ_INT(p->min_splits, 1000);
  CHV_CHECK_EQ_INT(p->nsplits, 5);
  chv_split_plan_free(p);
  chv_catalog_close(cat);
}

/* The slop at its boundary (1.1 split sizes stay one split, a byte more
** is two), codecs by name, and the default 32 MiB block on large sparse
** files; Parquet files are cut whatever their names. */
static void test_slop_and_block(void) {
  struct chv_error err;
  const char *wh = chv_test_tmpdir();
  chv_catalog *cat;
  CHV_REQUIRE_OK(chv_catalog_open(wh, NULL, &cat, &err), &err);
  text_table(cat, "s", NULL, 0);
  char path[900];
  static const int64_t sizes[] = {110, 111, 221, 310, 311, 0};
  char dir[800];
  snprintf(dir, sizeof dir, "%s/s", wh);
  mkdir(dir, 0755);
  for (size_t i = 0; i < CHV_ARRAY_SIZE(sizes); i++) {
    snprintf(path, sizeof path, "%s/f%zu", dir, i);
    sparse_file(path, sizes[i]);
  }
  /* One partition of 1063 bytes, n = 1: the 100-byte block decides. */
  struct chv_split_plan *p = plan_table(cat, "s", NULL, 1, 100);
  CHV_CHECK_EQ_INT(check_hadoop(p, true), p->nsplits);
  static const int want[] = {1, 2, 3, 3, 4, 1}; /* splits per file */
  int i = 0;
  for (size_t f = 0; f < CHV_ARRAY_SIZE(sizes); f++) {
    int k = 0;
    snprintf(path, sizeof path, "%s/f%zu", dir, f);
    for (; i < p->nsplits && !strcmp(p->splits[i].path, path); i++) k++;
    CHV_CHECK_EQ_INT(k, want[f]);
  }
  CHV_CHECK_EQ_INT(i, p->nsplits);
  chv_split_plan_free(p);

  /* The default block: 32 MiB.  Compressed names stay whole, case
  ** matters, a name that is only the extension is not compressed (it is
  ** hidden anyway: it starts with '.'). */
  text_table(cat, "big", NULL, 0);
  snprintf(dir, sizeof dir, "%s/big", wh);
  mkdir(dir, 0755);
  static const struct {
    const char *name;
    int64_t mib;
    int splits;
  } files[] = {{"a", 100, 4},          {"b", 35, 1},          {"c.gz", 70, 1},
               {"d.bz2", 40, 1},       {"e.GZ", 40, 2},       {"f.deflate", 40, 1},
               {"g.lz4", 40, 1},       {"h.snappy", 40, 1},   {"i.zst", 40, 1},
               {"j.zstd", 40, 2}};
  for (size_t f = 0; f < CHV_ARRAY_SIZE(files); f++) {
    snprintf(path, sizeof path, "%s/%s", dir, files[f].name);
    sparse_file(path, files[f].mib << 20);
  }
  p = plan_table(cat, "big", NULL, 1, 0);
  CHV_CHECK_EQ_INT(check_hadoop(p, true), p->nsplits);
  i = 0;
  for (size_t f = 0; f < CHV_ARRAY_SIZE(files); f++) {
    int k = 0;
    snprintf(path, sizeof path, "%s/%s", dir, files[f].name);
    for (; i < p->nsplits && !strcmp(p->splits[i].path, path); i++) {
      if (k < files[f].splits - 1)
        CHV_CHECK_EQ_INT(p->splits[i].length, CHV_SPLIT_BLOCK_SIZE);
      k++;
    }
    if (k != files[f].splits) fprintf(stderr, "%s\n", files[f].name);
    CHV_CHECK_EQ_INT(k, files[f].splits);
  }
  CHV_CHECK_EQ_INT(i, p->nsplits);
  /* a: 32 + 32 + 32 + 4 MiB (36 MiB left is more than 1.1 blocks). */
  CHV_CHECK_EQ_INT(p->splits[3].start, (int64_t)96 << 20);
  CHV_CHECK_EQ_INT(p->splits[3].length, (int64_t)4 << 20);
  chv_split_plan_free(p);

  /* A Parquet table's file named like a codec is cut all the same. */
  struct chv_column cols[] = {{"id", "bigint", NULL}};
  struct chv_table t = {
      .db = "default", .name = "pbig", .columns = cols, .ncols = 1,
      .type = CHV_MANAGED_TABLE,
      .serde_lib =
          "org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe",
      .input_format =
          "org.apache.hadoop.hive.ql.io.parquet.MapredParquetInputFormat",
      .output_format =
          "org.apache.hadoop.hive.ql.io.parquet.MapredParquetOutputFormat"};
  CHV_REQUIRE_OK(chv_catalog_create_table(cat, &t, 0, &err), &err);
  snprintf(dir, sizeof dir, "%s/pbig", wh);
  mkdir(dir, 0755);
  snprintf(path, sizeof path, "%s/x.gz", dir);
  sparse_file(path, (int64_t)40 << 20);
  p = plan_table(cat, "pbig", NULL, 1, 0);
  CHV_CHECK_EQ_INT(check_hadoop(p, false), 2);
  CHV_CHECK_EQ_INT(p->nsplits, 2);
  chv_split_plan_free(p);
  chv_catalog_close(cat);
}

/* A Parquet table (small row groups) in two partitions of several files,
** written through the sink: its splits cut row groups anywhere and every
** row is read once (each group by the split holding its midpoint). */
static void test_parquet_sizing(void) {
  struct chv_error err;
  const char *wh = chv_test_tmpdir();
  chv_catalog *cat;
  CHV_REQUIRE_OK(chv_catalog_open(wh, NULL, &cat, &err), &err);
  struct chv_column cols[] = {{"id", "bigint", NULL}, {"s", "string", NULL}};
  struct chv_column pkeys[] = {{"dt", "string", NULL}};
  struct chv_kv params[] = {{"parquet.block.size", "4096"},
                            {"parquet.page.size", "1024"}};
  struct chv_table t = {
      .db = "default", .name = "p", .columns = cols, .ncols = 2,
      .pkeys = pkeys, .npkeys = 1, .type = CHV_MANAGED_TABLE,
      .serde_lib =
          "org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe",
      .input_format =
          "org.apache.hadoop.hive.ql.io.parquet.MapredParquetInputFormat",
      .output_format =
          "org.apache.hadoop.hive.ql.io.parquet.MapredParquetOutputFormat",
      .params = params, .nparams = 2};
  CHV_REQUIRE_OK(chv_catalog_create_table(cat, &t, 0, &err), &err);
  static const char *const dts[] = {"a", "a", "b", "a", "b"};
  int64_t id = 0;
  for (int f = 0; f < 5; f++) {
    struct chv_sink_options so;
    chv_sink_options_init(&so);
    chv_sink *s;
    CHV_REQUIRE_OK(chv_sink_open(cat, "default", "p", &so, &s, &err), &err);
    struct chv_batch *b;
    CHV_REQUIRE_OK(chv_batch_open(chv_sink_schema(s), 500, &b, &err), &err);
    char *values[1] = {(char *)dts[f]};
    for (int i = 0; i < 3000 + f * 1000; i++) {
      char text[32];
      int len = snprintf(text, sizeof text, "v%d", (int)(id % 41));
      CHV_REQUIRE_OK(chv_vector_append_value(b->cols[0], &id, &err), &err);
      CHV_REQUIRE_OK(chv_vector_append_string(b->cols[1], text, (size_t)len,
                                              &err), &err);
      id++;
      if (++b->nrows == 500) {
        CHV_REQUIRE_OK(chv_sink_write(s, values, b, &err), &err);
        chv_batch_reset(b);
      }
    }
    if (b->nrows) CHV_REQUIRE_OK(chv_sink_write(s, values, b, &err), &err);
    chv_batch_close(b);
    CHV_REQUIRE_OK(chv_sink_commit(s, &err), &err);
    chv_sink_close(s);
  }
  static const struct {
    int n;
    int64_t block;
  } cases[] = {{1, 0}, {3, 0}, {7, 0}, {2, 5000}, {50, 0}, {1000, 0}};
  for (size_t c = 0; c < CHV_ARRAY_SIZE(cases); c++) {
    struct chv_split_plan *p =
        plan_table(cat, "p", NULL, cases[c].n, cases[c].block);
    CHV_CHECK_EQ_INT(p->files, 5);
    CHV_CHECK_EQ_INT(check_hadoop(p, false), p->nsplits);
    if (cases[c].n > 1) CHV_CHECK(p->nsplits > 5);
    read_splits(cat, "p", p, id);
    chv_split_plan_free(p);
  }
  chv_catalog_close(cat);
}

/* ---- parallelism inference ---------------------------------------------- */

static struct chv_parallelism infer_with(chv_catalog *cat, const chv_config *cfg,
                                         int def, int64_t limit,
                                         int64_t block,
                                         const struct chv_part_filter *f) {
  struct chv_parallelism_options o = {.filter = f,
                                      .default_parallelism = def,
                                      .limit = limit,
                                      .cfg = cfg,
                                      .block_size = block};
  struct chv_parallelism r;
  struct chv_error err;
  if (chv_split_infer_parallelism(cat, "default", "inf", &o, &r, &err) !=
      CHV_OK) {
    fprintf(stderr, "inference: %s\n", err.msg);
    exit(1);
  }
  return r;
}

/* Every branch: inference off (switch or mode), entries reaching the
** bound, splits under and over it, the dynamic bound, LIMIT, a filter. */
static void test_infer_parallelism(void) {
  struct chv_error err;
  const char *wh = chv_test_tmpdir();
  chv_catalog *cat;
  CHV_REQUIRE_OK(chv_catalog_open(wh, NULL, &cat, &err), &err);
  static const char *const parts[] = {"a", "b", "c", "d"};
  text_table(cat, "inf", parts, 4);
  /* Entries: a 2 files, b 1, c 1 + a hidden file + a folder with a file,
  ** d no folder: 6 entries, 5 visible files. */
  char path[900];
  int64_t next = 0;
  static const char *const files[] = {"dt=a/1", "dt=a/2", "dt=b/1", "dt=c/1",
                                      "dt=c/_SUCCESS", "dt=c/sub/1"};
  for (size_t i = 0; i < CHV_ARRAY_SIZE(files); i++) {
    snprintf(path, sizeof path, "%s/inf/%s", wh, files[i]);
    write_ids(path, &next, 40, false);
  }
  chv_config *cfg;
  CHV_REQUIRE_OK(chv_config_open(&cfg, &err), &err);

  /* Defaults: dynamic mode, max not set: the bound is the default
  ** parallelism. */
  struct chv_parallelism r = infer_with(cat, cfg, 3, -1, 0, NULL);
  CHV_CHECK(r.inferred);
  CHV_CHECK(r.dynamic);
  CHV_CHECK_EQ_INT(r.max, 3);
  CHV_CHECK_EQ_INT(r.entries, 6);
  CHV_CHECK_EQ_INT(r.splits, -1);
  CHV_CHECK_EQ_INT(r.parallelism, 3);
  r = infer_with(cat, cfg, 10, -1, 0, NULL);
  CHV_CHECK_EQ_INT(r.max, 10);
  CHV_CHECK_EQ_INT(r.splits, 5);
  CHV_CHECK_EQ_INT(r.parallelism, 5);
  /* Dynamic with max set: min(max, default). */
  set(cfg, "table.exec.hive.infer-source-parallelism.max", "2");
  r = infer_with(cat, cfg, 3, -1, 0, NULL);
  CHV_CHECK_EQ_INT(r.max, 2);
  CHV_CHECK_EQ_INT(r.parallelism, 2);
  set(cfg, "table.exec.hive.infer-source-parallelism.max", "1000");
  r = infer_with(cat, cfg, 3, -1, 0, NULL);
  CHV_CHECK_EQ_INT(r.max, 3);

  /* Static: entries at the bound or over it give the bound. */
  set(cfg, "table.exec.hive.infer-source-parallelism.mode", "static");
  set(cfg, "table.exec.hive.infer-source-parallelism.max", "6");
  r = infer_with(cat, cfg, 3, -1, 0, NULL);
  CHV_CHECK(!r.dynamic);
  CHV_CHECK_EQ_INT(r.max, 6);
  CHV_CHECK_EQ_INT(r.entries, 6);
  CHV_CHECK_EQ_INT(r.splits, -1);
  CHV_CHECK_EQ_INT(r.parallelism, 6);
  set(cfg, "table.exec.hive.infer-source-parallelism.max", "4");
  r = infer_with(cat, cfg, 3, -1, 0, NULL);
  CHV_CHECK_EQ_INT(r.parallelism, 4);
  /* Under the bound: the splits, capped by it. */
  set(cfg, "table.exec.hive.infer-source-parallelism.max", "7");
  r = infer_with(cat, cfg, 3, -1, 0, NULL);
  CHV_CHECK_EQ_INT(r.splits, 5);
  CHV_CHECK_EQ_INT(r.parallelism, 5);
  r = infer_with(cat, cfg, 3, -1, 30, NULL); /* files of ~120 bytes: 4 each */
  CHV_CHECK(r.splits > 7);
  CHV_CHECK_EQ_INT(r.parallelism, 7);
  set(cfg, "table.exec.hive.infer-source-parallelism.max", "1000");
  r = infer_with(cat, cfg, 3, -1, 0, NULL);
  CHV_CHECK_EQ_INT(r.parallelism, 5);
  /* The splits counted are those of a plan for inference. */
  struct chv_split_plan *p = plan_table(cat, "inf", cfg, 0, 0);
  CHV_CHECK_EQ_INT(p->nsplits, r.splits);
  chv_split_plan_free(p);
  /* Pruned partitions only. */
  chv_arena *a;
  CHV_REQUIRE_OK(chv_arena_open(0, &a), NULL);
  r = infer_with(cat, cfg, 3, -1, 0, chv_pf_cmp(a, "dt", CHV_PF_EQ, "c"));
  CHV_CHECK_EQ_INT(r.entries, 3);
  CHV_CHECK_EQ_INT(r.splits, 2);
  CHV_CHECK_EQ_INT(r.parallelism, 2);
  chv_arena_close(a);

  /* LIMIT: one reader per thousand rows at most, at least one. */
  r = infer_with(cat, cfg, 3, 3000, 0, NULL);
  CHV_CHECK_EQ_INT(r.parallelism, 3);
  r = infer_with(cat, cfg, 3, 999, 0, NULL);
  CHV_CHECK_EQ_INT(r.parallelism, 1);
  r = infer_with(cat, cfg, 3, 0, 0, NULL);
  CHV_CHECK_EQ_INT(r.parallelism, 1);
  r = infer_with(cat, cfg, 3, 1000000, 0, NULL);
  CHV_CHECK_EQ_INT(r.parallelism, 5);

  /* Inference off: the default parallelism (or the CPUs), then LIMIT. */
  set(cfg, "table.exec.hive.infer-source-parallelism.mode", "none");
  r = infer_with(cat, cfg, 7, -1, 0, NULL);
  CHV_CHECK(!r.inferred);
  CHV_CHECK(!r.dynamic);
  CHV_CHECK_EQ_INT(r.max, 0);
  CHV_CHECK_EQ_INT(r.entries, -1);
  CHV_CHECK_EQ_INT(r.parallelism, 7);
  r = infer_with(cat, cfg, 7, 2500, 0, NULL);
  CHV_CHECK_EQ_INT(r.parallelism, 2);
  set(cfg, "table.exec.hive.infer-source-parallelism.mode", "static");
  set(cfg, "table.exec.hive.infer-source-parallelism", "false");
  r = infer_with(cat, cfg, 7, -1, 0, NULL);
  CHV_CHECK(!r.inferred);
  CHV_CHECK_EQ_INT(r.parallelism, 7);
  r = infer_with(cat, cfg, 0, -1, 0, NULL);
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  CHV_CHECK_EQ_INT(r.parallelism, cpus > 0 ? cpus : 1);
  /* A table property wins over the session. */
  chv_config_clear(cfg, CHV_LAYER_SESSION);
  set(cfg, "table.exec.hive.infer-source-parallelism.mode", "none");
  struct chv_kv prop[] = {
      {"table.exec.hive.infer-source-parallelism.mode", "static"}};
  CHV_REQUIRE_OK(chv_catalog_alter_table_params(cat, "default", "inf", prop, 1,
                                                &err), &err);
  r = infer_with(cat, cfg, 3, -1, 0, NULL);
  CHV_CHECK(r.inferred);
  CHV_CHECK_EQ_INT(r.max, 1000);
  CHV_CHECK_EQ_INT(r.parallelism, 5);
  chv_config_close(cfg);
  chv_catalog_close(cat);
}

/* ---- TABLESAMPLE ---------------------------------------------------------- */

/* The ids of split sp read through the ORC reader with its range, in file
** order, appended to ids (at most max of them: the split's first ones). */
static void split_ids(const struct chv_split *sp, int64_t max, int64_t *ids,
                      int64_t *n) {
  struct chv_orc_read_options o;
  chv_orc_read_options_init(&o);
  o.range_start = sp->start;
  o.range_length = sp->length;
  static const char *const cols[] = {"id"};
  o.columns = cols;
  o.ncolumns = 1;
  chv_orc_reader *r;
  struct chv_error err;
  CHV_REQUIRE_OK(chv_orc_reader_open(chv_fs_local(), sp->path, &o, &r, &err),
                 &err);
  struct chv_batch *b;
  CHV_REQUIRE_OK(chv_batch_open(chv_orc_reader_schema(r), 1000, &b, &err),
                 &err);
  int64_t got, taken = 0;
  while (taken < max && chv_orc_reader_next(r, b, &got, &err) == CHV_OK &&
         got > 0) {
    const int64_t *v = b->cols[0]->data;
    for (int64_t k = 0; k < got && taken < max; k++, taken++)
      ids[(*n)++] = v[k];
  }
  chv_batch_close(b);
  chv_orc_reader_close(r);
}

/* The ids a sampled scan of default.o gives, in order (n of them). */
static int64_t *sample_scan(chv_catalog *cat, const chv_config *cfg,
                            struct chv_scan_sample sm, int threads,
                            const struct chv_pred *preds, int npreds,
                            int64_t limit, int64_t *n, int64_t *planned,
                            int64_t *read) {
  struct chv_scan_options so;
  chv_scan_options_init(&so);
  static const char *const cols[] = {"id"};
  so.columns = cols;
  so.ncolumns = 1;
  so.cfg = cfg;
  so.sample = sm;
  so.threads = threads;
  so.preds = preds;
  so.npreds = npreds;
  so.limit = limit;
  so.batch_rows = 777;
  chv_scan *sc;
  struct chv_error err;
  *n = 0;
  if (chv_scan_open(cat, "default", "o", &so, &sc, &err) != CHV_OK) {
    fprintf(stderr, "scan: %s\n", err.msg);
    exit(1);
  }
  int64_t *ids = chv_calloc(3 * ROWS_PER_PART + 1, sizeof *ids);
  struct chv_batch *b;
  int rc;
  while ((rc = chv_scan_next(sc, &b, &err)) == CHV_OK && b) {
    const int64_t *v = b->cols[0]->data;
    for (int64_t k = 0; k < b->nrows; k++) ids[(*n)++] = v[k];
  }
  CHV_CHECK_OK(rc, &err);
  struct chv_scan_stats st;
  chv_scan_stats(sc, &st);
  *planned = st.splits_planned;
  *read = st.splits_total;
  chv_scan_close(sc);
  return ids;
}

static void check_ids(const int64_t *got, int64_t ngot, const int64_t *want,
                      int64_t nwant) {
  CHV_CHECK_EQ_INT(ngot, nwant);
  for (int64_t i = 0; i < ngot && i < nwant; i++)
    if (got[i] != want[i]) {
      CHV_CHECK_EQ_INT(got[i], want[i]);
      return;
    }
}

/* TABLESAMPLE: conn_split_sample() keeps the first splits until their
** bytes reach the target (every percentage's cut worked out here), and a
** sampled scan reads them, on one thread or three alike; n ROWS gives the
** first n rows of each split, whatever predicates the scan is given, and
** a limit over it the first rows of that. */
static void test_sample(void) {
  struct chv_error err;
  const char *wh = chv_test_tmpdir();
  chv_catalog *cat;
  orc_table(wh, &cat, &err);
  CHV_REQUIRE(cat != NULL);
  chv_config *cfg;
  CHV_REQUIRE_OK(chv_config_open(&cfg, &err), &err);
  set(cfg, "table.exec.hive.split-max-size", "1"); /* a split per stripe */
  struct chv_split_plan *p = plan_with(cat, cfg, 1, NULL);
  CHV_REQUIRE(p->nsplits >= 8);
  int64_t total = 0;
  for (int i = 0; i < p->nsplits; i++) total += p->splits[i].length;

  /* the cut, for percentages and lengths */
  static const double pcts[] = {0, 0.0001, 10, 33.3, 50, 99.99, 100};
  for (size_t k = 0; k < CHV_ARRAY_SIZE(pcts); k++) {
    struct chv_split_plan *q = plan_with(cat, cfg, 1, NULL);
    struct chv_scan_sample sm = {.kind = CHV_SAMPLE_PERCENT,
                                 .percent = pcts[k]};
    conn_split_sample(q, &sm);
    double target = (double)total * pcts[k] / 100;
    int64_t got = 0;
    for (int i = 0; i < q->nsplits; i++) {
      CHV_CHECK(got < target); /* each one kept was still needed */
      CHV_CHECK_STREQ(q->splits[i].path, p->splits[i].path);
      CHV_CHECK_EQ_INT(q->splits[i].start, p->splits[i].start);
      got += q->splits[i].length;
    }
    CHV_CHECK(got >= target); /* at least the percentage */
    if (pcts[k] == 0) CHV_CHECK_EQ_INT(q->nsplits, 0);
    if (pcts[k] == 100) CHV_CHECK_EQ_INT(q->nsplits, p->nsplits);
    if (pcts[k] > 0) CHV_CHECK(q->nsplits >= 1);
    chv_split_plan_free(q);
  }
  int64_t two = p->splits[0].length + p->splits[1].length;
  const int64_t lens[] = {0, 1, two - 1, two, two + 1, total, total * 2};
  const int want[] = {0, 1, 2, 2, 3, p->nsplits, p->nsplits};
  for (size_t k = 0; k < CHV_ARRAY_SIZE(lens); k++) {
    struct chv_split_plan *q = plan_with(cat, cfg, 1, NULL);
    struct chv_scan_sample sm = {.kind = CHV_SAMPLE_BYTES, .bytes = lens[k]};
    conn_split_sample(q, &sm);
    CHV_CHECK_EQ_INT(q->nsplits, want[k]);
    chv_split_plan_free(q);
  }
  { /* rows and none keep every split */
    struct chv_split_plan *q = plan_with(cat, cfg, 1, NULL);
    struct chv_scan_sample sm = {.kind = CHV_SAMPLE_ROWS, .rows = 0};
    conn_split_sample(q, &sm);
    CHV_CHECK_EQ_INT(q->nsplits, p->nsplits);
    chv_split_plan_free(q);
  }

  /* what the scan reads: 5 rows of each split, in split order */
  int64_t *want_ids = chv_calloc(3 * ROWS_PER_PART + 1, sizeof *want_ids);
  int64_t nwant = 0;
  for (int i = 0; i < p->nsplits; i++)
    split_ids(&p->splits[i], 5, want_ids, &nwant);
  CHV_CHECK_EQ_INT(nwant, 5 * p->nsplits);
  struct chv_pred high = {"id", CHV_PRED_GE, "50000"}; /* skips stripes */
  for (int threads = 1; threads <= 3; threads += 2) {
    struct chv_scan_sample sm = {.kind = CHV_SAMPLE_ROWS, .rows = 5};
    int64_t n, planned, read;
    int64_t *ids = sample_scan(cat, cfg, sm, threads, NULL, 0, -1, &n,
                               &planned, &read);
    check_ids(ids, n, want_ids, nwant);
    CHV_CHECK_EQ_INT(planned, p->nsplits);
    CHV_CHECK_EQ_INT(read, p->nsplits);
    chv_free(ids);
    /* predicates skip nothing: the first rows are the file's */
    ids = sample_scan(cat, cfg, sm, threads, &high, 1, -1, &n, &planned,
                      &read);
    check_ids(ids, n, want_ids, nwant);
    chv_free(ids);
    /* a limit: the first rows of the sample */
    ids = sample_scan(cat, cfg, sm, threads, NULL, 0, 12, &n, &planned,
                      &read);
    check_ids(ids, n, want_ids, 12);
    chv_free(ids);
    /* more rows than a split has: all of it */
    sm.rows = 1 << 30;
    ids = sample_scan(cat, cfg, sm, threads, NULL, 0, -1, &n, &planned,
                      &read);
    CHV_CHECK_EQ_INT(n, 3 * ROWS_PER_PART);
    chv_free(ids);
    sm.rows = 0;
    ids = sample_scan(cat, cfg, sm, threads, NULL, 0, -1, &n, &planned,
                      &read);
    CHV_CHECK_EQ_INT(n, 0);
    chv_free(ids);
  }

  /* 40 PERCENT: every row of the splits kept, in order; 0: none */
  struct chv_split_plan *q = plan_with(cat, cfg, 1, NULL);
  struct chv_scan_sample forty = {.kind = CHV_SAMPLE_PERCENT, .percent = 40};
  conn_split_sample(q, &forty);
  CHV_CHECK(q->nsplits > 1 && q->nsplits < p->nsplits);
  nwant = 0;
  for (int i = 0; i < q->nsplits; i++)
    split_ids(&q->splits[i], INT64_MAX, want_ids, &nwant);
  for (int threads = 1; threads <= 3; threads += 2) {
    int64_t n, planned, read;
    int64_t *ids = sample_scan(cat, cfg, forty, threads, NULL, 0, -1, &n,
                               &planned, &read);
    check_ids(ids, n, want_ids, nwant);
    CHV_CHECK_EQ_INT(planned, p->nsplits);
    CHV_CHECK_EQ_INT(read, q->nsplits);
    chv_free(ids);
    struct chv_scan_sample none = {.kind = CHV_SAMPLE_PERCENT, .percent = 0};
    ids = sample_scan(cat, cfg, none, threads, NULL, 0, -1, &n, &planned,
                      &read);
    CHV_CHECK_EQ_INT(n, 0);
    CHV_CHECK_EQ_INT(read, 0);
    chv_free(ids);
  }
  chv_split_plan_free(q);
  chv_free(want_ids);
  chv_split_plan_free(p);
  chv_config_close(cfg);
  chv_catalog_close(cat);
}

CHV_TEST_MAIN("split", test_orc_split_size, test_text_sizing,
              test_slop_and_block, test_parquet_sizing, test_infer_parallelism,
              test_sample)
