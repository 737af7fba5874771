/*
** sql/exec private declarations shared by expr.c, eval.c, cast.c, like.c
** and agg.c.
*/
#ifndef CHV_SQL_EXEC_INT_H
#define CHV_SQL_EXEC_INT_H

#include "sql/exec/exec.h"

bool chv_exec_is_integral(enum chv_type_id id);
bool chv_exec_is_numeric(enum chv_type_id id);
bool chv_exec_is_string(enum chv_type_id id);

/* 10^k for k in 0..38. */
chv_i128 chv_exec_pow10(int k);
/* v (unscaled at scale `from`) at scale `to`, rounding half away from zero;
** false when it overflows 128 bits. */
bool chv_exec_dec_rescale(chv_i128 v, int from, int to, chv_i128 *out);
/* |v| < 10^precision */
bool chv_exec_dec_fits(chv_i128 v, int precision);
/* n / d rounded half away from zero (d != 0). */
chv_i128 chv_exec_div_round(chv_i128 n, chv_i128 d);

/* Row i of v as a value (strings point into v). */
void chv_exec_get_value(const struct chv_vector *v, int64_t i,
                        struct chv_value *out);
/* Convert a non-NULL value of type `from` to `to`; false when Hive gives
** NULL.  String results are written into *buf (grown as needed; freed by the
** caller) and out->str points there.  CHV_ENOMEM is reported through *rc. */
bool chv_exec_cast_value(const struct chv_type *from,
                         const struct chv_value *v, const struct chv_type *to,
                         struct chv_value *out, struct chv_buf *buf, int *rc);
/* Append a value (NULL or not) of the vector's type. */
int chv_exec_append_value(struct chv_vector *out, const struct chv_value *v,
                          struct chv_error *err);
/* Three-way comparison of two non-NULL values of the same type (Java's
** primitive order for doubles: NaN compares as unordered -> 2). */
int chv_exec_compare_values(const struct chv_type *t, const struct chv_value *a,
                            const struct chv_value *b);

/* Hive's round(double, d): BigDecimal.valueOf(x) (the digits of
** Double.toString) rounded half up to d places. */
double chv_exec_round_double(double x, int d);

/* Fold a CAST of a literal into a literal. */
int chv_exec_fold(chv_arena *a, const struct chv_expr *cast,
                  struct chv_expr **out, struct chv_error *err);

/* LIKE patterns */
int chv_like_compile(chv_arena *a, const char *p, size_t n,
                     struct chv_like **out, struct chv_error *err);
bool chv_like_match(const struct chv_like *lk, const char *s, size_t n);

#endif /* CHV_SQL_EXEC_INT_H */
