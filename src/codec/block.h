/*
** codec/block: one-shot compression of whole buffers, as Parquet compresses
** each data and dictionary page on its own.
**
** A Parquet page header states both the compressed and the uncompressed size
** of its page, so decompression here writes into a caller buffer of exactly
** the uncompressed size and fails unless the codec produces exactly that many
** bytes.  Nothing is ever written past that buffer, and nothing is allocated
** in proportion to what the compressed bytes claim: the caller sized the
** buffer (and should bound the page header's size before allocating it, for
** example with chv_block_check_size()).
**
** Codecs and what decompression accepts (ids are Parquet's CompressionCodec):
**   UNCOMPRESSED (0)  the bytes as they are; the sizes must agree
**   SNAPPY (1)        one raw snappy block (no framing)
**   GZIP (2)          RFC 1952 members, any number concatenated (a zlib stream
**                     is accepted too); trailing zero bytes are ignored
**   LZO (3)           not supported: CHV_ENOTSUP
**   BROTLI (4)        one brotli stream (RFC 7932)
**   LZ4 (5)           the deprecated codec: Hadoop's framing, a sequence of
**                     [4-byte big-endian uncompressed length] followed by one
**                     or more [4-byte big-endian compressed length][raw LZ4
**                     block] covering it; when the bytes do not parse exactly
**                     as that framing, they are read as one bare LZ4 block
**                     (what some older writers produced)
**   ZSTD (6)          zstd frames, any number concatenated (skippable too)
**   LZ4_RAW (7)       one LZ4 block
**
** Compression writes what other Parquet implementations read: gzip members
** (level 6 unless told), zstd frames (level 3 unless told), brotli streams
** (quality 8 unless told), raw snappy and LZ4 blocks, and, for the
** deprecated LZ4, Hadoop frames of at most 256 KiB each (the buffer size
** Hadoop's Lz4Codec decompresses with).
**
** INTERFACE
**   enum chv_block_codec, chv_block_codec_name()   Parquet codec ids, names
**   chv_block_ctx_open() / _close()    reusable library contexts (optional)
**   chv_block_decompress()             whole buffer -> buffer of known size
**   chv_block_compress()               whole buffer -> appended to a chv_buf
**   chv_block_check_size()             a page's sizes against a limit
**   chv_block_measure()                compression ratio and speeds of a codec
**
** Thread safety: a chv_block_ctx belongs to one thread at a time; calls with
** a NULL context share nothing.
*/
#ifndef CHV_CODEC_BLOCK_H
#define CHV_CODEC_BLOCK_H

#include "common/common.h"

/* X(name, Parquet id) */
#define CHV_BLOCK_CODEC_MAP(X)                                                \
  X(UNCOMPRESSED, 0)                                                          \
  X(SNAPPY, 1)                                                                \
  X(GZIP, 2)                                                                  \
  X(LZO, 3)                                                                   \
  X(BROTLI, 4)                                                                \
  X(LZ4, 5)                                                                   \
  X(ZSTD, 6)                                                                  \
  X(LZ4_RAW, 7)

enum chv_block_codec {
#define CHV_X_(name, id) CHV_BLOCK_##name = id,
  CHV_BLOCK_CODEC_MAP(CHV_X_)
#undef CHV_X_
  CHV_BLOCK_CODEC_COUNT
};

/* Default levels: gzip 6, zstd 3, brotli 8 (snappy and LZ4 have none). */
#define CHV_BLOCK_GZIP_LEVEL 6
#define CHV_BLOCK_ZSTD_LEVEL 3
#define CHV_BLOCK_BROTLI_LEVEL 8

/* Largest uncompressed length one Hadoop LZ4 frame is written with. */
#define CHV_BLOCK_HADOOP_FRAME (256 << 10)

/* "SNAPPY", "LZ4_RAW" ...; "?" for ids Parquet does not define. */
const char *chv_block_codec_name(int codec);

/* True when chv_block_decompress()/_compress() handle the codec (all but
** LZO and unknown ids). */
bool chv_block_codec_supported(int codec);

/* Reusable decompression and compression state (zstd and zlib contexts),
** created as needed on first use; sparing their set-up for each page.
** out: close with chv_block_ctx_close() (NULL is a no-op). */
typedef struct chv_block_ctx chv_block_ctx;
int chv_block_ctx_open(chv_block_ctx **out, struct chv_error *err);
void chv_block_ctx_close(chv_block_ctx *ctx);

/* Decompress the page bytes in[0, in_len) with `codec` into out[0, out_len),
** where out_len is the uncompressed size the page header states.  ctx may be
** NULL (a temporary one is used).  Returns CHV_OK only when the codec
** produced exactly out_len bytes; CHV_ECORRUPT when the bytes are not valid
** for the codec or inflate to another size ("snappy page inflates to 1000
** bytes, header says 998"); CHV_ENOTSUP for LZO; CHV_EINVAL for an unknown
** codec id; CHV_ENOMEM.  On failure the contents of out are unspecified. */
int chv_block_decompress(chv_block_ctx *ctx, int codec, const void *in,
                         size_t in_len, void *out, size_t out_len,
                         struct chv_error *err);

/* Compress in[0, in_len) with `codec`, appending to out.  level 0 means the
** codec's default; it is ignored by codecs without levels.  ctx may be NULL.
** Errors: CHV_EINVAL (unknown codec, bad level), CHV_ENOTSUP (LZO),
** CHV_ENOMEM.  On failure out->len is as it was. */
int chv_block_compress(chv_block_ctx *ctx, int codec, int level,
                       const void *in, size_t in_len, struct chv_buf *out,
                       struct chv_error *err);

/* Check a page header's sizes before allocating: both must be >= 0, the
** uncompressed size at most `max_uncompressed` (CHV_ERANGE otherwise), and
** for UNCOMPRESSED the two equal (CHV_ECORRUPT). */
int chv_block_check_size(int codec, int64_t compressed, int64_t uncompressed,
                         int64_t max_uncompressed, struct chv_error *err);

/* What chv_block_measure() found. */
struct chv_block_speed {
  size_t compressed_len; /* bytes one compression of the input produced */
  double compress_mbps;  /* MB (10^6 bytes) of input compressed per second */
  double decompress_mbps; /* MB of output decompressed per second */
};

/* Compress `in` with codec/level, then compress and decompress it again
** repeatedly for about min_seconds each, checking that every decompression
** gives the input back.  For benchmarks. */
int chv_block_measure(int codec, int level, const void *in, size_t in_len,
                      double min_seconds, struct chv_block_speed *out,
                      struct chv_error *err);

#endif /* CHV_CODEC_BLOCK_H */
