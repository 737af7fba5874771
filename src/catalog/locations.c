/*
** locations: how the embedded metastore stores paths, so that a warehouse
** can be moved or copied with its metastore.
**
** Every path the metastore keeps (locations of databases, tables and
** partitions; the staging folder and files of write records) is stored
** relative to the warehouse root when it lies inside it, and as given
** (absolute, or a URI with a scheme) when it lies outside:
**
**   <root>              ->  "."
**   <root>/db.db/t/k=1  ->  "db.db/t/k=1"
**   /elsewhere/x        ->  "/elsewhere/x"
**   hdfs://nn/x         ->  "hdfs://nn/x"
**
** A path below the root whose remainder has an empty, "." or ".."
** component, or whose first component holds a ':' (it would read back as a
** scheme), is kept absolute: only plain descendants are made relative, so
** that resolving gives back the same path under any root.
**
** The conversion happens inside SQL, through two functions registered on
** each connection: rel_loc(path [, root]) gives the stored form of an
** absolute path (root defaults to the handle's warehouse), abs_loc(stored)
** the absolute path under the handle's warehouse.  Callers of the catalog
** API only ever see absolute paths.
**
** INTERFACE
**   cat_loc_store(), cat_loc_resolve()   the two conversions, in C
**   cat_loc_register()                   rel_loc() and abs_loc() in SQL
*/
#include "catalog/catalog_int.h"

#include <ctype.h>

/* True when s starts with a URI scheme: ALPHA *(ALPHA / DIGIT / + - .) ':'
** before any '/'. */
static bool has_scheme(const char *s) {
  if (!isalpha((unsigned char)s[0])) return false;
  for (const char *p = s + 1; *p && *p != '/'; p++) {
    if (*p == ':') return true;
    if (!isalnum((unsigned char)*p) && !strchr("+-.", *p)) return false;
  }
  return false;
}

/* True when rel is a plain relative path: non-empty components, none of
** them "." or "..", and a first component that cannot read as a scheme. */
static bool plain_relative(const char *rel) {
  if (rel[0] == '\0' || has_scheme(rel)) return false;
  for (const char *p = rel;;) {
    const char *slash = strchr(p, '/');
    size_t n = slash ? (size_t)(slash - p) : strlen(p);
    if (n == 0 || (n == 1 && p[0] == '.') ||
        (n == 2 && p[0] == '.' && p[1] == '.'))
      return false;
    if (slash == NULL) return true;
    p = slash + 1;
  }
}

char *cat_loc_store(const char *root, const char *path) {
  size_t n = strlen(root);
  while (n > 1 && root[n - 1] == '/') n--;
  if (path[0] == '/' && strncmp(path, root, n) == 0) {
    const char *rest = path + n;
    if (rest[0] == '\0') return chv_strdup(".");
    if (n == 1) return plain_relative(rest) ? chv_strdup(rest)
                                            : chv_strdup(path);
    if (rest[0] == '/' && plain_relative(rest + 1)) return chv_strdup(rest + 1);
  }
  return chv_strdup(path);
}

char *cat_loc_resolve(const char *root, const char *stored) {
  if (stored[0] == '/' || has_scheme(stored)) return chv_strdup(stored);
  if (strcmp(stored, ".") == 0) return chv_strdup(root);
  return chv_path_join(root, stored);
}

/* Hands s (chv-allocated, or NULL when out of memory) to SQLite as the
** function's result. */
static void result_path(sqlite3_context *ctx, char *s) {
  if (s == NULL) {
    sqlite3_result_error_nomem(ctx);
    return;
  }
  sqlite3_result_text(ctx, s, -1, chv_free);
}

/* rel_loc(path [, root]): NULL stays NULL. */
static void sql_rel_loc(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  const chv_catalog *c = sqlite3_user_data(ctx);
  const char *path = (const char *)sqlite3_value_text(argv[0]);
  const char *root = argc > 1 ? (const char *)sqlite3_value_text(argv[1])
                              : c->warehouse;
  if (path == NULL) {
    sqlite3_result_null(ctx);
    return;
  }
  result_path(ctx, root ? cat_loc_store(root, path) : chv_strdup(path));
}

/* abs_loc(stored): NULL stays NULL. */
static void sql_abs_loc(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  (void)argc;
  const chv_catalog *c = sqlite3_user_data(ctx);
  const char *stored = (const char *)sqlite3_value_text(argv[0]);
  if (stored == NULL) {
    sqlite3_result_null(ctx);
    return;
  }
  result_path(ctx, cat_loc_resolve(c->warehouse, stored));
}

int cat_loc_register(chv_catalog *c, struct chv_error *err) {
  /* Deterministic for one connection (its warehouse does not change);
  ** DIRECTONLY keeps them out of schema objects, which other tools opening
  ** the file could not evaluate. */
  const int flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_DIRECTONLY;
  int rc = sqlite3_create_function(c->db, "rel_loc", 1, flags, c, sql_rel_loc,
                                   NULL, NULL);
  if (rc == SQLITE_OK)
    rc = sqlite3_create_function(c->db, "rel_loc", 2, flags, c, sql_rel_loc,
                                 NULL, NULL);
  if (rc == SQLITE_OK)
    rc = sqlite3_create_function(c->db, "abs_loc", 1, flags, c, sql_abs_loc,
                                 NULL, NULL);
  if (rc != SQLITE_OK) return cat_sqlerr(c, rc, err, "registering abs_loc()");
  return CHV_OK;
}
