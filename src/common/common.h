/*
** common: the base layer every other module of chive stands on.
**
** INTERFACE
**   chv_error_set()    raise: fill a struct chv_error and return its code
**   chv_error_wrap()   add context ("footer of %s: ") in front of a message
**   chv_malloc() ...   allocation through replaceable hooks (tests fail the Nth)
**   struct chv_buf     a growable byte buffer
**   chv_arena          a bump allocator released all at once
**
** Thread safety: the allocation hooks are global and must be set before any
** other thread calls into the library; everything else is per object.
*/
#ifndef CHV_COMMON_H
#define CHV_COMMON_H

#include "chive/chive.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define CHV_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define CHV_MIN(a, b) ((a) < (b) ? (a) : (b))
#define CHV_MAX(a, b) ((a) > (b) ? (a) : (b))

#if defined(__GNUC__)
#define CHV_PRINTF(f, a) __attribute__((format(printf, f, a)))
#define CHV_LIKELY(x) __builtin_expect(!!(x), 1)
#define CHV_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define CHV_PRINTF(f, a)
#define CHV_LIKELY(x) (x)
#define CHV_UNLIKELY(x) (x)
#endif

/* ---- errors ------------------------------------------------------------ */

/* Fill err (may be NULL) with code, its SQLSTATE and the formatted message;
** returns code so callers can write `return chv_error_set(err, ...)`. */
int chv_error_set(struct chv_error *err, int code, const char *fmt, ...)
    CHV_PRINTF(3, 4);
int chv_error_setv(struct chv_error *err, int code, const char *fmt,
                   va_list ap);

/* Prefix the message already in err with formatted context and ": ".
** Returns err->code (or CHV_EINTERNAL when err is NULL). */
int chv_error_wrap(struct chv_error *err, const char *fmt, ...)
    CHV_PRINTF(2, 3);

/* Reset err to CHV_OK with an empty message. */
void chv_error_clear(struct chv_error *err);

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

struct chv_alloc_hooks {
  void *(*malloc_fn)(size_t n);
  void *(*realloc_fn)(void *p, size_t n);
  void (*free_fn)(void *p);
};

/* Replace the allocator (NULL restores the C library's). */
void chv_alloc_set_hooks(const struct chv_alloc_hooks *hooks);
/* Test support: make the Nth allocation from now fail (0 disables). */
void chv_alloc_fail_after(long n);

void *chv_malloc(size_t n);
void *chv_calloc(size_t count, size_t n);
void *chv_realloc(void *p, size_t n);
void chv_free(void *p);
char *chv_strdup(const char *s);
char *chv_strndup(const char *s, size_t n);
/* printf into a fresh chv_malloc'd string; NULL on failure. */
char *chv_asprintf(const char *fmt, ...) CHV_PRINTF(1, 2);

/* ---- growable byte buffer --------------------------------------------- */

/* Bytes [0, len) are valid; data is NUL-terminated whenever cap > 0. */
struct chv_buf {
  char *data;
  size_t len;
  size_t cap;
};

void chv_buf_init(struct chv_buf *b);
void chv_buf_free(struct chv_buf *b);
void chv_buf_reset(struct chv_buf *b);
int chv_buf_reserve(struct chv_buf *b, size_t extra);
int chv_buf_append(struct chv_buf *b, const void *p, size_t n);
int chv_buf_puts(struct chv_buf *b, const char *s);
int chv_buf_putc(struct chv_buf *b, char c);
int chv_buf_printf(struct chv_buf *b, const char *fmt, ...) CHV_PRINTF(2, 3);
/* Hand the bytes to the caller (chv_free them) and leave b empty. */
char *chv_buf_detach(struct chv_buf *b);

/* ---- arena ------------------------------------------------------------- */

typedef struct chv_arena chv_arena;

int chv_arena_open(size_t block_size, chv_arena **out);
void chv_arena_close(chv_arena *a);
/* 16-byte aligned; NULL on out-of-memory. */
void *chv_arena_alloc(chv_arena *a, size_t n);
char *chv_arena_strndup(chv_arena *a, const char *s, size_t n);
/* Release everything allocated since open (keeps the first block). */
void chv_arena_reset(chv_arena *a);

/* ---- strings ----------------------------------------------------------- */

bool chv_str_ieq(const char *a, const char *b);
bool chv_str_nieq(const char *a, const char *b, size_t n);
/* Trim ASCII white space in place, returning the start within s. */
char *chv_str_trim(char *s);

/* ---- time -------------------------------------------------------------- */

/* Wall-clock milliseconds since the epoch, and a monotonic clock in ns. */
int64_t chv_time_now_ms(void);
int64_t chv_time_mono_ns(void);

#endif /* CHV_COMMON_H */
