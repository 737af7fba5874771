/*
** The file formats of a table, behind one reader and one writer interface,
** so that the scan and the sink do not care which format a table stores:
** the table's SerDe and input format name it (TEXTFILE's LazySimpleSerDe
** and TextInputFormat, or nothing, which Hive reads as TEXTFILE; Parquet's
** ParquetHiveSerDe and MapredParquetInputFormat), and conn_reader and
** conn_writer dispatch to format/text or format/parquet.  Unknown formats
** are CHV_ENOTSUP naming the classes.  ORC tables (OrcSerde,
** OrcInputFormat) go to format/orc the same way.
**
** A reader of a split reads what Flink's reader of that split reads: the
** lines Hadoop's LineRecordReader gives it (text), the row groups whose
** midpoint lies in it (Parquet), the stripes starting in it (ORC).
**
** Parquet writer options come from the table's properties over the job's
** configuration (conn_table_option): parquet.compression, parquet.block.size,
** parquet.page.size, parquet.enable.dictionary, and the writer's own keys
** (chv_pq_write_options_set) from the table properties; ORC's likewise
** (orc.compress, orc.stripe.size, ..., chv_orc_write_options_set).
**
** conn_file_stats() reads what statistics take from a columnar file's
** footer (Parquet) or tail (ORC) alone, for the sink's statistics of loaded
** files and the source's reported statistics.
*/
#include "connector/connector_int.h"

#include <stdio.h>
#include <string.h>

/* Apply one writer option to a format's options (key and text value). */
typedef int (*set_fn)(void *opts, const char *key, const char *value,
                      struct chv_error *err);

/* A format's writer options from t: the registered keys layered (table,
** then cfg; a key without a value is left at its default), then any other
** table property under one of the prefixes, which the writer checks. */
static int writer_options(const struct chv_table *t, const chv_config *cfg,
                          const char *const *keys, size_t nkeys,
                          const char *const *prefixes, size_t nprefixes,
                          set_fn set, void *opts, struct chv_error *err) {
  for (size_t i = 0; i < nkeys; i++) {
    struct chv_opt_value v;
    chv_opt_value_init(&v);
    int rc = conn_table_option(t, cfg, keys[i], &v, err);
    char text[64];
    const char *val = NULL;
    if (rc == CHV_ENOENT) {
      rc = CHV_OK; /* no value, no default */
    } else if (rc == CHV_OK) {
      switch (v.type) {
      case CHV_OPT_BOOL: val = v.b ? "true" : "false"; break;
      case CHV_OPT_MEMORY:
        snprintf(text, sizeof text, "%lld", (long long)v.bytes);
        val = text;
        break;
      default: val = v.text; break;
      }
      if (val) rc = set(opts, keys[i], val, err);
    }
    chv_opt_value_free(&v);
    if (rc != CHV_OK) {
      chv_error_wrap(err, "table %s.%s", t->db, t->name);
      return rc;
    }
  }
  for (int i = 0; i < t->nparams; i++) {
    const char *k = t->params[i].key;
    bool done = false, ours = false;
    for (size_t j = 0; j < nkeys && !done; j++) done = !strcmp(k, keys[j]);
    for (size_t j = 0; j < nprefixes && !ours; j++)
      ours = !strncmp(k, prefixes[j], strlen(prefixes[j]));
    if (done || !ours) continue;
    int rc = set(opts, k, t->params[i].value, err);
    if (rc != CHV_OK) {
      chv_error_wrap(err, "table %s.%s", t->db, t->name);
      return rc;
    }
  }
  return CHV_OK;
}

static int pq_set(void *o, const char *key, const char *value,
                  struct chv_error *err) {
  return chv_pq_write_options_set(o, key, value, err);
}

static int parquet_options(const struct chv_table *t, const chv_config *cfg,
                           struct chv_pq_write_options *o,
                           struct chv_error *err) {
  static const char *const keys[] = {"parquet.compression", "parquet.block.size",
                                     "parquet.page.size",
                                     "parquet.enable.dictionary"};
  static const char *const prefixes[] = {"parquet.", "hive.parquet."};
  chv_pq_write_options_init(o);
  return writer_options(t, cfg, keys, CHV_ARRAY_SIZE(keys), prefixes,
                        CHV_ARRAY_SIZE(prefixes), pq_set, o, err);
}

/* orc.bloom.filter.columns is kept in the format (the writer borrows it). */
static int orc_set(void *arg, const char *key, const char *value,
                   struct chv_error *err) {
  struct conn_format *f = arg;
  if (strcmp(key, "orc.bloom.filter.columns") != 0)
    return chv_orc_write_options_set(&f->orc, key, value, err);
  if (strlen(value) >= sizeof f->orc_bloom)
    return chv_error_set(err, CHV_ERANGE,
                         "orc.bloom.filter.columns: longer than %zu bytes",
                         sizeof f->orc_bloom - 1);
  int rc = chv_orc_write_options_set(&f->orc, key, value, err);
  if (rc == CHV_OK) snprintf(f->orc_bloom, sizeof f->orc_bloom, "%s", value);
  f->orc.bloom_filter_columns = NULL; /* set again when a writer opens */
  return rc;
}

static int orc_options(const struct chv_table *t, const chv_config *cfg,
                       struct conn_format *f, struct chv_error *err) {
  static const char *const keys[] = {
      "orc.compress",         "orc.compress.size",
      "orc.stripe.size",      "orc.row.index.stride",
      "orc.create.index",     "orc.dictionary.key.threshold",
      "orc.bloom.filter.columns", "orc.bloom.filter.fpp"};
  static const char *const prefixes[] = {"orc."};
  chv_orc_write_options_init(&f->orc);
  return writer_options(t, cfg, keys, CHV_ARRAY_SIZE(keys), prefixes,
                        CHV_ARRAY_SIZE(prefixes), orc_set, f, err);
}

static bool has(const char *s, const char *word) {
  return strcasestr(s, word) != NULL;
}

int conn_table_format(const struct chv_table *t, const chv_config *cfg,
                      struct conn_format *f, struct chv_error *err) {
  memset(f, 0, sizeof *f);
  /* ACID tables are neither read nor written, as in Flink's connector
  ** (the key in any case; the value refused by the registry). */
  struct chv_opt_value acid;
  chv_opt_value_init(&acid);
  int rc = conn_table_option(t, NULL, "transactional", &acid, err);
  chv_opt_value_free(&acid);
  if (rc != CHV_OK && rc != CHV_ENOENT) return rc;
  chv_error_clear(err);
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
  if (has(serde, "orc") || has(in, "orc")) {
    f->kind = CONN_FMT_ORC;
    return orc_options(t, cfg, f, err);
  }
  return chv_error_set(err, CHV_ENOTSUP,
                       "table %s.%s: storage format (SerDe '%s', input "
                       "format '%s') is not supported; TEXTFILE, PARQUET "
                       "and ORC are",
                       t->db, t->name, serde, in);
}

const char *conn_format_suffix(const struct conn_format *f) {
  return f->kind == CONN_FMT_TEXT && f->text.compress ? ".gz" : "";
}

/* ---- reader ----------------------------------------------------------------- */

int conn_reader_open(const struct conn_format *f, const struct chv_fs *fs,
                     const char *path, const struct conn_read_args *a,
                     struct conn_reader *r, struct chv_error *err) {
  memset(r, 0, sizeof *r);
  r->kind = f->kind;
  bool whole = a->range_length < 0 ||
               (a->range_start == 0 && a->range_length == INT64_MAX);
  if (f->kind != CONN_FMT_TEXT) {
    if (a->ncols > CONN_MAX_COLUMNS)
      return chv_error_set(err, CHV_ERANGE, "%s: more than %d columns", path,
                           CONN_MAX_COLUMNS);
    for (int i = 0; i < a->ncols; i++)
      r->names[i] = a->file_schema->names[a->cols[i]];
  }
  if (f->kind == CONN_FMT_PARQUET) {
    struct chv_pq_read_options o;
    chv_pq_read_options_init(&o);
    o.table_schema = a->file_schema;
    o.columns = r->names;
    o.ncolumns = a->ncols;
    o.preds = a->preds;
    o.npreds = a->npreds;
    o.batch_rows = a->batch_rows;
    if (!whole) {
      /* The row groups whose midpoint lies in the range, as Flink's
      ** vectorized reader takes them (docs/splits.md). */
      o.range_start = a->range_start;
      o.range_length = a->range_length;
      o.range_rule = CHV_PQ_RANGE_MIDPOINT;
    }
    return chv_pq_reader_open(fs, path, &o, &r->pq, err);
  }
  if (f->kind == CONN_FMT_ORC) {
    struct chv_orc_read_options o;
    chv_orc_read_options_init(&o);
    o.table_schema = a->file_schema;
    o.columns = r->names;
    o.ncolumns = a->ncols;
    o.preds = a->preds;
    o.npreds = a->npreds;
    o.batch_rows = a->batch_rows;
    if (!whole) {
      o.range_start = a->range_start;
      o.range_length = a->range_length;
    }
    return chv_orc_reader_open(fs, path, &o, &r->orc, err);
  }
  struct chv_text_options o = f->text;
  o.columns = a->cols;
  o.ncolumns = a->ncols;
  o.batch_rows = a->batch_rows;
  /* The lines Hadoop's LineRecordReader gives the split; a compressed file
  ** is read whole by the split starting at 0. */
  o.range_start = whole ? 0 : a->range_start;
  o.range_length = whole ? -1 : a->range_length;
  return chv_text_reader_open(fs, path, a->file_schema, &o, &r->text, err);
}

const struct chv_type *conn_reader_schema(const struct conn_reader *r) {
  if (r->pq) return chv_pq_reader_schema(r->pq);
  if (r->orc) return chv_orc_reader_schema(r->orc);
  return chv_text_reader_schema(r->text);
}

int conn_reader_next(struct conn_reader *r, struct chv_batch *b,
                     int64_t *nrows, struct chv_error *err) {
  if (r->pq) return chv_pq_reader_next(r->pq, b, nrows, err);
  if (r->orc) return chv_orc_reader_next(r->orc, b, nrows, err);
  return chv_text_reader_next(r->text, b, nrows, err);
}

void conn_reader_stats(const struct conn_reader *r,
                       struct conn_read_stats *st) {
  if (r->pq) {
    struct chv_pq_read_stats ps;
    chv_pq_reader_stats(r->pq, &ps);
    st->row_groups += ps.row_groups;
    st->row_groups_skipped += ps.row_groups_skipped;
    st->bytes_read += ps.bytes_read;
  }
  if (r->orc) {
    struct chv_orc_read_stats os;
    chv_orc_reader_stats(r->orc, &os);
    st->stripes += os.stripes;
    st->stripes_skipped += os.stripes_skipped;
    st->row_groups += os.row_groups;
    st->row_groups_skipped += os.row_groups_skipped;
    st->bytes_read += os.bytes_read;
  }
  if (r->text) {
    struct chv_text_stats ts;
    chv_text_reader_stats(r->text, &ts);
    st->malformed += ts.malformed;
    st->bytes_read += ts.bytes_read;
  }
}

void conn_reader_close(struct conn_reader *r, struct conn_read_stats *st) {
  if (r->pq) {
    struct chv_pq_read_stats ps;
    chv_pq_reader_stats(r->pq, &ps);
    if (st) {
      st->row_groups += ps.row_groups;
      st->row_groups_skipped += ps.row_groups_skipped;
      st->bytes_read += ps.bytes_read;
    }
    chv_pq_reader_close(r->pq);
  }
  if (r->orc) {
    struct chv_orc_read_stats os;
    chv_orc_reader_stats(r->orc, &os);
    if (st) {
      st->stripes += os.stripes;
      st->stripes_skipped += os.stripes_skipped;
      st->row_groups += os.row_groups;
      st->row_groups_skipped += os.row_groups_skipped;
      st->bytes_read += os.bytes_read;
    }
    chv_orc_reader_close(r->orc);
  }
  if (r->text) {
    struct chv_text_stats ts;
    chv_text_reader_stats(r->text, &ts);
    if (st) {
      st->malformed += ts.malformed;
      st->bytes_read += ts.bytes_read;
    }
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
  if (f->kind == CONN_FMT_ORC) {
    struct chv_orc_write_options o = f->orc;
    o.bloom_filter_columns = f->orc_bloom[0] ? f->orc_bloom : NULL;
    return chv_orc_writer_open(fs, path, schema, &o, &w->orc, err);
  }
  return chv_text_writer_open(fs, path, schema, &f->text, &w->text, err);
}

bool conn_writer_is_open(const struct conn_writer *w) {
  return w->text != NULL || w->pq != NULL || w->orc != NULL;
}

int conn_writer_write(struct conn_writer *w, const struct chv_batch *b,
                      struct chv_error *err) {
  if (w->pq) return chv_pq_writer_write(w->pq, b, err);
  if (w->orc) return chv_orc_writer_write(w->orc, b, err);
  return chv_text_writer_write(w->text, b, err);
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
  if (w->orc) {
    struct chv_orc_write_stats os;
    int rc = chv_orc_writer_finish(w->orc, &os, err);
    chv_orc_writer_close(w->orc);
    w->orc = NULL;
    if (rc != CHV_OK) return rc;
    st->rows = os.rows;
    st->raw_bytes = os.raw_bytes;
    st->file_bytes = os.file_bytes;
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
  chv_orc_writer_close(w->orc);
  memset(w, 0, sizeof *w);
}

int conn_file_stats(enum conn_fmt kind, const struct chv_fs *fs,
                    const char *path, int64_t *rows, int64_t *raw_bytes,
                    struct chv_error *err) {
  if (kind == CONN_FMT_ORC) {
    struct chv_orc_file_stats os;
    CHV_RETURN_IF_ERR(chv_orc_file_stats(fs, path, &os, err));
    *rows = os.num_rows;
    *raw_bytes = os.raw_data_size;
    return CHV_OK;
  }
  if (kind == CONN_FMT_PARQUET) {
    struct chv_pq_file_stats ps;
    CHV_RETURN_IF_ERR(chv_pq_file_stats(fs, path, &ps, err));
    *rows = ps.num_rows;
    *raw_bytes = ps.raw_data_size;
    return CHV_OK;
  }
  return chv_error_set(err, CHV_ENOTSUP,
                       "%s: a text file has no footer to count its rows", path);
}
