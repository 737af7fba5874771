/*
** sql/plan: from the parser's tree to what runs.  Today it holds the
** binder: names of a query over one table (or derived relation) to its
** columns, Hive's literal rules and type coercions, and expressions to the
** evaluator's typed IR (sql/exec).  The session (sql/session) plans and
** runs statements over it.
**
** INTERFACE
**   struct sql_bind, sql_bind_init()/_free()   a binder over one table
**   sql_bind_expr()/_column()                 expressions, columns
**   sql_literal_check()                       a literal as its type reads
**   sql_is_aggregate(), sql_expr_text()
*/
#ifndef CHV_SQL_PLAN_H
#define CHV_SQL_PLAN_H

#include "chive/catalog.h"
#include "chive/sql.h"
#include "sql/plan/expr.h"

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
};
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
void sql_expr_text(const struct chv_sql_expr *e, struct chv_buf *out);

#endif
