/*
** The batch sink: INSERT INTO/OVERWRITE (static and dynamic partitions),
** CREATE TABLE AS, LOAD DATA and TRUNCATE into a table of any format chive
** writes, staged under a hidden folder and published by chv_sink_commit().
** The protocol and its state diagram are in connector.h.
**
** Threads.  Rows may be written from several threads at once: an INSERT
** ... SELECT writes on the reader threads of its scan, as Flink's sink
** runs at the parallelism of its input.  Each write call takes a writer
** (conn_sink_writer_get): the writer of the calling thread's slot
** (chv_thread_slot(): a scan's reader threads are slots 0, 1, ...; other
** threads slot 0), so every reader thread writes files of its own, and the
** threads of a later scan of the statement (a UNION ALL branch) take up
** the same writers.  A writer has one open file per partition, named
** part-<id>-task-<slot>-file-<n>, in the staged partition folders
** <staging>/<k1=v1/...>/ that all writers share.  With sink.parallelism P
** slot k writes through writer k mod P, waiting while another thread has
** it (or taking another free one).  Invariants:
**
**   1. a writer is used by one thread at a time (busy, under mu); while
**      writes may run, nothing else of the sink changes but the counters
**      of rows and bytes, which are atomic;
**   2. file names are distinct: by the writer's task number across
**      writers, by its file counter within one;
**   3. the commit runs when no write does: it finishes every writer's
**      files (on one thread per writer), then merges the writers'
**      partitions, so that each partition's files from every writer move
**      in together and its statistics add up over all of them; from there
**      on the commit is the single-threaded protocol of connector.h.
**
** INTERFACE: chv_sink_*() (chive/connector.h); conn_sink_writer_get/_put,
** conn_writer_part, conn_writer_write_part (connector_int.h), for the
** dynamic partitions of sink_dynamic.c.
*/
#include "connector/connector.h"
#include "connector/connector_int.h"
#include "format/text/text.h"

#include <stdatomic.h>
#include <stdio.h>
#include <unistd.h>

struct chv_sink {
  chv_catalog *cat;
  const struct chv_fs *fs;
  struct chv_table table;
  struct chv_type *schema;       /* STRUCT of the data columns */
  struct conn_format fmt;
  struct chv_sink_options opts;
  bool success_file;             /* policy 'success-file' */
  char *success_file_name;       /* sink.partition-commit.success-file.name */
  bool metastore_policy;         /* policy 'metastore' */
  char *default_part;            /* hive.exec.default.partition.name when
                                    not Hive's own name, else NULL */
  bool gather_stats;             /* ...statistic-auto-gather.enable */
  int stats_threads;             /* ...statistic-auto-gather.thread-num */
  bool sorted;                   /* ...sort-by-dynamic-partition.enable */
  int max_writers;               /* sink.parallelism; 0: no bound */
  char *staging;                 /* <location>/.staging_<ms>_<id> */
  char id[37];                   /* random UUID shared by the files */
  int max_open_writers;          /* open files per writer */
  /* The writers (invariant 1), by slot (NULL: none yet): mu guards
  ** writers, nwriters and each writer's busy; freed signals one put back. */
  pthread_mutex_t mu;
  pthread_cond_t freed;
  bool locks_ready;
  struct conn_sink_writer **writers;
  int nwriters;
  int cap_writers;
  /* The partitions the commit publishes: every writer's, merged. */
  struct sink_part *parts;
  int nparts;
  atomic_int_fast64_t rows;      /* rows written so far */
  atomic_int_fast64_t bytes;     /* chv_sink_bytes() */
  int64_t record_id;             /* the write record; 0: none */
  bool committed;
};

void chv_sink_options_init(struct chv_sink_options *o) {
  memset(o, 0, sizeof *o);
}

/* Read the table's commit options (see chv_sink_open() in connector.h). */
static int sink_read_options(chv_sink *s, struct chv_error *err) {
  const struct chv_table *t = &s->table;
  const chv_config *cfg = s->opts.config;
  struct chv_opt_value v;
  chv_opt_value_init(&v);
  int rc = conn_table_option(t, cfg, "hive.exec.compress.output", &v, err);
  if (rc != CHV_OK) return rc;
  s->fmt.text.compress = v.b;
  chv_opt_value_free(&v);

  rc = conn_table_option(t, cfg, "sink.partition-commit.success-file.name", &v,
                         err);
  if (rc != CHV_OK) return rc;
  s->success_file_name = chv_strdup(v.text);
  chv_opt_value_free(&v);
  if (s->success_file_name == NULL)
    return chv_error_set(err, CHV_ENOMEM, "out of memory");

  rc = conn_table_option(t, cfg, "hive.exec.default.partition.name", &v, err);
  if (rc != CHV_OK) return rc;
  if (strcmp(v.text, CHV_DEFAULT_PARTITION_NAME) != 0) {
    s->default_part = v.text; /* taken over */
    v.text = NULL;
  }
  chv_opt_value_free(&v);

  rc = conn_table_option(t, cfg, "sink.partition-commit.policy.kind", &v, err);
  if (rc != CHV_OK) return rc;
  for (int i = 0; i < v.nlist; i++) {
    if (chv_str_ieq(v.list[i], "success-file"))
      s->success_file = true;
    else if (chv_str_ieq(v.list[i], "metastore"))
      s->metastore_policy = true;
    else if (chv_str_ieq(v.list[i], "custom"))
      rc = chv_error_set(err, CHV_ENOTSUP,
                         "table %s.%s: sink.partition-commit.policy.kind "
                         "'custom' needs a policy class, which chive cannot "
                         "load; use 'metastore' and 'success-file'",
                         t->db, t->name);
  }
  chv_opt_value_free(&v);
  if (rc != CHV_OK) return rc;

  rc = conn_table_option(
      t, cfg, "table.exec.hive.sink.sort-by-dynamic-partition.enable", &v, err);
  if (rc != CHV_OK) return rc;
  s->sorted = v.b;
  chv_opt_value_free(&v);

  /* Unset (no default): the writers follow the threads that write. */
  rc = conn_table_option(t, cfg, "sink.parallelism", &v, err);
  if (rc == CHV_ENOENT) {
    chv_error_clear(err);
    rc = CHV_OK;
  } else if (rc == CHV_OK) {
    s->max_writers = (int)CHV_MIN(v.i, 4096);
  }
  chv_opt_value_free(&v);
  if (rc != CHV_OK) return rc;

  rc = conn_table_option(t, cfg,
                         "table.exec.hive.sink.statistic-auto-gather.enable",
                         &v, err);
  if (rc != CHV_OK) return rc;
  s->gather_stats = v.b;
  chv_opt_value_free(&v);
  rc = conn_table_option(
      t, cfg, "table.exec.hive.sink.statistic-auto-gather.thread-num", &v, err);
  if (rc != CHV_OK) return rc;
  s->stats_threads = (int)v.i;
  chv_opt_value_free(&v);
  if (t->npkeys > 0 && s->gather_stats && !s->metastore_policy)
    return chv_error_set(err, CHV_EINVAL,
                         "table %s.%s: a batch write into a partitioned table "
                         "gathers statistics into the metastore, so "
                         "sink.partition-commit.policy.kind must contain "
                         "'metastore' (or set "
                         "table.exec.hive.sink.statistic-auto-gather.enable "
                         "to false)",
                         t->db, t->name);
  return CHV_OK;
}

const struct chv_type *chv_sink_schema(const chv_sink *s) { return s->schema; }
int64_t chv_sink_rows(const chv_sink *s) { return atomic_load(&s->rows); }
int64_t chv_sink_bytes(const chv_sink *s) { return atomic_load(&s->bytes); }
const struct chv_table *chv_sink_table(const chv_sink *s) { return &s->table; }
const struct chv_table *conn_sink_table(const chv_sink *s) { return &s->table; }
const struct chv_type *conn_sink_data_schema(const chv_sink *s) {
  return s->schema;
}
bool conn_sink_sorted(const chv_sink *s) { return s->sorted; }

int chv_sink_open(chv_catalog *cat, const char *db, const char *table,
                  const struct chv_sink_options *opts, chv_sink **out,
                  struct chv_error *err) {
  chv_sink *s = chv_calloc(1, sizeof *s);
  if (s == NULL) return chv_error_set(err, CHV_ENOMEM, "out of memory");
  s->cat = cat;
  atomic_init(&s->rows, 0);
  atomic_init(&s->bytes, 0);
  if (opts)
    s->opts = *opts;
  else
    chv_sink_options_init(&s->opts);
  if (s->opts.now_ms == 0) s->opts.now_ms = chv_time_now_ms();
  s->max_open_writers =
      s->opts.max_open_writers > 0 ? s->opts.max_open_writers : 64;
  const char *inner;
  int rc = CHV_OK;
  if (pthread_mutex_init(&s->mu, NULL) != 0) goto out_oom;
  if (pthread_cond_init(&s->freed, NULL) != 0) {
    pthread_mutex_destroy(&s->mu);
    goto out_oom;
  }
  s->locks_ready = true;
  rc = conn_get_table(cat, db, table, "write", &s->table, err);
  if (rc != CHV_OK) goto out_free;
  rc = conn_table_overlay(&s->table, s->opts.table_options,
                          s->opts.ntable_options, err);
  if (rc != CHV_OK) goto out_free;
  rc = conn_table_format(&s->table, s->opts.config, &s->fmt, err);
  if (rc != CHV_OK) goto out_free;
  rc = sink_read_options(s, err);
  if (rc != CHV_OK) goto out_free;
  /* sorted runs reach each partition once: one open file suffices */
  if (s->sorted && s->opts.max_open_writers <= 0) s->max_open_writers = 1;
  rc = conn_table_schema(&s->table, false, &s->schema, err);
  if (rc != CHV_OK) goto out_free;
  rc = chv_fs_for_path(s->table.location, &s->fs, &inner, err);
  if (rc != CHV_OK) goto out_free;
  rc = conn_uuid(s->id, err);
  if (rc != CHV_OK) goto out_free;

  /* Finish or undo what writers that died left behind. */
  rc = conn_recover_table(cat, s->fs, s->table.db, s->table.name, err);
  if (rc != CHV_OK) goto out_free;

  /* A staging folder of its own: Flink's .staging_<ms>, with the write's
  ** random id so that writers started in the same millisecond (in other
  ** processes too) never share one.  It is registered before it exists, so
  ** that a writer killed at any point leaves nothing the next one does not
  ** know of. */
  s->staging = chv_asprintf("%s/.staging_%lld_%.8s", inner,
                            (long long)s->opts.now_ms, s->id);
  if (s->staging == NULL) goto out_oom;
  rc = chv_catalog_commit_register(cat, s->table.db, s->table.name,
                                   (int64_t)getpid(), s->staging,
                                   &s->record_id, err);
  if (rc != CHV_OK) goto out_free;
  rc = s->fs->mkdirs(s->fs, s->staging, err);
  if (rc != CHV_OK) goto out_free;
  *out = s;
  return CHV_OK;

out_oom:
  rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
out_free:
  chv_sink_close(s);
  return rc;
}

/* ---- writers --------------------------------------------------------------- */

/* A new writer, numbered task.  NULL when out of memory. */
static struct conn_sink_writer *writer_new(chv_sink *s, int task) {
  struct conn_sink_writer *w = chv_calloc(1, sizeof *w);
  if (w == NULL) return NULL;
  w->sink = s;
  w->task = task;
  w->sort.on = s->sorted;
  return w;
}

static void part_free(struct sink_part *p, int nkeys) {
  conn_writer_close(&p->w);
  chv_strv_free(p->values, nkeys);
  chv_free(p->relpath);
  for (int k = 0; k < p->nfiles; k++) {
    chv_free(p->files[k].name);
    chv_free(p->files[k].staged);
    chv_free(p->files[k].move_from);
  }
  chv_free(p->files);
}

static void writer_free(struct conn_sink_writer *w) {
  if (w == NULL) return;
  int nkeys = w->sink->table.npkeys;
  for (int i = 0; i < w->nparts; i++) part_free(&w->parts[i], nkeys);
  chv_free(w->parts);
  conn_bytemap_free(&w->by_path);
  conn_writer_free_dynamic(w);
  chv_free(w);
}

int conn_sink_writer_get(chv_sink *s, struct conn_sink_writer **out,
                         struct chv_error *err) {
  int slot = chv_thread_slot();
  int want = s->max_writers > 0 ? slot % s->max_writers : slot;
  int rc = CHV_OK;
  pthread_mutex_lock(&s->mu);
  if (want >= s->cap_writers) { /* writers[] is indexed by slot */
    int cap = CHV_MAX(want + 1, 2 * s->cap_writers);
    struct conn_sink_writer **v =
        chv_realloc(s->writers, (size_t)cap * sizeof *v);
    if (v == NULL) {
      pthread_mutex_unlock(&s->mu);
      return chv_error_set(err, CHV_ENOMEM, "out of memory");
    }
    for (int i = s->cap_writers; i < cap; i++) v[i] = NULL;
    s->writers = v;
    s->cap_writers = cap;
  }
  if (s->writers[want] == NULL) {
    s->writers[want] = writer_new(s, want);
    if (s->writers[want] == NULL)
      rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
    else if (want >= s->nwriters)
      s->nwriters = want + 1;
  }
  struct conn_sink_writer *w = rc == CHV_OK ? s->writers[want] : NULL;
  /* The slot's writer is taken (two threads of one slot, or slots beyond
  ** sink.parallelism): another free one, else wait for one. */
  while (w != NULL && w->busy) {
    for (int i = 0; i < s->nwriters; i++)
      if (s->writers[i] && !s->writers[i]->busy) {
        w = s->writers[i];
        break;
      }
    if (w->busy) pthread_cond_wait(&s->freed, &s->mu);
  }
  if (w != NULL) {
    w->busy = true;
    *out = w;
  }
  pthread_mutex_unlock(&s->mu);
  return rc;
}

void conn_sink_writer_put(chv_sink *s, struct conn_sink_writer *w) {
  pthread_mutex_lock(&s->mu);
  w->busy = false;
  pthread_cond_signal(&s->freed);
  pthread_mutex_unlock(&s->mu);
}

/* The part of w at relpath with values, added when there is none yet;
** relpath is taken over. */
static int part_find(struct conn_sink_writer *w, char *const *values,
                     char *relpath, int *index, struct chv_error *err) {
  int nkeys = w->sink->table.npkeys;
  if (relpath == NULL) return chv_error_set(err, CHV_ENOMEM, "out of memory");
  size_t len = strlen(relpath);
  uint64_t h = conn_hash_bytes(relpath, len);
  int at = conn_bytemap_get(&w->by_path, relpath, len, h);
  if (at >= 0) {
    chv_free(relpath);
    *index = at;
    return CHV_OK;
  }
  if (w->nparts == w->cap_parts) {
    int cap = w->cap_parts ? w->cap_parts * 2 : 8;
    struct sink_part *p = chv_realloc(w->parts, (size_t)cap * sizeof *p);
    if (p == NULL) {
      chv_free(relpath);
      return chv_error_set(err, CHV_ENOMEM, "out of memory");
    }
    w->parts = p;
    w->cap_parts = cap;
  }
  struct sink_part *p = &w->parts[w->nparts];
  memset(p, 0, sizeof *p);
  p->relpath = relpath;
  if (nkeys > 0) {
    p->values = chv_calloc((size_t)nkeys, sizeof *p->values);
    if (p->values == NULL) goto out_free;
    for (int i = 0; i < nkeys; i++) {
      if (values[i] == NULL || values[i][0] == '\0') continue;
      p->values[i] = chv_strdup(values[i]);
      if (p->values[i] == NULL) goto out_free;
    }
  }
  if (conn_bytemap_put(&w->by_path, relpath, len, h, w->nparts) != CHV_OK)
    goto out_free;
  *index = w->nparts++;
  return CHV_OK;

out_free:
  chv_strv_free(p->values, nkeys);
  chv_free(p->relpath);
  memset(p, 0, sizeof *p);
  return chv_error_set(err, CHV_ENOMEM, "out of memory");
}

int conn_writer_part(struct conn_sink_writer *w, char *const *given,
                     int *index, struct chv_error *err) {
  chv_sink *s = w->sink;
  int nkeys = s->table.npkeys;
  char *relpath;
  /* NULL and empty values go to hive.exec.default.partition.name; the
  ** catalog itself keeps Hive's own name as NULL. */
  char *const *values = given;
  char **named = NULL;
  for (int i = 0; s->default_part && i < nkeys; i++)
    if (given[i] == NULL || given[i][0] == '\0') {
      if (named == NULL) {
        named = chv_calloc((size_t)nkeys, sizeof *named);
        if (named == NULL)
          return chv_error_set(err, CHV_ENOMEM, "out of memory");
        memcpy(named, given, (size_t)nkeys * sizeof *named);
        values = named;
      }
      named[i] = s->default_part;
    }
  if (nkeys == 0) {
    relpath = chv_strdup("");
  } else {
    char **keys = chv_calloc((size_t)nkeys, sizeof *keys);
    if (keys == NULL) {
      chv_free(named);
      return chv_error_set(err, CHV_ENOMEM, "out of memory");
    }
    for (int i = 0; i < nkeys; i++) keys[i] = s->table.pkeys[i].name;
    relpath = chv_partition_path(keys, values, nkeys);
    chv_free(keys);
  }
  int rc = part_find(w, values, relpath, index, err);
  chv_free(named);
  return rc;
}

/* Finish part p's open file, recording its statistics (the caller counts
** its writer's open files). */
static int part_finish(chv_sink *s, struct sink_part *p,
                       struct chv_error *err) {
  if (!conn_writer_is_open(&p->w)) return CHV_OK;
  struct conn_write_stats st;
  int rc = conn_writer_finish(&p->w, &st, err);
  if (rc != CHV_OK) return rc;
  struct sink_file *f = &p->files[p->nfiles - 1];
  f->rows = st.rows;
  f->raw_bytes = st.raw_bytes;
  f->file_bytes = st.file_bytes;
  return CHV_OK;
}

/* Room for one more file in p. */
static int part_grow(struct sink_part *p, struct chv_error *err) {
  if (p->nfiles < p->cap_files) return CHV_OK;
  int cap = p->cap_files ? p->cap_files * 2 : 2;
  struct sink_file *v = chv_realloc(p->files, (size_t)cap * sizeof *v);
  if (v == NULL) return chv_error_set(err, CHV_ENOMEM, "out of memory");
  p->files = v;
  p->cap_files = cap;
  return CHV_OK;
}

/* A new staged file for p named name (NULL: w's next part-... name); its
** folder is created. */
static int part_new_file(struct conn_sink_writer *w, struct sink_part *p,
                         const char *name, struct chv_error *err) {
  chv_sink *s = w->sink;
  CHV_RETURN_IF_ERR(part_grow(p, err));
  struct sink_file *f = &p->files[p->nfiles];
  memset(f, 0, sizeof *f);
  f->name = name ? chv_strdup(name)
                 : chv_asprintf("part-%s-task-%d-file-%d%s", s->id, w->task,
                                w->file_seq++, conn_format_suffix(&s->fmt));
  char *dir = chv_path_join(s->staging, p->relpath);
  f->staged = f->name && dir ? chv_path_join(dir, f->name) : NULL;
  int rc = f->staged ? s->fs->mkdirs(s->fs, dir, err)
                     : chv_error_set(err, CHV_ENOMEM, "out of memory");
  chv_free(dir);
  if (rc == CHV_OK && name && chv_fs_exists(s->fs, f->staged))
    rc = chv_error_set(err, CHV_EEXIST,
                       "%s.%s: two files named %s go into partition %s",
                       s->table.db, s->table.name, name, p->relpath);
  if (rc != CHV_OK) {
    chv_free(f->name);
    chv_free(f->staged);
    return rc;
  }
  p->nfiles++;
  return CHV_OK;
}

/* Part index's open file, opening a new one (and finishing w's least
** recently written file when max_open_writers are open) if it has none. */
static int part_writer(struct conn_sink_writer *w, int index,
                       struct chv_error *err) {
  chv_sink *s = w->sink;
  w->parts[index].last_use = ++w->clock;
  if (conn_writer_is_open(&w->parts[index].w)) return CHV_OK;
  if (w->open_writers >= s->max_open_writers) {
    struct sink_part *lru = NULL;
    for (int i = 0; i < w->nparts; i++)
      if (conn_writer_is_open(&w->parts[i].w) &&
          (lru == NULL || w->parts[i].last_use < lru->last_use))
        lru = &w->parts[i];
    if (lru) {
      w->open_writers--;
      CHV_RETURN_IF_ERR(part_finish(s, lru, err));
    }
  }
  struct sink_part *p = &w->parts[index];
  CHV_RETURN_IF_ERR(part_new_file(w, p, NULL, err));
  struct sink_file *f = &p->files[p->nfiles - 1];
  int rc = conn_writer_open(&s->fmt, s->fs, f->staged, s->schema, &p->w, err);
  if (rc != CHV_OK) {
    p->nfiles--;
    chv_free(f->name);
    chv_free(f->staged);
    return rc;
  }
  w->open_writers++;
  return CHV_OK;
}

int conn_writer_write_part(struct conn_sink_writer *w, int index,
                           const struct chv_batch *b, struct chv_error *err) {
  if (b->nrows == 0) return CHV_OK; /* the partition is still written */
  CHV_RETURN_IF_ERR(part_writer(w, index, err));
  return conn_writer_write(&w->parts[index].w, b, err);
}

/* The bytes of v's rows [lo, hi) in memory: values of fixed width, the
** bytes of strings, what nested values hold. */
static int64_t vector_bytes(const struct chv_vector *v, int64_t lo,
                            int64_t hi) {
  enum chv_type_id id = v->type->id;
  if (hi <= lo) return 0;
  if (chv_type_is_string_like(id)) return v->offsets[hi] - v->offsets[lo];
  if (id == CHV_TYPE_BOOLEAN) return (hi - lo + 7) / 8;
  if (chv_type_is_primitive(id))
    return (hi - lo) * (int64_t)chv_type_fixed_width(id);
  int64_t sum = 0;
  for (int c = 0; c < v->nchildren; c++)
    sum += id == CHV_TYPE_STRUCT
               ? vector_bytes(v->children[c], lo, hi)
               : vector_bytes(v->children[c], v->offsets[lo], v->offsets[hi]);
  return sum;
}

void conn_sink_count(chv_sink *s, const struct chv_batch *b) {
  int64_t bytes = 0;
  for (int c = 0; c < b->ncols; c++) bytes += vector_bytes(b->cols[c], 0, b->nrows);
  atomic_fetch_add(&s->rows, b->nrows);
  atomic_fetch_add(&s->bytes, bytes);
}

int chv_sink_write(chv_sink *s, char *const *part_values,
                   const struct chv_batch *batch, struct chv_error *err) {
  if (s->committed)
    return chv_error_set(err, CHV_EINVAL, "sink of %s.%s: already committed",
                         s->table.db, s->table.name);
  if (!chv_type_equal(batch->schema, s->schema))
    return chv_error_set(err, CHV_ETYPE,
                         "sink of %s.%s: batch columns differ from the "
                         "table's data columns",
                         s->table.db, s->table.name);
  if (s->table.npkeys > 0 && part_values == NULL)
    return chv_error_set(err, CHV_EINVAL,
                         "sink of %s.%s: partitioned table needs partition "
                         "values",
                         s->table.db, s->table.name);
  struct conn_sink_writer *w;
  CHV_RETURN_IF_ERR(conn_sink_writer_get(s, &w, err));
  int index;
  int rc = conn_writer_part(w, part_values, &index, err);
  if (rc == CHV_OK) rc = conn_writer_write_part(w, index, batch, err);
  conn_sink_writer_put(s, w);
  if (rc == CHV_OK) conn_sink_count(s, batch);
  return rc;
}

/* Copy a file (LOAD DATA LOCAL) through a buffer. */
static int sink_copy_file(chv_sink *s, const char *from, const char *to,
                          int64_t *bytes, struct chv_error *err) {
  struct chv_file *in = NULL, *out = NULL;
  int rc = s->fs->open(s->fs, from, &in, err);
  if (rc == CHV_OK) rc = s->fs->create(s->fs, to, true, &out, err);
  char *buf = rc == CHV_OK ? chv_malloc(1 << 20) : NULL;
  if (rc == CHV_OK && buf == NULL)
    rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
  *bytes = 0;
  while (rc == CHV_OK) {
    size_t got;
    rc = s->fs->read(in, buf, 1 << 20, &got, err);
    if (rc != CHV_OK || got == 0) break;
    rc = s->fs->write(out, buf, got, err);
    *bytes += (int64_t)got;
  }
  if (rc == CHV_OK) rc = s->fs->sync(out, err);
  chv_free(buf);
  chv_file_close(in);
  chv_file_close(out);
  return rc;
}

/* chv_sink_add_file() on writer w. */
static int writer_add_file(struct conn_sink_writer *w,
                           char *const *part_values, const char *inner, const char *name,
                           const struct chv_stat *st, bool copy,
                           struct chv_error *err) {
  chv_sink *s = w->sink;
  int index;
  CHV_RETURN_IF_ERR(conn_writer_part(w, part_values, &index, err));
  struct sink_part *p = &w->parts[index];
  CHV_RETURN_IF_ERR(part_new_file(w, p, name, err));
  struct sink_file *f = &p->files[p->nfiles - 1];
  /* Copied, never moved, into the staging folder, so that a write that
  ** fails or is killed loses nothing; a move deletes the source after the
  ** commit. */
  int64_t bytes = st->size;
  int rc = sink_copy_file(s, inner, f->staged, &bytes, err);
  if (rc == CHV_OK && !copy) {
    f->move_from = chv_strdup(inner);
    if (f->move_from == NULL)
      rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
  }
  if (rc != CHV_OK) {
    s->fs->remove(s->fs, f->staged, false, NULL);
    p->nfiles--;
    chv_free(f->name);
    chv_free(f->staged);
    return rc;
  }
  f->rows = -1;
  f->raw_bytes = -1;
  f->file_bytes = bytes;
  return CHV_OK;
}

int chv_sink_add_file(chv_sink *s, char *const *part_values, const char *path,
                      bool copy, struct chv_error *err) {
  if (s->committed)
    return chv_error_set(err, CHV_EINVAL, "sink of %s.%s: already committed",
                         s->table.db, s->table.name);
  if (s->table.npkeys > 0 && part_values == NULL)
    return chv_error_set(err, CHV_EINVAL,
                         "sink of %s.%s: partitioned table needs partition "
                         "values",
                         s->table.db, s->table.name);
  const struct chv_fs *fs;
  const char *inner;
  CHV_RETURN_IF_ERR(chv_fs_for_path(path, &fs, &inner, err));
  struct chv_stat st;
  int rc = fs->stat(fs, inner, &st, err);
  if (rc != CHV_OK) return rc;
  if (st.is_dir)
    return chv_error_set(err, CHV_EINVAL, "%s is a folder, not a file", path);
  const char *name = strrchr(inner, '/') ? strrchr(inner, '/') + 1 : inner;
  if (chv_path_is_hidden(name))
    return chv_error_set(err, CHV_EINVAL,
                         "%s: names starting with '.' or '_' are hidden from "
                         "readers",
                         path);
  struct conn_sink_writer *w;
  CHV_RETURN_IF_ERR(conn_sink_writer_get(s, &w, err));
  rc = writer_add_file(w, part_values, inner, name, &st, copy, err);
  conn_sink_writer_put(s, w);
  return rc;
}

/* ---- commit ------------------------------------------------------------ */

/* What a commit did to the file system, so that a failure can undo it. */
enum undo_kind {
  UNDO_RENAME,  /* a was renamed to b: rename b back to a */
  UNDO_FILE,    /* file a was created: remove it */
  UNDO_DIR,     /* folder a was created: remove it if empty */
};

struct undo {
  enum undo_kind kind;
  char *a;
  char *b;
};

struct undo_log {
  struct undo *v;
  int n;
  int cap;
};

/* Record an action; on out-of-memory the strings are freed and nothing is
** recorded (callers record before they act). */
static int undo_push(struct undo_log *l, enum undo_kind kind, char *a,
                     char *b, struct chv_error *err) {
  if (a == NULL || (kind == UNDO_RENAME && b == NULL)) goto out_oom;
  if (l->n == l->cap) {
    int cap = l->cap ? l->cap * 2 : 16;
    struct undo *v = chv_realloc(l->v, (size_t)cap * sizeof *v);
    if (v == NULL) goto out_oom;
    l->v = v;
    l->cap = cap;
  }
  l->v[l->n++] = (struct undo){kind, a, b};
  return CHV_OK;
out_oom:
  chv_free(a);
  chv_free(b);
  return chv_error_set(err, CHV_ENOMEM, "out of memory");
}

static void undo_pop_free(struct undo_log *l) {
  l->n--;
  chv_free(l->v[l->n].a);
  chv_free(l->v[l->n].b);
}

/* Undo everything recorded, newest first (best effort: the first failure
** is the one reported already). */
static void undo_all(const struct chv_fs *fs, struct undo_log *l) {
  while (l->n > 0) {
    struct undo *u = &l->v[l->n - 1];
    switch (u->kind) {
    case UNDO_RENAME: fs->rename(fs, u->b, u->a, NULL); break;
    case UNDO_FILE: fs->remove(fs, u->a, false, NULL); break;
    case UNDO_DIR: fs->remove(fs, u->a, false, NULL); break;
    }
    undo_pop_free(l);
  }
}

static void undo_free(struct undo_log *l) {
  while (l->n > 0) undo_pop_free(l);
  chv_free(l->v);
  l->v = NULL;
  l->cap = 0;
}

/* Rename from -> to, recorded for undo. */
static int logged_rename(chv_sink *s, struct undo_log *l, const char *from,
                         const char *to, struct chv_error *err) {
  CHV_RETURN_IF_ERR(
      undo_push(l, UNDO_RENAME, chv_strdup(from), chv_strdup(to), err));
  int rc = s->fs->rename(s->fs, from, to, err);
  if (rc != CHV_OK) undo_pop_free(l);
  return rc;
}

/* Create dir and the folders above it that are missing, recorded. */
static int logged_mkdirs(chv_sink *s, struct undo_log *l, const char *dir,
                         struct chv_error *err) {
  if (chv_fs_exists(s->fs, dir)) return CHV_OK;
  char *parent = chv_strdup(dir);
  if (parent == NULL) return chv_error_set(err, CHV_ENOMEM, "out of memory");
  char *slash = strrchr(parent, '/');
  int rc = CHV_OK;
  if (slash && slash != parent) {
    *slash = '\0';
    rc = logged_mkdirs(s, l, parent, err);
  }
  chv_free(parent);
  if (rc != CHV_OK) return rc;
  CHV_RETURN_IF_ERR(undo_push(l, UNDO_DIR, chv_strdup(dir), NULL, err));
  rc = s->fs->mkdirs(s->fs, dir, err);
  if (rc != CHV_OK) undo_pop_free(l);
  return rc;
}

/* Create an empty file (a success file), or truncate the one another
** writer made meanwhile: no data to sync, and the sync of its folder that
** follows makes its name durable. */
static int touch_empty(chv_sink *s, const char *path, struct chv_error *err) {
  struct chv_file *f;
  CHV_RETURN_IF_ERR(s->fs->create(s->fs, path, false, &f, err));
  chv_file_close(f);
  return CHV_OK;
}

/* Create an empty file, recorded. */
static int logged_touch(chv_sink *s, struct undo_log *l, const char *path,
                        struct chv_error *err) {
  CHV_RETURN_IF_ERR(undo_push(l, UNDO_FILE, chv_strdup(path), NULL, err));
  int rc = touch_empty(s, path, err);
  if (rc != CHV_OK) undo_pop_free(l);
  return rc;
}

/* A growable list of owned paths. */
struct pathv {
  char **v;
  int n;
  int cap;
};

static int pathv_push(struct pathv *pv, char *path /* takes ownership */,
                      struct chv_error *err) {
  if (path == NULL) return chv_error_set(err, CHV_ENOMEM, "out of memory");
  if (pv->n == pv->cap) {
    int cap = pv->cap ? pv->cap * 2 : 16;
    char **v = chv_realloc(pv->v, (size_t)cap * sizeof *v);
    if (v == NULL) {
      chv_free(path);
      return chv_error_set(err, CHV_ENOMEM, "out of memory");
    }
    pv->v = v;
    pv->cap = cap;
  }
  pv->v[pv->n++] = path;
  return CHV_OK;
}

static void pathv_free(struct pathv *pv) {
  chv_strv_free(pv->v, pv->n);
  memset(pv, 0, sizeof *pv);
}

/* Where one partition's file goes, decided before anything moves. */
struct part_plan {
  char *dest;            /* the partition (or table) folder */
  char **targets;        /* dest/<file name> of each file */
  char *marker;          /* success file to create, or NULL */
  bool fresh_dir;        /* dest did not exist: the staged folder moves in
                            whole, with one rename */
  struct chv_stats delta; /* what this write adds (files, bytes, rows) */
};

static void plans_free(struct part_plan *pl, int n) {
  if (pl == NULL) return;
  for (int i = 0; i < n; i++) {
    chv_free(pl[i].dest);
    chv_free(pl[i].targets); /* the strings belong to newv */
    chv_free(pl[i].marker);
  }
  chv_free(pl);
}

/* Push onto newv a path in dest for a file named name that no file there
** has: name itself, else name_copy_<n> (before the extension), as Hive
** names a loaded file that would clash. */
static int sink_target_name(chv_sink *s, const char *dest, const char *name,
                            struct pathv *newv, struct chv_error *err) {
  char *path = chv_path_join(dest, name);
  const char *dot = strchr(name, '.');
  size_t stem = dot && dot != name ? (size_t)(dot - name) : strlen(name);
  for (int n = 1; path != NULL && chv_fs_exists(s->fs, path); n++) {
    chv_free(path);
    char *alt = chv_asprintf("%.*s_copy_%d%s", (int)stem, name, n, name + stem);
    path = alt ? chv_path_join(dest, alt) : NULL;
    chv_free(alt);
  }
  return pathv_push(newv, path, err);
}

/* Push onto dirv dest and each folder above it that does not exist, below
** the first that does. */
static int sink_missing_dirs(chv_sink *s, const char *dest, struct pathv *dirv,
                             struct chv_error *err) {
  char *d = chv_strdup(dest);
  if (d == NULL) return chv_error_set(err, CHV_ENOMEM, "out of memory");
  int rc = CHV_OK;
  while (rc == CHV_OK && !chv_fs_exists(s->fs, d)) {
    rc = pathv_push(dirv, chv_strdup(d), err);
    char *slash = strrchr(d, '/');
    if (slash == NULL || slash == d) break;
    *slash = '\0';
  }
  chv_free(d);
  return rc;
}

/* Decide the destination of part p; with OVERWRITE, the folder's visible
** entries go to old (they are deleted once the commit holds). */
static int sink_plan_part(chv_sink *s, struct sink_part *p,
                          struct part_plan *pl, struct pathv *newv,
                          struct pathv *oldv, struct pathv *dirv,
                          struct chv_error *err) {
  const struct chv_fs *fs;
  const char *inner;
  struct chv_partition existing = {0};
  int rc = CHV_OK;
  if (s->table.npkeys > 0) {
    rc = chv_catalog_get_partition(s->cat, s->table.db, s->table.name,
                                   p->values, &existing, err);
    if (rc == CHV_OK) {
      rc = chv_fs_for_path(existing.location, &fs, &inner, err);
      if (rc == CHV_OK) pl->dest = chv_strdup(inner);
    } else if (rc == CHV_ENOENT) {
      chv_error_clear(err);
      rc = chv_fs_for_path(s->table.location, &fs, &inner, err);
      if (rc == CHV_OK) pl->dest = chv_path_join(inner, p->relpath);
    }
  } else {
    rc = chv_fs_for_path(s->table.location, &fs, &inner, err);
    if (rc == CHV_OK) pl->dest = chv_strdup(inner);
  }
  chv_partition_free(&existing);
  if (rc != CHV_OK) return rc;
  if (pl->dest == NULL) return chv_error_set(err, CHV_ENOMEM, "out of memory");
  if (fs != s->fs)
    return chv_error_set(err, CHV_ENOTSUP,
                         "partition %s of %s.%s lies on another file system "
                         "than the table; files cannot be renamed into it",
                         p->relpath, s->table.db, s->table.name);
  /* A partition folder that does not exist yet is created by moving the
  ** staged one into place, so a reader of the folders sees all of its
  ** files or none. */
  pl->fresh_dir = s->table.npkeys > 0 && !chv_fs_exists(s->fs, pl->dest);
  if (pl->fresh_dir) CHV_RETURN_IF_ERR(sink_missing_dirs(s, pl->dest, dirv, err));
  pl->targets = chv_calloc((size_t)p->nfiles + 1, sizeof *pl->targets);
  if (pl->targets == NULL)
    return chv_error_set(err, CHV_ENOMEM, "out of memory");
  for (int i = 0; i < p->nfiles; i++) {
    CHV_RETURN_IF_ERR(sink_target_name(s, pl->dest, p->files[i].name, newv,
                                       err));
    pl->targets[i] = newv->v[newv->n - 1];
  }
  if (s->success_file) {
    char *m = chv_path_join(pl->dest, s->success_file_name);
    if (m == NULL) return chv_error_set(err, CHV_ENOMEM, "out of memory");
    if (chv_fs_exists(s->fs, m)) {
      chv_free(m);
    } else {
      pl->marker = m;
      CHV_RETURN_IF_ERR(pathv_push(newv, chv_strdup(m), err));
    }
  }
  if (!s->opts.overwrite || pl->fresh_dir) return CHV_OK;
  struct chv_dirlist ls = {0};
  rc = s->fs->list(s->fs, pl->dest, CHV_LIST_SKIP_HIDDEN, &ls, err);
  if (rc == CHV_ENOENT) {
    chv_error_clear(err);
    return CHV_OK;
  }
  for (size_t i = 0; rc == CHV_OK && i < ls.count; i++)
    rc = pathv_push(oldv, chv_strdup(ls.entries[i].path), err);
  chv_dirlist_free(&ls);
  return rc;
}

/* Add dir to the folders to sync once the moves are done (once each: the
** partitions of a table share their parent). */
static int sync_later(struct pathv *dirs, const char *dir,
                      struct chv_error *err) {
  for (int i = dirs->n - 1; i >= 0; i--)
    if (strcmp(dirs->v[i], dir) == 0) return CHV_OK;
  return pathv_push(dirs, chv_strdup(dir), err);
}

/* Move the staged folder of part p into place as pl->dest, with its
** success file, in one rename; its parent goes to dirs, to be synced.
** *moved is false (and nothing is left changed but the folders above dest)
** when dest appeared meanwhile. */
static int sink_move_dir(chv_sink *s, struct undo_log *l, struct sink_part *p,
                         struct part_plan *pl, struct pathv *dirs, bool *moved,
                         struct chv_error *err) {
  *moved = false;
  char *from = chv_path_join(s->staging, p->relpath);
  char *parent = chv_strdup(pl->dest);
  char *marker = NULL;
  int rc = CHV_OK;
  if (from == NULL || parent == NULL) {
    rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
    goto out;
  }
  char *slash = strrchr(parent, '/');
  if (slash && slash != parent) {
    *slash = '\0';
    if ((rc = logged_mkdirs(s, l, parent, err)) != CHV_OK) goto out;
  }
  if (chv_fs_exists(s->fs, pl->dest)) goto out;
  /* (a write of no rows staged no folder: it moves in empty) */
  if ((rc = s->fs->mkdirs(s->fs, from, err)) != CHV_OK) goto out;
  if (pl->marker) {
    marker = chv_path_join(from, s->success_file_name);
    if (marker == NULL) {
      rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
      goto out;
    }
    if ((rc = touch_empty(s, marker, err)) != CHV_OK) goto out;
  }
  rc = logged_rename(s, l, from, pl->dest, err);
  if (rc == CHV_EEXIST) { /* another writer made the folder first */
    chv_error_clear(err);
    rc = CHV_OK;
    if (marker) s->fs->remove(s->fs, marker, false, NULL);
    goto out;
  }
  if (rc != CHV_OK) goto out;
  *moved = true;
  if (slash && slash != parent) rc = sync_later(dirs, parent, err);
out:
  chv_free(from);
  chv_free(parent);
  chv_free(marker);
  return rc;
}

/* Move part p's files into place (recorded in l) and fill pl->delta, what
** the write adds to the partition's statistics; folders to sync once all
** have moved go to dirs. */
static int sink_move_part(chv_sink *s, struct undo_log *l, struct sink_part *p,
                          struct part_plan *pl, struct pathv *dirs,
                          struct chv_error *err) {
  bool moved = false;
  if (pl->fresh_dir)
    CHV_RETURN_IF_ERR(sink_move_dir(s, l, p, pl, dirs, &moved, err));
  if (!moved) {
    CHV_RETURN_IF_ERR(logged_mkdirs(s, l, pl->dest, err));
    for (int i = 0; i < p->nfiles; i++)
      CHV_RETURN_IF_ERR(
          logged_rename(s, l, p->files[i].staged, pl->targets[i], err));
    if (pl->marker) CHV_RETURN_IF_ERR(logged_touch(s, l, pl->marker, err));
  }
  CHV_RETURN_IF_ERR(s->fs->sync_dir(s->fs, pl->dest, err));
  int64_t rows = 0, raw = 0, bytes = 0;
  for (int i = 0; i < p->nfiles; i++) {
    const struct sink_file *f = &p->files[i];
    rows = rows < 0 || f->rows < 0 ? -1 : rows + f->rows;
    raw = raw < 0 || f->raw_bytes < 0 ? -1 : raw + f->raw_bytes;
    bytes += f->file_bytes;
  }
  pl->delta.num_files = p->nfiles;
  pl->delta.total_size = bytes;
  pl->delta.num_rows = rows;
  pl->delta.raw_data_size = raw;
  return CHV_OK;
}

/* The paths write records hide now (others' files being moved in, an
** overwrite's old files), read once per publish, when first needed. */
struct hidden_paths {
  char **v;
  int n;
  bool loaded;
};

/* Visible files under dir that no write record hides, and their bytes
** (none when dir is missing). */
static int sink_committed_files(chv_sink *s, struct hidden_paths *h,
                                const char *dir, int64_t *nfiles,
                                int64_t *bytes, struct chv_error *err) {
  if (!h->loaded) {
    CHV_RETURN_IF_ERR(conn_hidden_paths(s->cat, s->table.db, s->table.name,
                                        &h->v, &h->n, err));
    h->loaded = true;
  }
  int64_t all;
  int rc = conn_count_files(s->fs, dir, h->v, h->n, nfiles, bytes, &all, err);
  if (rc == CHV_ENOENT) {
    chv_error_clear(err);
    rc = CHV_OK;
  }
  return rc;
}

/* The statistics of part p after the write, read and computed under the
** metastore's write lock (inside sink_publish's transaction), so writers
** committing at the same time each add to what the other left.  An
** overwrite sets what it wrote.  Otherwise the write's counts are added to
** the stored ones; where none are stored they are counted from the files
** the table holds, and rows stay unknown unless it held none. */
static int sink_final_stats(chv_sink *s, struct sink_part *p,
                            const struct part_plan *pl,
                            struct hidden_paths *h, struct chv_stats *st,
                            struct chv_error *err) {
  const struct chv_stats *d = &pl->delta;
  if (s->opts.overwrite) {
    *st = *d;
    return CHV_OK;
  }
  struct chv_stats cur;
  chv_stats_init_unknown(&cur);
  if (s->table.npkeys > 0) {
    struct chv_partition part = {0};
    int rc = chv_catalog_get_partition(s->cat, s->table.db, s->table.name,
                                       p->values, &part, err);
    if (rc == CHV_ENOENT) {
      chv_error_clear(err);
    } else if (rc != CHV_OK) {
      return rc;
    } else {
      chv_stats_from_params(part.params, part.nparams, &cur);
      chv_partition_free(&part);
    }
  } else {
    CHV_RETURN_IF_ERR(chv_catalog_get_table_stats(s->cat, s->table.db,
                                                  s->table.name, &cur, err));
  }
  if (cur.num_files < 0 || cur.total_size < 0) {
    int64_t n, bytes;
    CHV_RETURN_IF_ERR(sink_committed_files(s, h, pl->dest, &n, &bytes, err));
    cur.num_files = n;
    cur.total_size = bytes;
    cur.num_rows = n == 0 ? 0 : -1;
    cur.raw_data_size = n == 0 ? 0 : -1;
  }
  st->num_files = cur.num_files + d->num_files;
  st->total_size = cur.total_size + d->total_size;
  st->num_rows = cur.num_rows < 0 || d->num_rows < 0 ? -1
                                                     : cur.num_rows + d->num_rows;
  st->raw_data_size = cur.raw_data_size < 0 || d->raw_data_size < 0
                          ? -1
                          : cur.raw_data_size + d->raw_data_size;
  return CHV_OK;
}

/* The data of every touched partition (or of the table) changed: column
** statistics an ANALYZE left are no longer claimed accurate, and basic
** ones are only when this write's counts are exact (docs/catalog.md,
** COLUMN_STATS_ACCURATE). */
static int sink_stats_changed(chv_sink *s, const struct part_plan *plans,
                              struct chv_error *err) {
  int n = s->table.npkeys;
  char **keys = chv_calloc((size_t)n + 1, sizeof *keys);
  if (keys == NULL) return chv_error_set(err, CHV_ENOMEM, "out of memory");
  for (int i = 0; i < n; i++) keys[i] = s->table.pkeys[i].name;
  int rc = CHV_OK;
  for (int i = 0; i < s->nparts && rc == CHV_OK; i++) {
    bool exact = s->gather_stats && plans[i].delta.num_rows >= 0;
    char *name = n ? chv_partition_path(keys, s->parts[i].values, n) : NULL;
    if (n && name == NULL) {
      rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
      break;
    }
    rc = chv_catalog_stats_changed(s->cat, s->table.db, s->table.name, name,
                                   exact, err);
    chv_free(name);
  }
  chv_free(keys);
  return rc;
}

/* The metastore side of a commit, in one transaction (under the write
** lock): new partitions and the statistics of every touched partition (or
** of the table), computed from what is stored now, and the write record
** moved to COMMITTED. */
static int sink_publish(chv_sink *s, struct part_plan *plans,
                        struct chv_error *err) {
  CHV_RETURN_IF_ERR(chv_catalog_begin(s->cat, err));
  struct chv_partition *entries =
      chv_calloc((size_t)s->nparts + 1, sizeof *entries);
  int nentries = 0;
  int rc = entries ? CHV_OK : chv_error_set(err, CHV_ENOMEM, "out of memory");
  /* Without the metastore policy the files land in their folders and the
  ** metastore is left alone, as Flink does. */
  bool add_parts = s->table.npkeys > 0 && s->metastore_policy;
  bool table_stats = s->table.npkeys == 0 && s->nparts > 0 && s->gather_stats;
  struct hidden_paths hidden = {0};
  for (int i = 0; i < s->nparts && rc == CHV_OK; i++) {
    struct chv_stats st;
    if (!add_parts && !table_stats) break;
    /* Statistics only when gathered, for partitions as for tables. */
    if (s->gather_stats) {
      rc = sink_final_stats(s, &s->parts[i], &plans[i], &hidden, &st, err);
      if (rc != CHV_OK) break;
    }
    if (table_stats) {
      rc = chv_catalog_set_table_stats(s->cat, s->table.db, s->table.name,
                                       &st, err);
      continue;
    }
    struct chv_partition *e = &entries[nentries++];
    e->values = s->parts[i].values; /* borrowed until the catalog call */
    e->nvalues = s->table.npkeys;
    e->location = plans[i].dest;
    if (s->gather_stats) {
      rc = chv_stats_to_params(&st, &e->params, &e->nparams);
      if (rc != CHV_OK) rc = chv_error_set(err, rc, "out of memory");
    }
  }
  chv_strv_free(hidden.v, hidden.n);
  if (rc == CHV_OK && nentries > 0)
    rc = chv_catalog_add_partitions(
        s->cat, s->table.db, s->table.name, entries, nentries,
        CHV_CAT_IF_NOT_EXISTS | CHV_CAT_MERGE_PARAMS, err);
  /* whether or not statistics were gathered: the data changed */
  if (rc == CHV_OK && s->nparts > 0) rc = sink_stats_changed(s, plans, err);
  if (rc == CHV_OK)
    rc = chv_catalog_commit_set(s->cat, s->record_id, CHV_COMMIT_COMMITTED,
                                NULL, err);
  if (rc == CHV_OK) rc = chv_catalog_commit(s->cat, err);
  if (rc != CHV_OK) chv_catalog_rollback(s->cat);
  for (int i = 0; i < nentries; i++) {
    entries[i].values = NULL;
    entries[i].location = NULL; /* owned by the plan */
    chv_kv_free(entries[i].params, entries[i].nparams);
  }
  chv_free(entries);
  return rc;
}

/* Rows and raw size of the loaded Parquet and ORC files (whose numbers
** the sink does not know) from their footers, read on
** statistic-auto-gather.thread-num threads as Flink reads them; a file
** that is not of the table's format fails the commit, naming it. */
struct footer_job {
  const struct chv_fs *fs;
  enum conn_fmt kind;
  struct sink_file **files;
};

static int footer_stats(void *arg, int64_t i, struct chv_error *err) {
  struct footer_job *j = arg;
  struct sink_file *f = j->files[i];
  int64_t rows = 0, raw = 0;
  int rc = conn_file_stats(j->kind, j->fs, f->staged, &rows, &raw, err);
  if (rc != CHV_OK) {
    /* name the file loaded, not its staged copy */
    const char *msg = err->msg;
    size_t n = strlen(f->staged);
    if (!strncmp(msg, f->staged, n) && !strncmp(msg + n, ": ", 2)) msg += n + 2;
    char rest[sizeof err->msg];
    snprintf(rest, sizeof rest, "%s", msg);
    return chv_error_set(err, rc, "%s: %s",
                         f->move_from ? f->move_from : f->name, rest);
  }
  f->rows = rows;
  f->raw_bytes = raw;
  return CHV_OK;
}

static int sink_footer_stats(chv_sink *s, struct chv_error *err) {
  if (s->fmt.kind == CONN_FMT_TEXT || !s->gather_stats) return CHV_OK;
  int n = 0;
  for (int i = 0; i < s->nparts; i++)
    for (int k = 0; k < s->parts[i].nfiles; k++) n += s->parts[i].files[k].rows < 0;
  if (n == 0) return CHV_OK;
  struct sink_file **v = chv_calloc((size_t)n, sizeof *v);
  if (v == NULL) return chv_error_set(err, CHV_ENOMEM, "out of memory");
  n = 0;
  for (int i = 0; i < s->nparts; i++)
    for (int k = 0; k < s->parts[i].nfiles; k++)
      if (s->parts[i].files[k].rows < 0) v[n++] = &s->parts[i].files[k];
  struct footer_job job = {s->fs, s->fmt.kind, v};
  int rc = conn_pool_run(s->stats_threads, n, footer_stats, &job, err);
  chv_free(v);
  return rc;
}

/* ---- finishing the writers ---------------------------------------------- */

static int flush_writer(void *arg, int64_t i, struct chv_error *err) {
  chv_sink *s = arg;
  return s->writers[i] ? conn_writer_flush_sorted(s->writers[i], err) : CHV_OK;
}

struct finish_job {
  chv_sink *s;
  struct sink_part **open; /* the open files' parts */
};

static int finish_file(void *arg, int64_t i, struct chv_error *err) {
  struct finish_job *j = arg;
  return part_finish(j->s, j->open[i], err);
}

/* Write every writer's buffered rows and finish every open file, on as
** many threads as there are writers (the rows buffered for sorting and the
** files' last row groups are encoded here). */
static int sink_finish_writers(chv_sink *s, struct chv_error *err) {
  int nw = 0, n = 0;
  for (int i = 0; i < s->nwriters; i++) nw += s->writers[i] != NULL;
  CHV_RETURN_IF_ERR(conn_pool_run(nw, s->nwriters, flush_writer, s, err));
  for (int i = 0; i < s->nwriters; i++)
    if (s->writers[i]) n += s->writers[i]->open_writers;
  if (n == 0) return CHV_OK;
  struct finish_job job = {s, chv_calloc((size_t)n, sizeof *job.open)};
  if (job.open == NULL) return chv_error_set(err, CHV_ENOMEM, "out of memory");
  n = 0;
  for (int i = 0; i < s->nwriters; i++)
    for (int k = 0; s->writers[i] && k < s->writers[i]->nparts; k++)
      if (conn_writer_is_open(&s->writers[i]->parts[k].w))
        job.open[n++] = &s->writers[i]->parts[k];
  int rc = conn_pool_run(nw, n, finish_file, &job, err);
  chv_free(job.open);
  if (rc != CHV_OK) return rc;
  for (int i = 0; i < s->nwriters; i++)
    if (s->writers[i]) s->writers[i]->open_writers = 0;
  return CHV_OK;
}

/* Move every writer's partitions into s->parts, one partition (and its
** relpath) per target whatever the writers that wrote it.  On failure what
** is not merged yet stays with its writer (and is freed with it). */
static int sink_merge(chv_sink *s, struct chv_error *err) {
  struct conn_bytemap map = {0};
  int rc = CHV_OK;
  for (int i = 0; i < s->nparts && rc == CHV_OK; i++) {
    size_t len = strlen(s->parts[i].relpath);
    rc = conn_bytemap_put(&map, s->parts[i].relpath, len,
                          conn_hash_bytes(s->parts[i].relpath, len), i);
  }
  int cap = s->nparts;
  for (int i = 0; i < s->nwriters && rc == CHV_OK; i++) {
    struct conn_sink_writer *w = s->writers[i];
    if (w == NULL) continue;
    int k = 0;
    for (; k < w->nparts && rc == CHV_OK; k++) {
      struct sink_part *wp = &w->parts[k];
      size_t len = strlen(wp->relpath);
      uint64_t h = conn_hash_bytes(wp->relpath, len);
      int at = conn_bytemap_get(&map, wp->relpath, len, h);
      if (at < 0) {
        if (s->nparts == cap) {
          int ncap = cap ? 2 * cap : 8;
          struct sink_part *v =
              chv_realloc(s->parts, (size_t)ncap * sizeof *v);
          if (v == NULL) {
            rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
            break;
          }
          s->parts = v;
          cap = ncap;
        }
        if (conn_bytemap_put(&map, wp->relpath, len, h, s->nparts) != CHV_OK) {
          rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
          break;
        }
        s->parts[s->nparts++] = *wp; /* taken over whole */
        memset(wp, 0, sizeof *wp);
        continue;
      }
      struct sink_part *p = &s->parts[at];
      if (p->nfiles + wp->nfiles > p->cap_files) {
        int ncap = p->nfiles + wp->nfiles;
        struct sink_file *v = chv_realloc(p->files, (size_t)ncap * sizeof *v);
        if (v == NULL) {
          rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
          break;
        }
        p->files = v;
        p->cap_files = ncap;
      }
      if (wp->nfiles > 0)
        memcpy(p->files + p->nfiles, wp->files,
               (size_t)wp->nfiles * sizeof *wp->files);
      p->nfiles += wp->nfiles;
      wp->nfiles = 0;
      part_free(wp, s->table.npkeys);
      memset(wp, 0, sizeof *wp);
    }
    /* The merged parts leave the writer; those left keep their places. */
    int left = w->nparts - k;
    memmove(w->parts, w->parts + k, (size_t)left * sizeof *w->parts);
    w->nparts = left;
    /* (the maps of the writer name places that moved: rebuilt, or for
    ** the dynamic values dropped) */
    conn_bytemap_free(&w->by_key);
    w->key_ready = false;
    conn_bytemap_free(&w->by_path);
    for (int j = 0; j < left && rc == CHV_OK; j++) {
      size_t len = strlen(w->parts[j].relpath);
      if (conn_bytemap_put(&w->by_path, w->parts[j].relpath, len,
                           conn_hash_bytes(w->parts[j].relpath, len), j) != CHV_OK)
        rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
    }
  }
  conn_bytemap_free(&map);
  return rc;
}

int chv_sink_commit(chv_sink *s, struct chv_error *err) {
  if (s->committed)
    return chv_error_set(err, CHV_EINVAL, "sink of %s.%s: already committed",
                         s->table.db, s->table.name);
  /* Finish every file before anything becomes visible. */
  CHV_RETURN_IF_ERR(sink_finish_writers(s, err));
  CHV_RETURN_IF_ERR(sink_merge(s, err));
  CHV_RETURN_IF_ERR(sink_footer_stats(s, err));
  int rc = CHV_OK;

  struct undo_log log = {0};
  struct pathv newv = {0}, oldv = {0}, dirv = {0}, syncv = {0};
  struct part_plan *plans = chv_calloc((size_t)s->nparts + 1, sizeof *plans);
  if (plans == NULL) {
    rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
    goto out;
  }
  /* 1. Plan; record, durably before anything moves, the files about to
  **    appear (readers skip them, recovery deletes them), the folders
  **    about to be made and the ones an overwrite replaces. */
  for (int i = 0; i < s->nparts && rc == CHV_OK; i++)
    rc = sink_plan_part(s, &s->parts[i], &plans[i], &newv, &oldv, &dirv, err);
  if (rc == CHV_OK) {
    struct chv_commit_files files = {newv.v, newv.n, oldv.v, oldv.n,
                                     dirv.v, dirv.n};
    rc = chv_catalog_commit_set(s->cat, s->record_id, CHV_COMMIT_PENDING,
                                &files, err);
  }
  /* 2. Move the files into place; the folders they were renamed into are
  **    synced before anything is published. */
  for (int i = 0; i < s->nparts && rc == CHV_OK; i++)
    rc = sink_move_part(s, &log, &s->parts[i], &plans[i], &syncv, err);
  for (int i = 0; i < syncv.n && rc == CHV_OK; i++)
    rc = s->fs->sync_dir(s->fs, syncv.v[i], err);
  /* 3. Publish: from here on the write holds. */
  if (rc == CHV_OK) rc = sink_publish(s, plans, err);
  if (rc != CHV_OK) {
    undo_all(s->fs, &log); /* the table is as it was before the commit */
    goto out;
  }
  s->committed = true;
  /* 4. Delete what the overwrite replaced, then forget the record.  A
  **    failure here leaves the record, so readers keep skipping the old
  **    files and the next process to open the warehouse deletes them; the
  **    write itself holds. */
  bool all_gone = true;
  for (int i = 0; i < oldv.n; i++) {
    int drc = s->fs->remove(s->fs, oldv.v[i], true, NULL);
    if (drc != CHV_OK && drc != CHV_ENOENT) all_gone = false;
  }
  for (int i = 0; i < s->nparts; i++)
    for (int k = 0; k < s->parts[i].nfiles; k++)
      if (s->parts[i].files[k].move_from)
        s->fs->remove(s->fs, s->parts[i].files[k].move_from, false, NULL);
  /* The staging folder goes before the record that names it. */
  if (all_gone && s->fs->remove(s->fs, s->staging, true, NULL) != CHV_OK)
    all_gone = false;
  if (all_gone &&
      chv_catalog_commit_remove(s->cat, s->record_id, NULL) == CHV_OK)
    s->record_id = 0;

out:
  plans_free(plans, s->nparts);
  pathv_free(&newv);
  pathv_free(&oldv);
  pathv_free(&dirv);
  pathv_free(&syncv);
  undo_free(&log);
  return rc;
}

void chv_sink_close(chv_sink *s) {
  if (s == NULL) return;
  /* Open files are closed before the staging folder goes. */
  for (int i = 0; i < s->nwriters; i++) writer_free(s->writers[i]);
  chv_free(s->writers);
  for (int i = 0; i < s->nparts; i++) part_free(&s->parts[i], s->table.npkeys);
  chv_free(s->parts);
  /* An uncommitted write is forgotten; a committed one whose old files
  ** could not all be deleted keeps its record for the next writer. */
  if (s->staging && s->fs && (s->record_id == 0 || !s->committed))
    s->fs->remove(s->fs, s->staging, true, NULL);
  if (s->record_id != 0 && !s->committed)
    chv_catalog_commit_remove(s->cat, s->record_id, NULL);
  if (s->locks_ready) {
    pthread_cond_destroy(&s->freed);
    pthread_mutex_destroy(&s->mu);
  }
  chv_free(s->staging);
  chv_free(s->success_file_name);
  chv_free(s->default_part);
  chv_type_free(s->schema);
  chv_table_free(&s->table);
  chv_free(s);
}
