/*
** The batch scan of a TEXTFILE table: partitions pruned by the catalog (the
** filter runs inside the metastore), each partition's visible files listed
** when it is reached (recursively unless read-partition-with-subdirectory
** is false, when a sub-folder fails the read), each file read with only the projected data columns,
** and partition columns added as constant vectors.  A limit stops the scan
** as soon as it is met.  A TABLESAMPLE reads the splits of a plan made as
** for one reader: those conn_split_sample() keeps (n PERCENT, a length),
** or every split up to its first n rows (n ROWS).
*/
#include "connector/connector.h"
#include "connector/connector_int.h"
#include "format/text/text.h"
#include "types/types.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* Where an output column comes from. */
struct scan_col {
  bool is_pkey;
  int index;          /* data column index (file order) or partition key */
  int reader_pos;     /* is_pkey false: position in the reader's batch */
  struct chv_vector *pvec; /* is_pkey: constant vector of this partition */
};

struct chv_scan {
  chv_catalog *cat;
  const struct chv_fs *fs;
  struct chv_table table;
  struct chv_type *file_schema;  /* STRUCT of the data columns */
  struct chv_type *out_schema;   /* STRUCT of the projected columns */
  struct conn_format fmt;
  struct scan_col *cols;
  int ncols;
  int *file_cols;                /* projected data columns, file order */
  int nfile_cols;
  int64_t limit;
  int64_t batch_rows;
  struct chv_scan_sample sample; /* TABLESAMPLE, from the options */
  const struct chv_pred *preds;  /* borrowed from the options */
  int npreds;
  const volatile int *cancel;    /* borrowed from the options, or NULL */
  void (*progress)(void *ctx, const chv_scan *s); /* from the options */
  void *progress_ctx;

  struct chv_partition *parts;   /* pruned partitions (or one pseudo) */
  int nparts;
  int part_idx;                  /* next partition to open */
  struct chv_dirlist files;      /* files of the current partition */
  bool recursive;                /* ...read-partition-with-subdirectory */
  char *default_part;            /* hive.exec.default.partition.name */
  size_t file_idx;
  struct conn_reader reader;
  bool reading;                  /* reader is open */
  struct chv_batch *rbatch;      /* the reader's batch */
  struct chv_batch out;          /* view: vectors borrowed from rbatch/pvec */
  struct chv_scan_stats stats;
  char **hidden;                 /* files of writes in progress to skip */
  int nhidden;
  bool done;
  /* A scan of one split (conn_scan_open_split): its file and range. */
  char *split_path;
  int64_t split_start, split_length;
  struct par *par;               /* reading splits on threads, or NULL */
  /* The hook of a scan read on the caller's thread: its one state, the
  ** batch it gave last, whether its end was called. */
  const struct chv_scan_hook *hook;
  void *hstate;
  struct chv_batch *hlent;
  bool hended;
  /* The bound, and the predicates of the open file with its value then. */
  struct chv_scan_bound *bound;
  struct chv_pred *bpreds;
  char *bvalue;
};

struct chv_scan_bound {
  pthread_mutex_t mu;
  char *column;
  enum chv_pred_op op;
  char *value; /* NULL until set */
};

int chv_scan_bound_open(const char *column, enum chv_pred_op op,
                        chv_scan_bound **out, struct chv_error *err) {
  chv_scan_bound *b = chv_calloc(1, sizeof *b);
  if (b == NULL || (b->column = chv_strdup(column)) == NULL) {
    chv_free(b);
    return chv_error_set(err, CHV_ENOMEM, "out of memory");
  }
  pthread_mutex_init(&b->mu, NULL);
  b->op = op;
  *out = b;
  return CHV_OK;
}

int chv_scan_bound_set(chv_scan_bound *b, const char *value,
                       struct chv_error *err) {
  char *v = chv_strdup(value);
  if (v == NULL) return chv_error_set(err, CHV_ENOMEM, "out of memory");
  pthread_mutex_lock(&b->mu);
  char *old = b->value;
  b->value = v;
  pthread_mutex_unlock(&b->mu);
  chv_free(old);
  return CHV_OK;
}

bool chv_scan_bound_value(chv_scan_bound *b, char *buf, size_t n) {
  pthread_mutex_lock(&b->mu);
  bool set = b->value != NULL;
  if (set && n) snprintf(buf, n, "%s", b->value);
  pthread_mutex_unlock(&b->mu);
  return set;
}

void chv_scan_bound_close(chv_scan_bound *b) {
  if (b == NULL) return;
  pthread_mutex_destroy(&b->mu);
  chv_free(b->column);
  chv_free(b->value);
  chv_free(b);
}

/* CHV_ECANCELED once the scan's cancel flag is set. */
static int scan_check_cancel(const chv_scan *s, struct chv_error *err) {
  if (s->cancel && __atomic_load_n(s->cancel, __ATOMIC_RELAXED))
    return chv_error_set(err, CHV_ECANCELED, "the statement was cancelled");
  return CHV_OK;
}

static int par_open(chv_scan *s, const struct chv_scan_options *opts,
                    struct chv_error *err);

void chv_scan_options_init(struct chv_scan_options *o) {
  memset(o, 0, sizeof *o);
  o->limit = -1;
}

const struct chv_type *chv_scan_schema(const chv_scan *s) {
  return s->out_schema;
}

static void par_stats(struct par *p, struct chv_scan_stats *out);

void chv_scan_stats(const chv_scan *s, struct chv_scan_stats *out) {
  if (s->par) {
    par_stats(s->par, out); /* reader threads add to them */
    return;
  }
  *out = s->stats;
  out->rows_read = s->stats.rows;
  if (s->done) out->splits_done = out->splits_total;
  if (s->reading) { /* and what the open file's reader has read so far */
    struct conn_read_stats rs = {0};
    conn_reader_stats(&s->reader, &rs);
    out->malformed += rs.malformed;
    out->row_groups += rs.row_groups;
    out->row_groups_skipped += rs.row_groups_skipped;
    out->stripes += rs.stripes;
    out->stripes_skipped += rs.stripes_skipped;
    out->bytes_read += rs.bytes_read;
  }
}

int chv_part_value_append(struct chv_vector *v, const char *value,
                          struct chv_error *err) {
  enum chv_type_id id = v->type->id;
  if (value == NULL) {
    if (id == CHV_TYPE_STRING || id == CHV_TYPE_VARCHAR ||
        id == CHV_TYPE_CHAR)
      return chv_vector_append_string(v, CHV_DEFAULT_PARTITION_NAME,
                                      strlen(CHV_DEFAULT_PARTITION_NAME), err);
    return chv_vector_append_null(v, err);
  }
  size_t n = strlen(value);
  union {
    bool b;
    int8_t i8;
    int16_t i16;
    int32_t i32;
    int64_t i64;
    float f;
    double d;
    chv_i128 dec;
    struct chv_timestamp ts;
  } u;
  memset(&u, 0, sizeof u);
  bool ok = true;
  switch (id) {
  case CHV_TYPE_STRING:
  case CHV_TYPE_VARCHAR:
  case CHV_TYPE_CHAR:
  case CHV_TYPE_BINARY:
    return chv_vector_append_string(v, value, n, err);
  case CHV_TYPE_BOOLEAN:
    if (chv_str_ieq(value, "true"))
      u.b = true;
    else if (chv_str_ieq(value, "false"))
      u.b = false;
    else
      ok = false;
    break;
  case CHV_TYPE_TINYINT:
  case CHV_TYPE_SMALLINT:
  case CHV_TYPE_INT:
  case CHV_TYPE_BIGINT: {
    char *end;
    errno = 0;
    long long x = strtoll(value, &end, 10);
    ok = n > 0 && *end == '\0' && errno == 0;
    long long lo = id == CHV_TYPE_TINYINT    ? INT8_MIN
                   : id == CHV_TYPE_SMALLINT ? INT16_MIN
                   : id == CHV_TYPE_INT      ? INT32_MIN
                                             : INT64_MIN;
    long long hi = id == CHV_TYPE_TINYINT    ? INT8_MAX
                   : id == CHV_TYPE_SMALLINT ? INT16_MAX
                   : id == CHV_TYPE_INT      ? INT32_MAX
                                             : INT64_MAX;
    ok = ok && x >= lo && x <= hi;
    if (id == CHV_TYPE_TINYINT) u.i8 = (int8_t)x;
    else if (id == CHV_TYPE_SMALLINT) u.i16 = (int16_t)x;
    else if (id == CHV_TYPE_INT) u.i32 = (int32_t)x;
    else u.i64 = x;
    break;
  }
  case CHV_TYPE_FLOAT:
  case CHV_TYPE_DOUBLE: {
    char *end;
    double d = strtod(value, &end);
    ok = n > 0 && *end == '\0';
    if (id == CHV_TYPE_FLOAT) u.f = (float)d;
    else u.d = d;
    break;
  }
  case CHV_TYPE_DECIMAL:
    ok = chv_decimal_parse(value, n, v->type->precision, v->type->scale,
                           &u.dec) == CHV_OK;
    break;
  case CHV_TYPE_DATE:
    ok = chv_date_parse(value, n, &u.i32) == CHV_OK;
    break;
  case CHV_TYPE_TIMESTAMP:
    ok = chv_timestamp_parse(value, n, &u.ts) == CHV_OK;
    break;
  default:
    return chv_error_set(err, CHV_ETYPE,
                         "partition column of type %s is not supported",
                         chv_type_id_name(id));
  }
  if (!ok) return chv_vector_append_null(v, err); /* as Hive's cast gives */
  return chv_vector_append_value(v, &u, err);
}

/* Everything but the partitions: the table (moved into the scan), its
** format, the projection and the output batch. */
static int scan_init(chv_scan *s, const struct chv_scan_options *opts,
                     struct chv_error *err) {
  s->limit = opts->limit;
  s->batch_rows = opts->batch_rows > 0 ? opts->batch_rows : 4096;
  s->preds = opts->preds;
  s->npreds = opts->npreds;
  s->cancel = opts->cancel;
  s->progress = opts->progress;
  s->progress_ctx = opts->progress_ctx;
  s->bound = opts->bound;
  s->sample = opts->sample;
  if (s->sample.kind == CHV_SAMPLE_ROWS) {
    /* a split's first rows are the file's: nothing skipped by statistics */
    s->preds = NULL;
    s->npreds = 0;
    s->bound = NULL;
  }
  struct chv_type *all = NULL;
  const char *inner;
  int rc = conn_table_format(&s->table, NULL, &s->fmt, err);
  if (rc != CHV_OK) goto out;
  struct chv_opt_value v;
  chv_opt_value_init(&v);
  rc = conn_table_option(
      &s->table, opts->cfg,
      "table.exec.hive.read-partition-with-subdirectory.enabled", &v, err);
  s->recursive = v.b;
  chv_opt_value_free(&v);
  if (rc != CHV_OK) goto out;
  rc = conn_table_option(&s->table, opts->cfg,
                         "hive.exec.default.partition.name", &v, err);
  s->default_part = v.text; /* taken over */
  v.text = NULL;
  chv_opt_value_free(&v);
  if (rc != CHV_OK) goto out;
  rc = chv_fs_for_path(s->table.location, &s->fs, &inner, err);
  if (rc != CHV_OK) goto out;
  rc = conn_table_schema(&s->table, false, &s->file_schema, err);
  if (rc != CHV_OK) goto out;
  rc = conn_table_schema(&s->table, true, &all, err);
  if (rc != CHV_OK) goto out;

  /* Projection: names resolved against data columns, then partition keys. */
  int nall = all->nchildren;
  s->ncols = opts->columns ? opts->ncolumns : nall;
  s->cols = chv_calloc((size_t)s->ncols + 1, sizeof *s->cols);
  s->file_cols = chv_calloc((size_t)s->table.ncols + 1, sizeof *s->file_cols);
  rc = chv_type_new(CHV_TYPE_STRUCT, &s->out_schema);
  if (s->cols == NULL || s->file_cols == NULL || rc != CHV_OK) {
    rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
    goto out;
  }
  bool *used = chv_calloc((size_t)nall + 1, sizeof *used);
  if (used == NULL) {
    rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
    goto out;
  }
  for (int i = 0; i < s->ncols && rc == CHV_OK; i++) {
    int idx = i;
    if (opts->columns) {
      idx = chv_type_field_index(all, opts->columns[i]);
      if (idx < 0) {
        rc = chv_error_set(err, CHV_ENOENT,
                           "column '%s' not found in table %s.%s",
                           opts->columns[i], s->table.db, s->table.name);
        break;
      }
    }
    s->cols[i].is_pkey = idx >= s->table.ncols;
    s->cols[i].index = s->cols[i].is_pkey ? idx - s->table.ncols : idx;
    if (!s->cols[i].is_pkey) used[idx] = true;
    struct chv_type *ct;
    rc = chv_type_clone(all->children[idx], &ct);
    if (rc == CHV_OK) rc = chv_type_struct_add(s->out_schema, all->names[idx], ct);
    if (rc == CHV_EEXIST)
      rc = chv_error_set(err, CHV_EINVAL,
                    "column '%s' of table %s.%s is projected twice",
                    all->names[idx], s->table.db, s->table.name);
    else if (rc != CHV_OK)
      chv_error_set(err, rc, "out of memory");
  }
  /* The reader produces the used data columns in file order. */
  for (int i = 0; i < s->table.ncols; i++)
    if (used[i]) s->file_cols[s->nfile_cols++] = i;
  chv_free(used);
  if (rc != CHV_OK) goto out;
  for (int i = 0; i < s->ncols; i++) {
    if (s->cols[i].is_pkey) continue;
    for (int j = 0; j < s->nfile_cols; j++)
      if (s->file_cols[j] == s->cols[i].index) s->cols[i].reader_pos = j;
  }

  s->out.schema = s->out_schema;
  s->out.ncols = s->ncols;
  s->out.cols = chv_calloc((size_t)s->ncols + 1, sizeof *s->out.cols);
  if (s->out.cols == NULL) {
    rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
    goto out;
  }
  for (int i = 0; i < s->ncols; i++) {
    if (!s->cols[i].is_pkey) continue;
    rc = chv_vector_open(s->out_schema->children[i], s->batch_rows,
                         &s->cols[i].pvec, err);
    if (rc != CHV_OK) goto out;
  }
  if (s->limit == 0) s->done = true;
out:
  chv_type_free(all);
  return rc;
}

int chv_scan_open(chv_catalog *cat, const char *db, const char *table,
                  const struct chv_scan_options *opts, chv_scan **out,
                  struct chv_error *err) {
  struct chv_scan_options defaults;
  if (opts == NULL) {
    chv_scan_options_init(&defaults);
    opts = &defaults;
  }
  chv_scan *s = chv_calloc(1, sizeof *s);
  if (s == NULL) return chv_error_set(err, CHV_ENOMEM, "out of memory");
  s->cat = cat;
  int rc = conn_get_table(cat, db, table, "scan", &s->table, err);
  if (rc == CHV_OK)
    rc = conn_table_overlay(&s->table, opts->table_options,
                            opts->ntable_options, err);
  if (rc == CHV_OK) rc = scan_init(s, opts, err);
  /* Files that writes in progress have moved in but not yet published, or
  ** replaced but not yet deleted, are not part of the table. */
  if (rc == CHV_OK)
    rc = conn_hidden_paths(cat, s->table.db, s->table.name, &s->hidden,
                           &s->nhidden, err);
  /* Partitions, pruned inside the metastore. */
  if (rc == CHV_OK)
    rc = conn_scan_partitions(cat, &s->table, opts->cfg, opts->filter, &s->parts,
                              &s->nparts, &s->stats.partitions_total, err);
  s->hook = opts->hook;
  if (rc == CHV_OK &&
      (opts->threads > 1 || opts->hook || s->sample.kind != CHV_SAMPLE_NONE) &&
      !s->done)
    rc = par_open(s, opts, err);
  if (rc != CHV_OK) {
    chv_scan_close(s);
    return rc;
  }
  s->stats.partitions_read = s->nparts;
  *out = s;
  return CHV_OK;
}

int conn_scan_open_split(struct chv_table *t, char *const *part_values,
                         const char *path, int64_t start, int64_t length,
                         const struct chv_scan_options *opts, chv_scan **out,
                         struct chv_error *err) {
  chv_scan *s = chv_calloc(1, sizeof *s);
  if (s == NULL) {
    chv_table_free(t);
    return chv_error_set(err, CHV_ENOMEM, "out of memory");
  }
  s->table = *t;
  memset(t, 0, sizeof *t);
  int rc = scan_init(s, opts, err);
  if (rc == CHV_OK) {
    s->parts = chv_calloc(1, sizeof *s->parts);
    s->split_path = chv_strdup(path);
    if (s->parts == NULL || s->split_path == NULL)
      rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
  }
  if (rc == CHV_OK && s->table.npkeys > 0) {
    s->parts[0].values = chv_calloc((size_t)s->table.npkeys, sizeof(char *));
    if (s->parts[0].values == NULL)
      rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
    s->parts[0].nvalues = s->parts[0].values ? s->table.npkeys : 0;
    for (int i = 0; rc == CHV_OK && i < s->table.npkeys; i++)
      if (part_values[i] &&
          (s->parts[0].values[i] = chv_strdup(part_values[i])) == NULL)
        rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
  }
  if (rc != CHV_OK) {
    chv_scan_close(s);
    return rc;
  }
  s->nparts = 1;
  s->split_start = start;
  s->split_length = length;
  s->stats.partitions_total = s->stats.partitions_read = 1;
  *out = s;
  return CHV_OK;
}

/* ---- reading splits on threads --------------------------------------------- */

/* A split's reader waits once its queue holds PAR_QUEUE batches and
** PAR_QUEUE_BYTES bytes (chv_batch_bytes()): the bytes, not the batches,
** bound it, so that a stage giving small batches (a join's matches of a
** filtered probe) keeps its reader going while the splits before are
** returned, instead of waiting on a queue of a few tiny batches. */
#define PAR_QUEUE 4
#define PAR_QUEUE_BYTES ((size_t)4 << 20)

struct par_split {
  struct chv_batch **q;          /* owned copies, a ring: oldest at head */
  int head, n, cap;
  size_t bytes;                  /* that the batches queued take */
  bool done;                     /* its reader finished (or failed), and
                                    with a hook its end was called */
  bool finished;                 /* with a hook: its reader finished */
  void *state;                   /* with a hook: the split's state */
  int rc;
  struct chv_error err;
};

struct par {
  chv_scan *scan;                /* options and schemas come from here */
  struct chv_split_plan *plan;
  struct par_split *splits;
  pthread_t *threads;
  int nthreads, started;
  pthread_mutex_t mu;
  pthread_cond_t produced, consumed;
  int next;                      /* next split to hand out */
  int cur;                       /* the split being returned */
  bool stop;
  struct chv_batch *lent;        /* returned by chv_scan_next() */
  struct chv_scan_options opts;  /* for each split's scan */
  const struct chv_scan_hook *hook;
  int ended;                     /* with a hook: splits whose end ran */
  bool ending;                   /* a thread is running an end */
  int nread;                     /* splits whose reader finished */
  int64_t rows_read;             /* by the readers so far (atomic) */
  int slots;                     /* reader threads that took their slot */
  bool launched;                 /* the reader threads were started */
};

/* With a hook: the ends of the finished splits that are next in order,
** one at a time, by whichever thread finishes the split that lets them
** go.  Called and returns with p->mu held. */
static void par_end_splits(struct par *p) {
  while (!p->ending && p->ended < p->plan->nsplits &&
         p->splits[p->ended].finished) {
    struct par_split *sk = &p->splits[p->ended];
    bool ok = sk->rc == CHV_OK && !p->stop;
    void *state = sk->state;
    sk->state = NULL;
    p->ending = true;
    pthread_mutex_unlock(&p->mu);
    struct chv_error e;
    chv_error_clear(&e);
    int rc = p->hook->done(p->hook->ctx, state, ok, &e);
    pthread_mutex_lock(&p->mu);
    p->ending = false;
    if (ok && rc != CHV_OK) {
      sk->rc = rc;
      sk->err = e;
    }
    sk->done = true;
    p->ended++;
    pthread_cond_broadcast(&p->produced);
  }
}

/* Move the split being returned past those that are done without a batch
** left to return (all of them, when a hook keeps its rows: an INSERT's
** writes), so that the readers' window moves on without waiting for the
** consumer's thread to wake up.  A failed split stays, for the consumer to
** return its error.  Called with p->mu held. */
static void par_skip_empty(struct par *p) {
  int from = p->cur;
  while (p->cur < p->plan->nsplits && p->splits[p->cur].done &&
         p->splits[p->cur].n == 0 && p->splits[p->cur].rc == CHV_OK)
    p->cur++;
  if (p->cur != from) pthread_cond_broadcast(&p->consumed);
}

/* Whether split queue sp has room for one more batch, growing its ring
** (false: no memory for it). */
static bool par_queue_room(struct par_split *sp) {
  if (sp->n < sp->cap) return true;
  int nc = sp->cap ? 2 * sp->cap : PAR_QUEUE;
  struct chv_batch **nq = chv_malloc(sizeof *nq * (size_t)nc);
  if (nq == NULL) return false;
  for (int k = 0; k < sp->n; k++) nq[k] = sp->q[(sp->head + k) % sp->cap];
  chv_free(sp->q);
  sp->q = nq;
  sp->head = 0;
  sp->cap = nc;
  return true;
}

/* Read split j on this thread into its queue. */
static void par_read_split(struct par *p, int j) {
  const struct chv_split *sp = &p->plan->splits[j];
  struct par_split *slot = &p->splits[j];
  struct chv_error err;
  chv_error_clear(&err);
  chv_scan *sc = NULL;
  struct chv_table t;
  int rc = conn_table_copy(&p->scan->table, &t)
               ? CHV_OK
               : chv_error_set(&err, CHV_ENOMEM, "out of memory");
  if (rc != CHV_OK) {
    chv_table_free(&t);
  } else {
    const struct chv_partition *part = &p->plan->partitions[sp->partition];
    char *none[1] = {NULL};
    char *const *values = part->values ? part->values : none;
    bool whole = sp->start == 0 && sp->length >= sp->file_size;
    rc = conn_scan_open_split(&t, values, sp->path, sp->start,
                              whole ? -1 : sp->length, &p->opts, &sc, &err);
  }
  struct chv_batch *b;
  while (rc == CHV_OK && (rc = chv_scan_next(sc, &b, &err)) == CHV_OK && b) {
    __atomic_fetch_add(&p->rows_read, b->nrows, __ATOMIC_RELAXED);
    /* A copy on the scan's schema (the split scan's goes with it), or
    ** what the hook makes of it. */
    struct chv_batch view = *b, *copy = NULL;
    view.schema = p->scan->out_schema;
    if (p->hook)
      rc = p->hook->batch(p->hook->ctx, &slot->state, &view, &copy, &err);
    else
      rc = chv_batch_copy(&view, &copy, &err);
    if (rc != CHV_OK) break;
    if (!copy) { /* a hook that keeps its rows (an INSERT's writes) */
      pthread_mutex_lock(&p->mu);
      bool stop = p->stop;
      pthread_mutex_unlock(&p->mu);
      if (stop) break;
      continue;
    }
    size_t bytes = chv_batch_bytes(copy);
    pthread_mutex_lock(&p->mu);
    while (!p->stop && slot->n >= PAR_QUEUE &&
           (slot->bytes >= PAR_QUEUE_BYTES || !par_queue_room(slot)))
      pthread_cond_wait(&p->consumed, &p->mu);
    bool stop = p->stop;
    if (!stop && !par_queue_room(slot)) { /* the first batches' room */
      rc = chv_error_set(&err, CHV_ENOMEM, "out of memory");
      stop = true;
    }
    if (!stop) {
      slot->q[(slot->head + slot->n) % slot->cap] = copy;
      slot->n++;
      slot->bytes += bytes;
      pthread_cond_broadcast(&p->produced);
    }
    pthread_mutex_unlock(&p->mu);
    if (stop) {
      chv_batch_close(copy);
      break;
    }
  }
  struct chv_scan_stats st = {0};
  if (sc) chv_scan_stats(sc, &st);
  chv_scan_close(sc);
  pthread_mutex_lock(&p->mu);
  p->nread++;
  slot->rc = rc;
  if (rc != CHV_OK) slot->err = err;
  if (p->hook) {
    slot->finished = true;
    par_end_splits(p);
  } else {
    slot->done = true;
  }
  par_skip_empty(p);
  struct chv_scan_stats *a = &p->scan->stats;
  a->files_read += st.files_read;
  a->malformed += st.malformed;
  a->row_groups += st.row_groups;
  a->row_groups_skipped += st.row_groups_skipped;
  a->stripes += st.stripes;
  a->stripes_skipped += st.stripes_skipped;
  a->bytes_read += st.bytes_read;
  pthread_cond_broadcast(&p->produced);
  pthread_mutex_unlock(&p->mu);
}

/* A reader thread: splits in order, never more than a window ahead of the
** one being returned (the queues of finished splits wait there). */
static void *par_main(void *arg) {
  struct par *p = arg;
  pthread_mutex_lock(&p->mu);
  chv_thread_set_slot(p->slots++); /* the sink's writer of this thread */
  for (;;) {
    while (!p->stop && p->next < p->plan->nsplits &&
           p->next > p->cur + 2 * p->nthreads)
      pthread_cond_wait(&p->consumed, &p->mu);
    if (p->stop || p->next >= p->plan->nsplits) break;
    int j = p->next++;
    pthread_mutex_unlock(&p->mu);
    par_read_split(p, j);
    pthread_mutex_lock(&p->mu);
  }
  pthread_mutex_unlock(&p->mu);
  return NULL;
}

static void par_stats(struct par *p, struct chv_scan_stats *out) {
  pthread_mutex_lock(&p->mu);
  *out = p->scan->stats;
  out->splits_total = p->plan->nsplits;
  out->splits_done = p->nread;
  pthread_mutex_unlock(&p->mu);
  out->rows_read = __atomic_load_n(&p->rows_read, __ATOMIC_RELAXED);
}

/* Stops the reader threads and waits for them: each adds what it read of
** its split to the scan's statistics as it leaves. */
static void par_stop(struct par *p) {
  pthread_mutex_lock(&p->mu);
  p->stop = true;
  pthread_cond_broadcast(&p->consumed);
  pthread_mutex_unlock(&p->mu);
  for (int i = 0; i < p->started; i++) pthread_join(p->threads[i], NULL);
  p->started = 0;
}

static void par_close(struct par *p) {
  if (p == NULL) return;
  par_stop(p);
  if (p->splits)
    for (int j = 0; j < p->plan->nsplits; j++) {
      for (int k = 0; k < p->splits[j].n; k++)
        chv_batch_close(p->splits[j].q[(p->splits[j].head + k) % p->splits[j].cap]);
      chv_free(p->splits[j].q);
      if (p->hook && p->splits[j].state) { /* not ended: free it */
        struct chv_error e;
        p->hook->done(p->hook->ctx, p->splits[j].state, false, &e);
      }
    }
  chv_batch_close(p->lent);
  chv_free(p->splits);
  chv_free(p->threads);
  chv_split_plan_free(p->plan);
  pthread_cond_destroy(&p->produced);
  pthread_cond_destroy(&p->consumed);
  pthread_mutex_destroy(&p->mu);
  chv_free(p);
}

/* Start the reader threads. */
static int par_launch(struct par *p, struct chv_error *err) {
  p->launched = true;
  for (int i = 0; i < p->nthreads; i++) {
    int rc = pthread_create(&p->threads[i], NULL, par_main, p);
    if (rc != 0)
      return chv_error_set(err, CHV_EIO, "starting a reader thread: %s",
                           strerror(rc));
    p->started++;
  }
  return CHV_OK;
}

/* The bytes of a piece of a stage's split (par_open()). */
#define STAGE_PIECE ((int64_t)8 << 20)

/* Plan the scan's splits and start the reader threads (none when there is
** at most one split: the scan then reads on the caller's thread, unless it
** is sampled: its splits are then the plan's, read on a reader thread). */
static int par_open(chv_scan *s, const struct chv_scan_options *opts,
                    struct chv_error *err) {
  /* A stage's and a sample's splits are planned as for one reader, so
  ** that they (and what the stage makes of each) do not depend on the
  ** thread count. */
  bool sampled = s->sample.kind != CHV_SAMPLE_NONE;
  struct chv_split_options so = {
      .filter = opts->filter,
      .min_splits = opts->hook || sampled ? 1 : opts->threads,
      .cfg = opts->cfg};
  struct chv_split_plan *plan;
  CHV_RETURN_IF_ERR(conn_split_plan(s->cat, &s->table, &so, &plan, err));
  /* A stage's Parquet and ORC splits are read in pieces of STAGE_PIECE
  ** bytes, so that the readers share a split whose row groups a filter
  ** left in one file (the pieces, too, do not depend on the threads). */
  struct conn_format fmt;
  int rc = CHV_OK;
  if (opts->hook && !sampled &&
      (rc = conn_table_format(&s->table, opts->cfg, &fmt, err)) == CHV_OK &&
      fmt.kind != CONN_FMT_TEXT)
    rc = conn_split_cut(plan, STAGE_PIECE, err);
  if (rc != CHV_OK) {
    chv_split_plan_free(plan);
    return rc;
  }
  if (sampled) s->stats.splits_planned = plan->nsplits;
  conn_split_sample(plan, &s->sample);
  s->stats.splits_total = plan->nsplits;
  if (plan->nsplits == 0 || (plan->nsplits == 1 && !sampled)) {
    if (sampled) s->done = true; /* the sample keeps no split */
    chv_split_plan_free(plan);
    return CHV_OK;
  }
  struct par *p = chv_calloc(1, sizeof *p);
  if (p == NULL) {
    chv_split_plan_free(plan);
    return chv_error_set(err, CHV_ENOMEM, "out of memory");
  }
  pthread_mutex_init(&p->mu, NULL);
  pthread_cond_init(&p->produced, NULL);
  pthread_cond_init(&p->consumed, NULL);
  p->scan = s;
  p->plan = plan;
  p->opts = *opts;
  p->opts.threads = 0;
  p->opts.filter = NULL;
  p->opts.hook = NULL;
  p->opts.progress = NULL; /* the split scans' progress is this scan's */
  p->opts.batch_rows = s->batch_rows;
  p->opts.sample.kind = CHV_SAMPLE_NONE; /* each split is read whole... */
  if (s->sample.kind == CHV_SAMPLE_ROWS) { /* ...or up to the sample's rows */
    int64_t n = s->sample.rows;
    p->opts.limit = opts->limit >= 0 ? CHV_MIN(opts->limit, n) : n;
    p->opts.preds = NULL;
    p->opts.npreds = 0;
    p->opts.bound = NULL;
  }
  p->hook = opts->hook;
  p->nthreads = CHV_MIN(CHV_MAX(opts->threads, 1), plan->nsplits);
  p->splits = chv_calloc((size_t)plan->nsplits, sizeof *p->splits);
  p->threads = chv_calloc((size_t)p->nthreads, sizeof *p->threads);
  s->par = p;
  if (p->splits == NULL || p->threads == NULL)
    return chv_error_set(err, CHV_ENOMEM, "out of memory");
  /* A sample's readers start at the first chv_scan_next(), so that a scan
  ** opened to be explained reads nothing of what it chose. */
  return sampled ? CHV_OK : par_launch(p, err);
}

/* The next batch in split order. */
static int par_next(chv_scan *s, struct chv_batch **out,
                    struct chv_error *err) {
  struct par *p = s->par;
  if (!p->launched) CHV_RETURN_IF_ERR(par_launch(p, err));
  chv_batch_close(p->lent);
  p->lent = NULL;
  pthread_mutex_lock(&p->mu);
  struct chv_batch *b = NULL;
  int rc = CHV_OK;
  while (p->cur < p->plan->nsplits) {
    struct par_split *slot = &p->splits[p->cur];
    if (slot->n > 0) {
      b = slot->q[slot->head];
      slot->head = (slot->head + 1) % slot->cap;
      slot->n--;
      slot->bytes -= CHV_MIN(slot->bytes, chv_batch_bytes(b));
      break;
    }
    if (slot->done && slot->rc != CHV_OK) {
      rc = slot->rc;
      *err = slot->err;
      break;
    }
    if (slot->done) {
      p->cur++; /* the window moves: readers waiting for it may go on */
      pthread_cond_broadcast(&p->consumed);
      continue;
    }
    if (s->cancel || s->progress) { /* wake up now and then to see the
                                       flag and tell the progress */
      if ((rc = scan_check_cancel(s, err)) != CHV_OK) break;
      struct timespec ts;
      clock_gettime(CLOCK_REALTIME, &ts);
      ts.tv_nsec += 20 * 1000000L;
      if (ts.tv_nsec >= 1000000000L) {
        ts.tv_sec++;
        ts.tv_nsec -= 1000000000L;
      }
      pthread_cond_timedwait(&p->produced, &p->mu, &ts);
      if (s->progress) { /* chv_scan_stats() takes the lock */
        pthread_mutex_unlock(&p->mu);
        s->progress(s->progress_ctx, s);
        pthread_mutex_lock(&p->mu);
      }
    } else {
      pthread_cond_wait(&p->produced, &p->mu);
    }
  }
  pthread_cond_broadcast(&p->consumed);
  pthread_mutex_unlock(&p->mu);
  if (rc != CHV_OK) return rc;
  if (b == NULL) {
    s->done = true;
    return CHV_OK;
  }
  if (s->limit >= 0 && s->stats.rows + b->nrows >= s->limit) {
    /* The last rows the limit wants: a prefix of the batch. */
    struct chv_batch view = *b, *cut;
    view.nrows = s->limit - s->stats.rows;
    rc = chv_batch_copy(&view, &cut, err);
    chv_batch_close(b);
    if (rc != CHV_OK) return rc;
    b = cut;
    s->done = true;
  }
  pthread_mutex_lock(&p->mu);
  s->stats.rows += b->nrows;
  pthread_mutex_unlock(&p->mu);
  p->lent = b;
  *out = b;
  return CHV_OK;
}

/* Close the current file's reader. */
static void scan_close_file(chv_scan *s) {
  if (s->reading) {
    struct conn_read_stats rs = {0};
    conn_reader_close(&s->reader, &rs);
    s->stats.malformed += rs.malformed;
    s->stats.row_groups += rs.row_groups;
    s->stats.row_groups_skipped += rs.row_groups_skipped;
    s->stats.stripes += rs.stripes;
    s->stats.stripes_skipped += rs.stripes_skipped;
    s->stats.bytes_read += rs.bytes_read;
    s->reading = false;
  }
  chv_batch_close(s->rbatch);
  s->rbatch = NULL;
}

/* The partition's values as constant columns, filled to capacity once per
** partition (batches take a prefix). */
static int scan_part_values(chv_scan *s, const struct chv_partition *p,
                            struct chv_error *err) {
  for (int i = 0; i < s->ncols; i++) {
    if (!s->cols[i].is_pkey) continue;
    struct chv_vector *v = s->cols[i].pvec;
    chv_vector_reset(v);
    const char *value = p->values ? p->values[s->cols[i].index] : NULL;
    /* A partition named by hive.exec.default.partition.name is the default
    ** partition: NULL, but on string keys the name itself, as Flink reads
    ** it (the catalog keeps Hive's own name as NULL already). */
    enum chv_type_id id = v->type->id;
    if (value && s->default_part && strcmp(value, s->default_part) == 0 &&
        id != CHV_TYPE_STRING && id != CHV_TYPE_VARCHAR && id != CHV_TYPE_CHAR)
      value = NULL;
    for (int64_t r = 0; r < s->batch_rows; r++)
      CHV_RETURN_IF_ERR(chv_part_value_append(v, value, err));
  }
  return CHV_OK;
}

/* Open a file (a range of it: length >= 0) for the scan's columns. */
static int scan_open_file(chv_scan *s, const char *path, int64_t start,
                          int64_t length, struct chv_error *err) {
  const struct chv_pred *preds = s->preds;
  int npreds = s->npreds;
  chv_free(s->bvalue); /* the last file's reader is closed */
  s->bvalue = NULL;
  if (s->bound) { /* the bound as it is now: one more predicate */
    pthread_mutex_lock(&s->bound->mu);
    if (s->bound->value) s->bvalue = chv_strdup(s->bound->value);
    pthread_mutex_unlock(&s->bound->mu);
  }
  if (s->bvalue) {
    struct chv_pred *bp =
        chv_realloc(s->bpreds, sizeof *bp * (size_t)(npreds + 1));
    if (bp == NULL) return chv_error_set(err, CHV_ENOMEM, "out of memory");
    s->bpreds = bp;
    if (npreds) memcpy(bp, s->preds, sizeof *bp * (size_t)npreds);
    bp[npreds] = (struct chv_pred){s->bound->column, s->bound->op, s->bvalue};
    preds = bp;
    npreds++;
  }
  struct conn_read_args ra = {.file_schema = s->file_schema,
                              .cols = s->file_cols,
                              .ncols = s->nfile_cols,
                              .batch_rows = s->batch_rows,
                              .preds = preds,
                              .npreds = npreds,
                              .range_start = start,
                              .range_length = length};
  CHV_RETURN_IF_ERR(conn_reader_open(&s->fmt, s->fs, path, &ra, &s->reader,
                                    err));
  s->reading = true;
  s->stats.files_read++;
  return chv_batch_open(conn_reader_schema(&s->reader), s->batch_rows,
                        &s->rbatch, err);
}

/* Open the next file to read, moving on to the next partition when the
** current one is exhausted; sets s->done at the end. */
static int scan_open_next_file(chv_scan *s, struct chv_error *err) {
  scan_close_file(s);
  while (s->file_idx >= s->files.count) {
    chv_dirlist_free(&s->files);
    s->file_idx = 0;
    if (s->part_idx >= s->nparts) {
      s->done = true;
      return CHV_OK;
    }
    const struct chv_partition *p = &s->parts[s->part_idx++];
    const struct chv_fs *fs;
    const char *dir;
    CHV_RETURN_IF_ERR(chv_fs_for_path(p->location, &fs, &dir, err));
    int rc = conn_list_partition(fs, dir, s->recursive, &s->files, err);
    if (rc == CHV_ENOENT) { /* a registered partition without a folder */
      chv_error_clear(err);
      continue;
    }
    if (rc != CHV_OK) return rc;
    CHV_RETURN_IF_ERR(scan_part_values(s, p, err));
  }
  const char *path = s->files.entries[s->file_idx++].path;
  if (conn_path_hidden(s->hidden, s->nhidden, path)) return CHV_OK;
  return scan_open_file(s, path, 0, -1, err);
}

/* The split of a split scan: its one file range, then the end. */
static int scan_open_split(chv_scan *s, struct chv_error *err) {
  scan_close_file(s);
  if (s->part_idx > 0) {
    s->done = true;
    return CHV_OK;
  }
  s->part_idx = 1;
  CHV_RETURN_IF_ERR(scan_part_values(s, &s->parts[0], err));
  return scan_open_file(s, s->split_path, s->split_start, s->split_length,
                        err);
}

/* The next batch of a scan read on the caller's thread. */
static int scan_next(chv_scan *s, struct chv_batch **out,
                     struct chv_error *err) {
  *out = NULL;
  while (!s->done) {
    CHV_RETURN_IF_ERR(scan_check_cancel(s, err));
    if (!s->reading) {
      CHV_RETURN_IF_ERR(s->split_path ? scan_open_split(s, err)
                                      : scan_open_next_file(s, err));
      continue;
    }
    if (s->limit >= 0 && s->nfile_cols > 0 &&
        s->limit - s->stats.rows < s->rbatch->cols[0]->capacity) {
      /* Read no more rows than the limit still wants. */
      const struct chv_type *rs = s->rbatch->schema;
      chv_batch_close(s->rbatch);
      s->rbatch = NULL;
      CHV_RETURN_IF_ERR(
          chv_batch_open(rs, s->limit - s->stats.rows, &s->rbatch, err));
    }
    int64_t n = 0;
    CHV_RETURN_IF_ERR(conn_reader_next(&s->reader, s->rbatch, &n, err));
    if (n == 0) {
      scan_close_file(s);
      continue;
    }
    if (s->limit >= 0 && s->stats.rows + n >= s->limit) {
      n = s->limit - s->stats.rows; /* only without projected data columns */
      s->done = true;
    }
    for (int i = 0; i < s->ncols; i++) {
      struct chv_vector *v = s->cols[i].pvec;
      if (v) {
        /* Constant column: every slot holds the value, so a prefix of the
        ** right length is a valid vector. */
        v->null_count = v->null_count > 0 ? n : 0;
        v->length = n;
      } else {
        v = s->rbatch->cols[s->cols[i].reader_pos];
      }
      s->out.cols[i] = v;
    }
    s->out.nrows = n;
    s->stats.rows += n;
    *out = &s->out;
    return CHV_OK;
  }
  return CHV_OK;
}

/* The hook of a scan read on the caller's thread: the scan is one split. */
static int hook_next(chv_scan *s, struct chv_batch **out,
                     struct chv_error *err) {
  *out = NULL;
  chv_batch_close(s->hlent);
  s->hlent = NULL;
  while (!s->hended) {
    struct chv_batch *b, *hb = NULL;
    CHV_RETURN_IF_ERR(scan_next(s, &b, err));
    if (b == NULL) {
      s->hended = true;
      void *state = s->hstate;
      s->hstate = NULL;
      return s->hook->done(s->hook->ctx, state, true, err);
    }
    CHV_RETURN_IF_ERR(s->hook->batch(s->hook->ctx, &s->hstate, b, &hb, err));
    if (hb) {
      *out = s->hlent = hb;
      return CHV_OK;
    }
    if (s->progress) s->progress(s->progress_ctx, s);
  }
  return CHV_OK;
}

int chv_scan_next(chv_scan *s, struct chv_batch **out, struct chv_error *err) {
  *out = NULL;
  CHV_RETURN_IF_ERR(scan_check_cancel(s, err));
  int rc;
  if (s->par && !s->done)
    rc = par_next(s, out, err);
  else if (s->hook && !s->par)
    rc = hook_next(s, out, err);
  else
    rc = scan_next(s, out, err);
  if (rc == CHV_OK && s->progress) s->progress(s->progress_ctx, s);
  return rc;
}

void chv_scan_stop(chv_scan *s) {
  if (s == NULL || !s->par) return;
  par_stop(s->par);
  s->done = true;
}

void chv_scan_close(chv_scan *s) {
  if (s == NULL) return;
  par_close(s->par);
  if (s->hook && !s->par && !s->hended) {
    struct chv_error e;
    s->hook->done(s->hook->ctx, s->hstate, false, &e);
  }
  chv_batch_close(s->hlent);
  scan_close_file(s);
  chv_dirlist_free(&s->files);
  chv_strv_free(s->hidden, s->nhidden);
  if (s->cols)
    for (int i = 0; i < s->ncols; i++) chv_vector_close(s->cols[i].pvec);
  chv_free(s->cols);
  chv_free(s->file_cols);
  chv_free(s->out.cols);
  chv_free(s->default_part);
  chv_partitions_free(s->parts, s->nparts);
  chv_type_free(s->file_schema);
  chv_type_free(s->out_schema);
  chv_table_free(&s->table);
  chv_free(s->split_path);
  chv_free(s->bpreds);
  chv_free(s->bvalue);
  chv_free(s);
}
