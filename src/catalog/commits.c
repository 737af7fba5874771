/*
** Write records: what a writer of a table is doing, kept in the metastore
** so that readers can skip files that are not (or no longer) part of the
** table and the next writer can finish or undo the work of one that died.
** The states and their meaning are described in chive/catalog.h.
**
** INTERFACE
**   chv_catalog_commit_register(), _set(), _remove(), _list()
**   chv_commit_records_free()
*/
#include "catalog/catalog_int.h"

/* The table id of db.table inside the current transaction. */
static int table_id(chv_catalog *c, const char *db, const char *table,
                    int64_t *id, struct chv_error *err) {
  char *ldb, *lname;
  CHV_RETURN_IF_ERR(cat_table_names(db, table, &ldb, &lname, err));
  int rc = cat_table_load(c, ldb, lname, id, NULL, err);
  chv_free(ldb);
  chv_free(lname);
  return rc;
}

int chv_catalog_commit_register(chv_catalog *c, const char *db,
                                const char *table, int64_t pid,
                                const char *staging, int64_t *id,
                                struct chv_error *err) {
  CHV_RETURN_IF_ERR(cat_begin_write(c, err));
  int64_t tbl_id;
  sqlite3_stmt *st = NULL;
  int rc = table_id(c, db, table, &tbl_id, err);
  if (rc == CHV_OK)
    rc = cat_prepare(c,
                     "INSERT INTO commits(tbl_id, pid, state, staging, "
                     "create_time) VALUES(?1, ?2, ?3, rel_loc(?4), ?5)",
                     &st, err);
  if (rc == CHV_OK) {
    sqlite3_bind_int64(st, 1, tbl_id);
    sqlite3_bind_int64(st, 2, pid);
    sqlite3_bind_int(st, 3, CHV_COMMIT_WRITING);
    sqlite3_bind_text(st, 4, staging, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 5, chv_time_now_ms() / 1000);
    int src = sqlite3_step(st);
    if (src != SQLITE_DONE)
      rc = cat_sqlerr(c, src, err, "registering a write of %s", table);
  }
  sqlite3_finalize(st);
  int64_t new_id = sqlite3_last_insert_rowid(c->db);
  if (rc == CHV_OK) rc = cat_commit(c, err);
  else cat_rollback(c);
  if (rc == CHV_OK) *id = new_id;
  return rc;
}

/* The kinds of path in commit_files. */
enum { FILE_NEW = 0, FILE_OLD = 1, DIR_NEW = 2 };

/* Insert paths of one kind for record id. */
static int put_files(chv_catalog *c, sqlite3_stmt *st, int64_t id, int kind,
                     char *const *paths, int n, struct chv_error *err) {
  for (int i = 0; i < n; i++) {
    sqlite3_reset(st);
    sqlite3_bind_int64(st, 1, id);
    sqlite3_bind_int(st, 2, kind);
    sqlite3_bind_text(st, 3, paths[i], -1, SQLITE_STATIC);
    int src = sqlite3_step(st);
    if (src != SQLITE_DONE)
      return cat_sqlerr(c, src, err, "recording file %s", paths[i]);
  }
  return CHV_OK;
}

int chv_catalog_commit_set(chv_catalog *c, int64_t id,
                           enum chv_commit_state state,
                           const struct chv_commit_files *files,
                           struct chv_error *err) {
  CHV_RETURN_IF_ERR(cat_begin_write(c, err));
  sqlite3_stmt *up = NULL, *del = NULL, *ins = NULL;
  int rc = cat_prepare(c, "UPDATE commits SET state = ?2 WHERE commit_id = ?1",
                       &up, err);
  if (rc == CHV_OK) {
    sqlite3_bind_int64(up, 1, id);
    sqlite3_bind_int(up, 2, state);
    int src = sqlite3_step(up);
    if (src != SQLITE_DONE)
      rc = cat_sqlerr(c, src, err, "updating write record %lld",
                      (long long)id);
    else if (sqlite3_changes(c->db) == 0)
      rc = chv_error_set(err, CHV_ENOENT, "write record %lld not found",
                         (long long)id);
  }
  if (rc == CHV_OK && files) {
    rc = cat_prepare(c, "DELETE FROM commit_files WHERE commit_id = ?1", &del,
                     err);
    if (rc == CHV_OK) {
      sqlite3_bind_int64(del, 1, id);
      int src = sqlite3_step(del);
      if (src != SQLITE_DONE)
        rc = cat_sqlerr(c, src, err, "clearing write record %lld",
                        (long long)id);
    }
    if (rc == CHV_OK)
      rc = cat_prepare(c,
                       "INSERT OR IGNORE INTO commit_files(commit_id, kind, "
                       "path) VALUES(?1, ?2, rel_loc(?3))",
                       &ins, err);
    if (rc == CHV_OK)
      rc = put_files(c, ins, id, FILE_NEW, files->new_files, files->nnew, err);
    if (rc == CHV_OK)
      rc = put_files(c, ins, id, FILE_OLD, files->old_files, files->nold, err);
    if (rc == CHV_OK)
      rc = put_files(c, ins, id, DIR_NEW, files->new_dirs, files->nnewdirs,
                     err);
  }
  sqlite3_finalize(up);
  sqlite3_finalize(del);
  sqlite3_finalize(ins);
  if (rc == CHV_OK) return cat_commit(c, err);
  cat_rollback(c);
  return rc;
}

int chv_catalog_commit_remove(chv_catalog *c, int64_t id,
                              struct chv_error *err) {
  CHV_RETURN_IF_ERR(cat_begin_write(c, err));
  sqlite3_stmt *st;
  int rc = cat_prepare(c, "DELETE FROM commits WHERE commit_id = ?1", &st, err);
  if (rc == CHV_OK) {
    sqlite3_bind_int64(st, 1, id);
    int src = sqlite3_step(st);
    if (src != SQLITE_DONE)
      rc = cat_sqlerr(c, src, err, "removing write record %lld",
                      (long long)id);
    sqlite3_finalize(st);
  }
  if (rc == CHV_OK) return cat_commit(c, err);
  cat_rollback(c);
  return rc;
}

void chv_commit_records_free(struct chv_commit_record *v, int n) {
  if (v == NULL) return;
  for (int i = 0; i < n; i++) {
    chv_free(v[i].db);
    chv_free(v[i].table);
    chv_free(v[i].staging);
    chv_strv_free(v[i].new_files, v[i].nnew);
    chv_strv_free(v[i].old_files, v[i].nold);
    chv_strv_free(v[i].new_dirs, v[i].nnewdirs);
  }
  chv_free(v);
}

/* Append path to a string vector. */
static int strv_push(char ***v, int *n, const char *path) {
  char **nv = chv_realloc(*v, (size_t)(*n + 1) * sizeof *nv);
  if (nv == NULL) return CHV_ENOMEM;
  *v = nv;
  nv[*n] = chv_strdup(path ? path : "");
  if (nv[*n] == NULL) return CHV_ENOMEM;
  (*n)++;
  return CHV_OK;
}

int chv_catalog_commit_list(chv_catalog *c, const char *db, const char *table,
                            struct chv_commit_record **out, int *nout,
                            struct chv_error *err) {
  CHV_RETURN_IF_ERR(cat_begin_read(c, err));
  int64_t tbl_id = 0;
  sqlite3_stmt *st = NULL, *fst = NULL;
  struct chv_commit_record *v = NULL;
  int n = 0;
  bool all = db == NULL && table == NULL;
  const char *what = all ? "the warehouse" : table;
  int rc = all ? CHV_OK : table_id(c, db, table, &tbl_id, err);
  if (rc == CHV_OK)
    rc = cat_prepare(c,
                     "SELECT c.commit_id, c.pid, c.state, abs_loc(c.staging), "
                     "c.create_time, d.name, t.name FROM commits c "
                     "JOIN tbls t ON t.tbl_id = c.tbl_id "
                     "JOIN dbs d ON d.db_id = t.db_id "
                     "WHERE ?1 = 0 OR c.tbl_id = ?1 ORDER BY c.commit_id",
                     &st, err);
  if (rc == CHV_OK)
    rc = cat_prepare(c,
                     "SELECT kind, abs_loc(path) FROM commit_files "
                     "WHERE commit_id = ?1 ORDER BY kind, path",
                     &fst, err);
  if (rc == CHV_OK) sqlite3_bind_int64(st, 1, tbl_id);
  int src = SQLITE_DONE;
  while (rc == CHV_OK && (src = sqlite3_step(st)) == SQLITE_ROW) {
    struct chv_commit_record *nv = chv_realloc(v, (size_t)(n + 1) * sizeof *nv);
    if (nv == NULL) {
      rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
      break;
    }
    v = nv;
    struct chv_commit_record *r = &v[n++];
    memset(r, 0, sizeof *r);
    r->id = sqlite3_column_int64(st, 0);
    r->pid = sqlite3_column_int64(st, 1);
    r->state = (enum chv_commit_state)sqlite3_column_int(st, 2);
    bool oom = false;
    r->staging = cat_col_dup(st, 3, &oom);
    r->create_time = sqlite3_column_int64(st, 4);
    r->db = cat_col_dup(st, 5, &oom);
    r->table = cat_col_dup(st, 6, &oom);
    if (oom) {
      rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
      break;
    }
    sqlite3_reset(fst);
    sqlite3_bind_int64(fst, 1, r->id);
    int fsrc;
    while (rc == CHV_OK && (fsrc = sqlite3_step(fst)) == SQLITE_ROW) {
      const char *path = (const char *)sqlite3_column_text(fst, 1);
      int kind = sqlite3_column_int(fst, 0);
      int prc = kind == FILE_NEW ? strv_push(&r->new_files, &r->nnew, path)
                : kind == FILE_OLD
                    ? strv_push(&r->old_files, &r->nold, path)
                    : strv_push(&r->new_dirs, &r->nnewdirs, path);
      if (prc != CHV_OK) rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
    }
    if (rc == CHV_OK && fsrc != SQLITE_DONE)
      rc = cat_sqlerr(c, fsrc, err, "reading write records of %s", what);
  }
  if (rc == CHV_OK && src != SQLITE_DONE)
    rc = cat_sqlerr(c, src, err, "reading write records of %s", what);
  sqlite3_finalize(st);
  sqlite3_finalize(fst);
  cat_rollback(c); /* ends the read */
  if (rc != CHV_OK) {
    chv_commit_records_free(v, n);
    return rc;
  }
  *out = v;
  *nout = n;
  return CHV_OK;
}
