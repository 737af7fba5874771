/* Tests of catalog transaction groups and write records (commits.c). */
#include "catalog/catalog.h"
#include "chv_test.h"

static chv_catalog *open_with_table(struct chv_error *err) {
  chv_catalog *cat;
  if (chv_catalog_open(chv_test_tmpdir(), NULL, &cat, err) != CHV_OK)
    return NULL;
  struct chv_column cols[] = {{"id", "int", NULL}};
  struct chv_column pkeys[] = {{"dt", "string", NULL}};
  struct chv_table t = {.db = "default", .name = "t", .columns = cols,
                        .ncols = 1, .pkeys = pkeys, .npkeys = 1,
                        .type = CHV_MANAGED_TABLE};
  if (chv_catalog_create_table(cat, &t, 0, err) != CHV_OK) {
    chv_catalog_close(cat);
    return NULL;
  }
  return cat;
}

static int add_part(chv_catalog *cat, const char *v, struct chv_error *err) {
  char *values[1] = {(char *)v};
  struct chv_partition p = {.values = values, .nvalues = 1};
  return chv_catalog_add_partitions(cat, "default", "t", &p, 1, 0, err);
}

static void test_group_commit_and_rollback(void) {
  struct chv_error err;
  chv_catalog *cat = open_with_table(&err);
  CHV_REQUIRE(cat != NULL);
  int64_t n;
  /* Rolled back: nothing of the group stays. */
  CHV_REQUIRE_OK(chv_catalog_begin(cat, &err), &err);
  CHV_CHECK_OK(add_part(cat, "a", &err), &err);
  CHV_CHECK_OK(add_part(cat, "b", &err), &err);
  CHV_CHECK_EQ_INT(chv_catalog_begin(cat, &err), CHV_EINVAL);
  chv_catalog_rollback(cat);
  CHV_REQUIRE_OK(chv_catalog_count_partitions(cat, "default", "t", NULL, &n,
                                              &err), &err);
  CHV_CHECK_EQ_INT(n, 0);
  /* A failing call inside the group: the owner rolls back, and the earlier
  ** call of the group is undone with it. */
  CHV_REQUIRE_OK(add_part(cat, "x", &err), &err);
  CHV_REQUIRE_OK(chv_catalog_begin(cat, &err), &err);
  CHV_CHECK_OK(add_part(cat, "c", &err), &err);
  CHV_CHECK_EQ_INT(add_part(cat, "x", &err), CHV_EEXIST);
  chv_catalog_rollback(cat);
  CHV_REQUIRE_OK(chv_catalog_count_partitions(cat, "default", "t", NULL, &n,
                                              &err), &err);
  CHV_CHECK_EQ_INT(n, 1);
  /* Committed: all of it, seen by another handle. */
  CHV_REQUIRE_OK(chv_catalog_begin(cat, &err), &err);
  CHV_CHECK_OK(add_part(cat, "d", &err), &err);
  CHV_CHECK_OK(add_part(cat, "e", &err), &err);
  CHV_REQUIRE_OK(chv_catalog_commit(cat, &err), &err);
  CHV_CHECK_EQ_INT(chv_catalog_commit(cat, &err), CHV_EINVAL);
  chv_catalog *other;
  CHV_REQUIRE_OK(chv_catalog_open(chv_catalog_warehouse(cat), NULL, &other,
                                  &err), &err);
  CHV_REQUIRE_OK(chv_catalog_count_partitions(other, "default", "t", NULL, &n,
                                              &err), &err);
  CHV_CHECK_EQ_INT(n, 3);
  chv_catalog_close(other);
  chv_catalog_close(cat);
}

static void test_write_records(void) {
  struct chv_error err;
  chv_catalog *cat = open_with_table(&err);
  CHV_REQUIRE(cat != NULL);
  int64_t id1, id2;
  CHV_REQUIRE_OK(chv_catalog_commit_register(cat, "default", "t", 4242,
                                             "/w/t/.staging_1", &id1, &err),
                 &err);
  CHV_REQUIRE_OK(chv_catalog_commit_register(cat, NULL, "T", 4243,
                                             "/w/t/.staging_2", &id2, &err),
                 &err);
  char *newf[] = {"/w/t/dt=a/part-1", "/w/t/dt=a/_SUCCESS"};
  char *oldf[] = {"/w/t/dt=a/part-0"};
  char *dirs[] = {"/w/t/dt=a"};
  struct chv_commit_files files = {newf, 2, oldf, 1, dirs, 1};
  CHV_REQUIRE_OK(chv_catalog_commit_set(cat, id1, CHV_COMMIT_PENDING, &files,
                                        &err), &err);
  CHV_REQUIRE_OK(chv_catalog_commit_set(cat, id1, CHV_COMMIT_COMMITTED, NULL,
                                        &err), &err);
  struct chv_commit_record *r;
  int n;
  CHV_REQUIRE_OK(chv_catalog_commit_list(cat, "default", "t", &r, &n, &err),
                 &err);
  CHV_REQUIRE(n == 2);
  CHV_CHECK_EQ_INT(r[0].id, id1);
  CHV_CHECK_EQ_INT(r[0].pid, 4242);
  CHV_CHECK_EQ_INT(r[0].state, CHV_COMMIT_COMMITTED);
  CHV_CHECK_STREQ(r[0].staging, "/w/t/.staging_1");
  CHV_CHECK_EQ_INT(r[0].nnew, 2);
  CHV_CHECK_EQ_INT(r[0].nold, 1);
  CHV_CHECK_STREQ(r[0].old_files[0], "/w/t/dt=a/part-0");
  CHV_CHECK_EQ_INT(r[0].nnewdirs, 1);
  CHV_CHECK_STREQ(r[0].new_dirs[0], "/w/t/dt=a");
  CHV_CHECK_STREQ(r[0].db, "default");
  CHV_CHECK_STREQ(r[0].table, "t");
  CHV_CHECK_EQ_INT(r[1].state, CHV_COMMIT_WRITING);
  CHV_CHECK_EQ_INT(r[1].nnew, 0);
  chv_commit_records_free(r, n);
  /* Every table's records, with NULL names. */
  CHV_REQUIRE_OK(chv_catalog_commit_list(cat, NULL, NULL, &r, &n, &err), &err);
  CHV_CHECK_EQ_INT(n, 2);
  chv_commit_records_free(r, n);

  CHV_CHECK_EQ_INT(chv_catalog_commit_set(cat, 999, CHV_COMMIT_PENDING, NULL,
                                          &err),
                   CHV_ENOENT);
  CHV_CHECK_CONTAINS(err.msg, "999");
  CHV_CHECK_EQ_INT(chv_catalog_commit_register(cat, "default", "nope", 1, "/x",
                                               &id1, &err),
                   CHV_ENOENT);
  CHV_REQUIRE_OK(chv_catalog_commit_remove(cat, id1, &err), &err);
  CHV_REQUIRE_OK(chv_catalog_commit_remove(cat, id1, &err), &err);
  /* Dropping the table drops its records. */
  CHV_REQUIRE_OK(chv_catalog_drop_table(cat, "default", "t", 0, &err), &err);
  struct chv_column cols[] = {{"id", "int", NULL}};
  struct chv_table t = {.db = "default", .name = "t", .columns = cols,
                        .ncols = 1, .type = CHV_MANAGED_TABLE};
  CHV_REQUIRE_OK(chv_catalog_create_table(cat, &t, 0, &err), &err);
  CHV_REQUIRE_OK(chv_catalog_commit_list(cat, "default", "t", &r, &n, &err),
                 &err);
  CHV_CHECK_EQ_INT(n, 0);
  chv_commit_records_free(r, n);
  chv_catalog_close(cat);
}

CHV_TEST_MAIN("commits", test_group_commit_and_rollback, test_write_records)
