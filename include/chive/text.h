/*
** format/text: Hive TEXTFILE tables as LazySimpleSerDe reads and writes them.
**
** A row is one line; its columns are separated by separator level 0
** (field.delim, default \001); nested values use deeper levels: an ARRAY,
** MAP or STRUCT value at level L separates its elements, entries or fields
** with separator[L] and a MAP its keys from values with separator[L + 1].
** Top-level columns are values at level 1, so by default array items are
** split on \002 and map keys on \003.  The separators are Hive's
** (LazySerDeParameters): \001 \002 \003 (overridden by field.delim,
** collection.delim, mapkey.delim), then \004..\010, \013, \016..\032,
** \034..\037, \200..\377; 8 levels, 24 with
** hive.serialization.extend.nesting.levels, 154 with
** hive.serialization.extend.additional.nesting.levels.
**
** Reading follows LazySimpleSerDe: the null format (default "\N") is NULL;
** a field that does not parse as its column's type is NULL and counted in
** stats.malformed (an empty field is NULL but not counted); extra fields are
** ignored and missing ones are NULL.  Lines end at line.delim (default '\n';
** with the default, "\r\n" and a lone '\r' end a line too, as Hadoop's
** LineReader has it).  The file is decompressed on the fly when its name
** ends in .gz, .zst, .lz4 or .snappy (see chive/compress.h).  See
** docs/text.md for every decision.
**
** Speed: lines are found with memchr in a 1 MiB buffer and fields are parsed
** straight into the batch's vectors, with no allocation per field and one
** switch per value; unprojected columns are skipped, not parsed, and
** nothing past the last projected column of a line is looked at.
**
** INTERFACE
**   chv_text_options_init()         Hive's defaults
**   chv_text_options_set()          apply one SerDe parameter
**   chv_text_options_from_serde()   defaults + a list of SerDe parameters
**   chv_text_reader_open/_schema/_next/_stats/_close
**   chv_text_writer_open/_write/_finish/_close
**   chv_text_format_row()           one row's text, as the writer writes it
**   chv_base64_encode()/_is_text()/_decode()   BINARY values' text form
**
** Thread safety: readers and writers belong to one thread at a time;
** options are plain values.
*/
#ifndef CHIVE_TEXT_H
#define CHIVE_TEXT_H

#include "chive/compress.h"
#include "chive/fs.h"
#include "chive/types.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CHV_TEXT_MAX_LEVELS 154
#define CHV_TEXT_NULL_FORMAT_MAX 64

/* What LazySimpleSerDe needs to know; plain value, copy freely. */
struct chv_text_options {
  /* separators[0] = fields, [1] = collection items, [2] = map keys, ... */
  uint8_t separators[CHV_TEXT_MAX_LEVELS];
  int nlevels;               /* separators in use: 8, 24 or 154 */
  uint8_t line_delim;        /* '\n' */
  bool escaped;              /* escape.delim given */
  uint8_t escape_char;       /* escape.delim, meaningful when escaped */
  bool escape_crlf;          /* serialization.escape.crlf: write "\n" as
                                esc 'n' (reading always maps esc 'n') */
  bool last_column_takes_rest; /* serialization.last.column.takes.rest */
  char null_format[CHV_TEXT_NULL_FORMAT_MAX]; /* serialization.null.format */
  size_t null_format_len;

  /* Reading. */
  const int *columns;        /* borrowed: file column indexes to produce, in
                                this order; NULL = all columns */
  int ncolumns;
  int64_t range_start;       /* split [start, start + length) in bytes */
  int64_t range_length;      /* < 0: to the end of the file */
  bool codec_from_path;      /* true: pick the codec by file extension */
  enum chv_codec codec;      /* used when codec_from_path is false */
  int64_t max_decompressed;  /* decompression-bomb limit; 0 = none */
  size_t buffer_size;        /* read buffer, default 1 MiB */
  int64_t batch_rows;        /* rows per batch when no column is projected */

  /* Writing. */
  bool compress;             /* hive.exec.compress.output: gzip the file */
  int gzip_level;            /* 0 = zlib default */

  unsigned explicit_;        /* internal: which parameters were given */
};

/* A SerDe parameter: key and value, both borrowed. */
struct chv_text_param {
  const char *key;
  const char *value;
};

/* Hive's defaults (no parameters). Cannot fail. */
CHV_API void chv_text_options_init(struct chv_text_options *o);

/* Apply one SerDe parameter: field.delim, serialization.format,
** collection.delim, colelction.delim (Hive 2's spelling), mapkey.delim,
** line.delim, escape.delim, serialization.null.format,
** serialization.escape.crlf, serialization.last.column.takes.rest,
** hive.serialization.extend.nesting.levels and
** hive.serialization.extend.additional.nesting.levels.  A
** delimiter given as a number that fits a Java byte ("1", "44", "-2") is
** that byte, otherwise its first character (Hive's getByte()).  field.delim
** wins over serialization.format and collection.delim over colelction.delim
** whatever the order.  Other keys are ignored, as Hive ignores them.
** Errors: CHV_EINVAL for a null format longer than 63 bytes. */
CHV_API int chv_text_options_set(struct chv_text_options *o, const char *key,
                                 const char *value, struct chv_error *err);

/* chv_text_options_init() then chv_text_options_set() for each param. */
CHV_API int chv_text_options_from_serde(struct chv_text_options *o,
                                        const struct chv_text_param *params,
                                        size_t n, struct chv_error *err);

/* ---- reader ------------------------------------------------------------- */

typedef struct chv_text_reader chv_text_reader;

struct chv_text_stats {
  int64_t rows;            /* rows produced */
  int64_t bytes_read;      /* bytes read from the file (compressed) */
  int64_t bytes_decoded;   /* text bytes scanned (after decompression) */
  int64_t malformed;       /* fields read as NULL because they did not parse */
  int64_t first_malformed_line;   /* 1-based line within the range, or 0 */
  int first_malformed_column;     /* its file column index, or -1 */
};

/* Open a text file for reading.  schema: borrowed STRUCT of the file's
** columns, must outlive the reader.  opts: copied (opts->columns too); NULL
** means defaults.  Errors: CHV_ENOENT/CHV_EIO from the file system,
** CHV_EINVAL for a bad projection, CHV_ENOTSUP for types nested deeper than
** opts->nlevels separators allow (as Hive refuses them).  out: close with chv_text_reader_close(). */
CHV_API int chv_text_reader_open(const struct chv_fs *fs, const char *path,
                                 const struct chv_type *schema,
                                 const struct chv_text_options *opts,
                                 chv_text_reader **out, struct chv_error *err);

/* The STRUCT type of the batches produced: the projected columns in
** projection order (owned by the reader). */
CHV_API const struct chv_type *chv_text_reader_schema(const chv_text_reader *r);

/* Reset batch and fill it with up to its capacity of rows (the first
** column's capacity; opts->batch_rows when there are no columns).  The batch
** must have been opened on chv_text_reader_schema() (or an equal type).
** *nrows = rows produced, 0 at the end.  Errors (CHV_EIO, CHV_ECORRUPT for a
** bad compressed stream, CHV_ENOMEM) name the file and line; a value that
** does not parse is not an error. */
CHV_API int chv_text_reader_next(chv_text_reader *r, struct chv_batch *batch,
                                 int64_t *nrows, struct chv_error *err);

CHV_API void chv_text_reader_stats(const chv_text_reader *r,
                                   struct chv_text_stats *out);

CHV_API void chv_text_reader_close(chv_text_reader *r);

/* ---- writer ------------------------------------------------------------- */

typedef struct chv_text_writer chv_text_writer;

struct chv_text_write_stats {
  int64_t rows;        /* rows written */
  int64_t raw_bytes;   /* text bytes before compression */
  int64_t file_bytes;  /* bytes in the file */
};

/* Create (or truncate) path and write rows of `schema` (borrowed STRUCT) to
** it.  With opts->compress the file is one gzip stream; the caller chooses
** the name (Hive's files then end in ".gz").  out: finish, then close. */
CHV_API int chv_text_writer_open(const struct chv_fs *fs, const char *path,
                                 const struct chv_type *schema,
                                 const struct chv_text_options *opts,
                                 chv_text_writer **out, struct chv_error *err);

/* Append the batch's rows (batch->schema must equal the writer's). */
CHV_API int chv_text_writer_write(chv_text_writer *w,
                                  const struct chv_batch *batch,
                                  struct chv_error *err);

/* Flush, end the compressed stream and close the file; stats may be NULL. */
CHV_API int chv_text_writer_finish(chv_text_writer *w,
                                   struct chv_text_write_stats *st,
                                   struct chv_error *err);

/* What the writer has written so far (file_bytes may lag behind a
** compressor's buffer). */
CHV_API void chv_text_writer_stats(const chv_text_writer *w,
                                   struct chv_text_write_stats *st);

/* Release the writer; an unfinished file is left as far as it was written. */
CHV_API void chv_text_writer_close(chv_text_writer *w);

/* Append the text form of one row (no line delimiter) to out, as the writer
** writes it. */
CHV_API int chv_text_format_row(const struct chv_text_options *o,
                                const struct chv_batch *batch, int64_t row,
                                struct chv_buf *out, struct chv_error *err);

/* ---- base64 ------------------------------------------------------------- */

/* Standard alphabet, padded, no line breaks (commons-codec encodeBase64). */
CHV_API int chv_base64_encode(const void *p, size_t n, struct chv_buf *out);
/* True when every byte is in the base64 alphabet, '=' or white space
** (commons-codec isArrayByteBase64): such a BINARY field is decoded. */
CHV_API bool chv_base64_is_text(const void *p, size_t n);
/* Decode leniently (white space skipped, a trailing partial group kept as
** far as it goes) into dst, which must hold n * 3 / 4 + 3 bytes; returns
** the decoded length. */
CHV_API size_t chv_base64_decode(const void *p, size_t n, uint8_t *dst);

#ifdef __cplusplus
}
#endif
#endif /* CHIVE_TEXT_H */
