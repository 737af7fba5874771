/*
** Dynamic partitions: a batch whose trailing columns hold the values of the
** partition keys not given statically is split by those values and each
** part written to its partition (Hive's and Flink's dynamic partition
** insert; all-dynamic inserts are allowed, as Flink is always "nonstrict").
** Rows are grouped by sorting row numbers on their partition path, so one
** batch opens each of its partitions once.  With
** table.exec.hive.sink.sort-by-dynamic-partition.enable (the default) the
** batches are first gathered into runs of up to CONN_SORT_ROWS rows or
** CONN_SORT_BYTES bytes, each sorted and written with one file open at a
** time (Flink sorts the whole input with an external sort; chive's bounded
** runs give a partition one file per run instead of one in all).
*/
#include "connector/connector_int.h"
#include "format/text/jsonl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Hive's text for a partition value of a primitive column, or NULL (the
** default partition) for NULL; into buf (at least 64 bytes) or, for
** strings, pointing into the vector (*len set). */
static const char *part_text(const struct chv_vector *v, int64_t row,
                             char *buf, size_t *len) {
  if (chv_vector_is_null(v, row)) return NULL;
  const void *d = v->data;
  int n = 0;
  switch (v->type->id) {
  case CHV_TYPE_STRING:
  case CHV_TYPE_VARCHAR:
  case CHV_TYPE_CHAR:
  case CHV_TYPE_BINARY:
    *len = (size_t)(v->offsets[row + 1] - v->offsets[row]);
    return v->bytes + v->offsets[row];
  case CHV_TYPE_BOOLEAN:
    n = snprintf(buf, 64, "%s", chv_bit_get(d, row) ? "true" : "false");
    break;
  case CHV_TYPE_TINYINT: n = snprintf(buf, 64, "%d", ((const int8_t *)d)[row]); break;
  case CHV_TYPE_SMALLINT: n = snprintf(buf, 64, "%d", ((const int16_t *)d)[row]); break;
  case CHV_TYPE_INT: n = snprintf(buf, 64, "%d", ((const int32_t *)d)[row]); break;
  case CHV_TYPE_BIGINT:
    n = snprintf(buf, 64, "%lld", (long long)((const int64_t *)d)[row]);
    break;
  case CHV_TYPE_FLOAT:
  case CHV_TYPE_DOUBLE: {
    double x = v->type->id == CHV_TYPE_FLOAT ? ((const float *)d)[row]
                                             : ((const double *)d)[row];
    if (x != x) {
      n = snprintf(buf, 64, "NaN");
    } else if (x == 1.0 / 0.0 || x == -1.0 / 0.0) {
      n = snprintf(buf, 64, "%sInfinity", x < 0 ? "-" : "");
    } else {
      /* Java's Double.toString keeps a ".0" on integral values. */
      n = chv_jsonl_real(x, v->type->id == CHV_TYPE_FLOAT, buf);
      if (strpbrk(buf, ".eE") == NULL) n += snprintf(buf + n, 64 - (size_t)n, ".0");
    }
    break;
  }
  case CHV_TYPE_DECIMAL:
    n = chv_decimal_format(((const chv_i128 *)d)[row], v->type->scale, buf);
    break;
  case CHV_TYPE_DATE: n = chv_date_format(((const int32_t *)d)[row], buf); break;
  case CHV_TYPE_TIMESTAMP:
    n = chv_timestamp_format(((const struct chv_timestamp *)d)[row], buf);
    break;
  default:
    return NULL; /* nested types are refused before we get here */
  }
  *len = (size_t)n;
  return buf;
}

/* A row's partition path key for sorting: the values joined by \x01, with
** \x02 for NULL (the key is only compared, never shown). */
struct row_key {
  int64_t row;
  char *key;
};

static int cmp_row_key(const void *a, const void *b) {
  const struct row_key *x = a, *y = b;
  int c = strcmp(x->key, y->key);
  return c ? c : (x->row > y->row) - (x->row < y->row);
}

static int write_grouped(chv_sink *s, int nstatic, char *const *static_values,
                         const struct chv_batch *batch, struct chv_error *err);
static int sort_append(chv_sink *s, int nstatic, char *const *static_values,
                       const struct chv_batch *batch, struct chv_error *err);

int chv_sink_write_dynamic(chv_sink *s, int nstatic,
                           char *const *static_values,
                           const struct chv_batch *batch,
                           struct chv_error *err) {
  const struct chv_table *t = chv_sink_table(s);
  const struct chv_type *data = chv_sink_schema(s);
  int ndyn = t->npkeys - nstatic;
  if (nstatic < 0 || ndyn < 0)
    return chv_error_set(err, CHV_EINVAL,
                         "%s.%s has %d partition keys, not %d static ones",
                         t->db, t->name, t->npkeys, nstatic);
  if (batch->ncols != data->nchildren + ndyn)
    return chv_error_set(err, CHV_ETYPE,
                         "%s.%s: a dynamic partition insert needs %d data "
                         "columns and %d partition columns, not %d columns",
                         t->db, t->name, data->nchildren, ndyn, batch->ncols);
  for (int i = 0; i < data->nchildren; i++)
    if (!chv_type_equal(batch->cols[i]->type, data->children[i]))
      return chv_error_set(err, CHV_ETYPE,
                           "%s.%s: column %d ('%s') of the rows does not have "
                           "the table's type",
                           t->db, t->name, i + 1, data->names[i]);
  for (int k = 0; k < ndyn; k++)
    if (!chv_type_is_primitive(batch->cols[data->nchildren + k]->type->id))
      return chv_error_set(err, CHV_ETYPE,
                           "%s.%s: partition column '%s' needs a primitive "
                           "value",
                           t->db, t->name, t->pkeys[nstatic + k].name);
  if (conn_sink_sortbuf(s)->on && ndyn > 0)
    return sort_append(s, nstatic, static_values, batch, err);
  return write_grouped(s, nstatic, static_values, batch, err);
}

/* Splits batch (checked) by its dynamic partition values and writes each
** part to its partition. */
static int write_grouped(chv_sink *s, int nstatic, char *const *static_values,
                         const struct chv_batch *batch, struct chv_error *err) {
  const struct chv_table *t = chv_sink_table(s);
  const struct chv_type *data = chv_sink_schema(s);
  int ndyn = t->npkeys - nstatic;
  int64_t n = batch->nrows;
  int rc = CHV_OK;
  struct row_key *keys = chv_calloc((size_t)n + 1, sizeof *keys);
  char **values = chv_calloc((size_t)t->npkeys + 1, sizeof *values);
  struct chv_batch *part = NULL;
  struct chv_buf kb;
  chv_buf_init(&kb);
  if (keys == NULL || values == NULL) {
    rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
    goto out;
  }
  char buf[64];
  for (int64_t r = 0; r < n && rc == CHV_OK; r++) {
    chv_buf_reset(&kb);
    for (int k = 0; k < ndyn && rc == CHV_OK; k++) {
      size_t len = 0;
      const char *txt = part_text(batch->cols[data->nchildren + k], r, buf, &len);
      rc = txt ? chv_buf_append(&kb, txt, len) : chv_buf_putc(&kb, '\x02');
      if (rc == CHV_OK) rc = chv_buf_putc(&kb, '\x01');
    }
    keys[r].row = r;
    keys[r].key = rc == CHV_OK ? chv_strndup(kb.data ? kb.data : "", kb.len)
                               : NULL;
    if (keys[r].key == NULL) rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
  }
  if (rc != CHV_OK) goto out;
  qsort(keys, (size_t)n, sizeof *keys, cmp_row_key);
  rc = chv_batch_open(data, 64, &part, err);
  for (int i = 0; i < nstatic; i++) values[i] = static_values[i];
  for (int64_t lo = 0; rc == CHV_OK && lo < n;) {
    int64_t hi = lo;
    while (hi < n && strcmp(keys[hi].key, keys[lo].key) == 0) hi++;
    /* The group's partition values, read from its first row. */
    int64_t first = keys[lo].row;
    for (int k = 0; k < ndyn && rc == CHV_OK; k++) {
      size_t len = 0;
      const char *txt =
          part_text(batch->cols[data->nchildren + k], first, buf, &len);
      values[nstatic + k] = txt ? chv_strndup(txt, len) : NULL;
      if (txt && values[nstatic + k] == NULL)
        rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
    }
    chv_batch_reset(part);
    for (int64_t i = lo; rc == CHV_OK && i < hi; i++) {
      for (int c = 0; rc == CHV_OK && c < data->nchildren; c++)
        rc = chv_vector_append_from(part->cols[c], batch->cols[c],
                                    keys[i].row, err);
      part->nrows++;
    }
    if (rc == CHV_OK) rc = chv_sink_write(s, values, part, err);
    for (int k = 0; k < ndyn; k++) {
      chv_free(values[nstatic + k]);
      values[nstatic + k] = NULL;
    }
    lo = hi;
  }
out:
  if (keys)
    for (int64_t r = 0; r < n; r++) chv_free(keys[r].key);
  chv_free(keys);
  chv_free(values);
  chv_batch_close(part);
  chv_buf_free(&kb);
  return rc;
}

/* ---- sorted runs ----------------------------------------------------------- */

static bool same_statics(const struct conn_sortbuf *b, int nstatic,
                         char *const *v) {
  if (b->nstatic != nstatic) return false;
  for (int i = 0; i < nstatic; i++) {
    const char *x = b->statics[i], *y = v[i];
    if ((x == NULL) != (y == NULL) || (x && strcmp(x, y))) return false;
  }
  return true;
}

static int64_t buffered_bytes(const struct chv_batch *b) {
  int64_t n = 0;
  for (int c = 0; c < b->ncols; c++) {
    const struct chv_vector *v = b->cols[c];
    size_t w = chv_type_fixed_width(v->type->id);
    n += v->bytes_len + v->length * (int64_t)(w ? w : 4);
  }
  return n;
}

static int sort_append(chv_sink *s, int nstatic, char *const *static_values,
                       const struct chv_batch *batch, struct chv_error *err) {
  struct conn_sortbuf *b = conn_sink_sortbuf(s);
  int rc = CHV_OK;
  if (b->rows && !same_statics(b, nstatic, static_values))
    CHV_RETURN_IF_ERR(conn_sink_flush_sorted(s, err));
  if (b->rows == NULL || !chv_type_equal(b->type, batch->schema)) {
    CHV_RETURN_IF_ERR(conn_sink_flush_sorted(s, err));
    conn_sortbuf_free(b);
    b->on = true;
    if (chv_type_clone(batch->schema, &b->type) != CHV_OK ||
        (b->statics = chv_calloc((size_t)nstatic + 1, sizeof *b->statics)) ==
            NULL)
      return chv_error_set(err, CHV_ENOMEM, "out of memory");
    b->nstatics_alloc = nstatic;
    for (int i = 0; i < nstatic; i++)
      if (static_values[i] &&
          (b->statics[i] = chv_strdup(static_values[i])) == NULL)
        return chv_error_set(err, CHV_ENOMEM, "out of memory");
    b->nstatic = nstatic;
    CHV_RETURN_IF_ERR(chv_batch_open(b->type, 1024, &b->rows, err));
  }
  for (int64_t r = 0; r < batch->nrows && rc == CHV_OK; r++) {
    for (int c = 0; c < batch->ncols && rc == CHV_OK; c++)
      rc = chv_vector_append_from(b->rows->cols[c], batch->cols[c], r, err);
    b->rows->nrows++;
  }
  if (rc != CHV_OK) return rc;
  if (b->rows->nrows >= CONN_SORT_ROWS ||
      buffered_bytes(b->rows) >= CONN_SORT_BYTES)
    rc = conn_sink_flush_sorted(s, err);
  return rc;
}

int conn_sink_flush_sorted(chv_sink *s, struct chv_error *err) {
  struct conn_sortbuf *b = conn_sink_sortbuf(s);
  if (b->rows == NULL || b->rows->nrows == 0) return CHV_OK;
  int rc = write_grouped(s, b->nstatic, b->statics, b->rows, err);
  chv_batch_reset(b->rows);
  return rc;
}

void conn_sortbuf_free(struct conn_sortbuf *b) {
  chv_batch_close(b->rows);
  chv_type_free(b->type);
  if (b->statics)
    for (int i = 0; i < b->nstatics_alloc; i++) chv_free(b->statics[i]);
  chv_free(b->statics);
  bool on = b->on;
  memset(b, 0, sizeof *b);
  b->on = on;
}
