/*
** format/parquet reader internals: the state of chv_pq_reader and of the
** column chunk readers it drives, shared by pq_reader.c (open, projection,
** table mapping, row groups, predicates, batches), pq_column.c (pages,
** levels, values of one column chunk), pq_values.c (stored values to
** vector values) and pq_assemble.c (levels to nested vectors).
**
** Data flow of one batch:
**
**   pq_reader.c  next(): for each row group slice of n rows
**        |
**        +--> pq_column.c  pq_leaf_read(): n records of one leaf column:
**        |      pages (CRC, decompression), definition and repetition
**        |      levels, and the values of the present slots written
**        |      into the leaf's vector (pq_values.c); for nested columns
**        |      the levels are kept for the batch
**        |
**        +--> pq_assemble.c  offsets and validity of every ARRAY, MAP and
**               STRUCT above the leaves, from the kept levels; NULLs for
**               what the file lacks; the shapes checked
**
** Levels.  A value of the Hive type tree (struct pq_rnode) has a slot in
** its vector for every level entry (d, r) of a leaf below it with
** r <= rep (a new instance at this depth) and d >= slot_def (its enclosing
** value, struct or list element, exists); the slot is NULL when d < def.
** slot_def is 0 for top-level columns, the repeated node's definition
** level for list and map elements, and the parent's slot_def for struct
** members (a NULL struct has NULL members, so that every child vector is
** as long as its struct).  An ARRAY or MAP gets an element for every entry
** with d >= edef and r <= erep.
**
** Thread safety: none; a reader belongs to one thread at a time.
*/
#ifndef CHV_FORMAT_PARQUET_READ_H
#define CHV_FORMAT_PARQUET_READ_H

#include "format/parquet/pq_encoding.h"
#include "format/parquet/pq_int.h"

#include "chive/parquet.h"
#include "codec/block.h"

/* Level entries decoded at a time (a multiple of 8). */
#define PQ_WIN 4096
/* Default largest page, after decompression. */
#define PQ_DEFAULT_MAX_PAGE ((int64_t)1 << 30)
#define PQ_DEFAULT_BATCH_ROWS 4096

/* How a level stream of a page is read. */
enum pq_lvl_kind {
  PQ_LVL_NONE, /* no stream: every level is 0 (the maximum is 0) */
  PQ_LVL_RLE,  /* RLE/bit-packed hybrid, decoded as it is consumed */
  PQ_LVL_ARRAY /* deprecated BIT_PACKED, decoded at once into arr */
};

struct pq_lvl {
  enum pq_lvl_kind kind;
  struct chv_pq_rle_dec rle;
  uint8_t *arr;   /* PQ_LVL_ARRAY: the page's levels (owned) */
  size_t arr_cap; /* bytes allocated in arr */
  size_t arr_pos; /* next level in arr */
};

/* One leaf column of the file being read: its column chunk in the current
** row group, the current page and its decoders, and where its values go. */
struct pq_leaf {
  struct chv_pq_reader *r; /* owner: file, options, statistics */
  int col;                 /* file column index */
  const struct chv_pq_node *node;
  char *name; /* dotted path, for messages (owned) */
  int16_t max_def, max_rep;
  /* rep_def[k]: definition level of the k-th repeated node on the path
  ** (k = 1..max_rep); an entry with r = k must have d >= rep_def[k]. */
  int16_t rep_def[CHV_PQ_MAX_DEPTH + 2];
  int16_t slot_def; /* entries with d >= slot_def are slots of the leaf */
  bool values;      /* decode values; false: its levels only */
  bool keep_levels; /* keep each batch's levels (nested columns) */

  /* Where the values go: batch column out_col, then children path[0..]. */
  int out_col;
  int depth;
  int path[CHV_PQ_MAX_DEPTH + 2];
  const struct chv_type *target; /* that vector's type */
  int32_t ptype;                 /* physical type */
  int32_t type_len;              /* FIXED_LEN_BYTE_ARRAY length */
  enum chv_pq_conv conv;         /* stored value -> file's Hive value */
  int fscale;                    /* decimal scale in the file */
  bool direct;                   /* PLAIN values are the vector's as is */

  /* Column chunk of the current row group. */
  const struct chv_pq_column_meta *cm;
  int rg;                           /* row group index */
  uint8_t *chunk;                   /* the chunk's bytes (scratch block) */
  size_t chunk_cap, chunk_len, pos; /* pos: next page header */
  int64_t chunk_off;                /* file offset of chunk[0] */
  int page_no;                      /* pages met in the chunk so far */
  int cur_page;                     /* the page being decoded, for messages */
  int64_t entries_seen; /* level entries of the chunk's pages so far */
  bool data_seen;       /* a data page was met */
  bool first_entry;     /* the chunk's first level entry is still ahead */

  /* The chunk's OffsetIndex, when pages may be skipped whole (NULL
  ** otherwise; in the reader's row group arena). */
  const struct chv_pq_offset_index *oi;
  int oi_next; /* first page location not yet passed */

  /* Dictionary of the chunk, as values of the target type. */
  struct chv_vector *dict;

  /* Current data page. */
  int64_t page_left; /* level entries not yet consumed */
  struct pq_lvl defs, reps;
  int32_t enc;         /* encoding of the values */
  const uint8_t *vals; /* the values section */
  size_t vals_len;
  struct chv_pq_plain_dec plain;
  struct chv_pq_rle_dec rle; /* RLE booleans, dictionary indices */
  struct chv_pq_delta_dec delta;
  struct chv_pq_dlba_dec dlba;
  struct chv_pq_dba_dec dba;
  bool dba_live; /* dba holds memory */
  struct chv_pq_bss_dec bss;
  uint8_t *pbuf; /* decompressed page (scratch block) */
  size_t pbuf_cap;

  /* Level window (entries decoded, not yet consumed). */
  uint8_t win_def[PQ_WIN], win_rep[PQ_WIN];
  int win_pos, win_len;

  /* Levels of the current batch (keep_levels). */
  uint8_t *ldef, *lrep;
  int64_t lcount, lcap;

  /* Scratch for decoding. */
  void *scratch; /* physical values */
  size_t scratch_cap;
  void *scratch2; /* converted values */
  size_t scratch2_cap;
  uint32_t *offs, *lens, *idx;
  int32_t *offs32;
  size_t ocap;         /* entries of offs/lens/idx/offs32 */
  struct chv_buf heap; /* DELTA_BYTE_ARRAY values */
};

/* A value of the Hive type produced, and where it comes from. */
struct pq_rnode {
  const struct chv_type *type;   /* produced type (table's or file's) */
  const struct chv_pq_field *pf; /* file value; NULL: all NULL */
  int16_t slot_def, def, rep;    /* see the file comment */
  int16_t edef, erep;            /* ARRAY/MAP: where elements start */
  int rep_leaf;                  /* leaf whose levels shape this value */
  int leaf;                      /* primitives: their leaf */
  int nchildren;
  struct pq_rnode *children; /* ARRAY 1, MAP 2, STRUCT fields */
  const char *name;          /* dotted path, for messages */
};

/* Rows [first, end) of a row group. */
struct pq_range {
  int64_t first, end;
};

struct pq_ppred; /* a predicate prepared for statistics (pq_reader.c) */

struct chv_pq_reader {
  const struct chv_fs *fs;
  struct chv_file *file;
  char *path; /* owned copy, for messages */
  int64_t file_size;
  struct chv_pq_read_options o;
  struct chv_pq_file_meta *meta;
  struct chv_pq_hive_schema *hive;
  struct chv_type *schema; /* owned: the batches' STRUCT */
  int ncols;
  struct pq_rnode *cols; /* one per output column */
  int nleaves;
  struct pq_leaf **leaves; /* the leaf columns read */
  int *leaf_of_col;        /* file column -> index in leaves, or -1 */
  chv_arena *arena;        /* rnodes and their names */
  chv_block_ctx *bctx;
  bool *skip;            /* per row group: outside the range, or ruled out
                            by predicates */
  int next_rg;           /* next row group to consider */
  int cur_rg;            /* row group being read, or -1 */
  int64_t rg_rows;       /* its rows */
  int64_t rg_pos;        /* rows of it consumed (read or skipped) */
  struct pq_range *keep; /* its row ranges to produce (the page index
                            rules the others out) */
  int nkeep, keep_cap, keep_i;
  chv_arena *rg_arena;        /* page indexes of the current row group */
  struct pq_ppred *preds;     /* opts.preds, prepared */
  int batch_rg, batch_rg_end; /* row groups of the batch being filled */
  bool done;
  int failed;            /* status of an earlier failure, or 0 */
  struct chv_error ferr; /* its error */
  struct chv_pq_read_stats st;
};

/* ---- pq_column.c ------------------------------------------------------- */

/* Load the leaf's column chunk of row group rg (its bytes read from the
** file) and reset its page state. */
int pq_leaf_begin(struct pq_leaf *lf, int rg, struct chv_error *err);
/* Consume nrec records: keep their levels (keep_levels) and append the
** values of their slots to v (values).  CHV_ECORRUPT when the chunk ends
** first. */
int pq_leaf_read(struct pq_leaf *lf, int64_t nrec, struct chv_vector *v,
                 struct chv_error *err);
/* Consume nrec records without producing them: levels decoded and values
** skipped, whole pages passed over without being read or decompressed
** where the chunk's OffsetIndex (lf->oi) says they hold only such rows
** (and their headers agree). */
int pq_leaf_skip(struct pq_leaf *lf, int64_t nrec, struct chv_error *err);
/* After the row group's rows: the chunk must hold no further values. */
int pq_leaf_end(struct pq_leaf *lf, struct chv_error *err);
void pq_leaf_free(struct pq_leaf *lf);

/* ---- pq_values.c ------------------------------------------------------- */

/* Physical values handed from a decoder to the conversion. */
struct pq_phys {
  size_t n;
  const void *fixed;    /* BOOLEAN (one 0/1 byte each), INT32, INT64,
                           INT96, FLOAT, DOUBLE, or FLBA (type_len each) */
  const uint8_t *base;  /* byte arrays: value i is base[offs[i]], */
  const uint32_t *offs; /* lens[i] bytes long */
  const uint32_t *lens;
};

/* Append ph's n values, converted, to v as rows [v->length, +n). */
int pq_store(struct pq_leaf *lf, const struct pq_phys *ph, struct chv_vector *v,
             struct chv_error *err);
/* Append dict[idx[i]] for i < n to v (same type). */
int pq_gather(const struct chv_vector *dict, const uint32_t *idx, size_t n,
              struct chv_vector *v, struct chv_error *err);
/* Rows [pos, pos + nv) of v hold dense values; spread them over the slots
** of levels d[0, k) (slot: d >= slot_def; value: d >= max_def), NULLs
** between, leaving v->length = pos + slots. */
int pq_spread(struct chv_vector *v, int64_t pos, const uint8_t *d, size_t k,
              int slot_def, int max_def, int64_t nv, int64_t slots,
              struct chv_error *err);
/* Append k NULL rows to v (nested children filled as the layout needs). */
int pq_append_nulls(struct chv_vector *v, int64_t k, struct chv_error *err);
/* Make sure v has a validity bitmap (all valid). */
int pq_ensure_validity(struct chv_vector *v, struct chv_error *err);
/* Scratch of at least n bytes in *buf (grown, never shrunk; what it held
** is not kept when it grows). */
int pq_scratch(void **buf, size_t *cap, size_t n, struct chv_error *err);
/* A big-endian two's complement integer of len bytes (a decimal's
** unscaled value); false when it does not fit 128 bits. */
bool pq_be_to_i128(const uint8_t *p, size_t len, chv_i128 *out);
/* v units of 1/per_sec seconds since the epoch (floor division). */
struct chv_timestamp pq_ts_from(int64_t v, int64_t per_sec);

/* ---- pq_assemble.c ----------------------------------------------------- */

/* Build the offsets and validity of a nested column from its leaves'
** levels of this batch (the leaves' values already appended) and check
** the shapes. */
int pq_assemble(struct chv_pq_reader *r, const struct pq_rnode *nd,
                struct chv_vector *v, struct chv_error *err);

#endif /* CHV_FORMAT_PARQUET_READ_H */
