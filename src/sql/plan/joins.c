/*
** sql/plan/joins: the rewrite passes of joins (sql_rewrite() runs them
** around the scans' pushdown):
**
**   push    top-down: the conditions of a WHERE over a join, and each
**           join's ON, go as far down as they keep their meaning.  A
**           condition of one input's columns goes into that input (a
**           Filter over a table's Scan, which the scans' pushdown then
**           prunes partitions and row groups by), unless the input is an
**           outer join's preserved side (of an ON) or its NULL-extended
**           side (of a WHERE); a WHERE over an inner join is its ON.
**   order   each group of inner and cross joins is joined again pair by
**           pair: of its parts joined so far (at first each relation),
**           the two an equality connects whose join is estimated
**           (sql_node_estimate(), pair_rows()) to give the fewest rows
**           join next, the larger on the left, so that the intermediate
**           results stay small and no cross product is made that a
**           condition could avoid; the tree may be bushy.  The group's
**           conditions go to the first join that has their columns.
**           Before, a semi or anti join over a group whose condition reads
**           one relation goes down onto it when its right side is small.
**   keys    each join's conditions split into equi-keys (a = b, a <=> b
**           with one side over each input) and the residual condition;
**           the build side is the input estimated smaller.
**   dynamic  (after the other passes of sql_rewrite()) a join whose probe
**           side is a table Scan keyed by its columns gives the scan the
**           columns its build keys filter at run time: partitions of a
**           partition key (when the build side is filtered), row groups
**           and stripes of a Parquet or ORC data column (docs/plan.md)
**
** The estimates: a table's numRows (the session's scan_rows), a filter's
** rough selectivity per condition, the columns' distinct counts from the
** metastore's column statistics (scan_ndv) for joins and aggregates.
*/
#include "sql/plan/plan.h"

#include <math.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static int oom(struct sql_rewrite *rw) {
  return chv_error_set(rw->err, CHV_ENOMEM, "out of memory");
}

/* ---- estimates ------------------------------------------------------------------- */

static double col_ndv(const struct sql_node *nd, int c, bool *known);

/* The distinct count the column statistics give column e of nd, or 0:
** not a column, no node, or not known. */
static double known_ndv(const struct sql_node *nd, const struct chv_expr *e) {
  if (!nd || e->kind != CHV_EXPR_COLUMN) return 0;
  bool known;
  double d = col_ndv(nd, e->column, &known);
  return known && d >= 1 ? d : 0;
}

/* The table Scan column c of nd reads, through the nodes that pass a
** column on (*c becomes the scan's), or NULL. */
static const struct sql_node *col_scan(const struct sql_node *nd, int *c) {
  for (;;) {
    switch (nd->kind) {
    case SQL_NODE_SCAN: return nd;
    case SQL_NODE_FILTER:
    case SQL_NODE_LIMIT:
    case SQL_NODE_TOPN:
    case SQL_NODE_SORT: nd = nd->in[0]; break;
    case SQL_NODE_PROJECT:
      if (nd->u.project.exprs[*c]->kind != CHV_EXPR_COLUMN) return NULL;
      *c = nd->u.project.exprs[*c]->column;
      nd = nd->in[0];
      break;
    case SQL_NODE_DERIVED:
      if (nd->u.derived.map) *c = nd->u.derived.map[*c];
      nd = nd->in[0];
      break;
    case SQL_NODE_JOIN: {
      int nl = nd->in[0]->ncols;
      if (*c >= nl) {
        if (nd->u.join.kind == CHV_SQL_JOIN_SEMI ||
            nd->u.join.kind == CHV_SQL_JOIN_ANTI ||
            nd->u.join.kind == CHV_SQL_JOIN_NOT_IN)
          return NULL;
        *c -= nl;
        nd = nd->in[1];
      } else {
        nd = nd->in[0];
      }
      break;
    }
    default: return NULL;
    }
  }
}

/* A literal's value as a double (numbers, DATE as days), or NAN. */
static double lit_value(const struct chv_expr *e) {
  if (e->kind != CHV_EXPR_LITERAL || e->value.is_null) return NAN;
  enum chv_type_id id = e->type->id;
  if (chv_type_is_integer(id) || id == CHV_TYPE_DATE) return (double)e->value.i64;
  if (id == CHV_TYPE_FLOAT || id == CHV_TYPE_DOUBLE) return e->value.f64;
  if (id == CHV_TYPE_DECIMAL)
    return (double)e->value.dec / pow(10, e->type->scale);
  return NAN;
}

/* The share of the rows a comparison of a column of in with a literal (<,
** <=, >, >=) keeps, its values taken as spread evenly between the least
** and greatest the column statistics give; -1: not such a comparison, or
** no statistics.  *col: the scan's column compared, *upper: whether the
** literal bounds it from above. */
static double range_share(const struct chv_expr *e, const struct sql_node *in,
                          const struct sql_node **scan, int *col, bool *upper) {
  if (!in || e->kind != CHV_EXPR_CALL || e->nargs != 2) return -1;
  bool lt = e->fn == CHV_FN_LT || e->fn == CHV_FN_LE,
       gt = e->fn == CHV_FN_GT || e->fn == CHV_FN_GE;
  if (!lt && !gt) return -1;
  int ci = e->args[0]->kind == CHV_EXPR_COLUMN ? 0 : 1;
  if (e->args[ci]->kind != CHV_EXPR_COLUMN) return -1;
  double v = lit_value(e->args[1 - ci]);
  if (isnan(v)) return -1;
  if (ci == 1) lt = !lt; /* v < col: col > v */
  int c = e->args[ci]->column;
  const struct sql_node *sn = col_scan(in, &c);
  if (!sn || !sn->u.scan.est_lo) return -1;
  double lo = sn->u.scan.est_lo[c], hi = sn->u.scan.est_hi[c];
  if (isnan(lo) || isnan(hi) || !(hi > lo)) return -1;
  double x = lt ? (v - lo) / (hi - lo) : (hi - v) / (hi - lo);
  *scan = sn;
  *col = c;
  *upper = lt;
  return x < 0 ? 0 : x > 1 ? 1 : x;
}

/* The share of the rows of in (the node e's columns are of, or NULL) that
** condition e keeps: 1 / the distinct count for a column's equality with
** a literal (n of them for IN) where the statistics give it; a range's
** share of the column's least to greatest value for a comparison with a
** literal (both bounds of one column AND-ed: the share between them);
** else a rough constant a kind. */
static double selectivity(const struct chv_expr *e, const struct sql_node *in) {
  switch (e->kind) {
  case CHV_EXPR_AND: {
    const struct sql_node *s0, *s1;
    int c0, c1;
    bool u0, u1;
    double a = range_share(e->args[0], in, &s0, &c0, &u0),
           b = range_share(e->args[1], in, &s1, &c1, &u1);
    if (a >= 0 && b >= 0 && s0 == s1 && c0 == c1 && u0 != u1) {
      double x = a + b - 1; /* lo <= col AND col < hi */
      return x > 0.001 ? x : 0.001;
    }
    return selectivity(e->args[0], in) * selectivity(e->args[1], in);
  }
  case CHV_EXPR_OR: {
    double a = selectivity(e->args[0], in), b = selectivity(e->args[1], in);
    return a + b - a * b;
  }
  case CHV_EXPR_CALL:
    if (e->fn == CHV_FN_EQ || e->fn == CHV_FN_NSEQ || e->fn == CHV_FN_NE) {
      double d = 0;
      for (int i = 0; i < 2 && !d; i++)
        if (e->args[1 - i]->kind == CHV_EXPR_LITERAL) d = known_ndv(in, e->args[i]);
      double eq = d ? 1 / d : 0.1;
      return e->fn == CHV_FN_NE ? 1 - eq : eq;
    }
    {
      const struct sql_node *sn;
      int c;
      bool up;
      double x = range_share(e, in, &sn, &c, &up);
      if (x >= 0) return x > 0.001 ? x : 0.001;
    }
    return 0.33;
  case CHV_EXPR_IN: {
    double d = known_ndv(in, e->args[0]), k = e->nargs - 1;
    double x = d ? (k < d ? k / d : 1) : 0.05 * k;
    if (x > 1) x = 1;
    return e->negated ? (d ? 1 - x : 0.8) : x;
  }
  case CHV_EXPR_BETWEEN: return e->negated ? 0.75 : 0.25;
  case CHV_EXPR_LIKE: return e->negated ? 0.9 : 0.25;
  case CHV_EXPR_IS_NULL: return 0.1;
  case CHV_EXPR_IS_NOT_NULL: return 0.9;
  case CHV_EXPR_NOT: return 1 - selectivity(e->args[0], in);
  case CHV_EXPR_LITERAL:
    return !e->value.is_null && e->value.b ? 1 : 0;
  default: return 0.5;
  }
}

static double clamp1(double x) { return x < 1 ? 1 : x; }

/* How many distinct values column c of nd has.  *known: as the column
** statistics of the table it comes from say (bounded by nd's rows); else
** at most nd's rows and the rows of the relation the column comes from
** (a table's, an Aggregate's for a key). */
static double col_ndv(const struct sql_node *nd, int c, bool *known) {
  double n = sql_node_estimate(nd), up = n;
  *known = false;
  switch (nd->kind) {
  case SQL_NODE_SCAN:
    if (nd->u.scan.est_ndv && nd->u.scan.est_ndv[c] > 0)
      up = nd->u.scan.est_ndv[c], *known = true;
    break;
  case SQL_NODE_FILTER:
  case SQL_NODE_LIMIT:
  case SQL_NODE_TOPN:
  case SQL_NODE_SORT:
    up = col_ndv(nd->in[0], c, known);
    break;
  case SQL_NODE_PROJECT:
    if (nd->u.project.exprs[c]->kind == CHV_EXPR_COLUMN)
      up = col_ndv(nd->in[0], nd->u.project.exprs[c]->column, known);
    break;
  case SQL_NODE_DERIVED:
    up = col_ndv(nd->in[0], nd->u.derived.map ? nd->u.derived.map[c] : c,
                 known);
    break;
  case SQL_NODE_AGGREGATE:
    if (c < nd->u.agg.nkeys && nd->u.agg.keys[c]->kind == CHV_EXPR_COLUMN &&
        nd->in[0]->kind != SQL_NODE_EXPAND)
      up = col_ndv(nd->in[0], nd->u.agg.keys[c]->column, known);
    break;
  case SQL_NODE_JOIN: {
    int nl = nd->in[0]->ncols;
    if (c < nl)
      up = col_ndv(nd->in[0], c, known);
    else if (nd->u.join.kind != CHV_SQL_JOIN_SEMI &&
             nd->u.join.kind != CHV_SQL_JOIN_ANTI &&
             nd->u.join.kind != CHV_SQL_JOIN_NOT_IN)
      up = col_ndv(nd->in[1], c - nl, known);
    break;
  }
  default:
    break;
  }
  return up < n ? up : n;
}

/* The distinct count of a join's key k on side s (0 left, 1 right) of
** rows, as col_ndv() tells it: an expression's is unknown. */
static double key_ndv(const struct sql_node *nd, int k, int s, double rows,
                      bool *known) {
  const struct chv_expr *e = s ? nd->u.join.rkeys[k] : nd->u.join.lkeys[k];
  *known = false;
  return e->kind == CHV_EXPR_COLUMN ? col_ndv(nd->in[s], e->column, known)
                                    : rows;
}

/* The rows of an inner join with keys: l * r over the distinct count of
** its most selective key, each side's rows spread over its keys evenly.
** That count is the larger of the two sides' where the column statistics
** give them; without, the smaller of their bounds (a key's values on the
** smaller side are taken to be among the larger's, as a foreign key's
** among its table's). */
static double keyed_rows(const struct sql_node *nd, double l, double r) {
  double d = 1;
  for (int k = 0; k < nd->u.join.nkeys; k++) {
    bool ka, kb;
    double da = key_ndv(nd, k, 0, l, &ka), db = key_ndv(nd, k, 1, r, &kb);
    double m = ka && kb ? (da > db ? da : db)
               : ka     ? da
               : kb     ? db
                        : (da < db ? da : db);
    if (m > d) d = m;
  }
  return l * r / d;
}

/* The rows of a semi join: the left's share whose key values the right
** has, where the statistics give both sides' distinct counts; else half. */
static double semi_rows(const struct sql_node *nd, double l, double r) {
  double f = 0.5;
  for (int k = 0; k < nd->u.join.nkeys; k++) {
    bool ka, kb;
    double da = key_ndv(nd, k, 0, l, &ka), db = key_ndv(nd, k, 1, r, &kb);
    if (ka && kb && db / da < f) f = db / da;
  }
  return l * f;
}

double sql_node_estimate(const struct sql_node *nd) {
  switch (nd->kind) {
  case SQL_NODE_SCAN: {
    /* (the readers' predicates are a Filter's too: counted there) */
    double r = nd->u.scan.est_rows > 0 ? nd->u.scan.est_rows : 1e6;
    if (nd->u.scan.sample.kind == CHV_SAMPLE_PERCENT)
      r *= nd->u.scan.sample.percent / 100;
    if (nd->u.scan.limit >= 0 && r > (double)nd->u.scan.limit)
      r = (double)nd->u.scan.limit;
    return clamp1(r);
  }
  case SQL_NODE_VALUES: return clamp1((double)nd->u.values.nrows);
  case SQL_NODE_FILTER:
    return clamp1(sql_node_estimate(nd->in[0]) *
                  selectivity(nd->u.filter.pred, nd->in[0]));
  case SQL_NODE_AGGREGATE: {
    if (!nd->u.agg.nkeys) return 1;
    /* the product of the keys' distinct counts where the statistics give
    ** them all; else each key halves the rows left to group (1 key: a
    ** half of the input, 2 keys: three quarters, ...) */
    double r = sql_node_estimate(nd->in[0]), f = 1, p = 1;
    bool all = nd->in[0]->kind != SQL_NODE_EXPAND;
    for (int k = 0; k < nd->u.agg.nkeys; k++) {
      bool known = false;
      if (all && nd->u.agg.keys[k]->kind == CHV_EXPR_COLUMN)
        p *= col_ndv(nd->in[0], nd->u.agg.keys[k]->column, &known);
      all &= known;
      f *= 0.5;
    }
    return clamp1(all && p < r ? p : r * (1 - f));
  }
  case SQL_NODE_TOPN:
    return clamp1((double)nd->u.sort.limit);
  case SQL_NODE_LIMIT: {
    double r = sql_node_estimate(nd->in[0]);
    return nd->u.limit.n >= 0 && r > (double)nd->u.limit.n
               ? clamp1((double)nd->u.limit.n) : r;
  }
  case SQL_NODE_UNION: {
    double r = 0;
    for (int i = 0; i < nd->nin; i++) r += sql_node_estimate(nd->in[i]);
    return clamp1(r);
  }
  case SQL_NODE_JOIN: {
    double l = sql_node_estimate(nd->in[0]), r = sql_node_estimate(nd->in[1]);
    double x;
    switch (nd->u.join.kind) {
    case CHV_SQL_JOIN_SEMI:
      x = nd->u.join.nkeys ? semi_rows(nd, l, r) : l * 0.5;
      break;
    case CHV_SQL_JOIN_ANTI:
    case CHV_SQL_JOIN_NOT_IN: x = l * 0.5; break;
    case CHV_SQL_JOIN_LEFT:
      x = nd->u.join.nkeys ? keyed_rows(nd, l, r) : l > r ? l : r;
      if (x < l) x = l;
      break;
    case CHV_SQL_JOIN_RIGHT:
      x = nd->u.join.nkeys ? keyed_rows(nd, l, r) : l > r ? l : r;
      if (x < r) x = r;
      break;
    case CHV_SQL_JOIN_FULL: x = l + r; break;
    default:
      if (nd->u.join.nkeys) {
        x = keyed_rows(nd, l, r);
      } else {
        x = l * r;
        for (int i = 0; i < nd->u.join.nconj; i++)
          x *= selectivity(nd->u.join.conj[i].bound, NULL);
      }
    }
    if (nd->u.join.cond) x *= selectivity(nd->u.join.cond, NULL);
    return clamp1(x);
  }
  default:
    return nd->nin ? sql_node_estimate(nd->in[0]) : 1;
  }
}

/* ---- conditions ------------------------------------------------------------------ */

/* Which of the inputs a condition over left (nl columns) ++ right reads:
** bit 1 the left, bit 2 the right. */
static int sides(const struct chv_expr *e, int nl, int ncols, bool *scratch) {
  memset(scratch, 0, (size_t)ncols + 1);
  sql_expr_columns(e, scratch);
  int s = 0;
  for (int c = 0; c < ncols; c++)
    if (scratch[c]) s |= c < nl ? 1 : 2;
  return s;
}

/* cond's AST AND-ed (for the scans' pushdown) in a: l AND r. */
static struct chv_sql_expr *ast_and(chv_arena *a, const struct chv_sql_expr *l,
                                    const struct chv_sql_expr *r) {
  struct chv_sql_expr *e = chv_arena_alloc(a, sizeof *e);
  if (!e) return NULL;
  memset(e, 0, sizeof *e);
  e->kind = CHV_SQL_EXPR_BINARY;
  e->pos = l->pos;
  e->u.binary.op = CHV_SQL_OP_AND;
  e->u.binary.left = (struct chv_sql_expr *)(uintptr_t)l;
  e->u.binary.right = (struct chv_sql_expr *)(uintptr_t)r;
  return e;
}

/* Makes nd (a Filter) the conditions v[0, n): its predicate, its WHERE as
** the scans' pushdown reads it and its text. */
static int filter_set(struct sql_rewrite *rw, struct sql_node *nd,
                      const struct sql_conj *v, size_t n) {
  chv_arena *a = rw->a;
  const struct chv_sql_expr **conj = chv_arena_alloc(a, sizeof *conj * (n + 1));
  struct chv_expr **bound = chv_arena_alloc(a, sizeof *bound * (n + 1));
  if (!conj || !bound) return oom(rw);
  struct chv_expr *pred = NULL;
  const struct chv_sql_expr *where = NULL;
  struct chv_buf t;
  chv_buf_init(&t);
  for (size_t i = 0; i < n; i++) {
    conj[i] = v[i].ast;
    bound[i] = v[i].bound;
    if (pred && chv_expr_and(a, pred, v[i].bound, &pred, rw->err) != CHV_OK) {
      chv_buf_free(&t);
      return CHV_ENOMEM;
    }
    if (!pred) pred = v[i].bound;
    where = where ? ast_and(a, where, v[i].ast) : v[i].ast;
    if (!where) {
      chv_buf_free(&t);
      return oom(rw);
    }
    if (i) chv_buf_puts(&t, " AND ");
    sql_expr_text_qualified(v[i].ast, &t);
  }
  char *text = chv_arena_alloc(a, t.len + 1);
  if (!text) {
    chv_buf_free(&t);
    return oom(rw);
  }
  memcpy(text, t.data ? t.data : "", t.len + 1);
  chv_buf_free(&t);
  nd->u.filter.pred = pred;
  nd->u.filter.where = where;
  nd->u.filter.conj = conj;
  nd->u.filter.bound = bound;
  nd->u.filter.nconj = n;
  nd->text = text;
  return CHV_OK;
}

/* The conditions of a Filter that came from a WHERE, as a list. */
static int filter_conj(struct sql_rewrite *rw, const struct sql_node *nd,
                       struct sql_conj **out, size_t *n) {
  *n = nd->u.filter.nconj;
  *out = chv_arena_alloc(rw->a, sizeof **out * (*n + 1));
  if (!*out) return oom(rw);
  for (size_t i = 0; i < *n; i++)
    (*out)[i] = (struct sql_conj){nd->u.filter.conj[i], nd->u.filter.bound[i]};
  return CHV_OK;
}

/* Adds condition c (over (*slot)'s columns) to the node at slot: to a
** join's ON list, to a Filter of a WHERE's conditions, else in a new
** Filter over it. */
static int add_cond(struct sql_rewrite *rw, struct sql_node **slot,
                    struct sql_conj c) {
  struct sql_node *nd = *slot;
  if (nd->kind == SQL_NODE_JOIN &&
      (nd->u.join.kind == CHV_SQL_JOIN_INNER ||
       nd->u.join.kind == CHV_SQL_JOIN_CROSS)) {
    struct sql_conj *v =
        chv_arena_alloc(rw->a, sizeof *v * (size_t)(nd->u.join.nconj + 1));
    if (!v) return oom(rw);
    if (nd->u.join.nconj)
      memcpy(v, nd->u.join.conj, sizeof *v * (size_t)nd->u.join.nconj);
    v[nd->u.join.nconj] = c;
    nd->u.join.conj = v;
    nd->u.join.nconj++;
    return CHV_OK;
  }
  if (nd->kind == SQL_NODE_FILTER && nd->u.filter.where) {
    struct sql_conj *v;
    size_t n;
    CHV_RETURN_IF_ERR(filter_conj(rw, nd, &v, &n));
    struct sql_conj *w = chv_arena_alloc(rw->a, sizeof *w * (n + 2));
    if (!w) return oom(rw);
    memcpy(w, v, sizeof *w * n);
    w[n] = c;
    return filter_set(rw, nd, w, n + 1);
  }
  struct sql_node *f;
  CHV_RETURN_IF_ERR(sql_node_new(rw->a, SQL_NODE_FILTER, &nd, 1, &f, rw->err));
  CHV_RETURN_IF_ERR(sql_node_pass_cols(rw->a, f, rw->err));
  f->pos = c.ast->pos;
  CHV_RETURN_IF_ERR(filter_set(rw, f, &c, 1));
  *slot = f;
  return CHV_OK;
}

/* c (over the left's then the right's columns of join nd) moved into input
** i, its columns renumbered. */
static int cond_into(struct sql_rewrite *rw, struct sql_node *nd, int i,
                     struct sql_conj c) {
  int nl = nd->in[0]->ncols, n = nl + nd->in[1]->ncols;
  int *map = chv_arena_alloc(rw->a, sizeof *map * (size_t)(n + 1));
  if (!map) return oom(rw);
  for (int k = 0; k < n; k++) map[k] = i ? k - nl : k;
  struct sql_conj m = {c.ast, NULL};
  CHV_RETURN_IF_ERR(sql_expr_remap(rw->a, c.bound, map, &m.bound, rw->err));
  return add_cond(rw, &nd->in[i], m);
}

/* ---- push ------------------------------------------------------------------------ */

/* A Project whose every column is a column of its input: *map[c] is it. */
static bool column_project(const struct sql_node *nd) {
  if (nd->kind != SQL_NODE_PROJECT) return false;
  for (int c = 0; c < nd->ncols; c++)
    if (nd->u.project.exprs[c]->kind != CHV_EXPR_COLUMN) return false;
  return true;
}

/* The conditions of the WHERE Filter at slot over [a column Project over]
** a join that may go into the join: all of them over an inner join, those
** of the side an outer join keeps whole, none over a FULL join. */
static int push_where(struct sql_rewrite *rw, struct sql_node **slot) {
  struct sql_node *f = *slot, *p = f->in[0], *j = p;
  if (column_project(p)) j = p->in[0];
  if (j->kind != SQL_NODE_JOIN) return CHV_OK;
  int nl = j->in[0]->ncols, n = nl + j->in[1]->ncols;
  int *map = chv_arena_alloc(rw->a, sizeof *map * (size_t)(f->ncols + 1));
  bool *scratch = chv_arena_alloc(rw->a, (size_t)n + 1);
  if (!map || !scratch) return oom(rw);
  for (int c = 0; c < f->ncols; c++)
    map[c] = p == j ? c : p->u.project.exprs[c]->column;
  struct sql_conj *v, *kept;
  size_t nv, nkept = 0;
  CHV_RETURN_IF_ERR(filter_conj(rw, f, &v, &nv));
  kept = chv_arena_alloc(rw->a, sizeof *kept * (nv + 1));
  if (!kept) return oom(rw);
  enum chv_sql_join_kind k = j->u.join.kind;
  for (size_t i = 0; i < nv; i++) {
    struct sql_conj c = {v[i].ast, NULL};
    CHV_RETURN_IF_ERR(sql_expr_remap(rw->a, v[i].bound, map, &c.bound, rw->err));
    int s = sides(c.bound, nl, n, scratch);
    if (k == CHV_SQL_JOIN_INNER || k == CHV_SQL_JOIN_CROSS) {
      CHV_RETURN_IF_ERR(add_cond(rw, &(struct sql_node *){j}, c));
      continue;
    }
    if (s && (s == 1 && (k == CHV_SQL_JOIN_LEFT || k == CHV_SQL_JOIN_SEMI ||
                         k == CHV_SQL_JOIN_ANTI || k == CHV_SQL_JOIN_NOT_IN))) {
      CHV_RETURN_IF_ERR(cond_into(rw, j, 0, c));
      continue;
    }
    if (s == 2 && k == CHV_SQL_JOIN_RIGHT) {
      CHV_RETURN_IF_ERR(cond_into(rw, j, 1, c));
      continue;
    }
    kept[nkept++] = v[i];
  }
  if (!nkept) {
    *slot = p;
    return CHV_OK;
  }
  return filter_set(rw, f, kept, nkept);
}

/* ---- OR: what every branch has ----------------------------------------------- */

/* The AND-ed (or, with or, OR-ed) parts of c, the parsed and the bound
** trees walked together (the binder makes one of the other), into v. */
static int split_tree(struct sql_rewrite *rw, struct sql_conj c, bool or,
                      struct sql_conj **v, int *n, int *cap) {
  const struct chv_sql_expr *a = c.ast;
  enum chv_sql_op op = or ? CHV_SQL_OP_OR : CHV_SQL_OP_AND;
  enum chv_expr_kind k = or ? CHV_EXPR_OR : CHV_EXPR_AND;
  if (a->kind == CHV_SQL_EXPR_BINARY && a->u.binary.op == op &&
      c.bound->kind == k && c.bound->nargs == 2) {
    CHV_RETURN_IF_ERR(split_tree(
        rw, (struct sql_conj){a->u.binary.left, c.bound->args[0]}, or, v, n, cap));
    return split_tree(rw, (struct sql_conj){a->u.binary.right, c.bound->args[1]},
                      or, v, n, cap);
  }
  if (*n == *cap) {
    int nc = *cap ? *cap * 2 : 8;
    struct sql_conj *w = chv_arena_alloc(rw->a, sizeof *w * (size_t)nc);
    if (!w) return oom(rw);
    if (*n) memcpy(w, *v, sizeof *w * (size_t)*n);
    *v = w;
    *cap = nc;
  }
  (*v)[(*n)++] = c;
  return CHV_OK;
}

static struct chv_sql_expr *ast_or(chv_arena *a, const struct chv_sql_expr *l,
                                   const struct chv_sql_expr *r) {
  struct chv_sql_expr *e = ast_and(a, l, r);
  if (e) e->u.binary.op = CHV_SQL_OP_OR;
  return e;
}

/* c1 AND c2 (or OR), both trees. */
static int conj_join(struct sql_rewrite *rw, struct sql_conj *acc,
                     struct sql_conj c, bool or) {
  if (!acc->ast) {
    *acc = c;
    return CHV_OK;
  }
  const struct chv_sql_expr *e = or ? ast_or(rw->a, acc->ast, c.ast)
                                    : ast_and(rw->a, acc->ast, c.ast);
  if (!e) return oom(rw);
  int rc = or ? chv_expr_or(rw->a, acc->bound, c.bound, &acc->bound, rw->err)
              : chv_expr_and(rw->a, acc->bound, c.bound, &acc->bound, rw->err);
  acc->ast = e;
  return rc;
}

/* Each OR among the join's conditions: the conditions every branch has
** AND-ed become conditions of their own ((a AND x) OR (a AND y): a AND (x
** OR y)), so that an equality of the two sides is a key; and for each side,
** when every branch has conditions of that side alone, their OR is added
** too (implied: the side's rows that can match), so that it filters that
** side before the join.  The OR itself stays. */
static int factor_ors(struct sql_rewrite *rw, struct sql_node *j, int nl,
                      int n, bool *scratch) {
  struct sql_conj *out = NULL;
  int nout = 0, capout = 0;
  bool changed = false;
  for (int i = 0; i < j->u.join.nconj; i++) {
    struct sql_conj c = j->u.join.conj[i];
    struct sql_conj *br = NULL;
    int nbr = 0, capbr = 0;
    CHV_RETURN_IF_ERR(split_tree(rw, c, true, &br, &nbr, &capbr));
    if (nbr < 2 || nbr > 64) {
      CHV_RETURN_IF_ERR(split_tree(rw, c, false, &out, &nout, &capout));
      continue;
    }
    struct sql_conj *parts[64];
    int np[64], capp[64];
    for (int b = 0; b < nbr; b++) {
      parts[b] = NULL;
      np[b] = capp[b] = 0;
      CHV_RETURN_IF_ERR(split_tree(rw, br[b], false, &parts[b], &np[b], &capp[b]));
    }
    /* the common conditions: in every branch */
    bool *common = chv_arena_alloc(rw->a, (size_t)np[0] + 1);
    if (!common) return oom(rw);
    int ncommon = 0;
    for (int x = 0; x < np[0]; x++) {
      common[x] = true;
      for (int b = 1; b < nbr && common[x]; b++) {
        bool in = false;
        for (int y = 0; y < np[b] && !in; y++)
          in = chv_expr_same(parts[0][x].bound, parts[b][y].bound);
        common[x] = in;
      }
      if (common[x]) {
        ncommon++;
        CHV_RETURN_IF_ERR(split_tree(rw, parts[0][x], false, &out, &nout, &capout));
      }
    }
    /* what is left of each branch, and of each branch per side */
    struct sql_conj rest = {0}, side[2] = {{0}, {0}};
    bool all[2] = {true, true}, empty = false;
    for (int b = 0; b < nbr; b++) {
      struct sql_conj br_rest = {0}, br_side[2] = {{0}, {0}};
      for (int y = 0; y < np[b]; y++) {
        bool is_common = false;
        for (int x = 0; x < np[0] && !is_common; x++)
          is_common = common[x] && chv_expr_same(parts[0][x].bound, parts[b][y].bound);
        if (is_common) continue;
        CHV_RETURN_IF_ERR(conj_join(rw, &br_rest, parts[b][y], false));
        int sd = sides(parts[b][y].bound, nl, n, scratch);
        if (sd == 1 || sd == 2)
          CHV_RETURN_IF_ERR(conj_join(rw, &br_side[sd - 1], parts[b][y], false));
      }
      if (!br_rest.ast) empty = true; /* that branch is all common: TRUE */
      for (int sd = 0; sd < 2; sd++) {
        if (!br_side[sd].ast) all[sd] = false;
        else if (all[sd])
          CHV_RETURN_IF_ERR(conj_join(rw, &side[sd], br_side[sd], true));
      }
      if (br_rest.ast) CHV_RETURN_IF_ERR(conj_join(rw, &rest, br_rest, true));
    }
    if (!ncommon && !all[0] && !all[1]) {
      CHV_RETURN_IF_ERR(split_tree(rw, c, false, &out, &nout, &capout));
      continue;
    }
    changed = true;
    if (!empty) {
      CHV_RETURN_IF_ERR(split_tree(rw, rest, false, &out, &nout, &capout));
      for (int sd = 0; sd < 2; sd++)
        if (all[sd] && side[sd].ast && !chv_expr_same(side[sd].bound, rest.bound))
          CHV_RETURN_IF_ERR(split_tree(rw, side[sd], false, &out, &nout, &capout));
    }
  }
  if (changed) {
    j->u.join.conj = out;
    j->u.join.nconj = nout;
  }
  return CHV_OK;
}

/* Moves a join's conditions of one input into that input where that keeps
** their meaning; the rest stay. */
static int push_on(struct sql_rewrite *rw, struct sql_node *j) {
  int nl = j->in[0]->ncols, n = nl + j->in[1]->ncols;
  bool *scratch = chv_arena_alloc(rw->a, (size_t)n + 1);
  if (!scratch) return oom(rw);
  enum chv_sql_join_kind k = j->u.join.kind;
  /* the inputs a condition of one side may go into */
  bool into_l = k == CHV_SQL_JOIN_INNER || k == CHV_SQL_JOIN_CROSS ||
                k == CHV_SQL_JOIN_RIGHT || k == CHV_SQL_JOIN_SEMI;
  bool into_r = k == CHV_SQL_JOIN_INNER || k == CHV_SQL_JOIN_CROSS ||
                k == CHV_SQL_JOIN_LEFT || k == CHV_SQL_JOIN_SEMI ||
                k == CHV_SQL_JOIN_ANTI || k == CHV_SQL_JOIN_NOT_IN;
  CHV_RETURN_IF_ERR(factor_ors(rw, j, nl, n, scratch));
  struct sql_conj *v = j->u.join.conj;
  int nv = j->u.join.nconj, nkept = 0;
  j->u.join.conj = NULL;
  j->u.join.nconj = 0;
  struct sql_conj *kept = chv_arena_alloc(rw->a, sizeof *kept * (size_t)(nv + 1));
  if (!kept) return oom(rw);
  for (int i = 0; i < nv; i++) {
    int s = sides(v[i].bound, nl, n, scratch);
    if (s == 1 && into_l)
      CHV_RETURN_IF_ERR(cond_into(rw, j, 0, v[i]));
    else if (s == 2 && into_r)
      CHV_RETURN_IF_ERR(cond_into(rw, j, 1, v[i]));
    else
      kept[nkept++] = v[i];
  }
  /* what went into an inner join below counts there; these stay here */
  struct sql_conj *w = chv_arena_alloc(
      rw->a, sizeof *w * (size_t)(nkept + j->u.join.nconj + 1));
  if (!w) return oom(rw);
  if (j->u.join.nconj)
    memcpy(w, j->u.join.conj, sizeof *w * (size_t)j->u.join.nconj);
  if (nkept) memcpy(w + j->u.join.nconj, kept, sizeof *w * (size_t)nkept);
  j->u.join.conj = w;
  j->u.join.nconj += nkept;
  return CHV_OK;
}

static int push(struct sql_rewrite *rw, struct sql_node **slot) {
  struct sql_node *nd = *slot;
  if (nd->kind == SQL_NODE_FILTER && nd->u.filter.where) {
    CHV_RETURN_IF_ERR(push_where(rw, slot));
    nd = *slot;
  }
  if (nd->kind == SQL_NODE_JOIN) CHV_RETURN_IF_ERR(push_on(rw, nd));
  for (int i = 0; i < nd->nin; i++) CHV_RETURN_IF_ERR(push(rw, &nd->in[i]));
  return CHV_OK;
}

int sql_rewrite_join_push(struct sql_rewrite *rw, struct sql_node **root) {
  return push(rw, root);
}

/* ---- order ----------------------------------------------------------------------- */

enum { MAXREL = 64 };

/* A group of inner and cross joins: its relations (the inputs that are not
** such joins) and its conditions over the group's columns (the relations'
** in order). */
struct group {
  struct sql_node *rel[MAXREL];
  int off[MAXREL];
  int nrel;
  struct sql_conj *conj;
  uint64_t *mask;
  int nconj, cap;
  int ncols;
};

static bool inner(const struct sql_node *nd) {
  return nd->kind == SQL_NODE_JOIN && (nd->u.join.kind == CHV_SQL_JOIN_INNER ||
                                       nd->u.join.kind == CHV_SQL_JOIN_CROSS);
}

static int collect(struct sql_rewrite *rw, struct group *g, struct sql_node *nd,
                   int base) {
  for (int i = 0; i < 2; i++) {
    struct sql_node *in = nd->in[i];
    int b = base + (i ? nd->in[0]->ncols : 0);
    if (inner(in) && g->nrel + 2 <= MAXREL) {
      CHV_RETURN_IF_ERR(collect(rw, g, in, b));
    } else {
      if (g->nrel == MAXREL)
        return chv_error_set(rw->err, CHV_ENOTSUP,
                             "a join of more than %d relations", MAXREL);
      g->off[g->nrel] = b;
      g->rel[g->nrel++] = in;
    }
  }
  int n = nd->ncols;
  int *map = chv_arena_alloc(rw->a, sizeof *map * (size_t)(n + 1));
  if (!map) return oom(rw);
  for (int k = 0; k < n; k++) map[k] = base + k;
  for (int i = 0; i < nd->u.join.nconj; i++) {
    if (g->nconj == g->cap) {
      int nc = g->cap ? g->cap * 2 : 16;
      struct sql_conj *v = chv_arena_alloc(rw->a, sizeof *v * (size_t)nc);
      if (!v) return oom(rw);
      if (g->nconj) memcpy(v, g->conj, sizeof *v * (size_t)g->nconj);
      g->conj = v;
      g->cap = nc;
    }
    struct sql_conj c = {nd->u.join.conj[i].ast, NULL};
    CHV_RETURN_IF_ERR(sql_expr_remap(rw->a, nd->u.join.conj[i].bound, map,
                                     &c.bound, rw->err));
    g->conj[g->nconj++] = c;
  }
  return CHV_OK;
}

/* The relations a condition over the group's columns reads. */
static uint64_t rel_mask(const struct group *g, const struct chv_expr *e,
                         bool *scratch) {
  memset(scratch, 0, (size_t)g->ncols + 1);
  sql_expr_columns(e, scratch);
  uint64_t m = 0;
  for (int r = 0; r < g->nrel; r++)
    for (int c = 0; c < g->rel[r]->ncols; c++)
      if (scratch[g->off[r] + c]) m |= 1ull << r;
  return m;
}

/* An equality with one side over the relations of a and the other over
** those of b (masks). */
static bool connects(const struct group *g, const struct chv_expr *e,
                     uint64_t a, uint64_t b, bool *scratch) {
  if (e->kind != CHV_EXPR_CALL || (e->fn != CHV_FN_EQ && e->fn != CHV_FN_NSEQ))
    return false;
  uint64_t l = rel_mask(g, e->args[0], scratch);
  uint64_t r = rel_mask(g, e->args[1], scratch);
  if (!l || !r) return false;
  return ((l & ~a) == 0 && (r & ~b) == 0) || ((l & ~b) == 0 && (r & ~a) == 0);
}

/* The relation of the group's column c, and its column there. */
static int rel_of(const struct group *g, int c, int *col) {
  for (int r = 0; r < g->nrel; r++)
    if (c >= g->off[r] && c < g->off[r] + g->rel[r]->ncols)
      return *col = c - g->off[r], r;
  return -1;
}

/* The rows of joining a set of relations (mask a, ra rows) to another (b,
** rb rows) by the equalities of columns between them, estimated as
** keyed_rows() does, each side's distinct count at most its rows; the rows
** of a cross product without one. */
static double pair_rows(const struct group *g, uint64_t a, double ra,
                        uint64_t b, double rb) {
  double d = 1;
  for (int i = 0; i < g->nconj; i++) {
    const struct chv_expr *e = g->conj[i].bound;
    uint64_t m = g->mask[i];
    if (!(m & a) || !(m & b) || (m & ~(a | b)) || e->kind != CHV_EXPR_CALL ||
        (e->fn != CHV_FN_EQ && e->fn != CHV_FN_NSEQ) ||
        e->args[0]->kind != CHV_EXPR_COLUMN || e->args[1]->kind != CHV_EXPR_COLUMN)
      continue;
    int ca = 0, cb = 0, xa = rel_of(g, e->args[0]->column, &ca),
                xb = rel_of(g, e->args[1]->column, &cb);
    if (xa < 0 || xb < 0) continue;
    if (!(a & (1ull << xa))) {
      int t = xa;
      xa = xb, xb = t, t = ca, ca = cb, cb = t;
    }
    if (!(a & (1ull << xa)) || !(b & (1ull << xb))) continue;
    bool ka, kb;
    double da = col_ndv(g->rel[xa], ca, &ka), db = col_ndv(g->rel[xb], cb, &kb);
    if (da > ra) da = ra;
    if (db > rb) db = rb;
    double x = ka && kb ? (da > db ? da : db)
               : ka     ? da
               : kb     ? db
                        : (da < db ? da : db);
    if (x > d) d = x;
  }
  return ra * rb / d;
}

/* A part of a group joined so far: its node, the relations it joins, its
** estimated rows and where each group column is in its output (-1: not
** there). */
struct part {
  struct sql_node *nd;
  uint64_t mask;
  double rows;
  int *pos;
};

/* The group under the inner join at slot, joined again in the order the
** estimates choose. */
static int reorder(struct sql_rewrite *rw, struct sql_node **slot) {
  struct sql_node *top = *slot;
  struct group *g = calloc(1, sizeof *g);
  if (!g) return oom(rw);
  int rc = collect(rw, g, top, 0);
  g->ncols = top->ncols;
  bool *scratch = chv_arena_alloc(rw->a, (size_t)g->ncols + 1);
  g->mask = chv_arena_alloc(rw->a, sizeof *g->mask * (size_t)(g->nconj + 1));
  if (rc == CHV_OK && (!scratch || !g->mask)) rc = oom(rw);
  if (rc != CHV_OK) goto out;
  for (int i = 0; i < g->nconj; i++)
    g->mask[i] = rel_mask(g, g->conj[i].bound, scratch);
  /* Greedy: the two parts an equality connects whose join is estimated
  ** to give the fewest rows join (the larger on the left), until one is
  ** left; parts no equality connects, the two smallest, by a cross
  ** product.  Each join takes the conditions over its relations. */
  struct part parts[MAXREL];
  int np = g->nrel;
  bool *used = chv_arena_alloc(rw->a, (size_t)g->nconj + 1);
  if (!used) {
    rc = oom(rw);
    goto out;
  }
  memset(used, 0, (size_t)g->nconj + 1);
  for (int r = 0; r < g->nrel; r++) {
    int *pos = chv_arena_alloc(rw->a, sizeof *pos * (size_t)(g->ncols + 1));
    if (!pos) {
      rc = oom(rw);
      goto out;
    }
    for (int c = 0; c < g->ncols; c++) pos[c] = -1;
    for (int c = 0; c < g->rel[r]->ncols; c++) pos[g->off[r] + c] = c;
    parts[r] = (struct part){g->rel[r], 1ull << r, sql_node_estimate(g->rel[r]), pos};
  }
  while (np > 1) {
    int bi = -1, bj = -1;
    double best = 0;
    for (int x = 0; x < np; x++)
      for (int y = x + 1; y < np; y++) {
        bool conn = false;
        for (int i = 0; i < g->nconj && !conn; i++)
          conn = (g->mask[i] & parts[x].mask) && (g->mask[i] & parts[y].mask) &&
                 connects(g, g->conj[i].bound, parts[x].mask, parts[y].mask, scratch);
        if (!conn) continue;
        double e = pair_rows(g, parts[x].mask, parts[x].rows, parts[y].mask,
                             parts[y].rows);
        if (bi < 0 || e < best * 0.999) bi = x, bj = y, best = e;
      }
    if (bi < 0) { /* nothing connects: the two smallest */
      for (int x = 0; x < np; x++)
        if (bi < 0 || parts[x].rows < parts[bi].rows) bi = x;
      for (int x = 0; x < np; x++)
        if (x != bi && (bj < 0 || parts[x].rows < parts[bj].rows)) bj = x;
      best = parts[bi].rows * parts[bj].rows;
      if (bj < bi) {
        int t = bi;
        bi = bj, bj = t;
      }
    }
    struct part *a = &parts[bi], *b = &parts[bj];
    if (b->rows > a->rows) { /* the larger probes, on the left */
      struct part t = *a;
      *a = *b;
      *b = t;
    }
    struct sql_node *in[2] = {a->nd, b->nd}, *jn;
    if ((rc = sql_node_new(rw->a, SQL_NODE_JOIN, in, 2, &jn, rw->err)) != CHV_OK)
      goto out;
    int nl = a->nd->ncols;
    if ((rc = sql_node_cols(rw->a, jn, nl + b->nd->ncols, rw->err)) != CHV_OK)
      goto out;
    memcpy(jn->cols, a->nd->cols, sizeof *jn->cols * (size_t)nl);
    memcpy(jn->cols + nl, b->nd->cols, sizeof *jn->cols * (size_t)b->nd->ncols);
    for (int c = 0; c < g->ncols; c++)
      if (a->pos[c] < 0 && b->pos[c] >= 0) a->pos[c] = b->pos[c] + nl;
    uint64_t joined = a->mask | b->mask;
    jn->u.join.kind = CHV_SQL_JOIN_CROSS;
    jn->u.join.ordered = true;
    jn->pos = top->pos;
    int m = 0;
    for (int i = 0; i < g->nconj; i++) m += !used[i] && !(g->mask[i] & ~joined);
    jn->u.join.conj = chv_arena_alloc(rw->a, sizeof *jn->u.join.conj * (size_t)(m + 1));
    if (!jn->u.join.conj) {
      rc = oom(rw);
      goto out;
    }
    for (int i = 0; i < g->nconj; i++) {
      if (used[i] || (g->mask[i] & ~joined)) continue;
      used[i] = true;
      struct sql_conj c = {g->conj[i].ast, NULL};
      if ((rc = sql_expr_remap(rw->a, g->conj[i].bound, a->pos, &c.bound,
                               rw->err)) != CHV_OK)
        goto out;
      jn->u.join.conj[jn->u.join.nconj++] = c;
    }
    a->nd = jn;
    a->mask = joined;
    a->rows = best < 1 ? 1 : best;
    /* the merged part at the lower index, the last moved into the hole */
    int keep = bi < bj ? bi : bj, drop = bi < bj ? bj : bi;
    struct part merged = *a;
    parts[keep] = merged;
    parts[drop] = parts[np - 1];
    np--;
  }
  struct sql_node *cur = parts[0].nd;
  int *pos = parts[0].pos;
  /* the group's columns in their order again */
  struct sql_node *p;
  if ((rc = sql_node_new(rw->a, SQL_NODE_PROJECT, &cur, 1, &p, rw->err)) != CHV_OK)
    goto out;
  if ((rc = sql_node_cols(rw->a, p, g->ncols, rw->err)) != CHV_OK) goto out;
  p->u.project.exprs =
      chv_arena_alloc(rw->a, sizeof *p->u.project.exprs * (size_t)(g->ncols + 1));
  if (!p->u.project.exprs) {
    rc = oom(rw);
    goto out;
  }
  struct chv_buf t;
  chv_buf_init(&t);
  for (int c = 0; c < g->ncols && rc == CHV_OK; c++) {
    p->cols[c] = top->cols[c];
    rc = chv_expr_column(rw->a, pos[c], top->cols[c].type,
                         &p->u.project.exprs[c], rw->err);
    chv_buf_printf(&t, "%s%s", c ? ", " : "", top->cols[c].name);
  }
  char *text = rc == CHV_OK ? chv_arena_alloc(rw->a, t.len + 1) : NULL;
  if (text) memcpy(text, t.data ? t.data : "", t.len + 1);
  chv_buf_free(&t);
  if (rc == CHV_OK && !text) rc = oom(rw);
  if (rc != CHV_OK) goto out;
  p->text = text;
  *slot = p;
out:
  free(g);
  return rc;
}

/* ---- keys ------------------------------------------------------------------------ */

/* Splits join nd's conditions into equi-keys and the residual. */
static int split_keys(struct sql_rewrite *rw, struct sql_node *nd) {
  chv_arena *a = rw->a;
  int nl = nd->in[0]->ncols, n = nl + nd->in[1]->ncols;
  int nv = nd->u.join.nconj;
  bool *scratch = chv_arena_alloc(a, (size_t)n + 1);
  int *map = chv_arena_alloc(a, sizeof *map * (size_t)(n + 1));
  nd->u.join.lkeys = chv_arena_alloc(a, sizeof *nd->u.join.lkeys * (size_t)(nv + 1));
  nd->u.join.rkeys = chv_arena_alloc(a, sizeof *nd->u.join.rkeys * (size_t)(nv + 1));
  nd->u.join.null_safe = chv_arena_alloc(a, (size_t)nv + 1);
  if (!scratch || !map || !nd->u.join.lkeys || !nd->u.join.rkeys ||
      !nd->u.join.null_safe)
    return oom(rw);
  for (int k = 0; k < n; k++) map[k] = k < nl ? k : k - nl;
  struct chv_buf kt, ct;
  chv_buf_init(&kt);
  chv_buf_init(&ct);
  struct chv_expr *cond = NULL;
  int rc = CHV_OK;
  nd->u.join.nkeys = 0;
  for (int i = 0; i < nv && rc == CHV_OK; i++) {
    const struct chv_expr *e = nd->u.join.conj[i].bound;
    if (e->kind == CHV_EXPR_CALL && (e->fn == CHV_FN_EQ || e->fn == CHV_FN_NSEQ) &&
        chv_type_is_primitive(e->args[0]->type->id) &&
        chv_type_equal(e->args[0]->type, e->args[1]->type)) {
      int s0 = sides(e->args[0], nl, n, scratch);
      int s1 = sides(e->args[1], nl, n, scratch);
      if ((s0 == 1 && s1 == 2) || (s0 == 2 && s1 == 1)) {
        int k = nd->u.join.nkeys++;
        const struct chv_expr *l = s0 == 1 ? e->args[0] : e->args[1];
        const struct chv_expr *r = s0 == 1 ? e->args[1] : e->args[0];
        rc = sql_expr_remap(a, l, map, &nd->u.join.lkeys[k], rw->err);
        if (rc == CHV_OK)
          rc = sql_expr_remap(a, r, map, &nd->u.join.rkeys[k], rw->err);
        nd->u.join.null_safe[k] = e->fn == CHV_FN_NSEQ;
        if (k) chv_buf_puts(&kt, " AND ");
        sql_expr_text_qualified(nd->u.join.conj[i].ast, &kt);
        continue;
      }
    }
    if (ct.len) chv_buf_puts(&ct, " AND ");
    sql_expr_text_qualified(nd->u.join.conj[i].ast, &ct);
    if (cond)
      rc = chv_expr_and(a, cond, nd->u.join.conj[i].bound, &cond, rw->err);
    else
      cond = nd->u.join.conj[i].bound;
  }
  nd->u.join.cond = cond;
  if (rc == CHV_OK && kt.len &&
      !(nd->u.join.keys_text = chv_arena_alloc(a, kt.len + 1)))
    rc = oom(rw);
  if (rc == CHV_OK && kt.len)
    memcpy((char *)nd->u.join.keys_text, kt.data, kt.len + 1);
  if (rc == CHV_OK && ct.len &&
      !(nd->u.join.cond_text = chv_arena_alloc(a, ct.len + 1)))
    rc = oom(rw);
  if (rc == CHV_OK && ct.len)
    memcpy((char *)nd->u.join.cond_text, ct.data, ct.len + 1);
  chv_buf_free(&kt);
  chv_buf_free(&ct);
  if (rc == CHV_OK && nd->u.join.kind == CHV_SQL_JOIN_CROSS && nd->u.join.nkeys)
    nd->u.join.kind = CHV_SQL_JOIN_INNER;
  return rc;
}

static int order(struct sql_rewrite *rw, struct sql_node **slot) {
  if (inner(*slot) && !(*slot)->u.join.ordered)
    CHV_RETURN_IF_ERR(reorder(rw, slot));
  struct sql_node *nd = *slot;
  for (int i = 0; i < nd->nin; i++) CHV_RETURN_IF_ERR(order(rw, &nd->in[i]));
  if (nd->kind == SQL_NODE_JOIN && !nd->u.join.lkeys) {
    CHV_RETURN_IF_ERR(split_keys(rw, nd));
    nd->u.join.est[0] = sql_node_estimate(nd->in[0]);
    nd->u.join.est[1] = sql_node_estimate(nd->in[1]);
    /* the smaller side builds; on a tie the right, as written */
    nd->u.join.build_left = nd->u.join.est[0] < nd->u.join.est[1];
    /* NOT IN looks at the right's NULLs before the left's rows */
    if (nd->u.join.kind == CHV_SQL_JOIN_NOT_IN) nd->u.join.build_left = false;
  }
  return CHV_OK;
}

/* ---- semi joins ------------------------------------------------------------------ */

static bool semi_like(const struct sql_node *nd) {
  return nd->kind == SQL_NODE_JOIN && (nd->u.join.kind == CHV_SQL_JOIN_SEMI ||
                                       nd->u.join.kind == CHV_SQL_JOIN_ANTI ||
                                       nd->u.join.kind == CHV_SQL_JOIN_NOT_IN);
}

/* The slot, under the inner joins at slot, of the relation that gives
** their column c, and that relation's first column there (*off). */
static struct sql_node **rel_slot(struct sql_node **slot, int c, int *off) {
  *off = 0;
  while (inner(*slot)) {
    int nl = (*slot)->in[0]->ncols;
    if (c < nl) {
      slot = &(*slot)->in[0];
    } else {
      c -= nl;
      *off += nl;
      slot = &(*slot)->in[1];
    }
  }
  return slot;
}

/* A semi, anti or NOT IN join over a group of inner joins whose condition
** reads the columns of one relation of the group goes down onto that
** relation when its right side is estimated at most half that relation's
** rows: it keeps or drops each of the relation's rows by their own values,
** so the group joins fewer rows (x IN (sub-query) filters its table before
** the joins, not their result).  Bottom-up, so stacked ones all go down. */
static int sink_semi(struct sql_rewrite *rw, struct sql_node **slot) {
  struct sql_node *nd = *slot;
  for (int i = 0; i < nd->nin; i++) CHV_RETURN_IF_ERR(sink_semi(rw, &nd->in[i]));
  if (!semi_like(nd) || !inner(nd->in[0]) || !nd->u.join.nconj) return CHV_OK;
  struct sql_node *l = nd->in[0];
  int nl = l->ncols, n = nl + nd->in[1]->ncols;
  bool *used = chv_arena_alloc(rw->a, (size_t)n + 1);
  if (!used) return oom(rw);
  memset(used, 0, (size_t)n + 1);
  for (int i = 0; i < nd->u.join.nconj; i++) sql_expr_columns(nd->u.join.conj[i].bound, used);
  int lo = -1, hi = -1;
  for (int c = 0; c < nl; c++)
    if (used[c]) {
      if (lo < 0) lo = c;
      hi = c;
    }
  if (lo < 0) return CHV_OK; /* reads nothing of the left: stays */
  int off, off2;
  struct sql_node **rs = rel_slot(&nd->in[0], lo, &off);
  if (rel_slot(&nd->in[0], hi, &off2) != rs) return CHV_OK; /* two relations */
  struct sql_node *rel = *rs, *in[2] = {rel, nd->in[1]}, *sj;
  /* only a sub-query side of at most half the relation's rows, which
  ** likely drops many of them; a large one (TPC-H Q21's EXISTS over
  ** lineitem) keeps most, and the group's joins filter better first */
  if (sql_node_estimate(nd->in[1]) > 0.5 * sql_node_estimate(rel)) return CHV_OK;
  CHV_RETURN_IF_ERR(sql_node_new(rw->a, SQL_NODE_JOIN, in, 2, &sj, rw->err));
  CHV_RETURN_IF_ERR(sql_node_cols(rw->a, sj, rel->ncols, rw->err));
  memcpy(sj->cols, rel->cols, sizeof *sj->cols * (size_t)rel->ncols);
  sj->text = nd->text;
  sj->pos = nd->pos;
  sj->u.join = nd->u.join;
  int *map = chv_arena_alloc(rw->a, sizeof *map * (size_t)(n + 1));
  sj->u.join.conj =
      chv_arena_alloc(rw->a, sizeof *sj->u.join.conj * (size_t)(nd->u.join.nconj + 1));
  if (!map || !sj->u.join.conj) return oom(rw);
  for (int c = 0; c < n; c++)
    map[c] = c < nl ? (c >= off && c < off + rel->ncols ? c - off : -1)
                    : c - nl + rel->ncols;
  for (int i = 0; i < nd->u.join.nconj; i++) {
    sj->u.join.conj[i].ast = nd->u.join.conj[i].ast;
    CHV_RETURN_IF_ERR(sql_expr_remap(rw->a, nd->u.join.conj[i].bound, map,
                                     &sj->u.join.conj[i].bound, rw->err));
  }
  *rs = sj;
  *slot = l;
  return CHV_OK;
}

static bool has_join(const struct sql_node *nd) {
  if (nd->kind == SQL_NODE_JOIN) return true;
  for (int i = 0; i < nd->nin; i++)
    if (has_join(nd->in[i])) return true;
  return false;
}

static int scan_rows(struct sql_rewrite *rw, struct sql_node *nd) {
  if (nd->kind == SQL_NODE_SCAN && rw->scan_rows)
    nd->u.scan.est_rows = rw->scan_rows(rw->threads_ctx, nd);
  if (nd->kind == SQL_NODE_SCAN && rw->scan_ndv && nd->ncols) {
    double *v = chv_arena_alloc(rw->a, sizeof *v * (size_t)nd->ncols * 3);
    if (!v) return oom(rw);
    rw->scan_ndv(rw->threads_ctx, nd, v, v + nd->ncols, v + 2 * nd->ncols);
    nd->u.scan.est_ndv = v;
    nd->u.scan.est_lo = v + nd->ncols;
    nd->u.scan.est_hi = v + 2 * nd->ncols;
  }
  for (int i = 0; i < nd->nin; i++) CHV_RETURN_IF_ERR(scan_rows(rw, nd->in[i]));
  return CHV_OK;
}

int sql_rewrite_join_order(struct sql_rewrite *rw, struct sql_node **root) {
  if (!has_join(*root)) return CHV_OK;
  CHV_RETURN_IF_ERR(scan_rows(rw, *root));
  CHV_RETURN_IF_ERR(sink_semi(rw, root));
  return order(rw, root);
}

/* ---- dynamic filtering ----------------------------------------------------------- */

/* The key types whose values filter a scan: their text compares as the
** partition values and the files' statistics do (not FLOAT or DOUBLE,
** whose NaN the statistics leave out; not CHAR, whose padding they may
** keep; not TIMESTAMP, whose Parquet statistics depend on the writer). */
static bool dyn_type(enum chv_type_id id) {
  switch (id) {
  case CHV_TYPE_TINYINT:
  case CHV_TYPE_SMALLINT:
  case CHV_TYPE_INT:
  case CHV_TYPE_BIGINT:
  case CHV_TYPE_DATE:
  case CHV_TYPE_STRING:
  case CHV_TYPE_VARCHAR:
    return true;
  default:
    return false;
  }
}

/* Whether a join's build side may leave keys of its table out: it has a
** Filter, a scan's partition filter, pushed predicate or limit, a Limit, a
** TopN, VALUES or an inner or semi join. */
static bool filtered(const struct sql_node *nd) {
  switch (nd->kind) {
  case SQL_NODE_FILTER:
  case SQL_NODE_LIMIT:
  case SQL_NODE_TOPN:
  case SQL_NODE_VALUES:
    return true;
  case SQL_NODE_SCAN:
    return nd->u.scan.filter || nd->u.scan.npreds || nd->u.scan.limit >= 0 ||
           nd->u.scan.sample.kind != CHV_SAMPLE_NONE;
  case SQL_NODE_JOIN:
    if (nd->u.join.nkeys && (nd->u.join.kind == CHV_SQL_JOIN_INNER ||
                             nd->u.join.kind == CHV_SQL_JOIN_SEMI))
      return true;
    break;
  default:
    break;
  }
  for (int i = 0; i < nd->nin; i++)
    if (filtered(nd->in[i])) return true;
  return false;
}

/* The table Scan under nd through Filters, column Projects, derived
** tables, Aggregates grouping by the column and joins (to the side the
** column is of, not one NULLs extend), whose column *col is nd's
** column c, or NULL: a row of the scan whose value the join's keys do not
** hold gives no row the join matches.  A Scan with a pushed limit is not
** one: other rows would fill its limit; nor a sampled one: the rows and
** splits a sample keeps are those of the whole input. */
static struct sql_node *probe_scan(struct sql_node *nd, int c, int *col) {
  for (;;) {
    switch (nd->kind) {
    case SQL_NODE_SCAN:
      if (nd->u.scan.limit >= 0 || nd->u.scan.sample.kind != CHV_SAMPLE_NONE)
        return NULL;
      *col = c;
      return nd;
    case SQL_NODE_FILTER: nd = nd->in[0]; break;
    case SQL_NODE_DERIVED:
      if (nd->u.derived.map) c = nd->u.derived.map[c];
      nd = nd->in[0];
      break;
    case SQL_NODE_AGGREGATE:
      /* a key (the first columns), not a grouping set's (an Expand's) */
      if (c >= nd->u.agg.nkeys || nd->u.agg.keys[c]->kind != CHV_EXPR_COLUMN ||
          nd->in[0]->kind == SQL_NODE_EXPAND || nd->u.agg.nseeds)
        return NULL;
      c = nd->u.agg.keys[c]->column;
      nd = nd->in[0];
      break;
    case SQL_NODE_PROJECT:
      if (nd->u.project.exprs[c]->kind != CHV_EXPR_COLUMN) return NULL;
      c = nd->u.project.exprs[c]->column;
      nd = nd->in[0];
      break;
    case SQL_NODE_JOIN: {
      /* the side the column comes from, unless NULLs extend it (its
      ** value there then is no row's of the scan) */
      int nl = nd->in[0]->ncols;
      bool left = c < nl;
      switch (nd->u.join.kind) {
      case CHV_SQL_JOIN_INNER:
      case CHV_SQL_JOIN_CROSS: break;
      case CHV_SQL_JOIN_LEFT:
      case CHV_SQL_JOIN_SEMI:
      case CHV_SQL_JOIN_ANTI:
      case CHV_SQL_JOIN_NOT_IN:
        if (!left) return NULL;
        break;
      case CHV_SQL_JOIN_RIGHT:
        if (left) return NULL;
        break;
      default: return NULL;
      }
      if (!left) c -= nl;
      nd = nd->in[left ? 0 : 1];
      break;
    }
    default:
      return NULL;
    }
  }
}

/* Whether the probe side's rows that match no build row can go: not when
** the kind keeps them (an outer join's preserved side, the left side of an
** ANTI join). */
static bool probe_may_drop(const struct sql_node *nd, int pside) {
  switch (nd->u.join.kind) {
  case CHV_SQL_JOIN_INNER:
  case CHV_SQL_JOIN_SEMI:
    return true;
  case CHV_SQL_JOIN_LEFT:
  case CHV_SQL_JOIN_ANTI:
    return pside == 1;
  case CHV_SQL_JOIN_RIGHT:
    return pside == 0;
  default:
    return false;
  }
}

/* The share of the rows of its probe side's scan that join nd's build keys
** may keep, of key k: the build side's estimated rows over the distinct
** values the column statistics give the probe column (1: not known). */
static double dyn_share(const struct sql_node *nd, int pside, int k) {
  const struct chv_expr *e = pside ? nd->u.join.rkeys[k] : nd->u.join.lkeys[k];
  bool known;
  double d = col_ndv(nd->in[pside], e->column, &known);
  double x = known && d >= 1 ? nd->u.join.est[1 - pside] / d : 1;
  return x < 1 ? x : 1;
}

static int dynamic(struct sql_rewrite *rw, struct sql_node *nd) {
  for (int i = 0; i < nd->nin; i++) CHV_RETURN_IF_ERR(dynamic(rw, nd->in[i]));
  if (nd->kind != SQL_NODE_JOIN || !nd->u.join.nkeys || nd->u.join.dyn_scan)
    return CHV_OK;
  int pside = nd->u.join.build_left ? 1 : 0;
  if (!probe_may_drop(nd, pside)) return CHV_OK;
  bool build_filtered = filtered(nd->in[1 - pside]);
  struct sql_node *scan = NULL;
  double share = 1;
  /* a scan no join below filters yet; else one that one does */
  for (int pass = 0; pass < 2 && !scan; pass++)
  for (int k = 0; k < nd->u.join.nkeys; k++) {
    if (nd->u.join.null_safe[k]) continue; /* its NULLs match */
    const struct chv_expr *e = pside ? nd->u.join.rkeys[k] : nd->u.join.lkeys[k];
    if (e->kind != CHV_EXPR_COLUMN || !dyn_type(e->type->id)) continue;
    int col;
    struct sql_node *s = probe_scan(nd->in[pside], e->column, &col);
    if (!s || (scan && s != scan) || (!pass && s->u.scan.dyn_join)) continue;
    const struct chv_table *t = s->u.scan.t;
    const char *name = s->u.scan.columns[col];
    bool part = false;
    for (int p = 0; p < t->npkeys; p++)
      part |= !strcasecmp(t->pkeys[p].name, name);
    /* partitions: Flink's rule, a build side that is not its whole table
    ** (not DATE keys, whose folder names need not be the canonical text
    ** the catalog compares); data columns: the range skips row groups of
    ** columnar files, the keys' set rows of any */
    if (part && (!build_filtered || e->type->id == CHV_TYPE_DATE)) continue;
    if (!nd->u.join.dyn_cols) {
      size_t n = (size_t)nd->u.join.nkeys + 1;
      nd->u.join.dyn_cols = chv_arena_alloc(rw->a, sizeof *nd->u.join.dyn_cols * n);
      nd->u.join.dyn_part = chv_arena_alloc(rw->a, n);
      if (!nd->u.join.dyn_cols || !nd->u.join.dyn_part) return oom(rw);
      memset(nd->u.join.dyn_cols, 0, sizeof *nd->u.join.dyn_cols * n);
      memset(nd->u.join.dyn_part, 0, n);
    }
    nd->u.join.dyn_cols[k] = name;
    nd->u.join.dyn_part[k] = part;
    scan = s;
    double x = dyn_share(nd, pside, k);
    if (x < share) share = x;
  }
  /* a scan one join filters: a join further up takes it only when its
  ** keys leave at most half the share the first's do (TPC-H Q02: the 2,000
  ** suppliers of a region keep a fifth of partsupp, the parts the outer
  ** query found a hundredth of its part keys); the first then filters
  ** nothing */
  /* (the plan's nodes, written by its passes) */
  struct sql_node *other =
      scan ? (struct sql_node *)scan->u.scan.dyn_join : NULL;
  if (other && !(share <= other->u.join.dyn_share / 2)) {
    nd->u.join.dyn_cols = NULL;
    nd->u.join.dyn_part = NULL;
    return CHV_OK;
  }
  if (other) {
    other->u.join.dyn_scan = NULL;
    other->u.join.dyn_cols = NULL;
    other->u.join.dyn_part = NULL;
    other->u.join.dyn_no_rows = false;
  }
  if (scan) {
    nd->u.join.dyn_share = share;
    nd->u.join.dyn_scan = scan;
    scan->u.scan.dyn_join = nd;
    /* a whole table of many rows holds the keys a probe's foreign keys
    ** mostly find: its set would keep most rows, and costs a set of all
    ** its keys to make (the rows of a small one are still filtered: the
    ** probe side may hold many keys it has not) */
    nd->u.join.dyn_no_rows =
        !build_filtered && nd->u.join.est[1 - pside] > SQL_DYN_WHOLE;
  }
  return CHV_OK;
}

int sql_rewrite_join_dynamic(struct sql_rewrite *rw, struct sql_node *root) {
  return has_join(root) ? dynamic(rw, root) : CHV_OK;
}
