/*
** sql/session/views: views as Hive's metastore keeps them and as Flink's Hive
** catalog reads them.
**
** A view is a catalog table of type VIRTUAL_VIEW without a location: its
** columns are the view's schema, view_original_text the query as written,
** view_expanded_text the query with every name qualified, as Hive expands
** it:
**
**   CREATE VIEW v AS SELECT a, count(*) FROM t GROUP BY a
**   original  SELECT a, count(*) FROM t GROUP BY a
**   expanded  SELECT `t`.`a`, count(*) FROM `default`.`t` GROUP BY `t`.`a`
**
** Tables are named with their database, columns with their table (or
** alias), `*` is replaced by the columns it stands for, so that the view
** reads the same from any current database and keeps its columns when its
** tables gain some.  A column list renames the query's columns as Hive
** does: SELECT `_c0` AS `x`, ... FROM (query) `v`.  The expanded text is
** SQL of the Hive dialect (chv_sql_query_format()), which Hive reads too.
**
** A view named in FROM (a query, a sub-query, a WITH query, another view)
** is expanded when the query is bound: its expanded text is parsed and run
** as a derived relation (dml.c's derive(), as a sub-query in FROM), in the
** view's catalog and database, seeing none of the WITH queries around it.
** The views being expanded form a stack in the session; a view met again
** on it is a recursive view, an error naming the cycle as Hive does
** ("recursive view default.r0 detected (cycle: default.r0 -> default.r1 ->
** default.r0)"), not a stack overflow.  CREATE and ALTER VIEW put the view
** being defined on the stack while its query is bound, so that a cycle
** cannot be made through them; one made otherwise (a view renamed into
** the place of one it reads) is caught when it is queried.  An error inside
** a view names the innermost view it happened in ("view default.v: table
** default.t does not exist") and points at where the view is named.
**
** INTERFACE
**   sql_exec_create_view()   CREATE [OR REPLACE] VIEW, ALTER VIEW ... AS
**   sql_view_check_stmt()    a statement against the kind of object it names
**   sql_view_open()/_close() a view named in FROM, for dml.c to run
*/
#include "sql/session/session_int.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Views nested deeper than this are refused (each holds its rows). */
#define VIEW_MAX_DEPTH 64

static const char *const view_input =
    "org.apache.hadoop.mapred.TextInputFormat";
static const char *const view_output =
    "org.apache.hadoop.hive.ql.io.HiveIgnoreKeyTextOutputFormat";

/* ---- the stack of views being expanded ------------------------------------ */

/* The session's name of catalog cat, for messages. */
static const char *catalog_name(const struct sql_session *s,
                                const chv_catalog *cat) {
  for (int i = 0; i < s->ncats; i++)
    if (s->cats[i].cat == cat) return s->cats[i].name;
  return "?";
}

/* CHV_EINVAL when db.name of cat is on the stack (the cycle in the
** message) or the stack is full. */
static int frame_check(struct sql_session *s, chv_catalog *cat,
                       const char *qname, struct chv_error *err) {
  int depth = 0;
  const struct sql_view_frame *hit = NULL;
  for (const struct sql_view_frame *f = s->views; f && !hit; f = f->up) {
    if (f->cat == cat && !strcmp(f->name, qname)) hit = f;
    depth++;
  }
  if (hit) {
    /* the chain from the view met again inwards: hit -> ... -> innermost */
    const struct sql_view_frame *chain[VIEW_MAX_DEPTH + 2];
    int n = 0;
    for (const struct sql_view_frame *f = s->views; f != hit; f = f->up)
      chain[n++] = f;
    struct chv_buf b;
    chv_buf_init(&b);
    chv_buf_puts(&b, qname);
    while (n-- > 0) {
      chv_buf_puts(&b, " -> ");
      chv_buf_puts(&b, chain[n]->name);
    }
    chv_buf_puts(&b, " -> ");
    chv_buf_puts(&b, qname);
    sql_err(err, CHV_EINVAL, "recursive view %s detected (cycle: %s)", qname,
            b.data ? b.data : qname);
    chv_buf_free(&b);
    s->view_err_named = true; /* the message names the views already */
    return CHV_EINVAL;
  }
  if (depth >= VIEW_MAX_DEPTH) {
    s->view_err_named = true;
    return sql_err(err, CHV_EINVAL,
                   "view %s: views nested more than %d deep", qname,
                   VIEW_MAX_DEPTH);
  }
  return CHV_OK;
}

static void frame_push(struct sql_session *s, struct sql_view_frame *f,
                       chv_catalog *cat, const char *db, const char *name) {
  if (!s->views) s->view_err_named = false;
  f->cat = cat;
  snprintf(f->name, sizeof f->name, "%s.%s", db, name);
  f->up = s->views;
  s->views = f;
}

/* ---- qualifying a query: the expanded text ---------------------------------- */

struct qual {
  struct sql_session *s;
  chv_catalog *cat; /* the view's: every table must be of it */
  const char *view; /* "db.v", for messages */
  chv_arena *a;
  struct chv_sql_pos *pos;
  struct chv_error *err;
};

/* What column references of a SELECT see: its FROM source. */
struct qsrc {
  const char *qual;  /* the name columns are qualified with; NULL: none */
  const char *alias; /* the FROM alias, or NULL */
  const char *db, *table; /* a catalog table's, or NULL */
  const char **cols; /* canonical names */
  int ncols;
  /* a FROM of joins: the next relation's source; hidden: the right side of
  ** a SEMI or ANTI join, which * leaves out */
  const struct qsrc *next;
  bool hidden;
  /* a FROM of joins with USING or NATURAL (merges set): the columns * gives,
  ** each a qualified column or a USING column's value (COALESCE for FULL) */
  const struct qout *outs;
  int nouts;
  bool merges;
};

/* A column a FROM gives: its name and the expression that reads it. */
struct qout {
  const char *name;
  struct chv_sql_expr *expr;
  bool merge; /* a USING column: named by an alias */
};

/* The WITH queries in scope, with the columns each gives. */
struct qscope {
  const struct chv_sql_cte *ctes;
  size_t visible;
  const char ***cols;
  int *ncols;
  const struct qscope *up;
};

static int qual_oom(struct qual *Q) {
  return sql_err(Q->err, CHV_ENOMEM, "out of memory");
}

static char *qdup(struct qual *Q, const char *s) {
  return chv_arena_strndup(Q->a, s, strlen(s));
}

static int qualify_query(struct qual *Q, const struct chv_sql_query *q,
                         const struct qscope *scope,
                         struct chv_sql_query **out, const char ***names,
                         int *nnames);

/* True when the qualifier parts[0, nq) of a column reference name src. */
static bool qual_matches(const struct qsrc *src, const struct chv_sql_name *n,
                         int nq) {
  if (nq == 0) return true;
  if (src->alias) return nq == 1 && !strcasecmp(n->parts[0], src->alias);
  if (!src->table) return false;
  if (nq == 1) return !strcasecmp(n->parts[0], src->table);
  return nq == 2 && !strcasecmp(n->parts[0], src->db) &&
         !strcasecmp(n->parts[1], src->table);
}

static int qualify_expr(struct qual *Q, const struct chv_sql_expr *e,
                        const struct qsrc *src, const struct qscope *scope,
                        struct chv_sql_expr **out);

static int qualify_list(struct qual *Q, struct chv_sql_expr *const *v,
                        size_t n, const struct qsrc *src,
                        const struct qscope *scope,
                        struct chv_sql_expr ***out) {
  *out = NULL;
  if (!v) return CHV_OK;
  struct chv_sql_expr **nv = chv_arena_alloc(Q->a, sizeof *nv * (n + 1));
  if (!nv) return qual_oom(Q);
  for (size_t i = 0; i < n; i++)
    CHV_RETURN_IF_ERR(qualify_expr(Q, v[i], src, scope, &nv[i]));
  *out = nv;
  return CHV_OK;
}

/* A copy of e with its column references qualified (those src has; others,
** such as select aliases, stay as written). */
static int qualify_expr(struct qual *Q, const struct chv_sql_expr *e,
                        const struct qsrc *src, const struct qscope *scope,
                        struct chv_sql_expr **out) {
  *out = NULL;
  if (!e) return CHV_OK;
  struct chv_sql_expr *n = chv_arena_alloc(Q->a, sizeof *n);
  if (!n) return qual_oom(Q);
  *n = *e;
  *out = n;
  switch (e->kind) {
  case CHV_SQL_EXPR_COLUMN: {
    int np = e->u.column.nparts;
    const char *name = e->u.column.parts[np - 1];
    const struct qsrc *at = NULL;
    int col = -1;
    for (const struct qsrc *s = src; s; s = s->next) {
      if (!qual_matches(s, &e->u.column, np - 1)) continue;
      for (int c = 0; c < s->ncols; c++)
        if (!strcasecmp(s->cols[c], name)) {
          if (at) return CHV_OK; /* ambiguous: the binder says so */
          at = s;
          col = c;
          break;
        }
    }
    if (!at) return CHV_OK;
    n->u.column.nparts = at->qual ? 2 : 1;
    n->u.column.parts[0] = at->qual ? at->qual : at->cols[col];
    n->u.column.parts[1] = at->qual ? at->cols[col] : NULL;
    n->u.column.parts[2] = NULL;
    return CHV_OK;
  }
  case CHV_SQL_EXPR_UNARY:
    return qualify_expr(Q, e->u.unary.arg, src, scope, &n->u.unary.arg);
  case CHV_SQL_EXPR_BINARY:
    CHV_RETURN_IF_ERR(
        qualify_expr(Q, e->u.binary.left, src, scope, &n->u.binary.left));
    return qualify_expr(Q, e->u.binary.right, src, scope, &n->u.binary.right);
  case CHV_SQL_EXPR_IN:
    CHV_RETURN_IF_ERR(qualify_expr(Q, e->u.in.arg, src, scope, &n->u.in.arg));
    return qualify_list(Q, e->u.in.list, e->u.in.n, src, scope, &n->u.in.list);
  case CHV_SQL_EXPR_BETWEEN:
    CHV_RETURN_IF_ERR(
        qualify_expr(Q, e->u.between.arg, src, scope, &n->u.between.arg));
    CHV_RETURN_IF_ERR(
        qualify_expr(Q, e->u.between.low, src, scope, &n->u.between.low));
    return qualify_expr(Q, e->u.between.high, src, scope, &n->u.between.high);
  case CHV_SQL_EXPR_LIKE:
    CHV_RETURN_IF_ERR(
        qualify_expr(Q, e->u.like.arg, src, scope, &n->u.like.arg));
    return qualify_expr(Q, e->u.like.pattern, src, scope, &n->u.like.pattern);
  case CHV_SQL_EXPR_IS:
    return qualify_expr(Q, e->u.is.arg, src, scope, &n->u.is.arg);
  case CHV_SQL_EXPR_CASE:
    CHV_RETURN_IF_ERR(qualify_expr(Q, e->u.case_.operand, src, scope,
                                   &n->u.case_.operand));
    CHV_RETURN_IF_ERR(
        qualify_expr(Q, e->u.case_.else_, src, scope, &n->u.case_.else_));
    CHV_RETURN_IF_ERR(qualify_list(Q, e->u.case_.when, e->u.case_.n, src,
                                   scope, &n->u.case_.when));
    return qualify_list(Q, e->u.case_.then, e->u.case_.n, src, scope,
                        &n->u.case_.then);
  case CHV_SQL_EXPR_CAST:
    return qualify_expr(Q, e->u.cast.arg, src, scope, &n->u.cast.arg);
  case CHV_SQL_EXPR_FUNC:
    return qualify_list(Q, e->u.func.args, e->u.func.n, src, scope,
                        &n->u.func.args);
  case CHV_SQL_EXPR_SUBQUERY:
  case CHV_SQL_EXPR_EXISTS: {
    const char **names;
    int nn;
    return qualify_query(Q, e->u.subquery, scope, &n->u.subquery, &names,
                         &nn);
  }
  default:
    return CHV_OK;
  }
}

/* The WITH query a one-part table name names, innermost first. */
static bool qscope_find(const struct qscope *sc, const struct chv_sql_name *n,
                        const char ***cols, int *ncols) {
  if (n->nparts != 1) return false;
  for (; sc; sc = sc->up)
    for (size_t k = sc->visible; k-- > 0;)
      if (!strcasecmp(sc->ctes[k].name, n->parts[0])) {
        *cols = sc->cols[k];
        *ncols = sc->ncols[k];
        return true;
      }
  return false;
}

/* A column reference of src's column c, qualified as * expands it. */
static struct chv_sql_expr *src_col(struct qual *Q, const struct qsrc *s, int c,
                                    struct chv_sql_pos pos) {
  struct chv_sql_expr *col = chv_arena_alloc(Q->a, sizeof *col);
  if (!col) return NULL;
  memset(col, 0, sizeof *col);
  col->kind = CHV_SQL_EXPR_COLUMN;
  col->pos = pos;
  col->u.column.pos = pos;
  col->u.column.nparts = s->qual ? 2 : 1;
  col->u.column.parts[0] = s->qual ? s->qual : s->cols[c];
  if (s->qual) col->u.column.parts[1] = s->cols[c];
  return col;
}

/* The columns a FROM source gives (a join's outs, or a relation's). */
static int src_outs(struct qual *Q, const struct qsrc *s, const struct qout **out,
                    int *n) {
  if (s->outs) {
    *out = s->outs;
    *n = s->nouts;
    return CHV_OK;
  }
  struct qout *v = chv_arena_alloc(Q->a, sizeof *v * (size_t)(s->ncols + 1));
  if (!v) return qual_oom(Q);
  for (int c = 0; c < s->ncols; c++) {
    v[c] = (struct qout){s->cols[c], src_col(Q, s, c, *Q->pos), false};
    if (!v[c].expr) return qual_oom(Q);
  }
  *out = v;
  *n = s->ncols;
  return CHV_OK;
}

/* Where name n is among v[0, nv): its place, -1 missing, -2 twice. */
static int qout_find(const struct qout *v, int nv, const char *n) {
  int at = -1;
  for (int i = 0; i < nv; i++)
    if (!strcasecmp(v[i].name, n)) {
      if (at >= 0) return -2;
      at = i;
    }
  return at;
}

/* The columns join f gives from its sides' l and r (build.c's
** join_outs(): a USING join's columns first, once); NATURAL made USING of
** the names the sides share, in nf. */
static int join_qouts(struct qual *Q, const struct chv_sql_from *f,
                      struct chv_sql_from *nf, const struct qsrc *l,
                      const struct qsrc *r, struct qsrc *src) {
  const struct qout *lv, *rv;
  int nl, nr;
  CHV_RETURN_IF_ERR(src_outs(Q, l, &lv, &nl));
  CHV_RETURN_IF_ERR(src_outs(Q, r, &rv, &nr));
  bool semi = f->join == CHV_SQL_JOIN_SEMI || f->join == CHV_SQL_JOIN_ANTI ||
              f->join == CHV_SQL_JOIN_NOT_IN;
  struct qout *v = chv_arena_alloc(Q->a, sizeof *v * (size_t)(nl + nr + 1));
  bool *lu = chv_arena_alloc(Q->a, (size_t)nl + 1);
  bool *ru = chv_arena_alloc(Q->a, (size_t)nr + 1);
  const char **names = chv_arena_alloc(Q->a, sizeof *names * (size_t)(nl + 1));
  if (!v || !lu || !ru || !names) return qual_oom(Q);
  memset(lu, 0, (size_t)nl + 1);
  memset(ru, 0, (size_t)nr + 1);
  int n = 0;
  size_t nu = f->natural ? (size_t)nl : f->nusing, nn = 0;
  for (size_t i = 0; i < nu; i++) {
    const char *name = f->natural ? lv[i].name : f->using_cols[i];
    int li = qout_find(lv, nl, name), ri = qout_find(rv, nr, name);
    if (f->natural && ri == -1) continue;
    if (li < 0 || ri < 0 || lu[li]) return CHV_OK; /* the binder says so */
    lu[li] = ru[ri] = true;
    names[nn++] = lv[li].name;
    struct chv_sql_expr *e = f->join == CHV_SQL_JOIN_RIGHT ? rv[ri].expr
                                                           : lv[li].expr;
    if (f->join == CHV_SQL_JOIN_FULL) {
      struct chv_sql_expr **args = chv_arena_alloc(Q->a, sizeof *args * 2);
      if (!args || !(e = chv_arena_alloc(Q->a, sizeof *e))) return qual_oom(Q);
      memset(e, 0, sizeof *e);
      args[0] = lv[li].expr;
      args[1] = rv[ri].expr;
      e->kind = CHV_SQL_EXPR_FUNC;
      e->pos = f->pos;
      e->u.func.name = "coalesce";
      e->u.func.args = args;
      e->u.func.n = 2;
    }
    v[n++] = (struct qout){lv[li].name, e, true};
  }
  for (int i = 0; i < nl; i++)
    if (!lu[i]) v[n++] = lv[i];
  for (int i = 0; i < nr && !semi; i++)
    if (!ru[i]) v[n++] = rv[i];
  nf->natural = false;
  nf->using_cols = names;
  nf->nusing = nn;
  src->outs = v;
  src->nouts = n;
  src->merges = l->merges || r->merges || nn > 0;
  return CHV_OK;
}

/* The FROM of a SELECT, qualified, and the source its columns come from. */
static int qualify_from(struct qual *Q, const struct chv_sql_from *f,
                        const struct qscope *scope, struct chv_sql_from **out,
                        struct qsrc *src) {
  struct chv_sql_from *nf = chv_arena_alloc(Q->a, sizeof *nf);
  if (!nf) return qual_oom(Q);
  *nf = *f;
  *out = nf;
  memset(src, 0, sizeof *src);
  src->alias = f->alias;
  *Q->pos = f->pos;
  if (f->kind == CHV_SQL_FROM_JOIN) { /* the left's sources, then the right's */
    struct qsrc l, r;
    CHV_RETURN_IF_ERR(qualify_from(Q, f->left, scope, &nf->left, &l));
    CHV_RETURN_IF_ERR(qualify_from(Q, f->right, scope, &nf->right, &r));
    bool hide = f->join == CHV_SQL_JOIN_SEMI || f->join == CHV_SQL_JOIN_ANTI ||
                f->join == CHV_SQL_JOIN_NOT_IN;
    struct qsrc *copy = NULL, **tail = &copy;
    for (const struct qsrc *s = &l; s; s = s->next) {
      struct qsrc *c = chv_arena_alloc(Q->a, sizeof *c);
      if (!c) return qual_oom(Q);
      *c = *s;
      c->hidden = s->hidden;
      *tail = c;
      tail = (struct qsrc **)&c->next;
    }
    for (const struct qsrc *s = &r; s; s = s->next) {
      struct qsrc *c = chv_arena_alloc(Q->a, sizeof *c);
      if (!c) return qual_oom(Q);
      *c = *s;
      c->hidden = s->hidden || hide;
      *tail = c;
      tail = (struct qsrc **)&c->next;
    }
    *tail = NULL;
    *src = *copy;
    src->outs = NULL;
    CHV_RETURN_IF_ERR(join_qouts(Q, f, nf, &l, &r, src));
    return qualify_expr(Q, f->on, src, scope, &nf->on);
  }
  if (f->kind == CHV_SQL_FROM_SUBQUERY) {
    src->qual = f->alias;
    return qualify_query(Q, f->subquery, scope, &nf->subquery, &src->cols,
                         &src->ncols);
  }
  if (qscope_find(scope, &f->table, &src->cols, &src->ncols)) {
    src->qual = f->alias ? f->alias : f->table.parts[0];
    src->table = f->table.parts[0];
    src->db = "";
    return CHV_OK;
  }
  /* a catalog table or view: named db.table, of the view's catalog */
  chv_catalog *cat;
  struct chv_table t;
  CHV_RETURN_IF_ERR(sql_get_table(Q->s, &f->table, &cat, &t, Q->err));
  int rc = CHV_OK;
  if (cat != Q->cat) {
    rc = sql_err(Q->err, CHV_EINVAL,
                 "view %s cannot read %s.%s.%s: a view reads the tables of "
                 "its own catalog (%s) only",
                 Q->view, catalog_name(Q->s, cat), t.db, t.name,
                 catalog_name(Q->s, Q->cat));
    goto out;
  }
  int n = t.ncols + t.npkeys;
  src->cols = chv_arena_alloc(Q->a, sizeof *src->cols * (size_t)(n + 1));
  char *db = qdup(Q, t.db), *name = qdup(Q, t.name);
  if (!src->cols || !db || !name) {
    rc = qual_oom(Q);
    goto out;
  }
  for (int c = 0; c < n; c++) {
    src->cols[c] = qdup(Q, c < t.ncols ? t.columns[c].name
                                       : t.pkeys[c - t.ncols].name);
    if (!src->cols[c]) {
      rc = qual_oom(Q);
      goto out;
    }
  }
  src->ncols = n;
  src->db = db;
  src->table = name;
  src->qual = f->alias ? f->alias : name;
  memset(&nf->table, 0, sizeof nf->table);
  nf->table.nparts = 2;
  nf->table.parts[0] = db;
  nf->table.parts[1] = name;
  nf->table.pos = f->table.pos;
out:
  chv_table_free(&t);
  return rc;
}

/* The output name of item i (at output column k) as the engine names it:
** the alias, a column's name, else _c<k>; lower-case, as relations keep
** their columns. */
static const char *item_name(struct qual *Q, const struct chv_sql_select_item *it,
                             int k) {
  char buf[32];
  const char *n = it->alias;
  if (!n && it->expr->kind == CHV_SQL_EXPR_COLUMN)
    n = it->expr->u.column.parts[it->expr->u.column.nparts - 1];
  if (!n) {
    snprintf(buf, sizeof buf, "_c%d", k);
    n = buf;
  }
  char *d = qdup(Q, n);
  if (d)
    for (char *c = d; *c; c++) *c = (char)tolower((unsigned char)*c);
  return d;
}

/* The SELECT list with each * replaced by the columns it stands for;
** width[i]: the output columns item i gives. */
static int qualify_items(struct qual *Q, const struct chv_sql_query *q,
                         const struct qsrc *src, const struct qscope *scope,
                         struct chv_sql_query *nq, int *width) {
  size_t n = 0;
  bool *star = chv_arena_alloc(Q->a, q->nitems + 1);
  if (!star) return qual_oom(Q);
  /* over USING joins, * gives the join's columns, the USING ones once */
  bool outs = src && src->merges;
  for (size_t i = 0; i < q->nitems; i++) {
    const struct chv_sql_expr *e = q->items[i].expr;
    width[i] = 0;
    star[i] = false;
    if (outs && e->kind == CHV_SQL_EXPR_STAR && !e->u.star.nparts) {
      star[i] = true;
      width[i] = src->nouts;
      n += (size_t)width[i];
      continue;
    }
    for (const struct qsrc *s = src; s && e->kind == CHV_SQL_EXPR_STAR;
         s = s->next)
      if (qual_matches(s, &e->u.star, e->u.star.nparts) &&
          !(s->hidden && !e->u.star.nparts)) {
        star[i] = true;
        width[i] += s->ncols;
      }
    if (!star[i]) width[i] = 1;
    n += (size_t)width[i];
  }
  struct chv_sql_select_item *items =
      chv_arena_alloc(Q->a, sizeof *items * (n + 1));
  if (!items) return qual_oom(Q);
  size_t k = 0;
  for (size_t i = 0; i < q->nitems; i++) {
    const struct chv_sql_expr *e = q->items[i].expr;
    if (!star[i]) {
      items[k].alias = q->items[i].alias;
      CHV_RETURN_IF_ERR(qualify_expr(Q, e, src, scope, &items[k].expr));
      k++;
      continue;
    }
    if (outs && !e->u.star.nparts) {
      for (int c = 0; c < src->nouts; c++, k++) {
        items[k].expr = src->outs[c].expr;
        items[k].alias = src->outs[c].merge ? src->outs[c].name : NULL;
      }
      continue;
    }
    for (const struct qsrc *s = src; s; s = s->next) {
      if (!qual_matches(s, &e->u.star, e->u.star.nparts) ||
          (s->hidden && !e->u.star.nparts))
        continue;
      for (int c = 0; c < s->ncols; c++, k++) {
        struct chv_sql_expr *col = chv_arena_alloc(Q->a, sizeof *col);
        if (!col) return qual_oom(Q);
        memset(col, 0, sizeof *col);
        col->kind = CHV_SQL_EXPR_COLUMN;
        col->pos = e->pos;
        col->u.column.pos = e->pos;
        col->u.column.nparts = s->qual ? 2 : 1;
        col->u.column.parts[0] = s->qual ? s->qual : s->cols[c];
        if (s->qual) col->u.column.parts[1] = s->cols[c];
        items[k].expr = col;
        items[k].alias = NULL;
      }
    }
  }
  nq->items = items;
  nq->nitems = k;
  return CHV_OK;
}

/* ORDER BY of a SELECT: a position moves with the columns a * became, a
** select alias stays as written, the rest is qualified. */
static int qualify_order(struct qual *Q, const struct chv_sql_query *q,
                         const struct qsrc *src, const struct qscope *scope,
                         const int *width, struct chv_sql_query *nq) {
  struct chv_sql_order_item *o =
      chv_arena_alloc(Q->a, sizeof *o * (q->norder_by + 1));
  if (!o) return qual_oom(Q);
  for (size_t k = 0; k < q->norder_by; k++) {
    const struct chv_sql_expr *e = q->order_by[k].expr;
    o[k] = q->order_by[k];
    if (e->kind == CHV_SQL_EXPR_LITERAL && e->u.lit.kind == CHV_SQL_LIT_INTEGER &&
        !e->u.lit.suffix) {
      long long v = strtoll(e->u.lit.value, NULL, 10);
      if (v < 1 || (size_t)v > q->nitems || !width) continue;
      long long at = 1;
      for (long long i = 0; i < v - 1; i++) at += width[i];
      if (at == v) continue;
      struct chv_sql_expr *ne = chv_arena_alloc(Q->a, sizeof *ne);
      char *txt = chv_arena_alloc(Q->a, 24);
      if (!ne || !txt) return qual_oom(Q);
      *ne = *e;
      snprintf(txt, 24, "%lld", at);
      ne->u.lit.text = ne->u.lit.value = txt;
      ne->u.lit.value_len = strlen(txt);
      o[k].expr = ne;
      continue;
    }
    bool alias = false;
    if (e->kind == CHV_SQL_EXPR_COLUMN && e->u.column.nparts == 1)
      for (size_t i = 0; i < q->nitems && !alias; i++)
        alias = q->items[i].alias &&
                !strcasecmp(q->items[i].alias, e->u.column.parts[0]);
    if (!alias)
      CHV_RETURN_IF_ERR(qualify_expr(Q, e, width ? src : NULL, scope,
                                     &o[k].expr));
  }
  nq->order_by = o;
  return CHV_OK;
}

/* A copy of q with every name qualified and each * expanded; names and
** nnames: the columns it gives. */
static int qualify_query(struct qual *Q, const struct chv_sql_query *q,
                         const struct qscope *scope,
                         struct chv_sql_query **out, const char ***names,
                         int *nnames) {
  struct chv_sql_query *nq = chv_arena_alloc(Q->a, sizeof *nq);
  if (!nq) return qual_oom(Q);
  *nq = *q;
  *out = nq;
  *names = NULL;
  *nnames = 0;
  struct qscope own = {0};
  if (q->nctes) {
    struct chv_sql_cte *ctes =
        chv_arena_alloc(Q->a, sizeof *ctes * (q->nctes + 1));
    own.cols = chv_arena_alloc(Q->a, sizeof *own.cols * (q->nctes + 1));
    own.ncols = chv_arena_alloc(Q->a, sizeof *own.ncols * (q->nctes + 1));
    if (!ctes || !own.cols || !own.ncols) return qual_oom(Q);
    own.ctes = ctes;
    own.up = scope;
    for (size_t i = 0; i < q->nctes; i++) {
      ctes[i] = q->ctes[i];
      own.visible = i; /* a WITH query sees the ones before it */
      CHV_RETURN_IF_ERR(qualify_query(Q, q->ctes[i].query, &own,
                                      &ctes[i].query, &own.cols[i],
                                      &own.ncols[i]));
    }
    own.visible = q->nctes;
    nq->ctes = ctes;
    scope = &own;
  }
  switch (q->kind) {
  case CHV_SQL_QUERY_UNION: {
    const char **rn;
    int nr;
    CHV_RETURN_IF_ERR(qualify_query(Q, q->left, scope, &nq->left, names,
                                    nnames));
    CHV_RETURN_IF_ERR(qualify_query(Q, q->right, scope, &nq->right, &rn, &nr));
    /* ORDER BY names the UNION's columns: as written */
    return CHV_OK;
  }
  case CHV_SQL_QUERY_VALUES: {
    struct chv_sql_expr ***rows =
        chv_arena_alloc(Q->a, sizeof *rows * (q->nrows + 1));
    if (!rows) return qual_oom(Q);
    for (size_t r = 0; r < q->nrows; r++)
      CHV_RETURN_IF_ERR(qualify_list(Q, q->rows[r], q->row_lens[r], NULL,
                                     scope, &rows[r]));
    nq->rows = rows;
    int n = q->nrows ? (int)q->row_lens[0] : 0;
    const char **v = chv_arena_alloc(Q->a, sizeof *v * (size_t)(n + 1));
    if (!v) return qual_oom(Q);
    for (int c = 0; c < n; c++) {
      char buf[32];
      snprintf(buf, sizeof buf, "_c%d", c);
      if (!(v[c] = qdup(Q, buf))) return qual_oom(Q);
    }
    *names = v;
    *nnames = n;
    return CHV_OK;
  }
  case CHV_SQL_QUERY_SELECT:
    break;
  }
  struct qsrc srcv, *src = NULL;
  if (q->from) {
    CHV_RETURN_IF_ERR(qualify_from(Q, q->from, scope, &nq->from, &srcv));
    src = &srcv;
  }
  int *width = chv_arena_alloc(Q->a, sizeof *width * (q->nitems + 1));
  if (!width) return qual_oom(Q);
  CHV_RETURN_IF_ERR(qualify_items(Q, q, src, scope, nq, width));
  CHV_RETURN_IF_ERR(qualify_expr(Q, q->where, src, scope, &nq->where));
  CHV_RETURN_IF_ERR(qualify_expr(Q, q->having, src, scope, &nq->having));
  CHV_RETURN_IF_ERR(qualify_list(Q, q->group_by, q->ngroup_by, src, scope,
                                 &nq->group_by));
  if (q->norder_by)
    CHV_RETURN_IF_ERR(qualify_order(Q, q, src, scope, width, nq));
  const char **v = chv_arena_alloc(Q->a, sizeof *v * (nq->nitems + 1));
  if (!v) return qual_oom(Q);
  for (size_t i = 0; i < nq->nitems; i++)
    if (!(v[i] = item_name(Q, &nq->items[i], (int)i))) return qual_oom(Q);
  *names = v;
  *nnames = (int)nq->nitems;
  return CHV_OK;
}

/* ---- CREATE VIEW, ALTER VIEW ... AS ------------------------------------------ */

static void put_ident(struct chv_buf *b, const char *s) {
  chv_buf_putc(b, '`');
  for (; *s; s++) {
    if (*s == '`') chv_buf_putc(b, '`');
    chv_buf_putc(b, *s);
  }
  chv_buf_putc(b, '`');
}

/* The expanded text of a view's query q, whose columns are qs (as the
** engine found them); with a column list, the query renamed by it. */
static int expand(struct qual *Q, const struct chv_sql_create_view *cv,
                  const char *vname, const struct chv_type *qs,
                  struct chv_buf *out) {
  struct chv_sql_query *nq;
  const char **names;
  int nnames;
  CHV_RETURN_IF_ERR(qualify_query(Q, cv->query, NULL, &nq, &names, &nnames));
  int rc = CHV_OK;
  /* a column list that renames nothing (comments only, or the text of SHOW
  ** CREATE VIEW run again) needs no outer query */
  bool rename = false;
  for (int c = 0; cv->ncolumns && c < qs->nchildren; c++)
    rename |= strcasecmp(qs->names[c], cv->columns[c].name) != 0;
  if (rename) {
    chv_buf_puts(out, "SELECT ");
    for (int c = 0; c < qs->nchildren; c++) {
      if (c) chv_buf_puts(out, ", ");
      char *lc = qdup(Q, qs->names[c]);
      if (!lc) return qual_oom(Q);
      for (char *p = lc; *p; p++) *p = (char)tolower((unsigned char)*p);
      put_ident(out, lc);
      chv_buf_puts(out, " AS ");
      put_ident(out, cv->columns[c].name);
    }
    chv_buf_puts(out, " FROM (");
  }
  rc = chv_sql_query_format(nq, out);
  if (rename) {
    chv_buf_puts(out, ") ");
    put_ident(out, vname);
  }
  if (rc != CHV_OK || !out->data) return qual_oom(Q);
  return CHV_OK;
}

/* The columns a query gives, found without reading rows, with the view
** being defined on the stack. */
static int view_schema(struct sql_session *s, const struct chv_sql_query *q,
                       chv_catalog *cat, const char *db, const char *name,
                       struct chv_type **out, struct chv_sql_pos *pos,
                       struct chv_error *err) {
  struct sql_view_frame f;
  frame_push(s, &f, cat, db, name);
  int rc = sql_query_schema(s, q, out, pos, err);
  s->views = f.up;
  return rc;
}

static bool same_type(const struct chv_type *a, const struct chv_type *b) {
  struct chv_buf x, y;
  chv_buf_init(&x);
  chv_buf_init(&y);
  bool same = chv_type_format(a, &x) == CHV_OK &&
              chv_type_format(b, &y) == CHV_OK && x.data && y.data &&
              !strcmp(x.data, y.data);
  chv_buf_free(&x);
  chv_buf_free(&y);
  return same;
}

/* The expanded text read back gives the columns the view keeps: the same
** number, names and types (a guard on qualify_query() and the formatter). */
static int check_expanded(struct sql_session *s, const char *text,
                          const struct chv_table *v, const struct chv_type *qs,
                          chv_catalog *cat, chv_arena *a,
                          struct chv_error *err) {
  struct chv_sql_script *sc;
  struct chv_error e;
  chv_error_clear(&e);
  struct chv_sql_parse_options o = {CHV_SQL_DIALECT_HIVE, 0};
  struct chv_sql_pos at;
  struct chv_type *got = NULL;
  int rc = chv_sql_parse_ex(text, strlen(text), &o, a, &sc, &at, &e);
  if (rc == CHV_OK && (sc->n != 1 || sc->stmts[0]->kind != CHV_SQL_STMT_QUERY))
    rc = sql_err(&e, CHV_EINTERNAL, "not one query");
  if (rc == CHV_OK)
    rc = view_schema(s, sc->stmts[0]->query, cat, v->db, v->name, &got, &at,
                     &e);
  bool same = rc == CHV_OK && got->nchildren == qs->nchildren;
  for (int c = 0; same && c < qs->nchildren; c++)
    same = !strcasecmp(got->names[c], v->columns[c].name) &&
           same_type(got->children[c], qs->children[c]);
  chv_type_free(got);
  if (same) return CHV_OK;
  if (rc == CHV_ENOMEM) return sql_err(err, rc, "out of memory");
  return sql_err(err, CHV_EINTERNAL,
                 "the expanded text of view %s.%s does not read as its query "
                 "(%s): %s",
                 v->db, v->name, rc == CHV_OK ? "other columns" : e.msg, text);
}

/* Parameters of the view: its old ones when it is replaced (as Hive keeps
** them), then TBLPROPERTIES, then the comment. */
static int view_params(const struct chv_sql_create_view *cv,
                       const struct chv_table *old, chv_arena *a,
                       struct chv_kv **out, int *n, struct chv_error *err) {
  int cap = (old ? old->nparams : 0) + (int)cv->tblproperties.n + 1;
  struct chv_kv *kv = chv_arena_alloc(a, sizeof *kv * (size_t)(cap + 1));
  if (!kv) return sql_err(err, CHV_ENOMEM, "out of memory");
  int k = 0;
  for (int i = 0; old && i < old->nparams; i++) kv[k++] = old->params[i];
  for (size_t i = 0; i <= cv->tblproperties.n; i++) {
    const char *key, *value;
    if (i < cv->tblproperties.n) {
      key = cv->tblproperties.items[i].key;
      value = cv->tblproperties.items[i].value;
    } else if (cv->comment) {
      key = "comment";
      value = cv->comment;
    } else {
      break;
    }
    int j = 0;
    while (j < k && strcmp(kv[j].key, key)) j++;
    kv[j].key = (char *)key;
    kv[j].value = (char *)(value ? value : "");
    if (j == k) k++;
  }
  *out = kv;
  *n = k;
  return CHV_OK;
}

int sql_exec_create_view(struct sql_session *s, const struct chv_sql_stmt *st,
                         struct chv_sql_pos *pos, struct chv_error *err) {
  const struct chv_sql_create_view *cv = st->create_view;
  bool alter = st->kind == CHV_SQL_STMT_ALTER_VIEW;
  chv_catalog *cat;
  const char *db, *name;
  *pos = cv->name.pos;
  CHV_RETURN_IF_ERR(sql_resolve(s, &cv->name, &cat, &db, &name, err));
  if (cv->temporary)
    return sql_err(err, CHV_ENOTSUP, "CREATE TEMPORARY VIEW is not supported "
                   "yet");
  if (cv->or_replace && cv->if_not_exists)
    return sql_err(err, CHV_EINVAL, "CREATE VIEW cannot combine OR REPLACE "
                   "and IF NOT EXISTS");
  struct chv_table old = {0};
  struct chv_error e;
  chv_error_clear(&e);
  bool exists = chv_catalog_get_table(cat, db, name, &old, &e) == CHV_OK;
  int rc = CHV_OK;
  if (exists && old.type != CHV_VIRTUAL_VIEW) {
    rc = alter ? sql_err(err, CHV_EINVAL, "%s.%s is a table, not a view: use "
                         "ALTER TABLE", old.db, old.name)
         : cv->or_replace
             ? sql_err(err, CHV_EINVAL, "%s.%s is a table, not a view: CREATE "
                       "OR REPLACE VIEW cannot replace it", old.db, old.name)
             : cv->if_not_exists ? CHV_OK
                                 : sql_err(err, CHV_EEXIST, "table %s.%s "
                                           "already exists", old.db,
                                           old.name);
    chv_table_free(&old);
    return rc;
  }
  if (exists && !alter && !cv->or_replace) {
    if (!cv->if_not_exists)
      rc = sql_err(err, CHV_EEXIST, "view %s.%s already exists", old.db,
                   old.name);
    chv_table_free(&old);
    return rc;
  }
  if (!exists && alter) {
    if (e.code == CHV_ENOENT && strncmp(e.msg, "database ", 9))
      return sql_err(err, CHV_ENOENT, "view %s.%s does not exist", db, name);
    *err = e;
    return e.code;
  }
  chv_arena *a = NULL;
  struct chv_type *qs = NULL;
  struct chv_buf text;
  chv_buf_init(&text);
  char **types = NULL;
  if (chv_arena_open(0, &a) != CHV_OK) {
    rc = sql_err(err, CHV_ENOMEM, "out of memory");
    goto out;
  }
  /* names as the catalog keeps them, for the text and the cycle guard */
  char *ldb = chv_arena_strndup(a, db, strlen(db));
  char *lname = chv_arena_strndup(a, name, strlen(name));
  if (!ldb || !lname) {
    rc = sql_err(err, CHV_ENOMEM, "out of memory");
    goto out;
  }
  for (char *c = ldb; *c; c++) *c = (char)tolower((unsigned char)*c);
  for (char *c = lname; *c; c++) *c = (char)tolower((unsigned char)*c);
  rc = view_schema(s, cv->query, cat, ldb, lname, &qs, pos, err);
  if (rc != CHV_OK) goto out;
  int n = qs->nchildren;
  if (cv->ncolumns && cv->ncolumns != (size_t)n) {
    *pos = cv->columns[0].pos;
    rc = sql_err(err, CHV_EINVAL, "the column list of view %s.%s names %zu "
                 "column%s, but its query gives %d", ldb, lname, cv->ncolumns,
                 cv->ncolumns == 1 ? "" : "s", n);
    goto out;
  }
  struct chv_column *cols = chv_arena_alloc(a, sizeof *cols * (size_t)(n + 1));
  types = calloc((size_t)n + 1, sizeof *types);
  if (!cols || !types) {
    rc = sql_err(err, CHV_ENOMEM, "out of memory");
    goto out;
  }
  for (int c = 0; c < n; c++) {
    struct chv_buf tb;
    chv_buf_init(&tb);
    if (chv_type_format(qs->children[c], &tb) != CHV_OK || !tb.data) {
      chv_buf_free(&tb);
      rc = sql_err(err, CHV_ENOMEM, "out of memory");
      goto out;
    }
    types[c] = chv_buf_detach(&tb);
    cols[c].name = (char *)(cv->ncolumns ? cv->columns[c].name : qs->names[c]);
    cols[c].type = types[c];
    cols[c].comment = (char *)(cv->ncolumns ? cv->columns[c].comment : NULL);
    for (int k = 0; k < c; k++)
      if (!strcasecmp(cols[k].name, cols[c].name)) {
        if (cv->ncolumns) *pos = cv->columns[c].pos;
        rc = sql_err(err, CHV_EINVAL, "view %s.%s would have two columns "
                     "named %s; name them apart (AS or a column list)", ldb,
                     lname, cols[c].name);
        goto out;
      }
  }
  /* a column list renames the query's columns, which must be apart too */
  for (int c = 0; cv->ncolumns && c < n; c++)
    for (int k = 0; k < c; k++)
      if (!strcasecmp(qs->names[k], qs->names[c])) {
        *pos = cv->query_pos;
        rc = sql_err(err, CHV_EINVAL, "the query of view %s.%s gives two "
                     "columns named %s; name them apart with AS", ldb, lname,
                     qs->names[c]);
        goto out;
      }
  char qname[600];
  snprintf(qname, sizeof qname, "%s.%s", ldb, lname);
  struct qual Q = {s, cat, qname, a, pos, err};
  rc = expand(&Q, cv, lname, qs, &text);
  if (rc != CHV_OK) goto out;
  struct chv_table v = {.db = ldb, .name = lname, .columns = cols, .ncols = n,
                        .type = CHV_VIRTUAL_VIEW,
                        .input_format = (char *)view_input,
                        .output_format = (char *)view_output,
                        .view_original_text = (char *)cv->query_text,
                        .view_expanded_text = text.data};
  rc = check_expanded(s, text.data, &v, qs, cat, a, err);
  if (rc == CHV_OK)
    rc = view_params(cv, exists ? &old : NULL, a, &v.params, &v.nparams, err);
  if (rc != CHV_OK) goto out;
  *pos = cv->name.pos;
  if (exists)
    rc = chv_catalog_alter_table(cat, ldb, lname, &v, err);
  else
    rc = chv_catalog_create_table(cat, &v, 0, err);
out:
  for (int c = 0; types && qs && c < qs->nchildren; c++) free(types[c]);
  free(types);
  chv_buf_free(&text);
  chv_type_free(qs);
  chv_arena_close(a);
  chv_table_free(&old);
  return rc;
}

/* ---- statements on tables and views ------------------------------------------ */

int sql_view_check_stmt(struct sql_session *s, const struct chv_sql_stmt *st,
                        bool *done, struct chv_sql_pos *pos,
                        struct chv_error *err) {
  *done = false;
  const char *verb = NULL; /* a statement on tables only */
  switch (st->kind) {
  case CHV_SQL_STMT_DROP_TABLE:
  case CHV_SQL_STMT_SET_TBLPROPERTIES:
  case CHV_SQL_STMT_RENAME_TABLE:
  case CHV_SQL_STMT_SHOW_CREATE_TABLE:
    break;
  case CHV_SQL_STMT_ADD_PARTITIONS:
  case CHV_SQL_STMT_DROP_PARTITIONS: verb = "ALTER TABLE"; break;
  case CHV_SQL_STMT_TRUNCATE_TABLE: verb = "TRUNCATE TABLE"; break;
  case CHV_SQL_STMT_MSCK_REPAIR: verb = "MSCK REPAIR TABLE"; break;
  case CHV_SQL_STMT_LOAD_DATA: verb = "LOAD DATA"; break;
  case CHV_SQL_STMT_INSERT: verb = "INSERT"; break;
  default: return CHV_OK;
  }
  chv_catalog *cat;
  const char *db, *name;
  CHV_RETURN_IF_ERR(sql_resolve(s, &st->name, &cat, &db, &name, err));
  struct chv_table t;
  struct chv_error e;
  chv_error_clear(&e);
  *pos = st->name.pos;
  if (chv_catalog_get_table(cat, db, name, &t, &e) != CHV_OK) {
    /* a missing view is named as one; the rest is left to the statement */
    if (!st->view || e.code != CHV_ENOENT || !strncmp(e.msg, "database ", 9))
      return CHV_OK;
    if (st->if_exists) return CHV_OK;
    return sql_err(err, CHV_ENOENT, "view %s.%s does not exist", db, name);
  }
  bool is_view = t.type == CHV_VIRTUAL_VIEW;
  int rc = CHV_OK;
  if (verb && is_view) {
    rc = st->kind == CHV_SQL_STMT_INSERT || st->kind == CHV_SQL_STMT_LOAD_DATA
             ? sql_err(err, CHV_EINVAL, "%s.%s is a view: a view cannot be "
                       "the target of %s", t.db, t.name, verb)
         : st->kind == CHV_SQL_STMT_ADD_PARTITIONS ||
                 st->kind == CHV_SQL_STMT_DROP_PARTITIONS
             ? sql_err(err, CHV_EINVAL, "%s.%s is a view, not a table: it has "
                       "no partitions", t.db, t.name)
             : sql_err(err, CHV_EINVAL, "%s.%s is a view, not a table: %s "
                       "takes a table", t.db, t.name, verb);
  } else if (!verb && st->view && !is_view) {
    /* DROP VIEW IF EXISTS on a table does nothing, as in Hive */
    if (st->kind == CHV_SQL_STMT_DROP_TABLE && st->if_exists)
      *done = true;
    else
      rc = sql_err(err, CHV_EINVAL, "%s.%s is a table, not a view: use %s",
                   t.db, t.name,
                   st->kind == CHV_SQL_STMT_DROP_TABLE ? "DROP TABLE"
                   : st->kind == CHV_SQL_STMT_SHOW_CREATE_TABLE
                       ? "SHOW CREATE TABLE"
                       : "ALTER TABLE");
  } else if (!verb && !st->view && is_view &&
             st->kind != CHV_SQL_STMT_SHOW_CREATE_TABLE) {
    /* DROP TABLE IF EXISTS on a view does nothing, as in Hive */
    if (st->kind == CHV_SQL_STMT_DROP_TABLE && st->if_exists)
      *done = true;
    else
      rc = sql_err(err, CHV_EINVAL, "%s.%s is a view, not a table: use %s",
                   t.db, t.name,
                   st->kind == CHV_SQL_STMT_DROP_TABLE ? "DROP VIEW"
                                                       : "ALTER VIEW");
  }
  chv_table_free(&t);
  return rc;
}

/* ---- a view named in FROM ------------------------------------------------------ */

struct sql_view {
  struct sql_view_frame frame; /* on s->views while it runs */
  chv_arena *a;                /* the parsed text */
  const struct chv_sql_query *query;
  chv_catalog *saved_cat;      /* the session's, restored on close */
  char saved_db[256];
  struct sql_scope *saved_scope;
};

int sql_view_open(struct sql_session *s, chv_catalog *cat,
                  const struct chv_table *t, struct sql_view **out,
                  struct chv_error *err) {
  char qname[520];
  snprintf(qname, sizeof qname, "%s.%s", t->db, t->name);
  CHV_RETURN_IF_ERR(frame_check(s, cat, qname, err));
  const char *text = t->view_expanded_text;
  if (!text || !*text) {
    s->view_err_named = true;
    return sql_err(err, CHV_ECORRUPT, "view %s has no expanded text to run",
                   qname);
  }
  struct sql_view *v = calloc(1, sizeof *v);
  if (!v || chv_arena_open(0, &v->a) != CHV_OK) {
    free(v);
    return sql_err(err, CHV_ENOMEM, "out of memory");
  }
  struct chv_sql_script *sc;
  struct chv_sql_parse_options o = {CHV_SQL_DIALECT_HIVE, 0};
  struct chv_sql_pos at;
  struct chv_error e;
  chv_error_clear(&e);
  int rc = chv_sql_parse_ex(text, strlen(text), &o, v->a, &sc, &at, &e);
  if (rc == CHV_OK && (sc->n != 1 || sc->stmts[0]->kind != CHV_SQL_STMT_QUERY))
    rc = sql_err(&e, CHV_ECORRUPT, "it is not one query");
  if (rc != CHV_OK) {
    chv_arena_close(v->a);
    free(v);
    s->view_err_named = true;
    if (rc == CHV_ENOMEM) return sql_err(err, rc, "out of memory");
    return sql_err(err, CHV_ECORRUPT, "view %s: its expanded text does not "
                   "read: %s", qname, e.msg);
  }
  v->query = sc->stmts[0]->query;
  frame_push(s, &v->frame, cat, t->db, t->name);
  /* it runs in its catalog and database, seeing no WITH query around it */
  v->saved_cat = s->cat;
  snprintf(v->saved_db, sizeof v->saved_db, "%s", s->db);
  v->saved_scope = s->scope;
  s->cat = cat;
  snprintf(s->db, sizeof s->db, "%s", t->db);
  s->scope = NULL;
  *out = v;
  return CHV_OK;
}

const struct chv_sql_query *sql_view_query(const struct sql_view *v) {
  return v->query;
}

chv_arena *sql_view_take_text(struct sql_view *v) {
  chv_arena *a = v->a;
  v->a = NULL;
  return a;
}

int sql_view_columns(const struct chv_table *t, struct sql_rel *rel,
                     struct chv_error *err) {
  if (rel->t.ncols != t->ncols)
    return sql_err(err, CHV_ECORRUPT, "its text gives %d column%s, but the "
                   "view has %d", rel->t.ncols, rel->t.ncols == 1 ? "" : "s",
                   t->ncols);
  for (int c = 0; c < t->ncols; c++)
    if (strcmp(rel->t.columns[c].name, t->columns[c].name))
      CHV_RETURN_IF_ERR(sql_rel_rename(rel, c, t->columns[c].name, err));
  return CHV_OK;
}

int sql_view_close(struct sql_session *s, struct sql_view *v, int rc,
                   struct chv_sql_pos at, struct chv_sql_pos *pos,
                   struct chv_error *err) {
  if (!v) return rc;
  s->cat = v->saved_cat;
  snprintf(s->db, sizeof s->db, "%s", v->saved_db);
  s->scope = v->saved_scope;
  s->views = v->frame.up;
  *pos = at; /* positions inside the view's text mean nothing outside */
  if (rc != CHV_OK && rc != CHV_ENOMEM && !s->view_err_named) {
    chv_error_wrap(err, "view %s", v->frame.name);
    s->view_err_named = true;
  }
  chv_arena_close(v->a);
  free(v);
  return rc;
}
