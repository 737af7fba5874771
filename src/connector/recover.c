/*
** Recovery from writers that died, and the view readers take of writes in
** progress, both from the write records of the metastore (chive/catalog.h,
** enum chv_commit_state).
*/
#include "connector/connector_int.h"

#include <errno.h>
#include <stdlib.h>
#include <signal.h>
#include <unistd.h>

/* True when the process that wrote a record no longer runs.  A pid reused
** by another process only delays recovery; it never undoes a live write. */
static bool writer_gone(int64_t pid) {
  if (pid == (int64_t)getpid()) return false;
  if (pid <= 0) return true;
  return kill((pid_t)pid, 0) == -1 && errno == ESRCH;
}

/* Remove path (a folder with what it holds when recursive); gone already
** is no error. */
static int remove_gone(const struct chv_fs *fs, const char *path,
                       bool recursive, struct chv_error *err) {
  int rc = fs->remove(fs, path, recursive, err);
  if (rc == CHV_ENOENT) {
    chv_error_clear(err);
    rc = CHV_OK;
  }
  return rc;
}

static int by_length_desc(const void *a, const void *b) {
  size_t la = strlen(*(char *const *)a), lb = strlen(*(char *const *)b);
  return la < lb ? 1 : la > lb ? -1 : 0;
}

/* The file system of a record's table. */
static int record_fs(chv_catalog *cat, const struct chv_commit_record *r,
                     const struct chv_fs **fs, struct chv_error *err) {
  struct chv_table t;
  const char *inner;
  CHV_RETURN_IF_ERR(chv_catalog_get_table(cat, r->db, r->table, &t, err));
  int rc = chv_fs_for_path(t.location, fs, &inner, err);
  chv_table_free(&t);
  return rc;
}

/* Finish or undo one record of a dead writer; fs is its table's, or NULL
** to look it up. */
static int recover_record(const struct chv_fs *fs, chv_catalog *cat,
                          struct chv_commit_record *r,
                          struct chv_recovery *out, struct chv_error *err) {
  int rc = fs ? CHV_OK : record_fs(cat, r, &fs, err);
  if (rc == CHV_OK && r->state == CHV_COMMIT_COMMITTED) {
    /* The metastore holds the write: finish deleting what it replaced. */
    for (int k = 0; k < r->nold && rc == CHV_OK; k++)
      rc = remove_gone(fs, r->old_files[k], true, err);
  } else if (rc == CHV_OK && r->state == CHV_COMMIT_PENDING) {
    /* Killed while its files moved in: take them out again, then the
    ** folders it made that are left empty, deepest first. */
    for (int k = 0; k < r->nnew && rc == CHV_OK; k++)
      rc = remove_gone(fs, r->new_files[k], false, err);
    if (r->nnewdirs > 1)
      qsort(r->new_dirs, (size_t)r->nnewdirs, sizeof *r->new_dirs,
            by_length_desc);
    for (int k = 0; k < r->nnewdirs && rc == CHV_OK; k++)
      fs->remove(fs, r->new_dirs[k], false, NULL); /* kept if not empty */
  }
  if (rc == CHV_OK) rc = remove_gone(fs, r->staging, true, err);
  if (rc == CHV_OK) rc = chv_catalog_commit_remove(cat, r->id, err);
  if (rc != CHV_OK)
    return chv_error_wrap(err, "recovering an interrupted write of %s.%s",
                          r->db, r->table);
  if (out) {
    if (r->state == CHV_COMMIT_COMMITTED)
      out->finished++;
    else if (r->state == CHV_COMMIT_PENDING)
      out->undone++;
    else
      out->discarded++;
  }
  return CHV_OK;
}

/* Recover the dead writers' records among recs; fs NULL: each record's
** table's file system. */
static int recover_records(chv_catalog *cat, const struct chv_fs *fs,
                           struct chv_commit_record *recs, int n,
                           struct chv_recovery *out, struct chv_error *err) {
  int rc = CHV_OK;
  for (int i = 0; i < n && rc == CHV_OK; i++) {
    if (writer_gone(recs[i].pid))
      rc = recover_record(fs, cat, &recs[i], out, err);
    else if (out)
      out->live++;
  }
  return rc;
}

int conn_recover_table(chv_catalog *cat, const struct chv_fs *fs,
                       const char *db, const char *table,
                       struct chv_error *err) {
  struct chv_commit_record *recs;
  int n;
  CHV_RETURN_IF_ERR(chv_catalog_commit_list(cat, db, table, &recs, &n, err));
  int rc = recover_records(cat, fs, recs, n, NULL, err);
  chv_commit_records_free(recs, n);
  return rc;
}

int chv_warehouse_recover(chv_catalog *cat, struct chv_recovery *out,
                          struct chv_error *err) {
  if (out) memset(out, 0, sizeof *out);
  struct chv_commit_record *recs;
  int n;
  CHV_RETURN_IF_ERR(chv_catalog_commit_list(cat, NULL, NULL, &recs, &n, err));
  int rc = recover_records(cat, NULL, recs, n, out, err);
  chv_commit_records_free(recs, n);
  return rc;
}

int conn_hidden_paths(chv_catalog *cat, const char *db, const char *table,
                      char ***paths, int *npaths, struct chv_error *err) {
  struct chv_commit_record *recs;
  int n;
  CHV_RETURN_IF_ERR(chv_catalog_commit_list(cat, db, table, &recs, &n, err));
  int total = 0;
  for (int i = 0; i < n; i++)
    total += recs[i].state == CHV_COMMIT_PENDING     ? recs[i].nnew
             : recs[i].state == CHV_COMMIT_COMMITTED ? recs[i].nold
                                                     : 0;
  char **v = chv_calloc((size_t)total + 1, sizeof *v);
  if (v == NULL) {
    chv_commit_records_free(recs, n);
    return chv_error_set(err, CHV_ENOMEM, "out of memory");
  }
  int k = 0;
  for (int i = 0; i < n; i++) {
    struct chv_commit_record *r = &recs[i];
    char ***src = r->state == CHV_COMMIT_PENDING     ? &r->new_files
                  : r->state == CHV_COMMIT_COMMITTED ? &r->old_files
                                                     : NULL;
    int *ns = r->state == CHV_COMMIT_PENDING     ? &r->nnew
              : r->state == CHV_COMMIT_COMMITTED ? &r->nold
                                                 : NULL;
    if (src == NULL) continue;
    for (int j = 0; j < *ns; j++) v[k++] = (*src)[j]; /* moved */
    *ns = 0;
  }
  chv_commit_records_free(recs, n);
  *paths = v;
  *npaths = k;
  return CHV_OK;
}

int conn_count_files(const struct chv_fs *fs, const char *dir,
                     char *const *hidden, int nhidden, int64_t *visible,
                     int64_t *bytes, int64_t *all, struct chv_error *err) {
  *visible = *bytes = *all = 0;
  struct chv_dirlist l = {0};
  CHV_RETURN_IF_ERR(fs->list(fs, dir,
                             CHV_LIST_RECURSIVE | CHV_LIST_SKIP_HIDDEN |
                                 CHV_LIST_FILES_ONLY,
                             &l, err));
  *all = (int64_t)l.count;
  for (size_t i = 0; i < l.count; i++) {
    if (conn_path_hidden(hidden, nhidden, l.entries[i].path)) continue;
    (*visible)++;
    *bytes += l.entries[i].st.size;
  }
  chv_dirlist_free(&l);
  return CHV_OK;
}

bool conn_path_hidden(char *const *paths, int n, const char *path) {
  for (int i = 0; i < n; i++) {
    size_t len = strlen(paths[i]);
    if (strncmp(path, paths[i], len) == 0 &&
        (path[len] == '\0' || path[len] == '/'))
      return true;
  }
  return false;
}
