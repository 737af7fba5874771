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

/* ---- errors ------------------------------------------------------------ */

/* Reset err to CHV_OK with an empty message; NULL is a no-op. */
CHV_API void chv_error_clear(struct chv_error *err);

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
