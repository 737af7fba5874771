/*
** The JSON Lines printer of jsonl.h.
**
** INTERFACE: chv_jsonl_value(), chv_jsonl_row(), chv_jsonl_real().
*/
#include "format/text/jsonl.h"

#include "format/text/text.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int chv_jsonl_real(double d, bool single, char *buf) {
  int p = 1;
  for (; p <= 17; p++) {
    snprintf(buf, 32, "%.*e", p - 1, d);
    if (single ? strtof(buf, NULL) == (float)d : strtod(buf, NULL) == d) break;
  }
  if (p > 17) p = 17;
  /* Plain notation for exponents -5..16, else 1.5e+20 as %e prints it. */
  int x = atoi(strchr(buf, 'e') + 1);
  if (x >= -5 && x < 17)
    return snprintf(buf, 32, "%.*f", p - 1 - x > 0 ? p - 1 - x : 0, d);
  return (int)strlen(buf);
}

/* Length of the valid UTF-8 sequence at s (n bytes left), 0 if invalid. */
static size_t utf8_seq(const uint8_t *s, size_t n) {
  uint8_t c = s[0];
  size_t len;
  uint32_t cp;
  if (c < 0x80) return 1;
  if (c >= 0xC2 && c <= 0xDF) {
    len = 2;
    cp = c & 0x1F;
  } else if (c >= 0xE0 && c <= 0xEF) {
    len = 3;
    cp = c & 0x0F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    len = 4;
    cp = c & 0x07;
  } else {
    return 0;
  }
  if (n < len) return 0;
  for (size_t i = 1; i < len; i++) {
    if ((s[i] & 0xC0) != 0x80) return 0;
    cp = cp << 6 | (s[i] & 0x3F);
  }
  if ((len == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) ||
      (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)))
    return 0;
  return len;
}

static int put_json_string(const char *p, size_t n, struct chv_buf *out) {
  const uint8_t *s = (const uint8_t *)p;
  CHV_RETURN_IF_ERR(chv_buf_reserve(out, n + 2));
  CHV_RETURN_IF_ERR(chv_buf_putc(out, '"'));
  size_t start = 0, i = 0;
  while (i < n) {
    uint8_t c = s[i];
    if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
      i++;
      continue;
    }
    size_t len = c < 0x80 ? 1 : utf8_seq(s + i, n - i);
    if (c >= 0x80 && len > 0) {
      i += len;
      continue;
    }
    CHV_RETURN_IF_ERR(chv_buf_append(out, s + start, i - start));
    char esc[8];
    const char *e = esc;
    size_t el = 2;
    switch (c) {
    case '"': e = "\\\""; break;
    case '\\': e = "\\\\"; break;
    case '\n': e = "\\n"; break;
    case '\r': e = "\\r"; break;
    case '\t': e = "\\t"; break;
    case '\b': e = "\\b"; break;
    case '\f': e = "\\f"; break;
    default:
      if (c < 0x20) {
        snprintf(esc, sizeof esc, "\\u%04x", c);
        el = 6;
      } else { /* invalid UTF-8 byte */
        e = "\xEF\xBF\xBD";
        el = 3;
      }
    }
    CHV_RETURN_IF_ERR(chv_buf_append(out, e, el));
    i++;
    start = i;
  }
  CHV_RETURN_IF_ERR(chv_buf_append(out, s + start, n - start));
  return chv_buf_putc(out, '"');
}

static int put_real(double d, bool single, struct chv_buf *out) {
  if (isnan(d)) return chv_buf_puts(out, "\"NaN\"");
  if (isinf(d)) return chv_buf_puts(out, d < 0 ? "\"-Infinity\"" : "\"Infinity\"");
  char buf[32];
  int n = chv_jsonl_real(d, single, buf);
  return chv_buf_append(out, buf, (size_t)n);
}

int chv_jsonl_value(const struct chv_vector *v, int64_t row,
                    struct chv_buf *out) {
  if (chv_vector_is_null(v, row)) return chv_buf_append(out, "null", 4);
  const struct chv_type *t = v->type;
  char tmp[64];
  int n;
  switch (t->id) {
  case CHV_TYPE_BOOLEAN:
    return chv_buf_puts(out, chv_bit_get(v->data, row) ? "true" : "false");
  case CHV_TYPE_TINYINT:
    return chv_buf_printf(out, "%d", ((const int8_t *)v->data)[row]);
  case CHV_TYPE_SMALLINT:
    return chv_buf_printf(out, "%d", ((const int16_t *)v->data)[row]);
  case CHV_TYPE_INT:
    return chv_buf_printf(out, "%d", ((const int32_t *)v->data)[row]);
  case CHV_TYPE_BIGINT:
    return chv_buf_printf(out, "%lld",
                          (long long)((const int64_t *)v->data)[row]);
  case CHV_TYPE_FLOAT:
    return put_real(((const float *)v->data)[row], true, out);
  case CHV_TYPE_DOUBLE:
    return put_real(((const double *)v->data)[row], false, out);
  case CHV_TYPE_DECIMAL:
    n = chv_decimal_format(((const chv_i128 *)v->data)[row], t->scale, tmp);
    return put_json_string(tmp, (size_t)n, out);
  case CHV_TYPE_DATE:
    n = chv_date_format(((const int32_t *)v->data)[row], tmp);
    return put_json_string(tmp, (size_t)n, out);
  case CHV_TYPE_TIMESTAMP:
    n = chv_timestamp_format(((const struct chv_timestamp *)v->data)[row],
                             tmp);
    return put_json_string(tmp, (size_t)n, out);
  case CHV_TYPE_STRING:
  case CHV_TYPE_VARCHAR:
  case CHV_TYPE_CHAR:
    return put_json_string(v->bytes + v->offsets[row],
                           (size_t)(v->offsets[row + 1] - v->offsets[row]),
                           out);
  case CHV_TYPE_BINARY:
    CHV_RETURN_IF_ERR(chv_buf_putc(out, '"'));
    CHV_RETURN_IF_ERR(chv_base64_encode(
        v->bytes + v->offsets[row],
        (size_t)(v->offsets[row + 1] - v->offsets[row]), out));
    return chv_buf_putc(out, '"');
  case CHV_TYPE_ARRAY:
    CHV_RETURN_IF_ERR(chv_buf_putc(out, '['));
    for (int32_t i = v->offsets[row]; i < v->offsets[row + 1]; i++) {
      if (i > v->offsets[row]) CHV_RETURN_IF_ERR(chv_buf_putc(out, ','));
      CHV_RETURN_IF_ERR(chv_jsonl_value(v->children[0], i, out));
    }
    return chv_buf_putc(out, ']');
  case CHV_TYPE_MAP:
    CHV_RETURN_IF_ERR(chv_buf_putc(out, '['));
    for (int32_t i = v->offsets[row]; i < v->offsets[row + 1]; i++) {
      if (i > v->offsets[row]) CHV_RETURN_IF_ERR(chv_buf_putc(out, ','));
      CHV_RETURN_IF_ERR(chv_buf_puts(out, "{\"key\":"));
      CHV_RETURN_IF_ERR(chv_jsonl_value(v->children[0], i, out));
      CHV_RETURN_IF_ERR(chv_buf_puts(out, ",\"value\":"));
      CHV_RETURN_IF_ERR(chv_jsonl_value(v->children[1], i, out));
      CHV_RETURN_IF_ERR(chv_buf_putc(out, '}'));
    }
    return chv_buf_putc(out, ']');
  case CHV_TYPE_STRUCT:
    CHV_RETURN_IF_ERR(chv_buf_putc(out, '{'));
    for (int i = 0; i < v->nchildren; i++) {
      if (i > 0) CHV_RETURN_IF_ERR(chv_buf_putc(out, ','));
      const char *name = t->names[i];
      CHV_RETURN_IF_ERR(put_json_string(name, strlen(name), out));
      CHV_RETURN_IF_ERR(chv_buf_putc(out, ':'));
      CHV_RETURN_IF_ERR(chv_jsonl_value(v->children[i], row, out));
    }
    return chv_buf_putc(out, '}');
  default:
    return CHV_ENOTSUP;
  }
}

int chv_jsonl_row(const struct chv_batch *b, int64_t row, struct chv_buf *out) {
  CHV_RETURN_IF_ERR(chv_buf_putc(out, '{'));
  for (int c = 0; c < b->ncols; c++) {
    if (c > 0) CHV_RETURN_IF_ERR(chv_buf_putc(out, ','));
    const char *name = b->schema->names[c];
    CHV_RETURN_IF_ERR(put_json_string(name, strlen(name), out));
    CHV_RETURN_IF_ERR(chv_buf_putc(out, ':'));
    CHV_RETURN_IF_ERR(chv_jsonl_value(b->cols[c], row, out));
  }
  return chv_buf_puts(out, "}\n");
}
