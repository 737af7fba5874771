/*
** format/parquet writer internals: the column chunk writer of one leaf
** column, shared by pq_writer.c (the file: schema, row groups, footer) and
** pq_wcolumn.c (levels, values, dictionary, statistics, pages).
**
** A leaf column is reached from its top-level column vector through a
** list of steps (struct pq_wstep): into a STRUCT field, into the elements of
** an ARRAY, into the keys or values of a MAP.  Shredding walks these steps
** for each row, producing the definition and repetition levels of the
** Dremel encoding and the index of each present value in the leaf vector.
**
** Every node of the Parquet schema the writer makes is OPTIONAL, except the
** repeated groups of lists and maps and the REQUIRED map keys, so the
** definition level of a value counts its non-NULL ancestors (and itself),
** plus one per non-empty list or map on the way.
**
** Values are buffered for the current page only, as dictionary indices or
** as plain values; a full page is encoded, compressed and appended to the
** chunk's buffer of finished pages.  The row group (pq_writer.c) writes the
** chunks out when its size estimate reaches parquet.block.size.
**
** INTERFACE
**   pq_wcol_init() / pq_wcol_free()       a leaf column's writer
**   pq_wcol_check()      values of rows that the file cannot hold
**   pq_wcol_write()      shred and append rows, flushing full pages
**   pq_wcol_buffered()   bytes this chunk would take if written now
**   pq_wcol_finish()     flush the last page, build the dictionary page
**   pq_wcol_reset()      after the chunk was written: a new chunk
**   pq_wcol_stats_bytes()  a statistics block as Parquet encodes it
**   pq_wslabs_*()        the finished pages of a chunk
**
** Thread safety: a column writer belongs to its file writer.
*/
#ifndef CHV_FORMAT_PARQUET_PQ_WRITE_H
#define CHV_FORMAT_PARQUET_PQ_WRITE_H

#include "format/parquet/pq_int.h"

#include "chive/parquet.h"
#include "codec/block.h"

/* Byte arrays longer than this get no min/max statistics (as Arrow). */
#define PQ_W_MAX_STAT_BYTES 4096

/* How a Hive value becomes the value stored in its leaf. */
enum pq_wconv {
  PQ_W_BOOL,      /* BOOLEAN */
  PQ_W_I8,        /* TINYINT -> INT32 */
  PQ_W_I16,       /* SMALLINT -> INT32 */
  PQ_W_I32,       /* INT, DATE -> INT32 */
  PQ_W_I64,       /* BIGINT -> INT64 */
  PQ_W_F32,       /* FLOAT */
  PQ_W_F64,       /* DOUBLE */
  PQ_W_DEC,       /* DECIMAL -> FIXED_LEN_BYTE_ARRAY, big-endian */
  PQ_W_TS96,      /* TIMESTAMP -> INT96 (nanos of day, Julian day) */
  PQ_W_TS_MILLIS, /* TIMESTAMP -> INT64 since the epoch */
  PQ_W_TS_MICROS,
  PQ_W_TS_NANOS,
  PQ_W_BYTES, /* STRING, VARCHAR, BINARY -> BYTE_ARRAY */
  PQ_W_CHAR   /* CHAR -> BYTE_ARRAY, trailing spaces stripped (as Hive) */
};

enum pq_wstep_kind { PQ_WS_STRUCT, PQ_WS_LIST, PQ_WS_MAP };

/* One step from a vector to the vector below it on a leaf's path. */
struct pq_wstep {
  uint8_t kind;  /* enum pq_wstep_kind */
  uint8_t child; /* STRUCT: field; MAP: 0 keys, 1 values; LIST: 0 */
  bool required; /* the vector below is REQUIRED (a map key) */
  int16_t rep;   /* LIST, MAP: repetition level of the repeated group */
};

/* Settings and scratch shared by the columns of one file. */
struct pq_wctx {
  const struct chv_pq_write_options *o;
  const char *path;    /* the file, for messages */
  int level;           /* compression level for the codec (0 default) */
  chv_block_ctx *bctx; /* compression contexts */
  struct chv_buf body; /* a page being encoded */
  struct chv_buf zbuf; /* ... compressed */
  struct chv_buf hdr;  /* its header */
  struct chv_buf lev;  /* v2 levels */
  uint32_t *u32;       /* level scratch */
  size_t u32_cap;
};

/* Statistics of a page or chunk, in the leaf's physical order. */
struct pq_wstats {
  bool has;                  /* a value (not NaN) was seen: min/max valid */
  int64_t imin, imax;        /* BOOLEAN (0/1), INT32, INT64 */
  double dmin, dmax;         /* FLOAT, DOUBLE */
  chv_i128 mmin, mmax;       /* DECIMAL */
  struct chv_buf bmin, bmax; /* BYTE_ARRAY */
};

/* Finished pages of a chunk: byte slabs of about PQ_W_SLAB, so that a
** growing chunk is never moved; the slabs are kept for the next chunk, and
** are scratch blocks of the thread (chv_scratch_take()), given back when
** the writer closes, so the next file's chunks take memory already
** mapped.  Only data, len and cap of each chv_buf are used. */
#define PQ_W_SLAB (1 << 20)
struct pq_wslabs {
  struct chv_buf *seg; /* nseg slabs; [0, used) hold the bytes, in order */
  int nseg, used;
  int64_t len; /* bytes in all */
};

int pq_wslabs_append(struct pq_wslabs *s, const void *p, size_t n);
void pq_wslabs_reset(struct pq_wslabs *s);
void pq_wslabs_free(struct pq_wslabs *s);

/* Pages per encoding of a chunk (for ColumnMetaData.encoding_stats). */
struct pq_wpage_count {
  int32_t page_type;
  int32_t encoding;
  int32_t count;
};

struct pq_wcol {
  /* ---- the leaf (set by pq_writer.c, fixed) ---- */
  const struct chv_type *type; /* Hive type of the leaf */
  int top;                     /* top-level column of the batch */
  int nsteps;
  struct pq_wstep *steps; /* nsteps, from the top-level vector */
  const char *name;       /* dotted Hive path, for messages */
  int32_t ptype;          /* enum chv_pq_type */
  int32_t width;          /* bytes of fixed-width values, else 0 */
  enum pq_wconv conv;
  int16_t max_def, max_rep;
  chv_i128 dec_limit; /* DECIMAL: 10^precision */
  int npath;
  const char **path_in_schema; /* names from the root's child */

  /* ---- the current page ---- */
  uint32_t *def, *rep; /* levels (rep only when max_rep > 0) */
  size_t nlev, lev_cap, rep_cap;
  int64_t lazy; /* flat columns: leading max_def levels not stored */
  int64_t page_rows;
  int64_t page_values; /* non-NULL values */
  int64_t page_plain;  /* bytes of the values as PLAIN (booleans a byte) */
  bool dict_mode;      /* values are dictionary indices */
  uint32_t *idx;       /* dictionary indices */
  size_t nidx, idx_cap;
  struct chv_buf vals; /* plain values: fixed width raw (booleans a byte
                          each), or the byte-array heap */
  int32_t *voff;       /* byte arrays: offsets into vals, nvals + 1 */
  size_t nvals, voff_cap;
  struct pq_wstats pst; /* page statistics */

  /* ---- the dictionary of the chunk ---- */
  bool dict_enabled;   /* parquet.enable.dictionary */
  bool dict_ok;        /* dictionary encoding may still be used */
  bool dict_pages;     /* a data page of the chunk used it */
  struct chv_buf dict; /* entries as PLAIN encodes them */
  uint32_t *dict_off;  /* byte arrays: entry offsets in dict */
  uint32_t ndict, dict_cap;
  uint64_t *slots; /* open addressing: hash << 32 | entry + 1; 0 empty */
  uint32_t nslots; /* power of two */

  /* ---- the chunk ---- */
  struct pq_wslabs pages;  /* finished data pages: headers and bodies */
  struct chv_buf dictpage; /* the dictionary page (pq_wcol_finish) */
  int64_t num_values;      /* levels */
  int64_t uncompressed;    /* data pages, headers included */
  int64_t chunk_rows;
  struct pq_wstats cst; /* chunk statistics */
  int64_t chunk_nulls;
  uint32_t encodings; /* bit set of chv_pq_encoding values used */
  struct pq_wpage_count counts[8];
  int ncounts;
  int64_t dict_uncompressed; /* the dictionary page, header included */

  /* ---- scratch ---- */
  int64_t *vidx; /* leaf indices of the values shredded */
  size_t nvidx, vidx_cap;
  int64_t hist_rows;  /* rows and page bytes seen, for sizing the next */
  int64_t hist_bytes; /* batch of rows between page checks */
  int64_t hist_plain;
};

int pq_wcol_init(struct pq_wcol *c, const struct chv_pq_write_options *o);
void pq_wcol_free(struct pq_wcol *c);

/* Check the values of rows [r0, r1) of top (the column's top-level vector,
** whose shape was validated) that the file cannot hold: decimals beyond
** their precision, timestamps outside the range of their encoding, NULL map
** keys.  CHV_ERANGE / CHV_EINVAL naming the column and the row. */
int pq_wcol_check(const struct pq_wcol *c, const struct chv_vector *top,
                  int64_t r0, int64_t r1, struct pq_wctx *cx,
                  struct chv_error *err);

/* Shred rows [r0, r1) of top into the current page, flushing pages as
** they fill up. */
int pq_wcol_write(struct pq_wcol *c, const struct chv_vector *top, int64_t r0,
                  int64_t r1, struct pq_wctx *cx, struct chv_error *err);

/* Estimated bytes of the chunk: finished pages, the current page encoded,
** the dictionary. */
int64_t pq_wcol_buffered(const struct pq_wcol *c);

/* Flush the current page and, when data pages used the dictionary, encode
** the dictionary page into c->dictpage. */
int pq_wcol_finish(struct pq_wcol *c, struct pq_wctx *cx,
                   struct chv_error *err);

/* Forget the chunk written (buffers are kept for the next one). */
void pq_wcol_reset(struct pq_wcol *c);

/* Statistics as Parquet stores them (min_value/max_value by the column's
** sort order, the deprecated min/max for signed orders, null_count).  The
** bytes of min and max are written to mins/maxs (at least 16 bytes each)
** or point into st (byte arrays): valid while st is unchanged. */
void pq_wcol_stats_bytes(const struct pq_wcol *c, const struct pq_wstats *st,
                         int64_t nulls, uint8_t *mins, uint8_t *maxs,
                         struct chv_pq_statistics *out);

#endif /* CHV_FORMAT_PARQUET_PQ_WRITE_H */
