/*
** chv_arena: a bump allocator for work that is released all at once (a query,
** an operator, one batch).  Blocks are chained; reset keeps the first block so
** a per-batch arena stops calling malloc once it has warmed up.
*/
#include "asan.h"
#include "common.h"

struct arena_block {
  struct arena_block *next;
  size_t size; /* bytes usable after the header */
  size_t used;
  _Alignas(16) unsigned char data[];
};

struct chv_arena {
  struct arena_block *head; /* block being filled; older ones follow */
  size_t block_size;
};

static struct arena_block *block_new(size_t size) {
  struct arena_block *b = chv_malloc(sizeof *b + size);
  if (b == NULL) return NULL;
  b->next = NULL;
  b->size = size;
  b->used = 0;
  POISON(b->data, size);
  return b;
}

int chv_arena_open(size_t block_size, chv_arena **out) {
  chv_arena *a = chv_malloc(sizeof *a);
  if (a == NULL) return CHV_ENOMEM;
  a->block_size = block_size ? block_size : 64 * 1024;
  a->head = block_new(a->block_size);
  if (a->head == NULL) {
    chv_free(a);
    return CHV_ENOMEM;
  }
  *out = a;
  return CHV_OK;
}

void chv_arena_close(chv_arena *a) {
  if (a == NULL) return;
  struct arena_block *b = a->head;
  while (b) {
    struct arena_block *next = b->next;
    UNPOISON(b->data, b->size);
    chv_free(b);
    b = next;
  }
  chv_free(a);
}

void *chv_arena_alloc(chv_arena *a, size_t n) {
  size_t need = (n + 15) & ~(size_t)15;
  if (need < n) return NULL;
  struct arena_block *b = a->head;
  if (b->size - b->used < need) {
    size_t size = need > a->block_size ? need : a->block_size;
    b = block_new(size);
    if (b == NULL) return NULL;
    b->next = a->head;
    a->head = b;
  }
  void *p = b->data + b->used;
  b->used += need;
  UNPOISON(p, n);
  return p;
}

char *chv_arena_strndup(chv_arena *a, const char *s, size_t n) {
  char *d = chv_arena_alloc(a, n + 1);
  if (d == NULL) return NULL;
  memcpy(d, s, n);
  d[n] = '\0';
  return d;
}

void chv_arena_reset(chv_arena *a) {
  struct arena_block *b = a->head;
  while (b->next) {
    struct arena_block *next = b->next;
    UNPOISON(b->data, b->size);
    chv_free(b);
    b = next;
  }
  a->head = b;
  b->used = 0;
  POISON(b->data, b->size);
}
