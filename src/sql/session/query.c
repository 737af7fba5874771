/*
** sql/session/query: a query from its text to its rows.  The plan is built
** (build.c), rewritten and made physical (sql/plan), run as a tree of
** operators (sql/exec/op.h) and its rows handed to the statement's
** consumer as they come, or written to a target through a Sink; EXPLAIN
** prints the plan, EXPLAIN ANALYZE runs it and prints it with what each
** operator counted.
**
**   build -> rewrite -> physical -> sql_exec_build -> open/next... -> free
**
** INTERFACE
**   sql_exec_query()        SELECT and EXPLAIN SELECT
**   sql_query_run()         a query's rows into a target (INSERT, a
**                           directory, a relation)
**   sql_query_schema()      a query's columns, nothing read
**   sql_query_scalar()      an uncorrelated scalar sub-query's value, now
**   sql_query_rows()        an uncorrelated IN sub-query's values, or
**                           whether an EXISTS sub-query gives a row, now
**   sql_query_hold()        a WITH query's rows, now, to be read again
*/
#include "sql/session/session_int.h"
#include "sql/exec/op.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- the passes' callbacks ----------------------------------------------------- */

/* A constant expression evaluated over one row of nothing, as a literal. */
static int fold_const(void *ctx, chv_arena *a, const struct chv_expr *e,
                      struct chv_expr **out) {
  (void)ctx;
  if (!chv_type_is_primitive(e->type->id)) return CHV_ENOTSUP;
  struct chv_error err;
  struct chv_vector *v = NULL;
  struct chv_batch one = {.nrows = 1};
  int rc = chv_vector_open(e->type, 1, &v, &err);
  if (rc == CHV_OK) rc = chv_expr_eval(e, &one, NULL, 1, v, &err);
  if (rc == CHV_OK) {
    struct chv_value x;
    chv_func_get_value(v, 0, &x);
    rc = chv_expr_literal(a, e->type, &x, out, &err);
  }
  chv_vector_close(v);
  return rc;
}

static int scan_threads(void *ctx, const struct sql_node *scan) {
  struct sql_session *s = ctx;
  struct chv_scan_options so;
  sql_scan_node_options(scan, NULL, &so);
  so.cfg = s->cfg;
  return sql_scan_threads(s, scan->u.scan.cat, scan->u.scan.t, &so);
}

/* The rows of a scan's table as its source reports them (numRows of the
** partitions its filter keeps, else their files' footers); where that is
** unknown (text files without numRows), the table's totalSize / 100; or
** 0: unknown. */
static double scan_rows(void *ctx, const struct sql_node *scan) {
  struct sql_session *s = ctx;
  const struct chv_table *t = scan->u.scan.t;
  struct chv_scan_options so;
  sql_scan_node_options(scan, NULL, &so);
  so.cfg = s->cfg;
  double known = sql_scan_rows(s, scan->u.scan.cat, t, &so);
  if (known > 0) return known;
  struct chv_stats st;
  chv_stats_from_params(t->params, t->nparams, &st);
  return st.total_size > 0 ? (double)st.total_size / 100 : 0;
}

/* The distinct counts the metastore keeps of a scan's columns (ANALYZE
** ... FOR COLUMNS; a partitioned table's merged over its partitions), 0
** where it keeps none. */
static void scan_ndv(void *ctx, const struct sql_node *scan, double *ndv,
                     double *lo, double *hi) {
  (void)ctx;
  const struct chv_table *t = scan->u.scan.t;
  for (int c = 0; c < scan->ncols; c++) ndv[c] = 0, lo[c] = hi[c] = NAN;
  if (!t->name || !scan->u.scan.cat) return;
  struct chv_column_stats *v = NULL;
  int n = 0;
  struct chv_error err;
  if (chv_catalog_column_stats(scan->u.scan.cat, t->db, t->name, NULL, NULL, 0,
                               &v, &n, &err) != CHV_OK)
    return;
  for (int i = 0; i < n; i++)
    for (int c = 0; c < scan->ncols; c++) {
      if (strcasecmp(v[i].column, scan->u.scan.columns[c])) continue;
      if (v[i].num_distincts > 0) ndv[c] = (double)v[i].num_distincts;
      if (!v[i].has_low_high) continue;
      switch (v[i].kind) { /* the bounds a range's share is taken of */
      case CHV_COLSTATS_LONG:
      case CHV_COLSTATS_DATE:
        lo[c] = (double)v[i].long_low, hi[c] = (double)v[i].long_high;
        break;
      case CHV_COLSTATS_DOUBLE:
        lo[c] = v[i].double_low, hi[c] = v[i].double_high;
        break;
      case CHV_COLSTATS_DECIMAL:
        if (v[i].decimal_low && v[i].decimal_high)
          lo[c] = strtod(v[i].decimal_low, NULL),
          hi[c] = strtod(v[i].decimal_high, NULL);
        break;
      default:
        break;
      }
    }
  chv_column_stats_free(v, n);
}

static bool shared_sink(void *ctx, const struct sql_node *sink) {
  (void)ctx;
  const struct sql_target *tg = sink->u.sink.target;
  return tg->sink && !tg->dir;
}

static int sink_write(void *target, struct chv_batch *b, int64_t n,
                      struct chv_error *err) {
  return sql_target_write(target, b, n, err);
}

static int sink_write_shared(void *target, const struct chv_batch *b,
                             struct chv_error *err) {
  return sql_target_write_shared(target, b, err);
}

static const struct sql_sink_ops sink_ops = {sink_write, sink_write_shared};

/* chive.exec.operator-memory: the bytes each operator may hold. */
int sql_operator_memory(struct sql_session *s, size_t *out,
                        struct chv_error *err) {
  struct chv_opt_value v;
  chv_opt_value_init(&v);
  int rc = chv_config_get(s->cfg, "chive.exec.operator-memory", &v, err);
  if (rc == CHV_OK) *out = (size_t)v.bytes;
  chv_opt_value_free(&v);
  return rc;
}

/* The plan of qp rewritten and made physical; run false: only explained
** (no threads). */
static int finish_plan(struct sql_session *s, struct sql_qplan *qp, bool run,
                       struct chv_error *err) {
  struct sql_rewrite rw = {qp->a, fold_const, s, scan_threads, s,
                           shared_sink, scan_rows, scan_ndv, err, false};
  struct chv_opt_value v;
  chv_opt_value_init(&v);
  int rc = chv_config_get(s->cfg, "table.optimizer.dynamic-filtering.enabled",
                          &v, err);
  rw.dynamic_filtering = v.b;
  chv_opt_value_free(&v);
  CHV_RETURN_IF_ERR(rc);
  CHV_RETURN_IF_ERR(sql_rewrite(&rw, &qp->root));
  if (!run) rw.threads = NULL;
  return sql_physical(&rw, qp->root);
}

/* The plan of q into qp: built (ins: its rows go there, through a Sink),
** rewritten, and made physical; run false: only explained (no threads). */
static int plan_query(struct sql_session *s, const struct chv_sql_query *q,
                      struct chv_sql_pos stpos, struct sql_target *ins,
                      bool run, struct sql_qplan *qp, struct chv_sql_pos *pos,
                      struct chv_error *err) {
  CHV_RETURN_IF_ERR(sql_query_build(s, q, stpos, ins, qp, pos, err));
  if (ins) {
    struct sql_node *sk;
    CHV_RETURN_IF_ERR(
        sql_node_new(qp->a, SQL_NODE_SINK, &qp->root, 1, &sk, err));
    CHV_RETURN_IF_ERR(sql_node_pass_cols(qp->a, sk, err));
    sk->u.sink.target = ins;
    sk->u.sink.schema = ins->schema;
    qp->root = sk;
  }
  *pos = stpos;
  return finish_plan(s, qp, run, err);
}

/* ---- EXPLAIN --------------------------------------------------------------------- */

/* What the scan's columnar files hold and the predicates skip (row groups,
** ORC stripes): a scan of no columns reads the footers (and the row
** indexes the predicates need) and nothing else.  false: not columnar, or
** the scan failed. */
static bool count_row_groups(chv_catalog *cat, const struct chv_table *t,
                             const struct chv_scan_options *base,
                             struct chv_scan_stats *out) {
  if (!sql_table_columnar(t)) return false;
  struct chv_scan_options so = *base;
  static const char *const none[1] = {NULL};
  so.columns = none;
  so.ncolumns = 0;
  so.limit = -1;
  so.hook = NULL; /* the query's stage is for the query's scan */
  so.bound = NULL;
  chv_scan *sc;
  struct chv_error e;
  if (chv_scan_open(cat, t->db, t->name, &so, &sc, &e) != CHV_OK) return false;
  struct chv_batch *b;
  int rc;
  while ((rc = chv_scan_next(sc, &b, &e)) == CHV_OK && b) {
  }
  chv_scan_stats(sc, out);
  chv_scan_close(sc);
  return rc == CHV_OK;
}


/* What the Scan node n says: partitions read/total, the scan's columns,
** the pushed limit, the partition predicate, the predicates pushed into
** the readers, what they leave of the row groups (and ORC stripes), the
** hint's options; under it the source's statistics and parallelism.
** Under EXPLAIN ANALYZE (the scan ended) also what it read. */
static void scan_explain(struct sql_session *s, struct sql_plan_node *n,
                         chv_catalog *cat, const struct chv_table *t,
                         chv_scan *scan, const struct chv_scan_options *so,
                         const char *const *scols, int nscols,
                         const char *where, const char *sample,
                         bool analyze) {
  if (n && !scan) /* a scan its join never opened (dynamic filtering) */
    sql_plan_text(n, "Scan %s.%s: not read", t->db, t->name);
  if (!n || !scan) return;
  int64_t limit = so->limit;
  struct chv_buf line;
  chv_buf_init(&line);
  struct chv_scan_stats ss = {0};
  if (analyze) chv_scan_stop(scan); /* the reads of a scan a LIMIT ended */
  chv_scan_stats(scan, &ss);
  chv_buf_printf(&line, "Scan %s.%s: partitions=%lld/%lld columns=[", t->db,
                 t->name, (long long)ss.partitions_read,
                 (long long)ss.partitions_total);
  for (int c = 0; c < nscols; c++) {
    if (c) chv_buf_puts(&line, ", ");
    chv_buf_puts(&line, scols[c]);
  }
  chv_buf_putc(&line, ']');
  if (limit >= 0) chv_buf_printf(&line, " limit=%lld", (long long)limit);
  if (sample)
    chv_buf_printf(&line, " sample=[%s: %lld of %lld split%s]", sample,
                   (long long)ss.splits_total, (long long)ss.splits_planned,
                   ss.splits_planned == 1 ? "" : "s");
  if (where && *where) chv_buf_printf(&line, " partition_filter=%s", where);
  for (int i = 0; i < so->npreds; i++) {
    static const char *const ops[] = {"=", "<>", "<", "<=", ">", ">=",
                                      "IS NULL", "IS NOT NULL"};
    const struct chv_pred *p = &so->preds[i];
    chv_buf_puts(&line, i ? ", " : " pushed=[");
    chv_buf_printf(&line, "%s %s", p->column, ops[p->op]);
    if (p->value) chv_buf_printf(&line, " '%s'", p->value);
    if (i + 1 == so->npreds) chv_buf_putc(&line, ']');
  }
  struct chv_scan_stats cs;
  if (!analyze && count_row_groups(cat, t, so, &cs)) {
    if (cs.stripes > 0)
      chv_buf_printf(&line, " stripes=%lld/%lld",
                     (long long)(cs.stripes - cs.stripes_skipped),
                     (long long)cs.stripes);
    chv_buf_printf(&line, " row_groups=%lld/%lld",
                   (long long)(cs.row_groups - cs.row_groups_skipped),
                   (long long)cs.row_groups);
  }
  if (so->ntable_options) {
    chv_buf_putc(&line, ' ');
    sql_hint_text(so->table_options, so->ntable_options, &line);
  }
  sql_plan_text(n, "%s", line.data ? line.data : "");
  chv_buf_reset(&line); /* what its source reports */
  sql_explain_stats(s, cat, t, so, &line);
  sql_plan_detail(n, "%s", line.data ? line.data : "");
  if (analyze) {
    chv_buf_reset(&line);
    chv_buf_printf(&line, "Read: files=%lld", (long long)ss.files_read);
    if (ss.stripes > 0)
      chv_buf_printf(&line, " stripes=%lld/%lld (%lld skipped)",
                     (long long)(ss.stripes - ss.stripes_skipped),
                     (long long)ss.stripes, (long long)ss.stripes_skipped);
    if (sql_table_columnar(t))
      chv_buf_printf(&line, " row_groups=%lld/%lld (%lld skipped)",
                     (long long)(ss.row_groups - ss.row_groups_skipped),
                     (long long)ss.row_groups,
                     (long long)ss.row_groups_skipped);
    chv_buf_printf(&line, " bytes=%lld threads=%d", (long long)ss.bytes_read,
                   so->threads > 1 ? so->threads : 1);
    sql_plan_detail(n, "%s", line.data);
  }
  chv_buf_free(&line);
}


/* The dynamic filter a join gives scan nd: its columns (partition keys
** pruned, data columns' row groups skipped) and the join's keys; under
** EXPLAIN ANALYZE what the build keys were. */
static void dynamic_explain(struct sql_plan_node *pn, const struct sql_node *nd,
                            const struct sql_op *op, bool analyze) {
  const struct sql_node *j = nd->u.scan.dyn_join;
  if (!pn || !j) return;
  struct chv_buf b;
  chv_buf_init(&b);
  for (int k = 0; k < j->u.join.nkeys; k++) {
    if (!j->u.join.dyn_cols[k]) continue;
    chv_buf_printf(&b, "%s%s (%s)", b.len ? ", " : "", j->u.join.dyn_cols[k],
                   j->u.join.dyn_part[k] ? "partitions"
                   : sql_table_columnar(nd->u.scan.t) ? "row groups"
                                                      : "rows");
  }
  const char *got = analyze ? sql_op_scan_dynamic(op) : NULL;
  sql_plan_detail(pn, "Dynamic filter: %s from the build keys of the join on "
                  "[%s]%s%s", b.data ? b.data : "",
                  j->u.join.keys_text ? j->u.join.keys_text : "",
                  got ? ": " : "", got ? got : "");
  chv_buf_free(&b);
}

static void explain_node(struct sql_session *s, struct sql_plan_node *parent,
                         const struct sql_node *nd, struct sql_exec *x,
                         bool analyze);

static void explain_children(struct sql_session *s, struct sql_plan_node *pn,
                             const struct sql_node *nd, struct sql_exec *x,
                             bool analyze) {
  for (int i = 0; i < nd->nin; i++) explain_node(s, pn, nd->in[i], x, analyze);
}

static void explain_node(struct sql_session *s, struct sql_plan_node *parent,
                         const struct sql_node *nd, struct sql_exec *x,
                         bool analyze) {
  struct sql_op *op = x && x->ops ? x->ops[nd->id] : NULL;
  struct sql_plan_node *pn = NULL;
  switch (nd->kind) {
  case SQL_NODE_SINK: /* the target's own node is there already */
    explain_children(s, nd->u.sink.at ? nd->u.sink.at : parent, nd, x,
                     analyze);
    return;
  case SQL_NODE_TEE: /* the Multi's source, shown once under it */
    return;
  case SQL_NODE_MULTI: /* its line and its targets' are made already */
    explain_children(s, parent, nd, x, analyze);
    return;
  case SQL_NODE_LIMIT:
    if (nd->u.limit.n < 0)
      pn = sql_plan_node(s, parent, "Offset: %lld",
                         (long long)nd->u.limit.offset);
    else if (nd->u.limit.offset)
      pn = sql_plan_node(s, parent, "Limit: %lld offset=%lld",
                         (long long)nd->u.limit.n,
                         (long long)nd->u.limit.offset);
    else
      pn = sql_plan_node(s, parent, "Limit: %lld", (long long)nd->u.limit.n);
    break;
  case SQL_NODE_SORT:
    pn = sql_plan_node(s, parent, "Sort: %s", nd->u.sort.keys_text);
    break;
  case SQL_NODE_TOPN:
    pn = sql_plan_node(s, parent, "TopN: %lld by %s",
                       (long long)nd->u.sort.limit, nd->u.sort.keys_text);
    break;
  case SQL_NODE_PROJECT:
    pn = sql_plan_node(s, parent, "Project: [%s]", nd->text ? nd->text : "");
    break;
  case SQL_NODE_FILTER:
    pn = sql_plan_node(s, parent, "Filter: %s", nd->text ? nd->text : "");
    break;
  case SQL_NODE_AGGREGATE:
    if (nd->u.agg.distinct) {
      pn = sql_plan_node(s, parent, "Distinct: [%s]", nd->u.agg.keys_text);
    } else {
      int nk = nd->u.agg.nkeys, na = nd->u.agg.naggs;
      pn = sql_plan_node(s, parent, "Aggregate:%s%s%s%s%s%s",
                         nk ? " keys=[" : "", nk ? nd->u.agg.keys_text : "",
                         nk ? "]" : "", na ? " aggregates=[" : "",
                         na ? nd->u.agg.aggs_text : "", na ? "]" : "");
    }
    break;
  case SQL_NODE_VALUES:
    if (nd->u.values.rows) /* a WITH query's rows, held */
      pn = sql_plan_node(s, parent, "Values: %lld row%s of %s, held for each "
                         "of its references", (long long)nd->u.values.nrows,
                         nd->u.values.nrows == 1 ? "" : "s", nd->text);
    else
      pn = sql_plan_node(s, parent, "Values: %lld row%s",
                         (long long)nd->u.values.nrows,
                         nd->u.values.nrows == 1 ? "" : "s");
    break;
  case SQL_NODE_UNION:
    pn = sql_plan_node(s, parent, "Union All");
    break;
  case SQL_NODE_JOIN: {
    static const char *const kinds[] = {"Inner", "Left Outer", "Right Outer",
                                        "Full Outer", "Cross", "Left Semi",
                                        "Left Anti", "Left Anti (NOT IN)"};
    const char *kt = nd->u.join.keys_text, *ct = nd->u.join.cond_text;
    pn = sql_plan_node(s, parent, "Hash Join %s:%s%s%s%s%s", kinds[nd->u.join.kind],
                       kt ? " keys=[" : "", kt ? kt : "", kt ? "]" : "",
                       ct ? " condition=" : "", ct ? ct : "");
    sql_plan_detail(pn, "build=%s (est. %.0f rows) probe=%s (est. %.0f rows)%s",
                    nd->u.join.build_left ? "left" : "right",
                    nd->u.join.est[nd->u.join.build_left ? 0 : 1],
                    nd->u.join.build_left ? "right" : "left",
                    nd->u.join.est[nd->u.join.build_left ? 1 : 0],
                    nd->u.join.staged ? " on the reader threads" : "");
    if (analyze && op && op->table_threads > 1)
      sql_plan_detail(pn, "table: made in %d parts on %d thread%s",
                      op->table_parts, op->table_threads,
                      op->table_threads == 1 ? "" : "s");
    break;
  }
  case SQL_NODE_REPEAT:
    pn = sql_plan_node(s, parent, "Repeat: each row by %s", nd->text);
    break;
  case SQL_NODE_EXPAND:
    pn = sql_plan_node(s, parent, "Expand: sets=[%s]", nd->text);
    break;
  case SQL_NODE_WINDOW:
    if (nd->u.window.limit >= 0)
      pn = sql_plan_node(s, parent, "Window: [%s] by %s, the first %lld of "
                         "each partition", nd->text,
                         nd->u.window.nkeys ? nd->u.window.keys_text : "()",
                         (long long)nd->u.window.limit);
    else
      pn = sql_plan_node(s, parent, "Window: [%s] by %s", nd->text,
                         nd->u.window.nkeys ? nd->u.window.keys_text : "()");
    break;
  case SQL_NODE_DERIVED: {
    struct chv_buf b;
    chv_buf_init(&b);
    for (int c = 0; c < nd->ncols; c++)
      chv_buf_printf(&b, "%s%s", c ? ", " : "", nd->cols[c].name);
    pn = sql_plan_node(s, parent, "Scan %s: columns=[%s]", nd->u.derived.what,
                       b.data ? b.data : "");
    chv_buf_free(&b);
    break;
  }
  case SQL_NODE_SCAN: {
    pn = sql_plan_node(s, parent, "%s", "");
    struct chv_scan_options so;
    sql_scan_node_options(nd, x, &so);
    scan_explain(s, pn, nd->u.scan.cat, nd->u.scan.t, sql_op_scan(op), &so,
                 nd->u.scan.columns, nd->ncols, nd->u.scan.filter_text,
                 nd->u.scan.sample_text, analyze);
    dynamic_explain(pn, nd, op, analyze);
    break;
  }
  default:
    pn = sql_plan_node(s, parent, "%s", sql_node_kind_name(nd->kind));
  }
  if (analyze && op) sql_plan_count(pn, op->rows, op->ns);
  if (analyze && op && op->spill_files)
    sql_plan_spill(pn, op->spill_bytes, op->spill_files);
  explain_children(s, pn, nd, x, analyze);
}

/* ---- running ------------------------------------------------------------------- */

/* The place an error of the run points to: the node whose operator failed
** when it says (a sort's ORDER BY, a literal of the WHERE a scan could not
** convert), else the statement. */
static void run_pos(const struct sql_exec *x, int rc, struct chv_sql_pos stpos,
                    struct chv_sql_pos *pos) {
  *pos = stpos;
  const struct sql_node *nd = x->failed ? x->failed->node : NULL;
  if (!nd || !nd->pos.line) return;
  if (nd->kind == SQL_NODE_SCAN && rc != CHV_ETYPE && !nd->u.scan.pos_any)
    return;
  *pos = nd->pos;
}

/* Runs the plan of qp: its rows to the consumer (a query), or written by
** its Sink.  EXPLAIN (explain) opens it only, to say what its scans would
** read; EXPLAIN ANALYZE runs it and counts. */
static int run_plan(struct sql_session *s, struct sql_qplan *qp,
                    struct chv_sql_pos stpos, bool explain,
                    struct chv_sql_pos *pos, struct chv_error *err) {
  bool analyze = sql_plan_analyze(s);
  struct sql_exec x = {.cancel = &s->cancel, .analyze = analyze,
                       .explain = explain,
                       .cfg = s->cfg, .progress = sql_scan_progress,
                       .progress_ctx = s, .sink = &sink_ops};
  struct sql_result r;
  sql_result_init(&r);
  struct sql_op *root = NULL;
  int rc = sql_operator_memory(s, &x.memory, err);
  if (rc == CHV_OK) rc = sql_exec_build(&x, qp->root, &root, err);
  if (rc == CHV_OK) rc = sql_op_open(root, err);
  if (rc != CHV_OK || explain) goto out;
  const struct sql_node *nd = qp->root;
  bool rows = nd->kind != SQL_NODE_SINK && nd->kind != SQL_NODE_MULTI;
  if (rows) {
    const char **heads = chv_arena_alloc(qp->a, sizeof *heads * (size_t)(nd->ncols + 1));
    const struct chv_type **ty = chv_arena_alloc(qp->a, sizeof *ty * (size_t)(nd->ncols + 1));
    if (!heads || !ty) {
      rc = sql_err(err, CHV_ENOMEM, "out of memory");
      goto out;
    }
    for (int c = 0; c < nd->ncols; c++) {
      heads[c] = nd->cols[c].name;
      ty[c] = nd->cols[c].type;
    }
    rc = sql_result_typed(s, &r, nd->ncols, heads, ty, err);
  }
  while (rc == CHV_OK) {
    struct sql_chunk ch;
    rc = sql_op_next(root, &ch, err);
    if (rc != CHV_OK || !ch.b) break;
    rc = sql_result_rows(&r, (const struct chv_vector *const *)ch.b->cols,
                         ch.sel, ch.n, err);
  }
  if (rc == CHV_OK && rows) rc = sql_result_emit(s, &r, err);
out:
  if (rc != CHV_OK) {
    run_pos(&x, rc, stpos, pos);
  } else if (s->plan && (explain || analyze)) {
    explain_node(s, NULL, qp->root, &x, analyze);
  }
  sql_result_free(&r);
  sql_exec_free(&x);
  return rc;
}

int sql_qplan_run(struct sql_session *s, struct sql_qplan *qp,
                  struct chv_sql_pos stpos, bool explain,
                  struct chv_sql_pos *pos, struct chv_error *err) {
  *pos = stpos;
  CHV_RETURN_IF_ERR(finish_plan(s, qp, !explain, err));
  return run_plan(s, qp, stpos, explain, pos, err);
}

int sql_query_run(struct sql_session *s, const struct chv_sql_query *q,
                  struct chv_sql_pos stpos, bool explain,
                  struct sql_target *ins, struct chv_sql_pos *pos,
                  struct chv_error *err) {
  struct sql_qplan *qp;
  CHV_RETURN_IF_ERR(sql_qplan_open(&qp, err));
  int rc = plan_query(s, q, stpos, ins, !explain, qp, pos, err);
  if (rc == CHV_OK) rc = run_plan(s, qp, stpos, explain, pos, err);
  sql_qplan_close(qp);
  return rc;
}

int sql_exec_query(struct sql_session *s, const struct chv_sql_stmt *st,
                   bool explain, struct chv_sql_pos *pos,
                   struct chv_error *err) {
  return sql_query_run(s, st->query, st->pos, explain, NULL, pos, err);
}

int sql_query_schema(struct sql_session *s, const struct chv_sql_query *q,
                     struct chv_type **out, struct chv_sql_pos *pos,
                     struct chv_error *err) {
  struct sql_qplan *qp;
  CHV_RETURN_IF_ERR(sql_qplan_open(&qp, err));
  int rc = sql_query_build(s, q, q->pos, NULL, qp, pos, err);
  if (rc == CHV_OK && (rc = sql_node_columns(qp->root, out, err)) != CHV_OK)
    *pos = q->pos;
  sql_qplan_close(qp);
  return rc;
}

int sql_query_into_dir(struct sql_session *s, const struct chv_sql_query *q,
                       struct chv_sql_pos stpos, bool explain,
                       struct sql_dir *d, const struct chv_type *schema,
                       struct sql_plan_node *node, int64_t *written,
                       struct chv_sql_pos *pos, struct chv_error *err) {
  struct sql_target tg = {.dir = d, .schema = schema};
  if (sql_plan_analyze(s)) tg.node = node;
  struct sql_plan_node *saved = s->plan_at;
  if (node) s->plan_at = node;
  int rc = sql_query_run(s, q, stpos, explain, &tg, pos, err);
  s->plan_at = saved;
  *written = tg.written;
  return rc;
}

/* A query run while its statement is planned (a sub-query's value, a WITH
** query's rows): its plan, its operators and where it starts. */
struct sql_now {
  struct sql_qplan *qp;
  struct sql_exec x;
  struct sql_op *root;
  struct chv_sql_pos at;
};

/* The plan of q into n (n->qp->root), not yet finished. */
static int now_build(struct sql_session *s, const struct chv_sql_query *q,
                     struct sql_now *n, struct chv_sql_pos *pos,
                     struct chv_error *err) {
  *n = (struct sql_now){.x = {.cancel = &s->cancel, .cfg = s->cfg},
                        .at = q->pos};
  CHV_RETURN_IF_ERR(sql_qplan_open(&n->qp, err));
  return sql_query_build(s, q, n->at, NULL, n->qp, pos, err);
}

/* n's operators, with the operator memory, built and opened. */
static int now_start(struct sql_session *s, struct sql_now *n,
                     struct chv_error *err) {
  CHV_RETURN_IF_ERR(sql_operator_memory(s, &n->x.memory, err));
  CHV_RETURN_IF_ERR(sql_exec_build(&n->x, n->qp->root, &n->root, err));
  return sql_op_open(n->root, err);
}

/* Frees n; rc, with *pos at the operator that failed. */
static int now_end(struct sql_now *n, int rc, struct chv_sql_pos *pos) {
  if (rc != CHV_OK && n->x.failed) run_pos(&n->x, rc, n->at, pos);
  sql_exec_free(&n->x);
  sql_qplan_close(n->qp);
  return rc;
}

int sql_query_scalar(struct sql_session *s, const struct chv_sql_query *q,
                     chv_arena *a, struct chv_expr **out,
                     struct chv_sql_pos *pos, struct chv_error *err) {
  struct sql_now n;
  int64_t rows = 0;
  struct chv_value v = {.is_null = true};
  struct chv_vector *keep = NULL;
  const struct chv_type *ty = NULL;
  int rc = now_build(s, q, &n, pos, err);
  if (rc == CHV_OK && n.qp->root->ncols != 1) {
    *pos = n.at;
    rc = sql_err(err, CHV_EINVAL, "a scalar sub-query gives one column, not "
                 "%d", n.qp->root->ncols);
  }
  if (rc == CHV_OK) rc = finish_plan(s, n.qp, true, err);
  if (rc == CHV_OK) {
    const struct chv_type *t = n.qp->root->cols[0].type;
    if (!chv_type_is_primitive(t->id)) {
      *pos = n.at;
      rc = sql_err(err, CHV_ENOTSUP,
                   "a scalar sub-query of a nested type is not supported yet");
    } else if (!(ty = chv_exec_type(a, t->id, t->id == CHV_TYPE_DECIMAL
                                                  ? t->precision : t->length,
                                    t->scale))) {
      rc = sql_err(err, CHV_ENOMEM, "out of memory");
    }
  }
  if (rc == CHV_OK) rc = chv_vector_open(ty, 1, &keep, err);
  if (rc == CHV_OK) rc = now_start(s, &n, err);
  while (rc == CHV_OK) {
    struct sql_chunk ch;
    rc = sql_op_next(n.root, &ch, err);
    if (rc != CHV_OK || !ch.b) break;
    if (ch.n && !rows)
      rc = chv_vector_append_from(keep, ch.b->cols[0],
                                  ch.sel ? ch.sel[0] : 0, err);
    rows += ch.n;
    if (rows > 1) {
      *pos = n.at;
      rc = sql_err(err, CHV_EINVAL,
                   "a scalar sub-query gives more than one row");
    }
  }
  if (rc == CHV_OK && rows) chv_func_get_value(keep, 0, &v);
  if (rc == CHV_OK) rc = chv_expr_literal(a, ty, &v, out, err);
  chv_vector_close(keep);
  return now_end(&n, rc, pos);
}

int sql_query_hold(struct sql_session *s, const struct chv_sql_query *q,
                   const struct sql_node *like, struct chv_batch **out,
                   struct chv_sql_pos *pos, struct chv_error *err) {
  struct sql_now n;
  struct chv_type *st = NULL;
  struct chv_batch *b = NULL;
  *out = NULL;
  int rc = now_build(s, q, &n, pos, err);
  /* the columns of the reference's plan, or nothing is held */
  bool fits = rc == CHV_OK && n.qp->root->ncols == like->ncols;
  for (int k = 0; fits && k < like->ncols; k++)
    fits = chv_type_equal(n.qp->root->cols[k].type, like->cols[k].type);
  if (rc == CHV_OK && fits) rc = finish_plan(s, n.qp, true, err);
  if (rc == CHV_OK && fits) rc = sql_node_schema(like, &st, err);
  if (rc == CHV_OK && fits) rc = chv_batch_open(st, 0, &b, err);
  if (rc == CHV_OK && fits) rc = now_start(s, &n, err);
  while (rc == CHV_OK && fits) {
    struct sql_chunk ch;
    rc = sql_op_next(n.root, &ch, err);
    if (rc != CHV_OK || !ch.b) break;
    for (int c = 0; rc == CHV_OK && c < b->ncols; c++)
      rc = chv_vector_append_rows(b->cols[c], ch.b->cols[c], ch.sel, 0, ch.n,
                                  err);
    b->nrows += ch.n;
    fits = !n.x.memory || chv_batch_bytes(b) <= n.x.memory;
  }
  rc = now_end(&n, rc, pos);
  if (rc == CHV_OK && fits) {
    *out = b;
    return CHV_OK;
  }
  chv_batch_close(b);
  chv_type_free(st);
  return rc;
}

int sql_query_rows(struct sql_session *s, const struct chv_sql_query *q,
                   chv_arena *a, bool exists, struct chv_vector **vals,
                   bool *any, struct chv_sql_pos *pos, struct chv_error *err) {
  struct sql_now n;
  struct chv_vector *keep = NULL;
  size_t bound = 0, held = 0, text = 0; /* text: the strings' bytes */
  bool found = false;
  int rc = now_build(s, q, &n, pos, err);
  if (rc == CHV_OK && !exists && n.qp->root->ncols != 1) {
    *pos = n.at;
    rc = sql_err(err, CHV_EINVAL,
                 "the sub-query of IN gives %d columns; it must give one",
                 n.qp->root->ncols);
  }
  if (rc == CHV_OK) rc = finish_plan(s, n.qp, true, err);
  if (rc == CHV_OK && !exists) {
    const struct chv_type *t = n.qp->root->cols[0].type;
    if (!chv_type_is_primitive(t->id)) {
      *pos = n.at;
      rc = sql_err(err, CHV_ENOTSUP,
                   "an IN sub-query of a nested type is not supported yet");
    } else {
      const struct chv_type *ty = chv_exec_type(
          a, t->id, t->id == CHV_TYPE_DECIMAL ? t->precision : t->length,
          t->scale);
      rc = ty ? chv_vector_open(ty, 1024, &keep, err)
              : sql_err(err, CHV_ENOMEM, "out of memory");
    }
  }
  if (rc == CHV_OK) rc = now_start(s, &n, err);
  bound = n.x.memory;
  while (rc == CHV_OK && !(exists && found)) {
    struct sql_chunk ch;
    rc = sql_op_next(n.root, &ch, err);
    if (rc != CHV_OK || !ch.b) break;
    found |= ch.n > 0;
    if (keep && ch.n) {
      int64_t was = keep->length;
      rc = chv_vector_append_rows(keep, ch.b->cols[0], ch.sel, 0, ch.n, err);
      for (int64_t i = was; rc == CHV_OK && i < keep->length &&
                            chv_type_is_string_like(keep->type->id);
           i++) {
        struct chv_value v;
        chv_func_get_value(keep, i, &v);
        text += (size_t)v.len;
      }
      held = (size_t)keep->length * 16 + text; /* a value and its slot */
    }
    if (rc == CHV_OK && bound && held > bound) {
      *pos = n.at;
      rc = sql_err(err, CHV_ENOMEM,
                   "the values of an IN sub-query exceed "
                   "chive.exec.operator-memory (%zu bytes)",
                   bound);
    }
  }
  if (rc == CHV_OK) {
    *any = found;
    if (vals) *vals = keep;
    keep = NULL;
  }
  chv_vector_close(keep);
  return now_end(&n, rc, pos);
}
