/*
** format/orc: ORC files read and written natively, from the
** apache/orc-format specification (docs/orc.md).
**
** Reading maps the file's types to Hive types (docs/orc.md has the table):
** every ORC type including LIST, MAP, STRUCT and UNION to any depth, file
** versions 0.11 and 0.12, every codec (NONE, ZLIB, SNAPPY, LZO, LZ4, ZSTD),
** RLE v1 and v2, direct and dictionary strings, Decimal64.  With a table
** schema, table columns are found in the file as Hive's schema evolution
** finds them: by position when the file's columns are named _col0, _col1,
** ... (files of old Hive writers), by name (case-insensitively) otherwise;
** a column the file lacks reads as NULL, and the widenings Hive allows are
** applied.  Only the projected columns' streams are read; stripes and row
** groups (of orc.row.index.stride rows) whose statistics cannot satisfy a
** pushed predicate are skipped, and bloom filters rule out equality where
** present.
**
** Writing produces files Hive reads: version 0.12, RLE v2, dictionary
** strings while the dictionary stays under orc.dictionary.key.threshold,
** orc.compress (ZLIB by default), orc.stripe.size, orc.row.index.stride,
** statistics at file, stripe and row-group level, bloom filters for
** orc.bloom.filter.columns.
**
** Malformed files give CHV_ECORRUPT (CHV_ENOTSUP for what the format allows
** but chive does not) naming the file, the column and what is wrong; sizes
** read from a file are checked before anything is allocated for them.
**
** INTERFACE
**   chv_orc_read_options_init()
**   chv_orc_reader_open/_schema/_next/_stats/_close
**   chv_orc_file_stats()                   numRows, rawDataSize from a tail
**   chv_orc_file_units()                   the stripes, for split planning
**   chv_orc_write_options_init()/_set()
**   chv_orc_writer_open/_write/_stats/_finish/_close
**
** Thread safety: readers and writers belong to one thread at a time.
*/
#ifndef CHIVE_ORC_H
#define CHIVE_ORC_H

#include "chive/fs.h"
#include "chive/pred.h"
#include "chive/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- reader ------------------------------------------------------------- */

typedef struct chv_orc_reader chv_orc_reader;

/* Plain values; chv_orc_read_options_init() gives the defaults. */
struct chv_orc_read_options {
  /* The table's data columns (a STRUCT), borrowed: the reader's columns are
  ** these, found in the file as Hive finds them (above): by position when
  ** every top-level name of the file is _col<N>, else by name without case;
  ** STRUCT members by name at every depth (a UNION pairs with a STRUCT
  ** through the names tag, field0, field1, ...); what the file lacks reads
  ** as NULL; a file column of another type must widen to the table's as
  ** Hive allows (tinyint < smallint < int < bigint; integers to float,
  ** double or a decimal that holds them; float to double; decimal(p,s) to
  ** a decimal with as many integer and fraction digits or more; string,
  ** varchar, char and binary among themselves, with VARCHAR and CHAR
  ** lengths applied).  NULL reads the file's own columns. */
  const struct chv_type *table_schema;
  /* Names of the columns to decode (of the table schema, or the file's),
  ** in output order, matched without case; NULL with 0 = all. */
  const char *const *columns;
  int ncolumns;
  /* Conjunction of predicates for skipping stripes and row groups
  ** (borrowed).  They may name columns that are not projected. */
  const struct chv_pred *preds;
  int npreds;
  /* Read only the stripes whose first byte lies in [range_start,
  ** range_start + range_length) (a split); range_length <= 0: to the end
  ** of the file.  init: 0 and -1, the whole file. */
  int64_t range_start;
  int64_t range_length;
  int64_t batch_rows;       /* rows per batch when no column is read; 4096 */
  /* The largest stream accepted after decompression (a stream inflating
  ** past it is CHV_ERANGE, which bounds what a decompression bomb costs),
  ** and the most string bytes, and list and map elements, one batch may
  ** decode in one column (CHV_ERANGE: read smaller batches); 0 = 1 GiB. */
  int64_t max_stream_bytes;
};

/* What a reader has done (chv_orc_reader_stats()). */
struct chv_orc_read_stats {
  int64_t rows;               /* rows produced */
  int stripes;                /* stripes in the range read */
  int stripes_skipped;        /* of those, skipped by the predicates: by
                                 stripe statistics (decided at open) or
                                 because every row group was ruled out */
  int64_t row_groups;         /* row groups of the stripes reached (files
                                 with a row index) */
  int64_t row_groups_skipped; /* of those, ruled out by row index
                                 statistics or bloom filters */
  int64_t bytes_read;         /* bytes read from the file (tail included) */
  int64_t bytes_decompressed; /* bytes the data streams inflated to */
};

CHV_API void chv_orc_read_options_init(struct chv_orc_read_options *o);

/* Open path for reading: its tail is read and checked, its columns mapped,
** and the stripes the predicates rule out by stripe statistics decided.
** opts is copied (the arrays and the table schema it points to must
** outlive the reader); NULL means defaults.  Errors: CHV_ENOENT/CHV_EIO
** from the file system; CHV_ECORRUPT for a file that is not ORC or is
** damaged; CHV_ENOTSUP for valid ORC chive does not read (a future file
** version, column encryption, a decimal over 38 digits, a map with a
** compound key); CHV_ETYPE for a table column whose file column cannot be
** read as its type (the message names the file, the column and both
** types); CHV_EINVAL for a projection naming no column or one twice.  A
** 0-byte file is an empty file of type struct<> (as ORC Java reads it).
** out: close with chv_orc_reader_close(). */
CHV_API int chv_orc_reader_open(const struct chv_fs *fs, const char *path,
                                const struct chv_orc_read_options *opts,
                                chv_orc_reader **out, struct chv_error *err);

/* The STRUCT type of the batches produced: the projected columns in
** projection order (owned by the reader).  ORC UNIONs appear as
** struct<tag:tinyint,field0:T0,...>. */
CHV_API const struct chv_type *chv_orc_reader_schema(const chv_orc_reader *r);

/* Reset batch and fill it with up to its capacity of rows (the smallest
** column capacity; opts->batch_rows when there are no columns), crossing
** row groups and stripes; the batch must have been opened on
** chv_orc_reader_schema() (or an equal type).  *nrows = rows produced, 0
** at the end.  TIMESTAMP values are the writer's wall-clock time, as Hive 3
** reads them (docs/orc.md).  Errors: CHV_ECORRUPT for damaged data
** ("x.orc: column a.b, stripe 2: LENGTH: the stream ends early"),
** CHV_ERANGE past max_stream_bytes, CHV_ENOTSUP for what the format allows
** but chive does not read (an unknown encoding, a writer time zone the
** system's time zone database lacks), CHV_EIO, CHV_ENOMEM.  After an error
** the batch is empty and every later call returns the same error. */
CHV_API int chv_orc_reader_next(chv_orc_reader *r, struct chv_batch *batch,
                                int64_t *nrows, struct chv_error *err);

CHV_API void chv_orc_reader_stats(const chv_orc_reader *r,
                                  struct chv_orc_read_stats *out);

/* Release the reader and its file; NULL is a no-op. */
CHV_API void chv_orc_reader_close(chv_orc_reader *r);

/* What a table's statistics take from a file's tail alone: numRows (the
** footer's, or the stripes' sum) and rawDataSize as ORC 1.5's
** Reader.getRawDataSize() computes it from the footer's column statistics
** (Hive 3's; docs/orc.md has the arithmetic). */
struct chv_orc_file_stats {
  int64_t num_rows;
  int64_t raw_data_size;
  int stripes;
};
CHV_API int chv_orc_file_stats(const struct chv_fs *fs, const char *path,
                               struct chv_orc_file_stats *out,
                               struct chv_error *err);

/* The stripes of a file (offset, length of index + data + footer in bytes,
** rows), in file order, for packing into splits: a split [offset, offset +
** length) given as a read range reads exactly the stripes starting in it.
** *out: chv_free() (a non-NULL pointer even for 0 stripes). */
struct chv_orc_unit {
  int64_t offset;
  int64_t length;
  int64_t rows;
};
CHV_API int chv_orc_file_units(const struct chv_fs *fs, const char *path,
                               struct chv_orc_unit **out, int *n,
                               struct chv_error *err);

/* ---- writer ------------------------------------------------------------- */

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

CHV_API void chv_orc_write_options_init(struct chv_orc_write_options *o);

/* Apply one table property (key and value as the metastore holds them).
** Keys not listed above are ignored (CHV_OK).  A value the key does not
** take is CHV_EINVAL naming key and value (o is then unchanged). */
CHV_API int chv_orc_write_options_set(struct chv_orc_write_options *o,
                                      const char *key, const char *value,
                                      struct chv_error *err);

/* Create (or truncate) path on fs and start an ORC file (version 0.12) for
** rows of schema, a STRUCT whose fields are the file's columns (borrowed:
** it must outlive the writer).  opts NULL means defaults; it is copied.
** Every Hive type is written (docs/orc.md, "Writer", has the mapping); a
** schema nesting deeper than 64 levels is CHV_ENOTSUP, bad options
** CHV_EINVAL, file system failures as the fs reports them.
** out: close with chv_orc_writer_close(). */
CHV_API int chv_orc_writer_open(const struct chv_fs *fs, const char *path,
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
CHV_API int chv_orc_writer_write(chv_orc_writer *w, const struct chv_batch *b,
                                 struct chv_error *err);

/* What was written so far.  file_bytes + buffered_bytes estimates the
** file's size if it were finished now, for rolling files by size. */
CHV_API void chv_orc_writer_stats(const chv_orc_writer *w,
                                  struct chv_orc_write_stats *out);

/* Write the last stripe, the Metadata (stripe statistics), the Footer and
** the PostScript, sync and close the file; out (may be NULL) gets the final
** statistics.  A file without rows has no stripes.  Calling it again
** returns the same result. */
CHV_API int chv_orc_writer_finish(chv_orc_writer *w,
                                  struct chv_orc_write_stats *out,
                                  struct chv_error *err);

/* Release the writer (NULL is a no-op); an unfinished file is left as far
** as it was written (without its tail it is not an ORC file). */
CHV_API void chv_orc_writer_close(chv_orc_writer *w);

#ifdef __cplusplus
}
#endif

#endif /* CHIVE_ORC_H */
