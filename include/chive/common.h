/*
** chive public API: memory the library and its callers share.
**
** INTERFACE
**   chv_alloc_set_hooks()   replace the allocator the library uses
**   chv_malloc() ...        allocate through those hooks; chv_free() is how a
**                           caller releases what a function documents as
**                           "chv_free the result"
**   struct chv_buf          a growable byte buffer (some functions append to
**                           one: type strings, partition paths, JSON)
**   chv_arena               a bump allocator released all at once (partition
**                           filters are built in one)
**   chv_error_clear()       reset a struct chv_error
**
** Thread safety: the allocation hooks are global and must be set before any
** other thread calls into the library; a chv_buf or chv_arena belongs to one
** thread at a time.
*/
#ifndef CHIVE_COMMON_H
#define CHIVE_COMMON_H

#include "chive/chive.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define CHV_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define CHV_PRINTF(f, a)
#endif

/* ---- errors ------------------------------------------------------------ */

/* Reset err to CHV_OK with an empty message; NULL is a no-op. */
CHV_API void chv_error_clear(struct chv_error *err);
/* Fill err (may be NULL) with code, its SQLSTATE and the formatted message;
** returns code so callers can write `return chv_error_set(err, ...)`. */
CHV_API int chv_error_set(struct chv_error *err, int code, const char *fmt,
                          ...) CHV_PRINTF(3, 4);
/* Prefix the message already in err with formatted context and ": ".
** Returns err->code (or CHV_EINTERNAL when err is NULL). */
CHV_API int chv_error_wrap(struct chv_error *err, const char *fmt, ...)
    CHV_PRINTF(2, 3);

/* ---- long text in messages --------------------------------------------- */

/* Text of more than CHV_ABBREV_MAX bytes is quoted by its first and last
** CHV_ABBREV_KEEP bytes around "…" and its length, "tttt…tttt (1048576
** bytes)", so the rest of a message (the reason) still fits.
** chv_error_set() and chv_error_wrap() quote every long %s argument so;
** callers quoting text of their own (a token, a source line) use
** chv_str_abbrev() directly. */
#define CHV_ABBREV_MAX 256
#define CHV_ABBREV_KEEP 64
#define CHV_ABBREV_SIZE (CHV_ABBREV_MAX + 1)
/* s[0, n) (n bytes, no terminator needed) into buf as above, or as it is
** when short; returns buf, NUL-terminated.  Cuts fall on UTF-8 character
** boundaries. */
CHV_API const char *chv_str_abbrev(const char *s, size_t n,
                                   char buf[CHV_ABBREV_SIZE]);
/* The largest offset <= at in s[0, n) that starts a UTF-8 character (or is
** n), so text cut there keeps whole characters. */
CHV_API size_t chv_utf8_floor(const char *s, size_t n, size_t at);

/* ---- allocation -------------------------------------------------------- */

struct chv_alloc_hooks {
  void *(*malloc_fn)(size_t n);
  void *(*realloc_fn)(void *p, size_t n);
  void (*free_fn)(void *p);
};

/* Replace the allocator (NULL restores the C library's).  hooks is copied. */
CHV_API void chv_alloc_set_hooks(const struct chv_alloc_hooks *hooks);

/* Allocate and release through the hooks; NULL on out-of-memory. */
CHV_API void *chv_malloc(size_t n);
CHV_API void *chv_calloc(size_t count, size_t n);
CHV_API void *chv_realloc(void *p, size_t n);
CHV_API void chv_free(void *p); /* NULL is a no-op */
/* Copies in chv_malloc'd memory; NULL on out-of-memory. */
CHV_API char *chv_strdup(const char *s);
CHV_API char *chv_strndup(const char *s, size_t n);

/* ---- growable byte buffer --------------------------------------------- */

/* Bytes [0, len) are valid; data is NUL-terminated whenever cap > 0.
** Owned by the caller: chv_buf_init() it, chv_buf_free() it. */
struct chv_buf {
  char *data;
  size_t len;
  size_t cap;
};

CHV_API void chv_buf_init(struct chv_buf *b);
CHV_API void chv_buf_free(struct chv_buf *b);
CHV_API void chv_buf_reset(struct chv_buf *b);
CHV_API int chv_buf_reserve(struct chv_buf *b, size_t extra);
CHV_API int chv_buf_append(struct chv_buf *b, const void *p, size_t n);
CHV_API int chv_buf_puts(struct chv_buf *b, const char *s);
CHV_API int chv_buf_putc(struct chv_buf *b, char c);
CHV_API int chv_buf_printf(struct chv_buf *b, const char *fmt, ...)
    CHV_PRINTF(2, 3);
/* Hand the bytes to the caller (chv_free them) and leave b empty. */
CHV_API char *chv_buf_detach(struct chv_buf *b);

/* ---- arena ------------------------------------------------------------- */

typedef struct chv_arena chv_arena;

/* out: close with chv_arena_close(), which frees everything allocated in
** it; NULL is a no-op. */
CHV_API int chv_arena_open(size_t block_size, chv_arena **out);
CHV_API void chv_arena_close(chv_arena *a);
/* 16-byte aligned; NULL on out-of-memory. */
CHV_API void *chv_arena_alloc(chv_arena *a, size_t n);
CHV_API char *chv_arena_strndup(chv_arena *a, const char *s, size_t n);
/* Release everything allocated since open (keeps the first block). */
CHV_API void chv_arena_reset(chv_arena *a);

#ifdef __cplusplus
}
#endif
#endif /* CHIVE_COMMON_H */
