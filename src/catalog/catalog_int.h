/*
** catalog_int: what the files of the embedded metastore share (not for
** other modules): the handle, SQLite helpers, transactions, table loading.
*/
#ifndef CHV_CATALOG_INT_H
#define CHV_CATALOG_INT_H

#include "catalog/catalog.h"
#include "fs/fs.h"

#include <sqlite3.h>

/* The schema version this build writes (PRAGMA user_version): 3 stores
** paths inside the warehouse relative to it (locations.c), 4 adds the
** column statistics (colstats.c). */
#define CHV_METASTORE_SCHEMA_VERSION 4
#define CHV_STR2_(x) #x
#define CHV_STR_(x) CHV_STR2_(x)

/* The tables of schema version 4, tab_col_stats and part_col_stats
** (colstats.c): created with a new metastore, added to an older one. */
extern const char cat_colstats_schema_sql[];
/* Drops the column statistics of table tbl_id that no longer fit its
** columns (a column gone or of another type), after an ALTER TABLE. */
int cat_colstats_prune(chv_catalog *c, int64_t tbl_id, struct chv_error *err);

struct chv_catalog {
  sqlite3 *db;                     /* one connection per handle */
  char *warehouse;                 /* absolute warehouse root */
  char *path;                      /* the SQLite file */
  const struct chv_fs *fs;         /* back end of the warehouse */
  struct chv_catalog_options opts; /* as given, defaults filled */
  int txn_depth;                   /* open transactions, nested in a group
                                      (chv_catalog_begin) when > 1 */
};

/* Error from the last SQLite call: rc mapped to a status, the formatted
** context, then SQLite's message. */
int cat_sqlerr(chv_catalog *c, int rc, struct chv_error *err, const char *fmt,
               ...) CHV_PRINTF(4, 5);
int cat_prepare(chv_catalog *c, const char *sql, sqlite3_stmt **st,
                struct chv_error *err);
/* Runs sql that returns no rows. */
int cat_exec(chv_catalog *c, const char *sql, struct chv_error *err);

/* BEGIN IMMEDIATE (takes the write lock, waiting up to the busy timeout),
** BEGIN (a read snapshot), COMMIT, ROLLBACK (never fails). */
int cat_begin_write(chv_catalog *c, struct chv_error *err);
int cat_begin_read(chv_catalog *c, struct chv_error *err);
int cat_commit(chv_catalog *c, struct chv_error *err);
void cat_rollback(chv_catalog *c);

/* A lower-cased copy of a database, table or column name, after checking
** it is [A-Za-z0-9_]+; what names it in errors ("table"). */
int cat_name(const char *what, const char *name, char **out,
             struct chv_error *err);
/* cat_name() of a database (NULL: "default") and of a table in it. */
int cat_table_names(const char *db, const char *name, char **ldb,
                    char **lname, struct chv_error *err);

/* bind text or NULL */
int cat_bind_text(sqlite3_stmt *st, int i, const char *s);
/* chv_strdup of a column (NULL stays NULL); *oom set on failure. */
char *cat_col_dup(sqlite3_stmt *st, int i, bool *oom);

/* Steps st to its end, collecting column 0 of each row that matches
** pattern (Hive's '*' and '|' pattern, case-insensitive; NULL: every row).
** Returns the last sqlite3_step() code: SQLITE_DONE when all rows were
** read, SQLITE_ROW when out of memory, else SQLite's error.  *names and *n
** are set whatever it returns; free with chv_strv_free(). */
int cat_step_names(sqlite3_stmt *st, const char *pattern, char ***names,
                   int *n);

/* Parameters of the row id in one of the *_params tables ("tbl_params",
** keyed by "tbl_id"), sorted by key. */
int cat_params_load(chv_catalog *c, const char *table, const char *idcol,
                    int64_t id, struct chv_kv **out, int *n,
                    struct chv_error *err);
/* The same with a statement from cat_params_prepare(), reused across rows. */
int cat_params_prepare(chv_catalog *c, const char *table, const char *idcol,
                       sqlite3_stmt **st, struct chv_error *err);
int cat_params_read(chv_catalog *c, sqlite3_stmt *st, int64_t id,
                    struct chv_kv **out, int *n, struct chv_error *err);
/* Sets (NULL value: deletes) parameters of the row id. */
int cat_params_set(chv_catalog *c, const char *table, const char *idcol,
                   int64_t id, const struct chv_kv *set, int nset,
                   struct chv_error *err);

/* Loads db.name (names already lower-cased) inside the caller's
** transaction.  out may be NULL.  CHV_ENOENT names the table. */
int cat_table_load(chv_catalog *c, const char *db, const char *name,
                   int64_t *tbl_id, struct chv_table *out,
                   struct chv_error *err);

/* Deletes a folder after a commit; a missing folder is fine. */
int cat_remove_data(chv_catalog *c, const char *path, const char *what,
                    struct chv_error *err);

/* The stored form of an absolute path or URI: relative to root when it is
** root itself (".") or a plain path below it, else path unchanged.  NULL
** when out of memory; chv_free the result. */
char *cat_loc_store(const char *root, const char *path);
/* The absolute path of a stored one under root: absolute paths and URIs
** unchanged, "." root, others root + "/" + stored.  NULL when out of
** memory; chv_free the result. */
char *cat_loc_resolve(const char *root, const char *stored);
/* Registers rel_loc(path [, root]) and abs_loc(stored), the same
** conversions in SQL (root defaulting to c->warehouse), on c->db. */
int cat_loc_register(chv_catalog *c, struct chv_error *err);

#endif /* CHV_CATALOG_INT_H */
