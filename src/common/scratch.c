/*
** Scratch blocks: large buffers a thread frees and soon needs again, kept in
** a small per-thread cache instead of going back to malloc.
**
** A scan opens a reader per file and each reader allocates its column chunk
** and page buffers anew (hundreds of KiB to MiB each).  Freed, such blocks
** go back to the system (glibc trims the heap top or unmaps them), and the
** next file's reader takes every page of its buffers as a fresh page fault
** and writes to memory that is not in any cache; with a few files a second
** that was a quarter of a Parquet scan.  chv_scratch_take() hands out the
** smallest cached block that is large enough (else a new one, rounded up so
** that the next file's slightly larger chunk still fits it), and
** chv_scratch_give() keeps a block for the next taker, up to
** SCRATCH_BLOCKS blocks and SCRATCH_BYTES bytes a thread; blocks below
** SCRATCH_MIN are freed at once (malloc reuses those well).
**
** The cache is per thread (thread-local), so take and give never lock; a
** block may be given back on another thread than it was taken on.  A
** thread's blocks are freed when it exits, by chv_scratch_release(), and
** when the allocation hooks change (the blocks came from the old ones).
** Under ASan cached blocks are poisoned, so that a use after giving one
** back is reported as it would be after free().
**
** INTERFACE: chv_scratch_take(), chv_scratch_give(), chv_scratch_release()
** (common.h).
*/
#include "asan.h"
#include "common.h"

#include <pthread.h>

#define SCRATCH_BLOCKS 32                  /* blocks cached per thread */
#define SCRATCH_BYTES ((size_t)128 << 20)  /* bytes cached per thread */
#define SCRATCH_MIN ((size_t)64 << 10)     /* smaller blocks are not kept */

struct scratch_cache {
  void *p[SCRATCH_BLOCKS];
  size_t cap[SCRATCH_BLOCKS]; /* bytes of p[i] */
  int n;                      /* blocks held */
  size_t bytes;               /* their total size */
  bool keyed;                 /* registered for freeing at thread exit */
};

static _Thread_local struct scratch_cache cache;
static pthread_key_t exit_key;
static pthread_once_t exit_once = PTHREAD_ONCE_INIT;
static bool exit_key_ok;

static void cache_free(struct scratch_cache *c) {
  for (int i = 0; i < c->n; i++) {
    UNPOISON(c->p[i], c->cap[i]);
    chv_free(c->p[i]);
  }
  c->n = 0;
  c->bytes = 0;
}

static void on_thread_exit(void *arg) { cache_free(arg); }

static void make_exit_key(void) {
  exit_key_ok = pthread_key_create(&exit_key, on_thread_exit) == 0;
}

void *chv_scratch_take(size_t n, size_t *cap) {
  struct scratch_cache *c = &cache;
  int best = -1;
  for (int i = 0; i < c->n; i++)
    if (c->cap[i] >= n && (best < 0 || c->cap[i] < c->cap[best])) best = i;
  if (best >= 0) {
    void *p = c->p[best];
    *cap = c->cap[best];
    c->bytes -= c->cap[best];
    c->n--;
    c->p[best] = c->p[c->n];
    c->cap[best] = c->cap[c->n];
    UNPOISON(p, *cap);
    return p;
  }
  size_t want = n;
  if (n >= SCRATCH_MIN) {
    /* An eighth more, to the next 4 KiB: chunks of one column differ
    ** slightly from row group to row group. */
    size_t more = n / 8 + 4095;
    want = n + more < n ? n : (n + more) & ~(size_t)4095;
  }
  void *p = chv_malloc(want);
  if (p != NULL) *cap = want;
  return p;
}

void chv_scratch_give(void *p, size_t cap) {
  if (p == NULL) return;
  struct scratch_cache *c = &cache;
  if (cap < SCRATCH_MIN || cap > SCRATCH_BYTES) {
    chv_free(p);
    return;
  }
  /* Make room by dropping the smallest blocks, while they are smaller. */
  while (c->n > 0 &&
         (c->n == SCRATCH_BLOCKS || c->bytes + cap > SCRATCH_BYTES)) {
    int s = 0;
    for (int i = 1; i < c->n; i++)
      if (c->cap[i] < c->cap[s]) s = i;
    if (c->cap[s] >= cap) break;
    UNPOISON(c->p[s], c->cap[s]);
    chv_free(c->p[s]);
    c->bytes -= c->cap[s];
    c->n--;
    c->p[s] = c->p[c->n];
    c->cap[s] = c->cap[c->n];
  }
  if (c->n == SCRATCH_BLOCKS || c->bytes + cap > SCRATCH_BYTES) {
    chv_free(p);
    return;
  }
  if (!c->keyed) {
    pthread_once(&exit_once, make_exit_key);
    if (!exit_key_ok || pthread_setspecific(exit_key, c) != 0) {
      chv_free(p); /* could not free it at exit: do not keep it */
      return;
    }
    c->keyed = true;
  }
  POISON(p, cap);
  c->p[c->n] = p;
  c->cap[c->n] = cap;
  c->n++;
  c->bytes += cap;
}

void chv_scratch_release(void) { cache_free(&cache); }
