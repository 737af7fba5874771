/*
** One-shot page compression and decompression over the system libraries
** (snappy, zlib, brotli, lz4, zstd); see block.h for the formats accepted.
** Snappy pages are decoded here (the hot codec of Parquet scans; see
** snappy_tags()), compressed by libsnappy.
**
** Every decompressor here is told the exact output size and a buffer of that
** size.  The libraries are driven so that they cannot write past it (each
** takes the output capacity), and the result is then held to the size: a
** stream that ends early, or would go on past the end, is an error naming
** the codec and both sizes.
**
** INTERFACE: chv_block_codec_name(), chv_block_codec_supported(),
** chv_block_ctx_open/_close(), chv_block_decompress(), chv_block_compress(),
** chv_block_check_size(), chv_block_measure() as declared in block.h.
*/
#include "codec/block.h"

#include <limits.h>

#include <brotli/decode.h>
#include <brotli/encode.h>
#include <lz4.h>
#include <snappy-c.h>
#include <zlib.h>
#include <zstd.h>
#include <zstd_errors.h>

static const char *const codec_names[] = {
#define CHV_X_(name, id) [id] = #name,
    CHV_BLOCK_CODEC_MAP(CHV_X_)
#undef CHV_X_
};

const char *chv_block_codec_name(int codec) {
  return codec >= 0 && codec < CHV_BLOCK_CODEC_COUNT ? codec_names[codec]
                                                     : "?";
}

bool chv_block_codec_supported(int codec) {
  return codec >= 0 && codec < CHV_BLOCK_CODEC_COUNT &&
         codec != CHV_BLOCK_LZO;
}

struct chv_block_ctx {
  ZSTD_DCtx *zd;  /* zstd decompression, created on first use */
  ZSTD_CCtx *zc;  /* zstd compression, created on first use */
  z_stream zi;    /* zlib inflate state */
  bool zi_ready;  /* zi was initialised (inflateInit2) */
};

int chv_block_ctx_open(chv_block_ctx **out, struct chv_error *err) {
  chv_block_ctx *c = chv_calloc(1, sizeof *c);
  if (c == NULL) return chv_error_set(err, CHV_ENOMEM, "out of memory");
  *out = c;
  return CHV_OK;
}

void chv_block_ctx_close(chv_block_ctx *c) {
  if (c == NULL) return;
  ZSTD_freeDCtx(c->zd);
  ZSTD_freeCCtx(c->zc);
  if (c->zi_ready) inflateEnd(&c->zi);
  chv_free(c);
}

static uint32_t be32(const uint8_t *p) {
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 |
         p[3];
}

static void put_be32(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)(v >> 24);
  p[1] = (uint8_t)(v >> 16);
  p[2] = (uint8_t)(v >> 8);
  p[3] = (uint8_t)v;
}

static int size_mismatch(struct chv_error *err, const char *codec,
                         size_t got, size_t want) {
  return chv_error_set(err, CHV_ECORRUPT,
                       "%s page inflates to %zu bytes, header says %zu", codec,
                       got, want);
}

static int too_big(struct chv_error *err, const char *codec, size_t want) {
  return chv_error_set(err, CHV_ECORRUPT,
                       "%s page inflates to more than %zu bytes, header says "
                       "%zu",
                       codec, want, want);
}

/* ---- decompression ---------------------------------------------------- */

/* ---- snappy ------------------------------------------------------------ */

/* The raw snappy format (format_description.txt in google/snappy): a
** varint of the uncompressed length, then tags, each a literal (bytes that
** follow the tag) or a copy (bytes already written, at an offset back).
** Decoded here rather than by libsnappy, whose copies go through a libc
** call each (a tag every few bytes in pages of numbers): with 16 bytes of
** slack ahead in both buffers, literals of up to 16 bytes and copies whose
** offset is at least 16 move in whole 16-byte words, and only the last
** bytes of a page, and runs repeating a pattern shorter than 8 bytes, go
** a byte at a time.  Every length and offset is checked against both
** buffers first, so that corrupt input can neither read nor write outside
** them. */

/* The stated length: a varint of at most 32 bits; 0 when malformed. */
static size_t snappy_preamble(const uint8_t *p, size_t n, uint64_t *len) {
  uint64_t v = 0;
  for (size_t i = 0; i < n && i < 5; i++) {
    v |= (uint64_t)(p[i] & 0x7f) << (7 * i);
    if (p[i] < 0x80) {
      if (v > UINT32_MAX) return 0;
      *len = v;
      return i + 1;
    }
  }
  return 0;
}

static inline void copy16(uint8_t *d, const uint8_t *s) { memcpy(d, s, 16); }
static inline void copy8(uint8_t *d, const uint8_t *s) { memcpy(d, s, 8); }

/* A literal of len - 1 from its tag (1 to 64; over 60: its length follows
** in 1 to 4 bytes) at *ipp, copied to *opp; both advanced.  false: it runs
** past either buffer.  Out of line: numbers rarely have literals this long,
** and the loop decoding them is faster without it; the tail loop takes
** every literal it cannot move in one word here. */
__attribute__((noinline)) static bool snappy_literal(const uint8_t **ipp,
                                                     const uint8_t *ie,
                                                     uint8_t **opp,
                                                     uint8_t *oe, size_t len) {
  const uint8_t *ip = *ipp;
  uint8_t *op = *opp;
  if (len > 60) { /* its length in the next 1 to 4 bytes */
    size_t nb = len - 60;
    if ((size_t)(ie - ip) < nb) return false;
    len = 0;
    for (size_t i = 0; i < nb; i++) len |= (size_t)ip[i] << (8 * i);
    ip += nb;
    len += 1;
  }
  if ((size_t)(ie - ip) < len || (size_t)(oe - op) < len) return false;
  if ((size_t)(ie - ip) >= len + 15 && (size_t)(oe - op) >= len + 15) {
    for (size_t i = 0; i < len; i += 16) copy16(op + i, ip + i);
  } else {
    memcpy(op, ip, len);
  }
  *ipp = ip + len;
  *opp = op + len;
  return true;
}

/* Decode the tags of in[0, in_len) into out[0, out_len).  false: corrupt
** (a tag cut short, an offset before the start, more bytes than out_len);
** *got is the bytes written either way.  Away from the ends of both
** buffers the common tags take fixed moves: a literal of up to 16 bytes
** one 16-byte word, a copy with an offset of 16 or more one, or four when
** it moves more than 16 bytes (each word read before it is written: src +
** i + 16 <= op + i, so bytes past the copy's length are garbage that later
** tags overwrite), one with an offset of 8 to 15 two 8-byte words and more
** when longer. */
static bool snappy_tags(const uint8_t *ip, const uint8_t *ie, uint8_t *out,
                        size_t out_len, size_t *got) {
  uint8_t *op = out, *oe = out + out_len;
  bool ok = false;
  /* While at least 21 input bytes (a tag, its 4 offset bytes, a 16-byte
  ** literal) and 80 output bytes (a 64-byte copy and slack) are left, a tag
  ** needs no bounds check but a long literal's and the copy offset's. */
  while (ie - ip >= 21 && oe - op >= 80) {
    uint32_t tag = *ip++;
    size_t len, off;
    switch (tag & 3) {
    case 0:
      len = (tag >> 2) + 1;
      if (len <= 16) {
        copy16(op, ip);
        op += len;
        ip += len;
        continue;
      }
      if (CHV_UNLIKELY(!snappy_literal(&ip, ie, &op, oe, len))) goto out;
      continue;
    case 1:
      len = 4 + ((tag >> 2) & 7);
      off = (size_t)(tag >> 5) << 8 | *ip++;
      break;
    case 2:
      len = (tag >> 2) + 1;
      off = (size_t)ip[0] | (size_t)ip[1] << 8;
      ip += 2;
      break;
    default:
      len = (tag >> 2) + 1;
      off = (size_t)ip[0] | (size_t)ip[1] << 8 | (size_t)ip[2] << 16 |
            (size_t)ip[3] << 24;
      ip += 4;
      break;
    }
    if (off - 1 >= (size_t)(op - out)) goto out; /* 0, or before the start */
    const uint8_t *src = op - off;
    if (off >= 16) {
      copy16(op, src);
      if (len > 16) { /* rare in pages of numbers: a branch well predicted */
        copy16(op + 16, src + 16);
        copy16(op + 32, src + 32);
        copy16(op + 48, src + 48);
      }
    } else if (off >= 8) {
      copy8(op, src);
      copy8(op + 8, src + 8);
      for (size_t i = 16; i < len; i += 8) copy8(op + i, src + i);
    } else {
      for (size_t i = 0; i < len; i++) op[i] = src[i];
    }
    op += len;
  }
  while (ip < ie) {
    uint32_t tag = *ip++;
    size_t len, off;
    switch (tag & 3) {
    case 0: /* literal */
      len = (tag >> 2) + 1;
      if (len <= 16 && ie - ip >= 16 && oe - op >= 16) {
        copy16(op, ip);
        op += len;
        ip += len;
        continue;
      }
      if (!snappy_literal(&ip, ie, &op, oe, len)) goto out;
      continue;
    case 1: /* copy, 11-bit offset */
      if (ip == ie) goto out;
      len = 4 + ((tag >> 2) & 7);
      off = (size_t)(tag >> 5) << 8 | *ip++;
      break;
    case 2: /* copy, 16-bit offset */
      if (ie - ip < 2) goto out;
      len = (tag >> 2) + 1;
      off = (size_t)ip[0] | (size_t)ip[1] << 8;
      ip += 2;
      break;
    default: /* copy, 32-bit offset */
      if (ie - ip < 4) goto out;
      len = (tag >> 2) + 1;
      off = (size_t)ip[0] | (size_t)ip[1] << 8 | (size_t)ip[2] << 16 |
            (size_t)ip[3] << 24;
      ip += 4;
      break;
    }
    if (off == 0 || off > (size_t)(op - out) || len > (size_t)(oe - op))
      goto out;
    const uint8_t *src = op - off;
    size_t room = (size_t)(oe - op);
    if (off >= 16 && room >= 64) {
      copy16(op, src);
      copy16(op + 16, src + 16);
      copy16(op + 32, src + 32);
      copy16(op + 48, src + 48);
    } else if (off >= 8 && room >= len + 16) {
      copy8(op, src);
      copy8(op + 8, src + 8);
      for (size_t i = 16; i < len; i += 8) copy8(op + i, src + i);
    } else {
      for (size_t i = 0; i < len; i++) op[i] = src[i];
    }
    op += len;
  }
  ok = true;
out:
  *got = (size_t)(op - out);
  return ok;
}

static int dec_snappy(const uint8_t *in, size_t in_len, uint8_t *out,
                      size_t out_len, struct chv_error *err) {
  uint64_t stated;
  size_t hl = snappy_preamble(in, in_len, &stated);
  if (hl == 0)
    return chv_error_set(err, CHV_ECORRUPT,
                         "snappy page of %zu bytes has no valid length "
                         "preamble",
                         in_len);
  if (stated != out_len)
    return size_mismatch(err, "snappy", (size_t)stated, out_len);
  size_t n;
  if (!snappy_tags(in + hl, in + in_len, out, out_len, &n))
    return chv_error_set(err, CHV_ECORRUPT,
                         "snappy page of %zu bytes is corrupt", in_len);
  if (n != out_len) return size_mismatch(err, "snappy", n, out_len);
  return CHV_OK;
}

static bool all_zero(const uint8_t *p, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (p[i]) return false;
  return true;
}

static int dec_gzip(chv_block_ctx *ctx, const uint8_t *in, size_t in_len,
                    uint8_t *out, size_t out_len, struct chv_error *err) {
  if (in_len > UINT_MAX || out_len > UINT_MAX)
    return chv_error_set(err, CHV_ERANGE,
                         "gzip page of %zu bytes (%zu inflated) is too large",
                         in_len, out_len);
  z_stream *z = &ctx->zi;
  if (!ctx->zi_ready) {
    memset(z, 0, sizeof *z);
    if (inflateInit2(z, 15 + 32) != Z_OK)
      return chv_error_set(err, CHV_ENOMEM, "cannot start gzip decompressor");
    ctx->zi_ready = true;
  } else if (inflateReset2(z, 15 + 32) != Z_OK) {
    return chv_error_set(err, CHV_EINTERNAL, "cannot reset gzip decompressor");
  }
  z->next_in = (Bytef *)in;
  z->avail_in = (uInt)in_len;
  z->next_out = out;
  z->avail_out = (uInt)out_len;
  /* Once out is full, inflation goes on into one scratch byte: a stream
  ** that puts anything there inflates to more than the header says. */
  uint8_t extra;
  bool scratch = false;
  int members = 0;
  for (;;) {
    if (z->avail_out == 0 && !scratch) {
      z->next_out = &extra;
      z->avail_out = 1;
      scratch = true;
    }
    int zr = inflate(z, Z_FINISH);
    if (scratch && z->avail_out == 0) return too_big(err, "gzip", out_len);
    if (zr == Z_STREAM_END) {
      members++;
      size_t left = z->avail_in;
      if (left == 0 || all_zero(z->next_in, left)) break;
      if (z->next_in[0] != 0x1f && z->next_in[0] != 0x78)
        return chv_error_set(err, CHV_ECORRUPT,
                             "gzip page has %zu bytes of garbage after member "
                             "%d",
                             left, members);
      if (inflateReset(z) != Z_OK)
        return chv_error_set(err, CHV_EINTERNAL,
                             "cannot reset gzip decompressor");
      continue;
    }
    if (zr == Z_MEM_ERROR)
      return chv_error_set(err, CHV_ENOMEM, "out of memory inflating gzip");
    if (zr != Z_OK && zr != Z_BUF_ERROR)
      return chv_error_set(err, CHV_ECORRUPT, "gzip page is corrupt: %s",
                           z->msg ? z->msg : "bad data");
    if (z->avail_out == 0 && !scratch) continue;
    return chv_error_set(err, CHV_ECORRUPT,
                         "gzip page is truncated: it inflates to %zu bytes "
                         "before its input ends, header says %zu",
                         scratch ? out_len : out_len - z->avail_out, out_len);
  }
  if (!scratch && z->avail_out != 0)
    return size_mismatch(err, "gzip", out_len - z->avail_out, out_len);
  return CHV_OK;
}

static int dec_zstd(chv_block_ctx *ctx, const uint8_t *in, size_t in_len,
                    uint8_t *out, size_t out_len, struct chv_error *err) {
  if (ctx->zd == NULL && (ctx->zd = ZSTD_createDCtx()) == NULL)
    return chv_error_set(err, CHV_ENOMEM, "cannot start zstd decompressor");
  size_t r = ZSTD_decompressDCtx(ctx->zd, out, out_len, in, in_len);
  if (ZSTD_isError(r)) {
    if (ZSTD_getErrorCode(r) == ZSTD_error_dstSize_tooSmall)
      return too_big(err, "zstd", out_len);
    if (ZSTD_getErrorCode(r) == ZSTD_error_memory_allocation)
      return chv_error_set(err, CHV_ENOMEM, "out of memory inflating zstd");
    return chv_error_set(err, CHV_ECORRUPT, "zstd page is corrupt: %s",
                         ZSTD_getErrorName(r));
  }
  if (r != out_len) return size_mismatch(err, "zstd", r, out_len);
  return CHV_OK;
}

static int dec_brotli(const uint8_t *in, size_t in_len, uint8_t *out,
                      size_t out_len, struct chv_error *err) {
  BrotliDecoderState *s = BrotliDecoderCreateInstance(NULL, NULL, NULL);
  if (s == NULL)
    return chv_error_set(err, CHV_ENOMEM, "cannot start brotli decompressor");
  size_t avail_in = in_len, avail_out = out_len;
  const uint8_t *next_in = in;
  uint8_t *next_out = out;
  BrotliDecoderResult r = BrotliDecoderDecompressStream(
      s, &avail_in, &next_in, &avail_out, &next_out, NULL);
  int rc = CHV_OK;
  if (r == BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT) {
    rc = too_big(err, "brotli", out_len);
  } else if (r == BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT) {
    rc = chv_error_set(err, CHV_ECORRUPT,
                       "brotli page is truncated: it inflates to %zu bytes "
                       "before its input ends, header says %zu",
                       out_len - avail_out, out_len);
  } else if (r == BROTLI_DECODER_RESULT_ERROR) {
    rc = chv_error_set(err, CHV_ECORRUPT, "brotli page is corrupt: %s",
                       BrotliDecoderErrorString(BrotliDecoderGetErrorCode(s)));
  } else if (avail_in != 0 && !all_zero(next_in, avail_in)) {
    rc = chv_error_set(err, CHV_ECORRUPT,
                       "brotli page has %zu bytes of garbage after its stream",
                       avail_in);
  } else if (avail_out != 0) {
    rc = size_mismatch(err, "brotli", out_len - avail_out, out_len);
  }
  BrotliDecoderDestroyInstance(s);
  return rc;
}

static int dec_lz4_raw(const uint8_t *in, size_t in_len, uint8_t *out,
                       size_t out_len, const char *name,
                       struct chv_error *err) {
  if (in_len > INT_MAX || out_len > INT_MAX)
    return chv_error_set(err, CHV_ERANGE,
                         "%s page of %zu bytes (%zu inflated) is too large",
                         name, in_len, out_len);
  int r = LZ4_decompress_safe((const char *)in, (char *)out, (int)in_len,
                              (int)out_len);
  if (r < 0) {
    /* Either corrupt, or it needed more room: a second try into a larger
    ** scratch buffer would tell them apart, but the bytes are wrong either
    ** way. */
    return chv_error_set(err, CHV_ECORRUPT,
                         "%s page of %zu bytes is corrupt or inflates to "
                         "more than %zu bytes",
                         name, in_len, out_len);
  }
  if ((size_t)r != out_len) return size_mismatch(err, name, (size_t)r, out_len);
  return CHV_OK;
}

/* Hadoop's BlockCompressorStream framing around LZ4 blocks; true when the
** bytes parse as it exactly and fill out exactly. */
static bool dec_hadoop_lz4(const uint8_t *in, size_t in_len, uint8_t *out,
                           size_t out_len) {
  size_t ip = 0, op = 0;
  if (in_len < 8 || in_len > INT_MAX) return false;
  while (ip < in_len) {
    if (in_len - ip < 8) return false;
    uint32_t ulen = be32(in + ip);
    ip += 4;
    if (ulen > out_len - op) return false;
    size_t frame_end = op + ulen;
    do {
      if (in_len - ip < 4) return false;
      uint32_t clen = be32(in + ip);
      ip += 4;
      if (clen > in_len - ip) return false;
      int r = LZ4_decompress_safe((const char *)in + ip, (char *)out + op,
                                  (int)clen, (int)(frame_end - op));
      if (r < 0) return false;
      ip += clen;
      op += (size_t)r;
    } while (op < frame_end);
  }
  return op == out_len;
}

static int dec_lz4_legacy(const uint8_t *in, size_t in_len, uint8_t *out,
                          size_t out_len, struct chv_error *err) {
  if (dec_hadoop_lz4(in, in_len, out, out_len)) return CHV_OK;
  int rc = dec_lz4_raw(in, in_len, out, out_len, "lz4", err);
  if (rc == CHV_ECORRUPT)
    return chv_error_set(err, CHV_ECORRUPT,
                         "lz4 page of %zu bytes is neither Hadoop-framed nor "
                         "one LZ4 block inflating to %zu bytes",
                         in_len, out_len);
  return rc;
}

int chv_block_decompress(chv_block_ctx *ctx, int codec, const void *in,
                         size_t in_len, void *out, size_t out_len,
                         struct chv_error *err) {
  if (!chv_block_codec_supported(codec)) {
    if (codec == CHV_BLOCK_LZO)
      return chv_error_set(err, CHV_ENOTSUP,
                           "LZO-compressed pages are not supported");
    return chv_error_set(err, CHV_EINVAL, "unknown compression codec %d",
                         codec);
  }
  const uint8_t *src = in;
  uint8_t *dst = out;
  if (codec == CHV_BLOCK_UNCOMPRESSED) {
    if (in_len != out_len)
      return chv_error_set(err, CHV_ECORRUPT,
                           "uncompressed page has %zu bytes, header says %zu",
                           in_len, out_len);
    if (in_len) memcpy(dst, src, in_len);
    return CHV_OK;
  }
  if (in_len == 0) {
    if (out_len == 0) return CHV_OK;
    return chv_error_set(err, CHV_ECORRUPT,
                         "%s page is empty, header says it inflates to %zu "
                         "bytes",
                         chv_block_codec_name(codec), out_len);
  }
  chv_block_ctx local = {0}, *c = ctx ? ctx : &local;
  int rc;
  switch (codec) {
  case CHV_BLOCK_SNAPPY: rc = dec_snappy(src, in_len, dst, out_len, err); break;
  case CHV_BLOCK_GZIP: rc = dec_gzip(c, src, in_len, dst, out_len, err); break;
  case CHV_BLOCK_BROTLI: rc = dec_brotli(src, in_len, dst, out_len, err); break;
  case CHV_BLOCK_LZ4:
    rc = dec_lz4_legacy(src, in_len, dst, out_len, err);
    break;
  case CHV_BLOCK_ZSTD: rc = dec_zstd(c, src, in_len, dst, out_len, err); break;
  default:
    rc = dec_lz4_raw(src, in_len, dst, out_len, "lz4_raw", err);
    break;
  }
  if (c == &local) {
    ZSTD_freeDCtx(local.zd);
    if (local.zi_ready) inflateEnd(&local.zi);
  }
  return rc;
}

int chv_block_check_size(int codec, int64_t compressed, int64_t uncompressed,
                         int64_t max_uncompressed, struct chv_error *err) {
  if (compressed < 0 || uncompressed < 0)
    return chv_error_set(err, CHV_ECORRUPT,
                         "page sizes %lld (compressed) and %lld "
                         "(uncompressed) must not be negative",
                         (long long)compressed, (long long)uncompressed);
  if (uncompressed > max_uncompressed)
    return chv_error_set(err, CHV_ERANGE,
                         "page of %lld bytes uncompressed exceeds the limit of "
                         "%lld",
                         (long long)uncompressed, (long long)max_uncompressed);
  if (codec == CHV_BLOCK_UNCOMPRESSED && compressed != uncompressed)
    return chv_error_set(err, CHV_ECORRUPT,
                         "uncompressed page has %lld bytes, header says %lld",
                         (long long)compressed, (long long)uncompressed);
  return CHV_OK;
}

/* ---- compression ------------------------------------------------------ */

static int comp_gzip(int level, const uint8_t *in, size_t in_len,
                     struct chv_buf *out, struct chv_error *err) {
  if (in_len > UINT_MAX)
    return chv_error_set(err, CHV_ERANGE, "gzip page of %zu bytes is too large",
                         in_len);
  z_stream z;
  memset(&z, 0, sizeof z);
  if (deflateInit2(&z, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) !=
      Z_OK)
    return chv_error_set(err, CHV_ENOMEM, "cannot start gzip compressor");
  size_t bound = deflateBound(&z, (uLong)in_len) + 32;
  int rc = CHV_OK;
  if (bound > UINT_MAX || chv_buf_reserve(out, bound) != CHV_OK) {
    rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
    goto out_end;
  }
  z.next_in = (Bytef *)in;
  z.avail_in = (uInt)in_len;
  z.next_out = (Bytef *)out->data + out->len;
  z.avail_out = (uInt)bound;
  if (deflate(&z, Z_FINISH) != Z_STREAM_END) {
    rc = chv_error_set(err, CHV_EINTERNAL, "gzip compression did not finish");
    goto out_end;
  }
  out->len += bound - z.avail_out;
  out->data[out->len] = '\0';
out_end:
  deflateEnd(&z);
  return rc;
}

static int comp_lz4_block(const uint8_t *in, size_t in_len, uint8_t *dst,
                          size_t cap, size_t *n, struct chv_error *err) {
  int r = LZ4_compress_default((const char *)in, (char *)dst, (int)in_len,
                               (int)cap);
  if (r <= 0)
    return chv_error_set(err, CHV_EINTERNAL, "lz4 compression failed");
  *n = (size_t)r;
  return CHV_OK;
}

static int comp_lz4(bool hadoop, const uint8_t *in, size_t in_len,
                    struct chv_buf *out, struct chv_error *err) {
  if (in_len > (size_t)LZ4_MAX_INPUT_SIZE)
    return chv_error_set(err, CHV_ERANGE, "lz4 page of %zu bytes is too large",
                         in_len);
  if (!hadoop) {
    size_t cap = (size_t)LZ4_compressBound((int)in_len), n = 0;
    if (chv_buf_reserve(out, cap) != CHV_OK)
      return chv_error_set(err, CHV_ENOMEM, "out of memory");
    CHV_RETURN_IF_ERR(
        comp_lz4_block(in, in_len, (uint8_t *)out->data + out->len, cap, &n,
                       err));
    out->len += n;
    out->data[out->len] = '\0';
    return CHV_OK;
  }
  size_t start = out->len, pos = 0;
  do {
    size_t chunk = CHV_MIN(in_len - pos, (size_t)CHV_BLOCK_HADOOP_FRAME);
    size_t cap = (size_t)LZ4_compressBound((int)chunk), n = 0;
    if (chv_buf_reserve(out, cap + 8) != CHV_OK) {
      out->len = start;
      return chv_error_set(err, CHV_ENOMEM, "out of memory");
    }
    uint8_t *hdr = (uint8_t *)out->data + out->len;
    int rc = comp_lz4_block(in + pos, chunk, hdr + 8, cap, &n, err);
    if (rc != CHV_OK) {
      out->len = start;
      return rc;
    }
    put_be32(hdr, (uint32_t)chunk);
    put_be32(hdr + 4, (uint32_t)n);
    out->len += 8 + n;
    pos += chunk;
  } while (pos < in_len);
  out->data[out->len] = '\0';
  return CHV_OK;
}

int chv_block_compress(chv_block_ctx *ctx, int codec, int level,
                       const void *in, size_t in_len, struct chv_buf *out,
                       struct chv_error *err) {
  if (!chv_block_codec_supported(codec)) {
    if (codec == CHV_BLOCK_LZO)
      return chv_error_set(err, CHV_ENOTSUP,
                           "writing LZO-compressed pages is not supported");
    return chv_error_set(err, CHV_EINVAL, "unknown compression codec %d",
                         codec);
  }
  const uint8_t *src = in;
  switch (codec) {
  case CHV_BLOCK_UNCOMPRESSED:
    if (chv_buf_append(out, src, in_len) != CHV_OK)
      return chv_error_set(err, CHV_ENOMEM, "out of memory");
    return CHV_OK;
  case CHV_BLOCK_SNAPPY: {
    size_t cap = snappy_max_compressed_length(in_len);
    if (chv_buf_reserve(out, cap) != CHV_OK)
      return chv_error_set(err, CHV_ENOMEM, "out of memory");
    if (snappy_compress((const char *)src, in_len, out->data + out->len,
                        &cap) != SNAPPY_OK)
      return chv_error_set(err, CHV_EINTERNAL, "snappy compression failed");
    out->len += cap;
    out->data[out->len] = '\0';
    return CHV_OK;
  }
  case CHV_BLOCK_GZIP:
    if (level < 0 || level > 9)
      return chv_error_set(err, CHV_EINVAL, "gzip level %d is not in 1..9",
                           level);
    return comp_gzip(level ? level : CHV_BLOCK_GZIP_LEVEL, src, in_len, out,
                     err);
  case CHV_BLOCK_BROTLI: {
    if (level < 0 || level > BROTLI_MAX_QUALITY)
      return chv_error_set(err, CHV_EINVAL, "brotli quality %d is not in 1..%d",
                           level, BROTLI_MAX_QUALITY);
    size_t cap = BrotliEncoderMaxCompressedSize(in_len);
    if (cap == 0 || chv_buf_reserve(out, cap) != CHV_OK)
      return chv_error_set(err, CHV_ENOMEM, "out of memory");
    if (!BrotliEncoderCompress(level ? level : CHV_BLOCK_BROTLI_LEVEL,
                               BROTLI_DEFAULT_WINDOW, BROTLI_MODE_GENERIC,
                               in_len, src, &cap,
                               (uint8_t *)out->data + out->len))
      return chv_error_set(err, CHV_EINTERNAL, "brotli compression failed");
    out->len += cap;
    out->data[out->len] = '\0';
    return CHV_OK;
  }
  case CHV_BLOCK_LZ4: return comp_lz4(true, src, in_len, out, err);
  case CHV_BLOCK_LZ4_RAW: return comp_lz4(false, src, in_len, out, err);
  default: break;
  }
  /* ZSTD */
  if (level < -(1 << 17) || level > ZSTD_maxCLevel())
    return chv_error_set(err, CHV_EINVAL, "zstd level %d is not in 1..%d",
                         level, ZSTD_maxCLevel());
  ZSTD_CCtx *zc = ctx ? ctx->zc : NULL;
  if (zc == NULL && (zc = ZSTD_createCCtx()) == NULL)
    return chv_error_set(err, CHV_ENOMEM, "cannot start zstd compressor");
  if (ctx) ctx->zc = zc;
  int rc = CHV_OK;
  size_t cap = ZSTD_compressBound(in_len);
  if (chv_buf_reserve(out, cap) != CHV_OK) {
    rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
    goto out_free_cctx;
  }
  size_t r = ZSTD_compressCCtx(zc, out->data + out->len, cap, src, in_len,
                               level ? level : CHV_BLOCK_ZSTD_LEVEL);
  if (ZSTD_isError(r)) {
    rc = chv_error_set(err, CHV_EINTERNAL, "zstd compression failed: %s",
                       ZSTD_getErrorName(r));
    goto out_free_cctx;
  }
  out->len += r;
  out->data[out->len] = '\0';
out_free_cctx:
  if (ctx == NULL) ZSTD_freeCCtx(zc);
  return rc;
}

/* ---- measuring -------------------------------------------------------- */

int chv_block_measure(int codec, int level, const void *in, size_t in_len,
                      double min_seconds, struct chv_block_speed *out,
                      struct chv_error *err) {
  chv_block_ctx *ctx = NULL;
  CHV_RETURN_IF_ERR(chv_block_ctx_open(&ctx, err));
  struct chv_buf comp;
  chv_buf_init(&comp);
  uint8_t *back = chv_malloc(in_len ? in_len : 1);
  int rc = CHV_OK;
  if (back == NULL) {
    rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
    goto out_free;
  }
  struct chv_block_speed s = {0};
  int64_t t0 = chv_time_mono_ns(), t, bytes = 0;
  do {
    chv_buf_reset(&comp);
    rc = chv_block_compress(ctx, codec, level, in, in_len, &comp, err);
    if (rc != CHV_OK) goto out_free;
    bytes += (int64_t)in_len;
    t = chv_time_mono_ns() - t0;
  } while (t < (int64_t)(min_seconds * 1e9));
  s.compressed_len = comp.len;
  s.compress_mbps = (double)bytes / 1e6 / ((double)t / 1e9);
  t0 = chv_time_mono_ns();
  bytes = 0;
  do {
    rc = chv_block_decompress(ctx, codec, comp.data, comp.len, back, in_len,
                              err);
    if (rc != CHV_OK) goto out_free;
    bytes += (int64_t)in_len;
    t = chv_time_mono_ns() - t0;
  } while (t < (int64_t)(min_seconds * 1e9));
  s.decompress_mbps = (double)bytes / 1e6 / ((double)t / 1e9);
  if (in_len && memcmp(back, in, in_len) != 0) {
    rc = chv_error_set(err, CHV_EINTERNAL, "%s round trip changed the bytes",
                       chv_block_codec_name(codec));
    goto out_free;
  }
  *out = s;
out_free:
  chv_free(back);
  chv_buf_free(&comp);
  chv_block_ctx_close(ctx);
  return rc;
}
