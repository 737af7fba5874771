/* Tests of the embedded metastore (src/catalog): databases, tables,
** partitions, statistics, hive-site.xml, and partition filters evaluated in
** SQLite, up to 100,000 partitions. */
#include "chv_test.h"
#include "catalog/catalog.h"
#include "fs/fs.h"

#include <sqlite3.h>
#include <sys/stat.h>

static bool is_dir(const char *p) {
  struct stat st;
  return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static chv_catalog *open_tmp(char **wh) {
  struct chv_error err;
  chv_catalog *c = NULL;
  *wh = chv_path_join(chv_test_tmpdir(), "warehouse");
  if (chv_catalog_open(*wh, NULL, &c, &err) != CHV_OK)
    fprintf(stderr, "open: %s\n", err.msg);
  return c;
}

static struct chv_column col(char *name, char *type) {
  struct chv_column c = {name, type, NULL};
  return c;
}

/* A table db.name (k1 type1, k2 type2) with two data columns. */
static int make_table(chv_catalog *c, const char *db, const char *name,
                      char *k1, char *t1, char *k2, char *t2,
                      struct chv_error *err) {
  struct chv_column cols[2] = {col("id", "bigint"), col("msg", "string")};
  struct chv_column keys[2] = {col(k1, t1), col(k2, t2)};
  struct chv_table t;
  memset(&t, 0, sizeof t);
  t.db = (char *)db;
  t.name = (char *)name;
  t.columns = cols;
  t.ncols = 2;
  t.pkeys = keys;
  t.npkeys = k1 ? (k2 ? 2 : 1) : 0;
  return chv_catalog_create_table(c, &t, 0, err);
}

static void test_open_layout(void) {
  char *wh;
  chv_catalog *c = open_tmp(&wh);
  CHV_REQUIRE(c != NULL);
  char *f = chv_path_join(wh, CHV_METASTORE_FILE);
  CHV_CHECK(chv_fs_exists(chv_fs_local(), f));
  CHV_CHECK(chv_path_is_hidden(CHV_METASTORE_FILE));
  CHV_CHECK_STREQ(chv_catalog_warehouse(c), wh);
  struct chv_error err;
  struct chv_database d;
  CHV_REQUIRE_OK(chv_catalog_get_database(c, "DEFAULT", &d, &err), &err);
  CHV_CHECK_STREQ(d.name, "default");
  CHV_CHECK_STREQ(d.location, wh);
  chv_database_free(&d);
  chv_catalog_close(c);
  /* reopening keeps everything; a second handle works beside the first */
  chv_catalog *c2 = NULL, *c3 = NULL;
  char *uri = chv_asprintf("file://%s", wh);
  CHV_REQUIRE_OK(chv_catalog_open(uri, NULL, &c2, &err), &err);
  CHV_REQUIRE_OK(chv_catalog_open(wh, NULL, &c3, &err), &err);
  char **names;
  int n;
  CHV_REQUIRE_OK(chv_catalog_list_databases(c3, NULL, &names, &n, &err), &err);
  CHV_CHECK_EQ_INT(n, 1);
  chv_strv_free(names, n);
  chv_catalog_close(c2);
  chv_catalog_close(c3);
  chv_catalog_close(NULL);
  CHV_CHECK_EQ_INT(chv_catalog_open("hdfs://nn:8020/wh", NULL, &c2, &err),
                   CHV_ENOTSUP);
  CHV_CHECK_CONTAINS(err.msg, "not built yet");
  chv_free(uri);
  chv_free(f);
  chv_free(wh);
}

static void test_databases(void) {
  char *wh;
  chv_catalog *c = open_tmp(&wh);
  CHV_REQUIRE(c != NULL);
  struct chv_error err;
  struct chv_kv params[] = {{"owner", "ann"}, {"purpose", "test"}};
  struct chv_database d = {"Sales", NULL, "the sales", params, 2};
  CHV_REQUIRE_OK(chv_catalog_create_database(c, &d, 0, &err), &err);
  CHV_CHECK_EQ_INT(chv_catalog_create_database(c, &d, 0, &err), CHV_EEXIST);
  CHV_CHECK_CONTAINS(err.msg, "database sales already exists");
  CHV_CHECK_STREQ(err.sqlstate, "42710");
  CHV_CHECK_OK(chv_catalog_create_database(c, &d, CHV_CAT_IF_NOT_EXISTS, &err),
               &err);
  struct chv_database e = {"hr", NULL, NULL, NULL, 0};
  CHV_CHECK_OK(chv_catalog_create_database(c, &e, 0, &err), &err);
  struct chv_database bad = {"a-b", NULL, NULL, NULL, 0};
  CHV_CHECK_EQ_INT(chv_catalog_create_database(c, &bad, 0, &err), CHV_EINVAL);

  struct chv_database got;
  CHV_REQUIRE_OK(chv_catalog_get_database(c, "sales", &got, &err), &err);
  CHV_CHECK_STREQ(got.description, "the sales");
  char *loc = chv_path_join(wh, "sales.db");
  CHV_CHECK_STREQ(got.location, loc);
  CHV_CHECK(is_dir(loc));
  CHV_REQUIRE(got.nparams == 2);
  CHV_CHECK_STREQ(chv_kv_get(got.params, got.nparams, "owner"), "ann");
  chv_database_free(&got);

  struct chv_kv more[] = {{"owner", "bob"}, {"purpose", NULL}};
  CHV_CHECK_OK(chv_catalog_alter_database_params(c, "SALES", more, 2, &err),
               &err);
  CHV_REQUIRE_OK(chv_catalog_get_database(c, "sales", &got, &err), &err);
  CHV_CHECK_EQ_INT(got.nparams, 1);
  CHV_CHECK_STREQ(chv_kv_get(got.params, got.nparams, "owner"), "bob");
  chv_database_free(&got);

  char **names;
  int n;
  CHV_REQUIRE_OK(chv_catalog_list_databases(c, NULL, &names, &n, &err), &err);
  CHV_REQUIRE(n == 3);
  CHV_CHECK_STREQ(names[0], "default");
  CHV_CHECK_STREQ(names[1], "hr");
  CHV_CHECK_STREQ(names[2], "sales");
  chv_strv_free(names, n);
  CHV_REQUIRE_OK(chv_catalog_list_databases(c, "s*|H*", &names, &n, &err),
                 &err);
  CHV_CHECK_EQ_INT(n, 2);
  chv_strv_free(names, n);

  /* a database with a table needs CASCADE */
  CHV_REQUIRE_OK(make_table(c, "sales", "t", NULL, NULL, NULL, NULL, &err),
                 &err);
  char *tloc = chv_path_join(loc, "t");
  CHV_CHECK(is_dir(tloc));
  CHV_CHECK_EQ_INT(chv_catalog_drop_database(c, "sales", 0, &err), CHV_EINVAL);
  CHV_CHECK_CONTAINS(err.msg, "not empty");
  CHV_CHECK_OK(chv_catalog_drop_database(c, "sales", CHV_CAT_CASCADE, &err),
               &err);
  CHV_CHECK(!is_dir(tloc));
  CHV_CHECK(!is_dir(loc));
  CHV_CHECK(!chv_catalog_table_exists(c, "sales", "t"));
  CHV_CHECK_EQ_INT(chv_catalog_drop_database(c, "sales", 0, &err), CHV_ENOENT);
  CHV_CHECK_CONTAINS(err.msg, "database sales does not exist");
  CHV_CHECK_OK(chv_catalog_drop_database(c, "sales", CHV_CAT_IF_EXISTS, &err),
               &err);
  CHV_CHECK_EQ_INT(chv_catalog_drop_database(c, "default", 0, &err),
                   CHV_EINVAL);
  chv_free(tloc);
  chv_free(loc);
  chv_catalog_close(c);
  chv_free(wh);
}

static void test_tables(void) {
  char *wh;
  chv_catalog *c = open_tmp(&wh);
  CHV_REQUIRE(c != NULL);
  struct chv_error err;
  struct chv_database d = {"db1", NULL, NULL, NULL, 0};
  CHV_REQUIRE_OK(chv_catalog_create_database(c, &d, 0, &err), &err);

  struct chv_column cols[] = {{"ID", "int", "the key"},
                              {"price", "decimal(10,2)", NULL},
                              {"tags", "array<string>", NULL}};
  struct chv_column keys[] = {{"dt", "string", NULL}, {"hr", "int", NULL}};
  struct chv_kv sp[] = {{"field.delim", ","}};
  struct chv_kv tp[] = {{"sink.partition-commit.policy.kind", "metastore"}};
  struct chv_table t;
  memset(&t, 0, sizeof t);
  t.db = "DB1";
  t.name = "T2";
  t.columns = cols;
  t.ncols = 3;
  t.pkeys = keys;
  t.npkeys = 2;
  t.serde_params = sp;
  t.nserde_params = 1;
  t.params = tp;
  t.nparams = 1;
  CHV_REQUIRE_OK(chv_catalog_create_table(c, &t, 0, &err), &err);
  CHV_CHECK_EQ_INT(chv_catalog_create_table(c, &t, 0, &err), CHV_EEXIST);
  CHV_CHECK_CONTAINS(err.msg, "table db1.t2 already exists");
  CHV_CHECK_OK(chv_catalog_create_table(c, &t, CHV_CAT_IF_NOT_EXISTS, &err),
               &err);

  /* default table: <warehouse>/<table> */
  CHV_REQUIRE_OK(make_table(c, NULL, "plain", NULL, NULL, NULL, NULL, &err),
                 &err);
  struct chv_table g;
  CHV_REQUIRE_OK(chv_catalog_get_table(c, "default", "PLAIN", &g, &err), &err);
  char *want = chv_path_join(wh, "plain");
  CHV_CHECK_STREQ(g.location, want);
  CHV_CHECK(is_dir(want));
  chv_free(want);
  CHV_CHECK_STREQ(g.db, "default");
  CHV_CHECK_EQ_INT(g.npkeys, 0);
  chv_table_free(&g);

  CHV_REQUIRE_OK(chv_catalog_get_table(c, "db1", "t2", &g, &err), &err);
  CHV_CHECK_STREQ(g.db, "db1");
  CHV_CHECK_STREQ(g.name, "t2");
  want = chv_path_join(wh, "db1.db/t2");
  CHV_CHECK_STREQ(g.location, want);
  chv_free(want);
  CHV_REQUIRE(g.ncols == 3 && g.npkeys == 2);
  CHV_CHECK_STREQ(g.columns[0].name, "id");
  CHV_CHECK_STREQ(g.columns[0].comment, "the key");
  CHV_CHECK_STREQ(g.columns[1].type, "decimal(10,2)");
  CHV_CHECK(g.columns[1].comment == NULL);
  CHV_CHECK_STREQ(g.pkeys[1].name, "hr");
  CHV_CHECK_EQ_INT(g.type, CHV_MANAGED_TABLE);
  CHV_CHECK_STREQ(g.input_format, "org.apache.hadoop.mapred.TextInputFormat");
  CHV_CHECK_STREQ(g.serde_lib,
                  "org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe");
  CHV_CHECK_STREQ(chv_kv_get(g.serde_params, g.nserde_params, "field.delim"),
                  ",");
  CHV_CHECK(chv_kv_get(g.params, g.nparams, "transient_lastDdlTime") != NULL);
  CHV_CHECK_STREQ(chv_kv_get(g.params, g.nparams,
                             "sink.partition-commit.policy.kind"),
                  "metastore");
  CHV_CHECK(g.create_time > 1500000000);

  /* alter: add a column, change parameters; keys cannot change */
  struct chv_column cols2[] = {{"id", "int", NULL}, {"extra", "string", NULL}};
  struct chv_table a = g;
  a.columns = cols2;
  a.ncols = 2;
  a.params = NULL;
  a.nparams = 0;
  CHV_CHECK_OK(chv_catalog_alter_table(c, "db1", "t2", &a, &err), &err);
  struct chv_table g2;
  CHV_REQUIRE_OK(chv_catalog_get_table(c, "db1", "t2", &g2, &err), &err);
  CHV_CHECK_EQ_INT(g2.ncols, 2);
  CHV_CHECK_STREQ(g2.columns[1].name, "extra");
  CHV_CHECK(chv_kv_get(g2.params, g2.nparams,
                       "sink.partition-commit.policy.kind") == NULL);
  CHV_CHECK_STREQ(g2.location, g.location);
  chv_table_free(&g2);
  a.npkeys = 1;
  CHV_CHECK_EQ_INT(chv_catalog_alter_table(c, "db1", "t2", &a, &err),
                   CHV_ENOTSUP);
  chv_table_free(&g);

  /* external tables get EXTERNAL=TRUE and keep their data on drop */
  char *ext = chv_path_join(chv_test_tmpdir(), "ext");
  struct chv_table e;
  memset(&e, 0, sizeof e);
  e.name = "ext";
  e.columns = cols;
  e.ncols = 1;
  e.type = CHV_EXTERNAL_TABLE;
  e.location = ext;
  e.input_format = "org.apache.hadoop.hive.ql.io.parquet.MapredParquetInputFormat";
  e.output_format = "org.apache.hadoop.hive.ql.io.parquet.MapredParquetOutputFormat";
  e.serde_lib = "org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe";
  CHV_REQUIRE_OK(chv_catalog_create_table(c, &e, 0, &err), &err);
  CHV_REQUIRE_OK(chv_catalog_get_table(c, NULL, "ext", &g, &err), &err);
  CHV_CHECK_EQ_INT(g.type, CHV_EXTERNAL_TABLE);
  CHV_CHECK_STREQ(chv_kv_get(g.params, g.nparams, "EXTERNAL"), "TRUE");
  CHV_CHECK_EQ_INT(g.nserde_params, 0);
  chv_table_free(&g);
  CHV_CHECK_OK(chv_catalog_drop_table(c, NULL, "ext", 0, &err), &err);
  CHV_CHECK(is_dir(ext));
  chv_free(ext);

  /* duplicate columns, bad names, missing database */
  struct chv_column dup[] = {{"a", "int", NULL}, {"A", "int", NULL}};
  struct chv_table bad;
  memset(&bad, 0, sizeof bad);
  bad.name = "bad";
  bad.columns = dup;
  bad.ncols = 2;
  CHV_CHECK_EQ_INT(chv_catalog_create_table(c, &bad, 0, &err), CHV_EINVAL);
  CHV_CHECK_CONTAINS(err.msg, "defined twice");
  bad.ncols = 1;
  bad.pkeys = dup + 1;
  bad.npkeys = 1;
  CHV_CHECK_EQ_INT(chv_catalog_create_table(c, &bad, 0, &err), CHV_EINVAL);
  CHV_CHECK_CONTAINS(err.msg, "partition key");
  bad.npkeys = 0;
  bad.name = "no.dots";
  CHV_CHECK_EQ_INT(chv_catalog_create_table(c, &bad, 0, &err), CHV_EINVAL);
  bad.name = "x";
  bad.db = "nodb";
  CHV_CHECK_EQ_INT(chv_catalog_create_table(c, &bad, 0, &err), CHV_ENOENT);
  CHV_CHECK_CONTAINS(err.msg, "database nodb does not exist");

  /* list with Hive patterns */
  char **names;
  int n;
  CHV_REQUIRE_OK(make_table(c, "db1", "t10", NULL, NULL, NULL, NULL, &err),
                 &err);
  CHV_REQUIRE_OK(make_table(c, "db1", "other", NULL, NULL, NULL, NULL, &err),
                 &err);
  CHV_REQUIRE_OK(chv_catalog_list_tables(c, "db1", NULL, &names, &n, &err),
                 &err);
  CHV_REQUIRE(n == 3);
  CHV_CHECK_STREQ(names[0], "other");
  CHV_CHECK_STREQ(names[2], "t2");
  chv_strv_free(names, n);
  CHV_REQUIRE_OK(chv_catalog_list_tables(c, "db1", "T*", &names, &n, &err),
                 &err);
  CHV_CHECK_EQ_INT(n, 2);
  chv_strv_free(names, n);
  CHV_REQUIRE_OK(
      chv_catalog_list_tables(c, "db1", "t1* | oth*", &names, &n, &err), &err);
  CHV_CHECK_EQ_INT(n, 2);
  chv_strv_free(names, n);
  CHV_REQUIRE_OK(chv_catalog_list_tables(c, "db1", "t", &names, &n, &err),
                 &err);
  CHV_CHECK_EQ_INT(n, 0);
  chv_strv_free(names, n);
  CHV_CHECK_EQ_INT(chv_catalog_list_tables(c, "nodb", NULL, &names, &n, &err),
                   CHV_ENOENT);

  /* drop: missing table, IF EXISTS, managed data goes */
  CHV_CHECK_EQ_INT(chv_catalog_drop_table(c, "db1", "missing", 0, &err),
                   CHV_ENOENT);
  CHV_CHECK_CONTAINS(err.msg, "table db1.missing does not exist");
  CHV_CHECK_STREQ(err.sqlstate, "42704");
  CHV_CHECK_OK(chv_catalog_drop_table(c, "db1", "missing", CHV_CAT_IF_EXISTS,
                                      &err),
               &err);
  char *t10 = chv_path_join(wh, "db1.db/t10");
  CHV_CHECK(is_dir(t10));
  CHV_CHECK_OK(chv_catalog_drop_table(c, "db1", "t10", 0, &err), &err);
  CHV_CHECK(!is_dir(t10));
  CHV_CHECK(!chv_catalog_table_exists(c, "db1", "t10"));
  chv_free(t10);
  chv_catalog_close(c);
  chv_free(wh);
}

static void test_rename_table(void) {
  /* a warehouse path with UTF-8 in it */
  char *wh = chv_path_join(chv_test_tmpdir(), "wh-caf\xc3\xa9-\xe4\xb8\xad");
  chv_catalog *c;
  struct chv_error err;
  CHV_REQUIRE_OK(chv_catalog_open(wh, NULL, &c, &err), &err);
  struct chv_database d = {"db2", NULL, NULL, NULL, 0};
  CHV_REQUIRE_OK(chv_catalog_create_database(c, &d, 0, &err), &err);
  CHV_REQUIRE_OK(make_table(c, NULL, "t", "p", "int", NULL, NULL, &err), &err);
  char *one[] = {"1"};
  struct chv_partition p = {one, 1, NULL, NULL, 0, NULL, 0};
  CHV_REQUIRE_OK(chv_catalog_add_partitions(c, NULL, "t", &p, 1, 0, &err),
                 &err);
  CHV_REQUIRE_OK(make_table(c, "db2", "taken", NULL, NULL, NULL, NULL, &err),
                 &err);
  CHV_CHECK_EQ_INT(chv_catalog_rename_table(c, NULL, "t", "db2", "taken", &err),
                   CHV_EEXIST);
  CHV_REQUIRE_OK(chv_catalog_rename_table(c, NULL, "t", "db2", "U", &err),
                 &err);
  CHV_CHECK(!chv_catalog_table_exists(c, NULL, "t"));
  struct chv_table g;
  CHV_REQUIRE_OK(chv_catalog_get_table(c, "db2", "u", &g, &err), &err);
  char *want = chv_path_join(wh, "db2.db/u");
  CHV_CHECK_STREQ(g.location, want);
  CHV_CHECK(is_dir(want));
  chv_table_free(&g);
  struct chv_partition got;
  CHV_REQUIRE_OK(chv_catalog_get_partition(c, "db2", "u", one, &got, &err),
                 &err);
  char *pw = chv_path_join(want, "p=1");
  CHV_CHECK_STREQ(got.location, pw);
  chv_partition_free(&got);
  chv_free(pw);
  chv_free(want);
  chv_catalog_close(c);
  chv_free(wh);
}

static void test_partitions_crud(void) {
  char *wh;
  chv_catalog *c = open_tmp(&wh);
  CHV_REQUIRE(c != NULL);
  struct chv_error err;
  CHV_REQUIRE_OK(make_table(c, NULL, "logs", "Dt", "date", "src", "string",
                            &err),
                 &err);
  char *v1[] = {"2024-01-01", "a/b"};
  char *v2[] = {"2024-01-02", NULL};
  char *v3[] = {"2024-01-03", ""};
  struct chv_kv pp[] = {{"numRows", "10"}, {"totalSize", "123"}};
  struct chv_partition ps[2] = {{v1, 2, NULL, NULL, 0, pp, 2},
                                {v2, 2, NULL, "/elsewhere/x", 0, NULL, 0}};
  CHV_REQUIRE_OK(chv_catalog_add_partitions(c, NULL, "logs", ps, 2, 0, &err),
                 &err);

  struct chv_partition g;
  CHV_REQUIRE_OK(chv_catalog_get_partition(c, NULL, "LOGS", v1, &g, &err),
                 &err);
  CHV_CHECK_STREQ(g.name, "dt=2024-01-01/src=a%2Fb");
  char *want = chv_path_join(wh, "logs/dt=2024-01-01/src=a%2Fb");
  CHV_CHECK_STREQ(g.location, want);
  chv_free(want);
  CHV_REQUIRE(g.nvalues == 2);
  CHV_CHECK_STREQ(g.values[1], "a/b");
  struct chv_stats s;
  chv_stats_from_params(g.params, g.nparams, &s);
  CHV_CHECK_EQ_INT(s.num_rows, 10);
  CHV_CHECK_EQ_INT(s.total_size, 123);
  CHV_CHECK_EQ_INT(s.num_files, -1);
  chv_partition_free(&g);

  /* NULL and "" are both the default partition */
  CHV_REQUIRE_OK(chv_catalog_get_partition(c, NULL, "logs", v2, &g, &err),
                 &err);
  CHV_CHECK_STREQ(g.name, "dt=2024-01-02/src=__HIVE_DEFAULT_PARTITION__");
  CHV_CHECK(g.values[1] == NULL);
  CHV_CHECK_STREQ(g.location, "/elsewhere/x");
  chv_partition_free(&g);
  char *v2b[] = {"2024-01-02", ""};
  CHV_CHECK_OK(chv_catalog_get_partition(c, NULL, "logs", v2b, &g, &err), &err);
  chv_partition_free(&g);

  /* a batch with one existing partition fails whole */
  struct chv_partition batch[2] = {{v3, 2, NULL, NULL, 0, NULL, 0},
                                   {v1, 2, NULL, NULL, 0, NULL, 0}};
  CHV_CHECK_EQ_INT(chv_catalog_add_partitions(c, NULL, "logs", batch, 2, 0,
                                              &err),
                   CHV_EEXIST);
  CHV_CHECK_CONTAINS(err.msg, "partition dt=2024-01-01/src=a%2Fb of table "
                              "default.logs already exists");
  CHV_CHECK_EQ_INT(chv_catalog_get_partition(c, NULL, "logs", v3, &g, &err),
                   CHV_ENOENT);
  CHV_CHECK_CONTAINS(err.msg, "does not exist");
  CHV_CHECK_OK(chv_catalog_add_partitions(c, NULL, "logs", batch, 2,
                                          CHV_CAT_IF_NOT_EXISTS, &err),
               &err);
  struct chv_partition *all;
  int n;
  CHV_REQUIRE_OK(chv_catalog_list_partitions(c, NULL, "logs", NULL, &all, &n,
                                             &err),
                 &err);
  CHV_REQUIRE(n == 3);
  CHV_CHECK_STREQ(all[0].values[0], "2024-01-01");
  CHV_CHECK_STREQ(all[2].values[0], "2024-01-03");
  CHV_CHECK(all[2].values[1] == NULL);
  CHV_CHECK_EQ_INT(all[0].nparams, 2);
  chv_partitions_free(all, n);

  /* wrong number of values */
  struct chv_partition shortp = {v1, 1, NULL, NULL, 0, NULL, 0};
  CHV_CHECK_EQ_INT(chv_catalog_add_partitions(c, NULL, "logs", &shortp, 1, 0,
                                              &err),
                   CHV_EINVAL);
  CHV_CHECK_CONTAINS(err.msg, "needs 2 values");
  /* not partitioned */
  CHV_REQUIRE_OK(make_table(c, NULL, "flat", NULL, NULL, NULL, NULL, &err),
                 &err);
  CHV_CHECK_EQ_INT(chv_catalog_add_partitions(c, NULL, "flat", &shortp, 1, 0,
                                              &err),
                   CHV_EINVAL);
  CHV_CHECK_CONTAINS(err.msg, "not partitioned");

  /* names and get by names */
  char **names;
  CHV_REQUIRE_OK(chv_catalog_list_partition_names(c, NULL, "logs", NULL,
                                                  &names, &n, &err),
                 &err);
  CHV_REQUIRE(n == 3);
  CHV_CHECK_STREQ(names[2], "dt=2024-01-03/src=__HIVE_DEFAULT_PARTITION__");
  char *pick[] = {names[2], "dt=nope/src=x", names[0]};
  CHV_REQUIRE_OK(chv_catalog_get_partitions_by_names(c, NULL, "logs", pick, 3,
                                                     &all, &n, &err),
                 &err);
  CHV_REQUIRE(n == 2);
  CHV_CHECK_STREQ(all[0].values[0], "2024-01-03");
  CHV_CHECK_STREQ(all[1].values[0], "2024-01-01");
  chv_partitions_free(all, n);
  chv_strv_free(names, 3);

  /* statistics and parameters */
  struct chv_stats st = {5, 2, 900, -1};
  CHV_CHECK_OK(chv_catalog_set_partition_stats(c, NULL, "logs", v1, &st, &err),
               &err);
  CHV_REQUIRE_OK(chv_catalog_get_partition(c, NULL, "logs", v1, &g, &err),
                 &err);
  chv_stats_from_params(g.params, g.nparams, &s);
  CHV_CHECK_EQ_INT(s.num_rows, 5);
  CHV_CHECK_EQ_INT(s.num_files, 2);
  CHV_CHECK_EQ_INT(s.total_size, 900);
  CHV_CHECK_EQ_INT(s.raw_data_size, -1);
  chv_partition_free(&g);
  struct chv_kv kv[] = {{"k", "v"}};
  CHV_CHECK_OK(chv_catalog_alter_partition_params(c, NULL, "logs", v3, kv, 1,
                                                  &err),
               &err);
  struct chv_partition alt = {v3, 2, NULL, "/moved", 0, kv, 1};
  CHV_CHECK_OK(chv_catalog_alter_partition(c, NULL, "logs", &alt, &err), &err);
  CHV_REQUIRE_OK(chv_catalog_get_partition(c, NULL, "logs", v3, &g, &err),
                 &err);
  CHV_CHECK_STREQ(g.location, "/moved");
  CHV_CHECK_STREQ(chv_kv_get(g.params, g.nparams, "k"), "v");
  chv_partition_free(&g);
  char *nov[] = {"1999-01-01", "x"};
  CHV_CHECK_EQ_INT(chv_catalog_alter_partition_params(c, NULL, "logs", nov, kv,
                                                      1, &err),
                   CHV_ENOENT);

  struct chv_stats known = {7, -1, 0, -1};
  struct chv_kv *skv;
  int nskv;
  CHV_REQUIRE_OK(chv_stats_to_params(&known, &skv, &nskv), NULL);
  CHV_REQUIRE(nskv == 2);
  CHV_CHECK_STREQ(chv_kv_get(skv, nskv, "numRows"), "7");
  CHV_CHECK_STREQ(chv_kv_get(skv, nskv, "totalSize"), "0");
  struct chv_stats back;
  chv_stats_from_params(skv, nskv, &back);
  CHV_CHECK(memcmp(&known, &back, sizeof known) == 0);
  chv_kv_free(skv, nskv);

  struct chv_stats ts = {100, 3, 5000, 7000};
  CHV_CHECK_OK(chv_catalog_set_table_stats(c, NULL, "flat", &ts, &err), &err);
  struct chv_stats tg;
  CHV_REQUIRE_OK(chv_catalog_get_table_stats(c, NULL, "flat", &tg, &err), &err);
  CHV_CHECK(memcmp(&ts, &tg, sizeof ts) == 0);

  /* drop: a batch with a missing partition fails whole */
  char **drop[2] = {v1, nov};
  CHV_CHECK_EQ_INT(chv_catalog_drop_partitions(c, NULL, "logs", drop, 2, 0,
                                               &err),
                   CHV_ENOENT);
  CHV_CHECK_OK(chv_catalog_get_partition(c, NULL, "logs", v1, &g, &err), &err);
  chv_partition_free(&g);
  /* managed partition folders go with the drop */
  char *pdir = chv_path_join(wh, "logs/dt=2024-01-01/src=a%2Fb");
  CHV_REQUIRE_OK(chv_fs_mkdirs(chv_fs_local(), pdir, &err), &err);
  CHV_CHECK_OK(chv_catalog_drop_partitions(c, NULL, "logs", drop, 2,
                                           CHV_CAT_IF_EXISTS, &err),
               &err);
  CHV_CHECK(!is_dir(pdir));
  chv_free(pdir);
  CHV_CHECK_EQ_INT(chv_catalog_get_partition(c, NULL, "logs", v1, &g, &err),
                   CHV_ENOENT);
  int64_t cnt;
  CHV_REQUIRE_OK(chv_catalog_count_partitions(c, NULL, "logs", NULL, &cnt,
                                              &err),
                 &err);
  CHV_CHECK_EQ_INT(cnt, 2);
  /* dropping the table drops its partitions */
  CHV_CHECK_OK(chv_catalog_drop_table(c, NULL, "logs", 0, &err), &err);
  CHV_REQUIRE_OK(make_table(c, NULL, "logs", "dt", "date", "src", "string",
                            &err),
                 &err);
  CHV_REQUIRE_OK(chv_catalog_count_partitions(c, NULL, "logs", NULL, &cnt,
                                              &err),
                 &err);
  CHV_CHECK_EQ_INT(cnt, 0);
  chv_catalog_close(c);
  chv_free(wh);
}

static void write_file(const char *path, const char *text) {
  struct chv_error err;
  CHV_CHECK_OK(chv_fs_write_atomic(chv_fs_local(), path, text, strlen(text),
                                   &err),
               &err);
}

/* A view: a VIRTUAL_VIEW table with columns and texts, no location and no
** folder; listed among the tables and alone by chv_catalog_list_views();
** its definition replaced, renamed and dropped without touching files. */
static void test_views(void) {
  char *wh;
  chv_catalog *c = open_tmp(&wh);
  CHV_REQUIRE(c != NULL);
  struct chv_error err;
  CHV_REQUIRE_OK(make_table(c, NULL, "t", NULL, NULL, NULL, NULL, &err), &err);
  struct chv_column cols[1] = {col("id", "bigint")};
  struct chv_kv params[1] = {{"comment", "ids"}};
  struct chv_table v;
  memset(&v, 0, sizeof v);
  v.name = "V";
  v.columns = cols;
  v.ncols = 1;
  v.type = CHV_VIRTUAL_VIEW;
  v.input_format = "org.apache.hadoop.mapred.TextInputFormat";
  v.output_format =
      "org.apache.hadoop.hive.ql.io.HiveIgnoreKeyTextOutputFormat";
  v.view_original_text = "select id from t";
  v.view_expanded_text = "SELECT `t`.`id` FROM `default`.`t`";
  v.params = params;
  v.nparams = 1;
  CHV_REQUIRE_OK(chv_catalog_create_table(c, &v, 0, &err), &err);
  char *vdir = chv_path_join(wh, "v");
  CHV_CHECK(!chv_fs_exists(chv_fs_local(), vdir));
  struct chv_table got;
  CHV_REQUIRE_OK(chv_catalog_get_table(c, "default", "v", &got, &err), &err);
  CHV_CHECK_EQ_INT(got.type, CHV_VIRTUAL_VIEW);
  CHV_CHECK(got.location == NULL);
  CHV_CHECK(got.serde_lib == NULL);
  CHV_CHECK_STREQ(got.input_format, v.input_format);
  CHV_CHECK_STREQ(got.view_original_text, "select id from t");
  CHV_CHECK_STREQ(got.view_expanded_text, v.view_expanded_text);
  CHV_CHECK_EQ_INT(got.ncols, 1);
  CHV_CHECK_STREQ(chv_kv_get(got.params, got.nparams, "comment"), "ids");
  CHV_CHECK(chv_kv_get(got.params, got.nparams, "transient_lastDdlTime"));
  CHV_CHECK_EQ_INT(got.nserde_params, 0);
  chv_table_free(&got);

  char **names;
  int n;
  CHV_REQUIRE_OK(chv_catalog_list_tables(c, NULL, NULL, &names, &n, &err),
                 &err);
  CHV_CHECK_EQ_INT(n, 2);
  chv_strv_free(names, n);
  CHV_REQUIRE_OK(chv_catalog_list_views(c, NULL, NULL, &names, &n, &err),
                 &err);
  CHV_REQUIRE(n == 1);
  CHV_CHECK_STREQ(names[0], "v");
  chv_strv_free(names, n);
  CHV_REQUIRE_OK(chv_catalog_list_views(c, NULL, "x*", &names, &n, &err),
                 &err);
  CHV_CHECK_EQ_INT(n, 0);
  chv_strv_free(names, n);
  CHV_CHECK_EQ_INT(chv_catalog_list_views(c, "nodb", NULL, &names, &n, &err),
                   CHV_ENOENT);

  /* a new definition: still no location */
  v.view_original_text = "select id + 1 as id from t";
  v.view_expanded_text = "SELECT `t`.`id` + 1 AS `id` FROM `default`.`t`";
  CHV_REQUIRE_OK(chv_catalog_alter_table(c, "default", "v", &v, &err), &err);
  CHV_REQUIRE_OK(chv_catalog_get_table(c, "default", "v", &got, &err), &err);
  CHV_CHECK(got.location == NULL);
  CHV_CHECK_STREQ(got.view_original_text, "select id + 1 as id from t");
  chv_table_free(&got);

  CHV_REQUIRE_OK(chv_catalog_rename_table(c, "default", "v", NULL, "w", &err),
                 &err);
  CHV_REQUIRE_OK(chv_catalog_get_table(c, "default", "w", &got, &err), &err);
  CHV_CHECK_EQ_INT(got.type, CHV_VIRTUAL_VIEW);
  CHV_CHECK(got.location == NULL);
  chv_table_free(&got);
  CHV_CHECK_OK(chv_catalog_drop_table(c, "default", "w", 0, &err), &err);
  CHV_CHECK(!chv_catalog_table_exists(c, "default", "w"));
  char *tdir = chv_path_join(wh, "t");
  CHV_CHECK(is_dir(tdir));
  chv_free(tdir);
  chv_free(vdir);
  chv_catalog_close(c);
  chv_free(wh);
}

static void test_hive_site(void) {
  struct chv_error err;
  const char *dir = chv_test_tmpdir();
  char *site = chv_path_join(dir, "hive-site.xml");
  char *wh = chv_path_join(dir, "wh");
  char *xml = chv_asprintf(
      "<?xml version=\"1.0\"?>\n"
      "<configuration>\n"
      "  <property>\n"
      "    <name>hive.metastore.warehouse.dir</name>\n"
      "    <value>%s</value>\n"
      "    <description>where tables live</description>\n"
      "  </property>\n"
      "  <property><name>hive.metastore.uris</name><value> </value></property>\n"
      "  <property><name>x.amp</name><value>a&amp;b</value></property>\n"
      "</configuration>\n",
      wh);
  write_file(site, xml);
  chv_free(xml);
  struct chv_kv *props;
  int n;
  CHV_REQUIRE_OK(chv_hive_site_read(site, &props, &n, &err), &err);
  CHV_CHECK_EQ_INT(n, 3);
  CHV_CHECK_STREQ(chv_kv_get(props, n, "hive.metastore.warehouse.dir"), wh);
  CHV_CHECK_STREQ(chv_kv_get(props, n, "x.amp"), "a&b");
  chv_kv_free(props, n);
  chv_catalog *c;
  CHV_REQUIRE_OK(chv_catalog_open_conf_dir(dir, NULL, &c, &err), &err);
  CHV_CHECK_STREQ(chv_catalog_warehouse(c), wh);
  chv_catalog_close(c);

  /* remote metastore: not yet */
  write_file(site,
             "<configuration>\n"
             "<property><name>hive.metastore.uris</name>"
             "<value>thrift://hms:9083</value></property>\n"
             "</configuration>\n");
  CHV_CHECK_EQ_INT(chv_catalog_open_conf_dir(dir, NULL, &c, &err),
                   CHV_ENOTSUP);
  CHV_CHECK_CONTAINS(err.msg, "hive.metastore.uris=thrift://hms:9083 selects "
                              "a remote Hive Metastore, which this build does "
                              "not support yet");

  /* malformed XML names file and line */
  write_file(site,
             "<configuration>\n"
             "<property><name>a</name><value>1</value></property>\n"
             "<property><name>b</name><value>2</vaule></property>\n"
             "</configuration>\n");
  CHV_CHECK_EQ_INT(chv_hive_site_read(site, &props, &n, &err), CHV_ECORRUPT);
  char where[700];
  snprintf(where, sizeof where, "%s:3:", site);
  CHV_CHECK_CONTAINS(err.msg, where);
  CHV_CHECK_CONTAINS(err.msg, "malformed XML");
  CHV_CHECK_EQ_INT(chv_catalog_open_conf_dir(dir, NULL, &c, &err),
                   CHV_ECORRUPT);

  /* a property without a name */
  write_file(site, "<configuration>\n\n<property><value>1</value></property>"
                   "</configuration>");
  CHV_CHECK_EQ_INT(chv_hive_site_read(site, &props, &n, &err), CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "line 3 has no <name>");
  write_file(site, "<conf></conf>");
  CHV_CHECK_EQ_INT(chv_hive_site_read(site, &props, &n, &err), CHV_ECORRUPT);

  /* missing file */
  const char *empty = chv_test_tmpdir();
  CHV_CHECK_EQ_INT(chv_catalog_open_conf_dir(empty, NULL, &c, &err),
                   CHV_ENOENT);
  CHV_CHECK_CONTAINS(err.msg, "has no hive-site.xml");
  chv_free(site);
  chv_free(wh);
}

/* ---- filters ------------------------------------------------------------ */

static int64_t count(chv_catalog *c, const char *t,
                     const struct chv_part_filter *f) {
  struct chv_error err;
  int64_t n = -1;
  if (f == NULL) return -2;
  if (chv_catalog_count_partitions(c, NULL, t, f, &n, &err) != CHV_OK) {
    fprintf(stderr, "count: %s\n", err.msg);
    return -1;
  }
  /* listing must agree with counting */
  struct chv_partition *ps;
  int m;
  if (chv_catalog_list_partitions(c, NULL, t, f, &ps, &m, &err) != CHV_OK ||
      m != n) {
    fprintf(stderr, "list disagrees: %s\n", err.msg);
    return -1;
  }
  chv_partitions_free(ps, m);
  return n;
}

static void test_filters(void) {
  char *wh;
  chv_catalog *c = open_tmp(&wh);
  CHV_REQUIRE(c != NULL);
  struct chv_error err;
  /* t(hr int, dt date); hr in 0..11 plus one default, dt in 3 days */
  CHV_REQUIRE_OK(make_table(c, NULL, "t", "hr", "int", "dt", "date", &err),
                 &err);
  struct chv_partition ps[39];
  char vals[39][2][16];
  char *vp[39][2];
  int n = 0;
  for (int d = 0; d < 3; d++) {
    for (int h = -1; h < 12; h++) {
      if (h < 0)
        vals[n][0][0] = 0; /* default partition */
      else
        snprintf(vals[n][0], 16, "%d", h);
      snprintf(vals[n][1], 16, "2024-0%d-%02d", d == 2 ? 2 : 1,
               d == 2 ? 1 : 9 + 21 * d);
      vp[n][0] = vals[n][0];
      vp[n][1] = vals[n][1];
      memset(&ps[n], 0, sizeof ps[n]);
      ps[n].values = vp[n];
      ps[n].nvalues = 2;
      n++;
    }
  }
  /* dates: 2024-01-09, 2024-01-30, 2024-02-01 */
  CHV_REQUIRE_OK(chv_catalog_add_partitions(c, NULL, "t", ps, n, 0, &err),
                 &err);
  chv_arena *a;
  CHV_REQUIRE(chv_arena_open(4096, &a) == CHV_OK);
  /* integer keys compare as numbers: '10' > '9' */
  CHV_CHECK_EQ_INT(count(c, "t", chv_pf_cmp(a, "hr", CHV_PF_GT, "9")), 6);
  CHV_CHECK_EQ_INT(count(c, "t", chv_pf_cmp(a, "HR", CHV_PF_EQ, "10")), 3);
  CHV_CHECK_EQ_INT(count(c, "t", chv_pf_cmp(a, "hr", CHV_PF_EQ, "010")), 3);
  CHV_CHECK_EQ_INT(count(c, "t", chv_pf_cmp(a, "hr", CHV_PF_GE, "10")), 6);
  CHV_CHECK_EQ_INT(count(c, "t", chv_pf_cmp(a, "hr", CHV_PF_LT, "2")), 6);
  CHV_CHECK_EQ_INT(count(c, "t", chv_pf_cmp(a, "hr", CHV_PF_LE, "2")), 9);
  CHV_CHECK_EQ_INT(count(c, "t", chv_pf_cmp(a, "hr", CHV_PF_NE, "2")), 33);
  CHV_CHECK_EQ_INT(count(c, "t", chv_pf_cmp(a, "hr", CHV_PF_GT, "9.5")), 6);
  /* NULL literal and NULL values: three-valued logic */
  CHV_CHECK_EQ_INT(count(c, "t", chv_pf_cmp(a, "hr", CHV_PF_EQ, NULL)), 0);
  CHV_CHECK_EQ_INT(count(c, "t", chv_pf_is_null(a, "hr", false)), 3);
  CHV_CHECK_EQ_INT(count(c, "t", chv_pf_is_null(a, "hr", true)), 36);
  CHV_CHECK_EQ_INT(
      count(c, "t", chv_pf_not(a, chv_pf_cmp(a, "hr", CHV_PF_EQ, "2"))), 33);
  /* dates compare as 'YYYY-MM-DD' text */
  CHV_CHECK_EQ_INT(count(c, "t", chv_pf_cmp(a, "dt", CHV_PF_GT, "2024-01-10")),
                   26);
  CHV_CHECK_EQ_INT(
      count(c, "t", chv_pf_between(a, "dt", "2024-01-09", "2024-01-30", false)),
      26);
  CHV_CHECK_EQ_INT(
      count(c, "t", chv_pf_between(a, "dt", "2024-01-09", "2024-01-30", true)),
      13);
  CHV_CHECK_EQ_INT(count(c, "t", chv_pf_between(a, "hr", "9", "10", false)), 6);
  const char *in1[] = {"1", "10", "99"};
  CHV_CHECK_EQ_INT(count(c, "t", chv_pf_in(a, "hr", in1, 3, false)), 6);
  CHV_CHECK_EQ_INT(count(c, "t", chv_pf_in(a, "hr", in1, 3, true)), 30);
  const char *in2[] = {"2024-02-01", NULL};
  CHV_CHECK_EQ_INT(count(c, "t", chv_pf_in(a, "dt", in2, 2, false)), 13);
  CHV_CHECK_EQ_INT(count(c, "t", chv_pf_in(a, "dt", in2, 0, false)), 0);
  /* AND / OR over two keys */
  struct chv_part_filter *f =
      chv_pf_and(a, chv_pf_cmp(a, "dt", CHV_PF_EQ, "2024-01-30"),
                 chv_pf_or(a, chv_pf_cmp(a, "hr", CHV_PF_LT, "3"),
                           chv_pf_is_null(a, "hr", false)));
  CHV_CHECK_EQ_INT(count(c, "t", f), 4);
  struct chv_partition *got;
  int m;
  CHV_REQUIRE_OK(chv_catalog_list_partitions(c, NULL, "t", f, &got, &m, &err),
                 &err);
  for (int i = 0; i < m; i++) CHV_CHECK_STREQ(got[i].values[1], "2024-01-30");
  chv_partitions_free(got, m);
  char **names;
  CHV_REQUIRE_OK(chv_catalog_list_partition_names(c, NULL, "t", f, &names, &m,
                                                  &err),
                 &err);
  CHV_REQUIRE(m == 4);
  CHV_CHECK_STREQ(names[0], "hr=0/dt=2024-01-30");
  CHV_CHECK_STREQ(names[3], "hr=__HIVE_DEFAULT_PARTITION__/dt=2024-01-30");
  chv_strv_free(names, m);
  /* empty AND is true, empty OR false */
  struct chv_part_filter empty_and = {CHV_PF_AND, 0, false, NULL, NULL, 0,
                                      NULL, 0};
  CHV_CHECK_EQ_INT(count(c, "t", &empty_and), 39);
  /* errors: unknown key, non-numeric literal for an int key */
  int64_t x;
  CHV_CHECK_EQ_INT(chv_catalog_count_partitions(
                       c, NULL, "t", chv_pf_cmp(a, "nope", CHV_PF_EQ, "1"), &x,
                       &err),
                   CHV_EINVAL);
  CHV_CHECK_CONTAINS(err.msg, "not a partition key");
  CHV_CHECK_EQ_INT(chv_catalog_count_partitions(
                       c, NULL, "t", chv_pf_cmp(a, "hr", CHV_PF_EQ, "ten"), &x,
                       &err),
                   CHV_ETYPE);
  CHV_CHECK_CONTAINS(err.msg, "'ten' is not a number");
  /* string keys compare as text: '10' < '9' */
  CHV_REQUIRE_OK(make_table(c, NULL, "s", "k", "string", NULL, NULL, &err),
                 &err);
  char *s9[] = {"9"}, *s10[] = {"10"}, *quote[] = {"it's"};
  struct chv_partition sp[3] = {{s9, 1, NULL, NULL, 0, NULL, 0},
                                {s10, 1, NULL, NULL, 0, NULL, 0},
                                {quote, 1, NULL, NULL, 0, NULL, 0}};
  CHV_REQUIRE_OK(chv_catalog_add_partitions(c, NULL, "s", sp, 3, 0, &err),
                 &err);
  CHV_CHECK_EQ_INT(count(c, "s", chv_pf_cmp(a, "k", CHV_PF_GT, "9")), 1);
  CHV_CHECK_EQ_INT(count(c, "s", chv_pf_cmp(a, "k", CHV_PF_LT, "9")), 1);
  CHV_CHECK_EQ_INT(count(c, "s", chv_pf_cmp(a, "k", CHV_PF_EQ, "it's")), 1);
  CHV_CHECK_EQ_INT(
      count(c, "s", chv_pf_cmp(a, "k", CHV_PF_EQ, "x' OR '1'='1")), 0);
  /* decimal keys compare numerically */
  CHV_REQUIRE_OK(make_table(c, NULL, "d", "p", "decimal(5,2)", NULL, NULL,
                            &err),
                 &err);
  char *d1[] = {"2.50"}, *d2[] = {"10.00"}, *d3[] = {"-1"};
  struct chv_partition dp[3] = {{d1, 1, NULL, NULL, 0, NULL, 0},
                                {d2, 1, NULL, NULL, 0, NULL, 0},
                                {d3, 1, NULL, NULL, 0, NULL, 0}};
  CHV_REQUIRE_OK(chv_catalog_add_partitions(c, NULL, "d", dp, 3, 0, &err),
                 &err);
  CHV_CHECK_EQ_INT(count(c, "d", chv_pf_cmp(a, "p", CHV_PF_GT, "2.5")), 1);
  CHV_CHECK_EQ_INT(count(c, "d", chv_pf_cmp(a, "p", CHV_PF_EQ, "2.5")), 1);
  CHV_CHECK_EQ_INT(count(c, "d", chv_pf_cmp(a, "p", CHV_PF_GE, "-1")), 3);
  chv_arena_close(a);
  chv_catalog_close(c);
  chv_free(wh);
}

/* 100,000 partitions: a point filter finds 1 through the index, a range the
** right count, without loading them all. */
static void test_hundred_thousand_partitions(void) {
  char *wh;
  chv_catalog *c = open_tmp(&wh);
  CHV_REQUIRE(c != NULL);
  struct chv_error err;
  CHV_REQUIRE_OK(make_table(c, NULL, "big", "day", "string", "n", "int",
                            &err),
                 &err);
  enum { TOTAL = 100000, BATCH = 10000, DAYS = 100 };
  struct chv_partition *ps = chv_calloc(BATCH, sizeof *ps);
  char(*vals)[2][16] = chv_calloc(BATCH, sizeof *vals);
  char *(*vp)[2] = chv_calloc(BATCH, sizeof *vp);
  CHV_REQUIRE(ps && vals && vp);
  int64_t t0 = chv_time_mono_ns();
  for (int b = 0; b < TOTAL / BATCH; b++) {
    for (int i = 0; i < BATCH; i++) {
      int id = b * BATCH + i;
      snprintf(vals[i][0], 16, "d%03d", id % DAYS);
      snprintf(vals[i][1], 16, "%d", id);
      vp[i][0] = vals[i][0];
      vp[i][1] = vals[i][1];
      ps[i].values = vp[i];
      ps[i].nvalues = 2;
    }
    CHV_REQUIRE_OK(chv_catalog_add_partitions(c, NULL, "big", ps, BATCH, 0,
                                              &err),
                   &err);
  }
  int64_t t1 = chv_time_mono_ns();
  chv_arena *a;
  CHV_REQUIRE(chv_arena_open(4096, &a) == CHV_OK);
  struct chv_partition *got;
  int m;
  CHV_REQUIRE_OK(chv_catalog_list_partitions(
                     c, NULL, "big", chv_pf_cmp(a, "n", CHV_PF_EQ, "77777"),
                     &got, &m, &err),
                 &err);
  int64_t t2 = chv_time_mono_ns();
  CHV_REQUIRE(m == 1);
  CHV_CHECK_STREQ(got[0].values[0], "d077");
  CHV_CHECK_STREQ(got[0].values[1], "77777");
  chv_partitions_free(got, m);
  /* point lookup on the string key plus a numeric range on the other */
  struct chv_part_filter *f =
      chv_pf_and(a, chv_pf_cmp(a, "day", CHV_PF_EQ, "d042"),
                 chv_pf_cmp(a, "n", CHV_PF_LT, "50000"));
  int64_t cnt;
  CHV_REQUIRE_OK(chv_catalog_count_partitions(c, NULL, "big", f, &cnt, &err),
                 &err);
  CHV_CHECK_EQ_INT(cnt, 500);
  CHV_REQUIRE_OK(chv_catalog_count_partitions(
                     c, NULL, "big",
                     chv_pf_between(a, "n", "99000", "99999", false), &cnt,
                     &err),
                 &err);
  CHV_CHECK_EQ_INT(cnt, 1000);
  CHV_REQUIRE_OK(chv_catalog_count_partitions(c, NULL, "big", NULL, &cnt,
                                              &err),
                 &err);
  CHV_CHECK_EQ_INT(cnt, TOTAL);
  int64_t t3 = chv_time_mono_ns();
  /* a point lookup must be an index search, not a scan of 100,000 */
  CHV_CHECK((t2 - t1) / 1000000 < 20);
  printf("# 100000 partitions: add %lld ms, point filter %lld us, "
         "range counts %lld ms\n",
         (long long)((t1 - t0) / 1000000), (long long)((t2 - t1) / 1000),
         (long long)((t3 - t2) / 1000000));
  /* the planner uses the value indexes for key filters */
  sqlite3 *db;
  char *path = chv_path_join(wh, CHV_METASTORE_FILE);
  CHV_REQUIRE(sqlite3_open(path, &db) == SQLITE_OK);
  sqlite3_stmt *st;
  CHV_REQUIRE(sqlite3_prepare_v2(
                  db,
                  "EXPLAIN QUERY PLAN SELECT p.part_id FROM parts p JOIN "
                  "part_values v1 ON v1.part_id = p.part_id AND v1.tbl_id = 1 "
                  "AND v1.idx = 1 WHERE p.tbl_id = 1 AND (v1.num = 77777) "
                  "ORDER BY +p.name",
                  -1, &st, NULL) == SQLITE_OK);
  bool uses_index = false;
  while (sqlite3_step(st) == SQLITE_ROW)
    if (strstr((const char *)sqlite3_column_text(st, 3), "part_values_by_num"))
      uses_index = true;
  CHV_CHECK(uses_index);
  sqlite3_finalize(st);
  sqlite3_close(db);
  chv_free(path);
  chv_arena_close(a);
  chv_free(ps);
  chv_free(vals);
  chv_free(vp);
  chv_catalog_close(c);
  chv_free(wh);
}

/* Allocation failures: fail the 1st, 2nd, ... allocation of each call until
** it succeeds; each failure must be CHV_ENOMEM, leak nothing (ASan) and
** leave the metastore as it was (a failed batch adds nothing). */
static void test_out_of_memory(void) {
  char *wh;
  chv_catalog *c = open_tmp(&wh);
  CHV_REQUIRE(c != NULL);
  struct chv_error err;
  CHV_REQUIRE_OK(make_table(c, NULL, "t", "a", "int", "b", "string", &err),
                 &err);
  char *v1[] = {"1", "x/y"}, *v2[] = {"2", NULL};
  struct chv_kv kv[] = {{"numRows", "3"}};
  struct chv_partition ps[2] = {{v1, 2, NULL, NULL, 0, kv, 1},
                                {v2, 2, NULL, NULL, 0, NULL, 0}};
  chv_arena *a;
  CHV_REQUIRE(chv_arena_open(4096, &a) == CHV_OK);
  struct chv_part_filter *f =
      chv_pf_or(a, chv_pf_cmp(a, "a", CHV_PF_GE, "1"),
                chv_pf_is_null(a, "b", false));
  CHV_REQUIRE(f != NULL);
  int failures = 0;
  for (int step = 0; step < 5; step++) {
    for (long n = 1;; n++) {
      chv_alloc_fail_after(n);
      int rc = CHV_OK;
      struct chv_table t;
      struct chv_partition *got = NULL, one;
      int m = 0;
      switch (step) {
      case 0:
        rc = chv_catalog_add_partitions(c, NULL, "t", ps, 2, 0, &err);
        break;
      case 1:
        rc = chv_catalog_get_table(c, NULL, "t", &t, &err);
        if (rc == CHV_OK) chv_table_free(&t);
        break;
      case 2:
        rc = chv_catalog_list_partitions(c, NULL, "t", f, &got, &m, &err);
        if (rc == CHV_OK) chv_partitions_free(got, m);
        break;
      case 3:
        rc = chv_catalog_get_partition(c, NULL, "t", v1, &one, &err);
        if (rc == CHV_OK) chv_partition_free(&one);
        break;
      case 4: {
        char **k, **v;
        rc = chv_partition_parse_path("a=1/b=x%2Fy/c=__HIVE_DEFAULT_PARTITION__",
                                      &k, &v, &m, &err);
        if (rc == CHV_OK) {
          chv_strv_free(k, m);
          chv_strv_free(v, m);
        }
        break;
      }
      }
      chv_alloc_fail_after(0);
      if (rc == CHV_OK) break;
      failures++;
      if (rc != CHV_ENOMEM) {
        fprintf(stderr, "step %d, allocation %ld: %d %s\n", step, n, rc,
                err.msg);
        CHV_CHECK(false);
        break;
      }
      if (step == 0) {
        int64_t cnt = -1;
        CHV_CHECK_OK(chv_catalog_count_partitions(c, NULL, "t", NULL, &cnt,
                                                  &err),
                     &err);
        CHV_CHECK_EQ_INT(cnt, 0);
      }
      if (n > 10000) {
        CHV_CHECK(false);
        break;
      }
    }
  }
  int64_t cnt = -1;
  CHV_CHECK_OK(chv_catalog_count_partitions(c, NULL, "t", NULL, &cnt, &err),
               &err);
  CHV_CHECK_EQ_INT(cnt, 2);
  CHV_CHECK(failures > 20);
  chv_arena_close(a);
  chv_catalog_close(c);
  chv_free(wh);
}

CHV_TEST_MAIN("catalog", test_open_layout, test_databases, test_tables,
              test_rename_table, test_partitions_crud, test_views,
              test_hive_site,
              test_filters, test_hundred_thousand_partitions,
              test_out_of_memory)
