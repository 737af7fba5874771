/*
** format/parquet: Parquet files read and written natively, from the
** apache/parquet-format specification (docs/parquet.md).
**
** Reading maps the file's schema to Hive types as Hive's Parquet SerDe
** does (docs/parquet.md has the table): nested LIST, MAP and STRUCT to any
** depth, the legacy list shapes, every physical type, encoding and codec of
** the format.  With a table schema, table columns are found in the file by
** name, case-insensitively; a column the file lacks reads as NULL, and the
** widenings Hive allows (int to bigint, float to double, ...) are applied.
** Only the projected columns' chunks are read and decompressed; row groups
** whose statistics (min, max, null count) cannot satisfy a pushed
** predicate are skipped.
**
** Writing produces files Hive, Spark, Trino and DuckDB read: Hive's type
** mapping, TIMESTAMP as INT96 by default, dictionary encoding with a
** fallback to PLAIN, column statistics, row groups of parquet.block.size
** and pages of parquet.page.size.
**
** Malformed files give CHV_ECORRUPT (or CHV_ENOTSUP for what the format
** allows but chive does not) with a message naming the file, the column and
** what is wrong; sizes read from a file are checked before anything is
** allocated for them.
**
** INTERFACE
**   chv_pq_read_options_init()              defaults
**   chv_pq_reader_open/_schema/_next/_stats/_close
**   chv_pq_file_stats()                     numRows, rawDataSize from a footer
**   chv_pq_write_options_init()             Hive's defaults
**   chv_pq_write_options_set()              one table property (parquet.*)
**   chv_pq_writer_open/_write/_stats/_finish/_close
**
** Thread safety: readers and writers belong to one thread at a time.
*/
#ifndef CHIVE_PARQUET_H
#define CHIVE_PARQUET_H

#include "chive/fs.h"
#include "chive/pred.h"
#include "chive/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- pushed predicates -------------------------------------------------- */

/* struct chv_pred (chive/pred.h): a row group is skipped when its
** statistics prove no row can match; within the groups read, rows are left
** out when the page index (ColumnIndex/OffsetIndex) of a predicate's column
** proves their pages cannot match. */

/* ---- reader ------------------------------------------------------------- */

typedef struct chv_pq_reader chv_pq_reader;

/* Which split of a file reads a row group: the one whose byte range holds
** the group's anchor offset.  Each group has one anchor, so splits that
** cover a file read each of its row groups once, wherever they are cut. */
enum chv_pq_range_rule {
  /* The group's midpoint: where its first column chunk starts (its
  ** dictionary page when that comes first) plus half the group's
  ** compressed size (total_compressed_size, else the chunks' sum).  This
  ** is parquet-mr's range filter, which Flink's vectorized Parquet reader
  ** (and Spark's) use.  The default. */
  CHV_PQ_RANGE_MIDPOINT,
  /* The first data page of the group's first column chunk, as Hive's
  ** ParquetRecordReaderBase (the mapred reader) decides. */
  CHV_PQ_RANGE_FIRST_DATA_PAGE
};

/* Plain values; chv_pq_read_options_init() gives the defaults. */
struct chv_pq_read_options {
  /* The table's data columns (a STRUCT), borrowed: the reader's columns
  ** are these, found in the file by name (STRUCT members too, at any
  ** depth), case-insensitively; what the file lacks reads as NULL, and a
  ** file column of another type must widen to the table's as Hive allows
  ** (tinyint < smallint < int < bigint; integers to float, double or a
  ** decimal that holds them; float to double; decimal(p,s) to a decimal
  ** with as many integer and fraction digits or more; string, varchar,
  ** char and binary among themselves, with VARCHAR and CHAR lengths
  ** applied).  NULL reads the file's own columns. */
  const struct chv_type *table_schema;
  /* Names of the columns to decode, in output order; NULL with 0 = all. */
  const char *const *columns;
  int ncolumns;
  /* Conjunction of predicates for skipping row groups (borrowed). */
  const struct chv_pred *preds;
  int npreds;
  int64_t batch_rows;      /* rows per batch when no column is read; 4096 */
  bool no_checksums;       /* do not verify page CRCs (verified if present) */
  int64_t max_page_bytes;  /* largest page accepted, after decompression,
                              and most level entries (values and NULLs) in
                              one page; 0 = 1 GiB */
  /* A split: read only the row groups whose anchor (range_rule) lies in
  ** [range_start, range_start + range_length); range_length <= 0: to the
  ** end of the file.  An anchor a damaged footer puts outside the file is
  ** taken as the nearest byte of the file, so no group is lost. */
  int64_t range_start;
  int64_t range_length;
  enum chv_pq_range_rule range_rule;
};

struct chv_pq_read_stats {
  int64_t rows;              /* rows produced */
  int row_groups;            /* in the file, or in the range read */
  int row_groups_skipped;    /* by the predicates: the statistics (decided
                                at open), the page index (as the scan
                                reaches the group) */
  int64_t pages;             /* data and dictionary pages decoded */
  int64_t pages_skipped;     /* data pages passed over unread (page index) */
  int64_t rows_skipped;      /* rows of the groups read left out by the
                                page index */
  int64_t bytes_read;        /* bytes read from the file (footer included) */
  int64_t bytes_decompressed; /* bytes pages inflated to */
};

CHV_API void chv_pq_read_options_init(struct chv_pq_read_options *o);

/* Open path for reading (its footer is read and checked here, and the row
** groups the predicates rule out are decided).  opts is copied (the arrays
** and the table schema it points to must outlive the reader); NULL means
** defaults.  Errors: CHV_ENOENT/CHV_EIO from the file system, CHV_ECORRUPT
** for a file that is not Parquet or is damaged, CHV_ENOTSUP for a schema
** Hive cannot hold (encryption, decimals over 38 digits, ...), CHV_ETYPE
** for a table column whose file column has a type it cannot be read as
** (the message names the file, the column and both types), CHV_EINVAL for
** a projection naming no column or one column twice.  out: close with
** chv_pq_reader_close(). */
CHV_API int chv_pq_reader_open(const struct chv_fs *fs, const char *path,
                               const struct chv_pq_read_options *opts,
                               chv_pq_reader **out, struct chv_error *err);

/* The STRUCT type of the batches produced: the projected columns in
** projection order (owned by the reader). */
CHV_API const struct chv_type *chv_pq_reader_schema(const chv_pq_reader *r);

/* Reset batch and fill it with up to its capacity of rows (the smallest
** column capacity; opts->batch_rows when there are no columns), crossing
** page and row group boundaries; the batch must have been opened on
** chv_pq_reader_schema() (or an equal type).  *nrows = rows produced, 0 at
** the end.  Errors: CHV_ECORRUPT for damaged data ("x.parquet: column a.b,
** row group 0, page 3: ..."), CHV_ERANGE for a page over max_page_bytes,
** CHV_ENOTSUP for what the format allows but chive does not read (LZO,
** column chunks in other files), CHV_EIO, CHV_ENOMEM.  After an error the
** batch is empty and every later call returns the same error. */
CHV_API int chv_pq_reader_next(chv_pq_reader *r, struct chv_batch *batch,
                               int64_t *nrows, struct chv_error *err);

CHV_API void chv_pq_reader_stats(const chv_pq_reader *r,
                                 struct chv_pq_read_stats *out);

/* Release the reader and its file; NULL is a no-op. */
CHV_API void chv_pq_reader_close(chv_pq_reader *r);

/* What a table's statistics take from a file's footer alone: the rows (sum
** over row groups) and the raw data size (the row groups' uncompressed
** total_byte_size). */
struct chv_pq_file_stats {
  int64_t num_rows;
  int64_t raw_data_size;
  int row_groups;
};
CHV_API int chv_pq_file_stats(const struct chv_fs *fs, const char *path,
                              struct chv_pq_file_stats *out,
                              struct chv_error *err);

/* ---- writer ------------------------------------------------------------- */

typedef struct chv_pq_writer chv_pq_writer;

/* Units of INT64 timestamps (hive.parquet.timestamp.time.unit). */
enum chv_pq_ts_unit {
  CHV_PQ_TS_MILLIS = 1,
  CHV_PQ_TS_MICROS = 2,
  CHV_PQ_TS_NANOS = 3
};

/* One key_value_metadata entry of the footer. */
struct chv_pq_write_kv {
  const char *key;
  const char *value;
};

/* How a file is written.  chv_pq_write_options_init() gives Hive's
** defaults (those of the parquet-mr writer Hive uses); the table properties
** chv_pq_write_options_set() understands set the fields:
**
**   parquet.compression          codec: SNAPPY (default), GZIP, ZSTD,
**                                LZ4_RAW, BROTLI, UNCOMPRESSED (or NONE);
**                                case-insensitive
**   parquet.compression.codec.zstd.level   1..22 (3)
**   zlib.compress.level          GZIP level 1..9 or BEST_SPEED,
**                                DEFAULT_COMPRESSION, BEST_COMPRESSION (6)
**   parquet.block.size           row group size in bytes (134217728)
**   parquet.page.size            data page size in bytes (1048576)
**   parquet.page.row.count.limit rows per data page at most (20000)
**   parquet.dictionary.page.size dictionary bytes before a column chunk
**                                falls back to plain encoding (1048576)
**   parquet.enable.dictionary    true / false (true)
**   parquet.writer.version       v1 (data page v1, the default) or v2 (data
**                                page v2 and the DELTA encodings);
**                                PARQUET_1_0 / PARQUET_2_0 too
**   parquet.page.write-checksum.enabled    CRC-32 in page headers (true)
**   hive.parquet.write.int64.timestamp     true: TIMESTAMP as INT64
**                                TIMESTAMP(isAdjustedToUTC=false); false
**                                (the default): INT96 as Hive writes it
**   hive.parquet.timestamp.time.unit       millis, micros (default), nanos
**
** Sizes are whole numbers of bytes, optionally with a k, m or g suffix
** (binary multiples).  Integers in the struct are bounded as the setter
** bounds them; the writer refuses out-of-range fields with CHV_EINVAL. */
struct chv_pq_write_options {
  int codec;                  /* Parquet CompressionCodec id: 0 UNCOMPRESSED,
                                 1 SNAPPY, 2 GZIP, 4 BROTLI, 6 ZSTD,
                                 7 LZ4_RAW */
  int zstd_level;             /* 0 = 3 */
  int gzip_level;             /* 0 = 6 */
  int64_t block_size;         /* row group bytes, buffered before a flush */
  int64_t page_size;          /* data page bytes, encoded */
  int64_t page_row_limit;     /* rows per data page */
  int64_t dictionary_page_size; /* dictionary bytes before falling back */
  bool dictionary;            /* try dictionary encoding first */
  bool data_page_v2;          /* DATA_PAGE_V2 and DELTA encodings */
  bool page_checksum;         /* crc field of page headers */
  bool timestamp_int64;       /* INT64 TIMESTAMP instead of INT96 */
  int timestamp_unit;         /* enum chv_pq_ts_unit, for timestamp_int64 */
  /* Extra footer key_value_metadata (borrowed; copied by
  ** chv_pq_writer_open()).  The writer adds writer.time.zone=UTC and
  ** writer.date.proleptic=true itself. */
  const struct chv_pq_write_kv *metadata;
  int nmetadata;
};

/* What a writer has done.  raw_bytes is what Hive's rawDataSize takes from
** a Parquet file: the sum of the row groups' total_byte_size (uncompressed
** bytes of their pages, headers included). */
struct chv_pq_write_stats {
  int64_t rows;           /* rows taken by chv_pq_writer_write() */
  int64_t file_bytes;     /* bytes of the file so far (row groups written;
                             up to 1 MiB may still be in the writer's
                             output buffer until the next write or finish) */
  int64_t raw_bytes;      /* total_byte_size of the row groups written */
  int64_t buffered_bytes; /* estimate of the row group being buffered */
  int row_groups;         /* row groups written */
};

CHV_API void chv_pq_write_options_init(struct chv_pq_write_options *o);

/* Apply one table property (key and value as the metastore holds them).
** Keys not listed above are ignored (CHV_OK): a table carries many
** properties that are not the writer's.  A value the key does not take is
** CHV_EINVAL naming key and value (o is then unchanged). */
CHV_API int chv_pq_write_options_set(struct chv_pq_write_options *o,
                                     const char *key, const char *value,
                                     struct chv_error *err);

/* Create (or truncate) path on fs and start a Parquet file for rows of
** schema, a STRUCT whose fields are the file's columns (borrowed: it must
** outlive the writer).  opts NULL means defaults; it is copied.  Every Hive
** type is written (docs/parquet.md, "Writer", has the mapping); a schema
** nesting deeper than Parquet readers take is CHV_ENOTSUP, bad options
** CHV_EINVAL, file system failures as the fs reports them.
** out: close with chv_pq_writer_close(). */
CHV_API int chv_pq_writer_open(const struct chv_fs *fs, const char *path,
                               const struct chv_type *schema,
                               const struct chv_pq_write_options *opts,
                               chv_pq_writer **out, struct chv_error *err);

/* Append the batch's rows.  The batch must be of the writer's schema
** (CHV_ETYPE otherwise, and for vectors whose shape does not match it:
** lengths, offsets, missing buffers).  Values the file cannot hold are
** CHV_ERANGE naming the column and the row (a decimal with more digits than
** its precision, a timestamp outside the INT64 unit's range), a NULL map
** key CHV_EINVAL; on these errors nothing of the batch was taken and the
** writer can go on.  Other failures (CHV_EIO, CHV_ENOMEM) leave the writer
** failed: every later call returns the error again.  Rows are buffered as
** encoded pages; a row group is written when its estimated size reaches
** parquet.block.size. */
CHV_API int chv_pq_writer_write(chv_pq_writer *w, const struct chv_batch *b,
                                struct chv_error *err);

/* What was written so far.  file_bytes + buffered_bytes estimates the
** file's size if it were finished now (before compression of the pages
** being filled), for rolling files by size. */
CHV_API void chv_pq_writer_stats(const chv_pq_writer *w,
                                 struct chv_pq_write_stats *out);

/* Write the last row group and the footer, sync and close the file; out
** (may be NULL) gets the final statistics.  A file without rows has no row
** groups.  Calling it again returns the same result. */
CHV_API int chv_pq_writer_finish(chv_pq_writer *w,
                                 struct chv_pq_write_stats *out,
                                 struct chv_error *err);

/* Release the writer (NULL is a no-op); an unfinished file is left as far
** as it was written (without a footer it is not a Parquet file). */
CHV_API void chv_pq_writer_close(chv_pq_writer *w);

#ifdef __cplusplus
}
#endif

#endif /* CHIVE_PARQUET_H */
