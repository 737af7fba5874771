/*
** format/orc writer internals: the column writer of one ORC type, shared by
** orc_writer.c (the file: options, schema, batches, stripes, footer) and
** orc_wcolumn.c (values into streams, statistics, bloom filters, the string
** dictionary, row index positions).
**
** Every ORC type of the file (the root struct included) has a column writer
** (struct ow_col), in pre-order, so that a column's index in the array is
** its ORC column id.  A column writes the rows it is handed into its streams
** (struct chv_orc_out, compressed as they fill) through the run-length
** encoders of orc_rle.h; compound columns hand their children the rows
** below their non-NULL values.
**
** Row groups.  The file writer cuts batches at row-group boundaries
** (orc.row.index.stride top-level rows) and calls ow_col_rg_begin() on
** every column before a group's first row and ow_col_rg_end() after its
** last.  A group records where each of its column's streams stood when it
** began (the row index positions: PRESENT, then DATA, then LENGTH or
** SECONDARY, as ORCv1's column encoding tables list them), its statistics
** and its bloom filter.  Positions that are not known when the group begins
** are filled in later:
**   - PRESENT: a column writes no PRESENT bits until its first NULL of the
**     stripe; then it writes the bits of the values before it, recording
**     the groups' positions on the way (so a stripe without NULLs has no
**     PRESENT stream, and the output is what writing every bit would give);
**   - strings: values are kept in a dictionary until the stripe's first row
**     group ends (or the stripe does); then the column stays dictionary
**     encoded while distinct values / values <= orc.dictionary.key.threshold
**     (compared as ORC Java compares them, in float), and is written
**     directly otherwise.  Dictionary ids are written, and their positions
**     recorded, when the stripe ends.
**
** Statistics are kept per row group (struct ow_stats), merged into the
** stripe's when the group ends and into the file's when the stripe ends, as
** ORC Java's ColumnStatisticsImpl keeps them (see orc_wcolumn.c).
**
** INTERFACE
**   ow_col_init() / ow_col_free()        one column writer
**   ow_col_check()          values the file cannot hold (before writing)
**   ow_col_write()          rows of a vector into the streams
**   ow_col_rg_begin() / ow_col_rg_end()  row groups
**   ow_col_finish_stripe()  flush the streams, build the index streams
**   ow_col_reset_stripe()   forget the stripe written
**   ow_col_buffered()       bytes the stripe holds for this column
**   ow_stats_to_orc()       statistics as the tail model holds them
**   ow_murmur3_64(), ow_wang64()   ORC's bloom filter hashes
**
** Thread safety: a column writer belongs to its file writer.
*/
#ifndef CHV_FORMAT_ORC_ORC_WRITE_H
#define CHV_FORMAT_ORC_ORC_WRITE_H

#include "format/orc/orc_rle.h"

/* Seconds from 1970-01-01 to 2015-01-01 00:00:00 UTC: the base of
** TIMESTAMP DATA values. */
#define OW_TS_BASE 1420070400
/* String statistics keep at most this many bytes of a bound (ORC-203). */
#define OW_MAX_STAT_BYTES 1024
/* Positions a row group records for the streams after PRESENT. */
#define OW_MAX_POS 8

/* A column's streams, in the order they are laid out in a stripe (by ORC
** stream kind). */
enum ow_stream {
  OW_PRESENT,   /* kind 0 */
  OW_DATA,      /* kind 1 */
  OW_LENGTH,    /* kind 2 */
  OW_DICT,      /* kind 3, DICTIONARY_DATA */
  OW_SECONDARY, /* kind 5 */
  OW_NSTREAMS
};

/* Statistics of a row group, stripe or file, as ORC Java's
** ColumnStatisticsImpl keeps them; which parts count depends on the kind. */
struct ow_stats {
  uint64_t count; /* non-NULL values */
  bool has_null;
  uint64_t bytes_on_disk;    /* stripe and file: the column's data streams */
  bool any;                  /* min/max hold a value */
  int64_t imin, imax;        /* integers, dates; booleans: imax = true count */
  int64_t isum;              /* integers */
  bool isum_bad;             /* the integer sum overflowed */
  double dmin, dmax, dsum;   /* FLOAT, DOUBLE (min/max ignore NaN) */
  bool dnan_only;            /* every value so far was NaN */
  chv_i128 mmin, mmax, msum; /* DECIMAL, unscaled at the column's scale */
  bool msum_bad;             /* the decimal sum left its range */
  int64_t tmin, tmax;        /* TIMESTAMP: UTC milliseconds */
  int32_t tmin_ns, tmax_ns;  /* ... and the nanoseconds below them */
  struct chv_buf smin, smax; /* strings: bounds (<= OW_MAX_STAT_BYTES + 4) */
  bool slower, supper;       /* smin/smax are truncated bounds, not values */
  int64_t ssum;              /* strings: total length; BINARY: total bytes */
  uint64_t cmin, cmax, ctotal; /* LIST, MAP: children per value */
};

/* A row group of the stripe being written, for one column. */
struct ow_rg {
  uint64_t present_start; /* PRESENT bits (entries) before the group */
  uint64_t value_start;   /* non-NULL values before the group */
  uint8_t npp, nop;
  uint64_t ppos[4];                /* PRESENT positions */
  uint64_t opos[OW_MAX_POS];       /* the other streams' positions */
  struct chv_orc_column_stats *st; /* the group's statistics (stripe arena) */
  struct chv_orc_bloom_filter bf;  /* its bloom filter (stripe arena) */
};

enum ow_smode { OW_S_UNDECIDED, OW_S_DICT, OW_S_DIRECT };

/* Settings and scratch shared by the columns of a file. */
struct ow_ctx {
  chv_orc_codec *codec_text; /* DATA, DICTIONARY_DATA, bloom filters */
  chv_orc_codec *codec_bin;  /* PRESENT, LENGTH, SECONDARY, row indexes */
  int64_t stride;            /* rows per row group; 0: no row index */
  double dict_threshold;     /* orc.dictionary.key.threshold */
  uint32_t bloom_bits;       /* bits of a bloom filter (a multiple of 64) */
  uint32_t bloom_k;          /* its hash functions */
  chv_arena *stripe_arena;   /* row groups' statistics and filters */
  const char *path;          /* the file, for messages */
  int64_t *i64;              /* scratch: values of a run */
  uint8_t *u8;               /* scratch: bytes of a run */
  size_t scratch_cap;        /* values each of i64 and u8 hold */
  struct chv_buf buf;        /* scratch: a value being shaped, an index */
};

struct ow_col {
  /* ---- the column (fixed) ---- */
  uint32_t id;                 /* ORC column id (index in the writer) */
  int32_t kind;                /* enum chv_orc_kind */
  const struct chv_type *type; /* Hive type (borrowed from the schema) */
  const char *name;            /* dotted path, for messages */
  int nchildren;
  struct ow_col **children; /* the children's writers */
  bool nullable;            /* every column but the root */
  bool bloom;               /* orc.bloom.filter.columns names it */
  chv_i128 dec_limit;       /* DECIMAL: 10^precision */
  bool needs_check;         /* a DECIMAL or TIMESTAMP in the subtree */

  /* ---- streams ---- */
  struct chv_orc_out s[OW_NSTREAMS];
  bool has[OW_NSTREAMS];               /* the kind writes this stream */
  struct chv_orc_bool_rle_enc present; /* PRESENT */
  struct chv_orc_bool_rle_enc bools;   /* BOOLEAN DATA */
  struct chv_orc_byte_rle_enc bytes;   /* BYTE DATA */
  struct chv_orc_int_rle_enc ints;     /* integer DATA, dictionary ids */
  struct chv_orc_int_rle_enc lens;     /* LENGTH */
  struct chv_orc_int_rle_enc sec;      /* SECONDARY */

  /* ---- the stripe ---- */
  uint64_t entries; /* PRESENT entries (values and NULLs) */
  uint64_t values;  /* non-NULL values */
  bool nulls;       /* a NULL was seen: PRESENT bits are being written */
  uint32_t nrg, rg_cap;
  struct ow_rg *rgs; /* row groups begun */
  bool in_rg;        /* a group has begun and not ended */
  struct ow_stats rg_st, stripe_st, file_st;
  uint64_t *bloom_bits; /* the current group's filter */

  /* ---- strings ---- */
  bool no_dict; /* never a dictionary (not a string kind, or the
                   threshold is 0) */
  enum ow_smode smode;
  struct chv_buf dict; /* distinct values, back to back */
  uint32_t *dict_off;  /* ndict + 1 offsets into dict */
  uint32_t ndict, dict_cap;
  uint64_t *slots; /* hash << 32 | (entry + 1); 0 empty */
  uint32_t nslots; /* a power of two (or 0) */
  uint32_t *ids;   /* entry of each value of the stripe */
  uint64_t nids, ids_cap;
  uint32_t dict_size; /* entries written (the stripe's encoding) */

  /* ---- the stripe's results (ow_col_finish_stripe) ---- */
  struct chv_buf index;  /* ROW_INDEX stream as stored */
  struct chv_buf bloomx; /* BLOOM_FILTER_UTF8 stream as stored */
  int32_t encoding;      /* enum chv_orc_encoding_kind */
};

int ow_col_init(struct ow_col *c, struct ow_ctx *cx, struct chv_error *err);
void ow_col_free(struct ow_col *c);

/* Values of rows [r0, r1) of v (column c's vector, shape checked) the file
** cannot hold: decimals beyond their precision, timestamps whose
** milliseconds overflow or whose nanoseconds are not 0..999,999,999.
** CHV_ERANGE naming the column and the batch row: the row itself when top
** < 0 (a top-level column, or a struct field of one), else top (the rows
** are elements below batch row top). */
int ow_col_check(const struct ow_col *c, const struct chv_vector *v, int64_t r0,
                 int64_t r1, int64_t top, struct chv_error *err);

/* Write rows [r0, r1) of v. */
int ow_col_write(struct ow_col *c, struct ow_ctx *cx,
                 const struct chv_vector *v, int64_t r0, int64_t r1,
                 struct chv_error *err);

/* Count n rows of a column that has no vector (the root struct). */
void ow_col_count(struct ow_col *c, int64_t n);

int ow_col_rg_begin(struct ow_col *c, struct ow_ctx *cx, struct chv_error *err);
int ow_col_rg_end(struct ow_col *c, struct ow_ctx *cx, struct chv_error *err);

/* End the stripe: flush the encoders (strings decide and write their
** dictionary), drop an unused PRESENT stream, merge the statistics into
** the stripe's (bytes_on_disk: the data streams' stored bytes) and those
** into the file's, build the
** ROW_INDEX and bloom filter streams into c->index and c->bloomx (when
** cx->stride > 0). */
int ow_col_finish_stripe(struct ow_col *c, struct ow_ctx *cx,
                         struct chv_error *err);
/* After the stripe was written: streams emptied, groups forgotten.  (The
** stripe's statistics were merged into the file's by
** ow_col_finish_stripe().) */
void ow_col_reset_stripe(struct ow_col *c);

/* Bytes the column holds for the stripe being buffered (streams as stored
** so far, pending chunks, the dictionary). */
int64_t ow_col_buffered(const struct ow_col *c);

/* s as the tail model holds it, for a column of kind `kind`, allocated in
** arena (strings copied). */
int ow_stats_to_orc(const struct ow_stats *s, int32_t kind, int scale,
                    int precision, chv_arena *arena,
                    struct chv_orc_column_stats *out);
void ow_stats_reset(struct ow_stats *s);
void ow_stats_free(struct ow_stats *s);

/* ORC's bloom filter hashes: the 64-bit Murmur3 variant of ORC Java
** (seed 104729) over bytes, and Thomas Wang's 64-bit integer hash. */
uint64_t ow_murmur3_64(const void *p, size_t n);
uint64_t ow_wang64(int64_t key);
/* Set the k bits of hash h in a filter of nbits bits. */
void ow_bloom_add(uint64_t *bits, uint32_t nbits, uint32_t k, uint64_t h);
bool ow_bloom_test(const uint64_t *bits, uint32_t nbits, uint32_t k,
                   uint64_t h);

#endif /* CHV_FORMAT_ORC_ORC_WRITE_H */
