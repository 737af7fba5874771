/*
** metastore: the embedded metastore's handle, schema, databases and tables.
** Partitions and filters are in partitions.c.
**
** The store is one SQLite file, <warehouse>/.chive_metastore.db, in WAL
** mode with foreign keys (ON DELETE CASCADE) and a busy timeout.  Every
** change runs in BEGIN IMMEDIATE .. COMMIT, every multi-statement read in
** BEGIN .. COMMIT (one snapshot), so readers in other processes see each
** change whole or not at all and never wait for the writer.
**
** Paths inside the warehouse are stored relative to it (locations.c), so
** the warehouse can be moved or copied with its metastore; opening a
** metastore of schema version 1 or 2, which kept them absolute, migrates
** it (migrate_absolute_paths()); version 3 gets the column statistics
** tables of version 4 (colstats.c).
**
** INTERFACE
**   chv_catalog_open(), _open_conf_dir(), _close(), _warehouse()
**   chv_catalog_{create,drop,get,list}_database(), _alter_database_params()
**   chv_catalog_{create,drop,get,list,alter,rename}_table(), _table_exists(),
**   _alter_table_params(), _{set,get}_table_stats()
**   cat_* helpers of catalog_int.h
*/
#include "catalog/catalog_int.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* ---- SQLite helpers ---------------------------------------------------- */

static int map_sqlite(int rc) {
  switch (rc & 0xff) {
  case SQLITE_OK: case SQLITE_DONE: case SQLITE_ROW: return CHV_OK;
  case SQLITE_NOMEM: return CHV_ENOMEM;
  case SQLITE_BUSY: case SQLITE_LOCKED: return CHV_EBUSY;
  case SQLITE_CORRUPT: case SQLITE_NOTADB: return CHV_ECORRUPT;
  case SQLITE_CONSTRAINT: return CHV_EEXIST;
  case SQLITE_READONLY: case SQLITE_PERM: case SQLITE_AUTH: return CHV_EIO;
  case SQLITE_MISUSE: case SQLITE_RANGE: case SQLITE_ERROR:
    return CHV_EINTERNAL;
  default: return CHV_EIO;
  }
}

int cat_sqlerr(chv_catalog *c, int rc, struct chv_error *err, const char *fmt,
               ...) {
  char ctx[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(ctx, sizeof ctx, fmt, ap);
  va_end(ap);
  int code = map_sqlite(rc);
  if (code == CHV_OK) code = CHV_EINTERNAL;
  return chv_error_set(err, code, "metastore %s: %s: %s", c->path, ctx,
                       c->db ? sqlite3_errmsg(c->db) : sqlite3_errstr(rc));
}

int cat_prepare(chv_catalog *c, const char *sql, sqlite3_stmt **st,
                struct chv_error *err) {
  int rc = sqlite3_prepare_v2(c->db, sql, -1, st, NULL);
  if (rc != SQLITE_OK) return cat_sqlerr(c, rc, err, "prepare");
  return CHV_OK;
}

int cat_exec(chv_catalog *c, const char *sql, struct chv_error *err) {
  int rc = sqlite3_exec(c->db, sql, NULL, NULL, NULL);
  if (rc != SQLITE_OK) {
    char head[40]; /* the statement's start names it */
    snprintf(head, sizeof head, "%.*s", (int)sizeof head - 1, sql);
    return cat_sqlerr(c, rc, err, "%s", head);
  }
  return CHV_OK;
}

/* Transactions nest: inside a group opened by chv_catalog_begin() (or any
** open transaction of this handle) a begin only counts, a commit only
** uncounts, and a rollback only uncounts, leaving the decision to the
** outermost level, whose owner has seen the inner call's error. */
static int cat_begin(chv_catalog *c, const char *sql, struct chv_error *err) {
  if (c->txn_depth > 0) {
    c->txn_depth++;
    return CHV_OK;
  }
  CHV_RETURN_IF_ERR(cat_exec(c, sql, err));
  c->txn_depth = 1;
  return CHV_OK;
}

int cat_begin_write(chv_catalog *c, struct chv_error *err) {
  return cat_begin(c, "BEGIN IMMEDIATE", err);
}

int cat_begin_read(chv_catalog *c, struct chv_error *err) {
  return cat_begin(c, "BEGIN", err);
}

int cat_commit(chv_catalog *c, struct chv_error *err) {
  if (c->txn_depth > 1) {
    c->txn_depth--;
    return CHV_OK;
  }
  c->txn_depth = 0;
  int rc = cat_exec(c, "COMMIT", err);
  if (rc) cat_rollback(c);
  return rc;
}

void cat_rollback(chv_catalog *c) {
  if (c->txn_depth > 1) {
    c->txn_depth--;
    return;
  }
  c->txn_depth = 0;
  if (!sqlite3_get_autocommit(c->db))
    sqlite3_exec(c->db, "ROLLBACK", NULL, NULL, NULL);
}

int chv_catalog_begin(chv_catalog *c, struct chv_error *err) {
  if (c->txn_depth > 0)
    return chv_error_set(err, CHV_EINVAL,
                         "metastore %s: a transaction group is already open",
                         c->path);
  return cat_begin_write(c, err);
}

int chv_catalog_commit(chv_catalog *c, struct chv_error *err) {
  if (c->txn_depth != 1)
    return chv_error_set(err, CHV_EINVAL,
                         "metastore %s: no transaction group is open", c->path);
  return cat_commit(c, err);
}

void chv_catalog_rollback(chv_catalog *c) {
  if (c->txn_depth == 0) return;
  c->txn_depth = 1;
  cat_rollback(c);
}

int cat_name(const char *what, const char *name, char **out,
             struct chv_error *err) {
  if (name == NULL || name[0] == '\0')
    return chv_error_set(err, CHV_EINVAL, "%s name is empty", what);
  for (const char *p = name; *p; p++)
    if (!isalnum((unsigned char)*p) && *p != '_')
      return chv_error_set(err, CHV_EINVAL,
                           "invalid %s name '%s': only letters, digits and "
                           "'_' are allowed",
                           what, name);
  char *s = chv_strdup(name);
  if (s == NULL) return chv_error_set(err, CHV_ENOMEM, "out of memory");
  for (char *p = s; *p; p++) *p = (char)tolower((unsigned char)*p);
  *out = s;
  return CHV_OK;
}

int cat_bind_text(sqlite3_stmt *st, int i, const char *s) {
  return s ? sqlite3_bind_text(st, i, s, -1, SQLITE_STATIC)
           : sqlite3_bind_null(st, i);
}

char *cat_col_dup(sqlite3_stmt *st, int i, bool *oom) {
  const unsigned char *s = sqlite3_column_text(st, i);
  if (s == NULL) return NULL;
  char *d = chv_strdup((const char *)s);
  if (d == NULL) *oom = true;
  return d;
}

int cat_params_read(chv_catalog *c, sqlite3_stmt *st, int64_t id,
                    struct chv_kv **out, int *n, struct chv_error *err) {
  sqlite3_reset(st);
  sqlite3_bind_int64(st, 1, id);
  struct chv_kv *v = NULL;
  int cnt = 0, cap = 0, rc, src;
  bool oom = false;
  while ((src = sqlite3_step(st)) == SQLITE_ROW) {
    if (cnt == cap) {
      int ncap = cap ? cap * 2 : 4;
      struct chv_kv *nv = chv_realloc(v, sizeof *nv * (size_t)ncap);
      if (nv == NULL) {
        oom = true;
        break;
      }
      v = nv;
      cap = ncap;
    }
    v[cnt].key = cat_col_dup(st, 0, &oom);
    v[cnt].value = cat_col_dup(st, 1, &oom);
    cnt++;
    if (oom) break;
  }
  if (oom)
    rc = chv_error_set(err, CHV_ENOMEM, "reading parameters: out of memory");
  else if (src != SQLITE_DONE)
    rc = cat_sqlerr(c, src, err, "reading parameters");
  else
    rc = CHV_OK;
  sqlite3_reset(st);
  if (rc) {
    chv_kv_free(v, cnt);
    return rc;
  }
  *out = v;
  *n = cnt;
  return CHV_OK;
}

int cat_params_prepare(chv_catalog *c, const char *table, const char *idcol,
                       sqlite3_stmt **st, struct chv_error *err) {
  char sql[160];
  snprintf(sql, sizeof sql, "SELECT key, value FROM %s WHERE %s = ?1 "
           "ORDER BY key", table, idcol);
  return cat_prepare(c, sql, st, err);
}

int cat_params_load(chv_catalog *c, const char *table, const char *idcol,
                    int64_t id, struct chv_kv **out, int *n,
                    struct chv_error *err) {
  sqlite3_stmt *st;
  CHV_RETURN_IF_ERR(cat_params_prepare(c, table, idcol, &st, err));
  int rc = cat_params_read(c, st, id, out, n, err);
  sqlite3_finalize(st);
  return rc;
}

int cat_params_set(chv_catalog *c, const char *table, const char *idcol,
                   int64_t id, const struct chv_kv *set, int nset,
                   struct chv_error *err) {
  if (nset == 0) return CHV_OK;
  char sql[256], del[160];
  snprintf(sql, sizeof sql,
           "INSERT INTO %s(%s, key, value) VALUES(?1, ?2, ?3) "
           "ON CONFLICT(%s, key) DO UPDATE SET value = excluded.value",
           table, idcol, idcol);
  snprintf(del, sizeof del, "DELETE FROM %s WHERE %s = ?1 AND key = ?2",
           table, idcol);
  sqlite3_stmt *ins, *dst;
  CHV_RETURN_IF_ERR(cat_prepare(c, sql, &ins, err));
  int rc = cat_prepare(c, del, &dst, err);
  if (rc) {
    sqlite3_finalize(ins);
    return rc;
  }
  for (int i = 0; i < nset && rc == CHV_OK; i++) {
    if (set[i].key == NULL || set[i].key[0] == '\0') {
      rc = chv_error_set(err, CHV_EINVAL, "parameter key is empty");
      break;
    }
    sqlite3_stmt *st = set[i].value ? ins : dst;
    sqlite3_reset(st);
    sqlite3_bind_int64(st, 1, id);
    sqlite3_bind_text(st, 2, set[i].key, -1, SQLITE_STATIC);
    if (set[i].value) sqlite3_bind_text(st, 3, set[i].value, -1, SQLITE_STATIC);
    int src = sqlite3_step(st);
    if (src != SQLITE_DONE)
      rc = cat_sqlerr(c, src, err, "setting parameter %s", set[i].key);
  }
  sqlite3_finalize(ins);
  sqlite3_finalize(dst);
  return rc;
}

int cat_remove_data(chv_catalog *c, const char *path, const char *what,
                    struct chv_error *err) {
  if (c->opts.metadata_only || path == NULL) return CHV_OK;
  struct chv_error e;
  int rc = chv_fs_delete(c->fs, path, true, &e);
  if (rc == CHV_OK || rc == CHV_ENOENT) return CHV_OK;
  return chv_error_set(err, rc, "%s was dropped, but its data could not be "
                       "deleted: %s", what, e.msg);
}

/* ---- schema and opening ------------------------------------------------- */

static const char schema_sql[] =
    "CREATE TABLE dbs(\n"
    "  db_id INTEGER PRIMARY KEY,\n"
    "  name TEXT NOT NULL UNIQUE,\n"
    "  location TEXT NOT NULL,\n"
    "  description TEXT,\n"
    "  create_time INTEGER NOT NULL);\n"
    "CREATE TABLE db_params(\n"
    "  db_id INTEGER NOT NULL REFERENCES dbs(db_id) ON DELETE CASCADE,\n"
    "  key TEXT NOT NULL, value TEXT NOT NULL,\n"
    "  PRIMARY KEY(db_id, key)) WITHOUT ROWID;\n"
    "CREATE TABLE tbls(\n"
    "  tbl_id INTEGER PRIMARY KEY,\n"
    "  db_id INTEGER NOT NULL REFERENCES dbs(db_id) ON DELETE CASCADE,\n"
    "  name TEXT NOT NULL,\n"
    "  table_type TEXT NOT NULL,\n"
    "  location TEXT,\n"
    "  input_format TEXT, output_format TEXT, serde_lib TEXT,\n"
    "  view_original_text TEXT, view_expanded_text TEXT,\n"
    "  create_time INTEGER NOT NULL,\n"
    "  UNIQUE(db_id, name));\n"
    "CREATE TABLE tbl_columns(\n"
    "  tbl_id INTEGER NOT NULL REFERENCES tbls(tbl_id) ON DELETE CASCADE,\n"
    "  is_pkey INTEGER NOT NULL, idx INTEGER NOT NULL,\n"
    "  name TEXT NOT NULL, type TEXT NOT NULL, comment TEXT,\n"
    "  PRIMARY KEY(tbl_id, is_pkey, idx)) WITHOUT ROWID;\n"
    "CREATE TABLE tbl_params(\n"
    "  tbl_id INTEGER NOT NULL REFERENCES tbls(tbl_id) ON DELETE CASCADE,\n"
    "  key TEXT NOT NULL, value TEXT NOT NULL,\n"
    "  PRIMARY KEY(tbl_id, key)) WITHOUT ROWID;\n"
    "CREATE TABLE serde_params(\n"
    "  tbl_id INTEGER NOT NULL REFERENCES tbls(tbl_id) ON DELETE CASCADE,\n"
    "  key TEXT NOT NULL, value TEXT NOT NULL,\n"
    "  PRIMARY KEY(tbl_id, key)) WITHOUT ROWID;\n"
    "CREATE TABLE parts(\n"
    "  part_id INTEGER PRIMARY KEY,\n"
    "  tbl_id INTEGER NOT NULL REFERENCES tbls(tbl_id) ON DELETE CASCADE,\n"
    "  name TEXT NOT NULL,\n"
    "  location TEXT,\n"
    "  create_time INTEGER NOT NULL,\n"
    "  UNIQUE(tbl_id, name));\n"
    "CREATE TABLE part_values(\n"
    "  part_id INTEGER NOT NULL REFERENCES parts(part_id) ON DELETE CASCADE,\n"
    "  tbl_id INTEGER NOT NULL,\n"
    "  idx INTEGER NOT NULL,\n"
    "  value TEXT,\n"
    "  num,\n"
    "  PRIMARY KEY(part_id, idx)) WITHOUT ROWID;\n"
    "CREATE INDEX part_values_by_value ON part_values(tbl_id, idx, value);\n"
    "CREATE INDEX part_values_by_num ON part_values(tbl_id, idx, num);\n"
    "CREATE TABLE part_params(\n"
    "  part_id INTEGER NOT NULL REFERENCES parts(part_id) ON DELETE CASCADE,\n"
    "  key TEXT NOT NULL, value TEXT NOT NULL,\n"
    "  PRIMARY KEY(part_id, key)) WITHOUT ROWID;\n";

/* The records of writes in progress (see chv_catalog_commit_*). */
static const char schema_v2_sql[] =
    "CREATE TABLE commits(\n"
    "  commit_id INTEGER PRIMARY KEY,\n"
    "  tbl_id INTEGER NOT NULL REFERENCES tbls(tbl_id) ON DELETE CASCADE,\n"
    "  pid INTEGER NOT NULL,\n"
    "  state INTEGER NOT NULL,\n"
    "  staging TEXT NOT NULL,\n"
    "  create_time INTEGER NOT NULL);\n"
    "CREATE INDEX commits_by_table ON commits(tbl_id);\n"
    "CREATE TABLE commit_files(\n"
    "  commit_id INTEGER NOT NULL REFERENCES commits(commit_id)\n"
    "    ON DELETE CASCADE,\n"
    "  kind INTEGER NOT NULL,\n"
    "  path TEXT NOT NULL,\n"
    "  PRIMARY KEY(commit_id, kind, path)) WITHOUT ROWID;\n";

static int user_version(chv_catalog *c, int *out, struct chv_error *err) {
  sqlite3_stmt *st;
  CHV_RETURN_IF_ERR(cat_prepare(c, "PRAGMA user_version", &st, err));
  int rc = sqlite3_step(st);
  if (rc == SQLITE_ROW) *out = sqlite3_column_int(st, 0);
  sqlite3_finalize(st);
  if (rc != SQLITE_ROW) return cat_sqlerr(c, rc, err, "reading user_version");
  return CHV_OK;
}

/* Versions 1 and 2 stored absolute paths.  The root they were made under is
** the location of database default, which the first open put at the
** warehouse root and nothing changes: every path under it becomes relative
** to the warehouse.  A warehouse moved or copied before this migration is
** repaired by it too, since its paths are taken relative to the root they
** were written under, not to where the warehouse is now.  Runs inside the
** transaction of create_schema(). */
static int migrate_absolute_paths(chv_catalog *c, struct chv_error *err) {
  static const char *const updates[] = {
      "UPDATE dbs SET location = rel_loc(location, ?1)",
      "UPDATE tbls SET location = rel_loc(location, ?1) "
      "WHERE location IS NOT NULL",
      "UPDATE parts SET location = rel_loc(location, ?1) "
      "WHERE location IS NOT NULL",
      "UPDATE commits SET staging = rel_loc(staging, ?1)",
      "UPDATE commit_files SET path = rel_loc(path, ?1)"};
  sqlite3_stmt *st;
  CHV_RETURN_IF_ERR(cat_prepare(
      c, "SELECT location FROM dbs WHERE name = 'default'", &st, err));
  int src = sqlite3_step(st), rc = CHV_OK;
  bool oom = false;
  char *root = src == SQLITE_ROW ? cat_col_dup(st, 0, &oom) : NULL;
  if (oom)
    rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
  else if (src != SQLITE_ROW && src != SQLITE_DONE)
    rc = cat_sqlerr(c, src, err, "reading the location of database default");
  sqlite3_finalize(st);
  /* without a usable record, the root is where the warehouse is now */
  const char *from = root && root[0] == '/' ? root : c->warehouse;
  for (size_t i = 0; i < CHV_ARRAY_SIZE(updates) && rc == CHV_OK; i++) {
    if ((rc = cat_prepare(c, updates[i], &st, err)) != CHV_OK) break;
    sqlite3_bind_text(st, 1, from, -1, SQLITE_STATIC);
    src = sqlite3_step(st);
    sqlite3_finalize(st);
    if (src != SQLITE_DONE)
      rc = cat_sqlerr(c, src, err, "making the paths under %s relative",
                      from);
  }
  chv_free(root);
  return rc;
}

static int create_schema(chv_catalog *c, struct chv_error *err) {
  int v;
  CHV_RETURN_IF_ERR(user_version(c, &v, err));
  if (v == CHV_METASTORE_SCHEMA_VERSION) return CHV_OK;
  if (v > CHV_METASTORE_SCHEMA_VERSION)
    return chv_error_set(err, CHV_ENOTSUP,
                         "metastore %s has schema version %d, newer than "
                         "this build's %d",
                         c->path, v, CHV_METASTORE_SCHEMA_VERSION);
  CHV_RETURN_IF_ERR(cat_begin_write(c, err));
  int rc = user_version(c, &v, err); /* another process may have won */
  if (rc == CHV_OK && v == CHV_METASTORE_SCHEMA_VERSION) {
    /* another process created or upgraded it meanwhile */
  } else if (rc == CHV_OK && v == 0) {
    rc = cat_exec(c, schema_sql, err);
    sqlite3_stmt *st = NULL;
    if (rc == CHV_OK)
      rc = cat_prepare(c,
                       "INSERT INTO dbs(name, location, description, "
                       "create_time) VALUES('default', rel_loc(?1), "
                       "'Default Hive database', ?2)",
                       &st, err);
    if (rc == CHV_OK) {
      sqlite3_bind_text(st, 1, c->warehouse, -1, SQLITE_STATIC);
      sqlite3_bind_int64(st, 2, chv_time_now_ms() / 1000);
      int src = sqlite3_step(st);
      if (src != SQLITE_DONE)
        rc = cat_sqlerr(c, src, err, "creating database default");
    }
    sqlite3_finalize(st);
    if (rc == CHV_OK) rc = cat_exec(c, schema_v2_sql, err);
    if (rc == CHV_OK) rc = cat_exec(c, cat_colstats_schema_sql, err);
  } else if (rc == CHV_OK && (v == 1 || v == 2)) {
    if (v == 1) rc = cat_exec(c, schema_v2_sql, err);
    if (rc == CHV_OK) rc = migrate_absolute_paths(c, err);
    if (rc == CHV_OK) rc = cat_exec(c, cat_colstats_schema_sql, err);
  } else if (rc == CHV_OK && v == 3) {
    rc = cat_exec(c, cat_colstats_schema_sql, err);
  } else if (rc == CHV_OK) {
    rc = chv_error_set(err, CHV_ENOTSUP,
                       "metastore %s has schema version %d, which this build "
                       "cannot upgrade",
                       c->path, v);
  }
  if (rc == CHV_OK && v != CHV_METASTORE_SCHEMA_VERSION)
    rc = cat_exec(c, "PRAGMA user_version = " CHV_STR_(CHV_METASTORE_SCHEMA_VERSION), err);
  if (rc) {
    cat_rollback(c);
    return rc;
  }
  return cat_commit(c, err);
}

static int absolute_path(const char *p, char **out, struct chv_error *err) {
  char *abs;
  if (p[0] == '/') {
    abs = chv_strdup(p);
  } else {
    char cwd[4096];
    if (getcwd(cwd, sizeof cwd) == NULL)
      return chv_error_errno(err, errno, "warehouse %s: getcwd", p);
    abs = chv_path_join(cwd, p);
  }
  if (abs == NULL) return chv_error_set(err, CHV_ENOMEM, "out of memory");
  size_t n = strlen(abs);
  while (n > 1 && abs[n - 1] == '/') abs[--n] = '\0';
  *out = abs;
  return CHV_OK;
}

static int set_wal(chv_catalog *c, struct chv_error *err) {
  /* Changing the journal mode needs a moment alone with the file; another
  ** process opening it at the same time makes us wait and retry. */
  for (int attempt = 0;; attempt++) {
    sqlite3_stmt *st;
    CHV_RETURN_IF_ERR(cat_prepare(c, "PRAGMA journal_mode = WAL", &st, err));
    int rc = sqlite3_step(st);
    bool wal = rc == SQLITE_ROW &&
               chv_str_ieq((const char *)sqlite3_column_text(st, 0), "wal");
    sqlite3_finalize(st);
    if (wal) return CHV_OK;
    if (rc == SQLITE_ROW)
      return chv_error_set(err, CHV_EIO,
                           "metastore %s: cannot switch to WAL mode",
                           c->path);
    if ((rc & 0xff) != SQLITE_BUSY || attempt > 100)
      return cat_sqlerr(c, rc, err, "setting WAL mode");
    usleep(10000);
  }
}

int chv_catalog_open(const char *warehouse_dir,
                     const struct chv_catalog_options *opts,
                     chv_catalog **out, struct chv_error *err) {
  const struct chv_fs *fs;
  const char *inner;
  CHV_RETURN_IF_ERR(chv_fs_for_path(warehouse_dir, &fs, &inner, err));
  chv_catalog *c = chv_calloc(1, sizeof *c);
  if (c == NULL) return chv_error_set(err, CHV_ENOMEM, "out of memory");
  if (opts) c->opts = *opts;
  if (c->opts.busy_timeout_ms <= 0) c->opts.busy_timeout_ms = 10000;
  c->fs = fs;
  int rc = absolute_path(inner, &c->warehouse, err);
  if (rc) goto out_close;
  if ((c->path = chv_path_join(c->warehouse, CHV_METASTORE_FILE)) == NULL) {
    rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
    goto out_close;
  }
  rc = chv_fs_mkdirs(fs, c->warehouse, err);
  if (rc) {
    chv_error_wrap(err, "creating the warehouse");
    goto out_close;
  }
  int src = sqlite3_open_v2(c->path, &c->db,
                            SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
                                SQLITE_OPEN_NOMUTEX,
                            NULL);
  if (src != SQLITE_OK) {
    rc = cat_sqlerr(c, src, err, "open");
    goto out_close;
  }
  sqlite3_extended_result_codes(c->db, 1);
  sqlite3_busy_timeout(c->db, c->opts.busy_timeout_ms);
  if ((rc = cat_loc_register(c, err)) != CHV_OK) goto out_close;
  if ((rc = set_wal(c, err)) != CHV_OK) goto out_close;
  rc = cat_exec(c, c->opts.relaxed_durability ? "PRAGMA synchronous = NORMAL"
                                              : "PRAGMA synchronous = FULL",
                err);
  if (rc == CHV_OK) rc = cat_exec(c, "PRAGMA foreign_keys = ON", err);
  /* Listing many partitions walks part_values and part_params by key; a
  ** page cache of up to 32 MiB (allocated as used) keeps that in memory. */
  if (rc == CHV_OK) rc = cat_exec(c, "PRAGMA cache_size = -32768", err);
  if (rc == CHV_OK) rc = create_schema(c, err);
  if (rc) goto out_close;
  *out = c;
  return CHV_OK;

out_close:
  chv_catalog_close(c);
  return rc;
}

int chv_catalog_open_conf_dir(const char *hive_conf_dir,
                              const struct chv_catalog_options *opts,
                              chv_catalog **out, struct chv_error *err) {
  char *path = chv_path_join(hive_conf_dir, "hive-site.xml");
  if (path == NULL) return chv_error_set(err, CHV_ENOMEM, "out of memory");
  struct chv_kv *props = NULL;
  int n = 0;
  int rc = chv_hive_site_read(path, &props, &n, err);
  if (rc == CHV_ENOENT) {
    rc = chv_error_set(err, CHV_ENOENT,
                       "hive-conf-dir %s has no hive-site.xml (%s)",
                       hive_conf_dir, path);
    goto out_free;
  }
  if (rc) goto out_free;
  const char *uris = chv_kv_get(props, n, "hive.metastore.uris");
  char *u = uris ? chv_strdup(uris) : NULL;
  if (u && *chv_str_trim(u)) {
    rc = chv_error_set(err, CHV_ENOTSUP,
                       "%s: hive.metastore.uris=%s selects a remote Hive "
                       "Metastore, which this build does not support yet; "
                       "remove it to use the embedded metastore",
                       path, chv_str_trim(u));
    chv_free(u);
    goto out_free;
  }
  chv_free(u);
  const char *wh = chv_kv_get(props, n, "hive.metastore.warehouse.dir");
  char *whd = chv_strdup(wh ? wh : "/user/hive/warehouse");
  if (whd == NULL) {
    rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
    goto out_free;
  }
  rc = chv_catalog_open(chv_str_trim(whd), opts, out, err);
  if (rc) chv_error_wrap(err, "hive.metastore.warehouse.dir of %s", path);
  chv_free(whd);
out_free:
  chv_kv_free(props, n);
  chv_free(path);
  return rc;
}

void chv_catalog_close(chv_catalog *c) {
  if (c == NULL) return;
  if (c->db) sqlite3_close_v2(c->db);
  chv_free(c->warehouse);
  chv_free(c->path);
  chv_free(c);
}

const char *chv_catalog_warehouse(const chv_catalog *c) {
  return c->warehouse;
}

/* ---- Hive's name patterns ------------------------------------------------ */

/* '*' matches any run of characters; ASCII case-insensitive. */
static bool glob_match(const char *p, size_t pn, const char *s) {
  if (pn == 0) return *s == '\0';
  if (*p == '*') {
    for (;; s++) {
      if (glob_match(p + 1, pn - 1, s)) return true;
      if (*s == '\0') return false;
    }
  }
  if (*s == '\0') return false;
  if (tolower((unsigned char)*p) != tolower((unsigned char)*s)) return false;
  return glob_match(p + 1, pn - 1, s + 1);
}

static bool pattern_match(const char *pattern, const char *name) {
  if (pattern == NULL) return true;
  for (const char *p = pattern;;) {
    const char *bar = strchr(p, '|');
    size_t n = bar ? (size_t)(bar - p) : strlen(p);
    /* Hive trims each alternative */
    const char *q = p;
    size_t m = n;
    while (m && isspace((unsigned char)*q)) q++, m--;
    while (m && isspace((unsigned char)q[m - 1])) m--;
    if (glob_match(q, m, name)) return true;
    if (bar == NULL) return false;
    p = bar + 1;
  }
}

int cat_step_names(sqlite3_stmt *st, const char *pattern, char ***names,
                   int *n) {
  char **v = NULL;
  int cnt = 0, cap = 0, src;
  while ((src = sqlite3_step(st)) == SQLITE_ROW) {
    const char *name = (const char *)sqlite3_column_text(st, 0);
    if (!pattern_match(pattern, name)) continue;
    if (cnt == cap) {
      int ncap = cap ? cap * 2 : 16;
      char **nv = chv_realloc(v, sizeof *nv * (size_t)ncap);
      if (nv == NULL) break;
      v = nv;
      cap = ncap;
    }
    if ((v[cnt] = chv_strdup(name)) == NULL) break;
    cnt++;
  }
  *names = v;
  *n = cnt;
  return src;
}

/* Names from a one-column query with an optional ?1 id, filtered by
** pattern. */
static int list_names(chv_catalog *c, const char *sql, int64_t id,
                      const char *pattern, char ***names, int *n,
                      struct chv_error *err) {
  sqlite3_stmt *st;
  CHV_RETURN_IF_ERR(cat_prepare(c, sql, &st, err));
  if (sqlite3_bind_parameter_count(st) > 0) sqlite3_bind_int64(st, 1, id);
  char **v;
  int cnt, rc = CHV_OK;
  int src = cat_step_names(st, pattern, &v, &cnt);
  if (src == SQLITE_ROW)
    rc = chv_error_set(err, CHV_ENOMEM, "listing: out of memory");
  else if (src != SQLITE_DONE)
    rc = cat_sqlerr(c, src, err, "listing");
  sqlite3_finalize(st);
  if (rc) {
    chv_strv_free(v, cnt);
    return rc;
  }
  *names = v;
  *n = cnt;
  return CHV_OK;
}

/* ---- databases ---------------------------------------------------------- */

static int db_lookup(chv_catalog *c, const char *name, int64_t *id,
                     char **location, struct chv_error *err) {
  sqlite3_stmt *st;
  CHV_RETURN_IF_ERR(cat_prepare(
      c, "SELECT db_id, abs_loc(location) FROM dbs WHERE name = ?1", &st,
      err));
  sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
  int src = sqlite3_step(st), rc = CHV_OK;
  if (src == SQLITE_ROW) {
    if (id) *id = sqlite3_column_int64(st, 0);
    if (location) {
      bool oom = false;
      *location = cat_col_dup(st, 1, &oom);
      if (oom) rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
    }
  } else if (src == SQLITE_DONE) {
    rc = chv_error_set(err, CHV_ENOENT, "database %s does not exist", name);
  } else {
    rc = cat_sqlerr(c, src, err, "looking up database %s", name);
  }
  sqlite3_finalize(st);
  return rc;
}

int chv_catalog_create_database(chv_catalog *c, const struct chv_database *d,
                                unsigned flags, struct chv_error *err) {
  char *name, *loc = NULL;
  CHV_RETURN_IF_ERR(cat_name("database", d->name, &name, err));
  int rc;
  if (d->location) {
    const struct chv_fs *fs;
    const char *inner;
    rc = chv_fs_for_path(d->location, &fs, &inner, err);
    if (rc == CHV_OK) rc = absolute_path(inner, &loc, err);
  } else {
    loc = chv_database_default_location(c->warehouse, name);
    rc = loc ? CHV_OK : chv_error_set(err, CHV_ENOMEM, "out of memory");
  }
  if (rc) goto out_free;
  if ((rc = cat_begin_write(c, err)) != CHV_OK) goto out_free;
  sqlite3_stmt *st;
  rc = cat_prepare(c,
                   "INSERT INTO dbs(name, location, description, create_time)"
                   " VALUES(?1, rel_loc(?2), ?3, ?4)"
                   " ON CONFLICT(name) DO NOTHING",
                   &st, err);
  if (rc) goto out_rollback;
  sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
  sqlite3_bind_text(st, 2, loc, -1, SQLITE_STATIC);
  cat_bind_text(st, 3, d->description);
  sqlite3_bind_int64(st, 4, chv_time_now_ms() / 1000);
  int src = sqlite3_step(st);
  sqlite3_finalize(st);
  if (src != SQLITE_DONE) {
    rc = cat_sqlerr(c, src, err, "creating database %s", name);
    goto out_rollback;
  }
  if (sqlite3_changes(c->db) == 0) {
    if (flags & CHV_CAT_IF_NOT_EXISTS) {
      cat_rollback(c);
      goto out_free;
    }
    rc = chv_error_set(err, CHV_EEXIST, "database %s already exists", name);
    goto out_rollback;
  }
  rc = cat_params_set(c, "db_params", "db_id", sqlite3_last_insert_rowid(c->db),
                      d->params, d->nparams, err);
  if (rc == CHV_OK && !c->opts.metadata_only)
    rc = chv_fs_mkdirs(c->fs, loc, err);
  if (rc) goto out_rollback;
  rc = cat_commit(c, err);
  goto out_free;

out_rollback:
  cat_rollback(c);
out_free:
  chv_free(name);
  chv_free(loc);
  return rc;
}

int chv_catalog_get_database(chv_catalog *c, const char *name,
                             struct chv_database *out, struct chv_error *err) {
  char *low;
  CHV_RETURN_IF_ERR(cat_name("database", name, &low, err));
  struct chv_database d;
  memset(&d, 0, sizeof d);
  int rc = cat_begin_read(c, err);
  if (rc) goto out_free;
  sqlite3_stmt *st;
  rc = cat_prepare(c, "SELECT db_id, name, abs_loc(location), description "
                   "FROM dbs WHERE name = ?1", &st, err);
  if (rc) goto out_end;
  sqlite3_bind_text(st, 1, low, -1, SQLITE_STATIC);
  int src = sqlite3_step(st);
  int64_t id = 0;
  if (src == SQLITE_ROW) {
    bool oom = false;
    id = sqlite3_column_int64(st, 0);
    d.name = cat_col_dup(st, 1, &oom);
    d.location = cat_col_dup(st, 2, &oom);
    d.description = cat_col_dup(st, 3, &oom);
    if (oom) rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
  } else if (src == SQLITE_DONE) {
    rc = chv_error_set(err, CHV_ENOENT, "database %s does not exist", low);
  } else {
    rc = cat_sqlerr(c, src, err, "reading database %s", low);
  }
  sqlite3_finalize(st);
  if (rc == CHV_OK)
    rc = cat_params_load(c, "db_params", "db_id", id, &d.params, &d.nparams,
                         err);
out_end:
  cat_rollback(c);
out_free:
  chv_free(low);
  if (rc) {
    chv_database_free(&d);
    return rc;
  }
  *out = d;
  return CHV_OK;
}

int chv_catalog_list_databases(chv_catalog *c, const char *pattern,
                               char ***names, int *n, struct chv_error *err) {
  return list_names(c, "SELECT name FROM dbs ORDER BY name", 0, pattern, names,
                    n, err);
}

int chv_catalog_alter_database_params(chv_catalog *c, const char *name,
                                      const struct chv_kv *set, int nset,
                                      struct chv_error *err) {
  char *low;
  CHV_RETURN_IF_ERR(cat_name("database", name, &low, err));
  int64_t id;
  int rc = cat_begin_write(c, err);
  if (rc == CHV_OK) rc = db_lookup(c, low, &id, NULL, err);
  if (rc == CHV_OK)
    rc = cat_params_set(c, "db_params", "db_id", id, set, nset, err);
  if (rc == CHV_OK)
    rc = cat_commit(c, err);
  else
    cat_rollback(c);
  chv_free(low);
  return rc;
}

/* Locations of the managed tables of a database (to delete after a drop). */
static int managed_locations(chv_catalog *c, int64_t db_id, char ***locs,
                             int *n, struct chv_error *err) {
  return list_names(c,
                    "SELECT abs_loc(location) FROM tbls WHERE db_id = ?1 AND "
                    "table_type = 'MANAGED_TABLE' AND location IS NOT NULL "
                    "ORDER BY name",
                    db_id, NULL, locs, n, err);
}

int chv_catalog_drop_database(chv_catalog *c, const char *name,
                              unsigned flags, struct chv_error *err) {
  char *low, *loc = NULL, **locs = NULL;
  int nlocs = 0;
  CHV_RETURN_IF_ERR(cat_name("database", name, &low, err));
  int rc;
  if (strcmp(low, "default") == 0) {
    rc = chv_error_set(err, CHV_EINVAL, "database default cannot be dropped");
    goto out_free;
  }
  if ((rc = cat_begin_write(c, err)) != CHV_OK) goto out_free;
  int64_t id;
  rc = db_lookup(c, low, &id, &loc, err);
  if (rc == CHV_ENOENT && (flags & CHV_CAT_IF_EXISTS)) {
    rc = CHV_OK;
    cat_rollback(c);
    goto out_free;
  }
  if (rc) goto out_rollback;
  if ((rc = managed_locations(c, id, &locs, &nlocs, err)) != CHV_OK)
    goto out_rollback;
  if (!(flags & CHV_CAT_CASCADE)) {
    char **all;
    int nall;
    rc = list_names(c, "SELECT name FROM tbls WHERE db_id = ?1 ORDER BY name",
                    id, NULL, &all, &nall, err);
    if (rc) goto out_rollback;
    chv_strv_free(all, nall);
    if (nall > 0) {
      rc = chv_error_set(err, CHV_EINVAL,
                         "database %s is not empty: it holds %d table%s "
                         "(drop it with CASCADE)",
                         low, nall, nall == 1 ? "" : "s");
      goto out_rollback;
    }
  }
  sqlite3_stmt *st;
  if ((rc = cat_prepare(c, "DELETE FROM dbs WHERE db_id = ?1", &st, err)))
    goto out_rollback;
  sqlite3_bind_int64(st, 1, id);
  int src = sqlite3_step(st);
  sqlite3_finalize(st);
  if (src != SQLITE_DONE) {
    rc = cat_sqlerr(c, src, err, "dropping database %s", low);
    goto out_rollback;
  }
  if ((rc = cat_commit(c, err)) != CHV_OK) goto out_free;
  if (!(flags & CHV_CAT_KEEP_DATA)) {
    char what[300];
    snprintf(what, sizeof what, "database %s", low);
    for (int i = 0; i < nlocs && rc == CHV_OK; i++)
      rc = cat_remove_data(c, locs[i], what, err);
    if (rc == CHV_OK) rc = cat_remove_data(c, loc, what, err);
  }
  goto out_free;

out_rollback:
  cat_rollback(c);
out_free:
  chv_strv_free(locs, nlocs);
  chv_free(loc);
  chv_free(low);
  return rc;
}

/* ---- tables ------------------------------------------------------------- */

static int load_columns(chv_catalog *c, int64_t tbl_id, int is_pkey,
                        struct chv_column **out, int *n,
                        struct chv_error *err) {
  sqlite3_stmt *st;
  CHV_RETURN_IF_ERR(cat_prepare(c,
                                "SELECT name, type, comment FROM tbl_columns "
                                "WHERE tbl_id = ?1 AND is_pkey = ?2 "
                                "ORDER BY idx",
                                &st, err));
  sqlite3_bind_int64(st, 1, tbl_id);
  sqlite3_bind_int(st, 2, is_pkey);
  struct chv_column *v = NULL;
  int cnt = 0, cap = 0, src, rc = CHV_OK;
  bool oom = false;
  while ((src = sqlite3_step(st)) == SQLITE_ROW) {
    if (cnt == cap) {
      int ncap = cap ? cap * 2 : 8;
      struct chv_column *nv = chv_realloc(v, sizeof *nv * (size_t)ncap);
      if (nv == NULL) {
        oom = true;
        break;
      }
      v = nv;
      cap = ncap;
    }
    v[cnt].name = cat_col_dup(st, 0, &oom);
    v[cnt].type = cat_col_dup(st, 1, &oom);
    v[cnt].comment = cat_col_dup(st, 2, &oom);
    cnt++;
    if (oom) break;
  }
  if (oom)
    rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
  else if (src != SQLITE_DONE)
    rc = cat_sqlerr(c, src, err, "reading columns");
  sqlite3_finalize(st);
  if (rc) {
    struct chv_table t = {0};
    t.columns = v;
    t.ncols = cnt;
    chv_table_free(&t);
    return rc;
  }
  *out = v;
  *n = cnt;
  return CHV_OK;
}

static enum chv_table_type parse_type(const char *s) {
  if (s && strcmp(s, "EXTERNAL_TABLE") == 0) return CHV_EXTERNAL_TABLE;
  if (s && strcmp(s, "VIRTUAL_VIEW") == 0) return CHV_VIRTUAL_VIEW;
  return CHV_MANAGED_TABLE;
}

int cat_table_load(chv_catalog *c, const char *db, const char *name,
                   int64_t *tbl_id, struct chv_table *out,
                   struct chv_error *err) {
  sqlite3_stmt *st;
  CHV_RETURN_IF_ERR(cat_prepare(
      c,
      "SELECT t.tbl_id, t.table_type, abs_loc(t.location), t.input_format, "
      "t.output_format, t.serde_lib, t.view_original_text, "
      "t.view_expanded_text, t.create_time, d.db_id "
      "FROM dbs d LEFT JOIN tbls t ON t.db_id = d.db_id AND t.name = ?2 "
      "WHERE d.name = ?1",
      &st, err));
  sqlite3_bind_text(st, 1, db, -1, SQLITE_STATIC);
  sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC);
  struct chv_table t;
  memset(&t, 0, sizeof t);
  int src = sqlite3_step(st), rc = CHV_OK;
  int64_t id = 0;
  bool oom = false;
  if (src == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL) {
    id = sqlite3_column_int64(st, 0);
    if (out) {
      t.type = parse_type((const char *)sqlite3_column_text(st, 1));
      t.location = cat_col_dup(st, 2, &oom);
      t.input_format = cat_col_dup(st, 3, &oom);
      t.output_format = cat_col_dup(st, 4, &oom);
      t.serde_lib = cat_col_dup(st, 5, &oom);
      t.view_original_text = cat_col_dup(st, 6, &oom);
      t.view_expanded_text = cat_col_dup(st, 7, &oom);
      t.create_time = sqlite3_column_int64(st, 8);
      t.db = chv_strdup(db);
      t.name = chv_strdup(name);
      if (t.db == NULL || t.name == NULL) oom = true;
    }
  } else if (src == SQLITE_ROW) {
    rc = chv_error_set(err, CHV_ENOENT, "table %s.%s does not exist", db,
                       name);
  } else if (src == SQLITE_DONE) {
    rc = chv_error_set(err, CHV_ENOENT, "database %s does not exist", db);
  } else {
    rc = cat_sqlerr(c, src, err, "reading table %s.%s", db, name);
  }
  sqlite3_finalize(st);
  if (oom) rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
  if (rc == CHV_OK && out) {
    rc = load_columns(c, id, 0, &t.columns, &t.ncols, err);
    if (rc == CHV_OK) rc = load_columns(c, id, 1, &t.pkeys, &t.npkeys, err);
    if (rc == CHV_OK)
      rc = cat_params_load(c, "tbl_params", "tbl_id", id, &t.params,
                           &t.nparams, err);
    if (rc == CHV_OK)
      rc = cat_params_load(c, "serde_params", "tbl_id", id, &t.serde_params,
                           &t.nserde_params, err);
  }
  if (rc) {
    chv_table_free(&t);
    return rc;
  }
  if (tbl_id) *tbl_id = id;
  if (out) *out = t;
  return CHV_OK;
}

static const char *const text_input =
    "org.apache.hadoop.mapred.TextInputFormat";
static const char *const text_output =
    "org.apache.hadoop.hive.ql.io.HiveIgnoreKeyTextOutputFormat";
static const char *const text_serde =
    "org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe";

static int insert_columns(chv_catalog *c, int64_t tbl_id, int is_pkey,
                          const struct chv_column *cols, int n,
                          const char *qname, struct chv_error *err) {
  sqlite3_stmt *st;
  CHV_RETURN_IF_ERR(cat_prepare(c,
                                "INSERT INTO tbl_columns(tbl_id, is_pkey, "
                                "idx, name, type, comment) "
                                "VALUES(?1, ?2, ?3, ?4, ?5, ?6)",
                                &st, err));
  int rc = CHV_OK;
  for (int i = 0; i < n && rc == CHV_OK; i++) {
    char *name;
    rc = cat_name("column", cols[i].name, &name, err);
    if (rc) break;
    if (cols[i].type == NULL || cols[i].type[0] == '\0') {
      rc = chv_error_set(err, CHV_EINVAL, "column %s of %s has no type", name,
                         qname);
      chv_free(name);
      break;
    }
    sqlite3_reset(st);
    sqlite3_bind_int64(st, 1, tbl_id);
    sqlite3_bind_int(st, 2, is_pkey);
    sqlite3_bind_int(st, 3, i);
    sqlite3_bind_text(st, 4, name, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 5, cols[i].type, -1, SQLITE_STATIC);
    cat_bind_text(st, 6, cols[i].comment);
    int src = sqlite3_step(st);
    if (src != SQLITE_DONE)
      rc = cat_sqlerr(c, src, err, "adding column %s to %s", name, qname);
    chv_free(name);
  }
  sqlite3_finalize(st);
  return rc;
}

/* Column names must be unique across data columns and partition keys. */
static int check_columns(const struct chv_table *t, const char *qname,
                         struct chv_error *err) {
  int n = t->ncols + t->npkeys;
  for (int i = 0; i < n; i++) {
    const struct chv_column *a =
        i < t->ncols ? &t->columns[i] : &t->pkeys[i - t->ncols];
    if (a->name == NULL)
      return chv_error_set(err, CHV_EINVAL, "a column of %s has no name",
                           qname);
    for (int j = 0; j < i; j++) {
      const struct chv_column *b =
          j < t->ncols ? &t->columns[j] : &t->pkeys[j - t->ncols];
      if (chv_str_ieq(a->name, b->name))
        return chv_error_set(err, CHV_EINVAL,
                             "column %s of %s is defined twice%s", a->name,
                             qname,
                             i >= t->ncols && j < t->ncols
                                 ? " (as a column and a partition key)"
                                 : "");
    }
  }
  return CHV_OK;
}

static int write_table_row(chv_catalog *c, int64_t tbl_id,
                           const struct chv_table *t, const char *loc,
                           const char *qname, struct chv_error *err) {
  sqlite3_stmt *st;
  CHV_RETURN_IF_ERR(cat_prepare(
      c,
      "UPDATE tbls SET table_type = ?2, location = rel_loc(?3), "
      "input_format = ?4, "
      "output_format = ?5, serde_lib = ?6, view_original_text = ?7, "
      "view_expanded_text = ?8 WHERE tbl_id = ?1",
      &st, err));
  bool view = t->type == CHV_VIRTUAL_VIEW;
  bool deflt = t->serde_lib == NULL && !view;
  sqlite3_bind_int64(st, 1, tbl_id);
  sqlite3_bind_text(st, 2, chv_table_type_name(t->type), -1, SQLITE_STATIC);
  cat_bind_text(st, 3, loc);
  cat_bind_text(st, 4, deflt ? text_input : t->input_format);
  cat_bind_text(st, 5, deflt ? text_output : t->output_format);
  cat_bind_text(st, 6, deflt ? text_serde : t->serde_lib);
  cat_bind_text(st, 7, t->view_original_text);
  cat_bind_text(st, 8, t->view_expanded_text);
  int src = sqlite3_step(st);
  sqlite3_finalize(st);
  if (src != SQLITE_DONE)
    return cat_sqlerr(c, src, err, "writing table %s", qname);
  int rc = insert_columns(c, tbl_id, 0, t->columns, t->ncols, qname, err);
  if (rc == CHV_OK)
    rc = cat_params_set(c, "tbl_params", "tbl_id", tbl_id, t->params,
                        t->nparams, err);
  if (rc == CHV_OK)
    rc = cat_params_set(c, "serde_params", "tbl_id", tbl_id, t->serde_params,
                        t->nserde_params, err);
  if (rc == CHV_OK && deflt && t->nserde_params == 0) {
    struct chv_kv fmt = {"serialization.format", "1"};
    rc = cat_params_set(c, "serde_params", "tbl_id", tbl_id, &fmt, 1, err);
  }
  if (rc == CHV_OK && t->type == CHV_EXTERNAL_TABLE &&
      chv_kv_get(t->params, t->nparams, "EXTERNAL") == NULL) {
    struct chv_kv ext = {"EXTERNAL", "TRUE"};
    rc = cat_params_set(c, "tbl_params", "tbl_id", tbl_id, &ext, 1, err);
  }
  if (rc == CHV_OK &&
      chv_kv_get(t->params, t->nparams, "transient_lastDdlTime") == NULL) {
    char now[24];
    snprintf(now, sizeof now, "%lld", (long long)(chv_time_now_ms() / 1000));
    struct chv_kv ddl = {"transient_lastDdlTime", now};
    rc = cat_params_set(c, "tbl_params", "tbl_id", tbl_id, &ddl, 1, err);
  }
  return rc;
}

/* The absolute location of t, given or default; *loc NULL for views. */
static int table_location(chv_catalog *c, const struct chv_table *t,
                          const char *dbloc, const char *name, char **loc,
                          struct chv_error *err) {
  *loc = NULL;
  if (t->location) {
    const struct chv_fs *fs;
    const char *inner;
    CHV_RETURN_IF_ERR(chv_fs_for_path(t->location, &fs, &inner, err));
    return absolute_path(inner, loc, err);
  }
  if (t->type == CHV_VIRTUAL_VIEW) return CHV_OK;
  *loc = chv_path_join(dbloc, name);
  return *loc ? CHV_OK : chv_error_set(err, CHV_ENOMEM, "out of memory");
}

int chv_catalog_create_table(chv_catalog *c, const struct chv_table *t,
                             unsigned flags, struct chv_error *err) {
  char *db = NULL, *name = NULL, *dbloc = NULL, *loc = NULL, qname[300];
  int rc = cat_name("database", t->db ? t->db : "default", &db, err);
  if (rc == CHV_OK) rc = cat_name("table", t->name, &name, err);
  if (rc) goto out_free;
  snprintf(qname, sizeof qname, "table %s.%s", db, name);
  if ((rc = check_columns(t, qname, err)) != CHV_OK) goto out_free;
  if ((rc = cat_begin_write(c, err)) != CHV_OK) goto out_free;
  int64_t db_id;
  if ((rc = db_lookup(c, db, &db_id, &dbloc, err)) != CHV_OK)
    goto out_rollback;
  if ((rc = table_location(c, t, dbloc, name, &loc, err)) != CHV_OK)
    goto out_rollback;
  sqlite3_stmt *st;
  rc = cat_prepare(c,
                   "INSERT INTO tbls(db_id, name, table_type, create_time) "
                   "VALUES(?1, ?2, 'MANAGED_TABLE', ?3) "
                   "ON CONFLICT(db_id, name) DO NOTHING",
                   &st, err);
  if (rc) goto out_rollback;
  sqlite3_bind_int64(st, 1, db_id);
  sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC);
  sqlite3_bind_int64(st, 3, chv_time_now_ms() / 1000);
  int src = sqlite3_step(st);
  sqlite3_finalize(st);
  if (src != SQLITE_DONE) {
    rc = cat_sqlerr(c, src, err, "creating %s", qname);
    goto out_rollback;
  }
  if (sqlite3_changes(c->db) == 0) {
    if (flags & CHV_CAT_IF_NOT_EXISTS) {
      cat_rollback(c);
      goto out_free;
    }
    rc = chv_error_set(err, CHV_EEXIST, "%s already exists", qname);
    goto out_rollback;
  }
  int64_t tbl_id = sqlite3_last_insert_rowid(c->db);
  rc = write_table_row(c, tbl_id, t, loc, qname, err);
  if (rc == CHV_OK)
    rc = insert_columns(c, tbl_id, 1, t->pkeys, t->npkeys, qname, err);
  if (rc == CHV_OK && loc && !c->opts.metadata_only)
    rc = chv_fs_mkdirs(c->fs, loc, err);
  if (rc) goto out_rollback;
  rc = cat_commit(c, err);
  goto out_free;

out_rollback:
  cat_rollback(c);
out_free:
  chv_free(db);
  chv_free(name);
  chv_free(dbloc);
  chv_free(loc);
  return rc;
}

int cat_table_names(const char *db, const char *name, char **ldb,
                    char **lname, struct chv_error *err) {
  CHV_RETURN_IF_ERR(cat_name("database", db ? db : "default", ldb, err));
  int rc = cat_name("table", name, lname, err);
  if (rc) chv_free(*ldb);
  return rc;
}

int chv_catalog_get_table(chv_catalog *c, const char *db, const char *name,
                          struct chv_table *out, struct chv_error *err) {
  char *ldb, *lname;
  CHV_RETURN_IF_ERR(cat_table_names(db, name, &ldb, &lname, err));
  int rc = cat_begin_read(c, err);
  if (rc == CHV_OK) {
    rc = cat_table_load(c, ldb, lname, NULL, out, err);
    cat_rollback(c);
  }
  chv_free(ldb);
  chv_free(lname);
  return rc;
}

bool chv_catalog_table_exists(chv_catalog *c, const char *db,
                              const char *name) {
  char *ldb, *lname;
  if (cat_table_names(db, name, &ldb, &lname, NULL)) return false;
  bool ok = cat_table_load(c, ldb, lname, NULL, NULL, NULL) == CHV_OK;
  chv_free(ldb);
  chv_free(lname);
  return ok;
}

/* The names sql (one ?1: the database id) lists in database db. */
static int list_in_db(chv_catalog *c, const char *db, const char *sql,
                      const char *pattern, char ***names, int *n,
                      struct chv_error *err) {
  char *ldb;
  CHV_RETURN_IF_ERR(cat_name("database", db ? db : "default", &ldb, err));
  int64_t id;
  int rc = cat_begin_read(c, err);
  if (rc == CHV_OK) {
    rc = db_lookup(c, ldb, &id, NULL, err);
    if (rc == CHV_OK) rc = list_names(c, sql, id, pattern, names, n, err);
    cat_rollback(c);
  }
  chv_free(ldb);
  return rc;
}

int chv_catalog_list_tables(chv_catalog *c, const char *db,
                            const char *pattern, char ***names, int *n,
                            struct chv_error *err) {
  return list_in_db(c, db,
                    "SELECT name FROM tbls WHERE db_id = ?1 ORDER BY name",
                    pattern, names, n, err);
}

int chv_catalog_list_views(chv_catalog *c, const char *db,
                           const char *pattern, char ***names, int *n,
                           struct chv_error *err) {
  return list_in_db(c, db,
                    "SELECT name FROM tbls WHERE db_id = ?1 "
                    "AND table_type = 'VIRTUAL_VIEW' ORDER BY name",
                    pattern, names, n, err);
}

int chv_catalog_drop_table(chv_catalog *c, const char *db, const char *name,
                           unsigned flags, struct chv_error *err) {
  char *ldb, *lname, qname[300];
  CHV_RETURN_IF_ERR(cat_table_names(db, name, &ldb, &lname, err));
  snprintf(qname, sizeof qname, "table %s.%s", ldb, lname);
  struct chv_table t;
  memset(&t, 0, sizeof t);
  int64_t id;
  int rc = cat_begin_write(c, err);
  if (rc) goto out_free;
  rc = cat_table_load(c, ldb, lname, &id, &t, err);
  if (rc == CHV_ENOENT && (flags & CHV_CAT_IF_EXISTS)) {
    rc = CHV_OK;
    cat_rollback(c);
    goto out_free;
  }
  if (rc) goto out_rollback;
  sqlite3_stmt *st;
  if ((rc = cat_prepare(c, "DELETE FROM tbls WHERE tbl_id = ?1", &st, err)))
    goto out_rollback;
  sqlite3_bind_int64(st, 1, id);
  int src = sqlite3_step(st);
  sqlite3_finalize(st);
  if (src != SQLITE_DONE) {
    rc = cat_sqlerr(c, src, err, "dropping %s", qname);
    goto out_rollback;
  }
  if ((rc = cat_commit(c, err)) != CHV_OK) goto out_free;
  if (t.type == CHV_MANAGED_TABLE && !(flags & CHV_CAT_KEEP_DATA))
    rc = cat_remove_data(c, t.location, qname, err);
  goto out_free;

out_rollback:
  cat_rollback(c);
out_free:
  chv_table_free(&t);
  chv_free(ldb);
  chv_free(lname);
  return rc;
}

int chv_catalog_alter_table(chv_catalog *c, const char *db, const char *name,
                            const struct chv_table *t, struct chv_error *err) {
  char *ldb, *lname, *loc = NULL, *dbloc = NULL, qname[300];
  CHV_RETURN_IF_ERR(cat_table_names(db, name, &ldb, &lname, err));
  snprintf(qname, sizeof qname, "table %s.%s", ldb, lname);
  struct chv_table old;
  memset(&old, 0, sizeof old);
  int64_t id;
  int rc = check_columns(t, qname, err);
  if (rc == CHV_OK) rc = cat_begin_write(c, err);
  if (rc) goto out_free;
  if ((rc = cat_table_load(c, ldb, lname, &id, &old, err)) != CHV_OK)
    goto out_rollback;
  bool same_keys = old.npkeys == t->npkeys;
  for (int i = 0; same_keys && i < t->npkeys; i++)
    same_keys = t->pkeys[i].name && chv_str_ieq(old.pkeys[i].name,
                                                t->pkeys[i].name) &&
                t->pkeys[i].type &&
                strcmp(old.pkeys[i].type, t->pkeys[i].type) == 0;
  if (!same_keys) {
    rc = chv_error_set(err, CHV_ENOTSUP,
                       "the partition keys of %s cannot be changed", qname);
    goto out_rollback;
  }
  if (t->location == NULL && t->type != CHV_VIRTUAL_VIEW) {
    loc = old.location ? chv_strdup(old.location) : NULL;
  } else {
    if ((rc = db_lookup(c, ldb, NULL, &dbloc, err)) != CHV_OK)
      goto out_rollback;
    if ((rc = table_location(c, t, dbloc, lname, &loc, err)) != CHV_OK)
      goto out_rollback;
  }
  /* Replace columns and parameters: delete, then write afresh. */
  static const char *const clear[] = {
      "DELETE FROM tbl_columns WHERE tbl_id = ?1 AND is_pkey = 0",
      "DELETE FROM tbl_params WHERE tbl_id = ?1",
      "DELETE FROM serde_params WHERE tbl_id = ?1"};
  for (size_t i = 0; i < CHV_ARRAY_SIZE(clear) && rc == CHV_OK; i++) {
    sqlite3_stmt *st;
    if ((rc = cat_prepare(c, clear[i], &st, err)) != CHV_OK) break;
    sqlite3_bind_int64(st, 1, id);
    int src = sqlite3_step(st);
    sqlite3_finalize(st);
    if (src != SQLITE_DONE) rc = cat_sqlerr(c, src, err, "altering %s", qname);
  }
  if (rc == CHV_OK) {
    /* transient_lastDdlTime is refreshed unless the caller sets it. */
    struct chv_table nt = *t;
    struct chv_kv *kv = chv_calloc((size_t)t->nparams + 1, sizeof *kv);
    if (kv == NULL) {
      rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
      goto out_rollback;
    }
    int n = 0;
    for (int i = 0; i < t->nparams; i++)
      if (strcmp(t->params[i].key, "transient_lastDdlTime") != 0)
        kv[n++] = t->params[i];
    nt.params = kv;
    nt.nparams = n;
    rc = write_table_row(c, id, &nt, loc, qname, err);
    chv_free(kv);
  }
  if (rc == CHV_OK) rc = cat_colstats_prune(c, id, err);
  if (rc) goto out_rollback;
  rc = cat_commit(c, err);
  goto out_free;

out_rollback:
  cat_rollback(c);
out_free:
  chv_table_free(&old);
  chv_free(loc);
  chv_free(dbloc);
  chv_free(ldb);
  chv_free(lname);
  return rc;
}

int chv_catalog_alter_table_params(chv_catalog *c, const char *db,
                                   const char *name, const struct chv_kv *set,
                                   int nset, struct chv_error *err) {
  char *ldb, *lname;
  CHV_RETURN_IF_ERR(cat_table_names(db, name, &ldb, &lname, err));
  int64_t id;
  int rc = cat_begin_write(c, err);
  if (rc == CHV_OK) {
    rc = cat_table_load(c, ldb, lname, &id, NULL, err);
    if (rc == CHV_OK)
      rc = cat_params_set(c, "tbl_params", "tbl_id", id, set, nset, err);
    if (rc == CHV_OK)
      rc = cat_commit(c, err);
    else
      cat_rollback(c);
  }
  chv_free(ldb);
  chv_free(lname);
  return rc;
}

static void stats_to_kv(const struct chv_stats *s, char buf[4][24],
                        struct chv_kv kv[4]) {
  static const char *const keys[4] = {"numRows", "numFiles", "totalSize",
                                      "rawDataSize"};
  const int64_t v[4] = {s->num_rows, s->num_files, s->total_size,
                        s->raw_data_size};
  for (int i = 0; i < 4; i++) {
    snprintf(buf[i], 24, "%lld", (long long)v[i]);
    kv[i].key = (char *)keys[i];
    kv[i].value = v[i] < 0 ? NULL : buf[i];
  }
}

int chv_catalog_set_table_stats(chv_catalog *c, const char *db,
                                const char *name, const struct chv_stats *s,
                                struct chv_error *err) {
  char buf[4][24];
  struct chv_kv kv[4];
  stats_to_kv(s, buf, kv);
  return chv_catalog_alter_table_params(c, db, name, kv, 4, err);
}

int chv_catalog_get_table_stats(chv_catalog *c, const char *db,
                                const char *name, struct chv_stats *out,
                                struct chv_error *err) {
  struct chv_table t;
  CHV_RETURN_IF_ERR(chv_catalog_get_table(c, db, name, &t, err));
  chv_stats_from_params(t.params, t.nparams, out);
  chv_table_free(&t);
  return CHV_OK;
}

int chv_catalog_set_partition_stats(chv_catalog *c, const char *db,
                                    const char *table, char *const *values,
                                    const struct chv_stats *s,
                                    struct chv_error *err) {
  char buf[4][24];
  struct chv_kv kv[4];
  stats_to_kv(s, buf, kv);
  return chv_catalog_alter_partition_params(c, db, table, values, kv, 4, err);
}

/* Runs an UPDATE moving locations of table id from ?2 to ?3, absolute
** paths (length() and substr() both count characters, so UTF-8 paths
** work). */
static int move_prefix(chv_catalog *c, const char *sql, int64_t id,
                       const char *from, const char *to,
                       struct chv_error *err) {
  sqlite3_stmt *st;
  CHV_RETURN_IF_ERR(cat_prepare(c, sql, &st, err));
  sqlite3_bind_int64(st, 1, id);
  sqlite3_bind_text(st, 2, from, -1, SQLITE_STATIC);
  sqlite3_bind_text(st, 3, to, -1, SQLITE_STATIC);
  int src = sqlite3_step(st);
  sqlite3_finalize(st);
  if (src != SQLITE_DONE) return cat_sqlerr(c, src, err, "moving locations");
  return CHV_OK;
}

int chv_catalog_rename_table(chv_catalog *c, const char *db, const char *name,
                             const char *new_db, const char *new_name,
                             struct chv_error *err) {
  char *ldb, *lname, *ndb = NULL, *nname = NULL, *dbloc = NULL;
  char *oldloc_default = NULL, *newloc = NULL, qname[300];
  CHV_RETURN_IF_ERR(cat_table_names(db, name, &ldb, &lname, err));
  int rc = cat_table_names(new_db ? new_db : ldb, new_name, &ndb, &nname, err);
  if (rc) goto out_free;
  snprintf(qname, sizeof qname, "table %s.%s", ldb, lname);
  struct chv_table t;
  memset(&t, 0, sizeof t);
  int64_t id, ndb_id;
  bool moved = false;
  if ((rc = cat_begin_write(c, err)) != CHV_OK) goto out_free;
  if ((rc = cat_table_load(c, ldb, lname, &id, &t, err)) != CHV_OK)
    goto out_rollback;
  if ((rc = db_lookup(c, ndb, &ndb_id, &dbloc, err)) != CHV_OK)
    goto out_rollback;
  if (cat_table_load(c, ndb, nname, NULL, NULL, NULL) == CHV_OK) {
    rc = chv_error_set(err, CHV_EEXIST, "table %s.%s already exists", ndb,
                       nname);
    goto out_rollback;
  }
  sqlite3_stmt *st;
  if ((rc = cat_prepare(c, "UPDATE tbls SET db_id = ?2, name = ?3 "
                        "WHERE tbl_id = ?1", &st, err)))
    goto out_rollback;
  sqlite3_bind_int64(st, 1, id);
  sqlite3_bind_int64(st, 2, ndb_id);
  sqlite3_bind_text(st, 3, nname, -1, SQLITE_STATIC);
  int src = sqlite3_step(st);
  sqlite3_finalize(st);
  if (src != SQLITE_DONE) {
    rc = cat_sqlerr(c, src, err, "renaming %s", qname);
    goto out_rollback;
  }
  /* A managed table at its default location moves with its name. */
  char *olddbloc = NULL;
  if ((rc = db_lookup(c, ldb, NULL, &olddbloc, err)) != CHV_OK)
    goto out_rollback;
  oldloc_default = chv_path_join(olddbloc, lname);
  chv_free(olddbloc);
  newloc = chv_path_join(dbloc, nname);
  if (oldloc_default == NULL || newloc == NULL) {
    rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
    goto out_rollback;
  }
  if (t.type == CHV_MANAGED_TABLE && t.location &&
      strcmp(t.location, oldloc_default) == 0 &&
      strcmp(oldloc_default, newloc) != 0) {
    rc = move_prefix(c, "UPDATE tbls SET location = rel_loc(?3) "
                     "WHERE tbl_id = ?1 AND abs_loc(location) = ?2", id,
                     t.location, newloc, err);
    if (rc == CHV_OK) {
      char *from = chv_asprintf("%s/", t.location);
      char *to = chv_asprintf("%s/", newloc);
      if (from == NULL || to == NULL)
        rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
      else
        rc = move_prefix(c,
                         "UPDATE parts SET location = rel_loc(?3 || "
                         "substr(abs_loc(location), length(?2) + 1)) "
                         "WHERE tbl_id = ?1 AND "
                         "substr(abs_loc(location), 1, length(?2)) = ?2",
                         id, from, to, err);
      chv_free(from);
      chv_free(to);
    }
    if (rc) goto out_rollback;
    if (!c->opts.metadata_only && chv_fs_exists(c->fs, t.location)) {
      if ((rc = chv_fs_rename(c->fs, t.location, newloc, err)) != CHV_OK)
        goto out_rollback;
      moved = true;
    }
  }
  rc = cat_commit(c, err);
  if (rc && moved) chv_fs_rename(c->fs, newloc, t.location, NULL);
  goto out_free_t;

out_rollback:
  cat_rollback(c);
  if (moved) chv_fs_rename(c->fs, newloc, t.location, NULL);
out_free_t:
  chv_table_free(&t);
out_free:
  chv_free(oldloc_default);
  chv_free(newloc);
  chv_free(dbloc);
  chv_free(ldb);
  chv_free(lname);
  chv_free(ndb);
  chv_free(nname);
  return rc;
}
