/*
** sql/session/result: what a statement hands to the session's consumer.
** A result is either typed (sql_result_typed(): the SELECT paths append
** rows of their output vectors, handed on in batches of about
** SQL_OUT_BATCH rows as they fill, so the first ones leave before the scan
** ends) or of text cells (sql_result_columns()/_add(): SHOW, DESCRIBE,
** EXPLAIN, small and made whole), given as STRING columns at
** sql_result_emit().  Values print as Hive prints them (chv_vector_text()).
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

void sql_result_init(struct sql_result *r) { memset(r, 0, sizeof *r); }

void sql_result_free(struct sql_result *r) {
  for (int64_t i = 0; i < r->nrows; i++) {
    for (int c = 0; c < r->ncols; c++) chv_free(r->rows[i][c]);
    chv_free(r->rows[i]);
  }
  chv_free(r->rows);
  for (int c = 0; c < r->ncols; c++) chv_free(r->names[c]);
  chv_free(r->names);
  chv_batch_close(r->pend);
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

/* A STRUCT of the columns (STRING ones when types is NULL).  Two columns
** may share a name (SELECT a, a), as Arrow's fields may, so the fields are
** set here rather than through chv_type_struct_add(). */
static int result_schema(int n, const char *const *names,
                         const struct chv_type *const *types,
                         struct chv_type **out, struct chv_error *err) {
  struct chv_type *st;
  if (chv_type_new(CHV_TYPE_STRUCT, &st) != CHV_OK)
    return sql_err(err, CHV_ENOMEM, "out of memory");
  int rc = CHV_OK;
  if (n > 0) {
    st->children = chv_calloc((size_t)n, sizeof *st->children);
    st->names = chv_calloc((size_t)n, sizeof *st->names);
    if (!st->children || !st->names) rc = CHV_ENOMEM;
  }
  for (int c = 0; c < n && rc == CHV_OK; c++) {
    struct chv_type *ft = NULL;
    rc = types ? chv_type_clone(types[c], &ft)
               : chv_type_new(CHV_TYPE_STRING, &ft);
    if (rc != CHV_OK) break;
    st->children[c] = ft;
    st->names[c] = chv_strdup(names[c]);
    st->nchildren = c + 1;
    if (!st->names[c]) rc = CHV_ENOMEM;
  }
  if (rc != CHV_OK) {
    chv_type_free(st);
    return sql_err(err, CHV_ENOMEM, "out of memory");
  }
  *out = st;
  return CHV_OK;
}

int sql_result_typed(struct sql_session *s, struct sql_result *r, int n,
                     const char *const *names,
                     const struct chv_type *const *types,
                     struct chv_error *err) {
  r->s = s;
  r->typed = true;
  struct chv_type *schema;
  CHV_RETURN_IF_ERR(result_schema(n, names, types, &schema, err));
  CHV_RETURN_IF_ERR(sql_out_begin(s, schema, CHV_RESULT_ROWS, err));
  r->schema = sql_out_schema(s);
  return CHV_OK;
}

/* Hands the rows gathered so far on. */
static int result_flush(struct sql_result *r, struct chv_error *err) {
  if (!r->pend || r->pend->nrows == 0) return CHV_OK;
  struct chv_batch *b = r->pend;
  r->pend = NULL;
  return sql_out_push(r->s, b, err);
}

/* Appends rows sel[0, n) of v (sel NULL: rows 0..n-1) to d, of one type. */
static int append_rows(struct chv_vector *d, const struct chv_vector *v,
                       const uint32_t *sel, int64_t n,
                       struct chv_error *err) {
  enum chv_type_id id = v->type->id;
  int64_t at = d->length;
  if (!sel && chv_type_is_primitive(id) && id != CHV_TYPE_BOOLEAN) {
    CHV_RETURN_IF_ERR(chv_vector_reserve(d, at + n, err));
    if (chv_type_is_string_like(id)) {
      int32_t base = v->offsets[0];
      int64_t nb = v->offsets[n] - base;
      CHV_RETURN_IF_ERR(chv_vector_reserve_bytes(d, nb, err));
      if (nb > 0) memcpy(d->bytes + d->bytes_len, v->bytes + base, (size_t)nb);
      int32_t shift = (int32_t)d->bytes_len - base;
      for (int64_t i = 1; i <= n; i++)
        d->offsets[at + i] = v->offsets[i] + shift;
      d->bytes_len += nb;
    } else {
      size_t w = chv_type_fixed_width(id);
      memcpy((char *)d->data + (size_t)at * w, v->data, (size_t)n * w);
    }
    if (v->validity && v->null_count > 0)
      for (int64_t i = 0; i < n; i++)
        if (chv_vector_is_null(v, i))
          CHV_RETURN_IF_ERR(chv_vector_set_null(d, at + i, err));
    d->length = at + n;
    return CHV_OK;
  }
  for (int64_t i = 0; i < n; i++)
    CHV_RETURN_IF_ERR(chv_vector_append_from(d, v, sel ? sel[i] : i, err));
  return CHV_OK;
}

int sql_result_rows(struct sql_result *r, const struct chv_vector *const *vecs,
                    const uint32_t *sel, int64_t n, struct chv_error *err) {
  CHV_RETURN_IF_ERR(sql_cancelled(r->s, err));
  if (n <= 0 || !r->schema) return CHV_OK;
  /* the caller's rows stay together: a batch of a scan's size goes on as it
  ** is, smaller ones gather up to SQL_OUT_BATCH rows */
  if (r->pend && r->pend->nrows + n > SQL_OUT_BATCH)
    CHV_RETURN_IF_ERR(result_flush(r, err));
  if (!r->pend)
    CHV_RETURN_IF_ERR(chv_batch_open(
        r->schema, n > SQL_OUT_BATCH ? n : SQL_OUT_BATCH, &r->pend, err));
  for (int c = 0; c < r->pend->ncols; c++)
    CHV_RETURN_IF_ERR(append_rows(r->pend->cols[c], vecs[c], sel, n, err));
  r->pend->nrows += n;
  if (r->pend->nrows >= SQL_OUT_BATCH) return result_flush(r, err);
  return CHV_OK;
}

int sql_result_emit(struct sql_session *s, struct sql_result *r,
                    struct chv_error *err) {
  if (r->typed) return result_flush(r, err);
  struct chv_type *st;
  CHV_RETURN_IF_ERR(result_schema(r->ncols, (const char *const *)r->names,
                                  NULL, &st, err));
  CHV_RETURN_IF_ERR(sql_out_begin(
      s, st, r->kind == CHV_RESULT_PLAN ? CHV_RESULT_PLAN : CHV_RESULT_ROWS,
      err));
  const struct chv_type *schema = sql_out_schema(s);
  if (!schema) return CHV_OK;
  struct chv_batch *b = NULL;
  int rc = CHV_OK;
  for (int64_t i = 0; rc == CHV_OK && i < r->nrows; i++) {
    if (!b) {
      int64_t left = r->nrows - i;
      rc = chv_batch_open(schema, left < SQL_OUT_BATCH ? left : SQL_OUT_BATCH,
                          &b, err);
      if (rc != CHV_OK) break;
    }
    for (int c = 0; rc == CHV_OK && c < r->ncols; c++) {
      const char *v = r->rows[i][c];
      struct chv_vector *d = b->cols[c];
      if (v) {
        rc = chv_vector_append_bytes(d, v, strlen(v), err);
      } else if ((rc = chv_vector_append_bytes(d, "", 0, err)) == CHV_OK) {
        rc = chv_vector_set_null(d, d->length - 1, err);
      }
    }
    if (rc != CHV_OK) break;
    b->nrows++;
    if (b->nrows == SQL_OUT_BATCH || i == r->nrows - 1) {
      struct chv_batch *full = b;
      b = NULL;
      rc = sql_out_push(s, full, err);
    }
  }
  chv_batch_close(b);
  return rc;
}

/* ---- values as text ----------------------------------------------------- */

int chv_vector_text(const struct chv_vector *v, int64_t row,
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
