/*
** sql/func keyset.c: a hash set of byte keys, numbered in order of
** insertion, and the encoding of a row's value as key bytes.  COUNT(DISTINCT
** x) keeps its (group, value) pairs in one; sql/exec's hash aggregation
** numbers its groups with one.  Open addressing with linear probing over a
** power-of-two slot array kept at most half full; keys live back to back in
** one buffer, with their hashes and offsets per entry.  The hash set of
** integer keys (chv_intset) is the same table with the key in the slot.
**
** INTERFACE: chv_keyset_*(), chv_intset_*() (func.h).
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

/* Eight bytes at a time, each word mixed in by a bijection of the state
** (an odd multiplier, a shift-xor), and the result through MurmurHash3's
** finalizer: the slot is the low bits. */
uint64_t chv_keyset_hash(const void *p, size_t n) {
  const unsigned char *s = p;
  uint64_t h = 0x9E3779B97F4A7C15ull ^ (uint64_t)n, w;
  for (; n >= 8; s += 8, n -= 8) {
    memcpy(&w, s, 8);
    h = (h ^ w) * 0xff51afd7ed558ccdull;
    h ^= h >> 32;
  }
  if (n) {
    w = 0;
    for (size_t i = 0; i < n; i++) w |= (uint64_t)s[i] << (8 * i);
    h = (h ^ w) * 0xff51afd7ed558ccdull;
    h ^= h >> 32;
  }
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ull;
  h ^= h >> 33;
  return h;
}

size_t chv_keyset_memory(const struct chv_keyset *h) {
  return h->nslots * sizeof *h->slots +
         h->ecap * (sizeof *h->hashes + sizeof *h->offs) + h->keys.cap;
}

static int grow(struct chv_keyset *h) {
  size_t ns = h->nslots ? h->nslots * 2 : 64;
  uint64_t *s = chv_calloc(ns, sizeof *s);
  if (s == NULL) return CHV_ENOMEM;
  for (size_t e = 0; e < h->n; e++) {
    uint64_t hv = h->hashes[e];
    size_t j = hv & (ns - 1);
    while (s[j]) j = (j + 1) & (ns - 1);
    s[j] = hv >> 32 << 32 | (e + 1);
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

uint32_t chv_keyset_insert(struct chv_keyset *h, const void *key, size_t len,
                           uint64_t hv, size_t slot) {
  if (h->n == 0) h->klen = len;
  else if (h->klen != len) h->klen = SIZE_MAX;
  memcpy(h->keys.data + h->keys.len, key, len);
  h->keys.len += len;
  h->hashes[h->n] = hv;
  h->offs[h->n + 1] = (uint32_t)h->keys.len;
  h->slots[slot] = hv >> 32 << 32 | (h->n + 1);
  return (uint32_t)h->n++;
}

int chv_keyset_put(struct chv_keyset *h, const void *key, size_t len,
                   uint32_t *id, bool *added) {
  CHV_RETURN_IF_ERR(chv_keyset_reserve(h, len));
  uint64_t hv = chv_keyset_hash(key, len);
  size_t slot = 0;
  uint32_t e = chv_keyset_find(h, key, len, hv, &slot);
  *added = e == UINT32_MAX;
  *id = *added ? chv_keyset_insert(h, key, len, hv, slot) : e;
  return CHV_OK;
}

int chv_keyset_encode(struct chv_buf *b, const struct chv_vector *v,
                      int64_t i) {
  struct chv_value x;
  chv_func_get_value(v, i, &x);
  return chv_keyset_encode_value(b, v->type->id, &x);
}

int chv_keyset_encode_value(struct chv_buf *b, enum chv_type_id id,
                            const struct chv_value *x) {
  if (x->is_null) return chv_buf_putc(b, 0);
  CHV_RETURN_IF_ERR(chv_buf_putc(b, 1));
  switch (id) {
  case CHV_TYPE_FLOAT:
  case CHV_TYPE_DOUBLE: {
    double d = x->f64 == 0 ? 0.0 : isnan(x->f64) ? NAN : x->f64; /* -0 = 0 */
    return chv_buf_append(b, &d, sizeof d);
  }
  case CHV_TYPE_DECIMAL:
    return chv_buf_append(b, &x->dec, sizeof x->dec);
  case CHV_TYPE_TIMESTAMP:
    CHV_RETURN_IF_ERR(chv_buf_append(b, &x->ts.seconds, sizeof x->ts.seconds));
    return chv_buf_append(b, &x->ts.nanos, sizeof x->ts.nanos);
  case CHV_TYPE_BOOLEAN:
    return chv_buf_putc(b, x->b);
  default:
    if (chv_type_is_string_like(id)) {
      uint32_t n = (uint32_t)x->len;
      CHV_RETURN_IF_ERR(chv_buf_append(b, &n, sizeof n));
      return chv_buf_append(b, x->str, (size_t)x->len);
    }
    return chv_buf_append(b, &x->i64, sizeof x->i64);
  }
}

/* ---- the keys of a batch ------------------------------------------------ */

void chv_keyrows_free(struct chv_keyrows *k) {
  chv_free(k->data);
  chv_free(k->offs);
  chv_free(k->hashes);
  memset(k, 0, sizeof *k);
}

/* Bytes of a non-NULL value of type id after its flag: 0 for the string
** types (a length, then the bytes), -1 for a type encoded row by row. */
static int value_width(enum chv_type_id id) {
  switch (id) {
  case CHV_TYPE_BOOLEAN: return 1;
  case CHV_TYPE_TINYINT:
  case CHV_TYPE_SMALLINT:
  case CHV_TYPE_INT:
  case CHV_TYPE_DATE:
  case CHV_TYPE_BIGINT:
  case CHV_TYPE_FLOAT:
  case CHV_TYPE_DOUBLE: return 8;
  case CHV_TYPE_DECIMAL: return 16;
  case CHV_TYPE_TIMESTAMP: return 12;
  default: return chv_type_is_string_like(id) ? 0 : -1;
  }
}

/* Row by row, for the types value_width() does not know. */
static int encode_rows(struct chv_keyrows *k, const struct chv_vector *const *v,
                       int nv, const uint32_t *sel, int64_t n) {
  struct chv_buf b;
  chv_buf_init(&b);
  int rc = CHV_OK;
  k->offs[0] = 0;
  for (int64_t i = 0; i < n && rc == CHV_OK; i++) {
    int64_t r = sel ? sel[i] : i;
    for (int c = 0; c < nv && rc == CHV_OK; c++) rc = chv_keyset_encode(&b, v[c], r);
    if (b.len > UINT32_MAX) rc = CHV_ENOMEM;
    k->offs[i + 1] = (uint32_t)b.len;
  }
  if (rc == CHV_OK) {
    chv_free(k->data);
    k->cap = b.cap;
    k->data = b.data; /* the buffer's bytes are k's now */
  } else {
    chv_buf_free(&b);
  }
  return rc;
}

int chv_keyrows_encode(struct chv_keyrows *k, const struct chv_vector *const *v,
                       int nv, const uint32_t *sel, int64_t n) {
  if (n + 1 > k->rcap) {
    int64_t nc = k->rcap ? k->rcap : 1024;
    while (nc < n + 1) nc *= 2;
    uint32_t *o = chv_realloc(k->offs, sizeof *o * (size_t)nc);
    if (o == NULL) return CHV_ENOMEM;
    k->offs = o;
    uint64_t *h = chv_realloc(k->hashes, sizeof *h * (size_t)nc);
    if (h == NULL) return CHV_ENOMEM;
    k->hashes = h;
    k->rcap = nc;
  }
  bool by_rows = false;
  for (int c = 0; c < nv; c++) by_rows |= value_width(v[c]->type->id) < 0;
  if (by_rows) {
    CHV_RETURN_IF_ERR(encode_rows(k, v, nv, sel, n));
  } else {
    /* the lengths, summed into offs[i + 1], then their running sums */
    uint32_t *restrict offs = k->offs;
    memset(offs, 0, sizeof *offs * (size_t)(n + 1));
    for (int c = 0; c < nv; c++) {
      const struct chv_vector *x = v[c];
      int w = value_width(x->type->id);
      for (int64_t i = 0; i < n; i++) {
        int64_t r = sel ? sel[i] : i;
        uint32_t len = 1;
        if (!chv_vector_is_null(x, r))
          len += w ? (uint32_t)w
                   : 4 + (uint32_t)(x->offsets[r + 1] - x->offsets[r]);
        offs[i + 1] += len;
      }
    }
    uint64_t total = 0;
    for (int64_t i = 0; i <= n; i++) {
      total += offs[i];
      if (total > UINT32_MAX) return CHV_ENOMEM;
      offs[i] = (uint32_t)total;
    }
    if (total > k->cap) {
      size_t nc = k->cap ? k->cap : 4096;
      while (nc < total) nc *= 2;
      char *d = chv_realloc(k->data, nc);
      if (d == NULL) return CHV_ENOMEM;
      k->data = d;
      k->cap = nc;
    }
    /* each column's bytes at each row's cursor (hashes[i], for now) */
    uint64_t *restrict at = k->hashes;
    for (int64_t i = 0; i < n; i++) at[i] = offs[i];
    char *restrict d = k->data;
    for (int c = 0; c < nv; c++) {
      const struct chv_vector *x = v[c];
      enum chv_type_id id = x->type->id;
      for (int64_t i = 0; i < n; i++) {
        int64_t r = sel ? sel[i] : i;
        char *p = d + at[i];
        if (chv_vector_is_null(x, r)) {
          *p = 0;
          at[i] += 1;
          continue;
        }
        *p++ = 1;
        int64_t iv;
        double dv;
        switch (id) {
        case CHV_TYPE_BOOLEAN:
          *p = (char)chv_bit_get(x->data, r);
          at[i] += 2;
          continue;
        case CHV_TYPE_TINYINT: iv = ((const int8_t *)x->data)[r]; break;
        case CHV_TYPE_SMALLINT: iv = ((const int16_t *)x->data)[r]; break;
        case CHV_TYPE_INT:
        case CHV_TYPE_DATE: iv = ((const int32_t *)x->data)[r]; break;
        case CHV_TYPE_BIGINT: iv = ((const int64_t *)x->data)[r]; break;
        case CHV_TYPE_FLOAT:
        case CHV_TYPE_DOUBLE:
          dv = id == CHV_TYPE_FLOAT ? ((const float *)x->data)[r]
                                    : ((const double *)x->data)[r];
          dv = dv == 0 ? 0.0 : isnan(dv) ? NAN : dv; /* -0 = 0 */
          memcpy(p, &dv, 8);
          at[i] += 9;
          continue;
        case CHV_TYPE_DECIMAL:
          memcpy(p, (const chv_i128 *)x->data + r, 16);
          at[i] += 17;
          continue;
        case CHV_TYPE_TIMESTAMP: {
          const struct chv_timestamp *t = (const struct chv_timestamp *)x->data + r;
          memcpy(p, &t->seconds, 8);
          memcpy(p + 8, &t->nanos, 4);
          at[i] += 13;
          continue;
        }
        default: { /* the string types */
          uint32_t len = (uint32_t)(x->offsets[r + 1] - x->offsets[r]);
          memcpy(p, &len, 4);
          if (len) memcpy(p + 4, x->bytes + x->offsets[r], len);
          at[i] += 5 + len;
          continue;
        }
        }
        memcpy(p, &iv, 8);
        at[i] += 9;
      }
    }
  }
  for (int64_t i = 0; i < n; i++)
    k->hashes[i] = chv_keyset_hash(k->data + k->offs[i], k->offs[i + 1] - k->offs[i]);
  return CHV_OK;
}

/* ---- integer keys ---------------------------------------------------------- */

void chv_intset_free(struct chv_intset *s) {
  chv_free(s->slots);
  memset(s, 0, sizeof *s);
}

size_t chv_intset_memory(const struct chv_intset *s) {
  return s->nslots * sizeof *s->slots;
}

int chv_intset_reserve(struct chv_intset *s, size_t more) {
  if (s->n + more > UINT32_MAX - 1) return CHV_ENOMEM;
  size_t want = s->nslots ? s->nslots : 64;
  while ((s->n + more) * 2 > want) want *= 2;
  if (want == s->nslots) return CHV_OK;
  struct chv_intset_slot *ns = chv_calloc(want, sizeof *ns);
  if (ns == NULL) return CHV_ENOMEM;
  struct chv_intset old = *s;
  int bits = 0;
  while (((size_t)1 << bits) < want) bits++;
  s->slots = ns;
  s->nslots = want;
  s->shift = 64 - bits;
  /* the ids stay: each held key goes to its slot in the larger array */
  for (size_t i = 0; i < old.nslots; i++) {
    if (old.slots[i].id1 == 0) continue;
    size_t j = chv_intset_slot_of(s, old.slots[i].key);
    while (ns[j].id1) j = (j + 1) & (want - 1);
    ns[j] = old.slots[i];
  }
  chv_free(old.slots);
  return CHV_OK;
}

int chv_intset_put_all(struct chv_intset *s, const int64_t *xs, size_t n) {
  /* reserved a part at a time: duplicates leave the set smaller than n */
  for (size_t i = 0; i < n; i++) {
    if (i % 4096 == 0 && chv_intset_reserve(s, CHV_MIN(4096, n - i)) != CHV_OK)
      return CHV_ENOMEM;
    if (i + 16 < n) chv_intset_prefetch(s, xs[i + 16]);
    chv_intset_put(s, xs[i]);
  }
  return CHV_OK;
}
