/*
** sql/func fn_math.c: abs and round.  abs is a typed loop per numeric type
** (Java's wrapping negation for integers: abs of the least INT is itself);
** round goes a row at a time through the decimal helpers and Hive's
** rounding of doubles (chv_func_round_double()).
**
** INTERFACE: chv_fn_abs(), chv_fn_round(), chv_fn_round_decimal_type()
** (func_int.h).
*/
#include "sql/func/func_int.h"

#include <math.h>

/* abs of one value of type id. */
static void abs_value(enum chv_type_id id, struct chv_value *v) {
  switch (id) {
  case CHV_TYPE_FLOAT:
  case CHV_TYPE_DOUBLE: v->f64 = fabs(v->f64); break;
  case CHV_TYPE_DECIMAL: if (v->dec < 0) v->dec = -v->dec; break;
  default: /* wraps when narrowed to the type on append */
    if (v->i64 < 0) v->i64 = (int64_t)(0 - (uint64_t)v->i64);
    break;
  }
}

int chv_fn_abs(const struct chv_func_arg *args, int nargs, int64_t n,
               struct chv_vector *out, struct chv_error *err) {
  const struct chv_func_arg *a = &args[0];
  enum chv_type_id id = out->type->id;
  if (a->v == NULL) { /* a constant: once, then n times */
    struct chv_value y = *a->k;
    if (!y.is_null) abs_value(id, &y);
    CHV_RETURN_IF_ERR(chv_func_out_start(out, n, false, err));
    for (int64_t j = 0; j < n; j++)
      CHV_RETURN_IF_ERR(chv_func_append_value(out, &y, err));
    return CHV_OK;
  }
  CHV_RETURN_IF_ERR(chv_func_out_start(out, n, true, err));
  const uint32_t *sel = a->sel;
#define ABS_(T, EXPR)                                                         \
  do {                                                                        \
    const T *x_ = a->v->data;                                                 \
    T *r_ = out->data;                                                        \
    if (sel)                                                                  \
      for (int64_t j = 0; j < n; j++) {                                       \
        T B = x_[sel[j]];                                                     \
        r_[j] = (EXPR);                                                       \
      }                                                                       \
    else                                                                      \
      for (int64_t j = 0; j < n; j++) {                                       \
        T B = x_[j];                                                          \
        r_[j] = (EXPR);                                                       \
      }                                                                       \
  } while (0)
#define IABS_(T, W) ABS_(T, (T)(B < 0 ? (T)((W)0 - (W)B) : B))
  switch (id) {
  case CHV_TYPE_TINYINT: IABS_(int8_t, uint32_t); break;
  case CHV_TYPE_SMALLINT: IABS_(int16_t, uint32_t); break;
  case CHV_TYPE_INT: IABS_(int32_t, uint32_t); break;
  case CHV_TYPE_BIGINT: IABS_(int64_t, uint64_t); break;
  case CHV_TYPE_FLOAT: ABS_(float, fabsf(B)); break;
  case CHV_TYPE_DOUBLE: ABS_(double, fabs(B)); break;
  case CHV_TYPE_DECIMAL: ABS_(chv_i128, B < 0 ? -B : B); break;
  default:
    return chv_error_set(err, CHV_EINTERNAL, "abs of %s",
                         chv_type_id_name(id));
  }
#undef IABS_
#undef ABS_
  return chv_func_out_nulls(out, args, 1, n, err);
}

/* The decimal places of round(x, d): d, within [-38, 38]; 0 without. */
static int places(const struct chv_value *d) {
  return d ? (int)CHV_MAX(-38, CHV_MIN(38, d->i64)) : 0;
}

/* GenericUDFRound of decimal(p,s): one more integer digit when rounding
** away digits (d < s), scale d (0 for a negative d). */
int chv_fn_round_decimal_type(chv_arena *a, const struct chv_func_argdesc *args,
                              int nargs, const struct chv_type **out,
                              struct chv_error *err) {
  const struct chv_type *x = args[0].type;
  int d = places(nargs > 1 ? args[1].constant : NULL);
  int ip = x->precision - x->scale + (d < x->scale ? 1 : 0);
  int s = d < 0 ? 0 : d;
  *out = chv_func_type(a, CHV_TYPE_DECIMAL, CHV_MIN(38, ip + s), s);
  return *out ? CHV_OK : chv_func_oom(err);
}

/* round of one non-NULL value x of type `from` into y of type `to`; false
** for a NULL result (a decimal that does not fit). */
static bool round_value(const struct chv_type *from, const struct chv_type *to,
                        int d, const struct chv_value *x, struct chv_value *y) {
  memset(y, 0, sizeof *y);
  enum chv_type_id id = to->id;
  if (id == CHV_TYPE_FLOAT || id == CHV_TYPE_DOUBLE) {
    y->f64 = chv_func_round_double(x->f64, d);
    if (id == CHV_TYPE_FLOAT) y->f64 = (double)(float)y->f64;
    return true;
  }
  chv_i128 v;
  int scale = 0;
  if (id == CHV_TYPE_DECIMAL) {
    v = x->dec;
    scale = from->scale;
  } else {
    v = x->i64;
  }
  int keep = d < 0 ? 0 : CHV_MIN(d, scale);
  if (!chv_func_dec_rescale(v, scale, keep, &v)) return false;
  if (d < -38) {
    v = 0; /* |v| < 10^38 rounds to zero at 10^39 and beyond */
  } else if (d < 0) {
    chv_i128 m = chv_decimal_pow10(-d);
    if (__builtin_mul_overflow(chv_func_div_round(v, m), m, &v)) return false;
  }
  if (id == CHV_TYPE_DECIMAL) { /* at the result's scale (d) */
    if (!chv_func_dec_rescale(v, keep, to->scale, &v)) return false;
    y->dec = v;
    return chv_func_dec_fits(v, to->precision);
  }
  y->i64 = (int64_t)(uint64_t)v; /* wraps to the column type on append */
  return true;
}

int chv_fn_round(const struct chv_func_arg *args, int nargs, int64_t n,
                 struct chv_vector *out, struct chv_error *err) {
  const struct chv_func_arg *a = &args[0];
  /* a CONST_INT parameter: the evaluator hands its literal as a constant */
  if (nargs > 1 && args[1].v != NULL)
    return chv_error_set(err, CHV_EINTERNAL, "round: the decimal places are "
                         "not a constant");
  int d = places(nargs > 1 ? args[1].k : NULL);
  CHV_RETURN_IF_ERR(chv_func_out_start(out, n, false, err));
  for (int64_t j = 0; j < n; j++) {
    struct chv_value x, y = {.is_null = true};
    chv_func_arg_value(a, j, &x);
    if (!x.is_null && !round_value(a->type, out->type, d, &x, &y))
      y.is_null = true;
    CHV_RETURN_IF_ERR(chv_func_append_value(out, &y, err));
  }
  return CHV_OK;
}
