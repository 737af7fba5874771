/*
** common: the base layer every other module of chive stands on.
**
** INTERFACE
**   chv_error_set()    raise: fill a struct chv_error and return its code
**   chv_error_wrap()   add context ("footer of %s: ") in front of a message
**   chv_malloc() ...   allocation through replaceable hooks (tests fail the Nth)
**   chv_scratch_take() large buffers cached per thread between uses
**   struct chv_buf     a growable byte buffer
**   chv_arena          a bump allocator released all at once
**   struct chv_hll     distinct counts: exact while small, then HyperLogLog
**
** The parts a library user needs (allocation hooks, struct chv_buf,
** chv_arena, chv_error_clear) are declared in the public include/chive/common.h,
** included here; this header adds what only the modules use.
**
** Thread safety: the allocation hooks are global and must be set before any
** other thread calls into the library; everything else is per object.
*/
#ifndef CHV_COMMON_H
#define CHV_COMMON_H

#include "chive/common.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define CHV_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define CHV_MIN(a, b) ((a) < (b) ? (a) : (b))
#define CHV_MAX(a, b) ((a) > (b) ? (a) : (b))

#if defined(__GNUC__)
#define CHV_LIKELY(x) __builtin_expect(!!(x), 1)
#define CHV_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define CHV_LIKELY(x) (x)
#define CHV_UNLIKELY(x) (x)
#endif

/* ---- errors ------------------------------------------------------------ */

/* (chv_error_set() and chv_error_wrap(): chive/common.h) */
int chv_error_setv(struct chv_error *err, int code, const char *fmt,
                   va_list ap);


/* Error for a failed system call: maps errno to a status and appends
** strerror(errno) to the formatted context. */
int chv_error_errno(struct chv_error *err, int errnum, const char *fmt, ...)
    CHV_PRINTF(3, 4);

#define CHV_RETURN_IF_ERR(expr)                                               \
  do {                                                                        \
    int chv_rc_ = (expr);                                                     \
    if (chv_rc_ != CHV_OK) return chv_rc_;                                    \
  } while (0)

/* Our own invariants only; bytes from outside are validated, not asserted. */
#ifdef NDEBUG
#define CHV_ASSERT(x) ((void)0)
#else
#include <assert.h>
#define CHV_ASSERT(x) assert(x)
#endif

/* ---- allocation -------------------------------------------------------- */

/* Test support: make the Nth allocation from now fail (0 disables). */
void chv_alloc_fail_after(long n);

/* printf into a fresh chv_malloc'd string; NULL on failure. */
char *chv_asprintf(const char *fmt, ...) CHV_PRINTF(1, 2);

/* Scratch blocks (scratch.c): large buffers kept in a per-thread cache
** between uses, so that a scan's next file reuses its last file's memory
** instead of faulting in fresh pages.  take: a block of at least n bytes
** (*cap = its size; what it held is garbage), NULL when out of memory;
** give: the block back (p may be NULL; cap as take said), kept or freed;
** release: free the calling thread's cached blocks (also done at thread
** exit and when the allocation hooks change).  Thread safety: per thread,
** no locks; a block may be given back on any thread. */
void *chv_scratch_take(size_t n, size_t *cap);
void chv_scratch_give(void *p, size_t cap);
void chv_scratch_release(void);

/* ---- growable byte buffer --------------------------------------------- */

/* (struct chv_buf and its functions: chive/common.h) */

/* ---- strings ----------------------------------------------------------- */

bool chv_str_ieq(const char *a, const char *b);
bool chv_str_nieq(const char *a, const char *b, size_t n);
/* Trim ASCII white space in place, returning the start within s. */
char *chv_str_trim(char *s);

/* (chv_str_abbrev(), chv_utf8_floor(), CHV_ABBREV_*: chive/common.h) */

/* ---- thread pool (pool.c) --------------------------------------------- */

/* Parallel loops over worker threads.  fn is called once per index of
** [0, n) with a cleared error; a failure's status and message (the lowest
** failing index's) become chv_pool_for()'s. */
typedef struct chv_pool chv_pool;
typedef int (*chv_pool_fn)(void *arg, int64_t i, struct chv_error *err);
/* nthreads counts the caller: 1 runs loops on the caller alone. */
int chv_pool_open(int nthreads, chv_pool **out, struct chv_error *err);
int chv_pool_threads(const chv_pool *p);
int chv_pool_for(chv_pool *p, int64_t n, chv_pool_fn fn, void *arg,
                 struct chv_error *err);
void chv_pool_close(chv_pool *p);

/* The calling thread's slot among the threads of a parallel stage: the
** reader threads of a scan number themselves 0, 1, ... as they start; any
** other thread is slot 0.  A sink gives each slot its own writer, so the
** files of a write follow the stage's threads, whichever threads they are
** (connector/sink.c). */
void chv_thread_set_slot(int slot);
int chv_thread_slot(void);

/* ---- distinct counts (hll.c) ------------------------------------------ */

/* A 64-bit hash of n bytes (seeded, well mixed, the same on every
** machine). */
uint64_t chv_hash64(const void *p, size_t n, uint64_t seed);

/* A distinct-value counter: exact (a set of 64-bit hashes) up to
** CHV_HLL_EXACT values, then a HyperLogLog of 2^CHV_HLL_P registers of
** one byte (16 KiB), whose standard error is 1.04 / sqrt(2^P) = 0.81%.
** Counters merge (the union of their values).  Zeroed it is empty. */
#define CHV_HLL_P 14
#define CHV_HLL_EXACT 1024
struct chv_hll {
  uint64_t *set;  /* exact: open addressing, 0 = empty slot (hash 0 is
                     stored as 1), cap slots */
  uint32_t n;     /* values in set */
  uint32_t cap;
  uint8_t *reg;   /* dense: 2^P registers, or NULL while exact */
};
/* Adds a value by its hash; CHV_ENOMEM. */
int chv_hll_add(struct chv_hll *h, uint64_t hash);
/* The estimated number of distinct values added. */
int64_t chv_hll_count(const struct chv_hll *h);
/* dst = dst ∪ src; CHV_ENOMEM. */
int chv_hll_merge(struct chv_hll *dst, const struct chv_hll *src);
void chv_hll_free(struct chv_hll *h);
/* A byte form: "CHLL" 1, then 'E' u32 count, that many u64 (little
** endian), or 'D' and the 2^P registers.  *out: chv_free. */
int chv_hll_serialize(const struct chv_hll *h, unsigned char **out,
                      size_t *len);
/* Reads that form into an empty *h; CHV_ECORRUPT (err names it) for bytes
** that are not one. */
int chv_hll_deserialize(const unsigned char *p, size_t len,
                        struct chv_hll *h, struct chv_error *err);

/* ---- time -------------------------------------------------------------- */

/* Wall-clock milliseconds since the epoch, and a monotonic clock in ns. */
int64_t chv_time_now_ms(void);
int64_t chv_time_mono_ns(void);

#endif /* CHV_COMMON_H */
