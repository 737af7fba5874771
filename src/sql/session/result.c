/*
** sql/session/result: results of `chive sql` statements and their printing: an
** aligned table with a header and a "(N rows)" line, CSV (RFC 4180 quoting),
** TSV (tabs, newlines and backslashes escaped as \t \n \\) or JSON Lines.
** NULL prints as NULL in table and TSV form, as an empty field in CSV and as
** null in JSON.
*/
#include "sql/session/session_int.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

int sql_err(struct chv_error *err, int code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  chv_error_setv(err, code, fmt, ap);
  va_end(ap);
  return code;
}

void sql_result_init(struct sql_result *r) {
  memset(r, 0, sizeof *r);
  chv_buf_init(&r->json);
}

void sql_result_free(struct sql_result *r) {
  for (int64_t i = 0; i < r->nrows; i++) {
    for (int c = 0; c < r->ncols; c++) chv_free(r->rows[i][c]);
    chv_free(r->rows[i]);
  }
  chv_free(r->rows);
  for (int c = 0; c < r->ncols; c++) chv_free(r->names[c]);
  chv_free(r->names);
  chv_buf_free(&r->json);
  memset(r, 0, sizeof *r);
}

int sql_result_columns(struct sql_result *r, int n, const char *const *names) {
  r->names = chv_calloc((size_t)n, sizeof *r->names);
  if (!r->names) return CHV_ENOMEM;
  r->ncols = n;
  for (int c = 0; c < n; c++)
    if (!(r->names[c] = chv_strdup(names[c]))) return CHV_ENOMEM;
  return CHV_OK;
}

int sql_result_add(struct sql_result *r, const char *const *cells) {
  if (r->nrows == r->cap) {
    int64_t cap = r->cap ? r->cap * 2 : 16;
    char ***rows = chv_realloc(r->rows, (size_t)cap * sizeof *rows);
    if (!rows) return CHV_ENOMEM;
    r->rows = rows;
    r->cap = cap;
  }
  char **row = chv_calloc((size_t)(r->ncols ? r->ncols : 1), sizeof *row);
  if (!row) return CHV_ENOMEM;
  r->rows[r->nrows++] = row;
  for (int c = 0; c < r->ncols; c++)
    if (cells[c] && !(row[c] = chv_strdup(cells[c]))) return CHV_ENOMEM;
  return CHV_OK;
}

/* Display width: UTF-8 code points. */
static size_t width(const char *s) {
  size_t w = 0;
  for (; *s; s++)
    if (((unsigned char)*s & 0xC0) != 0x80) w++;
  return w;
}

/* Writes line without trailing blanks and a newline, then empties it. */
static void flush_line(struct chv_buf *line, FILE *out) {
  size_t n = line->len;
  while (n && line->data[n - 1] == ' ') n--;
  if (n) fwrite(line->data, 1, n, out);
  fputc('\n', out);
  chv_buf_reset(line);
}

static void pad(struct chv_buf *line, size_t n) {
  while (n--) chv_buf_putc(line, ' ');
}

static void print_table(const struct sql_result *r, FILE *out) {
  size_t *w = calloc((size_t)r->ncols + 1, sizeof *w);
  if (!w) return;
  for (int c = 0; c < r->ncols; c++) {
    w[c] = width(r->names[c]);
    for (int64_t i = 0; i < r->nrows; i++) {
      size_t cw = width(r->rows[i][c] ? r->rows[i][c] : "NULL");
      if (cw > w[c]) w[c] = cw;
    }
  }
  struct chv_buf line;
  chv_buf_init(&line);
  for (int c = 0; c < r->ncols; c++) {
    chv_buf_puts(&line, c ? " | " : "");
    chv_buf_puts(&line, r->names[c]);
    pad(&line, w[c] - width(r->names[c]));
  }
  flush_line(&line, out);
  for (int c = 0; c < r->ncols; c++) {
    chv_buf_puts(&line, c ? "-+-" : "");
    for (size_t k = 0; k < w[c]; k++) chv_buf_putc(&line, '-');
  }
  flush_line(&line, out);
  for (int64_t i = 0; i < r->nrows; i++) {
    for (int c = 0; c < r->ncols; c++) {
      const char *v = r->rows[i][c] ? r->rows[i][c] : "NULL";
      chv_buf_puts(&line, c ? " | " : "");
      chv_buf_puts(&line, v);
      pad(&line, w[c] - width(v));
    }
    flush_line(&line, out);
  }
  chv_buf_free(&line);
  fprintf(out, "(%lld row%s)\n", (long long)r->nrows, r->nrows == 1 ? "" : "s");
  free(w);
}

static void csv_field(const char *s, FILE *out) {
  if (!s) return;
  if (!strpbrk(s, ",\"\r\n") && *s) {
    fputs(s, out);
    return;
  }
  fputc('"', out);
  for (; *s; s++) {
    if (*s == '"') fputc('"', out);
    fputc(*s, out);
  }
  fputc('"', out);
}

static void tsv_field(const char *s, FILE *out) {
  if (!s) {
    fputs("NULL", out);
    return;
  }
  for (; *s; s++) {
    switch (*s) {
    case '\t': fputs("\\t", out); break;
    case '\n': fputs("\\n", out); break;
    case '\r': fputs("\\r", out); break;
    case '\\': fputs("\\\\", out); break;
    default: fputc(*s, out);
    }
  }
}

static void print_delimited(const struct sql_result *r, bool csv, FILE *out) {
  void (*field)(const char *, FILE *) = csv ? csv_field : tsv_field;
  const char *sep = csv ? "," : "\t";
  const char *eol = csv ? "\r\n" : "\n";
  for (int c = 0; c < r->ncols; c++) {
    fputs(c ? sep : "", out);
    field(r->names[c], out);
  }
  fputs(eol, out);
  for (int64_t i = 0; i < r->nrows; i++) {
    for (int c = 0; c < r->ncols; c++) {
      fputs(c ? sep : "", out);
      field(r->rows[i][c], out);
    }
    fputs(eol, out);
  }
}

static void print_jsonl(const struct sql_result *r, FILE *out) {
  if (r->has_json) {
    if (r->json.len) fwrite(r->json.data, 1, r->json.len, out);
    return;
  }
  struct chv_buf b;
  chv_buf_init(&b);
  for (int64_t i = 0; i < r->nrows; i++) {
    chv_buf_putc(&b, '{');
    for (int c = 0; c < r->ncols; c++) {
      if (c) chv_buf_putc(&b, ',');
      chv_json_put_string(&b, r->names[c]);
      chv_buf_putc(&b, ':');
      if (r->rows[i][c])
        chv_json_put_string(&b, r->rows[i][c]);
      else
        chv_buf_puts(&b, "null");
    }
    chv_buf_puts(&b, "}\n");
  }
  if (b.len) fwrite(b.data, 1, b.len, out);
  chv_buf_free(&b);
}

void sql_result_print(const struct sql_result *r, enum sql_format f,
                      FILE *out) {
  switch (f) {
  case SQL_FMT_TABLE: print_table(r, out); break;
  case SQL_FMT_CSV: print_delimited(r, true, out); break;
  case SQL_FMT_TSV: print_delimited(r, false, out); break;
  case SQL_FMT_JSONL: print_jsonl(r, out); break;
  }
}

/* ---- values as text ----------------------------------------------------- */

int sql_value_text(const struct chv_vector *v, int64_t row,
                   struct chv_buf *out, bool *is_null) {
  *is_null = chv_vector_is_null(v, row);
  if (*is_null) return CHV_OK;
  char buf[64];
  const void *d = v->data;
  switch (v->type->id) {
  case CHV_TYPE_BOOLEAN:
    return chv_buf_puts(out, chv_bit_get(d, row) ? "true" : "false");
  case CHV_TYPE_TINYINT:
    snprintf(buf, sizeof buf, "%d", ((const int8_t *)d)[row]);
    return chv_buf_puts(out, buf);
  case CHV_TYPE_SMALLINT:
    snprintf(buf, sizeof buf, "%d", ((const int16_t *)d)[row]);
    return chv_buf_puts(out, buf);
  case CHV_TYPE_INT:
    snprintf(buf, sizeof buf, "%d", ((const int32_t *)d)[row]);
    return chv_buf_puts(out, buf);
  case CHV_TYPE_BIGINT:
    snprintf(buf, sizeof buf, "%lld", (long long)((const int64_t *)d)[row]);
    return chv_buf_puts(out, buf);
  case CHV_TYPE_DECIMAL: {
    char dec[64];
    chv_decimal_format(((const chv_i128 *)d)[row], v->type->scale, dec);
    return chv_buf_puts(out, dec);
  }
  case CHV_TYPE_FLOAT:
  case CHV_TYPE_DOUBLE: {
    /* as Hive prints them: 1.0, 1.5E20, NaN, Infinity */
    double x = v->type->id == CHV_TYPE_FLOAT ? ((const float *)d)[row]
                                             : ((const double *)d)[row];
    if (isnan(x)) return chv_buf_puts(out, "NaN");
    if (isinf(x)) return chv_buf_puts(out, x > 0 ? "Infinity" : "-Infinity");
    chv_jsonl_real(x, v->type->id == CHV_TYPE_FLOAT, buf);
    if (!strpbrk(buf, ".e")) strcat(buf, ".0");
    return chv_buf_puts(out, buf);
  }
  case CHV_TYPE_DATE:
    chv_date_format(((const int32_t *)d)[row], buf);
    return chv_buf_puts(out, buf);
  case CHV_TYPE_TIMESTAMP:
    chv_timestamp_format(((const struct chv_timestamp *)d)[row], buf);
    return chv_buf_puts(out, buf);
  case CHV_TYPE_STRING:
  case CHV_TYPE_VARCHAR:
  case CHV_TYPE_CHAR:
    return chv_buf_append(out, v->bytes + v->offsets[row],
                          (size_t)(v->offsets[row + 1] - v->offsets[row]));
  default: {
    /* floats, binary (base64) and nested values: their JSON form, strings
    ** unquoted */
    size_t start = out->len;
    int rc = chv_jsonl_value(v, row, out);
    if (rc != CHV_OK) return rc;
    if (out->len - start >= 2 && out->data[start] == '"' &&
        v->type->id != CHV_TYPE_ARRAY && v->type->id != CHV_TYPE_MAP &&
        v->type->id != CHV_TYPE_STRUCT) {
      memmove(out->data + start, out->data + start + 1, out->len - start - 2);
      out->len -= 2;
      out->data[out->len] = '\0';
    }
    return CHV_OK;
  }
  }
}
