/*
** bench_pq_decode: the decode side of Parquet pages, single-threaded.
**
**   - RLE/bit-packed dictionary indices at bit widths 1..20 (values/s),
**     decoded in batches of 4096 as a column reader does;
**   - bit unpacking alone (chv_pq_unpack32) at a few widths;
**   - DELTA_BINARY_PACKED int32 and int64;
**   - page decompression of each block codec on a 1 MiB page of mixed
**     PLAIN ints and strings (MB/s of uncompressed output).
**
**   bench_pq_decode [seconds per case, default 0.3]
**
** Prints one line per case; no assertions beyond decode errors.
*/
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "codec/block.h"
#include "format/parquet/pq_encoding.h"

#define BATCH 4096
#define NVALS (1 << 20)

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static uint64_t seed = 42;
static uint64_t rnd(void) {
  seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
  return seed >> 17;
}

static void die(const char *what, const struct chv_error *err) {
  fprintf(stderr, "%s: %s\n", what, err->msg);
  exit(1);
}

/* Dictionary indices as a dictionary-encoded string column has them: mostly
** random, with a run now and then (so both run kinds occur). */
static void bench_rle(double secs) {
  uint32_t *v = malloc(NVALS * sizeof *v), out[BATCH];
  struct chv_buf b;
  struct chv_error err = {0};
  chv_buf_init(&b);
  for (int w = 1; w <= 20; w++) {
    uint32_t mask = (uint32_t)((1ull << w) - 1);
    for (size_t i = 0; i < NVALS;) {
      uint32_t x = (uint32_t)rnd() & mask;
      size_t r = rnd() % 16 == 0 ? 8 + rnd() % 40 : 1;
      for (size_t k = 0; k < r && i < NVALS; k++, i++)
        v[i] = r > 1 ? x : (uint32_t)rnd() & mask;
    }
    chv_buf_reset(&b);
    if (chv_pq_rle_encode_dict(v, NVALS, w, &b, &err)) die("encode", &err);
    double t0 = now(), t;
    uint64_t done = 0;
    do {
      struct chv_pq_rle_dec d;
      if (chv_pq_rle_init_dict(&d, (const uint8_t *)b.data, b.len, NVALS,
                               &err))
        die("init", &err);
      for (size_t i = 0; i < NVALS; i += BATCH)
        if (chv_pq_rle_next_bounded(&d, BATCH, mask + 1, out, &err))
          die("decode", &err);
      done += NVALS;
      t = now() - t0;
    } while (t < secs);
    printf("rle dict indices  width %2d: %8.1f M values/s  (%.2f bytes/value)\n",
           w, (double)done / t / 1e6, (double)b.len / NVALS);
  }
  chv_buf_free(&b);
  free(v);
}

static void bench_unpack(double secs) {
  static const int widths[] = {1, 2, 3, 4, 5, 7, 8, 12, 16, 20, 24, 32};
  uint8_t *packed = malloc(NVALS * 4);
  uint32_t *out = malloc(NVALS * sizeof *out);
  for (size_t i = 0; i < NVALS * 4; i++) packed[i] = (uint8_t)rnd();
  for (size_t k = 0; k < sizeof widths / sizeof widths[0]; k++) {
    int w = widths[k];
    double t0 = now(), t;
    uint64_t done = 0;
    do {
      chv_pq_unpack32(packed, (size_t)NVALS * (size_t)w / 8, w, out, NVALS);
      done += NVALS;
      t = now() - t0;
    } while (t < secs);
    printf("unpack32          width %2d: %8.1f M values/s\n", w,
           (double)done / t / 1e6);
  }
  free(packed);
  free(out);
}

static void bench_delta(double secs) {
  int64_t *v = malloc(NVALS * sizeof *v), out[BATCH];
  int32_t *v32 = malloc(NVALS * sizeof *v32);
  struct chv_buf b;
  struct chv_error err = {0};
  chv_buf_init(&b);
  /* timestamps-like: increasing with jitter */
  int64_t x = 1700000000000;
  for (size_t i = 0; i < NVALS; i++) {
    x += (int64_t)(rnd() % 1000);
    v[i] = x;
    v32[i] = (int32_t)(i * 3 + rnd() % 100);
  }
  for (int is32 = 0; is32 < 2; is32++) {
    chv_buf_reset(&b);
    if (is32 ? chv_pq_delta_encode_i32(v32, NVALS, &b, &err)
             : chv_pq_delta_encode_i64(v, NVALS, &b, &err))
      die("encode", &err);
    double t0 = now(), t;
    uint64_t done = 0;
    do {
      struct chv_pq_delta_dec d;
      if (chv_pq_delta_init(&d, (const uint8_t *)b.data, b.len, &err))
        die("init", &err);
      for (size_t i = 0; i < NVALS; i += BATCH)
        if (is32 ? chv_pq_delta_next_i32(&d, BATCH, (int32_t *)out, &err)
                 : chv_pq_delta_next_i64(&d, BATCH, out, &err))
          die("decode", &err);
      done += NVALS;
      t = now() - t0;
    } while (t < secs);
    printf("delta %s:            %8.1f M values/s  (%.2f bytes/value)\n",
           is32 ? "int32" : "int64", (double)done / t / 1e6,
           (double)b.len / NVALS);
  }
  chv_buf_free(&b);
  free(v);
  free(v32);
}

/* 1 MiB: a quarter PLAIN int64 ids, a quarter PLAIN doubles of prices, half
** PLAIN strings (names, cities, emails). */
static void make_page(uint8_t *p, size_t n) {
  static const char *names[] = {"Frank", "Benjamin", "Alice", "Maria",
                                "Wei", "Olga", "Joao", "Amara"};
  static const char *cities[] = {"Lisbon", "Osaka", "Berlin", "Lagos",
                                 "Austin", "Pune"};
  size_t q = n / 4, i = 0;
  int64_t id = 1000000;
  for (; i + 8 <= q; i += 8) {
    id += 1 + (int64_t)(rnd() % 5);
    memcpy(p + i, &id, 8);
  }
  for (; i + 8 <= 2 * q; i += 8) {
    double price = (double)(rnd() % 100000) / 100.0;
    memcpy(p + i, &price, 8);
  }
  while (i < n) {
    char s[96];
    int len = snprintf(s, sizeof s, "%s.%s@%s.example.com",
                       names[rnd() % 8], names[rnd() % 8], cities[rnd() % 6]);
    uint32_t l = (uint32_t)len;
    if (i + 4 + l > n) {
      memset(p + i, 0, n - i);
      break;
    }
    memcpy(p + i, &l, 4);
    memcpy(p + i + 4, s, l);
    i += 4 + l;
  }
}

static void bench_codecs(double secs) {
  size_t n = 1 << 20;
  uint8_t *page = malloc(n);
  make_page(page, n);
  static const int codecs[] = {CHV_BLOCK_UNCOMPRESSED, CHV_BLOCK_SNAPPY,
                               CHV_BLOCK_GZIP,         CHV_BLOCK_BROTLI,
                               CHV_BLOCK_LZ4,          CHV_BLOCK_ZSTD,
                               CHV_BLOCK_LZ4_RAW};
  for (size_t k = 0; k < sizeof codecs / sizeof codecs[0]; k++) {
    struct chv_block_speed s;
    struct chv_error err = {0};
    if (chv_block_measure(codecs[k], 0, page, n, secs, &s, &err))
      die(chv_block_codec_name(codecs[k]), &err);
    printf("page codec %-12s: decompress %7.0f MB/s, compress %7.1f MB/s, "
           "ratio %.2f\n",
           chv_block_codec_name(codecs[k]), s.decompress_mbps, s.compress_mbps,
           (double)n / (double)s.compressed_len);
  }
  free(page);
}

int main(int argc, char **argv) {
  double secs = argc > 1 ? atof(argv[1]) : 0.3;
  bench_rle(secs);
  bench_unpack(secs);
  bench_delta(secs);
  bench_codecs(secs);
  return 0;
}
