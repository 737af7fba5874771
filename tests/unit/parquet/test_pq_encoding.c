/*
** Tests of the Parquet encodings (format/parquet/pq_encoding.c): the byte
** vectors of the spec's examples, seeded random round trips at every bit
** width, batch boundaries, truncation at every byte, garbage, the error
** messages, and the DELTA_* pages of parquet-testing checked against their
** expected CSV files.
*/
#include "chv_test.h"

#include "codec/block.h"
#include "format/parquet/pq_encoding.h"
#include "parquet/page_walk.h"

#include <math.h>

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint64_t rnd(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}

/* A batch size in 1..max, at most left. */
static size_t batch(size_t left, size_t max) {
  size_t k = 1 + (size_t)(rnd() % max);
  return k < left ? k : left;
}

static uint64_t mask_of(int w) { return w >= 64 ? ~0ull : (1ull << w) - 1; }

/* ---- bit packing -------------------------------------------------------- */

static void test_unpack_roundtrip(void) {
  static const size_t ns[] = {0, 1, 7, 8, 31, 32, 33, 64, 100, 257, 1000};
  for (int w = 0; w <= 64; w++) {
    for (size_t t = 0; t < CHV_ARRAY_SIZE(ns); t++) {
      size_t n = ns[t], bytes = (n * (size_t)w + 7) / 8;
      uint64_t *v = malloc((n + 1) * 8), *back = malloc((n + 1) * 8);
      uint8_t *packed = malloc(bytes + 1);
      for (size_t i = 0; i < n; i++) v[i] = rnd() & mask_of(w);
      chv_pq_pack64(v, n, w, packed);
      CHV_CHECK(chv_pq_unpack64(packed, bytes, w, back, n) == n);
      CHV_CHECK(n == 0 || memcmp(v, back, n * 8) == 0);
      if (w <= 32) {
        uint32_t *v32 = malloc((n + 1) * 4), *b32 = malloc((n + 1) * 4);
        uint8_t *p32 = malloc(bytes + 1);
        for (size_t i = 0; i < n; i++) v32[i] = (uint32_t)v[i];
        chv_pq_pack32(v32, n, w, p32);
        CHV_CHECK(bytes == 0 || memcmp(p32, packed, bytes) == 0);
        CHV_CHECK(chv_pq_unpack32(p32, bytes, w, b32, n) == n);
        CHV_CHECK(n == 0 || memcmp(v32, b32, n * 4) == 0);
        /* a span one byte short yields fewer values */
        if (bytes > 0 && w > 0)
          CHV_CHECK(chv_pq_unpack32(p32, bytes - 1, w, b32, n) < n);
        free(v32);
        free(b32);
        free(p32);
      }
      if (bytes > 0 && w > 0)
        CHV_CHECK(chv_pq_unpack64(packed, bytes - 1, w, back, n) < n);
      free(v);
      free(back);
      free(packed);
    }
  }
  uint32_t o[4];
  CHV_CHECK(chv_pq_unpack32((const uint8_t *)"", 0, 33, o, 4) == 0);
  CHV_CHECK(chv_pq_bit_width(0) == 0);
  CHV_CHECK(chv_pq_bit_width(1) == 1);
  CHV_CHECK(chv_pq_bit_width(255) == 8);
  CHV_CHECK(chv_pq_bit_width(~0ull) == 64);
}

/* The spec's examples: 0..7 at 3 bits, LSB first and (deprecated) MSB first. */
static void test_spec_bitpacking(void) {
  uint32_t v[8] = {0, 1, 2, 3, 4, 5, 6, 7}, out[8];
  uint8_t p[3];
  chv_pq_pack32(v, 8, 3, p);
  CHV_CHECK(p[0] == 0x88 && p[1] == 0xC6 && p[2] == 0xFA);
  /* the same values as one bit-packed run of the hybrid */
  const uint8_t run[] = {0x03, 0x88, 0xC6, 0xFA};
  struct chv_pq_rle_dec d;
  struct chv_error err = {0};
  CHV_REQUIRE_OK(chv_pq_rle_init(&d, run, sizeof run, 3, 8, &err), &err);
  CHV_REQUIRE_OK(chv_pq_rle_next(&d, 8, out, &err), &err);
  CHV_CHECK(memcmp(out, v, sizeof v) == 0);
  struct chv_buf b;
  chv_buf_init(&b);
  CHV_REQUIRE_OK(chv_pq_rle_encode(v, 8, 3, &b, &err), &err);
  CHV_CHECK(b.len == 4 && memcmp(b.data, run, 4) == 0);
  chv_buf_free(&b);
  const uint8_t msb[] = {0x05, 0x39, 0x77};
  size_t used;
  CHV_REQUIRE_OK(
      chv_pq_bitpacked_msb_decode(msb, sizeof msb, 3, 8, out, &used, &err),
      &err);
  CHV_CHECK(used == 3 && memcmp(out, v, sizeof v) == 0);
  /* 30 values of 2 bits take 8 bytes */
  uint8_t z[8] = {0xFF, 0, 0, 0, 0, 0, 0, 0xF0};
  uint32_t lv[30];
  CHV_REQUIRE_OK(chv_pq_bitpacked_msb_decode(z, 8, 2, 30, lv, &used, &err),
                 &err);
  CHV_CHECK(used == 8 && lv[0] == 3 && lv[3] == 3 && lv[4] == 0 &&
            lv[28] == 3 && lv[29] == 3);
  CHV_CHECK(chv_pq_bitpacked_msb_decode(z, 7, 2, 30, lv, &used, &err) ==
            CHV_ECORRUPT);
  CHV_CHECK(chv_pq_bitpacked_msb_decode(z, 8, 33, 1, lv, &used, &err) ==
            CHV_ECORRUPT);
}

/* ---- RLE / bit-packed hybrid ------------------------------------------- */

/* Values with runs of random lengths (some long), at width w. */
static void make_levels(uint32_t *v, size_t n, int w) {
  size_t i = 0;
  while (i < n) {
    uint32_t x = (uint32_t)(rnd() & mask_of(w));
    size_t r = rnd() % 4 == 0 ? 1 + rnd() % 200 : 1 + rnd() % 3;
    for (size_t k = 0; k < r && i < n; k++, i++)
      v[i] = rnd() % 3 == 0 ? (uint32_t)(rnd() & mask_of(w)) : x;
  }
}

static void test_rle_roundtrip(void) {
  struct chv_error err = {0};
  static const size_t ns[] = {0, 1, 5, 8, 9, 64, 100, 1000, 5000};
  for (int w = 0; w <= 32; w++) {
    for (size_t t = 0; t < CHV_ARRAY_SIZE(ns); t++) {
      size_t n = ns[t];
      uint32_t *v = malloc((n + 1) * 4), *out = malloc((n + 1) * 4);
      make_levels(v, n, w);
      struct chv_buf b;
      chv_buf_init(&b);
      CHV_REQUIRE_OK(chv_pq_rle_encode_prefixed(v, n, w, &b, &err), &err);
      /* decode in random batch sizes */
      struct chv_pq_rle_dec d;
      size_t used;
      CHV_REQUIRE_OK(chv_pq_rle_init_prefixed(&d, (const uint8_t *)b.data,
                                              b.len, w, n, &used, &err),
                     &err);
      CHV_CHECK(used == b.len);
      for (size_t i = 0; i < n;) {
        size_t k = batch(n - i, 70);
        CHV_REQUIRE_OK(chv_pq_rle_next(&d, k, out + i, &err), &err);
        i += k;
      }
      CHV_CHECK(n == 0 || memcmp(v, out, n * 4) == 0);
      /* asking for one more fails */
      CHV_CHECK(chv_pq_rle_next(&d, 1, out, &err) == CHV_ECORRUPT);
      /* runs: repeated pieces plus literal pieces give the same values */
      CHV_REQUIRE_OK(chv_pq_rle_init_prefixed(&d, (const uint8_t *)b.data,
                                              b.len, w, n, &used, &err),
                     &err);
      size_t i = 0;
      uint32_t tmp[64];
      while (i < n) {
        struct chv_pq_rle_run r;
        CHV_REQUIRE_OK(chv_pq_rle_next_run(&d, 1 + rnd() % 64, tmp, &r, &err),
                       &err);
        CHV_REQUIRE(r.count >= 1 && i + r.count <= n);
        for (uint32_t j = 0; j < r.count; j++)
          CHV_CHECK(v[i + j] == (r.repeated ? r.value : tmp[j]));
        i += r.count;
      }
      /* count_eq and skip, mixed with next */
      uint32_t level = n ? v[n / 2] : 0;
      uint64_t want = 0;
      for (size_t j = 0; j < n; j++) want += v[j] == level;
      CHV_REQUIRE_OK(chv_pq_rle_init_prefixed(&d, (const uint8_t *)b.data,
                                              b.len, w, n, &used, &err),
                     &err);
      uint64_t got = 0;
      for (size_t j = 0; j < n;) {
        size_t k = batch(n - j, 300);
        uint64_t c;
        CHV_REQUIRE_OK(chv_pq_rle_count_eq(&d, k, level, &c, &err), &err);
        got += c;
        j += k;
      }
      CHV_CHECK_EQ_INT(got, want);
      CHV_REQUIRE_OK(chv_pq_rle_init_prefixed(&d, (const uint8_t *)b.data,
                                              b.len, w, n, &used, &err),
                     &err);
      for (size_t j = 0; j < n;) {
        size_t k = batch(n - j, 100);
        if (rnd() & 1) {
          CHV_REQUIRE_OK(chv_pq_rle_skip(&d, k, &err), &err);
        } else {
          CHV_REQUIRE_OK(chv_pq_rle_next(&d, k, out, &err), &err);
          CHV_CHECK(memcmp(out, v + j, k * 4) == 0);
        }
        j += k;
      }
      if (w <= 8) {
        uint8_t *u8 = malloc(n + 1);
        CHV_REQUIRE_OK(chv_pq_rle_init_prefixed(&d, (const uint8_t *)b.data,
                                                b.len, w, n, &used, &err),
                       &err);
        CHV_REQUIRE_OK(chv_pq_rle_next_u8(&d, n, u8, &err), &err);
        for (size_t j = 0; j < n; j++) CHV_CHECK(u8[j] == v[j]);
        free(u8);
      }
      /* dictionary form, with the bound check */
      chv_buf_reset(&b);
      CHV_REQUIRE_OK(chv_pq_rle_encode_dict(v, n, w, &b, &err), &err);
      CHV_REQUIRE_OK(
          chv_pq_rle_init_dict(&d, (const uint8_t *)b.data, b.len, n, &err),
          &err);
      uint32_t mx = 0;
      for (size_t j = 0; j < n; j++) mx = v[j] > mx ? v[j] : mx;
      CHV_CHECK_OK(chv_pq_rle_next_bounded(&d, n, mx + 1 ? mx + 1 : mx, out,
                                           &err),
                   &err);
      if (n > 0 && mx > 0) {
        CHV_REQUIRE_OK(
            chv_pq_rle_init_dict(&d, (const uint8_t *)b.data, b.len, n, &err),
            &err);
        CHV_CHECK(chv_pq_rle_next_bounded(&d, n, mx, out, &err) ==
                  CHV_ECORRUPT);
        CHV_CHECK_CONTAINS(err.msg, "is not below the dictionary size");
      }
      chv_buf_free(&b);
      free(v);
      free(out);
    }
  }
}

/* Long runs become repeated runs; all-equal levels take a few bytes. */
static void test_rle_compact(void) {
  struct chv_error err = {0};
  size_t n = 100000;
  uint32_t *v = malloc(n * 4);
  for (size_t i = 0; i < n; i++) v[i] = 1;
  struct chv_buf b;
  chv_buf_init(&b);
  CHV_REQUIRE_OK(chv_pq_rle_encode(v, n, 1, &b, &err), &err);
  CHV_CHECK(b.len <= 5);
  struct chv_pq_rle_dec d;
  CHV_REQUIRE_OK(
      chv_pq_rle_init(&d, (const uint8_t *)b.data, b.len, 1, n, &err), &err);
  struct chv_pq_rle_run r;
  uint32_t tmp[8];
  CHV_REQUIRE_OK(chv_pq_rle_next_run(&d, n, tmp, &r, &err), &err);
  CHV_CHECK(r.repeated && r.count == n && r.value == 1);
  /* width 0: every value is 0 */
  chv_buf_reset(&b);
  memset(v, 0, n * 4);
  CHV_REQUIRE_OK(chv_pq_rle_encode(v, n, 0, &b, &err), &err);
  CHV_REQUIRE_OK(
      chv_pq_rle_init(&d, (const uint8_t *)b.data, b.len, 0, n, &err), &err);
  uint64_t c;
  CHV_REQUIRE_OK(chv_pq_rle_count_eq(&d, n, 0, &c, &err), &err);
  CHV_CHECK_EQ_INT(c, n);
  /* values that do not fit the width are refused */
  v[5] = 2;
  CHV_CHECK(chv_pq_rle_encode(v, n, 1, &b, &err) == CHV_EINVAL);
  CHV_CHECK(chv_pq_rle_encode(v, n, 33, &b, &err) == CHV_EINVAL);
  chv_buf_free(&b);
  free(v);
}

static void test_rle_errors(void) {
  struct chv_error err = {0};
  struct chv_pq_rle_dec d;
  uint32_t out[200];
  /* an RLE run of 2^32 - 1 values where 100 are expected */
  const uint8_t huge[] = {0xFE, 0xFF, 0xFF, 0xFF, 0x1F, 0x01};
  CHV_REQUIRE_OK(chv_pq_rle_init(&d, huge, sizeof huge, 1, 100, &err), &err);
  CHV_CHECK(chv_pq_rle_next(&d, 10, out, &err) == CHV_ECORRUPT);
  CHV_CHECK_STREQ(err.msg,
                  "RLE run of 4294967295 values exceeds the 100 expected");
  /* runs past 2^31 - 1 values, even when the caller expects more */
  const uint8_t big[] = {0x80, 0x80, 0x80, 0x80, 0x10, 0x01};
  CHV_REQUIRE_OK(chv_pq_rle_init(&d, big, sizeof big, 1, UINT64_MAX, &err),
                 &err);
  CHV_CHECK(chv_pq_rle_next(&d, 10, out, &err) == CHV_ECORRUPT);
  CHV_CHECK_STREQ(err.msg, "RLE run of 2147483648 values exceeds 2^31 - 1");
  const uint8_t bigbp[] = {0x81, 0x80, 0x80, 0x80, 0x02, 0x01};
  CHV_REQUIRE_OK(
      chv_pq_rle_init(&d, bigbp, sizeof bigbp, 1, UINT64_MAX, &err), &err);
  CHV_CHECK(chv_pq_rle_next(&d, 10, out, &err) == CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "exceeds 2^31 - 1");
  /* a bit-packed run longer than the values expected: the rest is padding
  ** (DuckDB pads its last run to 256 values) */
  uint8_t bp[2 + 64];
  bp[0] = 0x81;
  bp[1] = 0x01; /* 64 groups: 512 values of 1 bit */
  for (int i = 0; i < 64; i++) bp[2 + i] = (uint8_t)(i < 12 ? 0xAA : 0xFF);
  CHV_REQUIRE_OK(chv_pq_rle_init(&d, bp, sizeof bp, 1, 100, &err), &err);
  CHV_CHECK_OK(chv_pq_rle_next(&d, 100, out, &err), &err);
  CHV_CHECK(out[0] == 0 && out[1] == 1 && out[95] == 1 && out[96] == 1);
  CHV_CHECK(chv_pq_rle_next(&d, 1, out, &err) == CHV_ECORRUPT);
  /* ... but its bytes must be there for the values wanted */
  CHV_REQUIRE_OK(chv_pq_rle_init(&d, bp, 3, 1, 100, &err), &err);
  CHV_CHECK(chv_pq_rle_next(&d, 10, out, &err) == CHV_ECORRUPT);
  CHV_CHECK_STREQ(err.msg, "RLE data ends with 92 values still expected");
  /* a repeated value wider than the bit width */
  const uint8_t wide[] = {0x10, 0x05};
  CHV_REQUIRE_OK(chv_pq_rle_init(&d, wide, sizeof wide, 2, 8, &err), &err);
  CHV_CHECK(chv_pq_rle_next(&d, 8, out, &err) == CHV_ECORRUPT);
  CHV_CHECK_STREQ(err.msg, "RLE run value 5 does not fit bit width 2");
  /* widths */
  CHV_CHECK(chv_pq_rle_init(&d, wide, 2, 33, 8, &err) == CHV_ECORRUPT);
  const uint8_t dw[] = {40, 0};
  CHV_CHECK(chv_pq_rle_init_dict(&d, dw, 2, 8, &err) == CHV_ECORRUPT);
  CHV_CHECK_STREQ(err.msg, "dictionary index bit width 40 > 32");
  CHV_CHECK(chv_pq_rle_init_dict(&d, dw, 0, 8, &err) == CHV_ECORRUPT);
  CHV_CHECK_OK(chv_pq_rle_init_dict(&d, dw, 0, 0, &err), &err);
  /* a length prefix longer than the span */
  const uint8_t pre[] = {10, 0, 0, 0, 0x10, 1};
  size_t used;
  CHV_CHECK(chv_pq_rle_init_prefixed(&d, pre, sizeof pre, 1, 8, &used,
                                     &err) == CHV_ECORRUPT);
  CHV_CHECK(chv_pq_rle_init_prefixed(&d, pre, 3, 1, 8, &used, &err) ==
            CHV_ECORRUPT);
  /* data ends early */
  const uint8_t shortrun[] = {0x10, 0x01};
  CHV_REQUIRE_OK(chv_pq_rle_init(&d, shortrun, 2, 1, 20, &err), &err);
  CHV_CHECK(chv_pq_rle_next(&d, 20, out, &err) == CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "RLE data ends with 12 values still expected");
  /* an overlong varint */
  const uint8_t vl[] = {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
                        0x80, 0x80, 0x80, 0x01};
  CHV_REQUIRE_OK(chv_pq_rle_init(&d, vl, sizeof vl, 1, 20, &err), &err);
  CHV_CHECK(chv_pq_rle_next(&d, 1, out, &err) == CHV_ECORRUPT);
  /* zero-length runs are passed over, not looped on */
  const uint8_t zeros[] = {0x00, 0x00, 0x01, 0x01, 0x10, 0x01};
  CHV_REQUIRE_OK(chv_pq_rle_init(&d, zeros, sizeof zeros, 1, 8, &err), &err);
  CHV_CHECK_OK(chv_pq_rle_next(&d, 8, out, &err), &err);
  CHV_CHECK(out[0] == 1 && out[7] == 1);
  /* a short last bit-packed run still gives the values it holds */
  const uint8_t cut[] = {0x05, 0xAA}; /* 2 groups claimed, 1 byte present */
  CHV_REQUIRE_OK(chv_pq_rle_init(&d, cut, sizeof cut, 1, 12, &err), &err);
  CHV_CHECK_OK(chv_pq_rle_next(&d, 8, out, &err), &err);
  CHV_CHECK(out[0] == 0 && out[1] == 1 && out[7] == 1);
  CHV_REQUIRE_OK(chv_pq_rle_init(&d, cut, sizeof cut, 1, 16, &err), &err);
  CHV_CHECK(chv_pq_rle_next(&d, 16, out, &err) == CHV_ECORRUPT);
}

/* Truncating an encoded stream anywhere either fails or still decodes (a
** bit-packed tail may be cut inside its padding); garbage never crashes. */
static void test_rle_truncation_and_garbage(void) {
  struct chv_error err = {0};
  size_t n = 600;
  uint32_t v[600], out[600];
  for (int w = 1; w <= 32; w += 3) {
    make_levels(v, n, w);
    struct chv_buf b;
    chv_buf_init(&b);
    CHV_REQUIRE_OK(chv_pq_rle_encode(v, n, w, &b, &err), &err);
    for (size_t cut = 0; cut < b.len; cut++) {
      uint8_t *copy = malloc(cut ? cut : 1);
      memcpy(copy, b.data, cut);
      struct chv_pq_rle_dec d;
      CHV_REQUIRE_OK(chv_pq_rle_init(&d, copy, cut, w, n, &err), &err);
      int rc = chv_pq_rle_next(&d, n, out, &err);
      if (rc == CHV_OK) CHV_CHECK(memcmp(out, v, n * 4) == 0);
      else CHV_CHECK(rc == CHV_ECORRUPT);
      free(copy);
    }
    chv_buf_free(&b);
  }
  for (int t = 0; t < 3000; t++) {
    size_t len = rnd() % 64;
    uint8_t *g = malloc(len + 1);
    for (size_t i = 0; i < len; i++) g[i] = (uint8_t)rnd();
    int w = (int)(rnd() % 33);
    struct chv_pq_rle_dec d;
    CHV_REQUIRE_OK(chv_pq_rle_init(&d, g, len, w, n, &err), &err);
    size_t k = 1 + rnd() % n;
    int rc = chv_pq_rle_next(&d, k, out, &err);
    CHV_CHECK(rc == CHV_OK || rc == CHV_ECORRUPT);
    uint64_t c;
    CHV_REQUIRE_OK(chv_pq_rle_init(&d, g, len, w, n, &err), &err);
    rc = chv_pq_rle_count_eq(&d, k, 0, &c, &err);
    CHV_CHECK(rc == CHV_OK || rc == CHV_ECORRUPT);
    free(g);
  }
}

/* ---- PLAIN ------------------------------------------------------------- */

static void test_plain(void) {
  struct chv_error err = {0};
  struct chv_buf b;
  chv_buf_init(&b);
  /* booleans, read back in batches that start mid-byte */
  uint8_t bools[77], bb[77];
  for (int i = 0; i < 77; i++) bools[i] = (uint8_t)(rnd() & 1);
  CHV_REQUIRE_OK(chv_pq_plain_encode_bool(bools, 77, &b, &err), &err);
  CHV_CHECK(b.len == 10);
  struct chv_pq_plain_dec d;
  chv_pq_plain_init(&d, (const uint8_t *)b.data, b.len);
  CHV_REQUIRE_OK(chv_pq_plain_next_bool(&d, 3, bb, &err), &err);
  CHV_REQUIRE_OK(chv_pq_plain_next_bool(&d, 2, NULL, &err), &err);
  CHV_REQUIRE_OK(chv_pq_plain_next_bool(&d, 60, bb + 5, &err), &err);
  CHV_REQUIRE_OK(chv_pq_plain_next_bool(&d, 12, bb + 65, &err), &err);
  CHV_CHECK(memcmp(bb, bools, 3) == 0 && memcmp(bb + 5, bools + 5, 72) == 0);
  CHV_CHECK(chv_pq_plain_next_bool(&d, 4, bb, &err) == CHV_ECORRUPT);
  /* fixed width */
  chv_buf_reset(&b);
  int64_t v64[50], o64[50];
  for (int i = 0; i < 50; i++) v64[i] = (int64_t)rnd();
  CHV_REQUIRE_OK(chv_pq_plain_encode_fixed(v64, 50, 8, &b, &err), &err);
  chv_pq_plain_init(&d, (const uint8_t *)b.data, b.len);
  CHV_REQUIRE_OK(chv_pq_plain_next_fixed(&d, 8, 20, o64, &err), &err);
  CHV_REQUIRE_OK(chv_pq_plain_next_fixed(&d, 8, 30, o64 + 20, &err), &err);
  CHV_CHECK(memcmp(o64, v64, sizeof v64) == 0);
  CHV_CHECK(chv_pq_plain_remaining(&d) == 0);
  CHV_CHECK(chv_pq_plain_next_fixed(&d, 8, 1, o64, &err) == CHV_ECORRUPT);
  chv_pq_plain_init(&d, (const uint8_t *)b.data, b.len);
  CHV_CHECK(chv_pq_plain_next_fixed(&d, 12, 34, o64, &err) == CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "34 values of 12 bytes exceed the 400 bytes");
  CHV_CHECK(chv_pq_plain_next_fixed(&d, 0, 1, o64, &err) == CHV_ECORRUPT);
  /* byte arrays */
  const char *words[] = {"", "a", "hello", "", "parquet encodings"};
  char heap[64];
  int32_t offs[6] = {0};
  for (int i = 0; i < 5; i++) {
    memcpy(heap + offs[i], words[i], strlen(words[i]));
    offs[i + 1] = offs[i] + (int32_t)strlen(words[i]);
  }
  chv_buf_reset(&b);
  CHV_REQUIRE_OK(chv_pq_plain_encode_ba(heap, offs, 5, &b, &err), &err);
  CHV_CHECK(b.len == 5 * 4 + 23);
  uint32_t o[5], l[5];
  uint64_t total;
  chv_pq_plain_init(&d, (const uint8_t *)b.data, b.len);
  CHV_REQUIRE_OK(chv_pq_plain_next_ba(&d, 5, o, l, &total, &err), &err);
  CHV_CHECK(total == 23);
  for (int i = 0; i < 5; i++) {
    CHV_CHECK(l[i] == strlen(words[i]));
    CHV_CHECK(memcmp(b.data + o[i], words[i], l[i]) == 0);
  }
  for (size_t cut = 0; cut < b.len; cut++) {
    chv_pq_plain_init(&d, (const uint8_t *)b.data, cut);
    CHV_CHECK(chv_pq_plain_next_ba(&d, 5, o, l, NULL, &err) == CHV_ECORRUPT);
  }
  /* a length past the end */
  uint8_t bad[8] = {0xFF, 0xFF, 0xFF, 0x7F, 'a', 'b', 'c', 'd'};
  chv_pq_plain_init(&d, bad, 8);
  CHV_CHECK(chv_pq_plain_next_ba(&d, 1, o, l, NULL, &err) == CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "exceeds the 4 bytes left");
  chv_buf_free(&b);
}

/* ---- DELTA_BINARY_PACKED ----------------------------------------------- */

/* The two examples of Encodings.md (block size 8, one miniblock of 8: not
** what writers use, but the decoder reads them). */
static void test_delta_spec_examples(void) {
  struct chv_error err = {0};
  struct chv_pq_delta_dec d;
  const uint8_t ex1[] = {8, 1, 5, 2, 2, 0};
  int64_t out[8];
  CHV_REQUIRE_OK(chv_pq_delta_init(&d, ex1, sizeof ex1, &err), &err);
  CHV_CHECK(chv_pq_delta_total(&d) == 5);
  CHV_REQUIRE_OK(chv_pq_delta_next_i64(&d, 5, out, &err), &err);
  for (int i = 0; i < 5; i++) CHV_CHECK(out[i] == i + 1);
  const uint8_t *end;
  CHV_REQUIRE_OK(chv_pq_delta_init(&d, ex1, sizeof ex1, &err), &err);
  CHV_REQUIRE_OK(chv_pq_delta_end(&d, &end, &err), &err);
  CHV_CHECK(end == ex1 + sizeof ex1);
  /* 7, 5, 3, 1, 2, 3, 4, 5: min delta -2, width 2, 0,0,0,3,3,3,3 */
  const uint8_t ex2[] = {8, 1, 8, 14, 3, 2, 0xC0, 0x3F};
  CHV_REQUIRE_OK(chv_pq_delta_init(&d, ex2, sizeof ex2, &err), &err);
  int32_t o32[8];
  CHV_REQUIRE_OK(chv_pq_delta_next_i32(&d, 8, o32, &err), &err);
  const int32_t want[8] = {7, 5, 3, 1, 2, 3, 4, 5};
  CHV_CHECK(memcmp(o32, want, sizeof want) == 0);
  CHV_REQUIRE_OK(chv_pq_delta_init(&d, ex2, sizeof ex2, &err), &err);
  CHV_REQUIRE_OK(chv_pq_delta_end(&d, &end, &err), &err);
  CHV_CHECK(end == ex2 + sizeof ex2);
  /* the same values through our writer read back */
  struct chv_buf b;
  chv_buf_init(&b);
  CHV_REQUIRE_OK(chv_pq_delta_encode_i32(want, 8, &b, &err), &err);
  CHV_REQUIRE_OK(
      chv_pq_delta_init(&d, (const uint8_t *)b.data, b.len, &err), &err);
  CHV_REQUIRE_OK(chv_pq_delta_next_i32(&d, 8, o32, &err), &err);
  CHV_CHECK(memcmp(o32, want, sizeof want) == 0);
  chv_buf_free(&b);
}

static void delta_roundtrip64(const int64_t *v, size_t n) {
  struct chv_error err = {0};
  struct chv_buf b;
  chv_buf_init(&b);
  CHV_REQUIRE_OK(chv_pq_delta_encode_i64(v, n, &b, &err), &err);
  int64_t *out = malloc((n + 1) * 8);
  struct chv_pq_delta_dec d;
  CHV_REQUIRE_OK(
      chv_pq_delta_init(&d, (const uint8_t *)b.data, b.len, &err), &err);
  CHV_CHECK(chv_pq_delta_total(&d) == n);
  for (size_t i = 0; i < n;) {
    size_t k = batch(n - i, 150);
    if (rnd() % 4 == 0) {
      CHV_REQUIRE_OK(chv_pq_delta_skip(&d, k, &err), &err);
      memcpy(out + i, v + i, k * 8);
    } else {
      CHV_REQUIRE_OK(chv_pq_delta_next_i64(&d, k, out + i, &err), &err);
    }
    i += k;
  }
  CHV_CHECK(n == 0 || memcmp(out, v, n * 8) == 0);
  CHV_CHECK(chv_pq_delta_next_i64(&d, 1, out, &err) == CHV_ECORRUPT);
  const uint8_t *end;
  CHV_REQUIRE_OK(
      chv_pq_delta_init(&d, (const uint8_t *)b.data, b.len, &err), &err);
  CHV_REQUIRE_OK(chv_pq_delta_end(&d, &end, &err), &err);
  CHV_CHECK(end == (const uint8_t *)b.data + b.len);
  free(out);
  chv_buf_free(&b);
}

static void delta_roundtrip32(const int32_t *v, size_t n) {
  struct chv_error err = {0};
  struct chv_buf b;
  chv_buf_init(&b);
  CHV_REQUIRE_OK(chv_pq_delta_encode_i32(v, n, &b, &err), &err);
  int32_t *out = malloc((n + 1) * 4);
  struct chv_pq_delta_dec d;
  CHV_REQUIRE_OK(
      chv_pq_delta_init(&d, (const uint8_t *)b.data, b.len, &err), &err);
  for (size_t i = 0; i < n;) {
    size_t k = batch(n - i, 300);
    CHV_REQUIRE_OK(chv_pq_delta_next_i32(&d, k, out + i, &err), &err);
    i += k;
  }
  CHV_CHECK(n == 0 || memcmp(out, v, n * 4) == 0);
  /* every miniblock's width stays within 32 bits */
  free(out);
  chv_buf_free(&b);
}

static void test_delta_roundtrip(void) {
  static const size_t ns[] = {0, 1, 2, 31, 32, 33, 127, 128, 129, 1000, 4097};
  for (size_t t = 0; t < CHV_ARRAY_SIZE(ns); t++) {
    size_t n = ns[t];
    int64_t *v = malloc((n + 1) * 8);
    int32_t *v32 = malloc((n + 1) * 4);
    for (int kind = 0; kind < 6; kind++) {
      for (size_t i = 0; i < n; i++) {
        switch (kind) {
        case 0: v[i] = (int64_t)rnd(); break;                  /* 64 bits */
        case 1: v[i] = (int64_t)(i * 7 + 3); break;             /* sorted */
        case 2: v[i] = 42; break;                               /* constant */
        case 3: v[i] = i % 2 ? INT64_MAX : INT64_MIN; break;    /* wraps */
        case 4: v[i] = (int64_t)(rnd() % 1000) - 500; break;    /* small */
        default: v[i] = (int64_t)(rnd() & mask_of((int)(i % 65))); break;
        }
        v32[i] = (int32_t)(uint32_t)v[i];
      }
      delta_roundtrip64(v, n);
      delta_roundtrip32(v32, n);
    }
    free(v);
    free(v32);
  }
}

static void test_delta_errors(void) {
  struct chv_error err = {0};
  struct chv_pq_delta_dec d;
  int64_t out[300];
  /* a miniblock bit width of 70 */
  const uint8_t w70[] = {128, 1, 4, 32, 0, 2, 70, 0, 0, 0};
  CHV_REQUIRE_OK(chv_pq_delta_init(&d, w70, sizeof w70, &err), &err);
  CHV_CHECK(chv_pq_delta_next_i64(&d, 4, out, &err) == CHV_ECORRUPT);
  CHV_CHECK_STREQ(err.msg, "delta block bit width 70 > 64");
  /* block sizes */
  const uint8_t bs0[] = {0, 1, 4, 2};
  CHV_CHECK(chv_pq_delta_init(&d, bs0, sizeof bs0, &err) == CHV_ECORRUPT);
  const uint8_t bsbig[] = {0x80, 0x80, 0x80, 0x80, 0x01, 1, 4, 2};
  CHV_CHECK(chv_pq_delta_init(&d, bsbig, sizeof bsbig, &err) == CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "delta block size 268435456 is not in");
  const uint8_t mini3[] = {128, 1, 3, 4, 2};
  CHV_CHECK(chv_pq_delta_init(&d, mini3, sizeof mini3, &err) == CHV_ECORRUPT);
  const uint8_t mini0[] = {128, 1, 0, 4, 2};
  CHV_CHECK(chv_pq_delta_init(&d, mini0, sizeof mini0, &err) == CHV_ECORRUPT);
  const uint8_t odd[] = {128, 1, 32, 4, 2}; /* miniblocks of 4 values */
  CHV_CHECK(chv_pq_delta_init(&d, odd, sizeof odd, &err) == CHV_ECORRUPT);
  /* a huge count with no blocks behind it */
  const uint8_t many[] = {128, 1, 4, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F, 2};
  CHV_REQUIRE_OK(chv_pq_delta_init(&d, many, sizeof many, &err), &err);
  CHV_CHECK(chv_pq_delta_next_i64(&d, 300, out, &err) == CHV_ECORRUPT);
  const uint8_t *end;
  CHV_REQUIRE_OK(chv_pq_delta_init(&d, many, sizeof many, &err), &err);
  CHV_CHECK(chv_pq_delta_end(&d, &end, &err) == CHV_ECORRUPT);
  /* a 64-bit overlong varint */
  const uint8_t vl[] = {128, 1, 4, 2, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
                        0xFF, 0xFF, 0xFF, 0xFF, 0x7F};
  CHV_CHECK(chv_pq_delta_init(&d, vl, sizeof vl, &err) == CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "exceeds 64 bits");
  /* the last miniblock may be short of its padding for plain decoding, but
  ** not when the stream's end is needed */
  int64_t v[40];
  for (int i = 0; i < 40; i++) v[i] = i * 1000;
  struct chv_buf b;
  chv_buf_init(&b);
  CHV_REQUIRE_OK(chv_pq_delta_encode_i64(v, 40, &b, &err), &err);
  /* 7 deltas in miniblock 1, at width 0: v is linear, so use noise */
  for (int i = 0; i < 40; i++) v[i] = (int64_t)(rnd() % 100000);
  chv_buf_reset(&b);
  CHV_REQUIRE_OK(chv_pq_delta_encode_i64(v, 40, &b, &err), &err);
  size_t full = b.len;
  CHV_REQUIRE_OK(chv_pq_delta_init(&d, (const uint8_t *)b.data, full - 10,
                                   &err),
                 &err);
  CHV_CHECK_OK(chv_pq_delta_next_i64(&d, 40, out, &err), &err);
  CHV_CHECK(memcmp(out, v, sizeof v) == 0);
  CHV_REQUIRE_OK(chv_pq_delta_init(&d, (const uint8_t *)b.data, full - 10,
                                   &err),
                 &err);
  CHV_CHECK(chv_pq_delta_end(&d, &end, &err) == CHV_ECORRUPT);
  /* truncation at every byte */
  for (size_t cut = 0; cut < full; cut++) {
    uint8_t *copy = malloc(cut ? cut : 1);
    memcpy(copy, b.data, cut);
    int rc = chv_pq_delta_init(&d, copy, cut, &err);
    if (rc == CHV_OK) rc = chv_pq_delta_next_i64(&d, 40, out, &err);
    if (rc == CHV_OK) CHV_CHECK(memcmp(out, v, sizeof v) == 0);
    else CHV_CHECK(rc == CHV_ECORRUPT);
    free(copy);
  }
  chv_buf_free(&b);
  /* garbage */
  for (int t = 0; t < 3000; t++) {
    uint8_t g[48];
    size_t len = rnd() % sizeof g;
    for (size_t i = 0; i < len; i++) g[i] = (uint8_t)rnd();
    if (len > 2 && rnd() % 2) g[0] = 128, g[1] = (uint8_t)(1 << (rnd() % 3));
    if (chv_pq_delta_init(&d, g, len, &err) != CHV_OK) continue;
    size_t k = (size_t)CHV_MIN(chv_pq_delta_total(&d), (uint64_t)300);
    int rc = chv_pq_delta_next_i64(&d, k, out, &err);
    CHV_CHECK(rc == CHV_OK || rc == CHV_ECORRUPT);
    CHV_REQUIRE_OK(chv_pq_delta_init(&d, g, len, &err), &err);
    rc = chv_pq_delta_end(&d, &end, &err);
    CHV_CHECK(rc == CHV_OK || rc == CHV_ECORRUPT);
  }
}

/* ---- DELTA_LENGTH_BYTE_ARRAY / DELTA_BYTE_ARRAY ------------------------ */

static void make_strings(size_t n, char **heap, int32_t **offs) {
  static const char *stems[] = {"axis", "axle", "babble", "babyhood", "",
                                "customer", "customers", "x"};
  *heap = malloc(n * 24 + 1);
  *offs = malloc((n + 1) * sizeof **offs);
  (*offs)[0] = 0;
  for (size_t i = 0; i < n; i++) {
    const char *s = stems[rnd() % CHV_ARRAY_SIZE(stems)];
    int len = sprintf(*heap + (*offs)[i], "%s%d", s, (int)(rnd() % 50));
    if (rnd() % 7 == 0) len = 0;
    (*offs)[i + 1] = (*offs)[i] + len;
  }
}

static void test_dlba(void) {
  struct chv_error err = {0};
  /* the spec's example: Hello World Foobar ABCDEF */
  const char *hw = "HelloWorldFoobarABCDEF";
  int32_t offs[5] = {0, 5, 10, 16, 22};
  struct chv_buf b;
  chv_buf_init(&b);
  CHV_REQUIRE_OK(chv_pq_dlba_encode(hw, offs, 4, &b, &err), &err);
  CHV_CHECK(b.len > 22 && memcmp(b.data + b.len - 22, hw, 22) == 0);
  struct chv_pq_dlba_dec d;
  CHV_REQUIRE_OK(chv_pq_dlba_init(&d, (const uint8_t *)b.data, b.len, &err),
                 &err);
  CHV_CHECK(chv_pq_dlba_total(&d) == 4);
  uint32_t o[4], l[4];
  uint64_t total;
  CHV_REQUIRE_OK(chv_pq_dlba_next(&d, 4, o, l, &total, &err), &err);
  CHV_CHECK(total == 22 && l[0] == 5 && l[2] == 6);
  CHV_CHECK(memcmp(b.data + o[2], "Foobar", 6) == 0);
  /* random, in batches */
  for (int round = 0; round < 20; round++) {
    size_t n = rnd() % 700;
    char *heap;
    int32_t *of;
    make_strings(n, &heap, &of);
    chv_buf_reset(&b);
    CHV_REQUIRE_OK(chv_pq_dlba_encode(heap, of, n, &b, &err), &err);
    CHV_REQUIRE_OK(
        chv_pq_dlba_init(&d, (const uint8_t *)b.data, b.len, &err), &err);
    uint32_t *oo = malloc((n + 1) * 4), *ll = malloc((n + 1) * 4);
    for (size_t i = 0; i < n;) {
      size_t k = batch(n - i, 100);
      CHV_REQUIRE_OK(chv_pq_dlba_next(&d, k, oo + i, ll + i, NULL, &err),
                     &err);
      i += k;
    }
    for (size_t i = 0; i < n; i++) {
      CHV_CHECK(ll[i] == (uint32_t)(of[i + 1] - of[i]));
      CHV_CHECK(memcmp(b.data + oo[i], heap + of[i], ll[i]) == 0);
    }
    /* truncation: lengths or bytes missing */
    for (size_t cut = 0; cut < b.len; cut += 1 + cut / 16) {
      int rc = chv_pq_dlba_init(&d, (const uint8_t *)b.data, cut, &err);
      if (rc == CHV_OK) rc = chv_pq_dlba_next(&d, n, oo, ll, NULL, &err);
      CHV_CHECK(rc == CHV_ECORRUPT);
    }
    free(oo);
    free(ll);
    free(heap);
    free(of);
  }
  chv_buf_free(&b);
}

static void test_dba(void) {
  struct chv_error err = {0};
  /* the spec's example: axis axle babble babyhood */
  const char *words = "axisaxlebabblebabyhood";
  int32_t offs[5] = {0, 4, 8, 14, 22};
  struct chv_buf b, heap;
  chv_buf_init(&b);
  chv_buf_init(&heap);
  CHV_REQUIRE_OK(chv_pq_dba_encode(words, offs, 4, &b, &err), &err);
  /* prefixes 0 2 0 3, suffix lengths 4 2 6 5, then "axislebabbleyhood" */
  struct chv_pq_delta_dec pd;
  int32_t p[4];
  CHV_REQUIRE_OK(chv_pq_delta_init(&pd, (const uint8_t *)b.data, b.len, &err),
                 &err);
  CHV_REQUIRE_OK(chv_pq_delta_next_i32(&pd, 4, p, &err), &err);
  CHV_CHECK(p[0] == 0 && p[1] == 2 && p[2] == 0 && p[3] == 3);
  CHV_CHECK(memcmp(b.data + b.len - 17, "axislebabbleyhood", 17) == 0);
  struct chv_pq_dba_dec d;
  CHV_REQUIRE_OK(chv_pq_dba_init(&d, (const uint8_t *)b.data, b.len, &err),
                 &err);
  int32_t ho[5];
  CHV_REQUIRE_OK(chv_pq_dba_next(&d, 4, &heap, ho, &err), &err);
  CHV_CHECK(heap.len == 22 && memcmp(heap.data, words, 22) == 0);
  CHV_CHECK(ho[0] == 0 && ho[1] == 4 && ho[4] == 22);
  chv_pq_dba_free(&d);
  for (int round = 0; round < 20; round++) {
    size_t n = rnd() % 700;
    char *h;
    int32_t *of;
    make_strings(n, &h, &of);
    chv_buf_reset(&b);
    CHV_REQUIRE_OK(chv_pq_dba_encode(h, of, n, &b, &err), &err);
    CHV_REQUIRE_OK(chv_pq_dba_init(&d, (const uint8_t *)b.data, b.len, &err),
                   &err);
    chv_buf_reset(&heap);
    chv_buf_append(&heap, "zz", 2); /* values land after what is there */
    int32_t *oo = malloc((n + 1) * 4);
    for (size_t i = 0; i < n;) {
      size_t k = batch(n - i, 100);
      CHV_REQUIRE_OK(chv_pq_dba_next(&d, k, &heap, oo + i, &err), &err);
      i += k;
    }
    CHV_CHECK(heap.len == 2 + (size_t)of[n]);
    CHV_CHECK(n == 0 || memcmp(heap.data + 2, h, (size_t)of[n]) == 0);
    for (size_t i = 0; i <= n; i++) CHV_CHECK(oo[i] == 2 + of[i]);
    chv_pq_dba_free(&d);
    for (size_t cut = 0; cut < b.len; cut += 1 + cut / 16) {
      chv_buf_reset(&heap);
      int rc = chv_pq_dba_init(&d, (const uint8_t *)b.data, cut, &err);
      if (rc == CHV_OK) rc = chv_pq_dba_next(&d, n, &heap, oo, &err);
      CHV_CHECK(rc == CHV_ECORRUPT);
      chv_pq_dba_free(&d);
    }
    free(oo);
    free(h);
    free(of);
  }
  /* a prefix longer than the previous value */
  int32_t bad_pre[2] = {0, 5}, sl[2] = {2, 1};
  chv_buf_reset(&b);
  chv_pq_delta_encode_i32(bad_pre, 2, &b, &err);
  chv_pq_delta_encode_i32(sl, 2, &b, &err);
  chv_buf_append(&b, "abc", 3);
  CHV_REQUIRE_OK(chv_pq_dba_init(&d, (const uint8_t *)b.data, b.len, &err),
                 &err);
  chv_buf_reset(&heap);
  CHV_CHECK(chv_pq_dba_next(&d, 2, &heap, ho, &err) == CHV_ECORRUPT);
  CHV_CHECK_STREQ(err.msg, "DELTA_BYTE_ARRAY: prefix of 5 bytes for value 1 "
                           "exceeds the previous value's 2 bytes");
  chv_pq_dba_free(&d);
  /* counts that disagree */
  int32_t three[3] = {1, 1, 1};
  chv_buf_reset(&b);
  chv_pq_delta_encode_i32(bad_pre, 2, &b, &err);
  chv_pq_delta_encode_i32(three, 3, &b, &err);
  chv_buf_append(&b, "abc", 3);
  CHV_CHECK(chv_pq_dba_init(&d, (const uint8_t *)b.data, b.len, &err) ==
            CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "2 prefix lengths and 3 suffixes");
  chv_pq_dba_free(&d);
  chv_buf_free(&b);
  chv_buf_free(&heap);
}

/* ---- BYTE_STREAM_SPLIT, FLOAT16 ---------------------------------------- */

static void test_bss(void) {
  struct chv_error err = {0};
  /* the spec's example: three floats AABBCCDD 00112233 A3B4C5D6 */
  const uint8_t enc[] = {0xAA, 0x00, 0xA3, 0xBB, 0x11, 0xB4,
                         0xCC, 0x22, 0xC5, 0xDD, 0x33, 0xD6};
  const uint8_t dec[] = {0xAA, 0xBB, 0xCC, 0xDD, 0x00, 0x11,
                         0x22, 0x33, 0xA3, 0xB4, 0xC5, 0xD6};
  struct chv_pq_bss_dec d;
  uint8_t out[12];
  CHV_REQUIRE_OK(chv_pq_bss_init(&d, enc, 12, 4, &err), &err);
  CHV_REQUIRE_OK(chv_pq_bss_next(&d, 1, out, &err), &err);
  CHV_REQUIRE_OK(chv_pq_bss_next(&d, 2, out + 4, &err), &err);
  CHV_CHECK(memcmp(out, dec, 12) == 0);
  CHV_CHECK(chv_pq_bss_next(&d, 1, out, &err) == CHV_ECORRUPT);
  struct chv_buf b;
  chv_buf_init(&b);
  CHV_REQUIRE_OK(chv_pq_bss_encode(dec, 3, 4, &b, &err), &err);
  CHV_CHECK(b.len == 12 && memcmp(b.data, enc, 12) == 0);
  static const size_t ks[] = {1, 2, 3, 4, 5, 8, 12, 16};
  for (size_t t = 0; t < CHV_ARRAY_SIZE(ks); t++) {
    size_t k = ks[t], n = 1 + rnd() % 500;
    uint8_t *v = malloc(n * k), *o = malloc(n * k);
    for (size_t i = 0; i < n * k; i++) v[i] = (uint8_t)rnd();
    chv_buf_reset(&b);
    CHV_REQUIRE_OK(chv_pq_bss_encode(v, n, k, &b, &err), &err);
    CHV_REQUIRE_OK(
        chv_pq_bss_init(&d, (const uint8_t *)b.data, b.len, k, &err), &err);
    size_t half = n / 3;
    CHV_REQUIRE_OK(chv_pq_bss_next(&d, half, o, &err), &err);
    CHV_REQUIRE_OK(chv_pq_bss_next(&d, n - half, o + half * k, &err), &err);
    CHV_CHECK(memcmp(o, v, n * k) == 0);
    if (k > 1)
      CHV_CHECK(chv_pq_bss_init(&d, (const uint8_t *)b.data, b.len - 1, k,
                                &err) == CHV_ECORRUPT);
    free(v);
    free(o);
  }
  CHV_CHECK(chv_pq_bss_init(&d, enc, 12, 0, &err) == CHV_ECORRUPT);
  chv_buf_free(&b);
}

static void test_float16(void) {
  CHV_CHECK(chv_pq_half_to_float(0x3C00) == 1.0f);
  CHV_CHECK(chv_pq_half_to_float(0xC000) == -2.0f);
  CHV_CHECK(chv_pq_half_to_float(0x7BFF) == 65504.0f);
  CHV_CHECK(chv_pq_half_to_float(0x0001) == 0x1p-24f);
  CHV_CHECK(chv_pq_half_to_float(0x03FF) == 1023 * 0x1p-24f);
  CHV_CHECK(chv_pq_half_to_float(0x0400) == 0x1p-14f);
  CHV_CHECK(chv_pq_half_to_float(0x8001) == -0x1p-24f);
  CHV_CHECK(chv_pq_half_to_float(0x3555) == 0x1.554p-2f);
  float z = chv_pq_half_to_float(0x0000), nz = chv_pq_half_to_float(0x8000);
  CHV_CHECK(z == 0.0f && !signbit(z));
  CHV_CHECK(nz == 0.0f && signbit(nz));
  CHV_CHECK(isinf(chv_pq_half_to_float(0x7C00)) &&
            chv_pq_half_to_float(0x7C00) > 0);
  CHV_CHECK(isinf(chv_pq_half_to_float(0xFC00)) &&
            chv_pq_half_to_float(0xFC00) < 0);
  CHV_CHECK(isnan(chv_pq_half_to_float(0x7E00)));
  CHV_CHECK(isnan(chv_pq_half_to_float(0xFC01)));
  /* every finite half round-trips through float back to the same bits */
  for (uint32_t h = 0; h < 0x10000; h++) {
    float f = chv_pq_half_to_float((uint16_t)h);
    if (isnan(f)) continue;
    uint32_t bits;
    memcpy(&bits, &f, 4);
    /* float -> half, exact for these values */
    uint32_t sign = (bits >> 16) & 0x8000, e = (bits >> 23) & 0xff;
    uint32_t m = bits & 0x7fffff, back;
    if (e == 0xff) back = sign | 0x7c00;
    else if (e == 0) back = sign;
    else if (e < 113) back = sign | ((m | 0x800000) >> (126 - e));
    else back = sign | (e - 112) << 10 | m >> 13;
    CHV_CHECK(back == h);
  }
  const uint8_t le[4] = {0x00, 0x3C, 0x00, 0xC0};
  float two[2];
  chv_pq_half_to_float_n(le, 2, two);
  CHV_CHECK(two[0] == 1.0f && two[1] == -2.0f);
}

/* ---- parquet-testing pages --------------------------------------------- */

/* Split one CSV line into fields (quotes stripped); returns the count. */
static int csv_fields(char *line, char **f, int max) {
  int n = 0;
  char *p = line;
  while (n < max) {
    if (*p == '"') {
      char *s = ++p, *d = p;
      while (*p && !(*p == '"' && p[1] != '"')) {
        if (*p == '"') p++;
        *d++ = *p++;
      }
      if (*p == '"') p++;
      *d = '\0';
      f[n++] = s;
    } else {
      f[n++] = p;
      while (*p && *p != ',' && *p != '\n' && *p != '\r') p++;
    }
    if (*p != ',') {
      *p = '\0';
      break;
    }
    *p++ = '\0';
  }
  return n;
}

/* Expected values: rows of fields, from a CSV with a header line. */
struct expect {
  char *text;
  char *cells[1100][70];
  int rows, cols;
};

static struct expect *load_expect(const char *name) {
  size_t len;
  char path[128];
  snprintf(path, sizeof path, "expected/%s", name);
  uint8_t *t = pw_load(path, &len);
  if (t == NULL) return NULL;
  t[len] = 0;
  struct expect *e = calloc(1, sizeof *e);
  e->text = (char *)t;
  char *line = e->text, *next;
  for (int r = -1; line && *line && r < 1100; r++, line = next) {
    next = strchr(line, '\n');
    if (next) *next++ = '\0';
    char *f[70];
    int n = csv_fields(line, f, 70);
    if (r < 0) {
      e->cols = n;
      continue;
    }
    for (int c = 0; c < n; c++) e->cells[r][c] = f[c];
    e->rows = r + 1;
  }
  return e;
}

/* CHV_REQUIRE_OK for the page callbacks, which return nonzero to stop. */
#define PAGE_OK(expr, errp)                                                   \
  do {                                                                        \
    int page_rc_ = (expr);                                                    \
    if (page_rc_ != 0) {                                                      \
      fprintf(stderr, "%s:%d: %s returned %d: %s\n", __FILE__, __LINE__,     \
              #expr, page_rc_, (errp)->msg);                                  \
      chv_test_failed_ = 1;                                                   \
      return 1;                                                               \
    }                                                                         \
  } while (0)

struct page_check {
  struct expect *e;
  int col, row;      /* where the next page's values go */
  int pages;
  bool strings;      /* DELTA_BYTE_ARRAY columns */
  int int32_cols;    /* leading INT32 columns (the rest are strings) */
  bool last_is_i32;  /* delta_binary_packed: its last column is INT32 */
};

static int check_delta_page(void *arg, const struct pw_page *pg) {
  struct page_check *c = arg;
  struct chv_error err = {0};
  if (pg->type != 3) return 0;
  int64_t nv = pg->hdr[2][1], nulls = pg->hdr[2][2];
  size_t skip = (size_t)(pg->hdr[2][5] + pg->hdr[2][6]);
  CHV_CHECK(nulls == 0);
  const uint8_t *vals = pg->data + skip;
  size_t len = (size_t)pg->compressed - skip;
  bool is_string = c->int32_cols ? c->col >= c->int32_cols : false;
  bool is32 = c->int32_cols ? true : c->last_is_i32 && c->col == c->e->cols - 1;
  if (!is_string) {
    struct chv_pq_delta_dec d;
    PAGE_OK(chv_pq_delta_init(&d, vals, len, &err), &err);
    CHV_CHECK((int64_t)chv_pq_delta_total(&d) == nv);
    for (int64_t i = 0; i < nv; i++) {
      int64_t v;
      if (is32) {
        int32_t v32;
        PAGE_OK(chv_pq_delta_next_i32(&d, 1, &v32, &err), &err);
        v = v32;
      } else {
        PAGE_OK(chv_pq_delta_next_i64(&d, 1, &v, &err), &err);
      }
      long long want = strtoll(c->e->cells[c->row + i][c->col], NULL, 10);
      if (v != want)
        fprintf(stderr, "col %d row %lld: %lld != %lld\n", c->col,
                (long long)(c->row + i), (long long)v, want);
      CHV_CHECK(v == want);
    }
    /* and the whole page in one call, plus where the stream ends */
    int64_t *all = malloc((size_t)(nv + 1) * 8);
    PAGE_OK(chv_pq_delta_init(&d, vals, len, &err), &err);
    CHV_CHECK_OK(is32 ? chv_pq_delta_next_i32(&d, (size_t)nv, (int32_t *)all,
                                              &err)
                      : chv_pq_delta_next_i64(&d, (size_t)nv, all, &err),
                 &err);
    free(all);
    const uint8_t *end;
    PAGE_OK(chv_pq_delta_init(&d, vals, len, &err), &err);
    CHV_CHECK_OK(chv_pq_delta_end(&d, &end, &err), &err);
    CHV_CHECK(end <= vals + len);
  } else {
    struct chv_pq_dba_dec d;
    struct chv_buf heap;
    chv_buf_init(&heap);
    int32_t *offs = malloc((size_t)(nv + 1) * 4);
    CHV_CHECK_OK(chv_pq_dba_init(&d, vals, len, &err), &err);
    CHV_CHECK_OK(chv_pq_dba_next(&d, (size_t)nv, &heap, offs, &err), &err);
    for (int64_t i = 0; i < nv && err.code == 0; i++) {
      const char *want = c->e->cells[c->row + i][c->col];
      size_t l = (size_t)(offs[i + 1] - offs[i]);
      CHV_CHECK(l == strlen(want) && memcmp(heap.data + offs[i], want, l) == 0);
    }
    free(offs);
    chv_pq_dba_free(&d);
    chv_buf_free(&heap);
  }
  c->row += (int)nv;
  if (c->row >= c->e->rows) {
    c->row = 0;
    c->col++;
  }
  c->pages++;
  return 0;
}

static void test_fixture_delta_binary_packed(void) {
  struct expect *e = load_expect("delta_binary_packed_expect.csv");
  if (e == NULL) {
    fprintf(stderr, "skip: delta_binary_packed_expect.csv not found\n");
    return;
  }
  CHV_CHECK(e->cols == 66 && e->rows == 200);
  struct page_check c = {.e = e, .last_is_i32 = true};
  int pages = pw_walk("delta_binary_packed.parquet", check_delta_page, &c);
  CHV_CHECK(pages > 0);
  CHV_CHECK(c.col == 66);
  free(e->text);
  free(e);
}

static void test_fixture_delta_required(void) {
  struct expect *e = load_expect("delta_encoding_required_column_expect.csv");
  if (e == NULL) {
    fprintf(stderr, "skip: delta_encoding_required_column_expect.csv\n");
    return;
  }
  CHV_CHECK(e->cols == 17 && e->rows == 100);
  struct page_check c = {.e = e, .int32_cols = 9};
  int pages =
      pw_walk("delta_encoding_required_column.parquet", check_delta_page, &c);
  CHV_CHECK(pages > 0);
  CHV_CHECK(c.col == 17);
  free(e->text);
  free(e);
}

/* delta_length_byte_array.parquet: one ZSTD v2 page of 1000 strings. */
static int check_dlba_page(void *arg, const struct pw_page *pg) {
  int *seen = arg;
  struct chv_error err = {0};
  if (pg->type != 3) return 0;
  size_t skip = (size_t)(pg->hdr[2][5] + pg->hdr[2][6]);
  size_t plain = (size_t)pg->uncompressed - skip;
  uint8_t *buf = malloc(plain + 1);
  PAGE_OK(chv_block_decompress(NULL, CHV_BLOCK_ZSTD, pg->data + skip,
                                      (size_t)pg->compressed - skip, buf, plain,
                                      &err),
                 &err);
  struct chv_pq_dlba_dec d;
  PAGE_OK(chv_pq_dlba_init(&d, buf, plain, &err), &err);
  size_t n = (size_t)chv_pq_dlba_total(&d);
  CHV_CHECK(n == (size_t)pg->hdr[2][1]);
  uint32_t *o = malloc(n * 4), *l = malloc(n * 4);
  uint64_t total;
  CHV_CHECK_OK(chv_pq_dlba_next(&d, n, o, l, &total, &err), &err);
  /* the bytes end exactly at the page's end */
  CHV_CHECK(n == 0 || o[n - 1] + l[n - 1] == plain);
  /* "apple_banana_mango" style values: every one is printable */
  for (size_t i = 0; i < n; i++)
    for (uint32_t k = 0; k < l[i]; k++)
      CHV_CHECK(buf[o[i] + k] >= 0x20 && buf[o[i] + k] < 0x7f);
  *seen += (int)n;
  free(o);
  free(l);
  free(buf);
  return 0;
}

static void test_fixture_dlba(void) {
  int seen = 0;
  int pages = pw_walk("delta_length_byte_array.parquet", check_dlba_page, &seen);
  if (pages == -1) return;
  CHV_CHECK(pages > 0);
  CHV_CHECK_EQ_INT(seen, 1000);
}

CHV_TEST_MAIN("pq_encoding", test_unpack_roundtrip, test_spec_bitpacking,
              test_rle_roundtrip, test_rle_compact, test_rle_errors,
              test_rle_truncation_and_garbage, test_plain,
              test_delta_spec_examples, test_delta_roundtrip,
              test_delta_errors, test_dlba, test_dba, test_bss, test_float16,
              test_fixture_delta_binary_packed, test_fixture_delta_required,
              test_fixture_dlba)
