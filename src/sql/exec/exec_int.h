/*
** sql/exec private declarations shared by expr.c, eval.c, cast.c, like.c
** and agg.c.  Values, decimals and type predicates are sql/func's
** (chv_func_*(), func.h).
*/
#ifndef CHV_SQL_EXEC_INT_H
#define CHV_SQL_EXEC_INT_H

#include "sql/exec/exec.h"

/* Convert a non-NULL value of type `from` to `to`; false when Hive gives
** NULL.  String results are written into *buf (grown as needed; freed by the
** caller) and out->str points there.  CHV_ENOMEM is reported through *rc. */
bool chv_exec_cast_value(const struct chv_type *from,
                         const struct chv_value *v, const struct chv_type *to,
                         struct chv_value *out, struct chv_buf *buf, int *rc);

/* Fold a CAST of a literal into a literal. */
int chv_exec_fold(chv_arena *a, const struct chv_expr *cast,
                  struct chv_expr **out, struct chv_error *err);

/* LIKE patterns */
int chv_like_compile(chv_arena *a, const char *p, size_t n,
                     struct chv_like **out, struct chv_error *err);
bool chv_like_match(const struct chv_like *lk, const char *s, size_t n);

#endif /* CHV_SQL_EXEC_INT_H */
