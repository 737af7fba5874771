/*
** codec/compress: streaming compression over the system libraries (zlib,
** zstd, lz4, snappy) for files whose whole content is one compressed stream,
** as Hadoop's CompressionCodecs write them for TEXTFILE tables.
**
** Stream kinds and what they accept on read:
**   GZIP    RFC 1952 members, any number concatenated (also a zlib stream);
**           after a complete member, bytes that do not start another (zero
**           padding) are ignored, as Java's GZIPInputStream ignores them
**   ZSTD    zstd frames, any number concatenated (skippable frames too)
**   LZ4     the LZ4 frame format (lz4frame.h), frames concatenated; a stream
**           that does not start with the frame magic is read as Hadoop's
**           Lz4Codec block stream (see "Hadoop block streams" below)
**   SNAPPY  either the snappy framing format (starts with the stream
**           identifier chunk ff 06 00 00 "sNaPpY"; CRC-32C checked) or,
**           otherwise, Hadoop's SnappyCodec block stream, which is what a
**           Hive text table with `.snappy` files holds
**
** Hadoop block streams (BlockCompressorStream): a sequence of blocks, each
**   [4-byte big-endian uncompressed length]
**   then one or more [4-byte big-endian compressed length][raw block]
** until the block's uncompressed length is reached.
**
** The decompressor is a state machine driven zlib-style: chv_decomp_run()
** consumes input and produces output, both through moving pointers, and
** chv_decomp_finish() says whether the input ended at a stream boundary
** (CHV_ECORRUPT "truncated" otherwise).  Output is bounded: a stream that
** would inflate past `max_output` bytes fails with CHV_ERANGE (a
** decompression-bomb guard), and a Hadoop block claiming more than
** CHV_DECOMP_MAX_BLOCK bytes is rejected before anything is allocated.
** chv_decomp_reader wraps a decompressor around a read callback for callers
** that pull.
**
** INTERFACE
**   chv_codec_from_path()           kind from a file extension
**   chv_codec_name()                "gzip", "zstd", ...
**   chv_decomp_open/_run/_finish/_close     streaming decompression
**   chv_decomp_reader_open/_read/_close     pull-style over a read callback
**   chv_comp_open/_run/_finish/_close       streaming compression (gzip only)
**
** Thread safety: none; each object belongs to one thread at a time.
*/
#ifndef CHIVE_COMPRESS_H
#define CHIVE_COMPRESS_H

#include "chive/common.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CHV_CODEC_MAP(X)                                                      \
  X(NONE, "none", "")                                                         \
  X(GZIP, "gzip", ".gz")                                                      \
  X(ZSTD, "zstd", ".zst")                                                     \
  X(LZ4, "lz4", ".lz4")                                                       \
  X(SNAPPY, "snappy", ".snappy")

enum chv_codec {
#define CHV_X_(id, name, ext) CHV_CODEC_##id,
  CHV_CODEC_MAP(CHV_X_)
#undef CHV_X_
  CHV_CODEC_COUNT
};

/* Largest uncompressed size one Hadoop block (or snappy frame chunk) may
** claim; Hadoop writes 64 KiB .. 256 KiB blocks. */
#define CHV_DECOMP_MAX_BLOCK (64 << 20)

/* The codec a file name's extension names (".gz", ".zst", ".lz4",
** ".snappy", case-sensitive as Hadoop's CompressionCodecFactory is), else
** CHV_CODEC_NONE. */
CHV_API enum chv_codec chv_codec_from_path(const char *path);
/* "gzip"; "none" for CHV_CODEC_NONE; "?" for out-of-range values. */
CHV_API const char *chv_codec_name(enum chv_codec c);
/* ".gz"; "" for CHV_CODEC_NONE. */
CHV_API const char *chv_codec_extension(enum chv_codec c);

/* ---- decompression ----------------------------------------------------- */

typedef struct chv_decomp chv_decomp;

/* A decompressor for `kind` (not NONE).  max_output bounds the total bytes
** produced (0 = unbounded).  out: close with chv_decomp_close(). */
CHV_API int chv_decomp_open(enum chv_codec kind, int64_t max_output,
                            chv_decomp **out, struct chv_error *err);

/* Consume input from [*in, *in + *in_len) and write output to
** [*out, *out + *out_len), advancing the pointers and shrinking the lengths.
** Returns CHV_OK having made what progress it could: it stops when the input
** is used up or the output is full.  Errors: CHV_ECORRUPT for bad data,
** CHV_ERANGE past max_output, CHV_ENOMEM.  After an error the decompressor
** only fails.  Output may be waiting inside the decompressor after the
** input is used up: keep calling with output room (and no input) until a
** call produces nothing. */
CHV_API int chv_decomp_run(chv_decomp *d, const uint8_t **in, size_t *in_len,
                           uint8_t **out, size_t *out_len,
                           struct chv_error *err);

/* Call after the last input has been consumed and all output drained: returns
** CHV_ECORRUPT ("truncated ... stream") unless the input ended at a stream
** boundary.  An empty input is a valid, empty stream. */
CHV_API int chv_decomp_finish(chv_decomp *d, struct chv_error *err);

/* Total bytes consumed and produced so far. */
CHV_API int64_t chv_decomp_total_in(const chv_decomp *d);
CHV_API int64_t chv_decomp_total_out(const chv_decomp *d);

CHV_API void chv_decomp_close(chv_decomp *d);

/* One-shot helper: decompress a whole buffer into a chv_malloc'd one.
** out/out_len written only on success. */
CHV_API int chv_decompress(enum chv_codec kind, const void *in, size_t in_len,
                           int64_t max_output, char **out, size_t *out_len,
                           struct chv_error *err);

/* ---- pull-style reader -------------------------------------------------- */

/* Read up to n bytes of compressed input; *got == 0 means end of input. */
typedef int (*chv_read_fn)(void *ctx, void *buf, size_t n, size_t *got,
                           struct chv_error *err);

typedef struct chv_decomp_reader chv_decomp_reader;

/* Pull decompressed bytes from a source of compressed ones.  The source
** (fn, ctx) is borrowed and must outlive the reader. */
CHV_API int chv_decomp_reader_open(enum chv_codec kind, int64_t max_output,
                                   chv_read_fn fn, void *ctx,
                                   chv_decomp_reader **out,
                                   struct chv_error *err);
/* Fill buf with up to n bytes; *got < n does not mean the end, *got == 0
** does (after the stream was checked to end cleanly). */
CHV_API int chv_decomp_reader_read(chv_decomp_reader *r, void *buf, size_t n,
                                   size_t *got, struct chv_error *err);
/* Compressed bytes consumed from the source so far. */
CHV_API int64_t chv_decomp_reader_total_in(const chv_decomp_reader *r);
CHV_API void chv_decomp_reader_close(chv_decomp_reader *r);

/* ---- compression -------------------------------------------------------- */

typedef struct chv_comp chv_comp;

/* A compressor writing one stream of `kind` (CHV_CODEC_GZIP only; others are
** CHV_ENOTSUP).  level: 1..9, or 0 for the library default (6).
** out: close with chv_comp_close(). */
CHV_API int chv_comp_open(enum chv_codec kind, int level, chv_comp **out,
                          struct chv_error *err);
/* Compress n bytes, appending compressed output to out. */
CHV_API int chv_comp_run(chv_comp *c, const void *in, size_t n,
                         struct chv_buf *out, struct chv_error *err);
/* End the stream (trailer) and append the rest of the output. */
CHV_API int chv_comp_finish(chv_comp *c, struct chv_buf *out,
                            struct chv_error *err);
CHV_API void chv_comp_close(chv_comp *c);

#ifdef __cplusplus
}
#endif
#endif /* CHIVE_COMPRESS_H */
