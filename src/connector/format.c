/*
** The file formats of a table, behind one reader and one writer interface,
** so that the scan and the sink do not care which format a table stores:
** the table's SerDe and input format name it (TEXTFILE's LazySimpleSerDe
** and TextInputFormat, or nothing, which Hive reads as TEXTFILE; Parquet's
** ParquetHiveSerDe and MapredParquetInputFormat), and conn_reader and
** conn_writer dispatch to format/text or format/parquet.  Unknown formats
** are CHV_ENOTSUP naming the classes.
**
** Parquet writer options come from the table's properties over the job's
** configuration (conn_table_option): parquet.compression, parquet.block.size,
** parquet.page.size, parquet.enable.dictionary, and the writer's own keys
** (chv_pq_write_options_set) from the table properties.
*/
#include "connector/connector_int.h"

#include <stdio.h>
#include <string.h>

/* The Parquet writer options of t: registered parquet.* options layered
** (table, then cfg), then any other key the writer knows from the table. */
static int parquet_options(const struct chv_table *t, const chv_config *cfg,
                           struct chv_pq_write_options *o,
                           struct chv_error *err) {
  chv_pq_write_options_init(o);
  static const char *const keys[] = {"parquet.compression", "parquet.block.size",
                                     "parquet.page.size",
                                     "parquet.enable.dictionary"};
  for (size_t i = 0; i < CHV_ARRAY_SIZE(keys); i++) {
    struct chv_opt_value v;
    chv_opt_value_init(&v);
    int rc = conn_table_option(t, cfg, keys[i], &v, err);
    char text[64];
    const char *val = NULL;
    if (rc == CHV_OK) {
      switch (v.type) {
      case CHV_OPT_BOOL: val = v.b ? "true" : "false"; break;
      case CHV_OPT_MEMORY:
        snprintf(text, sizeof text, "%lld", (long long)v.bytes);
        val = text;
        break;
      default: val = v.text; break;
      }
      if (val) rc = chv_pq_write_options_set(o, keys[i], val, err);
    }
    chv_opt_value_free(&v);
    if (rc != CHV_OK) {
      chv_error_wrap(err, "table %s.%s", t->db, t->name);
      return rc;
    }
  }
  for (int i = 0; i < t->nparams; i++) {
    const char *k = t->params[i].key;
    bool done = false;
    for (size_t j = 0; j < CHV_ARRAY_SIZE(keys) && !done; j++)
      done = !strcmp(k, keys[j]);
    if (done || (strncmp(k, "parquet.", 8) && strncmp(k, "hive.parquet.", 13)))
      continue;
    int rc = chv_pq_write_options_set(o, k, t->params[i].value, err);
    if (rc != CHV_OK) {
      chv_error_wrap(err, "table %s.%s", t->db, t->name);
      return rc;
    }
  }
  return CHV_OK;
}

static bool has(const char *s, const char *word) {
  return strcasestr(s, word) != NULL;
}

int conn_table_format(const struct chv_table *t, const chv_config *cfg,
                      struct conn_format *f, struct chv_error *err) {
  memset(f, 0, sizeof *f);
  const char *serde = t->serde_lib ? t->serde_lib : "";
  const char *in = t->input_format ? t->input_format : "";
  if ((serde[0] == '\0' || strstr(serde, "LazySimpleSerDe")) &&
      (in[0] == '\0' || strstr(in, "TextInputFormat"))) {
    f->kind = CONN_FMT_TEXT;
    return conn_table_text_options(t, &f->text, err);
  }
  if (has(serde, "parquet") || has(in, "parquet")) {
    f->kind = CONN_FMT_PARQUET;
    return parquet_options(t, cfg, &f->parquet, err);
  }
  return chv_error_set(err, CHV_ENOTSUP,
                       "table %s.%s: storage format (SerDe '%s', input "
                       "format '%s') is not supported yet; TEXTFILE is",
                       t->db, t->name, serde, in);
}

const char *conn_format_suffix(const struct conn_format *f) {
  return f->kind == CONN_FMT_TEXT && f->text.compress ? ".gz" : "";
}

/* ---- reader ----------------------------------------------------------------- */

int conn_reader_open(const struct conn_format *f, const struct chv_fs *fs,
                     const char *path, const struct chv_type *file_schema,
                     const int *cols, int ncols, int64_t batch_rows,
                     const struct chv_pred *preds, int npreds,
                     struct conn_reader *r, struct chv_error *err) {
  memset(r, 0, sizeof *r);
  r->kind = f->kind;
  if (f->kind == CONN_FMT_PARQUET) {
    if (ncols > CONN_MAX_COLUMNS)
      return chv_error_set(err, CHV_ERANGE, "%s: more than %d columns", path,
                           CONN_MAX_COLUMNS);
    for (int i = 0; i < ncols; i++) r->names[i] = file_schema->names[cols[i]];
    struct chv_pq_read_options o;
    chv_pq_read_options_init(&o);
    o.table_schema = file_schema;
    o.columns = r->names;
    o.ncolumns = ncols;
    o.preds = preds;
    o.npreds = npreds;
    o.batch_rows = batch_rows;
    return chv_pq_reader_open(fs, path, &o, &r->pq, err);
  }
  struct chv_text_options o = f->text;
  o.columns = cols;
  o.ncolumns = ncols;
  o.batch_rows = batch_rows;
  return chv_text_reader_open(fs, path, file_schema, &o, &r->text, err);
}

const struct chv_type *conn_reader_schema(const struct conn_reader *r) {
  return r->pq ? chv_pq_reader_schema(r->pq) : chv_text_reader_schema(r->text);
}

int conn_reader_next(struct conn_reader *r, struct chv_batch *b,
                     int64_t *nrows, struct chv_error *err) {
  if (r->pq) return chv_pq_reader_next(r->pq, b, nrows, err);
  return chv_text_reader_next(r->text, b, nrows, err);
}

void conn_reader_close(struct conn_reader *r, struct conn_read_stats *st) {
  if (r->pq) {
    struct chv_pq_read_stats ps;
    chv_pq_reader_stats(r->pq, &ps);
    if (st) {
      st->row_groups += ps.row_groups;
      st->row_groups_skipped += ps.row_groups_skipped;
    }
    chv_pq_reader_close(r->pq);
  }
  if (r->text) {
    struct chv_text_stats ts;
    chv_text_reader_stats(r->text, &ts);
    if (st) st->malformed += ts.malformed;
    chv_text_reader_close(r->text);
  }
  memset(r, 0, sizeof *r);
}

/* ---- writer ----------------------------------------------------------------- */

int conn_writer_open(const struct conn_format *f, const struct chv_fs *fs,
                     const char *path, const struct chv_type *schema,
                     struct conn_writer *w, struct chv_error *err) {
  memset(w, 0, sizeof *w);
  w->kind = f->kind;
  if (f->kind == CONN_FMT_PARQUET)
    return chv_pq_writer_open(fs, path, schema, &f->parquet, &w->pq, err);
  return chv_text_writer_open(fs, path, schema, &f->text, &w->text, err);
}

bool conn_writer_is_open(const struct conn_writer *w) {
  return w->text != NULL || w->pq != NULL;
}

int conn_writer_write(struct conn_writer *w, const struct chv_batch *b,
                      int64_t *raw_bytes, struct chv_error *err) {
  if (w->pq) {
    struct chv_pq_write_stats before, after;
    chv_pq_writer_stats(w->pq, &before);
    int rc = chv_pq_writer_write(w->pq, b, err);
    chv_pq_writer_stats(w->pq, &after);
    *raw_bytes = after.raw_bytes - before.raw_bytes;
    return rc;
  }
  struct chv_text_write_stats before, after;
  chv_text_writer_stats(w->text, &before);
  int rc = chv_text_writer_write(w->text, b, err);
  chv_text_writer_stats(w->text, &after);
  *raw_bytes = after.raw_bytes - before.raw_bytes;
  return rc;
}

int conn_writer_finish(struct conn_writer *w, struct conn_write_stats *st,
                       struct chv_error *err) {
  if (w->pq) {
    struct chv_pq_write_stats ps;
    int rc = chv_pq_writer_finish(w->pq, &ps, err);
    chv_pq_writer_close(w->pq);
    w->pq = NULL;
    if (rc != CHV_OK) return rc;
    st->rows = ps.rows;
    st->raw_bytes = ps.raw_bytes;
    st->file_bytes = ps.file_bytes;
    return CHV_OK;
  }
  struct chv_text_write_stats ts;
  int rc = chv_text_writer_finish(w->text, &ts, err);
  chv_text_writer_close(w->text);
  w->text = NULL;
  if (rc != CHV_OK) return rc;
  st->rows = ts.rows;
  st->raw_bytes = ts.raw_bytes;
  st->file_bytes = ts.file_bytes;
  return CHV_OK;
}

void conn_writer_close(struct conn_writer *w) {
  chv_text_writer_close(w->text);
  chv_pq_writer_close(w->pq);
  memset(w, 0, sizeof *w);
}
