/* Tests of src/fs: the local POSIX back end and the shared helpers. */
#include "chv_test.h"
#include "fs/fs.h"

#include <sys/stat.h>

static const struct chv_fs *L;

static void put(const char *dir, const char *name, const char *text) {
  char *p = chv_path_join(dir, name);
  struct chv_file *f;
  struct chv_error err;
  CHV_CHECK_OK(chv_fs_create(L, p, false, &f, &err), &err);
  CHV_CHECK_OK(chv_file_write(f, text, strlen(text), &err), &err);
  chv_file_close(f);
  chv_free(p);
}

static void test_create_write_read(void) {
  L = chv_fs_local();
  struct chv_error err;
  const char *d = chv_test_tmpdir();
  char *p = chv_path_join(d, "f.txt");
  struct chv_file *f;
  CHV_REQUIRE_OK(chv_fs_create(L, p, true, &f, &err), &err);
  char big[100000];
  for (size_t i = 0; i < sizeof big; i++) big[i] = (char)('a' + i % 26);
  CHV_CHECK_OK(chv_file_write(f, big, sizeof big, &err), &err);
  CHV_CHECK_OK(chv_file_sync(f, &err), &err);
  chv_file_close(f);

  /* exclusive create of an existing file fails and names the path */
  CHV_CHECK_EQ_INT(chv_fs_create(L, p, true, &f, &err), CHV_EEXIST);
  CHV_CHECK_CONTAINS(err.msg, "create");
  CHV_CHECK_CONTAINS(err.msg, p);

  CHV_REQUIRE_OK(chv_fs_open(L, p, &f, &err), &err);
  int64_t size;
  CHV_CHECK_OK(chv_file_size(f, &size, &err), &err);
  CHV_CHECK_EQ_INT(size, sizeof big);
  char buf[64];
  size_t got;
  CHV_CHECK_OK(chv_file_pread(f, buf, 10, 27, &got, &err), &err);
  CHV_CHECK_EQ_INT(got, 10);
  CHV_CHECK(memcmp(buf, big + 27, 10) == 0);
  CHV_CHECK_OK(chv_file_pread(f, buf, 64, (int64_t)sizeof big - 5, &got, &err), &err);
  CHV_CHECK_EQ_INT(got, 5);
  CHV_CHECK_OK(chv_file_pread(f, buf, 64, (int64_t)sizeof big + 5, &got, &err), &err);
  CHV_CHECK_EQ_INT(got, 0);
  size_t total = 0;
  for (;;) {
    CHV_REQUIRE_OK(chv_file_read(f, buf, sizeof buf, &got, &err), &err);
    if (got == 0) break;
    CHV_CHECK(memcmp(buf, big + total, got) == 0);
    total += got;
  }
  CHV_CHECK_EQ_INT(total, sizeof big);
  chv_file_close(f);
  chv_file_close(NULL);

  /* truncate */
  CHV_REQUIRE_OK(chv_fs_create(L, p, false, &f, &err), &err);
  CHV_CHECK_OK(chv_file_write(f, "xy", 2, &err), &err);
  chv_file_close(f);
  struct chv_stat st;
  CHV_CHECK_OK(chv_fs_stat(L, p, &st, &err), &err);
  CHV_CHECK_EQ_INT(st.size, 2);
  CHV_CHECK(!st.is_dir);
  CHV_CHECK(st.mtime_ms > 1500000000000LL);
  CHV_CHECK_OK(chv_fs_stat(L, d, &st, &err), &err);
  CHV_CHECK(st.is_dir);
  chv_free(p);
}

static void test_errors_name_path(void) {
  L = chv_fs_local();
  struct chv_error err;
  struct chv_file *f;
  const char *d = chv_test_tmpdir();
  char *p = chv_path_join(d, "missing");
  CHV_CHECK_EQ_INT(chv_fs_open(L, p, &f, &err), CHV_ENOENT);
  CHV_CHECK_CONTAINS(err.msg, "open ");
  CHV_CHECK_CONTAINS(err.msg, p);
  struct chv_stat st;
  CHV_CHECK_EQ_INT(chv_fs_stat(L, p, &st, &err), CHV_ENOENT);
  CHV_CHECK_CONTAINS(err.msg, "stat ");
  struct chv_dirlist l;
  CHV_CHECK_EQ_INT(chv_fs_list(L, p, 0, &l, &err), CHV_ENOENT);
  CHV_CHECK_CONTAINS(err.msg, "list ");
  CHV_CHECK_EQ_INT(chv_fs_delete(L, p, true, &err), CHV_ENOENT);
  CHV_CHECK_CONTAINS(err.msg, "remove ");
  CHV_CHECK_EQ_INT(chv_fs_rename(L, p, d, &err), CHV_ENOENT);
  CHV_CHECK_CONTAINS(err.msg, "rename ");
  CHV_CHECK(!chv_fs_exists(L, p));
  /* opening a folder for reading is refused */
  CHV_CHECK_EQ_INT(chv_fs_open(L, d, &f, &err), CHV_EINVAL);
  CHV_CHECK_CONTAINS(err.msg, d);
  chv_free(p);
}

static void test_mkdirs_list_remove(void) {
  L = chv_fs_local();
  struct chv_error err;
  const char *d = chv_test_tmpdir();
  char *deep = chv_path_join(d, "t/b=2/a=1");
  CHV_REQUIRE_OK(chv_fs_mkdirs(L, deep, &err), &err);
  CHV_CHECK_OK(chv_fs_mkdirs(L, deep, &err), &err); /* idempotent */
  char *t = chv_path_join(d, "t");
  char *b2 = chv_path_join(d, "t/b=2");
  char *b1 = chv_path_join(d, "t/b=1");
  CHV_REQUIRE_OK(chv_fs_mkdirs(L, b1, &err), &err);
  put(deep, "part-1", "hello");
  put(deep, "part-0", "hi");
  put(deep, ".part-2.inprogress", "x");
  put(deep, "_SUCCESS", "");
  put(t, "zz", "1");
  char *hid = chv_path_join(d, "t/.staging_1");
  CHV_REQUIRE_OK(chv_fs_mkdirs(L, hid, &err), &err);
  put(hid, "f", "1");

  /* a file where a folder is wanted */
  char *zz = chv_path_join(t, "zz/x");
  CHV_CHECK(chv_fs_mkdirs(L, zz, &err) != CHV_OK);
  CHV_CHECK_CONTAINS(err.msg, "mkdirs");
  chv_free(zz);

  struct chv_dirlist l;
  CHV_REQUIRE_OK(chv_fs_list(L, t, 0, &l, &err), &err);
  CHV_REQUIRE(l.count == 4);
  CHV_CHECK_STREQ(l.entries[0].name, ".staging_1");
  CHV_CHECK_STREQ(l.entries[1].name, "b=1");
  CHV_CHECK_STREQ(l.entries[2].name, "b=2");
  CHV_CHECK_STREQ(l.entries[3].name, "zz");
  CHV_CHECK(l.entries[2].st.is_dir);
  CHV_CHECK_EQ_INT(l.entries[3].st.size, 1);
  CHV_CHECK_STREQ(l.entries[1].path, b1);
  chv_dirlist_free(&l);

  CHV_REQUIRE_OK(chv_fs_list(L, t, CHV_LIST_RECURSIVE | CHV_LIST_SKIP_HIDDEN |
                                       CHV_LIST_FILES_ONLY, &l, &err), &err);
  CHV_REQUIRE(l.count == 3);
  CHV_CHECK_STREQ(l.entries[0].name, "part-0");
  CHV_CHECK_STREQ(l.entries[1].name, "part-1");
  CHV_CHECK_EQ_INT(l.entries[1].st.size, 5);
  CHV_CHECK_STREQ(l.entries[2].name, "zz");
  char *p0 = chv_path_join(deep, "part-0");
  CHV_CHECK_STREQ(l.entries[0].path, p0);
  chv_free(p0);
  chv_dirlist_free(&l);

  CHV_REQUIRE_OK(chv_fs_list(L, t, CHV_LIST_RECURSIVE, &l, &err), &err);
  /* .staging_1, .staging_1/f, b=1, b=2, b=2/a=1, its 4 files, zz */
  CHV_CHECK_EQ_INT(l.count, 10);
  CHV_CHECK_STREQ(l.entries[0].name, ".staging_1");
  CHV_CHECK_STREQ(l.entries[1].name, "f");
  CHV_CHECK_STREQ(l.entries[4].name, "a=1");
  chv_dirlist_free(&l);

  /* non-recursive remove of a non-empty folder fails; recursive works */
  CHV_CHECK(chv_fs_delete(L, b2, false, &err) != CHV_OK);
  CHV_CHECK_OK(chv_fs_delete(L, b1, false, &err), &err);
  CHV_CHECK_OK(chv_fs_delete(L, t, true, &err), &err);
  CHV_CHECK(!chv_fs_exists(L, t));
  chv_free(hid);
  chv_free(deep);
  chv_free(t);
  chv_free(b1);
  chv_free(b2);
}

static void test_rename_and_sync_dir(void) {
  L = chv_fs_local();
  struct chv_error err;
  const char *d = chv_test_tmpdir();
  put(d, "a", "old");
  put(d, "b", "new");
  char *a = chv_path_join(d, "a"), *b = chv_path_join(d, "b");
  CHV_CHECK_OK(chv_fs_rename(L, b, a, &err), &err); /* replaces a */
  char *data;
  size_t len;
  CHV_REQUIRE_OK(chv_fs_read_all(L, a, &data, &len, -1, &err), &err);
  CHV_CHECK_STREQ(data, "new");
  chv_free(data);
  CHV_CHECK(!chv_fs_exists(L, b));
  CHV_CHECK_OK(chv_fs_sync_dir(L, d, &err), &err);
  chv_free(a);
  chv_free(b);
}

static void test_read_all_limit(void) {
  L = chv_fs_local();
  struct chv_error err;
  const char *d = chv_test_tmpdir();
  put(d, "f", "0123456789");
  put(d, "empty", "");
  char *p = chv_path_join(d, "f");
  char *data;
  size_t len;
  CHV_REQUIRE_OK(chv_fs_read_all(L, p, &data, &len, 10, &err), &err);
  CHV_CHECK_EQ_INT(len, 10);
  CHV_CHECK_STREQ(data, "0123456789");
  chv_free(data);
  CHV_CHECK_EQ_INT(chv_fs_read_all(L, p, &data, &len, 9, &err), CHV_ERANGE);
  CHV_CHECK_CONTAINS(err.msg, p);
  CHV_CHECK_CONTAINS(err.msg, "limit");
  chv_free(p);
  p = chv_path_join(d, "empty");
  CHV_REQUIRE_OK(chv_fs_read_all(L, p, &data, &len, 0, &err), &err);
  CHV_CHECK_EQ_INT(len, 0);
  CHV_CHECK_STREQ(data, "");
  chv_free(data);
  chv_free(p);
}

static void test_write_atomic(void) {
  L = chv_fs_local();
  struct chv_error err;
  const char *d = chv_test_tmpdir();
  char *p = chv_path_join(d, "meta.json");
  CHV_REQUIRE_OK(chv_fs_write_atomic(L, p, "{1}", 3, &err), &err);
  CHV_REQUIRE_OK(chv_fs_write_atomic(L, p, "{22}", 4, &err), &err);
  char *data;
  size_t len;
  CHV_REQUIRE_OK(chv_fs_read_all(L, p, &data, &len, -1, &err), &err);
  CHV_CHECK_STREQ(data, "{22}");
  chv_free(data);
  struct chv_dirlist l;
  CHV_REQUIRE_OK(chv_fs_list(L, d, 0, &l, &err), &err);
  CHV_CHECK_EQ_INT(l.count, 1); /* no temporary file left behind */
  chv_dirlist_free(&l);
  /* into a missing folder: fails naming the temporary file's folder */
  char *q = chv_path_join(d, "nope/x");
  CHV_CHECK_EQ_INT(chv_fs_write_atomic(L, q, "x", 1, &err), CHV_ENOENT);
  CHV_CHECK_CONTAINS(err.msg, "nope/.x.tmp-");
  chv_free(q);
  chv_free(p);
}

static void test_for_path(void) {
  struct chv_error err;
  const struct chv_fs *fs;
  const char *in;
  CHV_CHECK_OK(chv_fs_for_path("/data/wh", &fs, &in, &err), &err);
  CHV_CHECK(fs == chv_fs_local());
  CHV_CHECK_STREQ(in, "/data/wh");
  CHV_CHECK_OK(chv_fs_for_path("file:///data/wh", &fs, &in, &err), &err);
  CHV_CHECK_STREQ(in, "/data/wh");
  CHV_CHECK_STREQ(fs->scheme, "file");
  CHV_CHECK_OK(chv_fs_for_path("file:/data/wh", &fs, &in, &err), &err);
  CHV_CHECK_STREQ(in, "/data/wh");
  CHV_CHECK_OK(chv_fs_for_path("file://localhost/x", &fs, &in, &err), &err);
  CHV_CHECK_STREQ(in, "/x");
  CHV_CHECK_OK(chv_fs_for_path("rel/dt=2020-01-01 10:00", &fs, &in, &err), &err);
  CHV_CHECK_STREQ(in, "rel/dt=2020-01-01 10:00");
  CHV_CHECK_EQ_INT(chv_fs_for_path("file://host/x", &fs, &in, &err), CHV_ENOTSUP);
  const char *remote[] = {"hdfs://nn:8020/wh", "s3://bucket/wh", "s3a://b/w",
                          "abfs://c@a/w", "webhdfs://nn/w"};
  for (size_t i = 0; i < CHV_ARRAY_SIZE(remote); i++) {
    CHV_CHECK_EQ_INT(chv_fs_for_path(remote[i], &fs, &in, &err), CHV_ENOTSUP);
    CHV_CHECK_CONTAINS(err.msg, remote[i]);
    CHV_CHECK_CONTAINS(err.msg, "not built yet");
  }
  CHV_CHECK_STREQ(err.sqlstate, "0A000");
  CHV_CHECK_EQ_INT(chv_fs_for_path("", &fs, &in, &err), CHV_EINVAL);
}

static void test_path_helpers(void) {
  char *s;
  s = chv_path_join("/a/", "/b");
  CHV_CHECK_STREQ(s, "/a/b");
  chv_free(s);
  s = chv_path_join("/", "b");
  CHV_CHECK_STREQ(s, "/b");
  chv_free(s);
  s = chv_path_join("a", "");
  CHV_CHECK_STREQ(s, "a");
  chv_free(s);
  s = chv_path_join("", "b");
  CHV_CHECK_STREQ(s, "b");
  chv_free(s);
  CHV_CHECK(chv_path_is_hidden(".x"));
  CHV_CHECK(chv_path_is_hidden("_SUCCESS"));
  CHV_CHECK(!chv_path_is_hidden("part-0"));
}

/* Each allocation of listing, reading and atomic writing fails in turn:
** CHV_ENOMEM, nothing leaked (ASan), no temporary file left behind. */
static void test_out_of_memory(void) {
  L = chv_fs_local();
  struct chv_error err;
  const char *d = chv_test_tmpdir();
  char *sub = chv_path_join(d, "a/b");
  CHV_REQUIRE_OK(chv_fs_mkdirs(L, sub, &err), &err);
  put(sub, "f1", "one");
  put(d, "f2", "two");
  char *target = chv_path_join(d, "atomic");
  char *sub_file = chv_path_join(sub, "f1");
  int failures = 0;
  for (int step = 0; step < 3; step++) {
    for (long n = 1; n < 1000; n++) {
      chv_alloc_fail_after(n);
      int rc = CHV_OK;
      if (step == 0) {
        struct chv_dirlist l;
        rc = chv_fs_list(L, d, CHV_LIST_RECURSIVE, &l, &err);
        if (rc == CHV_OK) chv_dirlist_free(&l);
      } else if (step == 1) {
        char *data = NULL;
        size_t len = 0;
        rc = chv_fs_read_all(L, sub_file, &data, &len, -1, &err);
        if (rc == CHV_OK) {
          CHV_CHECK_EQ_INT(len, 3);
          chv_free(data);
        }
      } else {
        rc = chv_fs_write_atomic(L, target, "x", 1, &err);
      }
      chv_alloc_fail_after(0);
      if (rc == CHV_OK) break;
      CHV_CHECK_EQ_INT(rc, CHV_ENOMEM);
      failures++;
    }
  }
  struct chv_dirlist l;
  CHV_REQUIRE_OK(chv_fs_list(L, d, 0, &l, &err), &err);
  CHV_CHECK_EQ_INT(l.count, 3); /* a, f2, atomic: no .atomic.tmp-* */
  chv_dirlist_free(&l);
  CHV_CHECK(failures >= 5);
  chv_free(target);
  chv_free(sub_file);
  chv_free(sub);
}

CHV_TEST_MAIN("fs", test_create_write_read, test_errors_name_path,
              test_mkdirs_list_remove, test_rename_and_sync_dir,
              test_read_all_limit, test_write_atomic, test_for_path,
              test_path_helpers, test_out_of_memory)
