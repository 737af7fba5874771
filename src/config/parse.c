/*
** Option values: parsing text into typed values with Flink's grammars, the
** rule sentence every error quotes, and printing parsed values.
**
** Every rejected value produces one message shape,
**
**   invalid value '<text>' for option '<key>': [<why>; ]expected <rule>
**
** so a user sees which key, which value and what would have been accepted.
**
** INTERFACE
**   chv_option_parse()      text -> struct chv_opt_value for one option
**   chv_option_rule()       "expected ..." for one option
**   chv_opt_value_init(), chv_opt_value_free(), chv_opt_value_format()
**   chv_duration_parse(), chv_memory_parse()    Flink's unit grammars
**   chv_duration_format(), chv_memory_format()  largest exact unit
*/
#include "config/config.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* ---- units ------------------------------------------------------------- */

/* A unit label and its size: nanoseconds for durations, bytes for memory. */
struct unit {
  const char *label;
  int64_t size;
};

#define NS_PER_MS INT64_C(1000000)

/* Flink's TimeUtils labels (lower case; "us" added beside "µs"). */
static const struct unit duration_units[] = {
    {"ns", 1},
    {"nano", 1},
    {"nanos", 1},
    {"nanosecond", 1},
    {"nanoseconds", 1},
    {"us", 1000},
    {"\xc2\xb5s", 1000},
    {"micro", 1000},
    {"micros", 1000},
    {"microsecond", 1000},
    {"microseconds", 1000},
    {"ms", NS_PER_MS},
    {"milli", NS_PER_MS},
    {"millis", NS_PER_MS},
    {"millisecond", NS_PER_MS},
    {"milliseconds", NS_PER_MS},
    {"s", 1000 * NS_PER_MS},
    {"sec", 1000 * NS_PER_MS},
    {"secs", 1000 * NS_PER_MS},
    {"second", 1000 * NS_PER_MS},
    {"seconds", 1000 * NS_PER_MS},
    {"m", 60000 * NS_PER_MS},
    {"min", 60000 * NS_PER_MS},
    {"minute", 60000 * NS_PER_MS},
    {"minutes", 60000 * NS_PER_MS},
    {"h", 3600000 * NS_PER_MS},
    {"hour", 3600000 * NS_PER_MS},
    {"hours", 3600000 * NS_PER_MS},
    {"d", 86400000 * NS_PER_MS},
    {"day", 86400000 * NS_PER_MS},
    {"days", 86400000 * NS_PER_MS},
};

/* Flink's MemorySize labels. */
static const struct unit memory_units[] = {
    {"b", 1},
    {"bytes", 1},
    {"k", INT64_C(1) << 10},
    {"kb", INT64_C(1) << 10},
    {"kibibytes", INT64_C(1) << 10},
    {"m", INT64_C(1) << 20},
    {"mb", INT64_C(1) << 20},
    {"mebibytes", INT64_C(1) << 20},
    {"g", INT64_C(1) << 30},
    {"gb", INT64_C(1) << 30},
    {"gibibytes", INT64_C(1) << 30},
    {"t", INT64_C(1) << 40},
    {"tb", INT64_C(1) << 40},
    {"tebibytes", INT64_C(1) << 40},
};

static const struct unit *unit_find(const struct unit *units, size_t n,
                                    const char *label) {
  for (size_t i = 0; i < n; i++)
    if (chv_str_ieq(units[i].label, label)) return &units[i];
  return NULL;
}

/* Split "<digits><blanks><unit><blanks>" (after leading blanks): the number
** into *num and the unit text into unit (empty when absent).  Returns a
** CHV_E* status and fills why with the reason on failure. */
static int split_number_unit(const char *text, uint64_t *num, char *unit,
                             size_t unit_size, const char **why) {
  const char *p = text;
  while (isspace((unsigned char)*p))
    p++;
  if (*p == '\0') {
    *why = "the value is empty";
    return CHV_EINVAL;
  }
  if (!isdigit((unsigned char)*p)) {
    *why = (*p == '-') ? "negative values are not allowed"
                       : "the value does not start with a number";
    return CHV_EINVAL;
  }
  uint64_t v = 0;
  for (; isdigit((unsigned char)*p); p++) {
    unsigned d = (unsigned)(*p - '0');
    if (v > ((uint64_t)INT64_MAX - d) / 10) {
      *why = "the number does not fit in 64 bits";
      return CHV_ERANGE;
    }
    v = v * 10 + d;
  }
  while (isspace((unsigned char)*p))
    p++;
  size_t n = strlen(p);
  while (n > 0 && isspace((unsigned char)p[n - 1]))
    n--;
  if (n >= unit_size) {
    *why = "the unit is not known";
    return CHV_EINVAL;
  }
  memcpy(unit, p, n);
  unit[n] = '\0';
  *num = v;
  return CHV_OK;
}

int chv_duration_parse(const char *text, int64_t *ms, struct chv_error *err) {
  char unit[32];
  uint64_t num;
  const char *why = NULL;
  int rc = split_number_unit(text, &num, unit, sizeof unit, &why);
  if (rc != CHV_OK) return chv_error_set(err, rc, "%s", why);
  int64_t out;
  if (unit[0] == '\0') {
    out = (int64_t)num;
  } else {
    const struct unit *u =
        unit_find(duration_units, CHV_ARRAY_SIZE(duration_units), unit);
    if (u == NULL)
      return chv_error_set(err, CHV_EINVAL, "unknown time unit '%s'", unit);
    if (u->size < NS_PER_MS) {
      out = (int64_t)(num / (uint64_t)(NS_PER_MS / u->size));
    } else {
      int64_t per_ms = u->size / NS_PER_MS;
      if (num > (uint64_t)(INT64_MAX / per_ms))
        return chv_error_set(err, CHV_ERANGE,
                             "the duration overflows 64-bit milliseconds");
      out = (int64_t)num * per_ms;
    }
  }
  *ms = out;
  return CHV_OK;
}

int chv_memory_parse(const char *text, int64_t *bytes, struct chv_error *err) {
  char unit[32];
  uint64_t num;
  const char *why = NULL;
  int rc = split_number_unit(text, &num, unit, sizeof unit, &why);
  if (rc != CHV_OK) return chv_error_set(err, rc, "%s", why);
  int64_t mult = 1;
  if (unit[0] != '\0') {
    const struct unit *u =
        unit_find(memory_units, CHV_ARRAY_SIZE(memory_units), unit);
    if (u == NULL)
      return chv_error_set(err, CHV_EINVAL, "unknown memory unit '%s'", unit);
    mult = u->size;
  }
  if (num > (uint64_t)(INT64_MAX / mult))
    return chv_error_set(err, CHV_ERANGE, "the size overflows 64-bit bytes");
  *bytes = (int64_t)num * mult;
  return CHV_OK;
}

/* Append x in the largest unit of the list dividing it exactly. */
static int format_units(int64_t x, const struct unit *u, size_t n,
                        const char *base, struct chv_buf *out) {
  for (size_t i = 0; i < n; i++)
    if (x != 0 && x % u[i].size == 0)
      return chv_buf_printf(out, "%" PRId64 " %s", x / u[i].size, u[i].label);
  return chv_buf_printf(out, "%" PRId64 " %s", x, base);
}

int chv_duration_format(int64_t ms, struct chv_buf *out) {
  static const struct unit u[] = {
      {"d", 86400000}, {"h", 3600000}, {"min", 60000}, {"s", 1000}};
  return format_units(ms, u, CHV_ARRAY_SIZE(u), "ms", out);
}

int chv_memory_format(int64_t bytes, struct chv_buf *out) {
  if (bytes == 1) return chv_buf_puts(out, "1 byte");
  static const struct unit u[] = {{"tb", INT64_C(1) << 40},
                                  {"gb", INT64_C(1) << 30},
                                  {"mb", INT64_C(1) << 20},
                                  {"kb", INT64_C(1) << 10}};
  return format_units(bytes, u, CHV_ARRAY_SIZE(u), "bytes", out);
}

/* ---- ranges and rules -------------------------------------------------- */

/* The effective range of an integral option, in its stored unit. */
static void int_range(const struct chv_option *o, int64_t *lo, int64_t *hi) {
  int64_t tlo = INT64_MIN, thi = INT64_MAX;
  switch (o->type) {
  case CHV_OPT_INT:
    tlo = INT32_MIN;
    thi = INT32_MAX;
    break;
  case CHV_OPT_DURATION:
  case CHV_OPT_MEMORY:
    tlo = 0;
    break;
  default:
    break;
  }
  if (o->min == 0 && o->max == 0) {
    *lo = tlo;
    *hi = thi;
  } else {
    *lo = CHV_MAX(o->min, tlo);
    *hi = CHV_MIN(o->max, thi);
  }
}

/* Append "'a', 'b' or 'c'" for a NULL-terminated value list. */
static void put_values(struct chv_buf *b, const char *const *values) {
  for (size_t i = 0; values[i]; i++) {
    const char *sep = i == 0 ? "" : values[i + 1] ? ", " : " or ";
    chv_buf_printf(b, "%s'%s'", sep, values[i]);
  }
}

/* Append " from LO to HI", " of at least LO" or nothing, LO and HI printed
** by fmt (a duration, a memory size or a plain number). */
static void put_range(struct chv_buf *b, const struct chv_option *o,
                      int (*fmt)(int64_t, struct chv_buf *)) {
  int64_t lo, hi, tlo, thi;
  int_range(o, &lo, &hi);
  struct chv_option whole = *o;
  whole.min = whole.max = 0;
  int_range(&whole, &tlo, &thi);
  if (lo == tlo && hi == thi) return;
  if (hi == thi) {
    chv_buf_puts(b, " of at least ");
    fmt(lo, b);
  } else {
    chv_buf_puts(b, " from ");
    fmt(lo, b);
    chv_buf_puts(b, " to ");
    fmt(hi, b);
  }
}

static void rule_buf(const struct chv_option *o, struct chv_buf *b) {
  int64_t lo, hi;
  switch (o->type) {
  case CHV_OPT_BOOL:
    chv_buf_puts(b, "expected 'true' or 'false'");
    break;
  case CHV_OPT_INT:
  case CHV_OPT_LONG:
    int_range(o, &lo, &hi);
    chv_buf_printf(b, "expected an integer from %" PRId64 " to %" PRId64, lo,
                   hi);
    break;
  case CHV_OPT_DOUBLE:
    if (o->dmin == 0.0 && o->dmax == 0.0)
      chv_buf_puts(b, "expected a finite number");
    else
      chv_buf_printf(b, "expected a number from %g to %g", o->dmin, o->dmax);
    break;
  case CHV_OPT_STRING:
    if (o->flags & CHV_OPTF_FILE_NAME)
      chv_buf_puts(b, "expected a non-empty file name without '/' or '\\', other than "
                      "'.' and '..'");
    else
      chv_buf_puts(b, (o->flags & CHV_OPTF_NONEMPTY) ? "expected a non-empty "
                                                       "string"
                                                     : "expected a string");
    break;
  case CHV_OPT_DURATION:
    chv_buf_puts(b, "expected a duration");
    put_range(b, o, chv_duration_format);
    chv_buf_puts(b, " such as '5 min', '30 s' or '100 ms' (units ns, us, ms, "
                    "s, min, h, d; a bare number is milliseconds)");
    break;
  case CHV_OPT_MEMORY:
    chv_buf_puts(b, "expected a memory size");
    put_range(b, o, chv_memory_format);
    chv_buf_puts(b, " such as '128mb', '4 kb' or a number of bytes (units b, "
                    "kb, mb, gb, tb)");
    break;
  case CHV_OPT_ENUM:
    chv_buf_puts(b, "expected one of ");
    put_values(b, o->values);
    chv_buf_puts(b, " (case-insensitive, '-' or '_')");
    break;
  case CHV_OPT_LIST:
    if (o->values) {
      chv_buf_printf(b, "expected a '%c'-separated list of ", o->separator);
      put_values(b, o->values);
    } else {
      chv_buf_printf(b,
                     "expected a '%c'-separated list without empty "
                     "elements",
                     o->separator);
    }
    break;
  }
}

void chv_option_rule(const struct chv_option *opt, char *buf, size_t n) {
  struct chv_buf b;
  chv_buf_init(&b);
  rule_buf(opt, &b);
  snprintf(buf, n, "%s", b.data ? b.data : "expected a valid value");
  chv_buf_free(&b);
}

/* Raise the one error shape of an invalid value, with an optional reason. */
static int invalid(struct chv_error *err, int code, const struct chv_option *o,
                   const char *text, const char *why) {
  char rule[512];
  chv_option_rule(o, rule, sizeof rule);
  return chv_error_set(err, code,
                       "invalid value '%.200s' for option '%s': %s%s%s", text,
                       o->key, why ? why : "", why ? "; " : "", rule);
}

/* ---- values ------------------------------------------------------------ */

void chv_opt_value_init(struct chv_opt_value *v) {
  memset(v, 0, sizeof *v);
}

void chv_opt_value_free(struct chv_opt_value *v) {
  if (v == NULL) return;
  chv_free(v->text);
  for (int i = 0; i < v->nlist; i++)
    chv_free(v->list[i]);
  chv_free(v->list);
  memset(v, 0, sizeof *v);
}

/* Compare an enum spelling case-insensitively with '-' and '_' equal. */
static bool enum_eq(const char *a, const char *b) {
  for (; *a && *b; a++, b++) {
    int ca = tolower((unsigned char)*a), cb = tolower((unsigned char)*b);
    if (ca == '_') ca = '-';
    if (cb == '_') cb = '-';
    if (ca != cb) return false;
  }
  return *a == *b;
}

static int enum_index(const char *const *values, const char *s) {
  for (int i = 0; values[i]; i++)
    if (enum_eq(values[i], s)) return i;
  return -1;
}

/* Parse a decimal integer into *out; false when malformed or beyond 64
** bits. */
static bool parse_i64(const char *s, int64_t *out) {
  if (*s == '\0' || isspace((unsigned char)*s)) return false;
  char *end;
  errno = 0;
  long long v = strtoll(s, &end, 10);
  if (errno != 0 || *end != '\0') return false;
  *out = v;
  return true;
}

/* Split text on sep into trimmed elements; empty elements are an error. */
static int parse_list(const struct chv_option *o, const char *text,
                      struct chv_opt_value *v, struct chv_error *err) {
  char *copy = chv_strdup(text);
  if (copy == NULL) return chv_error_set(err, CHV_ENOMEM, "out of memory");
  int rc = CHV_OK;
  int cap = 0;
  /* A free-form list may be empty (Hive tables carry empty
  ** 'orc.bloom.filter.columns'); a list of fixed values may not. */
  if (o->values == NULL && *chv_str_trim(copy) == '\0') {
    chv_free(copy);
    return CHV_OK;
  }
  char *p = copy;
  for (;;) {
    char *sep = strchr(p, o->separator);
    if (sep) *sep = '\0';
    char *elem = chv_str_trim(p);
    if (*elem == '\0') {
      rc = invalid(err, CHV_EINVAL, o, text, "the list has an empty element");
      goto out_free_copy;
    }
    if (o->values && enum_index(o->values, elem) < 0) {
      char why[256];
      snprintf(why, sizeof why, "element '%.200s' is not allowed", elem);
      rc = invalid(err, CHV_EINVAL, o, text, why);
      goto out_free_copy;
    }
    if (v->nlist == cap) {
      cap = cap ? cap * 2 : 4;
      char **nl = chv_realloc(v->list, (size_t)cap * sizeof *nl);
      if (nl == NULL) {
        rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
        goto out_free_copy;
      }
      v->list = nl;
    }
    int idx = o->values ? enum_index(o->values, elem) : -1;
    v->list[v->nlist] = chv_strdup(idx >= 0 ? o->values[idx] : elem);
    if (v->list[v->nlist] == NULL) {
      rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
      goto out_free_copy;
    }
    v->nlist++;
    if (sep == NULL) break;
    p = sep + 1;
  }
out_free_copy:
  chv_free(copy);
  return rc;
}

/* Parse into v (zeroed); on failure v may hold partial allocations. */
static int parse_into(const struct chv_option *o, const char *text,
                      const char *trimmed, struct chv_opt_value *v,
                      struct chv_error *err) {
  int64_t lo, hi;
  v->type = o->type;
  switch (o->type) {
  case CHV_OPT_BOOL:
    if (chv_str_ieq(trimmed, "true"))
      v->b = true;
    else if (chv_str_ieq(trimmed, "false"))
      v->b = false;
    else
      return invalid(err, CHV_EINVAL, o, text, NULL);
    break;
  case CHV_OPT_INT:
  case CHV_OPT_LONG: {
    int64_t x;
    if (!parse_i64(trimmed, &x)) {
      bool digits = *trimmed != '\0';
      for (const char *p = trimmed + (*trimmed == '-' || *trimmed == '+'); *p;
           p++)
        if (!isdigit((unsigned char)*p)) digits = false;
      return invalid(err, digits ? CHV_ERANGE : CHV_EINVAL, o, text,
                     digits ? "the number does not fit in 64 bits" : NULL);
    }
    int_range(o, &lo, &hi);
    if (x < lo || x > hi) return invalid(err, CHV_ERANGE, o, text, NULL);
    v->i = x;
    break;
  }
  case CHV_OPT_DOUBLE: {
    char *end;
    bool ok = *trimmed != '\0';
    for (const char *p = trimmed; *p; p++)
      if (!strchr("0123456789+-.eE", *p)) ok = false;
    double d = ok ? strtod(trimmed, &end) : 0.0;
    if (!ok || *end != '\0' || !isfinite(d))
      return invalid(err, CHV_EINVAL, o, text, NULL);
    if ((o->dmin != 0.0 || o->dmax != 0.0) && (d < o->dmin || d > o->dmax))
      return invalid(err, CHV_ERANGE, o, text, NULL);
    v->d = d;
    break;
  }
  case CHV_OPT_STRING:
    /* Not trimmed: a blank or a tab is a valid delimiter. */
    if ((o->flags & CHV_OPTF_NONEMPTY) && *text == '\0')
      return invalid(err, CHV_EINVAL, o, text, NULL);
    /* A file name must stay in its folder. */
    if ((o->flags & CHV_OPTF_FILE_NAME) &&
        (strpbrk(text, "/\\") || !strcmp(text, ".") || !strcmp(text, "..")))
      return invalid(err, CHV_EINVAL, o, text,
                     "a path would leave the partition folder");
    break;
  case CHV_OPT_DURATION:
  case CHV_OPT_MEMORY: {
    struct chv_error why;
    int64_t x;
    int rc = o->type == CHV_OPT_DURATION ? chv_duration_parse(text, &x, &why)
                                         : chv_memory_parse(text, &x, &why);
    if (rc != CHV_OK) return invalid(err, rc, o, text, why.msg);
    int_range(o, &lo, &hi);
    if (x < lo || x > hi) return invalid(err, CHV_ERANGE, o, text, NULL);
    if (o->type == CHV_OPT_DURATION)
      v->ms = x;
    else
      v->bytes = x;
    break;
  }
  case CHV_OPT_ENUM: {
    int idx = enum_index(o->values, trimmed);
    if (idx < 0) return invalid(err, CHV_EINVAL, o, text, NULL);
    v->enum_index = idx;
    trimmed = o->values[idx];
    break;
  }
  case CHV_OPT_LIST:
    CHV_RETURN_IF_ERR(parse_list(o, text, v, err));
    break;
  }
  /* Strings keep their exact text, blanks included; others the trimmed
  ** text (or the canonical spelling of an enum value). */
  v->text = chv_strdup(o->type == CHV_OPT_STRING ? text : trimmed);
  if (v->text == NULL) return chv_error_set(err, CHV_ENOMEM, "out of memory");
  return CHV_OK;
}

/* A parsed value chive cannot honour yet (opt->refused): 'true' of a BOOL,
** anything but blanks of a STRING or LIST. */
static bool refused(const struct chv_option *o, const struct chv_opt_value *v,
                    const char *trimmed) {
  if (o->refused == NULL) return false;
  if (o->type == CHV_OPT_BOOL) return v->b;
  return *trimmed != '\0';
}

int chv_option_parse(const struct chv_option *opt, const char *text,
                     struct chv_opt_value *out, struct chv_error *err) {
  if (opt == NULL || text == NULL)
    return chv_error_set(err, CHV_EINVAL, "no option or no value");
  char *copy = chv_strdup(text);
  if (copy == NULL) return chv_error_set(err, CHV_ENOMEM, "out of memory");
  struct chv_opt_value v;
  chv_opt_value_init(&v);
  const char *trimmed = chv_str_trim(copy);
  int rc = parse_into(opt, text, trimmed, &v, err);
  if (rc == CHV_OK && refused(opt, &v, trimmed))
    rc = chv_error_set(err, CHV_ENOTSUP, "%s=%.200s %s", opt->key, trimmed,
                       opt->refused);
  chv_free(copy);
  if (rc != CHV_OK) {
    chv_opt_value_free(&v);
    return rc;
  }
  chv_opt_value_free(out);
  *out = v;
  return CHV_OK;
}

int chv_opt_value_format(const struct chv_opt_value *v, struct chv_buf *out) {
  switch (v->type) {
  case CHV_OPT_BOOL:
    return chv_buf_puts(out, v->b ? "true" : "false");
  case CHV_OPT_INT:
  case CHV_OPT_LONG:
    return chv_buf_printf(out, "%" PRId64, v->i);
  case CHV_OPT_DOUBLE: {
    /* The shortest precision that reads back as the same double. */
    char tmp[40];
    for (int prec = 1; prec <= 17; prec++) {
      snprintf(tmp, sizeof tmp, "%.*g", prec, v->d);
      if (strtod(tmp, NULL) == v->d) break;
    }
    return chv_buf_puts(out, tmp);
  }
  case CHV_OPT_STRING:
  case CHV_OPT_ENUM:
    return chv_buf_puts(out, v->text ? v->text : "");
  case CHV_OPT_DURATION:
    CHV_RETURN_IF_ERR(chv_buf_printf(out, "%" PRId64 " ms", v->ms));
    if (v->ms == 0 || v->ms % 1000 != 0) return CHV_OK;
    CHV_RETURN_IF_ERR(chv_buf_puts(out, " ("));
    CHV_RETURN_IF_ERR(chv_duration_format(v->ms, out));
    return chv_buf_puts(out, ")");
  case CHV_OPT_MEMORY:
    CHV_RETURN_IF_ERR(chv_buf_printf(out, "%" PRId64 " bytes", v->bytes));
    if (v->bytes == 0 || v->bytes % 1024 != 0) return CHV_OK;
    CHV_RETURN_IF_ERR(chv_buf_puts(out, " ("));
    CHV_RETURN_IF_ERR(chv_memory_format(v->bytes, out));
    return chv_buf_puts(out, ")");
  case CHV_OPT_LIST:
    CHV_RETURN_IF_ERR(chv_buf_putc(out, '['));
    for (int i = 0; i < v->nlist; i++)
      CHV_RETURN_IF_ERR(chv_buf_printf(out, "%s%s", i ? ", " : "", v->list[i]));
    return chv_buf_putc(out, ']');
  }
  return CHV_OK;
}
