/* Scratch blocks: a block given back is the one taken next when it is
** large enough (best fit), small blocks are not kept, the cache is per
** thread and freed at thread exit, and allocation failures show. */
#include "chv_test.h"
#include "common/common.h"

#include <pthread.h>

static void test_reuse_best_fit(void) {
  chv_scratch_release();
  size_t ca, cb;
  void *a = chv_scratch_take(100000, &ca);
  void *b = chv_scratch_take(300000, &cb);
  CHV_REQUIRE(a != NULL && b != NULL);
  CHV_CHECK(ca >= 100000 && cb >= 300000);
  memset(a, 1, ca);
  memset(b, 2, cb);
  chv_scratch_give(b, cb);
  chv_scratch_give(a, ca);
  size_t c1;
  void *x = chv_scratch_take(90000, &c1); /* the smaller one fits */
  CHV_CHECK(x == a && c1 == ca);
  size_t c2;
  void *y = chv_scratch_take(ca + 1, &c2); /* only the larger does */
  CHV_CHECK(y == b && c2 == cb);
  size_t c3;
  void *z = chv_scratch_take(cb + 1, &c3); /* none: a new block */
  CHV_REQUIRE(z != NULL);
  CHV_CHECK(z != a && z != b && c3 > cb);
  chv_scratch_give(x, c1);
  chv_scratch_give(y, c2);
  chv_scratch_give(z, c3);
  chv_scratch_give(NULL, 0);
  chv_scratch_release();
}

static void test_small_not_kept(void) {
  chv_scratch_release();
  size_t c;
  void *p = chv_scratch_take(100, &c);
  CHV_REQUIRE(p != NULL);
  CHV_CHECK(c >= 100);
  chv_scratch_give(p, c); /* freed */
  chv_alloc_fail_after(1);
  void *q = chv_scratch_take(100, &c); /* so this one allocates, and fails */
  chv_alloc_fail_after(0);
  CHV_CHECK(q == NULL);
}

static void test_many_blocks(void) {
  chv_scratch_release();
  enum { N = 80 };
  void *p[N];
  size_t c[N];
  for (int i = 0; i < N; i++) {
    p[i] = chv_scratch_take((size_t)(i + 1) << 16, &c[i]);
    CHV_REQUIRE(p[i] != NULL);
  }
  for (int i = 0; i < N; i++) chv_scratch_give(p[i], c[i]); /* some freed */
  for (int i = 0; i < N; i++) {
    p[i] = chv_scratch_take((size_t)(N - i) << 16, &c[i]);
    CHV_REQUIRE(p[i] != NULL);
    memset(p[i], 0, c[i]);
  }
  for (int i = 0; i < N; i++) chv_scratch_give(p[i], c[i]);
  chv_scratch_release();
}

static void *thread_main(void *arg) {
  size_t c;
  void *p = chv_scratch_take(200000, &c);
  if (p) chv_scratch_give(p, c); /* cached, freed when the thread exits */
  *(bool *)arg = p != NULL;
  return NULL;
}

static void test_thread_exit(void) {
  bool ok = false;
  pthread_t t;
  CHV_REQUIRE(pthread_create(&t, NULL, thread_main, &ok) == 0);
  pthread_join(t, NULL);
  CHV_CHECK(ok);
}

CHV_TEST_MAIN("scratch", test_reuse_best_fit, test_small_not_kept,
              test_many_blocks, test_thread_exit)
