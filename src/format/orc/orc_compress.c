/*
** ORC's compression framing (ORCv1.md, "Compression"): every part of a
** compressed file but the PostScript is cut into chunks of at most the
** PostScript's compression block size, each compressed on its own behind a
** 3-byte little-endian header holding (length << 1 | isOriginal).  An
** original chunk holds its bytes as they are (the writer keeps them so when
** compressing does not make them smaller).  Files without compression (kind
** NONE) have no headers at all.
**
** Codecs: ZLIB is raw deflate (no zlib or gzip wrapper), SNAPPY one raw
** snappy block, LZO one LZO1X block (liblzo2's safe decompressor), LZ4 one
** raw LZ4 block, ZSTD one or more zstd frames, BROTLI one brotli stream.  A
** chunk must not inflate past the block size (ORC's readers are promised
** that), which bounds every buffer here by the block size, itself capped at
** CHV_ORC_MAX_BLOCK_SIZE.
**
** The stream reader (struct chv_orc_stream) decompresses one chunk at a time
** into a buffer of its own and hands its bytes out; seeking goes to a chunk
** header's offset and a byte offset within the chunk's uncompressed bytes,
** as the row index records positions.  The stream writer (struct
** chv_orc_out) collects bytes and emits a chunk whenever a block is full.
**
** INTERFACE: chv_orc_codec_open()/_close()/_kind()/_block_size()/
** _set_level(), chv_orc_tail_codec_open(), chv_orc_chunk_decompress(),
** chv_orc_decompress_all(), chv_orc_compress_all(), chv_orc_stream_*(),
** chv_orc_out_*() (orc_int.h).
*/
#include "format/orc/orc_int.h"

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>

#include <brotli/decode.h>
#include <brotli/encode.h>
#include <lz4.h>
#include <lzo/lzo1x.h>
#include <snappy-c.h>
#include <zlib.h>
#include <zstd.h>
#include <zstd_errors.h>

#define ZLIB_LEVEL 6 /* java.util.zip.Deflater's default, as ORC Java uses */
#define ZSTD_LEVEL 3
#define BROTLI_LEVEL 5

struct chv_orc_codec {
  int32_t kind;
  uint64_t block_size;
  int level;   /* 0: the codec's default */
  z_stream zi; /* raw inflate */
  bool zi_ready;
  z_stream zd; /* raw deflate */
  bool zd_ready;
  int zd_level; /* the level zd was set up with */
  ZSTD_DCtx *zsd;
  ZSTD_CCtx *zsc;
  void *lzo_work; /* LZO1X-1 compression work memory */
};

static bool kind_known(int32_t kind) {
  return kind >= CHV_ORC_COMP_NONE && kind <= CHV_ORC_COMP_BROTLI;
}

int chv_orc_codec_open(int32_t kind, uint64_t block_size, chv_orc_codec **out,
                       struct chv_error *err) {
  if (!kind_known(kind))
    return chv_error_set(err, CHV_ENOTSUP, "unknown ORC compression kind %d",
                         (int)kind);
  if (block_size == 0 || block_size > CHV_ORC_MAX_BLOCK_SIZE)
    return chv_error_set(err, CHV_EINVAL,
                         "compression block size %" PRIu64
                         " is not within 1 .. %d",
                         block_size, CHV_ORC_MAX_BLOCK_SIZE);
  if (kind == CHV_ORC_COMP_LZO && lzo_init() != LZO_E_OK)
    return chv_error_set(err, CHV_EINTERNAL, "liblzo2 failed to initialise");
  chv_orc_codec *c = chv_calloc(1, sizeof *c);
  if (c == NULL) return chv_error_set(err, CHV_ENOMEM, "out of memory");
  c->kind = kind;
  c->block_size = block_size;
  *out = c;
  return CHV_OK;
}

int chv_orc_tail_codec_open(const struct chv_orc_tail *t, chv_orc_codec **out,
                            struct chv_error *err) {
  return chv_orc_codec_open(t->compression, t->block_size, out, err);
}

void chv_orc_codec_close(chv_orc_codec *c) {
  if (c == NULL) return;
  if (c->zi_ready) inflateEnd(&c->zi);
  if (c->zd_ready) deflateEnd(&c->zd);
  ZSTD_freeDCtx(c->zsd);
  ZSTD_freeCCtx(c->zsc);
  chv_free(c->lzo_work);
  chv_free(c);
}

int32_t chv_orc_codec_kind(const chv_orc_codec *c) {
  return c ? c->kind : CHV_ORC_COMP_NONE;
}

uint64_t chv_orc_codec_block_size(const chv_orc_codec *c) {
  return c ? c->block_size : CHV_ORC_DEFAULT_BLOCK_SIZE;
}

void chv_orc_codec_set_level(chv_orc_codec *c, int level) {
  c->level = level;
}

static bool compressed(const chv_orc_codec *c) {
  return c != NULL && c->kind != CHV_ORC_COMP_NONE;
}

/* ---- one chunk --------------------------------------------------------- */

static int too_big(struct chv_error *err, const char *codec, size_t cap) {
  return chv_error_set(err, CHV_ECORRUPT,
                       "%s chunk inflates to more than the block size (%zu "
                       "bytes)",
                       codec, cap);
}

static int bad(struct chv_error *err, const char *codec, size_t n,
               const char *why) {
  return chv_error_set(err, CHV_ECORRUPT,
                       "%s chunk of %zu bytes is corrupt%s%s", codec, n,
                       why ? ": " : "", why ? why : "");
}

static int dec_zlib(chv_orc_codec *c, const uint8_t *in, size_t n, uint8_t *out,
                    size_t cap, size_t *got, struct chv_error *err) {
  if (n > UINT_MAX || cap > UINT_MAX) return bad(err, "ZLIB", n, "too long");
  z_stream *z = &c->zi;
  if (!c->zi_ready) {
    memset(z, 0, sizeof *z);
    if (inflateInit2(z, -15) != Z_OK)
      return chv_error_set(err, CHV_ENOMEM, "out of memory (zlib)");
    c->zi_ready = true;
  } else if (inflateReset(z) != Z_OK) {
    return chv_error_set(err, CHV_EINTERNAL, "zlib: inflateReset failed");
  }
  z->next_in = (Bytef *)(uintptr_t)in;
  z->avail_in = (uInt)n;
  z->next_out = out;
  z->avail_out = (uInt)cap;
  int rc = inflate(z, Z_FINISH);
  if (rc == Z_STREAM_END) {
    /* Bytes after the end of the deflate stream are ignored, as ORC Java's
    ** inflater does. */
    *got = cap - z->avail_out;
    return CHV_OK;
  }
  if (rc == Z_MEM_ERROR)
    return chv_error_set(err, CHV_ENOMEM, "out of memory (zlib)");
  if (rc == Z_BUF_ERROR && z->avail_out == 0) return too_big(err, "ZLIB", cap);
  if (rc == Z_BUF_ERROR)
    return bad(err, "ZLIB", n, "the deflate stream ends early");
  return bad(err, "ZLIB", n, z->msg);
}

static int dec_snappy(const uint8_t *in, size_t n, uint8_t *out, size_t cap,
                      size_t *got, struct chv_error *err) {
  size_t want;
  if (snappy_uncompressed_length((const char *)in, n, &want) != SNAPPY_OK)
    return bad(err, "SNAPPY", n, "no valid length preamble");
  if (want > cap) return too_big(err, "SNAPPY", cap);
  size_t m = want;
  if (snappy_uncompress((const char *)in, n, (char *)out, &m) != SNAPPY_OK ||
      m != want)
    return bad(err, "SNAPPY", n, NULL);
  *got = m;
  return CHV_OK;
}

static int dec_lzo(const uint8_t *in, size_t n, uint8_t *out, size_t cap,
                   size_t *got, struct chv_error *err) {
  lzo_uint m = cap;
  int rc = lzo1x_decompress_safe(in, n, out, &m, NULL);
  if (rc == LZO_E_OUTPUT_OVERRUN) return too_big(err, "LZO", cap);
  if (rc != LZO_E_OK) {
    char why[64];
    snprintf(why, sizeof why, "liblzo2 error %d", rc);
    return bad(err, "LZO", n, why);
  }
  *got = m;
  return CHV_OK;
}

static int dec_lz4(const uint8_t *in, size_t n, uint8_t *out, size_t cap,
                   size_t *got, struct chv_error *err) {
  if (n > INT_MAX || cap > INT_MAX) return bad(err, "LZ4", n, "too long");
  int m = LZ4_decompress_safe((const char *)in, (char *)out, (int)n, (int)cap);
  /* LZ4 cannot tell a block too big for the buffer from a corrupt one. */
  if (m < 0) return bad(err, "LZ4", n, "or inflates past the block size");
  *got = (size_t)m;
  return CHV_OK;
}

static int dec_zstd(chv_orc_codec *c, const uint8_t *in, size_t n, uint8_t *out,
                    size_t cap, size_t *got, struct chv_error *err) {
  if (c->zsd == NULL && (c->zsd = ZSTD_createDCtx()) == NULL)
    return chv_error_set(err, CHV_ENOMEM, "out of memory (zstd)");
  size_t m = ZSTD_decompressDCtx(c->zsd, out, cap, in, n);
  if (ZSTD_isError(m)) {
    if (ZSTD_getErrorCode(m) == ZSTD_error_dstSize_tooSmall)
      return too_big(err, "ZSTD", cap);
    return bad(err, "ZSTD", n, ZSTD_getErrorName(m));
  }
  *got = m;
  return CHV_OK;
}

static int dec_brotli(const uint8_t *in, size_t n, uint8_t *out, size_t cap,
                      size_t *got, struct chv_error *err) {
  size_t m = cap;
  if (BrotliDecoderDecompress(n, in, &m, out) != BROTLI_DECODER_RESULT_SUCCESS)
    return bad(err, "BROTLI", n, "or inflates past the block size");
  *got = m;
  return CHV_OK;
}

int chv_orc_chunk_decompress(chv_orc_codec *c, const void *in, size_t n,
                             void *out, size_t cap, size_t *got,
                             struct chv_error *err) {
  switch (c->kind) {
  case CHV_ORC_COMP_NONE:
    if (n > cap) return too_big(err, "NONE", cap);
    if (n) memcpy(out, in, n);
    *got = n;
    return CHV_OK;
  case CHV_ORC_COMP_ZLIB:
    return dec_zlib(c, in, n, out, cap, got, err);
  case CHV_ORC_COMP_SNAPPY:
    return dec_snappy(in, n, out, cap, got, err);
  case CHV_ORC_COMP_LZO:
    return dec_lzo(in, n, out, cap, got, err);
  case CHV_ORC_COMP_LZ4:
    return dec_lz4(in, n, out, cap, got, err);
  case CHV_ORC_COMP_ZSTD:
    return dec_zstd(c, in, n, out, cap, got, err);
  case CHV_ORC_COMP_BROTLI:
    return dec_brotli(in, n, out, cap, got, err);
  default:
    return chv_error_set(err, CHV_ENOTSUP, "unknown ORC compression kind %d",
                         (int)c->kind);
  }
}

/* Compress in[0, n) into dst (room for bound(n) bytes); *m gets the size,
** or 0 when the codec could not make it smaller than n. */
static size_t bound(const chv_orc_codec *c, size_t n) {
  switch (c->kind) {
  case CHV_ORC_COMP_ZLIB:
    return compressBound((uLong)n);
  case CHV_ORC_COMP_SNAPPY:
    return snappy_max_compressed_length(n);
  case CHV_ORC_COMP_LZO:
    return n + n / 16 + 64 + 3;
  case CHV_ORC_COMP_LZ4:
    return (size_t)LZ4_compressBound((int)n);
  case CHV_ORC_COMP_ZSTD:
    return ZSTD_compressBound(n);
  case CHV_ORC_COMP_BROTLI:
    return BrotliEncoderMaxCompressedSize(n) ? BrotliEncoderMaxCompressedSize(n)
                                             : n + 1024;
  default:
    return n;
  }
}

static int enc_chunk(chv_orc_codec *c, const uint8_t *in, size_t n,
                     uint8_t *dst, size_t cap, size_t *m,
                     struct chv_error *err) {
  switch (c->kind) {
  case CHV_ORC_COMP_ZLIB: {
    int level = c->level ? c->level : ZLIB_LEVEL;
    if (c->zd_ready && c->zd_level != level) {
      deflateEnd(&c->zd);
      c->zd_ready = false;
    }
    if (!c->zd_ready) {
      memset(&c->zd, 0, sizeof c->zd);
      if (deflateInit2(&c->zd, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) !=
          Z_OK)
        return chv_error_set(err, CHV_EINVAL, "zlib: level %d", level);
      c->zd_ready = true;
      c->zd_level = level;
    } else if (deflateReset(&c->zd) != Z_OK) {
      return chv_error_set(err, CHV_EINTERNAL, "zlib: deflateReset failed");
    }
    c->zd.next_in = (Bytef *)(uintptr_t)in;
    c->zd.avail_in = (uInt)n;
    c->zd.next_out = dst;
    c->zd.avail_out = (uInt)cap;
    if (deflate(&c->zd, Z_FINISH) != Z_STREAM_END)
      return chv_error_set(err, CHV_EINTERNAL, "zlib: deflate failed");
    *m = cap - c->zd.avail_out;
    return CHV_OK;
  }
  case CHV_ORC_COMP_SNAPPY: {
    size_t k = cap;
    if (snappy_compress((const char *)in, n, (char *)dst, &k) != SNAPPY_OK)
      return chv_error_set(err, CHV_EINTERNAL, "snappy: compress failed");
    *m = k;
    return CHV_OK;
  }
  case CHV_ORC_COMP_LZO: {
    if (c->lzo_work == NULL &&
        (c->lzo_work = chv_malloc(LZO1X_1_MEM_COMPRESS)) == NULL)
      return chv_error_set(err, CHV_ENOMEM, "out of memory");
    lzo_uint k = cap;
    if (lzo1x_1_compress(in, n, dst, &k, c->lzo_work) != LZO_E_OK)
      return chv_error_set(err, CHV_EINTERNAL, "lzo: compress failed");
    *m = k;
    return CHV_OK;
  }
  case CHV_ORC_COMP_LZ4: {
    int k =
        LZ4_compress_default((const char *)in, (char *)dst, (int)n, (int)cap);
    if (k <= 0)
      return chv_error_set(err, CHV_EINTERNAL, "lz4: compress failed");
    *m = (size_t)k;
    return CHV_OK;
  }
  case CHV_ORC_COMP_ZSTD: {
    if (c->zsc == NULL && (c->zsc = ZSTD_createCCtx()) == NULL)
      return chv_error_set(err, CHV_ENOMEM, "out of memory (zstd)");
    size_t k = ZSTD_compressCCtx(c->zsc, dst, cap, in, n,
                                 c->level ? c->level : ZSTD_LEVEL);
    if (ZSTD_isError(k))
      return chv_error_set(err, CHV_EINVAL, "zstd: %s", ZSTD_getErrorName(k));
    *m = k;
    return CHV_OK;
  }
  case CHV_ORC_COMP_BROTLI: {
    size_t k = cap;
    int q = c->level ? c->level : BROTLI_LEVEL;
    if (!BrotliEncoderCompress(q, BROTLI_DEFAULT_WINDOW, BROTLI_MODE_GENERIC, n,
                               in, &k, dst))
      return chv_error_set(err, CHV_EINVAL, "brotli: compress failed");
    *m = k;
    return CHV_OK;
  }
  default:
    return chv_error_set(err, CHV_ENOTSUP, "unknown ORC compression kind %d",
                         (int)c->kind);
  }
}

/* Largest chunk the writer emits: the block size, within what a header can
** describe. */
static size_t write_block(const chv_orc_codec *c) {
  return (size_t)CHV_MIN(c->block_size, (uint64_t)CHV_ORC_MAX_CHUNK);
}

/* Append one chunk (header and bytes) holding in[0, n), n <= write_block. */
static int put_chunk(chv_orc_codec *c, const uint8_t *in, size_t n,
                     struct chv_buf *out, struct chv_error *err) {
  size_t cap = bound(c, n);
  size_t at = out->len;
  if (chv_buf_reserve(out, 3 + CHV_MAX(cap, n)) != CHV_OK)
    return chv_error_set(err, CHV_ENOMEM, "out of memory");
  uint8_t *dst = (uint8_t *)out->data + at + 3;
  size_t m = 0;
  CHV_RETURN_IF_ERR(enc_chunk(c, in, n, dst, cap, &m, err));
  bool original = m >= n;
  if (original) {
    if (n) memcpy(dst, in, n);
    m = n;
  }
  chv_orc_chunk_header((uint8_t *)out->data + at, (uint32_t)m, original);
  out->len = at + 3 + m;
  out->data[out->len] = '\0';
  return CHV_OK;
}

int chv_orc_compress_all(chv_orc_codec *c, const void *in, size_t n,
                         struct chv_buf *out, struct chv_error *err) {
  const uint8_t *p = in;
  if (!compressed(c)) {
    if (chv_buf_append(out, p, n) != CHV_OK)
      return chv_error_set(err, CHV_ENOMEM, "out of memory");
    return CHV_OK;
  }
  size_t len0 = out->len;
  size_t block = write_block(c);
  for (size_t off = 0; off < n; off += block) {
    int rc = put_chunk(c, p + off, CHV_MIN(block, n - off), out, err);
    if (rc != CHV_OK) {
      out->len = len0;
      if (out->cap) out->data[len0] = '\0';
      return rc;
    }
  }
  return CHV_OK;
}

/* Parse the chunk header at data[at] (3 bytes must be there). */
static void chunk_header(const uint8_t *h, uint32_t *len, bool *original) {
  uint32_t v = (uint32_t)h[0] | (uint32_t)h[1] << 8 | (uint32_t)h[2] << 16;
  *len = v >> 1;
  *original = v & 1;
}

int chv_orc_decompress_all(chv_orc_codec *c, const void *in, size_t n,
                           int64_t limit, const char *what, struct chv_buf *out,
                           struct chv_error *err) {
  const uint8_t *p = in;
  size_t len0 = out->len;
  int rc = CHV_OK;
  if (!compressed(c)) {
    if ((int64_t)n > limit)
      return chv_error_set(err, CHV_ECORRUPT,
                           "%s: %zu bytes exceed the limit of %" PRId64, what,
                           n, limit);
    if (chv_buf_append(out, p, n) != CHV_OK)
      return chv_error_set(err, CHV_ENOMEM, "out of memory");
    return CHV_OK;
  }
  size_t block = (size_t)c->block_size;
  size_t off = 0;
  while (off < n) {
    if (n - off < 3) {
      rc = chv_error_set(err, CHV_ECORRUPT,
                         "%s: %zu stray bytes at offset %zu, too few for a "
                         "chunk header",
                         what, n - off, off);
      goto out_undo;
    }
    uint32_t len;
    bool original;
    chunk_header(p + off, &len, &original);
    if (len > n - off - 3) {
      rc = chv_error_set(err, CHV_ECORRUPT,
                         "%s: chunk at offset %zu: length %" PRIu32
                         " exceeds the %zu bytes left",
                         what, off, len, n - off - 3);
      goto out_undo;
    }
    size_t room = (size_t)(limit - (int64_t)(out->len - len0));
    if (original) {
      if (len > room) goto out_limit;
      if (chv_buf_append(out, p + off + 3, len) != CHV_OK) goto out_oom;
    } else {
      size_t cap = CHV_MIN(block, room);
      if (chv_buf_reserve(out, cap) != CHV_OK) goto out_oom;
      size_t got = 0;
      rc = chv_orc_chunk_decompress(
          c, p + off + 3, len, (uint8_t *)out->data + out->len, cap, &got, err);
      if (rc != CHV_OK) {
        if (rc == CHV_ECORRUPT && cap < block) goto out_limit;
        chv_error_wrap(err, "%s: chunk at offset %zu", what, off);
        goto out_undo;
      }
      out->len += got;
      out->data[out->len] = '\0';
    }
    off += 3 + (size_t)len;
  }
  return CHV_OK;
out_limit:
  rc = chv_error_set(err, CHV_ECORRUPT,
                     "%s: decompresses to more than the limit of %" PRId64
                     " bytes",
                     what, limit);
  goto out_undo;
out_oom:
  rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
out_undo:
  out->len = len0;
  if (out->cap) out->data[len0] = '\0';
  return rc;
}

/* ---- the stream reader ------------------------------------------------- */

void chv_orc_stream_init(struct chv_orc_stream *s, chv_orc_codec *codec,
                         const void *data, size_t len, const char *name) {
  memset(s, 0, sizeof *s);
  s->codec = codec;
  s->data = data;
  s->len = data ? len : 0;
  s->name = name ? name : "ORC stream";
  if (!compressed(codec)) {
    /* One chunk: the whole stream. */
    s->cur = s->data;
    s->cur_len = s->len;
    s->next = s->len;
  }
}

void chv_orc_stream_free(struct chv_orc_stream *s) {
  chv_free(s->scratch);
  s->scratch = NULL;
  s->scratch_cap = 0;
}

/* Load the chunk whose header is at data[at] (at < len). */
static int load_chunk(struct chv_orc_stream *s, size_t at,
                      struct chv_error *err) {
  if (s->len - at < 3)
    return chv_error_set(err, CHV_ECORRUPT,
                         "%s: %zu stray bytes at offset %zu, too few for a "
                         "chunk header",
                         s->name, s->len - at, at);
  uint32_t len;
  bool original;
  chunk_header(s->data + at, &len, &original);
  if (len > s->len - at - 3)
    return chv_error_set(err, CHV_ECORRUPT,
                         "%s: chunk at offset %zu: length %" PRIu32
                         " exceeds the %zu bytes left",
                         s->name, at, len, s->len - at - 3);
  const uint8_t *p = s->data + at + 3;
  if (original) {
    s->cur = p;
    s->cur_len = len;
  } else {
    size_t block = (size_t)s->codec->block_size;
    if (s->scratch_cap < block) {
      uint8_t *b = chv_realloc(s->scratch, block);
      if (b == NULL) return chv_error_set(err, CHV_ENOMEM, "out of memory");
      s->scratch = b;
      s->scratch_cap = block;
    }
    size_t got = 0;
    int rc = chv_orc_chunk_decompress(s->codec, p, len, s->scratch, block, &got,
                                      err);
    if (rc != CHV_OK) {
      /* The chunk is no longer current: a retry must load it again. */
      s->cur_len = s->cur_pos = 0;
      s->next = s->len;
      return chv_error_wrap(err, "%s: chunk at offset %zu", s->name, at);
    }
    s->cur = s->scratch;
    s->cur_len = got;
  }
  s->produced += s->cur_len;
  s->chunk = at;
  s->cur_pos = 0;
  s->next = at + 3 + (size_t)len;
  return CHV_OK;
}

int chv_orc_stream_advance(struct chv_orc_stream *s, bool *got,
                           struct chv_error *err) {
  while (s->cur_pos >= s->cur_len) {
    if (s->next >= s->len) {
      *got = false;
      return CHV_OK;
    }
    CHV_RETURN_IF_ERR(load_chunk(s, s->next, err));
  }
  *got = true;
  return CHV_OK;
}

static int ends(struct chv_orc_stream *s, struct chv_error *err) {
  return chv_error_set(err, CHV_ECORRUPT, "%s: the stream ends early", s->name);
}

int chv_orc_stream_byte_slow(struct chv_orc_stream *s, uint8_t *b,
                             struct chv_error *err) {
  bool got;
  CHV_RETURN_IF_ERR(chv_orc_stream_advance(s, &got, err));
  if (!got) return ends(s, err);
  *b = s->cur[s->cur_pos++];
  return CHV_OK;
}

int chv_orc_stream_next(struct chv_orc_stream *s, size_t max, const uint8_t **p,
                        size_t *n, struct chv_error *err) {
  bool got;
  CHV_RETURN_IF_ERR(chv_orc_stream_advance(s, &got, err));
  if (!got) {
    *p = NULL;
    *n = 0;
    return CHV_OK;
  }
  size_t k = CHV_MIN(max, s->cur_len - s->cur_pos);
  *p = s->cur + s->cur_pos;
  *n = k;
  s->cur_pos += k;
  return CHV_OK;
}

int chv_orc_stream_read(struct chv_orc_stream *s, void *out, size_t n,
                        struct chv_error *err) {
  uint8_t *o = out;
  while (n > 0) {
    const uint8_t *p;
    size_t k;
    CHV_RETURN_IF_ERR(chv_orc_stream_next(s, n, &p, &k, err));
    if (k == 0) return ends(s, err);
    memcpy(o, p, k);
    o += k;
    n -= k;
  }
  return CHV_OK;
}

int chv_orc_stream_view(struct chv_orc_stream *s, size_t n, uint8_t *tmp,
                        const uint8_t **p, struct chv_error *err) {
  if (CHV_LIKELY(s->cur_len - s->cur_pos >= n)) {
    *p = s->cur + s->cur_pos;
    s->cur_pos += n;
    return CHV_OK;
  }
  CHV_RETURN_IF_ERR(chv_orc_stream_read(s, tmp, n, err));
  *p = tmp;
  return CHV_OK;
}

int chv_orc_stream_skip(struct chv_orc_stream *s, uint64_t n,
                        struct chv_error *err) {
  while (n > 0) {
    const uint8_t *p;
    size_t k;
    CHV_RETURN_IF_ERR(chv_orc_stream_next(
        s, (size_t)CHV_MIN(n, (uint64_t)SIZE_MAX), &p, &k, err));
    if (k == 0) return ends(s, err);
    n -= k;
  }
  return CHV_OK;
}

bool chv_orc_stream_at_end(struct chv_orc_stream *s) {
  bool got;
  if (chv_orc_stream_advance(s, &got, NULL) != CHV_OK) return false;
  return !got;
}

int chv_orc_stream_seek(struct chv_orc_stream *s, uint64_t chunk,
                        uint64_t in_chunk, struct chv_error *err) {
  if (!compressed(s->codec)) {
    if (chunk > s->len)
      return chv_error_set(err, CHV_ECORRUPT,
                           "%s: position %" PRIu64
                           " is past the %zu bytes of the stream",
                           s->name, chunk, s->len);
    s->cur = s->data;
    s->cur_len = s->len;
    s->cur_pos = (size_t)chunk;
    s->next = s->len;
    return CHV_OK;
  }
  if (chunk > s->len)
    return chv_error_set(err, CHV_ECORRUPT,
                         "%s: chunk position %" PRIu64
                         " is past the %zu bytes of the stream",
                         s->name, chunk, s->len);
  if (chunk == s->len) {
    /* The end of the stream: nothing to read from there. */
    if (in_chunk != 0)
      return chv_error_set(err, CHV_ECORRUPT,
                           "%s: position %" PRIu64 " into the end of the "
                           "stream",
                           s->name, in_chunk);
    s->cur_len = s->cur_pos = 0;
    s->next = s->len;
    return CHV_OK;
  }
  /* Reuse the current chunk when it is the one asked for. */
  bool loaded = s->chunk == chunk && s->cur_len > 0 && s->next > s->chunk &&
                s->cur != NULL;
  if (!loaded) CHV_RETURN_IF_ERR(load_chunk(s, (size_t)chunk, err));
  if (in_chunk > s->cur_len)
    return chv_error_set(err, CHV_ECORRUPT,
                         "%s: position %" PRIu64 " is past the %zu bytes of "
                         "the chunk at offset %" PRIu64,
                         s->name, in_chunk, s->cur_len, chunk);
  s->cur_pos = (size_t)in_chunk;
  return CHV_OK;
}

int chv_orc_stream_seek_positions(struct chv_orc_stream *s, const uint64_t *pos,
                                  uint32_t npos, uint32_t *i,
                                  struct chv_error *err) {
  uint32_t need = compressed(s->codec) ? 2 : 1;
  if (*i > npos || npos - *i < need)
    return chv_error_set(err, CHV_ECORRUPT,
                         "%s: the row index has %" PRIu32
                         " positions, too few to seek",
                         s->name, npos);
  uint64_t a = pos[*i], b = need == 2 ? pos[*i + 1] : 0;
  CHV_RETURN_IF_ERR(chv_orc_stream_seek(s, a, b, err));
  *i += need;
  return CHV_OK;
}

/* ---- the stream writer ------------------------------------------------- */

void chv_orc_out_init(struct chv_orc_out *o, chv_orc_codec *codec) {
  memset(o, 0, sizeof *o);
  o->codec = compressed(codec) ? codec : NULL;
  chv_buf_init(&o->out);
  o->block = o->codec ? write_block(o->codec) : 0;
}

void chv_orc_out_free(struct chv_orc_out *o) {
  chv_buf_free(&o->out);
  chv_free(o->pending);
  o->pending = NULL;
  o->pending_len = 0;
}

void chv_orc_out_reset(struct chv_orc_out *o) {
  chv_buf_reset(&o->out);
  o->pending_len = 0;
  o->uncompressed = 0;
  o->status = CHV_OK;
}

static int out_fail(struct chv_orc_out *o, int rc) {
  o->status = rc;
  return rc;
}

static int emit(struct chv_orc_out *o, struct chv_error *err) {
  if (o->pending_len == 0) return CHV_OK;
  int rc = put_chunk(o->codec, o->pending, o->pending_len, &o->out, err);
  if (rc != CHV_OK) return out_fail(o, rc);
  o->pending_len = 0;
  return CHV_OK;
}

int chv_orc_out_write(struct chv_orc_out *o, const void *p, size_t n,
                      struct chv_error *err) {
  if (o->status != CHV_OK)
    return chv_error_set(err, o->status, "ORC stream writer failed earlier");
  const uint8_t *b = p;
  o->uncompressed += n;
  if (o->codec == NULL) {
    if (chv_buf_append(&o->out, b, n) != CHV_OK)
      return out_fail(o, chv_error_set(err, CHV_ENOMEM, "out of memory"));
    return CHV_OK;
  }
  if (o->pending == NULL && n > 0) {
    o->pending = chv_malloc(o->block);
    if (o->pending == NULL)
      return out_fail(o, chv_error_set(err, CHV_ENOMEM, "out of memory"));
  }
  while (n > 0) {
    size_t k = CHV_MIN(n, o->block - o->pending_len);
    memcpy(o->pending + o->pending_len, b, k);
    o->pending_len += k;
    b += k;
    n -= k;
    if (o->pending_len == o->block) CHV_RETURN_IF_ERR(emit(o, err));
  }
  return CHV_OK;
}

int chv_orc_out_byte(struct chv_orc_out *o, uint8_t b, struct chv_error *err) {
  if (o->codec && o->pending && o->pending_len + 1 < o->block &&
      o->status == CHV_OK) {
    o->pending[o->pending_len++] = b;
    o->uncompressed++;
    return CHV_OK;
  }
  return chv_orc_out_write(o, &b, 1, err);
}

int chv_orc_out_position(const struct chv_orc_out *o, uint64_t pos[2]) {
  if (o->codec == NULL) {
    pos[0] = o->out.len;
    return 1;
  }
  pos[0] = o->out.len;
  pos[1] = o->pending_len;
  return 2;
}

int chv_orc_out_flush(struct chv_orc_out *o, struct chv_error *err) {
  if (o->status != CHV_OK)
    return chv_error_set(err, o->status, "ORC stream writer failed earlier");
  if (o->codec == NULL) return CHV_OK;
  return emit(o, err);
}
