/*
** sql/plan: from the parser's tree to what runs (docs/plan.md).  The
** binder: names of a query over one table (or derived relation) to its
** columns, Hive's literal rules and type coercions, and expressions to the
** evaluator's typed IR (expr.h).  The plan's tree of nodes (node.h), which
** the session builds with the binder; the rewrite rules that change it
** (rewrite.c, with what of a WHERE the source applies, pushdown.c) and
** the physical plan (physical.c).  sql/exec runs it.
**
** INTERFACE
**   struct sql_bind, sql_bind_init()/_free()   a binder over one table
**   sql_bind_expr()/_column()                 expressions, columns
**   sql_literal_check(), sql_literal_text()   literals as their type reads
**   sql_is_aggregate(), sql_expr_text()
**   sql_where_filter()/_split()/_preds()      WHERE for the source
**   sql_rewrite(), sql_physical()             the passes over a plan
*/
#ifndef CHV_SQL_PLAN_H
#define CHV_SQL_PLAN_H

#include "chive/catalog.h"
#include "chive/sql.h"
#include "chive/connector.h"
#include "sql/plan/expr.h"
#include "sql/plan/node.h"

/* Checks literal e (a LITERAL node) as a value of its type, as the binder
** and every statement taking literals read it: a DATE or TIMESTAMP literal
** must be a valid date or timestamp (CHV_EINVAL), a number must fit its
** type (CHV_ERANGE): a DOUBLE must be finite, 128Y, 32768S and
** 9223372036854775808L are out of range, an integer past BIGINT is a
** DECIMAL of up to 38 digits.  The error names the literal; *pos (when not
** NULL) is set to it. */
int sql_literal_check(const struct chv_sql_expr *e, struct chv_sql_pos *pos,
                      struct chv_error *err);
/* The binder (bind.c): AST expressions over one table's columns to the
** evaluator's IR.  cols/types (arena) list the table columns the bound
** expressions read, in the order of the scan projection to ask for. */
struct sql_bind {
  const struct chv_table *t; /* borrowed */
  const char *alias;         /* FROM alias or NULL */
  chv_arena *a;              /* borrowed: expressions live here */
  struct chv_type **ttypes;  /* owned: parsed type of each table column
                             ** (data columns, then partition keys) */
  const char **cols;         /* scan columns (canonical names) */
  const struct chv_type **types;
  int ncols;
  /* how errors name the table ("db.t", "sub-query s"); NULL: db.table */
  const char *what;
  struct chv_sql_pos *pos;
  struct chv_error *err;
  /* Called first on each node when set: binds e itself (*done = true) or
  ** leaves it to the binder (GROUP BY keys and aggregates over the result
  ** of a hash aggregation). */
  int (*hook)(struct sql_bind *b, const struct chv_sql_expr *e,
              struct chv_expr **out, bool *done);
  void *hook_ctx;
  /* The value of a scalar sub-query that reads nothing of the query
  ** around it, run once (a literal); NULL: sub-queries are refused. */
  int (*scalar)(void *ctx, const struct chv_sql_query *q,
                struct chv_expr **out);
  void *scalar_ctx;
  /* The rows of an IN or EXISTS sub-query that reads nothing of the query
  ** around it, run once (scalar_ctx): exists: whether it gives a row
  ** (*any); else its one column's values (*vals: the binder closes it);
  ** NULL: refused. */
  int (*rows)(void *ctx, const struct chv_sql_query *q, bool exists,
              struct chv_vector **vals, bool *any);
  /* The table column of each of cols (tcols[k] for cols[k]). */
  int *tcols;
  /* A FROM of several relations (joins): t's columns are theirs, in order,
  ** relation r's from rels->r[r].first; NULL: t alone. */
  const struct sql_rels *rels;
  /* In an ON: the relations it sees (its join's inputs' rows), by index
  ** of rels; NULL elsewhere: all but the hidden ones. */
  const bool *on_seen;
};

/* The relations of a FROM with joins, as the binder resolves names. */
struct sql_rels {
  int n;
  struct sql_rel_name {
    const char *alias;        /* or NULL: named db.name */
    const char *db, *name;
    int first, ncols;         /* its columns in the binder's table */
    /* the right side of a LEFT SEMI or ANTI JOIN: seen only in its ON */
    bool hidden;
    /* a sub-query's relation made a join's: only a qualified name (as
    ** the rewrite gives its columns) names its columns */
    bool qualified_only;
  } *r;
  /* The columns JOIN ... USING and NATURAL JOIN give once: merge m is the
  ** left side's value of its column (INNER, LEFT, SEMI, ANTI), the right
  ** side's (RIGHT) or COALESCE of both (FULL).  An unqualified name of
  ** one is not ambiguous: it names the outermost merge that takes the
  ** columns of both sides (a qualified one still reads its relation). */
  int nm;
  struct sql_rel_merge {
    const char *name;            /* the left side's name of the column */
    enum chv_sql_join_kind kind; /* of its join */
    /* each side's column: a table column (>= 0) or merge -1 - m */
    int side[2];
    int lo, hi;                  /* the relations its join spans [lo, hi) */
  } *m;
};
/* The qualifier of a column reference that names merge m of the binder's
** rels directly (parts: this, m in decimal, its name): a * expanded over
** a USING join.  Its text is the name alone. */
extern const char sql_merge_qual[];
/* Merge m of b->rels, bound: its side's column or COALESCE of both. */
int sql_bind_merge(struct sql_bind *b, int m, struct chv_expr **out);
/* count, sum, min, max, avg */
bool sql_is_aggregate(const char *name);
int sql_bind_init(struct sql_bind *b, const struct chv_table *t,
                  const char *alias, chv_arena *a, struct chv_sql_pos *pos,
                  struct chv_error *err);
void sql_bind_free(struct sql_bind *b);
int sql_bind_expr(struct sql_bind *b, const struct chv_sql_expr *e,
                  struct chv_expr **out);
/* Table column tcol (data columns, then keys) as a COLUMN expression. */
int sql_bind_column(struct sql_bind *b, int tcol, struct chv_expr **out);
/* The relation of rels whose columns hold tcol, or -1. */
int sql_rels_find(const struct sql_rels *rels, int tcol);
void sql_expr_text(const struct chv_sql_expr *e, struct chv_buf *out);
/* The same text in the arena; NULL when out of memory. */
const char *sql_expr_text_in(chv_arena *a, const struct chv_sql_expr *e);
/* The same, its columns qualified as written (a.s: sql_expr_text_qualified()). */
const char *sql_expr_text_qualified_in(chv_arena *a, const struct chv_sql_expr *e);
/* The same with column names as written (t.a): a join's conditions. */
void sql_expr_text_qualified(const struct chv_sql_expr *e,
                             struct chv_buf *out);

/* ---- pushdown.c: what of a WHERE the source applies ---- */

/* The text of a literal expression (a partition value): NULL for NULL.
** The literal is checked with sql_literal_check(). */
int sql_literal_text(const struct chv_sql_expr *e, chv_arena *a,
                     const char **out, struct chv_error *err);
/* The canonical name of t's column n (data columns, then keys). */
int sql_find_column(const struct chv_table *t, const char *n,
                    const char **canon);
/* Whether t's files are columnar (Parquet, ORC): their readers skip row
** groups (and ORC stripes) by pushed predicates. */
bool sql_table_columnar(const struct chv_table *t);
/* The conjuncts of an AND tree, in order, into v (NULL: counted). */
int sql_conjuncts(const struct chv_sql_expr *e, const struct chv_sql_expr **v,
                  size_t *n);
/* e as a partition filter over t's keys (*out in a, its text appended to
** text); CHV_ENOTSUP naming what it is not (a data column, a function). */
int sql_where_filter(const struct chv_table *t, chv_arena *a,
                     const struct chv_sql_expr *e,
                     struct chv_part_filter **out, struct chv_buf *text,
                     struct chv_sql_pos *pos, struct chv_error *err);
/* WHERE e as AND-ed conjuncts: those a partition filter expresses go into
** *filter (NULL: none; their text into where), the rest into resid[]. */
int sql_where_split(const struct chv_table *t, chv_arena *a,
                    const struct chv_sql_expr *e,
                    struct chv_part_filter **filter, struct chv_buf *where,
                    const struct chv_sql_expr ***resid, size_t *nresid,
                    struct chv_sql_pos *pos, struct chv_error *err);
/* The residual conjuncts comparing a data column with a literal, as the
** predicates a columnar reader tests row groups against (none for text).
** CHV_ENOMEM. */
int sql_where_preds(const struct chv_table *t, chv_arena *a,
                    const struct chv_sql_expr *const *resid, size_t nresid,
                    struct chv_pred **out, int *nout);

/* ---- rewrite.c and physical.c: the passes over the plan ---- */

struct sql_rewrite {
  chv_arena *a;
  /* Evaluates the constant e (sql_expr_constant()) into a literal *out;
  ** any error leaves e as it is (it then fails, or not, when it runs). */
  int (*fold)(void *ctx, chv_arena *a, const struct chv_expr *e,
              struct chv_expr **out);
  void *fold_ctx;
  /* The reader threads of a scan (physical.c), or NULL: none chosen
  ** (EXPLAIN), the scan's default. */
  int (*threads)(void *ctx, const struct sql_node *scan);
  void *threads_ctx;
  /* A Sink whose target takes rows from several reader threads at once
  ** (an INSERT into a table, not into a relation or a directory). */
  bool (*shared_sink)(void *ctx, const struct sql_node *sink);
  /* The rows of a Scan's table (its partitions the filter keeps) as the
  ** statistics say, or 0: unknown (threads_ctx); NULL: unknown. */
  double (*scan_rows)(void *ctx, const struct sql_node *scan);
  /* The distinct values of each of a Scan's ncols columns as the column
  ** statistics say, into ndv (0: unknown), and the least and greatest
  ** value of a numeric or DATE column (days) into lo and hi (NAN:
  ** unknown) (threads_ctx); NULL: unknown. */
  void (*scan_ndv)(void *ctx, const struct sql_node *scan, double *ndv,
                   double *lo, double *hi);
  struct chv_error *err;
  /* table.optimizer.dynamic-filtering.enabled: joins filter their probe
  ** side's scan by their build keys at run time (joins.c) */
  bool dynamic_filtering;
};
/* The passes of joins (joins.c): their conditions pushed down, then the
** order of inner joins, the equi-keys and the build sides. */
int sql_rewrite_join_push(struct sql_rewrite *rw, struct sql_node **root);
int sql_rewrite_join_order(struct sql_rewrite *rw, struct sql_node **root);
/* Dynamic filtering (joins.c), after the other passes: each equi-join
** whose probe side is (through Filters and column Projects) a table Scan,
** with keys that are that scan's columns, gives the scan the columns its
** build keys filter at run time. */
int sql_rewrite_join_dynamic(struct sql_rewrite *rw, struct sql_node *root);
/* The rewrite rules, one pass each, in order: predicate pushdown and
** partition pruning into the scans, constant folding, the pruning of the
** columns scans read, limit pushdown, Sort + Limit to TopN and the top-N
** bound. */
int sql_rewrite(struct sql_rewrite *rw, struct sql_node **root);
/* The physical plan: each scan's reader threads, and the nodes above it
** that run in its stage on those threads. */
int sql_physical(struct sql_rewrite *rw, struct sql_node *root);

#endif
