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

/* One target partition (or the table itself when unpartitioned). */
struct sink_part {
  char **values;        /* partition values as given (NULL = default) */
  char *relpath;        /* escaped "k1=v1/k2=v2"; "" when unpartitioned */
  char *file_name;      /* part-<id>-task-0-file-<n>[.gz] */
  char *staged_path;    /* the file under the staging dir */
  chv_text_writer *w;
  struct chv_text_write_stats st;
};

struct chv_sink {
  chv_catalog *cat;
  const struct chv_fs *fs;
  struct chv_table table;
  struct chv_type *schema;       /* STRUCT of the data columns */
  struct chv_text_options text;
  struct chv_sink_options opts;
  bool success_file;             /* policy 'success-file' */
  char *success_file_name;       /* sink.partition-commit.success-file.name */
  bool metastore_policy;         /* policy 'metastore' */
  bool gather_stats;             /* ...statistic-auto-gather.enable */
  char *staging;                 /* <location>/.staging_<ms> */
  char *task_dir;                /* <staging>/task-0-attempt-0 */
  char id[37];                   /* random UUID shared by the files */
  struct sink_part *parts;
  int nparts;
  int cap_parts;
  int64_t rows;
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
  s->text.compress = v.b;
  chv_opt_value_free(&v);

  rc = conn_table_option(t, cfg, "sink.partition-commit.success-file.name", &v,
                         err);
  if (rc != CHV_OK) return rc;
  s->success_file_name = chv_strdup(v.text);
  chv_opt_value_free(&v);
  if (s->success_file_name == NULL)
    return chv_error_set(err, CHV_ENOMEM, "out of memory");

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

  rc = conn_table_option(t, cfg,
                         "table.exec.hive.sink.statistic-auto-gather.enable",
                         &v, err);
  if (rc != CHV_OK) return rc;
  s->gather_stats = v.b;
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
  const char *inner;
  int rc = chv_catalog_get_table(cat, db, table, &s->table, err);
  if (rc != CHV_OK) goto out_free;
  rc = conn_table_text_options(&s->table, &s->text, err);
  if (rc != CHV_OK) goto out_free;
  rc = sink_read_options(s, err);
  if (rc != CHV_OK) goto out_free;
  rc = conn_table_schema(&s->table, false, &s->schema, err);
  if (rc != CHV_OK) goto out_free;
  rc = chv_fs_for_path(s->table.location, &s->fs, &inner, err);
  if (rc != CHV_OK) goto out_free;
  rc = conn_uuid(s->id, err);
  if (rc != CHV_OK) goto out_free;

  /* A fresh staging folder: the millisecond clock, bumped past any left
  ** behind by a writer that died. */
  for (int64_t ms = s->opts.now_ms;; ms++) {
    chv_free(s->staging);
    s->staging = chv_asprintf("%s/.staging_%lld", inner, (long long)ms);
    if (s->staging == NULL) goto out_oom;
    if (!chv_fs_exists(s->fs, s->staging)) break;
  }
  s->task_dir = chv_path_join(s->staging, "task-0-attempt-0");
  if (s->task_dir == NULL) goto out_oom;
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

/* The open partition for values, created on first use. */
static int sink_part_get(chv_sink *s, char *const *values,
                         struct sink_part **out, struct chv_error *err) {
  int nkeys = s->table.npkeys;
  char *relpath;
  if (nkeys == 0) {
    relpath = chv_strdup("");
  } else {
    char **keys = chv_calloc((size_t)nkeys, sizeof *keys);
    if (keys == NULL) return chv_error_set(err, CHV_ENOMEM, "out of memory");
    for (int i = 0; i < nkeys; i++) keys[i] = s->table.pkeys[i].name;
    relpath = chv_partition_path(keys, values, nkeys);
    chv_free(keys);
  }
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
  int rc = CHV_ENOMEM;
  if (nkeys > 0) {
    p->values = chv_calloc((size_t)nkeys, sizeof *p->values);
    if (p->values == NULL) goto out_free;
    for (int i = 0; i < nkeys; i++) {
      if (values[i] == NULL || values[i][0] == '\0') continue;
      p->values[i] = chv_strdup(values[i]);
      if (p->values[i] == NULL) goto out_free;
    }
  }
  p->file_name = chv_asprintf("part-%s-task-0-file-%d%s", s->id, s->nparts,
                              s->text.compress ? ".gz" : "");
  char *dir = chv_path_join(s->task_dir, relpath);
  if (p->file_name == NULL || dir == NULL) {
    chv_free(dir);
    goto out_free;
  }
  p->staged_path = chv_path_join(dir, p->file_name);
  if (p->staged_path == NULL) {
    chv_free(dir);
    goto out_free;
  }
  rc = s->fs->mkdirs(s->fs, dir, err);
  chv_free(dir);
  if (rc != CHV_OK) goto out_free_quiet;
  rc = chv_text_writer_open(s->fs, p->staged_path, s->schema, &s->text, &p->w,
                            err);
  if (rc != CHV_OK) goto out_free_quiet;
  s->nparts++;
  *out = p;
  return CHV_OK;

out_free:
  chv_error_set(err, CHV_ENOMEM, "out of memory");
out_free_quiet:
  chv_strv_free(p->values, nkeys);
  chv_free(p->relpath);
  chv_free(p->file_name);
  chv_free(p->staged_path);
  memset(p, 0, sizeof *p);
  return rc;
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
  int rc = chv_text_writer_write(p->w, batch, err);
  if (rc != CHV_OK) return rc;
  s->rows += batch->nrows;
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

/* Move the visible entries of dir into the staging trash (INSERT
** OVERWRITE); they are deleted with the staging dir once the commit holds,
** and moved back if it fails. */
static int sink_clear_dir(chv_sink *s, struct undo_log *l, const char *dir,
                          struct chv_error *err) {
  struct chv_dirlist ls = {0};
  int rc = s->fs->list(s->fs, dir, CHV_LIST_SKIP_HIDDEN, &ls, err);
  if (rc == CHV_ENOENT) {
    chv_error_clear(err);
    return CHV_OK;
  }
  char *trash = NULL;
  if (rc == CHV_OK && ls.count > 0) {
    static int trash_seq;
    trash = chv_asprintf("%s/trash-%d", s->staging, trash_seq++);
    if (trash == NULL) rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
    if (rc == CHV_OK) rc = s->fs->mkdirs(s->fs, trash, err);
  }
  for (size_t i = 0; rc == CHV_OK && i < ls.count; i++) {
    char *to = chv_path_join(trash, ls.entries[i].name);
    if (to == NULL) {
      rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
      break;
    }
    rc = logged_rename(s, l, ls.entries[i].path, to, err);
    chv_free(to);
  }
  chv_free(trash);
  chv_dirlist_free(&ls);
  return rc;
}

/* numFiles and totalSize of the visible files under dir. */
static int sink_dir_stats(chv_sink *s, const char *dir, struct chv_stats *st,
                          struct chv_error *err) {
  struct chv_dirlist l = {0};
  int rc = s->fs->list(s->fs, dir,
                       CHV_LIST_RECURSIVE | CHV_LIST_SKIP_HIDDEN |
                           CHV_LIST_FILES_ONLY,
                       &l, err);
  if (rc != CHV_OK) return rc;
  st->num_files = (int64_t)l.count;
  st->total_size = 0;
  for (size_t i = 0; i < l.count; i++) st->total_size += l.entries[i].st.size;
  chv_dirlist_free(&l);
  return CHV_OK;
}

/* Move one partition's file into place (recorded in l) and work out the
** statistics the catalog gets for it.  *dest_out: the partition folder. */
static int sink_publish_part(chv_sink *s, struct undo_log *l,
                             struct sink_part *p, char **dest_out,
                             struct chv_stats *st, struct chv_error *err) {
  int rc;
  const char *inner;
  const struct chv_fs *fs; /* the destination's back end: renames need it
                              to be the staging dir's own */
  char *dest = NULL;
  struct chv_partition existing = {0};
  bool exists = false;
  if (s->table.npkeys > 0) {
    rc = chv_catalog_get_partition(s->cat, s->table.db, s->table.name,
                                   p->values, &existing, err);
    if (rc == CHV_OK) {
      exists = true;
      rc = chv_fs_for_path(existing.location, &fs, &inner, err);
      if (rc == CHV_OK) dest = chv_strdup(inner);
    } else if (rc == CHV_ENOENT) {
      chv_error_clear(err);
      rc = chv_fs_for_path(s->table.location, &fs, &inner, err);
      if (rc == CHV_OK) dest = chv_path_join(inner, p->relpath);
    }
  } else {
    rc = chv_fs_for_path(s->table.location, &fs, &inner, err);
    if (rc == CHV_OK) dest = chv_strdup(inner);
  }
  if (rc != CHV_OK) goto out;
  if (dest == NULL) {
    rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
    goto out;
  }
  if (fs != s->fs) {
    rc = chv_error_set(err, CHV_ENOTSUP,
                       "partition %s of %s.%s lies on another file system "
                       "than the table; files cannot be renamed into it",
                       p->relpath, s->table.db, s->table.name);
    goto out;
  }

  char *target = NULL;
  struct chv_stats before = {0};
  rc = logged_mkdirs(s, l, dest, err);
  if (rc == CHV_OK && s->opts.overwrite) rc = sink_clear_dir(s, l, dest, err);
  if (rc == CHV_OK) rc = sink_dir_stats(s, dest, &before, err);
  if (rc != CHV_OK) goto out;
  target = chv_path_join(dest, p->file_name);
  if (target == NULL) {
    rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
    goto out;
  }
  rc = logged_rename(s, l, p->staged_path, target, err);
  chv_free(target);
  if (rc != CHV_OK) goto out;
  if (s->success_file) {
    char *marker = chv_path_join(dest, s->success_file_name);
    if (marker == NULL) {
      rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
      goto out;
    }
    if (!chv_fs_exists(s->fs, marker)) {
      rc = undo_push(l, UNDO_FILE, chv_strdup(marker), NULL, err);
      if (rc == CHV_OK) rc = chv_fs_write_atomic(s->fs, marker, "", 0, err);
      if (rc != CHV_OK && l->n > 0 && l->v[l->n - 1].kind == UNDO_FILE &&
          strcmp(l->v[l->n - 1].a, marker) == 0)
        undo_pop_free(l);
    }
    chv_free(marker);
    if (rc != CHV_OK) goto out;
  }
  rc = s->fs->sync_dir(s->fs, dest, err);
  if (rc != CHV_OK) goto out;

  /* Statistics: files and sizes by listing; rows and raw size add to what
  ** was there, or are counted afresh when nothing was (a new partition, an
  ** overwrite, an empty table). */
  struct chv_stats old;
  chv_stats_init_unknown(&old);
  if (exists)
    chv_stats_from_params(existing.params, existing.nparams, &old);
  else if (s->table.npkeys == 0)
    chv_stats_from_params(s->table.params, s->table.nparams, &old);
  rc = sink_dir_stats(s, dest, st, err);
  if (rc != CHV_OK) goto out;
  bool fresh = before.num_files == 0;
  st->num_rows = fresh ? p->st.rows
                       : (old.num_rows >= 0 ? old.num_rows + p->st.rows : -1);
  st->raw_data_size =
      fresh ? p->st.raw_bytes
            : (old.raw_data_size >= 0 ? old.raw_data_size + p->st.raw_bytes
                                      : -1);
out:
  chv_partition_free(&existing);
  if (rc == CHV_OK)
    *dest_out = dest;
  else
    chv_free(dest);
  return rc;
}

int chv_sink_commit(chv_sink *s, struct chv_error *err) {
  if (s->committed)
    return chv_error_set(err, CHV_EINVAL, "sink of %s.%s: already committed",
                         s->table.db, s->table.name);
  int rc = CHV_OK;
  /* Finish every file before anything becomes visible. */
  for (int i = 0; i < s->nparts; i++) {
    if (s->parts[i].w == NULL) continue; /* finished by an earlier try */
    rc = chv_text_writer_finish(s->parts[i].w, &s->parts[i].st, err);
    chv_text_writer_close(s->parts[i].w);
    s->parts[i].w = NULL;
    if (rc != CHV_OK) return rc;
  }

  struct undo_log log = {0};
  struct chv_partition *entries =
      chv_calloc((size_t)s->nparts + 1, sizeof *entries);
  if (entries == NULL) return chv_error_set(err, CHV_ENOMEM, "out of memory");
  struct chv_stats table_stats;
  int nentries = 0;
  for (int i = 0; i < s->nparts && rc == CHV_OK; i++) {
    struct sink_part *p = &s->parts[i];
    struct chv_stats st;
    char *dest = NULL;
    rc = sink_publish_part(s, &log, p, &dest, &st, err);
    if (rc != CHV_OK) break;
    if (s->table.npkeys == 0) {
      table_stats = st;
      chv_free(dest);
      continue;
    }
    struct chv_partition *e = &entries[nentries++];
    e->values = p->values; /* borrowed until the catalog call */
    e->nvalues = s->table.npkeys;
    e->location = dest;
    if (chv_stats_to_params(&st, &e->params, &e->nparams) != CHV_OK)
      rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
  }
  /* The catalog changes in one transaction: new partitions appear with their
  ** statistics, existing ones get theirs updated. */
  if (rc == CHV_OK) {
    /* Without the metastore policy the files land in their folders and
    ** the metastore is left alone, as Flink does. */
    if (s->table.npkeys == 0 && s->nparts > 0 && s->gather_stats)
      rc = chv_catalog_set_table_stats(s->cat, s->table.db, s->table.name,
                                       &table_stats, err);
    else if (nentries > 0 && s->metastore_policy)
      rc = chv_catalog_add_partitions(
          s->cat, s->table.db, s->table.name, entries, nentries,
          CHV_CAT_IF_NOT_EXISTS | CHV_CAT_MERGE_PARAMS, err);
  }
  for (int i = 0; i < nentries; i++) {
    entries[i].values = NULL;
    chv_free(entries[i].location);
    chv_kv_free(entries[i].params, entries[i].nparams);
  }
  chv_free(entries);
  if (rc == CHV_OK)
    s->committed = true;
  else
    undo_all(s->fs, &log); /* the table is as it was before the commit */
  undo_free(&log);
  return rc;
}

void chv_sink_close(chv_sink *s) {
  if (s == NULL) return;
  for (int i = 0; i < s->nparts; i++) {
    struct sink_part *p = &s->parts[i];
    chv_text_writer_close(p->w);
    chv_strv_free(p->values, s->table.npkeys);
    chv_free(p->relpath);
    chv_free(p->file_name);
    chv_free(p->staged_path);
  }
  chv_free(s->parts);
  if (s->staging && s->fs) s->fs->remove(s->fs, s->staging, true, NULL);
  chv_free(s->staging);
  chv_free(s->task_dir);
  chv_free(s->success_file_name);
  chv_type_free(s->schema);
  chv_table_free(&s->table);
  chv_free(s);
}
