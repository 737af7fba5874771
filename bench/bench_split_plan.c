/*
** bench_split_plan: how long split planning takes for a table of many
** partitions and files.
**
**   bench_split_plan [--dir DIR] [--partitions N] [--files N] [--repeat N]
**
** Builds, in a new folder under DIR (default $TMPDIR or /tmp), a TEXTFILE
** table default.t (id bigint) PARTITIONED BY (p int) whose N partitions
** (1,000) are registered in the embedded metastore, each holding N tiny
** files (10); then plans its splits with chv_split_plan_open() and infers
** its parallelism with chv_split_infer_parallelism(), with the thread pools
** at their defaults (calculate-partition-size.thread-num and
** load-partition-splits.thread-num, 3) and at 1 thread, and prints the
** median and best of N runs (5) of each.  The folder is removed at the end.
*/
#include "chive/catalog.h"
#include "chive/config.h"
#include "chive/connector.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static int fail(const char *what, const struct chv_error *err) {
  fprintf(stderr, "bench_split_plan: %s: %s\n", what, err->msg);
  return 1;
}

/* The table: partitions registered in one transaction, then their files. */
static int build(chv_catalog *cat, const char *wh, int nparts, int nfiles,
                 struct chv_error *err) {
  struct chv_column cols[] = {{"id", "bigint", NULL}};
  struct chv_column pkeys[] = {{"p", "int", NULL}};
  struct chv_table t = {.db = "default", .name = "t", .columns = cols,
                        .ncols = 1, .pkeys = pkeys, .npkeys = 1,
                        .type = CHV_MANAGED_TABLE};
  if (chv_catalog_create_table(cat, &t, 0, err) != CHV_OK) return 1;
  struct chv_partition *parts = calloc((size_t)nparts, sizeof *parts);
  char (*values)[16] = calloc((size_t)nparts, sizeof *values);
  char **vp = calloc((size_t)nparts, sizeof *vp);
  if (parts == NULL || values == NULL || vp == NULL) return 1;
  for (int i = 0; i < nparts; i++) {
    snprintf(values[i], sizeof values[i], "%d", i);
    vp[i] = values[i];
    parts[i].values = &vp[i];
    parts[i].nvalues = 1;
  }
  int rc = chv_catalog_add_partitions(cat, "default", "t", parts, nparts, 0,
                                      err);
  free(parts);
  free(vp);
  free(values);
  if (rc != CHV_OK) return 1;
  char path[1200];
  snprintf(path, sizeof path, "%s/t", wh);
  mkdir(path, 0755);
  for (int i = 0; i < nparts; i++) {
    snprintf(path, sizeof path, "%s/t/p=%d", wh, i);
    if (mkdir(path, 0755) != 0) return 1;
    for (int k = 0; k < nfiles; k++) {
      snprintf(path, sizeof path, "%s/t/p=%d/part-%05d", wh, i, k);
      FILE *f = fopen(path, "w");
      if (f == NULL) return 1;
      for (int r = 0; r < 1 + (i + k) % 7; r++)
        fprintf(f, "%d\n", i * 1000 + k * 10 + r);
      fclose(f);
    }
  }
  return 0;
}

/* Median and best of `repeat` plans (infer: parallelism inferences). */
static int run(chv_catalog *cat, const chv_config *cfg, bool infer, int repeat,
               double *median, double *best, int *result,
               struct chv_error *err) {
  double *t = calloc((size_t)repeat, sizeof *t);
  if (t == NULL) return 1;
  for (int i = 0; i < repeat; i++) {
    double t0 = now();
    if (infer) {
      struct chv_parallelism_options o = {.limit = -1, .cfg = cfg};
      struct chv_parallelism r;
      if (chv_split_infer_parallelism(cat, "default", "t", &o, &r, err) !=
          CHV_OK) {
        free(t);
        return 1;
      }
      *result = r.parallelism;
    } else {
      struct chv_split_options o = {.min_splits = 0, .cfg = cfg};
      struct chv_split_plan *p;
      if (chv_split_plan_open(cat, "default", "t", &o, &p, err) != CHV_OK) {
        free(t);
        return 1;
      }
      *result = p->nsplits;
      chv_split_plan_free(p);
    }
    t[i] = now() - t0;
  }
  qsort(t, (size_t)repeat, sizeof *t, cmp_double);
  *median = t[repeat / 2];
  *best = t[0];
  free(t);
  return 0;
}

int main(int argc, char **argv) {
  const char *base = getenv("TMPDIR");
  if (base == NULL || *base == '\0') base = "/tmp";
  int nparts = 1000, nfiles = 10, repeat = 5;
  for (int a = 1; a < argc; a++) {
    if (!strcmp(argv[a], "--dir") && a + 1 < argc)
      base = argv[++a];
    else if (!strcmp(argv[a], "--partitions") && a + 1 < argc)
      nparts = atoi(argv[++a]);
    else if (!strcmp(argv[a], "--files") && a + 1 < argc)
      nfiles = atoi(argv[++a]);
    else if (!strcmp(argv[a], "--repeat") && a + 1 < argc)
      repeat = atoi(argv[++a]);
    else {
      fprintf(stderr, "usage: bench_split_plan [--dir DIR] [--partitions N] "
                      "[--files N] [--repeat N]\n");
      return 2;
    }
  }
  if (nparts < 1 || nfiles < 0 || repeat < 1) return 2;
  char wh[1024];
  snprintf(wh, sizeof wh, "%s/chv-split-bench-XXXXXX", base);
  if (mkdtemp(wh) == NULL) {
    perror("mkdtemp");
    return 1;
  }
  struct chv_error err;
  chv_catalog *cat = NULL;
  chv_config *cfg = NULL;
  int status = 1;
  double t0 = now();
  if (chv_catalog_open(wh, NULL, &cat, &err) != CHV_OK) {
    status = fail("catalog", &err);
    goto out;
  }
  if (build(cat, wh, nparts, nfiles, &err) != 0) {
    status = fail("building the table", &err);
    goto out;
  }
  printf("table: %d partitions, %d files, built in %.2f s\n", nparts,
         nparts * nfiles, now() - t0);
  if (chv_config_open(&cfg, &err) != CHV_OK) {
    status = fail("config", &err);
    goto out;
  }
  printf("%-40s %10s %10s %8s\n", "", "median ms", "best ms", "result");
  for (int threads = 0; threads < 2; threads++) {
    if (threads == 1) {
      chv_config_set(cfg, CHV_LAYER_SESSION,
                     "table.exec.hive.calculate-partition-size.thread-num",
                     "1", &err);
      chv_config_set(cfg, CHV_LAYER_SESSION,
                     "table.exec.hive.load-partition-splits.thread-num", "1",
                     &err);
    }
    for (int infer = 0; infer < 2; infer++) {
      double median, best;
      int result;
      if (run(cat, cfg, infer, repeat, &median, &best, &result, &err) != 0) {
        status = fail(infer ? "inference" : "plan", &err);
        goto out;
      }
      char label[64];
      snprintf(label, sizeof label, "%s, %s",
               infer ? "infer parallelism" : "plan splits",
               threads ? "1 thread" : "3 threads (default)");
      printf("%-40s %10.1f %10.1f %8d\n", label, median * 1e3, best * 1e3,
             result);
    }
  }
  status = 0;
out:
  chv_config_close(cfg);
  chv_catalog_close(cat);
  chv_fs_local()->remove(chv_fs_local(), wh, true, &err);
  return status;
}
