/*
** sql/func keyset.c: a hash set of byte keys, numbered in order of
** insertion, and the encoding of a row's value as key bytes.  COUNT(DISTINCT
** x) keeps its (group, value) pairs in one; sql/exec's hash aggregation
** numbers its groups with one.  Open addressing with linear probing over a
** power-of-two slot array kept at most half full; keys live back to back in
** one buffer, with their hashes and offsets per entry.
**
** INTERFACE: chv_keyset_*() (func.h).
*/
#include "sql/func/func_int.h"

#include <math.h>

void chv_keyset_free(struct chv_keyset *h) {
  chv_free(h->slots);
  chv_free(h->hashes);
  chv_free(h->offs);
  chv_buf_free(&h->keys);
  memset(h, 0, sizeof *h);
}

uint64_t chv_keyset_hash(const void *p, size_t n) {
  const unsigned char *s = p;
  uint64_t h = 1469598103934665603ULL;
  for (size_t i = 0; i < n; i++) h = (h ^ s[i]) * 1099511628211ULL;
  return h ^ (h >> 29);
}

size_t chv_keyset_memory(const struct chv_keyset *h) {
  return h->nslots * sizeof *h->slots +
         h->ecap * (sizeof *h->hashes + sizeof *h->offs) + h->keys.cap;
}

static int grow(struct chv_keyset *h) {
  size_t ns = h->nslots ? h->nslots * 2 : 64;
  uint32_t *s = chv_calloc(ns, sizeof *s);
  if (s == NULL) return CHV_ENOMEM;
  for (size_t e = 0; e < h->n; e++) {
    size_t j = h->hashes[e] & (ns - 1);
    while (s[j]) j = (j + 1) & (ns - 1);
    s[j] = (uint32_t)e + 1;
  }
  chv_free(h->slots);
  h->slots = s;
  h->nslots = ns;
  return CHV_OK;
}

int chv_keyset_reserve(struct chv_keyset *h, size_t len) {
  if ((h->n + 1) * 2 > h->nslots) CHV_RETURN_IF_ERR(grow(h));
  if (h->n + 1 >= h->ecap) {
    size_t nc = h->ecap ? h->ecap * 2 : 64;
    uint64_t *hs = chv_realloc(h->hashes, nc * sizeof *hs);
    if (hs == NULL) return CHV_ENOMEM;
    h->hashes = hs;
    uint32_t *os = chv_realloc(h->offs, (nc + 1) * sizeof *os);
    if (os == NULL) return CHV_ENOMEM;
    if (h->ecap == 0) os[0] = 0;
    h->offs = os;
    h->ecap = nc;
  }
  if (h->keys.len + len > UINT32_MAX) return CHV_ENOMEM;
  return chv_buf_reserve(&h->keys, len);
}

uint32_t chv_keyset_find(const struct chv_keyset *h, const void *key,
                         size_t len, uint64_t hv, size_t *slot) {
  size_t j = hv & (h->nslots - 1);
  while (h->slots[j]) {
    uint32_t e = h->slots[j] - 1;
    if (h->hashes[e] == hv && h->offs[e + 1] - h->offs[e] == len &&
        memcmp(h->keys.data + h->offs[e], key, len) == 0)
      return e;
    j = (j + 1) & (h->nslots - 1);
  }
  *slot = j;
  return UINT32_MAX;
}

uint32_t chv_keyset_insert(struct chv_keyset *h, const void *key, size_t len,
                           uint64_t hv, size_t slot) {
  memcpy(h->keys.data + h->keys.len, key, len);
  h->keys.len += len;
  h->hashes[h->n] = hv;
  h->offs[h->n + 1] = (uint32_t)h->keys.len;
  h->slots[slot] = (uint32_t)h->n + 1;
  return (uint32_t)h->n++;
}

int chv_keyset_put(struct chv_keyset *h, const void *key, size_t len,
                   uint32_t *id, bool *added) {
  CHV_RETURN_IF_ERR(chv_keyset_reserve(h, len));
  uint64_t hv = chv_keyset_hash(key, len);
  size_t slot;
  uint32_t e = chv_keyset_find(h, key, len, hv, &slot);
  *added = e == UINT32_MAX;
  *id = *added ? chv_keyset_insert(h, key, len, hv, slot) : e;
  return CHV_OK;
}

int chv_keyset_encode(struct chv_buf *b, const struct chv_vector *v,
                      int64_t i) {
  if (chv_vector_is_null(v, i)) return chv_buf_putc(b, 0);
  CHV_RETURN_IF_ERR(chv_buf_putc(b, 1));
  struct chv_value x;
  chv_func_get_value(v, i, &x);
  switch (v->type->id) {
  case CHV_TYPE_FLOAT:
  case CHV_TYPE_DOUBLE: {
    double d = x.f64 == 0 ? 0.0 : isnan(x.f64) ? NAN : x.f64; /* -0 = 0 */
    return chv_buf_append(b, &d, sizeof d);
  }
  case CHV_TYPE_DECIMAL: return chv_buf_append(b, &x.dec, sizeof x.dec);
  case CHV_TYPE_TIMESTAMP:
    CHV_RETURN_IF_ERR(chv_buf_append(b, &x.ts.seconds, sizeof x.ts.seconds));
    return chv_buf_append(b, &x.ts.nanos, sizeof x.ts.nanos);
  case CHV_TYPE_BOOLEAN: return chv_buf_putc(b, x.b);
  default:
    if (chv_type_is_string_like(v->type->id)) {
      uint32_t n = (uint32_t)x.len;
      CHV_RETURN_IF_ERR(chv_buf_append(b, &n, sizeof n));
      return chv_buf_append(b, x.str, (size_t)x.len);
    }
    return chv_buf_append(b, &x.i64, sizeof x.i64);
  }
}
