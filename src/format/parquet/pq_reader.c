/*
** The Parquet reader of chive/parquet.h: a file opened through struct
** chv_fs, its footer checked, its columns mapped to the produced type, its
** row groups read slice by slice into batches.
**
** Opening.  The footer is read and validated (pq_meta.c) and the file's
** schema mapped to Hive types (pq_schema.c).  The produced columns are the
** projection (opts.columns, names matched without case) of the table
** schema (opts.table_schema) or of the file's own columns.  Each produced
** value is paired with the file value of the same name (a tree of struct
** pq_rnode, STRUCT members matched by name at every depth): a value the
** file lacks reads as NULL, and a pair whose types differ must be a
** widening Hive allows (chv_type_widens()) or the open fails with CHV_ETYPE.
** Every leaf column a produced value needs gets a column chunk reader
** (struct pq_leaf, pq_column.c); a nested value whose members are all
** missing from the file reads the levels of one leaf below it, to know
** where it is NULL.  Nothing else of the file is read.
**
** Ranges.  A reader of a split (opts.range_start/_length) reads the row
** groups whose anchor lies in the range: by default the group's midpoint,
** as parquet-mr's range filter places it, or the first data page of its
** first column as Hive's record reader does (enum chv_pq_range_rule,
** rg_anchor()).  The others are never looked at, nor counted in the stats.
**
** Predicates.  Each row group is tested at open against the conjunction
** opts.preds using its column chunks' statistics (skip_row_group()): a
** group is skipped only when one predicate provably matches none of its
** rows.  Statistics are trusted conservatively: min_value/max_value only
** where column_orders says TYPE_ORDER, the deprecated min/max only for the
** types whose order was always signed (booleans, signed integers, dates,
** timestamps, decimals on INT32/INT64, floats), never for byte arrays;
** NaN bounds are ignored, and a predicate NaN could satisfy (>, >=, <>)
** needs nan_count = 0.  A literal that does not convert exactly to the
** column's type in the file makes its predicate unusable.  When the scan
** reaches a row group, the page index of each predicate's column rules out
** pages the same way (plan_row_group()): the rows left are kept as ranges
** (r->keep), and every leaf passes over the others (pq_leaf_skip()).
**
** Batches.  next() fills the batch up to its capacity, row group after row
** group: every leaf reads the same n records of the current group, then
** nested columns are assembled from their levels (pq_assemble.c) and
** missing columns filled with NULLs.  When a group's rows are done, each
** chunk must hold no more values.  An error is sticky: later calls return
** it again.
**
** INTERFACE: chv_pq_read_options_init(), chv_pq_reader_open(),
** chv_pq_reader_schema(), chv_pq_reader_next(), chv_pq_reader_stats(),
** chv_pq_reader_close(), chv_pq_file_stats() (chive/parquet.h).
*/
#include "format/parquet/pq_read.h"
#include "types/types.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static int oom(struct chv_error *err) {
  return chv_error_set(err, CHV_ENOMEM, "out of memory");
}

void chv_pq_read_options_init(struct chv_pq_read_options *o) {
  memset(o, 0, sizeof *o);
  o->batch_rows = PQ_DEFAULT_BATCH_ROWS;
  o->max_page_bytes = PQ_DEFAULT_MAX_PAGE;
}

/* ---- leaves ------------------------------------------------------------ */

/* The reader of file column col (created on first use).  values: its
** values are wanted (else its levels only). */
static int leaf_get(struct chv_pq_reader *r, int col, bool values,
                    struct pq_leaf **out, struct chv_error *err) {
  int i = r->leaf_of_col[col];
  if (i >= 0) {
    if (values && r->leaves[i]->values)
      return chv_error_set(err, CHV_EINTERNAL, "%s: column %d read twice",
                           r->path, col);
    *out = r->leaves[i];
    return CHV_OK;
  }
  struct pq_leaf **ls =
      chv_realloc(r->leaves, (size_t)(r->nleaves + 1) * sizeof *ls);
  if (ls == NULL) return oom(err);
  r->leaves = ls;
  struct pq_leaf *lf = chv_calloc(1, sizeof *lf);
  if (lf == NULL) return oom(err);
  const struct chv_pq_node *n = r->meta->leaves[col];
  struct chv_buf b;
  chv_buf_init(&b);
  if (chv_pq_node_path(n, &b) != CHV_OK) {
    chv_buf_free(&b);
    chv_free(lf);
    return oom(err);
  }
  lf->name = chv_buf_detach(&b);
  if (lf->name == NULL) {
    chv_free(lf);
    return oom(err);
  }
  lf->r = r;
  lf->col = col;
  lf->node = n;
  lf->max_def = n->def_level;
  lf->max_rep = n->rep_level;
  for (const struct chv_pq_node *p = n; p && p->parent; p = p->parent)
    if (p->el->repetition == CHV_PQ_REP_REPEATED)
      lf->rep_def[p->rep_level] = p->def_level;
  lf->ptype = n->el->type;
  lf->type_len = n->el->has_type_length ? n->el->type_length : 0;
  lf->cur_page = -1;
  chv_buf_init(&lf->heap);
  r->leaves[r->nleaves] = lf;
  r->leaf_of_col[col] = r->nleaves++;
  *out = lf;
  return CHV_OK;
}

/* ---- the produced tree ------------------------------------------------- */

static char *join_name(struct chv_pq_reader *r, const char *a, const char *b) {
  size_t la = a ? strlen(a) : 0, lb = strlen(b);
  char *s = chv_arena_alloc(r->arena, la + lb + 2);
  if (s == NULL) return NULL;
  if (la) {
    memcpy(s, a, la);
    s[la++] = '.';
  }
  memcpy(s + la, b, lb + 1);
  return s;
}

struct bctx {
  struct chv_pq_reader *r;
  int out_col;
  bool nested; /* the output column is not a primitive */
  int path[CHV_PQ_MAX_DEPTH + 2];
  struct chv_error *err;
};

static int build(struct bctx *c, struct pq_rnode *nd, const struct chv_type *t,
                 const struct chv_pq_field *pf, int16_t slot_def,
                 const char *name, int depth);

/* Where the children of nd have slots: a struct's members where the
** struct has, list and map elements where elements start. */
static int16_t slot_def_of(const struct pq_rnode *nd) {
  return nd->type->id == CHV_TYPE_STRUCT ? nd->slot_def : nd->edef;
}

static int build_children(struct bctx *c, struct pq_rnode *nd, int depth) {
  const struct chv_type *t = nd->type;
  const struct chv_pq_field *pf = nd->pf;
  if (t->nchildren == 0) return CHV_OK;
  if (depth > CHV_PQ_MAX_DEPTH)
    return chv_error_set(c->err, CHV_ENOTSUP,
                         "%s: column %s nests deeper than %d levels",
                         c->r->path, nd->name, CHV_PQ_MAX_DEPTH);
  nd->children =
      chv_arena_alloc(c->r->arena, (size_t)t->nchildren * sizeof *nd->children);
  if (nd->children == NULL) return oom(c->err);
  memset(nd->children, 0, (size_t)t->nchildren * sizeof *nd->children);
  nd->nchildren = t->nchildren;
  for (int i = 0; i < t->nchildren; i++) {
    const struct chv_pq_field *cf = NULL;
    int16_t sd = slot_def_of(nd);
    const char *cn;
    if (t->id == CHV_TYPE_STRUCT) {
      cn = t->names[i];
      if (pf)
        for (int j = 0; j < pf->nchildren; j++)
          if (chv_str_ieq(pf->type->names[j], cn)) cf = &pf->children[j];
    } else {
      cn = t->id == CHV_TYPE_ARRAY ? "element" : i == 0 ? "key" : "value";
      if (pf) cf = &pf->children[i];
    }
    char *name = join_name(c->r, nd->name, cn);
    if (name == NULL) return oom(c->err);
    c->path[depth] = i;
    CHV_RETURN_IF_ERR(
        build(c, &nd->children[i], t->children[i], cf, sd, name, depth + 1));
  }
  return CHV_OK;
}

/* The file's dotted path of a value (messages name file columns). */
static const char *file_name(struct chv_pq_reader *r,
                             const struct chv_pq_field *pf) {
  struct chv_buf b;
  chv_buf_init(&b);
  const char *s = NULL;
  if (chv_pq_node_path(pf->node, &b) == CHV_OK && b.data)
    s = chv_arena_strndup(r->arena, b.data, b.len);
  chv_buf_free(&b);
  return s;
}

/* Pair produced type t with file value pf (NULL: missing) at nd. */
static int build(struct bctx *c, struct pq_rnode *nd, const struct chv_type *t,
                 const struct chv_pq_field *pf, int16_t slot_def,
                 const char *name, int depth) {
  struct chv_pq_reader *r = c->r;
  if (pf && (name = file_name(r, pf)) == NULL) return oom(c->err);
  nd->type = t;
  nd->name = name;
  nd->slot_def = slot_def;
  nd->leaf = nd->rep_leaf = -1;
  nd->pf = NULL;
  if (pf && chv_type_is_primitive(t->id)) {
    if (!chv_type_is_primitive(pf->type->id) || pf->leaf < 0 ||
        !chv_type_widens(pf->type, t))
      return chv_type_widen_error(r->path, name, pf->type, t, c->err);
    nd->pf = pf;
    nd->def = pf->def_level;
    nd->rep = pf->rep_level;
    struct pq_leaf *lf;
    CHV_RETURN_IF_ERR(leaf_get(r, pf->leaf, true, &lf, c->err));
    lf->values = true;
    lf->keep_levels = lf->keep_levels || c->nested;
    lf->slot_def = slot_def;
    lf->out_col = c->out_col;
    lf->depth = depth;
    memcpy(lf->path, c->path, sizeof lf->path);
    lf->target = t;
    lf->conv = pf->conv;
    lf->fscale = pf->conv == CHV_PQ_CONV_DECIMAL ? pf->type->scale : 0;
    enum chv_type_id id = t->id;
    lf->direct = (lf->ptype == CHV_PQ_TYPE_INT32 &&
                  ((lf->conv == CHV_PQ_CONV_PLAIN && id == CHV_TYPE_INT) ||
                   (lf->conv == CHV_PQ_CONV_DATE && id == CHV_TYPE_DATE))) ||
                 (lf->ptype == CHV_PQ_TYPE_INT64 &&
                  lf->conv == CHV_PQ_CONV_PLAIN && id == CHV_TYPE_BIGINT) ||
                 (lf->ptype == CHV_PQ_TYPE_FLOAT && id == CHV_TYPE_FLOAT) ||
                 (lf->ptype == CHV_PQ_TYPE_DOUBLE && id == CHV_TYPE_DOUBLE);
    nd->leaf = nd->rep_leaf = r->leaf_of_col[pf->leaf];
    return CHV_OK;
  }
  if (pf && t->id != pf->type->id)
    return chv_type_widen_error(r->path, name, pf->type, t, c->err);
  /* A nested value, or a missing one (its children missing too, so that
  ** the tree follows the type). */
  nd->pf = pf;
  if (pf) {
    nd->def = pf->def_level;
    nd->rep = pf->rep_level;
    if (pf->repeated) {
      nd->edef = pf->repeated->def_level;
      nd->erep = pf->repeated->rep_level;
    }
  }
  CHV_RETURN_IF_ERR(build_children(c, nd, depth));
  if (pf == NULL) return CHV_OK;
  for (int i = 0; i < nd->nchildren && nd->rep_leaf < 0; i++)
    nd->rep_leaf = nd->children[i].rep_leaf;
  if (nd->rep_leaf < 0) {
    /* No member in the file: one leaf's levels say where it is. */
    const struct chv_pq_node *n = pf->node;
    if (n->leaf_begin >= n->leaf_end) {
      nd->pf = NULL; /* an empty group holds no data: NULL */
      return CHV_OK;
    }
    struct pq_leaf *lf;
    CHV_RETURN_IF_ERR(leaf_get(r, n->leaf_begin, false, &lf, c->err));
    lf->keep_levels = true;
    nd->rep_leaf = r->leaf_of_col[n->leaf_begin];
  }
  return CHV_OK;
}

/* ---- predicates -------------------------------------------------------- */

/* How a column's statistics are compared. */
enum pq_sk { SK_NONE, SK_BOOL, SK_NUM, SK_REAL, SK_TS, SK_BYTES };

struct pq_sval {
  chv_i128 num;            /* SK_BOOL (0/1), SK_NUM (unscaled) */
  double real;             /* SK_REAL */
  struct chv_timestamp ts; /* SK_TS */
  const uint8_t *p;        /* SK_BYTES */
  size_t len;
};

struct pq_scol {
  enum pq_sk kind;
  bool legacy_ok;   /* the deprecated min/max (signed order) are usable */
  bool is_unsigned; /* SK_NUM of an unsigned integer */
  bool is_date;     /* SK_NUM of days: literals are dates */
  int scale;        /* SK_NUM: the decimal scale in the file */
  int64_t per_sec;  /* SK_TS: stored units per second */
  int32_t ptype;
};

static void stat_col(const struct chv_pq_field *pf, const struct chv_type *t,
                     struct pq_scol *c) {
  memset(c, 0, sizeof *c);
  c->ptype = pf->node->el->type;
  if (!chv_type_widens(pf->type, t)) return;
  switch (pf->conv) {
  case CHV_PQ_CONV_PLAIN:
    switch (c->ptype) {
    case CHV_PQ_TYPE_BOOLEAN:
      c->kind = SK_BOOL;
      c->legacy_ok = true;
      break;
    case CHV_PQ_TYPE_INT32:
    case CHV_PQ_TYPE_INT64:
      c->kind = SK_NUM;
      c->legacy_ok = true;
      break;
    case CHV_PQ_TYPE_FLOAT:
    case CHV_PQ_TYPE_DOUBLE:
      c->kind = SK_REAL;
      c->legacy_ok = true;
      break;
    case CHV_PQ_TYPE_BYTE_ARRAY:
    case CHV_PQ_TYPE_FIXED_LEN_BYTE_ARRAY:
      /* A CHAR or VARCHAR column changes values (and their order). */
      if (t->id == CHV_TYPE_STRING || t->id == CHV_TYPE_BINARY)
        c->kind = SK_BYTES;
      break;
    default: /* INT96 without a known order */
      break;
    }
    break;
  case CHV_PQ_CONV_INT8:
  case CHV_PQ_CONV_INT16:
  case CHV_PQ_CONV_WIDEN:
    c->kind = SK_NUM;
    c->legacy_ok = true;
    break;
  case CHV_PQ_CONV_DATE:
    c->kind = SK_NUM;
    c->legacy_ok = true;
    c->is_date = true;
    break;
  case CHV_PQ_CONV_UINT8:
  case CHV_PQ_CONV_UINT16:
  case CHV_PQ_CONV_UINT32:
  case CHV_PQ_CONV_UINT64:
    c->kind = SK_NUM;
    c->is_unsigned = true;
    break;
  case CHV_PQ_CONV_DECIMAL:
    c->kind = SK_NUM;
    c->scale = pf->type->scale;
    c->legacy_ok =
        c->ptype == CHV_PQ_TYPE_INT32 || c->ptype == CHV_PQ_TYPE_INT64;
    break;
  case CHV_PQ_CONV_TIMESTAMP_MILLIS:
  case CHV_PQ_CONV_TIMESTAMP_MICROS:
  case CHV_PQ_CONV_TIMESTAMP_NANOS:
    c->kind = SK_TS;
    c->legacy_ok = true;
    c->per_sec = pf->conv == CHV_PQ_CONV_TIMESTAMP_MILLIS   ? 1000
                 : pf->conv == CHV_PQ_CONV_TIMESTAMP_MICROS ? 1000000
                                                            : 1000000000;
    break;
  default: /* INT96, FLOAT16, UUID: no order used here */
    break;
  }
}

/* A statistics value (PLAIN, byte arrays without their length). */
static bool stat_val(const struct pq_scol *c, const struct chv_pq_bytes *b,
                     struct pq_sval *v) {
  const uint8_t *p = b->data;
  switch (c->kind) {
  case SK_BOOL:
    if (b->len < 1) return false;
    v->num = p[0] != 0;
    return true;
  case SK_NUM:
    if (c->ptype == CHV_PQ_TYPE_INT32) {
      if (b->len != 4) return false;
      int32_t x;
      memcpy(&x, p, 4);
      v->num = c->is_unsigned ? (chv_i128)(uint32_t)x : (chv_i128)x;
      return true;
    }
    if (c->ptype == CHV_PQ_TYPE_INT64) {
      if (b->len != 8) return false;
      int64_t x;
      memcpy(&x, p, 8);
      v->num = c->is_unsigned ? (chv_i128)(uint64_t)x : (chv_i128)x;
      return true;
    }
    return pq_be_to_i128(p, b->len, &v->num);
  case SK_REAL:
    if (c->ptype == CHV_PQ_TYPE_FLOAT && b->len == 4) {
      float f;
      memcpy(&f, p, 4);
      v->real = f;
    } else if (c->ptype == CHV_PQ_TYPE_DOUBLE && b->len == 8) {
      memcpy(&v->real, p, 8);
    } else {
      return false;
    }
    return !isnan(v->real);
  case SK_TS: {
    if (b->len != 8) return false;
    int64_t x;
    memcpy(&x, p, 8);
    v->ts = pq_ts_from(x, c->per_sec);
    return true;
  }
  case SK_BYTES:
    v->p = p;
    v->len = b->len;
    return true;
  default:
    return false;
  }
}

static bool lit_val(const struct pq_scol *c, const char *s, struct pq_sval *v) {
  switch (c->kind) {
  case SK_BOOL:
    if (chv_str_ieq(s, "true"))
      v->num = 1;
    else if (chv_str_ieq(s, "false"))
      v->num = 0;
    else
      return false;
    return true;
  case SK_NUM:
    if (c->is_date) {
      int32_t d;
      if (chv_date_parse(s, strlen(s), &d) != CHV_OK) return false;
      v->num = d;
      return true;
    }
    return chv_decimal_parse_exact(s, c->scale, &v->num);
  case SK_REAL: {
    char *end;
    v->real = strtod(s, &end);
    while (*end == ' ')
      end++;
    return end != s && *end == '\0' && !isnan(v->real);
  }
  case SK_TS:
    return chv_timestamp_parse(s, strlen(s), &v->ts) == CHV_OK;
  case SK_BYTES:
    v->p = (const uint8_t *)s;
    v->len = strlen(s);
    return true;
  default:
    return false;
  }
}

static int cmp_val(enum pq_sk k, const struct pq_sval *a,
                   const struct pq_sval *b) {
  switch (k) {
  case SK_REAL:
    return (a->real > b->real) - (a->real < b->real);
  case SK_TS:
    if (a->ts.seconds != b->ts.seconds)
      return a->ts.seconds < b->ts.seconds ? -1 : 1;
    return (a->ts.nanos > b->ts.nanos) - (a->ts.nanos < b->ts.nanos);
  case SK_BYTES: {
    int c = memcmp(a->p, b->p, CHV_MIN(a->len, b->len));
    if (c) return c < 0 ? -1 : 1;
    return (a->len > b->len) - (a->len < b->len);
  }
  default:
    return (a->num > b->num) - (a->num < b->num);
  }
}

/* A predicate prepared once: its file column and literal. */
struct pq_ppred {
  const struct chv_pred *p;
  int leaf;           /* file column of a top-level primitive, or -1 */
  struct pq_scol c;   /* how its statistics compare (kind NONE: none) */
  bool lit_ok;        /* the literal converted exactly */
  struct pq_sval lit; /* ... to this */
};

static void prepare_pred(const struct chv_pq_reader *r,
                         const struct chv_pred *p, struct pq_ppred *pp) {
  memset(pp, 0, sizeof *pp);
  pp->p = p;
  pp->leaf = -1;
  const struct chv_type *src =
      r->o.table_schema ? r->o.table_schema : r->hive->type;
  if (p->column == NULL) return;
  int ti = chv_type_field_index(src, p->column);
  if (ti < 0) return;
  int fi = r->o.table_schema
               ? chv_type_field_index(r->hive->type, src->names[ti])
               : ti;
  if (fi < 0) return; /* not in the file: no statistics */
  const struct chv_pq_field *pf = &r->hive->root.children[fi];
  if (pf->leaf < 0 || !chv_type_is_primitive(pf->type->id)) return;
  pp->leaf = pf->leaf;
  stat_col(pf, src->children[ti], &pp->c);
  pp->lit_ok =
      pp->c.kind != SK_NONE && p->value && lit_val(&pp->c, p->value, &pp->lit);
}

/* What statistics say of a set of rows: a column chunk or one page. */
struct pq_bounds {
  bool has_null_count;
  int64_t null_count;
  bool all_null;           /* every value is NULL */
  bool have_min, have_max; /* bounds of the non-NULL, non-NaN values */
  struct pq_sval mn, mx;
  bool exact;    /* the bounds are values of the set */
  bool nan_free; /* the set holds no NaN */
};

/* True when pp provably matches none of the rows b describes. */
static bool rules_out_bounds(const struct pq_ppred *pp,
                             const struct pq_bounds *b) {
  enum chv_pred_op op = pp->p->op;
  switch (op) {
  case CHV_PRED_IS_NULL:
    return b->has_null_count && b->null_count == 0;
  case CHV_PRED_IS_NOT_NULL:
    return b->all_null;
  case CHV_PRED_EQ:
  case CHV_PRED_NE:
  case CHV_PRED_LT:
  case CHV_PRED_LE:
  case CHV_PRED_GT:
  case CHV_PRED_GE:
    break;
  default:
    return false;
  }
  if (b->all_null) return true; /* a comparison with NULL is never true */
  if (!pp->lit_ok) return false;
  enum pq_sk k = pp->c.kind;
  const struct pq_sval *lit = &pp->lit;
  /* NaN is outside min and max; under a total order it exceeds every
  ** number, so >, >= and <> need to know there is none. */
  if (k == SK_REAL &&
      (op == CHV_PRED_GT || op == CHV_PRED_GE || op == CHV_PRED_NE) &&
      !b->nan_free)
    return false;
  switch (op) {
  case CHV_PRED_EQ:
    return (b->have_min && cmp_val(k, lit, &b->mn) < 0) ||
           (b->have_max && cmp_val(k, lit, &b->mx) > 0);
  case CHV_PRED_NE:
    return b->have_min && b->have_max && b->exact &&
           cmp_val(k, &b->mn, lit) == 0 && cmp_val(k, &b->mx, lit) == 0;
  case CHV_PRED_LT:
    return b->have_min && cmp_val(k, &b->mn, lit) >= 0;
  case CHV_PRED_LE:
    return b->have_min && cmp_val(k, &b->mn, lit) > 0;
  case CHV_PRED_GT:
    return b->have_max && cmp_val(k, &b->mx, lit) <= 0;
  case CHV_PRED_GE:
    return b->have_max && cmp_val(k, &b->mx, lit) < 0;
  default:
    return false;
  }
}

/* min_value/max_value (and the page index's bounds) follow the column's
** ColumnOrder: usable only where it is TYPE_ORDER. */
static bool typed_order(const struct chv_pq_reader *r, int leaf) {
  return r->meta->ncolumn_orders > leaf &&
         r->meta->column_orders[leaf] == CHV_PQ_ORDER_TYPE_DEFINED;
}

/* True when pp provably matches no row of row group g (its column
** chunk's statistics). */
static bool rules_out(const struct chv_pq_reader *r, const struct pq_ppred *pp,
                      int g) {
  if (pp->leaf < 0) return false;
  const struct chv_pq_column_meta *cm =
      r->meta->row_groups[g].columns[pp->leaf].meta_data;
  if (cm == NULL || !cm->has_statistics) return false;
  const struct chv_pq_statistics *st = &cm->statistics;
  const struct pq_scol *c = &pp->c;
  struct pq_bounds b;
  memset(&b, 0, sizeof b);
  b.has_null_count = st->has_null_count;
  b.null_count = st->null_count;
  b.all_null = st->has_null_count && st->null_count >= cm->num_values;
  b.exact = true;
  b.nan_free = st->has_nan_count && st->nan_count == 0;
  if (c->kind != SK_NONE) {
    if (typed_order(r, pp->leaf) && (st->has_min_value || st->has_max_value)) {
      b.have_min = st->has_min_value && stat_val(c, &st->min_value, &b.mn);
      b.have_max = st->has_max_value && stat_val(c, &st->max_value, &b.mx);
      if (c->kind == SK_BYTES)
        b.exact = st->has_is_min_value_exact && st->is_min_value_exact &&
                  st->has_is_max_value_exact && st->is_max_value_exact;
    } else if (c->legacy_ok) {
      b.have_min = st->has_min && stat_val(c, &st->min, &b.mn);
      b.have_max = st->has_max && stat_val(c, &st->max, &b.mx);
    }
  }
  return rules_out_bounds(pp, &b);
}

/* ---- the page index: row ranges of a row group ------------------------- */

/* Read and decode a page index structure of length len at off. */
static int read_index(chv_pq_reader *r, int64_t off, int32_t len, void **out,
                      struct chv_error *err) {
  if (len <= 0) return chv_error_set(err, CHV_ECORRUPT, "empty page index");
  uint8_t *p = chv_arena_alloc(r->rg_arena, (size_t)len);
  if (p == NULL) return oom(err);
  size_t got = 0;
  CHV_RETURN_IF_ERR(chv_file_pread(r->file, p, (size_t)len, off, &got, err));
  r->st.bytes_read += (int64_t)got;
  if (got != (size_t)len)
    return chv_error_set(err, CHV_ECORRUPT,
                         "%s: the file ends inside a page index", r->path);
  *out = p;
  return CHV_OK;
}

static int load_offset_index(chv_pq_reader *r, int g, int leaf,
                             const struct chv_pq_offset_index **out,
                             struct chv_error *err) {
  const struct chv_pq_column_chunk *cc = &r->meta->row_groups[g].columns[leaf];
  *out = NULL;
  if (!cc->has_offset_index || cc->file_path) return CHV_OK;
  void *p;
  CHV_RETURN_IF_ERR(
      read_index(r, cc->offset_index_offset, cc->offset_index_length, &p, err));
  struct chv_pq_offset_index *oi = chv_arena_alloc(r->rg_arena, sizeof *oi);
  if (oi == NULL) return oom(err);
  CHV_RETURN_IF_ERR(chv_pq_offset_index_parse(
      p, (size_t)cc->offset_index_length, r->rg_arena, r->path, oi, err));
  *out = oi;
  return CHV_OK;
}

/* Mark in excl[] (one flag per page of leaf's OffsetIndex oi) the pages
** predicate pp rules out by the ColumnIndex. */
static int page_exclusions(chv_pq_reader *r, int g, const struct pq_ppred *pp,
                           const struct chv_pq_offset_index *oi, bool *excl,
                           struct chv_error *err) {
  const struct chv_pq_column_chunk *cc =
      &r->meta->row_groups[g].columns[pp->leaf];
  if (!cc->has_column_index) return CHV_OK;
  void *p;
  CHV_RETURN_IF_ERR(
      read_index(r, cc->column_index_offset, cc->column_index_length, &p, err));
  struct chv_pq_column_index ci;
  CHV_RETURN_IF_ERR(chv_pq_column_index_parse(
      p, (size_t)cc->column_index_length, r->rg_arena, r->path, &ci, err));
  if (ci.npages != oi->npages) return CHV_OK; /* not the same pages */
  bool typed = typed_order(r, pp->leaf) && pp->c.kind != SK_NONE;
  for (int i = 0; i < ci.npages; i++) {
    struct pq_bounds b;
    memset(&b, 0, sizeof b);
    b.all_null = ci.null_pages[i];
    b.has_null_count = ci.null_counts != NULL;
    b.null_count = ci.null_counts ? ci.null_counts[i] : 0;
    b.nan_free = ci.nan_counts && ci.nan_counts[i] == 0;
    b.exact = pp->c.kind != SK_BYTES; /* byte bounds may be cut short */
    if (typed && !b.all_null) {
      b.have_min = stat_val(&pp->c, &ci.min_values[i], &b.mn);
      b.have_max = stat_val(&pp->c, &ci.max_values[i], &b.mx);
    }
    if (rules_out_bounds(pp, &b)) excl[i] = true;
  }
  return CHV_OK;
}

static int range_cmp(const void *a, const void *b) {
  int64_t x = ((const struct pq_range *)a)->first;
  int64_t y = ((const struct pq_range *)b)->first;
  return (x > y) - (x < y);
}

static int range_add(chv_pq_reader *r, int64_t first, int64_t end,
                     struct chv_error *err) {
  if (first >= end) return CHV_OK;
  if (r->nkeep && r->keep[r->nkeep - 1].end >= first) {
    if (end > r->keep[r->nkeep - 1].end) r->keep[r->nkeep - 1].end = end;
    return CHV_OK;
  }
  if (r->nkeep == r->keep_cap) {
    int c = r->keep_cap ? r->keep_cap * 2 : 16;
    struct pq_range *k = chv_realloc(r->keep, sizeof *k * (size_t)c);
    if (k == NULL) return oom(err);
    r->keep = k;
    r->keep_cap = c;
  }
  r->keep[r->nkeep].first = first;
  r->keep[r->nkeep].end = end;
  r->nkeep++;
  return CHV_OK;
}

/* r->keep: the row ranges of row group g no predicate rules out by the
** page index (all of it without one).  Pages are given by each predicate
** column's OffsetIndex; a row is left out when one predicate rules out
** its page. */
static int plan_row_group(chv_pq_reader *r, int g, struct chv_error *err) {
  int64_t rows = r->meta->row_groups[g].num_rows;
  r->nkeep = r->keep_i = 0;
  /* Rows ruled out, as (first, end) pairs. */
  struct pq_range *out = NULL;
  int nout = 0, cap = 0, rc = CHV_OK;
  for (int i = 0; i < r->o.npreds && rc == CHV_OK; i++) {
    const struct pq_ppred *pp = &r->preds[i];
    if (pp->leaf < 0) continue;
    const struct chv_pq_offset_index *oi;
    /* A damaged page index only costs its skipping: the pages themselves
    ** are checked as they are read. */
    if ((rc = load_offset_index(r, g, pp->leaf, &oi, err)) != CHV_OK) {
      if (rc == CHV_ECORRUPT) rc = CHV_OK;
      continue;
    }
    if (oi == NULL || oi->npages == 0) continue;
    bool *excl = chv_arena_alloc(r->rg_arena, (size_t)oi->npages);
    if (excl == NULL) {
      rc = oom(err);
      break;
    }
    memset(excl, 0, (size_t)oi->npages);
    if ((rc = page_exclusions(r, g, pp, oi, excl, err)) != CHV_OK) {
      if (rc == CHV_ECORRUPT) rc = CHV_OK;
      continue;
    }
    for (int p = 0; p < oi->npages; p++) {
      if (!excl[p]) continue;
      int64_t first = CHV_MIN(oi->pages[p].first_row_index, rows);
      int64_t end = p + 1 < oi->npages
                        ? CHV_MIN(oi->pages[p + 1].first_row_index, rows)
                        : rows;
      if (first >= end) continue;
      if (nout == cap) {
        cap = cap ? cap * 2 : 16;
        struct pq_range *o = chv_realloc(out, sizeof *o * (size_t)cap);
        if (o == NULL) {
          rc = oom(err);
          break;
        }
        out = o;
      }
      out[nout].first = first;
      out[nout].end = end;
      nout++;
    }
  }
  if (rc == CHV_OK) {
    /* Sort the ruled-out ranges by their start; keep what lies between. */
    if (nout > 1) qsort(out, (size_t)nout, sizeof *out, range_cmp);
    int64_t at = 0;
    for (int i = 0; i < nout && rc == CHV_OK; i++) {
      rc = range_add(r, at, out[i].first, err);
      if (out[i].end > at) at = out[i].end;
    }
    if (rc == CHV_OK) rc = range_add(r, at, rows, err);
  }
  chv_free(out);
  return rc;
}

/* ---- ranges ------------------------------------------------------------ */

/* The byte of the file that decides which split reads row group g (enum
** chv_pq_range_rule), kept inside the file. */
static int64_t rg_anchor(const chv_pq_reader *r,
                         const struct chv_pq_row_group *g) {
  const struct chv_pq_column_meta *cm =
      g->ncolumns > 0 ? g->columns[0].meta_data : NULL;
  int64_t at;
  if (cm == NULL) {
    at = g->has_file_offset ? g->file_offset : 0;
  } else if (r->o.range_rule == CHV_PQ_RANGE_FIRST_DATA_PAGE) {
    at = cm->data_page_offset;
  } else {
    /* parquet-mr's getOffset(): the dictionary page when it comes first
    ** (a dictionary_page_offset of 0 included, as parquet-mr takes it). */
    int64_t start = cm->data_page_offset;
    if (cm->has_dictionary_page_offset && start > cm->dictionary_page_offset)
      start = cm->dictionary_page_offset;
    int64_t size = 0;
    if (g->has_total_compressed_size) {
      size = g->total_compressed_size;
    } else {
      for (int c = 0; c < g->ncolumns; c++) {
        const struct chv_pq_column_meta *m = g->columns[c].meta_data;
        if (m && m->total_compressed_size > 0 &&
            size <= INT64_MAX - m->total_compressed_size)
          size += m->total_compressed_size;
      }
    }
    if (size < 0) size = 0;
    at = start < 0 || size / 2 > INT64_MAX - start ? start : start + size / 2;
  }
  if (at >= r->file_size) at = r->file_size - 1;
  return at < 0 ? 0 : at;
}

/* Whether row group g belongs to the range of the options. */
static bool in_range(const chv_pq_reader *r,
                     const struct chv_pq_row_group *g) {
  int64_t start = r->o.range_start > 0 ? r->o.range_start : 0;
  if (r->o.range_start <= 0 && r->o.range_length <= 0) return true;
  int64_t at = rg_anchor(r, g);
  if (at < start) return false;
  return r->o.range_length <= 0 || at - start < r->o.range_length;
}

/* ---- opening ----------------------------------------------------------- */

int chv_pq_reader_open(const struct chv_fs *fs, const char *path,
                       const struct chv_pq_read_options *opts,
                       chv_pq_reader **out, struct chv_error *err) {
  int rc;
  chv_pq_reader *r = chv_calloc(1, sizeof *r);
  if (r == NULL) return oom(err);
  r->fs = fs;
  r->cur_rg = -1;
  if (opts)
    r->o = *opts;
  else
    chv_pq_read_options_init(&r->o);
  if (r->o.max_page_bytes <= 0) r->o.max_page_bytes = PQ_DEFAULT_MAX_PAGE;
  if (r->o.batch_rows <= 0) r->o.batch_rows = PQ_DEFAULT_BATCH_ROWS;
  r->path = chv_strdup(path ? path : "(parquet)");
  if (r->path == NULL || chv_arena_open(0, &r->arena) != CHV_OK) {
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
  if ((rc = chv_pq_footer_read(r->file, r->file_size, r->path, &r->meta,
                               err)) != CHV_OK)
    goto out_close;
  r->st.bytes_read += CHV_MIN(r->file_size, (int64_t)CHV_PQ_FOOTER_READ_SIZE);
  if (r->meta->footer_length + 8 > CHV_PQ_FOOTER_READ_SIZE)
    r->st.bytes_read += r->meta->footer_length;
  if ((rc = chv_pq_hive_schema_open(r->meta, r->path, &r->hive, err)) != CHV_OK)
    goto out_close;
  r->leaf_of_col = chv_malloc(sizeof(int) * (size_t)(r->meta->nleaves + 1));
  if (r->leaf_of_col == NULL) {
    rc = oom(err);
    goto out_close;
  }
  for (int i = 0; i < r->meta->nleaves; i++)
    r->leaf_of_col[i] = -1;

  /* The produced columns. */
  const struct chv_type *src = ts ? ts : r->hive->type;
  int nproj = r->o.columns ? r->o.ncolumns : src->nchildren;
  if (nproj < 0) nproj = 0;
  if ((rc = chv_type_new(CHV_TYPE_STRUCT, &r->schema)) != CHV_OK) {
    rc = oom(err);
    goto out_close;
  }
  for (int k = 0; k < nproj; k++) {
    int idx = k;
    if (r->o.columns) {
      const char *name = r->o.columns[k];
      idx = name ? chv_type_field_index(src, name) : -1;
      if (idx < 0) {
        rc = chv_error_set(err, CHV_EINVAL, "%s: no column '%s' to read",
                           r->path, name ? name : "(null)");
        goto out_close;
      }
    }
    struct chv_type *t;
    if ((rc = chv_type_clone(src->children[idx], &t)) != CHV_OK) {
      rc = oom(err);
      goto out_close;
    }
    rc = chv_type_struct_add(r->schema, src->names[idx], t);
    if (rc == CHV_EEXIST) {
      rc = chv_error_set(err, CHV_EINVAL, "%s: column '%s' is read twice",
                         r->path, src->names[idx]);
      goto out_close;
    }
    if (rc != CHV_OK) {
      rc = oom(err);
      goto out_close;
    }
  }
  r->ncols = r->schema->nchildren;
  if (r->ncols) {
    r->cols = chv_arena_alloc(r->arena, sizeof *r->cols * (size_t)r->ncols);
    if (r->cols == NULL) {
      rc = oom(err);
      goto out_close;
    }
    memset(r->cols, 0, sizeof *r->cols * (size_t)r->ncols);
  }
  for (int k = 0; k < r->ncols; k++) {
    const char *name = r->schema->names[k];
    int fi = chv_type_field_index(r->hive->type, name);
    const struct chv_pq_field *pf =
        fi >= 0 ? &r->hive->root.children[fi] : NULL;
    struct bctx c;
    memset(&c, 0, sizeof c);
    c.r = r;
    c.out_col = k;
    c.nested = !chv_type_is_primitive(r->schema->children[k]->id);
    c.err = err;
    char *nm = join_name(r, NULL, pf ? pf->name : name);
    if (nm == NULL) {
      rc = oom(err);
      goto out_close;
    }
    if ((rc = build(&c, &r->cols[k], r->schema->children[k], pf, 0, nm, 0)) !=
        CHV_OK)
      goto out_close;
  }
  if ((rc = chv_block_ctx_open(&r->bctx, err)) != CHV_OK) goto out_close;

  if (chv_arena_open(0, &r->rg_arena) != CHV_OK) {
    rc = oom(err);
    goto out_close;
  }

  /* Row groups the predicates rule out. */
  if (r->o.preds == NULL || r->o.npreds < 0) r->o.npreds = 0;
  if (r->o.npreds) {
    r->preds = chv_calloc((size_t)r->o.npreds, sizeof *r->preds);
    if (r->preds == NULL) {
      rc = oom(err);
      goto out_close;
    }
    for (int i = 0; i < r->o.npreds; i++)
      prepare_pred(r, &r->o.preds[i], &r->preds[i]);
  }
  r->skip = chv_calloc((size_t)r->meta->nrow_groups + 1, sizeof *r->skip);
  if (r->skip == NULL) {
    rc = oom(err);
    goto out_close;
  }
  r->st.row_groups = 0;
  for (int g = 0; g < r->meta->nrow_groups; g++) {
    if (!in_range(r, &r->meta->row_groups[g])) {
      r->skip[g] = true;
      continue;
    }
    r->st.row_groups++;
    for (int i = 0; i < r->o.npreds && !r->skip[g]; i++)
      r->skip[g] = rules_out(r, &r->preds[i], g);
    if (r->skip[g]) r->st.row_groups_skipped++;
  }
  *out = r;
  return CHV_OK;
out_close:
  chv_pq_reader_close(r);
  return rc;
}

const struct chv_type *chv_pq_reader_schema(const chv_pq_reader *r) {
  return r->schema;
}

void chv_pq_reader_stats(const chv_pq_reader *r,
                         struct chv_pq_read_stats *out) {
  *out = r->st;
}

void chv_pq_reader_close(chv_pq_reader *r) {
  if (r == NULL) return;
  for (int i = 0; i < r->nleaves; i++)
    pq_leaf_free(r->leaves[i]);
  chv_free(r->leaves);
  chv_free(r->leaf_of_col);
  chv_free(r->skip);
  chv_free(r->preds);
  chv_free(r->keep);
  chv_arena_close(r->rg_arena);
  chv_block_ctx_close(r->bctx);
  chv_type_free(r->schema);
  chv_pq_hive_schema_close(r->hive);
  chv_pq_file_meta_close(r->meta);
  chv_file_close(r->file);
  chv_arena_close(r->arena);
  chv_free(r->path);
  chv_free(r);
}

/* ---- batches ----------------------------------------------------------- */

/* The vector a leaf's values go to. */
static struct chv_vector *leaf_vector(const struct pq_leaf *lf,
                                      struct chv_batch *b) {
  if (!lf->values) return NULL;
  struct chv_vector *v = b->cols[lf->out_col];
  for (int i = 0; i < lf->depth; i++)
    v = v->children[lf->path[i]];
  return v;
}

/* Pass over n rows of the current row group in every leaf. */
static int skip_rows(chv_pq_reader *r, int64_t n, struct chv_error *err) {
  if (n <= 0) return CHV_OK;
  for (int i = 0; i < r->nleaves; i++)
    CHV_RETURN_IF_ERR(pq_leaf_skip(r->leaves[i], n, err));
  r->rg_pos += n;
  r->st.rows_skipped += n;
  return CHV_OK;
}

/* Finish the current row group (if any) and start the next one with rows
** to produce; r->done at the end of the file. */
static int next_row_group(chv_pq_reader *r, struct chv_error *err) {
  if (r->cur_rg >= 0) {
    CHV_RETURN_IF_ERR(skip_rows(r, r->rg_rows - r->rg_pos, err));
    for (int i = 0; i < r->nleaves; i++)
      CHV_RETURN_IF_ERR(pq_leaf_end(r->leaves[i], err));
    r->cur_rg = -1;
  }
  const struct chv_pq_file_meta *m = r->meta;
  for (;;) {
    while (r->next_rg < m->nrow_groups &&
           (r->skip[r->next_rg] || m->row_groups[r->next_rg].num_rows == 0))
      r->next_rg++;
    if (r->next_rg >= m->nrow_groups) {
      r->done = true;
      return CHV_OK;
    }
    int g = r->next_rg++;
    chv_arena_reset(r->rg_arena);
    CHV_RETURN_IF_ERR(plan_row_group(r, g, err));
    if (r->nkeep == 0) {
      /* The page index rules out every row. */
      r->st.row_groups_skipped++;
      continue;
    }
    r->cur_rg = g;
    r->rg_rows = m->row_groups[g].num_rows;
    r->rg_pos = 0;
    bool partial =
        r->nkeep > 1 || r->keep[0].first > 0 || r->keep[0].end < r->rg_rows;
    for (int i = 0; i < r->nleaves; i++) {
      struct pq_leaf *lf = r->leaves[i];
      CHV_RETURN_IF_ERR(pq_leaf_begin(lf, g, err));
      /* Pages to pass over: each leaf's own OffsetIndex tells where (a
      ** damaged one is not used). */
      if (partial) {
        int rc = load_offset_index(r, g, lf->col, &lf->oi, err);
        if (rc != CHV_OK && rc != CHV_ECORRUPT) return rc;
      }
    }
    return CHV_OK;
  }
}

static int fill(chv_pq_reader *r, struct chv_batch *batch, int64_t *nrows,
                struct chv_error *err) {
  chv_batch_reset(batch);
  int64_t cap = batch->ncols ? INT64_MAX : r->o.batch_rows;
  for (int i = 0; i < batch->ncols; i++)
    cap = CHV_MIN(cap, batch->cols[i]->capacity);
  if (cap <= 0) cap = r->o.batch_rows;
  for (int i = 0; i < r->nleaves; i++)
    r->leaves[i]->lcount = 0;
  int64_t rows = 0;
  while (rows < cap && !r->done) {
    if (r->cur_rg < 0 || r->keep_i >= r->nkeep) {
      CHV_RETURN_IF_ERR(next_row_group(r, err));
      continue;
    }
    const struct pq_range *k = &r->keep[r->keep_i];
    CHV_RETURN_IF_ERR(skip_rows(r, k->first - r->rg_pos, err));
    int64_t n = CHV_MIN(cap - rows, k->end - r->rg_pos);
    if (rows == 0) r->batch_rg = r->cur_rg;
    r->batch_rg_end = r->cur_rg;
    for (int i = 0; i < r->nleaves; i++) {
      struct pq_leaf *lf = r->leaves[i];
      CHV_RETURN_IF_ERR(pq_leaf_read(lf, n, leaf_vector(lf, batch), err));
    }
    rows += n;
    r->rg_pos += n;
    if (r->rg_pos == k->end) r->keep_i++;
  }
  for (int k = 0; k < r->ncols; k++) {
    const struct pq_rnode *nd = &r->cols[k];
    struct chv_vector *v = batch->cols[k];
    if (nd->pf == NULL)
      CHV_RETURN_IF_ERR(pq_append_nulls(v, rows, err));
    else if (!chv_type_is_primitive(nd->type->id))
      CHV_RETURN_IF_ERR(pq_assemble(r, nd, v, err));
  }
  batch->nrows = rows;
  r->st.rows += rows;
  *nrows = rows;
  return CHV_OK;
}

int chv_pq_reader_next(chv_pq_reader *r, struct chv_batch *batch,
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

/* ---- footer statistics ------------------------------------------------- */

int chv_pq_file_stats(const struct chv_fs *fs, const char *path,
                      struct chv_pq_file_stats *out, struct chv_error *err) {
  struct chv_file *f;
  CHV_RETURN_IF_ERR(fs->open(fs, path, &f, err));
  struct chv_pq_file_meta *m;
  int rc = chv_pq_footer_read(f, -1, path, &m, err);
  chv_file_close(f);
  if (rc != CHV_OK) return rc;
  struct chv_pq_file_stats s = {0, 0, m->nrow_groups};
  for (int g = 0; g < m->nrow_groups; g++) {
    s.num_rows += m->row_groups[g].num_rows;
    s.raw_data_size += m->row_groups[g].total_byte_size;
  }
  chv_pq_file_meta_close(m);
  *out = s;
  return CHV_OK;
}
