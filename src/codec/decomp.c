/*
** Streaming decompression of gzip, zstd, lz4 (frame or Hadoop block) and
** snappy (framing format or Hadoop block) streams; see compress.h.
**
** gzip, zstd and the lz4 frame format are driven by their libraries'
** streaming APIs.  The block formats (Hadoop's BlockCompressorStream and the
** snappy framing format) are parsed here by a small state machine that
** gathers one length-prefixed unit at a time in `acc` (or uses it straight
** from the caller's input when it is there whole), decodes it into `pend`,
** and hands `pend` out as the caller makes room.
**
** INTERFACE: chv_codec_from_path(), chv_decomp_*(), chv_decompress(),
** chv_decomp_reader_*() as declared in compress.h.
*/
#include "codec/compress.h"

#include <lz4.h>
#include <lz4frame.h>
#include <snappy-c.h>
#include <zlib.h>
#include <zstd.h>

static const struct {
  const char *name;
  const char *ext;
} codec_info[] = {
#define CHV_X_(id, name, ext) {name, ext},
    CHV_CODEC_MAP(CHV_X_)
#undef CHV_X_
};

const char *chv_codec_name(enum chv_codec c) {
  return (unsigned)c < CHV_CODEC_COUNT ? codec_info[c].name : "?";
}

const char *chv_codec_extension(enum chv_codec c) {
  return (unsigned)c < CHV_CODEC_COUNT ? codec_info[c].ext : "";
}

enum chv_codec chv_codec_from_path(const char *path) {
  size_t n = strlen(path);
  for (int c = 1; c < CHV_CODEC_COUNT; c++) {
    size_t e = strlen(codec_info[c].ext);
    if (n > e && memcmp(path + n - e, codec_info[c].ext, e) == 0)
      return (enum chv_codec)c;
  }
  return CHV_CODEC_NONE;
}

/* How a block-structured stream is laid out, once detected. */
enum block_mode {
  MODE_DETECT,   /* LZ4/SNAPPY: first 4 bytes not seen yet */
  MODE_LIBRARY,  /* gzip, zstd, lz4 frame: the library parses */
  MODE_HADOOP,   /* Hadoop BlockCompressorStream */
  MODE_SNAPPY_FRAMED
};

/* States of the block parser. */
enum block_state {
  ST_BLOCK_HDR, /* Hadoop: want the 4-byte uncompressed length */
  ST_CHUNK_HDR, /* Hadoop: 4-byte compressed length; framing: 4-byte header */
  ST_CHUNK_DATA /* the compressed bytes of one chunk */
};

struct chv_decomp {
  enum chv_codec kind;
  enum block_mode mode;
  enum block_state state;
  int64_t max_output; /* 0 = unbounded */
  int64_t total_in;
  int64_t total_out;
  int failed;         /* sticky error code once something went wrong */
  bool at_boundary;   /* the input so far ends at a stream/frame boundary */
  bool members;       /* gzip: at least one member completed */
  bool trailer;       /* gzip: ignoring bytes after the last member */
  /* library streams */
  z_stream z;
  bool z_ready;
  ZSTD_DStream *zs;
  LZ4F_dctx *lz;
  /* block parser */
  struct chv_buf acc;  /* bytes of the unit being gathered */
  size_t acc_pos;      /* lz4 frame: bytes of acc already fed to LZ4F */
  uint32_t want;       /* bytes the current state needs */
  uint32_t block_left; /* Hadoop: uncompressed bytes still due in the block */
  uint8_t chunk_type;  /* framing: type byte of the current chunk */
  bool seen_stream_id; /* framing: stream identifier chunk seen */
  uint8_t *pend;       /* decoded bytes waiting to be handed out */
  size_t pend_len, pend_pos, pend_cap;
};

static uint32_t be32(const uint8_t *p) {
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 |
         p[3];
}

/* CRC-32C (Castagnoli), as the snappy framing format checks it. */
static uint32_t crc32c_table[256];
static bool crc32c_ready;

static uint32_t crc32c(const uint8_t *p, size_t n) {
  if (!crc32c_ready) {
    for (uint32_t i = 0; i < 256; i++) {
      uint32_t c = i;
      for (int k = 0; k < 8; k++) c = (c >> 1) ^ (0x82F63B78u & (0u - (c & 1)));
      crc32c_table[i] = c;
    }
    crc32c_ready = true;
  }
  uint32_t c = 0xFFFFFFFFu;
  while (n--) c = crc32c_table[(c ^ *p++) & 0xFF] ^ (c >> 8);
  return c ^ 0xFFFFFFFFu;
}

static uint32_t snappy_mask(uint32_t crc) {
  return ((crc >> 15) | (crc << 17)) + 0xa282ead8u;
}

static int fail(chv_decomp *d, struct chv_error *err, int code,
                const char *fmt, const char *detail) {
  d->failed = code;
  return chv_error_set(err, code, fmt, chv_codec_name(d->kind), detail);
}

static int check_limit(chv_decomp *d, int64_t more, struct chv_error *err) {
  if (d->max_output > 0 && d->total_out + more > d->max_output) {
    d->failed = CHV_ERANGE;
    return chv_error_set(err, CHV_ERANGE,
                         "%s stream decompresses to more than the limit of "
                         "%lld bytes",
                         chv_codec_name(d->kind), (long long)d->max_output);
  }
  return CHV_OK;
}

int chv_decomp_open(enum chv_codec kind, int64_t max_output, chv_decomp **out,
                    struct chv_error *err) {
  if (kind <= CHV_CODEC_NONE || kind >= CHV_CODEC_COUNT)
    return chv_error_set(err, CHV_EINVAL, "no decompressor for codec %d",
                         (int)kind);
  chv_decomp *d = chv_calloc(1, sizeof *d);
  if (d == NULL) return chv_error_set(err, CHV_ENOMEM, "out of memory");
  d->kind = kind;
  d->max_output = max_output;
  d->at_boundary = true;
  chv_buf_init(&d->acc);
  switch (kind) {
  case CHV_CODEC_GZIP:
    d->mode = MODE_LIBRARY;
    if (inflateInit2(&d->z, 15 + 32) != Z_OK) goto out_nomem;
    d->z_ready = true;
    break;
  case CHV_CODEC_ZSTD:
    d->mode = MODE_LIBRARY;
    d->zs = ZSTD_createDStream();
    if (d->zs == NULL || ZSTD_isError(ZSTD_initDStream(d->zs))) goto out_nomem;
    break;
  default:
    d->mode = MODE_DETECT;
    d->state = ST_CHUNK_HDR;
    d->want = 4;
    break;
  }
  *out = d;
  return CHV_OK;
out_nomem:
  chv_decomp_close(d);
  return chv_error_set(err, CHV_ENOMEM, "cannot start %s decompressor",
                       chv_codec_name(kind));
}

void chv_decomp_close(chv_decomp *d) {
  if (d == NULL) return;
  if (d->z_ready) inflateEnd(&d->z);
  ZSTD_freeDStream(d->zs);
  if (d->lz) LZ4F_freeDecompressionContext(d->lz);
  chv_buf_free(&d->acc);
  chv_free(d->pend);
  chv_free(d);
}

int64_t chv_decomp_total_in(const chv_decomp *d) { return d->total_in; }
int64_t chv_decomp_total_out(const chv_decomp *d) { return d->total_out; }

/* ---- library-driven streams ------------------------------------------- */

static int run_gzip(chv_decomp *d, const uint8_t **in, size_t *in_len,
                    uint8_t **out, size_t *out_len, struct chv_error *err) {
  while (*out_len > 0) {
    if (*in_len == 0 && d->at_boundary) break;
    /* After a complete member, bytes that cannot start another one are
    ** ignored, as Java's GZIPInputStream ignores them (zero padding). */
    if (d->trailer || (d->at_boundary && d->members && (*in)[0] != 0x1f)) {
      d->trailer = true;
      d->total_in += (int64_t)*in_len;
      *in += *in_len;
      *in_len = 0;
      break;
    }
    d->z.next_in = (Bytef *)*in;
    d->z.avail_in = (uInt)CHV_MIN(*in_len, (size_t)UINT32_MAX);
    d->z.next_out = *out;
    d->z.avail_out = (uInt)CHV_MIN(*out_len, (size_t)UINT32_MAX);
    uInt in0 = d->z.avail_in, out0 = d->z.avail_out;
    int zr = inflate(&d->z, Z_NO_FLUSH);
    size_t used = in0 - d->z.avail_in, made = out0 - d->z.avail_out;
    *in += used;
    *in_len -= used;
    *out += made;
    *out_len -= made;
    d->total_in += (int64_t)used;
    d->total_out += (int64_t)made;
    if (used) d->at_boundary = false;
    CHV_RETURN_IF_ERR(check_limit(d, 0, err));
    if (zr == Z_STREAM_END) {
      d->at_boundary = true;
      d->members = true;
      if (inflateReset(&d->z) != Z_OK)
        return fail(d, err, CHV_EINTERNAL, "%s: %s", "inflateReset failed");
      continue;
    }
    if (zr == Z_BUF_ERROR) break; /* no progress possible: need input */
    if (zr != Z_OK)
      return fail(d, err, CHV_ECORRUPT, "corrupt %s stream: %s",
                  d->z.msg ? d->z.msg : zError(zr));
    if (used == 0 && made == 0) break;
  }
  return CHV_OK;
}

static int run_zstd(chv_decomp *d, const uint8_t **in, size_t *in_len,
                    uint8_t **out, size_t *out_len, struct chv_error *err) {
  while (*out_len > 0) {
    ZSTD_inBuffer ib = {*in, *in_len, 0};
    ZSTD_outBuffer ob = {*out, *out_len, 0};
    size_t r = ZSTD_decompressStream(d->zs, &ob, &ib);
    if (ZSTD_isError(r))
      return fail(d, err, CHV_ECORRUPT, "corrupt %s stream: %s",
                  ZSTD_getErrorName(r));
    *in += ib.pos;
    *in_len -= ib.pos;
    *out += ob.pos;
    *out_len -= ob.pos;
    d->total_in += (int64_t)ib.pos;
    d->total_out += (int64_t)ob.pos;
    if (ib.pos || ob.pos) d->at_boundary = (r == 0);
    CHV_RETURN_IF_ERR(check_limit(d, 0, err));
    if (ib.pos == 0 && ob.pos == 0) break;
  }
  return CHV_OK;
}

/* Feed src to LZ4F; used for the 4 detection bytes and the caller's input. */
static int lz4f_feed(chv_decomp *d, const uint8_t **src, size_t *src_len,
                     uint8_t **out, size_t *out_len, bool count_in,
                     struct chv_error *err) {
  while (*out_len > 0) {
    size_t sn = *src_len, dn = *out_len;
    size_t r = LZ4F_decompress(d->lz, *out, &dn, *src, &sn, NULL);
    if (LZ4F_isError(r))
      return fail(d, err, CHV_ECORRUPT, "corrupt %s frame: %s",
                  LZ4F_getErrorName(r));
    *src += sn;
    *src_len -= sn;
    *out += dn;
    *out_len -= dn;
    if (count_in) d->total_in += (int64_t)sn;
    d->total_out += (int64_t)dn;
    if (sn || dn) d->at_boundary = (r == 0);
    CHV_RETURN_IF_ERR(check_limit(d, 0, err));
    if (sn == 0 && dn == 0) break;
  }
  return CHV_OK;
}

/* ---- block-structured streams ----------------------------------------- */

/* Make `want` bytes of the current unit available: either straight from the
** caller's input (acc empty and input long enough) or gathered in acc.
** *unit is set when complete; input is consumed either way. */
static int gather(chv_decomp *d, const uint8_t **in, size_t *in_len,
                  const uint8_t **unit, struct chv_error *err) {
  *unit = NULL;
  if (d->acc.len == 0 && *in_len >= d->want) {
    *unit = *in;
    *in += d->want;
    *in_len -= d->want;
    d->total_in += d->want;
    return CHV_OK;
  }
  size_t take = CHV_MIN(*in_len, (size_t)d->want - d->acc.len);
  if (take) {
    if (chv_buf_append(&d->acc, *in, take) != CHV_OK) {
      d->failed = CHV_ENOMEM;
      return chv_error_set(err, CHV_ENOMEM, "out of memory");
    }
    *in += take;
    *in_len -= take;
    d->total_in += (int64_t)take;
  }
  if (d->acc.len == d->want) *unit = (const uint8_t *)d->acc.data;
  return CHV_OK;
}

static int pend_reserve(chv_decomp *d, size_t n, struct chv_error *err) {
  if (n <= d->pend_cap) return CHV_OK;
  uint8_t *p = chv_realloc(d->pend, n);
  if (p == NULL) {
    d->failed = CHV_ENOMEM;
    return chv_error_set(err, CHV_ENOMEM, "out of memory");
  }
  d->pend = p;
  d->pend_cap = n;
  return CHV_OK;
}

/* Decode one raw (unframed) block of n bytes into pend, at most cap bytes. */
static int decode_raw(chv_decomp *d, const uint8_t *p, size_t n, size_t cap,
                      struct chv_error *err) {
  size_t got;
  if (d->kind == CHV_CODEC_SNAPPY) {
    if (snappy_uncompressed_length((const char *)p, n, &got) != SNAPPY_OK ||
        got > cap)
      return fail(d, err, CHV_ECORRUPT, "corrupt %s stream: %s",
                  "bad block length");
    CHV_RETURN_IF_ERR(check_limit(d, (int64_t)got, err));
    CHV_RETURN_IF_ERR(pend_reserve(d, got ? got : 1, err));
    if (snappy_uncompress((const char *)p, n, (char *)d->pend, &got) !=
        SNAPPY_OK)
      return fail(d, err, CHV_ECORRUPT, "corrupt %s stream: %s",
                  "bad block");
  } else {
    CHV_RETURN_IF_ERR(check_limit(d, (int64_t)cap, err));
    CHV_RETURN_IF_ERR(pend_reserve(d, cap ? cap : 1, err));
    int r = LZ4_decompress_safe((const char *)p, (char *)d->pend, (int)n,
                                (int)cap);
    if (r < 0)
      return fail(d, err, CHV_ECORRUPT, "corrupt %s stream: %s",
                  "bad block");
    got = (size_t)r;
  }
  d->pend_len = got;
  d->pend_pos = 0;
  return CHV_OK;
}

/* A complete unit of `want` bytes is at p: act on it per state. */
static int hadoop_unit(chv_decomp *d, const uint8_t *p,
                       struct chv_error *err) {
  switch (d->state) {
  case ST_BLOCK_HDR: {
    uint32_t len = be32(p);
    if (len > CHV_DECOMP_MAX_BLOCK)
      return fail(d, err, CHV_ECORRUPT, "corrupt %s stream: %s",
                  "block claims more than 64 MiB");
    CHV_RETURN_IF_ERR(check_limit(d, len, err));
    d->block_left = len;
    if (len) {
      d->state = ST_CHUNK_HDR;
      d->at_boundary = false;
    }
    d->want = 4;
    return CHV_OK;
  }
  case ST_CHUNK_HDR: {
    uint32_t len = be32(p);
    if (len == 0 || len > CHV_DECOMP_MAX_BLOCK + (CHV_DECOMP_MAX_BLOCK >> 4))
      return fail(d, err, CHV_ECORRUPT, "corrupt %s stream: %s",
                  "bad compressed chunk length");
    d->state = ST_CHUNK_DATA;
    d->want = len;
    return CHV_OK;
  }
  case ST_CHUNK_DATA:
    CHV_RETURN_IF_ERR(decode_raw(d, p, d->want, d->block_left, err));
    if (d->pend_len == 0)
      return fail(d, err, CHV_ECORRUPT, "corrupt %s stream: %s",
                  "empty chunk inside a block");
    d->total_out += (int64_t)d->pend_len;
    d->block_left -= (uint32_t)d->pend_len;
    d->want = 4;
    if (d->block_left) {
      d->state = ST_CHUNK_HDR;
    } else {
      d->state = ST_BLOCK_HDR;
      d->at_boundary = true;
    }
    return CHV_OK;
  }
  return CHV_OK;
}

static int framed_unit(chv_decomp *d, const uint8_t *p,
                       struct chv_error *err) {
  if (d->state == ST_CHUNK_HDR) {
    d->chunk_type = p[0];
    d->want = (uint32_t)p[1] | (uint32_t)p[2] << 8 | (uint32_t)p[3] << 16;
    d->state = ST_CHUNK_DATA;
    d->at_boundary = false;
    if (d->chunk_type != 0xff && !d->seen_stream_id)
      return fail(d, err, CHV_ECORRUPT, "corrupt %s stream: %s",
                  "missing stream identifier");
    if (d->want == 0) {
      d->state = ST_CHUNK_HDR;
      d->want = 4;
      d->at_boundary = true;
      if (d->chunk_type == 0xff || d->chunk_type < 0x80)
        return fail(d, err, CHV_ECORRUPT, "corrupt %s stream: %s",
                    "empty chunk");
    }
    return CHV_OK;
  }
  uint32_t n = d->want;
  uint8_t t = d->chunk_type;
  if (t == 0xff) {
    if (n != 6 || memcmp(p, "sNaPpY", 6) != 0)
      return fail(d, err, CHV_ECORRUPT, "corrupt %s stream: %s",
                  "bad stream identifier");
    d->seen_stream_id = true;
  } else if (t == 0x00 || t == 0x01) {
    if (n < 4)
      return fail(d, err, CHV_ECORRUPT, "corrupt %s stream: %s",
                  "chunk shorter than its checksum");
    uint32_t crc = (uint32_t)p[0] | (uint32_t)p[1] << 8 |
                   (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    if (t == 0x00) {
      CHV_RETURN_IF_ERR(decode_raw(d, p + 4, n - 4, 65536, err));
    } else {
      if (n - 4 > 65536)
        return fail(d, err, CHV_ECORRUPT, "corrupt %s stream: %s",
                    "uncompressed chunk over 64 KiB");
      CHV_RETURN_IF_ERR(check_limit(d, n - 4, err));
      CHV_RETURN_IF_ERR(pend_reserve(d, n - 4 ? n - 4 : 1, err));
      memcpy(d->pend, p + 4, n - 4);
      d->pend_len = n - 4;
      d->pend_pos = 0;
    }
    if (snappy_mask(crc32c(d->pend, d->pend_len)) != crc)
      return fail(d, err, CHV_ECORRUPT, "corrupt %s stream: %s",
                  "checksum mismatch");
    d->total_out += (int64_t)d->pend_len;
  } else if (t < 0x80) {
    return fail(d, err, CHV_ECORRUPT, "corrupt %s stream: %s",
                "reserved unskippable chunk");
  } /* 0x80..0xfe: skippable, padding */
  d->state = ST_CHUNK_HDR;
  d->want = 4;
  d->at_boundary = true;
  return CHV_OK;
}

/* Decide between the frame/framing format and Hadoop's block stream from the
** first four bytes, now complete in acc. */
static int detect(chv_decomp *d, const uint8_t *p, struct chv_error *err) {
  uint32_t le = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
                (uint32_t)p[3] << 24;
  if (d->kind == CHV_CODEC_LZ4 &&
      (le == 0x184D2204u || (le & 0xFFFFFFF0u) == 0x184D2A50u)) {
    d->mode = MODE_LIBRARY;
    if (LZ4F_isError(LZ4F_createDecompressionContext(&d->lz, LZ4F_VERSION))) {
      d->failed = CHV_ENOMEM;
      return chv_error_set(err, CHV_ENOMEM, "cannot start lz4 decompressor");
    }
    if (p != (const uint8_t *)d->acc.data) {
      d->acc.len = 0;
      if (chv_buf_append(&d->acc, p, 4) != CHV_OK) {
        d->failed = CHV_ENOMEM;
        return chv_error_set(err, CHV_ENOMEM, "out of memory");
      }
    }
    d->acc_pos = 0;
    return CHV_OK;
  }
  if (d->kind == CHV_CODEC_SNAPPY && p[0] == 0xff && p[1] == 6 && p[2] == 0 &&
      p[3] == 0) {
    d->mode = MODE_SNAPPY_FRAMED;
    d->state = ST_CHUNK_HDR;
    return framed_unit(d, p, err);
  }
  d->mode = MODE_HADOOP;
  d->state = ST_BLOCK_HDR;
  return hadoop_unit(d, p, err);
}

static int run_blocks(chv_decomp *d, const uint8_t **in, size_t *in_len,
                      uint8_t **out, size_t *out_len, struct chv_error *err) {
  for (;;) {
    if (d->pend_pos < d->pend_len) {
      size_t n = CHV_MIN(*out_len, d->pend_len - d->pend_pos);
      memcpy(*out, d->pend + d->pend_pos, n);
      d->pend_pos += n;
      *out += n;
      *out_len -= n;
      if (*out_len == 0) return CHV_OK;
    }
    if (d->mode == MODE_LIBRARY) { /* lz4 frame, after detection */
      if (d->acc_pos < d->acc.len) {
        const uint8_t *s = (const uint8_t *)d->acc.data + d->acc_pos;
        size_t sl = d->acc.len - d->acc_pos;
        CHV_RETURN_IF_ERR(lz4f_feed(d, &s, &sl, out, out_len, false, err));
        d->acc_pos = d->acc.len - sl;
        if (sl) return CHV_OK; /* output full */
      }
      return lz4f_feed(d, in, in_len, out, out_len, true, err);
    }
    if (*in_len == 0) return CHV_OK;
    const uint8_t *unit;
    CHV_RETURN_IF_ERR(gather(d, in, in_len, &unit, err));
    if (unit == NULL) return CHV_OK; /* input used up mid-unit */
    int rc;
    if (d->mode == MODE_DETECT)
      rc = detect(d, unit, err);
    else if (d->mode == MODE_HADOOP)
      rc = hadoop_unit(d, unit, err);
    else
      rc = framed_unit(d, unit, err);
    if (d->mode != MODE_LIBRARY) d->acc.len = 0;
    if (rc != CHV_OK) return rc;
  }
}

int chv_decomp_run(chv_decomp *d, const uint8_t **in, size_t *in_len,
                   uint8_t **out, size_t *out_len, struct chv_error *err) {
  if (d->failed)
    return chv_error_set(err, d->failed, "%s decompressor already failed",
                         chv_codec_name(d->kind));
  switch (d->kind) {
  case CHV_CODEC_GZIP:
    return run_gzip(d, in, in_len, out, out_len, err);
  case CHV_CODEC_ZSTD:
    return run_zstd(d, in, in_len, out, out_len, err);
  default:
    return run_blocks(d, in, in_len, out, out_len, err);
  }
}

int chv_decomp_finish(chv_decomp *d, struct chv_error *err) {
  if (d->failed)
    return chv_error_set(err, d->failed, "%s decompressor already failed",
                         chv_codec_name(d->kind));
  bool clean = d->at_boundary && d->pend_pos == d->pend_len;
  if (d->mode == MODE_DETECT || d->mode == MODE_HADOOP ||
      d->mode == MODE_SNAPPY_FRAMED)
    clean = clean && d->acc.len == 0;
  if (d->mode == MODE_LIBRARY && d->kind == CHV_CODEC_LZ4)
    clean = clean && d->acc_pos == d->acc.len;
  if (!clean)
    return chv_error_set(err, CHV_ECORRUPT,
                         "truncated %s stream (ends inside a %s after %lld "
                         "compressed bytes)",
                         chv_codec_name(d->kind),
                         d->kind == CHV_CODEC_GZIP ? "member" : "frame",
                         (long long)d->total_in);
  return CHV_OK;
}

int chv_decompress(enum chv_codec kind, const void *in, size_t in_len,
                   int64_t max_output, char **out, size_t *out_len,
                   struct chv_error *err) {
  chv_decomp *d;
  CHV_RETURN_IF_ERR(chv_decomp_open(kind, max_output, &d, err));
  struct chv_buf b;
  chv_buf_init(&b);
  const uint8_t *ip = in;
  size_t il = in_len;
  int rc;
  for (;;) {
    if ((rc = chv_buf_reserve(&b, 64 * 1024)) != CHV_OK) {
      rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
      goto out_free;
    }
    uint8_t *op = (uint8_t *)b.data + b.len;
    size_t room = b.cap - b.len - 1, ol = room;
    if ((rc = chv_decomp_run(d, &ip, &il, &op, &ol, err)) != CHV_OK)
      goto out_free;
    b.len += room - ol;
    b.data[b.len] = '\0';
    if (ol == room && il == 0) break; /* no output, no input: done */
  }
  if ((rc = chv_decomp_finish(d, err)) != CHV_OK) goto out_free;
  chv_decomp_close(d);
  *out_len = b.len;
  *out = b.data ? chv_buf_detach(&b) : chv_strdup("");
  if (*out == NULL) return chv_error_set(err, CHV_ENOMEM, "out of memory");
  return CHV_OK;
out_free:
  chv_buf_free(&b);
  chv_decomp_close(d);
  return rc;
}

/* ---- pull-style reader -------------------------------------------------- */

#define READER_IN_SIZE (256 * 1024)

struct chv_decomp_reader {
  chv_decomp *d;
  chv_read_fn fn;
  void *ctx;
  uint8_t *in;        /* compressed bytes read from the source */
  size_t in_pos, in_len;
  bool eof;           /* the source reported its end */
  bool done;          /* the stream was checked and fully handed out */
  int64_t total_in;   /* bytes read from the source */
};

int chv_decomp_reader_open(enum chv_codec kind, int64_t max_output,
                           chv_read_fn fn, void *ctx, chv_decomp_reader **out,
                           struct chv_error *err) {
  chv_decomp_reader *r = chv_calloc(1, sizeof *r);
  if (r == NULL) return chv_error_set(err, CHV_ENOMEM, "out of memory");
  r->in = chv_malloc(READER_IN_SIZE);
  if (r->in == NULL) {
    chv_free(r);
    return chv_error_set(err, CHV_ENOMEM, "out of memory");
  }
  int rc = chv_decomp_open(kind, max_output, &r->d, err);
  if (rc != CHV_OK) {
    chv_free(r->in);
    chv_free(r);
    return rc;
  }
  r->fn = fn;
  r->ctx = ctx;
  *out = r;
  return CHV_OK;
}

int chv_decomp_reader_read(chv_decomp_reader *r, void *buf, size_t n,
                           size_t *got, struct chv_error *err) {
  uint8_t *op = buf;
  size_t ol = n;
  *got = 0;
  if (r->done || n == 0) return CHV_OK;
  while (ol > 0) {
    if (r->in_pos == r->in_len && !r->eof) {
      size_t g = 0;
      CHV_RETURN_IF_ERR(r->fn(r->ctx, r->in, READER_IN_SIZE, &g, err));
      r->in_pos = 0;
      r->in_len = g;
      r->total_in += (int64_t)g;
      if (g == 0) r->eof = true;
    }
    const uint8_t *ip = r->in + r->in_pos;
    size_t il = r->in_len - r->in_pos;
    size_t il0 = il, ol0 = ol;
    CHV_RETURN_IF_ERR(chv_decomp_run(r->d, &ip, &il, &op, &ol, err));
    r->in_pos = r->in_len - il;
    if (il == il0 && ol == ol0) {
      /* No progress: the decompressor wants more input. */
      if (!r->eof) {
        if (r->in_pos < r->in_len) /* cannot happen with room and input */
          return chv_error_set(err, CHV_EINTERNAL,
                               "%s decompressor made no progress",
                               chv_codec_name(r->d->kind));
        if (ol < n) break; /* hand out what we have before reading more */
        continue;
      }
      if (ol < n) break;
      CHV_RETURN_IF_ERR(chv_decomp_finish(r->d, err));
      r->done = true;
      break;
    }
  }
  *got = n - ol;
  return CHV_OK;
}

int64_t chv_decomp_reader_total_in(const chv_decomp_reader *r) {
  return r->total_in;
}

void chv_decomp_reader_close(chv_decomp_reader *r) {
  if (r == NULL) return;
  chv_decomp_close(r->d);
  chv_free(r->in);
  chv_free(r);
}
