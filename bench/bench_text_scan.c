/*
** bench_text_scan: scan a TEXTFILE with the text reader and report rows/s and
** MB/s (of text scanned, after decompression).
**
**   bench_text_scan FILE 'a int, b string, ...' [--columns a,b]
**                   [--serde-param K=V]... [--repeat N]
**
** Every projected value is parsed into its vector; the non-NULL counts are
** summed so that the work cannot be skipped.  The best of N runs is shown.
*/
#include "format/text/text.h"

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: bench_text_scan FILE SCHEMA [--columns a,b] "
                    "[--serde-param K=V]... [--repeat N]\n");
    return 2;
  }
  const char *file = argv[1];
  struct chv_error err;
  struct chv_type *schema;
  if (chv_type_parse_columns(argv[2], &schema, &err) != CHV_OK) {
    fprintf(stderr, "bench_text_scan: %s\n", err.msg);
    return 2;
  }
  struct chv_text_param params[16];
  size_t np = 0;
  int repeat = 3;
  int cols[256], ncols = -1;
  for (int a = 3; a < argc; a++) {
    if (!strcmp(argv[a], "--repeat") && a + 1 < argc) {
      repeat = atoi(argv[++a]);
    } else if (!strcmp(argv[a], "--serde-param") && a + 1 < argc && np < 16) {
      char *kv = argv[++a], *eq = strchr(kv, '=');
      if (!eq) return 2;
      *eq = '\0';
      params[np].key = kv;
      params[np++].value = eq + 1;
    } else if (!strcmp(argv[a], "--columns") && a + 1 < argc) {
      ncols = 0;
      char *list = argv[++a];
      for (char *t = strtok(list, ","); t && ncols < 256; t = strtok(NULL, ",")) {
        int idx = chv_type_field_index(schema, t);
        if (idx < 0) {
          fprintf(stderr, "bench_text_scan: no column %s\n", t);
          return 2;
        }
        cols[ncols++] = idx;
      }
    } else {
      fprintf(stderr, "bench_text_scan: unknown argument %s\n", argv[a]);
      return 2;
    }
  }
  struct chv_text_options o;
  if (chv_text_options_from_serde(&o, params, np, &err) != CHV_OK) return 2;
  if (ncols >= 0) {
    o.columns = cols;
    o.ncolumns = ncols;
  }
  double best = 1e300;
  struct chv_text_stats st = {0};
  int64_t nonnull = 0;
  for (int rep = 0; rep < repeat; rep++) {
    int64_t t0 = chv_time_mono_ns();
    chv_text_reader *r;
    struct chv_batch *b;
    if (chv_text_reader_open(chv_fs_local(), file, schema, &o, &r, &err) !=
            CHV_OK ||
        chv_batch_open(chv_text_reader_schema(r), 4096, &b, &err) != CHV_OK) {
      fprintf(stderr, "bench_text_scan: %s\n", err.msg);
      return 1;
    }
    nonnull = 0;
    for (;;) {
      int64_t n;
      if (chv_text_reader_next(r, b, &n, &err) != CHV_OK) {
        fprintf(stderr, "bench_text_scan: %s\n", err.msg);
        return 1;
      }
      if (n == 0) break;
      for (int c = 0; c < b->ncols; c++)
        nonnull += b->cols[c]->length - b->cols[c]->null_count;
    }
    chv_text_reader_stats(r, &st);
    chv_batch_close(b);
    chv_text_reader_close(r);
    double secs = (double)(chv_time_mono_ns() - t0) / 1e9;
    if (secs < best) best = secs;
  }
  printf("chive rows=%lld bytes=%lld nonnull=%lld malformed=%lld "
         "seconds=%.3f rows_per_s=%.0f mb_per_s=%.1f\n",
         (long long)st.rows, (long long)st.bytes_decoded, (long long)nonnull,
         (long long)st.malformed, best, (double)st.rows / best,
         (double)st.bytes_decoded / best / 1e6);
  chv_type_free(schema);
  return 0;
}
