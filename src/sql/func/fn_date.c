/*
** sql/func fn_date.c: year, month, day and to_date.  The argument arrives
** as a DATE (the registry casts strings and timestamps to it; a string
** that is no date is NULL), so to_date is the identity and the others one
** civil-date conversion a row.
**
** INTERFACE: chv_fn_year(), chv_fn_month(), chv_fn_day(), chv_fn_to_date()
** (func_int.h).
*/
#include "sql/func/func_int.h"

enum part { YEAR, MONTH, DAY, DATE };

static int date_part(const struct chv_func_arg *args, int64_t n,
                     enum part what, struct chv_vector *out,
                     struct chv_error *err) {
  const struct chv_func_arg *a = &args[0];
  CHV_RETURN_IF_ERR(chv_func_out_start(out, n, true, err));
  int32_t *r = out->data;
  const int32_t *x = a->v ? a->v->data : NULL;
  for (int64_t j = 0; j < n; j++) {
    r[j] = 0;
    if (chv_func_arg_null(a, j)) continue;
    int32_t days = x ? x[chv_func_arg_row(a, j)] : (int32_t)a->k->i64;
    int y, m, d;
    if (what == DATE) {
      r[j] = days;
      continue;
    }
    chv_date_to_ymd(days, &y, &m, &d);
    r[j] = what == YEAR ? y : what == MONTH ? m : d;
  }
  return chv_func_out_nulls(out, args, 1, n, err);
}

int chv_fn_year(const struct chv_func_arg *args, int nargs, int64_t n,
                struct chv_vector *out, struct chv_error *err) {
  return date_part(args, n, YEAR, out, err);
}

int chv_fn_month(const struct chv_func_arg *args, int nargs, int64_t n,
                 struct chv_vector *out, struct chv_error *err) {
  return date_part(args, n, MONTH, out, err);
}

int chv_fn_day(const struct chv_func_arg *args, int nargs, int64_t n,
               struct chv_vector *out, struct chv_error *err) {
  return date_part(args, n, DAY, out, err);
}

int chv_fn_to_date(const struct chv_func_arg *args, int nargs, int64_t n,
                   struct chv_vector *out, struct chv_error *err) {
  return date_part(args, n, DATE, out, err);
}
