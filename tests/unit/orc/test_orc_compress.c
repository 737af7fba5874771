/* Tests of ORC's compression framing and streams
** (src/format/orc/orc_compress.c): the chunk headers of ORCv1.md's
** examples; compress -> decompress round trips of every codec over sizes
** around the block size, incompressible data kept original; the stream
** reader read in random pieces and sought to every chunk and to positions
** the stream writer recorded; every stream of every stripe of the fixtures
** of each codec (NONE, ZLIB, SNAPPY, LZO, LZ4, ZSTD) decompressed whole and
** through the reader alike; truncated and damaged chunks, chunks inflating
** past the block size and output limits fail cleanly. */
#include "chv_test.h"
#include "format/orc/orc_int.h"

#include "chive/fs.h"

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t rnd(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return rng_state;
}

static const int32_t all_kinds[] = {
    CHV_ORC_COMP_NONE, CHV_ORC_COMP_ZLIB, CHV_ORC_COMP_SNAPPY, CHV_ORC_COMP_LZO,
    CHV_ORC_COMP_LZ4,  CHV_ORC_COMP_ZSTD, CHV_ORC_COMP_BROTLI};

/* n bytes: text-like (compressible) or random (not). */
static uint8_t *make_data(size_t n, bool compressible) {
  uint8_t *p = malloc(n ? n : 1);
  for (size_t i = 0; i < n; i++)
    p[i] = compressible
               ? (uint8_t)("the quick brown fox "[(i / 3) % 20] + (i % 97 == 0))
               : (uint8_t)rnd();
  return p;
}

static void test_headers(void) {
  uint8_t h[3];
  chv_orc_chunk_header(h, 100000, false);
  CHV_CHECK(h[0] == 0x40 && h[1] == 0x0d && h[2] == 0x03);
  chv_orc_chunk_header(h, 5, true);
  CHV_CHECK(h[0] == 0x0b && h[1] == 0x00 && h[2] == 0x00);
}

static void test_round_trips(void) {
  const size_t block = 1000;
  const size_t sizes[] = {0, 1, 999, 1000, 1001, 2500, 10000};
  for (size_t k = 0; k < CHV_ARRAY_SIZE(all_kinds); k++) {
    struct chv_error err;
    chv_orc_codec *c;
    CHV_REQUIRE_OK(chv_orc_codec_open(all_kinds[k], block, &c, &err), &err);
    for (size_t si = 0; si < CHV_ARRAY_SIZE(sizes); si++) {
      for (int comp = 0; comp < 2; comp++) {
        size_t n = sizes[si];
        uint8_t *in = make_data(n, comp);
        struct chv_buf z, back;
        chv_buf_init(&z);
        chv_buf_init(&back);
        CHV_REQUIRE_OK(chv_orc_compress_all(c, in, n, &z, &err), &err);
        CHV_REQUIRE_OK(
            chv_orc_decompress_all(c, z.data, z.len, 1 << 20, "t", &back, &err),
            &err);
        CHV_CHECK(back.len == n && (n == 0 || memcmp(back.data, in, n) == 0));
        if (all_kinds[k] != CHV_ORC_COMP_NONE) {
          /* Chunks of at most the block size; random bytes stay original,
          ** text is compressed. */
          size_t off = 0, chunks = 0;
          while (off < z.len) {
            const uint8_t *hp = (const uint8_t *)z.data + off;
            uint32_t v = hp[0] | hp[1] << 8 | (uint32_t)hp[2] << 16;
            bool original = v & 1;
            CHV_CHECK(original == !comp || n - chunks * block < 20);
            off += 3 + (v >> 1);
            chunks++;
          }
          CHV_CHECK_EQ_INT(chunks, (n + block - 1) / block);
          CHV_CHECK_EQ_INT(off, z.len);
        } else {
          CHV_CHECK(z.len == n);
        }
        /* Through the stream reader, in random pieces. */
        struct chv_orc_stream s;
        chv_orc_stream_init(&s, c, z.data, z.len, "t");
        uint8_t *got = malloc(n + 1);
        size_t at = 0;
        while (at < n) {
          size_t want = 1 + rnd() % 700;
          if (want > n - at) want = n - at;
          if (rnd() % 3 == 0) {
            for (size_t i = 0; i < want; i++)
              CHV_REQUIRE_OK(chv_orc_stream_byte(&s, &got[at + i], &err), &err);
          } else {
            CHV_REQUIRE_OK(chv_orc_stream_read(&s, got + at, want, &err), &err);
          }
          at += want;
        }
        CHV_CHECK(n == 0 || memcmp(got, in, n) == 0);
        CHV_CHECK(chv_orc_stream_at_end(&s));
        uint8_t b;
        CHV_CHECK_EQ_INT(chv_orc_stream_byte(&s, &b, &err), CHV_ECORRUPT);
        CHV_CHECK_CONTAINS(err.msg, "t: the stream ends early");
        chv_orc_stream_free(&s);
        free(got);
        chv_buf_free(&z);
        chv_buf_free(&back);
        free(in);
      }
    }
    chv_orc_codec_close(c);
  }
}

/* The stream writer's recorded positions, sought by the reader. */
static void test_positions(void) {
  for (size_t k = 0; k < CHV_ARRAY_SIZE(all_kinds); k++) {
    struct chv_error err;
    chv_orc_codec *c;
    CHV_REQUIRE_OK(chv_orc_codec_open(all_kinds[k], 512, &c, &err), &err);
    size_t n = 20000;
    uint8_t *in = make_data(n, k % 2 == 0);
    struct chv_orc_out o;
    chv_orc_out_init(&o, c);
    uint64_t pos[64][2];
    size_t where[64];
    int npos[64], np = 0;
    size_t at = 0;
    while (at < n) {
      if (np < 64 && rnd() % 4 == 0) {
        npos[np] = chv_orc_out_position(&o, pos[np]);
        where[np++] = at;
      }
      size_t m = 1 + rnd() % 900;
      if (m > n - at) m = n - at;
      if (m == 1)
        CHV_REQUIRE_OK(chv_orc_out_byte(&o, in[at], &err), &err);
      else
        CHV_REQUIRE_OK(chv_orc_out_write(&o, in + at, m, &err), &err);
      at += m;
    }
    CHV_REQUIRE_OK(chv_orc_out_flush(&o, &err), &err);
    CHV_CHECK_EQ_INT(o.uncompressed, n);
    struct chv_orc_stream s;
    chv_orc_stream_init(&s, c, o.out.data, o.out.len, "p");
    for (int i = np - 1; i >= 0; i--) {
      CHV_CHECK_EQ_INT(npos[i], all_kinds[k] == CHV_ORC_COMP_NONE ? 1 : 2);
      uint32_t j = 0;
      CHV_REQUIRE_OK(chv_orc_stream_seek_positions(&s, pos[i],
                                                   (uint32_t)npos[i], &j, &err),
                     &err);
      CHV_CHECK_EQ_INT(j, npos[i]);
      uint8_t buf[300];
      size_t m = CHV_MIN(sizeof buf, n - where[i]);
      CHV_REQUIRE_OK(chv_orc_stream_read(&s, buf, m, &err), &err);
      CHV_CHECK(memcmp(buf, in + where[i], m) == 0);
    }
    /* Seeks out of range. */
    CHV_CHECK_EQ_INT(chv_orc_stream_seek(&s, o.out.len + 1, 0, &err),
                     CHV_ECORRUPT);
    if (all_kinds[k] != CHV_ORC_COMP_NONE) {
      CHV_CHECK_EQ_INT(chv_orc_stream_seek(&s, 0, 513, &err), CHV_ECORRUPT);
      CHV_CHECK_EQ_INT(chv_orc_stream_seek(&s, 1, 0, &err), CHV_ECORRUPT);
      CHV_CHECK_OK(chv_orc_stream_seek(&s, o.out.len, 0, &err), &err);
      CHV_CHECK(chv_orc_stream_at_end(&s));
      uint64_t two[2] = {0, 0};
      uint32_t j = 1;
      CHV_CHECK_EQ_INT(chv_orc_stream_seek_positions(&s, two, 2, &j, &err),
                       CHV_ECORRUPT);
    }
    chv_orc_stream_free(&s);
    chv_orc_out_free(&o);
    free(in);
    chv_orc_codec_close(c);
  }
}

/* ---- fixture streams --------------------------------------------------- */

static void fixture_streams(const char *name, int32_t kind) {
  char path[700];
  snprintf(path, sizeof path, "%s/orc/%s",
           chv_test_fixtures(), name);
  struct chv_error err;
  char *data;
  size_t len;
  CHV_REQUIRE_OK(chv_fs_read_all(chv_fs_local(), path, &data, &len, -1, &err),
                 &err);
  struct chv_orc_tail *t;
  CHV_REQUIRE_OK(chv_orc_tail_parse(data, len, name, &t, &err), &err);
  CHV_CHECK_EQ_INT(t->compression, kind);
  chv_orc_codec *c;
  CHV_REQUIRE_OK(chv_orc_tail_codec_open(t, &c, &err), &err);
  struct chv_orc_input in;
  chv_orc_input_memory(&in, data, len, name);
  chv_arena *a;
  chv_arena_open(0, &a);
  uint64_t total = 0;
  for (uint32_t si = 0; si < t->footer.nstripes; si++) {
    struct chv_orc_stripe_footer sf;
    CHV_REQUIRE_OK(chv_orc_stripe_footer_read(t, &in, c, si, a, &sf, &err),
                   &err);
    for (uint32_t i = 0; i < sf.nstreams; i++) {
      const struct chv_orc_stream_info *st = &sf.streams[i];
      const uint8_t *p = (const uint8_t *)data + st->offset;
      struct chv_buf whole;
      chv_buf_init(&whole);
      CHV_REQUIRE_OK(
          chv_orc_decompress_all(c, p, st->length, 1 << 30, name, &whole, &err),
          &err);
      total += whole.len;
      struct chv_orc_stream s;
      chv_orc_stream_init(&s, c, p, st->length, name);
      size_t at = 0;
      for (;;) {
        const uint8_t *q;
        size_t n;
        CHV_REQUIRE_OK(chv_orc_stream_next(&s, 1 + rnd() % 5000, &q, &n, &err),
                       &err);
        if (n == 0) break;
        CHV_REQUIRE(at + n <= whole.len);
        CHV_CHECK(memcmp(q, whole.data + at, n) == 0);
        at += n;
      }
      CHV_CHECK_EQ_INT(at, whole.len);
      chv_orc_stream_free(&s);
      chv_buf_free(&whole);
    }
  }
  CHV_CHECK(total > 0);
  chv_arena_close(a);
  chv_orc_codec_close(c);
  chv_orc_tail_close(t);
  free(data);
}

static void test_fixture_streams(void) {
  fixture_streams("TestOrcFile.testMemoryManagementV12.orc", CHV_ORC_COMP_NONE);
  fixture_streams("TestOrcFile.test1.orc", CHV_ORC_COMP_ZLIB);
  fixture_streams("demo-11-zlib.orc", CHV_ORC_COMP_ZLIB);
  fixture_streams("TestOrcFile.testSnappy.orc", CHV_ORC_COMP_SNAPPY);
  fixture_streams("TestVectorOrcFile.testLzo.orc", CHV_ORC_COMP_LZO);
  fixture_streams("TestVectorOrcFile.testLz4.orc", CHV_ORC_COMP_LZ4);
  fixture_streams("TestVectorOrcFile.testZstd.0.12.orc", CHV_ORC_COMP_ZSTD);
}

/* ---- damage ------------------------------------------------------------ */

static void test_damage(void) {
  struct chv_error err;
  for (size_t k = 1; k < CHV_ARRAY_SIZE(all_kinds); k++) {
    chv_orc_codec *c;
    CHV_REQUIRE_OK(chv_orc_codec_open(all_kinds[k], 4096, &c, &err), &err);
    size_t n = 10000;
    uint8_t *in = make_data(n, true);
    struct chv_buf z, back;
    chv_buf_init(&z);
    chv_buf_init(&back);
    CHV_REQUIRE_OK(chv_orc_compress_all(c, in, n, &z, &err), &err);
    /* Every prefix, in an exactly sized buffer. */
    for (size_t m = 0; m < z.len; m++) {
      uint8_t *p = malloc(m ? m : 1);
      memcpy(p, z.data, m);
      chv_buf_reset(&back);
      int rc = chv_orc_decompress_all(c, p, m, 1 << 20, "t", &back, &err);
      CHV_CHECK(rc == CHV_OK || rc == CHV_ECORRUPT);
      if (rc != CHV_OK) CHV_CHECK_EQ_INT(back.len, 0);
      struct chv_orc_stream s;
      chv_orc_stream_init(&s, c, p, m, "t");
      uint8_t buf[4096];
      for (;;) {
        const uint8_t *q;
        size_t got;
        rc = chv_orc_stream_next(&s, sizeof buf, &q, &got, &err);
        if (rc != CHV_OK || got == 0) break;
      }
      CHV_CHECK(rc == CHV_OK || rc == CHV_ECORRUPT);
      chv_orc_stream_free(&s);
      free(p);
    }
    /* Bytes flipped in the compressed payload. */
    for (size_t i = 3; i < z.len; i += 7) {
      z.data[i] ^= 0x5a;
      chv_buf_reset(&back);
      int rc =
          chv_orc_decompress_all(c, z.data, z.len, 1 << 20, "t", &back, &err);
      CHV_CHECK(rc == CHV_OK || rc == CHV_ECORRUPT);
      z.data[i] ^= 0x5a;
    }
    /* A limit below the output. */
    chv_buf_reset(&back);
    CHV_CHECK_EQ_INT(
        chv_orc_decompress_all(c, z.data, z.len, 5000, "lim", &back, &err),
        CHV_ECORRUPT);
    CHV_CHECK_CONTAINS(err.msg, "lim: decompresses to more than the limit");
    /* A codec with a smaller block size: the chunks inflate past it. */
    chv_orc_codec *small;
    CHV_REQUIRE_OK(chv_orc_codec_open(all_kinds[k], 1000, &small, &err), &err);
    chv_buf_reset(&back);
    CHV_CHECK_EQ_INT(chv_orc_decompress_all(small, z.data, z.len, 1 << 20,
                                            "small", &back, &err),
                     CHV_ECORRUPT);
    CHV_CHECK_CONTAINS(err.msg, "small: chunk at offset 0:");
    chv_orc_codec_close(small);
    chv_buf_free(&z);
    chv_buf_free(&back);
    free(in);
    chv_orc_codec_close(c);
  }
  /* Stray bytes, a length past the end, garbage for each codec. */
  chv_orc_codec *c;
  CHV_REQUIRE_OK(chv_orc_codec_open(CHV_ORC_COMP_ZLIB, 100, &c, &err), &err);
  struct chv_buf back;
  chv_buf_init(&back);
  CHV_CHECK_EQ_INT(
      chv_orc_decompress_all(c, "\x03\x00", 2, 100, "s", &back, &err),
      CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "2 stray bytes at offset 0");
  CHV_CHECK_EQ_INT(chv_orc_decompress_all(c,
                                          "\x0b\x00\x00"
                                          "ab",
                                          5, 100, "s", &back, &err),
                   CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "length 5 exceeds the 2 bytes left");
  /* An original chunk and an empty one. */
  CHV_CHECK_OK(chv_orc_decompress_all(c,
                                      "\x07\x00\x00"
                                      "abc"
                                      "\x01\x00\x00",
                                      9, 100, "s", &back, &err),
               &err);
  CHV_CHECK(back.len == 3 && memcmp(back.data, "abc", 3) == 0);
  chv_orc_codec_close(c);
  for (size_t k = 1; k < CHV_ARRAY_SIZE(all_kinds); k++) {
    CHV_REQUIRE_OK(chv_orc_codec_open(all_kinds[k], 100, &c, &err), &err);
    static const uint8_t junk[] = {0x12, 0x00, 0x00, 0xff, 0xfe, 0xfd, 0xfc,
                                   0xfb, 0xfa, 0xf9, 0xf8, 0xf7, 0xf6};
    chv_buf_reset(&back);
    int rc =
        chv_orc_decompress_all(c, junk, sizeof junk, 100, "j", &back, &err);
    CHV_CHECK(rc == CHV_OK || rc == CHV_ECORRUPT);
    chv_orc_codec_close(c);
  }
  chv_buf_free(&back);
  /* Codec arguments. */
  CHV_CHECK_EQ_INT(chv_orc_codec_open(7, 100, &c, &err), CHV_ENOTSUP);
  CHV_CHECK_EQ_INT(chv_orc_codec_open(CHV_ORC_COMP_ZLIB, 0, &c, &err),
                   CHV_EINVAL);
  CHV_CHECK_EQ_INT(chv_orc_codec_open(CHV_ORC_COMP_ZLIB,
                                      (uint64_t)CHV_ORC_MAX_BLOCK_SIZE + 1, &c,
                                      &err),
                   CHV_EINVAL);
}

/* Levels: every zlib and zstd level writes what reads back. */
static void test_levels(void) {
  struct chv_error err;
  uint8_t *in = make_data(5000, true);
  for (int level = 1; level <= 9; level++) {
    chv_orc_codec *c;
    CHV_REQUIRE_OK(chv_orc_codec_open(CHV_ORC_COMP_ZLIB, 2048, &c, &err), &err);
    chv_orc_codec_set_level(c, level);
    struct chv_buf z, back;
    chv_buf_init(&z);
    chv_buf_init(&back);
    CHV_CHECK_OK(chv_orc_compress_all(c, in, 5000, &z, &err), &err);
    CHV_CHECK_OK(
        chv_orc_decompress_all(c, z.data, z.len, 1 << 20, "l", &back, &err),
        &err);
    CHV_CHECK(back.len == 5000 && memcmp(back.data, in, 5000) == 0);
    chv_buf_free(&z);
    chv_buf_free(&back);
    chv_orc_codec_close(c);
  }
  free(in);
}

CHV_TEST_MAIN("orc_compress", test_headers, test_round_trips, test_positions,
              test_fixture_streams, test_damage, test_levels)
