/*
** bench_agg: the hash aggregation on the lineitem group_by's shape: 10M
** rows in batches of 4096, grouped by a one-byte string of three values
** ("N" half the rows, "A", "R"), with count(*), sum of an INT, sum of a
** DECIMAL(12,2) and avg of a DOUBLE with a NULL every 997th row.  Batches
** are built once and reused.  Prints rows per second (CPU time); no
** assertions.
**
**   bench_agg [rows]
*/
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "sql/exec/exec.h"

#define BATCH 4096
#define NB 16 /* distinct batches cycled through */

static double cpu(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
  int64_t total = argc > 1 ? atoll(argv[1]) : 10 * 1000 * 1000;
  struct chv_error err = {0};
  struct chv_type *schema;
  if (chv_type_parse_columns("f string, q int, p decimal(12,2), d double",
                             &schema, &err)) {
    fprintf(stderr, "setup: %s\n", err.msg);
    return 1;
  }
  struct chv_batch *b[NB];
  uint64_t seed = 42;
  int64_t row = 0;
  for (int k = 0; k < NB; k++) {
    if (chv_batch_open(schema, BATCH, &b[k], &err)) return 1;
    for (int i = 0; i < BATCH; i++, row++) {
      seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
      unsigned r = (unsigned)(seed >> 33);
      const char *f = r % 4 < 2 ? "N" : r % 4 == 2 ? "A" : "R";
      int32_t q = 1 + (int32_t)((seed >> 20) % 50);
      chv_i128 p = 90000 + (chv_i128)((seed >> 8) % 10000000);
      double d = (double)((seed >> 40) % 11) / 100.0;
      chv_vector_append_string(b[k]->cols[0], f, 1, NULL);
      chv_vector_append_value(b[k]->cols[1], &q, NULL);
      chv_vector_append_value(b[k]->cols[2], &p, NULL);
      if (row % 997 == 0)
        chv_vector_append_null(b[k]->cols[3], NULL);
      else
        chv_vector_append_value(b[k]->cols[3], &d, NULL);
    }
    b[k]->nrows = BATCH;
  }
  static const int keys[] = {0};
  static const enum chv_agg_fn fns[] = {CHV_AGG_COUNT_STAR, CHV_AGG_SUM,
                                        CHV_AGG_SUM, CHV_AGG_AVG};
  static const int cols[] = {-1, 1, 2, 3};
  struct chv_hash_agg_spec spec = {1, keys, 4, fns, cols, 0};
  chv_hash_agg *h;
  if (chv_hash_agg_open(schema, &spec, &h, &err)) {
    fprintf(stderr, "open: %s\n", err.msg);
    return 1;
  }
  double t0 = cpu();
  int64_t done = 0;
  for (int k = 0; done < total; k = (k + 1) % NB, done += BATCH)
    if (chv_hash_agg_add(h, b[k], NULL, BATCH, &err)) {
      fprintf(stderr, "add: %s\n", err.msg);
      return 1;
    }
  double t = cpu() - t0;
  printf("hash agg, 1 string key, 4 aggregates: %lld rows, %lld groups, "
         "%.3f s, %.1f M rows/s\n",
         (long long)done, (long long)chv_hash_agg_ngroups(h), t,
         (double)done / t / 1e6);
  chv_hash_agg_close(h);
  for (int k = 0; k < NB; k++) chv_batch_close(b[k]);
  chv_type_free(schema);
  return 0;
}
