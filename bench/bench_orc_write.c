/*
** bench_orc_write: the ORC writer, single-threaded, on the rows of
** bench_pq_write (ints, bigints, doubles, strings, dates, a decimal), or
** chive's Parquet writer on the same rows for comparison.
**
**   bench_orc_write OUT [ROWS (2000000)] [--repeat N (3)] [--parquet]
**                   [--set KEY=VALUE]...
**
** The rows are built in memory first (batches of 8192), then written to
** OUT N times; the best time counts.  --set applies a table property to
** the writer (orc.compress=SNAPPY, parquet.compression=GZIP, ...).  Prints
** one line:
**   <format> rows=R data_bytes=B file_bytes=F units=U seconds=S
**   rows_per_s=.. mb_per_s=..
** where data_bytes is the size of the values (4 per int and date, 8 per
** bigint and double, 16 per decimal, the bytes of each string), MB/s is
** data_bytes per second and units the stripes or row groups written.
** bench/orc_write.sh runs the variants side by side.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "chive/orc.h"
#include "chive/parquet.h"

#define BATCH 8192

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static uint64_t seed = 0x9e3779b97f4a7c15ull;
static uint64_t rnd(void) {
  seed ^= seed << 13;
  seed ^= seed >> 7;
  seed ^= seed << 17;
  return seed;
}

static int die(const char *what, const struct chv_error *err) {
  fprintf(stderr, "bench_orc_write: %s: %s\n", what, err ? err->msg : "");
  return 1;
}

int main(int argc, char **argv) {
  const char *out = NULL;
  int64_t rows = 2000000;
  int repeat = 3;
  bool parquet = false;
  struct chv_error err;
  struct chv_orc_write_options oo;
  struct chv_pq_write_options po;
  chv_orc_write_options_init(&oo);
  chv_pq_write_options_init(&po);
  for (int a = 1; a < argc; a++) {
    if (!strcmp(argv[a], "--repeat") && a + 1 < argc) {
      repeat = atoi(argv[++a]);
    } else if (!strcmp(argv[a], "--parquet")) {
      parquet = true;
    } else if (!strcmp(argv[a], "--set") && a + 1 < argc) {
      char *kv = argv[++a], *eq = strchr(kv, '=');
      if (eq == NULL) return die("--set needs KEY=VALUE", NULL);
      *eq = '\0';
      if (chv_orc_write_options_set(&oo, kv, eq + 1, &err) ||
          chv_pq_write_options_set(&po, kv, eq + 1, &err))
        return die("--set", &err);
    } else if (out == NULL) {
      out = argv[a];
    } else {
      rows = atoll(argv[a]);
    }
  }
  if (out == NULL || rows < 1 || repeat < 1)
    return die("usage: bench_orc_write OUT [ROWS] [--repeat N] [--parquet] "
               "[--set K=V]",
               NULL);

  struct chv_type *schema;
  if (chv_type_parse_columns("id bigint, i int, d double, s string, dt date, "
                             "m decimal(12,2)",
                             &schema, &err))
    return die("schema", &err);
  int64_t nb = (rows + BATCH - 1) / BATCH, data_bytes = 0;
  struct chv_batch **bs = calloc((size_t)nb, sizeof *bs);
  int64_t r = 0;
  for (int64_t k = 0; k < nb; k++) {
    if (chv_batch_open(schema, BATCH, &bs[k], &err)) return die("batch", &err);
    struct chv_vector **c = bs[k]->cols;
    int n = 0;
    for (; n < BATCH && r < rows; n++, r++) {
      int64_t id = r;
      int32_t i = (int32_t)(rnd() % 2000000000) - 1000000000;
      double d = (double)(rnd() % 100000000) / 7.0;
      char s[64];
      int sl = snprintf(s, sizeof s, "name-%u-%.*s", (unsigned)(rnd() % 100000),
                        (int)(r % 20), "xxxxxxxxxxxxxxxxxxxx");
      int32_t dt = (int32_t)(rnd() % 20000);
      chv_i128 m = (chv_i128)(rnd() % 10000000);
      if (chv_vector_append_value(c[0], &id, &err) ||
          chv_vector_append_value(c[1], &i, &err) ||
          chv_vector_append_value(c[2], &d, &err) ||
          chv_vector_append_bytes(c[3], s, (size_t)sl, &err) ||
          chv_vector_append_value(c[4], &dt, &err) ||
          chv_vector_append_value(c[5], &m, &err))
        return die("row", &err);
      data_bytes += 8 + 4 + 8 + sl + 4 + 16;
    }
    bs[k]->nrows = n;
  }

  double best = 1e300;
  int64_t file_bytes = 0;
  int units = 0;
  for (int k = 0; k < repeat; k++) {
    double t0 = now();
    if (parquet) {
      chv_pq_writer *w;
      struct chv_pq_write_stats st;
      if (chv_pq_writer_open(chv_fs_local(), out, schema, &po, &w, &err))
        return die("open", &err);
      for (int64_t q = 0; q < nb; q++)
        if (chv_pq_writer_write(w, bs[q], &err)) return die("write", &err);
      if (chv_pq_writer_finish(w, &st, &err)) return die("finish", &err);
      chv_pq_writer_close(w);
      file_bytes = st.file_bytes;
      units = st.row_groups;
    } else {
      chv_orc_writer *w;
      struct chv_orc_write_stats st;
      if (chv_orc_writer_open(chv_fs_local(), out, schema, &oo, &w, &err))
        return die("open", &err);
      for (int64_t q = 0; q < nb; q++)
        if (chv_orc_writer_write(w, bs[q], &err)) return die("write", &err);
      if (chv_orc_writer_finish(w, &st, &err)) return die("finish", &err);
      chv_orc_writer_close(w);
      file_bytes = st.file_bytes;
      units = st.stripes;
    }
    double t = now() - t0;
    if (t < best) best = t;
  }
  printf("%s rows=%lld data_bytes=%lld file_bytes=%lld units=%d "
         "seconds=%.3f rows_per_s=%.0f mb_per_s=%.1f\n",
         parquet ? "parquet" : "orc", (long long)rows, (long long)data_bytes,
         (long long)file_bytes, units, best, (double)rows / best,
         (double)data_bytes / best / 1e6);
  for (int64_t k = 0; k < nb; k++)
    chv_batch_close(bs[k]);
  free(bs);
  chv_type_free(schema);
  return 0;
}
