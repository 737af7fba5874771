/* Tests of ORC's run-length encodings (src/format/orc/orc_rle.c): the
** byte examples of ORCv1.md for byte RLE, boolean RLE, integer RLE v1 and
** each RLE v2 sub-encoding, decoded and (but PATCHED_BASE's, whose choice
** is the encoder's) encoded to the same bytes; encode -> decode round trips
** of seeded random data of many shapes through every codec with random
** batch sizes, skips and seeks to recorded positions; damaged runs failing
** cleanly; the decimal and nanosecond varints; and real streams of the
** fixtures (integer, byte, boolean, decimal and timestamp columns, RLE v1
** and v2, every codec with an expected file) against the values of
** the expected files (orc/expected), with row-index seeks into a string column.
*/
#include "chv_test.h"
#include "format/orc/orc_rle.h"

#include "chive/fs.h"

#include <zlib.h>

static uint64_t rng_state = 0x2545f4914f6cdd1dull;
static uint64_t rnd(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return rng_state;
}

/* ---- the specification's examples -------------------------------------- */

static void stream_over(struct chv_orc_stream *s, const void *p, size_t n) {
  chv_orc_stream_init(s, NULL, p, n, "spec");
}

/* Decode n integers from bytes; compare with want. */
static void check_ints(const uint8_t *bytes, size_t nb, int version,
                       bool is_signed, const int64_t *want, size_t n) {
  struct chv_orc_stream s;
  struct chv_orc_int_rle d;
  struct chv_error err;
  stream_over(&s, bytes, nb);
  CHV_REQUIRE_OK(chv_orc_int_rle_init(&d, &s, version, is_signed, &err), &err);
  int64_t *got = malloc(n * sizeof *got);
  CHV_REQUIRE_OK(chv_orc_int_rle_read(&d, got, n, &err), &err);
  CHV_CHECK(memcmp(got, want, n * sizeof *got) == 0);
  CHV_CHECK(chv_orc_stream_at_end(&s));
  int64_t extra;
  CHV_CHECK_EQ_INT(chv_orc_int_rle_read(&d, &extra, 1, &err), CHV_ECORRUPT);
  free(got);
}

/* Encode with RLE v2 and compare with bytes. */
static void check_encode(const int64_t *v, size_t n, bool is_signed,
                         const uint8_t *bytes, size_t nb) {
  struct chv_orc_out o;
  struct chv_orc_int_rle_enc e;
  struct chv_error err;
  chv_orc_out_init(&o, NULL);
  chv_orc_int_rle_enc_init(&e, &o, is_signed);
  CHV_REQUIRE_OK(chv_orc_int_rle_enc_write(&e, v, n, &err), &err);
  CHV_REQUIRE_OK(chv_orc_int_rle_enc_flush(&e, &err), &err);
  CHV_CHECK(o.out.len == nb && memcmp(o.out.data, bytes, nb) == 0);
  if (o.out.len != nb || memcmp(o.out.data, bytes, nb) != 0) {
    for (size_t i = 0; i < o.out.len; i++)
      fprintf(stderr, "%02x ", (uint8_t)o.out.data[i]);
    fprintf(stderr, "\n");
  }
  chv_orc_out_free(&o);
}

static void test_spec_byte_and_bool(void) {
  struct chv_error err;
  struct chv_orc_stream s;
  struct chv_orc_byte_rle d;
  uint8_t got[100];
  static const uint8_t zeros[] = {0x61, 0x00};
  stream_over(&s, zeros, 2);
  chv_orc_byte_rle_init(&d, &s);
  CHV_REQUIRE_OK(chv_orc_byte_rle_read(&d, got, 100, &err), &err);
  for (int i = 0; i < 100; i++)
    CHV_CHECK(got[i] == 0);
  static const uint8_t lit[] = {0xfe, 0x44, 0x45};
  stream_over(&s, lit, 3);
  chv_orc_byte_rle_init(&d, &s);
  CHV_REQUIRE_OK(chv_orc_byte_rle_read(&d, got, 2, &err), &err);
  CHV_CHECK(got[0] == 0x44 && got[1] == 0x45);

  /* Encoders give the same bytes. */
  struct chv_orc_out o;
  struct chv_orc_byte_rle_enc e;
  chv_orc_out_init(&o, NULL);
  chv_orc_byte_rle_enc_init(&e, &o);
  memset(got, 0, 100);
  CHV_CHECK_OK(chv_orc_byte_rle_enc_write(&e, got, 100, &err), &err);
  CHV_CHECK_OK(chv_orc_byte_rle_enc_flush(&e, &err), &err);
  CHV_CHECK(o.out.len == 2 && memcmp(o.out.data, zeros, 2) == 0);
  chv_orc_out_reset(&o);
  chv_orc_byte_rle_enc_init(&e, &o);
  CHV_CHECK_OK(chv_orc_byte_rle_enc_write(&e, lit + 1, 2, &err), &err);
  CHV_CHECK_OK(chv_orc_byte_rle_enc_flush(&e, &err), &err);
  CHV_CHECK(o.out.len == 3 && memcmp(o.out.data, lit, 3) == 0);

  /* Booleans: [0xff, 0x80] is one true and seven false. */
  static const uint8_t bits[] = {0xff, 0x80};
  struct chv_orc_bool_rle b;
  stream_over(&s, bits, 2);
  chv_orc_bool_rle_init(&b, &s);
  CHV_REQUIRE_OK(chv_orc_bool_rle_read(&b, got, 8, &err), &err);
  static const uint8_t want[] = {1, 0, 0, 0, 0, 0, 0, 0};
  CHV_CHECK(memcmp(got, want, 8) == 0);
  struct chv_orc_bool_rle_enc be;
  chv_orc_out_reset(&o);
  chv_orc_bool_rle_enc_init(&be, &o);
  CHV_CHECK_OK(chv_orc_bool_rle_enc_write(&be, want, 8, &err), &err);
  CHV_CHECK_OK(chv_orc_bool_rle_enc_flush(&be, &err), &err);
  CHV_CHECK(o.out.len == 2 && memcmp(o.out.data, bits, 2) == 0);
  /* One true alone: padded with false. */
  chv_orc_out_reset(&o);
  chv_orc_bool_rle_enc_init(&be, &o);
  CHV_CHECK_OK(chv_orc_bool_rle_enc_write(&be, want, 1, &err), &err);
  CHV_CHECK_OK(chv_orc_bool_rle_enc_flush(&be, &err), &err);
  CHV_CHECK(o.out.len == 2 && memcmp(o.out.data, bits, 2) == 0);
  chv_orc_out_free(&o);
}

static void test_spec_rle_v1(void) {
  int64_t v[100];
  static const uint8_t sevens[] = {0x61, 0x00, 0x07};
  for (int i = 0; i < 100; i++)
    v[i] = 7;
  check_ints(sevens, sizeof sevens, 1, false, v, 100);
  static const uint8_t down[] = {0x61, 0xff, 0x64};
  for (int i = 0; i < 100; i++)
    v[i] = 100 - i;
  check_ints(down, sizeof down, 1, false, v, 100);
  static const uint8_t lits[] = {0xfb, 0x02, 0x03, 0x06, 0x07, 0x0b};
  static const int64_t lv[] = {2, 3, 6, 7, 11};
  check_ints(lits, sizeof lits, 1, false, lv, 5);
  /* Signed: the same bytes zigzag-decoded. */
  static const int64_t ls[] = {1, -2, 3, -4, -6};
  check_ints(lits, sizeof lits, 1, true, ls, 5);
}

static void test_spec_rle_v2(void) {
  static const uint8_t sr[] = {0x0a, 0x27, 0x10};
  static const int64_t srv[] = {10000, 10000, 10000, 10000, 10000};
  check_ints(sr, sizeof sr, 2, false, srv, 5);
  check_encode(srv, 5, false, sr, sizeof sr);

  static const uint8_t di[] = {0x5e, 0x03, 0x5c, 0xa1, 0xab,
                               0x1e, 0xde, 0xad, 0xbe, 0xef};
  static const int64_t div[] = {23713, 43806, 57005, 48879};
  check_ints(di, sizeof di, 2, false, div, 4);
  check_encode(div, 4, false, di, sizeof di);

  static const uint8_t pb[] = {0x8e, 0x13, 0x2b, 0x21, 0x07, 0xd0, 0x1e,
                               0x00, 0x14, 0x70, 0x28, 0x32, 0x3c, 0x46,
                               0x50, 0x5a, 0x64, 0x6e, 0x78, 0x82, 0x8c,
                               0x96, 0xa0, 0xaa, 0xb4, 0xbe, 0xfc, 0xe8};
  static const int64_t pbv[] = {2030, 2000, 2020, 1000000, 2040, 2050, 2060,
                                2070, 2080, 2090, 2100,    2110, 2120, 2130,
                                2140, 2150, 2160, 2170,    2180, 2190};
  check_ints(pb, sizeof pb, 2, false, pbv, 20);

  static const uint8_t de[] = {0xc6, 0x09, 0x02, 0x02, 0x22, 0x42, 0x42, 0x46};
  static const int64_t dev[] = {2, 3, 5, 7, 11, 13, 17, 19, 23, 29};
  check_ints(de, sizeof de, 2, false, dev, 10);
  check_encode(dev, 10, false, de, sizeof de);

  /* A DELTA whose deltas fit 1 bit: width code 0 would mean a fixed
  ** delta, so the encoder writes 2-bit deltas. */
  static const uint8_t d1[] = {0xc2, 0x02, 0xc0, 0x84, 0x3d, 0xcf, 0x0f, 0x00};
  static const int64_t d1v[] = {1000000, 999000, 999000};
  check_encode(d1v, 3, false, d1, sizeof d1);
  check_ints(d1, sizeof d1, 2, false, d1v, 3);
}

static void test_width_table(void) {
  static const unsigned widths[32] = {
      1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15, 16,
      17, 18, 19, 20, 21, 22, 23, 24, 26, 28, 30, 32, 40, 48, 56, 64};
  for (unsigned c = 0; c < 32; c++) {
    CHV_CHECK_EQ_INT(chv_orc_rle_width_decode(c), widths[c]);
    CHV_CHECK_EQ_INT(chv_orc_rle_width_encode(widths[c]), c);
  }
  CHV_CHECK_EQ_INT(chv_orc_rle_width_encode(25), 24); /* rounds up to 26 */
  CHV_CHECK_EQ_INT(chv_orc_rle_width_encode(33), 28); /* 40 */
  CHV_CHECK_EQ_INT(chv_orc_rle_width_encode(0), 0);
}

/* ---- round trips ------------------------------------------------------- */

/* n values of a shape (0..9). */
static void shape(int kind, int64_t *v, size_t n, bool is_signed) {
  int64_t x = (int64_t)(rnd() % 1000);
  for (size_t i = 0; i < n; i++) {
    switch (kind) {
    case 0: /* small */
      v[i] = (int64_t)(rnd() % 100);
      break;
    case 1: /* full 64 bits */
      v[i] = (int64_t)rnd();
      break;
    case 2: /* runs of repeats of random length */
      if (rnd() % 7 == 0) x = (int64_t)(rnd() % 100000);
      v[i] = x;
      break;
    case 3: /* increasing */
      x += (int64_t)(rnd() % 50);
      v[i] = x;
      break;
    case 4: /* decreasing by a fixed step */
      x -= 3;
      v[i] = x;
      break;
    case 5: /* small with outliers (PATCHED_BASE) */
      v[i] = rnd() % 20 == 0 ? (int64_t)(rnd() % 100000000)
                             : 1000 + (int64_t)(rnd() % 64);
      break;
    case 6: /* extremes */
      v[i] = (int64_t[]){INT64_MIN, INT64_MAX, 0, -1, 1}[rnd() % 5];
      break;
    case 7: /* negative small with outliers */
      v[i] = rnd() % 30 == 0 ? -(int64_t)(rnd() % 1000000000000ull)
                             : -(int64_t)(rnd() % 16);
      break;
    case 8: /* short repeats: pairs and triples */
      if (i % (2 + rnd() % 3) == 0) x = (int64_t)(rnd() % 300);
      v[i] = x;
      break;
    default: /* mixtures of all of the above */
      shape((int)(rnd() % 9), v + i, 1, is_signed);
      if (i > 0 && rnd() % 3 == 0) v[i] = v[i - 1];
    }
    if (!is_signed && v[i] < 0 && v[i] != INT64_MIN && kind != 1 && kind != 6)
      v[i] = -v[i];
  }
}

static void test_int_round_trips(void) {
  static const int32_t kinds[] = {CHV_ORC_COMP_NONE, CHV_ORC_COMP_ZLIB,
                                  CHV_ORC_COMP_SNAPPY, CHV_ORC_COMP_LZ4};
  for (int iter = 0; iter < 160; iter++) {
    int sh = iter % 10;
    bool is_signed = (iter / 10) % 2 == 0;
    int32_t kind = kinds[(iter / 20) % 4];
    size_t n = 1 + rnd() % 5000;
    int64_t *v = malloc(n * sizeof *v), *got = malloc(n * sizeof *v);
    shape(sh, v, n, is_signed);
    struct chv_error err;
    chv_orc_codec *c;
    CHV_REQUIRE_OK(chv_orc_codec_open(kind, 97 + rnd() % 300, &c, &err), &err);
    struct chv_orc_out o;
    chv_orc_out_init(&o, c);
    struct chv_orc_int_rle_enc e;
    chv_orc_int_rle_enc_init(&e, &o, is_signed);
    /* Write in random batches, recording positions. */
    uint64_t pos[32][3];
    size_t where[32];
    int npos[32], np = 0;
    for (size_t at = 0; at < n;) {
      if (np < 32 && rnd() % 5 == 0) {
        npos[np] = chv_orc_int_rle_enc_position(&e, pos[np]);
        where[np++] = at;
      }
      size_t k = 1 + rnd() % 700;
      if (k > n - at) k = n - at;
      CHV_REQUIRE_OK(chv_orc_int_rle_enc_write(&e, v + at, k, &err), &err);
      at += k;
    }
    CHV_REQUIRE_OK(chv_orc_int_rle_enc_flush(&e, &err), &err);
    /* Read back in random batches with skips. */
    struct chv_orc_stream s;
    chv_orc_stream_init(&s, c, o.out.data, o.out.len, "rt");
    struct chv_orc_int_rle d;
    CHV_REQUIRE_OK(chv_orc_int_rle_init(&d, &s, 2, is_signed, &err), &err);
    for (size_t at = 0; at < n;) {
      size_t k = 1 + rnd() % 900;
      if (k > n - at) k = n - at;
      if (rnd() % 4 == 0) {
        CHV_REQUIRE_OK(chv_orc_int_rle_skip(&d, k, &err), &err);
      } else {
        CHV_REQUIRE_OK(chv_orc_int_rle_read(&d, got, k, &err), &err);
        if (memcmp(got, v + at, k * sizeof *got) != 0) {
          fprintf(stderr, "shape %d signed %d kind %d: values differ at %zu\n",
                  sh, is_signed, kind, at);
          CHV_CHECK(false);
          break;
        }
      }
      at += k;
    }
    CHV_CHECK(chv_orc_stream_at_end(&s));
    /* Seek to each recorded position. */
    for (int i = 0; i < np; i++) {
      uint32_t j = 0;
      CHV_REQUIRE_OK(chv_orc_stream_seek_positions(
                         &s, pos[i], (uint32_t)npos[i] - 1, &j, &err),
                     &err);
      CHV_REQUIRE_OK(chv_orc_int_rle_seek(&d, pos[i][j], &err), &err);
      size_t k = CHV_MIN(n - where[i], (size_t)50);
      CHV_REQUIRE_OK(chv_orc_int_rle_read(&d, got, k, &err), &err);
      CHV_CHECK(memcmp(got, v + where[i], k * sizeof *got) == 0);
    }
    chv_orc_stream_free(&s);
    chv_orc_out_free(&o);
    chv_orc_codec_close(c);
    free(v);
    free(got);
  }
}

static void test_byte_bool_round_trips(void) {
  for (int iter = 0; iter < 40; iter++) {
    size_t n = 1 + rnd() % 20000;
    uint8_t *v = malloc(n), *got = malloc(n);
    uint8_t x = 0;
    for (size_t i = 0; i < n; i++) {
      if (iter % 2 ? rnd() % 9 == 0 : true) x = (uint8_t)rnd();
      v[i] = iter % 4 < 2 ? x : (uint8_t)(x & 1);
    }
    struct chv_error err;
    chv_orc_codec *c;
    CHV_REQUIRE_OK(
        chv_orc_codec_open(iter % 3 ? CHV_ORC_COMP_ZLIB : CHV_ORC_COMP_NONE,
                           100 + rnd() % 1000, &c, &err),
        &err);
    bool boolean = iter % 4 >= 2;
    struct chv_orc_out o;
    chv_orc_out_init(&o, c);
    struct chv_orc_byte_rle_enc be;
    struct chv_orc_bool_rle_enc ble;
    chv_orc_byte_rle_enc_init(&be, &o);
    chv_orc_bool_rle_enc_init(&ble, &o);
    uint64_t pos[16][4];
    size_t where[16];
    int npos[16], np = 0;
    for (size_t at = 0; at < n;) {
      if (np < 16 && rnd() % 5 == 0) {
        npos[np] = boolean ? chv_orc_bool_rle_enc_position(&ble, pos[np])
                           : chv_orc_byte_rle_enc_position(&be, pos[np]);
        where[np++] = at;
      }
      size_t k = 1 + rnd() % 1000;
      if (k > n - at) k = n - at;
      if (boolean)
        CHV_REQUIRE_OK(chv_orc_bool_rle_enc_write(&ble, v + at, k, &err), &err);
      else
        CHV_REQUIRE_OK(chv_orc_byte_rle_enc_write(&be, v + at, k, &err), &err);
      at += k;
    }
    if (boolean)
      CHV_REQUIRE_OK(chv_orc_bool_rle_enc_flush(&ble, &err), &err);
    else
      CHV_REQUIRE_OK(chv_orc_byte_rle_enc_flush(&be, &err), &err);
    struct chv_orc_stream s;
    chv_orc_stream_init(&s, c, o.out.data, o.out.len, "bb");
    struct chv_orc_byte_rle bd;
    struct chv_orc_bool_rle bld;
    chv_orc_byte_rle_init(&bd, &s);
    chv_orc_bool_rle_init(&bld, &s);
    for (size_t at = 0; at < n;) {
      size_t k = 1 + rnd() % 1500;
      if (k > n - at) k = n - at;
      if (rnd() % 4 == 0) {
        if (boolean)
          CHV_REQUIRE_OK(chv_orc_bool_rle_skip(&bld, k, &err), &err);
        else
          CHV_REQUIRE_OK(chv_orc_byte_rle_skip(&bd, k, &err), &err);
      } else if (boolean && rnd() % 2) {
        uint8_t *bm = calloc((k + 7) / 8 + 1, 1);
        size_t ones;
        CHV_REQUIRE_OK(chv_orc_bool_rle_read_bits(&bld, bm, 3, k, &ones, &err),
                       &err);
        size_t want = 0;
        for (size_t i = 0; i < k; i++) {
          CHV_CHECK(((bm[(i + 3) / 8] >> ((i + 3) % 8)) & 1) == v[at + i]);
          want += v[at + i];
        }
        CHV_CHECK_EQ_INT(ones, want);
        free(bm);
      } else {
        if (boolean)
          CHV_REQUIRE_OK(chv_orc_bool_rle_read(&bld, got, k, &err), &err);
        else
          CHV_REQUIRE_OK(chv_orc_byte_rle_read(&bd, got, k, &err), &err);
        CHV_CHECK(memcmp(got, v + at, k) == 0);
      }
      at += k;
    }
    for (int i = 0; i < np; i++) {
      uint32_t j = 0;
      int rle = boolean ? npos[i] - 2 : npos[i] - 1;
      CHV_REQUIRE_OK(
          chv_orc_stream_seek_positions(&s, pos[i], (uint32_t)rle, &j, &err),
          &err);
      size_t k = CHV_MIN(n - where[i], (size_t)40);
      if (boolean) {
        CHV_REQUIRE_OK(
            chv_orc_bool_rle_seek(&bld, pos[i][j], pos[i][j + 1], &err), &err);
        CHV_REQUIRE_OK(chv_orc_bool_rle_read(&bld, got, k, &err), &err);
      } else {
        CHV_REQUIRE_OK(chv_orc_byte_rle_seek(&bd, pos[i][j], &err), &err);
        CHV_REQUIRE_OK(chv_orc_byte_rle_read(&bd, got, k, &err), &err);
      }
      CHV_CHECK(memcmp(got, v + where[i], k) == 0);
    }
    chv_orc_stream_free(&s);
    chv_orc_out_free(&o);
    chv_orc_codec_close(c);
    free(v);
    free(got);
  }
}

/* ---- damage ------------------------------------------------------------ */

static int decode_all(const uint8_t *p, size_t n, int version, bool is_signed,
                      size_t count, struct chv_error *err) {
  struct chv_orc_stream s;
  struct chv_orc_int_rle d;
  stream_over(&s, p, n);
  CHV_RETURN_IF_ERR(chv_orc_int_rle_init(&d, &s, version, is_signed, err));
  int64_t v[64];
  while (count > 0) {
    size_t k = CHV_MIN(count, (size_t)64);
    CHV_RETURN_IF_ERR(chv_orc_int_rle_read(&d, v, k, err));
    count -= k;
  }
  return CHV_OK;
}

static void test_damage(void) {
  struct chv_error err;
  /* PATCHED_BASE: patch gap width + patch width over 64 (PGW 8, PW 64). */
  static const uint8_t pw[] = {0x8e, 0x13, 0xff, 0xe1, 0x07, 0xd0};
  CHV_CHECK_EQ_INT(decode_all(pw, sizeof pw, 2, false, 20, &err), CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "spec: integer RLE v2: PATCHED_BASE patch gap");
  /* A patch past the values: the example with a gap of 3 turned to 31. */
  uint8_t pb[] = {0x8e, 0x13, 0x2b, 0x21, 0x07, 0xd0, 0x1e, 0x00, 0x14, 0x70,
                  0x28, 0x32, 0x3c, 0x46, 0x50, 0x5a, 0x64, 0x6e, 0x78, 0x82,
                  0x8c, 0x96, 0xa0, 0xaa, 0xb4, 0xbe, 0xfc, 0xe8};
  pb[2] = 0x3b; /* patch gap width 2 -> 2 bits still; use length instead */
  pb[1] = 0x01; /* 2 values: the patch at index 3 is past them */
  CHV_CHECK_EQ_INT(decode_all(pb, sizeof pb, 2, false, 2, &err), CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "patch past its values");
  /* DELTA of one value with a width. */
  static const uint8_t d1[] = {0xc6, 0x00, 0x02, 0x02};
  CHV_CHECK_EQ_INT(decode_all(d1, sizeof d1, 2, false, 1, &err), CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "DELTA run of one value");
  /* An 11-byte varint base. */
  static const uint8_t vb[] = {0xc0, 0x05, 0xff, 0xff, 0xff, 0xff, 0xff,
                               0xff, 0xff, 0xff, 0xff, 0xff, 0x01, 0x02};
  CHV_CHECK_EQ_INT(decode_all(vb, sizeof vb, 2, false, 6, &err), CHV_ECORRUPT);
  /* More values asked than the stream holds. */
  static const uint8_t sr[] = {0x0a, 0x27, 0x10};
  CHV_CHECK_EQ_INT(decode_all(sr, sizeof sr, 2, false, 6, &err), CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "spec: the stream ends early");
  /* Every truncation of every spec example, v1 and v2, in exact buffers. */
  static const struct {
    const uint8_t *p;
    size_t n, count;
    int version;
  } ex[] = {
      {sr, sizeof sr, 5, 2},
      {(const uint8_t *)"\x5e\x03\x5c\xa1\xab\x1e\xde\xad\xbe\xef", 10, 4, 2},
      {(const uint8_t *)"\xc6\x09\x02\x02\x22\x42\x42\x46", 8, 10, 2},
      {(const uint8_t *)"\xfb\x02\x03\x06\x07\x0b", 6, 5, 1},
      {(const uint8_t *)"\x61\xff\x64", 3, 100, 1}};
  for (size_t i = 0; i < CHV_ARRAY_SIZE(ex); i++)
    for (size_t m = 0; m < ex[i].n; m++) {
      uint8_t *p = malloc(m ? m : 1);
      memcpy(p, ex[i].p, m);
      CHV_CHECK_EQ_INT(
          decode_all(p, m, ex[i].version, false, ex[i].count, &err),
          CHV_ECORRUPT);
      free(p);
    }
  /* Random bytes never crash any decoder. */
  for (int iter = 0; iter < 2000; iter++) {
    size_t m = rnd() % 64;
    uint8_t *p = malloc(m ? m : 1);
    for (size_t i = 0; i < m; i++)
      p[i] = (uint8_t)rnd();
    int rc =
        decode_all(p, m, 1 + iter % 2, iter % 3 == 0, 1 + rnd() % 600, &err);
    CHV_CHECK(rc == CHV_OK || rc == CHV_ECORRUPT);
    free(p);
  }
  struct chv_orc_int_rle d;
  CHV_CHECK_EQ_INT(chv_orc_int_rle_init(&d, NULL, 3, false, &err), CHV_EINVAL);
}

/* ---- varint encodings -------------------------------------------------- */

static void test_decimal_and_nanos(void) {
  struct chv_error err;
  chv_i128 vals[] = {0,
                     1,
                     -1,
                     63,
                     -64,
                     64,
                     1234567890123456789LL,
                     -((chv_i128)1 << 126),
                     ((chv_i128)1 << 126) - 1,
                     (chv_i128)(~(__extension__(unsigned __int128) 0) >> 1),
                     -(chv_i128)(~(__extension__(unsigned __int128) 0) >> 1) -
                         1};
  struct chv_orc_out o;
  chv_orc_out_init(&o, NULL);
  for (size_t i = 0; i < CHV_ARRAY_SIZE(vals); i++) {
    uint8_t b[19];
    size_t n = chv_orc_decimal_encode(b, vals[i]);
    CHV_CHECK(n >= 1 && n <= 19);
    CHV_CHECK_OK(chv_orc_decimal_write(&o, vals[i], &err), &err);
  }
  /* -1 is zigzag 1: one byte 0x01; 64 is 128: 0x80 0x01. */
  uint8_t b[19];
  CHV_CHECK(chv_orc_decimal_encode(b, -1) == 1 && b[0] == 0x01);
  CHV_CHECK(chv_orc_decimal_encode(b, 64) == 2 && b[0] == 0x80 && b[1] == 1);
  struct chv_orc_stream s;
  chv_orc_stream_init(&s, NULL, o.out.data, o.out.len, "dec");
  for (size_t i = 0; i < CHV_ARRAY_SIZE(vals); i++) {
    chv_i128 v;
    CHV_REQUIRE_OK(chv_orc_decimal_read(&s, &v, &err), &err);
    CHV_CHECK(v == vals[i]);
  }
  CHV_CHECK(chv_orc_stream_at_end(&s));
  chv_orc_out_free(&o);
  /* 19 bytes carrying bits past 128, a 20-byte varint, a cut one. */
  uint8_t big[20];
  memset(big, 0xff, sizeof big);
  big[18] = 0x04;
  chv_orc_stream_init(&s, NULL, big, 19, "dec");
  chv_i128 v;
  CHV_CHECK_EQ_INT(chv_orc_decimal_read(&s, &v, &err), CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "exceeds 128 bits");
  big[18] = 0x83;
  big[19] = 0x00;
  chv_orc_stream_init(&s, NULL, big, 20, "dec");
  CHV_CHECK_EQ_INT(chv_orc_decimal_read(&s, &v, &err), CHV_ECORRUPT);
  chv_orc_stream_init(&s, NULL, big, 5, "dec");
  CHV_CHECK_EQ_INT(chv_orc_decimal_read(&s, &v, &err), CHV_ECORRUPT);

  /* Nanos: ORCv1.md's examples and round trips. */
  CHV_CHECK_EQ_INT(chv_orc_nanos_encode(1000), 0x0a);
  CHV_CHECK_EQ_INT(chv_orc_nanos_encode(100000), 0x0c);
  CHV_CHECK_EQ_INT(chv_orc_nanos_encode(0), 0);
  CHV_CHECK_EQ_INT(chv_orc_nanos_encode(5), 5 << 3);
  int32_t ns[] = {0, 1, 10, 100, 999999999, 100000000, 123456700, 120, 7000};
  for (size_t i = 0; i < CHV_ARRAY_SIZE(ns); i++) {
    int32_t back;
    CHV_CHECK_OK(chv_orc_nanos_decode(chv_orc_nanos_encode(ns[i]), &back, &err),
                 &err);
    CHV_CHECK_EQ_INT(back, ns[i]);
  }
  for (int i = 0; i < 10000; i++) {
    int32_t n0 = (int32_t)(rnd() % 1000000000), back;
    if (i % 2) n0 -= n0 % 1000;
    CHV_CHECK_OK(chv_orc_nanos_decode(chv_orc_nanos_encode(n0), &back, &err),
                 &err);
    CHV_CHECK_EQ_INT(back, n0);
  }
  int32_t back;
  CHV_CHECK_EQ_INT(chv_orc_nanos_decode((uint64_t)1000000000 << 3, &back, &err),
                   CHV_ECORRUPT);
  CHV_CHECK_EQ_INT(chv_orc_nanos_decode(UINT64_MAX, &back, &err), CHV_ECORRUPT);
  CHV_CHECK_EQ_INT(chv_orc_nanos_decode(10 << 3 | 7, &back, &err),
                   CHV_ECORRUPT);
}

/* ---- real streams against the expected rows ---------------------------- */

/* The expected file inflated: one JSON object per line. */
static char *expected_lines(const char *name, size_t *nlines) {
  char path[700];
  snprintf(path, sizeof path, "%s/orc/expected/%s",
           chv_test_fixtures(), name);
  gzFile g = gzopen(path, "rb");
  if (g == NULL) return NULL;
  size_t cap = 1 << 20, len = 0;
  char *buf = malloc(cap);
  int k;
  while ((k = gzread(g, buf + len, (unsigned)(cap - len - 1))) > 0) {
    len += (size_t)k;
    if (cap - len < 4096) buf = realloc(buf, cap *= 2);
  }
  gzclose(g);
  buf[len] = '\0';
  *nlines = 0;
  for (size_t i = 0; i < len; i++)
    *nlines += buf[i] == '\n';
  return buf;
}

/* The raw text of field `key` in the JSON object at line (NULL when the
** object has no such key); a bare value when key is NULL. */
static const char *field_text(const char *line, const char *key, size_t *n) {
  /* Searches stay inside the line: the buffer holds every row. */
  const char *eol = line;
  while (*eol && *eol != '\n')
    eol++;
  const char *p = line;
  if (key) {
    char pat[64];
    int k = snprintf(pat, sizeof pat, "\"%s\": ", key);
    p = memmem(line, (size_t)(eol - line), pat, (size_t)k);
    if (p == NULL) return NULL;
    p += k;
  }
  const char *e = p;
  if (*e == '"') {
    e++;
    while (e < eol && *e != '"')
      e++;
    e++;
  } else {
    while (e < eol && *e != ',' && *e != '}')
      e++;
  }
  *n = (size_t)(e - p);
  return p;
}

struct column {
  struct chv_orc_tail *t;
  char *data;
  size_t len;
  chv_orc_codec *codec;
  chv_arena *arena;
};

static int open_file(const char *name, struct column *c,
                     struct chv_error *err) {
  char path[700];
  snprintf(path, sizeof path, "%s/orc/%s",
           chv_test_fixtures(), name);
  CHV_RETURN_IF_ERR(
      chv_fs_read_all(chv_fs_local(), path, &c->data, &c->len, -1, err));
  CHV_RETURN_IF_ERR(chv_orc_tail_parse(c->data, c->len, name, &c->t, err));
  CHV_RETURN_IF_ERR(chv_orc_tail_codec_open(c->t, &c->codec, err));
  chv_arena_open(0, &c->arena);
  return CHV_OK;
}

static void close_file(struct column *c) {
  chv_arena_close(c->arena);
  chv_orc_codec_close(c->codec);
  chv_orc_tail_close(c->t);
  free(c->data);
}

enum how { INTS, BYTES, BOOLS, DECIMALS, NANOS };

/* Every value of column `col` (all stripes), as text the expected file
** would print ("null" for NULL), checked against field `key` of each row. */
static void check_column(const char *file, const char *expected, uint32_t col,
                         const char *key, enum how how) {
  struct chv_error err;
  struct column c;
  if (open_file(file, &c, &err) != CHV_OK) {
    fprintf(stderr, "%s: %s\n", file, err.msg);
    CHV_CHECK(false);
    return;
  }
  size_t nlines = 0;
  char *lines = expected_lines(expected, &nlines);
  CHV_REQUIRE(lines != NULL);
  CHV_CHECK_EQ_INT(nlines, c.t->nrows);
  const char *line = lines;
  struct chv_orc_input in;
  chv_orc_input_memory(&in, c.data, c.len, file);
  size_t rows = 0, bad = 0;
  int scale =
      c.t->footer.types[col].has_scale ? (int)c.t->footer.types[col].scale : 0;
  for (uint32_t si = 0; si < c.t->footer.nstripes; si++) {
    struct chv_orc_stripe_footer sf;
    if (chv_orc_stripe_footer_read(c.t, &in, c.codec, si, c.arena, &sf, &err) !=
        CHV_OK) {
      fprintf(stderr, "%s\n", err.msg);
      CHV_CHECK(false);
      break;
    }
    int version = sf.columns[col].kind == CHV_ORC_ENC_DIRECT_V2 ||
                          sf.columns[col].kind == CHV_ORC_ENC_DICTIONARY_V2
                      ? 2
                      : 1;
    const struct chv_orc_stream_info *pr =
        chv_orc_stripe_find_stream(&sf, col, CHV_ORC_STREAM_PRESENT);
    const struct chv_orc_stream_info *da = chv_orc_stripe_find_stream(
        &sf, col,
        how == NANOS ? CHV_ORC_STREAM_SECONDARY : CHV_ORC_STREAM_DATA);
    const struct chv_orc_stream_info *sc =
        chv_orc_stripe_find_stream(&sf, col, CHV_ORC_STREAM_SECONDARY);
    CHV_REQUIRE(da != NULL);
    struct chv_orc_stream ps, ds, ss;
    chv_orc_stream_init(&ps, c.codec, pr ? c.data + pr->offset : NULL,
                        pr ? pr->length : 0, "present");
    chv_orc_stream_init(&ds, c.codec, c.data + da->offset, da->length, "data");
    chv_orc_stream_init(&ss, c.codec, sc ? c.data + sc->offset : NULL,
                        sc ? sc->length : 0, "secondary");
    struct chv_orc_bool_rle present, bools;
    struct chv_orc_byte_rle bytes;
    struct chv_orc_int_rle ints, scales;
    chv_orc_bool_rle_init(&present, &ps);
    chv_orc_bool_rle_init(&bools, &ds);
    chv_orc_byte_rle_init(&bytes, &ds);
    chv_orc_int_rle_init(&ints, &ds, version, how == INTS, &err);
    chv_orc_int_rle_init(&scales, &ss, version, true, &err);
    uint64_t n = c.t->footer.stripes[si].number_of_rows;
    for (uint64_t r = 0; r < n; r++, rows++) {
      uint8_t here = 1;
      if (pr)
        CHV_REQUIRE_OK(chv_orc_bool_rle_read(&present, &here, 1, &err), &err);
      char text[80];
      if (!here) {
        snprintf(text, sizeof text, "null");
      } else if (how == INTS) {
        int64_t v;
        CHV_REQUIRE_OK(chv_orc_int_rle_read(&ints, &v, 1, &err), &err);
        snprintf(text, sizeof text, "%lld", (long long)v);
      } else if (how == BYTES) {
        uint8_t v;
        CHV_REQUIRE_OK(chv_orc_byte_rle_read(&bytes, &v, 1, &err), &err);
        snprintf(text, sizeof text, "%d", (int8_t)v);
      } else if (how == BOOLS) {
        uint8_t v;
        CHV_REQUIRE_OK(chv_orc_bool_rle_read(&bools, &v, 1, &err), &err);
        snprintf(text, sizeof text, "%s", v ? "true" : "false");
      } else if (how == DECIMALS) {
        chv_i128 v;
        int64_t s;
        CHV_REQUIRE_OK(chv_orc_decimal_read(&ds, &v, &err), &err);
        CHV_REQUIRE_OK(chv_orc_int_rle_read(&scales, &s, 1, &err), &err);
        for (; s < scale; s++)
          v *= 10;
        bool neg = v < 0;
        if (neg) v = -v;
        char digits[64];
        int nd = 0;
        do {
          digits[nd++] = (char)('0' + (int)(v % 10));
          v /= 10;
        } while (v > 0 || nd <= scale);
        int o = 0;
        if (neg) text[o++] = '-';
        for (int i = nd - 1; i >= 0; i--) {
          text[o++] = digits[i];
          if (i == scale && scale > 0) text[o++] = '.';
        }
        text[o] = '\0';
      } else { /* NANOS: the fraction of the printed timestamp */
        int64_t raw;
        int32_t nanos;
        CHV_REQUIRE_OK(chv_orc_int_rle_read(&ints, &raw, 1, &err), &err);
        CHV_REQUIRE_OK(chv_orc_nanos_decode((uint64_t)raw, &nanos, &err), &err);
        snprintf(text, sizeof text, "%09d", nanos);
      }
      size_t len = 0;
      const char *want = field_text(line, key, &len);
      bool same;
      if (how == NANOS) {
        /* "...SS.fff" in quotes: the digits after the dot, padded. */
        const char *dot = memchr(want, '.', len);
        char frac[16] = "000000000";
        size_t fl = dot ? (size_t)(want + len - 1 - (dot + 1)) : 0;
        if (fl > 9) fl = 9;
        if (dot) memcpy(frac, dot + 1, fl);
        same = strcmp(frac, text) == 0;
      } else {
        same = want && len == strlen(text) && memcmp(want, text, len) == 0;
      }
      if (!same && bad++ < 3)
        fprintf(stderr, "%s row %zu %s: got %s, expected %.*s\n", file, rows,
                key ? key : "", text, (int)len, want ? want : "");
      while (*line && *line != '\n')
        line++;
      line++;
    }
    CHV_CHECK(chv_orc_stream_at_end(&ds));
    chv_orc_stream_free(&ps);
    chv_orc_stream_free(&ds);
    chv_orc_stream_free(&ss);
  }
  CHV_CHECK_EQ_INT(bad, 0);
  CHV_CHECK_EQ_INT(rows, nlines);
  free(lines);
  close_file(&c);
}

static void test_real_streams(void) {
  /* test1: RLE v2 (ZLIB), every integer width and booleans. */
  check_column("TestOrcFile.test1.orc", "TestOrcFile.test1.jsn.gz", 1,
               "boolean1", BOOLS);
  check_column("TestOrcFile.test1.orc", "TestOrcFile.test1.jsn.gz", 2, "byte1",
               BYTES);
  check_column("TestOrcFile.test1.orc", "TestOrcFile.test1.jsn.gz", 3, "short1",
               INTS);
  check_column("TestOrcFile.test1.orc", "TestOrcFile.test1.jsn.gz", 4, "int1",
               INTS);
  check_column("TestOrcFile.test1.orc", "TestOrcFile.test1.jsn.gz", 5, "long1",
               INTS);
  /* RLE v1 (0.11, NONE) and v2 (NONE), 25 and 4 stripes. */
  check_column("TestOrcFile.testMemoryManagementV11.orc",
               "TestOrcFile.testMemoryManagementV11.jsn.gz", 1, "int1", INTS);
  check_column("TestOrcFile.testMemoryManagementV12.orc",
               "TestOrcFile.testMemoryManagementV12.jsn.gz", 1, "int1", INTS);
  /* LZ4, LZO and SNAPPY with small blocks: runs straddle chunks. */
  check_column("TestVectorOrcFile.testLz4.orc",
               "TestVectorOrcFile.testLz4.jsn.gz", 1, "x", INTS);
  check_column("TestVectorOrcFile.testLz4.orc",
               "TestVectorOrcFile.testLz4.jsn.gz", 3, "z", INTS);
  check_column("TestVectorOrcFile.testLzo.orc",
               "TestVectorOrcFile.testLzo.jsn.gz", 2, "y", INTS);
  check_column("TestVectorOrcFile.testLzo.orc",
               "TestVectorOrcFile.testLzo.jsn.gz", 3, "z", INTS);
  check_column("TestOrcFile.testSnappy.orc", "TestOrcFile.testSnappy.jsn.gz", 1,
               "int1", INTS);
  check_column("TestOrcFile.testWithoutIndex.orc",
               "TestOrcFile.testWithoutIndex.jsn.gz", 1, "int1", INTS);
  /* PRESENT streams with nulls at the end, 70000 rows. */
  check_column("nulls-at-end-snappy.orc", "nulls-at-end-snappy.jsn.gz", 1,
               "_col0", BYTES);
  check_column("nulls-at-end-snappy.orc", "nulls-at-end-snappy.jsn.gz", 2,
               "_col1", INTS);
  check_column("nulls-at-end-snappy.orc", "nulls-at-end-snappy.jsn.gz", 3,
               "_col2", INTS);
  check_column("nulls-at-end-snappy.orc", "nulls-at-end-snappy.jsn.gz", 4,
               "_col3", INTS);
  check_column("nulls-at-end-snappy.orc", "nulls-at-end-snappy.jsn.gz", 7,
               "_col6", BOOLS);
  /* Decimal varints with their scales (RLE v2) and decimals of the union
  ** file; timestamps' nanos (RLE v1 and v2). */
  check_column("decimal.orc", "decimal.jsn.gz", 1, "_col0", DECIMALS);
  check_column("TestOrcFile.testUnionAndTimestamp.orc",
               "TestOrcFile.testUnionAndTimestamp.jsn.gz", 5, "decimal",
               DECIMALS);
  check_column("TestOrcFile.testTimestamp.orc",
               "TestOrcFile.testTimestamp.jsn.gz", 0, NULL, NANOS);
  check_column("TestOrcFile.testDate1900.orc",
               "TestOrcFile.testDate1900.jsn.gz", 1, "time", NANOS);
  check_column("over1k_bloom.orc", "over1k_bloom.jsn.gz", 4, "_col3", INTS);
  check_column("orc_index_int_string.orc", "orc_index_int_string.jsn.gz", 1,
               "_col0", INTS);
}

/* A string column read in full and through every row index entry: the
** DATA bytes and LENGTH values at each row group's positions. */
static void test_row_index_seeks(void) {
  struct chv_error err;
  struct column c;
  CHV_REQUIRE_OK(open_file("TestStringDictionary.testRowIndex.orc", &c, &err),
                 &err);
  struct chv_orc_input in;
  chv_orc_input_memory(&in, c.data, c.len, "ri");
  struct chv_orc_stripe_footer sf;
  CHV_REQUIRE_OK(
      chv_orc_stripe_footer_read(c.t, &in, c.codec, 0, c.arena, &sf, &err),
      &err);
  CHV_REQUIRE(sf.columns[1].kind == CHV_ORC_ENC_DIRECT_V2);
  const struct chv_orc_stream_info *ri =
      chv_orc_stripe_find_stream(&sf, 1, CHV_ORC_STREAM_ROW_INDEX);
  const struct chv_orc_stream_info *da =
      chv_orc_stripe_find_stream(&sf, 1, CHV_ORC_STREAM_DATA);
  const struct chv_orc_stream_info *le =
      chv_orc_stripe_find_stream(&sf, 1, CHV_ORC_STREAM_LENGTH);
  CHV_REQUIRE(ri && da && le);
  CHV_CHECK(chv_orc_stripe_find_stream(&sf, 1, CHV_ORC_STREAM_PRESENT) == NULL);
  struct chv_orc_row_index x;
  CHV_REQUIRE_OK(chv_orc_row_index_decode(c.codec, c.data + ri->offset,
                                          ri->length, c.arena, "ri", &x, &err),
                 &err);
  uint32_t stride = c.t->footer.row_index_stride;
  CHV_REQUIRE(x.nentries == 8 && stride == 4096);
  struct chv_orc_stream ds, ls;
  chv_orc_stream_init(&ds, c.codec, c.data + da->offset, da->length, "data");
  chv_orc_stream_init(&ls, c.codec, c.data + le->offset, le->length, "length");
  struct chv_orc_int_rle lens;
  CHV_REQUIRE_OK(chv_orc_int_rle_init(&lens, &ls, 2, false, &err), &err);
  /* All of it first: "row 000000" ... */
  for (int r = 0; r < 32768; r++) {
    int64_t l;
    char s[16], want[16];
    CHV_REQUIRE_OK(chv_orc_int_rle_read(&lens, &l, 1, &err), &err);
    CHV_REQUIRE(l == 10);
    CHV_REQUIRE_OK(chv_orc_stream_read(&ds, s, 10, &err), &err);
    snprintf(want, sizeof want, "row %06d", r);
    CHV_REQUIRE(memcmp(s, want, 10) == 0);
  }
  CHV_CHECK(chv_orc_stream_at_end(&ds) && chv_orc_stream_at_end(&ls));
  /* Then from each row group's positions (DATA: chunk, offset; LENGTH:
  ** chunk, offset, values), backwards. */
  for (int g = 7; g >= 0; g--) {
    const struct chv_orc_row_index_entry *e = &x.entries[g];
    if (e->npositions == 0) continue; /* the first group starts at 0 */
    CHV_REQUIRE(e->npositions == 5);
    uint32_t i = 0;
    CHV_REQUIRE_OK(chv_orc_stream_seek_positions(&ds, e->positions,
                                                 e->npositions, &i, &err),
                   &err);
    CHV_REQUIRE_OK(chv_orc_stream_seek_positions(&ls, e->positions,
                                                 e->npositions, &i, &err),
                   &err);
    CHV_REQUIRE_OK(chv_orc_int_rle_seek(&lens, e->positions[i], &err), &err);
    char s[16], want[16];
    int64_t l;
    CHV_REQUIRE_OK(chv_orc_int_rle_read(&lens, &l, 1, &err), &err);
    CHV_CHECK(l == 10);
    CHV_REQUIRE_OK(chv_orc_stream_read(&ds, s, 10, &err), &err);
    snprintf(want, sizeof want, "row %06d", g * 4096);
    CHV_CHECK(memcmp(s, want, 10) == 0);
  }
  chv_orc_stream_free(&ds);
  chv_orc_stream_free(&ls);
  close_file(&c);
}

CHV_TEST_MAIN("orc_rle", test_spec_byte_and_bool, test_spec_rle_v1,
              test_spec_rle_v2, test_width_table, test_int_round_trips,
              test_byte_bool_round_trips, test_damage, test_decimal_and_nanos,
              test_real_streams, test_row_index_seeks)
