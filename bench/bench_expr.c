/*
** bench_expr: the expression evaluator on 10M rows, in batches of 4096:
** filter `x > c AND y < d` over two BIGINT columns, then SUM of a DOUBLE
** column over the selected rows.  Prints rows per second; no assertions.
**
**   bench_expr [rows]
*/
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "sql/exec/exec.h"

#define BATCH 4096

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
  int64_t total = argc > 1 ? atoll(argv[1]) : 10 * 1000 * 1000;
  struct chv_error err = {0};
  struct chv_type *schema;
  chv_arena *a;
  struct chv_batch *b;
  if (chv_type_parse_columns("x bigint, y bigint, v double", &schema, &err) ||
      chv_arena_open(0, &a) || chv_batch_open(schema, BATCH, &b, &err)) {
    fprintf(stderr, "setup: %s\n", err.msg);
    return 1;
  }
  /* one batch of pseudo-random data, reused for every batch */
  uint64_t seed = 42;
  for (int i = 0; i < BATCH; i++) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    int64_t x = (int64_t)(seed >> 33) % 1000, y = (int64_t)(seed >> 13) % 1000;
    double v = (double)(seed >> 40) / 1024.0;
    chv_vector_append_value(b->cols[0], &x, NULL);
    chv_vector_append_value(b->cols[1], &y, NULL);
    chv_vector_append_value(b->cols[2], &v, NULL);
  }
  b->nrows = BATCH;
  struct chv_expr *cx, *cy, *lc, *ld, *gt, *lt, *pred, *args[2];
  struct chv_value c = {.i64 = 300}, d = {.i64 = 700};
  const struct chv_type *bt = chv_exec_type(a, CHV_TYPE_BIGINT, 0, 0);
  chv_expr_column(a, 0, schema->children[0], &cx, &err);
  chv_expr_column(a, 1, schema->children[1], &cy, &err);
  chv_expr_literal(a, bt, &c, &lc, &err);
  chv_expr_literal(a, bt, &d, &ld, &err);
  args[0] = cx, args[1] = lc;
  chv_expr_call(a, CHV_FN_GT, args, 2, &gt, &err);
  args[0] = cy, args[1] = ld;
  chv_expr_call(a, CHV_FN_LT, args, 2, &lt, &err);
  if (chv_expr_and(a, gt, lt, &pred, &err)) {
    fprintf(stderr, "build: %s\n", err.msg);
    return 1;
  }
  const struct chv_type *rt;
  chv_agg_state *sum;
  chv_agg_result_type(a, CHV_AGG_SUM, schema->children[2], &rt, &err);
  chv_agg_state_open(CHV_AGG_SUM, schema->children[2], rt, &sum, &err);
  uint32_t sel[BATCH];
  int64_t selected = 0;
  double t0 = now();
  for (int64_t done = 0; done < total; done += BATCH) {
    int64_t n = total - done < BATCH ? total - done : BATCH, k;
    if (chv_expr_filter(pred, b, NULL, n, sel, &k, &err) ||
        chv_agg_update(sum, b->cols[2], sel, k, NULL, &err)) {
      fprintf(stderr, "run: %s\n", err.msg);
      return 1;
    }
    selected += k;
  }
  double secs = now() - t0;
  struct chv_vector *out;
  chv_vector_open(rt, 1, &out, &err);
  chv_agg_finalize(sum, out, &err);
  printf("bench_expr: %lld rows, %lld selected, sum %.6g: %.3f s, "
         "%.1f M rows/s\n",
         (long long)total, (long long)selected, ((double *)out->data)[0], secs,
         (double)total / secs / 1e6);
  chv_vector_close(out);
  chv_agg_state_close(sum);
  chv_batch_close(b);
  chv_arena_close(a);
  chv_type_free(schema);
  return 0;
}
