/*
** sql/plan cast.c: one value at a time: CAST between primitive types as
** Hive does it, Java's Double.toString, decimal rescaling, and the generic
** value accessors used by the less hot parts of the evaluator (CAST, IN,
** CASE, aggregates over strings).
**
** INTERFACE: chv_exec_cast_value(), chv_func_get_value(),
** chv_func_append_value(), chv_func_compare_values(), chv_exec_fold(),
** chv_func_format_double()/_float(), chv_exec_parse_double(),
** chv_decimal_pow10(), chv_func_dec_rescale(), chv_func_dec_fits(),
** chv_func_div_round().
*/
#include "sql/plan/expr.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* ---- reading doubles as Java does ----------------------------------------- */

bool chv_exec_parse_double(const char *s, size_t n, double *out) {
  while (n > 0 && isspace((unsigned char)*s)) s++, n--;
  while (n > 0 && isspace((unsigned char)s[n - 1])) n--;
  if (n == 0 || n > 400) return false;
  char buf[401];
  memcpy(buf, s, n);
  buf[n] = '\0';
  const char *p = buf + (buf[0] == '+' || buf[0] == '-');
  if (strcmp(p, "NaN") == 0) {
    *out = NAN;
    return true;
  }
  if (strcmp(p, "Infinity") == 0) {
    *out = buf[0] == '-' ? -INFINITY : INFINITY;
    return true;
  }
  /* Java takes digits, '.', an exponent and a d/f suffix; no hex here and
  ** none of C's "inf"/"nan" spellings. */
  size_t m = n;
  if (m > 0 && strchr("dDfF", buf[m - 1])) buf[--m] = '\0';
  for (size_t i = 0; i < m; i++)
    if (!isdigit((unsigned char)buf[i]) && !strchr("+-.eE", buf[i]))
      return false;
  char *end;
  double d = strtod(buf, &end);
  if (end != buf + m || m == 0) return false;
  *out = d;
  return true;
}

/* ---- CAST ---------------------------------------------------------------- */

/* Wrap an int64 to the width of an integer type, as Java's narrowing. */
static int64_t wrap_int(enum chv_type_id to, int64_t x) {
  switch (to) {
  case CHV_TYPE_TINYINT: return (int8_t)(uint8_t)(uint64_t)x;
  case CHV_TYPE_SMALLINT: return (int16_t)(uint16_t)(uint64_t)x;
  case CHV_TYPE_INT: return (int32_t)(uint32_t)(uint64_t)x;
  default: return x;
  }
}

/* Java's (int)/(long) of a double: truncation, NaN 0, saturation; then
** narrowed as (byte)(int)d. */
static int64_t double_to_int(enum chv_type_id to, double d) {
  if (isnan(d)) return 0;
  if (to == CHV_TYPE_BIGINT) {
    if (d >= 9223372036854775807.0) return INT64_MAX;
    if (d <= -9223372036854775808.0) return INT64_MIN;
    return (int64_t)d;
  }
  int32_t i;
  if (d >= 2147483647.0) i = INT32_MAX;
  else if (d <= -2147483648.0) i = INT32_MIN;
  else i = (int32_t)d;
  return wrap_int(to, i);
}

static int64_t int_max(enum chv_type_id t) {
  switch (t) {
  case CHV_TYPE_TINYINT: return INT8_MAX;
  case CHV_TYPE_SMALLINT: return INT16_MAX;
  case CHV_TYPE_INT: return INT32_MAX;
  default: return INT64_MAX;
  }
}

/* Hive's string -> integer (LazyInteger/LazyLong.parse): blanks trimmed,
** optional sign, digits, optionally '.' and more digits (dropped); out of
** the type's range or anything else: NULL. */
static bool parse_int(const char *s, size_t n, enum chv_type_id to,
                      int64_t *out) {
  while (n > 0 && isspace((unsigned char)*s)) s++, n--;
  while (n > 0 && isspace((unsigned char)s[n - 1])) n--;
  size_t i = 0;
  bool neg = false;
  if (i < n && (s[i] == '+' || s[i] == '-')) neg = s[i++] == '-';
  if (i == n || !isdigit((unsigned char)s[i])) return false;
  uint64_t lim = (uint64_t)int_max(to) + (neg ? 1 : 0), v = 0;
  for (; i < n && isdigit((unsigned char)s[i]); i++) {
    unsigned dgt = (unsigned)(s[i] - '0');
    if (v > (lim - dgt) / 10) return false;
    v = v * 10 + dgt;
  }
  if (i < n && s[i] == '.') {
    for (i++; i < n; i++)
      if (!isdigit((unsigned char)s[i])) return false;
  }
  if (i != n) return false;
  *out = neg ? (int64_t)(0 - v) : (int64_t)v;
  return true;
}

static bool to_text(const struct chv_type *from, const struct chv_value *v,
                    struct chv_buf *buf, int *rc) {
  char tmp[64];
  int n;
  buf->len = 0;
  switch (from->id) {
  case CHV_TYPE_BOOLEAN: n = sprintf(tmp, "%s", v->b ? "true" : "false"); break;
  case CHV_TYPE_TINYINT:
  case CHV_TYPE_SMALLINT:
  case CHV_TYPE_INT:
  case CHV_TYPE_BIGINT: n = sprintf(tmp, "%lld", (long long)v->i64); break;
  case CHV_TYPE_FLOAT: n = chv_func_format_float((float)v->f64, tmp); break;
  case CHV_TYPE_DOUBLE: n = chv_func_format_double(v->f64, tmp); break;
  case CHV_TYPE_DECIMAL: n = chv_decimal_format(v->dec, from->scale, tmp); break;
  case CHV_TYPE_DATE: n = chv_date_format((int32_t)v->i64, tmp); break;
  case CHV_TYPE_TIMESTAMP: n = chv_timestamp_format(v->ts, tmp); break;
  default: {
    size_t len = (size_t)v->len;
    if (from->id == CHV_TYPE_CHAR) /* CHAR loses its padding */
      while (len > 0 && v->str[len - 1] == ' ') len--;
    if (chv_buf_reserve(buf, len + 1) != CHV_OK) {
      *rc = CHV_ENOMEM;
      return false;
    }
    if (len) memcpy(buf->data, v->str, len);
    buf->len = len;
    return true;
  }
  }
  if (chv_buf_append(buf, tmp, (size_t)n) != CHV_OK) {
    *rc = CHV_ENOMEM;
    return false;
  }
  return true;
}

bool chv_exec_cast_value(const struct chv_type *from,
                         const struct chv_value *v, const struct chv_type *to,
                         struct chv_value *out, struct chv_buf *buf, int *rc) {
  enum chv_type_id f = from->id, t = to->id;
  memset(out, 0, sizeof *out);
  if (chv_type_is_string_like(t)) {
    if (!to_text(from, v, buf, rc)) return false;
    out->str = buf->data ? buf->data : "";
    out->len = (int64_t)buf->len;
    return true;
  }
  bool fs = chv_type_is_string_like(f);
  double d = 0;
  switch (t) {
  case CHV_TYPE_BOOLEAN:
    if (fs) {
      if (v->len == 4 && chv_str_nieq(v->str, "true", 4)) out->b = true;
      else if (v->len == 5 && chv_str_nieq(v->str, "false", 5)) out->b = false;
      else return false;
    } else if (f == CHV_TYPE_BOOLEAN) out->b = v->b;
    else if (f == CHV_TYPE_FLOAT || f == CHV_TYPE_DOUBLE) out->b = v->f64 != 0;
    else if (f == CHV_TYPE_DECIMAL) out->b = v->dec != 0;
    else out->b = v->i64 != 0;
    return true;
  case CHV_TYPE_TINYINT:
  case CHV_TYPE_SMALLINT:
  case CHV_TYPE_INT:
  case CHV_TYPE_BIGINT:
    if (fs) return parse_int(v->str, (size_t)v->len, t, &out->i64);
    if (f == CHV_TYPE_BOOLEAN) out->i64 = v->b;
    else if (f == CHV_TYPE_FLOAT || f == CHV_TYPE_DOUBLE)
      out->i64 = double_to_int(t, v->f64);
    else if (f == CHV_TYPE_DECIMAL) {
      chv_i128 q = v->dec / chv_decimal_pow10(from->scale); /* toward zero */
      chv_i128 m = int_max(t);
      if (q > m || q < -m - 1) return false;
      out->i64 = (int64_t)q;
    } else out->i64 = wrap_int(t, v->i64);
    return true;
  case CHV_TYPE_FLOAT:
  case CHV_TYPE_DOUBLE:
    if (fs) {
      if (!chv_exec_parse_double(v->str, (size_t)v->len, &d)) return false;
    } else if (f == CHV_TYPE_BOOLEAN) d = v->b;
    else if (f == CHV_TYPE_FLOAT || f == CHV_TYPE_DOUBLE) d = v->f64;
    else if (f == CHV_TYPE_DECIMAL) {
      char tmp[64];
      chv_decimal_format(v->dec, from->scale, tmp);
      d = strtod(tmp, NULL); /* correctly rounded */
    } else d = (double)v->i64;
    out->f64 = t == CHV_TYPE_FLOAT ? (double)(float)d : d;
    return true;
  case CHV_TYPE_DECIMAL: {
    if (fs || f == CHV_TYPE_FLOAT || f == CHV_TYPE_DOUBLE) {
      const char *s = v->str;
      size_t n = (size_t)v->len;
      char tmp[64];
      if (!fs) { /* HiveDecimal.create(double) reads Double.toString */
        if (!isfinite(v->f64)) return false;
        n = (size_t)(f == CHV_TYPE_FLOAT ? chv_func_format_float((float)v->f64, tmp)
                                         : chv_func_format_double(v->f64, tmp));
        s = tmp;
      }
      return chv_decimal_parse(s, n, to->precision, to->scale, &out->dec) ==
             CHV_OK;
    }
    chv_i128 x;
    int fscale = 0;
    if (f == CHV_TYPE_BOOLEAN) x = v->b;
    else if (f == CHV_TYPE_DECIMAL) x = v->dec, fscale = from->scale;
    else x = v->i64;
    if (!chv_func_dec_rescale(x, fscale, to->scale, &out->dec)) return false;
    return chv_func_dec_fits(out->dec, to->precision);
  }
  case CHV_TYPE_DATE:
    if (fs) {
      int32_t days;
      if (chv_date_parse(v->str, (size_t)v->len, &days) != CHV_OK) return false;
      out->i64 = days;
    } else if (f == CHV_TYPE_DATE) out->i64 = v->i64;
    else { /* timestamp: the day it falls on */
      int64_t s = v->ts.seconds;
      out->i64 = s >= 0 ? s / 86400 : -((-s + 86399) / 86400);
    }
    return true;
  case CHV_TYPE_TIMESTAMP:
    if (fs) return chv_timestamp_parse(v->str, (size_t)v->len, &out->ts) == CHV_OK;
    if (f == CHV_TYPE_DATE) out->ts.seconds = v->i64 * 86400;
    else out->ts = v->ts;
    return true;
  default:
    return false;
  }
}

int chv_exec_fold(chv_arena *a, const struct chv_expr *cast,
                  struct chv_expr **out, struct chv_error *err) {
  const struct chv_expr *lit = cast->args[0];
  if (lit->kind == CHV_EXPR_CAST) {
    struct chv_expr *inner;
    CHV_RETURN_IF_ERR(chv_exec_fold(a, lit, &inner, err));
    lit = inner;
  }
  struct chv_value v = {.is_null = true};
  struct chv_buf buf;
  chv_buf_init(&buf);
  int rc = CHV_OK;
  if (!lit->value.is_null &&
      !chv_exec_cast_value(lit->type, &lit->value, cast->type, &v, &buf, &rc))
    v.is_null = true;
  if (rc != CHV_OK) {
    chv_buf_free(&buf);
    return chv_error_set(err, CHV_ENOMEM, "out of memory folding a CAST");
  }
  v.is_null = v.is_null || lit->value.is_null;
  rc = chv_expr_literal(a, cast->type, &v, out, err);
  chv_buf_free(&buf);
  return rc;
}
