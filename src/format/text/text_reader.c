/*
** The TEXTFILE reader: lines from a (possibly compressed) file, fields split
** on the separators of text.h, values parsed straight into the vectors of a
** batch.
**
** Lines.  The read buffer (1 MiB, doubled for longer lines) holds decoded
** bytes [pos, len); the next line delimiter is found with memchr.  With the
** default '\n' delimiter a '\r' also ends a line ("\r\n" is one end), as in
** Hadoop's LineReader; the position of the next '\r' is cached (cr_next) so
** that files without one are scanned once.  A byte range [start, end) reads,
** as Hadoop's LineRecordReader does, every line that starts at an offset in
** (start, end], plus the first line when start is 0: a split not starting
** at 0 skips the line it starts in, and the line running over `end` is
** finished.  Compressed files cannot be split: a range starting at 0 reads
** the whole file and any other range reads nothing.
**
** Values.  parse_value() appends exactly one entry (value or NULL) to a
** vector, recursing into ARRAY, MAP and STRUCT with the next separator
** level.  Escapes (escape.delim) protect separators while splitting and are
** removed from STRING, VARCHAR and CHAR values only, as in Hive's LazyString;
** other types see the raw bytes.
**
** INTERFACE: chv_text_reader_open(), chv_text_reader_schema(),
** chv_text_reader_next(), chv_text_reader_stats(), chv_text_reader_close()
** (text.h).
*/
#include "format/text/text_int.h"

#include <math.h>
#include <stdlib.h>

#define MAX_LINE_BYTES ((size_t)1 << 30)

struct chv_text_reader {
  const struct chv_fs *fs;
  struct chv_file *file;
  char *path;                   /* owned copy, for messages */
  const struct chv_type *schema;   /* borrowed: the file's columns */
  struct chv_type *out_schema;     /* owned: projected columns */
  struct chv_text_options o;
  int *target;                  /* file column -> output column or -1 */
  int last_needed;              /* highest file column to look at, or -1 */
  int nfile;                    /* columns in the file schema */
  bool crlf;                    /* '\r' ends lines too (default delimiter) */
  /* source */
  chv_decomp_reader *dr;        /* NULL for an uncompressed file */
  int64_t file_off;             /* next offset to read from the file */
  /* buffer */
  uint8_t *buf;
  size_t cap, pos, len;
  size_t scan;                  /* no delimiter in [pos, scan) */
  size_t cr_next;               /* first '\r' in [pos, len), or len */
  int64_t buf_off;              /* stream offset of buf[0] */
  bool eof;
  /* range */
  bool ranged;
  int64_t range_end;
  bool skip_first;
  bool done;
  int64_t line_no;              /* lines read in this range */
  int cur_col;                  /* file column being parsed */
  struct chv_text_stats st;
};

/* ---- opening ------------------------------------------------------------ */

static int file_read(void *ctx, void *buf, size_t n, size_t *got,
                     struct chv_error *err) {
  struct chv_text_reader *r = ctx;
  CHV_RETURN_IF_ERR(r->fs->pread(r->file, buf, n, r->file_off, got, err));
  r->file_off += (int64_t)*got;
  r->st.bytes_read += (int64_t)*got;
  return CHV_OK;
}

int chv_text_reader_open(const struct chv_fs *fs, const char *path,
                         const struct chv_type *schema,
                         const struct chv_text_options *opts,
                         chv_text_reader **out, struct chv_error *err) {
  if (schema == NULL || schema->id != CHV_TYPE_STRUCT)
    return chv_error_set(err, CHV_EINVAL,
                         "%s: the schema of a text file must be a struct",
                         path);
  int rc;
  chv_text_reader *r = chv_calloc(1, sizeof *r);
  if (r == NULL) return chv_error_set(err, CHV_ENOMEM, "out of memory");
  r->fs = fs;
  r->schema = schema;
  r->nfile = schema->nchildren;
  if (opts)
    r->o = *opts;
  else
    chv_text_options_init(&r->o);
  r->o.columns = NULL;
  r->path = chv_strdup(path);
  r->target = chv_malloc(sizeof(int) * (size_t)(r->nfile + 1));
  if (r->path == NULL || r->target == NULL) goto out_nomem;
  for (int i = 0; i < r->nfile; i++) r->target[i] = -1;
  r->cur_col = -1;
  r->st.first_malformed_column = -1;

  if ((rc = chv_text_check_depth(schema, &r->o, path, err)) != CHV_OK)
    goto out_close;

  /* Projection and the output schema. */
  int nproj = opts && opts->columns ? opts->ncolumns : r->nfile;
  if ((rc = chv_type_new(CHV_TYPE_STRUCT, &r->out_schema)) != CHV_OK) {
    rc = chv_error_set(err, rc, "out of memory");
    goto out_close;
  }
  r->last_needed = -1;
  for (int k = 0; k < nproj; k++) {
    int c = opts && opts->columns ? opts->columns[k] : k;
    if (c < 0 || c >= r->nfile || r->target[c] >= 0) {
      rc = chv_error_set(err, CHV_EINVAL,
                         "%s: projected column %d is out of range or repeated",
                         path, c);
      goto out_close;
    }
    r->target[c] = k;
    r->last_needed = CHV_MAX(r->last_needed, c);
    struct chv_type *t;
    if ((rc = chv_type_clone(schema->children[c], &t)) != CHV_OK ||
        (rc = chv_type_struct_add(r->out_schema, schema->names[c], t)) !=
            CHV_OK) {
      rc = chv_error_set(err, rc, "%s: cannot build the projected schema",
                         path);
      goto out_close;
    }
  }

  if ((rc = fs->open(fs, path, &r->file, err)) != CHV_OK) goto out_close;
  enum chv_codec codec =
      r->o.codec_from_path ? chv_codec_from_path(path) : r->o.codec;
  r->crlf = r->o.line_delim == '\n';
  r->range_end = INT64_MAX;
  if (codec != CHV_CODEC_NONE) {
    if (r->o.range_start > 0) r->done = true;
    rc = chv_decomp_reader_open(codec, r->o.max_decompressed, file_read, r,
                                &r->dr, err);
    if (rc != CHV_OK) goto out_close;
  } else {
    r->file_off = r->o.range_start > 0 ? r->o.range_start : 0;
    r->buf_off = r->file_off;
    r->skip_first = r->o.range_start > 0;
    if (r->o.range_length >= 0) {
      r->ranged = true;
      r->range_end = r->o.range_start + r->o.range_length;
    }
  }
  r->cap = r->o.buffer_size >= 64 ? r->o.buffer_size : 64;
  r->buf = chv_malloc(r->cap);
  if (r->buf == NULL) goto out_nomem;
  *out = r;
  return CHV_OK;
out_nomem:
  rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
out_close:
  chv_text_reader_close(r);
  return rc;
}

const struct chv_type *chv_text_reader_schema(const chv_text_reader *r) {
  return r->out_schema;
}

void chv_text_reader_stats(const chv_text_reader *r,
                           struct chv_text_stats *out) {
  *out = r->st;
  if (r->dr) out->bytes_read = chv_decomp_reader_total_in(r->dr);
}

void chv_text_reader_close(chv_text_reader *r) {
  if (r == NULL) return;
  chv_decomp_reader_close(r->dr);
  chv_file_close(r->file);
  chv_type_free(r->out_schema);
  chv_free(r->target);
  chv_free(r->buf);
  chv_free(r->path);
  chv_free(r);
}

/* ---- lines -------------------------------------------------------------- */

static int fill(chv_text_reader *r, struct chv_error *err) {
  if (r->pos > 0) {
    size_t shift = r->pos;
    memmove(r->buf, r->buf + shift, r->len - shift);
    r->len -= shift;
    r->scan -= shift;
    r->cr_next -= shift;
    r->buf_off += (int64_t)shift;
    r->pos = 0;
  }
  if (r->len == r->cap) {
    if (r->cap >= MAX_LINE_BYTES)
      return chv_error_set(err, CHV_ENOTSUP,
                           "%s line %lld: longer than 1 GiB", r->path,
                           (long long)r->line_no + 1);
    uint8_t *p = chv_realloc(r->buf, r->cap * 2);
    if (p == NULL) return chv_error_set(err, CHV_ENOMEM, "out of memory");
    r->buf = p;
    r->cap *= 2;
  }
  size_t got = 0, old = r->len;
  int rc;
  if (r->dr)
    rc = chv_decomp_reader_read(r->dr, r->buf + r->len, r->cap - r->len, &got,
                                err);
  else
    rc = file_read(r, r->buf + r->len, r->cap - r->len, &got, err);
  if (rc != CHV_OK) {
    chv_error_wrap(err, "%s after line %lld", r->path, (long long)r->line_no);
    return rc;
  }
  if (got == 0) r->eof = true;
  r->len += got;
  r->st.bytes_decoded += (int64_t)got;
  if (r->crlf && r->cr_next == old) {
    uint8_t *c = memchr(r->buf + old, '\r', r->len - old);
    r->cr_next = c ? (size_t)(c - r->buf) : r->len;
  }
  return CHV_OK;
}

/* The next line into [*lp, *lp + *ln); *start = its stream offset.  *have is
** false at the end of the input. */
static int next_line(chv_text_reader *r, const uint8_t **lp, size_t *ln,
                     int64_t *start, bool *have, struct chv_error *err) {
  for (;;) {
    uint8_t *b = r->buf;
    bool cr = r->crlf && r->cr_next < r->len;
    size_t lim = cr ? r->cr_next : r->len;
    uint8_t *q = memchr(b + r->scan, r->o.line_delim, lim - r->scan);
    size_t end, next;
    if (q) {
      end = (size_t)(q - b);
      next = end + 1;
    } else if (cr && (r->cr_next + 1 < r->len || r->eof)) {
      end = r->cr_next;
      next = end + 1;
      if (next < r->len && b[next] == '\n') next++;
    } else if (r->eof) {
      if (r->pos == r->len) {
        *have = false;
        return CHV_OK;
      }
      end = next = r->len;
    } else {
      r->scan = lim;
      CHV_RETURN_IF_ERR(fill(r, err));
      continue;
    }
    *lp = b + r->pos;
    *ln = end - r->pos;
    *start = r->buf_off + (int64_t)r->pos;
    *have = true;
    r->pos = r->scan = next;
    if (r->crlf && r->cr_next < next) {
      uint8_t *c = memchr(b + next, '\r', r->len - next);
      r->cr_next = c ? (size_t)(c - b) : r->len;
    }
    return CHV_OK;
  }
}

/* ---- values ------------------------------------------------------------- */

static inline const uint8_t *find_sep(const chv_text_reader *r,
                                      const uint8_t *p, const uint8_t *e,
                                      uint8_t sep) {
  if (!r->o.escaped) {
    const uint8_t *q = memchr(p, sep, (size_t)(e - p));
    return q ? q : e;
  }
  uint8_t esc = r->o.escape_char;
  while (p < e) {
    if (*p == esc) {
      p += 2;
      continue;
    }
    if (*p == sep) return p;
    p++;
  }
  return e;
}

static inline int ensure_row(struct chv_vector *v, struct chv_error *err) {
  if (CHV_LIKELY(v->length < v->capacity)) return CHV_OK;
  return chv_vector_reserve(v, v->length + 1, err);
}

/* A field that did not parse: NULL, counted unless it was empty. */
static int malformed(chv_text_reader *r, struct chv_vector *v, size_t n,
                     struct chv_error *err) {
  if (n > 0) {
    if (r->st.malformed++ == 0) {
      r->st.first_malformed_line = r->line_no;
      r->st.first_malformed_column = r->cur_col;
    }
  }
  return chv_vector_append_null(v, err);
}

/* Hive's LazyLong/LazyInteger parse: optional sign, digits, and an optional
** fraction of digits that is dropped ("1.9" is 1); out of range fails. */
static inline bool parse_long(const uint8_t *s, size_t n, int64_t lo,
                              int64_t hi, int64_t *out) {
  if (n == 0) return false;
  size_t i = 0;
  bool neg = false;
  if (s[0] == '-' || s[0] == '+') {
    neg = s[0] == '-';
    if (n == 1) return false;
    i = 1;
  }
  uint64_t lim = neg ? (uint64_t)(-(lo + 1)) + 1 : (uint64_t)hi;
  uint64_t acc = 0;
  for (; i < n; i++) {
    unsigned d = (unsigned)s[i] - '0';
    if (d > 9) {
      if (s[i] != '.') return false;
      for (i++; i < n; i++)
        if ((unsigned)s[i] - '0' > 9) return false;
      break;
    }
    if (acc > (lim - d) / 10) return false;
    acc = acc * 10 + d;
  }
  *out = neg ? (acc ? -(int64_t)(acc - 1) - 1 : 0) : (int64_t)acc;
  return true;
}

/* Exact powers of ten: every 10^k for k <= 22 is a double. */
static const double pow10_exact[] = {
    1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/* Clinger's fast path: [-]digits[.digits] with a mantissa that is exact in
** the target type and a power of ten that is exact too, so one correctly
** rounded multiplication or division gives strtod's result.  False: use
** strtod. */
static bool fast_real(const uint8_t *s, size_t n, bool single, double *out) {
  size_t i = 0;
  bool neg = false;
  if (s[0] == '-' || s[0] == '+') neg = s[i++] == '-';
  uint64_t m = 0;
  int digits = 0, frac = 0;
  bool point = false, any = false;
  for (; i < n; i++) {
    unsigned d = (unsigned)s[i] - '0';
    if (d <= 9) {
      any = true;
      if (m == 0 && d == 0) {
        if (point) frac++;
        continue;
      }
      if (++digits > 19) return false;
      m = m * 10 + d;
      if (point) frac++;
    } else if (s[i] == '.' && !point) {
      point = true;
    } else {
      return false; /* exponents, suffixes, hex: the slow path */
    }
  }
  if (!any) return false;
  if (single) {
    if (m > (1u << 24) || frac > 10) return false;
    float f = (float)m;
    if (frac) f /= (float)pow10_exact[frac];
    *out = neg ? -f : f;
    return true;
  }
  if (frac > 22 || m > (1ull << 53)) return false;
  double d = (double)m;
  if (frac) d /= pow10_exact[frac];
  *out = neg ? -d : d;
  return true;
}

/* Java's Double.parseDouble/Float.parseFloat, as far as text data needs:
** surrounding white space, "NaN", "[+-]Infinity", decimal and hex forms,
** an 'f'/'d' suffix.  C's "inf"/"nan" spellings are not numbers in Java. */
static bool parse_real(const uint8_t *s, size_t n, bool single, double *out) {
  while (n > 0 && *s <= ' ') s++, n--;
  while (n > 0 && s[n - 1] <= ' ') n--;
  if (n == 0 || n > 400) return false;
  char tmp[401];
  memcpy(tmp, s, n);
  size_t k = 0;
  if (tmp[0] == '+' || tmp[0] == '-') k = 1;
  if (k < n && (tmp[k] == 'N' || tmp[k] == 'I')) {
    if (n - k == 3 && !memcmp(tmp + k, "NaN", 3)) {
      *out = NAN;
      return true;
    }
    if (n - k == 8 && !memcmp(tmp + k, "Infinity", 8)) {
      *out = tmp[0] == '-' ? -INFINITY : INFINITY;
      return true;
    }
    return false;
  }
  if (k < n && (tmp[k] == 'n' || tmp[k] == 'i')) return false;
  if (fast_real(s, n, single, out)) return true;
  char last = tmp[n - 1];
  if (n > 1 && (last == 'f' || last == 'F' || last == 'd' || last == 'D') &&
      !(n > 2 && tmp[k] == '0' && (tmp[k + 1] == 'x' || tmp[k + 1] == 'X')))
    n--;
  tmp[n] = '\0';
  char *end;
  if (single) {
    float f = strtof(tmp, &end);
    *out = f;
  } else {
    *out = strtod(tmp, &end);
  }
  return end == tmp + n;
}

/* UTF-8 characters: byte length of the first `chars` characters of s[0,n),
** and the count found (<= chars). */
static size_t utf8_prefix(const char *s, size_t n, int64_t chars,
                          int64_t *count) {
  size_t i = 0;
  int64_t c = 0;
  while (i < n && c < chars) {
    i++;
    while (i < n && ((uint8_t)s[i] & 0xC0) == 0x80) i++;
    c++;
  }
  *count = c;
  return i;
}

/* STRING, VARCHAR, CHAR: unescape, truncate to the declared length in
** characters, pad CHAR with spaces. */
static int put_string(chv_text_reader *r, struct chv_vector *v,
                      const uint8_t *s, size_t n, struct chv_error *err) {
  CHV_RETURN_IF_ERR(ensure_row(v, err));
  if (CHV_UNLIKELY((int64_t)n > v->bytes_cap - v->bytes_len))
    CHV_RETURN_IF_ERR(chv_vector_reserve_bytes(v, (int64_t)n, err));
  char *d = v->bytes + v->bytes_len;
  size_t m = n;
  if (r->o.escaped && n && memchr(s, r->o.escape_char, n)) {
    uint8_t esc = r->o.escape_char;
    m = 0;
    for (size_t i = 0; i < n; i++) {
      uint8_t c = s[i];
      if (c == esc && i + 1 < n) {
        /* LazyUtils.copyAndEscapeStringDataToText(): escape 'n' and
        ** escape 'r' are always newline and carriage return. */
        c = s[++i];
        if (c == 'n')
          c = '\n';
        else if (c == 'r')
          c = '\r';
      }
      d[m++] = (char)c;
    }
  } else if (n) {
    memcpy(d, s, n);
  }
  enum chv_type_id id = v->type->id;
  if (id != CHV_TYPE_STRING) {
    int64_t count;
    m = utf8_prefix(d, m, v->type->length, &count);
    if (id == CHV_TYPE_CHAR && count < v->type->length) {
      size_t pad = (size_t)(v->type->length - count);
      if ((int64_t)(m + pad) > v->bytes_cap - v->bytes_len) {
        CHV_RETURN_IF_ERR(chv_vector_reserve_bytes(v, (int64_t)(m + pad), err));
        d = v->bytes + v->bytes_len;
      }
      memset(d + m, ' ', pad);
      m += pad;
    }
  }
  v->bytes_len += (int64_t)m;
  v->offsets[v->length + 1] = (int32_t)v->bytes_len;
  v->length++;
  return CHV_OK;
}

static int put_binary(struct chv_vector *v, const uint8_t *s, size_t n,
                      struct chv_error *err) {
  CHV_RETURN_IF_ERR(ensure_row(v, err));
  size_t need = n + 3;
  if (CHV_UNLIKELY((int64_t)need > v->bytes_cap - v->bytes_len))
    CHV_RETURN_IF_ERR(chv_vector_reserve_bytes(v, (int64_t)need, err));
  uint8_t *d = (uint8_t *)v->bytes + v->bytes_len;
  size_t m;
  /* LazyBinary: decode what looks like base64; keep the raw bytes when that
  ** gives nothing. */
  m = chv_base64_is_text(s, n) ? chv_base64_decode(s, n, d) : 0;
  if (m == 0) {
    memcpy(d, s, n);
    m = n;
  }
  v->bytes_len += (int64_t)m;
  v->offsets[v->length + 1] = (int32_t)v->bytes_len;
  v->length++;
  return CHV_OK;
}

/* The common decimal form [-]digits[.digits] with at most `scale` fraction
** digits and at most 18 digits in all, as chv_decimal_parse() reads it.
** Returns 1 parsed, 0 out of range (NULL), -1 not this form (use the general
** parser). */
static int fast_decimal(const uint8_t *s, size_t n, int precision, int scale,
                        chv_i128 *out) {
  size_t i = 0;
  bool neg = false;
  if (n > 0 && (s[0] == '-' || s[0] == '+')) neg = s[i++] == '-';
  uint64_t m = 0;
  int digits = 0, frac = 0;
  bool point = false, any = false;
  for (; i < n; i++) {
    unsigned d = (unsigned)s[i] - '0';
    if (d <= 9) {
      any = true;
      if (point && ++frac > scale) return -1;
      if (m == 0 && d == 0) continue;
      if (++digits > 18) return -1;
      m = m * 10 + d;
    } else if (s[i] == '.' && !point) {
      point = true;
    } else {
      return -1;
    }
  }
  if (!any) return -1;
  chv_i128 v = m;
  for (int k = frac; k < scale; k++) v *= 10;
  chv_i128 lim = 1;
  for (int k = 0; k < precision; k++) lim *= 10;
  if (v >= lim) return 0;
  *out = neg ? -v : v;
  return 1;
}

static inline int dig2(const uint8_t *p) {
  unsigned a = (unsigned)p[0] - '0', b = (unsigned)p[1] - '0';
  return a <= 9 && b <= 9 ? (int)(a * 10 + b) : -1;
}

/* "YYYY-MM-DD" exactly, validated; false: use the general parser. */
static bool fast_ymd(const uint8_t *s, int32_t *days) {
  static const int dim[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  int y1 = dig2(s), y2 = dig2(s + 2), m = dig2(s + 5), d = dig2(s + 8);
  if (y1 < 0 || y2 < 0 || m < 1 || m > 12 || d < 1 || s[4] != '-' ||
      s[7] != '-')
    return false;
  int y = y1 * 100 + y2;
  if (y == 0) return false;
  bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  if (d > dim[m - 1] + (m == 2 && leap)) return false;
  *days = chv_date_from_ymd(y, m, d);
  return true;
}

/* "YYYY-MM-DD HH:MM:SS[.f{1,9}]" exactly; false: the general parser. */
static bool fast_timestamp(const uint8_t *s, size_t n,
                           struct chv_timestamp *ts) {
  int32_t days;
  if (n < 19 || s[10] != ' ' || s[13] != ':' || s[16] != ':' ||
      !fast_ymd(s, &days))
    return false;
  int h = dig2(s + 11), mi = dig2(s + 14), se = dig2(s + 17);
  if (h < 0 || h > 23 || mi < 0 || mi > 59 || se < 0 || se > 59) return false;
  int32_t ns = 0;
  if (n > 19) {
    if (s[19] != '.' || n == 20 || n > 29) return false;
    int k = 0;
    for (size_t i = 20; i < n; i++, k++) {
      unsigned d = (unsigned)s[i] - '0';
      if (d > 9) return false;
      ns = ns * 10 + (int32_t)d;
    }
    for (; k < 9; k++) ns *= 10;
  }
  ts->seconds = (int64_t)days * 86400 + h * 3600 + mi * 60 + se;
  ts->nanos = ns;
  ts->pad_ = 0;
  return true;
}

static int parse_value(chv_text_reader *r, struct chv_vector *v, int level,
                       const uint8_t *s, size_t n, struct chv_error *err);

#define MAP_DEDUP_MAX 1024 /* entries checked for duplicate keys */

/* Is key i equal to one of keys [from, i)?  Values compare bitwise, as the
** Writable keys of Hive's LazyMap compare for these types. */
static bool key_seen(const struct chv_vector *k, int64_t from, int64_t i) {
  enum chv_type_id id = k->type->id;
  size_t w = chv_type_fixed_width(id);
  for (int64_t j = from; j < i; j++) {
    if (id == CHV_TYPE_BOOLEAN) {
      if (chv_bit_get(k->data, j) == chv_bit_get(k->data, i)) return true;
    } else if (w) {
      if (!memcmp((const char *)k->data + (size_t)j * w,
                  (const char *)k->data + (size_t)i * w, w))
        return true;
    } else if (chv_type_is_string_like(id)) {
      int32_t lj = k->offsets[j + 1] - k->offsets[j];
      int32_t li = k->offsets[i + 1] - k->offsets[i];
      if (lj == li && !memcmp(k->bytes + k->offsets[j],
                              k->bytes + k->offsets[i], (size_t)li))
        return true;
    }
  }
  return false;
}

static int parse_map(chv_text_reader *r, struct chv_vector *v, int level,
                     const uint8_t *s, size_t n, struct chv_error *err) {
  struct chv_vector *keys = v->children[0], *vals = v->children[1];
  uint8_t esep = r->o.separators[level], ksep = r->o.separators[level + 1];
  const uint8_t *p = s, *e = s + n;
  const char *nf = r->o.null_format;
  size_t nfl = r->o.null_format_len;
  int64_t first = keys->length;
  while (n > 0) {
    const uint8_t *fe = find_sep(r, p, e, esep);
    const uint8_t *kv = find_sep(r, p, fe, ksep);
    size_t kl = (size_t)(kv - p);
    /* As Hive's LazyMap.getMap(): entries with a NULL key are dropped (Arrow
    ** map keys cannot be NULL either) and the first of duplicate keys wins. */
    if (!(kl == nfl && memcmp(p, nf, nfl) == 0)) {
      CHV_RETURN_IF_ERR(parse_value(r, keys, level + 2, p, kl, err));
      int64_t last = keys->length - 1;
      if (chv_vector_is_null(keys, last)) {
        keys->length--;
        chv_vector_set_valid(keys, keys->length);
      } else if (last - first <= MAP_DEDUP_MAX &&
                 key_seen(keys, first, last)) {
        keys->length--;
        if (keys->offsets) keys->bytes_len = keys->offsets[keys->length];
      } else if (kv == fe) {
        CHV_RETURN_IF_ERR(chv_vector_append_null(vals, err));
      } else {
        CHV_RETURN_IF_ERR(parse_value(r, vals, level + 2, kv + 1,
                                      (size_t)(fe - kv - 1), err));
      }
    }
    if (fe == e) break;
    p = fe + 1;
  }
  return chv_vector_append_nested(v, err);
}

static int parse_value(chv_text_reader *r, struct chv_vector *v, int level,
                       const uint8_t *s, size_t n, struct chv_error *err) {
  if (n == r->o.null_format_len && memcmp(s, r->o.null_format, n) == 0)
    return chv_vector_append_null(v, err);
  const struct chv_type *t = v->type;
  int64_t x;
  double f;
  switch (t->id) {
  case CHV_TYPE_BOOLEAN: {
    int b = -1;
    if (n == 4 && (s[0] | 0x20) == 't' && (s[1] | 0x20) == 'r' &&
        (s[2] | 0x20) == 'u' && (s[3] | 0x20) == 'e')
      b = 1;
    else if (n == 5 && (s[0] | 0x20) == 'f' && (s[1] | 0x20) == 'a' &&
             (s[2] | 0x20) == 'l' && (s[3] | 0x20) == 's' &&
             (s[4] | 0x20) == 'e')
      b = 0;
    if (b < 0) return malformed(r, v, n, err);
    CHV_RETURN_IF_ERR(ensure_row(v, err));
    chv_bit_set(v->data, v->length++, b);
    return CHV_OK;
  }
  case CHV_TYPE_TINYINT:
    if (!parse_long(s, n, INT8_MIN, INT8_MAX, &x))
      return malformed(r, v, n, err);
    CHV_RETURN_IF_ERR(ensure_row(v, err));
    ((int8_t *)v->data)[v->length++] = (int8_t)x;
    return CHV_OK;
  case CHV_TYPE_SMALLINT:
    if (!parse_long(s, n, INT16_MIN, INT16_MAX, &x))
      return malformed(r, v, n, err);
    CHV_RETURN_IF_ERR(ensure_row(v, err));
    ((int16_t *)v->data)[v->length++] = (int16_t)x;
    return CHV_OK;
  case CHV_TYPE_INT:
    if (!parse_long(s, n, INT32_MIN, INT32_MAX, &x))
      return malformed(r, v, n, err);
    CHV_RETURN_IF_ERR(ensure_row(v, err));
    ((int32_t *)v->data)[v->length++] = (int32_t)x;
    return CHV_OK;
  case CHV_TYPE_BIGINT:
    if (!parse_long(s, n, INT64_MIN, INT64_MAX, &x))
      return malformed(r, v, n, err);
    CHV_RETURN_IF_ERR(ensure_row(v, err));
    ((int64_t *)v->data)[v->length++] = x;
    return CHV_OK;
  case CHV_TYPE_FLOAT:
    if (!parse_real(s, n, true, &f)) return malformed(r, v, n, err);
    CHV_RETURN_IF_ERR(ensure_row(v, err));
    ((float *)v->data)[v->length++] = (float)f;
    return CHV_OK;
  case CHV_TYPE_DOUBLE:
    if (!parse_real(s, n, false, &f)) return malformed(r, v, n, err);
    CHV_RETURN_IF_ERR(ensure_row(v, err));
    ((double *)v->data)[v->length++] = f;
    return CHV_OK;
  case CHV_TYPE_DECIMAL: {
    chv_i128 d;
    int fr = fast_decimal(s, n, t->precision, t->scale, &d);
    if (fr == 0 ||
        (fr < 0 && chv_decimal_parse((const char *)s, n, t->precision,
                                     t->scale, &d) != CHV_OK))
      return malformed(r, v, n, err);
    CHV_RETURN_IF_ERR(ensure_row(v, err));
    ((chv_i128 *)v->data)[v->length++] = d;
    return CHV_OK;
  }
  case CHV_TYPE_DATE: {
    int32_t d;
    if (!(n == 10 && fast_ymd(s, &d)) &&
        chv_date_parse((const char *)s, n, &d) != CHV_OK)
      return malformed(r, v, n, err);
    CHV_RETURN_IF_ERR(ensure_row(v, err));
    ((int32_t *)v->data)[v->length++] = d;
    return CHV_OK;
  }
  case CHV_TYPE_TIMESTAMP: {
    struct chv_timestamp ts;
    if (!fast_timestamp(s, n, &ts) &&
        chv_timestamp_parse((const char *)s, n, &ts) != CHV_OK)
      return malformed(r, v, n, err);
    CHV_RETURN_IF_ERR(ensure_row(v, err));
    ((struct chv_timestamp *)v->data)[v->length++] = ts;
    return CHV_OK;
  }
  case CHV_TYPE_STRING:
  case CHV_TYPE_VARCHAR:
  case CHV_TYPE_CHAR:
    return put_string(r, v, s, n, err);
  case CHV_TYPE_BINARY:
    return put_binary(v, s, n, err);
  case CHV_TYPE_ARRAY: {
    struct chv_vector *child = v->children[0];
    uint8_t sep = r->o.separators[level];
    const uint8_t *p = s, *e = s + n;
    while (n > 0) {
      const uint8_t *fe = find_sep(r, p, e, sep);
      CHV_RETURN_IF_ERR(
          parse_value(r, child, level + 1, p, (size_t)(fe - p), err));
      if (fe == e) break;
      p = fe + 1;
    }
    return chv_vector_append_nested(v, err);
  }
  case CHV_TYPE_MAP:
    return parse_map(r, v, level, s, n, err);
  case CHV_TYPE_STRUCT: {
    uint8_t sep = r->o.separators[level];
    const uint8_t *p = s, *e = s + n;
    bool more = true;
    for (int i = 0; i < v->nchildren; i++) {
      if (!more) {
        CHV_RETURN_IF_ERR(chv_vector_append_null(v->children[i], err));
        continue;
      }
      const uint8_t *fe = find_sep(r, p, e, sep);
      CHV_RETURN_IF_ERR(parse_value(r, v->children[i], level + 1, p,
                                    (size_t)(fe - p), err));
      if (fe == e)
        more = false;
      else
        p = fe + 1;
    }
    CHV_RETURN_IF_ERR(ensure_row(v, err));
    return chv_vector_append_nested(v, err);
  }
  default:
    return chv_error_set(err, CHV_ENOTSUP, "%s: cannot read %s columns",
                         r->path, chv_type_id_name(t->id));
  }
}

static int parse_line(chv_text_reader *r, struct chv_batch *b,
                      const uint8_t *p, size_t n, struct chv_error *err) {
  const uint8_t *e = p + n;
  uint8_t sep = r->o.separators[0];
  int c = 0;
  for (; c <= r->last_needed; c++) {
    const uint8_t *fe;
    if (r->o.last_column_takes_rest && c == r->nfile - 1)
      fe = e;
    else
      fe = find_sep(r, p, e, sep);
    int t = r->target[c];
    if (t >= 0) {
      r->cur_col = c;
      CHV_RETURN_IF_ERR(parse_value(r, b->cols[t], 1, p, (size_t)(fe - p), err));
    }
    if (fe == e) {
      c++;
      break;
    }
    p = fe + 1;
  }
  for (; c <= r->last_needed; c++)
    if (r->target[c] >= 0)
      CHV_RETURN_IF_ERR(chv_vector_append_null(b->cols[r->target[c]], err));
  return CHV_OK;
}

int chv_text_reader_next(chv_text_reader *r, struct chv_batch *batch,
                         int64_t *nrows, struct chv_error *err) {
  if (batch->schema != r->out_schema &&
      (batch->ncols != r->out_schema->nchildren ||
       !chv_type_equal(batch->schema, r->out_schema)))
    return chv_error_set(err, CHV_EINVAL,
                         "%s: the batch's schema is not the reader's", r->path);
  chv_batch_reset(batch);
  int64_t cap = batch->ncols ? INT64_MAX : r->o.batch_rows;
  for (int i = 0; i < batch->ncols; i++)
    cap = CHV_MIN(cap, batch->cols[i]->capacity);
  if (cap <= 0) cap = r->o.batch_rows > 0 ? r->o.batch_rows : 1024;
  int64_t rows = 0;
  while (rows < cap && !r->done) {
    const uint8_t *lp;
    size_t ln;
    int64_t start;
    bool have;
    CHV_RETURN_IF_ERR(next_line(r, &lp, &ln, &start, &have, err));
    if (!have) {
      r->done = true;
      break;
    }
    if (r->skip_first) {
      r->skip_first = false;
      continue;
    }
    if (r->ranged && start > r->range_end) {
      r->done = true;
      break;
    }
    r->line_no++;
    int rc = parse_line(r, batch, lp, ln, err);
    if (rc != CHV_OK) {
      chv_error_wrap(err, "%s line %lld", r->path, (long long)r->line_no);
      return rc;
    }
    rows++;
  }
  batch->nrows = rows;
  r->st.rows += rows;
  *nrows = rows;
  return CHV_OK;
}
