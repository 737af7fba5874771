/*
** sql/exec cast.c: one value at a time: CAST between primitive types as
** Hive does it, Java's Double.toString, decimal rescaling, and the generic
** value accessors used by the less hot parts of the evaluator (CAST, IN,
** CASE, aggregates over strings).
**
** INTERFACE: chv_exec_cast_value(), chv_exec_get_value(),
** chv_exec_append_value(), chv_exec_compare_values(), chv_exec_fold(),
** chv_exec_format_double()/_float(), chv_exec_parse_double(),
** chv_exec_pow10(), chv_exec_dec_rescale(), chv_exec_dec_fits(),
** chv_exec_div_round().
*/
#include "sql/exec/exec_int.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* ---- decimal arithmetic helpers ----------------------------------------- */

chv_i128 chv_exec_pow10(int k) {
  chv_i128 p = 1;
  for (int i = 0; i < k; i++) p *= 10;
  return p;
}

chv_i128 chv_exec_div_round(chv_i128 n, chv_i128 d) {
  chv_i128 q = n / d, r = n % d;
  chv_i128 ar = r < 0 ? -r : r, ad = d < 0 ? -d : d;
  if (ar >= ad - ar) q += ((n < 0) != (d < 0)) ? -1 : 1;
  return q;
}

bool chv_exec_dec_rescale(chv_i128 v, int from, int to, chv_i128 *out) {
  if (to >= from) {
    if (to - from > 38) return v == 0 ? (*out = 0, true) : false;
    return !__builtin_mul_overflow(v, chv_exec_pow10(to - from), out);
  }
  if (from - to > 38) {
    *out = 0;
    return true;
  }
  *out = chv_exec_div_round(v, chv_exec_pow10(from - to));
  return true;
}

bool chv_exec_dec_fits(chv_i128 v, int precision) {
  chv_i128 lim = chv_exec_pow10(precision);
  return v < lim && v > -lim;
}

/* ---- Java's floating-point text ----------------------------------------- */

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

/* Digits and decimal exponent of the shortest representation that reads
** back as the same value: digits "d1d2..." with value 0.d1d2... * 10^exp.
** As Java (JDK 19+) does, when one digit would do, the closest of the
** one- and two-digit decimals is taken (Double.MIN_VALUE is 4.9E-324), so
** the search starts at two digits. */
static int shortest(double d, bool is_float, char *digits, int *exp10) {
  char buf[64];
  for (int prec = 2; prec <= 17; prec++) {
    snprintf(buf, sizeof buf, "%.*e", prec - 1, d);
    bool ok = is_float ? strtof(buf, NULL) == (float)d
                       : strtod(buf, NULL) == d;
    if (ok) break;
  }
  /* buf: "d.ddde[+-]xx" */
  int n = 0;
  const char *p = buf;
  for (; *p && *p != 'e'; p++)
    if (isdigit((unsigned char)*p)) digits[n++] = *p;
  while (n > 1 && digits[n - 1] == '0') n--;
  digits[n] = '\0';
  *exp10 = atoi(p + 1) + 1;
  return n;
}

static int format_java(double d, bool is_float, char *buf) {
  if (isnan(d)) return (int)strlen(strcpy(buf, "NaN"));
  if (isinf(d)) return (int)strlen(strcpy(buf, d < 0 ? "-Infinity" : "Infinity"));
  char *o = buf;
  if (signbit(d)) *o++ = '-', d = -d;
  if (d == 0) {
    strcpy(o, "0.0");
    return (int)(o - buf) + 3;
  }
  char dg[32];
  int e;
  int n = shortest(d, is_float, dg, &e);
  if (d >= 1e-3 && d < 1e7) {
    if (e <= 0) {
      *o++ = '0';
      *o++ = '.';
      for (int i = 0; i < -e; i++) *o++ = '0';
      for (int i = 0; i < n; i++) *o++ = dg[i];
    } else {
      for (int i = 0; i < e; i++) *o++ = i < n ? dg[i] : '0';
      *o++ = '.';
      if (n > e)
        for (int i = e; i < n; i++) *o++ = dg[i];
      else
        *o++ = '0';
    }
    *o = '\0';
  } else {
    *o++ = dg[0];
    *o++ = '.';
    if (n > 1)
      for (int i = 1; i < n; i++) *o++ = dg[i];
    else
      *o++ = '0';
    o += sprintf(o, "E%d", e - 1);
  }
  return (int)(o - buf);
}

double chv_exec_round_double(double x, int d) {
  if (!isfinite(x) || x == 0) return x;
  bool neg = x < 0;
  char dg[32], txt[80];
  int e;
  int n = shortest(neg ? -x : x, false, dg, &e);
  int keep = e + d; /* digits before the rounding point */
  if (keep >= n) return x;
  if (keep < 0) return 0.0;
  bool up = dg[keep] >= '5';
  dg[keep] = '\0';
  if (up) { /* add one at the last kept digit */
    int i = keep - 1;
    while (i >= 0 && dg[i] == '9') dg[i--] = '0';
    if (i >= 0) {
      dg[i]++;
    } else { /* all nines (or nothing kept): 1 followed by zeros */
      memmove(dg + 1, dg, (size_t)keep + 1);
      dg[0] = '1';
      e++;
    }
  } else if (keep == 0) {
    return 0.0;
  }
  snprintf(txt, sizeof txt, "%s0.%se%d", neg ? "-" : "", dg, e);
  return strtod(txt, NULL);
}

int chv_exec_format_double(double d, char *buf) {
  return format_java(d, false, buf);
}
int chv_exec_format_float(float f, char *buf) {
  return format_java((double)f, true, buf);
}

/* ---- values ------------------------------------------------------------- */

void chv_exec_get_value(const struct chv_vector *v, int64_t i,
                        struct chv_value *out) {
  memset(out, 0, sizeof *out);
  if (chv_vector_is_null(v, i)) {
    out->is_null = true;
    return;
  }
  switch (v->type->id) {
  case CHV_TYPE_BOOLEAN: out->b = chv_bit_get(v->data, i); break;
  case CHV_TYPE_TINYINT: out->i64 = ((const int8_t *)v->data)[i]; break;
  case CHV_TYPE_SMALLINT: out->i64 = ((const int16_t *)v->data)[i]; break;
  case CHV_TYPE_INT:
  case CHV_TYPE_DATE: out->i64 = ((const int32_t *)v->data)[i]; break;
  case CHV_TYPE_BIGINT: out->i64 = ((const int64_t *)v->data)[i]; break;
  case CHV_TYPE_FLOAT: out->f64 = ((const float *)v->data)[i]; break;
  case CHV_TYPE_DOUBLE: out->f64 = ((const double *)v->data)[i]; break;
  case CHV_TYPE_DECIMAL: out->dec = ((const chv_i128 *)v->data)[i]; break;
  case CHV_TYPE_TIMESTAMP:
    out->ts = ((const struct chv_timestamp *)v->data)[i];
    break;
  default:
    out->str = v->bytes + v->offsets[i];
    out->len = v->offsets[i + 1] - v->offsets[i];
    break;
  }
}

int chv_exec_append_value(struct chv_vector *out, const struct chv_value *v,
                          struct chv_error *err) {
  if (v->is_null) return chv_vector_append_null(out, err);
  switch (out->type->id) {
  case CHV_TYPE_BOOLEAN: return chv_vector_append_value(out, &v->b, err);
  case CHV_TYPE_TINYINT: {
    int8_t x = (int8_t)v->i64;
    return chv_vector_append_value(out, &x, err);
  }
  case CHV_TYPE_SMALLINT: {
    int16_t x = (int16_t)v->i64;
    return chv_vector_append_value(out, &x, err);
  }
  case CHV_TYPE_INT:
  case CHV_TYPE_DATE: {
    int32_t x = (int32_t)v->i64;
    return chv_vector_append_value(out, &x, err);
  }
  case CHV_TYPE_BIGINT: return chv_vector_append_value(out, &v->i64, err);
  case CHV_TYPE_FLOAT: {
    float x = (float)v->f64;
    return chv_vector_append_value(out, &x, err);
  }
  case CHV_TYPE_DOUBLE: return chv_vector_append_value(out, &v->f64, err);
  case CHV_TYPE_DECIMAL: return chv_vector_append_value(out, &v->dec, err);
  case CHV_TYPE_TIMESTAMP: return chv_vector_append_value(out, &v->ts, err);
  default:
    return chv_vector_append_string(out, v->str, (size_t)v->len, err);
  }
}

int chv_exec_compare_values(const struct chv_type *t, const struct chv_value *a,
                            const struct chv_value *b) {
  switch (t->id) {
  case CHV_TYPE_BOOLEAN: return (int)a->b - (int)b->b;
  case CHV_TYPE_FLOAT:
  case CHV_TYPE_DOUBLE:
    return a->f64 < b->f64 ? -1 : a->f64 > b->f64 ? 1 : a->f64 == b->f64 ? 0 : 2;
  case CHV_TYPE_DECIMAL: return a->dec < b->dec ? -1 : a->dec > b->dec;
  case CHV_TYPE_TIMESTAMP:
    if (a->ts.seconds != b->ts.seconds)
      return a->ts.seconds < b->ts.seconds ? -1 : 1;
    return a->ts.nanos < b->ts.nanos ? -1 : a->ts.nanos > b->ts.nanos;
  default:
    if (chv_type_is_string_like(t->id)) {
      int64_t m = CHV_MIN(a->len, b->len);
      int c = m ? memcmp(a->str, b->str, (size_t)m) : 0;
      if (c) return c < 0 ? -1 : 1;
      return a->len < b->len ? -1 : a->len > b->len;
    }
    return a->i64 < b->i64 ? -1 : a->i64 > b->i64;
  }
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
  case CHV_TYPE_FLOAT: n = chv_exec_format_float((float)v->f64, tmp); break;
  case CHV_TYPE_DOUBLE: n = chv_exec_format_double(v->f64, tmp); break;
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
      chv_i128 q = v->dec / chv_exec_pow10(from->scale); /* toward zero */
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
        n = (size_t)(f == CHV_TYPE_FLOAT ? chv_exec_format_float((float)v->f64, tmp)
                                         : chv_exec_format_double(v->f64, tmp));
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
    if (!chv_exec_dec_rescale(x, fscale, to->scale, &out->dec)) return false;
    return chv_exec_dec_fits(out->dec, to->precision);
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
