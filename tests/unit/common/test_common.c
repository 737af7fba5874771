/* Tests of src/common: errors, allocation failure injection, buffers, arena. */
#include "chv_test.h"
#include "common/common.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

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

/* A long name in a message is quoted shortened in the middle with its
** length, so the reason after it still shows; other conversions print as
** printf prints them. */
static void test_error_long_names(void) {
  size_t n = 1 << 20;
  char *name = malloc(n + 1);
  CHV_REQUIRE(name != NULL);
  memset(name, 't', n);
  name[n] = '\0';
  struct chv_error err;
  chv_error_set(&err, CHV_ENOENT, "table default.%s does not exist", name);
  CHV_CHECK_CONTAINS(err.msg, "table default.tttt");
  CHV_CHECK_CONTAINS(err.msg, "tttt\xe2\x80\xa6tttt");
  CHV_CHECK_CONTAINS(err.msg, "tttt (1048576 bytes) does not exist");
  CHV_CHECK(strlen(err.msg) < 200);
  /* a precision bounds the text first; %% and the other conversions */
  chv_error_set(&err, CHV_EINVAL, "%.*s|%5.2f|%-4d|%lld|%zu|%c|%x|%%|%8s|%.3s",
                300, name, 1.5, 7, -9LL, (size_t)12, 'z', 255u, "ab", "abcdef");
  CHV_CHECK_CONTAINS(err.msg, "tttt (300 bytes)| 1.50|7   |-9|12|z|ff|%|      ab|abc");
  /* a short name stays whole */
  chv_error_set(&err, CHV_EINVAL, "column '%s' %*s", "abc", 3, "x");
  CHV_CHECK_STREQ(err.msg, "column 'abc'   x");
  /* context added in front of a full message keeps the message's end */
  char big[CHV_ERROR_MSG_SIZE];
  memset(big, 'p', sizeof big - 1);
  big[sizeof big - 1] = '\0';
  chv_error_set(&err, CHV_EIO, "%.200s and %.200s and %.200s and %.200s and "
                "%.200s: disk full", big, big, big, big, big);
  CHV_CHECK_CONTAINS(err.msg, ": disk full");
  chv_error_wrap(&err, "writing %.200s and %.200s", big, big);
  CHV_CHECK_CONTAINS(err.msg, ": disk full");
  CHV_CHECK(strncmp(err.msg, "writing ppp", 11) == 0);
  CHV_CHECK(strlen(err.msg) < CHV_ERROR_MSG_SIZE);
  chv_error_errno(&err, ENAMETOOLONG, "mkdirs /wh/%s", name);
  CHV_CHECK_CONTAINS(err.msg, "(1048576 bytes): ");
  CHV_CHECK_CONTAINS(err.msg, strerror(ENAMETOOLONG));
  free(name);
}

static void test_abbrev(void) {
  char buf[CHV_ABBREV_SIZE];
  CHV_CHECK_STREQ(chv_str_abbrev("abcdef", 3, buf), "abc");
  /* cuts fall between UTF-8 characters: 300 two-byte characters */
  char s[600];
  for (int i = 0; i < 300; i++) memcpy(s + 2 * i, "\xc3\xa9", 2);
  const char *a = chv_str_abbrev(s, sizeof s, buf);
  CHV_CHECK_CONTAINS(a, "\xc3\xa9\xe2\x80\xa6\xc3\xa9");
  CHV_CHECK_CONTAINS(a, " (600 bytes)");
  CHV_CHECK_EQ_INT((int)chv_utf8_floor(s, sizeof s, 65), 64);
  CHV_CHECK_EQ_INT((int)chv_utf8_floor(s, sizeof s, 700), 600);
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

CHV_TEST_MAIN("common", test_error_set_and_wrap, test_error_long_names,
              test_abbrev, test_alloc_failure_injection,
              test_buf, test_arena, test_strings)
