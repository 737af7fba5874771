/*
** sql/session/dir: INSERT OVERWRITE [LOCAL] DIRECTORY 'path' [ROW FORMAT
** ...] [STORED AS TEXTFILE|PARQUET|ORC] query, Hive's export of a query's
** rows as files in a folder of their own, outside any table.
**
** The rows are written as one file, 000000_0 (Hive's first task's name;
** 000000_0.gz for text under hive.exec.compress.output), into a staging
** folder beside the target, <parent>/.<name>.staging_<ms>_<pid>_<n>
** (hidden from readers by its leading dot).  Once the query has ended and
** the file is complete and synced, the staging folder takes the target's
** place: renameat2(RENAME_EXCHANGE) swaps the two folders in one step when
** the target exists (then the old folder, now under the staging name, is
** deleted), a plain rename() puts it there when it does not.  So a reader
** sees the old folder or the new one, never a mix, and a failed or
** cancelled query leaves the old folder as it was (the staging folder is
** removed).  A file system without RENAME_EXCHANGE gets two renames (the
** old folder moved aside, then the new one in): a crash between them
** leaves the target missing and the old rows in .<name>.old_*.
**
** Without LOCAL the path means the same here: chive has no HDFS, so both
** are local paths (a file:// URI or a plain path, relative to the working
** folder); another scheme is an error.  The target may not be the
** warehouse folder of a catalog, lie inside one or hold one, hold the
** working folder, or lie right under '/': its old contents are deleted.
**
** Formats: TEXTFILE (the default) with Hive's LazySimpleSerDe defaults
** (fields \001, collection items \002, map keys \003, NULL as \N) unless
** ROW FORMAT DELIMITED (or SERDE '...LazySimpleSerDe' WITH SERDEPROPERTIES)
** says otherwise; PARQUET and ORC with the query's column names and types,
** compressed as the session's parquet.compression / orc.compress say.
**
** INTERFACE
**   sql_exec_insert_directory()   the statement
**   sql_dir_write()               rows of the query into the file
*/
#include "common/common.h"
#include "chive/text.h"
#include "sql/session/session_int.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

enum dir_format { DIR_TEXT, DIR_PARQUET, DIR_ORC };

struct sql_dir {
  const struct chv_fs *fs;
  enum dir_format format;
  struct chv_text_options text;
  struct chv_pq_write_options pq;
  struct chv_orc_write_options orc;
  chv_text_writer *tw;
  chv_pq_writer *pw;
  chv_orc_writer *ow;
};

int sql_dir_write(struct sql_dir *d, const struct chv_batch *b, int64_t n,
                  struct chv_error *err) {
  struct chv_batch view = *b;
  view.nrows = n;
  switch (d->format) {
  case DIR_TEXT: return chv_text_writer_write(d->tw, &view, err);
  case DIR_PARQUET: return chv_pq_writer_write(d->pw, &view, err);
  case DIR_ORC: return chv_orc_writer_write(d->ow, &view, err);
  }
  return CHV_EINTERNAL;
}

/* The format and text options of the statement's ROW FORMAT and STORED
** AS; *name is the format's name for EXPLAIN. */
static int dir_format(struct sql_session *s, const struct chv_sql_stmt *st,
                      struct sql_dir *d, const char **name,
                      struct chv_error *err) {
  const struct chv_sql_create_table *f = st->storage;
  chv_text_options_init(&d->text);
  chv_pq_write_options_init(&d->pq);
  chv_orc_write_options_init(&d->orc);
  d->format = DIR_TEXT;
  *name = "textfile";
  if (f && (f->input_format || f->output_format))
    return sql_err(err, CHV_ENOTSUP,
                   "STORED AS INPUTFORMAT ... OUTPUTFORMAT in INSERT "
                   "OVERWRITE DIRECTORY is not supported yet (TEXTFILE, "
                   "PARQUET and ORC are)");
  if (f && f->stored_as) {
    if (!strcasecmp(f->stored_as, "PARQUET")) {
      d->format = DIR_PARQUET;
      *name = "parquet";
    } else if (!strcasecmp(f->stored_as, "ORC")) {
      d->format = DIR_ORC;
      *name = "orc";
    } else if (strcasecmp(f->stored_as, "TEXTFILE")) {
      char up[64];
      snprintf(up, sizeof up, "%s", f->stored_as);
      for (char *c = up; *c; c++)
        if (*c >= 'a' && *c <= 'z') *c = (char)(*c - 'a' + 'A');
      return sql_err(err, CHV_ENOTSUP,
                     "INSERT OVERWRITE DIRECTORY ... STORED AS %s is not "
                     "supported yet (TEXTFILE, PARQUET and ORC are)",
                     up);
    }
  }
  if (f && f->row_format != CHV_SQL_ROW_FORMAT_NONE && d->format != DIR_TEXT)
    return sql_err(err, CHV_EINVAL,
                   "ROW FORMAT is for TEXTFILE, not %s (the directory's "
                   "files are %s files)",
                   f->stored_as, *name);
  int rc = CHV_OK;
  if (f && f->row_format == CHV_SQL_ROW_FORMAT_SERDE) {
    if (!strstr(f->serde, "LazySimpleSerDe"))
      return sql_err(err, CHV_ENOTSUP,
                     "ROW FORMAT SERDE '%s' is not supported yet (only "
                     "LazySimpleSerDe)",
                     f->serde);
    for (size_t i = 0; rc == CHV_OK && i < f->serde_props.n; i++)
      rc = chv_text_options_set(&d->text, f->serde_props.items[i].key,
                                f->serde_props.items[i].value
                                    ? f->serde_props.items[i].value
                                    : "",
                                err);
  } else if (f && f->row_format == CHV_SQL_ROW_FORMAT_DELIMITED) {
    const struct {
      const char *key, *value;
    } kv[] = {{"field.delim", f->fields_terminated},
              {"collection.delim", f->collection_terminated},
              {"mapkey.delim", f->map_keys_terminated},
              {"line.delim", f->lines_terminated},
              {"escape.delim", f->escaped_by},
              {"serialization.null.format", f->null_defined_as}};
    for (size_t i = 0; rc == CHV_OK && i < CHV_ARRAY_SIZE(kv); i++)
      if (kv[i].value)
        rc = chv_text_options_set(&d->text, kv[i].key, kv[i].value, err);
  }
  if (rc != CHV_OK) return chv_error_wrap(err, "ROW FORMAT");
  /* the session's compression (a table would carry it as a property) */
  bool compress = false;
  struct chv_error e;
  if (chv_config_get_bool(s->cfg, "hive.exec.compress.output", &compress,
                          &e) == CHV_OK)
    d->text.compress = compress;
  const char *codec;
  if (d->format == DIR_PARQUET &&
      chv_config_get_string(s->cfg, "parquet.compression", &codec, &e) ==
          CHV_OK)
    rc = chv_pq_write_options_set(&d->pq, "parquet.compression", codec, err);
  if (d->format == DIR_ORC &&
      chv_config_get_string(s->cfg, "orc.compress", &codec, &e) == CHV_OK)
    rc = chv_orc_write_options_set(&d->orc, "orc.compress", codec, err);
  return rc;
}

/* True when a is b or a folder above b (both absolute, normalized). */
static bool path_covers(const char *a, const char *b) {
  size_t n = strlen(a);
  if (n == 1 && a[0] == '/') return true;
  return !strncmp(a, b, n) && (b[n] == '\0' || b[n] == '/');
}

/* The target as an absolute path without '.', '..' or a trailing '/'
** (its parent resolved, made if missing), in out (PATH_MAX). */
static int dir_target(struct sql_session *s, const char *given, char *out,
                      struct chv_error *err) {
  const char *p = given;
  if (!strncmp(p, "file://", 7)) p += 7;
  else if (!strncmp(p, "file:", 5)) p += 5;
  const char *colon = strstr(p, "://");
  if (colon && colon < p + strcspn(p, "/"))
    return sql_err(err, CHV_ENOTSUP,
                   "INSERT OVERWRITE DIRECTORY '%s': only local paths are "
                   "supported (chive has no HDFS or object store yet)",
                   given);
  char path[PATH_MAX];
  if (strlen(p) >= sizeof path - 1)
    return sql_err(err, CHV_EINVAL, "directory '%s': the path is too long",
                   given);
  snprintf(path, sizeof path, "%s", p);
  size_t n = strlen(path);
  while (n > 1 && path[n - 1] == '/') path[--n] = '\0';
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  if (!*base || !strcmp(base, ".") || !strcmp(base, ".."))
    return sql_err(err, CHV_EINVAL,
                   "directory '%s': name a folder to replace (not '/', '.' "
                   "or '..')",
                   given);
  char parent[PATH_MAX];
  if (base == path)
    snprintf(parent, sizeof parent, ".");
  else
    snprintf(parent, sizeof parent, "%.*s", (int)(base - path - 1), path);
  if (!parent[0]) snprintf(parent, sizeof parent, "/");
  const struct chv_fs *fs = chv_fs_local();
  struct chv_error e;
  if (fs->mkdirs(fs, parent, &e) != CHV_OK)
    return sql_err(err, e.code, "directory '%s': %s", given, e.msg);
  char real[PATH_MAX];
  if (!realpath(parent, real))
    return sql_err(err, CHV_EIO, "directory '%s': %s: %s", given, parent,
                   strerror(errno));
  int len = snprintf(out, PATH_MAX, "%s/%s", strcmp(real, "/") ? real : "",
                     base);
  if (len < 0 || len >= PATH_MAX)
    return sql_err(err, CHV_EINVAL, "directory '%s': the path is too long",
                   given);
  struct stat sb;
  if (lstat(out, &sb) == 0 && !S_ISDIR(sb.st_mode))
    return sql_err(err, CHV_EEXIST,
                   "directory '%s': %s exists and is not a folder", given,
                   out);
  /* Replacing a folder deletes what it held: never a folder right under
  ** '/' (/tmp, /home), one holding the working folder, or a warehouse. */
  if (!strchr(out + 1, '/'))
    return sql_err(err, CHV_EINVAL,
                   "directory '%s': %s is right under '/'; name a folder "
                   "inside it (the folder is replaced whole)",
                   given, out);
  char cwd[PATH_MAX];
  if (getcwd(cwd, sizeof cwd) && path_covers(out, cwd))
    return sql_err(err, CHV_EINVAL,
                   "directory '%s': %s holds the working folder %s (the "
                   "folder is replaced whole)",
                   given, out, cwd);
  /* never the warehouse of a catalog, inside one or above one */
  for (int i = 0; i < s->ncats; i++) {
    const char *wh = chv_catalog_warehouse(s->cats[i].cat);
    char rw[PATH_MAX];
    if (!wh || !realpath(wh, rw)) continue;
    if (path_covers(out, rw) || path_covers(rw, out))
      return sql_err(err, CHV_EINVAL,
                     "directory '%s': %s %s the warehouse %s of catalog %s; "
                     "write into a table with INSERT instead",
                     given, out,
                     path_covers(out, rw) ? "holds" : "lies inside", rw,
                     s->cats[i].name);
  }
  return CHV_OK;
}

/* Swaps the staging folder into the target's place (see the file comment);
** on success *old names what to delete ("" when nothing). */
static int dir_swap(const char *staging, const char *target, char *old,
                    size_t nold, struct chv_error *err) {
  old[0] = '\0';
  struct stat sb;
  if (lstat(target, &sb) != 0) {
    if (rename(staging, target) == 0) return CHV_OK;
    return sql_err(err, CHV_EIO, "directory %s: cannot move the new files in "
                   "(%s)", target, strerror(errno));
  }
#ifdef RENAME_EXCHANGE
  if (renameat2(AT_FDCWD, staging, AT_FDCWD, target, RENAME_EXCHANGE) == 0) {
    snprintf(old, nold, "%s", staging); /* now the old folder */
    return CHV_OK;
  }
  if (errno != EINVAL && errno != ENOSYS && errno != ENOTSUP)
    return sql_err(err, CHV_EIO, "directory %s: cannot swap the new files in "
                   "(%s)", target, strerror(errno));
#endif
  snprintf(old, nold, "%s", staging);
  char *dot = strrchr(old, '/');
  char *st = dot ? strstr(dot, ".staging_") : NULL;
  if (st) memcpy(st, ".old_____", 9); /* same length: .<name>.old_____<id> */
  if (rename(target, old) != 0) {
    int e = errno;
    old[0] = '\0';
    return sql_err(err, CHV_EIO, "directory %s: cannot move the old files "
                   "aside (%s)", target, strerror(e));
  }
  if (rename(staging, target) != 0) {
    int e = errno;
    if (rename(old, target) == 0) old[0] = '\0';
    return sql_err(err, CHV_EIO, "directory %s: cannot move the new files in "
                   "(%s)", target, strerror(e));
  }
  return CHV_OK;
}

int sql_exec_insert_directory(struct sql_session *s,
                              const struct chv_sql_stmt *st,
                              struct chv_sql_pos *pos, struct chv_error *err) {
  bool explain = s->plan && !sql_plan_analyze(s);
  if (!st->query) return sql_err(err, CHV_EINVAL, "INSERT without rows");
  struct sql_dir d;
  memset(&d, 0, sizeof d);
  d.fs = chv_fs_local();
  const char *fname;
  char target[PATH_MAX], staging[PATH_MAX + 64], file[PATH_MAX + 96];
  staging[0] = '\0';
  struct chv_type *schema = NULL;
  int rc = dir_format(s, st, &d, &fname, err);
  if (rc == CHV_OK) rc = dir_target(s, st->directory, target, err);
  if (rc != CHV_OK) return rc;
  struct sql_plan_node *node = sql_plan_node(
      s, NULL, "Insert overwrite %sdirectory %s: %s", st->local ? "local " : "",
      target, fname);
  if (node && d.format == DIR_TEXT) {
    struct chv_buf b;
    chv_buf_init(&b);
    chv_buf_puts(&b, "fields=");
    unsigned char fd = d.text.separators[0];
    if (fd >= 0x20 && fd < 0x7f)
      chv_buf_printf(&b, "'%c'", fd);
    else
      chv_buf_printf(&b, "'\\%03o'", fd);
    chv_buf_printf(&b, " null='%.*s'", (int)d.text.null_format_len,
                   d.text.null_format);
    if (d.text.compress) chv_buf_puts(&b, " gzip");
    sql_plan_detail(node, "%s", b.data);
    chv_buf_free(&b);
  }
  /* The columns: the query's names and types, found without reading. */
  rc = sql_query_schema(s, st->query, &schema, pos, err);
  if (rc != CHV_OK) return rc;
  if (!explain) {
    static int seq;
    const char *slash = strrchr(target, '/');
    snprintf(staging, sizeof staging, "%.*s/.%s.staging_%lld_%ld_%d",
             (int)(slash - target), target, slash + 1,
             (long long)chv_time_now_ms(), (long)getpid(),
             __atomic_add_fetch(&seq, 1, __ATOMIC_RELAXED));
    snprintf(file, sizeof file, "%s/000000_0%s", staging,
             d.format == DIR_TEXT && d.text.compress ? ".gz" : "");
    rc = d.fs->mkdirs(d.fs, staging, err);
    if (rc == CHV_OK) {
      switch (d.format) {
      case DIR_TEXT:
        rc = chv_text_writer_open(d.fs, file, schema, &d.text, &d.tw, err);
        break;
      case DIR_PARQUET:
        rc = chv_pq_writer_open(d.fs, file, schema, &d.pq, &d.pw, err);
        break;
      case DIR_ORC:
        rc = chv_orc_writer_open(d.fs, file, schema, &d.orc, &d.ow, err);
        break;
      }
    }
    if (rc != CHV_OK) {
      chv_error_wrap(err, "directory %s", target);
      goto out;
    }
  }
  int64_t written = 0;
  *pos = st->pos;
  rc = sql_query_into_dir(s, st->query, st->pos, explain, &d, schema, node,
                          &written, pos, err);
  if (rc != CHV_OK || explain) goto out;
  int64_t t0 = sql_plan_analyze(s) ? sql_plan_now() : 0;
  switch (d.format) {
  case DIR_TEXT: rc = chv_text_writer_finish(d.tw, NULL, err); break;
  case DIR_PARQUET: rc = chv_pq_writer_finish(d.pw, NULL, err); break;
  case DIR_ORC: rc = chv_orc_writer_finish(d.ow, NULL, err); break;
  }
  if (rc == CHV_OK) rc = d.fs->sync_dir(d.fs, staging, err);
  rc = rc == CHV_OK ? sql_cancelled(s, err) : rc;
  char old[PATH_MAX + 96];
  if (rc == CHV_OK) rc = dir_swap(staging, target, old, sizeof old, err);
  if (rc == CHV_OK) {
    staging[0] = '\0'; /* it is the target now */
    const char *slash = strrchr(target, '/');
    char parent[PATH_MAX];
    snprintf(parent, sizeof parent, "%.*s", (int)(slash - target), target);
    struct chv_error e;
    d.fs->sync_dir(d.fs, parent[0] ? parent : "/", &e);
    if (old[0] && d.fs->remove(d.fs, old, true, &e) != CHV_OK && s->notice) {
      char msg[3 * PATH_MAX + 1200];
      snprintf(msg, sizeof msg, "the old files of %s stay in %s: %s", target,
               old, e.msg);
      s->notice(s->notice_ctx, msg);
    }
    if (t0) {
      sql_plan_count(node, 0, sql_plan_now() - t0);
      sql_plan_detail(node, "Commit: time=%.3f ms",
                      (double)(sql_plan_now() - t0) / 1e6);
    }
    char msg[PATH_MAX + 64];
    snprintf(msg, sizeof msg, "Wrote %lld row%s into %s", (long long)written,
             written == 1 ? "" : "s", target);
    rc = sql_out_summary(s, "rows_written", written, msg, err);
  }
out:
  chv_text_writer_close(d.tw);
  chv_pq_writer_close(d.pw);
  chv_orc_writer_close(d.ow);
  if (staging[0]) { /* failed: the old folder stays as it was */
    struct chv_error e;
    d.fs->remove(d.fs, staging, true, &e);
  }
  chv_type_free(schema);
  return rc;
}
