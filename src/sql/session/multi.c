/*
** sql/session/multi: Hive's multi-insert,
**
**   FROM src [alias]
**   INSERT INTO [TABLE] a [PARTITION (...)] SELECT ... [WHERE ...] [LIMIT n]
**   INSERT OVERWRITE TABLE b [PARTITION (...)] SELECT ... [WHERE ...]
**   ...
**
** src (a table, or a sub-query) is read ONCE: the scan reads the columns
** every branch uses, and each batch goes to every branch, which filters it
** by its WHERE, evaluates its select items, cuts at its LIMIT and writes
** the rows through its own sink (static and dynamic partitions, OPTIONS
** hints, as a plain INSERT ... SELECT).  A branch's WHERE is evaluated on
** the rows, partition keys included: with one scan for all branches no
** branch's predicate can prune the partitions the others need.
**
** Commit.  Nothing is committed until every branch has written all its
** rows: a failure (or a cancel) before then closes every sink, so no
** target changes.  Then each target is committed in turn, each in one
** atomic commit of its own (docs/commit.md), as Hive moves each target's
** files on its own: if the commit of a later target fails after an
** earlier one succeeded, the error says which targets were committed;
** they stay written.
**
** Not supported yet in a branch (errors naming it): GROUP BY, HAVING,
** aggregates, DISTINCT, ORDER BY, INSERT OVERWRITE DIRECTORY; a join as
** the source.
**
** INTERFACE
**   sql_exec_multi_insert()
*/
#include "sql/session/session_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* One INSERT of the statement. */
struct branch {
  const struct chv_sql_stmt *st;
  struct sql_insert ins;
  struct chv_expr **ex;        /* the select items, cast to the target */
  const char **heads;
  int nout;
  struct chv_expr *pred;       /* its WHERE, or NULL */
  int64_t limit, done;         /* LIMIT (< 0: none) and rows written */
  struct chv_batch *ob;        /* a batch on ins.schema */
  uint32_t *sel;               /* the rows its WHERE keeps */
  int64_t cap;
  struct sql_plan_node *nlim, *nproj, *nfilt;
};

/* What a branch cannot do yet, with *pos at it; NULL when it is fine. */
static const char *unsupported(const struct chv_sql_stmt *b,
                               struct chv_sql_pos *pos) {
  const struct chv_sql_query *q = b->query;
  *pos = b->pos;
  if (b->kind == CHV_SQL_STMT_INSERT_DIRECTORY)
    return "INSERT OVERWRITE DIRECTORY";
  if (q->ngroup_by) {
    *pos = q->group_by[0]->pos;
    return "GROUP BY";
  }
  if (q->having) {
    *pos = q->having->pos;
    return "HAVING";
  }
  if (q->distinct) {
    *pos = q->pos;
    return "SELECT DISTINCT";
  }
  if (q->norder_by) {
    *pos = q->order_by[0].expr->pos;
    return "ORDER BY";
  }
  for (size_t i = 0; i < q->nitems; i++)
    if (sql_has_aggregate(q->items[i].expr)) {
      *pos = q->items[i].expr->pos;
      return "an aggregate";
    }
  return NULL;
}

/* The conjuncts of an AND tree, bound and AND-ed into *out; text gets
** them for EXPLAIN. */
static int bind_where(struct sql_bind *b, const struct chv_sql_expr *e,
                      chv_arena *a, struct chv_expr **out,
                      struct chv_buf *text, struct chv_sql_pos *pos,
                      struct chv_error *err) {
  if (e->kind == CHV_SQL_EXPR_BINARY && e->u.binary.op == CHV_SQL_OP_AND) {
    CHV_RETURN_IF_ERR(bind_where(b, e->u.binary.left, a, out, text, pos, err));
    return bind_where(b, e->u.binary.right, a, out, text, pos, err);
  }
  struct chv_expr *x;
  CHV_RETURN_IF_ERR(sql_bind_expr(b, e, &x));
  if (x->type->id != CHV_TYPE_BOOLEAN) {
    *pos = e->pos;
    struct chv_buf t;
    chv_buf_init(&t);
    sql_expr_text(e, &t);
    int rc = sql_err(err, CHV_ETYPE, "WHERE condition %s is not boolean",
                     t.data ? t.data : "");
    chv_buf_free(&t);
    return rc;
  }
  if (text->len) chv_buf_puts(text, " AND ");
  sql_expr_text(e, text);
  if (!*out) {
    *out = x;
    return CHV_OK;
  }
  return chv_expr_and(a, *out, x, out, err);
}

/* Binds branch br's items and WHERE over the source t (b), casts the
** items to its target, and makes its plan nodes. */
static int bind_branch(struct sql_session *s, struct branch *br,
                       struct sql_bind *b, const struct chv_table *t,
                       chv_arena *a, struct chv_sql_pos *pos,
                       struct chv_error *err) {
  const struct chv_sql_query *q = br->st->query;
  int cap = 0;
  for (size_t i = 0; i < q->nitems; i++)
    cap += q->items[i].expr->kind == CHV_SQL_EXPR_STAR ? t->ncols + t->npkeys
                                                        : 1;
  br->ex = chv_arena_alloc(a, sizeof *br->ex * (size_t)(cap + 1));
  br->heads = chv_arena_alloc(a, sizeof *br->heads * (size_t)(cap + 1));
  if (!br->ex || !br->heads) return sql_err(err, CHV_ENOMEM, "out of memory");
  struct chv_buf items;
  chv_buf_init(&items);
  int rc = CHV_OK;
  for (size_t i = 0; rc == CHV_OK && i < q->nitems; i++) {
    const struct chv_sql_expr *e = q->items[i].expr;
    *pos = e->pos;
    if (i) chv_buf_puts(&items, ", ");
    if (e->kind == CHV_SQL_EXPR_STAR) {
      const char *alias = b->alias;
      int nq = e->u.star.nparts;
      const char *last = nq ? e->u.star.parts[nq - 1] : NULL;
      if (nq && !(alias ? nq == 1 && !strcasecmp(last, alias)
                        : !strcasecmp(last, t->name))) {
        rc = sql_err(err, CHV_ENOENT, "unknown table qualifier '%s' in %s.*",
                     last, last);
        break;
      }
      for (int c = 0; rc == CHV_OK && c < t->ncols + t->npkeys; c++) {
        rc = sql_bind_column(b, c, &br->ex[br->nout]);
        if (rc != CHV_OK) break;
        br->heads[br->nout] = b->cols[br->ex[br->nout]->column];
        chv_buf_printf(&items, "%s%s", c ? ", " : "", br->heads[br->nout]);
        br->nout++;
      }
      continue;
    }
    rc = sql_bind_expr(b, e, &br->ex[br->nout]);
    if (rc != CHV_OK) break;
    sql_expr_text(e, &items);
    if (q->items[i].alias) {
      br->heads[br->nout] = q->items[i].alias;
    } else if (e->kind == CHV_SQL_EXPR_COLUMN) {
      br->heads[br->nout] = b->cols[br->ex[br->nout]->column];
    } else {
      char *h = chv_arena_alloc(a, 24);
      if (!h) {
        rc = sql_err(err, CHV_ENOMEM, "out of memory");
        break;
      }
      snprintf(h, 24, "_c%d", br->nout);
      br->heads[br->nout] = h;
    }
    if (q->items[i].alias || e->kind != CHV_SQL_EXPR_COLUMN)
      chv_buf_printf(&items, " AS %s", br->heads[br->nout]);
    br->nout++;
  }
  struct chv_buf where;
  chv_buf_init(&where);
  if (rc == CHV_OK && q->where)
    rc = bind_where(b, q->where, a, &br->pred, &where, pos, err);
  br->limit = -1;
  if (rc == CHV_OK && q->limit) {
    *pos = q->limit->pos;
    const char *lt = NULL;
    char *end = NULL;
    if (q->limit->kind != CHV_SQL_EXPR_LITERAL ||
        q->limit->u.lit.kind != CHV_SQL_LIT_INTEGER ||
        sql_literal_text(q->limit, a, &lt, err) != CHV_OK || !lt ||
        (errno = 0, br->limit = strtoll(lt, &end, 10), errno) || *end ||
        br->limit < 0)
      rc = sql_err(err, CHV_ENOTSUP,
                   "LIMIT takes a non-negative integer literal");
  }
  if (rc == CHV_OK)
    rc = sql_insert_casts(s, &br->ins, q, t, a, br->ex, br->heads, br->nout,
                          pos, err);
  if (rc == CHV_OK) {
    struct sql_plan_node *at = br->ins.node;
    if (br->limit >= 0)
      at = br->nlim = sql_plan_node(s, at, "Limit: %lld",
                                    (long long)br->limit);
    at = br->nproj = sql_plan_node(s, at, "Project: [%s]",
                                   items.data ? items.data : "");
    if (br->pred)
      br->nfilt = sql_plan_node(s, at, "Filter: %s",
                                where.data ? where.data : "");
  }
  chv_buf_free(&items);
  chv_buf_free(&where);
  return rc;
}

/* Branch br's rows of the source batch bt, written to its target. */
static int feed(struct sql_session *s, struct branch *br,
                const struct chv_batch *bt, bool analyze,
                struct chv_error *err) {
  int64_t n = bt->nrows;
  const uint32_t *rows = NULL;
  int64_t t0 = analyze ? sql_plan_now() : 0;
  if (br->pred) {
    if (bt->nrows > br->cap) {
      uint32_t *ns = realloc(br->sel, sizeof *ns * (size_t)bt->nrows);
      if (!ns) return sql_err(err, CHV_ENOMEM, "out of memory");
      br->sel = ns;
      br->cap = bt->nrows;
    }
    CHV_RETURN_IF_ERR(
        chv_expr_filter(br->pred, bt, NULL, bt->nrows, br->sel, &n, err));
    rows = br->sel;
    if (analyze) sql_plan_count(br->nfilt, n, sql_plan_now() - t0);
  }
  if (br->limit >= 0 && n > br->limit - br->done) n = br->limit - br->done;
  if (n <= 0) return CHV_OK;
  t0 = analyze ? sql_plan_now() : 0;
  for (int c = 0; c < br->nout; c++)
    CHV_RETURN_IF_ERR(chv_expr_eval(br->ex[c], bt, rows, n, br->ob->cols[c],
                                    err));
  if (analyze) {
    sql_plan_count(br->nproj, n, sql_plan_now() - t0);
    sql_plan_count(br->nlim, n, 0);
  }
  CHV_RETURN_IF_ERR(sql_insert_write(s, &br->ins, br->ob, n, err));
  br->done += n;
  return CHV_OK;
}

/* "default.t PARTITION (dt='1', hr)" of branch br, for errors. */
static void target_text(const struct branch *br, struct chv_buf *b) {
  chv_buf_printf(b, "%s.%s", br->ins.t.db, br->ins.t.name);
  const struct chv_sql_part_spec *sp = &br->st->partition;
  for (size_t i = 0; i < sp->n; i++) {
    chv_buf_puts(b, i ? ", " : " PARTITION (");
    chv_buf_puts(b, sp->items[i].key);
    if (sp->items[i].value)
      chv_buf_printf(b, "='%s'", i < (size_t)br->ins.nstatic
                                     ? br->ins.statics[i] ? br->ins.statics[i]
                                                          : "NULL"
                                     : "?");
    if (i + 1 == sp->n) chv_buf_putc(b, ')');
  }
}

int sql_exec_multi_insert(struct sql_session *s, const struct chv_sql_stmt *st,
                          struct chv_sql_pos *pos, struct chv_error *err) {
  bool explain = s->plan && !sql_plan_analyze(s);
  bool analyze = sql_plan_analyze(s);
  const struct chv_sql_from *f = st->source;
  size_t nb = st->ninserts;
  *pos = f->pos;
  if (f->kind == CHV_SQL_FROM_JOIN)
    return sql_err(err, CHV_ENOTSUP,
                   "a join as the source of FROM ... INSERT is not supported "
                   "yet");
  if (f->system_time)
    return sql_err(err, CHV_ENOTSUP, "FOR SYSTEM_TIME AS OF is not supported "
                   "yet");
  for (size_t i = 0; i < nb; i++) {
    const char *what = unsupported(st->inserts[i], pos);
    if (what)
      return sql_err(err, CHV_ENOTSUP,
                     "%s in a branch of FROM ... INSERT is not supported yet "
                     "(a branch filters and projects the rows of the source "
                     "it shares)",
                     what);
  }
  chv_arena *a = NULL;
  struct branch *br = calloc(nb + 1, sizeof *br);
  struct sql_bind b;
  memset(&b, 0, sizeof b);
  chv_catalog *cat = NULL;
  struct chv_table t = {0};
  struct sql_rel *rel = NULL;
  const struct chv_table *srct = NULL;
  struct sql_scan *scan = NULL;
  struct chv_kv *topts = NULL;
  int ntopts = 0, ncommitted = 0;
  struct chv_buf done_text;
  chv_buf_init(&done_text);
  struct sql_plan_node *saved = s->plan_at;
  int rc = CHV_OK;
  if (!br || chv_arena_open(0, &a) != CHV_OK) {
    rc = sql_err(err, CHV_ENOMEM, "out of memory");
    goto out;
  }
  struct sql_plan_node *root = sql_plan_node(
      s, NULL, "Multi-insert: %zu target%s from one scan", nb,
      nb == 1 ? "" : "s");
  /* The source: a table (with its OPTIONS hint) or a sub-query. */
  struct sql_plan_node *held = sql_plan_pending(s);
  if (f->kind == CHV_SQL_FROM_SUBQUERY) {
    if (f->hints.n) {
      *pos = f->hints.items[0].pos;
      rc = sql_err(err, CHV_EINVAL,
                   "an OPTIONS hint applies to a table, and the sub-query%s%s "
                   "is a derived table (the rows of a query)",
                   f->alias ? " " : "", f->alias ? f->alias : "");
      goto out;
    }
    char what[160];
    snprintf(what, sizeof what, "sub-query %s", f->alias ? f->alias : "");
    if (explain) rc = sql_explain_into(s, held, f->subquery, st->pos, pos, err);
    s->plan_at = held;
    if (rc == CHV_OK)
      rc = sql_derive(s, f->subquery, f->alias ? f->alias : "", what,
                      !explain, st->pos, &rel, pos, err);
    s->plan_at = saved;
    if (rc != CHV_OK) goto out;
    srct = &rel->t;
  } else {
    cat = s->cat;
    rc = sql_get_table(s, &f->table, &cat, &t, err);
    if (rc != CHV_OK) goto out;
    srct = &t;
    if (f->options.n) {
      char tn[512];
      snprintf(tn, sizeof tn, "%s.%s", t.db, t.name);
      rc = sql_hint_options(s, &f->options, tn, true, a, &topts, &ntopts, pos,
                            err);
      if (rc != CHV_OK) goto out;
    }
  }
  /* The targets, each checked and opened (nothing is committed yet). */
  if (root) s->plan_at = root;
  for (size_t i = 0; i < nb; i++) {
    br[i].st = st->inserts[i];
    rc = sql_insert_open(s, br[i].st, explain, &br[i].ins, pos, err);
    if (rc != CHV_OK) goto out;
    struct chv_buf me;
    chv_buf_init(&me);
    target_text(&br[i], &me);
    for (size_t j = 0; j < i && rc == CHV_OK; j++) {
      struct chv_buf other;
      chv_buf_init(&other);
      target_text(&br[j], &other);
      if (me.data && other.data && !strcmp(me.data, other.data)) {
        *pos = br[i].st->name.pos;
        rc = sql_err(err, CHV_EINVAL,
                     "two branches write %s; a multi-insert writes each "
                     "target once",
                     me.data);
      }
      chv_buf_free(&other);
    }
    chv_buf_free(&me);
    if (rc != CHV_OK) goto out;
  }
  s->plan_at = saved;
  /* The branches over the source; the scan reads what they all use. */
  rc = sql_bind_init(&b, srct, f->alias, a, pos, err);
  for (size_t i = 0; rc == CHV_OK && i < nb; i++)
    rc = bind_branch(s, &br[i], &b, srct, a, pos, err);
  if (rc == CHV_OK && b.ncols == 0 && srct->ncols + srct->npkeys > 0) {
    struct chv_expr *x; /* one column, for the rows */
    rc = sql_bind_column(&b, 0, &x);
  }
  if (rc != CHV_OK) goto out;
  struct chv_scan_options so;
  chv_scan_options_init(&so);
  so.cfg = s->cfg;
  so.cancel = &s->cancel;
  so.progress = sql_scan_progress;
  so.progress_ctx = s;
  so.columns = b.cols;
  so.ncolumns = b.ncols;
  so.table_options = topts;
  so.ntable_options = ntopts;
  *pos = st->pos;
  if (!explain && !rel) so.threads = sql_scan_threads(s, cat, srct, &so);
  s->plan_input = held;
  struct sql_plan_node *nscan = root ? sql_scan_node(s, root) : NULL;
  s->plan_input = NULL;
  int64_t t0 = analyze ? sql_plan_now() : 0, scan_ns = 0;
  rc = sql_scan_open(cat, srct, rel, &so, &scan, err);
  if (analyze) scan_ns += sql_plan_now() - t0;
  if (rc != CHV_OK) goto out;
  if (explain) {
    sql_scan_describe(s, nscan, cat, srct, scan, &so, b.cols, b.ncols, 0);
    goto out;
  }
  for (size_t i = 0; rc == CHV_OK && i < nb; i++)
    rc = chv_batch_open(br[i].ins.schema, 0, &br[i].ob, err);
  /* One scan, every batch to every branch; done when each branch's LIMIT
  ** is reached, or at the end. */
  while (rc == CHV_OK) {
    bool more = false;
    for (size_t i = 0; i < nb; i++)
      more |= br[i].limit < 0 || br[i].done < br[i].limit;
    if (!more) break;
    struct chv_batch *bt;
    t0 = analyze ? sql_plan_now() : 0;
    *pos = f->pos; /* a failing read is the source's */
    rc = sql_scan_next(scan, &bt, err);
    if (analyze) scan_ns += sql_plan_now() - t0;
    if (rc != CHV_OK || !bt) break;
    if (analyze) sql_plan_count(nscan, bt->nrows, 0);
    for (size_t i = 0; rc == CHV_OK && i < nb; i++) {
      *pos = br[i].st->pos;
      rc = feed(s, &br[i], bt, analyze, err);
    }
  }
  if (rc != CHV_OK) goto out;
  if (analyze)
    sql_scan_describe(s, nscan, cat, srct, scan, &so, b.cols, b.ncols,
                      scan_ns);
  sql_scan_close(scan);
  scan = NULL;
  /* Every branch wrote all its rows: commit each target in turn (a cancel
  ** counts until the first commit begins, then the commits run to the
  ** end, so that a cancel never splits them). */
  int64_t total = 0;
  rc = sql_cancelled(s, err);
  if (rc != CHV_OK) goto out;
  for (size_t i = 0; i < nb; i++) {
    *pos = br[i].st->name.pos;
    t0 = analyze ? sql_plan_now() : 0;
    rc = chv_sink_commit(br[i].ins.sink, err);
    if (analyze) sql_plan_count(br[i].ins.node, 0, sql_plan_now() - t0);
    if (rc != CHV_OK) {
      if (ncommitted)
        chv_error_wrap(err,
                       "the commit of %s.%s failed after %s %s committed (a "
                       "multi-insert commits each target on its own, as "
                       "Hive does; those stay written)",
                       br[i].ins.t.db, br[i].ins.t.name, done_text.data,
                       ncommitted == 1 ? "was" : "were");
      goto out;
    }
    chv_buf_printf(&done_text, "%s%s.%s", ncommitted ? ", " : "",
                   br[i].ins.t.db, br[i].ins.t.name);
    ncommitted++;
    total += br[i].ins.written;
  }
  char msg[1024];
  int off = snprintf(msg, sizeof msg, "Inserted");
  for (size_t i = 0; i < nb && off < (int)sizeof msg; i++)
    off += snprintf(msg + off, sizeof msg - (size_t)off, "%s %lld row%s into "
                    "%s.%s", i ? "," : "", (long long)br[i].ins.written,
                    br[i].ins.written == 1 ? "" : "s", br[i].ins.t.db,
                    br[i].ins.t.name);
  rc = sql_out_summary(s, "rows_written", total, msg, err);
out:
  s->plan_at = saved;
  s->plan_input = NULL;
  sql_scan_close(scan);
  for (size_t i = 0; br && i < nb; i++) {
    chv_batch_close(br[i].ob);
    free(br[i].sel);
    sql_insert_close(&br[i].ins); /* an uncommitted write is discarded */
  }
  free(br);
  if (b.t) sql_bind_free(&b);
  sql_rel_close(rel);
  chv_table_free(&t);
  chv_buf_free(&done_text);
  chv_arena_close(a);
  return rc;
}
