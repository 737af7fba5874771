/*
** sql/session/analyze: ANALYZE TABLE t [PARTITION (k[=v], ...)] COMPUTE
** STATISTICS [NOSCAN | FOR COLUMNS [c, ...] | FOR ALL COLUMNS], as Hive
** and Flink's batch mode run it, and DESCRIBE [FORMATTED] t [PARTITION
** (...)] col, which prints a column's statistics as Hive does.
**
** ANALYZE reads the table (or the partitions the spec names: a key given
** without a value, or left out, means all its values) through the source's
** splits (chive/source.h), planned for and read on the threads a query's
** scan of the same partitions gets.  Per partition (an unpartitioned
** table: the table) it stores, as Hive keeps them:
**
**   numFiles, totalSize   the visible files the splits come from, and
**                         their bytes (NOSCAN stores only these)
**   numRows               the rows read
**   rawDataSize           Parquet and ORC: the footers' figure (the sink
**                         stores the same); text: the bytes of the rows,
**                         known for uncompressed files (their size)
**   COLUMN_STATS_ACCURATE BASIC_STATS true (with NOSCAN: left as it was)
**
** and with FOR COLUMNS, each column's statistics (catalog/colstats.c):
** nulls; distinct values (common/hll.c: exact up to 1024, then a
** HyperLogLog of 2^14 registers, 0.81% standard error); low and high
** values of numbers, decimals, dates and timestamps (seconds); average and
** longest length of strings (characters; CHAR without its padding) and
** binaries (bytes); trues and falses of booleans.  Columns of nested types
** are skipped when every column is asked for and refused when named, as
** Hive refuses them.  Partitions are read in groups of GROUP partitions,
** each group's statistics stored in one transaction once it is read, so
** the memory held is bounded by the group, not the table.
**
** INTERFACE: sql_exec_analyze(), sql_describe_column() (session_int.h)
*/
#include "chive/source.h"
#include "sql/func/func.h"
#include "sql/session/session_int.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define GROUP 32

/* ---- accumulating one column ----------------------------------------------- */

struct col_acc {
  int64_t nulls, values;
  bool has;                /* a low and high were seen */
  int64_t lo, hi;          /* LONG, DATE, TIMESTAMP (seconds) */
  double dlo, dhi;         /* DOUBLE */
  chv_i128 declo, dechi;   /* DECIMAL, unscaled */
  int64_t len_sum, len_max;
  int64_t trues, falses;
  struct chv_hll ndv;
};

/* A column analyzed: its place in the projection and its kind. */
struct acol {
  const struct chv_column *col;
  int field;               /* index in the table's data columns */
  enum chv_colstats_kind kind;
  const struct chv_type *type; /* parsed */
};

static int add_hash(struct col_acc *a, const void *p, size_t n) {
  return chv_hll_add(&a->ndv, chv_hash64(p, n, 0x5eedULL));
}

static void put_long(struct col_acc *a, int64_t v) {
  if (!a->has || v < a->lo) a->lo = v;
  if (!a->has || v > a->hi) a->hi = v;
  a->has = true;
}

static int64_t utf8_chars(const char *s, int64_t n) {
  int64_t c = 0;
  for (int64_t i = 0; i < n; i++) c += ((unsigned char)s[i] & 0xc0) != 0x80;
  return c;
}

static int acc_vector(struct col_acc *a, const struct acol *c,
                      const struct chv_vector *v, int64_t n) {
  enum chv_type_id id = c->type->id;
  for (int64_t i = 0; i < n; i++) {
    if (chv_vector_is_null(v, i)) {
      a->nulls++;
      continue;
    }
    a->values++;
    int64_t x;
    switch (id) {
    case CHV_TYPE_BOOLEAN:
      if (chv_bit_get(v->data, i))
        a->trues++;
      else
        a->falses++;
      continue;
    case CHV_TYPE_TINYINT: x = ((const int8_t *)v->data)[i]; break;
    case CHV_TYPE_SMALLINT: x = ((const int16_t *)v->data)[i]; break;
    case CHV_TYPE_INT: case CHV_TYPE_DATE:
      x = ((const int32_t *)v->data)[i];
      break;
    case CHV_TYPE_BIGINT: x = ((const int64_t *)v->data)[i]; break;
    case CHV_TYPE_FLOAT: case CHV_TYPE_DOUBLE: {
      double d = id == CHV_TYPE_FLOAT ? (double)((const float *)v->data)[i]
                                      : ((const double *)v->data)[i];
      if (d == 0) d = 0; /* -0.0 is 0.0 */
      if (!isnan(d)) {
        if (!a->has || d < a->dlo) a->dlo = d;
        if (!a->has || d > a->dhi) a->dhi = d;
        a->has = true;
      }
      CHV_RETURN_IF_ERR(add_hash(a, &d, sizeof d));
      continue;
    }
    case CHV_TYPE_DECIMAL: {
      chv_i128 d = ((const chv_i128 *)v->data)[i];
      if (!a->has || d < a->declo) a->declo = d;
      if (!a->has || d > a->dechi) a->dechi = d;
      a->has = true;
      CHV_RETURN_IF_ERR(add_hash(a, &d, sizeof d));
      continue;
    }
    case CHV_TYPE_TIMESTAMP: {
      const struct chv_timestamp *ts =
          &((const struct chv_timestamp *)v->data)[i];
      put_long(a, ts->seconds);
      int64_t k[2] = {ts->seconds, ts->nanos};
      CHV_RETURN_IF_ERR(add_hash(a, k, sizeof k));
      continue;
    }
    default: { /* strings and binaries */
      const char *s = v->bytes + v->offsets[i];
      int64_t len = v->offsets[i + 1] - v->offsets[i];
      if (id == CHV_TYPE_CHAR)
        while (len > 0 && s[len - 1] == ' ') len--;
      int64_t l = id == CHV_TYPE_BINARY ? len : utf8_chars(s, len);
      a->len_sum += l;
      if (l > a->len_max) a->len_max = l;
      if (id != CHV_TYPE_BINARY) CHV_RETURN_IF_ERR(add_hash(a, s, (size_t)len));
      continue;
    }
    }
    put_long(a, x);
    CHV_RETURN_IF_ERR(add_hash(a, &x, sizeof x));
  }
  return CHV_OK;
}

static int acc_merge(struct col_acc *d, const struct col_acc *s) {
  d->nulls += s->nulls;
  d->values += s->values;
  if (s->has) {
    if (!d->has || s->lo < d->lo) d->lo = s->lo;
    if (!d->has || s->hi > d->hi) d->hi = s->hi;
    if (!d->has || s->dlo < d->dlo) d->dlo = s->dlo;
    if (!d->has || s->dhi > d->dhi) d->dhi = s->dhi;
    if (!d->has || s->declo < d->declo) d->declo = s->declo;
    if (!d->has || s->dechi > d->dechi) d->dechi = s->dechi;
    d->has = true;
  }
  d->len_sum += s->len_sum;
  if (s->len_max > d->len_max) d->len_max = s->len_max;
  d->trues += s->trues;
  d->falses += s->falses;
  return chv_hll_merge(&d->ndv, &s->ndv);
}

/* ---- one partition's figures ------------------------------------------------ */

struct part_acc {
  const struct chv_partition *part; /* of the plan (borrowed) */
  int64_t rows, files, bytes, raw;  /* raw: -1 unknown */
  struct col_acc *cols;             /* ncols */
};

struct job {
  struct sql_session *s;
  struct chv_source_split **splits; /* all of the plan's */
  const struct chv_split_plan *plan;
  int split0;                       /* first split of the group */
  int part0;                        /* plan partition of parts[0] */
  struct part_acc *parts;
  const struct acol *cols;
  int ncols;
  pthread_mutex_t mu;
};

static int read_split(void *arg, int64_t i, struct chv_error *err) {
  struct job *j = arg;
  int k = j->split0 + (int)i;
  struct part_acc *pa = &j->parts[j->plan->splits[k].partition - j->part0];
  struct col_acc *loc = chv_calloc((size_t)j->ncols + 1, sizeof *loc);
  if (loc == NULL) return chv_error_set(err, CHV_ENOMEM, "out of memory");
  chv_scan *sc = NULL;
  int rc = chv_source_split_open(j->splits[k], 0, &sc, err);
  int64_t rows = 0;
  while (rc == CHV_OK) {
    struct chv_batch *b;
    if ((rc = sql_cancelled(j->s, err)) != CHV_OK) break;
    if ((rc = chv_scan_next(sc, &b, err)) != CHV_OK || b == NULL) break;
    rows += b->nrows;
    for (int c = 0; c < j->ncols && rc == CHV_OK; c++)
      if (acc_vector(&loc[c], &j->cols[c], b->cols[c], b->nrows) != CHV_OK)
        rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
  }
  chv_scan_close(sc);
  if (rc == CHV_OK) {
    pthread_mutex_lock(&j->mu);
    pa->rows += rows;
    for (int c = 0; c < j->ncols && rc == CHV_OK; c++)
      if (acc_merge(&pa->cols[c], &loc[c]) != CHV_OK)
        rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
    pthread_mutex_unlock(&j->mu);
  }
  for (int c = 0; c < j->ncols; c++) chv_hll_free(&loc[c].ndv);
  chv_free(loc);
  return rc;
}

/* ---- the files of each partition ------------------------------------------ */

enum fmt { FMT_TEXT, FMT_PARQUET, FMT_ORC };

static enum fmt table_fmt(const struct chv_table *t) {
  const char *in = t->input_format ? t->input_format : "";
  if (strstr(in, "Parquet")) return FMT_PARQUET;
  if (strstr(in, "Orc")) return FMT_ORC;
  return FMT_TEXT;
}

static bool compressed_name(const char *path) {
  static const char *const ext[] = {".gz", ".bz2", ".deflate", ".lz4",
                                    ".snappy", ".zst"};
  size_t n = strlen(path);
  for (size_t i = 0; i < CHV_ARRAY_SIZE(ext); i++) {
    size_t m = strlen(ext[i]);
    if (n > m && !strcmp(path + n - m, ext[i])) return true;
  }
  return false;
}

/* The raw data size of a columnar file from its footer. */
static int footer_raw(enum fmt f, const char *path, int64_t *raw,
                      struct chv_error *err) {
  const struct chv_fs *fs;
  const char *inner;
  CHV_RETURN_IF_ERR(chv_fs_for_path(path, &fs, &inner, err));
  if (f == FMT_ORC) {
    struct chv_orc_file_stats os;
    CHV_RETURN_IF_ERR(chv_orc_file_stats(fs, inner, &os, err));
    *raw = os.raw_data_size;
  } else {
    struct chv_pq_file_stats ps;
    CHV_RETURN_IF_ERR(chv_pq_file_stats(fs, inner, &ps, err));
    *raw = ps.raw_data_size;
  }
  return CHV_OK;
}

/* numFiles, totalSize and (footers, or the size of uncompressed text)
** rawDataSize of each partition of the group, from the plan's splits
** (a file's splits are together in the plan). */
static int count_files(const struct chv_split_plan *p, int split0, int split1,
                       struct part_acc *parts, int part0, enum fmt f,
                       bool footers, struct chv_error *err) {
  for (int k = split0; k < split1; k++) {
    const struct chv_split *sp = &p->splits[k];
    if (k > split0 && !strcmp(p->splits[k - 1].path, sp->path)) continue;
    struct part_acc *pa = &parts[sp->partition - part0];
    pa->files++;
    pa->bytes += sp->file_size;
    if (pa->raw < 0) continue;
    if (f == FMT_TEXT) {
      if (compressed_name(sp->path))
        pa->raw = -1;
      else
        pa->raw += sp->file_size;
    } else if (footers) {
      int64_t raw = 0;
      CHV_RETURN_IF_ERR(footer_raw(f, sp->path, &raw, err));
      pa->raw += raw;
    }
  }
  return CHV_OK;
}

/* ---- the statement ------------------------------------------------------------ */

struct analyze {
  struct sql_session *s;
  chv_catalog *cat;
  struct chv_table t;
  chv_arena *a;
  struct chv_part_filter *filter;
  struct acol *cols;
  int ncols;
  bool noscan, for_columns;
  struct sql_result r;
};

/* The columns FOR COLUMNS names (none named: every data column Hive keeps
** statistics of). */
static int pick_columns(struct analyze *z, const struct chv_sql_stmt *st,
                        struct chv_sql_pos *pos, struct chv_error *err) {
  if (!st->for_columns) return CHV_OK;
  const struct chv_table *t = &z->t;
  z->cols = chv_arena_alloc(z->a, sizeof *z->cols * (size_t)(t->ncols + 1));
  if (z->cols == NULL) return sql_err(err, CHV_ENOMEM, "out of memory");
  for (int i = 0; i < t->ncols; i++) {
    const struct chv_column *c = &t->columns[i];
    bool want = st->nstat_columns == 0;
    for (size_t k = 0; k < st->nstat_columns && !want; k++)
      want = !strcasecmp(st->stat_columns[k].parts[0], c->name);
    enum chv_colstats_kind kind;
    if (!want || !chv_colstats_kind_of(c->type, &kind)) continue;
    struct chv_type *ty;
    if (chv_type_parse(c->type, &ty, err) != CHV_OK) return err->code;
    z->cols[z->ncols++] = (struct acol){c, i, kind, ty};
  }
  for (size_t k = 0; k < st->nstat_columns; k++) {
    const char *name = st->stat_columns[k].parts[0];
    *pos = st->stat_columns[k].pos;
    int i = 0;
    while (i < t->ncols && strcasecmp(t->columns[i].name, name)) i++;
    if (i == t->ncols) {
      for (int j = 0; j < t->npkeys; j++)
        if (!strcasecmp(t->pkeys[j].name, name))
          return sql_err(err, CHV_EINVAL,
                         "column '%s' is a partition key of %s.%s: ANALYZE "
                         "... FOR COLUMNS takes data columns",
                         name, t->db, t->name);
      return sql_err(err, CHV_ENOENT, "table %s.%s has no column '%s'",
                     t->db, t->name, name);
    }
    if (!chv_colstats_kind_of(t->columns[i].type, NULL))
      return sql_err(err, CHV_ENOTSUP,
                     "column '%s' of %s.%s is %s: Hive keeps no column "
                     "statistics of nested types",
                     t->columns[i].name, t->db, t->name, t->columns[i].type);
    for (size_t j = 0; j < k; j++)
      if (!strcasecmp(st->stat_columns[j].parts[0], name))
        return sql_err(err, CHV_EINVAL, "column '%s' is named twice", name);
  }
  return CHV_OK;
}


/* The statistics of one column from its accumulator. */
static int col_stats(const struct acol *c, struct col_acc *x, int64_t now,
                     struct chv_column_stats *out) {
  memset(out, 0, sizeof *out);
  out->column = (char *)c->col->name;
  out->type = (char *)c->col->type;
  out->kind = c->kind;
  out->has_low_high = x->has;
  out->num_nulls = x->nulls;
  out->num_distincts = -1;
  out->avg_col_len = -1;
  out->max_col_len = -1;
  out->num_trues = out->num_falses = -1;
  out->last_analyzed = now;
  switch (c->kind) {
  case CHV_COLSTATS_LONG: case CHV_COLSTATS_DATE: case CHV_COLSTATS_TIMESTAMP:
    out->long_low = x->lo;
    out->long_high = x->hi;
    break;
  case CHV_COLSTATS_DOUBLE:
    out->double_low = x->dlo;
    out->double_high = x->dhi;
    break;
  case CHV_COLSTATS_DECIMAL:
    if (x->has) {
      char lo[64], hi[64];
      chv_decimal_format(x->declo, c->type->scale, lo);
      chv_decimal_format(x->dechi, c->type->scale, hi);
      out->decimal_low = chv_strdup(lo);
      out->decimal_high = chv_strdup(hi);
      if (!out->decimal_low || !out->decimal_high) return CHV_ENOMEM;
    }
    break;
  case CHV_COLSTATS_STRING: case CHV_COLSTATS_BINARY:
    out->avg_col_len = x->values ? (double)x->len_sum / (double)x->values : 0;
    out->max_col_len = x->len_max;
    break;
  case CHV_COLSTATS_BOOLEAN:
    out->num_trues = x->trues;
    out->num_falses = x->falses;
    break;
  }
  if (c->kind != CHV_COLSTATS_BOOLEAN && c->kind != CHV_COLSTATS_BINARY) {
    out->num_distincts = chv_hll_count(&x->ndv);
    CHV_RETURN_IF_ERR(
        chv_hll_serialize(&x->ndv, &out->bit_vector, &out->bit_vector_len));
  }
  return CHV_OK;
}

/* Stores the figures of a group's partitions, in one transaction. */
static int store_group(struct analyze *z, struct part_acc *parts, int n,
                       struct chv_error *err) {
  const struct chv_table *t = &z->t;
  bool partitioned = t->npkeys > 0;
  int64_t now = chv_time_now_ms() / 1000;
  struct chv_column_stats *cs =
      chv_calloc((size_t)z->ncols + 1, sizeof *cs);
  if (cs == NULL) return sql_err(err, CHV_ENOMEM, "out of memory");
  int rc = chv_catalog_begin(z->cat, err);
  for (int i = 0; i < n && rc == CHV_OK; i++) {
    struct part_acc *pa = &parts[i];
    const char *pname = partitioned ? pa->part->name : NULL;
    char b[4][24];
    snprintf(b[0], 24, "%lld", (long long)pa->files);
    snprintf(b[1], 24, "%lld", (long long)pa->bytes);
    snprintf(b[2], 24, "%lld", (long long)pa->rows);
    snprintf(b[3], 24, "%lld", (long long)pa->raw);
    struct chv_kv kv[4] = {{"numFiles", b[0]},
                           {"totalSize", b[1]},
                           {"numRows", b[2]},
                           {"rawDataSize", pa->raw >= 0 ? b[3] : NULL}};
    int nkv = z->noscan ? 2 : 4;
    if (partitioned)
      rc = chv_catalog_alter_partition_params(z->cat, t->db, t->name,
                                              pa->part->values, kv, nkv, err);
    else
      rc = chv_catalog_alter_table_params(z->cat, t->db, t->name, kv, nkv,
                                          err);
    if (rc == CHV_OK && !z->noscan)
      rc = chv_catalog_stats_basic_accurate(z->cat, t->db, t->name, pname,
                                            err);
    if (rc == CHV_OK && z->ncols > 0) {
      int k = 0;
      for (; k < z->ncols; k++)
        if (col_stats(&z->cols[k], &pa->cols[k], now, &cs[k]) != CHV_OK) {
          k++;
          rc = sql_err(err, CHV_ENOMEM, "out of memory");
          break;
        }
      if (rc == CHV_OK)
        rc = chv_catalog_set_column_stats(z->cat, t->db, t->name, pname, cs,
                                          z->ncols, err);
      for (int j = 0; j < k; j++) {
        chv_free(cs[j].decimal_low);
        chv_free(cs[j].decimal_high);
        chv_free(cs[j].bit_vector);
      }
    }
    if (rc == CHV_OK) {
      const char *cells[5] = {pname, b[0], z->noscan ? NULL : b[2], b[1],
                              z->noscan || pa->raw < 0 ? NULL : b[3]};
      if (sql_result_add(&z->r, cells) != CHV_OK)
        rc = sql_err(err, CHV_ENOMEM, "out of memory");
    }
  }
  if (rc == CHV_OK) rc = chv_catalog_commit(z->cat, err);
  if (rc != CHV_OK) chv_catalog_rollback(z->cat);
  chv_free(cs);
  return rc;
}

static void parts_free(struct part_acc *parts, int n, int ncols) {
  if (parts == NULL) return;
  for (int i = 0; i < n; i++) {
    for (int c = 0; parts[i].cols && c < ncols; c++)
      chv_hll_free(&parts[i].cols[c].ndv);
    chv_free(parts[i].cols);
  }
  chv_free(parts);
}

/* Plans the splits, reads them group by group and stores each group. */
static int run(struct analyze *z, struct chv_error *err) {
  struct sql_session *s = z->s;
  const struct chv_table *t = &z->t;
  struct chv_scan_options so;
  chv_scan_options_init(&so);
  so.filter = z->filter;
  int threads = sql_scan_threads(s, z->cat, t, &so);
  chv_source *src;
  CHV_RETURN_IF_ERR(chv_source_open(z->cat, t->db, t->name, NULL, 0, s->cfg,
                                    &src, err));
  chv_source_set_partitions(src, z->filter);
  int *fields = chv_calloc((size_t)z->ncols + 1, sizeof *fields);
  int rc = fields ? CHV_OK : sql_err(err, CHV_ENOMEM, "out of memory");
  for (int i = 0; i < z->ncols; i++) fields[i] = z->cols[i].field;
  if (rc == CHV_OK)
    rc = chv_source_set_projected_fields(src, fields, z->ncols, err);
  chv_free(fields);
  struct chv_source_split **splits = NULL;
  int nsplits = 0;
  struct chv_split_plan *plan = NULL;
  if (rc == CHV_OK)
    rc = chv_source_splits(src, z->noscan ? 1 : CHV_MAX(threads, 1), &splits,
                           &nsplits, &plan, err);
  chv_pool *pool = NULL;
  if (rc == CHV_OK && !z->noscan) rc = chv_pool_open(CHV_MAX(threads, 1), &pool, err);
  if (rc == CHV_OK && plan->npartitions == 0 && z->filter &&
      t->npkeys > 0)
    rc = sql_err(err, CHV_ENOENT,
                 "no partition of %s.%s matches the PARTITION spec", t->db,
                 t->name);
  enum fmt f = table_fmt(t);
  int split0 = 0;
  for (int g = 0; rc == CHV_OK && g < plan->npartitions; g += GROUP) {
    int np = CHV_MIN(GROUP, plan->npartitions - g);
    struct part_acc *parts = chv_calloc((size_t)np, sizeof *parts);
    if (parts == NULL) {
      rc = sql_err(err, CHV_ENOMEM, "out of memory");
      break;
    }
    for (int i = 0; i < np && rc == CHV_OK; i++) {
      parts[i].part = &plan->partitions[g + i];
      parts[i].raw = 0;
      parts[i].cols = chv_calloc((size_t)z->ncols + 1, sizeof *parts[i].cols);
      if (parts[i].cols == NULL) rc = sql_err(err, CHV_ENOMEM, "out of memory");
    }
    int split1 = split0;
    while (split1 < nsplits && plan->splits[split1].partition < g + np) split1++;
    if (rc == CHV_OK)
      rc = count_files(plan, split0, split1, parts, g, f, !z->noscan, err);
    if (rc == CHV_OK && !z->noscan && split1 > split0) {
      struct job j = {.s = s, .splits = splits, .plan = plan,
                      .split0 = split0, .part0 = g, .parts = parts,
                      .cols = z->cols, .ncols = z->ncols};
      pthread_mutex_init(&j.mu, NULL);
      rc = chv_pool_for(pool, split1 - split0, read_split, &j, err);
      pthread_mutex_destroy(&j.mu);
    }
    if (rc == CHV_OK) rc = store_group(z, parts, np, err);
    parts_free(parts, np, z->ncols);
    split0 = split1;
  }
  chv_pool_close(pool);
  chv_source_splits_free(splits, nsplits);
  chv_split_plan_free(plan);
  chv_source_close(src);
  return rc;
}

int sql_exec_analyze(struct sql_session *s, const struct chv_sql_stmt *st,
                     chv_arena *a, struct chv_sql_pos *pos,
                     struct chv_error *err) {
  struct analyze z = {.s = s, .a = a, .noscan = st->noscan,
                      .for_columns = st->for_columns};
  int rc = sql_get_table(s, &st->name, &z.cat, &z.t, err);
  if (rc != CHV_OK) return rc;
  sql_result_init(&z.r);
  if (z.t.type == CHV_VIRTUAL_VIEW) {
    rc = sql_err(err, CHV_ENOTSUP,
                 "ANALYZE is not supported for views (%s.%s is a view)",
                 z.t.db, z.t.name);
    goto out;
  }
  /* a key with a value must equal it; one without (Hive's dynamic form)
  ** takes every value */
  if ((rc = sql_part_spec_filter(&z.t, &st->partition, true, z.a, &z.filter,
                                 pos, err)) != CHV_OK)
    goto out;
  if ((rc = pick_columns(&z, st, pos, err)) != CHV_OK) goto out;
  *pos = st->name.pos;
  const char *names[5] = {"partition", "numFiles", "numRows", "totalSize",
                          "rawDataSize"};
  if (sql_result_columns(&z.r, 5, names) != CHV_OK) {
    rc = sql_err(err, CHV_ENOMEM, "out of memory");
    goto out;
  }
  rc = run(&z, err);
  if (rc == CHV_OK) rc = sql_result_emit(s, &z.r, err);
out:
  for (int i = 0; i < z.ncols; i++) chv_type_free((struct chv_type *)z.cols[i].type);
  sql_result_free(&z.r);
  chv_table_free(&z.t);
  return rc;
}

/* ---- DESCRIBE t [PARTITION (...)] [col] ---------------------------------- */

static int add2(struct sql_result *r, const char *a, const char *b) {
  const char *cells[2] = {a, b ? b : ""};
  return sql_result_add(r, cells);
}

static void fmt_low_high(const struct chv_column_stats *c, bool high,
                         char *buf, size_t n) {
  buf[0] = '\0';
  if (!c->has_low_high) return;
  switch (c->kind) {
  case CHV_COLSTATS_LONG:
    snprintf(buf, n, "%lld", (long long)(high ? c->long_high : c->long_low));
    break;
  case CHV_COLSTATS_DOUBLE:
    chv_func_format_double(high ? c->double_high : c->double_low, buf);
    break;
  case CHV_COLSTATS_DECIMAL: {
    const char *d = high ? c->decimal_high : c->decimal_low;
    snprintf(buf, n, "%s", d ? d : "");
    break;
  }
  case CHV_COLSTATS_DATE: {
    int64_t v = high ? c->long_high : c->long_low;
    if (v >= INT32_MIN && v <= INT32_MAX) chv_date_format((int32_t)v, buf);
    break;
  }
  case CHV_COLSTATS_TIMESTAMP: {
    struct chv_timestamp ts = {high ? c->long_high : c->long_low, 0, 0};
    chv_timestamp_format(ts, buf);
    break;
  }
  default:
    break;
  }
}

/* Hive's rows of DESCRIBE FORMATTED t col: the column's statistics, empty
** where it has none, and the COLUMN_STATS_ACCURATE they were read under. */
static int describe_stats(struct sql_result *r, const struct chv_column *col,
                          const struct chv_column_stats *c,
                          const char *accurate) {
  char lo[64] = "", hi[64] = "", nulls[24] = "", ndv[24] = "", avg[40] = "",
       maxl[24] = "", tr[24] = "", fa[24] = "";
  if (c) {
    fmt_low_high(c, false, lo, sizeof lo);
    fmt_low_high(c, true, hi, sizeof hi);
    if (c->num_nulls >= 0)
      snprintf(nulls, sizeof nulls, "%lld", (long long)c->num_nulls);
    if (c->num_distincts >= 0)
      snprintf(ndv, sizeof ndv, "%lld", (long long)c->num_distincts);
    if (c->avg_col_len >= 0) chv_func_format_double(c->avg_col_len, avg);
    if (c->max_col_len >= 0)
      snprintf(maxl, sizeof maxl, "%lld", (long long)c->max_col_len);
    if (c->num_trues >= 0)
      snprintf(tr, sizeof tr, "%lld", (long long)c->num_trues);
    if (c->num_falses >= 0)
      snprintf(fa, sizeof fa, "%lld", (long long)c->num_falses);
  }
  const char *rows[][2] = {
      {"col_name", col->name}, {"data_type", col->type}, {"min", lo},
      {"max", hi},             {"num_nulls", nulls},     {"distinct_count", ndv},
      {"avg_col_len", avg},    {"max_col_len", maxl},    {"num_trues", tr},
      {"num_falses", fa},      {"bit_vector", ""},       {"comment", col->comment},
  };
  int rc = CHV_OK;
  for (size_t i = 0; i < CHV_ARRAY_SIZE(rows) && rc == CHV_OK; i++)
    rc = add2(r, rows[i][0], rows[i][1]);
  if (rc == CHV_OK && accurate) rc = add2(r, "COLUMN_STATS_ACCURATE", accurate);
  return rc;
}

static int kv_cmp(const void *x, const void *y) {
  return strcmp(((const struct chv_kv *)x)->key,
                ((const struct chv_kv *)y)->key);
}

static int add3(struct sql_result *r, const char *a, const char *b,
                const char *c) {
  const char *cells[3] = {a, b ? b : "", c ? c : ""};
  return sql_result_add(r, cells);
}

/* DESCRIBE [FORMATTED] t PARTITION (...) without a column: the columns,
** then (FORMATTED) the partition's values, location and parameters, as
** Hive's "# Detailed Partition Information". */
static int describe_partition(struct sql_session *s,
                              const struct chv_sql_stmt *st,
                              const struct chv_table *t,
                              const struct chv_partition *p,
                              struct chv_error *err) {
  struct sql_result r;
  sql_result_init(&r);
  const char *names[3] = {"col_name", "data_type", "comment"};
  int rc = sql_result_columns(&r, 3, names);
  for (int i = 0; rc == CHV_OK && i < t->ncols; i++)
    rc = add3(&r, t->columns[i].name, t->columns[i].type,
              t->columns[i].comment);
  for (int i = 0; rc == CHV_OK && i < t->npkeys; i++)
    rc = add3(&r, t->pkeys[i].name, t->pkeys[i].type, t->pkeys[i].comment);
  if (rc == CHV_OK) rc = add3(&r, "", NULL, NULL);
  if (rc == CHV_OK) rc = add3(&r, "# Partition Information", NULL, NULL);
  if (rc == CHV_OK) rc = add3(&r, "# col_name", "data_type", "comment");
  for (int i = 0; rc == CHV_OK && i < t->npkeys; i++)
    rc = add3(&r, t->pkeys[i].name, t->pkeys[i].type, t->pkeys[i].comment);
  if (rc == CHV_OK && st->describe_mode) {
    struct chv_buf vals;
    chv_buf_init(&vals);
    chv_buf_putc(&vals, '[');
    for (int i = 0; i < p->nvalues; i++)
      chv_buf_printf(&vals, "%s%s", i ? ", " : "",
                     p->values[i] ? p->values[i] : CHV_DEFAULT_PARTITION_NAME);
    chv_buf_putc(&vals, ']');
    chv_buf_putc(&vals, '\0');
    rc = add3(&r, "", NULL, NULL);
    if (rc == CHV_OK)
      rc = add3(&r, "# Detailed Partition Information", NULL, NULL);
    if (rc == CHV_OK) rc = add3(&r, "Partition Value:", vals.data, NULL);
    chv_buf_free(&vals);
    if (rc == CHV_OK) rc = add3(&r, "Database:", t->db, NULL);
    if (rc == CHV_OK) rc = add3(&r, "Table:", t->name, NULL);
    if (rc == CHV_OK) rc = add3(&r, "Location:", p->location, NULL);
    if (rc == CHV_OK) rc = add3(&r, "Partition Parameters:", NULL, NULL);
    struct chv_kv *kv = p->params;
    if (p->nparams > 1) qsort(kv, (size_t)p->nparams, sizeof *kv, kv_cmp);
    for (int i = 0; rc == CHV_OK && i < p->nparams; i++)
      rc = add3(&r, "", kv[i].key, kv[i].value);
  }
  if (rc == CHV_OK)
    rc = sql_result_emit(s, &r, err);
  else
    rc = sql_err(err, rc, "out of memory");
  sql_result_free(&r);
  return rc;
}

int sql_describe_column(struct sql_session *s, const struct chv_sql_stmt *st,
                        chv_arena *a, struct chv_sql_pos *pos,
                        struct chv_error *err) {
  chv_catalog *cat;
  struct chv_table t;
  int rc = sql_get_table(s, &st->name, &cat, &t, err);
  if (rc != CHV_OK) return rc;
  struct chv_partition part = {0};
  bool have_part = false;
  struct chv_column_stats *cs = NULL;
  int ncs = 0;
  struct sql_result r;
  sql_result_init(&r);
  if (st->partition.n) {
    char **values;
    if ((rc = sql_part_values(&t, &st->partition, a, &values, pos, err)))
      goto out;
    if ((rc = chv_catalog_get_partition(cat, t.db, t.name, values, &part,
                                        err)))
      goto out;
    have_part = true;
  }
  if (!st->describe_column.nparts) {
    rc = describe_partition(s, st, &t, &part, err);
    goto out;
  }
  const char *name = st->describe_column.parts[0];
  const struct chv_column *col = NULL;
  bool is_key = false;
  for (int i = 0; !col && i < t.ncols; i++)
    if (!strcasecmp(t.columns[i].name, name)) col = &t.columns[i];
  for (int i = 0; !col && i < t.npkeys; i++)
    if (!strcasecmp(t.pkeys[i].name, name)) {
      col = &t.pkeys[i];
      is_key = true;
    }
  if (col == NULL) {
    *pos = st->describe_column.pos;
    rc = sql_err(err, CHV_ENOENT, "table %s.%s has no column '%s'", t.db,
                 t.name, name);
    goto out;
  }
  if (!st->describe_mode) { /* Hive: the column's line alone */
    const char *names[3] = {"col_name", "data_type", "comment"};
    rc = sql_result_columns(&r, 3, names);
    if (rc == CHV_OK) rc = add3(&r, col->name, col->type, col->comment);
  } else {
    const char *names[2] = {"column_property", "value"};
    rc = sql_result_columns(&r, 2, names);
    const char *const one[1] = {col->name};
    if (rc == CHV_OK && !is_key && chv_colstats_kind_of(col->type, NULL))
      rc = chv_catalog_column_stats(cat, t.db, t.name,
                                    have_part ? part.name : NULL, one, 1, &cs,
                                    &ncs, err);
    const char *acc =
        have_part ? chv_kv_get(part.params, part.nparams,
                               "COLUMN_STATS_ACCURATE")
                  : chv_kv_get(t.params, t.nparams, "COLUMN_STATS_ACCURATE");
    if (rc == CHV_OK)
      rc = describe_stats(&r, col, ncs > 0 ? &cs[0] : NULL, acc);
  }
  if (rc == CHV_OK) rc = sql_result_emit(s, &r, err);
out:
  chv_column_stats_free(cs, ncs);
  sql_result_free(&r);
  chv_partition_free(&part);
  chv_table_free(&t);
  return rc;
}
