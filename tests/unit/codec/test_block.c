/*
** Tests of codec/block: round trips for every Parquet codec, wrong expected
** sizes, corrupted and truncated pages, multi-member gzip, multi-frame
** Hadoop LZ4 and the bare-block fallback, and every page of the
** parquet-testing files of each codec (walked with a small page-header
** reader below, independent of the format module).
*/
#include "chv_test.h"

#include "codec/block.h"
#include "parquet/page_walk.h"

#include <lz4.h>
#include <zlib.h>

static const int all_codecs[] = {
    CHV_BLOCK_UNCOMPRESSED, CHV_BLOCK_SNAPPY, CHV_BLOCK_GZIP,
    CHV_BLOCK_BROTLI,       CHV_BLOCK_LZ4,    CHV_BLOCK_ZSTD,
    CHV_BLOCK_LZ4_RAW};

static uint64_t rng = 88172645463325252ull;
static uint64_t next_rand(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}

/* n bytes of page-like data: runs of small ints and words, some noise. */
static uint8_t *make_data(size_t n) {
  uint8_t *p = malloc(n ? n : 1);
  static const char *words[] = {"alpha", "beta", "gamma", "delta", "hive"};
  size_t i = 0;
  while (i < n) {
    uint64_t r = next_rand();
    switch (r % 3) {
    case 0:
      for (int k = 0; k < 16 && i < n; k++) p[i++] = (uint8_t)(k & 3);
      break;
    case 1: {
      const char *w = words[(r >> 8) % 5];
      for (size_t k = 0; w[k] && i < n; k++) p[i++] = (uint8_t)w[k];
      break;
    }
    default: p[i++] = (uint8_t)(r >> 24); break;
    }
  }
  return p;
}

static void test_names(void) {
  CHV_CHECK_STREQ(chv_block_codec_name(CHV_BLOCK_SNAPPY), "SNAPPY");
  CHV_CHECK_STREQ(chv_block_codec_name(CHV_BLOCK_LZ4_RAW), "LZ4_RAW");
  CHV_CHECK_STREQ(chv_block_codec_name(7), "LZ4_RAW");
  CHV_CHECK_STREQ(chv_block_codec_name(0), "UNCOMPRESSED");
  CHV_CHECK_STREQ(chv_block_codec_name(8), "?");
  CHV_CHECK_STREQ(chv_block_codec_name(-1), "?");
  CHV_CHECK(!chv_block_codec_supported(CHV_BLOCK_LZO));
  CHV_CHECK(chv_block_codec_supported(CHV_BLOCK_BROTLI));
}

static void roundtrip(chv_block_ctx *ctx, int codec, int level,
                      const uint8_t *data, size_t n) {
  struct chv_error err = {0};
  struct chv_buf c;
  chv_buf_init(&c);
  CHV_REQUIRE_OK(chv_block_compress(ctx, codec, level, data, n, &c, &err),
                 &err);
  uint8_t *back = malloc(n + 1);
  back[n] = 0xAB; /* canary just past the buffer */
  int rc = chv_block_decompress(ctx, codec, c.data, c.len, back, n, &err);
  if (rc != CHV_OK)
    fprintf(stderr, "%s level %d size %zu: %s\n", chv_block_codec_name(codec),
            level, n, err.msg);
  CHV_CHECK(rc == CHV_OK);
  CHV_CHECK(n == 0 || memcmp(back, data, n) == 0);
  CHV_CHECK(back[n] == 0xAB);
  free(back);
  chv_buf_free(&c);
}

static void test_roundtrip_all(void) {
  static const size_t sizes[] = {0, 1, 7, 100, 4096, 65537, 300000, 700001};
  chv_block_ctx *ctx;
  CHV_REQUIRE_OK(chv_block_ctx_open(&ctx, NULL), NULL);
  for (size_t s = 0; s < CHV_ARRAY_SIZE(sizes); s++) {
    uint8_t *d = make_data(sizes[s]);
    for (size_t c = 0; c < CHV_ARRAY_SIZE(all_codecs); c++) {
      roundtrip(ctx, all_codecs[c], 0, d, sizes[s]);
      roundtrip(NULL, all_codecs[c], 0, d, sizes[s]);
    }
    free(d);
  }
  uint8_t *d = make_data(20000);
  roundtrip(ctx, CHV_BLOCK_GZIP, 1, d, 20000);
  roundtrip(ctx, CHV_BLOCK_GZIP, 9, d, 20000);
  roundtrip(ctx, CHV_BLOCK_ZSTD, 1, d, 20000);
  roundtrip(ctx, CHV_BLOCK_ZSTD, 19, d, 20000);
  roundtrip(ctx, CHV_BLOCK_ZSTD, -5, d, 20000);
  roundtrip(ctx, CHV_BLOCK_BROTLI, 1, d, 20000);
  roundtrip(ctx, CHV_BLOCK_BROTLI, 11, d, 20000);
  free(d);
  chv_block_ctx_close(ctx);
}

static void test_bad_levels_and_codecs(void) {
  struct chv_error err = {0};
  struct chv_buf c;
  chv_buf_init(&c);
  uint8_t x[4] = {1, 2, 3, 4}, out[4];
  CHV_CHECK(chv_block_compress(NULL, CHV_BLOCK_GZIP, 10, x, 4, &c, &err) ==
            CHV_EINVAL);
  CHV_CHECK(chv_block_compress(NULL, CHV_BLOCK_BROTLI, 12, x, 4, &c, &err) ==
            CHV_EINVAL);
  CHV_CHECK(chv_block_compress(NULL, CHV_BLOCK_LZO, 0, x, 4, &c, &err) ==
            CHV_ENOTSUP);
  CHV_CHECK(chv_block_decompress(NULL, CHV_BLOCK_LZO, x, 4, out, 4, &err) ==
            CHV_ENOTSUP);
  CHV_CHECK_CONTAINS(err.msg, "LZO");
  CHV_CHECK(chv_block_decompress(NULL, 9, x, 4, out, 4, &err) == CHV_EINVAL);
  CHV_CHECK_CONTAINS(err.msg, "codec 9");
  CHV_CHECK(chv_block_decompress(NULL, -1, x, 4, out, 4, &err) == CHV_EINVAL);
  CHV_CHECK(c.len == 0);
  chv_buf_free(&c);
}

static void test_check_size(void) {
  struct chv_error err = {0};
  CHV_CHECK_OK(chv_block_check_size(CHV_BLOCK_SNAPPY, 10, 100, 1000, &err),
               &err);
  CHV_CHECK(chv_block_check_size(CHV_BLOCK_SNAPPY, 10, 1001, 1000, &err) ==
            CHV_ERANGE);
  CHV_CHECK(chv_block_check_size(CHV_BLOCK_SNAPPY, -1, 10, 1000, &err) ==
            CHV_ECORRUPT);
  CHV_CHECK(chv_block_check_size(CHV_BLOCK_UNCOMPRESSED, 9, 10, 1000, &err) ==
            CHV_ECORRUPT);
}

/* Decompressing into a size other than the true one fails for every codec,
** naming the codec and both sizes, and never writes past the buffer. */
static void test_wrong_expected_size(void) {
  struct chv_error err = {0};
  size_t n = 1000;
  uint8_t *d = make_data(n);
  for (size_t c = 0; c < CHV_ARRAY_SIZE(all_codecs); c++) {
    int codec = all_codecs[c];
    struct chv_buf z;
    chv_buf_init(&z);
    CHV_REQUIRE_OK(chv_block_compress(NULL, codec, 0, d, n, &z, &err), &err);
    static const size_t wrong[] = {0, 1, 998, 999, 1001, 5000};
    for (size_t w = 0; w < CHV_ARRAY_SIZE(wrong); w++) {
      uint8_t *out = malloc(wrong[w] + 16);
      memset(out, 0xCD, wrong[w] + 16);
      int rc = chv_block_decompress(NULL, codec, z.data, z.len, out, wrong[w],
                                    &err);
      CHV_CHECK(rc == CHV_ECORRUPT);
      for (size_t k = 0; k < 16; k++) CHV_CHECK(out[wrong[w] + k] == 0xCD);
      if (codec != CHV_BLOCK_LZ4 && codec != CHV_BLOCK_LZ4_RAW) {
        char want[64];
        snprintf(want, sizeof want, "header says %zu", wrong[w]);
        CHV_CHECK_CONTAINS(err.msg, want);
      }
      free(out);
    }
    chv_buf_free(&z);
  }
  /* The message of the brief's example. */
  struct chv_buf z;
  chv_buf_init(&z);
  CHV_REQUIRE_OK(chv_block_compress(NULL, CHV_BLOCK_SNAPPY, 0, d, n, &z, &err),
                 &err);
  uint8_t out[998];
  CHV_CHECK(chv_block_decompress(NULL, CHV_BLOCK_SNAPPY, z.data, z.len, out,
                                 998, &err) == CHV_ECORRUPT);
  CHV_CHECK_STREQ(err.msg, "snappy page inflates to 1000 bytes, header says "
                           "998");
  chv_buf_reset(&z);
  CHV_REQUIRE_OK(chv_block_compress(NULL, CHV_BLOCK_ZSTD, 0, d, n, &z, &err),
                 &err);
  uint8_t big[1200];
  CHV_CHECK(chv_block_decompress(NULL, CHV_BLOCK_ZSTD, z.data, z.len, big,
                                 1200, &err) == CHV_ECORRUPT);
  CHV_CHECK_STREQ(err.msg, "zstd page inflates to 1000 bytes, header says "
                           "1200");
  chv_buf_free(&z);
  uint8_t u[10];
  CHV_CHECK(chv_block_decompress(NULL, CHV_BLOCK_UNCOMPRESSED, d, 12, u, 10,
                                 &err) == CHV_ECORRUPT);
  CHV_CHECK_STREQ(err.msg, "uncompressed page has 12 bytes, header says 10");
  free(d);
}

/* Truncations, flipped bytes and random garbage fail cleanly (or, for bit
** flips a codec cannot see, succeed) and never touch bytes past the end. */
static void test_corrupt(void) {
  struct chv_error err = {0};
  size_t n = 5000;
  uint8_t *d = make_data(n);
  uint8_t *out = malloc(n + 8);
  for (size_t c = 1; c < CHV_ARRAY_SIZE(all_codecs); c++) {
    int codec = all_codecs[c];
    struct chv_buf z;
    chv_buf_init(&z);
    CHV_REQUIRE_OK(chv_block_compress(NULL, codec, 0, d, n, &z, &err), &err);
    uint8_t *copy = malloc(z.len);
    for (size_t cut = 0; cut < z.len; cut += 1 + cut / 8) {
      memcpy(copy, z.data, cut);
      memset(out + n, 0xEE, 8);
      int rc = chv_block_decompress(NULL, codec, copy, cut, out, n, &err);
      CHV_CHECK(rc == CHV_ECORRUPT);
      CHV_CHECK(out[n] == 0xEE && out[n + 7] == 0xEE);
    }
    for (int t = 0; t < 300; t++) {
      memcpy(copy, z.data, z.len);
      size_t at = next_rand() % z.len;
      copy[at] ^= (uint8_t)(1 + next_rand() % 255);
      memset(out + n, 0xEE, 8);
      int rc = chv_block_decompress(NULL, codec, copy, z.len, out, n, &err);
      CHV_CHECK(rc == CHV_OK || rc == CHV_ECORRUPT);
      CHV_CHECK(out[n] == 0xEE && out[n + 7] == 0xEE);
    }
    for (int t = 0; t < 100; t++) {
      size_t len = 1 + next_rand() % z.len;
      for (size_t k = 0; k < len; k++) copy[k] = (uint8_t)next_rand();
      int rc = chv_block_decompress(NULL, codec, copy, len, out, n, &err);
      CHV_CHECK(rc == CHV_OK || rc == CHV_ECORRUPT);
    }
    free(copy);
    chv_buf_free(&z);
  }
  free(out);
  free(d);
}

static size_t gzip_member(const uint8_t *in, size_t n, uint8_t *out,
                          size_t cap) {
  z_stream z;
  memset(&z, 0, sizeof z);
  deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
  z.next_in = (Bytef *)in;
  z.avail_in = (uInt)n;
  z.next_out = out;
  z.avail_out = (uInt)cap;
  deflate(&z, Z_FINISH);
  size_t got = cap - z.avail_out;
  deflateEnd(&z);
  return got;
}

static void test_gzip_members(void) {
  struct chv_error err = {0};
  size_t n = 30000;
  uint8_t *d = make_data(n);
  uint8_t *z = malloc(2 * n + 400), *out = malloc(n);
  size_t a = gzip_member(d, 10000, z, n + 200);
  size_t b = gzip_member(d + 10000, 0, z + a, n + 200);
  size_t c = gzip_member(d + 10000, n - 10000, z + a + b, n + 200);
  size_t len = a + b + c;
  CHV_CHECK_OK(chv_block_decompress(NULL, CHV_BLOCK_GZIP, z, len, out, n, &err),
               &err);
  CHV_CHECK(memcmp(out, d, n) == 0);
  /* zero padding after the last member is ignored */
  memset(z + len, 0, 16);
  CHV_CHECK_OK(
      chv_block_decompress(NULL, CHV_BLOCK_GZIP, z, len + 16, out, n, &err),
      &err);
  /* garbage is not */
  z[len + 3] = 'q';
  z[len] = 'q';
  CHV_CHECK(chv_block_decompress(NULL, CHV_BLOCK_GZIP, z, len + 16, out, n,
                                 &err) == CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "garbage after member 3");
  /* the first member alone is short of the header's size */
  CHV_CHECK(chv_block_decompress(NULL, CHV_BLOCK_GZIP, z, a, out, n, &err) ==
            CHV_ECORRUPT);
  CHV_CHECK_STREQ(err.msg, "gzip page inflates to 10000 bytes, header says "
                           "30000");
  /* a truncated second member */
  CHV_CHECK(chv_block_decompress(NULL, CHV_BLOCK_GZIP, z, a + b + c / 2, out, n,
                                 &err) == CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "truncated");
  /* exact size for the first member into a buffer that is just right */
  CHV_CHECK_OK(
      chv_block_decompress(NULL, CHV_BLOCK_GZIP, z, a, out, 10000, &err), &err);
  /* one byte short of room */
  CHV_CHECK(chv_block_decompress(NULL, CHV_BLOCK_GZIP, z, a, out, 9999,
                                 &err) == CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "more than 9999");
  /* a zlib stream is accepted too */
  uLongf zl = 2 * n;
  compress2(z, &zl, d, n, 6);
  CHV_CHECK_OK(chv_block_decompress(NULL, CHV_BLOCK_GZIP, z, zl, out, n, &err),
               &err);
  free(z);
  free(out);
  free(d);
}

static void put_be32(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)(v >> 24), p[1] = (uint8_t)(v >> 16);
  p[2] = (uint8_t)(v >> 8), p[3] = (uint8_t)v;
}

static void test_hadoop_lz4(void) {
  struct chv_error err = {0};
  size_t n = 40000;
  uint8_t *d = make_data(n);
  uint8_t *z = malloc(2 * n), *out = malloc(n);
  /* three frames; the second frame holds its 15000 bytes in two blocks */
  size_t pos = 0;
  const size_t parts[] = {10000, 15000, 15000};
  size_t in_pos = 0;
  for (int f = 0; f < 3; f++) {
    put_be32(z + pos, (uint32_t)parts[f]);
    pos += 4;
    size_t halves = f == 1 ? 2 : 1;
    for (size_t h = 0; h < halves; h++) {
      size_t m = parts[f] / halves;
      int k = LZ4_compress_default((const char *)d + in_pos,
                                   (char *)z + pos + 4, (int)m, (int)n);
      put_be32(z + pos, (uint32_t)k);
      pos += 4 + (size_t)k;
      in_pos += m;
    }
  }
  CHV_CHECK_OK(chv_block_decompress(NULL, CHV_BLOCK_LZ4, z, pos, out, n, &err),
               &err);
  CHV_CHECK(memcmp(out, d, n) == 0);
  /* a frame header that lies about its size is not Hadoop framing, and the
  ** bytes are no bare block either */
  put_be32(z, 10001);
  CHV_CHECK(chv_block_decompress(NULL, CHV_BLOCK_LZ4, z, pos, out, n, &err) ==
            CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "neither Hadoop-framed");
  put_be32(z, 10000);
  /* wrong total */
  CHV_CHECK(chv_block_decompress(NULL, CHV_BLOCK_LZ4, z, pos, out, n - 1,
                                 &err) == CHV_ECORRUPT);
  /* our own writer: frames of 256 KiB */
  size_t big = 600000;
  uint8_t *bd = make_data(big), *bo = malloc(big);
  struct chv_buf c;
  chv_buf_init(&c);
  CHV_REQUIRE_OK(chv_block_compress(NULL, CHV_BLOCK_LZ4, 0, bd, big, &c, &err),
                 &err);
  const uint8_t *p = (const uint8_t *)c.data;
  CHV_CHECK(p[0] == 0 && p[1] == 4 && p[2] == 0 && p[3] == 0); /* 262144 */
  CHV_CHECK_OK(
      chv_block_decompress(NULL, CHV_BLOCK_LZ4, c.data, c.len, bo, big, &err),
      &err);
  CHV_CHECK(memcmp(bo, bd, big) == 0);
  chv_buf_free(&c);
  free(bd);
  free(bo);
  free(z);
  free(out);
  free(d);
}

static void test_lz4_raw_fallback(void) {
  struct chv_error err = {0};
  for (size_t n = 1; n < 70000; n = n * 3 + 1) {
    uint8_t *d = make_data(n), *out = malloc(n);
    struct chv_buf c;
    chv_buf_init(&c);
    CHV_REQUIRE_OK(
        chv_block_compress(NULL, CHV_BLOCK_LZ4_RAW, 0, d, n, &c, &err), &err);
    CHV_CHECK_OK(
        chv_block_decompress(NULL, CHV_BLOCK_LZ4, c.data, c.len, out, n, &err),
        &err);
    CHV_CHECK(memcmp(out, d, n) == 0);
    chv_buf_free(&c);
    free(d);
    free(out);
  }
}

/* ---- parquet-testing pages ---------------------------------------------- */

struct walk_ctx {
  chv_block_ctx *ctx;
  int codec;
  const char *name;
};

/* Decompress one page (for v2 pages, the part after the levels). */
static int decompress_page(void *arg, const struct pw_page *pg) {
  struct walk_ctx *w = arg;
  size_t comp = (size_t)pg->compressed, plain = (size_t)pg->uncompressed;
  size_t skip = 0;
  if (pg->type == 3) skip = (size_t)(pg->hdr[2][5] + pg->hdr[2][6]);
  if (skip > comp || skip > plain) {
    CHV_CHECK(!"v2 level lengths");
    return 1;
  }
  uint8_t *out = malloc(plain + 1);
  struct chv_error err = {0};
  int rc = chv_block_decompress(w->ctx, w->codec, pg->data + skip, comp - skip,
                                out + skip, plain - skip, &err);
  if (rc != CHV_OK)
    fprintf(stderr, "%s page %d: %s\n", w->name, pg->index, err.msg);
  CHV_CHECK(rc == CHV_OK);
  free(out);
  return 0;
}

static int walk_pages(const char *name, int codec) {
  struct walk_ctx w = {NULL, codec, name};
  chv_block_ctx_open(&w.ctx, NULL);
  int pages = pw_walk(name, decompress_page, &w);
  chv_block_ctx_close(w.ctx);
  return pages;
}

static void test_fixture_pages(void) {
  struct {
    const char *file;
    int codec;
  } fx[] = {
      {"concatenated_gzip_members.parquet", CHV_BLOCK_GZIP},
      {"byte_stream_split_extended.gzip.parquet", CHV_BLOCK_GZIP},
      {"hadoop_lz4_compressed.parquet", CHV_BLOCK_LZ4},
      {"hadoop_lz4_compressed_larger.parquet", CHV_BLOCK_LZ4},
      {"non_hadoop_lz4_compressed.parquet", CHV_BLOCK_LZ4},
      {"lz4_raw_compressed.parquet", CHV_BLOCK_LZ4_RAW},
      {"lz4_raw_compressed_larger.parquet", CHV_BLOCK_LZ4_RAW},
      {"byte_stream_split.zstd.parquet", CHV_BLOCK_ZSTD},
      {"delta_length_byte_array.parquet", CHV_BLOCK_ZSTD},
      {"alltypes_plain.snappy.parquet", CHV_BLOCK_SNAPPY},
      {"datapage_v1-snappy-compressed-checksum.parquet", CHV_BLOCK_SNAPPY},
      {"alltypes_plain.parquet", CHV_BLOCK_UNCOMPRESSED},
  };
  for (size_t i = 0; i < CHV_ARRAY_SIZE(fx); i++) {
    int pages = walk_pages(fx[i].file, fx[i].codec);
    if (pages == -1) continue;
    CHV_CHECK(pages > 0);
    if (getenv("CHV_VERBOSE")) printf("%s: %d pages\n", fx[i].file, pages);
  }
}

/* The snappy decoder against libsnappy's encoder on data that exercises
** every copy path (literals short and long, copies with offsets below 8,
** 8 to 15 and above, near the end of the page), and on hand-made pages with
** the tags libsnappy never writes for a page this small (4-byte offsets,
** 3- and 4-byte literal lengths) and ones that must fail. */
static void test_snappy_decoder(void) {
  struct chv_error err = {0};
  static const size_t sizes[] = {1, 7, 15, 16, 17, 63, 64, 65, 1000, 70000,
                                 300000};
  for (int kind = 0; kind < 6; kind++)
    for (size_t s = 0; s < CHV_ARRAY_SIZE(sizes); s++) {
      size_t n = sizes[s];
      uint8_t *d = malloc(n), *out = malloc(n + 1);
      for (size_t i = 0; i < n; i++) {
        uint64_t r = next_rand();
        switch (kind) {
        case 0: d[i] = (uint8_t)r; break;                 /* literals */
        case 1: d[i] = (uint8_t)(i % 3 ? 7 : r % 2); break; /* offset < 8 */
        case 2: d[i] = (uint8_t)(i % 11); break;          /* offset 11 */
        case 3: d[i] = (uint8_t)(i % 40 < 20 ? i % 20 : r); break;
        case 4: { /* little-endian int64s, as a PLAIN page holds them */
          uint64_t v = 1000000000000ull + 3 * (i / 32);
          d[i] = (uint8_t)(v >> (8 * (i % 8)));
          break;
        }
        default: d[i] = (uint8_t)(r % 4 == 0 ? r >> 8 : 'a' + i % 5); break;
        }
      }
      struct chv_buf z;
      chv_buf_init(&z);
      CHV_REQUIRE_OK(
          chv_block_compress(NULL, CHV_BLOCK_SNAPPY, 0, d, n, &z, &err), &err);
      out[n] = 0xEE;
      CHV_CHECK_OK(chv_block_decompress(NULL, CHV_BLOCK_SNAPPY, z.data, z.len,
                                        out, n, &err),
                   &err);
      CHV_CHECK(memcmp(out, d, n) == 0);
      CHV_CHECK(out[n] == 0xEE);
      chv_buf_free(&z);
      free(d);
      free(out);
    }
  /* "abcde", then a copy of 5 at offset 5 with a 4-byte offset, a literal
  ** of 3 with a 3-byte length, a copy of 6 at offset 1 (a run). */
  static const uint8_t page[] = {19,   0x10, 'a', 'b', 'c', 'd', 'e', 0x13,
                                 5,    0,    0,   0,   0xF8, 2,   0,   0,
                                 'x',  'y',  'z', 0x16, 1,   0};
  static const char want[] = "abcdeabcdexyzzzzzzz";
  uint8_t out[19];
  CHV_CHECK_OK(chv_block_decompress(NULL, CHV_BLOCK_SNAPPY, page, sizeof page,
                                    out, 19, &err),
               &err);
  CHV_CHECK(memcmp(out, want, 19) == 0);
  /* A 4-byte literal length. */
  static const uint8_t lit4[] = {2, 0xFC, 1, 0, 0, 0, 'o', 'k'};
  CHV_CHECK_OK(chv_block_decompress(NULL, CHV_BLOCK_SNAPPY, lit4, sizeof lit4,
                                    out, 2, &err),
               &err);
  CHV_CHECK(out[0] == 'o' && out[1] == 'k');
  static const struct {
    uint8_t b[8];
    size_t len, out;
    const char *msg;
  } bad[] = {
      {{4, 0x04, 'a', 'b', 0x01, 0}, 6, 4, "is corrupt"}, /* offset 0 */
      {{4, 0x00, 'a', 0x01, 2}, 5, 4, "is corrupt"},      /* before start */
      {{2, 0x08, 'a', 'b', 'c'}, 5, 2, "is corrupt"},     /* literal > out */
      {{4, 0x08, 'a', 'b', 'c'}, 5, 4, "inflates to 3 bytes"},
      {{0x80, 0x80, 0x80, 0x80, 0x80, 1}, 6, 4, "no valid length"},
      {{3, 0x0C, 'a', 'b'}, 4, 3, "is corrupt"}, /* literal cut short */
      {{3, 0x00, 'a', 0x0E}, 4, 3, "is corrupt"}, /* copy cut short */
  };
  for (size_t i = 0; i < CHV_ARRAY_SIZE(bad); i++) {
    uint8_t o[8];
    CHV_CHECK(chv_block_decompress(NULL, CHV_BLOCK_SNAPPY, bad[i].b,
                                   bad[i].len, o, bad[i].out,
                                   &err) == CHV_ECORRUPT);
    CHV_CHECK_CONTAINS(err.msg, bad[i].msg);
  }
}

static void test_measure(void) {
  struct chv_error err = {0};
  uint8_t *d = make_data(100000);
  for (size_t c = 0; c < CHV_ARRAY_SIZE(all_codecs); c++) {
    struct chv_block_speed s;
    CHV_CHECK_OK(chv_block_measure(all_codecs[c], 0, d, 100000, 0.001, &s,
                                   &err),
                 &err);
    CHV_CHECK(s.compressed_len > 0 && s.decompress_mbps > 0);
  }
  free(d);
}

CHV_TEST_MAIN("block", test_names, test_roundtrip_all,
              test_bad_levels_and_codecs, test_check_size,
              test_wrong_expected_size, test_corrupt, test_gzip_members,
              test_hadoop_lz4, test_lz4_raw_fallback, test_fixture_pages,
              test_snappy_decoder, test_measure)
