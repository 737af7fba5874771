/*
** The batch sink: INSERT INTO/OVERWRITE of static partitions into a TEXTFILE
** table, staged under a hidden folder and published by chv_sink_commit().
** The protocol and its state diagram are in connector.h.
*/
#include "connector/connector.h"
#include "connector/connector_int.h"
#include "format/text/text.h"

#include <stdio.h>
#include <unistd.h>

/* One file of a partition, staged until the commit. */
struct sink_file {
  char *name;           /* part-<id>-task-0-file-<n>[.gz], or a loaded name */
  char *staged;         /* its path under the staging dir */
  int64_t rows;         /* rows written; -1: unknown (a loaded file) */
  int64_t raw_bytes;    /* text bytes before compression; -1: unknown */
  int64_t file_bytes;   /* bytes in the file */
  char *move_from;      /* a loaded file to delete once the commit holds
                           (LOAD DATA without LOCAL moves its files) */
};

/* One target partition (or the table itself when unpartitioned). */
struct sink_part {
  char **values;        /* partition values as given (NULL = default) */
  char *relpath;        /* escaped "k1=v1/k2=v2"; "" when unpartitioned */
  struct sink_file *files;
  int nfiles;
  int cap_files;
  struct conn_writer w; /* writing files[nfiles - 1] when open */
  uint64_t last_use;    /* sink clock at the last write, for closing the
                           least recently used writer */
};

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
  char *staging;                 /* <location>/.staging_<ms> */
  char *task_dir;                /* <staging>/task-0-attempt-0 */
  char id[37];                   /* random UUID shared by the files */
  struct sink_part *parts;
  int nparts;
  int cap_parts;
  int open_writers;              /* parts with w != NULL */
  int max_open_writers;
  int file_seq;                  /* numbers the files of this write */
  uint64_t clock;                /* counts writes, for last_use */
  int64_t rows;
  int64_t bytes;                 /* text bytes written, before compression */
  int64_t record_id;             /* the write record; 0: none */
  struct conn_sortbuf sort;      /* sorted dynamic partitions */
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
  s->sort.on = v.b;
  chv_opt_value_free(&v);

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
int64_t chv_sink_rows(const chv_sink *s) { return s->rows; }
int64_t chv_sink_bytes(const chv_sink *s) { return s->bytes; }
struct conn_sortbuf *conn_sink_sortbuf(chv_sink *s) { return &s->sort; }
const struct chv_table *chv_sink_table(const chv_sink *s) { return &s->table; }

int chv_sink_open(chv_catalog *cat, const char *db, const char *table,
                  const struct chv_sink_options *opts, chv_sink **out,
                  struct chv_error *err) {
  chv_sink *s = chv_calloc(1, sizeof *s);
  if (s == NULL) return chv_error_set(err, CHV_ENOMEM, "out of memory");
  s->cat = cat;
  if (opts)
    s->opts = *opts;
  else
    chv_sink_options_init(&s->opts);
  if (s->opts.now_ms == 0) s->opts.now_ms = chv_time_now_ms();
  s->max_open_writers =
      s->opts.max_open_writers > 0 ? s->opts.max_open_writers : 64;
  const char *inner;
  int rc = conn_get_table(cat, db, table, "write", &s->table, err);
  if (rc != CHV_OK) goto out_free;
  rc = conn_table_overlay(&s->table, s->opts.table_options,
                          s->opts.ntable_options, err);
  if (rc != CHV_OK) goto out_free;
  rc = conn_table_format(&s->table, s->opts.config, &s->fmt, err);
  if (rc != CHV_OK) goto out_free;
  rc = sink_read_options(s, err);
  if (rc != CHV_OK) goto out_free;
  /* sorted runs reach each partition once: one open file suffices */
  if (s->sort.on && s->opts.max_open_writers <= 0) s->max_open_writers = 1;
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
  s->task_dir = chv_path_join(s->staging, "task-0-attempt-0");
  if (s->task_dir == NULL) goto out_oom;
  rc = chv_catalog_commit_register(cat, s->table.db, s->table.name,
                                   (int64_t)getpid(), s->staging,
                                   &s->record_id, err);
  if (rc != CHV_OK) goto out_free;
  rc = s->fs->mkdirs(s->fs, s->task_dir, err);
  if (rc != CHV_OK) goto out_free;
  *out = s;
  return CHV_OK;

out_oom:
  rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
out_free:
  chv_sink_close(s);
  return rc;
}

/* The part at relpath with values, added when there is none yet; relpath
** is taken over. */
static int sink_part_find(chv_sink *s, char *const *values, char *relpath,
                          struct sink_part **out, struct chv_error *err) {
  int nkeys = s->table.npkeys;
  if (relpath == NULL) return chv_error_set(err, CHV_ENOMEM, "out of memory");
  for (int i = 0; i < s->nparts; i++) {
    if (strcmp(s->parts[i].relpath, relpath) == 0) {
      chv_free(relpath);
      *out = &s->parts[i];
      return CHV_OK;
    }
  }
  if (s->nparts == s->cap_parts) {
    int cap = s->cap_parts ? s->cap_parts * 2 : 8;
    struct sink_part *p = chv_realloc(s->parts, (size_t)cap * sizeof *p);
    if (p == NULL) {
      chv_free(relpath);
      return chv_error_set(err, CHV_ENOMEM, "out of memory");
    }
    s->parts = p;
    s->cap_parts = cap;
  }
  struct sink_part *p = &s->parts[s->nparts];
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
  s->nparts++;
  *out = p;
  return CHV_OK;

out_free:
  chv_strv_free(p->values, nkeys);
  chv_free(p->relpath);
  memset(p, 0, sizeof *p);
  return chv_error_set(err, CHV_ENOMEM, "out of memory");
}

/* The open partition for values, created on first use. */
static int sink_part_get(chv_sink *s, char *const *given,
                         struct sink_part **out, struct chv_error *err) {
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
  int rc = sink_part_find(s, values, relpath, out, err);
  chv_free(named);
  return rc;
}

/* Finish part p's open file, recording its statistics. */
static int sink_part_finish(chv_sink *s, struct sink_part *p,
                            struct chv_error *err) {
  if (!conn_writer_is_open(&p->w)) return CHV_OK;
  struct conn_write_stats st;
  int rc = conn_writer_finish(&p->w, &st, err);
  s->open_writers--;
  if (rc != CHV_OK) return rc;
  struct sink_file *f = &p->files[p->nfiles - 1];
  f->rows = st.rows;
  f->raw_bytes = st.raw_bytes;
  f->file_bytes = st.file_bytes;
  return CHV_OK;
}

/* Room for one more file in p. */
static int sink_part_grow(struct sink_part *p, struct chv_error *err) {
  if (p->nfiles < p->cap_files) return CHV_OK;
  int cap = p->cap_files ? p->cap_files * 2 : 2;
  struct sink_file *v = chv_realloc(p->files, (size_t)cap * sizeof *v);
  if (v == NULL) return chv_error_set(err, CHV_ENOMEM, "out of memory");
  p->files = v;
  p->cap_files = cap;
  return CHV_OK;
}

/* A new staged file for p named name (NULL: the next part-... name); its
** folder is created. */
static int sink_part_new_file(chv_sink *s, struct sink_part *p,
                              const char *name, struct chv_error *err) {
  CHV_RETURN_IF_ERR(sink_part_grow(p, err));
  struct sink_file *f = &p->files[p->nfiles];
  memset(f, 0, sizeof *f);
  f->name = name ? chv_strdup(name)
                 : chv_asprintf("part-%s-task-0-file-%d%s", s->id,
                                s->file_seq++, conn_format_suffix(&s->fmt));
  char *dir = chv_path_join(s->task_dir, p->relpath);
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

/* p's open writer, opening a new file (and closing the least recently used
** writer when max_open_writers are open) if it has none. */
static int sink_part_writer(chv_sink *s, struct sink_part *p,
                            struct chv_error *err) {
  p->last_use = ++s->clock;
  if (conn_writer_is_open(&p->w)) return CHV_OK;
  if (s->open_writers >= s->max_open_writers) {
    struct sink_part *lru = NULL;
    for (int i = 0; i < s->nparts; i++)
      if (conn_writer_is_open(&s->parts[i].w) && (lru == NULL || s->parts[i].last_use < lru->last_use))
        lru = &s->parts[i];
    if (lru) CHV_RETURN_IF_ERR(sink_part_finish(s, lru, err));
  }
  CHV_RETURN_IF_ERR(sink_part_new_file(s, p, NULL, err));
  struct sink_file *f = &p->files[p->nfiles - 1];
  int rc = conn_writer_open(&s->fmt, s->fs, f->staged, s->schema, &p->w, err);
  if (rc != CHV_OK) {
    p->nfiles--;
    chv_free(f->name);
    chv_free(f->staged);
    return rc;
  }
  s->open_writers++;
  return CHV_OK;
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
  struct sink_part *p = NULL;
  CHV_RETURN_IF_ERR(sink_part_get(s, part_values, &p, err));
  if (batch->nrows == 0) return CHV_OK; /* the partition is still written */
  CHV_RETURN_IF_ERR(sink_part_writer(s, p, err));
  int64_t raw = 0;
  int rc = conn_writer_write(&p->w, batch, &raw, err);
  if (rc != CHV_OK) return rc;
  s->rows += batch->nrows;
  s->bytes += raw;
  return CHV_OK;
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
  struct sink_part *p = NULL;
  CHV_RETURN_IF_ERR(sink_part_get(s, part_values, &p, err));
  CHV_RETURN_IF_ERR(sink_part_new_file(s, p, name, err));
  struct sink_file *f = &p->files[p->nfiles - 1];
  /* Copied, never moved, into the staging folder, so that a write that
  ** fails or is killed loses nothing; a move deletes the source after the
  ** commit. */
  int64_t bytes = st.size;
  rc = sink_copy_file(s, inner, f->staged, &bytes, err);
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

/* Create an empty file, recorded. */
static int logged_touch(chv_sink *s, struct undo_log *l, const char *path,
                        struct chv_error *err) {
  CHV_RETURN_IF_ERR(undo_push(l, UNDO_FILE, chv_strdup(path), NULL, err));
  int rc = chv_fs_write_atomic(s->fs, path, "", 0, err);
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

/* Move the staged folder of part p into place as pl->dest, with its
** success file, in one rename.  *moved is false (and nothing is left
** changed but the folders above dest) when dest appeared meanwhile. */
static int sink_move_dir(chv_sink *s, struct undo_log *l, struct sink_part *p,
                         struct part_plan *pl, bool *moved,
                         struct chv_error *err) {
  *moved = false;
  char *from = chv_path_join(s->task_dir, p->relpath);
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
    if ((rc = chv_fs_write_atomic(s->fs, marker, "", 0, err)) != CHV_OK)
      goto out;
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
  if (slash && slash != parent) rc = s->fs->sync_dir(s->fs, parent, err);
out:
  chv_free(from);
  chv_free(parent);
  chv_free(marker);
  return rc;
}

/* Move part p's files into place (recorded in l) and fill pl->delta, what
** the write adds to the partition's statistics. */
static int sink_move_part(chv_sink *s, struct undo_log *l, struct sink_part *p,
                          struct part_plan *pl, struct chv_error *err) {
  bool moved = false;
  if (pl->fresh_dir) CHV_RETURN_IF_ERR(sink_move_dir(s, l, p, pl, &moved, err));
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

int chv_sink_commit(chv_sink *s, struct chv_error *err) {
  if (s->committed)
    return chv_error_set(err, CHV_EINVAL, "sink of %s.%s: already committed",
                         s->table.db, s->table.name);
  int rc = conn_sink_flush_sorted(s, err);
  if (rc != CHV_OK) return rc;
  /* Finish every file before anything becomes visible. */
  for (int i = 0; i < s->nparts; i++)
    CHV_RETURN_IF_ERR(sink_part_finish(s, &s->parts[i], err));
  CHV_RETURN_IF_ERR(sink_footer_stats(s, err));

  struct undo_log log = {0};
  struct pathv newv = {0}, oldv = {0}, dirv = {0};
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
  /* 2. Move the files into place. */
  for (int i = 0; i < s->nparts && rc == CHV_OK; i++)
    rc = sink_move_part(s, &log, &s->parts[i], &plans[i], err);
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
  undo_free(&log);
  return rc;
}

void chv_sink_close(chv_sink *s) {
  if (s == NULL) return;
  for (int i = 0; i < s->nparts; i++) {
    struct sink_part *p = &s->parts[i];
    conn_writer_close(&p->w);
    chv_strv_free(p->values, s->table.npkeys);
    chv_free(p->relpath);
    for (int k = 0; k < p->nfiles; k++) {
      chv_free(p->files[k].name);
      chv_free(p->files[k].staged);
      chv_free(p->files[k].move_from);
    }
    chv_free(p->files);
  }
  chv_free(s->parts);
  conn_sortbuf_free(&s->sort);
  /* An uncommitted write is forgotten; a committed one whose old files
  ** could not all be deleted keeps its record for the next writer. */
  if (s->staging && s->fs && (s->record_id == 0 || !s->committed))
    s->fs->remove(s->fs, s->staging, true, NULL);
  if (s->record_id != 0 && !s->committed)
    chv_catalog_commit_remove(s->cat, s->record_id, NULL);
  chv_free(s->staging);
  chv_free(s->task_dir);
  chv_free(s->success_file_name);
  chv_free(s->default_part);
  chv_type_free(s->schema);
  chv_table_free(&s->table);
  chv_free(s);
}
