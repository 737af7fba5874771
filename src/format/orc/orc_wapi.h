/*
** format/orc: the ORC writer's interface (implemented by orc_writer.c and
** orc_wcolumn.c, specified in docs/orc.md, "Writer").
**
** INTERFACE
**   chv_orc_write_options_init()/_set()
**   chv_orc_writer_open/_write/_stats/_finish/_close
**
** Thread safety: a writer belongs to one thread at a time.
*/
#ifndef CHV_FORMAT_ORC_ORC_WAPI_H
#define CHV_FORMAT_ORC_ORC_WAPI_H

#include "chive/fs.h"
#include "chive/types.h"

typedef struct chv_orc_writer chv_orc_writer;

/* How a file is written.  chv_orc_write_options_init() gives Hive's
** defaults (those of the ORC 1.5 writer Hive 3 uses); the table properties
** chv_orc_write_options_set() understands set the fields:
**
**   orc.compress                 ZLIB (default), SNAPPY, LZO, LZ4, ZSTD, NONE
**                                (case-insensitive; Hive 3's ORC 1.5 reads
**                                all but ZSTD)
**   orc.compress.size            compression chunk size (262144); as ORC
**                                Java does, a smaller one is used when
**                                orc.stripe.size / (20 * columns) is smaller
**                                (4 KiB .. 256 KiB, a power of two)
**   orc.stripe.size              stripe bytes buffered before a flush (64 MiB)
**   orc.row.index.stride         rows per row group (10000; 0 = no index)
**   orc.create.index             true (default) / false: no row index
**   orc.dictionary.key.threshold strings stay dictionary encoded in a stripe
**                                while distinct values / values of its first
**                                row group <= this (0.8; 0 never, 1 always)
**   orc.bloom.filter.columns     comma-separated column names (dotted paths
**                                into structs, case-insensitive; "*" all);
**                                a name's whole subtree gets filters; names
**                                the schema lacks are ignored
**   orc.bloom.filter.fpp         false positive probability (0.05)
**
** Sizes are whole numbers of bytes, optionally with a k, m or g suffix
** (binary multiples).  The writer refuses out-of-range fields with
** CHV_EINVAL. */
struct chv_orc_write_options {
  int compression;          /* ORC CompressionKind: 0 NONE, 1 ZLIB, 2 SNAPPY,
                               3 LZO, 4 LZ4, 5 ZSTD */
  int64_t compress_size;    /* 1 .. 8388607 */
  int64_t stripe_size;      /* >= 1 */
  int64_t row_index_stride; /* 0 .. 2^31 - 1 */
  bool create_index;        /* false: no row index whatever the stride */
  double dictionary_key_threshold; /* >= 0 */
  /* Borrowed (also what _set() stores: the value passed must outlive the
  ** writer's open, which copies it); NULL or "" = none. */
  const char *bloom_filter_columns;
  double bloom_filter_fpp; /* 0 < fpp < 1 */
};

/* What a writer has done.  raw_bytes is Hive's rawDataSize of the file as
** ORC's reader computes it from the file statistics (per value: 4 bytes
** for boolean, tinyint, smallint, int, float; 8 for bigint, double; 84 +
** the average length for strings; 112 per decimal; 56 per date; 40 per
** timestamp; binary their bytes), over the stripes written. */
struct chv_orc_write_stats {
  int64_t rows;           /* rows taken by chv_orc_writer_write() */
  int64_t file_bytes;     /* bytes of the file so far (stripes written; up to
                             1 MiB may still be in the writer's buffer) */
  int64_t raw_bytes;      /* rawDataSize of the stripes written */
  int64_t buffered_bytes; /* estimate of the stripe being buffered */
  int stripes;            /* stripes written */
};

void chv_orc_write_options_init(struct chv_orc_write_options *o);

/* Apply one table property (key and value as the metastore holds them).
** Keys not listed above are ignored (CHV_OK).  A value the key does not
** take is CHV_EINVAL naming key and value (o is then unchanged). */
int chv_orc_write_options_set(struct chv_orc_write_options *o, const char *key,
                              const char *value, struct chv_error *err);

/* Create (or truncate) path on fs and start an ORC file (version 0.12) for
** rows of schema, a STRUCT whose fields are the file's columns (borrowed:
** it must outlive the writer).  opts NULL means defaults; it is copied.
** Every Hive type is written (docs/orc.md, "Writer", has the mapping); a
** schema nesting deeper than 64 levels is CHV_ENOTSUP, bad options
** CHV_EINVAL, file system failures as the fs reports them.
** out: close with chv_orc_writer_close(). */
int chv_orc_writer_open(const struct chv_fs *fs, const char *path,
                        const struct chv_type *schema,
                        const struct chv_orc_write_options *opts,
                        chv_orc_writer **out, struct chv_error *err);

/* Append the batch's rows.  The batch must be of the writer's schema
** (CHV_ETYPE otherwise, and for vectors whose shape does not match it:
** lengths, offsets, missing buffers).  Values the file cannot hold are
** CHV_ERANGE naming the column and the row (a decimal with more digits
** than its precision, a timestamp whose nanoseconds are not 0..999999999
** or whose milliseconds overflow 64 bits); on these errors nothing of the
** batch was taken and the writer can go on.  Other failures (CHV_EIO,
** CHV_ENOMEM) leave the writer failed: every later call returns the error
** again.  Rows are buffered as encoded, compressed streams; a stripe is
** written when the estimate of its size reaches orc.stripe.size. */
int chv_orc_writer_write(chv_orc_writer *w, const struct chv_batch *b,
                         struct chv_error *err);

/* What was written so far.  file_bytes + buffered_bytes estimates the
** file's size if it were finished now, for rolling files by size. */
void chv_orc_writer_stats(const chv_orc_writer *w,
                          struct chv_orc_write_stats *out);

/* Write the last stripe, the Metadata (stripe statistics), the Footer and
** the PostScript, sync and close the file; out (may be NULL) gets the final
** statistics.  A file without rows has no stripes.  Calling it again
** returns the same result. */
int chv_orc_writer_finish(chv_orc_writer *w, struct chv_orc_write_stats *out,
                          struct chv_error *err);

/* Release the writer (NULL is a no-op); an unfinished file is left as far
** as it was written (without its tail it is not an ORC file). */
void chv_orc_writer_close(chv_orc_writer *w);

#endif /* CHV_FORMAT_ORC_ORC_WAPI_H */
