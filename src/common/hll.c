/*
** hll: counting distinct values, as Hive's column statistics count them.
** Hive estimates NUM_DISTINCTS with a HyperLogLog of 2^14 registers; so
** does this counter, after holding the first CHV_HLL_EXACT distinct hashes
** exactly (a set), which makes small counts exact rather than close.
** Registers are one byte (the position of the first 1 bit of the hash's
** remaining 50 bits, at most 51).  The estimate is HyperLogLog's harmonic
** mean with linear counting while many registers are empty (Flajolet et
** al., with Heule et al.'s threshold of 2.5 m); with 64-bit hashes no
** large-range correction is needed.  Relative standard error 0.81%.
**
** INTERFACE: chv_hash64(), chv_hll_*() (common.h)
*/
#include "common/common.h"

#include <math.h>

#define NREG ((uint32_t)1 << CHV_HLL_P)

static inline uint64_t rd64(const unsigned char *p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; i--) v = (v << 8) | p[i];
  return v;
}

static inline uint64_t mix64(uint64_t x) { /* murmur3's fmix64 */
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return x;
}

uint64_t chv_hash64(const void *data, size_t n, uint64_t seed) {
  const unsigned char *p = data;
  uint64_t h = seed ^ (0x9e3779b97f4a7c15ULL * (n + 1));
  while (n >= 8) {
    h = mix64(h ^ rd64(p)) * 0x9e3779b97f4a7c15ULL;
    p += 8;
    n -= 8;
  }
  uint64_t t = 0;
  for (size_t i = 0; i < n; i++) t |= (uint64_t)p[i] << (8 * i);
  return mix64(h ^ t ^ ((uint64_t)n << 56));
}

static void reg_add(uint8_t *reg, uint64_t hash) {
  uint32_t idx = (uint32_t)(hash >> (64 - CHV_HLL_P));
  uint64_t rest = hash << CHV_HLL_P; /* 50 significant bits, then zeros */
  uint8_t rank = rest ? (uint8_t)(__builtin_clzll(rest) + 1)
                      : (uint8_t)(64 - CHV_HLL_P + 1);
  if (rank > reg[idx]) reg[idx] = rank;
}

static int to_dense(struct chv_hll *h) {
  uint8_t *reg = chv_calloc(NREG, 1);
  if (reg == NULL) return CHV_ENOMEM;
  for (uint32_t i = 0; i < h->cap; i++)
    if (h->set[i]) reg_add(reg, h->set[i]);
  chv_free(h->set);
  h->set = NULL;
  h->n = h->cap = 0;
  h->reg = reg;
  return CHV_OK;
}

static void set_put(uint64_t *set, uint32_t cap, uint64_t x, uint32_t *n) {
  uint32_t i = (uint32_t)(x & (cap - 1));
  while (set[i] && set[i] != x) i = (i + 1) & (cap - 1);
  if (!set[i]) {
    set[i] = x;
    (*n)++;
  }
}

int chv_hll_add(struct chv_hll *h, uint64_t hash) {
  if (h->reg) {
    reg_add(h->reg, hash);
    return CHV_OK;
  }
  if (hash == 0) hash = 1;
  if (h->cap) { /* a value already held changes nothing */
    uint32_t i = (uint32_t)(hash & (h->cap - 1));
    while (h->set[i] && h->set[i] != hash) i = (i + 1) & (h->cap - 1);
    if (h->set[i] == hash) return CHV_OK;
  }
  if ((h->n + 1) * 2 > h->cap) { /* keep the set at most half full */
    if (h->n + 1 > CHV_HLL_EXACT) {
      CHV_RETURN_IF_ERR(to_dense(h));
      reg_add(h->reg, hash);
      return CHV_OK;
    }
    uint32_t ncap = h->cap ? h->cap * 2 : 16;
    uint64_t *ns = chv_calloc(ncap, sizeof *ns);
    if (ns == NULL) return CHV_ENOMEM;
    uint32_t nn = 0;
    for (uint32_t i = 0; i < h->cap; i++)
      if (h->set[i]) set_put(ns, ncap, h->set[i], &nn);
    chv_free(h->set);
    h->set = ns;
    h->cap = ncap;
    h->n = nn;
  }
  set_put(h->set, h->cap, hash, &h->n);
  return CHV_OK;
}

int64_t chv_hll_count(const struct chv_hll *h) {
  if (!h->reg) return h->n;
  double m = NREG, sum = 0;
  uint32_t zeros = 0;
  for (uint32_t i = 0; i < NREG; i++) {
    sum += ldexp(1.0, -(int)h->reg[i]);
    zeros += h->reg[i] == 0;
  }
  double alpha = 0.7213 / (1.0 + 1.079 / m);
  double e = alpha * m * m / sum;
  if (e <= 2.5 * m && zeros > 0) e = m * log(m / zeros);
  return (int64_t)llround(e);
}

int chv_hll_merge(struct chv_hll *dst, const struct chv_hll *src) {
  if (src->reg) {
    if (!dst->reg) CHV_RETURN_IF_ERR(to_dense(dst));
    for (uint32_t i = 0; i < NREG; i++)
      if (src->reg[i] > dst->reg[i]) dst->reg[i] = src->reg[i];
    return CHV_OK;
  }
  for (uint32_t i = 0; i < src->cap; i++)
    if (src->set[i]) CHV_RETURN_IF_ERR(chv_hll_add(dst, src->set[i]));
  return CHV_OK;
}

void chv_hll_free(struct chv_hll *h) {
  chv_free(h->set);
  chv_free(h->reg);
  memset(h, 0, sizeof *h);
}

int chv_hll_serialize(const struct chv_hll *h, unsigned char **out,
                      size_t *len) {
  size_t n = h->reg ? 6 + NREG : 6 + 4 + 8 * (size_t)h->n;
  unsigned char *p = chv_malloc(n);
  if (p == NULL) return CHV_ENOMEM;
  memcpy(p, "CHLL", 4);
  p[4] = 1;
  if (h->reg) {
    p[5] = 'D';
    memcpy(p + 6, h->reg, NREG);
  } else {
    p[5] = 'E';
    for (int i = 0; i < 4; i++) p[6 + i] = (unsigned char)(h->n >> (8 * i));
    size_t k = 10;
    for (uint32_t i = 0; i < h->cap; i++) {
      if (!h->set[i]) continue;
      for (int b = 0; b < 8; b++) p[k++] = (unsigned char)(h->set[i] >> (8 * b));
    }
  }
  *out = p;
  *len = n;
  return CHV_OK;
}

int chv_hll_deserialize(const unsigned char *p, size_t len,
                        struct chv_hll *h, struct chv_error *err) {
  if (len < 6 || memcmp(p, "CHLL", 4) || p[4] != 1)
    return chv_error_set(err, CHV_ECORRUPT,
                         "distinct-value sketch: not chive's (no CHLL 1 "
                         "header, %zu bytes)", len);
  if (p[5] == 'D') {
    if (len != 6 + NREG)
      return chv_error_set(err, CHV_ECORRUPT,
                           "distinct-value sketch: %zu bytes, expected %u",
                           len, 6 + NREG);
    for (uint32_t i = 0; i < NREG; i++)
      if (p[6 + i] > 64 - CHV_HLL_P + 1)
        return chv_error_set(err, CHV_ECORRUPT,
                             "distinct-value sketch: register %u is %u", i,
                             p[6 + i]);
    if ((h->reg = chv_malloc(NREG)) == NULL)
      return chv_error_set(err, CHV_ENOMEM, "out of memory");
    memcpy(h->reg, p + 6, NREG);
    return CHV_OK;
  }
  if (p[5] != 'E' || len < 10)
    return chv_error_set(err, CHV_ECORRUPT,
                         "distinct-value sketch: unknown form");
  uint32_t n = 0;
  for (int i = 3; i >= 0; i--) n = (n << 8) | p[6 + i];
  if (n > CHV_HLL_EXACT || len != 10 + 8 * (size_t)n)
    return chv_error_set(err, CHV_ECORRUPT,
                         "distinct-value sketch: %u values in %zu bytes", n,
                         len);
  for (uint32_t i = 0; i < n; i++) {
    int rc = chv_hll_add(h, rd64(p + 10 + 8 * (size_t)i));
    if (rc != CHV_OK) {
      chv_hll_free(h);
      return chv_error_set(err, rc, "out of memory");
    }
  }
  return CHV_OK;
}
