/*
** Predicates pushed into the columnar readers (Parquet, ORC): comparisons
** of a column with a literal that row groups, pages and stripes are tested
** against.  The literal is text in Hive's canonical form for the column's
** type ("42", "1.5", "2024-01-31", "2024-01-31 10:00:00", "abc"); a literal
** that does not convert makes the predicate unusable, not an error.  A
** reader leaves out only what its statistics prove cannot match; the rows
** it produces may still not match, and the caller filters them.
*/
#ifndef CHIVE_PRED_H
#define CHIVE_PRED_H

#include "chive/chive.h"

#ifdef __cplusplus
extern "C" {
#endif

enum chv_pred_op {
  CHV_PRED_EQ,
  CHV_PRED_NE,
  CHV_PRED_LT,
  CHV_PRED_LE,
  CHV_PRED_GT,
  CHV_PRED_GE,
  CHV_PRED_IS_NULL,
  CHV_PRED_IS_NOT_NULL
};

struct chv_pred {
  const char *column; /* a top-level column, matched case-insensitively */
  enum chv_pred_op op;
  const char *value;  /* NULL for IS [NOT] NULL */
};

#ifdef __cplusplus
}
#endif

#endif /* CHIVE_PRED_H */
