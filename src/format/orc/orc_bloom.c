/*
** ORC's bloom filters as the reader tests them (ORCv1.md, "Bloom Filter
** Index"): the 64-bit hash of a value, split into two 32-bit halves that
** give k bit positions (Kirsch and Mitzenmacher's double hashing), looked up
** in the filter's bitset of m bits.
**
**   integers, dates  Thomas Wang's 64-bit integer hash of the value as a
**                    Java long (arithmetic right shifts, as Java's >>)
**   float, double    the same hash of the double's IEEE 754 bits (a float
**                    widened to double first)
**   strings, binary  ORC's Murmur3 "hash64" of the bytes, seed 104729: a
**                    64-bit variant that mixes 8-byte blocks into one state
**                    (not the first half of Murmur3 x64_128)
**
** Position i (1..k): h = low32 + i * high32 in 32-bit two's complement,
** flipped (~h) when negative, modulo m; bit (pos & 63) of long (pos >> 6),
** the longs little-endian.  BLOOM_FILTER streams hold the longs as a
** repeated fixed64, BLOOM_FILTER_UTF8 streams as little-endian bytes.
**
** INTERFACE: or_bloom_hash_long(), or_bloom_hash_double(),
** or_bloom_hash_bytes(), or_bloom_test(), or_bloom_add() (orc_read.h).
*/
#include "format/orc/orc_read.h"

#define M3_C1 UINT64_C(0x87c37b91114253d5)
#define M3_C2 UINT64_C(0x4cf5ad432745937f)
#define M3_SEED 104729

static uint64_t rotl(uint64_t x, int r) { return x << r | x >> (64 - r); }

/* An arithmetic right shift of a two's complement 64-bit value. */
static uint64_t sar(uint64_t x, int r) {
  return (x >> r) | ((x >> 63) ? ~(~UINT64_C(0) >> r) : 0);
}

uint64_t or_bloom_hash_long(int64_t v) {
  uint64_t k = (uint64_t)v;
  k = ~k + (k << 21);
  k = k ^ sar(k, 24);
  k = k + (k << 3) + (k << 8);
  k = k ^ sar(k, 14);
  k = k + (k << 2) + (k << 4);
  k = k ^ sar(k, 28);
  k = k + (k << 31);
  return k;
}

uint64_t or_bloom_hash_double(double d) {
  int64_t bits;
  if (d != d) {
    bits = INT64_C(0x7ff8000000000000); /* Java's canonical NaN */
  } else {
    memcpy(&bits, &d, sizeof bits);
  }
  return or_bloom_hash_long(bits);
}

static uint64_t fmix64(uint64_t h) {
  h ^= h >> 33;
  h *= UINT64_C(0xff51afd7ed558ccd);
  h ^= h >> 33;
  h *= UINT64_C(0xc4ceb9fe1a85ec53);
  h ^= h >> 33;
  return h;
}

uint64_t or_bloom_hash_bytes(const void *data, size_t n) {
  const uint8_t *p = data;
  uint64_t h = M3_SEED;
  size_t blocks = n >> 3;
  for (size_t i = 0; i < blocks; i++) {
    uint64_t k = 0;
    for (int b = 7; b >= 0; b--) k = k << 8 | p[i * 8 + (size_t)b];
    k *= M3_C1;
    k = rotl(k, 31);
    k *= M3_C2;
    h ^= k;
    h = rotl(h, 27) * 5 + 0x52dce729;
  }
  size_t tail = blocks << 3, rest = n - tail;
  if (rest) {
    uint64_t k = 0;
    for (size_t b = rest; b-- > 0;) k = k << 8 | p[tail + b];
    k *= M3_C1;
    k = rotl(k, 31);
    k *= M3_C2;
    h ^= k;
  }
  /* Java xors the int length into the long state, sign-extended. */
  h ^= (uint64_t)(int64_t)(int32_t)(uint32_t)n;
  return fmix64(h);
}

/* The word holding bit pos of the filter's bitset. */
static uint64_t word(const struct chv_orc_bloom_filter *b, uint32_t w) {
  if (b->bitset) return b->bitset[w];
  uint64_t v = 0;
  const uint8_t *p = b->utf8bitset.data + (size_t)w * 8;
  for (int i = 7; i >= 0; i--) v = v << 8 | p[i];
  return v;
}

static uint32_t nwords(const struct chv_orc_bloom_filter *b) {
  return b->bitset ? b->nbitset : b->utf8bitset.len / 8;
}

/* Position i of hash in a filter of m bits. */
static uint32_t position(uint64_t hash, uint32_t i, uint32_t m) {
  int32_t h1 = (int32_t)(uint32_t)hash;
  int32_t h2 = (int32_t)(uint32_t)(hash >> 32);
  int32_t c = (int32_t)((uint32_t)h1 + i * (uint32_t)h2);
  if (c < 0) c = ~c;
  return (uint32_t)c % m;
}

bool or_bloom_test(const struct chv_orc_bloom_filter *b, uint64_t hash) {
  uint32_t nw = nwords(b);
  /* Java's bit count is an int: filters past it say nothing. */
  if (nw == 0 || nw > (uint32_t)(INT32_MAX / 64)) return true;
  uint32_t m = nw * 64;
  for (uint32_t i = 1; i <= b->num_hash_functions; i++) {
    uint32_t pos = position(hash, i, m);
    if (!((word(b, pos >> 6) >> (pos & 63)) & 1)) return false;
  }
  return true;
}

void or_bloom_add(uint64_t *bits, uint32_t nwords_, uint32_t k,
                  uint64_t hash) {
  uint32_t m = nwords_ * 64;
  for (uint32_t i = 1; i <= k; i++) {
    uint32_t pos = position(hash, i, m);
    bits[pos >> 6] |= UINT64_C(1) << (pos & 63);
  }
}
