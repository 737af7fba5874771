/*
** sql/exec: vectorized expression evaluation and hash aggregation.
**
** The binder (sql/plan) turns the parser's AST into a typed expression
** tree (struct chv_expr, sql/plan/expr.h) allocated in a chv_arena; this
** module does not know the AST.  The plan's constructors check argument
** types with Hive's rules, derive the result type and insert the implicit
** CASTs Hive inserts, so that the evaluator only ever sees operands of one
** common type.  Operators (+ - * / % div =
** <> < ...) are this module's own; functions are those of the registry
** (src/sql/func), whose overload resolution chooses the casts and whose
** kernels the evaluator calls.  Evaluation works on a whole batch: the
** rows to evaluate are given by a selection vector (uint32_t row numbers,
** ascending; NULL = all rows), and the result is a dense vector of one row
** per selected row.  docs/exec.md describes the semantics.
**
** INTERFACE
**   chv_expr_eval()      expression over selected rows -> dense vector
**   chv_expr_filter()    BOOLEAN predicate -> selection of TRUE rows
**   chv_expr_total()     whether evaluation can fail only for memory
**   chv_hash_agg_*()     GROUP BY keys over batches with a memory bound
**                        (the aggregates themselves: chv_agg_*(), func.h)
**
** Ownership: expressions and their types live in the arena passed to the
** constructors and are read-only afterwards (several threads may evaluate
** one tree).  Vectors and states belong to one thread at a time.
*/
#ifndef CHV_SQL_EXEC_H
#define CHV_SQL_EXEC_H

#include "common/common.h"
#include "chive/types.h"
#include "sql/func/func.h"
#include "sql/plan/expr.h"

/* ---- evaluation -------------------------------------------------------- */

/* Evaluate e over the rows sel[0..nsel) of in (sel NULL: rows 0..nsel-1)
** into out, a vector of e->type that is reset and filled to nsel rows.
** CHV_ENOMEM on allocation failure (out then holds no meaningful rows). */
int chv_expr_eval(const struct chv_expr *e, const struct chv_batch *in,
                  const uint32_t *sel, int64_t nsel, struct chv_vector *out,
                  struct chv_error *err);

/* Whether evaluating e over any rows can fail only for want of memory: no
** node of it is a registered function (whose kernels may raise errors on
** their input; the operators and casts give NULL instead).  Such an
** expression may be evaluated over rows a filter dropped, and the rows
** kept picked out afterwards. */
bool chv_expr_total(const struct chv_expr *e);

/* Rows of sel_in (NULL: 0..nsel_in-1) where the BOOLEAN predicate is TRUE,
** ascending, into sel_out (room for nsel_in; may be sel_in itself). */
int chv_expr_filter(const struct chv_expr *e, const struct chv_batch *in,
                    const uint32_t *sel_in, int64_t nsel_in,
                    uint32_t *sel_out, int64_t *nsel_out,
                    struct chv_error *err);

/* ---- hash aggregation -------------------------------------------------- */

typedef struct chv_hash_agg chv_hash_agg;

struct chv_hash_agg_spec {
  int nkeys;
  const int *key_cols;       /* input columns grouped by (primitive types) */
  int naggs;
  const enum chv_agg_fn *fns;
  const int *agg_cols;       /* input column of each aggregate (-1: none) */
  size_t memory_limit;       /* bytes; 0 = unbounded */
};

/* in_schema: STRUCT of the input batches (borrowed, must outlive h).
** out: close with chv_hash_agg_close(). */
int chv_hash_agg_open(const struct chv_type *in_schema,
                      const struct chv_hash_agg_spec *spec,
                      chv_hash_agg **out, struct chv_error *err);
void chv_hash_agg_close(chv_hash_agg *h);
/* Group rows sel[0..n) of in (NULL: all n rows).  CHV_ENOMEM when the
** memory limit is exceeded, with a message naming the operator. */
int chv_hash_agg_add(chv_hash_agg *h, const struct chv_batch *in,
                     const uint32_t *sel, int64_t n, struct chv_error *err);
/* The group of row r of in's keys, added when new with no rows in its
** aggregates (COUNT 0, the others NULL): the grand total of an empty
** grouping set, which has a row also for no input. */
int chv_hash_agg_touch(chv_hash_agg *h, const struct chv_batch *in, int64_t r,
                       struct chv_error *err);
/* Fold a partial (same in_schema and spec) into h. */
int chv_hash_agg_merge(chv_hash_agg *h, const chv_hash_agg *other,
                       struct chv_error *err);
/* The groups as one batch: key columns, then one column per aggregate.
** With no keys there is always exactly one row (COUNT 0 on no input).
** out: close with chv_batch_close(); its schema belongs to h. */
int chv_hash_agg_result(chv_hash_agg *h, struct chv_batch **out,
                        struct chv_error *err);
int64_t chv_hash_agg_ngroups(const chv_hash_agg *h);
/* Bytes h holds (what memory_limit bounds). */
size_t chv_hash_agg_memory(const chv_hash_agg *h);
/* A spilling aggregation past its bound: rows sel[0, n) of in whose group
** h has already go to their aggregates; the others, which add no group,
** come back as their rows of in in miss (room for n), *nmiss of them. */
int chv_hash_agg_add_known(chv_hash_agg *h, const struct chv_batch *in,
                           const uint32_t *sel, int64_t n, uint32_t *miss,
                           int64_t *nmiss, struct chv_error *err);
/* The partition (0 .. nparts - 1, nparts <= 256) of each of rows[0, n) of
** in (NULL: 0..n-1) by the hash of its keys, mixed by level so that a
** partition splits again at the next level; kb is scratch.  CHV_ENOMEM. */
int chv_hash_agg_partition(const chv_hash_agg *h, const struct chv_batch *in,
                           const uint32_t *rows, int64_t n, int level,
                           int nparts, uint8_t *out, struct chv_buf *kb);

#endif /* CHV_SQL_EXEC_H */
