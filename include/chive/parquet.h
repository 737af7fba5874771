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
#include "chive/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- pushed predicates -------------------------------------------------- */

/* A comparison of a column with a literal that row groups are tested
** against.  The literal is text in Hive's canonical form for the column's
** type ("42", "1.5", "2024-01-31", "2024-01-31 10:00:00", "abc"); a literal
** that does not convert makes the predicate unusable, not an error.  A row
** group is skipped only when its statistics prove no row can match. */
enum chv_pred_op {
  CHV_PRED_EQ,
  CHV_PRED_NE,
  CHV_PRED_LT,
  CHV_PRED_LE,
  CHV_PRED_GT,
  CHV_PRED_GE,
  CHV_PRED_IS_NULL,
  CHV_PRED_IS_NOT_NULL
};

struct chv_pred {
  const char *column; /* a top-level column, matched case-insensitively */
  enum chv_pred_op op;
  const char *value;  /* NULL for IS [NOT] NULL */
};

/* ---- reader ------------------------------------------------------------- */

typedef struct chv_pq_reader chv_pq_reader;

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
};

struct chv_pq_read_stats {
  int64_t rows;              /* rows produced */
  int row_groups;            /* in the file */
  int row_groups_skipped;    /* by the predicates (decided at open) */
  int64_t pages;             /* data and dictionary pages decoded */
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

/* ---- writer: see the section below (added with the writer) ---------- */

#ifdef __cplusplus
}
#endif

#endif /* CHIVE_PARQUET_H */
