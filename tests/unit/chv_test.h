/*
** A minimal unit-test harness: each test file lists its tests in one table
** and calls CHV_TEST_MAIN.  Checks record a failure with file and line and
** let the test go on; a failed CHV_REQUIRE returns from the test.
**
**   static void test_parse(void) { CHV_CHECK(x == 1); }
**   CHV_TEST_MAIN("types", test_parse, test_format)
*/
#ifndef CHV_TEST_H
#define CHV_TEST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <inttypes.h>
#include <unistd.h>

#include "chive/chive.h"

static inline const char *chv_test_msg_(const struct chv_error *e) {
  return e ? e->msg : "";
}

static int chv_test_failed_;

#define CHV_CHECK(cond)                                                       \
  do {                                                                        \
    if (!(cond)) {                                                            \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
      chv_test_failed_ = 1;                                                   \
    }                                                                         \
  } while (0)

#define CHV_REQUIRE(cond)                                                     \
  do {                                                                        \
    if (!(cond)) {                                                            \
      fprintf(stderr, "%s:%d: requirement failed: %s\n", __FILE__, __LINE__,  \
              #cond);                                                         \
      chv_test_failed_ = 1;                                                   \
      return;                                                                 \
    }                                                                         \
  } while (0)

/* expr must return CHV_OK; prints err->msg otherwise (err may be NULL). */
#define CHV_CHECK_OK(expr, errp)                                              \
  do {                                                                        \
    int chv_t_rc_ = (expr);                                                   \
    if (chv_t_rc_ != 0) {                                                     \
      fprintf(stderr, "%s:%d: %s returned %d: %s\n", __FILE__, __LINE__,      \
              #expr, chv_t_rc_, chv_test_msg_(errp));                   \
      chv_test_failed_ = 1;                                                   \
    }                                                                         \
  } while (0)

#define CHV_REQUIRE_OK(expr, errp)                                            \
  do {                                                                        \
    int chv_t_rc_ = (expr);                                                   \
    if (chv_t_rc_ != 0) {                                                     \
      fprintf(stderr, "%s:%d: %s returned %d: %s\n", __FILE__, __LINE__,      \
              #expr, chv_t_rc_, chv_test_msg_(errp));                   \
      chv_test_failed_ = 1;                                                   \
      return;                                                                 \
    }                                                                         \
  } while (0)

#define CHV_CHECK_EQ_INT(a, b)                                                \
  do {                                                                        \
    long long chv_t_a_ = (long long)(a), chv_t_b_ = (long long)(b);           \
    if (chv_t_a_ != chv_t_b_) {                                               \
      fprintf(stderr, "%s:%d: %s == %s failed: %lld != %lld\n", __FILE__,     \
              __LINE__, #a, #b, chv_t_a_, chv_t_b_);                          \
      chv_test_failed_ = 1;                                                   \
    }                                                                         \
  } while (0)

#define CHV_CHECK_STREQ(a, b)                                                 \
  do {                                                                        \
    const char *chv_t_a_ = (a), *chv_t_b_ = (b);                              \
    if (chv_t_a_ == NULL || chv_t_b_ == NULL || strcmp(chv_t_a_, chv_t_b_)) { \
      fprintf(stderr, "%s:%d: %s == %s failed: \"%s\" != \"%s\"\n", __FILE__, \
              __LINE__, #a, #b, chv_t_a_ ? chv_t_a_ : "(null)",               \
              chv_t_b_ ? chv_t_b_ : "(null)");                                \
      chv_test_failed_ = 1;                                                   \
    }                                                                         \
  } while (0)

/* The message contains the given substring. */
#define CHV_CHECK_CONTAINS(hay, needle)                                       \
  do {                                                                        \
    const char *chv_t_h_ = (hay), *chv_t_n_ = (needle);                       \
    if (chv_t_h_ == NULL || strstr(chv_t_h_, chv_t_n_) == NULL) {             \
      fprintf(stderr, "%s:%d: \"%s\" does not contain \"%s\"\n", __FILE__,    \
              __LINE__, chv_t_h_ ? chv_t_h_ : "(null)", chv_t_n_);            \
      chv_test_failed_ = 1;                                                   \
    }                                                                         \
  } while (0)

struct chv_test_case {
  const char *name;
  void (*fn)(void);
};

/* Source tree root (for ../shared/fixtures and golden files). */
static inline const char *chv_test_source_dir(void) {
  const char *s = getenv("CHV_SOURCE_DIR");
  return s ? s : ".";
}

/* The format fixtures folder (shared/fixtures: parquet/, orc/), as CMake
** found it; a test that needs it and finds it missing exits 77 (skipped). */
static inline const char *chv_test_fixtures(void) {
  const char *s = getenv("CHV_FIXTURES_DIR");
  if (s && *s) return s;
  fprintf(stderr, "# the format fixtures were not found; skipped\n");
  exit(77);
}

/* A fresh empty folder under $TMPDIR for this test; the caller may leave it
** behind (it is removed at the end of a passing run). */
static char chv_test_tmp_root_[512];
static inline const char *chv_test_tmpdir(void) {
  static int counter;
  static char path[600];
  if (chv_test_tmp_root_[0] == '\0') {
    const char *t = getenv("TMPDIR");
    snprintf(chv_test_tmp_root_, sizeof chv_test_tmp_root_, "%s/chv-test-XXXXXX",
             t ? t : "/tmp");
    if (mkdtemp(chv_test_tmp_root_) == NULL) {
      perror("mkdtemp");
      exit(2);
    }
  }
  snprintf(path, sizeof path, "%s/t%d", chv_test_tmp_root_, ++counter);
  char cmd[700];
  snprintf(cmd, sizeof cmd, "mkdir -p '%s'", path);
  if (system(cmd) != 0) exit(2);
  return path;
}

static inline int chv_test_run_(const char *suite,
                                const struct chv_test_case *cases, size_t n,
                                int argc, char **argv) {
  int passed = 0, failed = 0;
  for (size_t i = 0; i < n; i++) {
    if (argc > 1 && strstr(cases[i].name, argv[1]) == NULL) continue;
    chv_test_failed_ = 0;
    cases[i].fn();
    if (chv_test_failed_) {
      printf("not ok - %s.%s\n", suite, cases[i].name);
      failed++;
    } else {
      printf("ok - %s.%s\n", suite, cases[i].name);
      passed++;
    }
  }
  printf("%s: %d passed, %d failed\n", suite, passed, failed);
  if (failed == 0 && chv_test_tmp_root_[0]) {
    char cmd[700];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", chv_test_tmp_root_);
    if (system(cmd) != 0) return 1;
  }
  return failed ? 1 : 0;
}

#define CHV_TC_(fn) {#fn, fn},
#define CHV_TEST_MAIN(suite, ...)                                             \
  int main(int argc, char **argv) {                                           \
    static const struct chv_test_case cases[] = {CHV_TEST_FOREACH_(CHV_TC_, __VA_ARGS__)}; \
    return chv_test_run_(suite, cases, sizeof cases / sizeof cases[0], argc,  \
                         argv);                                               \
  }

/* Expand M(x) for up to 64 arguments. */
#define CHV_TEST_FOREACH_(M, ...) CHV_TFE_N_(__VA_ARGS__, CHV_TFE_SEQ_)(M, __VA_ARGS__)
#define CHV_TFE_N_(...) CHV_TFE_PICK_(__VA_ARGS__)
#define CHV_TFE_PICK_(_1,_2,_3,_4,_5,_6,_7,_8,_9,_10,_11,_12,_13,_14,_15,_16,_17,_18,_19,_20,_21,_22,_23,_24,_25,_26,_27,_28,_29,_30,_31,_32,_33,_34,_35,_36,_37,_38,_39,_40,_41,_42,_43,_44,_45,_46,_47,_48,N,...) CHV_TFE_##N
#define CHV_TFE_SEQ_ 48,47,46,45,44,43,42,41,40,39,38,37,36,35,34,33,32,31,30,29,28,27,26,25,24,23,22,21,20,19,18,17,16,15,14,13,12,11,10,9,8,7,6,5,4,3,2,1
#define CHV_TFE_1(M,a) M(a)
#define CHV_TFE_2(M,a,...) M(a) CHV_TFE_1(M,__VA_ARGS__)
#define CHV_TFE_3(M,a,...) M(a) CHV_TFE_2(M,__VA_ARGS__)
#define CHV_TFE_4(M,a,...) M(a) CHV_TFE_3(M,__VA_ARGS__)
#define CHV_TFE_5(M,a,...) M(a) CHV_TFE_4(M,__VA_ARGS__)
#define CHV_TFE_6(M,a,...) M(a) CHV_TFE_5(M,__VA_ARGS__)
#define CHV_TFE_7(M,a,...) M(a) CHV_TFE_6(M,__VA_ARGS__)
#define CHV_TFE_8(M,a,...) M(a) CHV_TFE_7(M,__VA_ARGS__)
#define CHV_TFE_9(M,a,...) M(a) CHV_TFE_8(M,__VA_ARGS__)
#define CHV_TFE_10(M,a,...) M(a) CHV_TFE_9(M,__VA_ARGS__)
#define CHV_TFE_11(M,a,...) M(a) CHV_TFE_10(M,__VA_ARGS__)
#define CHV_TFE_12(M,a,...) M(a) CHV_TFE_11(M,__VA_ARGS__)
#define CHV_TFE_13(M,a,...) M(a) CHV_TFE_12(M,__VA_ARGS__)
#define CHV_TFE_14(M,a,...) M(a) CHV_TFE_13(M,__VA_ARGS__)
#define CHV_TFE_15(M,a,...) M(a) CHV_TFE_14(M,__VA_ARGS__)
#define CHV_TFE_16(M,a,...) M(a) CHV_TFE_15(M,__VA_ARGS__)
#define CHV_TFE_17(M,a,...) M(a) CHV_TFE_16(M,__VA_ARGS__)
#define CHV_TFE_18(M,a,...) M(a) CHV_TFE_17(M,__VA_ARGS__)
#define CHV_TFE_19(M,a,...) M(a) CHV_TFE_18(M,__VA_ARGS__)
#define CHV_TFE_20(M,a,...) M(a) CHV_TFE_19(M,__VA_ARGS__)
#define CHV_TFE_21(M,a,...) M(a) CHV_TFE_20(M,__VA_ARGS__)
#define CHV_TFE_22(M,a,...) M(a) CHV_TFE_21(M,__VA_ARGS__)
#define CHV_TFE_23(M,a,...) M(a) CHV_TFE_22(M,__VA_ARGS__)
#define CHV_TFE_24(M,a,...) M(a) CHV_TFE_23(M,__VA_ARGS__)
#define CHV_TFE_25(M,a,...) M(a) CHV_TFE_24(M,__VA_ARGS__)
#define CHV_TFE_26(M,a,...) M(a) CHV_TFE_25(M,__VA_ARGS__)
#define CHV_TFE_27(M,a,...) M(a) CHV_TFE_26(M,__VA_ARGS__)
#define CHV_TFE_28(M,a,...) M(a) CHV_TFE_27(M,__VA_ARGS__)
#define CHV_TFE_29(M,a,...) M(a) CHV_TFE_28(M,__VA_ARGS__)
#define CHV_TFE_30(M,a,...) M(a) CHV_TFE_29(M,__VA_ARGS__)
#define CHV_TFE_31(M,a,...) M(a) CHV_TFE_30(M,__VA_ARGS__)
#define CHV_TFE_32(M,a,...) M(a) CHV_TFE_31(M,__VA_ARGS__)
#define CHV_TFE_33(M,a,...) M(a) CHV_TFE_32(M,__VA_ARGS__)
#define CHV_TFE_34(M,a,...) M(a) CHV_TFE_33(M,__VA_ARGS__)
#define CHV_TFE_35(M,a,...) M(a) CHV_TFE_34(M,__VA_ARGS__)
#define CHV_TFE_36(M,a,...) M(a) CHV_TFE_35(M,__VA_ARGS__)
#define CHV_TFE_37(M,a,...) M(a) CHV_TFE_36(M,__VA_ARGS__)
#define CHV_TFE_38(M,a,...) M(a) CHV_TFE_37(M,__VA_ARGS__)
#define CHV_TFE_39(M,a,...) M(a) CHV_TFE_38(M,__VA_ARGS__)
#define CHV_TFE_40(M,a,...) M(a) CHV_TFE_39(M,__VA_ARGS__)
#define CHV_TFE_41(M,a,...) M(a) CHV_TFE_40(M,__VA_ARGS__)
#define CHV_TFE_42(M,a,...) M(a) CHV_TFE_41(M,__VA_ARGS__)
#define CHV_TFE_43(M,a,...) M(a) CHV_TFE_42(M,__VA_ARGS__)
#define CHV_TFE_44(M,a,...) M(a) CHV_TFE_43(M,__VA_ARGS__)
#define CHV_TFE_45(M,a,...) M(a) CHV_TFE_44(M,__VA_ARGS__)
#define CHV_TFE_46(M,a,...) M(a) CHV_TFE_45(M,__VA_ARGS__)
#define CHV_TFE_47(M,a,...) M(a) CHV_TFE_46(M,__VA_ARGS__)
#define CHV_TFE_48(M,a,...) M(a) CHV_TFE_47(M,__VA_ARGS__)

#endif /* CHV_TEST_H */
