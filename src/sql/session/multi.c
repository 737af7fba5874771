/*
** sql/session/multi: Hive's multi-insert,
**
**   FROM src [alias]
**   INSERT INTO [TABLE] a [PARTITION (...)] SELECT ... [WHERE ...] [LIMIT n]
**   INSERT OVERWRITE TABLE b [PARTITION (...)] SELECT ... [WHERE ...]
**   ...
**
** src (a table, or a sub-query) is read ONCE: one plan (build.c,
** sql_multi_build()) of a Multi node over the source, which reads the
** columns every branch uses, and each branch, Sink <- [Limit] <- Project
** <- [Filter] <- Tee: each chunk of the source goes to every branch, which
** filters it by its WHERE, evaluates its select items, cuts at its LIMIT
** and writes the rows through its own sink (static and dynamic partitions,
** OPTIONS hints, as a plain INSERT ... SELECT).  A branch's WHERE is evaluated on
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
  struct sql_target tg;        /* where the plan's Sink writes */
};

/* What a branch cannot do yet, with *pos at it; NULL when it is fine. */
static const char *unsupported(const struct chv_sql_stmt *b,
                               struct chv_sql_pos *pos) {
  const struct chv_sql_query *q = b->query;
  *pos = b->pos;
  if (b->kind == CHV_SQL_STMT_INSERT_DIRECTORY)
    return "INSERT OVERWRITE DIRECTORY";
  if (q->ngroup_by || q->ngroup_elems) {
    *pos = q->ngroup_elems ? q->group_elems[0].pos : q->group_by[0]->pos;
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
    return q->order_kind == CHV_SQL_SORT_BY      ? "SORT BY"
           : q->order_kind == CHV_SQL_CLUSTER_BY ? "CLUSTER BY"
                                                 : "ORDER BY";
  }
  for (size_t i = 0; i < q->nitems; i++)
    if (sql_has_aggregate(q->items[i].expr)) {
      *pos = q->items[i].expr->pos;
      return "an aggregate";
    }
  return NULL;
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
  struct branch *br = calloc(nb + 1, sizeof *br);
  struct sql_plan_node **at = calloc(nb + 1, sizeof *at);
  struct sql_qplan *qp = NULL;
  int ncommitted = 0;
  struct chv_buf done_text;
  chv_buf_init(&done_text);
  struct sql_plan_node *saved = s->plan_at;
  int rc = CHV_OK;
  if (!br || !at) {
    rc = sql_err(err, CHV_ENOMEM, "out of memory");
    goto out;
  }
  if ((rc = sql_qplan_open(&qp, err)) != CHV_OK) goto out;
  /* The plan's tree goes under its own node, the branches' targets' nodes
  ** first (sql_insert_open() makes them there). */
  struct sql_plan_node *root = sql_plan_node(
      s, NULL, "Multi-insert: %zu target%s from one scan", nb,
      nb == 1 ? "" : "s");
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
    sql_insert_target(s, &br[i].ins, &br[i].tg);
    at[i] = br[i].ins.node;
  }
  s->plan_at = saved;
  /* One plan: the source read once, each batch to every branch (docs/
  ** plan.md, Multi); it ends when each branch's LIMIT is reached, or at the
  ** source's end. */
  struct sql_target *tgs = calloc(nb + 1, sizeof *tgs);
  if (!tgs) {
    rc = sql_err(err, CHV_ENOMEM, "out of memory");
    goto out;
  }
  for (size_t i = 0; i < nb; i++) tgs[i] = br[i].tg;
  rc = sql_multi_build(s, st, tgs, at, qp, pos, err);
  if (rc == CHV_OK) { /* the Multi's line is made above: its scan goes under it */
    s->plan_at = root;
    rc = sql_qplan_run(s, qp, st->pos, explain, pos, err);
    s->plan_at = saved;
  }
  for (size_t i = 0; i < nb; i++) br[i].ins.written = tgs[i].written;
  free(tgs);
  if (rc != CHV_OK || explain) goto out;
  /* Every branch wrote all its rows: commit each target in turn (a cancel
  ** counts until the first commit begins, then the commits run to the
  ** end, so that a cancel never splits them). */
  int64_t total = 0;
  rc = sql_cancelled(s, err);
  if (rc != CHV_OK) goto out;
  for (size_t i = 0; i < nb; i++) {
    *pos = br[i].st->name.pos;
    int64_t t0 = analyze ? sql_plan_now() : 0;
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
  sql_qplan_close(qp);
  for (size_t i = 0; br && i < nb; i++)
    sql_insert_close(&br[i].ins); /* an uncommitted write is discarded */
  free(br);
  free(at);
  chv_buf_free(&done_text);
  return rc;
}
