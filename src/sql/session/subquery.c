/*
** sql/session/subquery: correlated sub-queries made joins, before a SELECT
** is built (build.c), so that none runs once per row.  On a copy of the
** query, the conditions AND-ed in its WHERE are rewritten
**
**   x [NOT] IN (SELECT y FROM r WHERE w)  ->  FROM ... LEFT SEMI JOIN r
**   [NOT] EXISTS (SELECT ... FROM r WHERE w)     (ANTI; NOT IN: the anti
**                                                join that knows NULLs)
**                                             ON x = y AND w
**
** and every other correlated sub-query of the WHERE, the select list and
** HAVING (a correlated NOT IN too) becomes LEFT joins to the sub-query's
** rows grouped by its sides (e) of its correlating equalities (e = o), ON
** the outer sides:
**
**   x op (SELECT agg FROM r WHERE w)      ->  FROM ... LEFT JOIN
**                                             (SELECT agg AS c0, e AS k0
**                                              FROM r WHERE rest GROUP BY e)
**                                             s ON o = s.k0, x op s.c0
**   EXISTS (...)                          ->  a join to SELECT 1 AS m, e AS
**                                             k0 ..., s.m IS NOT NULL
**   x IN (SELECT y ...)                   ->  joins to the counts of rows
**                                             and of y per e, and to the
**                                             distinct (e, y) ON o = k0 AND
**                                             x = y: a CASE of the three
**                                             values (mark_in())
**
** In the select list or HAVING of a query that aggregates, the joins are
** under the aggregation and their columns taken as max() per group (the
** correlating expressions must be GROUP BY keys).
**
** A sub-query's columns are told from the outer query's by the relations
** of its FROM (the session's columns callback): a name one of them has, or
** a qualifier naming one, is the sub-query's; the others are the outer
** query's (correlated).  The relations of a sub-query joined as SEMI or
** ANTI take fresh aliases, and its columns are qualified with them, so that
** a table read inside and outside (Q17's lineitem) stays two relations.  A
** sub-query not correlated is left to the binder, which runs it once
** (sql_query_scalar(), sql_query_rows()).  What is not rewritten is said by
** the errors here and the binder's ("... is not supported yet").
*/
#include "sql/session/session_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static int doom(struct sql_decor *d) {
  return sql_err(d->err, CHV_ENOMEM, "out of memory");
}

static void *dalloc(struct sql_decor *d, size_t n) {
  void *p = chv_arena_alloc(d->a, n ? n : 1);
  if (p) memset(p, 0, n ? n : 1);
  return p;
}

static char *dstr(struct sql_decor *d, const char *s) {
  size_t n = strlen(s);
  char *p = chv_arena_alloc(d->a, n + 1);
  if (p) memcpy(p, s, n + 1);
  return p;
}

/* ---- the relations of a FROM --------------------------------------------------- */

struct rel {
  const struct chv_sql_from *leaf;
  const char **cols;
  int ncols;
  const char *alias; /* fresh (SEMI/ANTI), or NULL */
};

struct rels {
  struct rel *r;
  int n, cap;
};

static int leaves(struct sql_decor *d, const struct chv_sql_from *f,
                  struct rels *rs) {
  if (f->kind == CHV_SQL_FROM_JOIN) {
    CHV_RETURN_IF_ERR(leaves(d, f->left, rs));
    return leaves(d, f->right, rs);
  }
  if (rs->n == rs->cap) {
    int nc = rs->cap ? rs->cap * 2 : 8;
    struct rel *v = dalloc(d, sizeof *v * (size_t)nc);
    if (!v) return doom(d);
    if (rs->n) memcpy(v, rs->r, sizeof *v * (size_t)rs->n);
    rs->r = v;
    rs->cap = nc;
  }
  struct rel *r = &rs->r[rs->n++];
  r->leaf = f;
  return d->columns(d->ctx, f, &r->cols, &r->ncols);
}

/* True when the qualifier parts[0, nq) of a column names leaf f. */
static bool names_leaf(const struct chv_sql_from *f, const struct chv_sql_name *n,
                       int nq) {
  const char *last = n->parts[nq - 1];
  if (f->alias) return nq == 1 && !strcasecmp(last, f->alias);
  if (f->kind != CHV_SQL_FROM_TABLE) return false;
  const struct chv_sql_name *t = &f->table;
  if (strcasecmp(last, t->parts[t->nparts - 1])) return false;
  return nq < 2 || (t->nparts >= 2 &&
                    !strcasecmp(n->parts[nq - 2], t->parts[t->nparts - 2]));
}

/* The relation of rs a column reference names, or -1: not one of theirs. */
static int owner(const struct rels *rs, const struct chv_sql_name *n) {
  int nq = n->nparts - 1;
  const char *name = n->parts[nq];
  for (int i = 0; i < rs->n; i++) {
    if (nq && !names_leaf(rs->r[i].leaf, n, nq)) continue;
    for (int c = 0; c < rs->r[i].ncols; c++)
      if (!strcasecmp(rs->r[i].cols[c], name)) return i;
    if (nq) return i; /* named, without the column: the binder says so */
  }
  return -1;
}

/* The relations that come before rs in resolving a name: those of the
** sub-queries inside, innermost first. */
struct scope {
  const struct rels *rs;
  const struct scope *up;
};

/* Whether e names a column that is not one of rs's (bit 1) and one that
** is (bit 2); in a sub-query inside, the names of its own relations count
** for neither. */
static int refs_in(struct sql_decor *d, const struct chv_sql_expr *e,
                   const struct rels *rs, const struct scope *in);

static int refs_query(struct sql_decor *d, const struct chv_sql_query *q,
                      const struct rels *rs, const struct scope *in) {
  if (q->kind != CHV_SQL_QUERY_SELECT || !q->from) return 0;
  struct rels own = {0};
  if (leaves(d, q->from, &own) != CHV_OK) return 0;
  struct scope sc = {&own, in};
  int m = refs_in(d, q->where, rs, &sc) | refs_in(d, q->having, rs, &sc);
  for (size_t i = 0; i < q->nitems; i++)
    m |= refs_in(d, q->items[i].expr, rs, &sc);
  return m;
}

static int refs_list(struct sql_decor *d, struct chv_sql_expr *const *v,
                     size_t n, const struct rels *rs, const struct scope *in) {
  int m = 0;
  for (size_t i = 0; i < n; i++) m |= refs_in(d, v[i], rs, in);
  return m;
}

static int refs_in(struct sql_decor *d, const struct chv_sql_expr *e,
                   const struct rels *rs, const struct scope *in) {
  if (!e) return 0;
  switch (e->kind) {
  case CHV_SQL_EXPR_COLUMN:
    for (const struct scope *sc = in; sc; sc = sc->up)
      if (owner(sc->rs, &e->u.column) >= 0) return 0;
    return owner(rs, &e->u.column) < 0 ? 1 : 2;
  case CHV_SQL_EXPR_UNARY: return refs_in(d, e->u.unary.arg, rs, in);
  case CHV_SQL_EXPR_BINARY:
    return refs_in(d, e->u.binary.left, rs, in) |
           refs_in(d, e->u.binary.right, rs, in);
  case CHV_SQL_EXPR_IN:
    return refs_in(d, e->u.in.arg, rs, in) |
           refs_list(d, e->u.in.list, e->u.in.n, rs, in);
  case CHV_SQL_EXPR_BETWEEN:
    return refs_in(d, e->u.between.arg, rs, in) |
           refs_in(d, e->u.between.low, rs, in) |
           refs_in(d, e->u.between.high, rs, in);
  case CHV_SQL_EXPR_LIKE:
    return refs_in(d, e->u.like.arg, rs, in) |
           refs_in(d, e->u.like.pattern, rs, in);
  case CHV_SQL_EXPR_IS: return refs_in(d, e->u.is.arg, rs, in);
  case CHV_SQL_EXPR_CASE:
    return refs_in(d, e->u.case_.operand, rs, in) |
           refs_in(d, e->u.case_.else_, rs, in) |
           refs_list(d, e->u.case_.when, e->u.case_.n, rs, in) |
           refs_list(d, e->u.case_.then, e->u.case_.n, rs, in);
  case CHV_SQL_EXPR_CAST: return refs_in(d, e->u.cast.arg, rs, in);
  case CHV_SQL_EXPR_FUNC:
    return refs_list(d, e->u.func.args, e->u.func.n, rs, in);
  case CHV_SQL_EXPR_SUBQUERY:
  case CHV_SQL_EXPR_EXISTS: return refs_query(d, e->u.subquery, rs, in);
  default: return 0;
  }
}

static int refs(struct sql_decor *d, const struct chv_sql_expr *e,
                const struct rels *rs) {
  return refs_in(d, e, rs, NULL);
}

/* True when the sub-query q reads a column of the query around it. */
static bool correlated(struct sql_decor *d, const struct chv_sql_query *q) {
  if (q->kind != CHV_SQL_QUERY_SELECT || !q->from) return false;
  struct rels own = {0};
  if (leaves(d, q->from, &own) != CHV_OK) return false;
  int m = refs(d, q->where, &own) | refs(d, q->having, &own);
  for (size_t i = 0; i < q->nitems; i++) m |= refs(d, q->items[i].expr, &own);
  return (m & 1) != 0;
}

/* ---- copies ------------------------------------------------------------------------ */

/* A copy of e with the columns of rs's relations qualified by their fresh
** aliases (the sub-query's own sub-queries are left as they are). */
static int requalify(struct sql_decor *d, const struct chv_sql_expr *e,
                     const struct rels *rs, struct chv_sql_expr **out);

static int requalify_list(struct sql_decor *d, struct chv_sql_expr *const *v,
                          size_t n, const struct rels *rs,
                          struct chv_sql_expr ***out) {
  *out = NULL;
  if (!v) return CHV_OK;
  struct chv_sql_expr **nv = dalloc(d, sizeof *nv * (n + 1));
  if (!nv) return doom(d);
  for (size_t i = 0; i < n; i++)
    CHV_RETURN_IF_ERR(requalify(d, v[i], rs, &nv[i]));
  *out = nv;
  return CHV_OK;
}

static int requalify(struct sql_decor *d, const struct chv_sql_expr *e,
                     const struct rels *rs, struct chv_sql_expr **out) {
  *out = NULL;
  if (!e) return CHV_OK;
  struct chv_sql_expr *n = dalloc(d, sizeof *n);
  if (!n) return doom(d);
  *n = *e;
  *out = n;
  switch (e->kind) {
  case CHV_SQL_EXPR_COLUMN: {
    int r = owner(rs, &e->u.column);
    if (r < 0 || !rs->r[r].alias) return CHV_OK;
    const char *name = e->u.column.parts[e->u.column.nparts - 1];
    n->u.column.nparts = 2;
    n->u.column.parts[0] = rs->r[r].alias;
    n->u.column.parts[1] = name;
    n->u.column.parts[2] = NULL;
    return CHV_OK;
  }
  case CHV_SQL_EXPR_UNARY:
    return requalify(d, e->u.unary.arg, rs, &n->u.unary.arg);
  case CHV_SQL_EXPR_BINARY:
    CHV_RETURN_IF_ERR(requalify(d, e->u.binary.left, rs, &n->u.binary.left));
    return requalify(d, e->u.binary.right, rs, &n->u.binary.right);
  case CHV_SQL_EXPR_IN:
    CHV_RETURN_IF_ERR(requalify(d, e->u.in.arg, rs, &n->u.in.arg));
    return requalify_list(d, e->u.in.list, e->u.in.n, rs, &n->u.in.list);
  case CHV_SQL_EXPR_BETWEEN:
    CHV_RETURN_IF_ERR(requalify(d, e->u.between.arg, rs, &n->u.between.arg));
    CHV_RETURN_IF_ERR(requalify(d, e->u.between.low, rs, &n->u.between.low));
    return requalify(d, e->u.between.high, rs, &n->u.between.high);
  case CHV_SQL_EXPR_LIKE:
    CHV_RETURN_IF_ERR(requalify(d, e->u.like.arg, rs, &n->u.like.arg));
    return requalify(d, e->u.like.pattern, rs, &n->u.like.pattern);
  case CHV_SQL_EXPR_IS: return requalify(d, e->u.is.arg, rs, &n->u.is.arg);
  case CHV_SQL_EXPR_CASE:
    CHV_RETURN_IF_ERR(
        requalify(d, e->u.case_.operand, rs, &n->u.case_.operand));
    CHV_RETURN_IF_ERR(requalify(d, e->u.case_.else_, rs, &n->u.case_.else_));
    CHV_RETURN_IF_ERR(requalify_list(d, e->u.case_.when, e->u.case_.n, rs,
                                     &n->u.case_.when));
    return requalify_list(d, e->u.case_.then, e->u.case_.n, rs,
                          &n->u.case_.then);
  case CHV_SQL_EXPR_CAST: return requalify(d, e->u.cast.arg, rs, &n->u.cast.arg);
  case CHV_SQL_EXPR_FUNC:
    return requalify_list(d, e->u.func.args, e->u.func.n, rs, &n->u.func.args);
  default:
    return CHV_OK;
  }
}

/* A copy of the FROM tree f with leaf i of rs aliased rs->r[i].alias. */
static int realias(struct sql_decor *d, const struct chv_sql_from *f,
                   struct rels *rs, int *next, struct chv_sql_from **out) {
  struct chv_sql_from *n = dalloc(d, sizeof *n);
  if (!n) return doom(d);
  *n = *f;
  *out = n;
  if (f->kind == CHV_SQL_FROM_JOIN) {
    CHV_RETURN_IF_ERR(realias(d, f->left, rs, next, &n->left));
    CHV_RETURN_IF_ERR(realias(d, f->right, rs, next, &n->right));
    return requalify(d, f->on, rs, &n->on);
  }
  n->alias = rs->r[(*next)++].alias;
  return CHV_OK;
}

static struct chv_sql_expr *binary(struct sql_decor *d, enum chv_sql_op op,
                                   struct chv_sql_expr *l,
                                   struct chv_sql_expr *r) {
  if (!l) return r;
  if (!r) return l;
  struct chv_sql_expr *e = dalloc(d, sizeof *e);
  if (!e) return NULL;
  e->kind = CHV_SQL_EXPR_BINARY;
  e->pos = l->pos;
  e->u.binary.op = op;
  e->u.binary.left = l;
  e->u.binary.right = r;
  return e;
}

static struct chv_sql_expr *column(struct sql_decor *d, const char *qual,
                                   const char *name, struct chv_sql_pos pos) {
  struct chv_sql_expr *e = dalloc(d, sizeof *e);
  if (!e) return NULL;
  e->kind = CHV_SQL_EXPR_COLUMN;
  e->pos = pos;
  e->u.column.nparts = 2;
  e->u.column.parts[0] = qual;
  e->u.column.parts[1] = name;
  e->u.column.pos = pos;
  return e;
}

/* ---- the rewrites ---------------------------------------------------------------- */

/* Whether f has a JOIN ... USING or NATURAL JOIN (whose columns given
** once the sub-query's rewrites do not name). */
static bool has_using(const struct chv_sql_from *f) {
  if (f->kind != CHV_SQL_FROM_JOIN) return false;
  return f->nusing || f->natural || has_using(f->left) || has_using(f->right);
}

/* Why a sub-query cannot become a SEMI or ANTI join (NULL: it can). */
static const char *not_joinable(const struct chv_sql_query *q) {
  if (q->kind != CHV_SQL_QUERY_SELECT) return "a set operation";
  if (!q->from) return "a sub-query without FROM";
  if (has_using(q->from)) return "JOIN ... USING";
  if (q->ngroup_by || q->ngroup_elems || q->having) return "GROUP BY";
  if (q->distinct) return NULL; /* DISTINCT changes nothing for a match */
  for (size_t i = 0; i < q->nitems; i++)
    if (sql_has_aggregate(q->items[i].expr)) return "an aggregate";
  if (q->limit || q->offset) return "LIMIT";
  if (q->nwindows) return "WINDOW";
  return NULL;
}

static struct chv_sql_expr *true_lit(struct sql_decor *d,
                                     struct chv_sql_pos pos) {
  struct chv_sql_expr *e = dalloc(d, sizeof *e);
  if (!e) return NULL;
  e->kind = CHV_SQL_EXPR_LITERAL;
  e->pos = pos;
  e->u.lit.kind = CHV_SQL_LIT_BOOLEAN;
  e->u.lit.text = e->u.lit.value = "TRUE";
  e->u.lit.value_len = 4;
  return e;
}

/* FROM *from [kind] JOIN (q) $sqN(c0) ON x = $sqN.c0 (ON TRUE for EXISTS):
** a sub-query that reads nothing of the outer query, whole. */
static int semi_derived(struct sql_decor *d, struct chv_sql_from **from,
                        const struct chv_sql_expr *x,
                        const struct chv_sql_query *q,
                        enum chv_sql_join_kind kind, struct chv_sql_pos pos) {
  char a[32];
  snprintf(a, sizeof a, "$sq%d", d->next++);
  struct chv_sql_from *df = dalloc(d, sizeof *df), *j = dalloc(d, sizeof *j);
  const char **cols = dalloc(d, sizeof *cols);
  const char *alias = dstr(d, a);
  if (!df || !j || !cols || !alias) return doom(d);
  df->kind = CHV_SQL_FROM_SUBQUERY;
  df->pos = q->pos;
  df->alias = alias;
  df->subquery = (struct chv_sql_query *)(uintptr_t)q;
  struct chv_sql_expr *on;
  if (x) {
    cols[0] = "c0";
    df->columns = cols;
    df->ncolumns = 1;
    struct chv_sql_expr *c = column(d, alias, "c0", pos);
    on = c ? binary(d, CHV_SQL_OP_EQ, (struct chv_sql_expr *)(uintptr_t)x, c)
           : NULL;
  } else {
    on = true_lit(d, pos);
  }
  if (!on) return doom(d);
  j->kind = CHV_SQL_FROM_JOIN;
  j->pos = pos;
  j->join = kind;
  j->left = *from;
  j->right = df;
  j->on = on;
  j->from_subquery = true;
  *from = j;
  return CHV_OK;
}

/* FROM *from [kind] JOIN q's relations ON cond AND q's WHERE, for
** [NOT] EXISTS (x NULL) and x [NOT] IN (q). */
static int semi(struct sql_decor *d, struct chv_sql_from **from,
                const struct chv_sql_expr *x, const struct chv_sql_query *q,
                enum chv_sql_join_kind kind, struct chv_sql_pos pos) {
  const char *why = not_joinable(q);
  if (why && !correlated(d, q)) return semi_derived(d, from, x, q, kind, pos);
  if (why) {
    *d->pos = q->pos;
    return sql_err(d->err, CHV_ENOTSUP,
                   "an IN or EXISTS sub-query with %s is not supported yet",
                   why);
  }
  const struct chv_sql_query *sq;
  CHV_RETURN_IF_ERR(sql_decorrelate(d, q, &sq));
  if (x && (sq->nitems != 1 || sq->items[0].expr->kind == CHV_SQL_EXPR_STAR)) {
    *d->pos = sq->pos;
    return sql_err(d->err, CHV_EINVAL,
                   "the sub-query of IN gives %zu columns; it must give one",
                   sq->items[0].expr->kind == CHV_SQL_EXPR_STAR ? (size_t)0
                                                               : sq->nitems);
  }
  struct rels rs = {0};
  CHV_RETURN_IF_ERR(leaves(d, sq->from, &rs));
  for (int i = 0; i < rs.n; i++) {
    char a[32];
    snprintf(a, sizeof a, "$sq%d", d->next++);
    if (!(rs.r[i].alias = dstr(d, a))) return doom(d);
  }
  struct chv_sql_from *right;
  int next = 0;
  CHV_RETURN_IF_ERR(realias(d, sq->from, &rs, &next, &right));
  struct chv_sql_expr *on = NULL, *w = NULL;
  if (x) {
    struct chv_sql_expr *y;
    CHV_RETURN_IF_ERR(requalify(d, sq->items[0].expr, &rs, &y));
    if (!(on = binary(d, CHV_SQL_OP_EQ, (struct chv_sql_expr *)(uintptr_t)x, y)))
      return doom(d);
  }
  CHV_RETURN_IF_ERR(requalify(d, sq->where, &rs, &w));
  if (w && !(on = binary(d, CHV_SQL_OP_AND, on, w))) return doom(d);
  if (!on && !(on = true_lit(d, pos))) /* EXISTS (SELECT ... FROM r) */
    return doom(d);
  struct chv_sql_from *j = dalloc(d, sizeof *j);
  if (!j) return doom(d);
  j->kind = CHV_SQL_FROM_JOIN;
  j->pos = pos;
  j->join = kind;
  j->left = *from;
  j->right = right;
  j->on = on;
  j->from_subquery = true;
  *from = j;
  return CHV_OK;
}

/* True when e is the comparison of a column of the sub-query's (rs) with
** an expression of the outer query's: *in and *out are the two. */
static bool corr_eq(struct sql_decor *d, const struct chv_sql_expr *e,
                    const struct rels *rs, const struct chv_sql_expr **in,
                    const struct chv_sql_expr **out) {
  if (e->kind != CHV_SQL_EXPR_BINARY || e->u.binary.op != CHV_SQL_OP_EQ)
    return false;
  int l = refs(d, e->u.binary.left, rs), r = refs(d, e->u.binary.right, rs);
  if (l == 2 && r == 1) {
    *in = e->u.binary.left;
    *out = e->u.binary.right;
    return true;
  }
  if (l == 1 && r == 2) {
    *in = e->u.binary.right;
    *out = e->u.binary.left;
    return true;
  }
  return false;
}

/* ---- correlated sub-queries: joins to their rows grouped by the keys ---- */


static struct chv_sql_expr *new_expr(struct sql_decor *d,
                                     enum chv_sql_expr_kind kind,
                                     struct chv_sql_pos pos) {
  struct chv_sql_expr *e = dalloc(d, sizeof *e);
  if (e) {
    e->kind = kind;
    e->pos = pos;
  }
  return e;
}

/* A literal: an integer (text its digits), TRUE/FALSE or NULL (text NULL). */
static struct chv_sql_expr *literal(struct sql_decor *d,
                                    enum chv_sql_lit_kind kind,
                                    const char *text, struct chv_sql_pos pos) {
  struct chv_sql_expr *e = new_expr(d, CHV_SQL_EXPR_LITERAL, pos);
  if (!e) return NULL;
  e->u.lit.kind = kind;
  e->u.lit.text = e->u.lit.value = text;
  e->u.lit.value_len = text ? strlen(text) : 0;
  return e;
}

/* name(a[, b]) or, for star, name(*). */
static struct chv_sql_expr *call(struct sql_decor *d, const char *name,
                                 struct chv_sql_expr *a, struct chv_sql_expr *b,
                                 bool star, struct chv_sql_pos pos) {
  struct chv_sql_expr *e = new_expr(d, CHV_SQL_EXPR_FUNC, pos);
  struct chv_sql_expr **args = dalloc(d, sizeof *args * 3);
  if (!e || !args || (!star && !a)) return NULL;
  e->u.func.name = name;
  e->u.func.args = args;
  e->u.func.star = star;
  if (a) args[e->u.func.n++] = a;
  if (b) args[e->u.func.n++] = b;
  return e;
}

static struct chv_sql_expr *is_null(struct sql_decor *d, struct chv_sql_expr *x,
                                    bool negated) {
  struct chv_sql_expr *e = x ? new_expr(d, CHV_SQL_EXPR_IS, x->pos) : NULL;
  if (!e) return NULL;
  e->u.is.arg = x;
  e->u.is.what = CHV_SQL_IS_NULL;
  e->u.is.negated = negated;
  return e;
}

static struct chv_sql_expr *not_of(struct sql_decor *d,
                                   struct chv_sql_expr *x) {
  struct chv_sql_expr *e = x ? new_expr(d, CHV_SQL_EXPR_UNARY, x->pos) : NULL;
  if (!e) return NULL;
  e->u.unary.op = CHV_SQL_OP_NOT;
  e->u.unary.arg = x;
  return e;
}

/* The name of column x of the join qa ($sqN): $xN, so that the columns of
** two joins, and the query's own, read apart where the builder matches
** expressions by their text without qualifiers (max(c0) of two
** sub-queries). */
static const char *cname(struct sql_decor *d, const char *qa, const char *x) {
  char n[64];
  snprintf(n, sizeof n, "$%s%s", x, qa + 3);
  return dstr(d, n);
}

static const char *fresh_alias(struct sql_decor *d) {
  char a[32];
  snprintf(a, sizeof a, "$sq%d", d->next++);
  return dstr(d, a);
}

/* Where a correlated sub-query stands, for its rewrite. */
struct place {
  struct chv_sql_from **from;    /* the FROM its joins are added to */
  const struct chv_sql_query *q; /* the query around it */
  /* In the select list or HAVING of a query that aggregates, outside an
  ** aggregate: the sub-query's columns are taken through max() (one value
  ** a group: the correlating columns must be GROUP BY keys). */
  bool grouped;
  const char *where; /* "WHERE", "the select list", "HAVING", "ORDER BY" */
};

/* A correlated sub-query split: the sub-query's and the outer query's
** sides of its correlating equalities, and its other conditions. */
struct corr {
  const struct chv_sql_query *sq;   /* with its own sub-queries made joins */
  struct rels rs;                   /* its relations */
  struct chv_sql_expr **keys;       /* its sides */
  const struct chv_sql_expr **outs; /* the outer query's sides */
  size_t nk;
  struct chv_sql_expr *rest; /* its own conditions, or NULL */
};

static int correlation(struct sql_decor *d, const struct chv_sql_query *q,
                       const char *what, struct corr *c) {
  memset(c, 0, sizeof *c);
  struct rels own = {0};
  CHV_RETURN_IF_ERR(leaves(d, q->from, &own));
  size_t nw = 0;
  if (q->where) sql_conjuncts(q->where, NULL, &nw);
  const struct chv_sql_expr **w = dalloc(d, sizeof *w * (nw + 1));
  if (!w) return doom(d);
  nw = 0;
  if (q->where) sql_conjuncts(q->where, w, &nw);
  for (size_t i = 0; i < nw; i++)
    if (sql_expr_has_subquery(w[i]) && (refs(d, w[i], &own) & 1)) {
      *d->pos = w[i]->pos;
      return sql_err(d->err, CHV_ENOTSUP,
                     "%s sub-query reading the outer query's columns is not "
                     "supported yet", what);
    }
  CHV_RETURN_IF_ERR(sql_decorrelate(d, q, &c->sq));
  const struct chv_sql_query *sq = c->sq;
  CHV_RETURN_IF_ERR(leaves(d, sq->from, &c->rs));
  size_t n = 0;
  if (sq->where) sql_conjuncts(sq->where, NULL, &n);
  const struct chv_sql_expr **v = dalloc(d, sizeof *v * (n + 1));
  c->keys = dalloc(d, sizeof *c->keys * (n + 2));
  c->outs = dalloc(d, sizeof *c->outs * (n + 1));
  if (!v || !c->keys || !c->outs) return doom(d);
  n = 0;
  if (sq->where) sql_conjuncts(sq->where, v, &n);
  for (size_t i = 0; i < n; i++) {
    const struct chv_sql_expr *in, *out;
    if (!(refs(d, v[i], &c->rs) & 1)) { /* the sub-query's own */
      if (!(c->rest = binary(d, CHV_SQL_OP_AND, c->rest,
                             (struct chv_sql_expr *)(uintptr_t)v[i])))
        return doom(d);
      continue;
    }
    if (!corr_eq(d, v[i], &c->rs, &in, &out)) {
      *d->pos = v[i]->pos;
      return sql_err(d->err, CHV_ENOTSUP,
                     "%s condition on the outer query's columns must be an "
                     "equality of a column of its own with one of the outer "
                     "query's (not supported yet)",
                     what);
    }
    c->keys[c->nk] = (struct chv_sql_expr *)(uintptr_t)in;
    c->outs[c->nk++] = out;
  }
  return CHV_OK;
}

/* e's text with its columns' qualifiers as written, in the arena. */
static const char *qualified_text(struct sql_decor *d,
                                  const struct chv_sql_expr *e) {
  struct chv_buf t;
  chv_buf_init(&t);
  sql_expr_text_qualified(e, &t);
  const char *p = t.data ? dstr(d, t.data) : NULL;
  chv_buf_free(&t);
  return p;
}

/* In a grouped place, fails unless e is one of the query's GROUP BY
** expressions (as written, qualifiers too). */
static int grouped_key(struct sql_decor *d, const struct place *pl,
                       const struct chv_sql_expr *e) {
  const struct chv_sql_query *q = pl->q;
  if (!pl->grouped) return CHV_OK;
  const char *t = qualified_text(d, e);
  struct rels rs = {0};
  if (!t) return doom(d);
  CHV_RETURN_IF_ERR(leaves(d, q->from, &rs));
  for (size_t i = 0; i < q->ngroup_by && !q->ngroup_elems; i++) {
    const struct chv_sql_expr *g = q->group_by[i];
    if (e->kind == CHV_SQL_EXPR_COLUMN && g->kind == CHV_SQL_EXPR_COLUMN) {
      /* one column of one relation, qualified or not */
      const struct chv_sql_name *a = &e->u.column, *b = &g->u.column;
      int r = owner(&rs, a);
      if (r >= 0 && r == owner(&rs, b) &&
          !strcasecmp(a->parts[a->nparts - 1], b->parts[b->nparts - 1]))
        return CHV_OK;
      continue;
    }
    const char *k = qualified_text(d, g);
    if (!k) return doom(d);
    if (!strcmp(k, t)) return CHV_OK;
  }
  *d->pos = e->pos;
  return sql_err(d->err, CHV_ENOTSUP,
                 "a correlated sub-query in %s of a query that aggregates "
                 "must be correlated by (and IN test) expressions of its "
                 "GROUP BY, as written, without GROUPING SETS, ROLLUP or "
                 "CUBE (%s is not one; not supported yet)",
                 pl->where, t);
}

/* e, or max(e) in a grouped place (e has one value a group). */
static struct chv_sql_expr *
per_group(struct sql_decor *d, const struct place *pl, struct chv_sql_expr *e) {
  return pl->grouped && e ? call(d, "max", e, NULL, false, e->pos) : e;
}

/* *pl->from LEFT JOIN (SELECT items, keys AS k0, .. FROM the sub-query's
** FROM WHERE its own conditions GROUP BY the keys[, extra]) qa ON the
** outer sides = qa.k0 .. [AND on]: one row of qa at most for a row. */
static int join_grouped(struct sql_decor *d, const struct place *pl,
                        const struct corr *c, const char *qa,
                        const struct chv_sql_select_item *items, size_t ni,
                        struct chv_sql_expr *extra, struct chv_sql_expr *on,
                        struct chv_sql_pos pos) {
  for (size_t i = 0; i < c->nk; i++)
    CHV_RETURN_IF_ERR(grouped_key(d, pl, c->outs[i]));
  struct chv_sql_select_item *it = dalloc(d, sizeof *it * (ni + c->nk + 1));
  struct chv_sql_expr **keys = dalloc(d, sizeof *keys * (c->nk + 2));
  struct chv_sql_query *g = dalloc(d, sizeof *g);
  struct chv_sql_from *df = dalloc(d, sizeof *df), *j = dalloc(d, sizeof *j);
  if (!it || !keys || !g || !df || !j) return doom(d);
  memcpy(it, items, sizeof *it * ni);
  struct chv_sql_expr *cond = NULL;
  for (size_t i = 0; i < c->nk; i++) {
    char kn[16];
    snprintf(kn, sizeof kn, "k%d", (int)i);
    const char *kname = dstr(d, kn);
    if (!kname) return doom(d);
    keys[i] = c->keys[i];
    it[ni + i] = (struct chv_sql_select_item){keys[i], kname};
    struct chv_sql_expr *k = column(d, qa, kname, c->keys[i]->pos);
    if (!k || !(cond = binary(
                    d, CHV_SQL_OP_AND, cond,
                    binary(d, CHV_SQL_OP_EQ,
                           (struct chv_sql_expr *)(uintptr_t)c->outs[i], k))))
      return doom(d);
  }
  size_t nkeys = c->nk;
  if (extra) keys[nkeys++] = extra;
  if (on && !(cond = binary(d, CHV_SQL_OP_AND, cond, on))) return doom(d);
  *g = *c->sq;
  g->nctes = 0; /* they stay in scope where the sub-query is */
  g->ctes = NULL;
  g->items = it;
  g->nitems = ni + c->nk;
  g->where = c->rest;
  g->group_by = keys;
  g->ngroup_by = nkeys;
  g->norder_by = 0;
  g->distinct = false;
  df->kind = CHV_SQL_FROM_SUBQUERY;
  df->pos = pos;
  df->alias = qa;
  df->subquery = g;
  j->kind = CHV_SQL_FROM_JOIN;
  j->pos = pos;
  j->join = cond ? CHV_SQL_JOIN_LEFT : CHV_SQL_JOIN_CROSS;
  j->left = *pl->from;
  j->right = df;
  j->on = cond;
  j->from_subquery = true;
  *pl->from = j;
  return CHV_OK;
}

/* A correlated scalar sub-query q: a join to its aggregate grouped by the
** sub-query's sides of its correlating equalities; *col the column that
** stands for it (COUNT: 0 where no row matches). */
static int scalar(struct sql_decor *d, const struct place *pl,
                  const struct chv_sql_query *q, struct chv_sql_expr **col) {
  const char *why = NULL;
  if (q->kind != CHV_SQL_QUERY_SELECT || !q->from)
    why = "a set operation";
  else if (q->ngroup_by || q->ngroup_elems || q->having)
    why = "GROUP BY";
  else if (q->nitems != 1 || !sql_has_aggregate(q->items[0].expr))
    why = "a select list other than one aggregate";
  else if (q->limit || q->offset || q->distinct || q->nwindows)
    why = "LIMIT or DISTINCT";
  if (why) {
    *d->pos = q->pos;
    return sql_err(d->err, CHV_ENOTSUP,
                   "a correlated scalar sub-query with %s is not supported yet",
                   why);
  }
  struct corr c;
  CHV_RETURN_IF_ERR(correlation(d, q, "a correlated scalar sub-query's", &c));
  if (refs(d, c.sq->items[0].expr, &c.rs) & 1) {
    *d->pos = c.sq->items[0].expr->pos;
    return sql_err(d->err, CHV_ENOTSUP,
                   "a scalar sub-query whose select list names the outer "
                   "query's columns is not supported yet");
  }
  const char *qa = fresh_alias(d);
  if (!qa) return doom(d);
  const char *c0 = cname(d, qa, "c");
  if (!c0) return doom(d);
  struct chv_sql_select_item it = {c.sq->items[0].expr, c0};
  CHV_RETURN_IF_ERR(join_grouped(d, pl, &c, qa, &it, 1, NULL, NULL, q->pos));
  struct chv_sql_expr *v = per_group(d, pl, column(d, qa, c0, q->pos));
  if (!v) return doom(d);
  /* COUNT over no row is 0, not the NULL of no match */
  const struct chv_sql_expr *agg = c.sq->items[0].expr;
  if (agg->kind == CHV_SQL_EXPR_FUNC &&
      !strcasecmp(agg->u.func.name, "count")) {
    struct chv_sql_expr *z = literal(d, CHV_SQL_LIT_INTEGER, "0", q->pos);
    if (!z) return doom(d);
    z->u.lit.suffix = "L";
    if (!(v = call(d, "coalesce", v, z, false, q->pos))) return doom(d);
  }
  *col = v;
  return CHV_OK;
}

/* A correlated [NOT] EXISTS (q) where a semi join cannot stand: a join to
** the distinct keys of q's rows, *out TRUE where one matched. */
static int mark_exists(struct sql_decor *d, const struct place *pl,
                       const struct chv_sql_query *q, struct chv_sql_pos pos,
                       struct chv_sql_expr **out) {
  const char *why = not_joinable(q);
  if (why) {
    *d->pos = q->pos;
    return sql_err(d->err, CHV_ENOTSUP,
                   "a correlated EXISTS sub-query with %s is not supported "
                   "yet",
                   why);
  }
  struct corr c;
  CHV_RETURN_IF_ERR(correlation(d, q, "a correlated EXISTS sub-query's", &c));
  if (!c.nk) {
    *d->pos = q->pos;
    return sql_err(d->err, CHV_ENOTSUP,
                   "a correlated EXISTS sub-query without a correlating "
                   "equality in its WHERE is not supported yet");
  }
  const char *qa = fresh_alias(d);
  const char *m = qa ? cname(d, qa, "m") : NULL;
  struct chv_sql_expr *one = literal(d, CHV_SQL_LIT_INTEGER, "1", pos);
  if (!qa || !m || !one) return doom(d);
  struct chv_sql_select_item it = {one, m};
  CHV_RETURN_IF_ERR(join_grouped(d, pl, &c, qa, &it, 1, NULL, NULL, pos));
  if (!(*out = is_null(d, per_group(d, pl, column(d, qa, m, pos)), true)))
    return doom(d);
  return CHV_OK;
}

/* A correlated x [NOT] IN (q) where a semi join cannot stand: a join to the
** counts of q's rows and of its non-NULL values per key (s), and one to its
** distinct (key, value) pairs on x (m):
**   CASE WHEN m matched THEN TRUE WHEN s matched nothing THEN FALSE
**        WHEN x IS NULL OR s has a NULL THEN NULL ELSE FALSE END */
static int mark_in(struct sql_decor *d, const struct place *pl,
                   const struct chv_sql_expr *e, struct chv_sql_expr **out) {
  const struct chv_sql_query *q = e->u.in.list[0]->u.subquery;
  struct chv_sql_pos pos = e->pos;
  const char *why = not_joinable(q);
  if (why) {
    *d->pos = q->pos;
    return sql_err(d->err, CHV_ENOTSUP,
                   "a correlated IN sub-query with %s is not supported yet",
                   why);
  }
  if (sql_expr_has_subquery(e->u.in.arg)) {
    *d->pos = e->u.in.arg->pos;
    return sql_err(d->err, CHV_ENOTSUP,
                   "a sub-query on the left of a correlated IN is not "
                   "supported yet");
  }
  struct corr c;
  CHV_RETURN_IF_ERR(correlation(d, q, "a correlated IN sub-query's", &c));
  const struct chv_sql_query *sq = c.sq;
  if (sq->nitems != 1 || sq->items[0].expr->kind == CHV_SQL_EXPR_STAR) {
    *d->pos = sq->pos;
    return sql_err(d->err, CHV_EINVAL,
                   "the sub-query of IN gives %zu columns; it must give one",
                   sq->items[0].expr->kind == CHV_SQL_EXPR_STAR ? (size_t)0
                                                                : sq->nitems);
  }
  struct chv_sql_expr *y = sq->items[0].expr;
  if (refs(d, y, &c.rs) & 1) {
    *d->pos = y->pos;
    return sql_err(d->err, CHV_ENOTSUP,
                   "an IN sub-query whose select list names the outer "
                   "query's columns is not supported yet");
  }
  if (!c.nk) {
    *d->pos = q->pos;
    return sql_err(d->err, CHV_ENOTSUP,
                   "a correlated IN sub-query without a correlating equality "
                   "in its WHERE is not supported yet");
  }
  struct chv_sql_expr *x = (struct chv_sql_expr *)(uintptr_t)e->u.in.arg;
  CHV_RETURN_IF_ERR(grouped_key(d, pl, x));
  const char *qs = fresh_alias(d), *qm = fresh_alias(d);
  if (!qs || !qm) return doom(d);
  const char *nn_ = cname(d, qs, "nn"), *n_ = cname(d, qs, "n");
  const char *m_ = cname(d, qm, "m"), *v_ = cname(d, qm, "v");
  struct chv_sql_expr *n = call(d, "count", NULL, NULL, true, pos);
  struct chv_sql_expr *nn = call(d, "count", y, NULL, false, pos);
  struct chv_sql_expr *one = literal(d, CHV_SQL_LIT_INTEGER, "1", pos);
  struct chv_sql_expr *v = v_ ? column(d, qm, v_, pos) : NULL;
  struct chv_sql_expr *on = v ? binary(d, CHV_SQL_OP_EQ, x, v) : NULL;
  if (!nn_ || !n_ || !m_ || !n || !nn || !one || !on) return doom(d);
  struct chv_sql_select_item si[2] = {{n, n_}, {nn, nn_}};
  struct chv_sql_select_item mi[2] = {{one, m_}, {y, v_}};
  CHV_RETURN_IF_ERR(join_grouped(d, pl, &c, qs, si, 2, NULL, NULL, pos));
  CHV_RETURN_IF_ERR(join_grouped(d, pl, &c, qm, mi, 2, y, on, pos));
  struct chv_sql_expr *sn = per_group(d, pl, column(d, qs, n_, pos));
  struct chv_sql_expr *snn = per_group(d, pl, column(d, qs, nn_, pos));
  struct chv_sql_expr *mm = per_group(d, pl, column(d, qm, m_, pos));
  struct chv_sql_expr *ce = new_expr(d, CHV_SQL_EXPR_CASE, pos);
  struct chv_sql_expr **w = dalloc(d, sizeof *w * 3),
                      **t = dalloc(d, sizeof *t * 3);
  if (!sn || !snn || !mm || !ce || !w || !t) return doom(d);
  w[0] = is_null(d, mm, true);
  t[0] = literal(d, CHV_SQL_LIT_BOOLEAN, "TRUE", pos);
  w[1] = is_null(d, sn, false);
  t[1] = literal(d, CHV_SQL_LIT_BOOLEAN, "FALSE", pos);
  w[2] = binary(d, CHV_SQL_OP_OR, is_null(d, x, false),
                binary(d, CHV_SQL_OP_GT, sn, snn));
  t[2] = literal(d, CHV_SQL_LIT_NULL, "NULL", pos);
  ce->u.case_.when = w;
  ce->u.case_.then = t;
  ce->u.case_.n = 3;
  ce->u.case_.else_ = literal(d, CHV_SQL_LIT_BOOLEAN, "FALSE", pos);
  for (int i = 0; i < 3; i++)
    if (!w[i] || !t[i]) return doom(d);
  if (!ce->u.case_.else_) return doom(d);
  *out = e->u.in.negated ? not_of(d, ce) : ce;
  return *out ? CHV_OK : doom(d);
}

static int each_in(struct chv_sql_expr *const *v, size_t n,
                   int (*fn)(const struct chv_sql_query *q, void *ctx),
                   void *ctx) {
  int m = 0;
  for (size_t i = 0; i < n; i++) m += sql_expr_subqueries(v[i], fn, ctx);
  return m;
}

int sql_expr_subqueries(const struct chv_sql_expr *e,
                        int (*fn)(const struct chv_sql_query *q, void *ctx),
                        void *ctx) {
  if (!e) return 0;
  switch (e->kind) {
  case CHV_SQL_EXPR_SUBQUERY:
  case CHV_SQL_EXPR_EXISTS: return fn(e->u.subquery, ctx);
  case CHV_SQL_EXPR_UNARY: return sql_expr_subqueries(e->u.unary.arg, fn, ctx);
  case CHV_SQL_EXPR_BINARY:
    return sql_expr_subqueries(e->u.binary.left, fn, ctx) +
           sql_expr_subqueries(e->u.binary.right, fn, ctx);
  case CHV_SQL_EXPR_IN:
    return sql_expr_subqueries(e->u.in.arg, fn, ctx) +
           each_in(e->u.in.list, e->u.in.n, fn, ctx);
  case CHV_SQL_EXPR_BETWEEN:
    return sql_expr_subqueries(e->u.between.arg, fn, ctx) +
           sql_expr_subqueries(e->u.between.low, fn, ctx) +
           sql_expr_subqueries(e->u.between.high, fn, ctx);
  case CHV_SQL_EXPR_LIKE:
    return sql_expr_subqueries(e->u.like.arg, fn, ctx) +
           sql_expr_subqueries(e->u.like.pattern, fn, ctx);
  case CHV_SQL_EXPR_IS: return sql_expr_subqueries(e->u.is.arg, fn, ctx);
  case CHV_SQL_EXPR_CASE:
    return sql_expr_subqueries(e->u.case_.operand, fn, ctx) +
           sql_expr_subqueries(e->u.case_.else_, fn, ctx) +
           each_in(e->u.case_.when, e->u.case_.n, fn, ctx) +
           each_in(e->u.case_.then, e->u.case_.n, fn, ctx);
  case CHV_SQL_EXPR_CAST: return sql_expr_subqueries(e->u.cast.arg, fn, ctx);
  case CHV_SQL_EXPR_FUNC: {
    int m = each_in(e->u.func.args, e->u.func.n, fn, ctx);
    if (e->u.func.over) {
      const struct chv_sql_window *w = e->u.func.over;
      m += each_in(w->partition_by, w->npartition_by, fn, ctx);
      for (size_t i = 0; i < w->norder_by; i++)
        m += sql_expr_subqueries(w->order_by[i].expr, fn, ctx);
    }
    return m;
  }
  default: return 0;
  }
}

static int one(const struct chv_sql_query *q, void *ctx) {
  (void)q;
  (void)ctx;
  return 1;
}

bool sql_expr_has_subquery(const struct chv_sql_expr *e) {
  return sql_expr_subqueries(e, one, NULL) > 0;
}

static bool list_has(struct chv_sql_expr *const *v, size_t n) {
  return each_in(v, n, one, NULL) > 0;
}

/* A correlated sub-query in e, or NULL. */
static const struct chv_sql_expr *correlated_in(struct sql_decor *d,
                                                const struct chv_sql_expr *e);

static const struct chv_sql_expr *
correlated_list(struct sql_decor *d, struct chv_sql_expr *const *v, size_t n) {
  for (size_t i = 0; i < n; i++) {
    const struct chv_sql_expr *c = correlated_in(d, v[i]);
    if (c) return c;
  }
  return NULL;
}

static const struct chv_sql_expr *correlated_in(struct sql_decor *d,
                                                const struct chv_sql_expr *e) {
  if (!e || !sql_expr_has_subquery(e)) return NULL;
  const struct chv_sql_expr *c = NULL;
  switch (e->kind) {
  case CHV_SQL_EXPR_SUBQUERY:
  case CHV_SQL_EXPR_EXISTS:
    return correlated(d, e->u.subquery) ? e : NULL;
  case CHV_SQL_EXPR_UNARY:
    return correlated_in(d, e->u.unary.arg);
  case CHV_SQL_EXPR_BINARY:
    c = correlated_in(d, e->u.binary.left);
    return c ? c : correlated_in(d, e->u.binary.right);
  case CHV_SQL_EXPR_IN:
    c = correlated_in(d, e->u.in.arg);
    return c ? c : correlated_list(d, e->u.in.list, e->u.in.n);
  case CHV_SQL_EXPR_BETWEEN:
    if ((c = correlated_in(d, e->u.between.arg))) return c;
    if ((c = correlated_in(d, e->u.between.low))) return c;
    return correlated_in(d, e->u.between.high);
  case CHV_SQL_EXPR_LIKE:
    c = correlated_in(d, e->u.like.arg);
    return c ? c : correlated_in(d, e->u.like.pattern);
  case CHV_SQL_EXPR_IS:
    return correlated_in(d, e->u.is.arg);
  case CHV_SQL_EXPR_CASE:
    if ((c = correlated_in(d, e->u.case_.operand))) return c;
    if ((c = correlated_in(d, e->u.case_.else_))) return c;
    if ((c = correlated_list(d, e->u.case_.when, e->u.case_.n))) return c;
    return correlated_list(d, e->u.case_.then, e->u.case_.n);
  case CHV_SQL_EXPR_CAST:
    return correlated_in(d, e->u.cast.arg);
  case CHV_SQL_EXPR_FUNC:
    return correlated_list(d, e->u.func.args, e->u.func.n);
  default:
    return NULL;
  }
}

/* Fails on a correlated sub-query in e, which stands in a clause (what)
** that takes none. */
static int refuse_correlated(struct sql_decor *d, const struct chv_sql_expr *e,
                             const char *what) {
  const struct chv_sql_expr *c = correlated_in(d, e);
  if (!c) return CHV_OK;
  *d->pos = c->pos;
  return sql_err(d->err, CHV_ENOTSUP,
                 "a correlated sub-query in %s is not supported yet", what);
}

/* A copy of e with each correlated sub-query replaced by the columns of
** its joins (added to *pl->from); the uncorrelated ones stay, for the
** binder to run once. */
static int rewrite(struct sql_decor *d, const struct place *pl,
                   const struct chv_sql_expr *e, struct chv_sql_expr **out);

static int rewrite_list(struct sql_decor *d, const struct place *pl,
                        struct chv_sql_expr *const *v, size_t n,
                        struct chv_sql_expr ***out) {
  *out = (struct chv_sql_expr **)(uintptr_t)v;
  if (!v || !list_has(v, n)) return CHV_OK;
  struct chv_sql_expr **nv = dalloc(d, sizeof *nv * (n + 1));
  if (!nv) return doom(d);
  for (size_t i = 0; i < n; i++)
    CHV_RETURN_IF_ERR(rewrite(d, pl, v[i], &nv[i]));
  *out = nv;
  return CHV_OK;
}

static int rewrite(struct sql_decor *d, const struct place *pl,
                   const struct chv_sql_expr *e, struct chv_sql_expr **out) {
  *out = (struct chv_sql_expr *)(uintptr_t)e;
  if (!e || !sql_expr_has_subquery(e)) return CHV_OK;
  switch (e->kind) {
  case CHV_SQL_EXPR_SUBQUERY:
    if (!correlated(d, e->u.subquery)) return CHV_OK; /* run once */
    return scalar(d, pl, e->u.subquery, out);
  case CHV_SQL_EXPR_EXISTS:
    if (!correlated(d, e->u.subquery)) return CHV_OK;
    return mark_exists(d, pl, e->u.subquery, e->pos, out);
  case CHV_SQL_EXPR_IN:
    if (e->u.in.n == 1 && e->u.in.list[0]->kind == CHV_SQL_EXPR_SUBQUERY &&
        correlated(d, e->u.in.list[0]->u.subquery))
      return mark_in(d, pl, e, out);
    break;
  default:
    break;
  }
  struct chv_sql_expr *n = dalloc(d, sizeof *n);
  if (!n) return doom(d);
  *n = *e;
  *out = n;
  switch (e->kind) {
  case CHV_SQL_EXPR_UNARY:
    return rewrite(d, pl, e->u.unary.arg, &n->u.unary.arg);
  case CHV_SQL_EXPR_BINARY:
    CHV_RETURN_IF_ERR(rewrite(d, pl, e->u.binary.left, &n->u.binary.left));
    return rewrite(d, pl, e->u.binary.right, &n->u.binary.right);
  case CHV_SQL_EXPR_IN:
    CHV_RETURN_IF_ERR(rewrite(d, pl, e->u.in.arg, &n->u.in.arg));
    return rewrite_list(d, pl, e->u.in.list, e->u.in.n, &n->u.in.list);
  case CHV_SQL_EXPR_BETWEEN:
    CHV_RETURN_IF_ERR(rewrite(d, pl, e->u.between.arg, &n->u.between.arg));
    CHV_RETURN_IF_ERR(rewrite(d, pl, e->u.between.low, &n->u.between.low));
    return rewrite(d, pl, e->u.between.high, &n->u.between.high);
  case CHV_SQL_EXPR_LIKE:
    CHV_RETURN_IF_ERR(rewrite(d, pl, e->u.like.arg, &n->u.like.arg));
    return rewrite(d, pl, e->u.like.pattern, &n->u.like.pattern);
  case CHV_SQL_EXPR_IS:
    return rewrite(d, pl, e->u.is.arg, &n->u.is.arg);
  case CHV_SQL_EXPR_CASE:
    CHV_RETURN_IF_ERR(rewrite(d, pl, e->u.case_.operand, &n->u.case_.operand));
    CHV_RETURN_IF_ERR(rewrite(d, pl, e->u.case_.else_, &n->u.case_.else_));
    CHV_RETURN_IF_ERR(
        rewrite_list(d, pl, e->u.case_.when, e->u.case_.n, &n->u.case_.when));
    return rewrite_list(d, pl, e->u.case_.then, e->u.case_.n, &n->u.case_.then);
  case CHV_SQL_EXPR_CAST:
    return rewrite(d, pl, e->u.cast.arg, &n->u.cast.arg);
  case CHV_SQL_EXPR_FUNC: {
    const struct chv_sql_window *w = e->u.func.over;
    for (size_t i = 0; w && i < w->npartition_by; i++)
      CHV_RETURN_IF_ERR(refuse_correlated(d, w->partition_by[i], "OVER"));
    for (size_t i = 0; w && i < w->norder_by; i++)
      CHV_RETURN_IF_ERR(refuse_correlated(d, w->order_by[i].expr, "OVER"));
    struct place in = *pl; /* an aggregate's argument: each row's value */
    if (sql_is_aggregate(e->u.func.name) && !e->u.func.over) in.grouped = false;
    return rewrite_list(d, &in, e->u.func.args, e->u.func.n, &n->u.func.args);
  }
  default:
    return CHV_OK;
  }
}

static int refuse_in_ons(struct sql_decor *d, const struct chv_sql_from *f) {
  if (f->kind != CHV_SQL_FROM_JOIN) return CHV_OK;
  CHV_RETURN_IF_ERR(refuse_in_ons(d, f->left));
  CHV_RETURN_IF_ERR(refuse_in_ons(d, f->right));
  return refuse_correlated(d, f->on,
                           "the ON of an outer or semi join, or of a join on "
                           "an outer join's NULL-extended side");
}

/* f, with the conditions of the ONs of its inner joins that hold a
** correlated sub-query taken out into *lifted (AND-ed), where the join's
** rows all reach the query's (kept: not under the NULL-extended side of an
** outer join, nor the right of a semi or anti join): there an inner join's
** ON means what a WHERE means.  Copies only the joins it changes. */
static int lift_ons(struct sql_decor *d, struct chv_sql_from *f, bool kept,
                    struct chv_sql_from **out, struct chv_sql_expr **lifted) {
  *out = f;
  if (f->kind != CHV_SQL_FROM_JOIN) return CHV_OK;
  enum chv_sql_join_kind k = f->join;
  bool inner = k == CHV_SQL_JOIN_INNER || k == CHV_SQL_JOIN_CROSS;
  bool lk = kept && k != CHV_SQL_JOIN_RIGHT && k != CHV_SQL_JOIN_FULL;
  bool rk = kept && (inner || k == CHV_SQL_JOIN_RIGHT);
  struct chv_sql_from *l, *r;
  CHV_RETURN_IF_ERR(lift_ons(d, f->left, lk, &l, lifted));
  CHV_RETURN_IF_ERR(lift_ons(d, f->right, rk, &r, lifted));
  struct chv_sql_expr *on = f->on;
  if (kept && inner && correlated_in(d, on)) {
    size_t n = 0;
    sql_conjuncts(on, NULL, &n);
    const struct chv_sql_expr **v = dalloc(d, sizeof *v * (n + 1));
    if (!v) return doom(d);
    n = 0;
    sql_conjuncts(on, v, &n);
    on = NULL;
    for (size_t i = 0; i < n; i++) {
      struct chv_sql_expr *c = (struct chv_sql_expr *)(uintptr_t)v[i];
      struct chv_sql_expr **to = correlated_in(d, c) ? lifted : &on;
      if (!(*to = binary(d, CHV_SQL_OP_AND, *to, c))) return doom(d);
    }
    if (!on && !(on = true_lit(d, f->pos))) return doom(d);
  }
  if (l == f->left && r == f->right && on == f->on) return CHV_OK;
  struct chv_sql_from *j = dalloc(d, sizeof *j);
  if (!j) return doom(d);
  *j = *f;
  j->left = l;
  j->right = r;
  j->on = on;
  *out = j;
  return CHV_OK;
}

/* True when q's select list and HAVING are over groups. */
static bool aggregates(const struct chv_sql_query *q) {
  if (q->ngroup_by || q->ngroup_elems || q->having) return true;
  for (size_t i = 0; i < q->nitems; i++)
    if (sql_has_aggregate(q->items[i].expr)) return true;
  return false;
}

int sql_decorrelate(struct sql_decor *d, const struct chv_sql_query *q,
                    const struct chv_sql_query **out) {
  *out = q;
  if (q->kind != CHV_SQL_QUERY_SELECT || !q->from) return CHV_OK;
  struct chv_sql_from *lf;
  struct chv_sql_expr *lifted = NULL;
  CHV_RETURN_IF_ERR(lift_ons(d, q->from, true, &lf, &lifted));
  if (lifted) { /* inner joins' correlated conditions: the WHERE's */
    struct chv_sql_query *lq = dalloc(d, sizeof *lq);
    if (!lq) return doom(d);
    *lq = *q;
    lq->from = lf;
    if (!(lq->where = binary(d, CHV_SQL_OP_AND, q->where, lifted)))
      return doom(d);
    *out = q = lq;
  }
  for (size_t i = 0; i < q->ngroup_by; i++)
    CHV_RETURN_IF_ERR(refuse_correlated(d, q->group_by[i], "GROUP BY"));
  for (size_t i = 0; i < q->ndistribute_by; i++)
    CHV_RETURN_IF_ERR(
        refuse_correlated(d, q->distribute_by[i], "DISTRIBUTE BY"));
  CHV_RETURN_IF_ERR(refuse_in_ons(d, q->from));
  bool any = sql_expr_has_subquery(q->where) || sql_expr_has_subquery(q->having);
  for (size_t i = 0; i < q->nitems && !any; i++)
    any = sql_expr_has_subquery(q->items[i].expr);
  for (size_t i = 0; i < q->norder_by && !any; i++)
    any = sql_expr_has_subquery(q->order_by[i].expr);
  if (!any) return CHV_OK;
  size_t n = 0;
  if (q->where) sql_conjuncts(q->where, NULL, &n);
  const struct chv_sql_expr **v = dalloc(d, sizeof *v * (n + 1));
  if (!v) return doom(d);
  n = 0;
  if (q->where) sql_conjuncts(q->where, v, &n);
  struct chv_sql_from *from = q->from;
  struct chv_sql_expr *where = NULL;
  struct place pl = {&from, q, false, "WHERE"};
  for (size_t i = 0; i < n; i++) {
    const struct chv_sql_expr *e = v[i];
    bool neg = false;
    while (e->kind == CHV_SQL_EXPR_UNARY && e->u.unary.op == CHV_SQL_OP_NOT &&
           (e->u.unary.arg->kind == CHV_SQL_EXPR_EXISTS ||
            e->u.unary.arg->kind == CHV_SQL_EXPR_IN ||
            (e->u.unary.arg->kind == CHV_SQL_EXPR_UNARY &&
             e->u.unary.arg->u.unary.op == CHV_SQL_OP_NOT))) {
      neg = !neg;
      e = e->u.unary.arg;
    }
    if (e->kind == CHV_SQL_EXPR_EXISTS) {
      CHV_RETURN_IF_ERR(semi(d, &from, NULL, e->u.subquery,
                             neg ? CHV_SQL_JOIN_ANTI : CHV_SQL_JOIN_SEMI,
                             e->pos));
      continue;
    }
    if (e->kind == CHV_SQL_EXPR_IN && e->u.in.n == 1 &&
        e->u.in.list[0]->kind == CHV_SQL_EXPR_SUBQUERY) {
      const struct chv_sql_query *sq = e->u.in.list[0]->u.subquery;
      bool anti = neg != e->u.in.negated;
      /* a sub-query on the left: the binder's set (mark_in() refuses a
      ** correlated one) */
      if (!sql_expr_has_subquery(e->u.in.arg) && (!anti || !correlated(d, sq))) {
        CHV_RETURN_IF_ERR(semi(d, &from, e->u.in.arg, sq,
                               anti ? CHV_SQL_JOIN_NOT_IN : CHV_SQL_JOIN_SEMI,
                               e->pos));
        continue;
      }
      /* a correlated NOT IN: the NOT of its mark */
    }
    struct chv_sql_expr *x;
    CHV_RETURN_IF_ERR(rewrite(d, &pl, v[i], &x));
    if (!(where = binary(d, CHV_SQL_OP_AND, where, x))) return doom(d);
  }
  struct chv_sql_query *nq = dalloc(d, sizeof *nq);
  struct chv_sql_select_item *items =
      dalloc(d, sizeof *items * (q->nitems + 1));
  if (!nq || !items) return doom(d);
  *nq = *q;
  pl.grouped = aggregates(q);
  pl.where = "the select list";
  for (size_t i = 0; i < q->nitems; i++) {
    items[i] = q->items[i];
    CHV_RETURN_IF_ERR(rewrite(d, &pl, q->items[i].expr, &items[i].expr));
  }
  pl.where = "HAVING";
  CHV_RETURN_IF_ERR(rewrite(d, &pl, q->having, &nq->having));
  if (q->norder_by && (pl.grouped || q->distinct))
    for (size_t i = 0; i < q->norder_by; i++)
      CHV_RETURN_IF_ERR(refuse_correlated(
          d, q->order_by[i].expr,
          "ORDER BY of a query that aggregates or is DISTINCT"));
  if (q->norder_by) {
    struct chv_sql_order_item *ob = dalloc(d, sizeof *ob * q->norder_by);
    if (!ob) return doom(d);
    pl.where = "ORDER BY";
    for (size_t i = 0; i < q->norder_by; i++) {
      ob[i] = q->order_by[i];
      CHV_RETURN_IF_ERR(rewrite(d, &pl, q->order_by[i].expr, &ob[i].expr));
    }
    nq->order_by = ob;
  }
  nq->items = items;
  nq->from = from;
  nq->where = where;
  *out = nq;
  return CHV_OK;
}
