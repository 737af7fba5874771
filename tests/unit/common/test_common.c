/* Tests of src/common: errors, allocation failure injection, buffers, arena. */
#include "chv_test.h"
#include "common/common.h"

static void test_error_set_and_wrap(void) {
  struct chv_error err;
  CHV_CHECK_EQ_INT(chv_error_set(&err, CHV_ECORRUPT, "bad page %d", 3),
                   CHV_ECORRUPT);
  CHV_CHECK_STREQ(err.sqlstate, "XX001");
  chv_error_wrap(&err, "column %s of %s", "a", "f.parquet");
  CHV_CHECK_STREQ(err.msg, "column a of f.parquet: bad page 3");
  CHV_CHECK_EQ_INT(chv_error_set(NULL, CHV_EINVAL, "x"), CHV_EINVAL);
  CHV_CHECK_STREQ(chv_status_name(CHV_ENOMEM), "ENOMEM");
}

static void test_alloc_failure_injection(void) {
  chv_alloc_fail_after(2);
  void *a = chv_malloc(8);
  void *b = chv_malloc(8);
  void *c = chv_malloc(8);
  CHV_CHECK(a != NULL);
  CHV_CHECK(b == NULL);
  CHV_CHECK(c != NULL);
  chv_free(a);
  chv_free(c);
  chv_alloc_fail_after(0);
}

static void test_buf(void) {
  struct chv_buf b;
  chv_buf_init(&b);
  for (int i = 0; i < 1000; i++) CHV_CHECK_OK(chv_buf_printf(&b, "%d,", i), NULL);
  CHV_CHECK(strncmp(b.data, "0,1,2,", 6) == 0);
  CHV_CHECK_EQ_INT(b.data[b.len], '\0');
  char *s = chv_buf_detach(&b);
  CHV_CHECK(b.data == NULL && b.len == 0);
  chv_free(s);

  chv_alloc_fail_after(1);
  CHV_CHECK_EQ_INT(chv_buf_puts(&b, "x"), CHV_ENOMEM);
  CHV_CHECK(b.len == 0);
  chv_buf_free(&b);
}

static void test_arena(void) {
  chv_arena *a;
  CHV_REQUIRE_OK(chv_arena_open(256, &a), NULL);
  for (int i = 0; i < 100; i++) {
    char *p = chv_arena_alloc(a, 100);
    CHV_REQUIRE(p != NULL);
    CHV_CHECK(((uintptr_t)p & 15) == 0);
    memset(p, 'x', 100);
  }
  char *big = chv_arena_alloc(a, 10000);
  CHV_CHECK(big != NULL);
  chv_arena_reset(a);
  CHV_CHECK_STREQ(chv_arena_strndup(a, "hello world", 5), "hello");
  chv_arena_close(a);
}

static void test_strings(void) {
  CHV_CHECK(chv_str_ieq("Partition-Time", "PARTITION-TIME"));
  CHV_CHECK(!chv_str_ieq("abc", "abcd"));
  char s[] = "  a b \n";
  CHV_CHECK_STREQ(chv_str_trim(s), "a b");
}

CHV_TEST_MAIN("common", test_error_set_and_wrap, test_alloc_failure_injection,
              test_buf, test_arena, test_strings)
