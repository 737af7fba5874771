/* The thread pool: every index runs once, errors are the lowest failing
** index's whatever the scheduling, loops run back to back, one thread. */
#include "chv_test.h"
#include "common/common.h"

#include <stdatomic.h>
#include <unistd.h>

struct counts {
  atomic_int hits[1000];
  int64_t fail_from; /* indexes >= this fail (with their number) */
};

static int count_fn(void *arg, int64_t i, struct chv_error *err) {
  struct counts *c = arg;
  atomic_fetch_add(&c->hits[i], 1);
  if (i % 97 == 0) usleep(200); /* uneven work */
  if (i >= c->fail_from)
    return chv_error_set(err, CHV_EINVAL, "index %lld failed", (long long)i);
  return CHV_OK;
}

static void test_every_index_once(void) {
  for (int threads = 1; threads <= 4; threads++) {
    chv_pool *p;
    struct chv_error err;
    CHV_REQUIRE_OK(chv_pool_open(threads, &p, &err), &err);
    CHV_CHECK_EQ_INT(chv_pool_threads(p), threads);
    for (int round = 0; round < 20; round++) {
      static struct counts c;
      memset(&c, 0, sizeof c);
      c.fail_from = 1000;
      int64_t n = 1 + round * 49;
      CHV_CHECK_EQ_INT(chv_pool_for(p, n, count_fn, &c, &err), CHV_OK);
      for (int64_t i = 0; i < 1000; i++)
        CHV_CHECK_EQ_INT(atomic_load(&c.hits[i]), i < n ? 1 : 0);
    }
    chv_pool_close(p);
  }
}

static void test_lowest_error_wins(void) {
  chv_pool *p;
  struct chv_error err;
  CHV_REQUIRE_OK(chv_pool_open(3, &p, &err), &err);
  for (int round = 0; round < 30; round++) {
    static struct counts c;
    memset(&c, 0, sizeof c);
    c.fail_from = 100 + round;
    chv_error_clear(&err);
    CHV_CHECK_EQ_INT(chv_pool_for(p, 1000, count_fn, &c, &err), CHV_EINVAL);
    char want[64];
    snprintf(want, sizeof want, "index %d failed", 100 + round);
    CHV_CHECK_STREQ(err.msg, want);
  }
  /* the pool goes on after a failed loop */
  static struct counts ok;
  memset(&ok, 0, sizeof ok);
  ok.fail_from = 1000;
  CHV_CHECK_EQ_INT(chv_pool_for(p, 10, count_fn, &ok, &err), CHV_OK);
  CHV_CHECK_EQ_INT(chv_pool_for(p, 0, count_fn, &ok, &err), CHV_OK);
  chv_pool_close(p);
}

static void test_open_close_idle(void) {
  for (int i = 0; i < 50; i++) {
    chv_pool *p;
    struct chv_error err;
    CHV_REQUIRE_OK(chv_pool_open(1 + i % 5, &p, &err), &err);
    chv_pool_close(p);
  }
  chv_pool_close(NULL);
}

CHV_TEST_MAIN("pool", test_every_index_once, test_lowest_error_wins,
              test_open_close_idle)
