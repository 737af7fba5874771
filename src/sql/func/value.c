/*
** sql/func value.c: values of Hive's primitive types, one at a time: the
** arena type constructor, type predicates, the accessors between vectors
** and struct chv_value, comparison, decimal arithmetic (128-bit unscaled
** values, HiveDecimal's HALF_UP) and Java's Double.toString, which both
** CAST to string (sql/exec) and round() of a double (Hive's RoundUtils
** rounds the digits it prints) need.
**
** INTERFACE: chv_func_type(), chv_func_is_*(), chv_func_get_value(),
** chv_func_append_value(), chv_func_compare_values(),
** chv_func_dec_rescale(), chv_func_dec_fits(), chv_func_div_round(),
** chv_func_format_double()/_float(), chv_func_round_double().
*/
#include "sql/func/func_int.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

const struct chv_type *chv_func_type(chv_arena *a, enum chv_type_id id,
                                     int precision_or_length, int scale) {
  struct chv_type *t = chv_arena_alloc(a, sizeof *t);
  if (t == NULL) return NULL;
  memset(t, 0, sizeof *t);
  t->id = id;
  if (id == CHV_TYPE_DECIMAL) {
    t->precision = precision_or_length;
    t->scale = scale;
  } else if (id == CHV_TYPE_CHAR || id == CHV_TYPE_VARCHAR) {
    t->length = precision_or_length;
  }
  return t;
}

bool chv_func_is_integral(enum chv_type_id id) {
  return id >= CHV_TYPE_TINYINT && id <= CHV_TYPE_BIGINT;
}
bool chv_func_is_numeric(enum chv_type_id id) {
  return id >= CHV_TYPE_TINYINT && id <= CHV_TYPE_DECIMAL;
}
bool chv_func_is_string(enum chv_type_id id) {
  return id == CHV_TYPE_STRING || id == CHV_TYPE_VARCHAR ||
         id == CHV_TYPE_CHAR;
}

/* ---- decimal arithmetic helpers ----------------------------------------- */

chv_i128 chv_func_div_round(chv_i128 n, chv_i128 d) {
  chv_i128 q = n / d, r = n % d;
  chv_i128 ar = r < 0 ? -r : r, ad = d < 0 ? -d : d;
  if (ar >= ad - ar) q += ((n < 0) != (d < 0)) ? -1 : 1;
  return q;
}

bool chv_func_dec_rescale(chv_i128 v, int from, int to, chv_i128 *out) {
  if (to >= from) {
    if (to - from > 38) return v == 0 ? (*out = 0, true) : false;
    return !__builtin_mul_overflow(v, chv_decimal_pow10(to - from), out);
  }
  if (from - to > 38) {
    *out = 0;
    return true;
  }
  *out = chv_func_div_round(v, chv_decimal_pow10(from - to));
  return true;
}


/* ---- Java's floating-point text ----------------------------------------- */

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

double chv_func_round_double(double x, int d) {
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

int chv_func_format_double(double d, char *buf) {
  return format_java(d, false, buf);
}
int chv_func_format_float(float f, char *buf) {
  return format_java((double)f, true, buf);
}

/* ---- values ------------------------------------------------------------- */

void chv_func_get_value(const struct chv_vector *v, int64_t i,
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

int chv_func_append_value(struct chv_vector *out, const struct chv_value *v,
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

int chv_func_compare_values(const struct chv_type *t,
                            const struct chv_value *a,
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
