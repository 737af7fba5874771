/*
** The ORC reader of chive/orc.h: a file opened through struct chv_fs, its
** tail checked (orc_meta.c), its columns mapped to the produced type, its
** stripes read row-group run by row-group run into batches.
**
** Opening.  The tail (PostScript, Footer) is read and checked and the
** file's types mapped to Hive types (orc_schema.c).  The produced columns
** are the projection (opts.columns, matched without case) of the table
** schema (opts.table_schema) or of the file's own columns.  A table column
** is found in the file as Hive's ORC reader (ORC's SchemaEvolution) finds
** it: by position when every top-level name of the file is _col<N> (files
** of writers before HIVE-4243), by name without case otherwise; STRUCT
** members by name at every depth.  A column the file lacks reads as NULL;
** a pair of types must be a widening Hive allows (chv_type_widens()) or the
** open fails with CHV_ETYPE.  Each produced value the file holds gets a
** column reader (orc_column.c); the file columns they read are the only
** ones whose streams are read.  With predicates, the Metadata section's
** stripe statistics decide which stripes are skipped; a range
** (opts.range_start/_length) keeps the stripes that start in it.
**
** Stripes.  When the scan reaches a stripe, its footer is read; with
** predicates and a row index (rowIndexStride > 0) the ROW_INDEX streams of
** the predicate columns and of every column read, and the predicate
** columns' bloom filters, are read and each row group is tested
** (orc_pred.c).  Then the data streams of the columns read are read, in as
** few requests as their placement allows (streams less than OR_MERGE_GAP
** apart share one), and every column reader set up.  Rows are produced in
** runs of consecutive row groups that are kept; before a run that does not
** follow the previous one, every column is sought to the run's first group
** through its row index positions.  If any column read lacks a usable row
** index in a stripe (entries missing), the stripe is read whole.
**
** Batches.  next() fills the batch up to its capacity, crossing row groups
** and stripes; every produced column reads the same rows (at most OR_SLICE
** at a time), then the columns the file lacks get NULLs.  An error is
** sticky: later calls return it again.
**
** INTERFACE: chv_orc_read_options_init(), chv_orc_reader_open(),
** chv_orc_reader_schema(), chv_orc_reader_next(), chv_orc_reader_stats(),
** chv_orc_reader_close(), chv_orc_file_stats(), chv_orc_file_units()
** (chive/orc.h); or_reader_tz(), or_reader_stream(),
** or_reader_file_column() (orc_read.h).
*/
#include "format/orc/orc_read.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

static int oom(struct chv_error *err) {
  return chv_error_set(err, CHV_ENOMEM, "out of memory");
}

void chv_orc_read_options_init(struct chv_orc_read_options *o) {
  memset(o, 0, sizeof *o);
  o->range_length = -1;
  o->batch_rows = OR_DEFAULT_BATCH_ROWS;
  o->max_stream_bytes = OR_DEFAULT_MAX_STREAM;
}

/* ---- column mapping ---------------------------------------------------- */

/* Whether every top-level name of the file is _col<digits>. */
static bool names_missing(const struct chv_orc_tail *t) {
  const struct chv_orc_type *root = &t->footer.types[0];
  if (root->kind != CHV_ORC_KIND_STRUCT) return true; /* read as _col0 */
  for (uint32_t i = 0; i < root->nfield_names; i++) {
    const char *s = root->field_names[i];
    if (strncmp(s, "_col", 4) != 0 || s[4] == '\0') return false;
    for (const char *p = s + 4; *p; p++)
      if (*p < '0' || *p > '9') return false;
  }
  return true;
}

/* File type id of top-level file column i (the root itself when it is not
** a struct), or -1. */
static int64_t top_id(const struct chv_orc_tail *t, int64_t i) {
  const struct chv_orc_type *root = &t->footer.types[0];
  if (root->kind != CHV_ORC_KIND_STRUCT) return i == 0 ? 0 : -1;
  if (i < 0 || i >= (int64_t)root->nsubtypes) return -1;
  return root->subtypes[i];
}

int64_t or_reader_file_column(struct chv_orc_reader *r, const char *name,
                              const struct chv_type **target) {
  const struct chv_type *src =
      r->o.table_schema ? r->o.table_schema : r->fschema;
  int ti = chv_type_field_index(src, name);
  if (ti < 0) return -1;
  *target = src->children[ti];
  if (r->o.table_schema == NULL || r->positional) return top_id(r->tail, ti);
  int fi = chv_type_field_index(r->fschema, src->names[ti]);
  return fi < 0 ? -1 : top_id(r->tail, fi);
}

/* ---- stripes ----------------------------------------------------------- */

int or_reader_tz(struct chv_orc_reader *r, const char *name,
                 struct or_tz **out, struct chv_error *err) {
  for (size_t i = 0; i < r->ntzs; i++)
    if (!strcmp(or_tz_name(r->tzs[i]), name)) {
      *out = r->tzs[i];
      return CHV_OK;
    }
  struct or_tz **a = chv_realloc(r->tzs, sizeof *a * (r->ntzs + 1));
  if (a == NULL) return oom(err);
  r->tzs = a;
  CHV_RETURN_IF_ERR(or_tz_open(name, &r->tzs[r->ntzs], err));
  *out = r->tzs[r->ntzs++];
  return CHV_OK;
}

bool or_reader_stream(struct chv_orc_reader *r, uint32_t column, int32_t kind,
                      const uint8_t **p, size_t *len) {
  const struct chv_orc_stream_info *si =
      chv_orc_stripe_find_stream(&r->sf, column, kind);
  *p = NULL;
  *len = 0;
  if (si == NULL) return false;
  for (size_t i = 0; i < r->nranges; i++) {
    const struct or_range *g = &r->ranges[i];
    if (si->offset >= g->off && si->offset + si->length <= g->off + g->len) {
      *p = r->sbuf ? r->sbuf + g->at + (si->offset - g->off) : NULL;
      *len = (size_t)si->length;
      return true;
    }
  }
  return si->length == 0;
}

static int range_cmp(const void *a, const void *b) {
  uint64_t x = (*(const struct chv_orc_stream_info *const *)a)->offset;
  uint64_t y = (*(const struct chv_orc_stream_info *const *)b)->offset;
  return (x > y) - (x < y);
}

/* Read the streams `want` selects into r->sbuf (replacing what was there):
** index streams (index true) or data streams of the columns in cols. */
static int load_streams(struct chv_orc_reader *r, const bool *cols,
                        const bool *blooms, bool index,
                        struct chv_error *err) {
  const struct chv_orc_stripe_footer *sf = &r->sf;
  uint32_t ntypes = r->tail->footer.ntypes;
  const struct chv_orc_stream_info **sel =
      chv_malloc(sizeof *sel * (sf->nstreams ? sf->nstreams : 1));
  if (sel == NULL) return oom(err);
  size_t n = 0;
  for (uint32_t i = 0; i < sf->nstreams; i++) {
    const struct chv_orc_stream_info *si = &sf->streams[i];
    if (si->length == 0 || si->column >= ntypes) continue;
    bool is_index = si->kind == CHV_ORC_STREAM_ROW_INDEX ||
                    si->kind == CHV_ORC_STREAM_BLOOM_FILTER ||
                    si->kind == CHV_ORC_STREAM_BLOOM_FILTER_UTF8;
    bool want;
    if (index)
      want = si->kind == CHV_ORC_STREAM_ROW_INDEX ? cols[si->column]
             : is_index ? blooms[si->column]
                        : false;
    else
      want = !is_index && cols[si->column] &&
             (si->kind == CHV_ORC_STREAM_PRESENT ||
              si->kind == CHV_ORC_STREAM_DATA ||
              si->kind == CHV_ORC_STREAM_LENGTH ||
              si->kind == CHV_ORC_STREAM_DICTIONARY_DATA ||
              si->kind == CHV_ORC_STREAM_SECONDARY);
    if (want) sel[n++] = si;
  }
  qsort(sel, n, sizeof *sel, range_cmp);
  r->nranges = 0;
  size_t total = 0;
  int rc = CHV_OK;
  for (size_t i = 0; i < n; i++) {
    const struct chv_orc_stream_info *si = sel[i];
    struct or_range *last = r->nranges ? &r->ranges[r->nranges - 1] : NULL;
    uint64_t end = si->offset + si->length;
    if (last && si->offset <= last->off + last->len + (uint64_t)OR_MERGE_GAP) {
      if (end > last->off + last->len) {
        total += (size_t)(end - (last->off + last->len));
        last->len = end - last->off;
      }
      continue;
    }
    if (r->nranges == r->ranges_cap) {
      size_t c = r->ranges_cap ? r->ranges_cap * 2 : 8;
      struct or_range *g = chv_realloc(r->ranges, sizeof *g * c);
      if (g == NULL) {
        rc = oom(err);
        goto out_free;
      }
      r->ranges = g;
      r->ranges_cap = c;
    }
    r->ranges[r->nranges].off = si->offset;
    r->ranges[r->nranges].len = si->length;
    r->ranges[r->nranges].at = total;
    r->nranges++;
    total += (size_t)si->length;
  }
  /* The streams lie inside the stripe (checked with its footer), itself
  ** inside the file: total is at most the stripe's length. */
  if (total > r->sbuf_cap) {
    uint8_t *b = chv_realloc(r->sbuf, total);
    if (b == NULL) {
      rc = oom(err);
      goto out_free;
    }
    r->sbuf = b;
    r->sbuf_cap = total;
  }
  for (size_t i = 0; i < r->nranges; i++) {
    const struct or_range *g = &r->ranges[i];
    size_t got = 0;
    rc = chv_file_pread(r->file, r->sbuf + g->at, (size_t)g->len,
                        (int64_t)g->off, &got, err);
    if (rc != CHV_OK) goto out_free;
    r->st.bytes_read += (int64_t)got;
    if (got != g->len) {
      rc = chv_error_set(err, CHV_EIO,
                         "%s: short read of %" PRIu64 " bytes at offset %" PRIu64
                         " (file shrank?)",
                         r->path, g->len, g->off);
      goto out_free;
    }
  }
out_free:
  chv_free(sel);
  return rc;
}

/* Decode the row indexes of cols (and bloom filters of blooms) loaded in
** r->sbuf.  *complete: every column of cols has one entry per group. */
static int load_indexes(struct chv_orc_reader *r, const bool *cols,
                        const bool *blooms, uint32_t stripe, bool *complete,
                        struct chv_error *err) {
  uint32_t ntypes = r->tail->footer.ntypes;
  *complete = true;
  char what[96];
  for (uint32_t id = 0; id < ntypes; id++) {
    memset(&r->ri[id], 0, sizeof r->ri[id]);
    memset(&r->bi[id], 0, sizeof r->bi[id]);
    r->bi_kind[id] = -1;
    snprintf(what, sizeof what, "%s: stripe %" PRIu32 ", column %" PRIu32,
             r->path, stripe, id);
    const uint8_t *p;
    size_t len;
    if (cols[id]) {
      if (or_reader_stream(r, id, CHV_ORC_STREAM_ROW_INDEX, &p, &len) && p) {
        CHV_RETURN_IF_ERR(chv_orc_row_index_decode(
            r->codec, p, len, r->stripe_arena, what, &r->ri[id], err));
      }
      if (r->ri[id].entries == NULL || r->ri[id].nentries != r->nrg) {
        r->ri[id].entries = NULL;
        *complete = false;
      }
    }
    if (blooms[id]) {
      int32_t kind = CHV_ORC_STREAM_BLOOM_FILTER_UTF8;
      bool have = or_reader_stream(r, id, kind, &p, &len) && p;
      if (!have) {
        kind = CHV_ORC_STREAM_BLOOM_FILTER;
        have = or_reader_stream(r, id, kind, &p, &len) && p;
      }
      if (have) {
        CHV_RETURN_IF_ERR(chv_orc_bloom_index_decode(
            r->codec, p, len, r->stripe_arena, what, &r->bi[id], err));
        r->bi_kind[id] = kind;
        if (r->bi[id].nfilters != r->nrg) {
          r->bi[id].filters = NULL;
          r->bi[id].nfilters = 0;
        }
      }
    }
  }
  return CHV_OK;
}

static uint64_t live_produced(const struct chv_orc_reader *r) {
  uint64_t n = or_col_produced(r->root);
  for (int k = 0; k < r->ncols; k++) n += or_col_produced(r->cols[k]);
  return n;
}

/* Decide the stripe's row groups; false in *read when none is kept. */
static int plan_groups(struct chv_orc_reader *r, uint32_t s, bool *read,
                       struct chv_error *err) {
  *read = true;
  if (r->nrg > r->rg_cap) {
    bool *k = chv_realloc(r->rg_keep, r->nrg);
    if (k == NULL) return oom(err);
    r->rg_keep = k;
    r->rg_cap = r->nrg;
  }
  uint32_t ntypes = r->tail->footer.ntypes;
  bool *cols = chv_calloc(ntypes, 2);
  if (cols == NULL) return oom(err);
  bool *blooms = cols + ntypes;
  for (uint32_t id = 0; id < ntypes; id++) {
    cols[id] = r->included[id] || r->pred_cols[id];
    blooms[id] = r->pred_cols[id] && !r->bad_blooms;
  }
  bool complete;
  int rc = load_streams(r, cols, blooms, true, err);
  if (rc == CHV_OK) rc = load_indexes(r, cols, blooms, s, &complete, err);
  chv_free(cols);
  CHV_RETURN_IF_ERR(rc);
  uint32_t kept = 0;
  for (uint32_t g = 0; g < r->nrg; g++) {
    r->rg_keep[g] = !or_preds_rule_out_group(r, g);
    kept += r->rg_keep[g];
  }
  if (kept == 0) {
    *read = false;
    r->st.row_groups_skipped += r->nrg;
    r->st.stripes_skipped++;
    return CHV_OK;
  }
  /* Seeking needs every column's positions. */
  for (uint32_t id = 0; id < ntypes && kept < r->nrg; id++)
    if (r->included[id] && r->ri[id].entries == NULL) kept = r->nrg;
  if (kept == r->nrg) memset(r->rg_keep, 1, r->nrg);
  r->st.row_groups_skipped += r->nrg - kept;
  return CHV_OK;
}

/* Start the next stripe with rows to produce; r->done at the end. */
static int next_stripe(struct chv_orc_reader *r, struct chv_error *err) {
  r->st.bytes_decompressed += (int64_t)live_produced(r);
  r->cur_stripe = -1;
  const struct chv_orc_footer *f = &r->tail->footer;
  while (r->next_stripe < r->end_stripe) {
    uint32_t s = r->next_stripe++;
    const struct chv_orc_stripe_info *si = &f->stripes[s];
    if (r->skip[s] || si->number_of_rows == 0) continue;
    chv_arena_reset(r->stripe_arena);
    r->cur_stripe = s;
    CHV_RETURN_IF_ERR(chv_orc_stripe_footer_read(r->tail, &r->in, r->codec, s,
                                                 r->stripe_arena, &r->sf, err));
    r->st.bytes_read += (int64_t)si->footer_length;
    r->stripe_rows = si->number_of_rows;
    r->stripe_pos = 0;
    r->run_end = 0;
    r->nrg = 0;
    if (r->stride > 0) {
      uint64_t g = (si->number_of_rows - 1) / r->stride + 1;
      if (g > UINT32_MAX) g = UINT32_MAX;
      r->nrg = (uint32_t)g;
      r->st.row_groups += (int64_t)g;
    }
    /* Each row index entry takes bytes of the index section: a stripe
    ** claiming more groups than that has no usable index. */
    bool filter =
        r->nrg > 0 && r->nrg <= si->index_length && or_preds_usable(r);
    if (filter) {
      bool read;
      CHV_RETURN_IF_ERR(plan_groups(r, s, &read, err));
      if (!read) {
        r->cur_stripe = -1;
        continue;
      }
    }
    bool all = true;
    for (uint32_t g = 0; filter && g < r->nrg; g++) all = all && r->rg_keep[g];
    r->nrg = all ? 0 : r->nrg; /* 0: read the stripe whole */
    CHV_RETURN_IF_ERR(load_streams(r, r->included, NULL, false, err));
    if (r->root) CHV_RETURN_IF_ERR(or_col_begin(r->root, err));
    for (int k = 0; k < r->ncols; k++)
      if (r->cols[k]) CHV_RETURN_IF_ERR(or_col_begin(r->cols[k], err));
    return CHV_OK;
  }
  r->done = true;
  return CHV_OK;
}

/* Make stripe_pos lie in a kept run of row groups (seeking there), or end
** the stripe. */
static int next_run(struct chv_orc_reader *r, struct chv_error *err) {
  if (r->nrg == 0) {
    r->run_end = r->stripe_rows;
    return CHV_OK;
  }
  uint64_t g = r->stripe_pos / r->stride;
  while (g < r->nrg && !r->rg_keep[g]) g++;
  if (g >= r->nrg) {
    r->stripe_pos = r->stripe_rows;
    return CHV_OK;
  }
  if (g * r->stride != r->stripe_pos) {
    if (r->root) CHV_RETURN_IF_ERR(or_col_seek(r->root, (uint32_t)g, err));
    for (int k = 0; k < r->ncols; k++)
      if (r->cols[k])
        CHV_RETURN_IF_ERR(or_col_seek(r->cols[k], (uint32_t)g, err));
    r->stripe_pos = g * r->stride;
  }
  uint64_t h = g;
  while (h < r->nrg && r->rg_keep[h]) h++;
  r->run_end = CHV_MIN(h * r->stride, r->stripe_rows);
  return CHV_OK;
}

static int fill(chv_orc_reader *r, struct chv_batch *batch, int64_t *nrows,
                struct chv_error *err) {
  chv_batch_reset(batch);
  int64_t cap = batch->ncols ? INT64_MAX : r->o.batch_rows;
  for (int i = 0; i < batch->ncols; i++)
    cap = CHV_MIN(cap, batch->cols[i]->capacity);
  if (cap <= 0) cap = r->o.batch_rows;
  int64_t rows = 0;
  while (rows < cap && !r->done) {
    if (r->cur_stripe < 0 || r->stripe_pos >= r->stripe_rows) {
      CHV_RETURN_IF_ERR(next_stripe(r, err));
      continue;
    }
    if (r->stripe_pos >= r->run_end) {
      CHV_RETURN_IF_ERR(next_run(r, err));
      continue;
    }
    int64_t n = (int64_t)CHV_MIN((uint64_t)(cap - rows),
                                 r->run_end - r->stripe_pos);
    n = CHV_MIN(n, (int64_t)OR_SLICE);
    const uint8_t *mask = NULL;
    if (r->root) CHV_RETURN_IF_ERR(or_col_mask(r->root, n, &mask, err));
    for (int k = 0; k < r->ncols; k++)
      if (r->cols[k])
        CHV_RETURN_IF_ERR(or_col_read(r->cols[k], n, mask, batch->cols[k], err));
    rows += n;
    r->stripe_pos += (uint64_t)n;
  }
  for (int k = 0; k < r->ncols; k++)
    if (r->cols[k] == NULL)
      CHV_RETURN_IF_ERR(or_append_nulls(batch->cols[k], rows, err));
  batch->nrows = rows;
  r->st.rows += rows;
  *nrows = rows;
  return CHV_OK;
}

int chv_orc_reader_next(chv_orc_reader *r, struct chv_batch *batch,
                        int64_t *nrows, struct chv_error *err) {
  if (r->failed) {
    if (err) *err = r->ferr;
    return r->failed;
  }
  if (batch->schema != r->schema && (batch->ncols != r->schema->nchildren ||
                                     !chv_type_equal(batch->schema, r->schema)))
    return chv_error_set(err, CHV_EINVAL,
                         "%s: the batch's schema is not the reader's", r->path);
  struct chv_error local;
  struct chv_error *e = err ? err : &local;
  int rc = fill(r, batch, nrows, e);
  if (rc != CHV_OK) {
    r->failed = rc;
    r->ferr = *e;
    chv_batch_reset(batch);
  }
  return rc;
}

/* ---- opening ----------------------------------------------------------- */

/* The produced schema: the projection of src. */
static int build_schema(chv_orc_reader *r, const struct chv_type *src,
                        struct chv_error *err) {
  int nproj = r->o.columns ? r->o.ncolumns : src->nchildren;
  if (nproj < 0) nproj = 0;
  if (chv_type_new(CHV_TYPE_STRUCT, &r->schema) != CHV_OK) return oom(err);
  for (int k = 0; k < nproj; k++) {
    int idx = k;
    if (r->o.columns) {
      const char *name = r->o.columns[k];
      idx = name ? chv_type_field_index(src, name) : -1;
      if (idx < 0)
        return chv_error_set(err, CHV_EINVAL, "%s: no column '%s' to read",
                             r->path, name ? name : "(null)");
    }
    struct chv_type *t;
    if (chv_type_clone(src->children[idx], &t) != CHV_OK) return oom(err);
    int rc = chv_type_struct_add(r->schema, src->names[idx], t);
    if (rc == CHV_EEXIST)
      return chv_error_set(err, CHV_EINVAL, "%s: column '%s' is read twice",
                           r->path, src->names[idx]);
    if (rc != CHV_OK) return oom(err);
  }
  r->ncols = r->schema->nchildren;
  return CHV_OK;
}

/* Whether the footer's writer is an ORC C++ release whose bloom filters
** hash numbers differently (ORC-1024: 1.6.0 to 1.6.11 and 1.7.0; those
** without a software version are older still). */
static bool bad_bloom_writer(const struct chv_orc_footer *f) {
  if (!f->has_writer || f->writer != 1) return false;
  const char *v = f->software_version;
  if (v == NULL) return true;
  static const char *const bad[] = {"1.6.0", "1.6.1",  "1.6.2", "1.6.3",
                                    "1.6.4", "1.6.5",  "1.6.6", "1.6.7",
                                    "1.6.8", "1.6.9",  "1.6.10", "1.6.11",
                                    "1.7.0"};
  size_t n = strcspn(v, "-");
  for (size_t i = 0; i < CHV_ARRAY_SIZE(bad); i++)
    if (strlen(bad[i]) == n && !strncmp(v, bad[i], n)) return true;
  return false;
}

static int open_columns(chv_orc_reader *r, struct chv_error *err) {
  uint32_t ntypes = r->tail->footer.ntypes;
  if (r->ncols) {
    r->cols = chv_calloc((size_t)r->ncols, sizeof *r->cols);
    if (r->cols == NULL) return oom(err);
  }
  for (int k = 0; k < r->ncols; k++) {
    const char *name = r->schema->names[k];
    const struct chv_type *target;
    int64_t id = or_reader_file_column(r, name, &target);
    CHV_RETURN_IF_ERR(or_col_build(r, r->schema->children[k], id, name, 0,
                                   &r->cols[k], err));
    or_col_include(r->cols[k], r->included);
  }
  const struct chv_orc_type *root = &r->tail->footer.types[0];
  if (root->kind == CHV_ORC_KIND_STRUCT && ntypes > 0) {
    /* The root's own PRESENT stream (some writers have one): rows it marks
    ** NULL are NULL in every column. */
    static const struct chv_type empty = {.id = CHV_TYPE_STRUCT};
    CHV_RETURN_IF_ERR(or_col_build(r, &empty, 0, "(root)", 0, &r->root, err));
    r->included[0] = true;
  }
  return CHV_OK;
}

int chv_orc_reader_open(const struct chv_fs *fs, const char *path,
                        const struct chv_orc_read_options *opts,
                        chv_orc_reader **out, struct chv_error *err) {
  int rc;
  chv_orc_reader *r = chv_calloc(1, sizeof *r);
  if (r == NULL) return oom(err);
  r->fs = fs;
  r->cur_stripe = -1;
  chv_buf_init(&r->io);
  if (opts)
    r->o = *opts;
  else
    chv_orc_read_options_init(&r->o);
  if (r->o.max_stream_bytes <= 0) r->o.max_stream_bytes = OR_DEFAULT_MAX_STREAM;
  if (r->o.batch_rows <= 0) r->o.batch_rows = OR_DEFAULT_BATCH_ROWS;
  if (r->o.preds == NULL || r->o.npreds < 0) r->o.npreds = 0;
  r->path = chv_strdup(path ? path : "(orc)");
  if (r->path == NULL || chv_arena_open(0, &r->stripe_arena) != CHV_OK) {
    rc = oom(err);
    goto out_close;
  }
  const struct chv_type *ts = r->o.table_schema;
  if (ts && ts->id != CHV_TYPE_STRUCT) {
    rc = chv_error_set(err, CHV_EINVAL, "%s: the table schema must be a struct",
                       r->path);
    goto out_close;
  }
  if ((rc = fs->open(fs, path, &r->file, err)) != CHV_OK) goto out_close;
  if ((rc = chv_file_size(r->file, &r->file_size, err)) != CHV_OK)
    goto out_close;
  if ((rc = chv_orc_tail_read(r->file, r->file_size, r->path, &r->tail, err)) !=
      CHV_OK)
    goto out_close;
  const struct chv_orc_tail *t = r->tail;
  r->st.bytes_read += CHV_MIN(r->file_size, (int64_t)CHV_ORC_TAIL_READ_SIZE);
  if ((int64_t)(t->ps.footer_length + t->postscript_length + 1) >
      CHV_ORC_TAIL_READ_SIZE)
    r->st.bytes_read += (int64_t)t->ps.footer_length;
  if ((rc = chv_orc_input_file(&r->in, r->file, r->file_size, r->path, err)) !=
          CHV_OK ||
      (rc = chv_orc_tail_codec_open(t, &r->codec, err)) != CHV_OK ||
      (rc = chv_orc_hive_schema(t, &r->fschema, err)) != CHV_OK)
    goto out_close;
  uint32_t ntypes = t->footer.ntypes;
  r->ftypes = chv_calloc(ntypes + 1, sizeof *r->ftypes);
  r->included = chv_calloc(ntypes + 1, sizeof *r->included);
  r->pred_cols = chv_calloc(ntypes + 1, sizeof *r->pred_cols);
  r->ri = chv_calloc(ntypes + 1, sizeof *r->ri);
  r->bi = chv_calloc(ntypes + 1, sizeof *r->bi);
  r->bi_kind = chv_calloc(ntypes + 1, sizeof *r->bi_kind);
  r->skip = chv_calloc(t->footer.nstripes + 1, sizeof *r->skip);
  if (!r->ftypes || !r->included || !r->pred_cols || !r->ri || !r->bi ||
      !r->bi_kind || !r->skip) {
    rc = oom(err);
    goto out_close;
  }
  r->positional = ts && names_missing(t);
  r->bad_blooms = bad_bloom_writer(&t->footer);
  r->stride = t->footer.has_row_index_stride ? t->footer.row_index_stride : 0;
  if ((rc = build_schema(r, ts ? ts : r->fschema, err)) != CHV_OK ||
      (rc = open_columns(r, err)) != CHV_OK ||
      (rc = or_preds_prepare(r, err)) != CHV_OK)
    goto out_close;
  or_preds_columns(r, r->pred_cols);

  /* The stripes of the range. */
  const struct chv_orc_footer *f = &t->footer;
  int64_t lo = r->o.range_start, len = r->o.range_length;
  r->first_stripe = f->nstripes;
  r->end_stripe = 0;
  for (uint32_t s = 0; s < f->nstripes; s++) {
    int64_t off = (int64_t)f->stripes[s].offset;
    bool in = off >= lo && (len <= 0 || off - lo < len);
    if (!in) continue;
    if (r->first_stripe > s) r->first_stripe = s;
    r->end_stripe = s + 1;
  }
  if (r->first_stripe > r->end_stripe) r->first_stripe = r->end_stripe;
  r->next_stripe = r->first_stripe;
  for (uint32_t s = r->first_stripe; s < r->end_stripe; s++) {
    int64_t off = (int64_t)f->stripes[s].offset;
    if (off < lo || (len > 0 && off - lo >= len))
      r->skip[s] = true; /* not ours (stripes out of order) */
    else
      r->st.stripes++;
  }
  if (or_preds_usable(r) && r->st.stripes > 0) {
    if ((rc = chv_orc_metadata_open(t, &r->in, &r->meta, err)) != CHV_OK)
      goto out_close;
    r->st.bytes_read += (int64_t)t->ps.metadata_length;
    for (uint32_t s = r->first_stripe; s < r->end_stripe; s++)
      if (!r->skip[s] && or_preds_rule_out_stripe(r, s)) {
        r->skip[s] = true;
        r->st.stripes_skipped++;
      }
  }
  *out = r;
  return CHV_OK;
out_close:
  chv_orc_reader_close(r);
  return rc;
}

const struct chv_type *chv_orc_reader_schema(const chv_orc_reader *r) {
  return r->schema;
}

void chv_orc_reader_stats(const chv_orc_reader *r,
                          struct chv_orc_read_stats *out) {
  *out = r->st;
  out->bytes_decompressed += (int64_t)live_produced(r);
}

void chv_orc_reader_close(chv_orc_reader *r) {
  if (r == NULL) return;
  for (int k = 0; k < r->ncols; k++)
    if (r->cols) or_col_free(r->cols[k]);
  chv_free(r->cols);
  or_col_free(r->root);
  if (r->ftypes && r->tail)
    for (uint32_t i = 0; i < r->tail->footer.ntypes; i++)
      chv_type_free(r->ftypes[i]);
  chv_free(r->ftypes);
  for (size_t i = 0; i < r->ntzs; i++) or_tz_close(r->tzs[i]);
  chv_free(r->tzs);
  chv_free(r->included);
  chv_free(r->pred_cols);
  chv_free(r->ri);
  chv_free(r->bi);
  chv_free(r->bi_kind);
  chv_free(r->skip);
  chv_free(r->preds);
  chv_free(r->rg_keep);
  chv_free(r->sbuf);
  chv_free(r->ranges);
  chv_buf_free(&r->io);
  chv_arena_close(r->stripe_arena);
  chv_type_free(r->schema);
  chv_type_free(r->fschema);
  chv_orc_metadata_close(r->meta);
  chv_orc_codec_close(r->codec);
  chv_orc_tail_close(r->tail);
  chv_file_close(r->file);
  chv_free(r->path);
  chv_free(r);
}

/* ---- tail statistics --------------------------------------------------- */

/* Sizes Hive's JavaDataModel gives a 64-bit JVM (storage-api): an object
** header 32 bytes, an array 40, primitives 4 and 8. */
#define JDM_OBJECT 32
#define JDM_ARRAY 40
#define JDM_P1 4
#define JDM_P2 8

/* ORC's Reader.getRawDataSize() (ORC 1.5, the release Hive 3 uses): per
** column of the footer's statistics, its values times the size of their
** Java objects; compound columns count nothing. */
static int64_t raw_size(const struct chv_orc_footer *f) {
  uint64_t total = 0;
  uint32_t n = CHV_MIN(f->nstatistics, f->ntypes);
  for (uint32_t i = 0; i < n; i++) {
    const struct chv_orc_column_stats *cs = &f->statistics[i];
    uint64_t nv = cs->has_number_of_values ? cs->number_of_values : 0;
    switch (f->types[i].kind) {
    case CHV_ORC_KIND_BINARY:
      total += (uint64_t)(cs->has_binary ? cs->binary_stats.sum : 0);
      break;
    case CHV_ORC_KIND_STRING:
    case CHV_ORC_KIND_CHAR:
    case CHV_ORC_KIND_VARCHAR: {
      if (nv == 0) nv = 1;
      int64_t sum = cs->has_string ? cs->string_stats.sum : 0;
      /* Java: (int) (sum / numVals), and an int-sized string length. */
      int32_t avg = (int32_t)(uint32_t)(uint64_t)(sum / (int64_t)nv);
      int32_t each = (int32_t)((uint32_t)JDM_OBJECT + JDM_P1 * 3 + JDM_ARRAY +
                               (uint32_t)avg);
      total += nv * (uint64_t)(int64_t)each;
      break;
    }
    case CHV_ORC_KIND_TIMESTAMP:
      total += nv * (JDM_OBJECT + JDM_P2);
      break;
    case CHV_ORC_KIND_DATE:
      total += nv * (JDM_OBJECT + 3 * JDM_P2);
      break;
    case CHV_ORC_KIND_DECIMAL:
      total += nv * (JDM_OBJECT + 2 * JDM_P2 + JDM_OBJECT + 4 * JDM_P2);
      break;
    case CHV_ORC_KIND_DOUBLE:
    case CHV_ORC_KIND_LONG:
      total += nv * JDM_P2;
      break;
    case CHV_ORC_KIND_FLOAT:
    case CHV_ORC_KIND_INT:
    case CHV_ORC_KIND_SHORT:
    case CHV_ORC_KIND_BOOLEAN:
    case CHV_ORC_KIND_BYTE:
      total += nv * JDM_P1;
      break;
    default:
      break;
    }
  }
  return (int64_t)total;
}

static int open_tail(const struct chv_fs *fs, const char *path,
                     struct chv_orc_tail **out, struct chv_error *err) {
  struct chv_file *f;
  CHV_RETURN_IF_ERR(fs->open(fs, path, &f, err));
  int rc = chv_orc_tail_read(f, -1, path, out, err);
  chv_file_close(f);
  return rc;
}

int chv_orc_file_stats(const struct chv_fs *fs, const char *path,
                       struct chv_orc_file_stats *out, struct chv_error *err) {
  struct chv_orc_tail *t;
  CHV_RETURN_IF_ERR(open_tail(fs, path, &t, err));
  struct chv_orc_file_stats s;
  s.num_rows = (int64_t)t->nrows;
  s.raw_data_size = raw_size(&t->footer);
  s.stripes = (int)t->footer.nstripes;
  chv_orc_tail_close(t);
  *out = s;
  return CHV_OK;
}

int chv_orc_file_units(const struct chv_fs *fs, const char *path,
                       struct chv_orc_unit **out, int *n,
                       struct chv_error *err) {
  struct chv_orc_tail *t;
  CHV_RETURN_IF_ERR(open_tail(fs, path, &t, err));
  uint32_t ns = t->footer.nstripes;
  struct chv_orc_unit *u = chv_calloc(ns ? ns : 1, sizeof *u);
  if (u == NULL) {
    chv_orc_tail_close(t);
    return oom(err);
  }
  for (uint32_t i = 0; i < ns; i++) {
    const struct chv_orc_stripe_info *si = &t->footer.stripes[i];
    u[i].offset = (int64_t)si->offset;
    u[i].length =
        (int64_t)(si->index_length + si->data_length + si->footer_length);
    u[i].rows = (int64_t)si->number_of_rows;
  }
  chv_orc_tail_close(t);
  *out = u;
  *n = (int)ns;
  return CHV_OK;
}
