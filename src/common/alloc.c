/*
** Allocation through replaceable hooks, so that an embedding program can use
** its own allocator and tests can make the Nth allocation fail and check that
** every caller turns that into CHV_ENOMEM and leaves its inputs as they were.
*/
#include "common.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

static struct chv_alloc_hooks hooks = {malloc, realloc, free};
static atomic_long fail_countdown; /* 0 = never fail */

void chv_alloc_set_hooks(const struct chv_alloc_hooks *h) {
  chv_scratch_release(); /* its blocks came from the hooks replaced */
  if (h == NULL) {
    hooks.malloc_fn = malloc;
    hooks.realloc_fn = realloc;
    hooks.free_fn = free;
  } else {
    hooks = *h;
  }
}

void chv_alloc_fail_after(long n) { atomic_store(&fail_countdown, n); }

/* True when the injected failure is due now. */
static bool should_fail(void) {
  long n = atomic_load(&fail_countdown);
  if (n <= 0) return false;
  n = atomic_fetch_sub(&fail_countdown, 1);
  return n == 1;
}

void *chv_malloc(size_t n) {
  if (should_fail()) return NULL;
  return hooks.malloc_fn(n ? n : 1);
}

void *chv_calloc(size_t count, size_t n) {
  if (n != 0 && count > SIZE_MAX / n) return NULL;
  void *p = chv_malloc(count * n);
  if (p) memset(p, 0, count * n);
  return p;
}

void *chv_realloc(void *p, size_t n) {
  if (should_fail()) return NULL;
  return hooks.realloc_fn(p, n ? n : 1);
}

void chv_free(void *p) {
  if (p) hooks.free_fn(p);
}

char *chv_strndup(const char *s, size_t n) {
  char *d = chv_malloc(n + 1);
  if (d == NULL) return NULL;
  memcpy(d, s, n);
  d[n] = '\0';
  return d;
}

char *chv_strdup(const char *s) { return chv_strndup(s, strlen(s)); }

char *chv_asprintf(const char *fmt, ...) {
  va_list ap, ap2;
  va_start(ap, fmt);
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  char *s = n < 0 ? NULL : chv_malloc((size_t)n + 1);
  if (s) vsnprintf(s, (size_t)n + 1, fmt, ap2);
  va_end(ap2);
  return s;
}
