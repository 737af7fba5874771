/*
** Recovery from writers that died, and the view readers take of writes in
** progress, both from the write records of the metastore (chive/catalog.h,
** enum chv_commit_state).
*/
#include "connector/connector_int.h"

#include <errno.h>
#include <signal.h>
#include <unistd.h>

/* True when the process that wrote a record no longer runs.  A pid reused
** by another process only delays recovery; it never undoes a live write. */
static bool writer_gone(int64_t pid) {
  if (pid == (int64_t)getpid()) return false;
  if (pid <= 0) return true;
  return kill((pid_t)pid, 0) == -1 && errno == ESRCH;
}

int conn_recover_table(chv_catalog *cat, const struct chv_fs *fs,
                       const char *db, const char *table,
                       struct chv_error *err) {
  struct chv_commit_record *recs;
  int n;
  CHV_RETURN_IF_ERR(chv_catalog_commit_list(cat, db, table, &recs, &n, err));
  int rc = CHV_OK;
  for (int i = 0; i < n && rc == CHV_OK; i++) {
    struct chv_commit_record *r = &recs[i];
    if (!writer_gone(r->pid)) continue;
    char **paths = r->state == CHV_COMMIT_PENDING     ? r->new_files
                   : r->state == CHV_COMMIT_COMMITTED ? r->old_files
                                                      : NULL;
    int np = r->state == CHV_COMMIT_PENDING     ? r->nnew
             : r->state == CHV_COMMIT_COMMITTED ? r->nold
                                                : 0;
    for (int k = 0; k < np && rc == CHV_OK; k++) {
      rc = fs->remove(fs, paths[k], true, err);
      if (rc == CHV_ENOENT) {
        chv_error_clear(err);
        rc = CHV_OK;
      }
    }
    if (rc == CHV_OK) {
      rc = fs->remove(fs, r->staging, true, err);
      if (rc == CHV_ENOENT) {
        chv_error_clear(err);
        rc = CHV_OK;
      }
    }
    if (rc == CHV_OK) rc = chv_catalog_commit_remove(cat, r->id, err);
    if (rc != CHV_OK)
      chv_error_wrap(err, "recovering an interrupted write of %s.%s", db,
                     table);
  }
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

bool conn_path_hidden(char *const *paths, int n, const char *path) {
  for (int i = 0; i < n; i++) {
    size_t len = strlen(paths[i]);
    if (strncmp(path, paths[i], len) == 0 &&
        (path[len] == '\0' || path[len] == '/'))
      return true;
  }
  return false;
}
