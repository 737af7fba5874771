/* Tests of how the embedded metastore stores paths (locations.c): relative
** to the warehouse inside it, absolute outside, absolute through the API;
** a moved warehouse resolves under its new root; metastores of schema
** versions 1 and 2, which kept absolute paths, are migrated on open, even
** after the warehouse was moved. */
#include "catalog/catalog_int.h"
#include "chv_test.h"

#include <sqlite3.h>
#include <stdio.h>
#include <sys/stat.h>

static bool is_dir(const char *p) {
  struct stat st;
  return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Column 0 of the first row of sql on the metastore of wh, read with a
** connection of its own (NULL: no row or a NULL value). */
static char *raw(const char *wh, const char *sql) {
  char *path = chv_path_join(wh, CHV_METASTORE_FILE);
  sqlite3 *db = NULL;
  char *out = NULL;
  if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK) {
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK) {
      if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
        out = chv_strdup((const char *)sqlite3_column_text(st, 0));
      sqlite3_finalize(st);
    } else {
      fprintf(stderr, "%s: %s\n", sql, sqlite3_errmsg(db));
    }
  }
  sqlite3_close(db);
  chv_free(path);
  return out;
}

/* Runs sql (with ?1 bound to arg) on the metastore of wh. */
static int raw_exec(const char *wh, const char *sql, const char *arg) {
  char *path = chv_path_join(wh, CHV_METASTORE_FILE);
  sqlite3 *db = NULL;
  int rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL);
  for (const char *p = sql; rc == SQLITE_OK && *p;) {
    sqlite3_stmt *st;
    rc = sqlite3_prepare_v2(db, p, -1, &st, &p);
    if (rc != SQLITE_OK || st == NULL) break;
    if (sqlite3_bind_parameter_count(st) > 0)
      sqlite3_bind_text(st, 1, arg, -1, SQLITE_STATIC);
    rc = sqlite3_step(st);
    if (rc == SQLITE_DONE || rc == SQLITE_ROW) rc = SQLITE_OK;
    sqlite3_finalize(st);
  }
  if (rc != SQLITE_OK) fprintf(stderr, "%s: %s\n", sql, sqlite3_errmsg(db));
  sqlite3_close(db);
  chv_free(path);
  return rc;
}

static void check_store(const char *root, const char *path, const char *want) {
  char *s = cat_loc_store(root, path);
  CHV_CHECK_STREQ(s, want);
  /* and back: the same path under the same root */
  char *back = cat_loc_resolve(root, s);
  CHV_CHECK_STREQ(back, path);
  chv_free(back);
  chv_free(s);
}

static void test_store_and_resolve(void) {
  check_store("/wh", "/wh", ".");
  check_store("/wh", "/wh/t", "t");
  check_store("/wh/", "/wh/db.db/t/k=1", "db.db/t/k=1");
  check_store("/wh", "/wharf/t", "/wharf/t");     /* a sibling, not below */
  check_store("/wh", "/elsewhere/x", "/elsewhere/x");
  check_store("/wh", "/wh/../x", "/wh/../x");     /* not plainly below */
  check_store("/wh", "/wh/./x", "/wh/./x");
  check_store("/wh", "/wh//x", "/wh//x");
  check_store("/wh", "/wh/a:b/c", "/wh/a:b/c");   /* would read as a scheme */
  check_store("/wh", "/wh/t/k=a%3Ab", "t/k=a%3Ab");
  check_store("/wh", "hdfs://nn/wh/t", "hdfs://nn/wh/t");
  check_store("/", "/", ".");
  check_store("/", "/t/x", "t/x");
  char *s = cat_loc_resolve("/w2", "db.db/t");
  CHV_CHECK_STREQ(s, "/w2/db.db/t");
  chv_free(s);
  s = cat_loc_resolve("/w2", "s3://b/k");
  CHV_CHECK_STREQ(s, "s3://b/k");
  chv_free(s);
}

/* A warehouse with a database, a partitioned managed table with a default
** partition and one at a location of its own, an external table inside
** the warehouse, one outside, and a write record. */
static void build(chv_catalog *c, const char *outside) {
  struct chv_error err;
  struct chv_database d = {"db", NULL, NULL, NULL, 0};
  CHV_REQUIRE_OK(chv_catalog_create_database(c, &d, 0, &err), &err);
  struct chv_column cols[] = {{"id", "int", NULL}};
  struct chv_column keys[] = {{"k", "int", NULL}};
  struct chv_table t = {.db = "db", .name = "t", .columns = cols, .ncols = 1,
                        .pkeys = keys, .npkeys = 1};
  CHV_REQUIRE_OK(chv_catalog_create_table(c, &t, 0, &err), &err);
  char *one[] = {"1"}, *two[] = {"2"};
  char *custom = chv_path_join(chv_catalog_warehouse(c), "db.db/t/custom");
  struct chv_partition ps[] = {{.values = one, .nvalues = 1},
                               {.values = two, .nvalues = 1,
                                .location = custom}};
  CHV_REQUIRE_OK(chv_catalog_add_partitions(c, "db", "t", ps, 2, 0, &err),
                 &err);
  chv_free(custom);
  char *in = chv_path_join(chv_catalog_warehouse(c), "data/in");
  struct chv_table e = {.name = "ein", .columns = cols, .ncols = 1,
                        .type = CHV_EXTERNAL_TABLE, .location = in};
  CHV_REQUIRE_OK(chv_catalog_create_table(c, &e, 0, &err), &err);
  e.name = "eout";
  e.location = (char *)outside;
  CHV_REQUIRE_OK(chv_catalog_create_table(c, &e, 0, &err), &err);
  chv_free(in);
  char *staging = chv_path_join(chv_catalog_warehouse(c),
                                "db.db/t/.staging_1");
  char *nf = chv_path_join(chv_catalog_warehouse(c), "db.db/t/k=1/f1");
  char *of[] = {(char *)outside};
  int64_t id;
  CHV_REQUIRE_OK(chv_catalog_commit_register(c, "db", "t", 4242, staging, &id,
                                             &err),
                 &err);
  struct chv_commit_files files = {&nf, 1, of, 1, NULL, 0};
  CHV_REQUIRE_OK(chv_catalog_commit_set(c, id, CHV_COMMIT_PENDING, &files,
                                        &err),
                 &err);
  chv_free(staging);
  chv_free(nf);
}

/* Everything build() made, seen through the API under warehouse wh. */
static void check_under(chv_catalog *c, const char *wh, const char *outside) {
  struct chv_error err;
  CHV_CHECK_STREQ(chv_catalog_warehouse(c), wh);
  struct chv_database d;
  CHV_REQUIRE_OK(chv_catalog_get_database(c, "default", &d, &err), &err);
  CHV_CHECK_STREQ(d.location, wh);
  chv_database_free(&d);
  CHV_REQUIRE_OK(chv_catalog_get_database(c, "db", &d, &err), &err);
  char *want = chv_path_join(wh, "db.db");
  CHV_CHECK_STREQ(d.location, want);
  chv_free(want);
  chv_database_free(&d);
  struct chv_table t;
  CHV_REQUIRE_OK(chv_catalog_get_table(c, "db", "t", &t, &err), &err);
  want = chv_path_join(wh, "db.db/t");
  CHV_CHECK_STREQ(t.location, want);
  chv_free(want);
  chv_table_free(&t);
  CHV_REQUIRE_OK(chv_catalog_get_table(c, NULL, "ein", &t, &err), &err);
  want = chv_path_join(wh, "data/in");
  CHV_CHECK_STREQ(t.location, want);
  chv_free(want);
  chv_table_free(&t);
  CHV_REQUIRE_OK(chv_catalog_get_table(c, NULL, "eout", &t, &err), &err);
  CHV_CHECK_STREQ(t.location, outside);
  chv_table_free(&t);
  struct chv_partition *ps;
  int n;
  CHV_REQUIRE_OK(chv_catalog_list_partitions(c, "db", "t", NULL, &ps, &n,
                                             &err),
                 &err);
  CHV_REQUIRE(n == 2);
  want = chv_path_join(wh, "db.db/t/k=1");
  CHV_CHECK_STREQ(ps[0].location, want);
  chv_free(want);
  want = chv_path_join(wh, "db.db/t/custom");
  CHV_CHECK_STREQ(ps[1].location, want);
  chv_free(want);
  chv_partitions_free(ps, n);
  struct chv_commit_record *r;
  CHV_REQUIRE_OK(chv_catalog_commit_list(c, "db", "t", &r, &n, &err), &err);
  CHV_REQUIRE(n == 1 && r[0].nnew == 1 && r[0].nold == 1);
  want = chv_path_join(wh, "db.db/t/.staging_1");
  CHV_CHECK_STREQ(r[0].staging, want);
  chv_free(want);
  want = chv_path_join(wh, "db.db/t/k=1/f1");
  CHV_CHECK_STREQ(r[0].new_files[0], want);
  chv_free(want);
  CHV_CHECK_STREQ(r[0].old_files[0], outside);
  chv_commit_records_free(r, n);
}

/* What the metastore file of wh holds: relative paths inside, absolute
** outside. */
static void check_stored(const char *wh, const char *outside) {
  static const struct {
    const char *sql, *want;
  } rows[] = {
      {"SELECT location FROM dbs WHERE name = 'default'", "."},
      {"SELECT location FROM dbs WHERE name = 'db'", "db.db"},
      {"SELECT location FROM tbls WHERE name = 't'", "db.db/t"},
      {"SELECT location FROM tbls WHERE name = 'ein'", "data/in"},
      {"SELECT location FROM parts WHERE name = 'k=1'", "db.db/t/k=1"},
      {"SELECT location FROM parts WHERE name = 'k=2'", "db.db/t/custom"},
      {"SELECT staging FROM commits", "db.db/t/.staging_1"},
      {"SELECT path FROM commit_files WHERE kind = 0", "db.db/t/k=1/f1"},
      {"SELECT user_version FROM pragma_user_version", "4"}};
  for (size_t i = 0; i < CHV_ARRAY_SIZE(rows); i++) {
    char *got = raw(wh, rows[i].sql);
    CHV_CHECK_STREQ(got, rows[i].want);
    chv_free(got);
  }
  char *got = raw(wh, "SELECT location FROM tbls WHERE name = 'eout'");
  CHV_CHECK_STREQ(got, outside);
  chv_free(got);
  got = raw(wh, "SELECT path FROM commit_files WHERE kind = 1");
  CHV_CHECK_STREQ(got, outside);
  chv_free(got);
}

static void test_moved_warehouse(void) {
  const char *tmp = chv_test_tmpdir();
  char *w1 = chv_path_join(tmp, "w1"), *w2 = chv_path_join(tmp, "w2");
  char *outside = chv_path_join(tmp, "outside");
  struct chv_error err;
  chv_catalog *c;
  CHV_REQUIRE_OK(chv_catalog_open(w1, NULL, &c, &err), &err);
  build(c, outside);
  check_under(c, w1, outside);
  chv_catalog_close(c);
  check_stored(w1, outside);

  CHV_REQUIRE(rename(w1, w2) == 0);
  CHV_REQUIRE_OK(chv_catalog_open(w2, NULL, &c, &err), &err);
  check_under(c, w2, outside);
  /* a rename after the move moves the table under the new root */
  CHV_REQUIRE_OK(chv_catalog_rename_table(c, "db", "t", "db", "u", &err),
                 &err);
  struct chv_partition *ps;
  int n;
  CHV_REQUIRE_OK(chv_catalog_list_partitions(c, "db", "u", NULL, &ps, &n,
                                             &err),
                 &err);
  CHV_REQUIRE(n == 2);
  char *want = chv_path_join(w2, "db.db/u/k=1");
  CHV_CHECK_STREQ(ps[0].location, want);
  chv_free(want);
  want = chv_path_join(w2, "db.db/u");
  CHV_CHECK(is_dir(want));
  chv_free(want);
  chv_partitions_free(ps, n);
  chv_catalog_close(c);
  char *got = raw(w2, "SELECT location FROM parts WHERE name = 'k=2'");
  CHV_CHECK_STREQ(got, "db.db/u/custom");
  chv_free(got);
  CHV_CHECK(!is_dir(w1));
  chv_free(outside);
  chv_free(w1);
  chv_free(w2);
}

/* Rewrites the metastore of wh as schema version 2 wrote it: every path
** absolute under wh. */
static const char to_v2_sql[] =
    "UPDATE dbs SET location = CASE location WHEN '.' THEN ?1 "
    "  ELSE ?1 || '/' || location END WHERE location NOT LIKE '/%';"
    "UPDATE tbls SET location = ?1 || '/' || location "
    "  WHERE location NOT LIKE '/%';"
    "UPDATE parts SET location = ?1 || '/' || location "
    "  WHERE location NOT LIKE '/%';"
    "UPDATE commits SET staging = ?1 || '/' || staging "
    "  WHERE staging NOT LIKE '/%';"
    "UPDATE commit_files SET path = ?1 || '/' || path "
    "  WHERE path NOT LIKE '/%';"
    "PRAGMA user_version = 2;";

/* A metastore of version (1 or 2) made at w1, moved to w2 before this build
** first opens it: migrated, every path under w1 now under w2. */
static void check_migration(int version) {
  const char *tmp = chv_test_tmpdir();
  char *w1 = chv_path_join(tmp, "w1"), *w2 = chv_path_join(tmp, "w2");
  char *outside = chv_path_join(tmp, "outside");
  struct chv_error err;
  chv_catalog *c;
  CHV_REQUIRE_OK(chv_catalog_open(w1, NULL, &c, &err), &err);
  build(c, outside);
  chv_catalog_close(c);
  CHV_REQUIRE(raw_exec(w1, to_v2_sql, w1) == SQLITE_OK);
  if (version == 1) /* version 1 had no write records */
    CHV_REQUIRE(raw_exec(w1, "DROP TABLE commit_files; DROP TABLE commits; "
                         "PRAGMA user_version = 1;", NULL) == SQLITE_OK);
  char *got = raw(w1, "SELECT location FROM parts WHERE name = 'k=1'");
  char *want = chv_path_join(w1, "db.db/t/k=1");
  CHV_CHECK_STREQ(got, want);
  chv_free(want);
  chv_free(got);

  CHV_REQUIRE(rename(w1, w2) == 0);
  CHV_REQUIRE_OK(chv_catalog_open(w2, NULL, &c, &err), &err);
  if (version == 1) { /* the write record of check_under() */
    char *staging = chv_path_join(w2, "db.db/t/.staging_1");
    char *nf = chv_path_join(w2, "db.db/t/k=1/f1");
    char *of[] = {outside};
    int64_t id;
    CHV_REQUIRE_OK(chv_catalog_commit_register(c, "db", "t", 4242, staging,
                                               &id, &err),
                   &err);
    struct chv_commit_files files = {&nf, 1, of, 1, NULL, 0};
    CHV_REQUIRE_OK(chv_catalog_commit_set(c, id, CHV_COMMIT_PENDING, &files,
                                          &err),
                   &err);
    chv_free(staging);
    chv_free(nf);
  }
  check_under(c, w2, outside);
  chv_catalog_close(c);
  check_stored(w2, outside);
  /* a second open finds nothing more to do */
  CHV_REQUIRE_OK(chv_catalog_open(w2, NULL, &c, &err), &err);
  check_under(c, w2, outside);
  chv_catalog_close(c);
  chv_free(outside);
  chv_free(w1);
  chv_free(w2);
}

static void test_migrate_v2(void) { check_migration(2); }
static void test_migrate_v1(void) { check_migration(1); }

/* A version newer than this build's is still refused, naming both. */
/* A relative partition location is under the table's location, as Hive
** resolves it (Hive.convertAddSpecToMetaPartition), on add and on alter. */
static void test_relative_partition_location(void) {
  char *wh = chv_path_join(chv_test_tmpdir(), "w");
  struct chv_error err;
  chv_catalog *c;
  CHV_REQUIRE_OK(chv_catalog_open(wh, NULL, &c, &err), &err);
  struct chv_column cols[] = {{"id", "int", NULL}};
  struct chv_column keys[] = {{"k", "int", NULL}};
  struct chv_table t = {.name = "t", .columns = cols, .ncols = 1,
                        .pkeys = keys, .npkeys = 1};
  CHV_REQUIRE_OK(chv_catalog_create_table(c, &t, 0, &err), &err);
  char *one[] = {"1"};
  struct chv_partition p = {.values = one, .nvalues = 1,
                            .location = "odd/place"};
  CHV_REQUIRE_OK(chv_catalog_add_partitions(c, NULL, "t", &p, 1, 0, &err),
                 &err);
  struct chv_partition g;
  CHV_REQUIRE_OK(chv_catalog_get_partition(c, NULL, "t", one, &g, &err), &err);
  char *want = chv_path_join(wh, "t/odd/place");
  CHV_CHECK_STREQ(g.location, want);
  chv_free(want);
  chv_partition_free(&g);
  p.location = "other";
  CHV_REQUIRE_OK(chv_catalog_alter_partition(c, NULL, "t", &p, &err), &err);
  CHV_REQUIRE_OK(chv_catalog_get_partition(c, NULL, "t", one, &g, &err), &err);
  want = chv_path_join(wh, "t/other");
  CHV_CHECK_STREQ(g.location, want);
  chv_free(want);
  chv_partition_free(&g);
  chv_catalog_close(c);
  chv_free(wh);
}

static void test_newer_version_refused(void) {
  char *wh = chv_path_join(chv_test_tmpdir(), "w");
  struct chv_error err;
  chv_catalog *c;
  CHV_REQUIRE_OK(chv_catalog_open(wh, NULL, &c, &err), &err);
  chv_catalog_close(c);
  CHV_REQUIRE(raw_exec(wh, "PRAGMA user_version = 99", NULL) == SQLITE_OK);
  CHV_CHECK_EQ_INT(chv_catalog_open(wh, NULL, &c, &err), CHV_ENOTSUP);
  CHV_CHECK_CONTAINS(err.msg, "schema version 99");
  chv_free(wh);
}

CHV_TEST_MAIN("catalog_locations", test_store_and_resolve,
              test_moved_warehouse, test_migrate_v2, test_migrate_v1,
              test_relative_partition_location, test_newer_version_refused)
