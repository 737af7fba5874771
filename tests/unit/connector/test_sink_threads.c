/* Tests of the sink's writers on several threads (src/connector/sink.c):
** rows written by four threads at once into dynamic partitions, sorted and
** not, into text, Parquet and ORC tables, read back exactly as a write on
** one thread gives them, partition by partition (rows, sum of ids, sum of
** name lengths), in files of distinct names from several writers, with
** statistics that add up over every writer's files; sink.parallelism bounds
** the writers; rows and bytes count as they are taken, before any file is
** finished;
** every allocation of a threaded dynamic write may fail and leaves the
** table as it was. */
#include "chv_test.h"
#include "conn_fixture.h"
#include "chive/orc.h"
#include "chive/parquet.h"

#include <dirent.h>
#include <pthread.h>
#include <sys/stat.h>

enum fmt { TEXT, PARQUET, ORC };
static const char *const fmt_names[] = {"text", "parquet", "orc"};

#define NPARTS 7     /* dt = id % 7, and the default partition */
#define THREADS 4
#define BATCHES 12   /* per thread */
#define BATCH_ROWS 1000

/* default.<name> (id int, name string) partitioned by dt int, in fmt. */
static int make_table(chv_catalog *cat, const char *name, enum fmt fmt,
                      struct chv_error *err) {
  struct chv_column cols[] = {{"id", "int", NULL}, {"name", "string", NULL}};
  struct chv_column pkeys[] = {{"dt", "int", NULL}};
  struct chv_table t = {.db = "default", .name = (char *)name, .columns = cols,
                        .ncols = 2, .pkeys = pkeys, .npkeys = 1,
                        .type = CHV_MANAGED_TABLE};
  if (fmt == ORC) {
    t.serde_lib = "org.apache.hadoop.hive.ql.io.orc.OrcSerde";
    t.input_format = "org.apache.hadoop.hive.ql.io.orc.OrcInputFormat";
    t.output_format = "org.apache.hadoop.hive.ql.io.orc.OrcOutputFormat";
  } else if (fmt == PARQUET) {
    t.serde_lib = "org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe";
    t.input_format =
        "org.apache.hadoop.hive.ql.io.parquet.MapredParquetInputFormat";
    t.output_format =
        "org.apache.hadoop.hive.ql.io.parquet.MapredParquetOutputFormat";
  }
  return chv_catalog_create_table(cat, &t, 0, err);
}

/* Row i of the data: id i, a name of 1 + i % 23 letters, dt i % 7, or
** NULL (the default partition) for every 13th row. */
static int fill_batch(struct chv_batch *b, int64_t first, int n,
                      struct chv_error *err) {
  chv_batch_reset(b);
  static const char letters[] = "abcdefghijklmnopqrstuvwxyz";
  for (int k = 0; k < n; k++) {
    int32_t id = (int32_t)(first + k), dt = id % NPARTS;
    CHV_RETURN_IF_ERR(chv_vector_append_value(b->cols[0], &id, err));
    CHV_RETURN_IF_ERR(chv_vector_append_string(
        b->cols[1], letters, (size_t)(1 + id % 23), err));
    if (id % 13 == 0)
      CHV_RETURN_IF_ERR(chv_vector_append_null(b->cols[2], err));
    else
      CHV_RETURN_IF_ERR(chv_vector_append_value(b->cols[2], &dt, err));
    b->nrows++;
  }
  return CHV_OK;
}

struct job {
  chv_sink *sink;
  const struct chv_type *schema; /* data columns and dt */
  int thread;
  bool serial;   /* on the caller's thread (slot 0) */
  int batches;
  int rc;
  struct chv_error err;
};

/* A writing thread: its batches of rows thread * 1e6 + ..., in the slot
** of its number, as a scan's reader threads take theirs. */
static void *writer_main(void *arg) {
  struct job *j = arg;
  struct chv_batch *b = NULL;
  chv_thread_set_slot(j->serial ? 0 : j->thread);
  j->rc = chv_batch_open(j->schema, BATCH_ROWS, &b, &j->err);
  for (int i = 0; j->rc == CHV_OK && i < j->batches; i++) {
    j->rc = fill_batch(b, (int64_t)j->thread * 1000000 + i * BATCH_ROWS,
                       BATCH_ROWS, &j->err);
    if (j->rc == CHV_OK)
      j->rc = chv_sink_write_dynamic(j->sink, 0, NULL, b, &j->err);
  }
  chv_batch_close(b);
  return NULL;
}

/* Write the rows of nthreads threads (each BATCHES batches) into table,
** on nthreads threads at once or, with serial, one thread after another
** on this one; then commit. */
static int write_all(chv_catalog *cat, const char *table,
                     const chv_config *cfg, int nthreads, bool serial,
                     struct chv_error *err) {
  struct chv_sink_options o;
  chv_sink_options_init(&o);
  o.config = cfg;
  chv_sink *s;
  CHV_RETURN_IF_ERR(chv_sink_open(cat, "default", table, &o, &s, err));
  struct chv_type *schema = NULL;
  struct chv_type *dt = NULL;
  int rc = chv_type_clone(chv_sink_schema(s), &schema);
  if (rc == CHV_OK) rc = chv_type_parse("int", &dt, err);
  if (rc == CHV_OK) {
    rc = chv_type_struct_add(schema, "dt", dt);
    dt = NULL;
  }
  struct job jobs[THREADS];
  pthread_t tids[THREADS];
  for (int t = 0; rc == CHV_OK && t < nthreads; t++) {
    jobs[t] = (struct job){.sink = s, .schema = schema, .thread = t,
                           .serial = serial, .batches = BATCHES};
    chv_error_clear(&jobs[t].err);
    if (serial)
      writer_main(&jobs[t]);
    else if (pthread_create(&tids[t], NULL, writer_main, &jobs[t]) != 0)
      rc = chv_error_set(err, CHV_EIO, "pthread_create");
  }
  for (int t = 0; !serial && rc == CHV_OK && t < nthreads; t++)
    pthread_join(tids[t], NULL);
  for (int t = 0; rc == CHV_OK && t < nthreads; t++)
    if (jobs[t].rc != CHV_OK) {
      rc = jobs[t].rc;
      *err = jobs[t].err;
    }
  if (rc == CHV_OK && chv_sink_rows(s) != (int64_t)nthreads * BATCHES * BATCH_ROWS)
    rc = chv_error_set(err, CHV_EINTERNAL, "sink counted %lld rows",
                       (long long)chv_sink_rows(s));
  if (rc == CHV_OK) rc = chv_sink_commit(s, err);
  chv_sink_close(s);
  chv_type_free(dt);
  chv_type_free(schema);
  return rc;
}

/* What a scan of one partition (dt NULL: the default one) reads. */
struct part_sums {
  int64_t rows, ids, name_bytes;
};

static int scan_partition(chv_catalog *cat, const char *table, const char *dt,
                          struct part_sums *out, struct chv_error *err) {
  chv_arena *a;
  if (chv_arena_open(0, &a) != CHV_OK)
    return chv_error_set(err, CHV_ENOMEM, "out of memory");
  struct chv_scan_options o;
  chv_scan_options_init(&o);
  o.filter = dt ? chv_pf_cmp(a, "dt", CHV_PF_EQ, dt)
                : chv_pf_is_null(a, "dt", false);
  chv_scan *s;
  memset(out, 0, sizeof *out);
  int rc = chv_scan_open(cat, "default", table, &o, &s, err);
  if (rc == CHV_OK) {
    struct chv_batch *b;
    while ((rc = chv_scan_next(s, &b, err)) == CHV_OK && b) {
      for (int64_t i = 0; i < b->nrows; i++) {
        out->ids += ((const int32_t *)b->cols[0]->data)[i];
        out->name_bytes += b->cols[1]->offsets[i + 1] - b->cols[1]->offsets[i];
      }
      out->rows += b->nrows;
    }
    chv_scan_close(s);
  }
  chv_arena_close(a);
  return rc;
}

/* The files of a partition folder: how many, their bytes, and how many
** distinct writer tasks their names carry (part-<id>-task-<k>-file-<n>). */
struct folder {
  int files;
  int64_t bytes;
  int tasks;
  int64_t footer_rows, footer_raw; /* Parquet and ORC: from the files */
};

static void list_folder(const char *dir, enum fmt fmt, struct folder *f) {
  memset(f, 0, sizeof *f);
  bool task_seen[64] = {false};
  DIR *d = opendir(dir);
  CHV_REQUIRE(d != NULL);
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (strncmp(e->d_name, "part-", 5) != 0) continue;
    char path[1400];
    snprintf(path, sizeof path, "%.1100s/%.255s", dir, e->d_name);
    struct stat st;
    CHV_REQUIRE(stat(path, &st) == 0);
    f->files++;
    f->bytes += st.st_size;
    const char *tk = strstr(e->d_name, "-task-");
    CHV_REQUIRE(tk != NULL);
    int task = atoi(tk + 6);
    CHV_REQUIRE(task >= 0 && task < 64);
    if (!task_seen[task]) f->tasks++;
    task_seen[task] = true;
    const struct chv_fs *fs;
    const char *inner;
    struct chv_error err;
    CHV_REQUIRE_OK(chv_fs_for_path(path, &fs, &inner, &err), &err);
    if (fmt == PARQUET) {
      struct chv_pq_file_stats ps;
      CHV_REQUIRE_OK(chv_pq_file_stats(fs, inner, &ps, &err), &err);
      f->footer_rows += ps.num_rows;
      f->footer_raw += ps.raw_data_size;
    } else if (fmt == ORC) {
      struct chv_orc_file_stats os;
      CHV_REQUIRE_OK(chv_orc_file_stats(fs, inner, &os, &err), &err);
      f->footer_rows += os.num_rows;
      f->footer_raw += os.raw_data_size;
    }
  }
  closedir(d);
}

/* The rows each partition must hold: those of write_all's threads. */
static void expected(int nthreads, struct part_sums want[NPARTS + 1]) {
  memset(want, 0, sizeof(struct part_sums) * (NPARTS + 1));
  for (int t = 0; t < nthreads; t++)
    for (int64_t i = 0; i < BATCHES * BATCH_ROWS; i++) {
      int32_t id = (int32_t)(t * 1000000 + i);
      struct part_sums *p = &want[id % 13 == 0 ? NPARTS : id % NPARTS];
      p->rows++;
      p->ids += id;
      p->name_bytes += 1 + id % 23;
    }
}

/* Every partition of table reads as want, and its statistics are its
** files'.  *max_tasks: the most writers one partition's files came from. */
static void check_table(chv_catalog *cat, const char *table, enum fmt fmt,
                        const struct part_sums want[NPARTS + 1],
                        int *max_tasks) {
  struct chv_error err;
  *max_tasks = 0;
  for (int p = 0; p <= NPARTS; p++) {
    char dt[16];
    snprintf(dt, sizeof dt, "%d", p);
    struct part_sums got;
    CHV_REQUIRE_OK(scan_partition(cat, table, p < NPARTS ? dt : NULL, &got,
                                  &err), &err);
    CHV_CHECK_EQ_INT(got.rows, want[p].rows);
    CHV_CHECK_EQ_INT(got.ids, want[p].ids);
    CHV_CHECK_EQ_INT(got.name_bytes, want[p].name_bytes);
    char *values[1] = {p < NPARTS ? dt : NULL};
    struct chv_partition part;
    CHV_REQUIRE_OK(chv_catalog_get_partition(cat, "default", table, values,
                                             &part, &err), &err);
    struct chv_stats st;
    chv_stats_from_params(part.params, part.nparams, &st);
    char dir[1100];
    snprintf(dir, sizeof dir, "%s/%s/dt=%s", chv_catalog_warehouse(cat), table,
             p < NPARTS ? dt : CHV_DEFAULT_PARTITION_NAME);
    struct folder f;
    list_folder(dir, fmt, &f);
    CHV_CHECK_EQ_INT(st.num_rows, want[p].rows);
    CHV_CHECK_EQ_INT(st.num_files, f.files);
    CHV_CHECK_EQ_INT(st.total_size, f.bytes);
    if (fmt != TEXT) {
      CHV_CHECK_EQ_INT(f.footer_rows, want[p].rows);
      CHV_CHECK_EQ_INT(st.raw_data_size, f.footer_raw);
    } else {
      CHV_CHECK(st.raw_data_size > 0);
    }
    if (f.tasks > *max_tasks) *max_tasks = f.tasks;
    chv_partition_free(&part);
  }
}

/* Four threads at once give the rows, files and statistics of the same
** rows written on one thread, sorted or not, in every format. */
static void test_threads_like_one(void) {
  struct chv_error err;
  chv_catalog *cat;
  CHV_REQUIRE_OK(chv_catalog_open(chv_test_tmpdir(), NULL, &cat, &err), &err);
  struct part_sums want[NPARTS + 1];
  expected(THREADS, want);
  for (int sorted = 0; sorted < 2; sorted++) {
    chv_config *cfg;
    CHV_REQUIRE_OK(chv_config_open(&cfg, &err), &err);
    CHV_REQUIRE_OK(chv_config_set(cfg, CHV_LAYER_SESSION,
                                  "table.exec.hive.sink.sort-by-dynamic-"
                                  "partition.enable",
                                  sorted ? "true" : "false", &err), &err);
    for (int fmt = TEXT; fmt <= ORC; fmt++) {
      char many[64], one[64];
      snprintf(many, sizeof many, "many_%s_%d", fmt_names[fmt], sorted);
      snprintf(one, sizeof one, "one_%s_%d", fmt_names[fmt], sorted);
      CHV_REQUIRE_OK(make_table(cat, many, fmt, &err), &err);
      CHV_REQUIRE_OK(make_table(cat, one, fmt, &err), &err);
      CHV_REQUIRE_OK(write_all(cat, many, cfg, THREADS, false, &err), &err);
      CHV_REQUIRE_OK(write_all(cat, one, cfg, THREADS, true, &err), &err);
      int tasks_many, tasks_one;
      check_table(cat, many, fmt, want, &tasks_many);
      check_table(cat, one, fmt, want, &tasks_one);
      /* One thread: one writer.  Several: each writes files of its own,
      ** into every partition. */
      CHV_CHECK_EQ_INT(tasks_one, 1);
      CHV_CHECK_EQ_INT(tasks_many, THREADS);
    }
    chv_config_close(cfg);
  }
  chv_catalog_close(cat);
}

/* sink.parallelism = 2: four threads share two writers. */
static void test_parallelism_bound(void) {
  struct chv_error err;
  chv_catalog *cat;
  CHV_REQUIRE_OK(chv_catalog_open(chv_test_tmpdir(), NULL, &cat, &err), &err);
  chv_config *cfg;
  CHV_REQUIRE_OK(chv_config_open(&cfg, &err), &err);
  CHV_REQUIRE_OK(chv_config_set(cfg, CHV_LAYER_SESSION, "sink.parallelism",
                                "2", &err), &err);
  CHV_REQUIRE_OK(chv_config_set(cfg, CHV_LAYER_SESSION,
                                "table.exec.hive.sink.sort-by-dynamic-"
                                "partition.enable", "false", &err), &err);
  CHV_REQUIRE_OK(make_table(cat, "bounded", PARQUET, &err), &err);
  CHV_REQUIRE_OK(write_all(cat, "bounded", cfg, THREADS, false, &err), &err);
  struct part_sums want[NPARTS + 1];
  expected(THREADS, want);
  int tasks;
  check_table(cat, "bounded", PARQUET, want, &tasks);
  CHV_CHECK_EQ_INT(tasks, 2);
  /* Every file of the write, over all partitions, came from two writers
  ** at most: tasks 0 and 1. */
  char dir[1100];
  for (int p = 0; p < NPARTS; p++) {
    snprintf(dir, sizeof dir, "%s/bounded/dt=%d", chv_catalog_warehouse(cat),
             p);
    DIR *d = opendir(dir);
    CHV_REQUIRE(d != NULL);
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
      if (!strncmp(e->d_name, "part-", 5))
        CHV_CHECK(strstr(e->d_name, "-task-0-") || strstr(e->d_name, "-task-1-"));
    closedir(d);
  }
  chv_config_close(cfg);
  chv_catalog_close(cat);
}

/* chv_sink_rows() and chv_sink_bytes() count the rows of a Parquet write
** as they are taken, before any file is finished (the progress of a long
** INSERT), sorted or not. */
static void test_progress_counts(void) {
  struct chv_error err;
  chv_catalog *cat;
  CHV_REQUIRE_OK(chv_catalog_open(chv_test_tmpdir(), NULL, &cat, &err), &err);
  struct chv_type *schema;
  CHV_REQUIRE_OK(chv_type_parse_columns("id int, name string, dt int",
                                        &schema, &err), &err);
  struct chv_batch *b;
  CHV_REQUIRE_OK(chv_batch_open(schema, BATCH_ROWS, &b, &err), &err);
  CHV_REQUIRE_OK(fill_batch(b, 0, BATCH_ROWS, &err), &err);
  int64_t names = 0;
  for (int i = 0; i < BATCH_ROWS; i++) names += 1 + i % 23;
  int64_t per_batch = BATCH_ROWS * 4 + names + BATCH_ROWS * 4;
  for (int sorted = 0; sorted < 2; sorted++) {
    chv_config *cfg;
    CHV_REQUIRE_OK(chv_config_open(&cfg, &err), &err);
    CHV_REQUIRE_OK(chv_config_set(cfg, CHV_LAYER_SESSION,
                                  "table.exec.hive.sink.sort-by-dynamic-"
                                  "partition.enable",
                                  sorted ? "true" : "false", &err), &err);
    char name[32];
    snprintf(name, sizeof name, "pq%d", sorted);
    CHV_REQUIRE_OK(make_table(cat, name, PARQUET, &err), &err);
    struct chv_sink_options o;
    chv_sink_options_init(&o);
    o.config = cfg;
    chv_sink *s;
    CHV_REQUIRE_OK(chv_sink_open(cat, "default", name, &o, &s, &err), &err);
    CHV_CHECK_EQ_INT(chv_sink_bytes(s), 0);
    CHV_REQUIRE_OK(chv_sink_write_dynamic(s, 0, NULL, b, &err), &err);
    CHV_CHECK_EQ_INT(chv_sink_rows(s), BATCH_ROWS);
    CHV_CHECK_EQ_INT(chv_sink_bytes(s), per_batch);
    CHV_REQUIRE_OK(chv_sink_write_dynamic(s, 0, NULL, b, &err), &err);
    CHV_CHECK_EQ_INT(chv_sink_rows(s), 2 * BATCH_ROWS);
    CHV_CHECK_EQ_INT(chv_sink_bytes(s), 2 * per_batch);
    CHV_REQUIRE_OK(chv_sink_commit(s, &err), &err);
    CHV_CHECK_EQ_INT(chv_sink_bytes(s), 2 * per_batch);
    chv_sink_close(s);
    chv_config_close(cfg);
  }
  chv_batch_close(b);
  chv_type_free(schema);
  chv_catalog_close(cat);
}

/* The rows of table, -1 when it cannot be read. */
static int64_t table_rows(chv_catalog *cat, const char *table) {
  int64_t n = 0;
  for (int p = 0; p <= NPARTS; p++) {
    char dt[16];
    snprintf(dt, sizeof dt, "%d", p);
    struct part_sums got;
    struct chv_error err;
    if (scan_partition(cat, table, p < NPARTS ? dt : NULL, &got, &err) !=
        CHV_OK) {
      fprintf(stderr, "scan of %s: %s\n", table, err.msg);
      return -1;
    }
    n += got.rows;
  }
  return n;
}

/* Every allocation of a write by two threads (sorted runs, Parquet) may
** fail: the write fails with CHV_ENOMEM and the table reads as before. */
static void test_threads_oom(void) {
  struct chv_error err;
  chv_catalog *cat;
  CHV_REQUIRE_OK(chv_catalog_open(chv_test_tmpdir(), NULL, &cat, &err), &err);
  CHV_REQUIRE_OK(make_table(cat, "oom", PARQUET, &err), &err);
  CHV_REQUIRE_OK(write_all(cat, "oom", NULL, 1, true, &err), &err);
  int64_t before = table_rows(cat, "oom");
  CHV_CHECK_EQ_INT(before, BATCHES * BATCH_ROWS);
  int failures = 0, rc = CHV_ENOMEM;
  /* Allocations are many (row groups, pages, the metastore): every 97th
  ** of the first ones fails in turn, then a write runs through. */
  for (long n = 1; n < 40000 && rc != CHV_OK; n += 97) {
    chv_alloc_fail_after(n);
    rc = write_all(cat, "oom", NULL, 2, false, &err);
    chv_alloc_fail_after(0);
    if (rc == CHV_OK) break;
    failures++;
    CHV_REQUIRE(table_rows(cat, "oom") == before);
  }
  CHV_CHECK(rc == CHV_OK);
  CHV_CHECK(failures > 5);
  printf("# %d injected allocation failures of a write by two threads, each "
         "left the table as it was\n", failures);
  CHV_CHECK_EQ_INT(table_rows(cat, "oom"), before + 2 * BATCHES * BATCH_ROWS);
  chv_catalog_close(cat);
}

CHV_TEST_MAIN("sink_threads", test_threads_like_one, test_parallelism_bound,
              test_progress_counts, test_threads_oom)
