/*
** A pool of worker threads that run parallel loops: chv_pool_for(p, n, fn)
** calls fn for every index of [0, n) on the pool's threads and the caller's
** own, and returns when all are done.  Indexes are handed out one at a time
** through an atomic counter, so uneven work balances itself.  The status is
** the one of the lowest failing index (its error message too), whatever
** the order the threads ran in, so that a failure reads the same on every
** run; indexes above a failure may still run, and their results are
** ignored.  One loop runs at a time on a pool (callers serialize).
**
** Workers sleep on a condition variable between loops; chv_pool_close()
** wakes them to exit and joins them.
**
** Also here: the thread slot of the calling thread (chv_thread_slot()), a
** thread-local number that parallel stages give their threads.
*/
#include "common/common.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

struct chv_pool {
  int nthreads;      /* workers, not counting the caller */
  pthread_t *threads;
  pthread_mutex_t mu;
  pthread_cond_t work;   /* a loop started, or closing */
  pthread_cond_t done;   /* a worker finished its part of the loop */
  uint64_t generation;   /* counts loops; workers wait for a new one */
  bool closing;
  int busy;              /* workers inside the current loop */
  /* the current loop */
  int64_t n;
  atomic_int_fast64_t next;
  chv_pool_fn fn;
  void *arg;
  int64_t fail_index;    /* lowest failing index, or n */
  struct chv_error fail_err;
};

/* Runs indexes of the current loop until none is left. */
static void run_loop(chv_pool *p) {
  for (;;) {
    int64_t i = atomic_fetch_add(&p->next, 1);
    if (i >= p->n) return;
    struct chv_error e;
    chv_error_clear(&e);
    int rc = p->fn(p->arg, i, &e);
    if (rc != CHV_OK) {
      if (e.code == CHV_OK) e.code = rc;
      pthread_mutex_lock(&p->mu);
      if (i < p->fail_index) {
        p->fail_index = i;
        p->fail_err = e;
      }
      pthread_mutex_unlock(&p->mu);
    }
  }
}

static void *worker(void *arg) {
  chv_pool *p = arg;
  uint64_t seen = 0;
  pthread_mutex_lock(&p->mu);
  for (;;) {
    while (!p->closing && p->generation == seen)
      pthread_cond_wait(&p->work, &p->mu);
    if (p->closing) break;
    seen = p->generation;
    p->busy++;
    pthread_mutex_unlock(&p->mu);
    run_loop(p);
    pthread_mutex_lock(&p->mu);
    if (--p->busy == 0) pthread_cond_signal(&p->done);
  }
  pthread_mutex_unlock(&p->mu);
  chv_scratch_release(); /* the blocks the loops' work kept */
  return NULL;
}

int chv_pool_open(int nthreads, chv_pool **out, struct chv_error *err) {
  *out = NULL;
  if (nthreads < 1) nthreads = 1;
  chv_pool *p = chv_calloc(1, sizeof *p);
  if (p == NULL) return chv_error_set(err, CHV_ENOMEM, "out of memory");
  p->nthreads = nthreads - 1; /* the caller is one of them */
  p->threads = chv_calloc((size_t)p->nthreads + 1, sizeof *p->threads);
  if (p->threads == NULL) {
    chv_free(p);
    return chv_error_set(err, CHV_ENOMEM, "out of memory");
  }
  pthread_mutex_init(&p->mu, NULL);
  pthread_cond_init(&p->work, NULL);
  pthread_cond_init(&p->done, NULL);
  for (int i = 0; i < p->nthreads; i++) {
    int rc = pthread_create(&p->threads[i], NULL, worker, p);
    if (rc != 0) {
      p->nthreads = i;
      chv_pool_close(p);
      return chv_error_set(err, CHV_EIO, "cannot start a thread: %s",
                           strerror(rc));
    }
  }
  *out = p;
  return CHV_OK;
}

int chv_pool_threads(const chv_pool *p) { return p->nthreads + 1; }

int chv_pool_for(chv_pool *p, int64_t n, chv_pool_fn fn, void *arg,
                 struct chv_error *err) {
  if (n <= 0) return CHV_OK;
  pthread_mutex_lock(&p->mu);
  /* a worker that woke late for the previous loop may still be leaving it;
  ** the loop's fields change only when none is inside */
  while (p->busy > 0) pthread_cond_wait(&p->done, &p->mu);
  p->n = n;
  atomic_store(&p->next, 0);
  p->fn = fn;
  p->arg = arg;
  p->fail_index = n;
  chv_error_clear(&p->fail_err);
  if (p->nthreads > 0 && n > 1) {
    p->generation++;
    pthread_cond_broadcast(&p->work);
  }
  pthread_mutex_unlock(&p->mu);
  run_loop(p);
  pthread_mutex_lock(&p->mu);
  /* workers that woke are counted in busy before they take an index; one
  ** that has not woken yet finds the counter past n and leaves at once */
  while (p->busy > 0) pthread_cond_wait(&p->done, &p->mu);
  int64_t fi = p->fail_index;
  struct chv_error fe = p->fail_err;
  pthread_mutex_unlock(&p->mu);
  if (fi < n) {
    if (err) *err = fe;
    return fe.code;
  }
  return CHV_OK;
}

void chv_pool_close(chv_pool *p) {
  if (p == NULL) return;
  pthread_mutex_lock(&p->mu);
  p->closing = true;
  pthread_cond_broadcast(&p->work);
  pthread_mutex_unlock(&p->mu);
  for (int i = 0; i < p->nthreads; i++) pthread_join(p->threads[i], NULL);
  pthread_cond_destroy(&p->work);
  pthread_cond_destroy(&p->done);
  pthread_mutex_destroy(&p->mu);
  chv_free(p->threads);
  chv_free(p);
}

/* ---- thread slots -------------------------------------------------------- */

static _Thread_local int thread_slot;

void chv_thread_set_slot(int slot) { thread_slot = slot; }
int chv_thread_slot(void) { return thread_slot; }
