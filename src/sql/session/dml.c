/*
** sql/session/dml: the statements of `chive sql` that move rows.
**   INSERT INTO|OVERWRITE t [PARTITION (...)] VALUES (...), ...: literals
**     converted to the column types (a value that does not fit is an error
**     naming the column), static partition values from the spec, dynamic
**     ones from the trailing values, written through one sink commit with
**     the session configuration;
**   INSERT INTO|OVERWRITE t [PARTITION (...)] SELECT ...: the query's
**     batches, cast to the target column types, through the same sink;
**   SELECT exprs|* FROM t [WHERE ...] [LIMIT n]: the AND-ed conjuncts of
**     WHERE on partition columns and literals become a chv_part_filter,
**     pushed with the projection into chv_scan_open(); select items that
**     are not plain columns and the remaining conjuncts are bound
**     (sql_bind.c) and evaluated on each batch (filter, then items) on the
**     reader threads (a chv_scan_hook stage), the limit counted after the
**     filter;
**   EXPLAIN [ANALYZE] ...: each step builds its node of the plan tree
**     (plan.c) as it plans: Insert, Limit, Sort/TopN, Project, Filter,
**     Aggregate, Scan (partitions read/total, projection, pushed limit,
**     partition predicate, pushed predicates, the statistics line of
**     sql_stats.c), Values, Union, a relation's plan under the scan of its
**     rows; EXPLAIN reads no rows, EXPLAIN ANALYZE runs the statement and
**     counts each node's rows and time;
**   LOAD DATA [LOCAL] INPATH ... [OVERWRITE] INTO TABLE t [PARTITION]:
**     the file (or the visible files of a folder) taken in through a sink.
**   GROUP BY / aggregates / HAVING / SELECT DISTINCT: keys and aggregate
**     arguments evaluated per batch into a chv_hash_agg per split on the
**     reader threads, folded in split order; the items and HAVING bound
**     over the result;
**   ORDER BY: the result rows (and their keys) gathered, then sorted
**     (Hive's NULL order), LIMIT after the sort; with a LIMIT only rows
**     that beat the best rows held so far are kept (top-N);
**   sub-queries in FROM, WITH, UNION [ALL]: derived relations (sql_rel.c)
**     run into memory and scanned like tables; a view named in FROM is
**     one too, its expanded text run (views.c).
** Anything else (joins, sub-queries in expressions, ...) fails with "...
** is not supported yet".
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

static void type_name(const struct chv_type *t, char *buf, size_t n) {
  struct chv_buf b;
  chv_buf_init(&b);
  if (chv_type_format(t, &b) == CHV_OK)
    snprintf(buf, n, "%s", b.data);
  else
    snprintf(buf, n, "?");
  chv_buf_free(&b);
}

static bool parse_int(const char *s, int64_t *out) {
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
  type_name(v->type, tn, sizeof tn);
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
    if (!(k == CHV_SQL_LIT_INTEGER || str) || !parse_int(text, &i))
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
struct sql_target {
  const struct chv_table *t; /* the target table */
  chv_sink *sink;
  struct sql_rel *rel;
  struct sql_dir *dir;       /* INSERT ... DIRECTORY: t and sink NULL */
  const struct chv_type *schema; /* data columns, then the dynamic keys */
  int nstatic;                   /* static partition values */
  char **statics;
  /* rows given to the sink or relation; added to atomically by the
  ** reader threads that write an INSERT's rows (target_write_shared) */
  int64_t written;
  /* describe: only find the query's output columns (names and types) into
  ** *described; nothing is read or written */
  bool describe;
  struct chv_type *described;
  /* the session told of the write's progress, or NULL */
  struct sql_session *progress;
  /* EXPLAIN ANALYZE: the node counting the rows written and the time the
  ** writes took, or NULL */
  struct sql_plan_node *node;
};

/* Whether the query being run builds plan nodes: under EXPLAIN (explain)
** or EXPLAIN ANALYZE (run), but not while only its columns are found. */
static bool plan_on(const struct sql_session *s, bool explain,
                    const struct sql_target *ins) {
  return s->plan && !(ins && ins->describe) &&
         (explain || sql_plan_analyze(s));
}

/* The clock, read only under EXPLAIN ANALYZE (0 otherwise). */
static int64_t plan_clock(const struct sql_session *s) {
  return sql_plan_analyze(s) ? sql_plan_now() : 0;
}

/* The time since t0 (a plan_clock()), 0 when not measuring. */
static int64_t plan_since(int64_t t0) {
  return t0 ? sql_plan_now() - t0 : 0;
}

static int target_write(struct sql_target *ins, struct chv_batch *ob,
                        int64_t n, struct chv_error *err);

/* Rows and bytes written so far, to the session's progress callback. */
static void progress(struct sql_target *ins, bool done) {
  if (!ins->progress || done) return;
  struct chv_progress p = {.splits_done = -1, .splits_total = -1,
                           .rows = chv_sink_rows(ins->sink),
                           .bytes_written = chv_sink_bytes(ins->sink)};
  sql_out_progress(ins->progress, &p);
}

static int run_query(struct sql_session *s, const struct chv_sql_query *q,
                     struct chv_sql_pos stpos, bool explain,
                     struct sql_target *ins, struct chv_sql_pos *pos,
                     struct chv_error *err);

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

static int target_casts(struct sql_target *ins, const struct chv_sql_query *q,
                        const struct chv_table *t, chv_arena *a,
                        struct chv_expr **ex, const char *const *heads,
                        int nout, struct chv_sql_pos *pos,
                        struct chv_error *err);

int sql_insert_casts(struct sql_session *s, struct sql_insert *ins,
                     const struct chv_sql_query *q, const struct chv_table *t,
                     chv_arena *a, struct chv_expr **ex,
                     const char *const *heads, int nout,
                     struct chv_sql_pos *pos, struct chv_error *err) {
  struct sql_target tg = insert_target(s, ins);
  return target_casts(&tg, q, t, a, ex, heads, nout, pos, err);
}

int sql_insert_write(struct sql_session *s, struct sql_insert *ins,
                     struct chv_batch *b, int64_t n, struct chv_error *err) {
  struct sql_target tg = insert_target(s, ins);
  int rc = target_write(&tg, b, n, err);
  ins->written = tg.written;
  return rc;
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
    rc = run_query(s, q, st->pos, explain, &tg, pos, err);
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

/* ---- WHERE to a partition filter ---------------------------------------------- */

struct where_ctx {
  const struct chv_table *t;
  chv_arena *a;
  struct chv_buf *text; /* the predicate as text, for EXPLAIN */
  struct chv_sql_pos *pos;
  struct chv_error *err;
};

/* The partition key a column expression names; errors for data columns and
** unknown names. */
static int where_key(struct where_ctx *w, const struct chv_sql_expr *e,
                     const char **key) {
  *w->pos = e->pos;
  if (e->kind == CHV_SQL_EXPR_FUNC)
    return sql_err(w->err, CHV_ENOTSUP,
                   "function %s in WHERE is not supported yet", e->u.func.name);
  if (e->kind == CHV_SQL_EXPR_CAST)
    return sql_err(w->err, CHV_ENOTSUP, "CAST in WHERE is not supported yet");
  if (e->kind != CHV_SQL_EXPR_COLUMN)
    return sql_err(w->err, CHV_ENOTSUP,
                   "this WHERE predicate is not supported yet: expected a "
                   "partition column compared with literals");
  const char *n = e->u.column.parts[e->u.column.nparts - 1];
  for (int k = 0; k < w->t->npkeys; k++)
    if (!strcasecmp(w->t->pkeys[k].name, n)) {
      *key = w->t->pkeys[k].name;
      return CHV_OK;
    }
  for (int c = 0; c < w->t->ncols; c++)
    if (!strcasecmp(w->t->columns[c].name, n))
      return sql_err(w->err, CHV_ENOTSUP,
                     "WHERE on data column '%s' is not supported yet (only "
                     "partition columns)", w->t->columns[c].name);
  return sql_err(w->err, CHV_ENOENT, "column '%s' does not exist in %s.%s", n,
                 w->t->db, w->t->name);
}

static int where_lit(struct where_ctx *w, const struct chv_sql_expr *e,
                     const char **lit) {
  *w->pos = e->pos;
  int rc = sql_literal_text(e, w->a, lit, w->err);
  if (rc != CHV_OK) return rc;
  if (!*lit)
    return sql_err(w->err, CHV_ENOTSUP,
                   "a comparison with NULL is never true: use IS [NOT] NULL");
  const struct chv_sql_expr *l = e->kind == CHV_SQL_EXPR_UNARY ? e->u.unary.arg : e;
  if (l->u.lit.kind == CHV_SQL_LIT_STRING || l->u.lit.kind == CHV_SQL_LIT_DATE ||
      l->u.lit.kind == CHV_SQL_LIT_TIMESTAMP) {
    chv_buf_putc(w->text, '\'');
    for (const char *c = *lit; *c; c++) {
      if (*c == '\'') chv_buf_putc(w->text, '\'');
      chv_buf_putc(w->text, *c);
    }
    chv_buf_putc(w->text, '\'');
  } else {
    chv_buf_puts(w->text, *lit);
  }
  return CHV_OK;
}

static const char *cmp_text[] = {"=", "<>", "<", "<=", ">", ">="};

static int where_conv(struct where_ctx *w, const struct chv_sql_expr *e,
                      struct chv_part_filter **out) {
  *w->pos = e->pos;
  const char *key;
  int rc;
  switch (e->kind) {
  case CHV_SQL_EXPR_BINARY: {
    enum chv_sql_op op = e->u.binary.op;
    if (op == CHV_SQL_OP_AND || op == CHV_SQL_OP_OR) {
      struct chv_part_filter *l, *r;
      chv_buf_putc(w->text, '(');
      rc = where_conv(w, e->u.binary.left, &l);
      if (rc != CHV_OK) return rc;
      chv_buf_puts(w->text, op == CHV_SQL_OP_AND ? " AND " : " OR ");
      rc = where_conv(w, e->u.binary.right, &r);
      if (rc != CHV_OK) return rc;
      chv_buf_putc(w->text, ')');
      *out = op == CHV_SQL_OP_AND ? chv_pf_and(w->a, l, r) : chv_pf_or(w->a, l, r);
      break;
    }
    enum chv_pf_cmp c;
    switch (op) {
    case CHV_SQL_OP_EQ: c = CHV_PF_EQ; break;
    case CHV_SQL_OP_NE: c = CHV_PF_NE; break;
    case CHV_SQL_OP_LT: c = CHV_PF_LT; break;
    case CHV_SQL_OP_LE: c = CHV_PF_LE; break;
    case CHV_SQL_OP_GT: c = CHV_PF_GT; break;
    case CHV_SQL_OP_GE: c = CHV_PF_GE; break;
    default:
      return sql_err(w->err, CHV_ENOTSUP,
                     "operator %s in WHERE is not supported yet",
                     op == CHV_SQL_OP_NULL_EQ ? "<=>" : "arithmetic");
    }
    const struct chv_sql_expr *col = e->u.binary.left, *lit = e->u.binary.right;
    if (col->kind != CHV_SQL_EXPR_COLUMN && lit->kind == CHV_SQL_EXPR_COLUMN) {
      const struct chv_sql_expr *x = col;
      col = lit;
      lit = x;
      static const enum chv_pf_cmp flip[] = {CHV_PF_EQ, CHV_PF_NE, CHV_PF_GT,
                                             CHV_PF_GE, CHV_PF_LT, CHV_PF_LE};
      c = flip[c];
    }
    rc = where_key(w, col, &key);
    if (rc != CHV_OK) return rc;
    chv_buf_puts(w->text, key);
    chv_buf_putc(w->text, ' ');
    chv_buf_puts(w->text, cmp_text[c]);
    chv_buf_putc(w->text, ' ');
    const char *v;
    rc = where_lit(w, lit, &v);
    if (rc != CHV_OK) return rc;
    *out = chv_pf_cmp(w->a, key, c, v);
    break;
  }
  case CHV_SQL_EXPR_UNARY:
    if (e->u.unary.op != CHV_SQL_OP_NOT)
      return sql_err(w->err, CHV_ENOTSUP,
                     "this WHERE predicate is not supported yet");
    {
      struct chv_part_filter *x;
      chv_buf_puts(w->text, "NOT ");
      rc = where_conv(w, e->u.unary.arg, &x);
      if (rc != CHV_OK) return rc;
      *out = chv_pf_not(w->a, x);
    }
    break;
  case CHV_SQL_EXPR_IN: {
    rc = where_key(w, e->u.in.arg, &key);
    if (rc != CHV_OK) return rc;
    const char **lits = chv_arena_alloc(w->a, sizeof *lits * (e->u.in.n + 1));
    if (!lits) return sql_err(w->err, CHV_ENOMEM, "out of memory");
    chv_buf_puts(w->text, key);
    chv_buf_puts(w->text, e->u.in.negated ? " NOT IN (" : " IN (");
    for (size_t i = 0; i < e->u.in.n; i++) {
      if (i) chv_buf_puts(w->text, ", ");
      rc = where_lit(w, e->u.in.list[i], &lits[i]);
      if (rc != CHV_OK) return rc;
    }
    chv_buf_putc(w->text, ')');
    *out = chv_pf_in(w->a, key, lits, (int)e->u.in.n, e->u.in.negated);
    break;
  }
  case CHV_SQL_EXPR_BETWEEN: {
    rc = where_key(w, e->u.between.arg, &key);
    if (rc != CHV_OK) return rc;
    const char *lo, *hi;
    chv_buf_puts(w->text, key);
    chv_buf_puts(w->text, e->u.between.negated ? " NOT BETWEEN " : " BETWEEN ");
    rc = where_lit(w, e->u.between.low, &lo);
    if (rc != CHV_OK) return rc;
    chv_buf_puts(w->text, " AND ");
    rc = where_lit(w, e->u.between.high, &hi);
    if (rc != CHV_OK) return rc;
    *out = chv_pf_between(w->a, key, lo, hi, e->u.between.negated);
    break;
  }
  case CHV_SQL_EXPR_IS:
    if (e->u.is.what != CHV_SQL_IS_NULL)
      return sql_err(w->err, CHV_ENOTSUP,
                     "IS TRUE/FALSE in WHERE is not supported yet");
    rc = where_key(w, e->u.is.arg, &key);
    if (rc != CHV_OK) return rc;
    chv_buf_puts(w->text, key);
    chv_buf_puts(w->text, e->u.is.negated ? " IS NOT NULL" : " IS NULL");
    *out = chv_pf_is_null(w->a, key, e->u.is.negated);
    break;
  case CHV_SQL_EXPR_COLUMN: {
    rc = where_key(w, e, &key);
    if (rc != CHV_OK) return rc;
    return sql_err(w->err, CHV_ENOTSUP,
                   "a bare column as a WHERE predicate is not supported yet");
  }
  case CHV_SQL_EXPR_FUNC:
    return sql_err(w->err, CHV_ENOTSUP,
                   "function %s in WHERE is not supported yet", e->u.func.name);
  case CHV_SQL_EXPR_LIKE:
    return sql_err(w->err, CHV_ENOTSUP, "LIKE in WHERE is not supported yet");
  case CHV_SQL_EXPR_SUBQUERY:
    return sql_err(w->err, CHV_ENOTSUP,
                   "sub-queries in WHERE are not supported yet");
  default:
    return sql_err(w->err, CHV_ENOTSUP,
                   "this WHERE predicate is not supported yet: expected "
                   "comparisons of partition columns with literals");
  }
  if (!*out) return sql_err(w->err, CHV_ENOMEM, "out of memory");
  return CHV_OK;
}

/* ---- SELECT / EXPLAIN ---------------------------------------------------------- */

static const char *unsupported_query(const struct chv_sql_query *q,
                                     struct chv_sql_pos *pos) {
  *pos = q->pos;
  if (q->kind == CHV_SQL_QUERY_VALUES) return "a VALUES query";
  if (!q->from) return NULL; /* one row of no columns */
  *pos = q->from->pos;
  if (q->from->kind == CHV_SQL_FROM_JOIN) return "a join";
  if (q->from->system_time) return "FOR SYSTEM_TIME AS OF";
  return NULL;
}

static int find_column(const struct chv_table *t, const char *n,
                       const char **canon) {
  for (int c = 0; c < t->ncols; c++)
    if (!strcasecmp(t->columns[c].name, n)) {
      *canon = t->columns[c].name;
      return CHV_OK;
    }
  for (int k = 0; k < t->npkeys; k++)
    if (!strcasecmp(t->pkeys[k].name, n)) {
      *canon = t->pkeys[k].name;
      return CHV_OK;
    }
  return CHV_ENOENT;
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

/* ---- shared by both SELECT paths ------------------------------------------------ */

/* The EXPLAIN line: partitions read/total, the scan's columns, the limit,
** the partition predicate and the residual filter (NULL: none). */
/* Whether t's files are columnar (Parquet, ORC), whose readers skip row
** groups (and ORC stripes) by pushed predicates. */
static bool table_columnar(const struct chv_table *t) {
  return t->input_format && (strcasestr(t->input_format, "parquet") ||
                             strcasestr(t->input_format, "orc"));
}

/* What the scan's columnar files hold and the predicates skip (row groups,
** ORC stripes): a scan of no columns reads the footers (and the row
** indexes the predicates need) and nothing else.  false: not columnar, or
** the scan failed. */
static bool count_row_groups(chv_catalog *cat, const struct chv_table *t,
                             const struct chv_scan_options *base,
                             struct chv_scan_stats *out) {
  if (!table_columnar(t)) return false;
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

/* A Scan node under parent; it takes the plan of the relation it reads
** (s->plan_input) as its children.  scan_describe() says what it read. */
static struct sql_plan_node *scan_node(struct sql_session *s,
                                       struct sql_plan_node *parent) {
  struct sql_plan_node *n = sql_plan_node(s, parent, "%s", "");
  sql_plan_adopt(n, s->plan_input);
  s->plan_input = NULL;
  return n;
}

/* What the Scan node n says: partitions read/total, the scan's columns,
** the pushed limit, the partition predicate, the predicates pushed into
** the readers, what they leave of the row groups (and ORC stripes), the
** hint's options; under it the source's statistics and parallelism.
** Under EXPLAIN ANALYZE (the scan ended) also what it read, and ns, the
** time the statement waited for it. */
static void scan_describe(struct sql_session *s, struct sql_plan_node *n,
                          chv_catalog *cat, const struct chv_table *t,
                          struct sql_scan *sscan,
                          const struct chv_scan_options *so,
                          const char *const *scols, int nscols, int64_t limit,
                          const struct chv_buf *where, int64_t ns) {
  if (!n || !sscan) return;
  bool analyze = sql_plan_analyze(s);
  struct chv_buf line;
  chv_buf_init(&line);
  chv_scan *scan = sql_scan_table(sscan);
  struct chv_scan_stats ss = {0};
  if (scan) {
    chv_scan_stats(scan, &ss);
    chv_buf_printf(&line, "Scan %s.%s: partitions=%lld/%lld columns=[", t->db,
                   t->name, (long long)ss.partitions_read,
                   (long long)ss.partitions_total);
  } else {
    chv_buf_printf(&line, "Scan %s: columns=[", sql_scan_what(sscan));
  }
  for (int c = 0; c < nscols; c++) {
    if (c) chv_buf_puts(&line, ", ");
    chv_buf_puts(&line, scols[c]);
  }
  chv_buf_putc(&line, ']');
  if (limit >= 0) chv_buf_printf(&line, " limit=%lld", (long long)limit);
  if (where && where->len) {
    chv_buf_puts(&line, " partition_filter=");
    chv_buf_append(&line, where->data, where->len);
  }
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
  if (scan) { /* a table's: what its source reports */
    chv_buf_reset(&line);
    sql_explain_stats(s, cat, t, so, &line);
    sql_plan_detail(n, "%s", line.data ? line.data : "");
  }
  if (analyze && scan) {
    chv_buf_reset(&line);
    chv_buf_printf(&line, "Read: files=%lld", (long long)ss.files_read);
    if (ss.stripes > 0)
      chv_buf_printf(&line, " stripes=%lld/%lld (%lld skipped)",
                     (long long)(ss.stripes - ss.stripes_skipped),
                     (long long)ss.stripes, (long long)ss.stripes_skipped);
    if (table_columnar(t))
      chv_buf_printf(&line, " row_groups=%lld/%lld (%lld skipped)",
                     (long long)(ss.row_groups - ss.row_groups_skipped),
                     (long long)ss.row_groups,
                     (long long)ss.row_groups_skipped);
    chv_buf_printf(&line, " bytes=%lld threads=%d", (long long)ss.bytes_read,
                   so->threads > 1 ? so->threads : 1);
    sql_plan_detail(n, "%s", line.data);
  }
  if (analyze) sql_plan_count(n, 0, ns);
  chv_buf_free(&line);
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

/* The nodes above a query's input: Limit, or Sort / TopN (ORDER BY with a
** LIMIT), under s->plan_at; returns where the next node goes (NULL: the
** same place). */
static struct sql_plan_node *order_nodes(struct sql_session *s,
                                         const struct chv_sql_query *q,
                                         int64_t limit,
                                         struct sql_plan_node **nlim,
                                         struct sql_plan_node **nsort) {
  *nlim = *nsort = NULL;
  if (q->norder_by) {
    struct chv_buf k;
    chv_buf_init(&k);
    order_text(q, &k);
    if (limit >= 0)
      *nsort = sql_plan_node(s, NULL, "TopN: %lld by %s", (long long)limit,
                             k.data ? k.data : "");
    else
      *nsort = sql_plan_node(s, NULL, "Sort: %s", k.data ? k.data : "");
    chv_buf_free(&k);
    return *nsort;
  }
  if (limit >= 0)
    *nlim = sql_plan_node(s, NULL, "Limit: %lld", (long long)limit);
  return *nlim;
}

/* ---- ORDER BY --------------------------------------------------------------------- */

/* Compares non-NULL row i of v with non-NULL row j of w (primitive
** vectors of one type). */
static int cell_cmp(const struct chv_vector *v, int64_t i,
                    const struct chv_vector *w, int64_t j) {
#define CMP_(T)                                                               \
  do {                                                                        \
    T x_ = ((const T *)v->data)[i], y_ = ((const T *)w->data)[j];             \
    return x_ < y_ ? -1 : x_ > y_;                                            \
  } while (0)
  switch (v->type->id) {
  case CHV_TYPE_BOOLEAN: {
    int x = chv_bit_get(v->data, i), y = chv_bit_get(w->data, j);
    return x - y;
  }
  case CHV_TYPE_TINYINT: CMP_(int8_t);
  case CHV_TYPE_SMALLINT: CMP_(int16_t);
  case CHV_TYPE_INT:
  case CHV_TYPE_DATE: CMP_(int32_t);
  case CHV_TYPE_BIGINT: CMP_(int64_t);
  case CHV_TYPE_FLOAT: CMP_(float);
  case CHV_TYPE_DOUBLE: CMP_(double);
  case CHV_TYPE_DECIMAL: CMP_(chv_i128);
  case CHV_TYPE_TIMESTAMP: {
    const struct chv_timestamp *x = (const struct chv_timestamp *)v->data + i,
                               *y = (const struct chv_timestamp *)w->data + j;
    if (x->seconds != y->seconds) return x->seconds < y->seconds ? -1 : 1;
    return x->nanos < y->nanos ? -1 : x->nanos > y->nanos;
  }
  case CHV_TYPE_STRING:
  case CHV_TYPE_VARCHAR:
  case CHV_TYPE_CHAR:
  case CHV_TYPE_BINARY: {
    int32_t xl = v->offsets[i + 1] - v->offsets[i];
    int32_t yl = w->offsets[j + 1] - w->offsets[j];
    int c = memcmp(v->bytes + v->offsets[i], w->bytes + w->offsets[j],
                   (size_t)(xl < yl ? xl : yl));
    if (c) return c < 0 ? -1 : 1;
    return xl < yl ? -1 : xl > yl;
  }
  default:
    return 0;
  }
#undef CMP_
}

/* The sort's keys, for qsort: one sort at a time per thread (each
** statement runs on one thread). */
static _Thread_local struct {
  struct chv_vector **keys;
  const struct chv_sql_order_item *items;
  int nkeys;
} sort_ctx;

/* Once the statement is cancelled every row ties, so that a long qsort
** ends in a moment; the caller then fails with CHV_ECANCELED. */
static bool sort_cancelled(void) {
  return sql_cancel_flag && __atomic_load_n(sql_cancel_flag, __ATOMIC_RELAXED);
}

/* The ORDER BY order of row i of the keys ka and row j of kb (one vector
** per item each): < 0 when i comes first, 0 when they tie. */
static int keys_cmp(struct chv_vector *const *ka, int64_t i,
                    struct chv_vector *const *kb, int64_t j,
                    const struct chv_sql_order_item *items, int nkeys) {
  for (int k = 0; k < nkeys; k++) {
    bool desc = items[k].desc;
    /* Hive: NULLS FIRST for ASC, NULLS LAST for DESC unless given */
    bool nulls_first = items[k].nulls ? items[k].nulls == 1 : !desc;
    bool ni = chv_vector_is_null(ka[k], i), nj = chv_vector_is_null(kb[k], j);
    if (ni || nj) {
      if (ni && nj) continue;
      return (ni ? -1 : 1) * (nulls_first ? 1 : -1);
    }
    int c = cell_cmp(ka[k], i, kb[k], j);
    if (c) return desc ? -c : c;
  }
  return 0;
}

static int row_cmp(const void *pa, const void *pb) {
  int64_t i = *(const int64_t *)pa, j = *(const int64_t *)pb;
  if (sort_cancelled()) return 0;
  int c = keys_cmp(sort_ctx.keys, i, sort_ctx.keys, j, sort_ctx.items,
                   sort_ctx.nkeys);
  if (c) return c;
  return i < j ? -1 : i > j; /* stable: the order the rows came in */
}

static int target_write(struct sql_target *ins, struct chv_batch *ob,
                        int64_t n, struct chv_error *err);

/* Emits rows 0..n of outv in the order of the keys (one vector per ORDER
** BY item, n rows each), at most limit (< 0: all) of them: into r, or with
** ins into the target through ob (a batch on ins->schema). */
static int sort_emit(struct sql_result *r, const char *const *heads,
                     struct chv_vector **outv, int nout,
                     struct chv_vector **keys,
                     const struct chv_sql_order_item *items, int nkeys,
                     int64_t n, int64_t limit, struct chv_buf *cell,
                     struct sql_target *ins, struct chv_batch *ob,
                     struct chv_error *err) {
  int64_t *perm = malloc(sizeof *perm * (size_t)(n + 1));
  if (!perm) return sql_err(err, CHV_ENOMEM, "out of memory");
  for (int64_t i = 0; i < n; i++) perm[i] = i;
  sort_ctx.keys = keys;
  sort_ctx.items = items;
  sort_ctx.nkeys = nkeys;
  qsort(perm, (size_t)n, sizeof *perm, row_cmp);
  if (sort_cancelled()) {
    free(perm);
    return sql_err(err, CHV_ECANCELED, "the statement was cancelled");
  }
  if (limit >= 0 && n > limit) n = limit;
  int rc = CHV_OK;
  (void)heads;
  (void)cell;
  if (!ins) { /* the rows in order, a batch at a time */
    uint32_t sel[SQL_OUT_BATCH];
    for (int64_t i = 0; i < n && rc == CHV_OK; i += SQL_OUT_BATCH) {
      int64_t k = n - i < SQL_OUT_BATCH ? n - i : SQL_OUT_BATCH;
      for (int64_t j = 0; j < k; j++) sel[j] = (uint32_t)perm[i + j];
      rc = sql_result_rows(r, (const struct chv_vector *const *)outv, sel, k,
                           err);
    }
    free(perm);
    return rc;
  }
  for (int64_t i = 0; i < n && rc == CHV_OK; i++) {
    if (i % 4096 == 0) chv_batch_reset(ob);
    for (int c = 0; c < nout && rc == CHV_OK; c++)
      rc = chv_vector_append_from(ob->cols[c], outv[c], perm[i], err);
    if (rc == CHV_OK && (i % 4096 == 4095 || i == n - 1))
      rc = target_write(ins, ob, i % 4096 + 1, err);
  }
  free(perm);
  return rc;
}

/* ORDER BY ... LIMIT: keep only the first limit rows of the rows held so
** far in v[0..nv) (the sort keys are v[keys_at..keys_at+nkeys)), in sorted
** order; ties keep the order the rows came in, so what is finally emitted
** is what sorting every row would give. */
static int topn_compact(struct chv_vector **v, int nv, int keys_at,
                        const struct chv_sql_order_item *items, int nkeys,
                        int64_t *n, int64_t limit, struct chv_error *err) {
  if (*n <= limit) return CHV_OK;
  int64_t *perm = malloc(sizeof *perm * (size_t)(*n + 1));
  if (!perm) return sql_err(err, CHV_ENOMEM, "out of memory");
  for (int64_t i = 0; i < *n; i++) perm[i] = i;
  sort_ctx.keys = v + keys_at;
  sort_ctx.items = items;
  sort_ctx.nkeys = nkeys;
  qsort(perm, (size_t)*n, sizeof *perm, row_cmp);
  int rc = sort_cancelled()
               ? sql_err(err, CHV_ECANCELED, "the statement was cancelled")
               : CHV_OK;
  for (int c = 0; c < nv && rc == CHV_OK; c++) {
    struct chv_vector *nvv = NULL;
    rc = chv_vector_open(v[c]->type, limit, &nvv, err);
    for (int64_t i = 0; i < limit && rc == CHV_OK; i++)
      rc = chv_vector_append_from(nvv, v[c], perm[i], err);
    if (rc != CHV_OK) {
      chv_vector_close(nvv);
      break;
    }
    chv_vector_close(v[c]);
    v[c] = nvv;
  }
  free(perm);
  if (rc == CHV_OK) *n = limit;
  return rc;
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

/* The conjuncts of an AND tree, in order. */
static int conjuncts(const struct chv_sql_expr *e, const struct chv_sql_expr **v,
                     size_t *n) {
  if (e->kind == CHV_SQL_EXPR_BINARY && e->u.binary.op == CHV_SQL_OP_AND) {
    conjuncts(e->u.binary.left, v, n);
    return conjuncts(e->u.binary.right, v, n);
  }
  if (v) v[*n] = e;
  (*n)++;
  return CHV_OK;
}

/* WHERE as AND-ed conjuncts: those a partition filter expresses go into
** *filter (their text into where), the rest into resid[]. */
static int split_where(const struct chv_table *t, chv_arena *a,
                       const struct chv_sql_expr *e,
                       struct chv_part_filter **filter, struct chv_buf *where,
                       const struct chv_sql_expr ***resid, size_t *nresid,
                       struct chv_sql_pos *pos, struct chv_error *err) {
  size_t n = 0;
  conjuncts(e, NULL, &n);
  const struct chv_sql_expr **v = chv_arena_alloc(a, sizeof *v * (n + 1));
  const struct chv_sql_expr **rv = chv_arena_alloc(a, sizeof *rv * (n + 1));
  if (!v || !rv) return sql_err(err, CHV_ENOMEM, "out of memory");
  n = 0;
  conjuncts(e, v, &n);
  struct chv_part_filter *f = NULL;
  struct chv_buf text, one;
  chv_buf_init(&text);
  chv_buf_init(&one);
  size_t nr = 0;
  int nparts = 0, rc = CHV_OK;
  for (size_t i = 0; i < n; i++) {
    struct chv_part_filter *x;
    chv_buf_reset(&one);
    struct where_ctx w = {t, a, &one, pos, err};
    if (where_conv(&w, v[i], &x) != CHV_OK) {
      rv[nr++] = v[i];
      continue;
    }
    f = f ? chv_pf_and(a, f, x) : x;
    if (!f) {
      rc = sql_err(err, CHV_ENOMEM, "out of memory");
      goto out;
    }
    if (nparts++) chv_buf_puts(&text, " AND ");
    chv_buf_append(&text, one.data, one.len);
  }
  chv_buf_reset(where);
  if (nparts > 1) chv_buf_putc(where, '(');
  if (text.len) chv_buf_append(where, text.data, text.len);
  if (nparts > 1) chv_buf_putc(where, ')');
  *filter = f;
  *resid = rv;
  *nresid = nr;
out:
  chv_buf_free(&text);
  chv_buf_free(&one);
  return rc;
}

static bool qualifier_ok(const struct chv_sql_name *n, int nq,
                         const struct chv_table *t, const char *alias);

/* The residual conjuncts that compare a data column with a literal, as
** predicates a columnar reader can test row groups against (the rows are
** still filtered by the conjuncts themselves). */
static int resid_preds(const struct chv_table *t, chv_arena *a,
                       const struct chv_sql_expr *const *resid, size_t nresid,
                       struct chv_pred **out, int *nout) {
  *out = NULL;
  *nout = 0;
  if (!table_columnar(t)) return CHV_OK; /* only columnar files use them */
  struct chv_pred *v = chv_arena_alloc(a, sizeof *v * (2 * nresid + 1));
  if (!v) return CHV_ENOMEM;
  int n = 0;
  struct chv_error ignored;
  for (size_t i = 0; i < nresid; i++) {
    const struct chv_sql_expr *e = resid[i], *col = NULL, *lit = NULL;
    enum chv_pred_op op = CHV_PRED_EQ;
    bool flip = false;
    if (e->kind == CHV_SQL_EXPR_BINARY) {
      switch (e->u.binary.op) {
      case CHV_SQL_OP_EQ: op = CHV_PRED_EQ; break;
      case CHV_SQL_OP_NE: op = CHV_PRED_NE; break;
      case CHV_SQL_OP_LT: op = CHV_PRED_LT; break;
      case CHV_SQL_OP_LE: op = CHV_PRED_LE; break;
      case CHV_SQL_OP_GT: op = CHV_PRED_GT; break;
      case CHV_SQL_OP_GE: op = CHV_PRED_GE; break;
      default: continue;
      }
      col = e->u.binary.left;
      lit = e->u.binary.right;
      if (col->kind != CHV_SQL_EXPR_COLUMN) {
        col = e->u.binary.right;
        lit = e->u.binary.left;
        flip = true;
      }
    } else if (e->kind == CHV_SQL_EXPR_IS && !e->u.is.what) {
      col = e->u.is.arg;
      op = e->u.is.negated ? CHV_PRED_IS_NOT_NULL : CHV_PRED_IS_NULL;
    } else if (e->kind == CHV_SQL_EXPR_BETWEEN && !e->u.between.negated) {
      col = e->u.between.arg;
      const char *lo, *hi;
      if (col->kind != CHV_SQL_EXPR_COLUMN ||
          sql_literal_text(e->u.between.low, a, &lo, &ignored) != CHV_OK ||
          sql_literal_text(e->u.between.high, a, &hi, &ignored) != CHV_OK ||
          !lo || !hi)
        continue;
      const char *name;
      if (find_column(t, col->u.column.parts[col->u.column.nparts - 1],
                      &name) != CHV_OK)
        continue;
      v[n++] = (struct chv_pred){name, CHV_PRED_GE, lo};
      v[n++] = (struct chv_pred){name, CHV_PRED_LE, hi};
      continue;
    } else {
      continue;
    }
    if (col->kind != CHV_SQL_EXPR_COLUMN) continue;
    const char *name, *text = NULL;
    if (find_column(t, col->u.column.parts[col->u.column.nparts - 1], &name) !=
        CHV_OK)
      continue;
    bool key = false; /* partition keys are pruned, not tested */
    for (int k = 0; k < t->npkeys; k++) key |= t->pkeys[k].name == name;
    if (key) continue;
    if (lit && (sql_literal_text(lit, a, &text, &ignored) != CHV_OK || !text))
      continue;
    if (flip) {
      static const enum chv_pred_op mirror[] = {
          [CHV_PRED_EQ] = CHV_PRED_EQ, [CHV_PRED_NE] = CHV_PRED_NE,
          [CHV_PRED_LT] = CHV_PRED_GT, [CHV_PRED_LE] = CHV_PRED_GE,
          [CHV_PRED_GT] = CHV_PRED_LT, [CHV_PRED_GE] = CHV_PRED_LE};
      op = mirror[op];
    }
    v[n++] = (struct chv_pred){name, op, text};
  }
  *out = v;
  *nout = n;
  return CHV_OK;
}




static bool has_agg(const struct chv_sql_expr *e);

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
    if (has_agg(resid[i])) {
      rc = sql_err(err, CHV_EINVAL, "an aggregate in a filter");
      break;
    }
    struct chv_expr *x;
    rc = sql_bind_expr(&b, resid[i], &x);
    if (rc == CHV_OK && x->type->id != CHV_TYPE_BOOLEAN) {
      char tn[64];
      type_name(x->type, tn, sizeof tn);
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
      q->order_by || q->limit || q->group_by || q->having) {
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
  rc = split_where(t, a, q->where, &pf, &text, &resid, &nresid, &pos, &e);
  chv_buf_free(&text);
  if (rc == CHV_OK) {
    rc = filter_bind(t, a, resid, nresid, &pos, &e);
    if (rc != CHV_OK) filter_error(&e, &pos, nhead);
  }
  struct chv_pred *pv = NULL;
  int np = 0;
  if (rc == CHV_OK) {
    rc = resid_preds(t, a, resid, nresid, &pv, &np);
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
** column when CAST does not allow it). */
static int target_casts(struct sql_target *ins, const struct chv_sql_query *q,
                        const struct chv_table *t, chv_arena *a,
                        struct chv_expr **ex, const char *const *heads,
                        int nout, struct chv_sql_pos *pos,
                        struct chv_error *err) {
  int rc;
  if (ins->describe) {
    rc = chv_type_new(CHV_TYPE_STRUCT, &ins->described);
    for (int c = 0; rc == CHV_OK && c < nout; c++) {
      struct chv_type *ct;
      char name[256];
      snprintf(name, sizeof name, "%s", heads[c]);
      for (char *p = name; *p; p++) *p = (char)tolower((unsigned char)*p);
      rc = chv_type_clone(ex[c]->type, &ct);
      if (rc == CHV_OK) rc = chv_type_struct_add(ins->described, name, ct);
      if (rc == CHV_EEXIST) {
        *pos = q->pos;
        return sql_err(err, CHV_EINVAL,
                       "the query gives two columns named '%s'; give one an "
                       "alias", name);
      }
    }
    if (rc != CHV_OK) rc = sql_err(err, rc, "out of memory");
    return rc;
  }
  const struct chv_type *ts = ins->schema;
  if (!ins->t && !ins->rel && nout != ts->nchildren) { /* a directory's */
    *pos = q->pos;
    return sql_err(err, CHV_EINTERNAL, "the query gives %d columns, not %d",
                   nout, ts->nchildren);
  }
  if (ins->rel && nout != ts->nchildren) {
    *pos = q->pos;
    return sql_err(err, CHV_EINVAL,
                   "the branches of a UNION give %d and %d columns",
                   ts->nchildren, nout);
  }
  if (nout != ts->nchildren) {
    *pos = q->pos;
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
    type_name(ex[c]->type, from, sizeof from);
    type_name(to, tn, sizeof tn);
    if (!chv_type_is_primitive(to->id) ||
        !chv_type_is_primitive(ex[c]->type->id) ||
        chv_expr_cast(a, ex[c], to, &ex[c], err) != CHV_OK) {
      size_t item = 0; /* the select item giving column c */
      for (int k = 0; item < q->nitems; item++) {
        k += q->items[item].expr->kind == CHV_SQL_EXPR_STAR
                 ? t->ncols + t->npkeys : 1;
        if (k > c) break;
      }
      if (item < q->nitems) *pos = q->items[item].expr->pos;
      if (ins->rel)
        rc = sql_err(err, CHV_ETYPE,
                     "UNION column %d (%s): cannot convert %s to %s", c + 1,
                     ts->names[c], from, tn);
      else
        rc = sql_err(err, CHV_ETYPE, "column %s (%s): cannot convert %s to %s",
                     ts->names[c], tn, from, tn);
      return rc;
    }
  }
  return CHV_OK;
}

static int target_write_rows(struct sql_target *ins, struct chv_batch *ob,
                             int64_t n, struct chv_error *err);

/* Writes the n rows of ob (on ins->schema) to the target, counted on its
** plan node under EXPLAIN ANALYZE. */
static int target_write(struct sql_target *ins, struct chv_batch *ob,
                        int64_t n, struct chv_error *err) {
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
  if (ins->rel) {
    rc = sql_rel_append(ins->rel, ob, n, err);
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
static int target_write_shared(struct sql_target *ins,
                               const struct chv_batch *ob,
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

/* chive.exec.operator-memory: the bytes each operator may hold. */
static int operator_memory(struct sql_session *s, size_t *out,
                           struct chv_error *err) {
  struct chv_opt_value v;
  chv_opt_value_init(&v);
  int rc = chv_config_get(s->cfg, "chive.exec.operator-memory", &v, err);
  if (rc == CHV_OK) *out = (size_t)v.bytes;
  chv_opt_value_free(&v);
  return rc;
}

/* A selection vector that grows with the batches it serves. */
struct sel_buf {
  uint32_t *sel;
  int64_t cap;
};

/* The rows of bt where pred is TRUE: *rows (into sb) and *n. */
static int filter_rows(const struct chv_expr *pred, const struct chv_batch *bt,
                       struct sel_buf *sb, const uint32_t **rows, int64_t *n,
                       struct chv_error *err) {
  if (bt->nrows > sb->cap) {
    uint32_t *ns = realloc(sb->sel, sizeof *ns * (size_t)bt->nrows);
    if (!ns) return sql_err(err, CHV_ENOMEM, "out of memory");
    sb->sel = ns;
    sb->cap = bt->nrows;
  }
  *rows = sb->sel;
  return chv_expr_filter(pred, bt, NULL, bt->nrows, sb->sel, n, err);
}

/* The filter and the select items of a SELECT without ORDER BY, run on
** the reader threads: each batch becomes a batch of the items over the
** rows the filter keeps, handed back in split order, or, for an INSERT
** without LIMIT read on several threads (ins), written into the target
** right there, on the reader thread, so that the sink's writers run at the
** scan's parallelism. */
struct proj_stage {
  const struct chv_expr *pred;     /* or NULL */
  struct chv_expr *const *ex;
  int nout;
  const struct chv_type *schema;   /* STRUCT of the items */
  /* EXPLAIN ANALYZE: the nodes counting the rows read, kept and projected
  ** (NULL: not counted) */
  struct sql_plan_node *nscan, *nfilt, *nproj;
  struct sql_target *ins;          /* write here; NULL: hand batches back */
};

/* A split's state: the filter's rows and, when writing, the batch of the
** items, reused from one batch to the next, and the columns written (the
** read vectors themselves for bare columns of every row). */
struct proj_state {
  struct sel_buf sel;
  struct chv_batch *ob;
  struct chv_vector **cols;
};

static int proj_stage_batch(void *ctx, void **state, const struct chv_batch *bt,
                            struct chv_batch **out, struct chv_error *err) {
  const struct proj_stage *g = ctx;
  struct proj_state *st = *state;
  *out = NULL;
  if (!st) {
    st = calloc(1, sizeof *st);
    if (!st) return sql_err(err, CHV_ENOMEM, "out of memory");
    *state = st;
  }
  int64_t n = bt->nrows;
  const uint32_t *rows = NULL;
  bool timed = g->nproj != NULL;
  int64_t t0 = timed ? sql_plan_now() : 0;
  sql_plan_count(g->nscan, n, 0);
  if (g->pred)
    CHV_RETURN_IF_ERR(filter_rows(g->pred, bt, &st->sel, &rows, &n, err));
  int64_t t1 = timed ? sql_plan_now() : 0;
  sql_plan_count(g->nfilt, n, t1 - t0);
  if (n == 0) return CHV_OK;
  struct chv_batch *ob = st->ob;
  if (ob == NULL) CHV_RETURN_IF_ERR(chv_batch_open(g->schema, n, &ob, err));
  if (g->ins) {
    st->ob = ob;
    if (!st->cols && !(st->cols = calloc((size_t)g->nout + 1, sizeof *st->cols)))
      return sql_err(err, CHV_ENOMEM, "out of memory");
  }
  for (int c = 0; c < g->nout; c++) {
    const struct chv_expr *x = g->ex[c];
    if (g->ins && !rows && x->kind == CHV_EXPR_COLUMN &&
        chv_type_equal(bt->cols[x->column]->type, g->schema->children[c])) {
      st->cols[c] = bt->cols[x->column]; /* written as read: no copy */
      continue;
    }
    int rc = chv_expr_eval(x, bt, rows, n, ob->cols[c], err);
    if (rc != CHV_OK) {
      if (!g->ins) chv_batch_close(ob);
      return rc;
    }
    if (g->ins) st->cols[c] = ob->cols[c];
  }
  ob->nrows = n;
  if (g->ins) {
    struct chv_batch view = {.schema = g->schema, .nrows = n,
                             .ncols = g->nout, .cols = st->cols};
    int rc = target_write_shared(g->ins, &view, err);
    sql_plan_count(g->nproj, n, timed ? sql_plan_now() - t1 : 0);
    return rc;
  }
  *out = ob;
  sql_plan_count(g->nproj, n, timed ? sql_plan_now() - t1 : 0);
  return CHV_OK;
}

static int proj_stage_done(void *ctx, void *state, bool ok,
                           struct chv_error *err) {
  (void)ctx, (void)ok, (void)err;
  struct proj_state *st = state;
  if (st) {
    free(st->sel.sel);
    free(st->cols);
    chv_batch_close(st->ob);
  }
  free(st);
  return CHV_OK;
}

/* SELECT with expressions or a residual filter: the select items and the
** residual conjuncts are bound over the table, the scan reads the columns
** they need, each batch is filtered and the items evaluated over the rows
** kept. */
static int query_exprs(struct sql_session *s, chv_catalog *cat,
                       const struct chv_sql_query *q,
                       const struct chv_table *t, const struct sql_rel *rel,
                       chv_arena *a,
                       struct chv_part_filter *filter,
                       const struct chv_buf *where,
                       const struct chv_sql_expr **resid, size_t nresid,
                       int64_t limit, bool explain, struct chv_sql_pos stpos,
                       struct sql_target *ins, struct chv_sql_pos *pos,
                       struct chv_error *err) {
  struct sql_bind b;
  struct chv_batch *ob = NULL;
  struct sql_result r;
  sql_result_init(&r);
  struct chv_buf ftext, cell;
  chv_buf_init(&ftext);
  chv_buf_init(&cell);
  struct sql_scan *scan = NULL;
  struct chv_vector **outv = NULL, **acc = NULL;
  uint32_t *tsel = NULL;
  struct sel_buf fsel = {0}; /* the residual filter's rows */
  struct chv_type *stage_type = NULL;
  chv_scan_bound *bound = NULL;
  int nout = 0, nok = (int)q->norder_by, nacc = 0;
  int *item_out = NULL;
  const char *alias = q->from ? q->from->alias : NULL;
  int rc = sql_bind_init(&b, t, alias, a, pos, err);
  char what[512];
  b.what = sql_table_what(t, what, sizeof what);
  if (rc != CHV_OK) goto out;
  int cap = 0;
  for (size_t i = 0; i < q->nitems; i++)
    cap += q->items[i].expr->kind == CHV_SQL_EXPR_STAR ? t->ncols + t->npkeys
                                                        : 1;
  struct chv_expr **ex = chv_arena_alloc(a, sizeof *ex * (size_t)(cap + 1));
  const char **heads = chv_arena_alloc(a, sizeof *heads * (size_t)(cap + 1));
  outv = calloc((size_t)cap + 1, sizeof *outv);
  /* ORDER BY: the output columns, then the keys, gathered over batches */
  acc = calloc((size_t)(2 * (cap + nok)) + 1, sizeof *acc);
  item_out = chv_arena_alloc(a, sizeof *item_out * (q->nitems + 1));
  if (!ex || !heads || !outv || !acc || !item_out) {
    rc = sql_err(err, CHV_ENOMEM, "out of memory");
    goto out;
  }
  for (size_t i = 0; i < q->nitems; i++) {
    const struct chv_sql_expr *e = q->items[i].expr;
    *pos = e->pos;
    item_out[i] = nout;
    if (e->kind == CHV_SQL_EXPR_STAR) {
      if (!t->name) {
        rc = sql_err(err, CHV_ENOENT, "SELECT * needs a FROM clause");
        goto out;
      }
      if (!qualifier_ok(&e->u.star, e->u.star.nparts, t, alias)) {
        rc = sql_err(err, CHV_ENOENT, "unknown table qualifier '%s' in %s.*",
                     e->u.star.parts[e->u.star.nparts - 1],
                     e->u.star.parts[e->u.star.nparts - 1]);
        goto out;
      }
      for (int c = 0; c < t->ncols + t->npkeys; c++) {
        rc = sql_bind_column(&b, c, &ex[nout]);
        if (rc != CHV_OK) goto out;
        heads[nout] = b.cols[ex[nout]->column];
        nout++;
      }
      continue;
    }
    rc = sql_bind_expr(&b, e, &ex[nout]);
    if (rc != CHV_OK) goto out;
    if (q->items[i].alias) {
      heads[nout] = q->items[i].alias;
    } else if (e->kind == CHV_SQL_EXPR_COLUMN) {
      heads[nout] = b.cols[ex[nout]->column];
    } else {
      char *h = chv_arena_alloc(a, 24);
      if (!h) {
        rc = sql_err(err, CHV_ENOMEM, "out of memory");
        goto out;
      }
      snprintf(h, 24, "_c%d", nout);
      heads[nout] = h;
    }
    nout++;
  }
  if (ins) {
    rc = target_casts(ins, q, t, a, ex, heads, nout, pos, err);
    if (rc != CHV_OK) goto out;
  }
  struct chv_expr **oex = chv_arena_alloc(a, sizeof *oex * (size_t)(nok + 1));
  if (!oex) {
    rc = sql_err(err, CHV_ENOMEM, "out of memory");
    goto out;
  }
  for (int k = 0; k < nok; k++) {
    int ord;
    rc = order_item(q, (size_t)k, &ord, pos, err);
    if (rc == CHV_OK && ord < 0)
      rc = sql_bind_expr(&b, q->order_by[k].expr, &oex[k]);
    else if (rc == CHV_OK)
      oex[k] = ex[item_out[ord]];
    if (rc != CHV_OK) goto out;
    if (!chv_type_is_primitive(oex[k]->type->id)) {
      *pos = q->order_by[k].expr->pos;
      rc = sql_err(err, CHV_ENOTSUP, "ORDER BY a nested type");
      goto out;
    }
  }
  struct chv_expr *pred = NULL;
  for (size_t i = 0; i < nresid; i++) {
    struct chv_expr *x;
    rc = sql_bind_expr(&b, resid[i], &x);
    if (rc != CHV_OK) goto out;
    if (x->type->id != CHV_TYPE_BOOLEAN) {
      char tn[64];
      type_name(x->type, tn, sizeof tn);
      *pos = resid[i]->pos;
      chv_buf_reset(&ftext);
      sql_expr_text(resid[i], &ftext);
      rc = sql_err(err, CHV_ETYPE,
                   "WHERE condition %s is of type %s, not boolean",
                   ftext.data, tn);
      goto out;
    }
    if (i) chv_buf_puts(&ftext, " AND ");
    sql_expr_text(resid[i], &ftext);
    if (pred) {
      rc = chv_expr_and(a, pred, x, &pred, err);
      if (rc != CHV_OK) goto out;
    } else {
      pred = x;
    }
  }
  /* Described (CTAS, a view, a derived relation's columns): the ORDER BY
  ** keys and the residual WHERE are bound too, so that an error in them
  ** is found before anything is created or read. */
  if (ins && ins->describe) goto out;
  if (b.ncols == 0 && t->name) { /* SELECT 1 FROM t: one column, for rows */
    struct chv_expr *x;
    rc = sql_bind_column(&b, 0, &x);
    if (rc != CHV_OK) goto out;
  }
  struct chv_scan_options so;
  chv_scan_options_init(&so);
  so.cfg = s->cfg;
  so.cancel = &s->cancel;
  so.progress = sql_scan_progress;
  so.progress_ctx = s;
  so.filter = filter;
  so.columns = b.cols;
  so.ncolumns = b.ncols;
  so.limit = pred || nok ? -1 : limit;
  if (nresid && resid_preds(t, a, resid, nresid, (struct chv_pred **)&so.preds,
                            &so.npreds) != CHV_OK) {
    rc = sql_err(err, CHV_ENOMEM, "out of memory");
    goto out;
  }
  so.table_options = s->read_options;
  so.ntable_options = s->nread_options;
  *pos = stpos;
  if (!explain) so.threads = sql_scan_threads(s, cat, t, &so);
  /* The plan: [Limit | Sort | TopN] -> Project -> [Filter] -> Scan. */
  struct sql_plan_node *nlim = NULL, *nsort = NULL, *nproj = NULL,
                       *nfilt = NULL, *nscan = NULL;
  if (plan_on(s, explain, ins)) {
    struct sql_plan_node *at = order_nodes(s, q, limit, &nlim, &nsort);
    chv_buf_reset(&cell);
    items_text(q, heads, item_out, nout, &cell);
    at = nproj = sql_plan_node(s, at, "Project: [%s]",
                               cell.data ? cell.data : "");
    if (pred)
      at = nfilt = sql_plan_node(s, at, "Filter: %s",
                                 ftext.data ? ftext.data : "");
    nscan = t->name ? scan_node(s, at) : sql_plan_node(s, at, "Values: 1 row");
  }
  bool analyze = sql_plan_analyze(s) && nproj;
  int64_t scan_ns = 0, t0 = 0;
  /* Without ORDER BY the filter and the items run on the reader threads. */
  struct proj_stage stage = {pred, ex, nout, NULL, NULL, NULL, NULL, NULL};
  if (analyze) {
    stage.nscan = nscan;
    stage.nfilt = nfilt;
    stage.nproj = nproj;
  }
  struct chv_scan_hook hook = {&stage, proj_stage_batch, proj_stage_done};
  bool staged = t->name && !nok && !explain;
  if (staged && ins) {
    stage.schema = ins->schema;
    /* Read on several threads, the rows of an INSERT without LIMIT are
    ** written where they are read (a LIMIT is cut in split order here). */
    if (ins->sink && !ins->rel && !ins->dir && limit < 0 && so.threads > 1)
      stage.ins = ins;
  } else if (staged) {
    rc = chv_type_new(CHV_TYPE_STRUCT, &stage_type);
    for (int c = 0; rc == CHV_OK && c < nout; c++) {
      struct chv_type *ct;
      char fname[32];
      snprintf(fname, sizeof fname, "c%d", c);
      rc = chv_type_clone(ex[c]->type, &ct);
      if (rc == CHV_OK) rc = chv_type_struct_add(stage_type, fname, ct);
    }
    if (rc != CHV_OK) {
      rc = sql_err(err, CHV_ENOMEM, "out of memory");
      goto out;
    }
    stage.schema = stage_type;
  }
  if (staged) so.hook = &hook;
  /* Top-N on a data column whose NULLs sort last: the last kept row's key
  ** bounds what can still enter, and the columnar readers skip row
  ** groups, pages and stripes whose statistics say none of theirs can. */
  if (nok && limit > 0 && t->name && !rel && !explain &&
      oex[0]->kind == CHV_EXPR_COLUMN &&
      oex[0]->type->id != CHV_TYPE_BOOLEAN &&
      oex[0]->type->id != CHV_TYPE_BINARY &&
      (q->order_by[0].nulls ? q->order_by[0].nulls == 2
                            : q->order_by[0].desc)) {
    const char *kc = b.cols[oex[0]->column];
    for (int c = 0; c < t->ncols; c++)
      if (!strcasecmp(t->columns[c].name, kc)) {
        rc = chv_scan_bound_open(
            kc, q->order_by[0].desc ? CHV_PRED_GE : CHV_PRED_LE, &bound, err);
        if (rc != CHV_OK) goto out;
        so.bound = bound;
        /* One reader: it opens each file when the bound is as tight as it
        ** gets by then, where readers ahead would read files whole.  Text
        ** has no statistics to skip by: its readers stay. */
        if (table_columnar(t)) so.threads = 1;
        break;
      }
  }
  if (t->name) {
    t0 = plan_clock(s);
    rc = sql_scan_open(cat, t, rel, &so, &scan, err);
    scan_ns += plan_since(t0);
    if (rc == CHV_ETYPE && q->where) *pos = q->where->pos;
    if (rc != CHV_OK) goto out;
  }
  if (explain) {
    scan_describe(s, nscan, cat, t, scan, &so, b.cols, b.ncols, so.limit,
                  where, 0);
    goto out;
  }
  if (ins) {
    rc = chv_batch_open(ins->schema, 0, &ob, err);
    if (rc != CHV_OK) goto out;
  }
  for (int c = 0; c < nout && (!ins || nok); c++) {
    rc = chv_vector_open(ex[c]->type, 0, &outv[c], err);
    if (rc != CHV_OK) goto out;
  }
  for (int c = 0; nok && c < nout + 2 * nok; c++, nacc++) {
    const struct chv_type *ty = c < nout       ? ex[c]->type
                                : c < nout + nok ? oex[c - nout]->type
                                                 : oex[c - nout - nok]->type;
    rc = chv_vector_open(ty, 0, &acc[c], err);
    if (rc != CHV_OK) goto out;
  }
  if (!ins) {
    const struct chv_type **ty =
        chv_arena_alloc(a, sizeof *ty * (size_t)(nout + 1));
    if (!ty) {
      rc = sql_err(err, CHV_ENOMEM, "out of memory");
      goto out;
    }
    for (int c = 0; c < nout; c++) ty[c] = ex[c]->type;
    rc = sql_result_typed(s, &r, nout, heads, ty, err);
    if (rc != CHV_OK) goto out;
  }
  int64_t done = 0, tselcap = 0;
  size_t sort_limit = 0;
  if (nok && (rc = operator_memory(s, &sort_limit, err)) != CHV_OK) goto out;
  bool topn_full = false; /* acc holds the best limit rows, sorted, first */
  struct chv_batch *bt, one = {.nrows = 1}; /* the row of a FROM-less query */
  bool one_left = !scan;
  int64_t sort_ns = 0; /* EXPLAIN ANALYZE: the sort's time */
  while (limit < 0 || done < limit || nok) {
    if (scan) {
      t0 = plan_clock(s);
      rc = sql_scan_next(scan, &bt, err);
      scan_ns += plan_since(t0);
      if (rc != CHV_OK || !bt) break;
    } else if (one_left) {
      one_left = false;
      bt = &one;
    } else {
      break;
    }
    int64_t n = bt->nrows;
    const uint32_t *rows = NULL;
    if (!staged) sql_plan_count(analyze ? nscan : NULL, n, 0);
    if (staged) { /* the items over the kept rows, already */
      if (limit >= 0 && n > limit - done) n = limit - done;
      if (ins) {
        rc = target_write(ins, bt, n, err);
        if (rc != CHV_OK) goto out;
      }
      if (!ins) {
        rc = sql_result_rows(&r, (const struct chv_vector *const *)bt->cols,
                             NULL, n, err);
        if (rc != CHV_OK) goto out;
      }
      done += n;
      continue;
    }
    t0 = plan_clock(s);
    if (pred && (rc = filter_rows(pred, bt, &fsel, &rows, &n, err)) != CHV_OK)
      goto out;
    if (pred) sql_plan_count(analyze ? nfilt : NULL, n, plan_since(t0));
    if (limit >= 0 && n > limit - done && !nok) n = limit - done;
    t0 = plan_clock(s);
    if (nok) {
      for (int k = 0; k < nok; k++) {
        rc = chv_expr_eval(oex[k], bt, rows, n, acc[nout + nok + k], err);
        if (rc != CHV_OK) goto out;
      }
      /* Top-N: once the best limit rows are known, only rows that sort
      ** before the last of them can enter (a tie comes later, so it loses);
      ** the others are dropped before their select items are evaluated. */
      if (topn_full) {
        if (n > tselcap) {
          uint32_t *ns = realloc(tsel, sizeof *tsel * (size_t)n);
          if (!ns) {
            rc = sql_err(err, CHV_ENOMEM, "out of memory");
            goto out;
          }
          tsel = ns;
          tselcap = n;
        }
        int64_t m = 0;
        for (int64_t i = 0; i < n; i++)
          if (keys_cmp(acc + nout + nok, i, acc + nout, limit - 1,
                       q->order_by, nok) < 0)
            tsel[m++] = (uint32_t)i;
        if (m == 0) continue;
        /* the kept keys move to the front; rows maps to the batch */
        for (int k = 0; k < nok && m < n; k++) {
          struct chv_vector *kv = NULL;
          rc = chv_vector_open(oex[k]->type, m, &kv, err);
          for (int64_t j = 0; j < m && rc == CHV_OK; j++)
            rc = chv_vector_append_from(kv, acc[nout + nok + k], tsel[j], err);
          if (rc != CHV_OK) {
            chv_vector_close(kv);
            goto out;
          }
          chv_vector_close(acc[nout + nok + k]);
          acc[nout + nok + k] = kv;
        }
        for (int64_t j = 0; j < m && m < n; j++)
          tsel[j] = rows ? rows[tsel[j]] : tsel[j];
        if (m < n) rows = tsel;
        n = m;
      }
      sort_ns += plan_since(t0);
      t0 = plan_clock(s);
    }
    for (int c = 0; c < nout; c++) {
      rc = chv_expr_eval(ex[c], bt, rows, n, ins && !nok ? ob->cols[c] : outv[c],
                         err);
      if (rc != CHV_OK) goto out;
    }
    sql_plan_count(analyze ? nproj : NULL, n, plan_since(t0));
    t0 = plan_clock(s);
    if (ins && !nok) {
      rc = target_write(ins, ob, n, err);
      if (rc != CHV_OK) goto out;
      done += n;
      continue;
    }
    if (nok) { /* keep the rows and their keys for the sort */
      for (int c = 0; c < nout + nok; c++) {
        const struct chv_vector *from =
            c < nout ? outv[c] : acc[nout + nok + c - nout];
        for (int64_t row = 0; row < n && rc == CHV_OK; row++)
          rc = chv_vector_append_from(acc[c], from, row, err);
        if (rc != CHV_OK) goto out;
      }
      done += n;
      if (limit < 0) { /* a full sort holds every row: bounded */
        size_t held = 0;
        for (int c = 0; c < nout + nok; c++) held += sql_vector_bytes(acc[c]);
        if (held > sort_limit) {
          *pos = q->order_by[0].expr->pos;
          rc = sql_err(err, CHV_ENOMEM,
                       "sort (ORDER BY): more than its memory limit of %zu "
                       "bytes (%zu bytes for %lld rows; see "
                       "chive.exec.operator-memory)",
                       sort_limit, held, (long long)done);
          goto out;
        }
      }
      /* Top-N: with a limit, the rows held never grow far past it. */
      if (limit >= 0 &&
          done >= (topn_full ? 2 * limit + 4096 : CHV_MAX(limit, 4096))) {
        rc = topn_compact(acc, nout + nok, nout, q->order_by, nok, &done,
                          limit, err);
        if (rc != CHV_OK) goto out;
        topn_full = limit > 0;
        bool null = false;
        if (bound) {
          chv_buf_reset(&cell);
          rc = chv_vector_text(acc[nout], limit - 1, &cell, &null);
          if (rc == CHV_OK && !null)
            rc = chv_scan_bound_set(bound, cell.data ? cell.data : "", err);
          if (rc != CHV_OK) goto out;
        }
      }
      sort_ns += plan_since(t0);
      continue;
    }
    rc = sql_result_rows(&r, (const struct chv_vector *const *)outv, NULL, n,
                         err);
    if (rc != CHV_OK) goto out;
    done += n;
  }
  if (rc != CHV_OK) goto out;
  if (nok) {
    t0 = plan_clock(s);
    rc = sort_emit(&r, heads, acc, nout, acc + nout, q->order_by, nok, done,
                   limit, &cell, ins, ob, err);
    if (analyze) /* the rows written below it are the Insert's */
      sql_plan_count(nsort, limit >= 0 && done > limit ? limit : done,
                     sort_ns + plan_since(t0));
  }
  if (analyze) {
    sql_plan_count(nlim, done, 0);
    scan_describe(s, nscan, cat, t, scan, &so, b.cols, b.ncols, so.limit,
                  where, scan_ns);
  }
  if (rc == CHV_OK && !ins) rc = sql_result_emit(s, &r, err);
out:
  for (int c = 0; c < nacc; c++) chv_vector_close(acc[c]);
  free(acc);
  chv_batch_close(ob);
  if (outv)
    for (int c = 0; c < nout; c++) chv_vector_close(outv[c]);
  free(outv);
  free(fsel.sel);
  free(tsel);
  sql_scan_close(scan);
  chv_scan_bound_close(bound);
  chv_type_free(stage_type);
  chv_buf_free(&ftext);
  chv_buf_free(&cell);
  sql_result_free(&r);
  sql_bind_free(&b);
  return rc;
}

int sql_exec_query(struct sql_session *s, const struct chv_sql_stmt *st,
                   bool explain, struct chv_sql_pos *pos,
                   struct chv_error *err) {
  return run_query(s, st->query, st->pos, explain, NULL, pos, err);
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
  int rc = run_query(s, q, stpos, explain, &tg, pos, err);
  s->plan_at = saved;
  *written = tg.written;
  return rc;
}

static int query_values(struct sql_session *s, const struct chv_sql_query *q,
                        struct chv_sql_pos stpos, bool explain,
                        struct sql_target *ins, struct chv_sql_pos *pos,
                        struct chv_error *err);

int sql_query_schema(struct sql_session *s, const struct chv_sql_query *q,
                     struct chv_type **out, struct chv_sql_pos *pos,
                     struct chv_error *err) {
  struct sql_target tg = {.describe = true};
  int rc = run_query(s, q, q->pos, false, &tg, pos, err);
  if (rc == CHV_OK && !tg.described)
    rc = sql_err(err, CHV_ENOTSUP, "the columns of this query are unknown");
  if (rc != CHV_OK) {
    chv_type_free(tg.described);
    return rc;
  }
  *out = tg.described;
  return CHV_OK;
}

/* ---- GROUP BY and aggregates -------------------------------------------------- */

/* True when e holds an aggregate call. */
static bool has_agg(const struct chv_sql_expr *e) {
  if (!e) return false;
  switch (e->kind) {
  case CHV_SQL_EXPR_FUNC:
    if (sql_is_aggregate(e->u.func.name)) return true;
    for (size_t i = 0; i < e->u.func.n; i++)
      if (has_agg(e->u.func.args[i])) return true;
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
  int naggs, cap;
  const char **agg_text;
  enum chv_agg_fn *fns;
  struct chv_expr **agg_arg; /* NULL for COUNT(*) */
  const struct chv_type *rschema; /* the hash aggregation's result */
};

static const char *expr_text(chv_arena *a, const struct chv_sql_expr *e) {
  struct chv_buf t;
  chv_buf_init(&t);
  sql_expr_text(e, &t);
  char *p = NULL;
  if (t.data && (p = chv_arena_alloc(a, t.len + 1)))
    memcpy(p, t.data, t.len + 1);
  chv_buf_free(&t);
  return p;
}

/* Adds the aggregate calls of e to c (each distinct call once). */
static int collect_aggs(struct agg_ctx *c, const struct chv_sql_expr *e,
                        struct chv_sql_pos *pos, struct chv_error *err) {
  if (!e || !has_agg(e)) return CHV_OK;
  if (e->kind != CHV_SQL_EXPR_FUNC || !sql_is_aggregate(e->u.func.name)) {
    /* recurse through the node's children */
    switch (e->kind) {
    case CHV_SQL_EXPR_FUNC:
      for (size_t i = 0; i < e->u.func.n; i++)
        CHV_RETURN_IF_ERR(collect_aggs(c, e->u.func.args[i], pos, err));
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
  const char *text = expr_text(c->a, e);
  if (!text) return sql_err(err, CHV_ENOMEM, "out of memory");
  for (int j = 0; j < c->naggs; j++)
    if (!strcmp(c->agg_text[j], text)) return CHV_OK;
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
  if (c->naggs == c->cap) {
    int cap = c->cap ? 2 * c->cap : 8;
    const char **t = chv_arena_alloc(c->a, sizeof *t * (size_t)cap);
    enum chv_agg_fn *f = chv_arena_alloc(c->a, sizeof *f * (size_t)cap);
    struct chv_expr **x = chv_arena_alloc(c->a, sizeof *x * (size_t)cap);
    if (!t || !f || !x) return sql_err(err, CHV_ENOMEM, "out of memory");
    if (c->naggs) {
      memcpy(t, c->agg_text, sizeof *t * (size_t)c->naggs);
      memcpy(f, c->fns, sizeof *f * (size_t)c->naggs);
      memcpy(x, c->agg_arg, sizeof *x * (size_t)c->naggs);
    }
    c->agg_text = t, c->fns = f, c->agg_arg = x, c->cap = cap;
  }
  struct chv_expr *arg = NULL;
  if (fn != CHV_AGG_COUNT_STAR) {
    CHV_RETURN_IF_ERR(sql_bind_expr(c->in, e->u.func.args[0], &arg));
    const struct chv_type *rt;
    *pos = e->pos;
    CHV_RETURN_IF_ERR(chv_agg_result_type(c->a, fn, arg->type, &rt, err));
  }
  c->agg_text[c->naggs] = text;
  c->fns[c->naggs] = fn;
  c->agg_arg[c->naggs] = arg;
  c->naggs++;
  return CHV_OK;
}

/* Binds keys and aggregates over the aggregation's result batch. */
static int post_hook(struct sql_bind *b, const struct chv_sql_expr *e,
                     struct chv_expr **out, bool *done) {
  struct agg_ctx *c = b->hook_ctx;
  if (e->kind == CHV_SQL_EXPR_LITERAL) return CHV_OK;
  const char *text = expr_text(c->a, e);
  if (!text) return sql_err(b->err, CHV_ENOMEM, "out of memory");
  for (int k = 0; k < c->nkeys; k++)
    if (!strcmp(c->key_text[k], text)) {
      *done = true;
      return chv_expr_column(c->a, k, c->rschema->children[k], out, b->err);
    }
  if (e->kind == CHV_SQL_EXPR_FUNC && sql_is_aggregate(e->u.func.name))
    for (int j = 0; j < c->naggs; j++)
      if (!strcmp(c->agg_text[j], text)) {
        *done = true;
        return chv_expr_column(c->a, c->nkeys + j,
                               c->rschema->children[c->nkeys + j], out,
                               b->err);
      }
  if (e->kind == CHV_SQL_EXPR_COLUMN)
    return sql_err(b->err, CHV_EINVAL,
                   "column %s is neither in GROUP BY nor inside an aggregate",
                   text);
  return CHV_OK;
}

/* A described aggregation (CTAS, a view, a derived relation's columns):
** HAVING and the ORDER BY keys bound over the result as its rows would be,
** so that an error in them is found before anything is created or read. */
static int agg_check_rest(const struct chv_sql_query *q, struct sql_bind *pb,
                          struct chv_sql_pos *pos, struct chv_error *err) {
  struct chv_expr *x;
  if (q->having) {
    CHV_RETURN_IF_ERR(sql_bind_expr(pb, q->having, &x));
    if (x->type->id != CHV_TYPE_BOOLEAN) {
      *pos = q->having->pos;
      return sql_err(err, CHV_ETYPE, "HAVING condition is not boolean");
    }
  }
  for (size_t k = 0; k < q->norder_by; k++) {
    int ord;
    CHV_RETURN_IF_ERR(order_item(q, k, &ord, pos, err));
    if (ord >= 0) continue;
    CHV_RETURN_IF_ERR(sql_bind_expr(pb, q->order_by[k].expr, &x));
    if (!chv_type_is_primitive(x->type->id)) {
      *pos = q->order_by[k].expr->pos;
      return sql_err(err, CHV_ENOTSUP, "ORDER BY a nested type");
    }
  }
  return CHV_OK;
}

/* SELECT with GROUP BY, HAVING or aggregates: the keys and aggregate
** arguments are evaluated on each (filtered) batch and grouped by
** chv_hash_agg; the items and HAVING are then evaluated over its result. */
/* The aggregation's stage on the reader threads: each split is grouped
** into a partial aggregate of its own, and the partials are folded into
** the query's in split order as the splits end, so that the groups come
** out in the order one thread would find them. */
struct agg_stage {
  const struct chv_expr *pred;  /* the residual filter, or NULL */
  struct chv_expr **inx;        /* keys, then aggregate arguments */
  int ncol;
  const struct chv_type *in_type;
  const struct chv_hash_agg_spec *spec;
  chv_hash_agg *all;            /* the query's aggregate */
  bool plain;                   /* every input is a plain column */
  /* EXPLAIN ANALYZE: the nodes counting the rows read and kept, and the
  ** aggregation's time (NULL: not counted) */
  struct sql_plan_node *nscan, *nfilt, *nagg;
};

struct agg_part {
  chv_hash_agg *h;
  struct chv_batch *inb;        /* the inputs evaluated */
  struct chv_batch view;        /* the inputs: inb's, or the scan's own
                                   vector for a plain column */
  struct sel_buf fsel;          /* the filter's rows */
};

static void agg_part_free(struct agg_part *pt) {
  if (!pt) return;
  chv_hash_agg_close(pt->h);
  chv_batch_close(pt->inb);
  free(pt->view.cols);
  free(pt->fsel.sel);
  free(pt);
}

static int agg_stage_batch(void *ctx, void **state, const struct chv_batch *bt,
                           struct chv_batch **out, struct chv_error *err) {
  const struct agg_stage *g = ctx;
  struct agg_part *pt = *state;
  *out = NULL;
  if (!pt) {
    pt = calloc(1, sizeof *pt);
    if (!pt) return sql_err(err, CHV_ENOMEM, "out of memory");
    *state = pt;
    CHV_RETURN_IF_ERR(chv_hash_agg_open(g->in_type, g->spec, &pt->h, err));
    CHV_RETURN_IF_ERR(chv_batch_open(g->in_type, 0, &pt->inb, err));
    pt->view = *pt->inb;
    pt->view.cols = calloc((size_t)g->ncol + 1, sizeof *pt->view.cols);
    if (!pt->view.cols) return sql_err(err, CHV_ENOMEM, "out of memory");
  }
  int64_t n = bt->nrows;
  const uint32_t *rows = NULL;
  bool timed = g->nagg != NULL;
  int64_t t0 = timed ? sql_plan_now() : 0;
  sql_plan_count(g->nscan, n, 0);
  if (g->pred)
    CHV_RETURN_IF_ERR(filter_rows(g->pred, bt, &pt->fsel, &rows, &n, err));
  int64_t t1 = timed ? sql_plan_now() : 0;
  sql_plan_count(g->nfilt, n, t1 - t0);
  /* A plain column is read where the scan put it (with the filter's rows
  ** as the selection) unless an expression must be evaluated over the
  ** kept rows, which then all are, densely. */
  bool borrow = !g->pred || g->plain;
  for (int i = 0; i < g->ncol; i++) {
    if (borrow && g->inx[i]->kind == CHV_EXPR_COLUMN) {
      pt->view.cols[i] = bt->cols[g->inx[i]->column];
      continue;
    }
    CHV_RETURN_IF_ERR(chv_expr_eval(g->inx[i], bt, borrow ? NULL : rows,
                                    borrow ? bt->nrows : n, pt->inb->cols[i],
                                    err));
    pt->view.cols[i] = pt->inb->cols[i];
  }
  pt->view.nrows = borrow ? bt->nrows : n;
  int rc = chv_hash_agg_add(pt->h, &pt->view, borrow ? rows : NULL, n, err);
  sql_plan_count(g->nagg, 0, timed ? sql_plan_now() - t1 : 0);
  return rc;
}

static int agg_stage_done(void *ctx, void *state, bool ok,
                          struct chv_error *err) {
  const struct agg_stage *g = ctx;
  struct agg_part *pt = state;
  int rc = CHV_OK;
  int64_t t0 = g->nagg ? sql_plan_now() : 0;
  if (ok && pt) rc = chv_hash_agg_merge(g->all, pt->h, err);
  sql_plan_count(g->nagg, 0, g->nagg ? sql_plan_now() - t0 : 0);
  agg_part_free(pt);
  return rc;
}

static int query_agg(struct sql_session *s, chv_catalog *cat,
                     const struct chv_sql_query *q,
                     const struct chv_table *t, const struct sql_rel *rel,
                     chv_arena *a,
                     struct chv_part_filter *filter,
                     const struct chv_buf *where,
                     const struct chv_sql_expr **resid, size_t nresid,
                     int64_t limit, bool explain, struct chv_sql_pos stpos,
                     struct sql_target *ins, struct chv_sql_pos *pos,
                     struct chv_error *err) {
  struct sql_bind b, pb;
  memset(&pb, 0, sizeof pb);
  struct agg_ctx c;
  memset(&c, 0, sizeof c);
  c.a = a;
  c.in = &b;
  struct sql_result r;
  sql_result_init(&r);
  struct chv_buf ftext, cell;
  chv_buf_init(&ftext);
  chv_buf_init(&cell);
  struct sql_scan *scan = NULL;
  chv_hash_agg *h = NULL;
  struct chv_type *in_type = NULL;
  struct chv_batch *rb = NULL, *ob = NULL;
  struct chv_vector **outv = NULL, **okeys = NULL;
  uint32_t *sel = NULL;
  int nout = 0;
  const char *alias = q->from ? q->from->alias : NULL;
  int rc = sql_bind_init(&b, t, alias, a, pos, err);
  char what[512];
  b.what = sql_table_what(t, what, sizeof what);
  if (rc != CHV_OK) goto out;
  /* SELECT DISTINCT: grouped by the select items */
  bool dist = q->distinct;
  if (dist) {
    bool aggs = q->ngroup_by || q->having;
    for (size_t i = 0; i < q->nitems && !aggs; i++)
      aggs = has_agg(q->items[i].expr);
    if (aggs) {
      *pos = q->pos;
      rc = sql_err(err, CHV_ENOTSUP, "SELECT DISTINCT with GROUP BY or "
                   "aggregates is not supported yet");
      goto out;
    }
  }
  size_t ng = dist ? q->nitems : q->ngroup_by;
  c.nkeys = (int)ng;
  c.key_text = chv_arena_alloc(a, sizeof *c.key_text * (ng + 1));
  c.key_expr = chv_arena_alloc(a, sizeof *c.key_expr * (ng + 1));
  if (!c.key_text || !c.key_expr) {
    rc = sql_err(err, CHV_ENOMEM, "out of memory");
    goto out;
  }
  for (int k = 0; k < c.nkeys; k++) {
    const struct chv_sql_expr *g = dist ? q->items[k].expr : q->group_by[k];
    if (g->kind == CHV_SQL_EXPR_STAR) {
      *pos = g->pos;
      rc = sql_err(err, CHV_ENOTSUP, "SELECT DISTINCT * is not supported yet");
      goto out;
    }
    if (has_agg(g)) {
      *pos = g->pos;
      rc = sql_err(err, CHV_EINVAL, "an aggregate in GROUP BY");
      goto out;
    }
    rc = sql_bind_expr(&b, g, &c.key_expr[k]);
    if (rc != CHV_OK) goto out;
    if (!chv_type_is_primitive(c.key_expr[k]->type->id)) {
      *pos = g->pos;
      rc = sql_err(err, CHV_ENOTSUP, "GROUP BY a nested type is not supported");
      goto out;
    }
    c.key_text[k] = expr_text(a, g);
    if (!c.key_text[k]) {
      rc = sql_err(err, CHV_ENOMEM, "out of memory");
      goto out;
    }
  }
  for (size_t i = 0; i < q->nitems; i++) {
    if (q->items[i].expr->kind == CHV_SQL_EXPR_STAR) {
      *pos = q->items[i].expr->pos;
      rc = sql_err(err, CHV_EINVAL, "* with GROUP BY or aggregates");
      goto out;
    }
    rc = collect_aggs(&c, q->items[i].expr, pos, err);
    if (rc != CHV_OK) goto out;
  }
  rc = collect_aggs(&c, q->having, pos, err);
  if (rc != CHV_OK) goto out;
  struct chv_expr *pred = NULL;
  for (size_t i = 0; i < nresid; i++) {
    struct chv_expr *x;
    if (has_agg(resid[i])) {
      *pos = resid[i]->pos;
      rc = sql_err(err, CHV_EINVAL, "an aggregate in WHERE (use HAVING)");
      goto out;
    }
    rc = sql_bind_expr(&b, resid[i], &x);
    if (rc != CHV_OK) goto out;
    if (x->type->id != CHV_TYPE_BOOLEAN) {
      *pos = resid[i]->pos;
      rc = sql_err(err, CHV_ETYPE, "WHERE condition is not boolean");
      goto out;
    }
    if (i) chv_buf_puts(&ftext, " AND ");
    sql_expr_text(resid[i], &ftext);
    if (pred) {
      rc = chv_expr_and(a, pred, x, &pred, err);
      if (rc != CHV_OK) goto out;
    } else {
      pred = x;
    }
  }
  /* The aggregation's input: keys, then the aggregate arguments.  With no
  ** column used (count(*)) the scan reads none: the readers count rows
  ** (Parquet and ORC from their footers). */
  int nin = c.nkeys + c.naggs;
  int *key_cols = chv_arena_alloc(a, sizeof(int) * (size_t)(c.nkeys + 1));
  int *agg_cols = chv_arena_alloc(a, sizeof(int) * (size_t)(c.naggs + 1));
  struct chv_expr **inx = chv_arena_alloc(a, sizeof *inx * (size_t)(nin + 1));
  if (!key_cols || !agg_cols || !inx ||
      chv_type_new(CHV_TYPE_STRUCT, &in_type) != CHV_OK) {
    rc = sql_err(err, CHV_ENOMEM, "out of memory");
    goto out;
  }
  int ncol = 0;
  for (int i = 0; i < nin; i++) {
    struct chv_expr *x = i < c.nkeys ? c.key_expr[i] : c.agg_arg[i - c.nkeys];
    if (i < c.nkeys) key_cols[i] = ncol;
    else agg_cols[i - c.nkeys] = x ? ncol : -1;
    if (!x) continue;
    char fname[32];
    snprintf(fname, sizeof fname, "c%d", ncol);
    struct chv_type *ft;
    if (chv_type_clone(x->type, &ft) != CHV_OK ||
        chv_type_struct_add(in_type, fname, ft) != CHV_OK) {
      rc = sql_err(err, CHV_ENOMEM, "out of memory");
      goto out;
    }
    inx[ncol++] = x;
  }
  struct chv_hash_agg_spec spec = {c.nkeys, key_cols, c.naggs, c.fns,
                                   agg_cols, 0};
  rc = operator_memory(s, &spec.memory_limit, err);
  if (rc != CHV_OK) goto out;
  rc = chv_hash_agg_open(in_type, &spec, &h, err);
  if (rc != CHV_OK) goto out;
  struct agg_stage stage = {pred, inx, ncol, in_type, &spec, h,
                            true, NULL, NULL, NULL};
  for (int i = 0; i < ncol; i++)
    stage.plain = stage.plain && inx[i]->kind == CHV_EXPR_COLUMN;
  struct chv_scan_hook hook = {&stage, agg_stage_batch, agg_stage_done};
  struct chv_scan_options so;
  chv_scan_options_init(&so);
  so.cfg = s->cfg;
  so.cancel = &s->cancel;
  so.progress = sql_scan_progress;
  so.progress_ctx = s;
  so.hook = &hook;
  so.filter = filter;
  static const char *const no_columns[1] = {NULL};
  so.columns = b.ncols ? b.cols : no_columns;
  so.ncolumns = b.ncols;
  if (ins && ins->describe) so.limit = 0; /* the result's types only */
  if (nresid && resid_preds(t, a, resid, nresid, (struct chv_pred **)&so.preds,
                            &so.npreds) != CHV_OK) {
    rc = sql_err(err, CHV_ENOMEM, "out of memory");
    goto out;
  }
  so.table_options = s->read_options;
  so.ntable_options = s->nread_options;
  *pos = stpos;
  if (!explain) so.threads = sql_scan_threads(s, cat, t, &so);
  /* The plan: [Limit | Sort | TopN] -> Project -> [Filter (HAVING)] ->
  ** Aggregate -> [Filter] -> Scan. */
  struct sql_plan_node *nlim = NULL, *nsort = NULL, *nproj = NULL,
                       *nhav = NULL, *nagg = NULL, *nfilt = NULL,
                       *nscan = NULL;
  if (plan_on(s, explain, ins)) {
    struct sql_plan_node *at = order_nodes(s, q, limit, &nlim, &nsort);
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
    at = nproj = sql_plan_node(s, at, "Project: [%s]",
                               cell.data ? cell.data : "");
    if (q->having) {
      chv_buf_reset(&cell);
      sql_expr_text(q->having, &cell);
      at = nhav = sql_plan_node(s, at, "Filter: %s",
                                cell.data ? cell.data : "");
    }
    chv_buf_reset(&cell);
    for (int k = 0; k < c.nkeys; k++)
      chv_buf_printf(&cell, "%s%s", k ? ", " : "", c.key_text[k]);
    if (dist) {
      at = nagg = sql_plan_node(s, at, "Distinct: [%s]",
                                cell.data ? cell.data : "");
    } else {
      struct chv_buf ag;
      chv_buf_init(&ag);
      for (int j = 0; j < c.naggs; j++)
        chv_buf_printf(&ag, "%s%s", j ? ", " : "", c.agg_text[j]);
      at = nagg = sql_plan_node(
          s, at, "Aggregate:%s%s%s%s%s", c.nkeys ? " keys=[" : "",
          c.nkeys ? cell.data : "", c.nkeys ? "]" : "",
          c.naggs ? " aggregates=[" : "", c.naggs ? ag.data : "");
      if (c.naggs) sql_plan_text(nagg, "]");
      chv_buf_free(&ag);
    }
    if (pred)
      at = nfilt = sql_plan_node(s, at, "Filter: %s",
                                 ftext.data ? ftext.data : "");
    nscan = scan_node(s, at);
  }
  bool analyze = sql_plan_analyze(s) && nproj;
  if (analyze) {
    stage.nscan = nscan;
    stage.nfilt = nfilt;
    stage.nagg = nagg;
  }
  int64_t t0 = plan_clock(s);
  rc = sql_scan_open(cat, t, rel, &so, &scan, err);
  if (rc == CHV_ETYPE && q->where) *pos = q->where->pos;
  if (rc != CHV_OK) goto out;
  if (explain) {
    scan_describe(s, nscan, cat, t, scan, &so, b.cols, b.ncols, so.limit,
                  where, 0);
    goto out;
  }
  struct chv_batch *bt; /* none: the stage keeps them */
  while ((rc = sql_scan_next(scan, &bt, err)) == CHV_OK && bt) {
  }
  if (rc != CHV_OK) goto out;
  int64_t scan_ns = plan_since(t0);
  t0 = plan_clock(s);
  rc = chv_hash_agg_result(h, &rb, err);
  if (rc != CHV_OK) goto out;
  if (analyze) {
    sql_plan_count(nagg, rb->nrows, plan_since(t0));
    scan_describe(s, nscan, cat, t, scan, &so, b.cols, b.ncols, so.limit,
                  where, scan_ns);
  }
  c.rschema = rb->schema;
  /* The items and HAVING over the result. */
  rc = sql_bind_init(&pb, t, alias, a, pos, err);
  char pwhat[512];
  pb.what = sql_table_what(t, pwhat, sizeof pwhat);
  if (rc != CHV_OK) goto out;
  pb.hook = post_hook;
  pb.hook_ctx = &c;
  struct chv_expr **ex = chv_arena_alloc(a, sizeof *ex * (q->nitems + 1));
  const char **heads = chv_arena_alloc(a, sizeof *heads * (q->nitems + 1));
  outv = calloc(q->nitems + 1, sizeof *outv);
  if (!ex || !heads || !outv) {
    rc = sql_err(err, CHV_ENOMEM, "out of memory");
    goto out;
  }
  for (size_t i = 0; i < q->nitems; i++) {
    const struct chv_sql_expr *e = q->items[i].expr;
    rc = sql_bind_expr(&pb, e, &ex[nout]);
    if (rc != CHV_OK) goto out;
    if (q->items[i].alias) {
      heads[nout] = q->items[i].alias;
    } else if (e->kind == CHV_SQL_EXPR_COLUMN) {
      heads[nout] = e->u.column.parts[e->u.column.nparts - 1];
    } else {
      char *hd = chv_arena_alloc(a, 24);
      if (!hd) {
        rc = sql_err(err, CHV_ENOMEM, "out of memory");
        goto out;
      }
      snprintf(hd, 24, "_c%d", nout);
      heads[nout] = hd;
    }
    nout++;
  }
  if (ins) {
    rc = target_casts(ins, q, t, a, ex, heads, nout, pos, err);
    if (rc == CHV_OK && ins->describe) rc = agg_check_rest(q, &pb, pos, err);
    if (rc != CHV_OK || ins->describe) goto out;
  }
  int64_t n = rb->nrows;
  const uint32_t *rows = NULL;
  t0 = plan_clock(s);
  if (q->having) {
    struct chv_expr *hv;
    rc = sql_bind_expr(&pb, q->having, &hv);
    if (rc != CHV_OK) goto out;
    if (hv->type->id != CHV_TYPE_BOOLEAN) {
      *pos = q->having->pos;
      rc = sql_err(err, CHV_ETYPE, "HAVING condition is not boolean");
      goto out;
    }
    free(sel);
    sel = malloc(sizeof *sel * (size_t)(n + 1));
    if (!sel) {
      rc = sql_err(err, CHV_ENOMEM, "out of memory");
      goto out;
    }
    rc = chv_expr_filter(hv, rb, NULL, rb->nrows, sel, &n, err);
    if (rc != CHV_OK) goto out;
    rows = sel;
    if (analyze) sql_plan_count(nhav, n, plan_since(t0));
  }
  if (limit >= 0 && n > limit && !q->norder_by) n = limit;
  if (analyze) sql_plan_count(nlim, n, 0);
  t0 = plan_clock(s);
  if (ins && !q->norder_by) {
    rc = chv_batch_open(ins->schema, 0, &ob, err);
    for (int i = 0; i < nout && rc == CHV_OK; i++)
      rc = chv_expr_eval(ex[i], rb, rows, n, ob->cols[i], err);
    if (analyze) sql_plan_count(nproj, n, plan_since(t0));
    if (rc == CHV_OK) rc = target_write(ins, ob, n, err);
    goto out;
  }
  for (int i = 0; i < nout; i++) {
    rc = chv_vector_open(ex[i]->type, 0, &outv[i], err);
    if (rc == CHV_OK) rc = chv_expr_eval(ex[i], rb, rows, n, outv[i], err);
    if (rc != CHV_OK) goto out;
  }
  if (analyze) sql_plan_count(nproj, n, plan_since(t0));
  t0 = plan_clock(s);
  if (analyze && nsort)
    sql_plan_count(nsort, limit >= 0 && n > limit ? limit : n, 0);
  int nok = (int)q->norder_by;
  if (nok) {
    okeys = calloc((size_t)nok + 1, sizeof *okeys);
    if (!okeys) {
      rc = sql_err(err, CHV_ENOMEM, "out of memory");
      goto out;
    }
  }
  for (int k = 0; k < nok; k++) {
    int ord;
    struct chv_expr *x;
    rc = order_item(q, (size_t)k, &ord, pos, err);
    if (rc == CHV_OK && ord < 0) {
      rc = sql_bind_expr(&pb, q->order_by[k].expr, &x);
    } else if (rc == CHV_OK) {
      x = ex[ord];
    }
    if (rc != CHV_OK) goto out;
    if (!chv_type_is_primitive(x->type->id)) {
      *pos = q->order_by[k].expr->pos;
      rc = sql_err(err, CHV_ENOTSUP, "ORDER BY a nested type");
      goto out;
    }
    rc = chv_vector_open(x->type, 0, &okeys[k], err);
    if (rc == CHV_OK) rc = chv_expr_eval(x, rb, rows, n, okeys[k], err);
    if (rc != CHV_OK) goto out;
  }
  if (ins) {
    rc = chv_batch_open(ins->schema, 0, &ob, err);
    if (rc == CHV_OK)
      rc = sort_emit(&r, heads, outv, nout, okeys, q->order_by, nok, n, limit,
                     &cell, ins, ob, err);
    if (analyze) sql_plan_count(nsort, 0, plan_since(t0));
    goto out;
  }
  {
    const struct chv_type **ty =
        chv_arena_alloc(a, sizeof *ty * (size_t)(nout + 1));
    if (!ty) {
      rc = sql_err(err, CHV_ENOMEM, "out of memory");
      goto out;
    }
    for (int k = 0; k < nout; k++) ty[k] = outv[k]->type;
    rc = sql_result_typed(s, &r, nout, heads, ty, err);
  }
  if (rc == CHV_OK)
    rc = sort_emit(&r, heads, outv, nout, okeys, q->order_by, nok, n, limit,
                   &cell, NULL, NULL, err);
  if (analyze) sql_plan_count(nsort, 0, plan_since(t0));
  if (rc == CHV_OK) rc = sql_result_emit(s, &r, err);
out:
  if (okeys)
    for (size_t k = 0; k < q->norder_by; k++) chv_vector_close(okeys[k]);
  free(okeys);
  if (outv)
    for (int i = 0; i < nout; i++) chv_vector_close(outv[i]);
  free(outv);
  free(sel);
  chv_batch_close(ob);
  chv_batch_close(rb);
  sql_scan_close(scan);
  chv_hash_agg_close(h);
  chv_type_free(in_type);
  chv_buf_free(&ftext);
  chv_buf_free(&cell);
  sql_result_free(&r);
  if (pb.t) sql_bind_free(&pb);
  sql_bind_free(&b);
  return rc;
}

/* SELECT DISTINCT *: q with each * replaced by t's columns (data columns,
** then partition keys), in the arena; q itself when it has no *. */
static int expand_stars(const struct chv_sql_query *q,
                        const struct chv_table *t, const char *alias,
                        chv_arena *a, const struct chv_sql_query **out,
                        struct chv_sql_pos *pos, struct chv_error *err) {
  size_t n = 0, nstar = 0;
  int nt = t->ncols + t->npkeys;
  for (size_t i = 0; i < q->nitems; i++) {
    const struct chv_sql_expr *e = q->items[i].expr;
    if (e->kind != CHV_SQL_EXPR_STAR) {
      n++;
      continue;
    }
    if (!qualifier_ok(&e->u.star, e->u.star.nparts, t, alias)) {
      *pos = e->pos;
      return sql_err(err, CHV_ENOENT, "unknown table qualifier '%s' in %s.*",
                     e->u.star.parts[e->u.star.nparts - 1],
                     e->u.star.parts[e->u.star.nparts - 1]);
    }
    n += (size_t)nt;
    nstar++;
  }
  if (!nstar) return CHV_OK;
  struct chv_sql_query *dq = chv_arena_alloc(a, sizeof *dq);
  struct chv_sql_select_item *items =
      chv_arena_alloc(a, sizeof *items * (n + 1));
  struct chv_sql_expr *cols =
      chv_arena_alloc(a, sizeof *cols * (nstar * (size_t)nt + 1));
  if (!dq || !items || !cols) return sql_err(err, CHV_ENOMEM, "out of memory");
  *dq = *q;
  size_t k = 0, m = 0;
  for (size_t i = 0; i < q->nitems; i++) {
    const struct chv_sql_expr *e = q->items[i].expr;
    if (e->kind != CHV_SQL_EXPR_STAR) {
      items[k++] = q->items[i];
      continue;
    }
    for (int c = 0; c < nt; c++, m++) {
      memset(&cols[m], 0, sizeof cols[m]);
      cols[m].kind = CHV_SQL_EXPR_COLUMN;
      cols[m].pos = e->pos;
      cols[m].u.column.nparts = 1;
      cols[m].u.column.parts[0] =
          c < t->ncols ? t->columns[c].name : t->pkeys[c - t->ncols].name;
      items[k].expr = &cols[m];
      items[k++].alias = NULL;
    }
  }
  dq->items = items;
  dq->nitems = n;
  *out = dq;
  return CHV_OK;
}

/* A SELECT over one source: the catalog table t (cat), or the derived
** relation rel (t = &rel->t). */
static int run_select(struct sql_session *s, const struct chv_sql_query *q,
                      chv_catalog *cat, const struct chv_table *tp,
                      const struct sql_rel *rel, struct chv_sql_pos stpos,
                      bool explain, struct sql_target *ins,
                      struct chv_sql_pos *pos, struct chv_error *err) {
  const char *falias = q->from ? q->from->alias : NULL;
  int rc = CHV_OK;
  chv_arena *a = NULL;
  struct sql_scan *scan = NULL;
  struct chv_buf where;
  chv_buf_init(&where);
  struct sql_result r;
  sql_result_init(&r);
  if (chv_arena_open(0, &a) != CHV_OK) {
    rc = sql_err(err, CHV_ENOMEM, "out of memory");
    goto out;
  }
  /* The projection: column names, with * expanded when mixed. */
  int cap = tp->ncols + tp->npkeys;
  for (size_t i = 0; i < q->nitems; i++) cap += 1;
  const char **cols = chv_arena_alloc(a, sizeof *cols * (size_t)(cap + 1) *
                                             (q->nitems + 1));
  const char **heads = chv_arena_alloc(a, sizeof *heads * (size_t)(cap + 1) *
                                              (q->nitems + 1));
  if (!cols || !heads) {
    rc = sql_err(err, CHV_ENOMEM, "out of memory");
    goto out;
  }
  int ncols = 0;
  bool all = q->nitems == 1 && q->items[0].expr->kind == CHV_SQL_EXPR_STAR;
  bool exprs = false;
  for (size_t i = 0; i < q->nitems && !exprs; i++) {
    const struct chv_sql_expr *e = q->items[i].expr;
    *pos = e->pos;
    if (e->kind == CHV_SQL_EXPR_STAR) {
      if (!qualifier_ok(&e->u.star, e->u.star.nparts, tp, falias)) {
        rc = sql_err(err, CHV_ENOENT, "unknown table qualifier '%s' in %s.*",
                     e->u.star.parts[e->u.star.nparts - 1],
                     e->u.star.parts[e->u.star.nparts - 1]);
        goto out;
      }
      for (int c = 0; c < tp->ncols; c++)
        cols[ncols] = heads[ncols] = tp->columns[c].name, ncols++;
      for (int k = 0; k < tp->npkeys; k++)
        cols[ncols] = heads[ncols] = tp->pkeys[k].name, ncols++;
    } else if (e->kind == CHV_SQL_EXPR_COLUMN) {
      int np = e->u.column.nparts;
      const char *n = e->u.column.parts[np - 1];
      if (!qualifier_ok(&e->u.column, np - 1, tp, falias)) {
        rc = sql_err(err, CHV_ENOENT, "unknown table qualifier '%s' in %s.%s",
                     e->u.column.parts[np - 2], e->u.column.parts[np - 2], n);
        goto out;
      }
      if (find_column(tp, n, &cols[ncols]) != CHV_OK) {
        char tn[512];
        rc = sql_err(err, CHV_ENOENT, "column '%s' does not exist in %s", n,
                     sql_table_what(tp, tn, sizeof tn));
        goto out;
      }
      heads[ncols] = q->items[i].alias ? q->items[i].alias : cols[ncols];
      ncols++;
    } else {
      exprs = true;
    }
  }
  int64_t limit = -1;
  if (q->limit) {
    *pos = q->limit->pos;
    const char *lt;
    if (q->limit->kind != CHV_SQL_EXPR_LITERAL ||
        q->limit->u.lit.kind != CHV_SQL_LIT_INTEGER ||
        sql_literal_text(q->limit, a, &lt, err) != CHV_OK ||
        !parse_int(lt, &limit) || limit < 0) {
      rc = sql_err(err, CHV_ENOTSUP,
                   "LIMIT takes a non-negative integer literal");
      goto out;
    }
  }
  /* The scan reads each column once; map[c] is output column c's place
  ** among the scan's columns. */
  const char **scols = chv_arena_alloc(a, sizeof *scols * (size_t)(ncols + 1));
  int *map = chv_arena_alloc(a, sizeof *map * (size_t)(ncols + 1));
  if (!scols || !map) {
    rc = sql_err(err, CHV_ENOMEM, "out of memory");
    goto out;
  }
  int nscols = 0;
  for (int c = 0; c < ncols; c++) {
    int k = 0;
    while (k < nscols && strcmp(scols[k], cols[c])) k++;
    if (k == nscols) scols[nscols++] = cols[c];
    map[c] = k;
  }
  struct chv_part_filter *filter = NULL;
  const struct chv_sql_expr **resid = NULL;
  size_t nresid = 0;
  if (q->where) {
    struct where_ctx w = {tp, a, &where, pos, err};
    if (where_conv(&w, q->where, &filter) != CHV_OK) {
      rc = split_where(tp, a, q->where, &filter, &where, &resid, &nresid,
                       pos, err);
      if (rc != CHV_OK) goto out;
    }
  }
  if (q->distinct) {
    rc = expand_stars(q, tp, falias, a, &q, pos, err);
    if (rc != CHV_OK) goto out;
  }
  bool agg = q->ngroup_by || q->having || q->distinct;
  for (size_t i = 0; i < q->nitems && !agg; i++) agg = has_agg(q->items[i].expr);
  if (agg) {
    *pos = q->pos;
    rc = query_agg(s, cat, q, tp, rel, a, filter, &where, resid, nresid, limit, explain,
                   stpos, ins, pos, err);
    goto out;
  }
  if (exprs || nresid || ins || q->norder_by) {
    rc = query_exprs(s, cat, q, tp, rel, a, filter, &where, resid, nresid, limit,
                     explain, stpos, ins, pos, err);
    goto out;
  }
  struct chv_scan_options so;
  chv_scan_options_init(&so);
  so.cfg = s->cfg;
  so.cancel = &s->cancel;
  so.progress = sql_scan_progress;
  so.progress_ctx = s;
  so.filter = filter;
  so.columns = all ? NULL : scols;
  so.ncolumns = all ? 0 : nscols;
  so.limit = limit;
  so.table_options = s->read_options;
  so.ntable_options = s->nread_options;
  if (!explain) so.threads = sql_scan_threads(s, cat, tp, &so);
  *pos = stpos;
  /* The plan: [Limit] -> [Project] -> Scan; no Project when the scan's
  ** columns are the result's. */
  struct sql_plan_node *nlim = NULL, *nproj = NULL, *nscan = NULL;
  if (plan_on(s, explain, ins)) {
    struct sql_plan_node *at = NULL;
    if (limit >= 0)
      at = nlim = sql_plan_node(s, NULL, "Limit: %lld", (long long)limit);
    bool same = all || ncols == nscols;
    for (int c = 0; same && c < ncols; c++)
      same = map[c] == c && !strcmp(heads[c], cols[c]);
    if (!same) {
      struct chv_buf pt;
      chv_buf_init(&pt);
      for (int c = 0; c < ncols; c++) {
        chv_buf_printf(&pt, "%s%s", c ? ", " : "", cols[c]);
        if (strcmp(heads[c], cols[c])) chv_buf_printf(&pt, " AS %s", heads[c]);
      }
      at = nproj = sql_plan_node(s, at, "Project: [%s]",
                                 pt.data ? pt.data : "");
      chv_buf_free(&pt);
    }
    nscan = scan_node(s, at);
  }
  bool analyze = sql_plan_analyze(s) && nscan;
  int64_t t0 = plan_clock(s), scan_ns = 0, nrows = 0;
  rc = sql_scan_open(cat, tp, rel, &so, &scan, err);
  scan_ns += plan_since(t0);
  if (rc == CHV_ETYPE && q->where) *pos = q->where->pos; /* a literal */
  if (rc != CHV_OK) goto out;
  if (explain) {
    scan_describe(s, nscan, cat, tp, scan, &so, scols, nscols, limit, &where,
                  0);
    goto out;
  }
  struct chv_batch *b;
  const struct chv_vector **vecs =
      chv_arena_alloc(a, sizeof *vecs * (size_t)(ncols + 1));
  const struct chv_type **ty =
      chv_arena_alloc(a, sizeof *ty * (size_t)(ncols + 1));
  if (!vecs || !ty) {
    rc = sql_err(err, CHV_ENOMEM, "out of memory");
    goto out;
  }
  for (int c = 0; c < ncols; c++) ty[c] = sql_scan_type(scan, map[c]);
  rc = sql_result_typed(s, &r, ncols, heads, ty, err);
  while (rc == CHV_OK) {
    t0 = plan_clock(s);
    rc = sql_scan_next(scan, &b, err);
    scan_ns += plan_since(t0);
    if (rc != CHV_OK || !b) break;
    nrows += b->nrows;
    for (int c = 0; c < ncols; c++) vecs[c] = b->cols[map[c]];
    rc = sql_result_rows(&r, vecs, NULL, b->nrows, err);
  }
  if (rc == CHV_OK && analyze) {
    sql_plan_count(nlim, nrows, 0);
    sql_plan_count(nproj, nrows, 0);
    sql_plan_count(nscan, nrows, 0);
    scan_describe(s, nscan, cat, tp, scan, &so, scols, nscols, limit, &where,
                  scan_ns);
  }
  if (rc == CHV_OK) rc = sql_result_emit(s, &r, err);
out:
  sql_result_free(&r);
  chv_buf_free(&where);
  sql_scan_close(scan);
  chv_arena_close(a);
  return rc;
}

/* ---- derived relations: sub-queries, WITH, UNION --------------------------------- */

/* The WITH queries in scope while a statement runs: a query's own, then
** those of the queries around it.  A WITH query sees the ones before it. */
struct sql_scope {
  const struct chv_sql_cte *ctes;
  size_t visible;        /* ctes[0, visible) can be named */
  struct sql_rel **rels; /* each one's rows, once run (shared by the scopes
                            of one WITH) */
  struct sql_scope *up;
};

/* EXPLAIN: the plan of q under the node at (a pending node, whose
** children the scan reading q's rows adopts). */
static int explain_nested(struct sql_session *s, struct sql_plan_node *at,
                          const struct chv_sql_query *q,
                          struct chv_sql_pos stpos, struct chv_sql_pos *pos,
                          struct chv_error *err) {
  struct sql_plan_node *saved = s->plan_at;
  bool into = s->plan_into;
  s->plan_at = at;
  s->plan_into = true; /* its rows go into a relation */
  int rc = run_query(s, q, stpos, true, NULL, pos, err);
  s->plan_at = saved;
  s->plan_into = into;
  return rc;
}

/* Runs q into a new relation named name (what: how errors name it).  With
** rows false only its columns are found: nothing is read. */
static int derive(struct sql_session *s, const struct chv_sql_query *q,
                  const char *name, const char *what, bool rows,
                  struct chv_sql_pos stpos, struct sql_rel **out,
                  struct chv_sql_pos *pos, struct chv_error *err) {
  struct sql_target d = {.describe = true};
  int rc = run_query(s, q, stpos, false, &d, pos, err);
  if (rc != CHV_OK) {
    chv_type_free(d.described);
    return rc;
  }
  struct sql_rel *rel;
  size_t mem;
  rc = operator_memory(s, &mem, err);
  if (rc != CHV_OK) {
    chv_type_free(d.described);
    return rc;
  }
  rc = sql_rel_open(name, what, d.described, mem, &rel, err);
  if (rc != CHV_OK) {
    *pos = q->pos;
    return rc;
  }
  if (rows) {
    struct sql_target tg = {.rel = rel, .schema = rel->schema};
    rc = run_query(s, q, stpos, false, &tg, pos, err);
  }
  if (rc != CHV_OK) {
    sql_rel_close(rel);
    return rc;
  }
  *out = rel;
  return CHV_OK;
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

/* The rows of WITH query i of scope in, run once (rows true) and kept in
** the scope; with rows false, a relation of its columns only that the
** caller closes (*owned true). */
static int cte_rel(struct sql_session *s, struct sql_scope *in, size_t i,
                   bool rows, struct chv_sql_pos stpos, struct sql_rel **out,
                   bool *owned, struct chv_sql_pos *pos,
                   struct chv_error *err) {
  *owned = false;
  if (in->rels[i]) {
    *out = in->rels[i];
    return CHV_OK;
  }
  const struct chv_sql_cte *c = &in->ctes[i];
  char what[160];
  snprintf(what, sizeof what, "WITH query %s", c->name);
  /* it sees the WITH queries before it, and those around its WITH */
  struct sql_scope sees = {in->ctes, i, in->rels, in->up}, *saved = s->scope;
  s->scope = &sees;
  int rc = derive(s, c->query, c->name, what, rows, stpos, out, pos, err);
  s->scope = saved;
  if (rc != CHV_OK) return rc;
  if (rows)
    in->rels[i] = *out;
  else
    *owned = true;
  return CHV_OK;
}

/* UNION [ALL]: the branches' columns get the common types of each pair.
** UNION ALL into a target (an INSERT, a relation) without ORDER BY or
** LIMIT runs each branch into it in turn; otherwise the rows are gathered
** into a relation and the ORDER BY, LIMIT and (UNION) the removal of
** duplicates run over it as a SELECT. */
static int run_union(struct sql_session *s, const struct chv_sql_query *q,
                     struct chv_sql_pos stpos, bool explain,
                     struct sql_target *ins, struct chv_sql_pos *pos,
                     struct chv_error *err) {
  const char *kind = q->all ? "UNION ALL" : "UNION";
  struct sql_target dl = {.describe = true}, dr = {.describe = true};
  struct chv_type *common = NULL;
  struct sql_rel *rel = NULL;
  chv_arena *a = NULL;
  int rc = run_query(s, q->left, stpos, false, &dl, pos, err);
  if (rc == CHV_OK) rc = run_query(s, q->right, stpos, false, &dr, pos, err);
  if (rc != CHV_OK) goto out;
  const struct chv_type *lt = dl.described, *rt = dr.described;
  *pos = q->right->pos;
  if (lt->nchildren != rt->nchildren) {
    rc = sql_err(err, CHV_EINVAL, "the branches of a %s give %d and %d columns",
                 kind, lt->nchildren, rt->nchildren);
    goto out;
  }
  if (chv_arena_open(0, &a) != CHV_OK ||
      chv_type_new(CHV_TYPE_STRUCT, &common) != CHV_OK) {
    rc = sql_err(err, CHV_ENOMEM, "out of memory");
    goto out;
  }
  for (int c = 0; c < lt->nchildren; c++) {
    const struct chv_type *ct =
        chv_exec_union_type(a, lt->children[c], rt->children[c]);
    struct chv_type *cl = NULL;
    if (!ct) {
      char l[64], r[64];
      type_name(lt->children[c], l, sizeof l);
      type_name(rt->children[c], r, sizeof r);
      rc = sql_err(err, CHV_ETYPE,
                   "%s column %d (%s): %s and %s have no common type", kind,
                   c + 1, lt->names[c], l, r);
      goto out;
    }
    if (chv_type_clone(ct, &cl) != CHV_OK ||
        chv_type_struct_add(common, lt->names[c], cl) != CHV_OK) {
      rc = sql_err(err, CHV_ENOMEM, "out of memory");
      goto out;
    }
  }
  if (ins && ins->describe) {
    ins->described = common;
    common = NULL;
    goto out;
  }
  /* The plan: a Union node over the branches' plans; the Scan of the rows
  ** it gathered above it, when it gathers them. */
  bool plan = plan_on(s, explain, ins);
  struct sql_plan_node *saved = s->plan_at;
  bool into = s->plan_into;
  if (q->all && !q->norder_by && !q->limit && (ins || (explain && into))) {
    if (plan) s->plan_at = sql_plan_node(s, NULL, "Union All");
    rc = run_query(s, q->left, stpos, explain, ins, pos, err);
    if (rc == CHV_OK)
      rc = run_query(s, q->right, stpos, explain, ins, pos, err);
    s->plan_at = saved;
    goto out;
  }
  size_t mem;
  rc = operator_memory(s, &mem, err);
  if (rc != CHV_OK) goto out;
  rc = sql_rel_open("", kind, common, mem, &rel, err);
  common = NULL;
  if (rc != CHV_OK) goto out;
  struct sql_plan_node *held = NULL;
  if (plan) {
    held = sql_plan_pending(s);
    s->plan_at = sql_plan_node(s, held, "%s", q->all ? "Union All" : "Union");
  }
  struct sql_target tg = {.rel = rel, .schema = rel->schema};
  s->plan_into = true; /* the branches' rows go into rel */
  rc = run_query(s, q->left, stpos, explain, explain ? NULL : &tg, pos, err);
  if (rc == CHV_OK)
    rc = run_query(s, q->right, stpos, explain, explain ? NULL : &tg, pos,
                   err);
  s->plan_into = into;
  s->plan_at = saved;
  if (rc != CHV_OK) goto out;
  s->plan_input = held;
  /* SELECT [DISTINCT] * FROM rel ORDER BY ... LIMIT ... */
  struct chv_sql_expr star = {.kind = CHV_SQL_EXPR_STAR, .pos = q->pos};
  struct chv_sql_select_item item = {.expr = &star};
  struct chv_sql_query sel = {.kind = CHV_SQL_QUERY_SELECT, .pos = q->pos,
                              .distinct = !q->all, .items = &item,
                              .nitems = 1, .order_by = q->order_by,
                              .norder_by = q->norder_by, .limit = q->limit};
  rc = run_select(s, &sel, NULL, &rel->t, rel, stpos, explain, ins, pos, err);
  s->plan_input = NULL;
out:
  chv_type_free(common);
  chv_type_free(dl.described);
  chv_type_free(dr.described);
  sql_rel_close(rel);
  chv_arena_close(a);
  return rc;
}

/* A view named in FROM: its expanded text (views.c reads it and keeps a
** view from reading itself) run as a derived relation named by the alias
** or the view. */
static int view_rel(struct sql_session *s, const struct chv_sql_from *f,
                    chv_catalog *cat, const struct chv_table *t, bool rows,
                    bool explain, struct sql_plan_node *held,
                    struct chv_sql_pos stpos, struct sql_rel **out,
                    struct chv_sql_pos *pos, struct chv_error *err) {
  struct sql_view *v;
  int rc = sql_view_open(s, cat, t, &v, err);
  if (rc != CHV_OK) {
    *pos = f->pos;
    return rc;
  }
  char what[600];
  snprintf(what, sizeof what, "view %s.%s", t->db, t->name);
  struct sql_plan_node *saved = s->plan_at;
  if (explain) rc = explain_nested(s, held, sql_view_query(v), stpos, pos, err);
  s->plan_at = explain ? saved : held;
  if (rc == CHV_OK)
    rc = derive(s, sql_view_query(v), f->alias ? f->alias : t->name, what,
                rows, stpos, out, pos, err);
  s->plan_at = saved;
  if (rc == CHV_OK && (rc = sql_view_columns(t, *out, err)) != CHV_OK) {
    sql_rel_close(*out);
    *out = NULL;
  }
  return sql_view_close(s, v, rc, f->pos, pos, err);
}

/* The FROM of q (a table, a view, a WITH query or a sub-query), then the
** SELECT over it. */
static int run_from(struct sql_session *s, const struct chv_sql_query *q,
                    struct chv_sql_pos stpos, bool explain,
                    struct sql_target *ins, struct chv_sql_pos *pos,
                    struct chv_error *err) {
  const char *what = unsupported_query(q, pos);
  if (what) return sql_err(err, CHV_ENOTSUP, "%s is not supported yet", what);
  if (!q->from) return query_values(s, q, stpos, explain, ins, pos, err);
  const struct chv_sql_from *f = q->from;
  /* rows are read unless the query only explains or describes itself */
  bool rows = !explain && !(ins && ins->describe);
  struct sql_rel *rel = NULL;
  bool owned = true;
  int rc;
  struct sql_scope *in;
  size_t ci;
  /* The plan of the relation read goes under a pending node, which the
  ** scan of its rows adopts: explained here, or built as it runs. */
  struct sql_plan_node *held = plan_on(s, explain, ins)
                                   ? sql_plan_pending(s) : NULL;
  struct sql_plan_node *saved = s->plan_at;
  bool cte = f->kind == CHV_SQL_FROM_TABLE && scope_find(s, &f->table, &in, &ci);
  if ((f->kind == CHV_SQL_FROM_SUBQUERY || cte) && f->hints.n) {
    char dn[200];
    if (cte)
      snprintf(dn, sizeof dn, "WITH query %s", in->ctes[ci].name);
    else
      snprintf(dn, sizeof dn, "the sub-query%s%s", f->alias ? " " : "",
               f->alias ? f->alias : "");
    *pos = f->hints.items[0].pos;
    return sql_err(err, CHV_EINVAL,
                   "an OPTIONS hint applies to a table, and %s is a derived "
                   "table (the rows of a query)",
                   dn);
  }
  if (f->kind == CHV_SQL_FROM_SUBQUERY) {
    char wh[160];
    if (f->alias)
      snprintf(wh, sizeof wh, "sub-query %s", f->alias);
    else
      snprintf(wh, sizeof wh, "the sub-query in FROM");
    if (explain) {
      rc = explain_nested(s, held, f->subquery, stpos, pos, err);
      if (rc != CHV_OK) return rc;
    }
    s->plan_at = explain ? saved : held;
    rc = derive(s, f->subquery, f->alias ? f->alias : "", wh, rows, stpos,
                &rel, pos, err);
    s->plan_at = saved;
  } else if (cte) {
    if (explain) {
      rc = explain_nested(s, held, in->ctes[ci].query, stpos, pos, err);
      if (rc != CHV_OK) return rc;
    }
    s->plan_at = explain ? saved : held;
    rc = cte_rel(s, in, ci, rows, stpos, &rel, &owned, pos, err);
    s->plan_at = saved;
  } else {
    *pos = f->pos;
    chv_catalog *cat = s->cat;
    struct chv_table t;
    rc = sql_get_table(s, &f->table, &cat, &t, err);
    if (rc != CHV_OK) return rc;
    if (t.type != CHV_VIRTUAL_VIEW) {
      /* the table's OPTIONS hint: its options for this read */
      chv_arena *ha = NULL;
      struct chv_kv *topts = NULL;
      int ntopts = 0;
      if (f->options.n) {
        char tn[512];
        snprintf(tn, sizeof tn, "%s.%s", t.db, t.name);
        rc = chv_arena_open(0, &ha) == CHV_OK
                 ? sql_hint_options(s, &f->options, tn, true, ha, &topts,
                                    &ntopts, pos, err)
                 : sql_err(err, CHV_ENOMEM, "out of memory");
      }
      const struct chv_kv *sopts = s->read_options;
      int nsopts = s->nread_options;
      s->read_options = topts;
      s->nread_options = ntopts;
      if (rc == CHV_OK)
        rc = run_select(s, q, cat, &t, NULL, stpos, explain, ins, pos, err);
      s->read_options = sopts;
      s->nread_options = nsopts;
      chv_arena_close(ha);
      chv_table_free(&t);
      return rc;
    }
    if (f->options.n) {
      *pos = f->options.items[0].pos;
      rc = sql_err(err, CHV_EINVAL,
                   "an OPTIONS hint sets the options of a table, and %s.%s is "
                   "a view; put the hint on the tables the view reads",
                   t.db, t.name);
    } else {
      rc = view_rel(s, f, cat, &t, rows, explain, held, stpos, &rel, pos,
                    err);
    }
    chv_table_free(&t);
  }
  if (rc != CHV_OK) return rc;
  s->plan_input = held;
  rc = run_select(s, q, NULL, &rel->t, rel, stpos, explain, ins, pos, err);
  s->plan_input = NULL;
  if (owned) sql_rel_close(rel);
  return rc;
}

static int run_query(struct sql_session *s, const struct chv_sql_query *q,
                     struct chv_sql_pos stpos, bool explain,
                     struct sql_target *ins, struct chv_sql_pos *pos,
                     struct chv_error *err) {
  if (!q->nctes)
    return q->kind == CHV_SQL_QUERY_UNION
               ? run_union(s, q, stpos, explain, ins, pos, err)
               : run_from(s, q, stpos, explain, ins, pos, err);
  for (size_t i = 0; i < q->nctes; i++)
    for (size_t k = 0; k < i; k++)
      if (!strcasecmp(q->ctes[i].name, q->ctes[k].name)) {
        *pos = q->ctes[i].pos;
        return sql_err(err, CHV_EINVAL, "WITH names '%s' twice",
                       q->ctes[i].name);
      }
  struct sql_scope sc = {q->ctes, q->nctes,
                         calloc(q->nctes, sizeof(struct sql_rel *)), s->scope};
  if (!sc.rels) return sql_err(err, CHV_ENOMEM, "out of memory");
  s->scope = &sc;
  int rc = q->kind == CHV_SQL_QUERY_UNION
               ? run_union(s, q, stpos, explain, ins, pos, err)
               : run_from(s, q, stpos, explain, ins, pos, err);
  s->scope = sc.up;
  for (size_t i = 0; i < q->nctes; i++) sql_rel_close(sc.rels[i]);
  free(sc.rels);
  return rc;
}

/* A query without FROM: its expressions over one row of no columns. */
static int query_values(struct sql_session *s, const struct chv_sql_query *q,
                        struct chv_sql_pos stpos, bool explain,
                        struct sql_target *ins, struct chv_sql_pos *pos,
                        struct chv_error *err) {
  *pos = q->pos;
  if (q->ngroup_by || q->having || q->distinct)
    return sql_err(err, CHV_ENOTSUP,
                   "GROUP BY, HAVING and DISTINCT need a FROM clause");
  for (size_t i = 0; i < q->nitems; i++)
    if (has_agg(q->items[i].expr)) {
      *pos = q->items[i].expr->pos;
      return sql_err(err, CHV_ENOTSUP, "aggregates need a FROM clause");
    }
  if (q->where) {
    *pos = q->where->pos;
    return sql_err(err, CHV_ENOTSUP, "WHERE needs a FROM clause");
  }
  int64_t limit = -1;
  if (q->limit) {
    *pos = q->limit->pos;
    return sql_err(err, CHV_ENOTSUP, "LIMIT needs a FROM clause");
  }
  struct chv_table none = {0};
  chv_arena *a = NULL;
  if (chv_arena_open(0, &a) != CHV_OK)
    return sql_err(err, CHV_ENOMEM, "out of memory");
  struct chv_buf where;
  chv_buf_init(&where);
  int rc = query_exprs(s, s->cat, q, &none, NULL, a, NULL, &where, NULL, 0, limit, explain,
                       stpos, ins, pos, err);
  chv_buf_free(&where);
  chv_arena_close(a);
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

/* ---- for the multi-insert (multi.c) ---------------------------------------- */

bool sql_has_aggregate(const struct chv_sql_expr *e) { return has_agg(e); }

int sql_derive(struct sql_session *s, const struct chv_sql_query *q,
               const char *name, const char *what, bool rows,
               struct chv_sql_pos stpos, struct sql_rel **out,
               struct chv_sql_pos *pos, struct chv_error *err) {
  return derive(s, q, name, what, rows, stpos, out, pos, err);
}

void sql_scan_describe(struct sql_session *s, struct sql_plan_node *n,
                       chv_catalog *cat, const struct chv_table *t,
                       struct sql_scan *scan,
                       const struct chv_scan_options *so,
                       const char *const *cols, int ncols, int64_t ns) {
  scan_describe(s, n, cat, t, scan, so, cols, ncols, so->limit, NULL, ns);
}

struct sql_plan_node *sql_scan_node(struct sql_session *s,
                                    struct sql_plan_node *parent) {
  return scan_node(s, parent);
}

int sql_explain_into(struct sql_session *s, struct sql_plan_node *at,
                     const struct chv_sql_query *q, struct chv_sql_pos stpos,
                     struct chv_sql_pos *pos, struct chv_error *err) {
  return explain_nested(s, at, q, stpos, pos, err);
}
