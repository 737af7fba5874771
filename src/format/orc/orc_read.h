/*
** format/orc reader internals: the state of chv_orc_reader and of the
** column readers it drives, shared by orc_reader.c (open, projection,
** table mapping, stripes, row groups, batches), orc_column.c (one column's
** streams in a stripe, decoded into vectors), orc_pred.c (predicates
** against statistics and bloom filters), orc_tz.c (time zones of TIMESTAMP
** columns) and orc_bloom.c (ORC's bloom filter hashing).
**
** Data flow of one batch:
**
**   orc_reader.c  next(): stripe after stripe, row-group run after run
**        |        (a run: consecutive row groups the predicates keep; the
**        |        columns are sought to its first group by the row index)
**        v
**   orc_column.c  or_col_read(): n rows of one produced column into its
**                 vector: the PRESENT bits of the rows whose parent value
**                 exists, then the values of the rows that are not NULL;
**                 a STRUCT hands its children the mask of its non-NULL
**                 rows, a LIST or MAP the sum of its lengths, a UNION each
**                 variant the rows of its tag
**
** Column readers.  A produced value that the file holds has a struct
** or_col, paired with the file's type id; the tree follows the produced
** type (a STRUCT member the file lacks has no reader and reads as NULL).
** Only the streams of columns with a reader are read from a stripe.
**
** Limits: a stream's chunks are decompressed one at a time into a buffer
** of the codec's block size, and a stream may inflate to max_stream_bytes
** in all; a string dictionary is held whole (at most max_stream_bytes);
** one batch's string bytes, and the elements of its lists and maps, in one
** column, are at most max_stream_bytes (CHV_ERANGE: read smaller
** batches).
**
** Thread safety: none; a reader belongs to one thread at a time.
*/
#ifndef CHV_FORMAT_ORC_READ_H
#define CHV_FORMAT_ORC_READ_H

#include "format/orc/orc_rle.h"

#include "chive/orc.h"

#define OR_DEFAULT_MAX_STREAM ((int64_t)1 << 30)
#define OR_DEFAULT_BATCH_ROWS 4096
/* Rows a column decodes at a time (its scratch buffers hold this many). */
#define OR_SLICE 4096
/* Streams closer than this in a stripe are read in one request. */
#define OR_MERGE_GAP ((int64_t)256 << 10)

/* ---- orc_tz.c ---------------------------------------------------------- */

struct or_tz;

/* A zone by its ORC/Java name ("UTC", "US/Pacific", "GMT+08:00").
** CHV_ENOTSUP for a name the time zone database lacks.  out: or_tz_close. */
int or_tz_open(const char *name, struct or_tz **out, struct chv_error *err);
void or_tz_close(struct or_tz *z);
/* Seconds east of UTC in effect at UTC second t. */
int32_t or_tz_offset(struct or_tz *z, int64_t t);
/* 2015-01-01 00:00:00 in the zone, as UTC seconds. */
int64_t or_tz_base(const struct or_tz *z);
bool or_tz_is_utc(const struct or_tz *z);
const char *or_tz_name(const struct or_tz *z);

/* ---- orc_bloom.c ------------------------------------------------------- */

uint64_t or_bloom_hash_long(int64_t v);
uint64_t or_bloom_hash_double(double d);
uint64_t or_bloom_hash_bytes(const void *p, size_t n);
/* False when the filter proves the value of this hash absent. */
bool or_bloom_test(const struct chv_orc_bloom_filter *b, uint64_t hash);
/* Set the k bits of hash in bits[nwords] (tests build filters with it). */
void or_bloom_add(uint64_t *bits, uint32_t nwords, uint32_t k, uint64_t hash);

/* ---- column readers (orc_column.c) ------------------------------------- */

/* A stream of a column in the current stripe. */
struct or_stream {
  struct chv_orc_stream s;
  bool present; /* the stripe has this stream */
};

/* One produced value read from file column `id`. */
struct or_col {
  struct chv_orc_reader *r;
  uint32_t id;                  /* file type id */
  int32_t kind;                 /* its ORC kind */
  const struct chv_type *ftype; /* its Hive type (reader-owned) */
  const struct chv_type *target; /* the produced type */
  char *name;                   /* dotted path, for messages (owned) */
  bool decimal64;               /* DECIMAL as RLE v2 integers (ORC v2 draft) */
  bool trim_char;               /* CHAR values lose trailing spaces */
  /* Children: STRUCT and UNION one per field of the target (NULL: the file
  ** lacks it); LIST one, MAP two. */
  int nchildren;
  struct or_col **children;
  int union_tag_field;          /* UNION: the target's "tag" field or -1 */
  int *union_field;             /* UNION: variant -> target field or -1 */
  uint32_t nvariants;

  /* ---- the current stripe ---- */
  int32_t encoding;             /* enum chv_orc_encoding_kind */
  int rle;                      /* integer RLE version of its streams */
  struct or_stream present, data, length, secondary, dict;
  struct chv_orc_bool_rle pbits;  /* PRESENT */
  struct chv_orc_bool_rle bools;  /* BOOLEAN DATA */
  struct chv_orc_byte_rle bytes;  /* BYTE DATA, UNION tags */
  struct chv_orc_int_rle *ints;   /* integer DATA, dictionary ids (owned,
                                     allocated for the kinds using it) */
  struct chv_orc_int_rle *lens;   /* LENGTH (likewise) */
  struct chv_orc_int_rle *secs;   /* SECONDARY (likewise) */
  struct chv_buf dict_blob;       /* the dictionary's bytes */
  uint32_t *dict_off;             /* dict_n + 1 offsets into the blob */
  uint32_t dict_n, dict_cap;
  struct or_tz *tz;               /* TIMESTAMP: the writer's zone */
  int64_t ts_base;                /* ... its 2015-01-01, UTC seconds */
  bool ts_utc;                    /* ... it has offset 0 throughout */

  /* ---- scratch, scratch_cap (<= OR_SLICE) entries each ---- */
  int64_t scratch_cap;
  uint8_t *valid;  /* the slice's rows holding a value */
  uint8_t *u8;     /* PRESENT bits, bytes, tags, booleans */
  uint8_t *mask;   /* UNION: one variant's rows */
  int64_t *i64;    /* integers, lengths, ids */
  int64_t *i64b;   /* SECONDARY values */
  chv_i128 *dec;   /* decimals */
  struct chv_buf sbuf; /* CHAR/VARCHAR: the slice's bytes */
};

/* Build the reader tree pairing produced type t with file column id
** (orc_reader.c calls it per produced column); *out NULL when the file
** lacks the column.  CHV_ETYPE when the types do not pair. */
int or_col_build(struct chv_orc_reader *r, const struct chv_type *t,
                 int64_t id, const char *name, int depth, struct or_col **out,
                 struct chv_error *err);
void or_col_free(struct or_col *c);
/* Mark the file columns a tree reads (included[id] = true). */
void or_col_include(const struct or_col *c, bool *included);
/* Set up the column's streams and decoders for stripe `stripe` (its
** footer and bytes loaded in r), recursively. */
int or_col_begin(struct or_col *c, struct chv_error *err);
/* Seek the column, recursively, to the start of row group g (the row
** index of every column of the tree loaded in r). */
int or_col_seek(struct or_col *c, uint32_t g, struct chv_error *err);
/* Append n rows to v; pm (n bytes, may be NULL: all) says which rows have
** an entry in this column (their parent value exists). */
int or_col_read(struct or_col *c, int64_t n, const uint8_t *pm,
                struct chv_vector *v, struct chv_error *err);
/* The rows of the next n that are not NULL (a root struct's PRESENT
** stream): *valid n bytes, or NULL when every row is. */
int or_col_mask(struct or_col *c, int64_t n, const uint8_t **valid,
                struct chv_error *err);
/* Bytes the tree's streams inflated in the current stripe. */
uint64_t or_col_produced(const struct or_col *c);
/* Append k NULL rows to any vector. */
int or_append_nulls(struct chv_vector *v, int64_t k, struct chv_error *err);

/* ---- predicates (orc_pred.c) ------------------------------------------- */

struct or_pred;

/* Prepare opts.preds (file column, literal); r->preds gets an array of
** r->o.npreds. */
int or_preds_prepare(struct chv_orc_reader *r, struct chv_error *err);
/* True when some predicate proves no row of a set with these statistics
** (a stripe's, or a row group's with its bloom filters) can match. */
bool or_preds_rule_out_stripe(struct chv_orc_reader *r, uint32_t stripe);
bool or_preds_rule_out_group(struct chv_orc_reader *r, uint32_t g);
/* File columns the predicates need statistics of (pred_col[id]). */
void or_preds_columns(const struct chv_orc_reader *r, bool *cols);
bool or_preds_usable(const struct chv_orc_reader *r);

/* ---- the reader -------------------------------------------------------- */

/* A byte range of the stripe read into the stripe buffer. */
struct or_range {
  uint64_t off, len; /* in the file */
  size_t at;         /* in r->sbuf */
};

struct chv_orc_reader {
  const struct chv_fs *fs;
  struct chv_file *file;
  char *path; /* owned copy, for messages */
  int64_t file_size;
  struct chv_orc_read_options o;
  struct chv_orc_tail *tail;
  struct chv_orc_input in;
  chv_orc_codec *codec;
  struct chv_orc_metadata *meta; /* stripe statistics (predicates only) */
  struct chv_type *fschema;      /* the file's columns as Hive types */
  struct chv_type **ftypes;      /* per type id: its Hive type (lazy) */
  struct chv_type *schema;       /* owned: the batches' STRUCT */
  bool positional;               /* table columns found by position */
  int ncols;
  struct or_col **cols;          /* per produced column; NULL: missing */
  struct or_col *root;           /* the root struct's PRESENT, if any */
  bool *included;                /* per type id: a reader reads it */
  bool *pred_cols;               /* per type id: a predicate needs it */
  struct or_pred *preds;
  int max_depth;

  /* Stripes. */
  uint32_t first_stripe, end_stripe; /* the range read */
  bool *skip;                        /* per stripe: ruled out */
  uint32_t next_stripe;
  int64_t cur_stripe;                /* being read, or -1 */
  uint64_t stripe_rows, stripe_pos;  /* its rows; consumed */
  chv_arena *stripe_arena;
  struct chv_orc_stripe_footer sf;
  uint8_t *sbuf;                     /* the stripe's streams read */
  size_t sbuf_cap;
  struct or_range *ranges;
  size_t nranges, ranges_cap;
  struct chv_buf io;                 /* stripe footer reads */
  struct chv_orc_row_index *ri;      /* per type id (NULL: not loaded) */
  struct chv_orc_bloom_index *bi;    /* per type id (NULL: none) */
  int32_t *bi_kind;                  /* per type id: its stream kind */
  bool bad_blooms;                   /* the writer's filters are unusable */
  /* Row groups of the current stripe. */
  uint64_t stride;                   /* rows per group; 0: no index */
  uint32_t nrg;
  bool *rg_keep;                     /* NULL: every group */
  uint32_t rg_cap;
  uint64_t run_end;                  /* rows of the stripe before the end of
                                        the run being read */
  struct or_tz **tzs;                /* zones met so far */
  size_t ntzs;
  bool done;
  int failed;                        /* status of an earlier failure */
  struct chv_error ferr;
  struct chv_orc_read_stats st;
};

/* The writer's zone of TIMESTAMP values in the current stripe (cached). */
int or_reader_tz(struct chv_orc_reader *r, const char *name,
                 struct or_tz **out, struct chv_error *err);
/* The stream of this column and kind in the current stripe: false when
** the stripe has none, else its stored bytes in r->sbuf (*p NULL when it is
** empty). */
bool or_reader_stream(struct chv_orc_reader *r, uint32_t column, int32_t kind,
                      const uint8_t **p, size_t *len);
/* The file's top-level column of a produced (or table) column name, and the
** type it is produced as; -1 when the file lacks it. */
int64_t or_reader_file_column(struct chv_orc_reader *r, const char *name,
                              const struct chv_type **target);
/* "<path>: column <name>, stripe N: " in front of err's message. */
int or_wrap(const struct or_col *c, struct chv_error *err);

#endif /* CHV_FORMAT_ORC_READ_H */
