/*
** Dynamic partitions: a batch whose trailing columns hold the values of the
** partition keys not given statically is split by those values and each
** part written to its partition (Hive's and Flink's dynamic partition
** insert; all-dynamic inserts are allowed, as Flink is always "nonstrict").
**
** Routing.  Each row's dynamic values, as bytes (a NULL flag, then the
** value's fixed-width bytes or a string's length and bytes), are looked up
** in the writer's map of values to partitions; only a value not seen
** before is printed as Hive prints it and its partition path computed
** (values printing alike, such as NULL and '', share the partition).  The
** rows are then grouped by partition with a counting sort that keeps their
** order, and each group gathered in bulk (chv_vector_append_rows) and
** written; a batch of one partition is written as it is.
**
** With table.exec.hive.sink.sort-by-dynamic-partition.enable (the default)
** a writer keeps one file open.  The rows of the partition whose file is
** open are written into it as they come (and, while nothing is held,
** those of a batch's first partition, whose file then replaces the open
** one); the others are held, per writer and partition, in runs of up to
** CONN_SORT_ROWS rows or CONN_SORT_BYTES bytes, and a full run (or the
** commit) writes them one partition at a time.  Flink sorts the whole
** input with an external sort; chive's bounded runs give a partition one
** file per run and writer instead of one per writer, and rows arriving
** grouped by partition (a scan of a table partitioned alike) are written
** without being held, one file per partition and writer.
*/
#include "connector/connector_int.h"
#include "format/text/jsonl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Rows gathered into one batch at a time for a partition's file. */
#define GATHER_ROWS 16384

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

static int write_grouped(struct conn_sink_writer *w, int nstatic,
                         char *const *static_values,
                         const struct chv_batch *batch, struct chv_error *err);
static int sort_append(struct conn_sink_writer *w, int nstatic,
                       char *const *static_values,
                       const struct chv_batch *batch, struct chv_error *err);

int chv_sink_write_dynamic(chv_sink *s, int nstatic,
                           char *const *static_values,
                           const struct chv_batch *batch,
                           struct chv_error *err) {
  const struct chv_table *t = conn_sink_table(s);
  const struct chv_type *data = conn_sink_data_schema(s);
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
  struct conn_sink_writer *w;
  CHV_RETURN_IF_ERR(conn_sink_writer_get(s, &w, err));
  int rc = w->sort.on && ndyn > 0
               ? sort_append(w, nstatic, static_values, batch, err)
               : write_grouped(w, nstatic, static_values, batch, err);
  conn_sink_writer_put(s, w);
  if (rc == CHV_OK) conn_sink_count(s, batch);
  return rc;
}

/* ---- routing ------------------------------------------------------------------ */

static bool same_values(char *const *a, int na, char *const *b, int nb) {
  if (na != nb) return false;
  for (int i = 0; i < na; i++) {
    const char *x = a[i], *y = b[i];
    if ((x == NULL) != (y == NULL) || (x && strcmp(x, y))) return false;
  }
  return true;
}

/* The routing of w serves the static values given: a map built for others
** is dropped. */
static int keys_for_statics(struct conn_sink_writer *w, int nstatic,
                            char *const *statics, struct chv_error *err) {
  if (w->key_ready &&
      same_values(w->key_statics, w->key_nstatic, statics, nstatic))
    return CHV_OK;
  conn_bytemap_free(&w->by_key);
  chv_strv_free(w->key_statics, w->key_nstatic);
  w->key_statics = NULL;
  w->key_nstatic = 0;
  w->key_ready = false;
  if (nstatic > 0) {
    w->key_statics = chv_calloc((size_t)nstatic, sizeof *w->key_statics);
    if (w->key_statics == NULL)
      return chv_error_set(err, CHV_ENOMEM, "out of memory");
    w->key_nstatic = nstatic;
    for (int i = 0; i < nstatic; i++)
      if (statics[i] && (w->key_statics[i] = chv_strdup(statics[i])) == NULL)
        return chv_error_set(err, CHV_ENOMEM, "out of memory");
  }
  w->key_ready = true;
  return CHV_OK;
}

/* Row r's dynamic values (columns from .. from + ndyn of b) as bytes: a
** NULL flag, then a value's fixed-width bytes, or a string's length and
** bytes.  Written to out when they fit in cap bytes; returns how many
** they are. */
static size_t row_key(const struct chv_batch *b, int from, int ndyn,
                      int64_t r, uint8_t *out, size_t cap) {
  size_t n = 0;
  for (int k = 0; k < ndyn; k++) {
    const struct chv_vector *v = b->cols[from + k];
    if (chv_vector_is_null(v, r)) {
      if (n < cap) out[n] = 0;
      n++;
      continue;
    }
    enum chv_type_id id = v->type->id;
    if (chv_type_is_string_like(id)) {
      int32_t lo = v->offsets[r], len = v->offsets[r + 1] - lo;
      if (n + 5 + (size_t)len <= cap) {
        out[n] = 1;
        memcpy(out + n + 1, &len, 4);
        memcpy(out + n + 5, v->bytes + lo, (size_t)len);
      }
      n += 5 + (size_t)len;
      continue;
    }
    size_t wd = id == CHV_TYPE_BOOLEAN ? 1 : chv_type_fixed_width(id);
    if (n + 1 + wd <= cap) {
      uint8_t *o = out + n;
      const char *d = (const char *)v->data;
      o[0] = 1;
      switch (wd) { /* constant-size copies */
      case 1:
        o[1] = id == CHV_TYPE_BOOLEAN ? chv_bit_get(v->data, r)
                                      : (uint8_t)d[r];
        break;
      case 2: memcpy(o + 1, d + r * 2, 2); break;
      case 4: memcpy(o + 1, d + r * 4, 4); break;
      case 8: memcpy(o + 1, d + r * 8, 8); break;
      default: memcpy(o + 1, d + (size_t)r * wd, wd); break;
      }
    }
    n += 1 + wd;
  }
  return n;
}

/* Keys of up to KEY_WORDS * 8 bytes are built in zeroed words, so that
** two compare word by word. */
#define KEY_WORDS 8

/* The partition of row r, whose dynamic values were not seen before:
** their text as Hive prints it, after the static values. */
static int new_key_part(struct conn_sink_writer *w, int nstatic,
                        char *const *statics, const struct chv_batch *b,
                        int from, int ndyn, int64_t r, int *index,
                        struct chv_error *err) {
  int nkeys = nstatic + ndyn;
  char **values = chv_calloc((size_t)nkeys + 1, sizeof *values);
  if (values == NULL) return chv_error_set(err, CHV_ENOMEM, "out of memory");
  for (int i = 0; i < nstatic; i++) values[i] = statics[i];
  int rc = CHV_OK;
  char buf[64];
  for (int k = 0; k < ndyn && rc == CHV_OK; k++) {
    size_t len = 0;
    const char *txt = part_text(b->cols[from + k], r, buf, &len);
    values[nstatic + k] = txt ? chv_strndup(txt, len) : NULL;
    if (txt && values[nstatic + k] == NULL)
      rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
  }
  if (rc == CHV_OK) rc = conn_writer_part(w, values, index, err);
  for (int k = 0; k < ndyn; k++) chv_free(values[nstatic + k]);
  chv_free(values);
  return rc;
}

/* Room for the routing of n rows over w's parts. */
static int route_scratch(struct conn_sink_writer *w, int64_t n,
                         struct chv_error *err) {
  if (n > w->cap_rows) {
    int32_t *rp = chv_realloc(w->row_part, (size_t)n * sizeof *rp);
    if (rp == NULL) return chv_error_set(err, CHV_ENOMEM, "out of memory");
    w->row_part = rp;
    uint32_t *o = chv_realloc(w->order, (size_t)n * sizeof *o);
    if (o == NULL) return chv_error_set(err, CHV_ENOMEM, "out of memory");
    w->order = o;
    w->cap_rows = n;
  }
  return CHV_OK;
}

static int grow_group_of(struct conn_sink_writer *w, struct chv_error *err) {
  if (w->nparts <= w->cap_group_of) return CHV_OK;
  int cap = CHV_MAX(w->nparts, 2 * w->cap_group_of);
  int32_t *g = chv_realloc(w->group_of, (size_t)cap * sizeof *g);
  if (g == NULL) return chv_error_set(err, CHV_ENOMEM, "out of memory");
  for (int i = w->cap_group_of; i < cap; i++) g[i] = -1;
  w->group_of = g;
  w->cap_group_of = cap;
  return CHV_OK;
}

/* Write rows order[0..n) of b (data columns first) to part index. */
static int write_rows(struct conn_sink_writer *w, int index,
                      const struct chv_batch *b, const uint32_t *order,
                      int64_t n, struct chv_error *err) {
  const struct chv_type *data = conn_sink_data_schema(w->sink);
  if (n == b->nrows) { /* every row, in order: the batch as it is */
    struct chv_batch view = {.schema = data, .nrows = n,
                             .ncols = data->nchildren, .cols = b->cols};
    return conn_writer_write_part(w, index, &view, err);
  }
  if (w->gather == NULL)
    CHV_RETURN_IF_ERR(chv_batch_open(data, CHV_MIN(n, GATHER_ROWS), &w->gather,
                                     err));
  for (int64_t lo = 0; lo < n; lo += GATHER_ROWS) {
    int64_t m = CHV_MIN(n - lo, GATHER_ROWS);
    chv_batch_reset(w->gather);
    for (int c = 0; c < data->nchildren; c++)
      CHV_RETURN_IF_ERR(chv_vector_append_rows(w->gather->cols[c], b->cols[c],
                                               order + lo, 0, m, err));
    w->gather->nrows = m;
    CHV_RETURN_IF_ERR(conn_writer_write_part(w, index, w->gather, err));
  }
  return CHV_OK;
}

/* The rows of a batch grouped by partition: group g holds the rows
** w->order[start[g] .. start[g + 1]) of part[g] (an index in w->parts), in
** the order they came; groups in the order of their first rows. */
struct groups {
  int n;
  int32_t *part;
  int64_t *start;
};

static void groups_free(struct groups *g) {
  chv_free(g->part);
  chv_free(g->start);
  memset(g, 0, sizeof *g);
}

/* Group the rows of batch (checked; ndyn > 0 dynamic keys) by partition,
** the partitions of values not seen before added to w. */
static int route_groups(struct conn_sink_writer *w, int nstatic,
                        char *const *static_values,
                        const struct chv_batch *batch, struct groups *gr,
                        struct chv_error *err) {
  const struct chv_table *t = conn_sink_table(w->sink);
  int from = conn_sink_data_schema(w->sink)->nchildren;
  int ndyn = t->npkeys - nstatic;
  int64_t n = batch->nrows;
  memset(gr, 0, sizeof *gr);
  CHV_RETURN_IF_ERR(keys_for_statics(w, nstatic, static_values, err));
  CHV_RETURN_IF_ERR(route_scratch(w, n, err));
  int rc = CHV_OK;
  struct chv_buf big; /* a key longer than the words */
  chv_buf_init(&big);
  /* Each row's part, by its values (the row before's when they are the
  ** same, else from the map). */
  uint64_t kw[KEY_WORDS], last[KEY_WORDS];
  size_t last_len = SIZE_MAX;
  int last_part = -1;
  for (int64_t r = 0; r < n && rc == CHV_OK; r++) {
    memset(kw, 0, sizeof kw);
    size_t len = row_key(batch, from, ndyn, r, (uint8_t *)kw, sizeof kw);
    const void *key = kw;
    if (len <= sizeof kw) {
      if (len == last_len) {
        size_t nw = (len + 7) / 8, k = 0;
        while (k < nw && kw[k] == last[k]) k++;
        if (k == nw) {
          w->row_part[r] = last_part;
          continue;
        }
      }
    } else {
      chv_buf_reset(&big);
      if (chv_buf_reserve(&big, len)) {
        rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
        break;
      }
      row_key(batch, from, ndyn, r, (uint8_t *)big.data, len);
      key = big.data;
    }
    uint64_t h = conn_hash_bytes(key, len);
    int index = conn_bytemap_get(&w->by_key, key, len, h);
    if (index < 0) {
      rc = new_key_part(w, nstatic, static_values, batch, from, ndyn, r,
                        &index, err);
      if (rc == CHV_OK && conn_bytemap_put(&w->by_key, key, len, h, index))
        rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
      if (rc != CHV_OK) break;
    }
    w->row_part[r] = index;
    if (len <= sizeof kw) {
      memcpy(last, kw, sizeof kw);
      last_len = len;
      last_part = index;
    } else {
      last_len = SIZE_MAX;
    }
  }
  chv_buf_free(&big);
  if (rc == CHV_OK) rc = grow_group_of(w, err);
  if (rc != CHV_OK) return rc;
  /* A counting sort by group keeps the rows' order within each. */
  size_t most = (size_t)CHV_MIN(n, w->nparts);
  gr->part = chv_malloc(most * sizeof *gr->part + 1);
  gr->start = chv_calloc(most + 1, sizeof *gr->start);
  if (gr->part == NULL || gr->start == NULL) {
    groups_free(gr);
    return chv_error_set(err, CHV_ENOMEM, "out of memory");
  }
  for (int64_t r = 0; r < n; r++) {
    int32_t p = w->row_part[r];
    int32_t g = w->group_of[p];
    if (g < 0) {
      g = w->group_of[p] = gr->n++;
      gr->part[g] = p;
    }
    gr->start[g + 1]++;
    w->row_part[r] = g;
  }
  for (int g = 0; g < gr->n; g++) {
    w->group_of[gr->part[g]] = -1;
    gr->start[g + 1] += gr->start[g];
  }
  for (int64_t r = 0; r < n; r++)
    w->order[gr->start[w->row_part[r]]++] = (uint32_t)r;
  for (int g = gr->n; g > 0; g--) gr->start[g] = gr->start[g - 1];
  gr->start[0] = 0;
  return CHV_OK;
}

/* Splits batch (checked) by its dynamic partition values and writes each
** part to its partition, the partitions whose files are open first. */
static int write_grouped(struct conn_sink_writer *w, int nstatic,
                         char *const *static_values,
                         const struct chv_batch *batch, struct chv_error *err) {
  const struct chv_table *t = conn_sink_table(w->sink);
  int ndyn = t->npkeys - nstatic;
  int64_t n = batch->nrows;
  if (n == 0 && ndyn > 0) return CHV_OK;
  if (ndyn == 0) { /* one partition, maybe of no rows */
    int index;
    CHV_RETURN_IF_ERR(conn_writer_part(w, t->npkeys ? static_values : NULL,
                                       &index, err));
    return write_rows(w, index, batch, NULL, n, err);
  }
  struct groups gr;
  CHV_RETURN_IF_ERR(route_groups(w, nstatic, static_values, batch, &gr, err));
  /* Partitions with an open file first: a sorted run continues the file
  ** the writer has open instead of starting one.  (Which files are open
  ** is read before writing: a write may finish another partition's.) */
  int rc = CHV_OK;
  int *gorder = chv_malloc((size_t)gr.n * sizeof *gorder + 1);
  if (gorder == NULL) rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
  int k = 0;
  for (int pass = 0; rc == CHV_OK && pass < 2; pass++)
    for (int g = 0; g < gr.n; g++)
      if (conn_writer_is_open(&w->parts[gr.part[g]].w) == (pass == 0))
        gorder[k++] = g;
  for (k = 0; rc == CHV_OK && k < gr.n; k++) {
    int g = gorder[k];
    rc = write_rows(w, gr.part[g], batch, w->order + gr.start[g],
                    gr.start[g + 1] - gr.start[g], err);
  }
  chv_free(gorder);
  groups_free(&gr);
  return rc;
}

/* ---- sorted runs ----------------------------------------------------------- */

static int64_t held_bytes(const struct chv_batch *b) {
  int64_t n = 0;
  for (int c = 0; c < b->ncols; c++) {
    const struct chv_vector *v = b->cols[c];
    size_t wd = chv_type_fixed_width(v->type->id);
    n += v->bytes_len + v->length * (int64_t)(wd ? wd : 4);
  }
  return n;
}

/* Hold rows[0..m) of batch (data columns first) for part p of w. */
static int hold_rows(struct conn_sink_writer *w, int32_t p,
                     const struct chv_batch *batch, const uint32_t *rows,
                     int64_t m, struct chv_error *err) {
  struct conn_sortbuf *b = &w->sort;
  const struct chv_type *data = conn_sink_data_schema(w->sink);
  if (p >= b->cap_held) {
    int cap = CHV_MAX(w->nparts, 2 * b->cap_held);
    struct chv_batch **v = chv_realloc(b->held, (size_t)cap * sizeof *v);
    if (v == NULL) return chv_error_set(err, CHV_ENOMEM, "out of memory");
    for (int i = b->cap_held; i < cap; i++) v[i] = NULL;
    b->held = v;
    b->cap_held = cap;
  }
  if (b->held[p] == NULL)
    CHV_RETURN_IF_ERR(chv_batch_open(data, CHV_MIN(m, 1024), &b->held[p], err));
  struct chv_batch *h = b->held[p];
  if (h->nrows == 0) { /* the part begins to hold rows in this run */
    if (b->norder == b->cap_order) {
      int cap = b->cap_order ? 2 * b->cap_order : 16;
      int32_t *o = chv_realloc(b->order, (size_t)cap * sizeof *o);
      if (o == NULL) return chv_error_set(err, CHV_ENOMEM, "out of memory");
      b->order = o;
      b->cap_order = cap;
    }
    b->order[b->norder++] = p;
  }
  int64_t before = held_bytes(h);
  for (int c = 0; c < data->nchildren; c++)
    CHV_RETURN_IF_ERR(chv_vector_append_rows(h->cols[c], batch->cols[c],
                                             m == batch->nrows ? NULL : rows,
                                             0, m, err));
  h->nrows += m;
  b->rows += m;
  b->bytes += held_bytes(h) - before;
  return CHV_OK;
}

/* A batch of a sorted write: the rows of the partition whose file is open
** go into that file, and while nothing is held the rows of the first
** partition of the batch too (its file replacing the one open); the others
** are held, by partition.  So rows that come grouped by partition (a scan
** of a table partitioned alike) are written as they come, and no rows are
** held for the partition whose file is open: each partition's rows are
** together in its files, as a sort would put them. */
static int sort_append(struct conn_sink_writer *w, int nstatic,
                       char *const *static_values,
                       const struct chv_batch *batch, struct chv_error *err) {
  struct conn_sortbuf *b = &w->sort;
  if (batch->nrows == 0) return CHV_OK;
  struct groups gr;
  CHV_RETURN_IF_ERR(route_groups(w, nstatic, static_values, batch, &gr, err));
  int rc = CHV_OK;
  bool direct_free = b->rows == 0;
  for (int g = 0; rc == CHV_OK && g < gr.n; g++) {
    int32_t p = gr.part[g];
    const uint32_t *rows = w->order + gr.start[g];
    int64_t m = gr.start[g + 1] - gr.start[g];
    if (conn_writer_is_open(&w->parts[p].w) || direct_free) {
      direct_free = false;
      rc = write_rows(w, p, batch, rows, m, err);
    } else {
      rc = hold_rows(w, p, batch, rows, m, err);
    }
  }
  groups_free(&gr);
  if (rc != CHV_OK) return rc;
  if (b->rows >= CONN_SORT_ROWS || b->bytes >= CONN_SORT_BYTES)
    return conn_writer_flush_sorted(w, err);
  return CHV_OK;
}

int conn_writer_flush_sorted(struct conn_sink_writer *w,
                             struct chv_error *err) {
  struct conn_sortbuf *b = &w->sort;
  int rc = CHV_OK;
  for (int k = 0; rc == CHV_OK && k < b->norder; k++) {
    struct chv_batch *h = b->held[b->order[k]];
    rc = write_rows(w, b->order[k], h, NULL, h->nrows, err);
    chv_batch_reset(h);
    h->nrows = 0;
  }
  b->norder = 0;
  b->rows = 0;
  b->bytes = 0;
  return rc;
}

void conn_sortbuf_free(struct conn_sortbuf *b) {
  for (int i = 0; i < b->cap_held; i++) chv_batch_close(b->held[i]);
  chv_free(b->held);
  chv_free(b->order);
  bool on = b->on;
  memset(b, 0, sizeof *b);
  b->on = on;
}

void conn_writer_free_dynamic(struct conn_sink_writer *w) {
  conn_sortbuf_free(&w->sort);
  conn_bytemap_free(&w->by_key);
  chv_strv_free(w->key_statics, w->key_nstatic);
  chv_free(w->row_part);
  chv_free(w->order);
  chv_free(w->group_of);
  chv_batch_close(w->gather);
}
