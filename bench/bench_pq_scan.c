/*
** bench_pq_scan: scan a Parquet file with the Parquet reader and report
** rows/s and MB/s (of the file's size), single-threaded.
**
**   bench_pq_scan FILE [--columns a,b] [--batch N] [--repeat N]
**
** Every value of the projected columns is decoded into its vector; a
** checksum over the vectors (non-NULL counts, integer sums, string bytes)
** is printed so that the work cannot be skipped.  The best of N runs is
** shown, with the reader's statistics of the last run.
*/
#include "chive/parquet.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A cheap fold of a vector's values. */
static uint64_t fold(const struct chv_vector *v) {
  uint64_t h = (uint64_t)(v->length - v->null_count);
  switch (v->type->id) {
  case CHV_TYPE_INT:
  case CHV_TYPE_DATE:
    for (int64_t i = 0; i < v->length; i++) h += (uint64_t)((int32_t *)v->data)[i];
    break;
  case CHV_TYPE_BIGINT:
  case CHV_TYPE_DOUBLE:
    for (int64_t i = 0; i < v->length; i++) h += ((uint64_t *)v->data)[i];
    break;
  case CHV_TYPE_DECIMAL:
  case CHV_TYPE_TIMESTAMP:
    for (int64_t i = 0; i < v->length; i++) h += ((uint64_t *)v->data)[2 * i];
    break;
  case CHV_TYPE_STRING:
  case CHV_TYPE_VARCHAR:
  case CHV_TYPE_CHAR:
  case CHV_TYPE_BINARY:
    h += (uint64_t)v->bytes_len;
    break;
  default:
    break;
  }
  for (int c = 0; c < v->nchildren; c++) h += fold(v->children[c]);
  return h;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: bench_pq_scan FILE [--columns a,b] [--batch N] "
                    "[--repeat N]\n");
    return 2;
  }
  const char *file = argv[1];
  const char *names[256];
  int ncols = -1, repeat = 3;
  int64_t batch = 4096;
  for (int a = 2; a < argc; a++) {
    if (!strcmp(argv[a], "--repeat") && a + 1 < argc) {
      repeat = atoi(argv[++a]);
    } else if (!strcmp(argv[a], "--batch") && a + 1 < argc) {
      batch = atoll(argv[++a]);
    } else if (!strcmp(argv[a], "--columns") && a + 1 < argc) {
      ncols = 0;
      for (char *t = strtok(argv[++a], ","); t && ncols < 256;
           t = strtok(NULL, ","))
        names[ncols++] = t;
    } else {
      fprintf(stderr, "bench_pq_scan: unknown argument %s\n", argv[a]);
      return 2;
    }
  }
  struct chv_error err;
  struct chv_stat st;
  if (chv_fs_stat(chv_fs_local(), file, &st, &err) != CHV_OK) {
    fprintf(stderr, "bench_pq_scan: %s\n", err.msg);
    return 1;
  }
  struct chv_pq_read_options o;
  chv_pq_read_options_init(&o);
  if (ncols >= 0) {
    o.columns = names;
    o.ncolumns = ncols;
  }
  double best = 1e300;
  int64_t rows = 0;
  uint64_t sum = 0;
  struct chv_pq_read_stats rs;
  for (int k = 0; k < repeat; k++) {
    double t0 = now();
    chv_pq_reader *r;
    struct chv_batch *b;
    if (chv_pq_reader_open(chv_fs_local(), file, &o, &r, &err) != CHV_OK ||
        chv_batch_open(chv_pq_reader_schema(r), batch, &b, &err) != CHV_OK) {
      fprintf(stderr, "bench_pq_scan: %s\n", err.msg);
      return 1;
    }
    rows = 0;
    sum = 0;
    for (;;) {
      int64_t n;
      if (chv_pq_reader_next(r, b, &n, &err) != CHV_OK) {
        fprintf(stderr, "bench_pq_scan: %s\n", err.msg);
        return 1;
      }
      if (n == 0) break;
      rows += n;
      for (int c = 0; c < b->ncols; c++) sum += fold(b->cols[c]);
    }
    chv_pq_reader_stats(r, &rs);
    chv_batch_close(b);
    chv_pq_reader_close(r);
    double secs = now() - t0;
    if (secs < best) best = secs;
  }
  printf("chive rows=%lld bytes=%lld seconds=%.3f rows_per_s=%.0f "
         "mb_per_s=%.1f read_bytes=%lld pages=%lld checksum=%llu\n",
         (long long)rows, (long long)st.size, best, (double)rows / best,
         (double)st.size / best / 1e6, (long long)rs.bytes_read,
         (long long)rs.pages, (unsigned long long)sum);
  return 0;
}
