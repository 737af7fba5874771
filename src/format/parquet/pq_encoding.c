/*
** Parquet value and level encodings: bit packing, the RLE/bit-packed
** hybrid, the deprecated MSB-first BIT_PACKED levels, PLAIN,
** DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY,
** BYTE_STREAM_SPLIT and FLOAT16, decoding and encoding.  See pq_encoding.h
** for the contracts and the limits enforced.
**
** The hot loop of a scan is unpacking bit-packed values (dictionary
** indices, levels, delta miniblocks).  Values are unpacked 32 at a time by
** a loop instantiated once per bit width (a table of functions indexed by
** width), which the compiler unrolls into straight-line shifts and masks
** over exactly `width` 32-bit words: 32 values of w bits are 4w bytes, so a
** group never reads past its own bytes.  Partial groups at the end of a
** span are copied into a zeroed scratch group first.
**
** Every length, count and width read from the page is checked before it is
** used to index anything; counts are 64-bit so that no product of two
** 32-bit fields from a page can wrap.
**
** INTERFACE: the chv_pq_* functions declared in pq_encoding.h.
*/
#include "format/parquet/pq_encoding.h"

#include <limits.h>

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "pq_encoding.c assumes a little-endian host"
#endif

#if defined(__GNUC__)
#define ALWAYS_INLINE inline __attribute__((always_inline))
#define UNROLL32 _Pragma("GCC unroll 32")
#else
#define ALWAYS_INLINE inline
#define UNROLL32
#endif

static ALWAYS_INLINE uint32_t load32(const uint8_t *p) {
  uint32_t v;
  memcpy(&v, p, 4);
  return v;
}

static ALWAYS_INLINE uint64_t load64(const uint8_t *p) {
  uint64_t v;
  memcpy(&v, p, 8);
  return v;
}

static int nomem(struct chv_error *err) {
  return chv_error_set(err, CHV_ENOMEM, "out of memory");
}

int chv_pq_bit_width(uint64_t v) {
  return v ? 64 - __builtin_clzll(v) : 0;
}

/* ---- varints ---------------------------------------------------------- */

/* ULEB128 of at most 10 bytes (64 bits) from [*p, end). */
static int read_uleb(const uint8_t **p, const uint8_t *end, uint64_t *out,
                     const char *what, struct chv_error *err) {
  uint64_t v = 0;
  const uint8_t *q = *p;
  for (int shift = 0; shift < 70; shift += 7) {
    if (q >= end)
      return chv_error_set(err, CHV_ECORRUPT, "%s varint is truncated", what);
    uint8_t b = *q++;
    if (shift == 63 && (b & 0x7e))
      return chv_error_set(err, CHV_ECORRUPT, "%s varint exceeds 64 bits",
                           what);
    v |= (uint64_t)(b & 0x7f) << shift;
    if (!(b & 0x80)) {
      *p = q;
      *out = v;
      return CHV_OK;
    }
  }
  return chv_error_set(err, CHV_ECORRUPT, "%s varint is longer than 10 bytes",
                       what);
}

static uint64_t unzigzag(uint64_t v) { return (v >> 1) ^ (0 - (v & 1)); }

static uint64_t zigzag(uint64_t v) {
  return (v << 1) ^ (0 - (v >> 63));
}

static int put_uleb(struct chv_buf *out, uint64_t v) {
  uint8_t tmp[10];
  int n = 0;
  do {
    uint8_t b = v & 0x7f;
    v >>= 7;
    tmp[n++] = (uint8_t)(b | (v ? 0x80 : 0));
  } while (v);
  return chv_buf_append(out, tmp, (size_t)n);
}

/* ---- bit unpacking ----------------------------------------------------- */

/* 32 values of w bits (1..31) from exactly 4w bytes. */
static ALWAYS_INLINE void unpack32_k(const uint8_t *in, uint32_t *out,
                                     const int w) {
  const uint32_t mask = (1u << w) - 1;
  uint64_t acc = 0;
  int bits = 0;
  UNROLL32
  for (int i = 0; i < 32; i++) {
    if (bits < w) {
      acc |= (uint64_t)load32(in) << bits;
      in += 4;
      bits += 32;
    }
    out[i] = (uint32_t)acc & mask;
    acc >>= w;
    bits -= w;
  }
}

/* 32 values of w bits (1..63) from 4w bytes, of which the caller guarantees
** 8 more are readable (reads use 64-bit loads at each value's byte). */
static ALWAYS_INLINE void unpack64_k(const uint8_t *in, uint64_t *out,
                                     const int w) {
  const uint64_t mask = (1ull << w) - 1;
  UNROLL32
  for (int i = 0; i < 32; i++) {
    const int bit = i * w, sh = bit & 7;
    uint64_t v = load64(in + (bit >> 3)) >> sh;
    if (sh + w > 64) v |= (uint64_t)in[(bit >> 3) + 8] << (64 - sh);
    out[i] = v & mask;
  }
}

typedef void (*unpack32_fn)(const uint8_t *in, uint32_t *out, size_t groups);
typedef void (*unpack64_fn)(const uint8_t *in, uint64_t *out, size_t groups);

static void unpack32_w0(const uint8_t *in, uint32_t *out, size_t groups) {
  (void)in;
  memset(out, 0, groups * 32 * sizeof *out);
}

static void unpack32_w32(const uint8_t *in, uint32_t *out, size_t groups) {
  memcpy(out, in, groups * 128);
}

#define UNPACK32_FN(w)                                                        \
  static void unpack32_w##w(const uint8_t *in, uint32_t *out,                 \
                            size_t groups) {                                  \
    for (size_t g = 0; g < groups; g++)                                       \
      unpack32_k(in + g * 4 * (w), out + g * 32, (w));                        \
  }
#define UNPACK64_FN(w)                                                        \
  static void unpack64_w##w(const uint8_t *in, uint64_t *out,                 \
                            size_t groups) {                                  \
    for (size_t g = 0; g < groups; g++)                                       \
      unpack64_k(in + g * 4 * (w), out + g * 32, (w));                        \
  }

#define WIDTHS_1_31(X)                                                        \
  X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13) X(14) \
  X(15) X(16) X(17) X(18) X(19) X(20) X(21) X(22) X(23) X(24) X(25) X(26)   \
  X(27) X(28) X(29) X(30) X(31)
#define WIDTHS_33_63(X)                                                       \
  X(33) X(34) X(35) X(36) X(37) X(38) X(39) X(40) X(41) X(42) X(43) X(44)   \
  X(45) X(46) X(47) X(48) X(49) X(50) X(51) X(52) X(53) X(54) X(55) X(56)   \
  X(57) X(58) X(59) X(60) X(61) X(62) X(63)

WIDTHS_1_31(UNPACK32_FN)
WIDTHS_1_31(UNPACK64_FN)
UNPACK64_FN(32)
WIDTHS_33_63(UNPACK64_FN)

static const unpack32_fn unpack32_tab[33] = {
#define TAB32(w) [w] = unpack32_w##w,
    [0] = unpack32_w0, WIDTHS_1_31(TAB32)[32] = unpack32_w32,
#undef TAB32
};

static void unpack64_w0(const uint8_t *in, uint64_t *out, size_t groups) {
  (void)in;
  memset(out, 0, groups * 32 * sizeof *out);
}

static void unpack64_w64(const uint8_t *in, uint64_t *out, size_t groups) {
  memcpy(out, in, groups * 256);
}

static const unpack64_fn unpack64_tab[65] = {
#define TAB64(w) [w] = unpack64_w##w,
    [0] = unpack64_w0, WIDTHS_1_31(TAB64) TAB64(32) WIDTHS_33_63(TAB64)
    [64] = unpack64_w64,
#undef TAB64
};

/* Whole values of `width` bits in len bytes, without overflow. */
static uint64_t values_in(size_t len, int width) {
  if (width == 0) return UINT64_MAX;
  return (uint64_t)(len / (size_t)width) * 8 +
         (uint64_t)(len % (size_t)width) * 8 / (uint64_t)width;
}

size_t chv_pq_unpack32(const uint8_t *in, size_t in_len, int width,
                       uint32_t *out, size_t n) {
  if (width < 0 || width > 32) return 0;
  uint64_t have = values_in(in_len, width);
  if (n > have) n = (size_t)have;
  size_t groups = n / 32, rest = n % 32;
  unpack32_tab[width](in, out, groups);
  if (rest) {
    uint8_t tmp[128] = {0};
    uint32_t vals[32];
    size_t off = groups * 4 * (size_t)width;
    memcpy(tmp, in + off, CHV_MIN(in_len - off, (size_t)(4 * width)));
    unpack32_tab[width](tmp, vals, 1);
    memcpy(out + groups * 32, vals, rest * sizeof *out);
  }
  return n;
}

size_t chv_pq_unpack64(const uint8_t *in, size_t in_len, int width,
                       uint64_t *out, size_t n) {
  if (width < 0 || width > 64) return 0;
  uint64_t have = values_in(in_len, width);
  if (n > have) n = (size_t)have;
  size_t groups = n / 32, rest = n % 32, gbytes = 4 * (size_t)width;
  /* Groups with 8 readable bytes after them go straight from the input. */
  size_t direct = groups;
  while (direct > 0 && direct * gbytes + 8 > in_len) direct--;
  unpack64_tab[width](in, out, direct);
  for (size_t g = direct; g < groups + (rest ? 1 : 0); g++) {
    uint8_t tmp[256 + 8] = {0};
    uint64_t vals[32];
    size_t off = g * gbytes;
    memcpy(tmp, in + off, CHV_MIN(in_len - off, gbytes));
    unpack64_tab[width](tmp, vals, 1);
    size_t k = g < groups ? 32 : rest;
    memcpy(out + g * 32, vals, k * sizeof *out);
  }
  return n;
}

/* Appends k <= 32 bits of v to a little-endian bit stream. */
struct bitw {
  uint8_t *p;
  uint64_t acc;
  int bits;
};

static ALWAYS_INLINE void bitw_put(struct bitw *b, uint64_t v, int k) {
  b->acc |= v << b->bits;
  b->bits += k;
  while (b->bits >= 8) {
    *b->p++ = (uint8_t)b->acc;
    b->acc >>= 8;
    b->bits -= 8;
  }
}

static ALWAYS_INLINE void bitw_flush(struct bitw *b) {
  if (b->bits > 0) *b->p++ = (uint8_t)b->acc;
  b->acc = 0;
  b->bits = 0;
}

void chv_pq_pack32(const uint32_t *in, size_t n, int width, uint8_t *out) {
  if (width <= 0) return;
  if (width == 32) {
    memcpy(out, in, n * 4);
    return;
  }
  const uint32_t mask = (1u << width) - 1;
  struct bitw b = {out, 0, 0};
  for (size_t i = 0; i < n; i++) bitw_put(&b, in[i] & mask, width);
  bitw_flush(&b);
}

void chv_pq_pack64(const uint64_t *in, size_t n, int width, uint8_t *out) {
  if (width <= 0) return;
  struct bitw b = {out, 0, 0};
  for (size_t i = 0; i < n; i++) {
    uint64_t v = width == 64 ? in[i] : in[i] & ((1ull << width) - 1);
    if (width <= 32) {
      bitw_put(&b, v, width);
    } else {
      bitw_put(&b, v & 0xffffffffu, 32);
      bitw_put(&b, v >> 32, width - 32);
    }
  }
  bitw_flush(&b);
}

/* ---- RLE / bit-packed hybrid: decoding --------------------------------- */

#define RLE_MAX_RUN 0x7fffffffu /* runs are at most 2^31 - 1 values */

static int rle_setup(struct chv_pq_rle_dec *d, const uint8_t *p, size_t len,
                     int width, uint64_t num_values, struct chv_error *err) {
  if (width < 0 || width > 32)
    return chv_error_set(err, CHV_ECORRUPT,
                         "RLE bit width %d is not in 0..32", width);
  memset(d, 0, offsetof(struct chv_pq_rle_dec, buf));
  d->p = p;
  d->end = p + len;
  d->width = width;
  d->left = num_values;
  return CHV_OK;
}

int chv_pq_rle_init(struct chv_pq_rle_dec *d, const uint8_t *p, size_t len,
                    int width, uint64_t num_values, struct chv_error *err) {
  return rle_setup(d, p, len, width, num_values, err);
}

int chv_pq_rle_init_prefixed(struct chv_pq_rle_dec *d, const uint8_t *p,
                             size_t len, int width, uint64_t num_values,
                             size_t *used, struct chv_error *err) {
  if (len < 4)
    return chv_error_set(err, CHV_ECORRUPT,
                         "RLE length prefix needs 4 bytes, %zu left", len);
  uint32_t n = load32(p);
  if (n > len - 4)
    return chv_error_set(err, CHV_ECORRUPT,
                         "RLE data of %u bytes exceeds the %zu left", n,
                         len - 4);
  CHV_RETURN_IF_ERR(rle_setup(d, p + 4, n, width, num_values, err));
  *used = 4 + (size_t)n;
  return CHV_OK;
}

int chv_pq_rle_init_dict(struct chv_pq_rle_dec *d, const uint8_t *p,
                         size_t len, uint64_t num_values,
                         struct chv_error *err) {
  if (len < 1) {
    if (num_values == 0) return rle_setup(d, p, 0, 0, 0, err);
    return chv_error_set(err, CHV_ECORRUPT,
                         "dictionary indices lack their bit width byte");
  }
  if (p[0] > 32)
    return chv_error_set(err, CHV_ECORRUPT,
                         "dictionary index bit width %u > 32", p[0]);
  return rle_setup(d, p + 1, len - 1, p[0], num_values, err);
}

/* Read run headers until a run with values starts. */
static int rle_header(struct chv_pq_rle_dec *d, struct chv_error *err) {
  for (;;) {
    if (d->p >= d->end)
      return chv_error_set(err, CHV_ECORRUPT,
                           "RLE data ends with %llu values still expected",
                           (unsigned long long)d->left);
    uint64_t h;
    CHV_RETURN_IF_ERR(read_uleb(&d->p, d->end, &h, "RLE run header", err));
    uint64_t count = h >> 1;
    if (h & 1) {
      /* count groups of 8 bit-packed values.  A run may hold more values
      ** than the stream still owes: writers pad the last run (DuckDB to a
      ** whole block of 256 values); the values past d->left are padding
      ** and are never handed out. */
      if (count > RLE_MAX_RUN / 8)
        return chv_error_set(err, CHV_ECORRUPT,
                             "bit-packed run of %llu values exceeds 2^31 - 1",
                             (unsigned long long)count * 8);
      if (count == 0) continue;
      size_t bytes = (size_t)count * (size_t)d->width;
      size_t avail = (size_t)(d->end - d->p);
      if (bytes > avail) bytes = avail; /* a short last run; see below */
      uint64_t vals = CHV_MIN(count * 8, values_in(bytes, d->width));
      if (vals == 0)
        return chv_error_set(err, CHV_ECORRUPT,
                             "bit-packed run of %llu values is truncated",
                             (unsigned long long)count * 8);
      if (vals > d->left) vals = d->left;
      d->lit = d->p;
      d->lit_end = d->p + bytes;
      d->lit_left = (uint32_t)vals;
      d->p += bytes;
      return CHV_OK;
    }
    if (count > d->left)
      return chv_error_set(err, CHV_ECORRUPT,
                           "RLE run of %llu values exceeds the %llu expected",
                           (unsigned long long)count,
                           (unsigned long long)d->left);
    if (count > RLE_MAX_RUN)
      return chv_error_set(err, CHV_ECORRUPT,
                           "RLE run of %llu values exceeds 2^31 - 1",
                           (unsigned long long)count);
    size_t vb = (size_t)(d->width + 7) / 8;
    if ((size_t)(d->end - d->p) < vb)
      return chv_error_set(err, CHV_ECORRUPT,
                           "RLE run value is truncated");
    uint32_t v = 0;
    for (size_t i = 0; i < vb; i++) v |= (uint32_t)d->p[i] << (8 * i);
    d->p += vb;
    if (d->width < 32 && (v >> d->width) != 0)
      return chv_error_set(err, CHV_ECORRUPT,
                           "RLE run value %u does not fit bit width %d", v,
                           d->width);
    if (count == 0) continue;
    d->rep_left = (uint32_t)count;
    d->rep_value = v;
    return CHV_OK;
  }
}

/* Unpack the next group (up to 32 values) of the bit-packed run into buf. */
static void rle_fill_buf(struct chv_pq_rle_dec *d) {
  uint32_t m = CHV_MIN(d->lit_left, 32u);
  size_t avail = (size_t)(d->lit_end - d->lit);
  chv_pq_unpack32(d->lit, avail, d->width, d->buf, m);
  size_t adv = ((size_t)m * (size_t)d->width + 7) / 8;
  d->lit += CHV_MIN(adv, avail);
  d->lit_left -= m;
  d->buf_pos = 0;
  d->buf_len = m;
}

static int rle_want(struct chv_pq_rle_dec *d, size_t n,
                    struct chv_error *err) {
  if (n > d->left)
    return chv_error_set(err, CHV_ECORRUPT,
                         "RLE stream holds %llu more values, %zu asked",
                         (unsigned long long)d->left, n);
  return CHV_OK;
}

int chv_pq_rle_next(struct chv_pq_rle_dec *d, size_t n, uint32_t *out,
                    struct chv_error *err) {
  CHV_RETURN_IF_ERR(rle_want(d, n, err));
  size_t i = 0;
  while (i < n) {
    size_t want = n - i;
    if (d->buf_pos < d->buf_len) {
      size_t k = CHV_MIN(want, (size_t)(d->buf_len - d->buf_pos));
      memcpy(out + i, d->buf + d->buf_pos, k * sizeof *out);
      d->buf_pos += (uint32_t)k;
      d->left -= k;
      i += k;
    } else if (d->rep_left) {
      size_t k = CHV_MIN(want, (size_t)d->rep_left);
      uint32_t v = d->rep_value, *o = out + i;
      for (size_t j = 0; j < k; j++) o[j] = v;
      d->rep_left -= (uint32_t)k;
      d->left -= k;
      i += k;
    } else if (d->lit_left) {
      size_t g = CHV_MIN(want, (size_t)d->lit_left) / 32;
      if (g) {
        unpack32_tab[d->width](d->lit, out + i, g);
        d->lit += g * 4 * (size_t)d->width;
        d->lit_left -= (uint32_t)(g * 32);
        d->left -= g * 32;
        i += g * 32;
      } else {
        rle_fill_buf(d);
      }
    } else {
      int rc = rle_header(d, err);
      if (rc != CHV_OK) return rc;
    }
  }
  return CHV_OK;
}

int chv_pq_rle_next_bounded(struct chv_pq_rle_dec *d, size_t n,
                            uint32_t limit, uint32_t *out,
                            struct chv_error *err) {
  CHV_RETURN_IF_ERR(chv_pq_rle_next(d, n, out, err));
  /* A flag per index (a loop the compiler vectorizes, where a maximum of
  ** unsigned 32-bit values needs SSE4.1); the maximum only for the
  ** message. */
  uint32_t bad = 0;
  for (size_t i = 0; i < n; i++) bad |= out[i] >= limit;
  if (!bad) return CHV_OK;
  uint32_t mx = 0;
  for (size_t i = 0; i < n; i++) mx = out[i] > mx ? out[i] : mx;
  if (n && mx >= limit)
    return chv_error_set(err, CHV_ECORRUPT,
                         "dictionary index %u is not below the dictionary "
                         "size %u",
                         mx, limit);
  return CHV_OK;
}

int chv_pq_rle_next_run(struct chv_pq_rle_dec *d, size_t max, uint32_t *out,
                        struct chv_pq_rle_run *run, struct chv_error *err) {
  if (max == 0)
    return chv_error_set(err, CHV_EINVAL, "RLE run of at most 0 values asked");
  CHV_RETURN_IF_ERR(rle_want(d, 1, err));
  if (max > d->left) max = (size_t)d->left;
  while (d->buf_pos >= d->buf_len && !d->rep_left && !d->lit_left)
    CHV_RETURN_IF_ERR(rle_header(d, err));
  if (d->rep_left && d->buf_pos >= d->buf_len) {
    uint32_t k = (uint32_t)CHV_MIN(max, (size_t)d->rep_left);
    d->rep_left -= k;
    d->left -= k;
    run->count = k;
    run->repeated = true;
    run->value = d->rep_value;
    return CHV_OK;
  }
  size_t k = CHV_MIN(max, (size_t)(d->buf_len - d->buf_pos) + d->lit_left);
  CHV_RETURN_IF_ERR(chv_pq_rle_next(d, k, out, err));
  run->count = (uint32_t)k;
  run->repeated = false;
  run->value = 0;
  return CHV_OK;
}

int chv_pq_rle_next_u8(struct chv_pq_rle_dec *d, size_t n, uint8_t *out,
                       struct chv_error *err) {
  if (d->width > 8)
    return chv_error_set(err, CHV_EINVAL,
                         "RLE values of %d bits do not fit a byte", d->width);
  CHV_RETURN_IF_ERR(rle_want(d, n, err));
  uint32_t tmp[256];
  size_t i = 0;
  while (i < n) {
    struct chv_pq_rle_run r;
    CHV_RETURN_IF_ERR(
        chv_pq_rle_next_run(d, CHV_MIN(n - i, CHV_ARRAY_SIZE(tmp)), tmp, &r,
                            err));
    if (r.repeated) {
      memset(out + i, (int)r.value, r.count);
    } else {
      for (uint32_t j = 0; j < r.count; j++) out[i + j] = (uint8_t)tmp[j];
    }
    i += r.count;
  }
  return CHV_OK;
}

int chv_pq_rle_count_eq(struct chv_pq_rle_dec *d, size_t n, uint32_t value,
                        uint64_t *count, struct chv_error *err) {
  CHV_RETURN_IF_ERR(rle_want(d, n, err));
  uint64_t c = 0;
  uint32_t tmp[256];
  size_t i = 0;
  while (i < n) {
    size_t want = n - i;
    if (d->width == 1 && d->buf_pos >= d->buf_len && d->lit_left >= 64 &&
        want >= 64) {
      /* width 1: count set bits eight bytes at a time */
      size_t words = CHV_MIN(want, (size_t)d->lit_left) / 64;
      uint64_t ones = 0;
      for (size_t w = 0; w < words; w++)
        ones += (uint64_t)__builtin_popcountll(load64(d->lit + 8 * w));
      size_t k = words * 64;
      c += value == 1 ? ones : value == 0 ? k - ones : 0;
      d->lit += 8 * words;
      d->lit_left -= (uint32_t)k;
      d->left -= k;
      i += k;
      continue;
    }
    struct chv_pq_rle_run r;
    CHV_RETURN_IF_ERR(
        chv_pq_rle_next_run(d, CHV_MIN(want, CHV_ARRAY_SIZE(tmp)), tmp, &r,
                            err));
    if (r.repeated) {
      if (r.value == value) c += r.count;
    } else {
      uint32_t m = 0;
      for (uint32_t j = 0; j < r.count; j++) m += tmp[j] == value;
      c += m;
    }
    i += r.count;
  }
  *count = c;
  return CHV_OK;
}

int chv_pq_rle_skip(struct chv_pq_rle_dec *d, size_t n,
                    struct chv_error *err) {
  CHV_RETURN_IF_ERR(rle_want(d, n, err));
  size_t i = 0;
  while (i < n) {
    size_t want = n - i;
    if (d->buf_pos < d->buf_len) {
      size_t k = CHV_MIN(want, (size_t)(d->buf_len - d->buf_pos));
      d->buf_pos += (uint32_t)k;
      d->left -= k;
      i += k;
    } else if (d->rep_left) {
      size_t k = CHV_MIN(want, (size_t)d->rep_left);
      d->rep_left -= (uint32_t)k;
      d->left -= k;
      i += k;
    } else if (d->lit_left) {
      size_t g = CHV_MIN(want, (size_t)d->lit_left) / 8;
      if (g) {
        d->lit += g * (size_t)d->width;
        d->lit_left -= (uint32_t)(g * 8);
        d->left -= g * 8;
        i += g * 8;
      } else {
        rle_fill_buf(d);
      }
    } else {
      CHV_RETURN_IF_ERR(rle_header(d, err));
    }
  }
  return CHV_OK;
}

/* ---- RLE / bit-packed hybrid: encoding --------------------------------- */


static int rle_put_repeat(struct chv_buf *out, uint32_t v, size_t count,
                          int width) {
  while (count > 0) {
    size_t k = CHV_MIN(count, (size_t)RLE_MAX_RUN);
    CHV_RETURN_IF_ERR(put_uleb(out, (uint64_t)k << 1));
    uint8_t b[4];
    size_t vb = (size_t)(width + 7) / 8;
    for (size_t i = 0; i < vb; i++) b[i] = (uint8_t)(v >> (8 * i));
    CHV_RETURN_IF_ERR(chv_buf_append(out, b, vb));
    count -= k;
  }
  return CHV_OK;
}

/* count values bit-packed; count is a multiple of 8 except at the end. */
static int rle_put_literal(struct chv_buf *out, const uint32_t *v,
                           size_t count, int width) {
  while (count > 0) {
    size_t k = CHV_MIN(count, (size_t)(RLE_MAX_RUN / 8) * 8);
    size_t groups = (k + 7) / 8, bytes = groups * (size_t)width;
    CHV_RETURN_IF_ERR(put_uleb(out, (uint64_t)groups << 1 | 1));
    CHV_RETURN_IF_ERR(chv_buf_reserve(out, bytes));
    uint8_t *dst = (uint8_t *)out->data + out->len;
    memset(dst, 0, bytes);
    chv_pq_pack32(v, k, width, dst);
    out->len += bytes;
    out->data[out->len] = '\0';
    v += k;
    count -= k;
  }
  return CHV_OK;
}

int chv_pq_rle_encode(const uint32_t *v, size_t n, int width,
                      struct chv_buf *out, struct chv_error *err) {
  if (width < 0 || width > 32)
    return chv_error_set(err, CHV_EINVAL, "RLE bit width %d is not in 0..32",
                         width);
  if (width < 32) {
    uint32_t all = 0;
    for (size_t i = 0; i < n; i++) all |= v[i];
    if (all >> width)
      return chv_error_set(err, CHV_EINVAL,
                           "a value does not fit RLE bit width %d", width);
  }
  size_t start = out->len, i = 0, lit = 0;
  int rc = CHV_OK;
  while (i < n) {
    size_t j = i + 1;
    while (j < n && v[j] == v[i]) j++;
    size_t r = j - i, pending = i - lit;
    size_t pad = (8 - pending % 8) % 8;
    if (r >= 8 + pad) {
      /* the literal before takes `pad` of the repeats to end on a group */
      if (pending + pad > 0 &&
          (rc = rle_put_literal(out, v + lit, pending + pad, width)) != CHV_OK)
        goto out_undo;
      if ((rc = rle_put_repeat(out, v[i], r - pad, width)) != CHV_OK)
        goto out_undo;
      lit = j;
    }
    i = j;
  }
  if (n > lit && (rc = rle_put_literal(out, v + lit, n - lit, width)) != CHV_OK)
    goto out_undo;
  return CHV_OK;
out_undo:
  out->len = start;
  return nomem(err);
}

int chv_pq_rle_encode_prefixed(const uint32_t *v, size_t n, int width,
                               struct chv_buf *out, struct chv_error *err) {
  size_t start = out->len;
  if (chv_buf_append(out, "\0\0\0\0", 4) != CHV_OK) return nomem(err);
  int rc = chv_pq_rle_encode(v, n, width, out, err);
  if (rc != CHV_OK) {
    out->len = start;
    return rc;
  }
  size_t len = out->len - start - 4;
  if (len > UINT32_MAX) {
    out->len = start;
    return chv_error_set(err, CHV_ERANGE, "RLE data of %zu bytes is too long",
                         len);
  }
  uint32_t l32 = (uint32_t)len;
  memcpy(out->data + start, &l32, 4);
  return CHV_OK;
}

int chv_pq_rle_encode_dict(const uint32_t *v, size_t n, int width,
                           struct chv_buf *out, struct chv_error *err) {
  size_t start = out->len;
  if (width < 0 || width > 32)
    return chv_error_set(err, CHV_EINVAL, "RLE bit width %d is not in 0..32",
                         width);
  if (chv_buf_putc(out, (char)width) != CHV_OK) return nomem(err);
  int rc = chv_pq_rle_encode(v, n, width, out, err);
  if (rc != CHV_OK) out->len = start;
  return rc;
}

/* ---- deprecated BIT_PACKED --------------------------------------------- */

int chv_pq_bitpacked_msb_decode(const uint8_t *p, size_t len, int width,
                                size_t n, uint32_t *out, size_t *used,
                                struct chv_error *err) {
  if (width < 0 || width > 32)
    return chv_error_set(err, CHV_ECORRUPT,
                         "BIT_PACKED bit width %d is not in 0..32", width);
  if ((uint64_t)n > values_in(len, width))
    return chv_error_set(err, CHV_ECORRUPT,
                         "BIT_PACKED levels: %zu values of %d bits need more "
                         "than the %zu bytes left",
                         n, width, len);
  size_t bytes = (size_t)(((uint64_t)n * (uint64_t)width + 7) / 8);
  if (width == 0) {
    memset(out, 0, n * sizeof *out);
  } else {
    const uint64_t mask = (1ull << width) - 1;
    uint64_t acc = 0;
    int bits = 0;
    const uint8_t *q = p;
    for (size_t i = 0; i < n; i++) {
      while (bits < width) {
        acc = acc << 8 | *q++;
        bits += 8;
      }
      bits -= width;
      out[i] = (uint32_t)((acc >> bits) & mask);
    }
  }
  *used = bytes;
  return CHV_OK;
}

/* ---- PLAIN ------------------------------------------------------------- */

void chv_pq_plain_init(struct chv_pq_plain_dec *d, const uint8_t *p,
                       size_t len) {
  d->base = p;
  d->p = p;
  d->end = p + len;
  d->bit = 0;
}

size_t chv_pq_plain_remaining(const struct chv_pq_plain_dec *d) {
  return (size_t)(d->end - d->p);
}

int chv_pq_plain_next_fixed(struct chv_pq_plain_dec *d, size_t width,
                            size_t n, void *out, struct chv_error *err) {
  size_t left = (size_t)(d->end - d->p);
  if (width == 0 || n > left / width)
    return chv_error_set(err, CHV_ECORRUPT,
                         "PLAIN: %zu values of %zu bytes exceed the %zu bytes "
                         "left",
                         n, width, left);
  if (out && n) memcpy(out, d->p, n * width);
  d->p += n * width;
  return CHV_OK;
}

int chv_pq_plain_next_bool(struct chv_pq_plain_dec *d, size_t n, uint8_t *out,
                           struct chv_error *err) {
  size_t left = (size_t)(d->end - d->p);
  uint64_t bits = (uint64_t)left * 8 - (left ? d->bit : 0);
  if (n > bits)
    return chv_error_set(err, CHV_ECORRUPT,
                         "PLAIN: %zu booleans exceed the %llu bits left", n,
                         (unsigned long long)bits);
  size_t i = 0;
  const uint8_t *q = d->p;
  unsigned bit = d->bit;
  if (out) {
    while (i < n && bit) {
      out[i++] = (*q >> bit) & 1;
      if (++bit == 8) bit = 0, q++;
    }
    for (; i + 8 <= n; i += 8, q++) {
      uint8_t b = *q;
      for (int j = 0; j < 8; j++) out[i + j] = (b >> j) & 1;
    }
    for (; i < n; i++) {
      out[i] = (*q >> bit) & 1;
      if (++bit == 8) bit = 0, q++;
    }
  } else {
    uint64_t pos = (uint64_t)bit + n;
    q += pos / 8;
    bit = (unsigned)(pos % 8);
  }
  d->p = q;
  d->bit = (uint8_t)bit;
  return CHV_OK;
}

static int check_span32(const uint8_t *base, const uint8_t *end,
                        const char *what, struct chv_error *err) {
  if ((size_t)(end - base) > UINT32_MAX)
    return chv_error_set(err, CHV_ERANGE, "%s: page of %zu bytes is too large",
                         what, (size_t)(end - base));
  return CHV_OK;
}

int chv_pq_plain_next_ba(struct chv_pq_plain_dec *d, size_t n, uint32_t *offs,
                         uint32_t *lens, uint64_t *total,
                         struct chv_error *err) {
  CHV_RETURN_IF_ERR(check_span32(d->base, d->end, "PLAIN", err));
  const uint8_t *q = d->p, *end = d->end;
  uint64_t sum = 0;
  for (size_t i = 0; i < n; i++) {
    if (end - q < 4)
      return chv_error_set(err, CHV_ECORRUPT,
                           "PLAIN: byte array %zu of %zu: length is "
                           "truncated",
                           i, n);
    uint32_t l = load32(q);
    q += 4;
    if (l > (size_t)(end - q))
      return chv_error_set(err, CHV_ECORRUPT,
                           "PLAIN: byte array %zu of %zu bytes exceeds the "
                           "%zu bytes left",
                           i, (size_t)l, (size_t)(end - q));
    if (offs) offs[i] = (uint32_t)(q - d->base);
    if (lens) lens[i] = l;
    sum += l;
    q += l;
  }
  d->p = q;
  if (total) *total = sum;
  return CHV_OK;
}

int chv_pq_plain_encode_fixed(const void *v, size_t n, size_t width,
                              struct chv_buf *out, struct chv_error *err) {
  if (width && n > SIZE_MAX / width) return nomem(err);
  if (chv_buf_append(out, v, n * width) != CHV_OK) return nomem(err);
  return CHV_OK;
}

int chv_pq_plain_encode_bool(const uint8_t *v, size_t n, struct chv_buf *out,
                             struct chv_error *err) {
  size_t bytes = (n + 7) / 8;
  if (chv_buf_reserve(out, bytes) != CHV_OK) return nomem(err);
  uint8_t *dst = (uint8_t *)out->data + out->len;
  memset(dst, 0, bytes);
  for (size_t i = 0; i < n; i++)
    dst[i / 8] |= (uint8_t)((v[i] != 0) << (i % 8));
  out->len += bytes;
  out->data[out->len] = '\0';
  return CHV_OK;
}

static int ba_len(const int32_t *offsets, size_t i, uint32_t *len,
                  struct chv_error *err) {
  int32_t l = offsets[i + 1] - offsets[i];
  if (offsets[i] < 0 || l < 0)
    return chv_error_set(err, CHV_EINVAL, "byte array %zu has offsets %d..%d",
                         i, offsets[i], offsets[i + 1]);
  *len = (uint32_t)l;
  return CHV_OK;
}

int chv_pq_plain_encode_ba(const char *bytes, const int32_t *offsets, size_t n,
                           struct chv_buf *out, struct chv_error *err) {
  size_t start = out->len;
  if (n == 0) return CHV_OK;
  for (size_t i = 0; i < n; i++) {
    uint32_t l = 0;
    CHV_RETURN_IF_ERR(ba_len(offsets, i, &l, err));
  }
  if (chv_buf_reserve(out, (size_t)(offsets[n] - offsets[0]) + 4 * n) != CHV_OK)
    return nomem(err);
  /* Room reserved, lengths checked: the values are copied as they are. */
  char *o = out->data + start;
  for (size_t i = 0; i < n; i++) {
    uint32_t l = (uint32_t)(offsets[i + 1] - offsets[i]);
    memcpy(o, &l, 4);
    memcpy(o + 4, bytes + offsets[i], l);
    o += 4 + (size_t)l;
  }
  out->len = (size_t)(o - out->data);
  out->data[out->len] = '\0';
  return CHV_OK;
}

/* ---- DELTA_BINARY_PACKED: decoding ------------------------------------- */


int chv_pq_delta_init(struct chv_pq_delta_dec *d, const uint8_t *p, size_t len,
                      struct chv_error *err) {
  struct chv_pq_delta_dec s;
  memset(&s, 0, offsetof(struct chv_pq_delta_dec, dbuf));
  s.p = p;
  s.end = p + len;
  uint64_t bs, nm, total, first;
  CHV_RETURN_IF_ERR(read_uleb(&s.p, s.end, &bs, "delta block size", err));
  CHV_RETURN_IF_ERR(read_uleb(&s.p, s.end, &nm, "delta miniblock count", err));
  CHV_RETURN_IF_ERR(read_uleb(&s.p, s.end, &total, "delta value count", err));
  CHV_RETURN_IF_ERR(read_uleb(&s.p, s.end, &first, "delta first value", err));
  if (bs == 0 || bs > CHV_PQ_DELTA_MAX_BLOCK)
    return chv_error_set(err, CHV_ECORRUPT,
                         "delta block size %llu is not in 1..%u",
                         (unsigned long long)bs, CHV_PQ_DELTA_MAX_BLOCK);
  if (nm == 0 || nm > bs || bs % nm != 0)
    return chv_error_set(err, CHV_ECORRUPT,
                         "delta block of %llu values cannot hold %llu "
                         "miniblocks",
                         (unsigned long long)bs, (unsigned long long)nm);
  if ((bs / nm) % 8 != 0)
    return chv_error_set(err, CHV_ECORRUPT,
                         "delta miniblocks of %llu values are not a multiple "
                         "of 8",
                         (unsigned long long)(bs / nm));
  s.block_size = (uint32_t)bs;
  s.nmini = (uint32_t)nm;
  s.mini_size = (uint32_t)(bs / nm);
  s.total = s.left = total;
  s.last = unzigzag(first);
  s.first = total > 0;
  s.unassigned = total ? total - 1 : 0;
  s.mini_idx = s.nmini; /* the first miniblock starts a block */
  memcpy(d, &s, offsetof(struct chv_pq_delta_dec, dbuf));
  return CHV_OK;
}

/* Start the next miniblock (reading a block header first when the last
** block is used up). */
static int delta_next_mini(struct chv_pq_delta_dec *d, struct chv_error *err) {
  if (d->mini_idx >= d->nmini) {
    uint64_t md;
    CHV_RETURN_IF_ERR(read_uleb(&d->p, d->end, &md, "delta min delta", err));
    d->min_delta = unzigzag(md);
    if ((size_t)(d->end - d->p) < d->nmini)
      return chv_error_set(err, CHV_ECORRUPT,
                           "delta block's %u miniblock bit widths are "
                           "truncated",
                           d->nmini);
    d->widths = d->p;
    d->p += d->nmini;
    d->mini_idx = 0;
  }
  int w = d->widths[d->mini_idx++];
  if (w > 64)
    return chv_error_set(err, CHV_ECORRUPT, "delta block bit width %d > 64",
                         w);
  uint64_t m = CHV_MIN((uint64_t)d->mini_size, d->unassigned);
  size_t full = (size_t)d->mini_size * (size_t)w / 8;
  size_t need = (size_t)((m * (uint64_t)w + 7) / 8);
  size_t avail = (size_t)(d->end - d->p);
  if (avail < need)
    return chv_error_set(err, CHV_ECORRUPT,
                         "delta miniblock of %llu values at %d bits is "
                         "truncated to %zu bytes",
                         (unsigned long long)m, w, avail);
  d->unassigned -= m;
  d->mini = d->p;
  d->short_tail = avail < full;
  d->p += d->short_tail ? avail : full;
  d->mini_end = d->p;
  d->width = w;
  d->mini_left = (uint32_t)m;
  return CHV_OK;
}

/* Unpack the next group (up to 32 deltas) of the miniblock into dbuf. */
static void delta_fill(struct chv_pq_delta_dec *d) {
  uint32_t g = CHV_MIN(d->mini_left, 32u);
  size_t avail = (size_t)(d->mini_end - d->mini);
  if (d->width <= 32) {
    uint32_t t[32];
    chv_pq_unpack32(d->mini, avail, d->width, t, g);
    for (uint32_t j = 0; j < g; j++) d->dbuf[j] = t[j] + d->min_delta;
  } else {
    chv_pq_unpack64(d->mini, avail, d->width, d->dbuf, g);
    for (uint32_t j = 0; j < g; j++) d->dbuf[j] += d->min_delta;
  }
  size_t adv = ((size_t)g * (size_t)d->width + 7) / 8;
  d->mini += CHV_MIN(adv, avail);
  d->mini_left -= g;
  d->dpos = 0;
  d->dlen = g;
}

static ALWAYS_INLINE int delta_next(struct chv_pq_delta_dec *d, size_t n,
                                    void *outp, const bool is32,
                                    struct chv_error *err) {
  if (n > d->left)
    return chv_error_set(err, CHV_ECORRUPT,
                         "delta stream holds %llu more values, %zu asked",
                         (unsigned long long)d->left, n);
  int32_t *o32 = outp;
  int64_t *o64 = outp;
  uint64_t last = d->last;
  size_t i = 0;
  if (n && d->first) {
    if (is32) o32[0] = (int32_t)(uint32_t)last;
    else o64[0] = (int64_t)last;
    d->first = false;
    i = 1;
  }
  while (i < n) {
    if (d->dpos < d->dlen) {
      size_t k = CHV_MIN(n - i, (size_t)(d->dlen - d->dpos));
      const uint64_t *db = d->dbuf + d->dpos;
      for (size_t j = 0; j < k; j++) {
        last += db[j];
        if (is32) o32[i + j] = (int32_t)(uint32_t)last;
        else o64[i + j] = (int64_t)last;
      }
      d->dpos += (uint32_t)k;
      i += k;
    } else if (d->mini_left == 0) {
      int rc = delta_next_mini(d, err);
      if (rc != CHV_OK) {
        d->last = last;
        return rc;
      }
    } else if (n - i >= 32 && d->mini_left >= 32 && d->width <= 32) {
      /* a whole group straight from the page: 4w bytes, all present */
      uint32_t t[32];
      unpack32_tab[d->width](d->mini, t, 1);
      if (is32) {
        uint32_t l = (uint32_t)last, md = (uint32_t)d->min_delta;
        for (int j = 0; j < 32; j++) {
          l += t[j] + md;
          o32[i + j] = (int32_t)l;
        }
        last = l;
      } else {
        uint64_t md = d->min_delta;
        for (int j = 0; j < 32; j++) {
          last += t[j] + md;
          o64[i + j] = (int64_t)last;
        }
      }
      d->mini += 4 * (size_t)d->width;
      d->mini_left -= 32;
      i += 32;
    } else {
      delta_fill(d);
    }
  }
  d->last = last;
  d->left -= n;
  return CHV_OK;
}

int chv_pq_delta_next_i32(struct chv_pq_delta_dec *d, size_t n, int32_t *out,
                          struct chv_error *err) {
  return delta_next(d, n, out, true, err);
}

int chv_pq_delta_next_i64(struct chv_pq_delta_dec *d, size_t n, int64_t *out,
                          struct chv_error *err) {
  return delta_next(d, n, out, false, err);
}

int chv_pq_delta_skip(struct chv_pq_delta_dec *d, size_t n,
                      struct chv_error *err) {
  int64_t tmp[256];
  while (n > 0) {
    size_t k = CHV_MIN(n, CHV_ARRAY_SIZE(tmp));
    CHV_RETURN_IF_ERR(delta_next(d, k, tmp, false, err));
    n -= k;
  }
  return CHV_OK;
}

int chv_pq_delta_end(struct chv_pq_delta_dec *d, const uint8_t **end,
                     struct chv_error *err) {
  d->dpos = d->dlen = 0;
  d->mini_left = 0;
  while (d->unassigned > 0) {
    CHV_RETURN_IF_ERR(delta_next_mini(d, err));
    d->mini_left = 0;
  }
  if (d->short_tail)
    return chv_error_set(err, CHV_ECORRUPT,
                         "delta stream ends inside its last miniblock");
  d->left = 0;
  d->first = false;
  *end = d->p;
  return CHV_OK;
}

/* ---- DELTA_BINARY_PACKED: encoding ------------------------------------- */

static int delta_encode(const void *vals, size_t n, bool is32,
                        struct chv_buf *out, struct chv_error *err) {
  const int32_t *v32 = vals;
  const int64_t *v64 = vals;
  size_t start = out->len;
  uint64_t first = n == 0 ? 0 : is32 ? (uint64_t)(int64_t)v32[0]
                                     : (uint64_t)v64[0];
  if (put_uleb(out, CHV_PQ_DELTA_BLOCK) != CHV_OK ||
      put_uleb(out, CHV_PQ_DELTA_MINIBLOCKS) != CHV_OK ||
      put_uleb(out, n) != CHV_OK || put_uleb(out, zigzag(first)) != CHV_OK)
    goto out_nomem;
  enum { MINI = CHV_PQ_DELTA_BLOCK / CHV_PQ_DELTA_MINIBLOCKS };
  for (size_t i = 1; i < n; i += CHV_PQ_DELTA_BLOCK) {
    size_t cnt = CHV_MIN((size_t)CHV_PQ_DELTA_BLOCK, n - i);
    int64_t delta[CHV_PQ_DELTA_BLOCK];
    uint64_t rel[CHV_PQ_DELTA_BLOCK] = {0};
    int64_t mn = INT64_MAX;
    for (size_t j = 0; j < cnt; j++) {
      if (is32)
        delta[j] = (int32_t)((uint32_t)v32[i + j] - (uint32_t)v32[i + j - 1]);
      else
        delta[j] = (int64_t)((uint64_t)v64[i + j] - (uint64_t)v64[i + j - 1]);
      if (delta[j] < mn) mn = delta[j];
    }
    for (size_t j = 0; j < cnt; j++)
      rel[j] = is32 ? (uint32_t)((uint32_t)delta[j] - (uint32_t)mn)
                    : (uint64_t)delta[j] - (uint64_t)mn;
    uint8_t widths[CHV_PQ_DELTA_MINIBLOCKS] = {0};
    for (size_t m = 0; m * MINI < cnt; m++) {
      uint64_t all = 0;
      for (size_t j = m * MINI; j < (m + 1) * MINI; j++) all |= rel[j];
      widths[m] = (uint8_t)chv_pq_bit_width(all);
    }
    if (put_uleb(out, zigzag((uint64_t)mn)) != CHV_OK ||
        chv_buf_append(out, widths, sizeof widths) != CHV_OK)
      goto out_nomem;
    for (size_t m = 0; m * MINI < cnt; m++) {
      size_t bytes = (size_t)MINI * widths[m] / 8;
      if (chv_buf_reserve(out, bytes) != CHV_OK) goto out_nomem;
      chv_pq_pack64(rel + m * MINI, MINI, widths[m],
                    (uint8_t *)out->data + out->len);
      out->len += bytes;
      out->data[out->len] = '\0';
    }
  }
  return CHV_OK;
out_nomem:
  out->len = start;
  return nomem(err);
}

int chv_pq_delta_encode_i32(const int32_t *v, size_t n, struct chv_buf *out,
                            struct chv_error *err) {
  return delta_encode(v, n, true, out, err);
}

int chv_pq_delta_encode_i64(const int64_t *v, size_t n, struct chv_buf *out,
                            struct chv_error *err) {
  return delta_encode(v, n, false, out, err);
}

/* ---- DELTA_LENGTH_BYTE_ARRAY ------------------------------------------- */

int chv_pq_dlba_init(struct chv_pq_dlba_dec *d, const uint8_t *p, size_t len,
                     struct chv_error *err) {
  CHV_RETURN_IF_ERR(chv_pq_delta_init(&d->lens, p, len, err));
  struct chv_pq_delta_dec walk = d->lens;
  const uint8_t *data;
  int rc = chv_pq_delta_end(&walk, &data, err);
  if (rc != CHV_OK)
    return chv_error_wrap(err, "DELTA_LENGTH_BYTE_ARRAY lengths");
  d->base = p;
  d->data = data;
  d->end = p + len;
  return check_span32(d->base, d->end, "DELTA_LENGTH_BYTE_ARRAY", err);
}

int chv_pq_dlba_next(struct chv_pq_dlba_dec *d, size_t n, uint32_t *offs,
                     uint32_t *lens, uint64_t *total, struct chv_error *err) {
  if (n > d->lens.left)
    return chv_error_set(err, CHV_ECORRUPT,
                         "DELTA_LENGTH_BYTE_ARRAY holds %llu more values, %zu "
                         "asked",
                         (unsigned long long)d->lens.left, n);
  uint64_t sum = 0;
  const uint8_t *q = d->data;
  for (size_t i = 0; i < n;) {
    size_t k = CHV_MIN(n - i, CHV_ARRAY_SIZE(d->lenbuf));
    CHV_RETURN_IF_ERR(chv_pq_delta_next_i32(&d->lens, k, d->lenbuf, err));
    for (size_t j = 0; j < k; j++) {
      int32_t l = d->lenbuf[j];
      if (l < 0)
        return chv_error_set(err, CHV_ECORRUPT,
                             "DELTA_LENGTH_BYTE_ARRAY: value %zu has negative "
                             "length %d",
                             i + j, l);
      if ((size_t)l > (size_t)(d->end - q))
        return chv_error_set(err, CHV_ECORRUPT,
                             "DELTA_LENGTH_BYTE_ARRAY: value of %d bytes "
                             "exceeds the %zu bytes left",
                             l, (size_t)(d->end - q));
      if (offs) offs[i + j] = (uint32_t)(q - d->base);
      if (lens) lens[i + j] = (uint32_t)l;
      q += l;
      sum += (uint64_t)l;
    }
    i += k;
  }
  d->data = q;
  if (total) *total = sum;
  return CHV_OK;
}

/* Lengths of n values of an Arrow-layout array into a fresh int32 array. */
static int ba_lengths(const int32_t *offsets, size_t n, int32_t **out,
                      struct chv_error *err) {
  int32_t *l = chv_malloc((n ? n : 1) * sizeof *l);
  if (l == NULL) return nomem(err);
  for (size_t i = 0; i < n; i++) {
    uint32_t x = 0;
    int rc = ba_len(offsets, i, &x, err);
    if (rc != CHV_OK) {
      chv_free(l);
      return rc;
    }
    l[i] = (int32_t)x;
  }
  *out = l;
  return CHV_OK;
}

int chv_pq_dlba_encode(const char *bytes, const int32_t *offsets, size_t n,
                       struct chv_buf *out, struct chv_error *err) {
  int32_t *lens;
  CHV_RETURN_IF_ERR(ba_lengths(offsets, n, &lens, err));
  size_t start = out->len;
  int rc = chv_pq_delta_encode_i32(lens, n, out, err);
  if (rc == CHV_OK && n &&
      chv_buf_append(out, bytes + offsets[0],
                     (size_t)(offsets[n] - offsets[0])) != CHV_OK) {
    out->len = start;
    rc = nomem(err);
  }
  chv_free(lens);
  return rc;
}

/* ---- DELTA_BYTE_ARRAY -------------------------------------------------- */

int chv_pq_dba_init(struct chv_pq_dba_dec *d, const uint8_t *p, size_t len,
                    struct chv_error *err) {
  chv_buf_init(&d->prev);
  int rc = chv_pq_delta_init(&d->prefix, p, len, err);
  if (rc != CHV_OK) return chv_error_wrap(err, "DELTA_BYTE_ARRAY prefixes");
  struct chv_pq_delta_dec walk = d->prefix;
  const uint8_t *q;
  rc = chv_pq_delta_end(&walk, &q, err);
  if (rc != CHV_OK) return chv_error_wrap(err, "DELTA_BYTE_ARRAY prefixes");
  rc = chv_pq_dlba_init(&d->suffix, q, (size_t)(p + len - q), err);
  if (rc != CHV_OK) return chv_error_wrap(err, "DELTA_BYTE_ARRAY suffixes");
  if (d->prefix.total != d->suffix.lens.total)
    return chv_error_set(err, CHV_ECORRUPT,
                         "DELTA_BYTE_ARRAY has %llu prefix lengths and %llu "
                         "suffixes",
                         (unsigned long long)d->prefix.total,
                         (unsigned long long)d->suffix.lens.total);
  return CHV_OK;
}

void chv_pq_dba_free(struct chv_pq_dba_dec *d) { chv_buf_free(&d->prev); }

int chv_pq_dba_next(struct chv_pq_dba_dec *d, size_t n, struct chv_buf *heap,
                    int32_t *offsets, struct chv_error *err) {
  if (n > d->prefix.left)
    return chv_error_set(err, CHV_ECORRUPT,
                         "DELTA_BYTE_ARRAY holds %llu more values, %zu asked",
                         (unsigned long long)d->prefix.left, n);
  if (heap->len > INT32_MAX)
    return chv_error_set(err, CHV_ERANGE, "byte array heap exceeds 2 GiB");
  offsets[0] = (int32_t)heap->len;
  for (size_t i = 0; i < n;) {
    size_t k = CHV_MIN(n - i, CHV_ARRAY_SIZE(d->pbuf));
    CHV_RETURN_IF_ERR(chv_pq_delta_next_i32(&d->prefix, k, d->pbuf, err));
    CHV_RETURN_IF_ERR(
        chv_pq_dlba_next(&d->suffix, k, d->soff, d->slen, NULL, err));
    for (size_t j = 0; j < k; j++) {
      int32_t pl = d->pbuf[j];
      if (pl < 0 || (size_t)pl > d->prev.len)
        return chv_error_set(err, CHV_ECORRUPT,
                             "DELTA_BYTE_ARRAY: prefix of %d bytes for value "
                             "%zu exceeds the previous value's %zu bytes",
                             pl, i + j, d->prev.len);
      size_t sl = d->slen[j], vl = (size_t)pl + sl;
      if (vl > (size_t)INT32_MAX - heap->len)
        return chv_error_set(err, CHV_ERANGE,
                             "DELTA_BYTE_ARRAY: values exceed 2 GiB");
      const uint8_t *suf = d->suffix.base + d->soff[j];
      if (chv_buf_reserve(heap, vl) != CHV_OK) return nomem(err);
      char *dst = heap->data + heap->len;
      if (pl) memcpy(dst, d->prev.data, (size_t)pl);
      if (sl) memcpy(dst + pl, suf, sl);
      heap->len += vl;
      heap->data[heap->len] = '\0';
      offsets[i + j + 1] = (int32_t)heap->len;
      d->prev.len = (size_t)pl;
      if (chv_buf_append(&d->prev, suf, sl) != CHV_OK) return nomem(err);
    }
    i += k;
  }
  return CHV_OK;
}

int chv_pq_dba_encode(const char *bytes, const int32_t *offsets, size_t n,
                      struct chv_buf *out, struct chv_error *err) {
  int32_t *lens;
  CHV_RETURN_IF_ERR(ba_lengths(offsets, n, &lens, err));
  int32_t *pre = chv_malloc((n ? n : 1) * sizeof *pre);
  if (pre == NULL) {
    chv_free(lens);
    return nomem(err);
  }
  for (size_t i = 0; i < n; i++) {
    int32_t p = 0;
    if (i > 0) {
      const char *a = bytes + offsets[i - 1], *b = bytes + offsets[i];
      int32_t m = CHV_MIN(lens[i - 1], lens[i]);
      while (p < m && a[p] == b[p]) p++;
    }
    pre[i] = p;
    lens[i] -= p; /* now the suffix length */
  }
  size_t start = out->len;
  int rc = chv_pq_delta_encode_i32(pre, n, out, err);
  if (rc == CHV_OK) rc = chv_pq_delta_encode_i32(lens, n, out, err);
  for (size_t i = 0; rc == CHV_OK && i < n; i++)
    if (chv_buf_append(out, bytes + offsets[i] + pre[i], (size_t)lens[i]) !=
        CHV_OK)
      rc = nomem(err);
  if (rc != CHV_OK) out->len = start;
  chv_free(pre);
  chv_free(lens);
  return rc;
}

/* ---- BYTE_STREAM_SPLIT ------------------------------------------------- */

int chv_pq_bss_init(struct chv_pq_bss_dec *d, const uint8_t *p, size_t len,
                    size_t k, struct chv_error *err) {
  if (k == 0)
    return chv_error_set(err, CHV_ECORRUPT,
                         "BYTE_STREAM_SPLIT of 0-byte values");
  if (len % k != 0)
    return chv_error_set(err, CHV_ECORRUPT,
                         "BYTE_STREAM_SPLIT data of %zu bytes is not a "
                         "multiple of %zu",
                         len, k);
  d->base = p;
  d->k = k;
  d->count = len / k;
  d->pos = 0;
  return CHV_OK;
}

static ALWAYS_INLINE void bss_gather(const uint8_t *s, size_t count, size_t n,
                                     uint8_t *out, const size_t k) {
  for (size_t j = 0; j < k; j++) {
    const uint8_t *src = s + j * count;
    for (size_t i = 0; i < n; i++) out[i * k + j] = src[i];
  }
}

int chv_pq_bss_next(struct chv_pq_bss_dec *d, size_t n, void *out,
                    struct chv_error *err) {
  if (n > d->count - d->pos)
    return chv_error_set(err, CHV_ECORRUPT,
                         "BYTE_STREAM_SPLIT holds %zu more values, %zu asked",
                         d->count - d->pos, n);
  if (out) {
    const uint8_t *s = d->base + d->pos;
    uint8_t *o = out;
    if (d->k == 4) {
      const uint8_t *s0 = s, *s1 = s + d->count, *s2 = s1 + d->count,
                    *s3 = s2 + d->count;
      uint32_t *o32 = out;
      for (size_t i = 0; i < n; i++)
        o32[i] = (uint32_t)s0[i] | (uint32_t)s1[i] << 8 |
                 (uint32_t)s2[i] << 16 | (uint32_t)s3[i] << 24;
    } else if (d->k == 8) {
      uint64_t *o64 = out;
      size_t c = d->count;
      for (size_t i = 0; i < n; i++)
        o64[i] = (uint64_t)s[i] | (uint64_t)s[c + i] << 8 |
                 (uint64_t)s[2 * c + i] << 16 | (uint64_t)s[3 * c + i] << 24 |
                 (uint64_t)s[4 * c + i] << 32 | (uint64_t)s[5 * c + i] << 40 |
                 (uint64_t)s[6 * c + i] << 48 | (uint64_t)s[7 * c + i] << 56;
    } else if (d->k == 2) {
      bss_gather(s, d->count, n, o, 2);
    } else {
      bss_gather(s, d->count, n, o, d->k);
    }
  }
  d->pos += n;
  return CHV_OK;
}

int chv_pq_bss_encode(const void *v, size_t n, size_t k, struct chv_buf *out,
                      struct chv_error *err) {
  if (k && n > SIZE_MAX / k) return nomem(err);
  if (chv_buf_reserve(out, n * k) != CHV_OK) return nomem(err);
  const uint8_t *src = v;
  uint8_t *dst = (uint8_t *)out->data + out->len;
  for (size_t j = 0; j < k; j++)
    for (size_t i = 0; i < n; i++) dst[j * n + i] = src[i * k + j];
  out->len += n * k;
  out->data[out->len] = '\0';
  return CHV_OK;
}

/* ---- FLOAT16 ----------------------------------------------------------- */

float chv_pq_half_to_float(uint16_t h) {
  uint32_t sign = (uint32_t)(h & 0x8000) << 16;
  uint32_t exp = (h >> 10) & 0x1f, mant = h & 0x3ff, bits;
  if (exp == 0) {
    /* zero or subnormal: mant * 2^-24, exact in a float */
    float f = (float)mant * 0x1p-24f;
    return sign ? -f : f;
  }
  if (exp == 31)
    bits = sign | 0x7f800000u | mant << 13; /* inf, or NaN with payload */
  else
    bits = sign | (exp + 112) << 23 | mant << 13;
  float f;
  memcpy(&f, &bits, 4);
  return f;
}

void chv_pq_half_to_float_n(const uint8_t *in, size_t n, float *out) {
  for (size_t i = 0; i < n; i++)
    out[i] = chv_pq_half_to_float((uint16_t)(in[2 * i] | in[2 * i + 1] << 8));
}
