/*
** sql/session/dml: the statements of `chive sql` that move rows, but the
** query itself (build.c plans it, query.c runs it):
**   INSERT INTO|OVERWRITE t [PARTITION (...)] VALUES (...), ...: literals
**     converted to the column types (a value that does not fit is an error
**     naming the column), static partition values from the spec, dynamic
**     ones from the trailing values, written through one sink commit with
**     the session configuration;
**   INSERT INTO|OVERWRITE t [PARTITION (...)] SELECT ...: the target
**     opened (sql_insert_open()), the query's items cast to its columns
**     (sql_target_casts()) and its rows written by the plan's Sink
**     (sql_target_write(), _shared() from the reader threads), then one
**     commit;
**   LOAD DATA [LOCAL] INPATH ... [OVERWRITE] INTO TABLE t [PARTITION]:
**     the file (or the visible files of a folder) taken in through a sink;
**   filter strings (chv_source_filter_parse()) read as a SELECT's WHERE.
*/
#include "sql/session/session_int.h"

#include "chive/source.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- literals to column values ------------------------------------------- */

void sql_type_name(const struct chv_type *t, char *buf, size_t n) {
  struct chv_buf b;
  chv_buf_init(&b);
  if (chv_type_format(t, &b) == CHV_OK)
    snprintf(buf, n, "%s", b.data);
  else
    snprintf(buf, n, "?");
  chv_buf_free(&b);
}

bool sql_parse_int(const char *s, int64_t *out) {
  while (*s == ' ') s++;
  char *end;
  errno = 0;
  long long v = strtoll(s, &end, 10);
  if (end == s || errno) return false;
  while (*end == ' ') end++;
  if (*end) return false;
  *out = v;
  return true;
}

static bool parse_double(const char *s, double *out) {
  char *end;
  errno = 0;
  double v = strtod(s, &end);
  if (end == s) return false;
  while (*end == ' ') end++;
  if (*end) return false;
  *out = v;
  return true;
}

/* Appends literal e to v (the column named col), converted to v's type. */
static int append_literal(struct chv_vector *v, const struct chv_sql_expr *e,
                          const char *col, chv_arena *a, struct chv_sql_pos *pos,
                          struct chv_error *err) {
  *pos = e->pos;
  const char *text;
  int rc = sql_literal_text(e, a, &text, err);
  if (rc != CHV_OK) return rc;
  if (!text) return chv_vector_append_null(v, err);
  const struct chv_sql_expr *lit =
      e->kind == CHV_SQL_EXPR_UNARY ? e->u.unary.arg : e;
  enum chv_sql_lit_kind k = lit->u.lit.kind;
  size_t tlen = k == CHV_SQL_LIT_STRING ? lit->u.lit.value_len : strlen(text);
  char tn[128];
  sql_type_name(v->type, tn, sizeof tn);
  bool numeric = k == CHV_SQL_LIT_INTEGER || k == CHV_SQL_LIT_DECIMAL ||
                 k == CHV_SQL_LIT_DOUBLE;
  bool str = k == CHV_SQL_LIT_STRING;
#define MISFIT()                                                              \
  sql_err(err, CHV_ETYPE, "column %s (%s): value %s%s%s does not fit", col,  \
          tn, str ? "'" : "", text, str ? "'" : "")
  switch (v->type->id) {
  case CHV_TYPE_BOOLEAN: {
    bool b;
    if ((k == CHV_SQL_LIT_BOOLEAN || str) && !strcasecmp(text, "true"))
      b = true;
    else if ((k == CHV_SQL_LIT_BOOLEAN || str) && !strcasecmp(text, "false"))
      b = false;
    else
      return MISFIT();
    return chv_vector_append_value(v, &b, err);
  }
  case CHV_TYPE_TINYINT:
  case CHV_TYPE_SMALLINT:
  case CHV_TYPE_INT:
  case CHV_TYPE_BIGINT: {
    int64_t i;
    if (!(k == CHV_SQL_LIT_INTEGER || str) || !sql_parse_int(text, &i))
      return MISFIT();
    int64_t lo = v->type->id == CHV_TYPE_TINYINT    ? INT8_MIN
                 : v->type->id == CHV_TYPE_SMALLINT ? INT16_MIN
                 : v->type->id == CHV_TYPE_INT      ? INT32_MIN
                                                    : INT64_MIN;
    int64_t hi = v->type->id == CHV_TYPE_TINYINT    ? INT8_MAX
                 : v->type->id == CHV_TYPE_SMALLINT ? INT16_MAX
                 : v->type->id == CHV_TYPE_INT      ? INT32_MAX
                                                    : INT64_MAX;
    if (i < lo || i > hi) return MISFIT();
    int8_t i8 = (int8_t)i;
    int16_t i16 = (int16_t)i;
    int32_t i32 = (int32_t)i;
    const void *p = v->type->id == CHV_TYPE_TINYINT    ? (const void *)&i8
                    : v->type->id == CHV_TYPE_SMALLINT ? (const void *)&i16
                    : v->type->id == CHV_TYPE_INT      ? (const void *)&i32
                                                       : (const void *)&i;
    return chv_vector_append_value(v, p, err);
  }
  case CHV_TYPE_FLOAT:
  case CHV_TYPE_DOUBLE: {
    double d;
    if (!(numeric || str) || !parse_double(text, &d)) return MISFIT();
    if (v->type->id == CHV_TYPE_FLOAT) {
      float f = (float)d;
      if (isinf(f) && !isinf(d)) return MISFIT();
      return chv_vector_append_value(v, &f, err);
    }
    return chv_vector_append_value(v, &d, err);
  }
  case CHV_TYPE_DECIMAL: {
    chv_i128 d;
    if (!(numeric || str) ||
        chv_decimal_parse(text, tlen, v->type->precision, v->type->scale,
                          &d) != CHV_OK)
      return MISFIT();
    return chv_vector_append_value(v, &d, err);
  }
  case CHV_TYPE_STRING:
  case CHV_TYPE_VARCHAR:
  case CHV_TYPE_CHAR:
    return chv_vector_append_string(v, text, tlen, err);
  case CHV_TYPE_BINARY:
    if (!str) return MISFIT();
    return chv_vector_append_bytes(v, text, tlen, err);
  case CHV_TYPE_DATE: {
    int32_t d;
    if (!(str || k == CHV_SQL_LIT_DATE || k == CHV_SQL_LIT_TIMESTAMP) ||
        chv_date_parse(text, tlen, &d) != CHV_OK)
      return MISFIT();
    return chv_vector_append_value(v, &d, err);
  }
  case CHV_TYPE_TIMESTAMP: {
    struct chv_timestamp ts;
    if (!(str || k == CHV_SQL_LIT_DATE || k == CHV_SQL_LIT_TIMESTAMP) ||
        chv_timestamp_parse(text, tlen, &ts) != CHV_OK)
      return MISFIT();
    return chv_vector_append_value(v, &ts, err);
  }
  default:
    return sql_err(err, CHV_ENOTSUP,
                   "column %s (%s): values of nested types are not supported "
                   "yet", col, tn);
  }
#undef MISFIT
}

/* ---- INSERT ... VALUES ------------------------------------------------------ */

int sql_check_part_value(const struct chv_column *key,
                         const struct chv_sql_expr *e, chv_arena *a,
                         struct chv_sql_pos *pos, struct chv_error *err) {
  struct chv_type *t;
  int rc = chv_type_parse(key->type, &t, err);
  if (rc != CHV_OK) return rc;
  struct chv_vector *v;
  rc = chv_vector_open(t, 1, &v, err);
  if (rc == CHV_OK) {
    rc = append_literal(v, e, key->name, a, pos, err);
    chv_vector_close(v);
  }
  chv_type_free(t);
  return rc;
}

/* INSERT ... SELECT: where the rows go instead of the output.  With rel
** set (t and sink NULL), the rows are collected into a derived relation
** instead: the rows of a sub-query, WITH query or UNION.  A relation
** without a schema yet takes the query's column types and names; one with
** a schema (a later UNION branch) converts to it. */

/* The clock, read only under EXPLAIN ANALYZE (0 otherwise). */
static int64_t plan_clock(const struct sql_session *s) {
  return sql_plan_analyze(s) ? sql_plan_now() : 0;
}

/* The time since t0 (a plan_clock()), 0 when not measuring. */
static int64_t plan_since(int64_t t0) {
  return t0 ? sql_plan_now() - t0 : 0;
}

/* Rows and bytes written so far, to the session's progress callback. */
static void progress(struct sql_target *ins, bool done) {
  if (!ins->progress || done) return;
  struct chv_progress p = {.splits_done = -1, .splits_total = -1,
                           .rows = chv_sink_rows(ins->sink),
                           .bytes_written = chv_sink_bytes(ins->sink)};
  sql_out_progress(ins->progress, &p);
}

/* The STRUCT of t's data columns (the sink's schema, found without
** opening a sink: EXPLAIN writes nothing). */
static int table_schema(const struct chv_table *t, struct chv_type **out,
                        struct chv_error *err) {
  struct chv_type *st;
  int rc = chv_type_new(CHV_TYPE_STRUCT, &st);
  if (rc != CHV_OK) return sql_err(err, rc, "out of memory");
  for (int c = 0; rc == CHV_OK && c < t->ncols; c++) {
    struct chv_type *ct;
    rc = chv_type_parse(t->columns[c].type, &ct, err);
    if (rc == CHV_OK && (rc = chv_type_struct_add(st, t->columns[c].name,
                                                   ct)) != CHV_OK)
      sql_err(err, rc, "out of memory");
  }
  if (rc != CHV_OK) {
    chv_type_free(st);
    return rc;
  }
  *out = st;
  return CHV_OK;
}

int sql_insert_open(struct sql_session *s, const struct chv_sql_stmt *st,
                    bool explain, struct sql_insert *ins,
                    struct chv_sql_pos *pos, struct chv_error *err) {
  memset(ins, 0, sizeof *ins);
  if (st->ncolumns)
    return sql_err(err, CHV_ENOTSUP,
                   "INSERT with a column list is not supported yet");
  int rc = sql_get_table(s, &st->name, &ins->cat, &ins->t, err);
  if (rc != CHV_OK) return rc;
  struct chv_table *t = &ins->t;
  if (chv_arena_open(0, &ins->a) != CHV_OK)
    return sql_err(err, CHV_ENOMEM, "out of memory");
  /* The spec: static keys first, in key order; keys left out are dynamic. */
  if (st->partition.n && !t->npkeys) {
    *pos = st->partition.pos;
    return sql_err(err, CHV_EINVAL, "table %s.%s is not partitioned", t->db,
                   t->name);
  }
  ins->statics =
      chv_arena_alloc(ins->a, sizeof *ins->statics * (size_t)(t->npkeys + 1));
  if (!ins->statics) return sql_err(err, CHV_ENOMEM, "out of memory");
  struct chv_buf spec;
  chv_buf_init(&spec);
  bool dynamic_seen = false;
  for (size_t i = 0; i < st->partition.n; i++) {
    const struct chv_sql_part_kv *kv = &st->partition.items[i];
    *pos = kv->pos;
    if ((int)i >= t->npkeys) {
      rc = sql_err(err, CHV_EINVAL,
                   "'%s' is not a partition key of %s.%s, which has %d",
                   kv->key, t->db, t->name, t->npkeys);
      break;
    }
    if (strcasecmp(kv->key, t->pkeys[i].name)) {
      rc = sql_err(err, CHV_EINVAL,
                   "partition key %d of %s.%s is '%s', not '%s'", (int)i + 1,
                   t->db, t->name, t->pkeys[i].name, kv->key);
      break;
    }
    chv_buf_printf(&spec, "%s%s", i ? ", " : "", t->pkeys[i].name);
    if (kv->value) {
      if (dynamic_seen) {
        rc = sql_err(err, CHV_EINVAL,
                     "static partition key '%s' after a dynamic one", kv->key);
        break;
      }
      const char *text;
      rc = sql_check_part_value(&t->pkeys[i], kv->value, ins->a, pos, err);
      if (rc == CHV_OK) rc = sql_literal_text(kv->value, ins->a, &text, err);
      if (rc != CHV_OK) break;
      ins->statics[ins->nstatic++] = (char *)text;
      chv_buf_printf(&spec, "='%s'", text ? text : "NULL");
    } else {
      dynamic_seen = true;
    }
  }
  /* the target's OPTIONS hint: its options for this write */
  if (rc == CHV_OK) {
    char tn[512];
    snprintf(tn, sizeof tn, "%s.%s", t->db, t->name);
    rc = sql_hint_options(s, &st->options, tn, false, ins->a, &ins->options,
                          &ins->noptions, pos, err);
  }
  if (rc == CHV_OK &&
      (ins->node = sql_plan_node(s, NULL, "Insert %s %s.%s",
                                 st->overwrite ? "overwrite" : "into", t->db,
                                 t->name))) {
    if (spec.len) sql_plan_detail(ins->node, "partition=(%s)", spec.data);
    chv_buf_reset(&spec);
    sql_hint_text(ins->options, ins->noptions, &spec);
    if (spec.len) sql_plan_detail(ins->node, "%s", spec.data);
  }
  chv_buf_free(&spec);
  if (rc != CHV_OK) return rc;
  int ndyn = t->npkeys - ins->nstatic;
  *pos = st->pos;
  if (explain) {
    rc = table_schema(t, &ins->schema, err);
  } else {
    struct chv_sink_options so;
    chv_sink_options_init(&so);
    so.overwrite = st->overwrite;
    so.config = s->cfg;
    so.table_options = ins->options;
    so.ntable_options = ins->noptions;
    rc = chv_sink_open(ins->cat, t->db, t->name, &so, &ins->sink, err);
    if (rc == CHV_OK) {
      rc = chv_type_clone(chv_sink_schema(ins->sink), &ins->schema);
      if (rc != CHV_OK) sql_err(err, rc, "out of memory");
    }
  }
  for (int k = 0; rc == CHV_OK && k < ndyn; k++) {
    const struct chv_column *pk = &t->pkeys[ins->nstatic + k];
    struct chv_type *pt;
    rc = chv_type_parse(pk->type, &pt, err);
    if (rc == CHV_OK && (rc = chv_type_struct_add(ins->schema, pk->name,
                                                   pt)) != CHV_OK)
      sql_err(err, rc, "out of memory");
  }
  return rc;
}

void sql_insert_close(struct sql_insert *ins) {
  chv_type_free(ins->schema);
  chv_sink_close(ins->sink);
  chv_arena_close(ins->a);
  chv_table_free(&ins->t);
  memset(ins, 0, sizeof *ins);
}

/* The target of the rows of an INSERT into ins. */
static struct sql_target insert_target(struct sql_session *s,
                                       struct sql_insert *ins) {
  struct sql_target tg = {.t = &ins->t, .sink = ins->sink,
                          .schema = ins->schema, .nstatic = ins->nstatic,
                          .statics = ins->statics, .written = ins->written,
                          .progress = ins->sink ? s : NULL};
  if (sql_plan_analyze(s)) tg.node = ins->node;
  return tg;
}

void sql_insert_target(struct sql_session *s, struct sql_insert *ins,
                       struct sql_target *out) {
  *out = insert_target(s, ins);
}



int sql_exec_insert(struct sql_session *s, const struct chv_sql_stmt *st,
                    struct chv_sql_pos *pos, struct chv_error *err) {
  if (!st->query) return sql_err(err, CHV_EINVAL, "INSERT without rows");
  bool explain = s->plan && !sql_plan_analyze(s);
  bool from_query = st->query->kind != CHV_SQL_QUERY_VALUES;
  struct sql_insert ins;
  struct chv_batch *b = NULL;
  struct sql_plan_node *saved = s->plan_at;
  int rc = sql_insert_open(s, st, explain, &ins, pos, err);
  if (rc != CHV_OK) goto out;
  const struct chv_table *t = &ins.t;
  int ndyn = t->npkeys - ins.nstatic;
  const struct chv_sql_query *q = st->query;
  s->plan_at = ins.node ? ins.node : saved;
  if (from_query) {
    struct sql_target tg = insert_target(s, &ins);
    rc = sql_query_run(s, q, st->pos, explain, &tg, pos, err);
    progress(&tg, true);
    if (rc == CHV_OK && !explain) {
      int64_t t1 = plan_clock(s);
      rc = chv_sink_commit(ins.sink, err);
      if (tg.node) {
        sql_plan_count(tg.node, 0, plan_since(t1));
        sql_plan_detail(tg.node, "Commit: time=%.3f ms",
                        (double)plan_since(t1) / 1e6);
      }
    }
    if (rc == CHV_OK && !explain) {
      char msg[64];
      snprintf(msg, sizeof msg, "Inserted %lld row%s", (long long)tg.written,
               tg.written == 1 ? "" : "s");
      rc = sql_out_summary(s, "rows_written", tg.written, msg, err);
    }
    goto out;
  }
  struct sql_plan_node *nval =
      sql_plan_node(s, NULL, "Values: %zu row%s", q->nrows,
                    q->nrows == 1 ? "" : "s");
  int64_t t0 = plan_clock(s);
  rc = chv_batch_open(ins.schema, (int64_t)q->nrows, &b, err);
  if (rc != CHV_OK) goto out;
  int want = t->ncols + ndyn;
  for (size_t r = 0; r < q->nrows; r++) {
    if ((int)q->row_lens[r] != want) {
      *pos = q->row_lens[r] ? q->rows[r][0]->pos : q->pos;
      rc = sql_err(err, CHV_EINVAL,
                   "row %zu has %zu values but %s.%s takes %d (%d columns%s)",
                   r + 1, q->row_lens[r], t->db, t->name, want, t->ncols,
                   ndyn ? " and the dynamic partition keys" : "");
      goto out;
    }
    for (int c = 0; c < want; c++) {
      const char *col = c < t->ncols ? t->columns[c].name
                                     : t->pkeys[ins.nstatic + c - t->ncols].name;
      rc = append_literal(b->cols[c], q->rows[r][c], col, ins.a, pos, err);
      if (rc != CHV_OK) goto out;
    }
    b->nrows++;
  }
  *pos = st->pos;
  if (explain) goto out;
  sql_plan_count(sql_plan_analyze(s) ? nval : NULL, b->nrows, plan_since(t0));
  t0 = plan_clock(s);
  if (t->npkeys && ndyn)
    rc = chv_sink_write_dynamic(ins.sink, ins.nstatic, ins.statics, b, err);
  else
    rc = chv_sink_write(ins.sink, t->npkeys ? ins.statics : NULL, b, err);
  if (rc == CHV_OK) rc = chv_sink_commit(ins.sink, err);
  if (sql_plan_analyze(s)) sql_plan_count(ins.node, b->nrows, plan_since(t0));
  if (rc == CHV_OK) {
    char msg[64];
    snprintf(msg, sizeof msg, "Inserted %lld row%s", (long long)b->nrows,
             b->nrows == 1 ? "" : "s");
    rc = sql_out_summary(s, "rows_written", b->nrows, msg, err);
  }
out:
  s->plan_at = saved;
  chv_batch_close(b);
  sql_insert_close(&ins);
  return rc;
}

/* ---- SELECT / EXPLAIN ---------------------------------------------------------- */

/* An error at pos of the statement a filter string is parsed in (head, then
** the filter), told as a place in the filter: "column C of the condition:
** ..." ("line L, column C of the condition" past its first line).  A
** "line L, column C: " the message starts with is replaced. */
static int filter_error(struct chv_error *e, const struct chv_sql_pos *pos,
                        size_t head) {
  if (pos->line < 1 || (pos->line == 1 && pos->column <= (int)head))
    return e->code;
  const char *m = e->msg;
  if (!strncmp(m, "line ", 5) && strstr(m, ": ")) m = strstr(m, ": ") + 2;
  char rest[sizeof e->msg];
  snprintf(rest, sizeof rest, "%s", m);
  if (pos->line == 1)
    return chv_error_set(e, e->code, "column %d of the condition: %s",
                         pos->column - (int)head, rest);
  return chv_error_set(e, e->code, "line %d, column %d of the condition: %s",
                       pos->line, pos->column, rest);
}

/* The residual conjuncts of a filter string bound over t as a SELECT binds
** its WHERE (sql_exec_query()): each must name t's columns and be
** boolean.  Nothing is kept of the binding. */
static int filter_bind(const struct chv_table *t, chv_arena *a,
                       const struct chv_sql_expr *const *resid, size_t nresid,
                       struct chv_sql_pos *pos, struct chv_error *err) {
  struct sql_bind b;
  int rc = sql_bind_init(&b, t, NULL, a, pos, err);
  char what[512];
  b.what = sql_table_what(t, what, sizeof what);
  for (size_t i = 0; rc == CHV_OK && i < nresid; i++) {
    *pos = resid[i]->pos;
    if (sql_has_aggregate(resid[i])) {
      rc = sql_err(err, CHV_EINVAL, "an aggregate in a filter");
      break;
    }
    struct chv_expr *x;
    rc = sql_bind_expr(&b, resid[i], &x);
    if (rc == CHV_OK && x->type->id != CHV_TYPE_BOOLEAN) {
      char tn[64];
      sql_type_name(x->type, tn, sizeof tn);
      struct chv_buf text;
      chv_buf_init(&text);
      sql_expr_text(resid[i], &text);
      *pos = resid[i]->pos;
      rc = sql_err(err, CHV_ETYPE, "%s is of type %s, not boolean",
                   text.data ? text.data : "the condition", tn);
      chv_buf_free(&text);
    }
  }
  sql_bind_free(&b);
  return rc;
}

int chv_source_filter_parse(const struct chv_table *t, const char *filter,
                            chv_arena *a, struct chv_part_filter **partitions,
                            struct chv_pred **preds, int *npreds,
                            struct chv_error *err) {
  if (!t || !filter || !a || !partitions || !preds || !npreds)
    return chv_error_set(err, CHV_EINVAL,
                         "chv_source_filter_parse: a NULL argument");
  /* The condition is parsed as the WHERE of a statement; errors are told
  ** as places in the condition.  err may be NULL: e is the one worked on. */
  struct chv_error e;
  chv_error_clear(&e);
  static const char head[] = "SELECT 1 FROM t WHERE ";
  const size_t nhead = sizeof head - 1;
  size_t n = strlen(filter);
  char *sql = chv_arena_alloc(a, nhead + n + 1);
  if (sql == NULL) return chv_error_set(err, CHV_ENOMEM, "out of memory");
  memcpy(sql, head, nhead);
  memcpy(sql + nhead, filter, n + 1);
  struct chv_sql_script *script;
  struct chv_sql_pos pos = {0};
  int rc = chv_sql_parse_ex(sql, nhead + n, NULL, a, &script, &pos, &e);
  if (rc == CHV_ESYNTAX) {
    filter_error(&e, &pos, nhead);
    goto out;
  }
  if (rc != CHV_OK) goto out;
  const struct chv_sql_stmt *st = script->n == 1 ? script->stmts[0] : NULL;
  const struct chv_sql_query *q = st ? st->query : NULL;
  if (q == NULL || q->kind != CHV_SQL_QUERY_SELECT || q->where == NULL ||
      q->order_by || q->limit || q->group_by || q->group_elems ||
      q->having) {
    rc = sql_err(&e, CHV_EINVAL, "'%s' is not one condition", filter);
    goto out;
  }
  if (st->first_hint.line) {
    /* as a statement refuses one (sql_exec_stmt()): it would be ignored */
    pos = st->first_hint;
    rc = sql_err(&e, CHV_ENOTSUP, "hints (/*+ ... */) are not supported in "
                                  "a filter; write a plain comment /* ... */");
    filter_error(&e, &pos, nhead);
    goto out;
  }
  struct chv_part_filter *pf = NULL;
  const struct chv_sql_expr **resid;
  size_t nresid;
  struct chv_buf text;
  chv_buf_init(&text);
  rc = sql_where_split(t, a, q->where, &pf, &text, &resid, &nresid, &pos, &e);
  chv_buf_free(&text);
  if (rc == CHV_OK) {
    rc = filter_bind(t, a, resid, nresid, &pos, &e);
    if (rc != CHV_OK) filter_error(&e, &pos, nhead);
  }
  struct chv_pred *pv = NULL;
  int np = 0;
  if (rc == CHV_OK) {
    rc = sql_where_preds(t, a, resid, nresid, &pv, &np);
    if (rc != CHV_OK) sql_err(&e, rc, "out of memory");
  }
  if (rc == CHV_OK) {
    *partitions = pf;
    *preds = pv;
    *npreds = np;
  }
out:
  if (rc != CHV_OK && err) *err = e;
  return rc;
}

/* INSERT ... SELECT: checks the column count and casts each output
** expression ex[c] to the target column's type (an error naming the
** column, at its select item ipos[c], when CAST does not allow it). */
int sql_target_casts(struct sql_target *ins, struct chv_sql_pos qpos,
                     chv_arena *a, struct chv_expr **ex,
                     const char *const *heads, const struct chv_sql_pos *ipos,
                     int nout, struct chv_sql_pos *pos,
                     struct chv_error *err) {
  (void)heads;
  int rc;
  const struct chv_type *ts = ins->schema;
  if (!ins->t && nout != ts->nchildren) { /* a directory's */
    *pos = qpos;
    return sql_err(err, CHV_EINTERNAL, "the query gives %d columns, not %d",
                   nout, ts->nchildren);
  }
  if (nout != ts->nchildren) {
    *pos = qpos;
    if (ts->nchildren > ins->t->ncols)
      rc = sql_err(err, CHV_EINVAL,
                   "the query gives %d columns but %s.%s takes %d (%d "
                   "columns and the dynamic partition keys)", nout,
                   ins->t->db, ins->t->name, ts->nchildren, ins->t->ncols);
    else
      rc = sql_err(err, CHV_EINVAL,
                   "the query gives %d columns but %s.%s has %d", nout,
                   ins->t->db, ins->t->name, ts->nchildren);
    return rc;
  }
  for (int c = 0; c < nout; c++) {
    const struct chv_type *to = ts->children[c];
    if (chv_type_equal(ex[c]->type, to)) continue;
    char from[64], tn[64];
    sql_type_name(ex[c]->type, from, sizeof from);
    sql_type_name(to, tn, sizeof tn);
    if (!chv_type_is_primitive(to->id) ||
        !chv_type_is_primitive(ex[c]->type->id) ||
        chv_expr_cast(a, ex[c], to, &ex[c], err) != CHV_OK) {
      *pos = ipos[c];
      return sql_err(err, CHV_ETYPE, "column %s (%s): cannot convert %s to %s",
                     ts->names[c], tn, from, tn);
    }
  }
  return CHV_OK;
}

static int target_write_rows(struct sql_target *ins, struct chv_batch *ob,
                             int64_t n, struct chv_error *err);

int sql_target_write(struct sql_target *ins, struct chv_batch *ob, int64_t n,
                     struct chv_error *err) {
  if (!ins->node) return target_write_rows(ins, ob, n, err);
  int64_t t0 = sql_plan_now();
  int rc = target_write_rows(ins, ob, n, err);
  sql_plan_count(ins->node, rc == CHV_OK ? n : 0, sql_plan_now() - t0);
  return rc;
}

/* Writes the n rows of ob (on ins->schema) through the sink (or into the
** relation, or the directory). */
static int target_write_rows(struct sql_target *ins, struct chv_batch *ob,
                             int64_t n, struct chv_error *err) {
  int rc = CHV_OK;
  ob->nrows = n;
  if (ins->dir) {
    rc = n ? sql_dir_write(ins->dir, ob, n, err) : CHV_OK;
    if (rc == CHV_OK) ins->written += n;
    return rc;
  }
  if (n && ins->t->npkeys > ins->nstatic)
    rc = chv_sink_write_dynamic(ins->sink, ins->nstatic, ins->statics, ob,
                                err);
  else if (n)
    rc = chv_sink_write(ins->sink, ins->t->npkeys ? ins->statics : NULL, ob,
                        err);
  if (rc == CHV_OK) ins->written += n;
  progress(ins, false);
  return rc;
}

/* target_write() of an INSERT into a table from the reader threads of
** its scan, several at once: the sink gives each thread its own writer. */
int sql_target_write_shared(struct sql_target *ins, const struct chv_batch *ob,
                            struct chv_error *err) {
  int64_t t0 = ins->node ? sql_plan_now() : 0;
  int rc;
  if (ins->t->npkeys > ins->nstatic)
    rc = chv_sink_write_dynamic(ins->sink, ins->nstatic, ins->statics, ob,
                                err);
  else
    rc = chv_sink_write(ins->sink, ins->t->npkeys ? ins->statics : NULL, ob,
                        err);
  if (rc == CHV_OK) __atomic_fetch_add(&ins->written, ob->nrows, __ATOMIC_RELAXED);
  if (ins->node)
    sql_plan_count(ins->node, rc == CHV_OK ? ob->nrows : 0,
                   sql_plan_now() - t0);
  progress(ins, false);
  return rc;
}

/* ---- LOAD DATA ------------------------------------------------------------------ */

static int name_cmp(const void *x, const void *y) {
  return strcmp(*(char *const *)x, *(char *const *)y);
}

int sql_exec_load(struct sql_session *s, const struct chv_sql_stmt *st,
                  struct chv_sql_pos *pos, struct chv_error *err) {
  chv_catalog *cat;
  struct chv_table t;
  int rc = sql_get_table(s, &st->name, &cat, &t, err);
  if (rc != CHV_OK) return rc;
  chv_arena *a = NULL;
  chv_sink *sink = NULL;
  char **files = NULL;
  int nfiles = 0;
  char **values = NULL;
  if (chv_arena_open(0, &a) != CHV_OK) {
    rc = sql_err(err, CHV_ENOMEM, "out of memory");
    goto out;
  }
  if (t.npkeys) {
    rc = sql_part_values(&t, &st->partition, a, &values, pos, err);
    if (rc != CHV_OK) goto out;
  } else if (st->partition.n) {
    *pos = st->partition.pos;
    rc = sql_err(err, CHV_EINVAL, "table %s.%s is not partitioned", t.db,
                 t.name);
    goto out;
  }
  *pos = st->pos;
  const char *path = st->inpath;
  if (!strncmp(path, "file://", 7)) path += 7;
  struct stat sb;
  if (stat(path, &sb) != 0) {
    rc = sql_err(err, CHV_ENOENT, "LOAD DATA: %s: %s", st->inpath,
                 strerror(errno));
    goto out;
  }
  if (S_ISDIR(sb.st_mode)) {
    DIR *d = opendir(path);
    if (!d) {
      rc = sql_err(err, CHV_EIO, "LOAD DATA: %s: %s", path, strerror(errno));
      goto out;
    }
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
      if (de->d_name[0] == '.' || de->d_name[0] == '_') continue;
      char **nf = chv_realloc(files, sizeof *nf * (size_t)(nfiles + 1));
      if (!nf) break;
      files = nf;
      size_t n = strlen(path) + strlen(de->d_name) + 2;
      if (!(files[nfiles] = chv_malloc(n))) break;
      snprintf(files[nfiles++], n, "%s/%s", path, de->d_name);
    }
    closedir(d);
    if (nfiles > 1) qsort(files, (size_t)nfiles, sizeof *files, name_cmp);
  } else {
    files = chv_malloc(sizeof *files);
    if (files && (files[0] = chv_strdup(path))) nfiles = 1;
  }
  struct chv_sink_options so;
  chv_sink_options_init(&so);
  so.overwrite = st->overwrite;
  so.config = s->cfg;
  rc = chv_sink_open(cat, t.db, t.name, &so, &sink, err);
  for (int i = 0; rc == CHV_OK && i < nfiles; i++)
    rc = chv_sink_add_file(sink, values, files[i], st->local, err);
  if (rc == CHV_OK) rc = chv_sink_commit(sink, err);
  if (rc == CHV_OK) {
    char msg[64];
    snprintf(msg, sizeof msg, "Loaded %d file%s", nfiles,
             nfiles == 1 ? "" : "s");
    rc = sql_out_summary(s, "files_loaded", nfiles, msg, err);
  }
out:
  for (int i = 0; i < nfiles; i++) chv_free(files[i]);
  chv_free(files);
  chv_sink_close(sink);
  chv_arena_close(a);
  chv_table_free(&t);
  return rc;
}



