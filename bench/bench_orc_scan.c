/*
** bench_orc_scan: chive's ORC reader beside its Parquet and TEXTFILE
** readers on the same rows, single-threaded.
**
**   bench_orc_scan gen DIR [ROWS (2000000)]
**       write DIR/scan.orc (chive's ORC writer, ZLIB: Hive's default),
**       DIR/snappy.orc (the same with SNAPPY, to compare with Parquet's
**       codec), DIR/scan.parquet (chive's Parquet writer, SNAPPY: its
**       default) and
**       DIR/scan.txt (chive's TEXTFILE writer, \001 fields) holding the
**       same rows: id bigint, i int, l bigint, d double, s string (distinct
**       values), c string (four values and NULLs), dt date, m decimal(12,2)
**   bench_orc_scan scan FILE [--columns a,b] [--batch N] [--repeat N]
**       read FILE (by its extension) and print one line:
**       <format> rows=R bytes=B seconds=S rows_per_s=.. mb_per_s=..
**       read_bytes=.. checksum=..
**
** Every value of the projected columns is decoded into its vector; a
** checksum over the vectors (non-NULL counts, integer sums, string bytes)
** is printed so that the work cannot be skipped.  The best of N runs is
** shown.  bench/orc_scan.sh runs the whole comparison.
*/
#include "chive/orc.h"
#include "chive/parquet.h"
#include "chive/text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SCHEMA                                                                 \
  "id bigint, i int, l bigint, d double, s string, c string, dt date, "       \
  "m decimal(12,2)"
#define BATCH 8192

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int die(const char *what, const struct chv_error *err) {
  fprintf(stderr, "bench_orc_scan: %s: %s\n", what, err ? err->msg : "");
  return 1;
}

static uint64_t seed = 0x9e3779b97f4a7c15ull;
static uint64_t rnd(void) {
  seed ^= seed << 13;
  seed ^= seed >> 7;
  seed ^= seed << 17;
  return seed;
}

/* ---- the rows ---------------------------------------------------------- */

static int gen(const char *dir, int64_t rows) {
  struct chv_error err;
  struct chv_type *schema;
  if (chv_type_parse_columns(SCHEMA, &schema, &err)) return die("schema", &err);
  char po[1024], ps[1024], pp[1024], pt[1024];
  snprintf(po, sizeof po, "%s/scan.orc", dir);
  snprintf(ps, sizeof ps, "%s/snappy.orc", dir);
  snprintf(pp, sizeof pp, "%s/scan.parquet", dir);
  snprintf(pt, sizeof pt, "%s/scan.txt", dir);
  chv_orc_writer *ow, *sw;
  chv_pq_writer *pw;
  chv_text_writer *tw;
  struct chv_orc_write_options oo, so;
  chv_orc_write_options_init(&oo);
  chv_orc_write_options_init(&so);
  if (chv_orc_write_options_set(&so, "orc.compress", "SNAPPY", &err) ||
      chv_orc_writer_open(chv_fs_local(), po, schema, &oo, &ow, &err) ||
      chv_orc_writer_open(chv_fs_local(), ps, schema, &so, &sw, &err) ||
      chv_pq_writer_open(chv_fs_local(), pp, schema, NULL, &pw, &err) ||
      chv_text_writer_open(chv_fs_local(), pt, schema, NULL, &tw, &err))
    return die("open", &err);
  struct chv_batch *b;
  if (chv_batch_open(schema, BATCH, &b, &err)) return die("batch", &err);
  static const char *colors[] = {"red", "green", "blue", "cyan"};
  for (int64_t r = 0; r < rows;) {
    chv_batch_reset(b);
    struct chv_vector **c = b->cols;
    int n = 0;
    for (; n < BATCH && r < rows; n++, r++) {
      int64_t id = r, l = (int64_t)(rnd() % 1000000000000ull);
      int32_t i = (int32_t)(rnd() % 2000000000) - 1000000000;
      double d = (double)(rnd() % 100000000) / 7.0;
      char s[64];
      int sl = snprintf(s, sizeof s, "name-%u-%.*s", (unsigned)(rnd() % 100000),
                        (int)(r % 20), "xxxxxxxxxxxxxxxxxxxx");
      int32_t dt = (int32_t)(rnd() % 20000);
      chv_i128 m = (chv_i128)(rnd() % 10000000);
      const char *color = colors[r % 4];
      if (chv_vector_append_value(c[0], &id, &err) ||
          chv_vector_append_value(c[1], &i, &err) ||
          chv_vector_append_value(c[2], &l, &err) ||
          chv_vector_append_value(c[3], &d, &err) ||
          chv_vector_append_bytes(c[4], s, (size_t)sl, &err) ||
          (r % 10 == 0
               ? chv_vector_append_null(c[5], &err)
               : chv_vector_append_bytes(c[5], color, strlen(color), &err)) ||
          chv_vector_append_value(c[6], &dt, &err) ||
          chv_vector_append_value(c[7], &m, &err))
        return die("row", &err);
    }
    b->nrows = n;
    if (chv_orc_writer_write(ow, b, &err) ||
        chv_orc_writer_write(sw, b, &err) || chv_pq_writer_write(pw, b, &err) ||
        chv_text_writer_write(tw, b, &err))
      return die("write", &err);
  }
  if (chv_orc_writer_finish(ow, NULL, &err) ||
      chv_orc_writer_finish(sw, NULL, &err) ||
      chv_pq_writer_finish(pw, NULL, &err) ||
      chv_text_writer_finish(tw, NULL, &err))
    return die("finish", &err);
  chv_orc_writer_close(ow);
  chv_orc_writer_close(sw);
  chv_pq_writer_close(pw);
  chv_text_writer_close(tw);
  chv_batch_close(b);
  chv_type_free(schema);
  return 0;
}

/* ---- scans ------------------------------------------------------------- */

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
    for (int64_t i = 0; i < v->length; i++) h += ((uint64_t *)v->data)[2 * i];
    break;
  case CHV_TYPE_STRING:
    h += (uint64_t)v->bytes_len;
    break;
  default:
    break;
  }
  return h;
}

enum fmt { F_ORC, F_PARQUET, F_TEXT };

struct scan {
  enum fmt f;
  chv_orc_reader *orc;
  chv_pq_reader *pq;
  chv_text_reader *text;
};

static int scan_open(struct scan *s, const char *file, const char **names,
                     int ncols, const struct chv_type *schema,
                     struct chv_error *err) {
  switch (s->f) {
  case F_ORC: {
    struct chv_orc_read_options o;
    chv_orc_read_options_init(&o);
    if (ncols >= 0) {
      o.columns = names;
      o.ncolumns = ncols;
    }
    return chv_orc_reader_open(chv_fs_local(), file, &o, &s->orc, err);
  }
  case F_PARQUET: {
    struct chv_pq_read_options o;
    chv_pq_read_options_init(&o);
    if (ncols >= 0) {
      o.columns = names;
      o.ncolumns = ncols;
    }
    return chv_pq_reader_open(chv_fs_local(), file, &o, &s->pq, err);
  }
  default: {
    struct chv_text_options o;
    chv_text_options_init(&o);
    int idx[64];
    if (ncols >= 0) {
      for (int k = 0; k < ncols; k++) idx[k] = chv_type_field_index(schema, names[k]);
      o.columns = idx;
      o.ncolumns = ncols;
    }
    return chv_text_reader_open(chv_fs_local(), file, schema, &o, &s->text,
                                err);
  }
  }
}

static const struct chv_type *scan_schema(const struct scan *s) {
  return s->f == F_ORC       ? chv_orc_reader_schema(s->orc)
         : s->f == F_PARQUET ? chv_pq_reader_schema(s->pq)
                             : chv_text_reader_schema(s->text);
}

static int scan_next(struct scan *s, struct chv_batch *b, int64_t *n,
                     struct chv_error *err) {
  return s->f == F_ORC       ? chv_orc_reader_next(s->orc, b, n, err)
         : s->f == F_PARQUET ? chv_pq_reader_next(s->pq, b, n, err)
                             : chv_text_reader_next(s->text, b, n, err);
}

static int64_t scan_read_bytes(const struct scan *s) {
  if (s->f == F_ORC) {
    struct chv_orc_read_stats st;
    chv_orc_reader_stats(s->orc, &st);
    return st.bytes_read;
  }
  if (s->f == F_PARQUET) {
    struct chv_pq_read_stats st;
    chv_pq_reader_stats(s->pq, &st);
    return st.bytes_read;
  }
  struct chv_text_stats st;
  chv_text_reader_stats(s->text, &st);
  return st.bytes_read;
}

static void scan_close(struct scan *s) {
  chv_orc_reader_close(s->orc);
  chv_pq_reader_close(s->pq);
  chv_text_reader_close(s->text);
  s->orc = NULL;
  s->pq = NULL;
  s->text = NULL;
}

static int scan(int argc, char **argv) {
  const char *file = argv[0];
  const char *names[64];
  int ncols = -1, repeat = 3;
  int64_t batch = 4096;
  for (int a = 1; a < argc; a++) {
    if (!strcmp(argv[a], "--repeat") && a + 1 < argc) {
      repeat = atoi(argv[++a]);
    } else if (!strcmp(argv[a], "--batch") && a + 1 < argc) {
      batch = atoll(argv[++a]);
    } else if (!strcmp(argv[a], "--columns") && a + 1 < argc) {
      ncols = 0;
      for (char *t = strtok(argv[++a], ","); t && ncols < 64;
           t = strtok(NULL, ","))
        names[ncols++] = t;
    } else {
      fprintf(stderr, "bench_orc_scan: unknown argument %s\n", argv[a]);
      return 2;
    }
  }
  size_t fl = strlen(file);
  struct scan s = {0};
  s.f = fl > 4 && !strcmp(file + fl - 4, ".orc")       ? F_ORC
        : fl > 8 && !strcmp(file + fl - 8, ".parquet") ? F_PARQUET
                                                       : F_TEXT;
  struct chv_error err;
  struct chv_stat st;
  struct chv_type *schema;
  if (chv_fs_stat(chv_fs_local(), file, &st, &err) ||
      chv_type_parse_columns(SCHEMA, &schema, &err))
    return die(file, &err);
  double best = 1e300;
  int64_t rows = 0, read_bytes = 0;
  uint64_t sum = 0;
  for (int k = 0; k < repeat; k++) {
    double t0 = now();
    struct chv_batch *b;
    if (scan_open(&s, file, names, ncols, schema, &err) ||
        chv_batch_open(scan_schema(&s), batch, &b, &err))
      return die(file, &err);
    rows = 0;
    sum = 0;
    for (;;) {
      int64_t n;
      if (scan_next(&s, b, &n, &err)) return die(file, &err);
      if (n == 0) break;
      rows += n;
      for (int c = 0; c < b->ncols; c++) sum += fold(b->cols[c]);
    }
    read_bytes = scan_read_bytes(&s);
    chv_batch_close(b);
    scan_close(&s);
    double secs = now() - t0;
    if (secs < best) best = secs;
  }
  static const char *fmt[] = {"orc", "parquet", "text"};
  const char *base = strrchr(file, '/');
  bool snappy = !strcmp(base ? base + 1 : file, "snappy.orc");
  printf("%s rows=%lld bytes=%lld seconds=%.3f rows_per_s=%.0f mb_per_s=%.1f "
         "read_bytes=%lld checksum=%llu\n",
         snappy ? "orc_snappy" : fmt[s.f], (long long)rows, (long long)st.size, best,
         (double)rows / best, (double)st.size / best / 1e6,
         (long long)read_bytes, (unsigned long long)sum);
  chv_type_free(schema);
  return 0;
}

int main(int argc, char **argv) {
  if (argc >= 3 && !strcmp(argv[1], "gen"))
    return gen(argv[2], argc > 3 ? atoll(argv[3]) : 2000000);
  if (argc >= 3 && !strcmp(argv[1], "scan")) return scan(argc - 2, argv + 2);
  fprintf(stderr, "usage: bench_orc_scan gen DIR [ROWS] | scan FILE "
                  "[--columns a,b] [--batch N] [--repeat N]\n");
  return 2;
}
