/*
** sql/session/build: the logical plan of a query (sql/plan/node.h) from
** its parsed form.  Each FROM names a catalog table (a Scan), a view, a
** WITH query or a sub-query (the Derived rows of its own plan, bound as a
** table of no partitions named by the alias); the expressions are bound
** over what they read with sql/plan's binder, in the order that gives the
** scan its columns.  Per SELECT:
**
**   [Limit] <- Project <- [Sort] <- [Filter] <- input
**   [Limit] <- Project <- [Sort] <- [Filter (HAVING)] <- Aggregate <-
**                                   [Filter] <- input
**
** WHERE stays one Filter with its conjuncts: the pushdown pass
** (sql/plan/rewrite.c) gives the scan what it can apply.  UNION [ALL] is a
** Union node over its branches, cast to their common types; UNION (and
** ORDER BY or LIMIT after a UNION) a SELECT [DISTINCT] * over its rows.
** A view's or WITH query's text is built where it is named; the view is
** on the session's stack of views (views.c) while it is.  Errors point
** where they are (*pos) and name the object.
*/
#include "sql/session/session_int.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define type_name sql_type_name
#define parse_int sql_parse_int

static const char *unsupported_query(const struct chv_sql_query *q,
                                     struct chv_sql_pos *pos) {
  *pos = q->pos;
  if (!q->from) return NULL; /* one row of no columns */
  *pos = q->from->pos;
  if (q->from->system_time) return "FOR SYSTEM_TIME AS OF";
  return NULL;
}

/* True when a qualifier (t, db.t) names the table (or its alias). */
static bool qualifier_ok(const struct chv_sql_name *n, int nq,
                         const struct chv_table *t, const char *alias) {
  if (nq == 0) return true;
  const char *last = n->parts[nq - 1];
  if (!t->name) return false; /* SELECT without FROM */
  if (alias) return nq == 1 && !strcasecmp(last, alias);
  if (strcasecmp(last, t->name)) return false;
  return nq < 2 || !strcasecmp(n->parts[nq - 2], t->db);
}


/* "a, b + 1 AS c": a query's select items as EXPLAIN prints them (heads:
** the nout output names; item_out[i]: item i's first output, NULL: i; a *
** gives its columns). */
static void items_text(const struct chv_sql_query *q, const char *const *heads,
                       const int *item_out, int nout, struct chv_buf *b) {
  for (size_t i = 0; i < q->nitems; i++) {
    const struct chv_sql_expr *e = q->items[i].expr;
    int at = item_out ? item_out[i] : (int)i;
    if (i) chv_buf_puts(b, ", ");
    if (e->kind == CHV_SQL_EXPR_STAR) {
      int to = i + 1 < q->nitems && item_out ? item_out[i + 1] : nout;
      for (int c = at; c < to; c++)
        chv_buf_printf(b, "%s%s", c > at ? ", " : "", heads[c]);
      continue;
    }
    sql_expr_text(e, b);
    const char *h = heads[at];
    if (q->items[i].alias || e->kind != CHV_SQL_EXPR_COLUMN)
      chv_buf_printf(b, " AS %s", h);
  }
}

/* "a DESC NULLS LAST, b": the ORDER BY keys. */
static void order_text(const struct chv_sql_query *q, struct chv_buf *b) {
  for (size_t k = 0; k < q->norder_by; k++) {
    if (k) chv_buf_puts(b, ", ");
    sql_expr_text(q->order_by[k].expr, b);
    chv_buf_puts(b, q->order_by[k].desc ? " DESC" : " ASC");
    if (q->order_by[k].nulls)
      chv_buf_puts(b, q->order_by[k].nulls == 1 ? " NULLS FIRST"
                                                : " NULLS LAST");
  }
}


/* The ORDER BY expression of item k: a select alias, a 1-based position
** (Hive's hive.orderby.position.alias) or an expression; *ord is the
** select item it names, or -1. */
static int order_item(const struct chv_sql_query *q, size_t k, int *ord,
                      struct chv_sql_pos *pos, struct chv_error *err) {
  const struct chv_sql_expr *e = q->order_by[k].expr;
  *ord = -1;
  if (e->kind == CHV_SQL_EXPR_LITERAL && e->u.lit.kind == CHV_SQL_LIT_INTEGER) {
    errno = 0;
    long long v = strtoll(e->u.lit.value, NULL, 10);
    if (errno || v < 1 || (size_t)v > q->nitems ||
        q->items[v - 1].expr->kind == CHV_SQL_EXPR_STAR) {
      *pos = e->pos;
      return sql_err(err, CHV_EINVAL,
                     "ORDER BY position %s is not in the select list",
                     e->u.lit.text);
    }
    *ord = (int)v - 1;
    return CHV_OK;
  }
  if (e->kind == CHV_SQL_EXPR_COLUMN && e->u.column.nparts == 1)
    for (size_t i = 0; i < q->nitems; i++)
      if (q->items[i].alias &&
          !strcasecmp(q->items[i].alias, e->u.column.parts[0])) {
        *ord = (int)i;
        return CHV_OK;
      }
  return CHV_OK;
}


/* True when e holds an aggregate call. */
static bool has_agg(const struct chv_sql_expr *e) {
  if (!e) return false;
  switch (e->kind) {
  case CHV_SQL_EXPR_FUNC:
    if (sql_is_aggregate(e->u.func.name) && !e->u.func.over) return true;
    for (size_t i = 0; i < e->u.func.n; i++)
      if (has_agg(e->u.func.args[i])) return true;
    if (e->u.func.over) { /* rank() OVER (ORDER BY sum(x)) */
      const struct chv_sql_window *w = e->u.func.over;
      for (size_t i = 0; i < w->npartition_by; i++)
        if (has_agg(w->partition_by[i])) return true;
      for (size_t i = 0; i < w->norder_by; i++)
        if (has_agg(w->order_by[i].expr)) return true;
    }
    return false;
  case CHV_SQL_EXPR_UNARY: return has_agg(e->u.unary.arg);
  case CHV_SQL_EXPR_BINARY:
    return has_agg(e->u.binary.left) || has_agg(e->u.binary.right);
  case CHV_SQL_EXPR_IN:
    if (has_agg(e->u.in.arg)) return true;
    for (size_t i = 0; i < e->u.in.n; i++)
      if (has_agg(e->u.in.list[i])) return true;
    return false;
  case CHV_SQL_EXPR_BETWEEN:
    return has_agg(e->u.between.arg) || has_agg(e->u.between.low) ||
           has_agg(e->u.between.high);
  case CHV_SQL_EXPR_LIKE:
    return has_agg(e->u.like.arg) || has_agg(e->u.like.pattern);
  case CHV_SQL_EXPR_IS: return has_agg(e->u.is.arg);
  case CHV_SQL_EXPR_CAST: return has_agg(e->u.cast.arg);
  case CHV_SQL_EXPR_CASE:
    if (has_agg(e->u.case_.operand) || has_agg(e->u.case_.else_)) return true;
    for (size_t i = 0; i < e->u.case_.n; i++)
      if (has_agg(e->u.case_.when[i]) || has_agg(e->u.case_.then[i]))
        return true;
    return false;
  default: return false;
  }
}

/* The aggregation of one query: keys (GROUP BY expressions) and the
** distinct aggregate calls of the select list and HAVING. */
struct agg_ctx {
  chv_arena *a;
  struct sql_bind *in;       /* binder over the table (keys, arguments) */
  int nkeys;
  const char **key_text;
  struct chv_expr **key_expr;
  /* with grouping sets, the keys over the input (key_expr: the Expand's
  ** columns); NULL: key_expr */
  struct chv_expr **key_in;
  int naggs, cap;
  const char **agg_text;
  const char **agg_qtext;    /* the same, qualified as written (a.s) */
  enum chv_agg_fn *fns;
  struct chv_expr **agg_arg; /* NULL for COUNT(*) */
  const struct chv_type **rtypes; /* the Aggregate's columns' types */
  /* GROUPING SETS, ROLLUP, CUBE (grouping.c), or NULL; the keys the
  ** select items may name (the first nmatch: the id and $set follow) and
  ** the GROUPING__ID column */
  const struct sql_grouping *gs;
  int nmatch, id_col;
};


/* Adds the aggregate calls of e to c (each distinct call once). */
static int collect_aggs(struct agg_ctx *c, const struct chv_sql_expr *e,
                        struct chv_sql_pos *pos, struct chv_error *err) {
  if (!e || !has_agg(e)) return CHV_OK;
  if (e->kind != CHV_SQL_EXPR_FUNC || !sql_is_aggregate(e->u.func.name) ||
      e->u.func.over) {
    /* recurse through the node's children */
    switch (e->kind) {
    case CHV_SQL_EXPR_FUNC:
      for (size_t i = 0; i < e->u.func.n; i++)
        CHV_RETURN_IF_ERR(collect_aggs(c, e->u.func.args[i], pos, err));
      if (e->u.func.over) {
        const struct chv_sql_window *w = e->u.func.over;
        for (size_t i = 0; i < w->npartition_by; i++)
          CHV_RETURN_IF_ERR(collect_aggs(c, w->partition_by[i], pos, err));
        for (size_t i = 0; i < w->norder_by; i++)
          CHV_RETURN_IF_ERR(collect_aggs(c, w->order_by[i].expr, pos, err));
      }
      return CHV_OK;
    case CHV_SQL_EXPR_UNARY: return collect_aggs(c, e->u.unary.arg, pos, err);
    case CHV_SQL_EXPR_BINARY:
      CHV_RETURN_IF_ERR(collect_aggs(c, e->u.binary.left, pos, err));
      return collect_aggs(c, e->u.binary.right, pos, err);
    case CHV_SQL_EXPR_IN:
      return collect_aggs(c, e->u.in.arg, pos, err);
    case CHV_SQL_EXPR_BETWEEN:
      CHV_RETURN_IF_ERR(collect_aggs(c, e->u.between.arg, pos, err));
      CHV_RETURN_IF_ERR(collect_aggs(c, e->u.between.low, pos, err));
      return collect_aggs(c, e->u.between.high, pos, err);
    case CHV_SQL_EXPR_LIKE: return collect_aggs(c, e->u.like.arg, pos, err);
    case CHV_SQL_EXPR_IS: return collect_aggs(c, e->u.is.arg, pos, err);
    case CHV_SQL_EXPR_CAST: return collect_aggs(c, e->u.cast.arg, pos, err);
    case CHV_SQL_EXPR_CASE:
      CHV_RETURN_IF_ERR(collect_aggs(c, e->u.case_.operand, pos, err));
      CHV_RETURN_IF_ERR(collect_aggs(c, e->u.case_.else_, pos, err));
      for (size_t i = 0; i < e->u.case_.n; i++) {
        CHV_RETURN_IF_ERR(collect_aggs(c, e->u.case_.when[i], pos, err));
        CHV_RETURN_IF_ERR(collect_aggs(c, e->u.case_.then[i], pos, err));
      }
      return CHV_OK;
    default: return CHV_OK;
    }
  }
  *pos = e->pos;
  const char *text = sql_expr_text_in(c->a, e);
  if (!text) return sql_err(err, CHV_ENOMEM, "out of memory");
  const char *n = e->u.func.name;
  enum chv_agg_fn fn;
  if (!strcasecmp(n, "count"))
    fn = e->u.func.star       ? CHV_AGG_COUNT_STAR
         : e->u.func.distinct ? CHV_AGG_COUNT_DISTINCT
                              : CHV_AGG_COUNT;
  else if (!strcasecmp(n, "sum")) fn = CHV_AGG_SUM;
  else if (!strcasecmp(n, "min")) fn = CHV_AGG_MIN;
  else if (!strcasecmp(n, "max")) fn = CHV_AGG_MAX;
  else fn = CHV_AGG_AVG;
  if (e->u.func.distinct && fn != CHV_AGG_COUNT_DISTINCT)
    return sql_err(err, CHV_ENOTSUP, "%s(DISTINCT ...) is not supported yet",
                   n);
  if (fn != CHV_AGG_COUNT_STAR && e->u.func.n != 1)
    return sql_err(err, CHV_EINVAL, "%s takes one argument", n);
  if (fn != CHV_AGG_COUNT_STAR && has_agg(e->u.func.args[0]))
    return sql_err(err, CHV_EINVAL, "an aggregate inside %s", n);
  struct chv_expr *arg = NULL;
  if (fn != CHV_AGG_COUNT_STAR) {
    CHV_RETURN_IF_ERR(sql_bind_expr(c->in, e->u.func.args[0], &arg));
    *pos = e->pos;
  }
  /* each distinct call once, by its text qualified as written (a.s and
  ** b.s are both "s" unqualified) */
  const char *qtext = sql_expr_text_qualified_in(c->a, e);
  if (!qtext) return sql_err(err, CHV_ENOMEM, "out of memory");
  for (int j = 0; j < c->naggs; j++)
    if (!strcmp(c->agg_qtext[j], qtext)) return CHV_OK;
  if (c->naggs == c->cap) {
    int cap = c->cap ? 2 * c->cap : 8;
    const char **t = chv_arena_alloc(c->a, sizeof *t * (size_t)cap);
    enum chv_agg_fn *f = chv_arena_alloc(c->a, sizeof *f * (size_t)cap);
    struct chv_expr **x = chv_arena_alloc(c->a, sizeof *x * (size_t)cap);
    const char **qt = chv_arena_alloc(c->a, sizeof *qt * (size_t)cap);
    if (!t || !f || !x || !qt)
      return sql_err(err, CHV_ENOMEM, "out of memory");
    if (c->naggs) {
      memcpy(t, c->agg_text, sizeof *t * (size_t)c->naggs);
      memcpy(qt, c->agg_qtext, sizeof *qt * (size_t)c->naggs);
      memcpy(f, c->fns, sizeof *f * (size_t)c->naggs);
      memcpy(x, c->agg_arg, sizeof *x * (size_t)c->naggs);
    }
    c->agg_text = t, c->fns = f, c->agg_arg = x, c->cap = cap;
    c->agg_qtext = qt;
  }
  if (arg) {
    const struct chv_type *rt;
    CHV_RETURN_IF_ERR(chv_agg_result_type(c->a, fn, arg->type, &rt, err));
  }
  c->agg_text[c->naggs] = text;
  c->agg_qtext[c->naggs] = qtext;
  c->fns[c->naggs] = fn;
  c->agg_arg[c->naggs] = arg;
  c->naggs++;
  return CHV_OK;
}

/* Whether e bound over the aggregation's input (no hook, errors kept
** here) is x; true when it does not bind (the text decides then). */
static bool bound_same(struct agg_ctx *c, const struct chv_sql_expr *e,
                       const struct chv_expr *x) {
  struct sql_bind tmp = *c->in;
  struct chv_sql_pos pos = *tmp.pos;
  struct chv_error err;
  tmp.hook = NULL;
  tmp.on_seen = NULL;
  tmp.err = &err;
  struct chv_expr *y;
  bool same = sql_bind_expr(&tmp, e, &y) != CHV_OK || chv_expr_same(y, x);
  *tmp.pos = pos;
  return same;
}

/* Whether e, of the text of key k, computes what the key does over the
** aggregation's input (the text leaves out qualifiers: a.k and b.k of a
** join are both "k", a.k IS NULL and b.k IS NULL both "k IS NULL").
** Bound on a copy of the input's binder, which takes no column into it;
** what it cannot bind, and an expression holding a sub-query (which is
** not bound twice), is left to the text. */
static bool same_key(struct agg_ctx *c, const struct chv_sql_expr *e, int k) {
  const struct chv_expr *kx =
      !c->key_in ? (c->key_expr ? c->key_expr[k] : NULL)
                 : k < c->nkeys ? c->key_in[k] : NULL;
  if (!kx || sql_expr_has_subquery(e)) return true;
  return bound_same(c, e, kx);
}

/* Whether aggregate call e, of the text of call j, has j's argument. */
static bool same_arg(struct agg_ctx *c, const struct chv_sql_expr *e, int j) {
  if (!c->agg_arg[j] || e->u.func.n != 1) return false;
  return bound_same(c, e->u.func.args[0], c->agg_arg[j]);
}

/* Binds keys and aggregates over the aggregation's result batch. */
static int post_hook(struct sql_bind *b, const struct chv_sql_expr *e,
                     struct chv_expr **out, bool *done) {
  struct agg_ctx *c = b->hook_ctx;
  if (e->kind == CHV_SQL_EXPR_LITERAL) return CHV_OK;
  const char *text = sql_expr_text_in(c->a, e);
  if (!text) return sql_err(b->err, CHV_ENOMEM, "out of memory");
  for (int k = 0; k < c->nmatch; k++)
    if (!strcmp(c->key_text[k], text)) {
      if (!same_key(c, e, k)) continue; /* a.k is not b.k */
      *done = true;
      return chv_expr_column(c->a, k, c->rtypes[k], out, b->err);
    }
  int rc = sql_grouping_bind(c->a, c->gs, c->key_text, c->nmatch, c->id_col,
                             e, out, done, b->pos, b->err);
  if (rc != CHV_OK || *done) return rc;
  if (e->kind == CHV_SQL_EXPR_FUNC && sql_is_aggregate(e->u.func.name)) {
    /* the call of its text; of several (sum(a.v), sum(b.v)), the one
    ** written the same, else the one of the same argument */
    const char *qtext = NULL;
    int at = -1, n = 0;
    for (int j = 0; j < c->naggs; j++)
      if (!strcmp(c->agg_text[j], text) && n++ == 0) at = j;
    if (n > 1) {
      if (!(qtext = sql_expr_text_qualified_in(c->a, e)))
        return sql_err(b->err, CHV_ENOMEM, "out of memory");
      at = -1;
      for (int j = 0; j < c->naggs && at < 0; j++)
        if (!strcmp(c->agg_qtext[j], qtext)) at = j;
      for (int j = 0; j < c->naggs && at < 0; j++)
        if (!strcmp(c->agg_text[j], text) && same_arg(c, e, j)) at = j;
    }
    if (at >= 0) {
      *done = true;
      return chv_expr_column(c->a, c->nkeys + at, c->rtypes[c->nkeys + at],
                             out, b->err);
    }
  }
  if (e->kind == CHV_SQL_EXPR_COLUMN) {
    struct chv_buf q;
    chv_buf_init(&q);
    sql_expr_text_qualified(e, &q);
    int rc2 = sql_err(b->err, CHV_EINVAL,
                      "column %s is neither in GROUP BY nor inside an "
                      "aggregate", q.data ? q.data : text);
    chv_buf_free(&q);
    return rc2;
  }
  return CHV_OK;
}


/* ---- the plan's resources ------------------------------------------------------ */

int sql_qplan_open(struct sql_qplan **out, struct chv_error *err) {
  struct sql_qplan *qp = calloc(1, sizeof *qp);
  if (!qp || chv_arena_open(0, &qp->a) != CHV_OK) {
    free(qp);
    return sql_err(err, CHV_ENOMEM, "out of memory");
  }
  *out = qp;
  return CHV_OK;
}

void sql_qplan_close(struct sql_qplan *qp) {
  if (!qp) return;
  for (int i = 0; i < qp->ntables; i++) {
    chv_table_free(qp->tables[i]);
    free(qp->tables[i]);
  }
  free(qp->tables);
  for (int i = 0; i < qp->nrels; i++) sql_rel_close(qp->rels[i]);
  free(qp->rels);
  for (int i = 0; i < qp->ntypes; i++) chv_type_free(qp->types[i]);
  free(qp->types);
  for (int i = 0; i < qp->ntexts; i++) chv_arena_close(qp->texts[i]);
  free(qp->texts);
  for (int i = 0; i < qp->nheld; i++) {
    struct chv_type *st = (struct chv_type *)qp->held[i]->schema;
    chv_batch_close(qp->held[i]);
    chv_type_free(st);
  }
  free(qp->held);
  chv_arena_close(qp->a);
  free(qp);
}

static int keep(void ***v, int *n, int *cap, void *p) {
  if (*n == *cap) {
    int nc = *cap ? 2 * *cap : 8;
    void **nv = realloc(*v, sizeof *nv * (size_t)nc);
    if (!nv) return CHV_ENOMEM;
    *v = nv;
    *cap = nc;
  }
  (*v)[(*n)++] = p;
  return CHV_OK;
}

/* ---- building ------------------------------------------------------------------ */

/* Frees the binder b, its table's column types kept by the plan: the
** expressions bound over it hold them. */
static int bind_done(struct sql_qplan *qp, struct sql_bind *b) {
  int rc = CHV_OK;
  if (b->ttypes) {
    int n = b->t->ncols + b->t->npkeys;
    for (int i = 0; i < n; i++) {
      if (b->ttypes[i] &&
          keep((void ***)&qp->types, &qp->ntypes, &qp->captypes,
               b->ttypes[i]) != CHV_OK) {
        rc = CHV_ENOMEM;
        continue;
      }
      b->ttypes[i] = NULL;
    }
  }
  sql_bind_free(b);
  return rc;
}

struct bctx {
  struct sql_session *s;
  struct sql_qplan *qp;
  chv_arena *a;
  struct chv_sql_pos stpos;
  struct chv_sql_pos *pos;
  struct chv_error *err;
};

/* What a SELECT reads: a catalog table (Scan), a derived relation's rows
** (Derived over child, described by rel), or one row of nothing. */
struct jsrc;
/* A table's TABLESAMPLE: its scan's sample and EXPLAIN's text of it. */
struct src_sample {
  struct chv_scan_sample s;
  const char *text;
};
struct src {
  enum { SRC_TABLE, SRC_DERIVED, SRC_VALUES, SRC_JOIN } kind;
  chv_catalog *cat;
  const struct chv_table *t;     /* the binder's table */
  const char *alias;
  struct sql_node *child;        /* DERIVED */
  const struct chv_kv *options;  /* TABLE: its OPTIONS hint */
  int noptions;
  const struct jsrc *j;          /* JOIN: its relations */
  const struct src_sample *sample; /* TABLE: its TABLESAMPLE, or NULL */
};

/* A FROM of joins: its relations (leaves, in the order they are written),
** the binder's table of all their columns and the names it resolves. */
struct jsrc {
  const struct chv_sql_from *from;
  struct src *leaf;
  int nleaves;
  struct chv_table all;          /* every leaf's columns, in order */
  struct sql_rels rels;
  /* what * gives: table columns (>= 0) and merges -1 - m (USING), as the
  ** joins give them; the join of each merge */
  int *outs;
  int nouts;
  const struct chv_sql_from **mjoin;
};

static int bottom_join(struct bctx *c, const struct src *sr,
                       struct sql_bind *b, struct sql_node **out);

/* The table columns a * (or r.*) of a SELECT over sr names, into tc[*n]
** (room for every column; over a USING join, merge m is -1 - m);
** CHV_ENOENT for an unknown qualifier. */
static int star_tcols(struct bctx *c, const struct src *sr,
                      const struct chv_sql_expr *e, int *tc, int *n) {
  const struct chv_sql_name *nm = &e->u.star;
  const struct chv_table *t = sr->t;
  *n = 0;
  if (sr->kind != SRC_JOIN) {
    if (!qualifier_ok(nm, nm->nparts, t, sr->alias)) goto unknown;
    for (int k = 0; k < t->ncols + t->npkeys; k++) tc[(*n)++] = k;
    return CHV_OK;
  }
  if (!nm->nparts && sr->j->rels.nm) { /* the USING columns once, first */
    for (int i = 0; i < sr->j->nouts; i++) {
      int x = sr->j->outs[i];
      if (x >= 0 && sr->j->rels.r[sql_rels_find(&sr->j->rels, x)].qualified_only)
        continue;
      tc[(*n)++] = x;
    }
    return CHV_OK;
  }
  bool named = false;
  for (int r = 0; r < sr->j->rels.n; r++) {
    const struct sql_rel_name *rn = &sr->j->rels.r[r];
    const struct chv_table *lt = sr->j->leaf[r].t;
    if (nm->nparts && !qualifier_ok(nm, nm->nparts, lt, rn->alias)) continue;
    named = true;
    if ((rn->hidden || rn->qualified_only) && !nm->nparts)
      continue; /* * leaves it out */
    if (rn->hidden) {
      *c->pos = e->pos;
      return sql_err(c->err, CHV_EINVAL,
                     "%s.* names the right side of a LEFT SEMI or ANTI JOIN, "
                     "which is seen only in its ON",
                     nm->parts[nm->nparts - 1]);
    }
    for (int k = 0; k < rn->ncols; k++) tc[(*n)++] = rn->first + k;
  }
  if (named) return CHV_OK;
unknown:
  *c->pos = e->pos;
  return sql_err(c->err, CHV_ENOENT, "unknown table qualifier '%s' in %s.*",
                 nm->parts[nm->nparts - 1], nm->parts[nm->nparts - 1]);
}

static int build_query(struct bctx *c, const struct chv_sql_query *q,
                       struct sql_target *ins, struct sql_node **out);

/* A scalar sub-query the query does not correlate, run once. */
static int scalar_value(void *ctx, const struct chv_sql_query *q,
                        struct chv_expr **out) {
  struct bctx *c = ctx;
  return sql_query_scalar(c->s, q, c->a, out, c->pos, c->err);
}

/* The rows of an IN or EXISTS sub-query the query does not correlate, run
** once. */
static int subquery_rows(void *ctx, const struct chv_sql_query *q, bool exists,
                         struct chv_vector **vals, bool *any) {
  struct bctx *c = ctx;
  return sql_query_rows(c->s, q, c->a, exists, vals, any, c->pos, c->err);
}

static int oomc(struct bctx *c) {
  return sql_err(c->err, CHV_ENOMEM, "out of memory");
}

static char *arena_str(chv_arena *a, const char *s) {
  size_t n = strlen(s);
  char *p = chv_arena_alloc(a, n + 1);
  if (p) memcpy(p, s, n + 1);
  return p;
}

static const char *buf_str(struct bctx *c, const struct chv_buf *b) {
  return arena_str(c->a, b->data ? b->data : "");
}

/* The whole number of TABLESAMPLE's text v (digits only), at most Hive's
** int (TABLESAMPLE's numbers are Java ints in Hive), into *out; false when
** it is not one. */
static bool sample_int(const char *v, size_t n, int64_t *out) {
  int64_t x = 0;
  if (n == 0) return false;
  for (size_t i = 0; i < n; i++) {
    if (v[i] < '0' || v[i] > '9') return false;
    x = x * 10 + (v[i] - '0');
    if (x > INT32_MAX) return false;
  }
  *out = x;
  return true;
}

/* Hive's TABLESAMPLE of a table (sm, or NULL) as its scan's sample, with
** the checks of Hive's analyzer: n ROWS a whole number (an int), n PERCENT
** from 0 to 100, a length's number an int (b, k, m, g: bytes, KiB, MiB,
** GiB).  Sampling by buckets needs Hive's bucketing hash: not supported. */
static int table_sample(struct bctx *c, const struct chv_sql_sample *sm,
                        struct src *sr) {
  sr->sample = NULL;
  if (!sm) return CHV_OK;
  *c->pos = sm->pos;
  if (sm->kind == CHV_SQL_SAMPLE_BUCKET)
    return sql_err(c->err, CHV_ENOTSUP,
                   "TABLESAMPLE (BUCKET %s OUT OF %s) is not supported: it "
                   "keeps the rows of a bucket by Hive's bucketing hash, "
                   "which chive does not compute; sample n ROWS, n PERCENT "
                   "or a length (100M) instead",
                   sm->value, sm->out_of);
  *c->pos = sm->value_pos;
  struct src_sample *ss = chv_arena_alloc(c->a, sizeof *ss);
  if (!ss) return oomc(c);
  memset(ss, 0, sizeof *ss);
  struct chv_scan_sample *o = &ss->s;
  char text[200];
  const char *v = sm->value;
  size_t n = strlen(v);
  if (sm->kind == CHV_SQL_SAMPLE_ROWS) {
    if (!sample_int(v, n, &o->rows))
      return sql_err(c->err, CHV_EINVAL,
                     "TABLESAMPLE (%s ROWS): the rows of each split are a "
                     "whole number from 0 to 2147483647",
                     v);
    o->kind = CHV_SAMPLE_ROWS;
    snprintf(text, sizeof text, "%s ROWS per split", v);
  } else if (sm->kind == CHV_SQL_SAMPLE_PERCENT) {
    char *end;
    errno = 0;
    double pct = strtod(v, &end);
    if (*end || errno || !(pct >= 0 && pct <= 100))
      return sql_err(c->err, CHV_EINVAL,
                     "TABLESAMPLE (%s PERCENT): the percentage must be "
                     "between 0 and 100",
                     v);
    o->kind = CHV_SAMPLE_PERCENT;
    o->percent = pct;
    snprintf(text, sizeof text, "%s PERCENT", v);
  } else {
    int64_t x;
    char u = v[n - 1];
    if (!sample_int(v, n - 1, &x))
      return sql_err(c->err, CHV_EINVAL,
                     "TABLESAMPLE (%s): the length's number is a whole "
                     "number from 0 to 2147483647",
                     v);
    int shift = u == 'k' || u == 'K'   ? 10
                : u == 'm' || u == 'M' ? 20
                : u == 'g' || u == 'G' ? 30
                                       : 0; /* b, B: bytes */
    o->kind = CHV_SAMPLE_BYTES;
    o->bytes = x << shift;
    snprintf(text, sizeof text, "%s", v);
  }
  if (!(ss->text = arena_str(c->a, text))) return oomc(c);
  sr->sample = ss;
  return CHV_OK;
}

/* TABLESAMPLE where it names no table: a view or a WITH query (what). */
static int sample_not_table(struct bctx *c, const struct chv_sql_sample *sm,
                            const char *what, const char *hint) {
  *c->pos = sm->pos;
  return sql_err(c->err, CHV_EINVAL,
                 "TABLESAMPLE samples the files of a table, and %s is %s", what,
                 hint);
}

/* SELECT DISTINCT *: q with each * replaced by the columns it names (a
** table's data columns, then its partition keys; a join's, qualified), in
** the arena; q itself when it has no *. */
static int expand_stars(struct bctx *c, const struct chv_sql_query *q,
                        const struct src *sr,
                        const struct chv_sql_query **out) {
  const struct chv_table *t = sr->t;
  int nt = t->ncols + t->npkeys;
  size_t n = 0, nstar = 0;
  for (size_t i = 0; i < q->nitems; i++)
    if (q->items[i].expr->kind == CHV_SQL_EXPR_STAR)
      nstar++;
    else
      n++;
  if (!nstar) return CHV_OK;
  int *tc = chv_arena_alloc(c->a, sizeof *tc * (size_t)(nt + 1));
  struct chv_sql_query *dq = chv_arena_alloc(c->a, sizeof *dq);
  struct chv_sql_select_item *items =
      chv_arena_alloc(c->a, sizeof *items * (n + nstar * (size_t)nt + 1));
  struct chv_sql_expr *cols =
      chv_arena_alloc(c->a, sizeof *cols * (nstar * (size_t)nt + 1));
  if (!tc || !dq || !items || !cols) return oomc(c);
  *dq = *q;
  size_t k = 0, m = 0;
  for (size_t i = 0; i < q->nitems; i++) {
    const struct chv_sql_expr *e = q->items[i].expr;
    if (e->kind != CHV_SQL_EXPR_STAR) {
      items[k++] = q->items[i];
      continue;
    }
    int ntc;
    CHV_RETURN_IF_ERR(star_tcols(c, sr, e, tc, &ntc));
    for (int j = 0; j < ntc; j++, m++) {
      struct chv_sql_name *nm = &cols[m].u.column;
      memset(&cols[m], 0, sizeof cols[m]);
      cols[m].kind = CHV_SQL_EXPR_COLUMN;
      cols[m].pos = e->pos;
      if (tc[j] < 0) { /* a USING column: the merge itself */
        char num[16];
        snprintf(num, sizeof num, "%d", -1 - tc[j]);
        nm->nparts = 3;
        nm->parts[0] = sql_merge_qual;
        nm->parts[1] = arena_str(c->a, num);
        nm->parts[2] = sr->j->rels.m[-1 - tc[j]].name;
        if (!nm->parts[1]) return oomc(c);
      } else if (sr->kind == SRC_JOIN) { /* qualified: names repeat */
        const struct sql_rel_name *rn =
            &sr->j->rels.r[sql_rels_find(&sr->j->rels, tc[j])];
        if (rn->alias) {
          nm->parts[nm->nparts++] = rn->alias;
        } else {
          if (rn->db && rn->db[0]) nm->parts[nm->nparts++] = rn->db;
          nm->parts[nm->nparts++] = rn->name;
        }
        nm->parts[nm->nparts++] = t->columns[tc[j]].name;
      } else {
        nm->nparts = 1;
        nm->parts[0] = tc[j] < t->ncols ? t->columns[tc[j]].name
                                        : t->pkeys[tc[j] - t->ncols].name;
      }
      items[k].expr = &cols[m];
      items[k++].alias = NULL;
    }
  }
  dq->items = items;
  dq->nitems = k;
  *out = dq;
  return CHV_OK;
}

/* The node the binder's columns (b->cols) are read from: the Scan of the
** table, the Derived rows of a relation or the one row of no FROM. */
static int bottom(struct bctx *c, const struct src *sr, struct sql_bind *b,
                  struct sql_node **out) {
  struct sql_node *nd;
  int rc;
  if (sr->kind == SRC_JOIN) return bottom_join(c, sr, b, out);
  if (sr->kind == SRC_VALUES) {
    CHV_RETURN_IF_ERR(
        sql_node_new(c->a, SQL_NODE_VALUES, NULL, 0, &nd, c->err));
    nd->u.values.nrows = 1;
    *out = nd;
    return CHV_OK;
  }
  if (sr->kind == SRC_TABLE) {
    rc = sql_node_new(c->a, SQL_NODE_SCAN, NULL, 0, &nd, c->err);
    if (rc != CHV_OK) return rc;
    nd->u.scan.cat = sr->cat;
    nd->u.scan.t = sr->t;
    nd->u.scan.options = sr->options;
    nd->u.scan.noptions = sr->noptions;
    if (sr->sample) {
      nd->u.scan.sample = sr->sample->s;
      nd->u.scan.sample_text = sr->sample->text;
    }
    nd->u.scan.columns =
        chv_arena_alloc(c->a, sizeof *nd->u.scan.columns * (size_t)(b->ncols + 1));
    if (!nd->u.scan.columns) return oomc(c);
  } else {
    rc = sql_node_new(c->a, SQL_NODE_DERIVED, &sr->child, 1, &nd, c->err);
    if (rc != CHV_OK) return rc;
    nd->u.derived.what = ((const struct sql_rel *)(const void *)sr->t)->what;
    nd->u.derived.map =
        chv_arena_alloc(c->a, sizeof *nd->u.derived.map * (size_t)(b->ncols + 1));
    if (!nd->u.derived.map) return oomc(c);
  }
  CHV_RETURN_IF_ERR(sql_node_cols(c->a, nd, b->ncols, c->err));
  for (int k = 0; k < b->ncols; k++) {
    nd->cols[k].name = b->cols[k];
    nd->cols[k].type = b->types[k];
    if (sr->kind == SRC_TABLE) {
      nd->u.scan.columns[k] = b->cols[k];
      continue;
    }
    int i = 0; /* the relation's column of that name (its very string) */
    while (i < sr->t->ncols && sr->t->columns[i].name != b->cols[k]) i++;
    nd->u.derived.map[k] = i < sr->t->ncols ? i : 0;
  }
  *out = nd;
  return CHV_OK;
}

/* The name of output column n, select item it: its alias, a column's
** name (column), else Hive's _cN. */
static int item_head(struct bctx *c, const struct chv_sql_select_item *it,
                     int n, const char *column, const char **out) {
  if (it->alias) {
    *out = it->alias;
  } else if (it->expr->kind == CHV_SQL_EXPR_COLUMN) {
    *out = column;
  } else {
    char h[24];
    snprintf(h, sizeof h, "_c%d", n);
    if (!(*out = arena_str(c->a, h))) return oomc(c);
  }
  return CHV_OK;
}

/* The ORDER BY keys of q into oex: a select item it names is that item's
** expression (ex[item_out[i]], item_out NULL: ex[i]), others bound by b. */
static int order_keys(struct bctx *c, const struct chv_sql_query *q,
                      struct sql_bind *b, struct chv_expr **ex,
                      const int *item_out, struct chv_expr **oex) {
  for (size_t k = 0; k < q->norder_by; k++) {
    int ord;
    CHV_RETURN_IF_ERR(order_item(q, k, &ord, c->pos, c->err));
    if (ord < 0)
      CHV_RETURN_IF_ERR(sql_bind_expr(b, q->order_by[k].expr, &oex[k]));
    else
      oex[k] = ex[item_out ? item_out[ord] : ord];
    if (!chv_type_is_primitive(oex[k]->type->id)) {
      *c->pos = q->order_by[k].expr->pos;
      return sql_err(c->err, CHV_ENOTSUP, "ORDER BY a nested type");
    }
  }
  return CHV_OK;
}

static int node_over(struct bctx *c, enum sql_node_kind kind,
                     struct sql_node *in, struct sql_node **out) {
  CHV_RETURN_IF_ERR(sql_node_new(c->a, kind, &in, 1, out, c->err));
  if (kind != SQL_NODE_PROJECT && kind != SQL_NODE_AGGREGATE)
    return sql_node_pass_cols(c->a, *out, c->err);
  return CHV_OK;
}

/* A LIMIT's or OFFSET's count e (what: its name): a non-negative integer
** literal. */
static int count_literal(struct bctx *c, const struct chv_sql_expr *e,
                         const char *what, int64_t *out) {
  *c->pos = e->pos;
  const char *lt;
  struct chv_error ignored;
  if (e->kind != CHV_SQL_EXPR_LITERAL || e->u.lit.kind != CHV_SQL_LIT_INTEGER ||
      sql_literal_text(e, c->a, &lt, &ignored) != CHV_OK ||
      !parse_int(lt, out) || *out < 0)
    return sql_err(c->err, CHV_ENOTSUP,
                   "%s takes a non-negative integer literal", what);
  return CHV_OK;
}

/* LIMIT n: *limit (-1: none); its OFFSET is checked too. */
static int query_limit(struct bctx *c, const struct chv_sql_query *q,
                       int64_t *limit) {
  *limit = -1;
  int64_t off;
  if (q->offset) CHV_RETURN_IF_ERR(count_literal(c, q->offset, "OFFSET", &off));
  return q->limit ? count_literal(c, q->limit, "LIMIT", limit) : CHV_OK;
}

/* DISTRIBUTE BY's keys bound over b: in one process every row goes to the
** one reader of the rows, so the clause holds as it is; its keys must
** name what the query reads. */
static int distribute_keys(struct bctx *c, const struct chv_sql_query *q,
                           struct sql_bind *b) {
  for (size_t i = 0; i < q->ndistribute_by; i++) {
    struct chv_expr *x;
    *c->pos = q->distribute_by[i]->pos;
    CHV_RETURN_IF_ERR(sql_bind_expr(b, q->distribute_by[i], &x));
  }
  return CHV_OK;
}

/* WHERE over the binder b: each conjunct bound (errors name it), AND-ed
** into a Filter above *at that the pushdown pass splits. */
static int where_node(struct bctx *c, const struct chv_sql_query *q,
                      struct sql_bind *b, bool agg, struct sql_node **filt) {
  *filt = NULL;
  if (!q->where) return CHV_OK;
  size_t n = 0;
  sql_conjuncts(q->where, NULL, &n);
  const struct chv_sql_expr **conj = chv_arena_alloc(c->a, sizeof *conj * (n + 1));
  struct chv_expr **bound = chv_arena_alloc(c->a, sizeof *bound * (n + 1));
  if (!conj || !bound) return oomc(c);
  n = 0;
  sql_conjuncts(q->where, conj, &n);
  struct chv_expr *pred = NULL;
  struct chv_buf text;
  chv_buf_init(&text);
  int rc = CHV_OK;
  for (size_t i = 0; i < n && rc == CHV_OK; i++) {
    if (agg && has_agg(conj[i])) {
      *c->pos = conj[i]->pos;
      rc = sql_err(c->err, CHV_EINVAL, "an aggregate in WHERE (use HAVING)");
      break;
    }
    rc = sql_bind_expr(b, conj[i], &bound[i]);
    if (rc != CHV_OK) break;
    if (bound[i]->type->id != CHV_TYPE_BOOLEAN) {
      *c->pos = conj[i]->pos;
      if (agg) {
        rc = sql_err(c->err, CHV_ETYPE, "WHERE condition is not boolean");
        break;
      }
      char tn[64];
      type_name(bound[i]->type, tn, sizeof tn);
      chv_buf_reset(&text);
      sql_expr_text(conj[i], &text);
      rc = sql_err(c->err, CHV_ETYPE,
                   "WHERE condition %s is of type %s, not boolean",
                   text.data, tn);
      break;
    }
    if (pred)
      rc = chv_expr_and(c->a, pred, bound[i], &pred, c->err);
    else
      pred = bound[i];
  }
  chv_buf_free(&text);
  if (rc != CHV_OK) return rc;
  struct sql_node *nd;
  CHV_RETURN_IF_ERR(sql_node_new(c->a, SQL_NODE_FILTER, NULL, 0, &nd, c->err));
  nd->u.filter.pred = pred;
  nd->u.filter.where = q->where;
  nd->u.filter.conj = conj;
  nd->u.filter.bound = bound;
  nd->u.filter.nconj = n;
  chv_buf_init(&text);
  sql_expr_text(q->where, &text);
  nd->text = buf_str(c, &text);
  chv_buf_free(&text);
  *filt = nd;
  return nd->text ? CHV_OK : oomc(c);
}

/* Hangs filt (or nothing) over *at. */
static int put_over(struct bctx *c, struct sql_node *nd, struct sql_node **at) {
  if (!nd) return CHV_OK;
  nd->in = chv_arena_alloc(c->a, sizeof *nd->in * 2);
  if (!nd->in) return oomc(c);
  nd->in[0] = *at;
  nd->nin = 1;
  if (nd->kind != SQL_NODE_PROJECT && nd->kind != SQL_NODE_AGGREGATE)
    CHV_RETURN_IF_ERR(sql_node_pass_cols(c->a, nd, c->err));
  *at = nd;
  return CHV_OK;
}

/* The Sort of q's ORDER BY over *at, keys keys[0, n). */
static int sort_node(struct bctx *c, const struct chv_sql_query *q,
                     struct chv_expr **keys, struct sql_node **at) {
  if (!q->norder_by) return CHV_OK;
  struct sql_node *nd;
  CHV_RETURN_IF_ERR(node_over(c, SQL_NODE_SORT, *at, &nd));
  nd->u.sort.nkeys = (int)q->norder_by;
  nd->u.sort.keys =
      chv_arena_alloc(c->a, sizeof *nd->u.sort.keys * (q->norder_by + 1));
  if (!nd->u.sort.keys) return oomc(c);
  for (size_t k = 0; k < q->norder_by; k++)
    nd->u.sort.keys[k] = (struct sql_sort_key){keys[k], q->order_by[k].desc,
                                               q->order_by[k].nulls};
  struct chv_buf t;
  chv_buf_init(&t);
  order_text(q, &t);
  nd->u.sort.keys_text = buf_str(c, &t);
  chv_buf_free(&t);
  nd->pos = q->order_by[0].expr->pos;
  *at = nd;
  return nd->u.sort.keys_text ? CHV_OK : oomc(c);
}

/* The Project of the items ex[0, n) named heads over *at, then LIMIT. */
static int project_node(struct bctx *c, const struct chv_sql_query *q,
                        struct chv_expr **ex, const char *const *heads,
                        const struct chv_sql_pos *ipos, int n,
                        const char *text, int64_t limit,
                        struct sql_node **at) {
  struct sql_node *nd;
  CHV_RETURN_IF_ERR(node_over(c, SQL_NODE_PROJECT, *at, &nd));
  CHV_RETURN_IF_ERR(sql_node_cols(c->a, nd, n, c->err));
  nd->u.project.exprs = ex;
  for (int k = 0; k < n; k++)
    nd->cols[k] = (struct sql_col){heads[k], ex[k]->type, ipos[k]};
  nd->text = text;
  nd->pos = q->pos;
  *at = nd;
  int64_t off = 0;
  if (q->offset) CHV_RETURN_IF_ERR(count_literal(c, q->offset, "OFFSET", &off));
  if (limit < 0 && off == 0) return CHV_OK;
  CHV_RETURN_IF_ERR(node_over(c, SQL_NODE_LIMIT, *at, &nd));
  nd->u.limit.n = limit;
  nd->u.limit.offset = off;
  *at = nd;
  return CHV_OK;
}

/* A SELECT without aggregates over sr: [Limit] <- Project <- [Sort] <-
** [Filter] <- the input. */
static int build_exprs(struct bctx *c, const struct chv_sql_query *q,
                       const struct src *sr, struct sql_target *ins,
                       struct sql_node **out) {
  const struct chv_table *t = sr->t;
  struct sql_bind b;
  struct chv_buf cell;
  chv_buf_init(&cell);
  const char *alias = sr->alias;
  int rc = sql_bind_init(&b, t, alias, c->a, c->pos, c->err);
  if (sr->kind == SRC_JOIN) b.rels = &sr->j->rels;
  b.scalar = scalar_value;
  b.rows = subquery_rows;
  b.scalar_ctx = c;
  char what[512];
  b.what = sql_table_what(t, what, sizeof what);
  if (rc != CHV_OK) goto out;
  int64_t limit;
  if ((rc = query_limit(c, q, &limit)) != CHV_OK) goto out;
  int cap = 0;
  for (size_t i = 0; i < q->nitems; i++)
    cap += q->items[i].expr->kind == CHV_SQL_EXPR_STAR ? t->ncols + t->npkeys
                                                        : 1;
  struct chv_expr **ex = chv_arena_alloc(c->a, sizeof *ex * (size_t)(cap + 1));
  const char **heads = chv_arena_alloc(c->a, sizeof *heads * (size_t)(cap + 1));
  struct chv_sql_pos *ipos =
      chv_arena_alloc(c->a, sizeof *ipos * (size_t)(cap + 1));
  struct chv_expr **oex =
      chv_arena_alloc(c->a, sizeof *oex * (q->norder_by + 1));
  int *item_out = chv_arena_alloc(c->a, sizeof *item_out * (q->nitems + 1));
  if (!ex || !heads || !ipos || !oex || !item_out) {
    rc = oomc(c);
    goto out;
  }
  int nout = 0;
  struct sql_wins wn;
  memset(&wn, 0, sizeof wn);
  sql_wins_on(&wn, q, &b, c->a, c->pos, c->err); /* the items' OVER calls */
  for (size_t i = 0; i < q->nitems; i++) {
    const struct chv_sql_expr *e = q->items[i].expr;
    *c->pos = e->pos;
    item_out[i] = nout;
    if (e->kind == CHV_SQL_EXPR_STAR) {
      if (!t->name) {
        rc = sql_err(c->err, CHV_ENOENT, "SELECT * needs a FROM clause");
        goto out;
      }
      int *tc = chv_arena_alloc(c->a, sizeof *tc * (size_t)(t->ncols + t->npkeys + 1));
      int ntc;
      if (!tc) {
        rc = oomc(c);
        goto out;
      }
      if ((rc = star_tcols(c, sr, e, tc, &ntc)) != CHV_OK) goto out;
      for (int k = 0; k < ntc; k++) {
        if (tc[k] < 0) { /* a USING column */
          rc = sql_bind_merge(&b, -1 - tc[k], &ex[nout]);
          heads[nout] = sr->j->rels.m[-1 - tc[k]].name;
        } else {
          rc = sql_bind_column(&b, tc[k], &ex[nout]);
          if (rc == CHV_OK) heads[nout] = b.cols[ex[nout]->column];
        }
        if (rc != CHV_OK) goto out;
        ipos[nout++] = e->pos;
      }
      continue;
    }
    rc = sql_bind_expr(&b, e, &ex[nout]);
    if (rc != CHV_OK) goto out;
    /* a column's name; a USING column's may be COALESCE of two */
    rc = item_head(c, &q->items[i], nout,
                   e->kind != CHV_SQL_EXPR_COLUMN ? NULL
                   : ex[nout]->kind == CHV_EXPR_COLUMN
                       ? b.cols[ex[nout]->column]
                       : e->u.column.parts[e->u.column.nparts - 1],
                   &heads[nout]);
    if (rc != CHV_OK) goto out;
    ipos[nout++] = e->pos;
  }
  if ((rc = order_keys(c, q, &b, ex, item_out, oex)) != CHV_OK) goto out;
  sql_wins_off(&wn);
  if ((rc = distribute_keys(c, q, &b)) != CHV_OK) goto out;
  if (ins) {
    rc = sql_target_casts(ins, q->pos, c->a, ex, heads, ipos, nout, c->pos,
                          c->err);
    if (rc != CHV_OK) goto out;
  }
  struct sql_node *filt;
  rc = where_node(c, q, &b, false, &filt);
  if (rc != CHV_OK) goto out;
  if (b.ncols == 0 && t->name) { /* SELECT 1 FROM t: one column, for rows */
    struct chv_expr *x;
    rc = sql_bind_column(&b, 0, &x);
    if (rc != CHV_OK) goto out;
  }
  struct sql_node *at;
  if ((rc = bottom(c, sr, &b, &at)) != CHV_OK) goto out;
  if (filt && q->where) filt->pos = q->where->pos;
  if ((rc = put_over(c, filt, &at)) != CHV_OK) goto out;
  if ((rc = sql_wins_nodes(&wn, &at)) != CHV_OK) goto out;
  if ((rc = sort_node(c, q, oex, &at)) != CHV_OK) goto out;
  items_text(q, heads, item_out, nout, &cell);
  const char *text = buf_str(c, &cell);
  if (!text) {
    rc = oomc(c);
    goto out;
  }
  rc = project_node(c, q, ex, heads, ipos, nout, text, limit, &at);
  if (rc == CHV_OK) *out = at;
out:
  chv_buf_free(&cell);
  if (bind_done(c->qp, &b) != CHV_OK && rc == CHV_OK) rc = oomc(c);
  return rc;
}

/* GROUPING SETS, ROLLUP and CUBE: the Expand over *at (grouping.c), and
** g's keys made the Aggregate's over it: the keys, GROUPING__ID and, for a
** repeated set, $set, each a column of the Expand. */
static int grouping_keys(struct bctx *c, struct agg_ctx *g,
                         struct sql_node **at, struct chv_expr ***seeds,
                         int *nseeds) {
  struct sql_node *ex;
  int nin = (*at)->ncols;
  g->key_in = chv_arena_alloc(c->a, sizeof *g->key_in * (size_t)(g->nkeys + 1));
  if (!g->key_in) return oomc(c);
  memcpy(g->key_in, g->key_expr, sizeof *g->key_in * (size_t)g->nkeys);
  CHV_RETURN_IF_ERR(sql_grouping_expand(c->a, g->gs, *at, g->key_expr, &ex,
                                        seeds, nseeds, c->err));
  ex->pos = (*at)->pos;
  int nk = g->nkeys + (g->gs->dups ? 2 : 1);
  for (int k = 0; k < nk; k++) {
    const struct sql_col *col = &ex->cols[nin + k];
    CHV_RETURN_IF_ERR(chv_expr_column(c->a, nin + k, col->type,
                                      &g->key_expr[k], c->err));
    g->key_text[k] = col->name;
  }
  g->id_col = g->nkeys;
  g->nkeys = nk;
  *at = ex;
  return CHV_OK;
}

/* A SELECT with GROUP BY, HAVING, aggregates or DISTINCT over sr:
** [Limit] <- Project <- [Sort] <- [Filter (HAVING)] <- Aggregate <-
** [Filter] <- the input; the items, HAVING and ORDER BY bound over the
** Aggregate's columns (keys, then aggregates). */
static int build_agg(struct bctx *c, const struct chv_sql_query *q,
                     const struct src *sr, struct sql_target *ins,
                     struct sql_node **out) {
  const struct chv_table *t = sr->t;
  chv_arena *a = c->a;
  struct sql_bind b, pb;
  memset(&pb, 0, sizeof pb);
  struct agg_ctx g;
  memset(&g, 0, sizeof g);
  g.a = a;
  g.in = &b;
  struct chv_buf cell;
  chv_buf_init(&cell);
  const char *alias = sr->alias;
  int rc = sql_bind_init(&b, t, alias, a, c->pos, c->err);
  if (sr->kind == SRC_JOIN) b.rels = &sr->j->rels;
  b.scalar = scalar_value;
  b.rows = subquery_rows;
  b.scalar_ctx = c;
  char what[512];
  b.what = sql_table_what(t, what, sizeof what);
  if (rc != CHV_OK) goto out;
  int64_t limit;
  if ((rc = query_limit(c, q, &limit)) != CHV_OK) goto out;
  bool dist = q->distinct;
  struct sql_grouping gs;
  if (q->ngroup_elems) {
    if ((rc = sql_grouping_sets(a, q, &gs, c->pos, c->err)) != CHV_OK)
      goto out;
    g.gs = &gs;
  }
  if (dist) {
    bool aggs = q->ngroup_by || q->ngroup_elems || q->having;
    for (size_t i = 0; i < q->nitems && !aggs; i++)
      aggs = has_agg(q->items[i].expr);
    if (aggs) {
      *c->pos = q->pos;
      rc = sql_err(c->err, CHV_ENOTSUP, "SELECT DISTINCT with GROUP BY or "
                   "aggregates is not supported yet");
      goto out;
    }
  }
  size_t ng = dist ? q->nitems : g.gs ? (size_t)gs.nkeys : q->ngroup_by;
  g.nkeys = g.nmatch = (int)ng;
  g.key_text = chv_arena_alloc(a, sizeof *g.key_text * (ng + 3));
  g.key_expr = chv_arena_alloc(a, sizeof *g.key_expr * (ng + 3));
  if (!g.key_text || !g.key_expr) {
    rc = oomc(c);
    goto out;
  }
  for (int k = 0; k < g.nkeys; k++) {
    const struct chv_sql_expr *e = dist ? q->items[k].expr
                                   : g.gs ? gs.keys[k] : q->group_by[k];
    if (e->kind == CHV_SQL_EXPR_STAR) {
      *c->pos = e->pos;
      rc = sql_err(c->err, CHV_ENOTSUP,
                   "SELECT DISTINCT * is not supported yet");
      goto out;
    }
    if (has_agg(e)) {
      *c->pos = e->pos;
      rc = sql_err(c->err, CHV_EINVAL, "an aggregate in GROUP BY");
      goto out;
    }
    rc = sql_bind_expr(&b, e, &g.key_expr[k]);
    if (rc != CHV_OK) goto out;
    if (!chv_type_is_primitive(g.key_expr[k]->type->id)) {
      *c->pos = e->pos;
      rc = sql_err(c->err, CHV_ENOTSUP,
                   "GROUP BY a nested type is not supported");
      goto out;
    }
    if (!(g.key_text[k] = sql_expr_text_in(a, e))) {
      rc = oomc(c);
      goto out;
    }
  }
  for (size_t i = 0; i < q->nitems; i++) {
    if (q->items[i].expr->kind == CHV_SQL_EXPR_STAR) {
      *c->pos = q->items[i].expr->pos;
      rc = sql_err(c->err, CHV_EINVAL, "* with GROUP BY or aggregates");
      goto out;
    }
    if ((rc = collect_aggs(&g, q->items[i].expr, c->pos, c->err)) != CHV_OK)
      goto out;
  }
  if ((rc = collect_aggs(&g, q->having, c->pos, c->err)) != CHV_OK) goto out;
  for (size_t i = 0; i < q->nwindows; i++) { /* WINDOW w AS (ORDER BY sum(x)) */
    const struct chv_sql_window *w = q->windows[i].window;
    for (size_t k = 0; k < w->npartition_by && rc == CHV_OK; k++)
      rc = collect_aggs(&g, w->partition_by[k], c->pos, c->err);
    for (size_t k = 0; k < w->norder_by && rc == CHV_OK; k++)
      rc = collect_aggs(&g, w->order_by[k].expr, c->pos, c->err);
    if (rc != CHV_OK) goto out;
  }
  struct sql_node *filt;
  if ((rc = where_node(c, q, &b, true, &filt)) != CHV_OK) goto out;
  /* The Aggregate: keys, then one column per aggregate. */
  struct sql_node *at, *agg;
  if ((rc = bottom(c, sr, &b, &at)) != CHV_OK) goto out;
  if (filt && q->where) filt->pos = q->where->pos;
  if ((rc = put_over(c, filt, &at)) != CHV_OK) goto out;
  struct chv_expr **seeds = NULL;
  int nseeds = 0;
  if (g.gs && (rc = grouping_keys(c, &g, &at, &seeds, &nseeds)) != CHV_OK)
    goto out;
  if ((rc = node_over(c, SQL_NODE_AGGREGATE, at, &agg)) != CHV_OK) goto out;
  if ((rc = sql_node_cols(a, agg, g.nkeys + g.naggs, c->err)) != CHV_OK)
    goto out;
  g.rtypes = chv_arena_alloc(a, sizeof *g.rtypes * (size_t)(g.nkeys + g.naggs + 1));
  if (!g.rtypes) {
    rc = oomc(c);
    goto out;
  }
  for (int k = 0; k < g.nkeys; k++) {
    agg->cols[k] = (struct sql_col){g.key_text[k], g.key_expr[k]->type, q->pos};
    g.rtypes[k] = g.key_expr[k]->type;
  }
  for (int j = 0; j < g.naggs; j++) {
    const struct chv_type *rt;
    rc = chv_agg_result_type(a, g.fns[j], g.agg_arg[j] ? g.agg_arg[j]->type
                                                       : NULL, &rt, c->err);
    if (rc != CHV_OK) goto out;
    agg->cols[g.nkeys + j] = (struct sql_col){g.agg_text[j], rt, q->pos};
    g.rtypes[g.nkeys + j] = rt;
  }
  agg->u.agg.nkeys = g.nkeys;
  agg->u.agg.naggs = g.naggs;
  agg->u.agg.keys = g.key_expr;
  agg->u.agg.seeds = seeds;
  agg->u.agg.nseeds = nseeds;
  agg->u.agg.fns = g.fns;
  agg->u.agg.args = g.agg_arg;
  agg->u.agg.distinct = dist;
  agg->pos = q->pos;
  for (int k = 0; k < g.nkeys; k++)
    chv_buf_printf(&cell, "%s%s", k ? ", " : "", g.key_text[k]);
  agg->u.agg.keys_text = buf_str(c, &cell);
  chv_buf_reset(&cell);
  for (int j = 0; j < g.naggs; j++)
    chv_buf_printf(&cell, "%s%s", j ? ", " : "", g.agg_text[j]);
  agg->u.agg.aggs_text = buf_str(c, &cell);
  at = agg;
  /* The items, HAVING and ORDER BY over the Aggregate's columns. */
  rc = sql_bind_init(&pb, t, alias, a, c->pos, c->err);
  if (sr->kind == SRC_JOIN) pb.rels = &sr->j->rels;
  pb.scalar = scalar_value;
  pb.rows = subquery_rows;
  pb.scalar_ctx = c;
  char pwhat[512];
  pb.what = sql_table_what(t, pwhat, sizeof pwhat);
  if (rc != CHV_OK) goto out;
  pb.hook = post_hook;
  pb.hook_ctx = &g;
  struct chv_expr **ex = chv_arena_alloc(a, sizeof *ex * (q->nitems + 1));
  const char **heads = chv_arena_alloc(a, sizeof *heads * (q->nitems + 1));
  struct chv_sql_pos *ipos = chv_arena_alloc(a, sizeof *ipos * (q->nitems + 1));
  struct chv_expr **oex = chv_arena_alloc(a, sizeof *oex * (q->norder_by + 1));
  if (!ex || !heads || !ipos || !oex) {
    rc = oomc(c);
    goto out;
  }
  int nout = 0;
  struct sql_wins wn;
  memset(&wn, 0, sizeof wn);
  sql_wins_on(&wn, q, &pb, a, c->pos, c->err); /* the items' OVER calls */
  for (size_t i = 0; i < q->nitems; i++) {
    const struct chv_sql_expr *e = q->items[i].expr;
    rc = sql_bind_expr(&pb, e, &ex[nout]);
    if (rc != CHV_OK) goto out;
    rc = item_head(c, &q->items[i], nout,
                   e->kind == CHV_SQL_EXPR_COLUMN
                       ? e->u.column.parts[e->u.column.nparts - 1] : NULL,
                   &heads[nout]);
    if (rc != CHV_OK) goto out;
    ipos[nout++] = e->pos;
  }
  if (ins) {
    rc = sql_target_casts(ins, q->pos, a, ex, heads, ipos, nout, c->pos,
                          c->err);
    if (rc != CHV_OK) goto out;
  }
  sql_wins_off(&wn);
  if (q->having) {
    struct sql_node *hv;
    if ((rc = node_over(c, SQL_NODE_FILTER, at, &hv)) != CHV_OK) goto out;
    rc = sql_bind_expr(&pb, q->having, &hv->u.filter.pred);
    if (rc != CHV_OK) goto out;
    if (hv->u.filter.pred->type->id != CHV_TYPE_BOOLEAN) {
      *c->pos = q->having->pos;
      rc = sql_err(c->err, CHV_ETYPE, "HAVING condition is not boolean");
      goto out;
    }
    chv_buf_reset(&cell);
    sql_expr_text(q->having, &cell);
    hv->text = buf_str(c, &cell);
    hv->pos = q->having->pos;
    at = hv;
  }
  sql_wins_on(&wn, q, &pb, a, c->pos, c->err);
  if ((rc = order_keys(c, q, &pb, ex, NULL, oex)) != CHV_OK) goto out;
  sql_wins_off(&wn);
  if ((rc = distribute_keys(c, q, &pb)) != CHV_OK) goto out;
  if ((rc = sql_wins_nodes(&wn, &at)) != CHV_OK) goto out;
  if ((rc = sort_node(c, q, oex, &at)) != CHV_OK) goto out;
  chv_buf_reset(&cell);
  for (size_t i = 0; i < q->nitems; i++) {
    const struct chv_sql_expr *e = q->items[i].expr;
    if (i) chv_buf_puts(&cell, ", ");
    sql_expr_text(e, &cell);
    if (q->items[i].alias)
      chv_buf_printf(&cell, " AS %s", q->items[i].alias);
    else if (e->kind != CHV_SQL_EXPR_COLUMN)
      chv_buf_printf(&cell, " AS _c%zu", i);
  }
  const char *text = buf_str(c, &cell);
  if (!text) {
    rc = oomc(c);
    goto out;
  }
  rc = project_node(c, q, ex, heads, ipos, nout, text, limit, &at);
  if (rc == CHV_OK) *out = at;
out:
  chv_buf_free(&cell);
  if (pb.t && bind_done(c->qp, &pb) != CHV_OK && rc == CHV_OK) rc = oomc(c);
  if (bind_done(c->qp, &b) != CHV_OK && rc == CHV_OK) rc = oomc(c);
  return rc;
}

static int build_select(struct bctx *c, const struct chv_sql_query *q,
                        const struct src *sr, struct sql_target *ins,
                        struct sql_node **out) {
  /* the leading plain columns of the select list are checked first, in
  ** order: the first unknown one is the error */
  const struct chv_table *tp = sr->t;
  for (size_t i = 0; i < q->nitems && sr->kind != SRC_VALUES &&
                     sr->kind != SRC_JOIN; i++) {
    const struct chv_sql_expr *e = q->items[i].expr;
    *c->pos = e->pos;
    if (e->kind == CHV_SQL_EXPR_STAR) {
      if (!qualifier_ok(&e->u.star, e->u.star.nparts, tp, sr->alias))
        return sql_err(c->err, CHV_ENOENT,
                       "unknown table qualifier '%s' in %s.*",
                       e->u.star.parts[e->u.star.nparts - 1],
                       e->u.star.parts[e->u.star.nparts - 1]);
      continue;
    }
    if (e->kind != CHV_SQL_EXPR_COLUMN) break;
    int np = e->u.column.nparts;
    const char *n = e->u.column.parts[np - 1], *canon;
    if (np == 1 && (q->ngroup_elems || q->ngroup_by) &&
        !strcasecmp(n, "grouping__id"))
      continue; /* Hive's, of the groups (grouping.c) */
    if (!qualifier_ok(&e->u.column, np - 1, tp, sr->alias))
      return sql_err(c->err, CHV_ENOENT,
                     "unknown table qualifier '%s' in %s.%s",
                     e->u.column.parts[np - 2], e->u.column.parts[np - 2], n);
    if (sql_find_column(tp, n, &canon) != CHV_OK) {
      char tn[512];
      return sql_err(c->err, CHV_ENOENT, "column '%s' does not exist in %s",
                     n, sql_table_what(tp, tn, sizeof tn));
    }
  }
  if (q->distinct) CHV_RETURN_IF_ERR(expand_stars(c, q, sr, &q));
  bool agg = q->ngroup_by || q->ngroup_elems || q->having || q->distinct;
  for (size_t i = 0; i < q->nitems && !agg; i++) agg = has_agg(q->items[i].expr);
  *c->pos = q->pos;
  return agg ? build_agg(c, q, sr, ins, out) : build_exprs(c, q, sr, ins, out);
}

/* A relation of the columns of nd (a derived table's), named name: the
** table the binder reads it as, kept by the plan. */
int sql_node_columns(const struct sql_node *nd, struct chv_type **out,
                     struct chv_error *err) {
  struct chv_type *st;
  if (chv_type_new(CHV_TYPE_STRUCT, &st) != CHV_OK)
    return sql_err(err, CHV_ENOMEM, "out of memory");
  for (int k = 0; k < nd->ncols; k++) {
    struct chv_type *ct;
    char cn[256];
    snprintf(cn, sizeof cn, "%s", nd->cols[k].name);
    for (char *p = cn; *p; p++) *p = (char)tolower((unsigned char)*p);
    int rc = chv_type_clone(nd->cols[k].type, &ct);
    if (rc == CHV_OK) rc = chv_type_struct_add(st, cn, ct);
    if (rc != CHV_OK) {
      chv_type_free(st);
      if (rc == CHV_EEXIST)
        return sql_err(err, CHV_EINVAL,
                       "the query gives two columns named '%s'; give one an "
                       "alias", cn);
      return sql_err(err, CHV_ENOMEM, "out of memory");
    }
  }
  *out = st;
  return CHV_OK;
}

static int describe_rel(struct bctx *c, const struct sql_node *nd,
                        const char *name, const char *what,
                        struct sql_rel **out) {
  struct chv_type *st;
  CHV_RETURN_IF_ERR(sql_node_columns(nd, &st, c->err));
  struct sql_rel *rel;
  CHV_RETURN_IF_ERR(sql_rel_open(name, what, st, &rel, c->err));
  if (keep((void ***)&c->qp->rels, &c->qp->nrels, &c->qp->caprels, rel) !=
      CHV_OK) {
    sql_rel_close(rel);
    return oomc(c);
  }
  *out = rel;
  return CHV_OK;
}

/* The rows of q as a derived relation named name: *child its plan, *rel
** the table the outer query binds over. */
static int derive_node(struct bctx *c, const struct chv_sql_query *q,
                       const char *name, const char *what,
                       struct sql_node **child, struct sql_rel **rel) {
  CHV_RETURN_IF_ERR(build_query(c, q, NULL, child));
  int rc = describe_rel(c, *child, name, what, rel);
  if (rc != CHV_OK) *c->pos = q->pos;
  return rc;
}

/* The WITH query a one-part table name names, innermost first; *in is its
** scope and *i its place. */
static bool scope_find(struct sql_session *s, const struct chv_sql_name *n,
                       struct sql_scope **in, size_t *i) {
  if (n->nparts != 1) return false;
  for (struct sql_scope *sc = s->scope; sc; sc = sc->up)
    for (size_t k = sc->visible; k-- > 0;)
      if (!strcasecmp(sc->ctes[k].name, n->parts[0])) {
        *in = sc;
        *i = k;
        return true;
      }
  return false;
}

/* UNION [ALL]: the branches' columns get the common types of each pair
** (a cast Project over a branch that needs one); UNION ALL without ORDER
** BY or LIMIT is the Union node itself; otherwise a SELECT [DISTINCT] *
** ORDER BY ... LIMIT ... over its rows. */
static int select_over(struct bctx *c, const struct chv_sql_query *q,
                       struct sql_node *nd, const char *what, bool distinct,
                       struct sql_target *ins, struct sql_node **out);

/* AS s (a, b) of a derived table f (what: how errors name it): its
** columns renamed, one name each. */
static int rename_derived(struct bctx *c, const struct chv_sql_from *f,
                          const char *what, struct sql_rel *rel) {
  if (!f->ncolumns) return CHV_OK;
  *c->pos = f->pos;
  if (f->ncolumns != (size_t)rel->t.ncols)
    return sql_err(c->err, CHV_EINVAL,
                   "%s gives %d column%s, but its alias names %zu", what,
                   rel->t.ncols, rel->t.ncols == 1 ? "" : "s", f->ncolumns);
  for (size_t k = 0; k < f->ncolumns; k++)
    for (size_t j = 0; j < k; j++)
      if (!strcasecmp(f->columns[j], f->columns[k]))
        return sql_err(c->err, CHV_EINVAL,
                       "the alias of %s names column '%s' twice", what,
                       f->columns[k]);
  for (size_t k = 0; k < f->ncolumns; k++)
    CHV_RETURN_IF_ERR(sql_rel_rename(rel, (int)k, f->columns[k], c->err));
  return CHV_OK;
}

/* INTERSECT and EXCEPT over u, a UNION ALL of the branches' n columns
** and their side markers (left, right): the rows grouped, each group's
** rows counted per side, and a group given by the counts: INTERSECT
** [DISTINCT] once when both sides have it, ALL min(left, right) times;
** EXCEPT [DISTINCT] once when only the left has it, ALL left - right
** times.  NULLs are equal here, as in any set operation. */
static int set_rows(struct bctx *c, const struct chv_sql_query *q,
                    struct sql_node *u, int n, const char *kind,
                    struct sql_node **out) {
  chv_arena *a = c->a;
  struct chv_error *err = c->err;
  struct sql_node *g;
  CHV_RETURN_IF_ERR(node_over(c, SQL_NODE_AGGREGATE, u, &g));
  CHV_RETURN_IF_ERR(sql_node_cols(a, g, n + 2, err));
  struct chv_expr **keys = chv_arena_alloc(a, sizeof *keys * (size_t)(n + 1));
  struct chv_expr **args = chv_arena_alloc(a, sizeof *args * 3);
  enum chv_agg_fn *fns = chv_arena_alloc(a, sizeof *fns * 3);
  if (!keys || !args || !fns) return oomc(c);
  struct chv_buf t;
  chv_buf_init(&t);
  for (int k = 0; k < n; k++) {
    if (!chv_type_is_primitive(u->cols[k].type->id)) {
      chv_buf_free(&t);
      *c->pos = q->pos;
      return sql_err(err, CHV_ENOTSUP, "%s of a nested type (column %s) is "
                     "not supported", kind, u->cols[k].name);
    }
    CHV_RETURN_IF_ERR(chv_expr_column(a, k, u->cols[k].type, &keys[k], err));
    g->cols[k] = u->cols[k];
    chv_buf_printf(&t, "%s%s", k ? ", " : "", u->cols[k].name);
  }
  g->u.agg.keys_text = buf_str(c, &t);
  chv_buf_free(&t);
  for (int m = 0; m < 2; m++) {
    const struct chv_type *rt;
    fns[m] = CHV_AGG_SUM;
    CHV_RETURN_IF_ERR(chv_expr_column(a, n + m, u->cols[n + m].type, &args[m],
                                      err));
    CHV_RETURN_IF_ERR(chv_agg_result_type(a, CHV_AGG_SUM, args[m]->type, &rt,
                                          err));
    g->cols[n + m] = (struct sql_col){m ? "right" : "left", rt, q->pos};
  }
  g->u.agg.nkeys = n;
  g->u.agg.naggs = 2;
  g->u.agg.keys = keys;
  g->u.agg.fns = fns;
  g->u.agg.args = args;
  g->u.agg.aggs_text = "count(left), count(right)";
  g->pos = q->pos;
  /* the groups the operation keeps */
  bool inter = q->setop == CHV_SQL_SET_INTERSECT;
  const struct chv_type *bt = g->cols[n].type;
  struct chv_expr *cl, *cr, *zero, *x, *y, *pred;
  struct chv_value z = {.i64 = 0};
  CHV_RETURN_IF_ERR(chv_expr_column(a, n, bt, &cl, err));
  CHV_RETURN_IF_ERR(chv_expr_column(a, n + 1, bt, &cr, err));
  CHV_RETURN_IF_ERR(chv_expr_literal(a, bt, &z, &zero, err));
  struct chv_expr *lz[2] = {cl, zero}, *rz[2] = {cr, zero}, *lr[2] = {cl, cr};
  CHV_RETURN_IF_ERR(chv_expr_call(a, CHV_FN_GT, lz, 2, &x, err));
  if (inter || !q->all)
    CHV_RETURN_IF_ERR(chv_expr_call(a, inter ? CHV_FN_GT : CHV_FN_EQ, rz, 2,
                                    &y, err));
  else
    CHV_RETURN_IF_ERR(chv_expr_call(a, CHV_FN_GT, lr, 2, &y, err));
  CHV_RETURN_IF_ERR(chv_expr_and(a, x, y, &pred, err));
  struct sql_node *f;
  CHV_RETURN_IF_ERR(node_over(c, SQL_NODE_FILTER, g, &f));
  f->u.filter.pred = pred;
  f->text = inter ? "count(left) > 0 AND count(right) > 0"
            : q->all ? "count(left) > count(right)"
                     : "count(left) > 0 AND count(right) = 0";
  /* the columns, with ALL the times each group is given */
  struct sql_node *p;
  int np = q->all ? n + 1 : n;
  CHV_RETURN_IF_ERR(node_over(c, SQL_NODE_PROJECT, f, &p));
  CHV_RETURN_IF_ERR(sql_node_cols(a, p, np, err));
  p->u.project.exprs = chv_arena_alloc(a, sizeof *p->u.project.exprs * (size_t)(np + 1));
  if (!p->u.project.exprs) return oomc(c);
  for (int k = 0; k < n; k++) {
    CHV_RETURN_IF_ERR(chv_expr_column(a, k, g->cols[k].type,
                                      &p->u.project.exprs[k], err));
    p->cols[k] = g->cols[k];
  }
  p->text = g->u.agg.keys_text;
  if (!q->all) {
    *out = p;
    return CHV_OK;
  }
  struct chv_expr *times;
  if (inter) { /* CASE WHEN left < right THEN left ELSE right END */
    struct chv_expr *w;
    CHV_RETURN_IF_ERR(chv_expr_call(a, CHV_FN_LT, lr, 2, &w, err));
    CHV_RETURN_IF_ERR(chv_expr_case(a, &w, &cl, 1, cr, &times, err));
  } else {
    CHV_RETURN_IF_ERR(chv_expr_call(a, CHV_FN_SUB, lr, 2, &times, err));
  }
  p->u.project.exprs[n] = times;
  p->cols[n] = (struct sql_col){"times", times->type, q->pos};
  chv_buf_init(&t);
  chv_buf_printf(&t, "%s, %s AS times", g->u.agg.keys_text,
                 inter ? "least(count(left), count(right))"
                       : "count(left) - count(right)");
  p->text = buf_str(c, &t);
  chv_buf_free(&t);
  struct sql_node *r;
  CHV_RETURN_IF_ERR(sql_node_new(a, SQL_NODE_REPEAT, &p, 1, &r, err));
  CHV_RETURN_IF_ERR(sql_node_cols(a, r, n, err));
  for (int k = 0; k < n; k++) r->cols[k] = p->cols[k];
  r->text = "times";
  r->pos = q->pos;
  *out = r;
  return CHV_OK;
}

static int build_union(struct bctx *c, const struct chv_sql_query *q,
                       struct sql_target *ins, struct sql_node **out) {
  static const char *const kinds[3][2] = {{"UNION", "UNION ALL"},
                                          {"INTERSECT", "INTERSECT ALL"},
                                          {"EXCEPT", "EXCEPT ALL"}};
  const char *kind = kinds[q->setop][q->all];
  bool setop = q->setop != CHV_SQL_SET_UNION;
  struct sql_node *br[2];
  CHV_RETURN_IF_ERR(build_query(c, q->left, NULL, &br[0]));
  CHV_RETURN_IF_ERR(build_query(c, q->right, NULL, &br[1]));
  *c->pos = q->right->pos;
  if (br[0]->ncols != br[1]->ncols)
    return sql_err(c->err, CHV_EINVAL,
                   "the branches of %s %s give %d and %d columns",
                   setop ? "an" : "a", kind, br[0]->ncols, br[1]->ncols);
  int n = br[0]->ncols;
  const struct chv_type **common = chv_arena_alloc(c->a, sizeof *common * (size_t)(n + 1));
  if (!common) return oomc(c);
  for (int k = 0; k < n; k++) {
    common[k] = chv_exec_union_type(c->a, br[0]->cols[k].type, br[1]->cols[k].type);
    if (!common[k]) {
      char l[64], r[64];
      type_name(br[0]->cols[k].type, l, sizeof l);
      type_name(br[1]->cols[k].type, r, sizeof r);
      return sql_err(c->err, CHV_ETYPE,
                     "%s column %d (%s): %s and %s have no common type", kind,
                     k + 1, br[0]->cols[k].name, l, r);
    }
  }
  /* INTERSECT and EXCEPT: each branch's rows marked with the side they
  ** come from (two INT columns, 1 for its own side) */
  int nm = setop ? 2 : 0;
  for (int i = 0; i < 2; i++) {
    bool same = !setop;
    for (int k = 0; k < n && same; k++)
      same = chv_type_equal(br[i]->cols[k].type, common[k]);
    if (same) continue;
    struct sql_node *p;
    CHV_RETURN_IF_ERR(node_over(c, SQL_NODE_PROJECT, br[i], &p));
    CHV_RETURN_IF_ERR(sql_node_cols(c->a, p, n + nm, c->err));
    p->u.project.exprs = chv_arena_alloc(c->a, sizeof *p->u.project.exprs * (size_t)(n + nm + 1));
    if (!p->u.project.exprs) return oomc(c);
    struct chv_buf t;
    chv_buf_init(&t);
    for (int k = 0; k < n; k++) {
      struct chv_expr *x;
      CHV_RETURN_IF_ERR(chv_expr_column(c->a, k, br[i]->cols[k].type, &x, c->err));
      if (!chv_type_equal(x->type, common[k]) &&
          chv_expr_cast(c->a, x, common[k], &x, c->err) != CHV_OK) {
        chv_buf_free(&t);
        return sql_err(c->err, CHV_ETYPE, "UNION column %d (%s): cannot "
                       "convert it to the branches' common type", k + 1,
                       br[0]->cols[k].name);
      }
      p->u.project.exprs[k] = x;
      p->cols[k] = br[i]->cols[k];
      p->cols[k].type = common[k];
      char tn[64];
      type_name(common[k], tn, sizeof tn);
      if (chv_type_equal(br[i]->cols[k].type, common[k]))
        chv_buf_printf(&t, "%s%s", k ? ", " : "", br[i]->cols[k].name);
      else
        chv_buf_printf(&t, "%sCAST(%s AS %s)", k ? ", " : "",
                       br[i]->cols[k].name, tn);
    }
    for (int m = 0; m < nm; m++) {
      static const char *const side[2] = {"left", "right"};
      const struct chv_type *it = chv_exec_type(c->a, CHV_TYPE_INT, 0, 0);
      struct chv_value v = {.i64 = m == i};
      if (!it) return oomc(c);
      CHV_RETURN_IF_ERR(chv_expr_literal(c->a, it, &v, &p->u.project.exprs[n + m],
                                         c->err));
      p->cols[n + m] = (struct sql_col){side[m], it, q->pos};
      chv_buf_printf(&t, ", %d AS %s", m == i, side[m]);
    }
    p->text = buf_str(c, &t);
    chv_buf_free(&t);
    br[i] = p;
  }
  struct sql_node *u;
  CHV_RETURN_IF_ERR(sql_node_new(c->a, SQL_NODE_UNION, br, 2, &u, c->err));
  CHV_RETURN_IF_ERR(sql_node_cols(c->a, u, n + nm, c->err));
  for (int k = 0; k < n + nm; k++) {
    u->cols[k] = br[0]->cols[k];
    if (k < n) u->cols[k].type = common[k];
  }
  u->pos = q->pos;
  if (setop) {
    struct sql_node *r = NULL;
    CHV_RETURN_IF_ERR(set_rows(c, q, u, n, kind, &r));
    if (!q->norder_by && !q->limit && !q->offset && !q->ndistribute_by &&
        !ins) {
      *out = r;
      return CHV_OK;
    }
    return select_over(c, q, r, kind, false, ins, out);
  }
  if (q->all && !q->norder_by && !q->limit && !q->offset &&
      !q->ndistribute_by) {
    if (ins) return sql_err(c->err, CHV_EINTERNAL, "a UNION's target casts");
    *out = u;
    return CHV_OK;
  }
  return select_over(c, q, u, kind, !q->all, ins, out);
}

/* SELECT [DISTINCT] * FROM the rows of nd (a UNION's, a VALUES') with q's
** ORDER BY, LIMIT and OFFSET, and its DISTRIBUTE BY; what names them in
** errors. */
static int select_over(struct bctx *c, const struct chv_sql_query *q,
                       struct sql_node *nd, const char *what, bool distinct,
                       struct sql_target *ins, struct sql_node **out) {
  struct sql_rel *rel;
  CHV_RETURN_IF_ERR(describe_rel(c, nd, "", what, &rel));
  /* each column by name (an ORDER BY position names one of them) */
  size_t n = (size_t)rel->t.ncols;
  struct chv_sql_expr *cols = chv_arena_alloc(c->a, sizeof *cols * (n + 1));
  struct chv_sql_select_item *item =
      chv_arena_alloc(c->a, sizeof *item * (n + 1));
  struct chv_sql_query *sel = chv_arena_alloc(c->a, sizeof *sel);
  if (!cols || !item || !sel) return oomc(c);
  for (size_t k = 0; k < n; k++) {
    cols[k] = (struct chv_sql_expr){.kind = CHV_SQL_EXPR_COLUMN, .pos = q->pos};
    cols[k].u.column.nparts = 1;
    cols[k].u.column.parts[0] = rel->t.columns[k].name;
    item[k] = (struct chv_sql_select_item){.expr = &cols[k]};
  }
  *sel = (struct chv_sql_query){.kind = CHV_SQL_QUERY_SELECT, .pos = q->pos,
                                .distinct = distinct, .items = item,
                                .nitems = n, .order_by = q->order_by,
                                .norder_by = q->norder_by, .limit = q->limit,
                                .offset = q->offset,
                                .order_kind = q->order_kind,
                                .distribute_by = q->distribute_by,
                                .ndistribute_by = q->ndistribute_by};
  struct src sr = {SRC_DERIVED, NULL, &rel->t, NULL, nd, NULL, 0, NULL, NULL};
  return build_select(c, sel, &sr, ins, out);
}

/* VALUES (..), (..): a Values node of its rows, each column of the common
** type of its values (a bare NULL takes the others' type), named as the
** dialect names them (Hive's col1, col2, ...; Flink's EXPR$0, EXPR$1,
** ...); ORDER BY, LIMIT and OFFSET as over a UNION. */
static int build_values(struct bctx *c, const struct chv_sql_query *q,
                        struct sql_target *ins, struct sql_node **out) {
  size_t nr = q->nrows, nc = nr ? q->row_lens[0] : 0;
  for (size_t r = 1; r < nr; r++)
    if (q->row_lens[r] != nc) {
      *c->pos = q->rows[r][0] ? q->rows[r][0]->pos : q->pos;
      return sql_err(c->err, CHV_EINVAL,
                     "the rows of VALUES give %zu and %zu values", nc,
                     q->row_lens[r]);
    }
  static const struct chv_table none = {0};
  struct sql_bind b;
  int rc = sql_bind_init(&b, &none, NULL, c->a, c->pos, c->err);
  struct chv_expr **ex = chv_arena_alloc(c->a, sizeof *ex * (nr * nc + 1));
  const struct chv_type **ty = chv_arena_alloc(c->a, sizeof *ty * (nc + 1));
  if (rc == CHV_OK && (!ex || !ty)) rc = oomc(c);
  for (size_t r = 0; rc == CHV_OK && r < nr; r++)
    for (size_t k = 0; rc == CHV_OK && k < nc; k++) {
      const struct chv_sql_expr *e = q->rows[r][k];
      *c->pos = e->pos;
      if (sql_has_aggregate(e)) {
        rc = sql_err(c->err, CHV_EINVAL, "an aggregate in VALUES");
        break;
      }
      rc = sql_bind_expr(&b, e, &ex[r * nc + k]);
    }
  /* each column's type: the common type of its values but bare NULLs */
  for (size_t k = 0; rc == CHV_OK && k < nc; k++) {
    ty[k] = NULL;
    for (size_t r = 0; r < nr && rc == CHV_OK; r++) {
      const struct chv_sql_expr *e = q->rows[r][k];
      if (e->kind == CHV_SQL_EXPR_LITERAL && e->u.lit.kind == CHV_SQL_LIT_NULL)
        continue;
      const struct chv_type *t = ex[r * nc + k]->type;
      if (!ty[k]) {
        ty[k] = t;
        continue;
      }
      const struct chv_type *u = chv_exec_union_type(c->a, ty[k], t);
      if (!u) {
        char l[64], rt[64];
        type_name(ty[k], l, sizeof l);
        type_name(t, rt, sizeof rt);
        *c->pos = e->pos;
        rc = sql_err(c->err, CHV_ETYPE,
                     "VALUES column %zu: %s and %s have no common type", k + 1,
                     l, rt);
      }
      ty[k] = u;
    }
    if (rc == CHV_OK && !ty[k]) /* only NULLs: a string, as a NULL reads */
      ty[k] = ex[k]->type;
    for (size_t r = 0; r < nr && rc == CHV_OK; r++) {
      struct chv_expr **x = &ex[r * nc + k];
      if (!chv_type_equal((*x)->type, ty[k])) {
        *c->pos = q->rows[r][k]->pos;
        rc = chv_expr_cast(c->a, *x, ty[k], x, c->err);
      }
    }
  }
  if (bind_done(c->qp, &b) != CHV_OK && rc == CHV_OK) rc = oomc(c);
  if (rc != CHV_OK) return rc;
  struct sql_node *v;
  CHV_RETURN_IF_ERR(sql_node_new(c->a, SQL_NODE_VALUES, NULL, 0, &v, c->err));
  CHV_RETURN_IF_ERR(sql_node_cols(c->a, v, (int)nc, c->err));
  bool hive = c->s->dialect == CHV_SQL_DIALECT_HIVE;
  for (size_t k = 0; k < nc; k++) {
    char name[32];
    snprintf(name, sizeof name, hive ? "col%zu" : "EXPR$%zu", hive ? k + 1 : k);
    v->cols[k] = (struct sql_col){arena_str(c->a, name), ty[k], q->rows[0][k]->pos};
    if (!v->cols[k].name) return oomc(c);
  }
  v->u.values.nrows = (int64_t)nr;
  v->u.values.exprs = ex;
  v->pos = q->pos;
  if (!q->norder_by && !q->limit && !q->offset && !q->ndistribute_by &&
      !ins) {
    *out = v;
    return CHV_OK;
  }
  return select_over(c, q, v, "VALUES", false, ins, out);
}

/* A view named in FROM: its expanded text (views.c reads it and keeps a
** view from reading itself) as a derived relation named by the alias or
** the view, its columns named as the view names them. */
static int view_node(struct bctx *c, const struct chv_sql_from *f,
                     chv_catalog *cat, const struct chv_table *t,
                     struct sql_node **child, struct sql_rel **rel) {
  struct sql_session *s = c->s;
  struct sql_view *v;
  int rc = sql_view_open(s, cat, t, &v, c->err);
  if (rc != CHV_OK) {
    *c->pos = f->pos;
    return rc;
  }
  char what[600];
  snprintf(what, sizeof what, "view %s.%s", t->db, t->name);
  rc = derive_node(c, sql_view_query(v), f->alias ? f->alias : t->name, what,
                   child, rel);
  /* the rows take the view's names (the binder reads them from rel) */
  if (rc == CHV_OK) rc = sql_view_columns(t, *rel, c->err);
  /* the plan holds the view's parsed text (its WHERE, for the pushdown) */
  chv_arena *text = sql_view_take_text(v);
  if (keep((void ***)&c->qp->texts, &c->qp->ntexts, &c->qp->captexts,
           text) != CHV_OK) {
    chv_arena_close(text);
    if (rc == CHV_OK) rc = oomc(c);
  }
  return sql_view_close(s, v, rc, f->pos, c->pos, c->err);
}

static int held_rows(struct bctx *c, const struct chv_sql_cte *w,
                     struct sql_cte_held *h, struct sql_node **child);

/* What one relation of a FROM names: a table, a view, a WITH query or a
** sub-query. */
static int from_leaf(struct bctx *c, const struct chv_sql_from *f,
                     struct src *out) {
  struct sql_session *s = c->s;
  struct sql_scope *in;
  size_t ci;
  bool cte = f->kind == CHV_SQL_FROM_TABLE && scope_find(s, &f->table, &in, &ci);
  if (cte && f->sample) {
    char dn[200];
    snprintf(dn, sizeof dn, "WITH query %s", in->ctes[ci].name);
    return sample_not_table(c, f->sample, dn,
                            "a derived table (the rows of a query)");
  }
  if ((f->kind == CHV_SQL_FROM_SUBQUERY || cte) && f->hints.n) {
    char dn[200];
    if (cte)
      snprintf(dn, sizeof dn, "WITH query %s", in->ctes[ci].name);
    else
      snprintf(dn, sizeof dn, "the sub-query%s%s", f->alias ? " " : "",
               f->alias ? f->alias : "");
    *c->pos = f->hints.items[0].pos;
    return sql_err(c->err, CHV_EINVAL,
                   "an OPTIONS hint applies to a table, and %s is a derived "
                   "table (the rows of a query)",
                   dn);
  }
  struct sql_node *child = NULL;
  struct sql_rel *rel = NULL;
  int rc;
  if (f->kind == CHV_SQL_FROM_SUBQUERY) {
    char wh[160];
    if (f->alias)
      snprintf(wh, sizeof wh, "sub-query %s", f->alias);
    else
      snprintf(wh, sizeof wh, "the sub-query in FROM");
    rc = derive_node(c, f->subquery, f->alias ? f->alias : "", wh, &child,
                     &rel);
    if (rc == CHV_OK) rc = rename_derived(c, f, wh, rel);
  } else if (cte) {
    const struct chv_sql_cte *w = &in->ctes[ci];
    char wh[160];
    snprintf(wh, sizeof wh, "WITH query %s", w->name);
    /* it sees the WITH queries before it, and those around its WITH */
    struct sql_scope sees = {in->ctes, ci, in->up, in->held}, *saved = s->scope;
    s->scope = &sees;
    rc = derive_node(c, w->query, w->name, wh, &child, &rel);
    if (rc == CHV_OK) rc = held_rows(c, w, in->held ? &in->held[ci] : NULL, &child);
    s->scope = saved;
  } else {
    *c->pos = f->pos;
    chv_catalog *cat = s->cat;
    struct chv_table *t = calloc(1, sizeof *t);
    if (!t) return oomc(c);
    rc = sql_get_table(s, &f->table, &cat, t, c->err);
    if (rc != CHV_OK) {
      free(t);
      return rc;
    }
    if (keep((void ***)&c->qp->tables, &c->qp->ntables, &c->qp->captables,
             t) != CHV_OK) {
      chv_table_free(t);
      free(t);
      return oomc(c);
    }
    if (t->type != CHV_VIRTUAL_VIEW) {
      /* the table's OPTIONS hint: its options for this read */
      struct chv_kv *topts = NULL;
      int ntopts = 0;
      if (f->options.n) {
        char tn[512];
        snprintf(tn, sizeof tn, "%s.%s", t->db, t->name);
        rc = sql_hint_options(s, &f->options, tn, true, c->a, &topts, &ntopts,
                              c->pos, c->err);
        if (rc != CHV_OK) return rc;
      }
      *out = (struct src){SRC_TABLE, cat, t, f->alias, NULL, topts, ntopts,
                          NULL, NULL};
      return table_sample(c, f->sample, out);
    }
    if (f->sample) {
      char vn[520];
      snprintf(vn, sizeof vn, "%s.%s", t->db, t->name);
      return sample_not_table(c, f->sample, vn,
                              "a view; sample the tables the view reads");
    }
    if (f->options.n) {
      *c->pos = f->options.items[0].pos;
      return sql_err(c->err, CHV_EINVAL,
                     "an OPTIONS hint sets the options of a table, and %s.%s "
                     "is a view; put the hint on the tables the view reads",
                     t->db, t->name);
    }
    rc = view_node(c, f, cat, t, &child, &rel);
  }
  if (rc != CHV_OK) return rc;
  *out = (struct src){SRC_DERIVED, NULL, &rel->t, f->alias, child, NULL, 0,
                      NULL, NULL};
  return CHV_OK;
}

static int join_src(struct bctx *c, const struct chv_sql_from *f,
                    struct src *out);

/* The column names of the relation leaf names (sub-queries' decorrelation). */
static int leaf_columns(void *ctx, const struct chv_sql_from *leaf,
                        const char ***cols, int *ncols) {
  struct bctx *c = ctx;
  struct src sr;
  CHV_RETURN_IF_ERR(from_leaf(c, leaf, &sr));
  int n = sr.t->ncols + sr.t->npkeys;
  const char **v = chv_arena_alloc(c->a, sizeof *v * (size_t)(n + 1));
  if (!v) return oomc(c);
  for (int i = 0; i < n; i++)
    v[i] = i < sr.t->ncols ? sr.t->columns[i].name
                           : sr.t->pkeys[i - sr.t->ncols].name;
  *cols = v;
  *ncols = n;
  return CHV_OK;
}

/* The FROM of q (a table, a view, a WITH query or a sub-query), then the
** SELECT over it. */
static int build_from(struct bctx *c, const struct chv_sql_query *q,
                      struct sql_target *ins, struct sql_node **out) {
  struct sql_session *s = c->s;
  const char *what = unsupported_query(q, c->pos);
  if (what)
    return sql_err(c->err, CHV_ENOTSUP, "%s is not supported yet", what);
  if (!q->from) {
    *c->pos = q->pos;
    if (q->ngroup_by || q->having || q->distinct)
      return sql_err(c->err, CHV_ENOTSUP,
                     "GROUP BY, HAVING and DISTINCT need a FROM clause");
    for (size_t i = 0; i < q->nitems; i++)
      if (has_agg(q->items[i].expr)) {
        *c->pos = q->items[i].expr->pos;
        return sql_err(c->err, CHV_ENOTSUP, "aggregates need a FROM clause");
      }
    if (q->where) {
      *c->pos = q->where->pos;
      return sql_err(c->err, CHV_ENOTSUP, "WHERE needs a FROM clause");
    }
    if (q->limit) {
      *c->pos = q->limit->pos;
      return sql_err(c->err, CHV_ENOTSUP, "LIMIT needs a FROM clause");
    }
    static const struct chv_table none = {0};
    struct src sr = {SRC_VALUES, s->cat, &none, NULL, NULL, NULL, 0, NULL, NULL};
    return build_exprs(c, q, &sr, ins, out);
  }
  /* sub-queries of WHERE made joins */
  struct sql_decor dc = {c->a, leaf_columns, c, 0, c->pos, c->err};
  CHV_RETURN_IF_ERR(sql_decorrelate(&dc, q, &q));
  if (q->from->kind == CHV_SQL_FROM_JOIN) {
    struct src sr;
    CHV_RETURN_IF_ERR(join_src(c, q->from, &sr));
    return build_select(c, q, &sr, ins, out);
  }
  struct src sr;
  CHV_RETURN_IF_ERR(from_leaf(c, q->from, &sr));
  return build_select(c, q, &sr, ins, out);
}

/* ---- joins ---------------------------------------------------------------------- */

/* How many relations (leaves) the FROM tree f joins. */
static int count_leaves(const struct chv_sql_from *f) {
  if (f->kind != CHV_SQL_FROM_JOIN) return 1;
  return count_leaves(f->left) + count_leaves(f->right);
}

/* The leaves of f in the order written into j->leaf from *n; hidden: under
** the right side of a LEFT SEMI or ANTI JOIN. */
static int join_leaves(struct bctx *c, struct jsrc *j,
                       const struct chv_sql_from *f, bool hidden, int *n) {
  if (f->kind == CHV_SQL_FROM_JOIN) {
    CHV_RETURN_IF_ERR(join_leaves(c, j, f->left, hidden, n));
    bool h = hidden || f->join == CHV_SQL_JOIN_SEMI ||
             f->join == CHV_SQL_JOIN_ANTI || f->join == CHV_SQL_JOIN_NOT_IN;
    int first = *n;
    CHV_RETURN_IF_ERR(join_leaves(c, j, f->right, h, n));
    for (int r = first; r < *n && f->from_subquery; r++)
      j->rels.r[r].qualified_only = true;
    return CHV_OK;
  }
  struct src *l = &j->leaf[*n];
  CHV_RETURN_IF_ERR(from_leaf(c, f, l));
  struct sql_rel_name *rn = &j->rels.r[*n];
  rn->alias = f->alias;
  rn->db = l->t->db;
  rn->name = l->t->name;
  rn->ncols = l->t->ncols + l->t->npkeys;
  rn->hidden = hidden;
  (*n)++;
  return CHV_OK;
}

/* A relation of f read FOR SYSTEM_TIME AS OF (a lookup join), or NULL. */
static const struct chv_sql_from *temporal(const struct chv_sql_from *f) {
  if (f->kind != CHV_SQL_FROM_JOIN) return f->system_time ? f : NULL;
  const struct chv_sql_from *l = temporal(f->left);
  return l ? l : temporal(f->right);
}

/* The name of output x of a join (a table column, or merge -1 - m). */
static const char *out_name(const struct jsrc *j, int x) {
  return x >= 0 ? j->all.columns[x].name : j->rels.m[-1 - x].name;
}

/* Where name n is among v[0, nv): its place, -1 when missing, -2 when
** there twice. */
static int out_find(const struct jsrc *j, const int *v, int nv,
                    const char *n) {
  int at = -1;
  for (int i = 0; i < nv; i++)
    if (!strcasecmp(out_name(j, v[i]), n)) {
      if (at >= 0) return -2;
      at = i;
    }
  return at;
}

/* The columns f gives, in order (*out, *nout): a leaf's own; an ON
** join's the left's then the right's (a SEMI or ANTI join's the left's);
** a USING or NATURAL join's the merges of its columns first (the
** standard's order), then the other columns of the left and the right.
** Each USING column makes merge *nm of j->rels, the join's in mjoin. */
static int join_outs(struct bctx *c, struct jsrc *j,
                     const struct chv_sql_from *f, int *next, int *nm,
                     int **out, int *nout) {
  if (f->kind != CHV_SQL_FROM_JOIN) {
    const struct sql_rel_name *rn = &j->rels.r[(*next)++];
    int *v = chv_arena_alloc(c->a, sizeof *v * (size_t)(rn->ncols + 1));
    if (!v) return oomc(c);
    for (int i = 0; i < rn->ncols; i++) v[i] = rn->first + i;
    *out = v;
    *nout = rn->ncols;
    return CHV_OK;
  }
  int lo = *next, *l, *r, nl, nr;
  CHV_RETURN_IF_ERR(join_outs(c, j, f->left, next, nm, &l, &nl));
  CHV_RETURN_IF_ERR(join_outs(c, j, f->right, next, nm, &r, &nr));
  bool semi = f->join == CHV_SQL_JOIN_SEMI || f->join == CHV_SQL_JOIN_ANTI ||
              f->join == CHV_SQL_JOIN_NOT_IN;
  int *v = chv_arena_alloc(c->a, sizeof *v * (size_t)(nl + nr + 1));
  bool *lu = chv_arena_alloc(c->a, (size_t)nl + 1);
  bool *ru = chv_arena_alloc(c->a, (size_t)nr + 1);
  if (!v || !lu || !ru) return oomc(c);
  memset(lu, 0, (size_t)nl + 1);
  memset(ru, 0, (size_t)nr + 1);
  int n = 0;
  /* NATURAL: the names the two sides share, in the left's order */
  size_t nu = f->natural ? (size_t)nl : f->nusing;
  for (size_t i = 0; i < nu; i++) {
    const char *name = f->natural ? out_name(j, l[i]) : f->using_cols[i];
    if (f->natural && out_find(j, r, nr, name) == -1) continue;
    *c->pos = f->natural ? f->pos : f->using_pos[i];
    int li = out_find(j, l, nl, name), ri = out_find(j, r, nr, name);
    if (li < 0 || ri < 0)
      return sql_err(c->err, li == -1 || ri == -1 ? CHV_ENOENT : CHV_EINVAL,
                     "column '%s' of %s is %s the %s side of the join", name,
                     f->natural ? "NATURAL JOIN" : "USING",
                     (li < 0 ? li : ri) == -1 ? "not on" : "ambiguous on",
                     li < 0 ? "left" : "right");
    if (lu[li])
      return sql_err(c->err, CHV_EINVAL,
                     "column '%s' appears more than once in USING", name);
    lu[li] = ru[ri] = true;
    struct sql_rel_merge *m = &j->rels.m[*nm];
    m->name = out_name(j, l[li]);
    m->kind = f->join;
    m->side[0] = l[li];
    m->side[1] = r[ri];
    m->lo = lo;
    m->hi = *next;
    j->mjoin[*nm] = f;
    v[n++] = -1 - (*nm)++;
  }
  if (f->natural && !n) {
    *c->pos = f->pos;
    return sql_err(c->err, CHV_EINVAL,
                   "NATURAL JOIN: the two sides have no column name in "
                   "common (a CROSS JOIN joins every row with every row)");
  }
  for (int i = 0; i < nl; i++)
    if (!lu[i]) v[n++] = l[i];
  for (int i = 0; i < nr && !semi; i++)
    if (!ru[i]) v[n++] = r[i];
  *out = v;
  *nout = n;
  return CHV_OK;
}

/* The relations of a FROM of joins, and the binder's table of all their
** columns (each leaf's data columns, then its partition keys). */
static int join_src(struct bctx *c, const struct chv_sql_from *f,
                    struct src *out) {
  const struct chv_sql_from *tf = temporal(f);
  if (tf) {
    *c->pos = tf->system_time->pos;
    return sql_err(c->err, CHV_ENOTSUP,
                   "FOR SYSTEM_TIME AS OF (a lookup join) is not supported "
                   "yet");
  }
  struct jsrc *j = chv_arena_alloc(c->a, sizeof *j);
  if (!j) return oomc(c);
  memset(j, 0, sizeof *j);
  j->from = f;
  int n = count_leaves(f);
  j->leaf = chv_arena_alloc(c->a, sizeof *j->leaf * (size_t)n);
  j->rels.r = chv_arena_alloc(c->a, sizeof *j->rels.r * (size_t)n);
  if (!j->leaf || !j->rels.r) return oomc(c);
  memset(j->rels.r, 0, sizeof *j->rels.r * (size_t)n);
  int k = 0;
  CHV_RETURN_IF_ERR(join_leaves(c, j, f, false, &k));
  j->nleaves = j->rels.n = n;
  int total = 0;
  for (int r = 0; r < n; r++) {
    j->rels.r[r].first = total;
    total += j->rels.r[r].ncols;
  }
  struct chv_column *cols =
      chv_arena_alloc(c->a, sizeof *cols * (size_t)(total + 1));
  if (!cols) return oomc(c);
  memset(cols, 0, sizeof *cols * (size_t)(total + 1));
  for (int r = 0; r < n; r++) {
    const struct chv_table *t = j->leaf[r].t;
    for (int i = 0; i < t->ncols + t->npkeys; i++) {
      const struct chv_column *tc =
          i < t->ncols ? &t->columns[i] : &t->pkeys[i - t->ncols];
      cols[j->rels.r[r].first + i].name = tc->name;
      cols[j->rels.r[r].first + i].type = tc->type;
    }
  }
  j->all.name = ""; /* a FROM: not the no-FROM table */
  j->all.columns = cols;
  j->all.ncols = total;
  int nm = 0;
  j->rels.m = chv_arena_alloc(c->a, sizeof *j->rels.m * (size_t)(total + 1));
  j->mjoin = chv_arena_alloc(c->a, sizeof *j->mjoin * (size_t)(total + 1));
  if (!j->rels.m || !j->mjoin) return oomc(c);
  k = 0;
  CHV_RETURN_IF_ERR(join_outs(c, j, f, &k, &nm, &j->outs, &j->nouts));
  j->rels.nm = nm;
  *out = (struct src){SRC_JOIN, NULL, &j->all, NULL, NULL, NULL, 0, j, NULL};
  return CHV_OK;
}

/* The ON of one join, bound over the binder's columns. */
struct jon {
  const struct chv_sql_from *f;
  struct sql_conj *conj;
  int nconj;
};

struct jbuild {
  struct bctx *c;
  const struct src *sr;
  struct sql_bind *b;
  struct jon *ons;
  int nons;
  bool *out_rels;  /* scratch: per relation */
};

/* The text of side x of a merge (a table column, or merge -1 - m) as a
** column reference qualified by its relation, or COALESCE of a FULL
** join's: what EXPLAIN shows of a USING join's condition. */
static struct chv_sql_expr *side_ast(struct bctx *c, const struct jsrc *j,
                                     int x, struct chv_sql_pos pos) {
  struct chv_sql_expr *e = chv_arena_alloc(c->a, sizeof *e);
  if (!e) return NULL;
  memset(e, 0, sizeof *e);
  e->pos = pos;
  if (x >= 0) {
    const struct sql_rel_name *rn = &j->rels.r[sql_rels_find(&j->rels, x)];
    e->kind = CHV_SQL_EXPR_COLUMN;
    e->u.column.nparts = 2;
    e->u.column.parts[0] = rn->alias ? rn->alias : rn->name;
    e->u.column.parts[1] = j->all.columns[x].name;
    e->u.column.pos = pos;
    return e;
  }
  const struct sql_rel_merge *m = &j->rels.m[-1 - x];
  if (m->kind != CHV_SQL_JOIN_FULL)
    return side_ast(c, j, m->side[m->kind == CHV_SQL_JOIN_RIGHT], pos);
  struct chv_sql_expr **args = chv_arena_alloc(c->a, sizeof *args * 2);
  if (!args || !(args[0] = side_ast(c, j, m->side[0], pos)) ||
      !(args[1] = side_ast(c, j, m->side[1], pos)))
    return NULL;
  e->kind = CHV_SQL_EXPR_FUNC;
  e->u.func.name = "coalesce";
  e->u.func.args = args;
  e->u.func.n = 2;
  return e;
}

/* The condition of a USING or NATURAL join f: each of its columns' left
** value equal to its right value (NULLs match nothing). */
static int using_conj(struct jbuild *jb, const struct chv_sql_from *f,
                      const bool *seen, struct jon *on) {
  struct bctx *c = jb->c;
  const struct jsrc *j = jb->sr->j;
  struct sql_bind *b = jb->b;
  on->conj = chv_arena_alloc(c->a, sizeof *on->conj * (size_t)(j->rels.nm + 1));
  if (!on->conj) return oomc(c);
  const bool *saved = b->on_seen;
  b->on_seen = seen;
  int rc = CHV_OK;
  for (int m = 0; m < j->rels.nm && rc == CHV_OK; m++) {
    if (j->mjoin[m] != f) continue;
    const struct sql_rel_merge *mg = &j->rels.m[m];
    struct chv_expr **v = chv_arena_alloc(c->a, sizeof *v * 2);
    struct chv_sql_expr *e = chv_arena_alloc(c->a, sizeof *e);
    if (!v || !e) {
      rc = oomc(c);
      break;
    }
    memset(e, 0, sizeof *e);
    e->kind = CHV_SQL_EXPR_BINARY;
    e->pos = f->pos;
    e->u.binary.op = CHV_SQL_OP_EQ;
    if (!(e->u.binary.left = side_ast(c, j, mg->side[0], f->pos)) ||
        !(e->u.binary.right = side_ast(c, j, mg->side[1], f->pos))) {
      rc = oomc(c);
      break;
    }
    for (int i = 0; i < 2 && rc == CHV_OK; i++)
      rc = mg->side[i] >= 0 ? sql_bind_column(b, mg->side[i], &v[i])
                            : sql_bind_merge(b, -1 - mg->side[i], &v[i]);
    struct chv_expr *x;
    *c->pos = f->pos;
    if (rc == CHV_OK &&
        (rc = chv_expr_call(c->a, CHV_FN_EQ, v, 2, &x, c->err)) == CHV_OK)
      on->conj[on->nconj++] = (struct sql_conj){e, x};
  }
  b->on_seen = saved;
  return rc;
}

/* True when the CAST from f to t takes no two values to one. */
static bool cast_injective(const struct chv_type *f, const struct chv_type *t) {
  if (chv_type_equal(f, t)) return true;
  bool fi = chv_func_is_integral(f->id);
  int digits = f->id == CHV_TYPE_TINYINT    ? 3
               : f->id == CHV_TYPE_SMALLINT ? 5
               : f->id == CHV_TYPE_INT      ? 10
                                            : 19;
  switch (t->id) {
  case CHV_TYPE_SMALLINT:
    return f->id == CHV_TYPE_TINYINT;
  case CHV_TYPE_INT:
    return f->id == CHV_TYPE_TINYINT || f->id == CHV_TYPE_SMALLINT;
  case CHV_TYPE_BIGINT:
    return fi;
  case CHV_TYPE_DOUBLE:
    return f->id == CHV_TYPE_FLOAT || (fi && f->id != CHV_TYPE_BIGINT);
  case CHV_TYPE_DECIMAL:
    if (fi) return t->precision - t->scale >= digits;
    return f->id == CHV_TYPE_DECIMAL && t->scale >= f->scale &&
           t->precision - t->scale >= f->precision - f->scale;
  case CHV_TYPE_TIMESTAMP:
    return f->id == CHV_TYPE_DATE;
  case CHV_TYPE_STRING:
    return chv_func_is_string(f->id);
  default:
    return false;
  }
}

/* A LEFT join to a correlated sub-query's grouped rows (subquery.c) gives
** a row one match at most only when its keys' casts keep the groups apart:
** fails on an equality x of the ON that casts a column of the right side
** (ro: its relations) to a type two of its values could meet in. */
static int grouped_key_cast(struct bctx *c, const struct sql_bind *b,
                            const struct sql_rels *rels, const bool *ro,
                            const struct chv_expr *x) {
  if (x->kind != CHV_EXPR_CALL || x->fn != CHV_FN_EQ) return CHV_OK;
  for (int i = 0; i < 2; i++) {
    const struct chv_expr *a = x->args[i];
    if (a->kind != CHV_EXPR_CAST || a->args[0]->kind != CHV_EXPR_COLUMN)
      continue;
    int tcol = b->tcols[a->args[0]->column], r = 0;
    while (r + 1 < rels->n && rels->r[r + 1].first <= tcol)
      r++;
    if (!ro[r] || cast_injective(a->args[0]->type, a->type)) continue;
    char f[64], t[64];
    type_name(a->args[0]->type, f, sizeof f);
    type_name(a->type, t, sizeof t);
    return sql_err(c->err, CHV_ENOTSUP,
                   "a correlated sub-query compared by a value of type %s "
                   "with one of the outer query's as %s (two of its values "
                   "could be one) is not supported yet",
                   f, t);
  }
  return CHV_OK;
}

/* Binds the ON of every join of f (inner joins first); [*lo, *hi) are f's
** relations and out[] the ones whose rows f gives. */
static int bind_ons(struct jbuild *jb, const struct chv_sql_from *f, int *next,
                    bool *out) {
  struct bctx *c = jb->c;
  int nrel = jb->sr->j->rels.n;
  if (f->kind != CHV_SQL_FROM_JOIN) {
    out[(*next)++] = true;
    return CHV_OK;
  }
  bool *lo = chv_arena_alloc(c->a, (size_t)nrel + 1);
  bool *ro = chv_arena_alloc(c->a, (size_t)nrel + 1);
  if (!lo || !ro) return oomc(c);
  memset(lo, 0, (size_t)nrel + 1);
  memset(ro, 0, (size_t)nrel + 1);
  CHV_RETURN_IF_ERR(bind_ons(jb, f->left, next, lo));
  CHV_RETURN_IF_ERR(bind_ons(jb, f->right, next, ro));
  bool semi = f->join == CHV_SQL_JOIN_SEMI || f->join == CHV_SQL_JOIN_ANTI ||
              f->join == CHV_SQL_JOIN_NOT_IN;
  bool *seen = chv_arena_alloc(c->a, (size_t)nrel + 1);
  if (!seen) return oomc(c);
  for (int r = 0; r < nrel; r++) {
    seen[r] = lo[r] || ro[r];
    out[r] = out[r] || lo[r] || (!semi && ro[r]);
  }
  struct jon *on = &jb->ons[jb->nons++];
  on->f = f;
  if (f->nusing || f->natural) return using_conj(jb, f, seen, on);
  if (!f->on) {
    if (semi) {
      *c->pos = f->pos;
      return sql_err(c->err, CHV_EINVAL, "a LEFT %s JOIN needs an ON",
                     f->join == CHV_SQL_JOIN_SEMI ? "SEMI" : "ANTI");
    }
    return CHV_OK;
  }
  size_t n = 0;
  sql_conjuncts(f->on, NULL, &n);
  const struct chv_sql_expr **v = chv_arena_alloc(c->a, sizeof *v * (n + 1));
  on->conj = chv_arena_alloc(c->a, sizeof *on->conj * (n + 1));
  if (!v || !on->conj) return oomc(c);
  n = 0;
  sql_conjuncts(f->on, v, &n);
  struct sql_bind *b = jb->b;
  const bool *saved = b->on_seen;
  int (*hook)(struct sql_bind *, const struct chv_sql_expr *,
              struct chv_expr **, bool *) = b->hook;
  b->on_seen = seen;
  b->hook = NULL;
  int rc = CHV_OK;
  for (size_t i = 0; i < n && rc == CHV_OK; i++) {
    *c->pos = v[i]->pos;
    if (sql_has_aggregate(v[i])) {
      rc = sql_err(c->err, CHV_EINVAL, "an aggregate in ON");
      break;
    }
    struct chv_expr *x;
    if ((rc = sql_bind_expr(b, v[i], &x)) != CHV_OK) break;
    if (x->type->id != CHV_TYPE_BOOLEAN) {
      char tn[64];
      struct chv_buf t;
      chv_buf_init(&t);
      type_name(x->type, tn, sizeof tn);
      sql_expr_text(v[i], &t);
      rc = sql_err(c->err, CHV_ETYPE, "ON condition %s is of type %s, not "
                   "boolean", t.data ? t.data : "", tn);
      chv_buf_free(&t);
      break;
    }
    if (f->from_subquery && f->join == CHV_SQL_JOIN_LEFT &&
        (rc = grouped_key_cast(c, b, &jb->sr->j->rels, ro, x)) != CHV_OK)
      break;
    on->conj[on->nconj++] = (struct sql_conj){v[i], x};
  }
  b->on_seen = saved;
  b->hook = hook;
  return rc;
}

/* The plan of f: its node (*out) and the table columns it gives, in order
** (otc[*notc]). */
static int join_node(struct jbuild *jb, const struct chv_sql_from *f,
                     int *next, const bool *used, int **otc, int *notc,
                     struct sql_node **out) {
  struct bctx *c = jb->c;
  const struct jsrc *j = jb->sr->j;
  struct sql_bind *b = jb->b;
  if (f->kind != CHV_SQL_FROM_JOIN) {
    int r = (*next)++;
    const struct sql_rel_name *rn = &j->rels.r[r];
    const struct src *l = &j->leaf[r];
    int *tc = chv_arena_alloc(c->a, sizeof *tc * (size_t)(rn->ncols + 1));
    if (!tc) return oomc(c);
    int n = 0;
    for (int k = 0; k < rn->ncols; k++)
      if (used[rn->first + k]) tc[n++] = rn->first + k;
    if (n == 0) tc[n++] = rn->first; /* one column, for its rows */
    struct sql_node *nd;
    if (l->kind == SRC_TABLE) {
      CHV_RETURN_IF_ERR(sql_node_new(c->a, SQL_NODE_SCAN, NULL, 0, &nd, c->err));
      nd->u.scan.cat = l->cat;
      nd->u.scan.t = l->t;
      nd->u.scan.options = l->options;
      nd->u.scan.noptions = l->noptions;
      if (l->sample) {
        nd->u.scan.sample = l->sample->s;
        nd->u.scan.sample_text = l->sample->text;
      }
      nd->u.scan.columns =
          chv_arena_alloc(c->a, sizeof *nd->u.scan.columns * (size_t)(n + 1));
      if (!nd->u.scan.columns) return oomc(c);
    } else {
      CHV_RETURN_IF_ERR(
          sql_node_new(c->a, SQL_NODE_DERIVED, &l->child, 1, &nd, c->err));
      nd->u.derived.what = ((const struct sql_rel *)(const void *)l->t)->what;
      nd->u.derived.map =
          chv_arena_alloc(c->a, sizeof *nd->u.derived.map * (size_t)(n + 1));
      if (!nd->u.derived.map) return oomc(c);
    }
    CHV_RETURN_IF_ERR(sql_node_cols(c->a, nd, n, c->err));
    for (int k = 0; k < n; k++) {
      nd->cols[k].name = j->all.columns[tc[k]].name;
      nd->cols[k].type = b->ttypes[tc[k]];
      if (l->kind == SRC_TABLE)
        nd->u.scan.columns[k] = j->all.columns[tc[k]].name;
      else
        nd->u.derived.map[k] = tc[k] - rn->first;
    }
    nd->pos = f->pos;
    *otc = tc;
    *notc = n;
    *out = nd;
    return CHV_OK;
  }
  int *ltc, *rtc, nl, nr;
  struct sql_node *in[2];
  CHV_RETURN_IF_ERR(join_node(jb, f->left, next, used, &ltc, &nl, &in[0]));
  CHV_RETURN_IF_ERR(join_node(jb, f->right, next, used, &rtc, &nr, &in[1]));
  struct sql_node *nd;
  CHV_RETURN_IF_ERR(sql_node_new(c->a, SQL_NODE_JOIN, in, 2, &nd, c->err));
  bool semi = f->join == CHV_SQL_JOIN_SEMI || f->join == CHV_SQL_JOIN_ANTI ||
              f->join == CHV_SQL_JOIN_NOT_IN;
  int n = semi ? nl : nl + nr;
  int *tc = chv_arena_alloc(c->a, sizeof *tc * (size_t)(nl + nr + 1));
  if (!tc) return oomc(c);
  memcpy(tc, ltc, sizeof *tc * (size_t)nl);
  memcpy(tc + nl, rtc, sizeof *tc * (size_t)nr);
  CHV_RETURN_IF_ERR(sql_node_cols(c->a, nd, n, c->err));
  for (int k = 0; k < nl; k++) nd->cols[k] = in[0]->cols[k];
  for (int k = nl; k < n; k++) nd->cols[k] = in[1]->cols[k - nl];
  nd->u.join.kind = f->join;
  nd->pos = f->pos;
  /* its ON, over the left's then the right's columns */
  const struct jon *on = NULL;
  for (int i = 0; i < jb->nons && !on; i++)
    if (jb->ons[i].f == f) on = &jb->ons[i];
  if (on && on->nconj) {
    int *map = chv_arena_alloc(c->a, sizeof *map * (size_t)(b->ncols + 1));
    if (!map) return oomc(c);
    for (int k = 0; k < b->ncols; k++) {
      map[k] = -1;
      for (int i = 0; i < nl + nr; i++)
        if (tc[i] == b->tcols[k]) map[k] = i;
    }
    nd->u.join.conj =
        chv_arena_alloc(c->a, sizeof *nd->u.join.conj * (size_t)on->nconj);
    if (!nd->u.join.conj) return oomc(c);
    for (int i = 0; i < on->nconj; i++) {
      nd->u.join.conj[i].ast = on->conj[i].ast;
      CHV_RETURN_IF_ERR(sql_expr_remap(c->a, on->conj[i].bound, map,
                                       &nd->u.join.conj[i].bound, c->err));
    }
    nd->u.join.nconj = on->nconj;
  }
  *otc = tc;
  *notc = n;
  *out = nd;
  return CHV_OK;
}

/* The input of a SELECT over a FROM of joins: the join tree of the
** relations, each reading the columns the query uses, under a Project that
** gives the binder's columns in its order. */
static int bottom_join(struct bctx *c, const struct src *sr,
                       struct sql_bind *b, struct sql_node **out) {
  const struct jsrc *j = sr->j;
  int nsel = b->ncols;
  int nrel = j->rels.n;
  struct jbuild jb = {c, sr, b, NULL, 0, NULL};
  jb.ons = chv_arena_alloc(c->a, sizeof *jb.ons * (size_t)nrel);
  bool *outr = chv_arena_alloc(c->a, (size_t)nrel + 1);
  bool *used = chv_arena_alloc(c->a, (size_t)j->all.ncols + 1);
  if (!jb.ons || !outr || !used) return oomc(c);
  memset(jb.ons, 0, sizeof *jb.ons * (size_t)nrel);
  memset(outr, 0, (size_t)nrel + 1);
  int next = 0;
  CHV_RETURN_IF_ERR(bind_ons(&jb, j->from, &next, outr));
  memset(used, 0, (size_t)j->all.ncols + 1);
  for (int k = 0; k < b->ncols; k++) used[b->tcols[k]] = true;
  int *tc, ntc;
  struct sql_node *root;
  next = 0;
  CHV_RETURN_IF_ERR(join_node(&jb, j->from, &next, used, &tc, &ntc, &root));
  struct sql_node *p;
  CHV_RETURN_IF_ERR(node_over(c, SQL_NODE_PROJECT, root, &p));
  CHV_RETURN_IF_ERR(sql_node_cols(c->a, p, nsel, c->err));
  p->u.project.exprs =
      chv_arena_alloc(c->a, sizeof *p->u.project.exprs * (size_t)(nsel + 1));
  if (!p->u.project.exprs) return oomc(c);
  struct chv_buf t;
  chv_buf_init(&t);
  for (int k = 0; k < nsel; k++) {
    int at = 0;
    while (at < ntc && tc[at] != b->tcols[k]) at++;
    if (at == ntc)
      return sql_err(c->err, CHV_EINTERNAL, "join: column %s is not read",
                     b->cols[k]);
    CHV_RETURN_IF_ERR(
        chv_expr_column(c->a, at, b->types[k], &p->u.project.exprs[k], c->err));
    p->cols[k] = (struct sql_col){b->cols[k], b->types[k], c->stpos};
    chv_buf_printf(&t, "%s%s", k ? ", " : "", b->cols[k]);
  }
  p->text = buf_str(c, &t);
  chv_buf_free(&t);
  *out = p;
  return p->text ? CHV_OK : oomc(c);
}

static int build_term(struct bctx *c, const struct chv_sql_query *q,
                      struct sql_target *ins, struct sql_node **out) {
  switch (q->kind) {
  case CHV_SQL_QUERY_UNION: return build_union(c, q, ins, out);
  case CHV_SQL_QUERY_VALUES: return build_values(c, q, ins, out);
  default: return build_from(c, q, ins, out);
  }
}

/* ---- WITH queries named more than once ------------------------------------ */

static int refs_query(const struct chv_sql_query *q, const char *name);

static int refs_in(const struct chv_sql_query *q, void *name) {
  return refs_query(q, name);
}

/* The references to WITH query name in expression e's sub-queries. */
static int refs_expr(const struct chv_sql_expr *e, const char *name) {
  return sql_expr_subqueries(e, refs_in, (void *)name);
}

static int refs_exprs(struct chv_sql_expr *const *v, size_t n,
                      const char *name) {
  int m = 0;
  for (size_t i = 0; i < n; i++) m += refs_expr(v[i], name);
  return m;
}

static int refs_from(const struct chv_sql_from *f, const char *name) {
  if (!f) return 0;
  switch (f->kind) {
  case CHV_SQL_FROM_TABLE:
    return f->table.nparts == 1 && !strcasecmp(f->table.parts[0], name);
  case CHV_SQL_FROM_SUBQUERY: return refs_query(f->subquery, name);
  default:
    return refs_from(f->left, name) + refs_from(f->right, name) +
           refs_expr(f->on, name);
  }
}

/* The references q's text makes to WITH query name (a WITH of q naming it
** again hides it from there on). */
static int refs_query(const struct chv_sql_query *q, const char *name) {
  if (!q) return 0;
  int m = 0;
  for (size_t i = 0; i < q->nctes; i++) {
    if (!strcasecmp(q->ctes[i].name, name)) return m;
    m += refs_query(q->ctes[i].query, name);
  }
  m += refs_from(q->from, name) + refs_expr(q->where, name) +
       refs_expr(q->having, name) + refs_query(q->left, name) +
       refs_query(q->right, name) +
       refs_exprs(q->group_by, q->ngroup_by, name);
  for (size_t i = 0; i < q->nitems; i++) m += refs_expr(q->items[i].expr, name);
  for (size_t i = 0; i < q->norder_by; i++) m += refs_expr(q->order_by[i].expr, name);
  for (size_t r = 0; r < q->nrows; r++) m += refs_exprs(q->rows[r], q->row_lens[r], name);
  return m;
}

/* A reference to WITH query w (h: what its scope holds of it) when w is
** named more than once: the rows of w, run the first time (on the scope
** seen, s->scope), read by a Values node in place of child (the plan of
** the reference, which gives its columns), as PostgreSQL and DuckDB
** materialize such a query.  Nothing changes when they take more than the
** operator memory, when w fails run alone, or when the plan is only
** explained (EXPLAIN runs nothing). */
static int held_rows(struct bctx *c, const struct chv_sql_cte *w,
                     struct sql_cte_held *h, struct sql_node **child) {
  struct sql_session *s = c->s;
  if (!h || h->refs < 2 || (s->plan && !sql_plan_analyze(s))) return CHV_OK;
  if (!h->tried) {
    /* a query that fails run alone (it reads a column of a query around
    ** it; it fails on rows a LIMIT above a reference would not read) is
    ** run by each reference as it would be; a cancel ends the statement */
    h->tried = true;
    struct chv_error e;
    struct chv_sql_pos at = *c->pos;
    chv_error_clear(&e);
    int rc = sql_query_hold(s, w->query, *child, &h->b, &at, &e);
    if (rc == CHV_ECANCELED) {
      *c->pos = at;
      *c->err = e;
      return rc;
    }
  }
  if (!h->b) return CHV_OK;
  struct sql_node *v;
  CHV_RETURN_IF_ERR(sql_node_new(c->a, SQL_NODE_VALUES, NULL, 0, &v, c->err));
  CHV_RETURN_IF_ERR(sql_node_cols(c->a, v, (*child)->ncols, c->err));
  for (int k = 0; k < v->ncols; k++) v->cols[k] = (*child)->cols[k];
  v->u.values.rows = h->b;
  v->u.values.nrows = h->b->nrows;
  v->pos = (*child)->pos;
  char what[200];
  snprintf(what, sizeof what, "WITH query %s", w->name);
  if (!(v->text = arena_str(c->a, what))) return oomc(c);
  *child = v;
  return CHV_OK;
}

static int build_query(struct bctx *c, const struct chv_sql_query *q,
                       struct sql_target *ins, struct sql_node **out) {
  struct sql_session *s = c->s;
  if (!q->nctes) return build_term(c, q, ins, out);
  for (size_t i = 0; i < q->nctes; i++)
    for (size_t k = 0; k < i; k++)
      if (!strcasecmp(q->ctes[i].name, q->ctes[k].name)) {
        *c->pos = q->ctes[i].pos;
        return sql_err(c->err, CHV_EINVAL, "WITH names '%s' twice",
                       q->ctes[i].name);
      }
  struct sql_scope sc = {q->ctes, q->nctes, s->scope, NULL};
  /* the references of each WITH query: of the later ones and of the body
  ** (refs_query() of q counts those of its WITH queries from the first) */
  sc.held = calloc(q->nctes, sizeof *sc.held);
  if (!sc.held) return oomc(c);
  for (size_t i = 0; i < q->nctes; i++) {
    struct chv_sql_query body = *q;
    body.ctes = q->ctes + i + 1;
    body.nctes = q->nctes - i - 1;
    sc.held[i].refs = refs_query(&body, q->ctes[i].name);
  }
  s->scope = &sc;
  int rc = build_term(c, q, ins, out);
  s->scope = sc.up;
  /* the rows held go with the plan, whose Values nodes read them */
  for (size_t i = 0; i < q->nctes; i++) {
    if (!sc.held[i].b) continue;
    if (keep((void ***)&c->qp->held, &c->qp->nheld, &c->qp->capheld,
             sc.held[i].b) != CHV_OK) {
      struct chv_type *st = (struct chv_type *)sc.held[i].b->schema;
      chv_batch_close(sc.held[i].b);
      chv_type_free(st);
      if (rc == CHV_OK) rc = oomc(c);
    }
  }
  free(sc.held);
  return rc;
}

/* A Project casting nd's columns to the target's (the query's own top
** Project when it has one, cast in place). */
static int target_project(struct bctx *c, const struct chv_sql_query *q,
                          struct sql_target *ins, struct sql_node **root) {
  struct sql_node *nd = *root;
  struct sql_node *p;
  CHV_RETURN_IF_ERR(node_over(c, SQL_NODE_PROJECT, nd, &p));
  CHV_RETURN_IF_ERR(sql_node_cols(c->a, p, nd->ncols, c->err));
  struct chv_expr **ex = chv_arena_alloc(c->a, sizeof *ex * (size_t)(nd->ncols + 1));
  const char **heads = chv_arena_alloc(c->a, sizeof *heads * (size_t)(nd->ncols + 1));
  struct chv_sql_pos *ipos = chv_arena_alloc(c->a, sizeof *ipos * (size_t)(nd->ncols + 1));
  if (!ex || !heads || !ipos) return oomc(c);
  for (int k = 0; k < nd->ncols; k++) {
    CHV_RETURN_IF_ERR(chv_expr_column(c->a, k, nd->cols[k].type, &ex[k], c->err));
    heads[k] = nd->cols[k].name;
    ipos[k] = nd->cols[k].pos.line ? nd->cols[k].pos : q->pos;
  }
  CHV_RETURN_IF_ERR(sql_target_casts(ins, q->pos, c->a, ex, heads, ipos,
                                     nd->ncols, c->pos, c->err));
  p->u.project.exprs = ex;
  struct chv_buf t;
  chv_buf_init(&t);
  for (int k = 0; k < nd->ncols; k++) {
    p->cols[k] = (struct sql_col){heads[k], ex[k]->type, ipos[k]};
    chv_buf_printf(&t, "%s%s", k ? ", " : "", heads[k]);
  }
  p->text = buf_str(c, &t);
  chv_buf_free(&t);
  *root = p;
  return CHV_OK;
}

int sql_query_build(struct sql_session *s, const struct chv_sql_query *q,
                    struct chv_sql_pos stpos, struct sql_target *ins,
                    struct sql_qplan *qp, struct chv_sql_pos *pos,
                    struct chv_error *err) {
  struct bctx c = {s, qp, qp->a, stpos, pos, err};
  /* a UNION ALL's own rows are cast above it, a SELECT's in its items */
  bool bare_union = q->kind == CHV_SQL_QUERY_UNION && q->all &&
                    !q->norder_by && !q->limit && !q->offset &&
                    !q->ndistribute_by;
  struct sql_node *root;
  CHV_RETURN_IF_ERR(build_query(&c, q, bare_union ? NULL : ins, &root));
  if (ins && bare_union) CHV_RETURN_IF_ERR(target_project(&c, q, ins, &root));
  qp->root = root;
  return CHV_OK;
}

bool sql_has_aggregate(const struct chv_sql_expr *e) { return has_agg(e); }

/* ---- the multi-insert ------------------------------------------------------------ */

/* Branch i of a multi-insert over the source sr (binder b): its items
** (cast to its target) and WHERE bound, its LIMIT, into bp. */
struct mbranch {
  struct chv_expr **ex;
  const char **heads;
  struct chv_sql_pos *ipos;
  int nout;
  const char *items_text;
  struct chv_expr *pred;
  const char *where_text;
  int64_t limit;
};

static int bind_mbranch(struct bctx *c, const struct chv_sql_query *q,
                        struct sql_bind *b, const struct src *sr,
                        struct sql_target *tg, struct mbranch *br) {
  const struct chv_table *t = sr->t;
  int cap = 0;
  for (size_t i = 0; i < q->nitems; i++)
    cap += q->items[i].expr->kind == CHV_SQL_EXPR_STAR ? t->ncols + t->npkeys
                                                        : 1;
  br->ex = chv_arena_alloc(c->a, sizeof *br->ex * (size_t)(cap + 1));
  br->heads = chv_arena_alloc(c->a, sizeof *br->heads * (size_t)(cap + 1));
  br->ipos = chv_arena_alloc(c->a, sizeof *br->ipos * (size_t)(cap + 1));
  if (!br->ex || !br->heads || !br->ipos) return oomc(c);
  struct chv_buf items;
  chv_buf_init(&items);
  int rc = CHV_OK;
  for (size_t i = 0; rc == CHV_OK && i < q->nitems; i++) {
    const struct chv_sql_expr *e = q->items[i].expr;
    *c->pos = e->pos;
    if (i) chv_buf_puts(&items, ", ");
    if (e->kind == CHV_SQL_EXPR_STAR) {
      if (!qualifier_ok(&e->u.star, e->u.star.nparts, t, sr->alias)) {
        const char *last = e->u.star.parts[e->u.star.nparts - 1];
        rc = sql_err(c->err, CHV_ENOENT,
                     "unknown table qualifier '%s' in %s.*", last, last);
        break;
      }
      for (int k = 0; rc == CHV_OK && k < t->ncols + t->npkeys; k++) {
        rc = sql_bind_column(b, k, &br->ex[br->nout]);
        if (rc != CHV_OK) break;
        br->heads[br->nout] = b->cols[br->ex[br->nout]->column];
        chv_buf_printf(&items, "%s%s", k ? ", " : "", br->heads[br->nout]);
        br->ipos[br->nout++] = e->pos;
      }
      continue;
    }
    rc = sql_bind_expr(b, e, &br->ex[br->nout]);
    if (rc == CHV_OK)
      rc = item_head(c, &q->items[i], br->nout,
                     e->kind == CHV_SQL_EXPR_COLUMN
                         ? b->cols[br->ex[br->nout]->column] : NULL,
                     &br->heads[br->nout]);
    if (rc != CHV_OK) break;
    sql_expr_text(e, &items);
    if (q->items[i].alias || e->kind != CHV_SQL_EXPR_COLUMN)
      chv_buf_printf(&items, " AS %s", br->heads[br->nout]);
    br->ipos[br->nout++] = e->pos;
  }
  br->items_text = buf_str(c, &items);
  chv_buf_free(&items);
  if (rc != CHV_OK) return rc;
  if (!br->items_text) return oomc(c);
  struct sql_node *filt;
  CHV_RETURN_IF_ERR(distribute_keys(c, q, b));
  CHV_RETURN_IF_ERR(where_node(c, q, b, false, &filt));
  if (filt) {
    br->pred = filt->u.filter.pred;
    br->where_text = filt->text;
  }
  CHV_RETURN_IF_ERR(query_limit(c, q, &br->limit));
  return sql_target_casts(tg, q->pos, c->a, br->ex, br->heads, br->ipos,
                          br->nout, c->pos, c->err);
}

int sql_multi_build(struct sql_session *s, const struct chv_sql_stmt *st,
                    struct sql_target *tgs, struct sql_plan_node *const *at,
                    struct sql_qplan *qp, struct chv_sql_pos *pos,
                    struct chv_error *err) {
  struct bctx cx = {s, qp, qp->a, st->pos, pos, err}, *c = &cx;
  const struct chv_sql_from *f = st->source;
  size_t nb = st->ninserts;
  struct src sr = {SRC_TABLE, NULL, NULL, f->alias, NULL, NULL, 0, NULL, NULL};
  struct sql_rel *rel = NULL;
  int rc;
  /* The source: a table (with its OPTIONS hint) or a sub-query. */
  *pos = f->pos;
  if (f->kind == CHV_SQL_FROM_SUBQUERY) {
    if (f->hints.n) {
      *pos = f->hints.items[0].pos;
      return sql_err(err, CHV_EINVAL,
                     "an OPTIONS hint applies to a table, and the sub-query%s%s "
                     "is a derived table (the rows of a query)",
                     f->alias ? " " : "", f->alias ? f->alias : "");
    }
    char what[160];
    snprintf(what, sizeof what, "sub-query %s", f->alias ? f->alias : "");
    CHV_RETURN_IF_ERR(derive_node(c, f->subquery, f->alias ? f->alias : "",
                                  what, &sr.child, &rel));
    CHV_RETURN_IF_ERR(rename_derived(c, f, what, rel));
    sr.kind = SRC_DERIVED;
    sr.t = &rel->t;
  } else {
    chv_catalog *cat = s->cat;
    struct chv_table *t = calloc(1, sizeof *t);
    if (!t) return oomc(c);
    rc = sql_get_table(s, &f->table, &cat, t, err);
    if (rc != CHV_OK) {
      free(t);
      return rc;
    }
    if (keep((void ***)&qp->tables, &qp->ntables, &qp->captables, t) !=
        CHV_OK) {
      chv_table_free(t);
      free(t);
      return oomc(c);
    }
    sr.cat = cat;
    sr.t = t;
    if (f->sample && t->type == CHV_VIRTUAL_VIEW) {
      char vn[520];
      snprintf(vn, sizeof vn, "%s.%s", t->db, t->name);
      return sample_not_table(c, f->sample, vn,
                              "a view; sample the tables the view reads");
    }
    CHV_RETURN_IF_ERR(table_sample(c, f->sample, &sr));
    *pos = f->pos;
    if (f->options.n) {
      char tn[512];
      snprintf(tn, sizeof tn, "%s.%s", t->db, t->name);
      struct chv_kv *kv = NULL;
      CHV_RETURN_IF_ERR(sql_hint_options(s, &f->options, tn, true, c->a, &kv,
                                         &sr.noptions, pos, err));
      sr.options = kv;
    }
  }
  /* The branches over the source; it reads what they all use. */
  struct mbranch *br = chv_arena_alloc(c->a, sizeof *br * (nb + 1));
  struct sql_node **in = chv_arena_alloc(c->a, sizeof *in * (nb + 2));
  if (!br || !in) return oomc(c);
  memset(br, 0, sizeof *br * (nb + 1));
  struct sql_bind b;
  rc = sql_bind_init(&b, sr.t, f->alias, c->a, pos, err);
  char what[512];
  b.what = sql_table_what(sr.t, what, sizeof what);
  for (size_t i = 0; rc == CHV_OK && i < nb; i++)
    rc = bind_mbranch(c, st->inserts[i]->query, &b, &sr, &tgs[i], &br[i]);
  if (rc == CHV_OK && b.ncols == 0 && sr.t->ncols + sr.t->npkeys > 0) {
    struct chv_expr *x; /* one column, for the rows */
    rc = sql_bind_column(&b, 0, &x);
  }
  struct sql_node *source = NULL, *m = NULL;
  if (rc == CHV_OK) rc = bottom(c, &sr, &b, &source);
  if (bind_done(qp, &b) != CHV_OK && rc == CHV_OK) rc = oomc(c);
  if (rc != CHV_OK) return rc;
  source->pos = f->pos; /* a failing read is the source's */
  if (source->kind == SQL_NODE_SCAN) source->u.scan.pos_any = true;
  CHV_RETURN_IF_ERR(sql_node_new(c->a, SQL_NODE_MULTI, NULL, 0, &m, err));
  /* each branch: Sink <- [Limit] <- Project <- [Filter] <- Tee */
  for (size_t i = 0; i < nb; i++) {
    struct sql_node *nd, *top;
    CHV_RETURN_IF_ERR(sql_node_new(c->a, SQL_NODE_TEE, NULL, 0, &top, err));
    CHV_RETURN_IF_ERR(sql_node_cols(c->a, top, source->ncols, err));
    memcpy(top->cols, source->cols, sizeof *top->cols * (size_t)source->ncols);
    top->u.tee.multi = m;
    if (br[i].pred) {
      CHV_RETURN_IF_ERR(node_over(c, SQL_NODE_FILTER, top, &nd));
      nd->u.filter.pred = br[i].pred;
      nd->text = br[i].where_text;
      top = nd;
    }
    CHV_RETURN_IF_ERR(project_node(c, st->inserts[i]->query, br[i].ex,
                                   br[i].heads, br[i].ipos, br[i].nout,
                                   br[i].items_text, br[i].limit, &top));
    CHV_RETURN_IF_ERR(node_over(c, SQL_NODE_SINK, top, &nd));
    /* a branch's failure points at its INSERT */
    for (struct sql_node *x = nd; x->kind != SQL_NODE_TEE; x = x->in[0])
      x->pos = st->inserts[i]->pos;
    nd->u.sink.target = &tgs[i];
    nd->u.sink.schema = tgs[i].schema;
    nd->u.sink.at = at[i];
    in[i] = nd;
  }
  in[nb] = source;
  m->in = in;
  m->nin = (int)nb + 1;
  m->pos = st->pos;
  m->text = NULL;
  qp->root = m;
  return CHV_OK;
}
