/* Tests of src/codec: every stream kind decoded whole and byte by byte,
** concatenated streams, truncation and corruption errors, the output limit,
** and gzip compression round trips. */
#include "chv_test.h"
#include "codec/compress.h"

#include <lz4.h>
#include <lz4frame.h>
#include <snappy-c.h>
#include <zlib.h>
#include <zstd.h>

/* Deterministic, somewhat compressible text of n bytes. */
static char *sample(size_t n) {
  char *s = malloc(n + 1);
  uint32_t x = 12345;
  for (size_t i = 0; i < n; i++) {
    x = x * 1103515245u + 12345u;
    s[i] = (i % 61 == 60) ? '\n' : (char)('a' + (x >> 16) % 7);
  }
  s[n] = 0;
  return s;
}

static void put_be32(struct chv_buf *b, uint32_t v) {
  uint8_t p[4] = {(uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8),
                  (uint8_t)v};
  chv_buf_append(b, p, 4);
}

static void gzip_member(struct chv_buf *b, const char *s, size_t n) {
  chv_comp *c;
  if (chv_comp_open(CHV_CODEC_GZIP, 6, &c, NULL) != CHV_OK) return;
  chv_comp_run(c, s, n, b, NULL);
  chv_comp_finish(c, b, NULL);
  chv_comp_close(c);
}

/* Hadoop block stream: blocks of `block` bytes, each split in chunks of
** `chunk` uncompressed bytes. */
static void hadoop_stream(struct chv_buf *b, enum chv_codec k, const char *s,
                          size_t n, size_t block, size_t chunk) {
  for (size_t off = 0; off < n; off += block) {
    size_t bl = CHV_MIN(block, n - off);
    put_be32(b, (uint32_t)bl);
    for (size_t c = 0; c < bl; c += chunk) {
      size_t cl = CHV_MIN(chunk, bl - c);
      static char tmp[400000];
      size_t tl = sizeof tmp;
      if (k == CHV_CODEC_SNAPPY) {
        snappy_compress(s + off + c, cl, tmp, &tl);
      } else {
        tl = (size_t)LZ4_compress_default(s + off + c, tmp, (int)cl,
                                          (int)sizeof tmp);
      }
      put_be32(b, (uint32_t)tl);
      chv_buf_append(b, tmp, tl);
    }
  }
}

static uint32_t crc32c_ref(const uint8_t *p, size_t n) {
  uint32_t c = 0xFFFFFFFFu;
  while (n--) {
    c ^= *p++;
    for (int k = 0; k < 8; k++) c = (c >> 1) ^ (0x82F63B78u & (0u - (c & 1)));
  }
  return c ^ 0xFFFFFFFFu;
}

static void put_le(struct chv_buf *b, uint32_t v, int bytes) {
  for (int i = 0; i < bytes; i++) chv_buf_putc(b, (char)(v >> (8 * i)));
}

static void snappy_framed(struct chv_buf *b, const char *s, size_t n) {
  chv_buf_append(b, "\xff\x06\x00\x00sNaPpY", 10);
  /* a skippable chunk, then data chunks, one stored uncompressed */
  chv_buf_append(b, "\x80\x02\x00\x00zz", 6);
  int i = 0;
  for (size_t off = 0; off < n; off += 65536, i++) {
    size_t cl = CHV_MIN((size_t)65536, n - off);
    uint32_t crc = crc32c_ref((const uint8_t *)s + off, cl);
    crc = ((crc >> 15) | (crc << 17)) + 0xa282ead8u;
    if (i == 1) {
      chv_buf_putc(b, 0x01);
      put_le(b, (uint32_t)cl + 4, 3);
      put_le(b, crc, 4);
      chv_buf_append(b, s + off, cl);
    } else {
      char tmp[80000];
      size_t tl = sizeof tmp;
      snappy_compress(s + off, cl, tmp, &tl);
      chv_buf_putc(b, 0x00);
      put_le(b, (uint32_t)tl + 4, 3);
      put_le(b, crc, 4);
      chv_buf_append(b, tmp, tl);
    }
  }
}

/* Decode in steps of `step` input and `ostep` output bytes; compare. */
static int decode_steps(enum chv_codec k, const struct chv_buf *in,
                        const char *want, size_t want_len, size_t step,
                        size_t ostep, struct chv_error *err) {
  chv_decomp *d;
  int rc = chv_decomp_open(k, 0, &d, err);
  if (rc) return rc;
  char *out = malloc(want_len + 16);
  size_t got = 0;
  const uint8_t *ip = (const uint8_t *)in->data;
  size_t left = in->len;
  for (;;) {
    size_t il = CHV_MIN(step, left), il0 = il;
    uint8_t *op = (uint8_t *)out + got;
    size_t room = CHV_MIN(ostep, want_len + 16 - got), ol = room;
    rc = chv_decomp_run(d, &ip, &il, &op, &ol, err);
    if (rc) break;
    left -= il0 - il;
    got += room - ol;
    if (il0 == il && room == ol && left == 0) break;
    if (got > want_len) break;
  }
  if (rc == 0) rc = chv_decomp_finish(d, err);
  if (rc == 0 && (got != want_len || memcmp(out, want, want_len)))
    rc = chv_error_set(err, CHV_ECORRUPT, "mismatch: got %zu want %zu", got,
                       want_len);
  free(out);
  chv_decomp_close(d);
  return rc;
}

static void check_kind(enum chv_codec k, const struct chv_buf *in,
                       const char *want, size_t n) {
  struct chv_error err;
  CHV_CHECK_OK(decode_steps(k, in, want, n, 1 << 20, 1 << 20, &err), &err);
  CHV_CHECK_OK(decode_steps(k, in, want, n, 1, 7, &err), &err);
  CHV_CHECK_OK(decode_steps(k, in, want, n, 1000, 1, &err), &err);
  char *o;
  size_t ol;
  CHV_CHECK_OK(chv_decompress(k, in->data, in->len, 0, &o, &ol, &err), &err);
  if (o) {
    CHV_CHECK(ol == n && memcmp(o, want, n) == 0);
    chv_free(o);
  }
  /* Truncation anywhere inside is an error (not a short read). */
  size_t cuts[] = {1, 3, in->len / 2, in->len - 1};
  for (size_t i = 0; i < CHV_ARRAY_SIZE(cuts); i++) {
    o = NULL;
    int rc = chv_decompress(k, in->data, cuts[i], 0, &o, &ol, &err);
    CHV_CHECK(rc == CHV_ECORRUPT);
    if (rc == CHV_ECORRUPT) CHV_CHECK(strstr(err.msg, chv_codec_name(k)));
    chv_free(o);
  }
  /* The output limit. */
  o = NULL;
  CHV_CHECK_EQ_INT(chv_decompress(k, in->data, in->len, (int64_t)n / 3, &o,
                                  &ol, &err),
                   CHV_ERANGE);
  CHV_CHECK_CONTAINS(err.msg, "limit");
  chv_free(o);
}

static void test_gzip_concatenated(void) {
  size_t n = 300000;
  char *s = sample(n);
  struct chv_buf b;
  chv_buf_init(&b);
  gzip_member(&b, s, 100000);
  gzip_member(&b, s + 100000, 0); /* an empty member in the middle */
  gzip_member(&b, s + 100000, n - 100000);
  check_kind(CHV_CODEC_GZIP, &b, s, n);
  chv_buf_free(&b);
  free(s);
}

static void test_zstd_frames(void) {
  size_t n = 300000;
  char *s = sample(n);
  struct chv_buf b;
  chv_buf_init(&b);
  for (size_t off = 0; off < n; off += 120000) {
    size_t cl = CHV_MIN((size_t)120000, n - off);
    chv_buf_reserve(&b, ZSTD_compressBound(cl));
    b.len += ZSTD_compress(b.data + b.len, ZSTD_compressBound(cl), s + off, cl, 3);
  }
  check_kind(CHV_CODEC_ZSTD, &b, s, n);
  chv_buf_free(&b);
  free(s);
}

static void test_lz4_frame_and_hadoop(void) {
  size_t n = 300000;
  char *s = sample(n);
  struct chv_buf b;
  chv_buf_init(&b);
  for (size_t off = 0; off < n; off += 150000) {
    size_t cl = CHV_MIN((size_t)150000, n - off);
    size_t cap = LZ4F_compressFrameBound(cl, NULL);
    chv_buf_reserve(&b, cap);
    b.len += LZ4F_compressFrame(b.data + b.len, cap, s + off, cl, NULL);
  }
  check_kind(CHV_CODEC_LZ4, &b, s, n);
  chv_buf_reset(&b);
  hadoop_stream(&b, CHV_CODEC_LZ4, s, n, 256 * 1024, 100000);
  check_kind(CHV_CODEC_LZ4, &b, s, n);
  chv_buf_free(&b);
  free(s);
}

static void test_snappy_hadoop_and_framed(void) {
  size_t n = 300000;
  char *s = sample(n);
  struct chv_buf b;
  chv_buf_init(&b);
  hadoop_stream(&b, CHV_CODEC_SNAPPY, s, n, 256 * 1024, 256 * 1024);
  check_kind(CHV_CODEC_SNAPPY, &b, s, n);
  chv_buf_reset(&b);
  hadoop_stream(&b, CHV_CODEC_SNAPPY, s, n, 100000, 30000);
  check_kind(CHV_CODEC_SNAPPY, &b, s, n);
  chv_buf_reset(&b);
  snappy_framed(&b, s, n);
  check_kind(CHV_CODEC_SNAPPY, &b, s, n);
  /* A flipped data byte fails the checksum or the decoder. */
  b.data[b.len - 5] ^= 0x55;
  char *o = NULL;
  size_t ol;
  struct chv_error err;
  CHV_CHECK_EQ_INT(chv_decompress(CHV_CODEC_SNAPPY, b.data, b.len, 0, &o, &ol,
                                  &err),
                   CHV_ECORRUPT);
  chv_free(o);
  chv_buf_free(&b);
  free(s);
}

static void test_empty_and_corrupt(void) {
  struct chv_error err;
  char *o;
  size_t ol;
  for (int k = 1; k < CHV_CODEC_COUNT; k++) {
    o = NULL;
    CHV_CHECK_OK(chv_decompress((enum chv_codec)k, "", 0, 0, &o, &ol, &err),
                 &err);
    CHV_CHECK(o && ol == 0);
    chv_free(o);
  }
  o = NULL;
  CHV_CHECK_EQ_INT(chv_decompress(CHV_CODEC_GZIP, "hello world", 11, 0, &o,
                                  &ol, &err),
                   CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "gzip");
  chv_free(o);
  /* Zero padding after a gzip member is ignored; a bad second member is
  ** not. */
  struct chv_buf g;
  chv_buf_init(&g);
  gzip_member(&g, "abc", 3);
  chv_buf_append(&g, "\0\0\0\0", 4);
  o = NULL;
  CHV_CHECK_OK(chv_decompress(CHV_CODEC_GZIP, g.data, g.len, 0, &o, &ol, &err),
               &err);
  CHV_CHECK(o && ol == 3 && !memcmp(o, "abc", 3));
  chv_free(o);
  g.len -= 4;
  chv_buf_append(&g, "\x1f\x8b\x01\x02", 4);
  o = NULL;
  CHV_CHECK_EQ_INT(chv_decompress(CHV_CODEC_GZIP, g.data, g.len, 0, &o, &ol,
                                  &err),
                   CHV_ECORRUPT);
  chv_free(o);
  chv_buf_free(&g);
  o = NULL;
  CHV_CHECK_EQ_INT(chv_decompress(CHV_CODEC_ZSTD, "hello world", 11, 0, &o,
                                  &ol, &err),
                   CHV_ECORRUPT);
  chv_free(o);
  /* A Hadoop block claiming 1 GiB is refused before allocating it. */
  o = NULL;
  CHV_CHECK_EQ_INT(chv_decompress(CHV_CODEC_SNAPPY, "\x40\0\0\0\0\0\0\5xxxxx",
                                  13, 0, &o, &ol, &err),
                   CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "block");
  chv_free(o);
}

static void test_gzip_write_matches_zlib(void) {
  size_t n = 1 << 20;
  char *s = sample(n);
  chv_comp *c;
  struct chv_error err;
  CHV_REQUIRE_OK(chv_comp_open(CHV_CODEC_GZIP, 0, &c, &err), &err);
  struct chv_buf b;
  chv_buf_init(&b);
  for (size_t off = 0; off < n; off += 4097)
    CHV_CHECK_OK(chv_comp_run(c, s + off, CHV_MIN((size_t)4097, n - off), &b,
                              &err),
                 &err);
  CHV_CHECK_OK(chv_comp_finish(c, &b, &err), &err);
  chv_comp_close(c);
  CHV_CHECK(b.len < n / 2);
  /* zlib's own one-shot gzip reader agrees. */
  z_stream z;
  memset(&z, 0, sizeof z);
  inflateInit2(&z, 31);
  char *o = malloc(n);
  z.next_in = (Bytef *)b.data;
  z.avail_in = (uInt)b.len;
  z.next_out = (Bytef *)o;
  z.avail_out = (uInt)n;
  CHV_CHECK_EQ_INT(inflate(&z, Z_FINISH), Z_STREAM_END);
  CHV_CHECK(z.total_out == n && memcmp(o, s, n) == 0);
  inflateEnd(&z);
  free(o);
  CHV_CHECK_EQ_INT(chv_comp_open(CHV_CODEC_ZSTD, 0, &c, &err), CHV_ENOTSUP);
  chv_buf_free(&b);
  free(s);
}

struct mem_src {
  const char *p;
  size_t n, pos, step;
};

static int mem_read(void *ctx, void *buf, size_t n, size_t *got,
                    struct chv_error *err) {
  struct mem_src *m = ctx;
  size_t k = CHV_MIN(CHV_MIN(n, m->step), m->n - m->pos);
  memcpy(buf, m->p + m->pos, k);
  m->pos += k;
  *got = k;
  return CHV_OK;
}

static void test_reader_pull(void) {
  size_t n = 500000;
  char *s = sample(n);
  struct chv_buf b;
  chv_buf_init(&b);
  gzip_member(&b, s, n);
  struct mem_src m = {b.data, b.len, 0, 333};
  chv_decomp_reader *r;
  struct chv_error err;
  CHV_REQUIRE_OK(chv_decomp_reader_open(CHV_CODEC_GZIP, 0, mem_read, &m, &r,
                                        &err),
                 &err);
  char *o = malloc(n + 10);
  size_t got = 0, g;
  do {
    CHV_REQUIRE_OK(chv_decomp_reader_read(r, o + got, CHV_MIN((size_t)4096, n + 10 - got), &g, &err), &err);
    got += g;
  } while (g > 0);
  CHV_CHECK(got == n && memcmp(o, s, n) == 0);
  CHV_CHECK_EQ_INT(chv_decomp_reader_total_in(r), (int64_t)b.len);
  chv_decomp_reader_close(r);
  /* Truncated input surfaces as an error from read. */
  m.n = b.len - 10;
  m.pos = 0;
  CHV_REQUIRE_OK(chv_decomp_reader_open(CHV_CODEC_GZIP, 0, mem_read, &m, &r,
                                        &err),
                 &err);
  int rc;
  do {
    rc = chv_decomp_reader_read(r, o, 4096, &g, &err);
  } while (rc == 0 && g > 0);
  CHV_CHECK_EQ_INT(rc, CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "truncated gzip");
  chv_decomp_reader_close(r);
  free(o);
  chv_buf_free(&b);
  free(s);
}

static void test_codec_from_path(void) {
  CHV_CHECK_EQ_INT(chv_codec_from_path("a/b/part-0.gz"), CHV_CODEC_GZIP);
  CHV_CHECK_EQ_INT(chv_codec_from_path("x.zst"), CHV_CODEC_ZSTD);
  CHV_CHECK_EQ_INT(chv_codec_from_path("x.lz4"), CHV_CODEC_LZ4);
  CHV_CHECK_EQ_INT(chv_codec_from_path("x.snappy"), CHV_CODEC_SNAPPY);
  CHV_CHECK_EQ_INT(chv_codec_from_path("x.txt"), CHV_CODEC_NONE);
  CHV_CHECK_EQ_INT(chv_codec_from_path(".gz"), CHV_CODEC_NONE);
  CHV_CHECK_STREQ(chv_codec_extension(CHV_CODEC_GZIP), ".gz");
}

/* Every allocation failure inside decompression is CHV_ENOMEM, no leak. */
static void test_oom(void) {
  size_t n = 200000;
  char *s = sample(n);
  struct chv_buf b;
  chv_buf_init(&b);
  snappy_framed(&b, s, n);
  struct chv_buf h;
  chv_buf_init(&h);
  hadoop_stream(&h, CHV_CODEC_LZ4, s, n, 65536, 30000);
  const struct chv_buf *ins[] = {&b, &h};
  enum chv_codec kinds[] = {CHV_CODEC_SNAPPY, CHV_CODEC_LZ4};
  for (int k = 0; k < 2; k++) {
    long i = 1;
    for (; i < 10000; i++) {
      char *o = NULL;
      size_t ol;
      struct chv_error err;
      chv_alloc_fail_after(i);
      int rc = chv_decompress(kinds[k], ins[k]->data, ins[k]->len, 0, &o, &ol,
                              &err);
      chv_alloc_fail_after(0);
      if (rc == CHV_OK) {
        CHV_CHECK(ol == n && memcmp(o, s, n) == 0);
        chv_free(o);
        break;
      }
      CHV_CHECK_EQ_INT(rc, CHV_ENOMEM);
    }
    CHV_CHECK(i > 2 && i < 10000);
  }
  chv_buf_free(&b);
  chv_buf_free(&h);
  free(s);
}

CHV_TEST_MAIN("codec", test_gzip_concatenated, test_zstd_frames,
              test_lz4_frame_and_hadoop, test_snappy_hadoop_and_framed,
              test_empty_and_corrupt, test_gzip_write_matches_zlib,
              test_reader_pull, test_codec_from_path, test_oom)
