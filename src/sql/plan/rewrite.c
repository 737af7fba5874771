/*
** sql/plan/rewrite: the rewrite rules, each a pass over the logical plan
** that changes it in place (sql_rewrite() runs them in this order):
**
**   joins      the conditions of WHERE and ON pushed through joins into
**              their inputs (joins.c)
**   pushdown   a Filter right over a table's Scan gives the scan the
**              conjuncts a partition filter expresses (partition pruning)
**              and, for columnar files, the comparisons of data columns
**              with literals its readers test row groups against; what is
**              left stays a Filter (none: the Filter goes)
**   order      inner joins ordered by estimates, equi-keys and build
**              sides (joins.c)
**   fold       constant sub-expressions become literals; a Filter that is
**              always TRUE goes, one never TRUE reads no rows (Values of
**              none in place of its input)
**   prune      a Scan reads only the columns the nodes above it use; a
**              Project that gives its input as it is goes
**   limit      a Limit over a Scan (through a Project) is pushed into it
**   topn       Limit over Sort (through a Project) becomes TopN
**   bound      a TopN over a table's Scan on a data column whose NULLs
**              sort last (not FLOAT or DOUBLE: statistics leave NaN out)
**              gives the scan a bound its readers skip by
**   window     a Filter rn <= n over (a derived table of) a Window's
**              ROW_NUMBER, RANK or DENSE_RANK rn keeps the Window to the
**              first n rows of each partition (Flink's top-N)
**   dynamic    a join's build keys filter its probe side's scan at run
**              time: partitions, row groups and stripes (joins.c)
**
** A pass walks the tree with the slot each node hangs from, so that it
** can replace a node; expressions are never changed in place (they may be
** shared): a pass that renumbers columns copies them (sql_expr_remap()).
*/
#include "sql/plan/plan.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

static int oom(struct sql_rewrite *rw) {
  return chv_error_set(rw->err, CHV_ENOMEM, "out of memory");
}

/* ---- constant folding ---------------------------------------------------------- */

/* e with its constant sub-expressions folded (*out; e itself when none). */
static int fold_expr(struct sql_rewrite *rw, struct chv_expr *e,
                     struct chv_expr **out) {
  *out = e;
  if (e->kind == CHV_EXPR_LITERAL || e->kind == CHV_EXPR_COLUMN)
    return CHV_OK;
  if (sql_expr_constant(e)) {
    struct chv_expr *lit;
    if (rw->fold(rw->fold_ctx, rw->a, e, &lit) == CHV_OK) *out = lit;
    return CHV_OK;
  }
  struct chv_expr *c = NULL;
  for (int i = 0; i < e->nargs; i++) {
    struct chv_expr *x;
    CHV_RETURN_IF_ERR(fold_expr(rw, e->args[i], &x));
    if (x == e->args[i]) continue;
    if (!c) {
      c = chv_arena_alloc(rw->a, sizeof *c);
      struct chv_expr **args =
          chv_arena_alloc(rw->a, sizeof *args * (size_t)e->nargs);
      if (!c || !args) return oom(rw);
      *c = *e;
      memcpy(args, e->args, sizeof *args * (size_t)e->nargs); /* nargs > 0 */
      c->args = args;
    }
    c->args[i] = x;
  }
  if (e->lowered) { /* BETWEEN: its lowered tree is evaluated, folded too */
    struct chv_expr *l;
    CHV_RETURN_IF_ERR(fold_expr(rw, (struct chv_expr *)e->lowered, &l));
    if (l != e->lowered) {
      if (!c) {
        if (!(c = chv_arena_alloc(rw->a, sizeof *c))) return oom(rw);
        *c = *e;
      }
      c->lowered = l;
    }
  }
  if (c) *out = c;
  /* AND and OR with a literal side */
  if ((e->kind == CHV_EXPR_AND || e->kind == CHV_EXPR_OR) && (*out)->nargs == 2)
    for (int i = 0; i < 2; i++) {
      const struct chv_expr *l = (*out)->args[i];
      if (l->kind != CHV_EXPR_LITERAL || l->value.is_null) continue;
      bool and = e->kind == CHV_EXPR_AND;
      /* TRUE AND x, FALSE OR x: x; FALSE AND x, TRUE OR x: the literal */
      *out = l->value.b == and ? (*out)->args[1 - i] : (*out)->args[i];
      break;
    }
  return CHV_OK;
}

/* ---- pushdown ----------------------------------------------------------------- */

static int pushdown(struct sql_rewrite *rw, struct sql_node **slot) {
  struct sql_node *nd = *slot;
  for (int i = 0; i < nd->nin; i++)
    CHV_RETURN_IF_ERR(pushdown(rw, &nd->in[i]));
  if (nd->kind != SQL_NODE_FILTER || !nd->u.filter.where) return CHV_OK;
  struct sql_node *scan = nd->in[0];
  if (scan->kind != SQL_NODE_SCAN) return CHV_OK;
  const struct chv_table *t = scan->u.scan.t;
  chv_arena *a = rw->a;
  struct chv_buf text;
  chv_buf_init(&text);
  struct chv_part_filter *pf = NULL;
  const struct chv_sql_expr **resid = NULL;
  size_t nresid = 0;
  struct chv_error ignored;
  int rc = CHV_OK;
  if (sql_where_filter(t, a, nd->u.filter.where, &pf, &text, NULL,
                       &ignored) != CHV_OK) {
    pf = NULL;
    rc = sql_where_split(t, a, nd->u.filter.where, &pf, &text, &resid,
                         &nresid, NULL, rw->err);
    if (rc != CHV_OK) goto out;
  }
  scan->u.scan.filter = pf;
  if (pf) scan->pos = nd->pos; /* a literal the partitions cannot take */
  if (pf && text.len) {
    char *ft = chv_arena_alloc(a, text.len + 1);
    if (!ft) {
      rc = oom(rw);
      goto out;
    }
    memcpy(ft, text.data, text.len + 1);
    scan->u.scan.filter_text = ft;
  }
  /* (a sample of each split's first rows is taken before any is skipped) */
  if (nresid && scan->u.scan.sample.kind != CHV_SAMPLE_ROWS &&
      sql_where_preds(t, a, resid, nresid, &scan->u.scan.preds,
                      &scan->u.scan.npreds) != CHV_OK) {
    rc = oom(rw);
    goto out;
  }
  nd->u.filter.where = NULL;
  if (!nresid) { /* every conjunct prunes partitions */
    *slot = scan;
    goto out;
  }
  /* The residual conjuncts, folded and AND-ed (one always TRUE left out),
  ** and their text. */
  struct chv_expr *pred = NULL;
  chv_buf_reset(&text);
  size_t nkept = 0;
  for (size_t i = 0; i < nresid; i++) {
    struct chv_expr *x = NULL;
    for (size_t k = 0; k < nd->u.filter.nconj && !x; k++)
      if (nd->u.filter.conj[k] == resid[i]) x = nd->u.filter.bound[k];
    if (!x) {
      rc = chv_error_set(rw->err, CHV_EINTERNAL,
                         "a WHERE conjunct lost its bound form");
      goto out;
    }
    if (rw->fold && (rc = fold_expr(rw, x, &x)) != CHV_OK) goto out;
    if (x->kind == CHV_EXPR_LITERAL && !x->value.is_null && x->value.b)
      continue;
    if (nkept++) chv_buf_puts(&text, " AND ");
    sql_expr_text(resid[i], &text);
    if (pred && (rc = chv_expr_and(a, pred, x, &pred, rw->err)) != CHV_OK)
      goto out;
    if (!pred) pred = x;
  }
  if (!pred) { /* what is left is always TRUE */
    *slot = scan;
    goto out;
  }
  nd->u.filter.pred = pred;
  char *ft = chv_arena_alloc(a, text.len + 1);
  if (!ft) {
    rc = oom(rw);
    goto out;
  }
  memcpy(ft, text.data ? text.data : "", text.len + 1);
  nd->text = ft;
out:
  chv_buf_free(&text);
  return rc;
}

static int fold_slot(void *ctx, struct chv_expr **slot) {
  return fold_expr(ctx, *slot, slot);
}

static int fold(struct sql_rewrite *rw, struct sql_node **slot) {
  struct sql_node *nd = *slot;
  for (int i = 0; i < nd->nin; i++) CHV_RETURN_IF_ERR(fold(rw, &nd->in[i]));
  if (!rw->fold) return CHV_OK;
  CHV_RETURN_IF_ERR(sql_node_exprs(nd, fold_slot, rw));
  if (nd->kind != SQL_NODE_FILTER) return CHV_OK;
  const struct chv_expr *p = nd->u.filter.pred;
  if (p->kind != CHV_EXPR_LITERAL) return CHV_OK;
  if (!p->value.is_null && p->value.b) { /* always TRUE */
    *slot = nd->in[0];
    return CHV_OK;
  }
  /* never TRUE: no row is read */
  struct sql_node *v;
  CHV_RETURN_IF_ERR(sql_node_new(rw->a, SQL_NODE_VALUES, NULL, 0, &v, rw->err));
  CHV_RETURN_IF_ERR(sql_node_cols(rw->a, v, nd->in[0]->ncols, rw->err));
  if (v->ncols)
    memcpy(v->cols, nd->in[0]->cols, sizeof *v->cols * (size_t)v->ncols);
  v->u.values.nrows = 0;
  nd->in[0] = v;
  return CHV_OK;
}

/* ---- the columns a scan reads ---------------------------------------------------- */

static bool passes_columns(const struct sql_node *nd) {
  return nd->kind == SQL_NODE_FILTER || nd->kind == SQL_NODE_SORT ||
         nd->kind == SQL_NODE_TOPN || nd->kind == SQL_NODE_LIMIT;
}

struct used {
  bool *used;
};

static int mark_used(void *ctx, struct chv_expr **slot) {
  sql_expr_columns(*slot, ((struct used *)ctx)->used);
  return CHV_OK;
}

struct remap {
  struct sql_rewrite *rw;
  const int *map;
};

static int remap_slot(void *ctx, struct chv_expr **slot) {
  struct remap *r = ctx;
  return sql_expr_remap(r->rw->a, *slot, r->map, slot, r->rw->err);
}

/* The scan at chain[0] under chain[1..n) (pass-through nodes, then the
** one that uses its columns, or none: every column is used). */
static int prune_scan(struct sql_rewrite *rw, struct sql_node **chain, int n) {
  struct sql_node *scan = chain[0];
  if (scan->ncols == 0) return CHV_OK;
  const struct sql_node *top = chain[n - 1];
  bool counts = false; /* the user only counts rows: no column is needed */
  if (n == 1 || passes_columns(top) ||
      (top->kind != SQL_NODE_PROJECT && top->kind != SQL_NODE_AGGREGATE))
    return CHV_OK; /* the scan's columns are the output */
  counts = top->kind == SQL_NODE_AGGREGATE;
  bool *used = chv_arena_alloc(rw->a, (size_t)scan->ncols + 1);
  int *map = chv_arena_alloc(rw->a, sizeof *map * ((size_t)scan->ncols + 1));
  if (!used || !map) return oom(rw);
  memset(used, 0, (size_t)scan->ncols + 1);
  struct used u = {used};
  for (int i = 1; i < n; i++)
    CHV_RETURN_IF_ERR(sql_node_exprs(chain[i], mark_used, &u));
  int k = 0;
  for (int c = 0; c < scan->ncols; c++) k += used[c];
  if (k == scan->ncols) return CHV_OK;
  if (k == 0 && !counts) used[0] = true, k = 1; /* one column, for rows */
  k = 0;
  for (int c = 0; c < scan->ncols; c++) {
    map[c] = used[c] ? k : -1;
    if (used[c]) {
      scan->cols[k] = scan->cols[c];
      scan->u.scan.columns[k] = scan->u.scan.columns[c];
      if (scan->u.scan.est_ndv)
        scan->u.scan.est_ndv[k] = scan->u.scan.est_ndv[c];
      k++;
    }
  }
  scan->ncols = k;
  struct remap r = {rw, map};
  for (int i = 1; i < n; i++) {
    CHV_RETURN_IF_ERR(sql_node_exprs(chain[i], remap_slot, &r));
    if (passes_columns(chain[i]))
      CHV_RETURN_IF_ERR(sql_node_pass_cols(rw->a, chain[i], rw->err));
  }
  return CHV_OK;
}

/* Walks down with the chain of nodes above: at a Scan, the pass-through
** nodes right above it and the first that is not. */
static int prune(struct sql_rewrite *rw, struct sql_node *nd,
                 struct sql_node **above, int nabove) {
  if (nd->kind == SQL_NODE_SCAN) {
    struct sql_node *chain[64];
    int n = 0;
    chain[n++] = nd;
    for (int i = nabove - 1; i >= 0 && n < 64; i--) {
      chain[n++] = above[i];
      if (!passes_columns(above[i])) break;
    }
    return prune_scan(rw, chain, n);
  }
  struct sql_node *stack[64];
  int m = nabove < 63 ? nabove : 63;
  if (m) memcpy(stack, above + (nabove - m), sizeof *stack * (size_t)m);
  stack[m] = nd;
  for (int i = 0; i < nd->nin; i++)
    CHV_RETURN_IF_ERR(prune(rw, nd->in[i], stack, m + 1));
  return CHV_OK;
}

static void identity(struct sql_node **slot);

static bool column_project(const struct sql_node *nd) {
  if (nd->kind != SQL_NODE_PROJECT) return false;
  for (int c = 0; c < nd->ncols; c++)
    if (nd->u.project.exprs[c]->kind != CHV_EXPR_COLUMN) return false;
  return true;
}

/* A Project over a Project of columns (a join's, reordered) reads the
** latter's input instead; a Project giving its input's columns as they
** are, named as they are, goes. */
static int drop_identity(struct sql_rewrite *rw, struct sql_node **slot) {
  struct sql_node *nd = *slot;
  for (int i = 0; i < nd->nin; i++)
    CHV_RETURN_IF_ERR(drop_identity(rw, &nd->in[i]));
  if (nd->kind != SQL_NODE_PROJECT) return CHV_OK;
  if (column_project(nd->in[0]) && !nd->on_readers) {
    const struct sql_node *p = nd->in[0];
    int *map = chv_arena_alloc(rw->a, sizeof *map * (size_t)(p->ncols + 1));
    struct chv_expr **ex =
        chv_arena_alloc(rw->a, sizeof *ex * (size_t)(nd->ncols + 1));
    if (!map || !ex) return oom(rw);
    for (int c = 0; c < p->ncols; c++) map[c] = p->u.project.exprs[c]->column;
    for (int c = 0; c < nd->ncols; c++)
      CHV_RETURN_IF_ERR(
          sql_expr_remap(rw->a, nd->u.project.exprs[c], map, &ex[c], rw->err));
    nd->u.project.exprs = ex;
    nd->in[0] = p->in[0];
  }
  identity(slot);
  return CHV_OK;
}

static void identity(struct sql_node **slot) {
  struct sql_node *nd = *slot;
  const struct sql_node *in = nd->in[0];
  if (nd->ncols != in->ncols) return;
  for (int c = 0; c < nd->ncols; c++) {
    const struct chv_expr *e = nd->u.project.exprs[c];
    if (e->kind != CHV_EXPR_COLUMN || e->column != c ||
        !chv_type_equal(e->type, in->cols[c].type) ||
        strcmp(nd->cols[c].name, in->cols[c].name))
      return;
  }
  *slot = nd->in[0];
}

/* ---- limits and top-N ------------------------------------------------------------ */

static int limits(struct sql_rewrite *rw, struct sql_node **slot) {
  struct sql_node *nd = *slot;
  if (nd->kind == SQL_NODE_LIMIT && nd->u.limit.n >= 0) {
    /* what the input must give: the offset's rows, then the limit's */
    int64_t need = nd->u.limit.n + nd->u.limit.offset;
    struct sql_node *in = nd->in[0], *below = in;
    if (below->kind == SQL_NODE_PROJECT) below = below->in[0];
    if (below->kind == SQL_NODE_SORT) { /* Limit [Project] Sort: TopN */
      below->kind = SQL_NODE_TOPN;
      below->u.sort.limit = need;
      if (!nd->u.limit.offset) *slot = nd = in; /* the TopN gives them */
    } else if (below->kind == SQL_NODE_SCAN) {
      int64_t n = below->u.scan.limit;
      if (n < 0 || n > need) below->u.scan.limit = need;
    }
  }
  for (int i = 0; i < nd->nin; i++) CHV_RETURN_IF_ERR(limits(rw, &nd->in[i]));
  return CHV_OK;
}

/* A TopN on a data column whose NULLs sort last, over a table's Scan: the
** last kept row's key bounds what can still enter, and the columnar
** readers skip row groups, pages and stripes whose statistics say none of
** theirs can. */
static void bound(struct sql_node *nd) {
  for (int i = 0; i < nd->nin; i++) bound(nd->in[i]);
  if (nd->kind != SQL_NODE_TOPN || nd->u.sort.limit <= 0) return;
  struct sql_node *scan = nd->in[0];
  while (scan->kind == SQL_NODE_FILTER) scan = scan->in[0];
  if (scan->kind != SQL_NODE_SCAN ||
      scan->u.scan.sample.kind == CHV_SAMPLE_ROWS)
    return;
  const struct sql_sort_key *k = &nd->u.sort.keys[0];
  const struct chv_expr *e = k->expr;
  /* not on FLOAT or DOUBLE: NaN sorts above every number, and the
  ** statistics of Parquet and ORC leave NaN out of their min and max */
  enum chv_type_id id = e->type->id;
  if (e->kind != CHV_EXPR_COLUMN || id == CHV_TYPE_BOOLEAN ||
      id == CHV_TYPE_BINARY || id == CHV_TYPE_FLOAT || id == CHV_TYPE_DOUBLE)
    return;
  if (!(k->nulls ? k->nulls == 2 : k->desc)) return;
  const char *col = scan->u.scan.columns[e->column];
  const struct chv_table *t = scan->u.scan.t;
  for (int c = 0; c < t->ncols; c++)
    if (!strcasecmp(t->columns[c].name, col)) {
      scan->u.scan.bound_column = col;
      scan->u.scan.bound_op = k->desc ? CHV_PRED_GE : CHV_PRED_LE;
      /* One reader opens each file when the bound is as tight as it gets
      ** by then, where readers ahead would read files whole.  Text has no
      ** statistics to skip by: its readers stay. */
      scan->u.scan.one_reader = sql_table_columnar(t);
      return;
    }
}

/* ---- the top-N of a window ------------------------------------------------------ */

/* Whether a call's values for the first rows of its partition depend on
** those rows alone (not on the rows after them). */
static bool looks_back(const struct sql_win_call *wc) {
  switch (wc->fn) {
  case SQL_WIN_ROW_NUMBER:
  case SQL_WIN_RANK:
  case SQL_WIN_DENSE_RANK:
  case SQL_WIN_LAG: return true;
  case SQL_WIN_FIRST_VALUE:
  case SQL_WIN_AGG:
    return !wc->range && (wc->end == CHV_SQL_FRAME_CURRENT_ROW ||
                          wc->end == CHV_SQL_FRAME_PRECEDING);
  default: return false;
  }
}

/* The limit a conjunct c <= n, c < n or c = n (either side) puts on column
** c; false for another form. */
static bool rank_bound(const struct chv_expr *e, int *col, int64_t *lim) {
  if (e->kind != CHV_EXPR_CALL || e->nargs != 2) return false;
  const struct chv_expr *l = e->args[0], *r = e->args[1];
  enum chv_fn fn = e->fn;
  if (l->kind == CHV_EXPR_LITERAL && r->kind == CHV_EXPR_COLUMN) {
    const struct chv_expr *t = l;
    l = r;
    r = t;
    fn = fn == CHV_FN_GE ? CHV_FN_LE : fn == CHV_FN_GT ? CHV_FN_LT
         : fn == CHV_FN_EQ ? CHV_FN_EQ : CHV_FN_NE;
  }
  if (l->kind != CHV_EXPR_COLUMN || r->kind != CHV_EXPR_LITERAL ||
      r->value.is_null || l->type->id != CHV_TYPE_BIGINT ||
      r->type->id != CHV_TYPE_BIGINT)
    return false;
  if (fn != CHV_FN_LE && fn != CHV_FN_LT && fn != CHV_FN_EQ) return false;
  *col = l->column;
  *lim = fn == CHV_FN_LT ? r->value.i64 - 1 : r->value.i64;
  if (*lim < 0) *lim = 0;
  return true;
}

/* From column c of nd down through Derived and Project columns to the
** Window that computes it: that node and its call, or NULL. */
static struct sql_node *rank_source(struct sql_node *nd, int c, int *call) {
  for (int depth = 0; depth < 64; depth++) {
    if (c < 0 || c >= nd->ncols) return NULL;
    switch (nd->kind) {
    case SQL_NODE_DERIVED:
      c = nd->u.derived.map[c];
      nd = nd->in[0];
      break;
    case SQL_NODE_PROJECT: {
      const struct chv_expr *e = nd->u.project.exprs[c];
      if (e->kind != CHV_EXPR_COLUMN) return NULL;
      c = e->column;
      nd = nd->in[0];
      if (nd->kind != SQL_NODE_WINDOW && nd->kind != SQL_NODE_PROJECT &&
          nd->kind != SQL_NODE_DERIVED)
        return NULL;
      break;
    }
    case SQL_NODE_WINDOW:
      if (c < nd->in[0]->ncols) return NULL; /* the top Window's own call */
      *call = c - nd->in[0]->ncols;
      return nd;
    default: return NULL;
    }
  }
  return NULL;
}

/* Filter (rn <= n) <- Derived <- Project <- Window whose call rn is a
** ROW_NUMBER, RANK or DENSE_RANK: the Window keeps the first n rows of
** each partition (its other calls must not look past them).  The Filter
** stays: it decides. */
static void window_topn(struct sql_node *nd) {
  for (int i = 0; i < nd->nin; i++) window_topn(nd->in[i]);
  if (nd->kind != SQL_NODE_FILTER) return;
  const struct chv_expr *stack[64];
  int n = 0;
  stack[n++] = nd->u.filter.pred;
  while (n) {
    const struct chv_expr *e = stack[--n];
    if (e->kind == CHV_EXPR_AND) {
      for (int i = 0; i < e->nargs && n < 64; i++) stack[n++] = e->args[i];
      continue;
    }
    int col, call;
    int64_t lim;
    if (!rank_bound(e, &col, &lim)) continue;
    struct sql_node *w = rank_source(nd->in[0], col, &call);
    if (!w) continue;
    const struct sql_win_call *wc = &w->u.window.calls[call];
    if (wc->fn != SQL_WIN_ROW_NUMBER && wc->fn != SQL_WIN_RANK &&
        wc->fn != SQL_WIN_DENSE_RANK)
      continue;
    bool ok = true;
    for (int j = 0; j < w->u.window.ncalls && ok; j++)
      ok = looks_back(&w->u.window.calls[j]);
    if (!ok) continue;
    if (w->u.window.limit < 0 || lim < w->u.window.limit) {
      w->u.window.limit = lim;
      w->u.window.limit_call = call;
    }
  }
}

int sql_rewrite(struct sql_rewrite *rw, struct sql_node **root) {
  CHV_RETURN_IF_ERR(sql_rewrite_join_push(rw, root));
  CHV_RETURN_IF_ERR(pushdown(rw, root));
  CHV_RETURN_IF_ERR(sql_rewrite_join_order(rw, root));
  CHV_RETURN_IF_ERR(fold(rw, root));
  CHV_RETURN_IF_ERR(prune(rw, *root, NULL, 0));
  CHV_RETURN_IF_ERR(drop_identity(rw, root));
  CHV_RETURN_IF_ERR(limits(rw, root));
  bound(*root);
  window_topn(*root);
  if (rw->dynamic_filtering)
    CHV_RETURN_IF_ERR(sql_rewrite_join_dynamic(rw, *root));
  return CHV_OK;
}
