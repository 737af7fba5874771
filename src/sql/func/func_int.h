/*
** sql/func private declarations: the aggregate state's layout, helpers the
** kernels share, and the kernels and aggregate implementations the
** registry (registry.c) names.
*/
#ifndef CHV_SQL_FUNC_INT_H
#define CHV_SQL_FUNC_INT_H

#include "sql/func/func.h"

/* ---- aggregate states ----------------------------------------------------- */

/* How an argument's values are kept (which arrays a state uses). */
enum chv_agg_kind { CHV_AK_INT, CHV_AK_DBL, CHV_AK_DEC, CHV_AK_TS, CHV_AK_STR,
                    CHV_AK_BOOL };

struct chv_agg_state {
  const struct chv_agg_impl *impl;
  const struct chv_type *arg, *result; /* borrowed; arg NULL for COUNT(*) */
  enum chv_agg_kind kind;
  int64_t ngroups, cap;
  int64_t *count;        /* rows counted (non-NULL for all but COUNT(*)) */
  int64_t *i64;          /* SUM of integers (wrapping), MIN/MAX CHV_AK_INT */
  double *f64;           /* SUM/AVG of doubles and integers, MIN/MAX DBL */
  chv_i128 *dec;         /* decimal SUM/AVG/MIN/MAX */
  uint8_t *ovf;          /* decimal SUM/AVG overflowed */
  struct chv_timestamp *ts;
  char **str;            /* MIN/MAX strings (chv_malloc'd) */
  int64_t *slen;
  unsigned char *ext;    /* impl->group_bytes per group */
  struct chv_keyset distinct; /* COUNT(DISTINCT): (group, value) */
  struct chv_buf scratch;
  size_t str_bytes;
};

enum chv_agg_kind chv_agg_kind_of(enum chv_type_id id);

/* The implementations of the built-in aggregates (agg.c). */
extern const struct chv_agg_impl chv_agg_count_star_impl, chv_agg_count_impl,
    chv_agg_count_distinct_impl, chv_agg_sum_impl, chv_agg_avg_impl,
    chv_agg_min_impl, chv_agg_max_impl;

/* ---- kernel helpers (kernel.c) -------------------------------------------- */

/* Reset out and size it for n rows (fixed-width: length n, data zeroed for
** BOOLEAN; variable-width: length 0, ready for appends). */
int chv_func_out_start(struct chv_vector *out, int64_t n, bool fixed,
                       struct chv_error *err);
/* NULL in out (fixed-width, n rows) every row where an argument is NULL
** (the AND of the arguments' validity), with null_count set. */
int chv_func_out_nulls(struct chv_vector *out, const struct chv_func_arg *args,
                       int nargs, int64_t n, struct chv_error *err);
/* True when row j of one of the arguments is NULL. */
static inline bool chv_func_any_null(const struct chv_func_arg *args,
                                     int nargs, int64_t j) {
  for (int k = 0; k < nargs; k++)
    if (chv_func_arg_null(&args[k], j)) return true;
  return false;
}
int chv_func_oom(struct chv_error *err);
/* Non-NULL row j of an integral argument. */
static inline int64_t chv_func_arg_i64(const struct chv_func_arg *a,
                                       int64_t j) {
  if (a->v == NULL) return a->k->i64;
  int64_t r = chv_func_arg_row(a, j);
  switch (a->type->id) {
  case CHV_TYPE_TINYINT: return ((const int8_t *)a->v->data)[r];
  case CHV_TYPE_SMALLINT: return ((const int16_t *)a->v->data)[r];
  case CHV_TYPE_BIGINT: return ((const int64_t *)a->v->data)[r];
  default: return ((const int32_t *)a->v->data)[r];
  }
}

/* ---- the built-in scalar kernels and their type rules -------------------- */

/* fn_string.c */
int chv_fn_concat(const struct chv_func_arg *args, int nargs, int64_t n,
                  struct chv_vector *out, struct chv_error *err);
int chv_fn_upper(const struct chv_func_arg *args, int nargs, int64_t n,
                 struct chv_vector *out, struct chv_error *err);
int chv_fn_lower(const struct chv_func_arg *args, int nargs, int64_t n,
                 struct chv_vector *out, struct chv_error *err);
int chv_fn_length(const struct chv_func_arg *args, int nargs, int64_t n,
                  struct chv_vector *out, struct chv_error *err);
int chv_fn_substr(const struct chv_func_arg *args, int nargs, int64_t n,
                  struct chv_vector *out, struct chv_error *err);
int chv_fn_trim(const struct chv_func_arg *args, int nargs, int64_t n,
                struct chv_vector *out, struct chv_error *err);
int chv_fn_ltrim(const struct chv_func_arg *args, int nargs, int64_t n,
                 struct chv_vector *out, struct chv_error *err);
int chv_fn_rtrim(const struct chv_func_arg *args, int nargs, int64_t n,
                 struct chv_vector *out, struct chv_error *err);
int chv_fn_lpad(const struct chv_func_arg *args, int nargs, int64_t n,
                struct chv_vector *out, struct chv_error *err);
int chv_fn_rpad(const struct chv_func_arg *args, int nargs, int64_t n,
                struct chv_vector *out, struct chv_error *err);
int chv_fn_repeat(const struct chv_func_arg *args, int nargs, int64_t n,
                  struct chv_vector *out, struct chv_error *err);
int chv_fn_space(const struct chv_func_arg *args, int nargs, int64_t n,
                 struct chv_vector *out, struct chv_error *err);
int chv_fn_reverse(const struct chv_func_arg *args, int nargs, int64_t n,
                   struct chv_vector *out, struct chv_error *err);
int chv_fn_initcap(const struct chv_func_arg *args, int nargs, int64_t n,
                   struct chv_vector *out, struct chv_error *err);
int chv_fn_ascii(const struct chv_func_arg *args, int nargs, int64_t n,
                 struct chv_vector *out, struct chv_error *err);
int chv_fn_chr(const struct chv_func_arg *args, int nargs, int64_t n,
               struct chv_vector *out, struct chv_error *err);
int chv_fn_octet_length(const struct chv_func_arg *args, int nargs, int64_t n,
                        struct chv_vector *out, struct chv_error *err);
int chv_fn_concat_ws(const struct chv_func_arg *args, int nargs, int64_t n,
                     struct chv_vector *out, struct chv_error *err);
int chv_fn_elt(const struct chv_func_arg *args, int nargs, int64_t n,
               struct chv_vector *out, struct chv_error *err);
int chv_fn_quote(const struct chv_func_arg *args, int nargs, int64_t n,
                 struct chv_vector *out, struct chv_error *err);
/* fn_search.c */
int chv_fn_instr(const struct chv_func_arg *args, int nargs, int64_t n,
                 struct chv_vector *out, struct chv_error *err);
int chv_fn_locate(const struct chv_func_arg *args, int nargs, int64_t n,
                  struct chv_vector *out, struct chv_error *err);
int chv_fn_find_in_set(const struct chv_func_arg *args, int nargs, int64_t n,
                       struct chv_vector *out, struct chv_error *err);
int chv_fn_replace(const struct chv_func_arg *args, int nargs, int64_t n,
                   struct chv_vector *out, struct chv_error *err);
int chv_fn_translate(const struct chv_func_arg *args, int nargs, int64_t n,
                     struct chv_vector *out, struct chv_error *err);
int chv_fn_substring_index(const struct chv_func_arg *args, int nargs,
                           int64_t n, struct chv_vector *out, struct chv_error *err);
int chv_fn_levenshtein(const struct chv_func_arg *args, int nargs, int64_t n,
                       struct chv_vector *out, struct chv_error *err);
int chv_fn_soundex(const struct chv_func_arg *args, int nargs, int64_t n,
                   struct chv_vector *out, struct chv_error *err);
/* fn_math.c */
int chv_fn_abs(const struct chv_func_arg *args, int nargs, int64_t n,
               struct chv_vector *out, struct chv_error *err);
int chv_fn_round(const struct chv_func_arg *args, int nargs, int64_t n,
                 struct chv_vector *out, struct chv_error *err);
int chv_fn_round_decimal_type(chv_arena *a, const struct chv_func_argdesc *args,
                              int nargs, const struct chv_type **out,
                              struct chv_error *err);
/* fn_date.c */
int chv_fn_year(const struct chv_func_arg *args, int nargs, int64_t n,
                struct chv_vector *out, struct chv_error *err);
int chv_fn_month(const struct chv_func_arg *args, int nargs, int64_t n,
                 struct chv_vector *out, struct chv_error *err);
int chv_fn_day(const struct chv_func_arg *args, int nargs, int64_t n,
               struct chv_vector *out, struct chv_error *err);
int chv_fn_to_date(const struct chv_func_arg *args, int nargs, int64_t n,
                   struct chv_vector *out, struct chv_error *err);
/* agg.c: result types of SUM and AVG of decimals */
int chv_agg_sum_decimal_type(chv_arena *a, const struct chv_func_argdesc *args,
                             int nargs, const struct chv_type **out,
                             struct chv_error *err);
int chv_agg_avg_decimal_type(chv_arena *a, const struct chv_func_argdesc *args,
                             int nargs, const struct chv_type **out,
                             struct chv_error *err);

#endif /* CHV_SQL_FUNC_INT_H */
