/*
** sql/session/subquery: sub-queries in WHERE made joins, before a SELECT
** is built (build.c), so that none runs once per row.  The conditions
** AND-ed in a WHERE are rewritten, on a copy of the query:
**
**   x [NOT] IN (SELECT y FROM r WHERE w)  ->  FROM ... LEFT SEMI JOIN r
**   [NOT] EXISTS (SELECT ... FROM r WHERE w)     (ANTI; NOT IN: the anti
**                                                join that knows NULLs)
**                                             ON x = y AND w
**   x op (SELECT agg FROM r WHERE w)      ->  FROM ... LEFT JOIN
**     (w naming the outer query: e = o)       (SELECT agg AS c0, e AS k0
**                                              FROM r WHERE rest GROUP BY e)
**                                             s ON o = s.k0, x op s.c0
**
** A sub-query's columns are told from the outer query's by the relations
** of its FROM (the session's columns callback): a name one of them has, or
** a qualifier naming one, is the sub-query's; the others are the outer
** query's (correlated).  The relations of a sub-query joined as SEMI or
** ANTI take fresh aliases, and its columns are qualified with them, so that
** a table read inside and outside (Q17's lineitem) stays two relations.  A
** sub-query not correlated in a scalar place is left to the binder, which
** runs it once (sql_query_scalar()).  What is not rewritten is said by the
** binder's errors ("... is not supported yet").
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

/* A correlated scalar sub-query q: FROM *from LEFT JOIN its rows grouped
** by the sub-query's sides of its correlating equalities, ON the outer
** sides; *col the column that stands for it. */
static int scalar(struct sql_decor *d, struct chv_sql_from **from,
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
  const struct chv_sql_query *sq;
  CHV_RETURN_IF_ERR(sql_decorrelate(d, q, &sq));
  struct rels rs = {0};
  CHV_RETURN_IF_ERR(leaves(d, sq->from, &rs));
  size_t n = 0;
  if (sq->where) sql_conjuncts(sq->where, NULL, &n);
  const struct chv_sql_expr **v = dalloc(d, sizeof *v * (n + 1));
  struct chv_sql_select_item *items = dalloc(d, sizeof *items * (n + 2));
  struct chv_sql_expr **keys = dalloc(d, sizeof *keys * (n + 1));
  if (!v || !items || !keys) return doom(d);
  n = 0;
  if (sq->where) sql_conjuncts(sq->where, v, &n);
  char alias[32];
  snprintf(alias, sizeof alias, "$sq%d", d->next++);
  const char *qa = dstr(d, alias);
  if (!qa) return doom(d);
  items[0] = (struct chv_sql_select_item){sq->items[0].expr, "c0"};
  struct chv_sql_expr *on = NULL, *rest = NULL;
  size_t nk = 0;
  for (size_t i = 0; i < n; i++) {
    const struct chv_sql_expr *in, *out;
    int m = refs(d, v[i], &rs);
    if (!(m & 1)) { /* the sub-query's own */
      if (!(rest = binary(d, CHV_SQL_OP_AND, rest,
                          (struct chv_sql_expr *)(uintptr_t)v[i])))
        return doom(d);
      continue;
    }
    if (!corr_eq(d, v[i], &rs, &in, &out)) {
      *d->pos = v[i]->pos;
      return sql_err(d->err, CHV_ENOTSUP,
                     "a correlated scalar sub-query's condition on the outer "
                     "query's columns must be an equality of a column of its "
                     "own with one of the outer query's (not supported yet)");
    }
    char kn[16];
    snprintf(kn, sizeof kn, "k%zu", nk);
    const char *kname = dstr(d, kn);
    if (!kname) return doom(d);
    keys[nk] = (struct chv_sql_expr *)(uintptr_t)in;
    items[1 + nk] = (struct chv_sql_select_item){keys[nk], kname};
    struct chv_sql_expr *k = column(d, qa, kname, v[i]->pos);
    if (!k || !(on = binary(d, CHV_SQL_OP_AND, on,
                            binary(d, CHV_SQL_OP_EQ,
                                   (struct chv_sql_expr *)(uintptr_t)out, k))))
      return doom(d);
    nk++;
  }
  if (refs(d, sq->items[0].expr, &rs) & 1) {
    *d->pos = sq->items[0].expr->pos;
    return sql_err(d->err, CHV_ENOTSUP,
                   "a scalar sub-query whose select list names the outer "
                   "query's columns is not supported yet");
  }
  struct chv_sql_query *g = dalloc(d, sizeof *g);
  struct chv_sql_from *df = dalloc(d, sizeof *df);
  struct chv_sql_from *j = dalloc(d, sizeof *j);
  if (!g || !df || !j) return doom(d);
  *g = *sq;
  g->nctes = 0; /* they stay in scope where the sub-query is */
  g->ctes = NULL;
  g->items = items;
  g->nitems = 1 + nk;
  g->where = rest;
  g->group_by = keys;
  g->ngroup_by = nk;
  g->norder_by = 0;
  df->kind = CHV_SQL_FROM_SUBQUERY;
  df->pos = q->pos;
  df->alias = qa;
  df->subquery = g;
  j->kind = CHV_SQL_FROM_JOIN;
  j->pos = q->pos;
  j->join = nk ? CHV_SQL_JOIN_LEFT : CHV_SQL_JOIN_CROSS;
  j->left = *from;
  j->right = df;
  j->on = on;
  j->from_subquery = true;
  *from = j;
  struct chv_sql_expr *c = column(d, qa, "c0", q->pos);
  if (!c) return doom(d);
  /* COUNT over no row is 0, not the NULL of no match */
  const struct chv_sql_expr *it = sq->items[0].expr;
  if (it->kind == CHV_SQL_EXPR_FUNC && !strcasecmp(it->u.func.name, "count")) {
    struct chv_sql_expr *z = dalloc(d, sizeof *z), *f = dalloc(d, sizeof *f);
    struct chv_sql_expr **args = dalloc(d, sizeof *args * 2);
    if (!z || !f || !args) return doom(d);
    z->kind = CHV_SQL_EXPR_LITERAL;
    z->pos = q->pos;
    z->u.lit.kind = CHV_SQL_LIT_INTEGER;
    z->u.lit.text = z->u.lit.value = "0";
    z->u.lit.value_len = 1;
    z->u.lit.suffix = "L";
    f->kind = CHV_SQL_EXPR_FUNC;
    f->pos = q->pos;
    f->u.func.name = "coalesce";
    args[0] = c;
    args[1] = z;
    f->u.func.args = args;
    f->u.func.n = 2;
    c = f;
  }
  *col = c;
  return CHV_OK;
}

static bool has_subquery(const struct chv_sql_expr *e);

static bool list_has(struct chv_sql_expr *const *v, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (has_subquery(v[i])) return true;
  return false;
}

static bool has_subquery(const struct chv_sql_expr *e) {
  if (!e) return false;
  switch (e->kind) {
  case CHV_SQL_EXPR_SUBQUERY:
  case CHV_SQL_EXPR_EXISTS: return true;
  case CHV_SQL_EXPR_UNARY: return has_subquery(e->u.unary.arg);
  case CHV_SQL_EXPR_BINARY:
    return has_subquery(e->u.binary.left) || has_subquery(e->u.binary.right);
  case CHV_SQL_EXPR_IN:
    return has_subquery(e->u.in.arg) || list_has(e->u.in.list, e->u.in.n);
  case CHV_SQL_EXPR_BETWEEN:
    return has_subquery(e->u.between.arg) || has_subquery(e->u.between.low) ||
           has_subquery(e->u.between.high);
  case CHV_SQL_EXPR_LIKE:
    return has_subquery(e->u.like.arg) || has_subquery(e->u.like.pattern);
  case CHV_SQL_EXPR_IS: return has_subquery(e->u.is.arg);
  case CHV_SQL_EXPR_CASE:
    return has_subquery(e->u.case_.operand) || has_subquery(e->u.case_.else_) ||
           list_has(e->u.case_.when, e->u.case_.n) ||
           list_has(e->u.case_.then, e->u.case_.n);
  case CHV_SQL_EXPR_CAST: return has_subquery(e->u.cast.arg);
  case CHV_SQL_EXPR_FUNC: return list_has(e->u.func.args, e->u.func.n);
  default: return false;
  }
}

/* A copy of e with each correlated scalar sub-query replaced by the column
** of its join (added to *from). */
static int scalars(struct sql_decor *d, const struct chv_sql_expr *e,
                   struct chv_sql_from **from, struct chv_sql_expr **out) {
  *out = (struct chv_sql_expr *)(uintptr_t)e;
  if (!e || !has_subquery(e)) return CHV_OK;
  if (e->kind == CHV_SQL_EXPR_SUBQUERY) {
    if (!correlated(d, e->u.subquery)) return CHV_OK; /* run once */
    return scalar(d, from, e->u.subquery, out);
  }
  struct chv_sql_expr *n = dalloc(d, sizeof *n);
  if (!n) return doom(d);
  *n = *e;
  *out = n;
  switch (e->kind) {
  case CHV_SQL_EXPR_UNARY: return scalars(d, e->u.unary.arg, from, &n->u.unary.arg);
  case CHV_SQL_EXPR_BINARY:
    CHV_RETURN_IF_ERR(scalars(d, e->u.binary.left, from, &n->u.binary.left));
    return scalars(d, e->u.binary.right, from, &n->u.binary.right);
  case CHV_SQL_EXPR_BETWEEN:
    CHV_RETURN_IF_ERR(scalars(d, e->u.between.arg, from, &n->u.between.arg));
    CHV_RETURN_IF_ERR(scalars(d, e->u.between.low, from, &n->u.between.low));
    return scalars(d, e->u.between.high, from, &n->u.between.high);
  case CHV_SQL_EXPR_CAST: return scalars(d, e->u.cast.arg, from, &n->u.cast.arg);
  case CHV_SQL_EXPR_FUNC: {
    struct chv_sql_expr **args = dalloc(d, sizeof *args * (e->u.func.n + 1));
    if (!args) return doom(d);
    for (size_t i = 0; i < e->u.func.n; i++)
      CHV_RETURN_IF_ERR(scalars(d, e->u.func.args[i], from, &args[i]));
    n->u.func.args = args;
    return CHV_OK;
  }
  default:
    return CHV_OK; /* the binder says what it cannot take */
  }
}

int sql_decorrelate(struct sql_decor *d, const struct chv_sql_query *q,
                    const struct chv_sql_query **out) {
  *out = q;
  if (q->kind != CHV_SQL_QUERY_SELECT || !q->from || !has_subquery(q->where))
    return CHV_OK;
  size_t n = 0;
  sql_conjuncts(q->where, NULL, &n);
  const struct chv_sql_expr **v = dalloc(d, sizeof *v * (n + 1));
  if (!v) return doom(d);
  n = 0;
  sql_conjuncts(q->where, v, &n);
  struct chv_sql_from *from = q->from;
  struct chv_sql_expr *where = NULL;
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
      if (anti && correlated(d, sq)) {
        *d->pos = e->pos;
        return sql_err(d->err, CHV_ENOTSUP,
                       "NOT IN with a correlated sub-query is not supported "
                       "yet (NOT EXISTS is)");
      }
      if (has_subquery(e->u.in.arg)) {
        *d->pos = e->u.in.arg->pos;
        return sql_err(d->err, CHV_ENOTSUP,
                       "a sub-query on the left of IN is not supported yet");
      }
      CHV_RETURN_IF_ERR(semi(d, &from, e->u.in.arg, sq,
                             anti ? CHV_SQL_JOIN_NOT_IN : CHV_SQL_JOIN_SEMI,
                             e->pos));
      continue;
    }
    struct chv_sql_expr *x;
    CHV_RETURN_IF_ERR(scalars(d, v[i], &from, &x));
    if (!(where = binary(d, CHV_SQL_OP_AND, where, x))) return doom(d);
  }
  struct chv_sql_query *nq = dalloc(d, sizeof *nq);
  if (!nq) return doom(d);
  *nq = *q;
  nq->from = from;
  nq->where = where;
  *out = nq;
  return CHV_OK;
}
