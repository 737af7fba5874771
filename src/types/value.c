/*
** Value helpers: civil dates <-> days since the epoch (proleptic Gregorian,
** as Hive 3 and java.time), timestamps as seconds + nanoseconds, and DECIMAL
** literals <-> 128-bit unscaled integers with Hive's HALF_UP rounding.
**
** Parsers take (pointer, length) because callers hand them fields cut out of
** a row; they trim white space as Hive's parsers do (dates and timestamps:
** any ASCII space, like String.trim(); decimals: blanks only) and return
** CHV_EINVAL for malformed text (the text reader maps that to NULL) and
** CHV_ERANGE for a decimal that does not fit its precision.
**
** INTERFACE
**   chv_date_from_ymd() chv_date_to_ymd() chv_date_parse() chv_date_format()
**   chv_timestamp_parse() chv_timestamp_format()
**   chv_decimal_parse() chv_decimal_format()
*/
#include "types/types.h"

#include <stdio.h>

/* ---- dates ------------------------------------------------------------- */

int32_t chv_date_from_ymd(int y, int m, int d) {
  /* H. Hinnant's days_from_civil. */
  int64_t yy = (int64_t)y - (m <= 2);
  int64_t era = (yy >= 0 ? yy : yy - 399) / 400;
  int64_t yoe = yy - era * 400;
  int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return (int32_t)(era * 146097 + doe - 719468);
}

void chv_date_to_ymd(int32_t days, int *y, int *m, int *d) {
  int64_t z = (int64_t)days + 719468;
  int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  int64_t doe = z - era * 146097;
  int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  int64_t yy = yoe + era * 400;
  int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  int64_t mp = (5 * doy + 2) / 153;
  *d = (int)(doy - (153 * mp + 2) / 5 + 1);
  *m = (int)(mp < 10 ? mp + 3 : mp - 9);
  *y = (int)(yy + (*m <= 2));
}

static bool is_leap(int y) {
  return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

static int days_in_month(int y, int m) {
  static const int dim[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && is_leap(y) ? 29 : dim[m - 1];
}

static bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
         c == '\v';
}

static void trim(const char **s, size_t *n) {
  while (*n > 0 && is_space(**s)) (*s)++, (*n)--;
  while (*n > 0 && is_space((*s)[*n - 1])) (*n)--;
}

/* Read min..max decimal digits at s[*i]; false if fewer than min. */
static bool digits(const char *s, size_t n, size_t *i, int min, int max,
                   int *out) {
  int v = 0, k = 0;
  while (*i < n && k < max && s[*i] >= '0' && s[*i] <= '9') {
    v = v * 10 + (s[*i] - '0');
    (*i)++;
    k++;
  }
  if (k < min) return false;
  *out = v;
  return true;
}

/* "Y{1,4}-M{1,2}-D{1,2}" at s[*i], checked against the calendar. */
static bool parse_ymd(const char *s, size_t n, size_t *i, int32_t *days) {
  int y, m, d;
  if (!digits(s, n, i, 1, 4, &y) || *i >= n || s[(*i)++] != '-') return false;
  if (!digits(s, n, i, 1, 2, &m) || *i >= n || s[(*i)++] != '-') return false;
  if (!digits(s, n, i, 1, 2, &d)) return false;
  if (y < 1 || y > 9999 || m < 1 || m > 12 || d < 1 ||
      d > days_in_month(y, m))
    return false;
  *days = chv_date_from_ymd(y, m, d);
  return true;
}

/* "H{1,2}:M{1,2}[:S{1,2}[.f{1,9}]]" at s[*i] through the end; the seconds
** are optional only in the ISO form ('T' separator), as in Hive's
** Timestamp.valueOf. */
static bool parse_time(const char *s, size_t n, size_t *i, bool iso,
                       int32_t *secs, int32_t *nanos) {
  int h, mi, se = 0, ns = 0;
  if (!digits(s, n, i, 1, 2, &h) || *i >= n || s[(*i)++] != ':') return false;
  if (!digits(s, n, i, 1, 2, &mi)) return false;
  if (!iso && (*i >= n || s[*i] != ':')) return false;
  if (*i < n && s[*i] == ':') {
    (*i)++;
    if (!digits(s, n, i, 1, 2, &se)) return false;
    if (*i < n && s[*i] == '.') {
      (*i)++;
      int k = 0;
      while (*i < n && s[*i] >= '0' && s[*i] <= '9') {
        if (++k > 9) return false;
        ns = ns * 10 + (s[(*i)++] - '0');
      }
      if (k == 0) return false;
      for (; k < 9; k++) ns *= 10;
    }
  }
  if (*i != n || h > 23 || mi > 59 || se > 59) return false;
  *secs = h * 3600 + mi * 60 + se;
  *nanos = ns;
  return true;
}

int chv_date_parse(const char *s, size_t n, int32_t *out) {
  trim(&s, &n);
  size_t i = 0;
  int32_t days;
  if (!parse_ymd(s, n, &i, &days)) return CHV_EINVAL;
  /* Hive's Date.valueOf drops whatever follows the date ("T09:39:27Z",
  ** " 09:39:27") unless it starts with a digit ("2023-08-0800"). */
  if (i < n && s[i] >= '0' && s[i] <= '9') return CHV_EINVAL;
  *out = days;
  return CHV_OK;
}

int chv_date_format(int32_t days, char *buf) {
  int y, m, d;
  chv_date_to_ymd(days, &y, &m, &d);
  return snprintf(buf, 16, "%04d-%02d-%02d", y, m, d);
}

/* ---- timestamps -------------------------------------------------------- */

int chv_timestamp_parse(const char *s, size_t n, struct chv_timestamp *out) {
  trim(&s, &n);
  size_t i = 0;
  int32_t days, secs = 0, nanos = 0;
  if (!parse_ymd(s, n, &i, &days)) return CHV_EINVAL;
  if (i < n) {
    if (s[i] != ' ' && s[i] != 'T') return CHV_EINVAL;
    bool iso = s[i++] == 'T';
    if (!parse_time(s, n, &i, iso, &secs, &nanos)) return CHV_EINVAL;
  }
  out->seconds = (int64_t)days * 86400 + secs;
  out->nanos = nanos;
  out->pad_ = 0;
  return CHV_OK;
}

int chv_timestamp_format(struct chv_timestamp ts, char *buf) {
  int64_t days = ts.seconds / 86400, sod = ts.seconds % 86400;
  if (sod < 0) {
    sod += 86400;
    days--;
  }
  int y, m, d;
  chv_date_to_ymd((int32_t)days, &y, &m, &d);
  int n = snprintf(buf, 40, "%04d-%02d-%02d %02d:%02d:%02d", y, m, d,
                   (int)(sod / 3600), (int)(sod / 60 % 60), (int)(sod % 60));
  int32_t ns = ts.nanos;
  if (ns > 0 && ns < 1000000000) {
    char frac[10];
    snprintf(frac, sizeof frac, "%09d", (int)ns);
    int k = 9;
    while (k > 0 && frac[k - 1] == '0') k--;
    buf[n++] = '.';
    memcpy(buf + n, frac, (size_t)k);
    n += k;
    buf[n] = '\0';
  }
  return n;
}

/* ---- decimals ---------------------------------------------------------- */

typedef unsigned __int128 chv_u128;

#define P10_(k) ((chv_i128)10000000000000000000ULL * (chv_i128)k##ULL)
const chv_i128 chv_decimal_pow10_table[39] = {
    1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL,
    10000000ULL, 100000000ULL, 1000000000ULL, 10000000000ULL,
    100000000000ULL, 1000000000000ULL, 10000000000000ULL,
    100000000000000ULL, 1000000000000000ULL, 10000000000000000ULL,
    100000000000000000ULL, 1000000000000000000ULL,
    10000000000000000000ULL, P10_(10), P10_(100), P10_(1000), P10_(10000),
    P10_(100000), P10_(1000000), P10_(10000000), P10_(100000000),
    P10_(1000000000), P10_(10000000000), P10_(100000000000),
    P10_(1000000000000), P10_(10000000000000), P10_(100000000000000),
    P10_(1000000000000000), P10_(10000000000000000),
    P10_(100000000000000000), P10_(1000000000000000000),
    P10_(10000000000000000000)};
#undef P10_

/* 10^k for k in 0..38. */
static chv_u128 pow10_u128(int k) { return (chv_u128)chv_decimal_pow10(k); }

int chv_decimal_parse(const char *s, size_t n, int precision, int scale,
                      chv_i128 *out) {
  if (precision < 1 || precision > CHV_DECIMAL_MAX_PRECISION || scale < 0 ||
      scale > precision)
    return CHV_EINVAL;
  /* HiveDecimal trims blanks (spaces only). */
  while (n > 0 && *s == ' ') s++, n--;
  while (n > 0 && s[n - 1] == ' ') n--;
  size_t i = 0;
  bool neg = false;
  if (i < n && (s[i] == '+' || s[i] == '-')) neg = s[i++] == '-';
  /* The mantissa as HiveDecimal reads it: at most 38 digits, counting the
  ** significant integer digits and every fraction digit; the 39th digit, if
  ** any, rounds half up and the rest are ignored.  M * 10^-frac is the
  ** literal before its exponent. */
  chv_u128 m = 0;
  int ndig = 0, frac = 0;
  bool any = false, round_up = false, cut = false;
  while (i < n && s[i] >= '0' && s[i] <= '9') {
    any = true;
    if (ndig == 0 && s[i] == '0') {
      i++;
      continue;
    }
    if (ndig == CHV_DECIMAL_MAX_PRECISION) return CHV_ERANGE; /* 39 digits */
    m = m * 10 + (chv_u128)(s[i++] - '0');
    ndig++;
  }
  if (i < n && s[i] == '.') {
    i++;
    while (i < n && s[i] >= '0' && s[i] <= '9') {
      any = true;
      if (cut) {
        i++;
        continue;
      }
      if (ndig == CHV_DECIMAL_MAX_PRECISION) {
        round_up = s[i] >= '5';
        cut = true;
        i++;
        continue;
      }
      m = m * 10 + (chv_u128)(s[i++] - '0');
      ndig++;
      frac++;
    }
  }
  if (!any) return CHV_EINVAL;
  if (round_up) m++;
  /* Exponent: Hive takes at most two significant digits. */
  long e = 0;
  if (i < n && (s[i] == 'e' || s[i] == 'E')) {
    i++;
    bool eneg = false;
    if (i < n && (s[i] == '+' || s[i] == '-')) eneg = s[i++] == '-';
    size_t e0 = i;
    int sigd = 0;
    while (i < n && s[i] >= '0' && s[i] <= '9') {
      if (e != 0 || s[i] != '0') {
        if (++sigd > 2) return CHV_EINVAL;
        e = e * 10 + (s[i] - '0');
      }
      i++;
    }
    if (i == e0) return CHV_EINVAL;
    if (eneg) e = -e;
  }
  if (i != n) return CHV_EINVAL;
  /* Unscaled value at `scale`: M * 10^(e - frac + scale), rounded half up
  ** (away from zero) when the power is negative. */
  long k = e - frac + scale;
  chv_u128 lim = pow10_u128(precision), v;
  if (m == 0) {
    v = 0;
  } else if (k >= 0) {
    if (k > CHV_DECIMAL_MAX_PRECISION) return CHV_ERANGE;
    chv_u128 p10 = pow10_u128((int)k);
    if (m >= (lim + p10 - 1) / p10) return CHV_ERANGE; /* m * p10 >= lim */
    v = m * p10;
  } else if (k < -CHV_DECIMAL_MAX_PRECISION) {
    v = 0; /* m <= 10^38, so the quotient is at most 0.1 */
  } else {
    chv_u128 p10 = pow10_u128((int)-k);
    v = m / p10;
    if (m % p10 >= p10 / 2) v++;
  }
  if (v >= lim) return CHV_ERANGE;
  *out = neg ? -(chv_i128)v : (chv_i128)v;
  return CHV_OK;
}

int chv_decimal_format(chv_i128 v, int scale, char *buf) {
  CHV_ASSERT(scale >= 0 && scale <= CHV_DECIMAL_MAX_PRECISION);
  if (scale < 0) scale = 0;
  if (scale > CHV_DECIMAL_MAX_PRECISION) scale = CHV_DECIMAL_MAX_PRECISION;
  char tmp[48];
  int k = 0;
  chv_u128 u = v < 0 ? (chv_u128)0 - (chv_u128)v : (chv_u128)v;
  do {
    tmp[k++] = (char)('0' + (int)(u % 10));
    u /= 10;
  } while (u != 0);
  while (k <= scale) tmp[k++] = '0'; /* at least one integer digit */
  int n = 0;
  if (v < 0) buf[n++] = '-';
  for (int j = k - 1; j >= 0; j--) {
    if (j == scale - 1) buf[n++] = '.';
    buf[n++] = tmp[j];
  }
  buf[n] = '\0';
  return n;
}

bool chv_decimal_parse_exact(const char *s, int scale, chv_i128 *out) {
  size_t n = strlen(s);
  while (n && (s[n - 1] == ' ' || s[n - 1] == '\t')) n--;
  size_t i = 0;
  while (i < n && (s[i] == ' ' || s[i] == '\t')) i++;
  size_t start = i;
  if (i < n && (s[i] == '+' || s[i] == '-')) i++;
  int digits = 0, frac = 0, last_nonzero = 0;
  for (; i < n && s[i] >= '0' && s[i] <= '9'; i++) digits++;
  if (i < n && s[i] == '.')
    for (i++; i < n && s[i] >= '0' && s[i] <= '9'; i++) {
      frac++;
      if (s[i] != '0') last_nonzero = frac;
    }
  if (i != n || digits + frac == 0 || last_nonzero > scale) return false;
  return chv_decimal_parse(s + start, n - start, CHV_DECIMAL_MAX_PRECISION,
                           scale, out) == CHV_OK;
}
