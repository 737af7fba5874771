/*
** The file formats of a table, behind one reader and one writer interface,
** so that the scan and the sink do not care which format a table stores:
** the table's SerDe and input format name it (TEXTFILE's LazySimpleSerDe
** and TextInputFormat, or nothing, which Hive reads as TEXTFILE), and
** conn_reader/conn_writer dispatch to format/text (and the other formats
** as they are built).  Unknown formats are CHV_ENOTSUP naming the classes.
*/
#include "connector/connector_int.h"

#include <string.h>

int conn_table_format(const struct chv_table *t, struct conn_format *f,
                      struct chv_error *err) {
  memset(f, 0, sizeof *f);
  const char *serde = t->serde_lib ? t->serde_lib : "";
  const char *in = t->input_format ? t->input_format : "";
  if ((serde[0] == '\0' || strstr(serde, "LazySimpleSerDe")) &&
      (in[0] == '\0' || strstr(in, "TextInputFormat"))) {
    f->kind = CONN_FMT_TEXT;
    return conn_table_text_options(t, &f->text, err);
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
                     struct conn_reader *r, struct chv_error *err) {
  memset(r, 0, sizeof *r);
  r->kind = f->kind;
  struct chv_text_options o = f->text;
  o.columns = cols;
  o.ncolumns = ncols;
  o.batch_rows = batch_rows;
  return chv_text_reader_open(fs, path, file_schema, &o, &r->text, err);
}

const struct chv_type *conn_reader_schema(const struct conn_reader *r) {
  return chv_text_reader_schema(r->text);
}

int conn_reader_next(struct conn_reader *r, struct chv_batch *b,
                     int64_t *nrows, struct chv_error *err) {
  return chv_text_reader_next(r->text, b, nrows, err);
}

void conn_reader_close(struct conn_reader *r, struct conn_read_stats *st) {
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
  return chv_text_writer_open(fs, path, schema, &f->text, &w->text, err);
}

bool conn_writer_is_open(const struct conn_writer *w) { return w->text != NULL; }

int conn_writer_write(struct conn_writer *w, const struct chv_batch *b,
                      int64_t *raw_bytes, struct chv_error *err) {
  struct chv_text_write_stats before, after;
  chv_text_writer_stats(w->text, &before);
  int rc = chv_text_writer_write(w->text, b, err);
  chv_text_writer_stats(w->text, &after);
  *raw_bytes = after.raw_bytes - before.raw_bytes;
  return rc;
}

int conn_writer_finish(struct conn_writer *w, struct conn_write_stats *st,
                       struct chv_error *err) {
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
  memset(w, 0, sizeof *w);
}
