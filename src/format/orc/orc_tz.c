/*
** Time zones for ORC TIMESTAMP columns: the offset from UTC a named zone
** has at an instant, as Java's TimeZone.getOffset() gives it, read from the
** system's time zone database (TZif files under $TZDIR or
** /usr/share/zoneinfo, RFC 8536) without touching the process's TZ.
**
** ORC stores a TIMESTAMP as seconds from 2015-01-01 00:00:00 in the zone
** the stripe footer names (writerTimezone); the reader needs that zone's
** offsets to give back the writer's wall-clock time (orc_column.c has the
** arithmetic).  A zone is resolved as Java resolves a TimeZone ID:
**   - custom IDs "GMT+h", "GMT-hh", "GMT+hh:mm", "GMT+hhmm" are fixed
**     offsets (east of UTC, unlike the POSIX "Etc/GMT+8");
**   - Java's three-letter IDs that the database lacks (PST, CST, IST, ...)
**     are the regions Java maps them to;
**   - any other name is a file of the database (US/Pacific, UTC, EST, ...).
** A name the database does not hold is CHV_ENOTSUP naming it (Java would
** silently read it as GMT, which gives wrong wall-clock times), as is a
** name that is not a plain relative path.
**
** Offsets: the TZif version 2+ data (64-bit transition times; version 1
** files use their 32-bit data), the first time type before the first
** transition, and after the last one the footer's POSIX TZ rule
** ("PST8PDT,M3.2.0,M11.1.0": transitions computed for each year), as
** Java's zone data extends its last rule.  Leap second records are
** ignored, as Java ignores them.
**
** INTERFACE: or_tz_open(), or_tz_close(), or_tz_offset(), or_tz_base(),
** or_tz_is_utc() (orc_read.h).
*/
#include "format/orc/orc_read.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#define TZ_MAX_FILE (1 << 20) /* largest TZif file read */
#define TZ_BASE_LOCAL INT64_C(1420070400) /* 2015-01-01 00:00:00 as UTC */

/* A day of the year a POSIX rule names, and the local time of day. */
struct tz_date {
  char form;    /* 'J' (1..365, no Feb 29), 'n' (0..365), 'M' (m.w.d) */
  int a, b, c;  /* J/n: day; M: month, week (1..5), weekday (0 = Sunday) */
  int32_t secs; /* local time of the change, seconds (may be negative) */
};

struct or_tz {
  char *name;
  uint32_t n;         /* transitions */
  int64_t *trans;     /* UTC seconds of each transition, ascending */
  int32_t *offs;      /* offset in effect from trans[i] on */
  int32_t first;      /* offset before the first transition */
  bool has_rule;      /* the footer's rule applies after the last one */
  int32_t std_off;    /* rule: standard offset (seconds east of UTC) */
  int32_t dst_off;    /* rule: daylight offset */
  bool has_dst;       /* rule: a daylight part with its dates */
  struct tz_date start, end;
  bool utc;           /* offset 0 at every instant */
  int64_t base;       /* 2015-01-01 00:00:00 local, as UTC seconds */
  /* The interval [lo, hi) of the last lookup and its offset. */
  int64_t lo, hi;
  int32_t off;
};

/* Java's three-letter zone IDs that are not names in the database, and the
** regions Java reads them as (java.time.ZoneId.SHORT_IDS; EST, MST and HST
** are files of the database, fixed offsets as in Java). */
static const struct {
  const char *id, *zone;
} short_ids[] = {
    {"ACT", "Australia/Darwin"},
    {"AET", "Australia/Sydney"},
    {"AGT", "America/Argentina/Buenos_Aires"},
    {"ART", "Africa/Cairo"},
    {"AST", "America/Anchorage"},
    {"BET", "America/Sao_Paulo"},
    {"BST", "Asia/Dhaka"},
    {"CAT", "Africa/Harare"},
    {"CNT", "America/St_Johns"},
    {"CST", "America/Chicago"},
    {"CTT", "Asia/Shanghai"},
    {"EAT", "Africa/Addis_Ababa"},
    {"ECT", "Europe/Paris"},
    {"IET", "America/Indiana/Indianapolis"},
    {"IST", "Asia/Kolkata"},
    {"JST", "Asia/Tokyo"},
    {"MIT", "Pacific/Apia"},
    {"NET", "Asia/Yerevan"},
    {"NST", "Pacific/Auckland"},
    {"PLT", "Asia/Karachi"},
    {"PNT", "America/Phoenix"},
    {"PRT", "America/Puerto_Rico"},
    {"PST", "America/Los_Angeles"},
    {"SST", "Pacific/Guadalcanal"},
    {"VST", "Asia/Ho_Chi_Minh"},
};

static int oom(struct chv_error *err) {
  return chv_error_set(err, CHV_ENOMEM, "out of memory");
}

void or_tz_close(struct or_tz *z) {
  if (z == NULL) return;
  chv_free(z->name);
  chv_free(z->trans);
  chv_free(z->offs);
  chv_free(z);
}

bool or_tz_is_utc(const struct or_tz *z) { return z->utc; }

int64_t or_tz_base(const struct or_tz *z) { return z->base; }

const char *or_tz_name(const struct or_tz *z) { return z->name; }

/* ---- POSIX TZ rules ---------------------------------------------------- */

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

static bool p_num(const char **p, int lo, int hi, int *out) {
  const char *s = *p;
  if (!is_digit(*s)) return false;
  long v = 0;
  while (is_digit(*s)) {
    v = v * 10 + (*s++ - '0');
    if (v > hi) return false;
  }
  if (v < lo) return false;
  *out = (int)v;
  *p = s;
  return true;
}

/* A zone abbreviation: three or more letters, or <...>. */
static bool p_name(const char **p) {
  const char *s = *p;
  if (*s == '<') {
    s++;
    while (*s && *s != '>') s++;
    if (*s != '>') return false;
    *p = s + 1;
    return true;
  }
  int k = 0;
  while ((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z')) s++, k++;
  if (k < 3) return false;
  *p = s;
  return true;
}

/* [+-]hh[:mm[:ss]], hours up to max_h; seconds into *out. */
static bool p_time(const char **p, int max_h, int32_t *out) {
  const char *s = *p;
  int sign = 1, h, m = 0, sec = 0;
  if (*s == '+' || *s == '-') sign = *s++ == '-' ? -1 : 1;
  if (!p_num(&s, 0, max_h, &h)) return false;
  if (*s == ':') {
    s++;
    if (!p_num(&s, 0, 59, &m)) return false;
    if (*s == ':') {
      s++;
      if (!p_num(&s, 0, 59, &sec)) return false;
    }
  }
  *out = sign * (h * 3600 + m * 60 + sec);
  *p = s;
  return true;
}

static bool p_date(const char **p, struct tz_date *d) {
  const char *s = *p;
  if (*s == 'J') {
    s++;
    d->form = 'J';
    if (!p_num(&s, 1, 365, &d->a)) return false;
  } else if (*s == 'M') {
    s++;
    d->form = 'M';
    if (!p_num(&s, 1, 12, &d->a) || *s++ != '.' || !p_num(&s, 1, 5, &d->b) ||
        *s++ != '.' || !p_num(&s, 0, 6, &d->c))
      return false;
  } else {
    d->form = 'n';
    if (!p_num(&s, 0, 365, &d->a)) return false;
  }
  d->secs = 2 * 3600;
  if (*s == '/') {
    s++;
    if (!p_time(&s, 167, &d->secs)) return false;
  }
  *p = s;
  return true;
}

/* Parse a footer rule into z; false when it is not one this code knows. */
static bool parse_rule(struct or_tz *z, const char *s) {
  int32_t o;
  if (!p_name(&s) || !p_time(&s, 24, &o)) return false;
  z->std_off = -o; /* POSIX offsets count west of UTC */
  z->has_rule = true;
  if (*s == '\0') return true;
  if (!p_name(&s)) return false;
  z->dst_off = z->std_off + 3600;
  if (*s && *s != ',') {
    if (!p_time(&s, 24, &o)) return false;
    z->dst_off = -o;
  }
  if (*s++ != ',' || !p_date(&s, &z->start) || *s++ != ',' ||
      !p_date(&s, &z->end) || *s != '\0')
    return false;
  z->has_dst = true;
  return true;
}

static bool leap(int64_t y) {
  return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

/* Days since the epoch of a rule's date in year y. */
static int64_t rule_day(const struct tz_date *d, int y) {
  int64_t jan1 = chv_date_from_ymd(y, 1, 1);
  switch (d->form) {
  case 'J':
    return jan1 + d->a - 1 + (leap(y) && d->a >= 60 ? 1 : 0);
  case 'n':
    return jan1 + d->a;
  default: {
    int64_t first = chv_date_from_ymd(y, d->a, 1);
    /* 1970-01-01 was a Thursday (4). */
    int64_t wd = ((first + 4) % 7 + 7) % 7;
    int64_t day = first + ((d->c - wd) % 7 + 7) % 7 + (int64_t)(d->b - 1) * 7;
    static const int dim[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    int days = dim[d->a - 1] + (d->a == 2 && leap(y) ? 1 : 0);
    while (day >= first + days) day -= 7; /* week 5: the last one */
    return day;
  }
  }
}

static int32_t rule_offset(const struct or_tz *z, int64_t t) {
  if (!z->has_dst) return z->std_off;
  int64_t local = t + z->std_off;
  int64_t days = local / 86400 - (local % 86400 < 0 ? 1 : 0);
  if (days < INT32_MIN || days > INT32_MAX) return z->std_off;
  int y, m, d;
  chv_date_to_ymd((int32_t)days, &y, &m, &d);
  int64_t s = rule_day(&z->start, y) * 86400 + z->start.secs - z->std_off;
  int64_t e = rule_day(&z->end, y) * 86400 + z->end.secs - z->dst_off;
  bool dst = s < e ? (t >= s && t < e) : !(t >= e && t < s);
  return dst ? z->dst_off : z->std_off;
}

/* ---- TZif files -------------------------------------------------------- */

static uint32_t be32(const uint8_t *p) {
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 |
         p[3];
}

static int64_t be64(const uint8_t *p) {
  return (int64_t)((uint64_t)be32(p) << 32 | be32(p + 4));
}

/* Parse a TZif file into z. */
static int parse_tzif(struct or_tz *z, const uint8_t *p, size_t n,
                      const char *file, struct chv_error *err) {
  size_t at = 0;
  int width = 4;
  for (int pass = 0; pass < 2; pass++) {
    if (n - at < 44 || memcmp(p + at, "TZif", 4) != 0) goto bad;
    uint8_t version = p[at + 4];
    uint32_t isut = be32(p + at + 20), isstd = be32(p + at + 24),
             leapc = be32(p + at + 28), timec = be32(p + at + 32),
             typec = be32(p + at + 36), charc = be32(p + at + 40);
    at += 44;
    uint64_t len = (uint64_t)timec * (uint64_t)(width + 1) +
                   (uint64_t)typec * 6 + charc +
                   (uint64_t)leapc * (uint64_t)(width + 4) + isstd + isut;
    if (len > n - at) goto bad;
    if (pass == 0 && version >= '2') {
      at += (size_t)len; /* skip the 32-bit data: the 64-bit follows */
      width = 8;
      continue;
    }
    if (typec == 0 || typec > 256) goto bad;
    const uint8_t *tt = p + at, *idx = tt + (size_t)timec * (size_t)width;
    const uint8_t *types = idx + timec;
    z->trans = chv_malloc(sizeof *z->trans * (timec ? timec : 1));
    z->offs = chv_malloc(sizeof *z->offs * (timec ? timec : 1));
    if (z->trans == NULL || z->offs == NULL) return oom(err);
    for (uint32_t i = 0; i < timec; i++) {
      int64_t t = width == 8 ? be64(tt + (size_t)i * 8)
                             : (int64_t)(int32_t)be32(tt + (size_t)i * 4);
      if (idx[i] >= typec || (i > 0 && t <= z->trans[i - 1])) goto bad;
      z->trans[i] = t;
      z->offs[i] = (int32_t)be32(types + (size_t)idx[i] * 6);
    }
    z->n = timec;
    z->first = (int32_t)be32(types);
    at += (size_t)len;
    if (width == 8 && at < n && p[at] == '\n') {
      /* The footer: a POSIX TZ string for the times after the last
      ** transition (empty: the last offset goes on). */
      const char *s = (const char *)p + at + 1;
      const uint8_t *nl = memchr(s, '\n', n - at - 1);
      if (nl && (const char *)nl > s) {
        char rule[128];
        size_t k = (size_t)((const char *)nl - s);
        if (k < sizeof rule) {
          memcpy(rule, s, k);
          rule[k] = '\0';
          struct or_tz tmp = *z;
          if (parse_rule(&tmp, rule)) *z = tmp;
        }
      }
    }
    return CHV_OK;
  }
bad:
  return chv_error_set(err, CHV_ENOTSUP,
                       "time zone file %s is not a TZif file this reader "
                       "understands",
                       file);
}

/* ---- opening ----------------------------------------------------------- */

/* A Java custom ID: GMT[+-]h[h][[:]mm]. */
static bool custom_id(const char *s, int32_t *off) {
  if (strncmp(s, "GMT", 3) != 0 || (s[3] != '+' && s[3] != '-')) return false;
  int sign = s[3] == '-' ? -1 : 1;
  const char *p = s + 4;
  int h = 0, m = 0, nd = 0;
  while (is_digit(*p) && nd < 2) h = h * 10 + (*p++ - '0'), nd++;
  if (nd == 0) return false;
  if (*p == ':') {
    p++;
    if (!is_digit(p[0]) || !is_digit(p[1])) return false;
    m = (p[0] - '0') * 10 + (p[1] - '0');
    p += 2;
  } else if (is_digit(p[0]) && is_digit(p[1]) && nd == 2) {
    m = (p[0] - '0') * 10 + (p[1] - '0');
    p += 2;
  }
  if (*p != '\0' || h > 23 || m > 59) return false;
  *off = sign * (h * 3600 + m * 60);
  return true;
}

/* A plain relative path of name characters, no "." or ".." component. */
static bool safe_name(const char *s) {
  size_t n = strlen(s);
  if (n == 0 || n > 200 || s[0] == '/') return false;
  const char *c = s;
  while (*c) {
    const char *e = strchr(c, '/');
    size_t k = e ? (size_t)(e - c) : strlen(c);
    if (k == 0 || (k == 1 && c[0] == '.') ||
        (k == 2 && c[0] == '.' && c[1] == '.'))
      return false;
    for (size_t i = 0; i < k; i++) {
      char ch = c[i];
      if (!((ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') ||
            is_digit(ch) || ch == '_' || ch == '-' || ch == '+' || ch == '.'))
        return false;
    }
    c = e ? e + 1 : c + k;
  }
  return true;
}

static int load_file(struct or_tz *z, const char *name, struct chv_error *err) {
  const char *dir = getenv("TZDIR");
  if (dir == NULL || *dir == '\0') dir = "/usr/share/zoneinfo";
  char path[512];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "rb");
  if (f == NULL)
    return chv_error_set(err, CHV_ENOTSUP,
                         "time zone '%s' is not in the time zone database "
                         "(%s: %s)",
                         name, path, strerror(errno));
  uint8_t *buf = chv_malloc(TZ_MAX_FILE);
  if (buf == NULL) {
    fclose(f);
    return oom(err);
  }
  size_t got = fread(buf, 1, TZ_MAX_FILE, f);
  fclose(f);
  int rc = parse_tzif(z, buf, got, path, err);
  chv_free(buf);
  return rc;
}

int32_t or_tz_offset(struct or_tz *z, int64_t t) {
  if (t >= z->lo && t < z->hi) return z->off;
  if (z->n == 0) {
    if (z->has_rule) return rule_offset(z, t);
    return z->first;
  }
  if (t < z->trans[0]) {
    z->lo = INT64_MIN;
    z->hi = z->trans[0];
    z->off = z->first;
    return z->off;
  }
  uint32_t lo = 0, hi = z->n; /* the last transition <= t */
  while (hi - lo > 1) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (z->trans[mid] <= t)
      lo = mid;
    else
      hi = mid;
  }
  if (lo == z->n - 1 && z->has_rule) return rule_offset(z, t);
  z->lo = z->trans[lo];
  z->hi = lo + 1 < z->n ? z->trans[lo + 1] : INT64_MAX;
  z->off = z->offs[lo];
  return z->off;
}

int or_tz_open(const char *name, struct or_tz **out, struct chv_error *err) {
  struct or_tz *z = chv_calloc(1, sizeof *z);
  if (z == NULL) return oom(err);
  z->name = chv_strdup(name);
  if (z->name == NULL) {
    chv_free(z);
    return oom(err);
  }
  int32_t off;
  int rc = CHV_OK;
  if (custom_id(name, &off)) {
    z->first = off;
  } else {
    const char *file = name;
    for (size_t i = 0; i < CHV_ARRAY_SIZE(short_ids); i++)
      if (!strcmp(name, short_ids[i].id)) file = short_ids[i].zone;
    if (!safe_name(file))
      rc = chv_error_set(err, CHV_ENOTSUP,
                         "time zone '%s' is not a time zone name", name);
    else
      rc = load_file(z, file, err);
  }
  if (rc != CHV_OK) {
    or_tz_close(z);
    return rc;
  }
  z->lo = 1;
  z->hi = 0; /* nothing cached */
  bool zero = z->first == 0 && (!z->has_rule || (z->std_off == 0 && !z->has_dst));
  for (uint32_t i = 0; i < z->n && zero; i++) zero = z->offs[i] == 0;
  z->utc = zero;
  /* 2015-01-01 00:00:00 local: the instant whose local time it is (for a
  ** time in a gap, the offset before it, as Java's lenient parsing). */
  int64_t t = TZ_BASE_LOCAL - or_tz_offset(z, TZ_BASE_LOCAL);
  z->base = TZ_BASE_LOCAL - or_tz_offset(z, t);
  *out = z;
  return CHV_OK;
}
