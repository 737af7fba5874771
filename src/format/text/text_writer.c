/*
** The TEXTFILE writer: LazySimpleSerDe's serialize() over column batches.
**
** Values are written as Hive writes them: NULL as the null format; BOOLEAN
** "true"/"false"; integers in decimal; FLOAT and DOUBLE as Java's
** Float.toString/Double.toString print them ("1.0", "1.0E10", "NaN",
** "-Infinity"), with the shortest digits that read back to the same value;
** DECIMAL with its scale ("12.30"); DATE "YYYY-MM-DD"; TIMESTAMP
** "YYYY-MM-DD HH:MM:SS[.fffffffff]" with the fraction's significant digits;
** BINARY as base64; strings as their bytes.  With escape.delim set, a
** separator or the escape byte inside a string is preceded by the escape
** byte, and with serialization.escape.crlf '\r' and '\n' are written as
** escape 'r' / escape 'n' (Hive's LazyUtils.writeEscaped()).  Nested values
** use the separator levels of text.h.  Text is gathered in a 1 MiB buffer
** and, with opts->compress, passed through one gzip stream.
**
** INTERFACE: chv_text_writer_open(), chv_text_writer_write(),
** chv_text_writer_finish(), chv_text_writer_close(), chv_text_format_row()
** (text.h).
*/
#include "format/text/text_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define FLUSH_BYTES (1 << 20)

struct fmt {
  const struct chv_text_options *o;
  bool esc[256]; /* bytes that need the escape byte in front */
};

struct chv_text_writer {
  const struct chv_fs *fs;
  struct chv_file *file;
  char *path;
  const struct chv_type *schema; /* borrowed */
  struct chv_text_options o;
  struct fmt f;
  struct chv_buf text;           /* formatted rows not yet written */
  struct chv_buf zout;           /* compressed bytes not yet written */
  chv_comp *comp;                /* gzip stream, or NULL */
  struct chv_text_write_stats st;
  bool finished;
};

static void fmt_init(struct fmt *f, const struct chv_text_options *o) {
  memset(f, 0, sizeof *f);
  f->o = o;
  if (!o->escaped) return;
  for (int i = 0; i < chv_text_nlevels(o); i++)
    f->esc[o->separators[i]] = true;
  f->esc[o->escape_char] = true;
  if (o->escape_crlf) f->esc['\r'] = f->esc['\n'] = true;
}

/* ---- numbers ------------------------------------------------------------ */

static int put_i64(struct chv_buf *b, int64_t v) {
  char tmp[24];
  int i = 24;
  uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
  do {
    tmp[--i] = (char)('0' + u % 10);
    u /= 10;
  } while (u);
  if (v < 0) tmp[--i] = '-';
  return chv_buf_append(b, tmp + i, (size_t)(24 - i));
}

/* Java's Double.toString / Float.toString with the shortest round-tripping
** digits.  Returns the length written to buf (>= 48 bytes). */
static int java_real(double d, bool single, char *buf) {
  if (isnan(d)) return (int)(memcpy(buf, "NaN", 4), 3);
  if (isinf(d)) {
    const char *s = d < 0 ? "-Infinity" : "Infinity";
    size_t n = strlen(s);
    memcpy(buf, s, n + 1);
    return (int)n;
  }
  if (d == 0) {
    const char *s = signbit(d) ? "-0.0" : "0.0";
    size_t n = strlen(s);
    memcpy(buf, s, n + 1);
    return (int)n;
  }
  char e[48];
  for (int p = 1; p <= 17; p++) {
    snprintf(e, sizeof e, "%.*e", p - 1, d);
    if (single ? strtof(e, NULL) == (float)d : strtod(e, NULL) == d) break;
  }
  /* e is [-]D[.DDD]e[+-]XX */
  char digits[24];
  int nd = 0, x;
  const char *p = e;
  bool neg = *p == '-';
  if (neg) p++;
  for (; *p && *p != 'e'; p++)
    if (*p != '.') digits[nd++] = *p;
  x = atoi(p + 1);
  while (nd > 1 && digits[nd - 1] == '0') nd--;
  char *o = buf;
  if (neg) *o++ = '-';
  double a = fabs(d);
  if (a >= 1e-3 && a < 1e7) {
    if (x >= 0) {
      for (int i = 0; i <= x; i++) *o++ = i < nd ? digits[i] : '0';
      *o++ = '.';
      if (nd > x + 1)
        for (int i = x + 1; i < nd; i++) *o++ = digits[i];
      else
        *o++ = '0';
    } else {
      *o++ = '0';
      *o++ = '.';
      for (int i = 0; i < -x - 1; i++) *o++ = '0';
      for (int i = 0; i < nd; i++) *o++ = digits[i];
    }
    *o = '\0';
    return (int)(o - buf);
  }
  *o++ = digits[0];
  *o++ = '.';
  if (nd > 1)
    for (int i = 1; i < nd; i++) *o++ = digits[i];
  else
    *o++ = '0';
  return (int)(o - buf) + sprintf(o, "E%d", x);
}

/* ---- values ------------------------------------------------------------- */

static int put_escaped(const struct fmt *f, struct chv_buf *b, const char *s,
                       size_t n) {
  if (!f->o->escaped) return chv_buf_append(b, s, n);
  size_t start = 0;
  for (size_t i = 0; i < n; i++) {
    uint8_t c = (uint8_t)s[i];
    if (!f->esc[c]) continue;
    CHV_RETURN_IF_ERR(chv_buf_append(b, s + start, i - start));
    char pair[2] = {(char)f->o->escape_char, (char)c};
    if (f->o->escape_crlf && c == '\n') pair[1] = 'n';
    if (f->o->escape_crlf && c == '\r') pair[1] = 'r';
    CHV_RETURN_IF_ERR(chv_buf_append(b, pair, 2));
    start = i + 1;
  }
  return chv_buf_append(b, s + start, n - start);
}

static int put_value(const struct fmt *f, const struct chv_vector *v,
                     int64_t row, int level, struct chv_buf *b) {
  const struct chv_text_options *o = f->o;
  if (chv_vector_is_null(v, row))
    return chv_buf_append(b, o->null_format, o->null_format_len);
  char tmp[64];
  int n;
  const struct chv_type *t = v->type;
  if (level + 1 >= CHV_TEXT_MAX_LEVELS && !chv_type_is_primitive(t->id))
    return CHV_ENOTSUP;
  switch (t->id) {
  case CHV_TYPE_BOOLEAN:
    return chv_bit_get(v->data, row) ? chv_buf_append(b, "true", 4)
                                     : chv_buf_append(b, "false", 5);
  case CHV_TYPE_TINYINT:
    return put_i64(b, ((const int8_t *)v->data)[row]);
  case CHV_TYPE_SMALLINT:
    return put_i64(b, ((const int16_t *)v->data)[row]);
  case CHV_TYPE_INT:
    return put_i64(b, ((const int32_t *)v->data)[row]);
  case CHV_TYPE_BIGINT:
    return put_i64(b, ((const int64_t *)v->data)[row]);
  case CHV_TYPE_FLOAT:
    n = java_real(((const float *)v->data)[row], true, tmp);
    return chv_buf_append(b, tmp, (size_t)n);
  case CHV_TYPE_DOUBLE:
    n = java_real(((const double *)v->data)[row], false, tmp);
    return chv_buf_append(b, tmp, (size_t)n);
  case CHV_TYPE_DECIMAL:
    n = chv_decimal_format(((const chv_i128 *)v->data)[row], t->scale, tmp);
    return chv_buf_append(b, tmp, (size_t)n);
  case CHV_TYPE_DATE:
    n = chv_date_format(((const int32_t *)v->data)[row], tmp);
    return chv_buf_append(b, tmp, (size_t)n);
  case CHV_TYPE_TIMESTAMP:
    n = chv_timestamp_format(((const struct chv_timestamp *)v->data)[row],
                             tmp);
    return chv_buf_append(b, tmp, (size_t)n);
  case CHV_TYPE_STRING:
  case CHV_TYPE_VARCHAR:
  case CHV_TYPE_CHAR:
    return put_escaped(f, b, v->bytes + v->offsets[row],
                       (size_t)(v->offsets[row + 1] - v->offsets[row]));
  case CHV_TYPE_BINARY:
    return chv_base64_encode(v->bytes + v->offsets[row],
                             (size_t)(v->offsets[row + 1] - v->offsets[row]),
                             b);
  case CHV_TYPE_ARRAY:
    for (int32_t i = v->offsets[row]; i < v->offsets[row + 1]; i++) {
      if (i > v->offsets[row])
        CHV_RETURN_IF_ERR(chv_buf_putc(b, (char)o->separators[level]));
      CHV_RETURN_IF_ERR(put_value(f, v->children[0], i, level + 1, b));
    }
    return CHV_OK;
  case CHV_TYPE_MAP:
    for (int32_t i = v->offsets[row]; i < v->offsets[row + 1]; i++) {
      if (i > v->offsets[row])
        CHV_RETURN_IF_ERR(chv_buf_putc(b, (char)o->separators[level]));
      CHV_RETURN_IF_ERR(put_value(f, v->children[0], i, level + 2, b));
      CHV_RETURN_IF_ERR(chv_buf_putc(b, (char)o->separators[level + 1]));
      CHV_RETURN_IF_ERR(put_value(f, v->children[1], i, level + 2, b));
    }
    return CHV_OK;
  case CHV_TYPE_STRUCT:
    for (int i = 0; i < v->nchildren; i++) {
      if (i > 0) CHV_RETURN_IF_ERR(chv_buf_putc(b, (char)o->separators[level]));
      CHV_RETURN_IF_ERR(put_value(f, v->children[i], row, level + 1, b));
    }
    return CHV_OK;
  default:
    return CHV_ENOTSUP;
  }
}

static int put_row(const struct fmt *f, const struct chv_batch *batch,
                   int64_t row, struct chv_buf *b) {
  for (int c = 0; c < batch->ncols; c++) {
    if (c > 0) CHV_RETURN_IF_ERR(chv_buf_putc(b, (char)f->o->separators[0]));
    CHV_RETURN_IF_ERR(put_value(f, batch->cols[c], row, 1, b));
  }
  return CHV_OK;
}

int chv_text_format_row(const struct chv_text_options *o,
                        const struct chv_batch *batch, int64_t row,
                        struct chv_buf *out, struct chv_error *err) {
  struct fmt f;
  fmt_init(&f, o);
  int rc = put_row(&f, batch, row, out);
  if (rc != CHV_OK)
    return chv_error_set(err, rc, "cannot format row %lld as text",
                         (long long)row);
  return CHV_OK;
}

/* ---- writer ------------------------------------------------------------- */

int chv_text_writer_open(const struct chv_fs *fs, const char *path,
                         const struct chv_type *schema,
                         const struct chv_text_options *opts,
                         chv_text_writer **out, struct chv_error *err) {
  if (schema == NULL || schema->id != CHV_TYPE_STRUCT)
    return chv_error_set(err, CHV_EINVAL,
                         "%s: the schema of a text file must be a struct",
                         path);
  chv_text_writer *w = chv_calloc(1, sizeof *w);
  if (w == NULL) return chv_error_set(err, CHV_ENOMEM, "out of memory");
  int rc;
  w->fs = fs;
  w->schema = schema;
  if (opts)
    w->o = *opts;
  else
    chv_text_options_init(&w->o);
  fmt_init(&w->f, &w->o);
  chv_buf_init(&w->text);
  chv_buf_init(&w->zout);
  if ((rc = chv_text_check_depth(schema, &w->o, path, err)) != CHV_OK)
    goto out_close;
  w->path = chv_strdup(path);
  if (w->path == NULL) {
    rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
    goto out_close;
  }
  if (w->o.compress &&
      (rc = chv_comp_open(CHV_CODEC_GZIP, w->o.gzip_level, &w->comp, err)) !=
          CHV_OK) {
    chv_error_wrap(err, "%s", path);
    goto out_close;
  }
  if ((rc = fs->create(fs, path, false, &w->file, err)) != CHV_OK)
    goto out_close;
  *out = w;
  return CHV_OK;
out_close:
  chv_text_writer_close(w);
  return rc;
}

static int flush(chv_text_writer *w, bool end, struct chv_error *err) {
  const struct chv_buf *src = &w->text;
  if (w->comp) {
    if (chv_comp_run(w->comp, w->text.data, w->text.len, &w->zout, err) !=
            CHV_OK ||
        (end && chv_comp_finish(w->comp, &w->zout, err) != CHV_OK))
      return chv_error_wrap(err, "%s", w->path);
    chv_buf_reset(&w->text);
    src = &w->zout;
  }
  if (src->len) {
    CHV_RETURN_IF_ERR(w->fs->write(w->file, src->data, src->len, err));
    w->st.file_bytes += (int64_t)src->len;
  }
  chv_buf_reset(&w->text);
  chv_buf_reset(&w->zout);
  return CHV_OK;
}

int chv_text_writer_write(chv_text_writer *w, const struct chv_batch *batch,
                          struct chv_error *err) {
  if (w->finished)
    return chv_error_set(err, CHV_EINVAL, "%s: writer already finished",
                         w->path);
  if (batch->schema != w->schema && !chv_type_equal(batch->schema, w->schema))
    return chv_error_set(err, CHV_ETYPE,
                         "%s: batch schema differs from the file's", w->path);
  for (int64_t r = 0; r < batch->nrows; r++) {
    size_t before = w->text.len;
    int rc = put_row(&w->f, batch, r, &w->text);
    if (rc == CHV_OK) rc = chv_buf_putc(&w->text, (char)w->o.line_delim);
    if (rc != CHV_OK)
      return chv_error_set(err, rc, "%s: cannot write row %lld", w->path,
                           (long long)(w->st.rows + 1));
    w->st.raw_bytes += (int64_t)(w->text.len - before);
    w->st.rows++;
    if (w->text.len >= FLUSH_BYTES) CHV_RETURN_IF_ERR(flush(w, false, err));
  }
  return CHV_OK;
}

int chv_text_writer_finish(chv_text_writer *w, struct chv_text_write_stats *st,
                           struct chv_error *err) {
  if (!w->finished) {
    CHV_RETURN_IF_ERR(flush(w, true, err));
    w->finished = true;
    struct chv_file *f = w->file;
    w->file = NULL;
    chv_file_close(f);
  }
  if (st) *st = w->st;
  return CHV_OK;
}

void chv_text_writer_stats(const chv_text_writer *w,
                           struct chv_text_write_stats *st) {
  *st = w->st;
}

void chv_text_writer_close(chv_text_writer *w) {
  if (w == NULL) return;
  chv_file_close(w->file);
  chv_comp_close(w->comp);
  chv_buf_free(&w->text);
  chv_buf_free(&w->zout);
  chv_free(w->path);
  chv_free(w);
}
