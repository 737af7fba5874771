/*
** The ORC column writers (orc_write.h): Hive values into ORC streams, with
** the statistics, bloom filters and row index positions of each row group.
**
** Encodings (ORCv1.md, "Column Encodings"), as Hive's ORC writer writes
** them in file version 0.12:
**
**   kind                  encoding        streams
**   BOOLEAN               DIRECT          DATA: boolean RLE
**   BYTE                  DIRECT          DATA: byte RLE
**   SHORT, INT, LONG,     DIRECT_V2       DATA: signed integer RLE v2
**   DATE (days)
**   FLOAT, DOUBLE         DIRECT          DATA: IEEE 754, little-endian
**   STRING, VARCHAR,      DICTIONARY_V2   DATA: ids (unsigned RLE v2),
**   CHAR                                  DICTIONARY_DATA: the sorted values,
**                                         LENGTH: their lengths
**                         or DIRECT_V2    DATA: the bytes, LENGTH: lengths
**   BINARY                DIRECT_V2       DATA: the bytes, LENGTH: lengths
**   DECIMAL               DIRECT_V2       DATA: unscaled values as zigzag
**                                         varints, SECONDARY: the scale
**                                         (signed RLE v2)
**   TIMESTAMP             DIRECT_V2       DATA: seconds since 2015-01-01 UTC
**                                         (signed), SECONDARY: nanoseconds
**                                         (unsigned, trailing zeros cut)
**   LIST, MAP             DIRECT_V2       LENGTH: children per value
**   STRUCT                DIRECT          -
**
** and a PRESENT stream (boolean RLE) in stripes where the column has a
** NULL.  Children of LIST, MAP and STRUCT values hold entries for the
** parent's non-NULL values only.
**
** Values as ORC Java shapes them: CHAR(n) padded with spaces to n
** characters (or cut to n), VARCHAR(n) cut to n characters.  DECIMAL
** values are written at the column's scale, the SECONDARY stream holding
** that scale for each value (as ORC C++ and Trino write them; Hive writes
** each value's own scale, trailing zeros removed; readers rescale either).
** TIMESTAMP seconds are ORC Java's: the milliseconds since the epoch,
** divided by 1000 truncating toward zero, less the 2015 base, so that
** readers adding the milliseconds of the nanoseconds back get the value.
**
** Statistics follow ORC Java's ColumnStatisticsImpl: numberOfValues (the
** non-NULL values), hasNull, bytesOnDisk in stripe and file statistics;
** integers min, max and sum (left out when it overflows); FLOAT and DOUBLE
** min, max and sum (NaN is left out of min and max, and makes the sum NaN,
** which tells readers not to trust them); strings min, max (byte order) and
** the sum of their lengths, a value over 1024 bytes giving a lowerBound
** and upperBound cut at a character boundary instead (ORC-203); BINARY the
** sum of the lengths; DECIMAL min, max and sum as HiveDecimal prints them
** (no trailing fraction zeros; the sum is left out past 18 digits for
** decimal(p<=18), past 38 otherwise); DATE min and max days; TIMESTAMP
** minimumUtc/maximumUtc in milliseconds and the nanoseconds below them
** (+1, when not 0 / 999999); BOOLEAN the count of true values; LIST and
** MAP the fewest, most and total children.
**
** Bloom filters (BLOOM_FILTER_UTF8): ORC Java's BloomFilterUtf8.  Integers,
** dates (days), timestamps (UTC milliseconds) and list and map lengths
** hash with Thomas Wang's 64-bit hash, FLOAT and DOUBLE as the bits of the
** double (Java's doubleToLongBits: one NaN), strings (CHAR padded) and
** binaries with ORC's 64-bit Murmur3, decimals as their HiveDecimal
** string.  Booleans and structs add nothing (their filters stay empty).
**
** INTERFACE: see orc_write.h.
*/
#include "format/orc/orc_write.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>

/* ---- hashes and bloom filters -------------------------------------------- */

static inline uint64_t rotl64(uint64_t x, int r) {
  return (x << r) | (x >> (64 - r));
}

static inline uint64_t fmix64(uint64_t k) {
  k ^= k >> 33;
  k *= 0xff51afd7ed558ccdull;
  k ^= k >> 33;
  k *= 0xc4ceb9fe1a85ec53ull;
  k ^= k >> 33;
  return k;
}

uint64_t ow_murmur3_64(const void *data, size_t n) {
  const uint64_t c1 = 0x87c37b91114253d5ull, c2 = 0x4cf5ad432745937full;
  const uint8_t *p = data;
  uint64_t h = 104729;
  size_t nb = n >> 3;
  for (size_t i = 0; i < nb; i++, p += 8) {
    uint64_t k = (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 |
                 (uint64_t)p[3] << 24 | (uint64_t)p[4] << 32 |
                 (uint64_t)p[5] << 40 | (uint64_t)p[6] << 48 |
                 (uint64_t)p[7] << 56;
    k *= c1;
    k = rotl64(k, 31);
    k *= c2;
    h ^= k;
    h = rotl64(h, 27) * 5 + 0x52dce729;
  }
  uint64_t k1 = 0;
  switch (n & 7) {
  case 7:
    k1 ^= (uint64_t)p[6] << 48;
    /* fall through */
  case 6:
    k1 ^= (uint64_t)p[5] << 40;
    /* fall through */
  case 5:
    k1 ^= (uint64_t)p[4] << 32;
    /* fall through */
  case 4:
    k1 ^= (uint64_t)p[3] << 24;
    /* fall through */
  case 3:
    k1 ^= (uint64_t)p[2] << 16;
    /* fall through */
  case 2:
    k1 ^= (uint64_t)p[1] << 8;
    /* fall through */
  case 1:
    k1 ^= (uint64_t)p[0];
    k1 *= c1;
    k1 = rotl64(k1, 31);
    k1 *= c2;
    h ^= k1;
    break;
  default:
    break;
  }
  h ^= (uint64_t)n;
  return fmix64(h);
}

/* Java's arithmetic shift of a long. */
static inline uint64_t sar(uint64_t k, int s) {
  return (uint64_t)((int64_t)k >> s);
}

uint64_t ow_wang64(int64_t key) {
  uint64_t k = (uint64_t)key;
  k = ~k + (k << 21);
  k ^= sar(k, 24);
  k = k + (k << 3) + (k << 8);
  k ^= sar(k, 14);
  k = k + (k << 2) + (k << 4);
  k ^= sar(k, 28);
  k += k << 31;
  return k;
}

void ow_bloom_add(uint64_t *bits, uint32_t nbits, uint32_t k, uint64_t h) {
  uint32_t h1 = (uint32_t)h, h2 = (uint32_t)(h >> 32);
  for (uint32_t i = 1; i <= k; i++) {
    int32_t c = (int32_t)(h1 + i * h2);
    if (c < 0) c = ~c;
    uint32_t pos = (uint32_t)c % nbits;
    bits[pos >> 6] |= (uint64_t)1 << (pos & 63);
  }
}

bool ow_bloom_test(const uint64_t *bits, uint32_t nbits, uint32_t k,
                   uint64_t h) {
  uint32_t h1 = (uint32_t)h, h2 = (uint32_t)(h >> 32);
  for (uint32_t i = 1; i <= k; i++) {
    int32_t c = (int32_t)(h1 + i * h2);
    if (c < 0) c = ~c;
    uint32_t pos = (uint32_t)c % nbits;
    if (!(bits[pos >> 6] >> (pos & 63) & 1)) return false;
  }
  return true;
}

/* The long Java's doubleToLongBits gives (every NaN as one). */
static inline int64_t double_bits(double d) {
  if (d != d) return 0x7ff8000000000000ll;
  int64_t b;
  memcpy(&b, &d, 8);
  return b;
}

static inline void bloom_long(struct ow_col *c, struct ow_ctx *cx, int64_t v) {
  ow_bloom_add(c->bloom_bits, cx->bloom_bits, cx->bloom_k, ow_wang64(v));
}

static inline void bloom_bytes(struct ow_col *c, struct ow_ctx *cx,
                               const void *p, size_t n) {
  ow_bloom_add(c->bloom_bits, cx->bloom_bits, cx->bloom_k, ow_murmur3_64(p, n));
}

/* ---- values -------------------------------------------------------------- */

static bool is_string_kind(int32_t kind) {
  return kind == CHV_ORC_KIND_STRING || kind == CHV_ORC_KIND_VARCHAR ||
         kind == CHV_ORC_KIND_CHAR;
}

/* A decimal as HiveDecimal prints it: no trailing fraction zeros.  buf: at
** least 48 bytes.  Returns the length. */
static int decimal_text(chv_i128 v, int scale, char *buf) {
  while (scale > 0 && v % 10 == 0) {
    v /= 10;
    scale--;
  }
  return chv_decimal_format(v, scale, buf);
}

/* A timestamp as ORC Java writes it: the DATA value (seconds since the 2015
** base) and the UTC milliseconds its readers give back (statistics and
** bloom filters use these). */
static inline void ts_encode(const struct chv_timestamp *t, int64_t *data,
                             int64_t *millis) {
  int64_t ms = t->seconds * 1000 + t->nanos / 1000000;
  int64_t s = ms / 1000; /* toward zero, as Java's division */
  *data = s - OW_TS_BASE;
  int64_t m = s * 1000 + t->nanos / 1000000;
  if (m < 0 && t->nanos > 999999) m -= 1000;
  *millis = m;
}

/* Largest |seconds| whose milliseconds fit int64. */
#define OW_TS_MAX_SECONDS (INT64_MAX / 1000 - 1)

/* ---- statistics ---------------------------------------------------------- */

void ow_stats_reset(struct ow_stats *s) {
  struct chv_buf smin = s->smin, smax = s->smax;
  memset(s, 0, sizeof *s);
  s->smin = smin;
  s->smax = smax;
  chv_buf_reset(&s->smin);
  chv_buf_reset(&s->smax);
}

void ow_stats_free(struct ow_stats *s) {
  chv_buf_free(&s->smin);
  chv_buf_free(&s->smax);
  memset(s, 0, sizeof *s);
}

static inline void int_update(struct ow_stats *s, int64_t v) {
  if (!s->any) {
    s->any = true;
    s->imin = s->imax = v;
  } else if (v < s->imin) {
    s->imin = v;
  } else if (v > s->imax) {
    s->imax = v;
  }
  if (!s->isum_bad && __builtin_add_overflow(s->isum, v, &s->isum))
    s->isum_bad = true;
}

static inline void double_update(struct ow_stats *s, double v) {
  s->dsum += v;
  if (v != v) {
    if (!s->any) s->dnan_only = true;
    return;
  }
  if (!s->any) {
    s->any = true;
    s->dnan_only = false;
    s->dmin = s->dmax = v;
  } else if (v < s->dmin) {
    s->dmin = v;
  } else if (v > s->dmax) {
    s->dmax = v;
  }
}

/* Whether |v| is within the decimal sum's range for precision p. */
static bool dec_sum_ok(chv_i128 v, int p) {
  static const chv_i128 max18 = (chv_i128)999999999999999999ll;
  if (p <= 18) return v <= max18 && v >= -max18;
  chv_i128 lim = chv_decimal_pow10(38);
  return v < lim && v > -lim;
}

static inline void dec_update(struct ow_stats *s, chv_i128 v, int p) {
  if (!s->any) {
    s->any = true;
    s->mmin = s->mmax = v;
  } else if (v < s->mmin) {
    s->mmin = v;
  } else if (v > s->mmax) {
    s->mmax = v;
  }
  if (!s->msum_bad &&
      (__builtin_add_overflow(s->msum, v, &s->msum) || !dec_sum_ok(s->msum, p)))
    s->msum_bad = true;
}

static inline void ts_update(struct ow_stats *s, int64_t ms, int32_t ns) {
  if (!s->any) {
    s->any = true;
    s->tmin = s->tmax = ms;
    s->tmin_ns = s->tmax_ns = ns;
    return;
  }
  if (s->tmin >= ms) {
    if (s->tmin > ms || ns < s->tmin_ns) s->tmin_ns = ns;
    s->tmin = ms;
  }
  if (s->tmax <= ms) {
    if (s->tmax < ms || ns > s->tmax_ns) s->tmax_ns = ns;
    s->tmax = ms;
  }
}

/* Byte order, shorter first on a common prefix. */
static inline int bytes_cmp(const void *a, size_t an, const void *b,
                            size_t bn) {
  int r = memcmp(a, b, CHV_MIN(an, bn));
  if (r) return r;
  return an < bn ? -1 : an > bn;
}

static bool is_cont(uint8_t b) {
  return (b & 0xC0) == 0x80;
}

/* Start of the character holding byte `at` of p (at < n). */
static size_t char_start(const uint8_t *p, size_t at) {
  while (at > 0 && is_cont(p[at]))
    at--;
  return at;
}

/* The code point of the UTF-8 sequence p[0, n), or -1 if it is not one. */
static int32_t decode_cp(const uint8_t *p, size_t n) {
  if (n == 1) return p[0] < 0x80 ? p[0] : -1;
  int32_t cp;
  size_t want;
  if ((p[0] & 0xE0) == 0xC0) {
    cp = p[0] & 0x1F;
    want = 2;
  } else if ((p[0] & 0xF0) == 0xE0) {
    cp = p[0] & 0x0F;
    want = 3;
  } else if ((p[0] & 0xF8) == 0xF0) {
    cp = p[0] & 0x07;
    want = 4;
  } else {
    return -1;
  }
  if (n != want) return -1;
  for (size_t i = 1; i < n; i++) {
    if (!is_cont(p[i])) return -1;
    cp = cp << 6 | (p[i] & 0x3F);
  }
  return cp;
}

static size_t encode_cp(int32_t cp, uint8_t *o) {
  if (cp < 0x80) {
    o[0] = (uint8_t)cp;
    return 1;
  }
  if (cp < 0x800) {
    o[0] = (uint8_t)(0xC0 | cp >> 6);
    o[1] = (uint8_t)(0x80 | (cp & 0x3F));
    return 2;
  }
  if (cp < 0x10000) {
    o[0] = (uint8_t)(0xE0 | cp >> 12);
    o[1] = (uint8_t)(0x80 | (cp >> 6 & 0x3F));
    o[2] = (uint8_t)(0x80 | (cp & 0x3F));
    return 3;
  }
  o[0] = (uint8_t)(0xF0 | cp >> 18);
  o[1] = (uint8_t)(0x80 | (cp >> 12 & 0x3F));
  o[2] = (uint8_t)(0x80 | (cp >> 6 & 0x3F));
  o[3] = (uint8_t)(0x80 | (cp & 0x3F));
  return 4;
}

/* A lower bound of a value over OW_MAX_STAT_BYTES: its characters that
** end before that byte. */
static int set_lower(struct chv_buf *b, const uint8_t *p, size_t n) {
  (void)n;
  size_t at = char_start(p, OW_MAX_STAT_BYTES);
  chv_buf_reset(b);
  return chv_buf_append(b, p, at);
}

/* An upper bound of a value over OW_MAX_STAT_BYTES: its characters before
** the one holding that byte, the last of them incremented (ORC-203).
** *truncated false when no such bound exists (the value is kept whole). */
static int set_upper(struct chv_buf *b, const uint8_t *p, size_t n,
                     bool *truncated) {
  size_t end = char_start(p, OW_MAX_STAT_BYTES);
  chv_buf_reset(b);
  while (end > 0) {
    size_t last = char_start(p, end - 1);
    int32_t cp = decode_cp(p + last, end - last);
    if (cp >= 0 && cp < 0x10FFFF) {
      cp++;
      if (cp == 0xD800) cp = 0xE000;
      uint8_t enc[4];
      size_t k = encode_cp(cp, enc);
      *truncated = true;
      if (chv_buf_append(b, p, last) || chv_buf_append(b, enc, k))
        return CHV_ENOMEM;
      return CHV_OK;
    }
    if (cp < 0 && end - last == 1 && p[last] < 0xFF) {
      /* Not UTF-8: the bytes' own order. */
      uint8_t inc = (uint8_t)(p[last] + 1);
      *truncated = true;
      if (chv_buf_append(b, p, last) || chv_buf_append(b, &inc, 1))
        return CHV_ENOMEM;
      return CHV_OK;
    }
    end = last;
  }
  *truncated = false;
  return chv_buf_append(b, p, n);
}

static int string_update(struct ow_stats *s, const uint8_t *p, size_t n) {
  s->ssum += (int64_t)n;
  bool lo = false, hi = false;
  if (!s->any) {
    s->any = true;
    lo = hi = true;
  } else if (bytes_cmp(s->smin.data, s->smin.len, p, n) > 0) {
    lo = true;
  } else if (bytes_cmp(s->smax.data, s->smax.len, p, n) < 0) {
    hi = true;
  }
  if (lo) {
    if (n > OW_MAX_STAT_BYTES) {
      if (set_lower(&s->smin, p, n)) return CHV_ENOMEM;
      s->slower = true;
    } else {
      chv_buf_reset(&s->smin);
      if (chv_buf_append(&s->smin, p, n)) return CHV_ENOMEM;
      s->slower = false;
    }
  }
  if (hi) {
    if (n > OW_MAX_STAT_BYTES) {
      bool t;
      if (set_upper(&s->smax, p, n, &t)) return CHV_ENOMEM;
      s->supper = t;
    } else {
      chv_buf_reset(&s->smax);
      if (chv_buf_append(&s->smax, p, n)) return CHV_ENOMEM;
      s->supper = false;
    }
  }
  return CHV_OK;
}

static int copy_buf(struct chv_buf *dst, const struct chv_buf *src) {
  chv_buf_reset(dst);
  return chv_buf_append(dst, src->data ? src->data : "", src->len);
}

/* Merge src into dst (both of a column of kind `kind`). */
static int stats_merge(struct ow_stats *d, const struct ow_stats *s,
                       int32_t kind, int precision) {
  d->count += s->count;
  d->has_null |= s->has_null;
  d->bytes_on_disk += s->bytes_on_disk;
  switch (kind) {
  case CHV_ORC_KIND_BOOLEAN:
    d->imax += s->imax;
    break;
  case CHV_ORC_KIND_BYTE:
  case CHV_ORC_KIND_SHORT:
  case CHV_ORC_KIND_INT:
  case CHV_ORC_KIND_LONG:
  case CHV_ORC_KIND_DATE:
    if (s->any) {
      if (!d->any) {
        d->any = true;
        d->imin = s->imin;
        d->imax = s->imax;
      } else {
        if (s->imin < d->imin) d->imin = s->imin;
        if (s->imax > d->imax) d->imax = s->imax;
      }
    }
    d->isum_bad |= s->isum_bad;
    if (!d->isum_bad && __builtin_add_overflow(d->isum, s->isum, &d->isum))
      d->isum_bad = true;
    break;
  case CHV_ORC_KIND_FLOAT:
  case CHV_ORC_KIND_DOUBLE:
    d->dsum += s->dsum;
    if (s->any) {
      if (!d->any) {
        d->any = true;
        d->dmin = s->dmin;
        d->dmax = s->dmax;
      } else {
        if (s->dmin < d->dmin) d->dmin = s->dmin;
        if (s->dmax > d->dmax) d->dmax = s->dmax;
      }
      d->dnan_only = false;
    } else if (s->dnan_only && !d->any) {
      d->dnan_only = true;
    }
    break;
  case CHV_ORC_KIND_STRING:
  case CHV_ORC_KIND_VARCHAR:
  case CHV_ORC_KIND_CHAR:
    d->ssum += s->ssum;
    if (s->any) {
      if (!d->any) {
        d->any = true;
        if (copy_buf(&d->smin, &s->smin) || copy_buf(&d->smax, &s->smax))
          return CHV_ENOMEM;
        d->slower = s->slower;
        d->supper = s->supper;
      } else {
        if (bytes_cmp(d->smin.data, d->smin.len, s->smin.data, s->smin.len) >
            0) {
          if (copy_buf(&d->smin, &s->smin)) return CHV_ENOMEM;
          d->slower = s->slower;
        }
        if (bytes_cmp(d->smax.data, d->smax.len, s->smax.data, s->smax.len) <
            0) {
          if (copy_buf(&d->smax, &s->smax)) return CHV_ENOMEM;
          d->supper = s->supper;
        }
      }
    }
    break;
  case CHV_ORC_KIND_BINARY:
    d->ssum += s->ssum;
    break;
  case CHV_ORC_KIND_DECIMAL:
    if (s->any) {
      if (!d->any) {
        d->any = true;
        d->mmin = s->mmin;
        d->mmax = s->mmax;
      } else {
        if (s->mmin < d->mmin) d->mmin = s->mmin;
        if (s->mmax > d->mmax) d->mmax = s->mmax;
      }
    }
    d->msum_bad |= s->msum_bad;
    if (!d->msum_bad && (__builtin_add_overflow(d->msum, s->msum, &d->msum) ||
                         !dec_sum_ok(d->msum, precision)))
      d->msum_bad = true;
    break;
  case CHV_ORC_KIND_TIMESTAMP:
    if (s->any) {
      if (!d->any) {
        d->any = true;
        d->tmin = s->tmin;
        d->tmax = s->tmax;
        d->tmin_ns = s->tmin_ns;
        d->tmax_ns = s->tmax_ns;
      } else {
        if (d->tmin >= s->tmin) {
          if (d->tmin > s->tmin || d->tmin_ns > s->tmin_ns)
            d->tmin_ns = s->tmin_ns;
          d->tmin = s->tmin;
        }
        if (d->tmax <= s->tmax) {
          if (d->tmax < s->tmax || d->tmax_ns < s->tmax_ns)
            d->tmax_ns = s->tmax_ns;
          d->tmax = s->tmax;
        }
      }
    }
    break;
  case CHV_ORC_KIND_LIST:
  case CHV_ORC_KIND_MAP:
    if (s->count) {
      if (!d->any) {
        d->any = true;
        d->cmin = s->cmin;
        d->cmax = s->cmax;
      } else {
        if (s->cmin < d->cmin) d->cmin = s->cmin;
        if (s->cmax > d->cmax) d->cmax = s->cmax;
      }
    }
    d->ctotal += s->ctotal;
    break;
  default:
    break;
  }
  return CHV_OK;
}

static struct chv_orc_bytes arena_bytes(chv_arena *a, const struct chv_buf *b,
                                        bool *ok) {
  struct chv_orc_bytes r = {NULL, 0};
  uint8_t *p = chv_arena_alloc(a, b->len + 1);
  if (p == NULL) {
    *ok = false;
    return r;
  }
  if (b->len) memcpy(p, b->data, b->len);
  p[b->len] = 0;
  r.data = p;
  r.len = (uint32_t)b->len;
  return r;
}

static const char *arena_decimal(chv_arena *a, chv_i128 v, int scale,
                                 bool *ok) {
  char buf[64];
  int n = decimal_text(v, scale, buf);
  char *p = chv_arena_strndup(a, buf, (size_t)n);
  if (p == NULL) *ok = false;
  return p;
}

int ow_stats_to_orc(const struct ow_stats *s, int32_t kind, int scale,
                    int precision, chv_arena *a,
                    struct chv_orc_column_stats *o) {
  (void)precision;
  bool ok = true;
  memset(o, 0, sizeof *o);
  o->has_number_of_values = true;
  o->number_of_values = s->count;
  o->has_has_null = true;
  o->has_null = s->has_null;
  if (s->bytes_on_disk) {
    o->has_bytes_on_disk = true;
    o->bytes_on_disk = s->bytes_on_disk;
  }
  switch (kind) {
  case CHV_ORC_KIND_BOOLEAN:
    o->has_bucket = true;
    o->bucket_stats.ncount = 1;
    o->bucket_stats.count = chv_arena_alloc(a, sizeof(uint64_t));
    if (o->bucket_stats.count == NULL) return CHV_ENOMEM;
    o->bucket_stats.count[0] = (uint64_t)s->imax;
    break;
  case CHV_ORC_KIND_BYTE:
  case CHV_ORC_KIND_SHORT:
  case CHV_ORC_KIND_INT:
  case CHV_ORC_KIND_LONG:
    o->has_int = true;
    if (s->any) {
      o->int_stats.has_min = o->int_stats.has_max = true;
      o->int_stats.min = s->imin;
      o->int_stats.max = s->imax;
    }
    if (!s->isum_bad) {
      o->int_stats.has_sum = true;
      o->int_stats.sum = s->isum;
    }
    break;
  case CHV_ORC_KIND_FLOAT:
  case CHV_ORC_KIND_DOUBLE:
    o->has_double = true;
    if (s->any || s->dnan_only) {
      o->double_stats.has_min = o->double_stats.has_max = true;
      o->double_stats.min = s->any ? s->dmin : NAN;
      o->double_stats.max = s->any ? s->dmax : NAN;
    }
    o->double_stats.has_sum = true;
    o->double_stats.sum = s->dsum;
    break;
  case CHV_ORC_KIND_STRING:
  case CHV_ORC_KIND_VARCHAR:
  case CHV_ORC_KIND_CHAR:
    o->has_string = true;
    if (s->count && s->any) {
      struct chv_orc_string_stats *t = &o->string_stats;
      if (s->slower) {
        t->has_lower_bound = true;
        t->lower_bound = arena_bytes(a, &s->smin, &ok);
      } else {
        t->has_min = true;
        t->min = arena_bytes(a, &s->smin, &ok);
      }
      if (s->supper) {
        t->has_upper_bound = true;
        t->upper_bound = arena_bytes(a, &s->smax, &ok);
      } else {
        t->has_max = true;
        t->max = arena_bytes(a, &s->smax, &ok);
      }
      t->has_sum = true;
      t->sum = s->ssum;
    }
    break;
  case CHV_ORC_KIND_BINARY:
    o->has_binary = true;
    o->binary_stats.has_sum = true;
    o->binary_stats.sum = s->ssum;
    break;
  case CHV_ORC_KIND_DECIMAL:
    o->has_decimal = true;
    if (s->count && s->any) {
      o->decimal_stats.min = arena_decimal(a, s->mmin, scale, &ok);
      o->decimal_stats.max = arena_decimal(a, s->mmax, scale, &ok);
    }
    if (!s->msum_bad)
      o->decimal_stats.sum = arena_decimal(a, s->msum, scale, &ok);
    break;
  case CHV_ORC_KIND_DATE:
    o->has_date = true;
    if (s->count && s->any) {
      o->date_stats.has_min = o->date_stats.has_max = true;
      o->date_stats.min = (int32_t)s->imin;
      o->date_stats.max = (int32_t)s->imax;
    }
    break;
  case CHV_ORC_KIND_TIMESTAMP:
    o->has_timestamp = true;
    if (s->count && s->any) {
      struct chv_orc_timestamp_stats *t = &o->timestamp_stats;
      t->has_min_utc = t->has_max_utc = true;
      t->min_utc = s->tmin;
      t->max_utc = s->tmax;
      if (s->tmin_ns != 0) {
        t->has_min_nanos = true;
        t->min_nanos = s->tmin_ns + 1;
      }
      if (s->tmax_ns != 999999) {
        t->has_max_nanos = true;
        t->max_nanos = s->tmax_ns + 1;
      }
    }
    break;
  case CHV_ORC_KIND_LIST:
  case CHV_ORC_KIND_MAP:
    o->has_collection = true;
    if (s->count) {
      o->collection_stats.has_min_children = true;
      o->collection_stats.has_max_children = true;
      o->collection_stats.min_children = s->cmin;
      o->collection_stats.max_children = s->cmax;
    }
    if (s->ctotal) {
      o->collection_stats.has_total_children = true;
      o->collection_stats.total_children = s->ctotal;
    }
    break;
  default:
    break;
  }
  return ok ? CHV_OK : CHV_ENOMEM;
}

/* ---- the column ---------------------------------------------------------- */

static int oom(struct chv_error *err) {
  return chv_error_set(err, CHV_ENOMEM, "out of memory");
}

int ow_col_init(struct ow_col *c, struct ow_ctx *cx, struct chv_error *err) {
  int32_t k = c->kind;
  c->has[OW_PRESENT] = c->nullable;
  switch (k) {
  case CHV_ORC_KIND_BOOLEAN:
  case CHV_ORC_KIND_BYTE:
  case CHV_ORC_KIND_SHORT:
  case CHV_ORC_KIND_INT:
  case CHV_ORC_KIND_LONG:
  case CHV_ORC_KIND_DATE:
  case CHV_ORC_KIND_FLOAT:
  case CHV_ORC_KIND_DOUBLE:
    c->has[OW_DATA] = true;
    break;
  case CHV_ORC_KIND_STRING:
  case CHV_ORC_KIND_VARCHAR:
  case CHV_ORC_KIND_CHAR:
    c->has[OW_DATA] = c->has[OW_LENGTH] = c->has[OW_DICT] = true;
    break;
  case CHV_ORC_KIND_BINARY:
    c->has[OW_DATA] = c->has[OW_LENGTH] = true;
    break;
  case CHV_ORC_KIND_DECIMAL:
  case CHV_ORC_KIND_TIMESTAMP:
    c->has[OW_DATA] = c->has[OW_SECONDARY] = true;
    break;
  case CHV_ORC_KIND_LIST:
  case CHV_ORC_KIND_MAP:
    c->has[OW_LENGTH] = true;
    break;
  default:
    break;
  }
  chv_orc_out_init(&c->s[OW_PRESENT], cx->codec_bin);
  chv_orc_out_init(&c->s[OW_DATA], cx->codec_text);
  chv_orc_out_init(&c->s[OW_LENGTH], cx->codec_bin);
  chv_orc_out_init(&c->s[OW_DICT], cx->codec_text);
  chv_orc_out_init(&c->s[OW_SECONDARY], cx->codec_bin);
  chv_orc_bool_rle_enc_init(&c->present, &c->s[OW_PRESENT]);
  chv_orc_bool_rle_enc_init(&c->bools, &c->s[OW_DATA]);
  chv_orc_byte_rle_enc_init(&c->bytes, &c->s[OW_DATA]);
  chv_orc_int_rle_enc_init(&c->ints, &c->s[OW_DATA], !is_string_kind(k));
  chv_orc_int_rle_enc_init(&c->lens, &c->s[OW_LENGTH], false);
  chv_orc_int_rle_enc_init(&c->sec, &c->s[OW_SECONDARY],
                           k == CHV_ORC_KIND_DECIMAL);
  chv_buf_init(&c->dict);
  chv_buf_init(&c->index);
  chv_buf_init(&c->bloomx);
  chv_buf_init(&c->rg_st.smin);
  chv_buf_init(&c->rg_st.smax);
  chv_buf_init(&c->stripe_st.smin);
  chv_buf_init(&c->stripe_st.smax);
  chv_buf_init(&c->file_st.smin);
  chv_buf_init(&c->file_st.smax);
  if (k == CHV_ORC_KIND_DECIMAL) c->dec_limit = chv_decimal_pow10(c->type->precision);
  c->no_dict = !is_string_kind(k) || !(cx->dict_threshold > 0);
  c->smode = c->no_dict ? OW_S_DIRECT : OW_S_UNDECIDED;
  if (c->bloom && cx->stride > 0) {
    c->bloom_bits = chv_calloc(cx->bloom_bits / 64, sizeof(uint64_t));
    if (c->bloom_bits == NULL) return oom(err);
  } else {
    c->bloom = false;
  }
  return CHV_OK;
}

void ow_col_free(struct ow_col *c) {
  for (int i = 0; i < OW_NSTREAMS; i++)
    chv_orc_out_free(&c->s[i]);
  chv_free(c->rgs);
  chv_free(c->bloom_bits);
  chv_buf_free(&c->dict);
  chv_free(c->dict_off);
  chv_free(c->slots);
  chv_free(c->ids);
  chv_buf_free(&c->index);
  chv_buf_free(&c->bloomx);
  ow_stats_free(&c->rg_st);
  ow_stats_free(&c->stripe_st);
  ow_stats_free(&c->file_st);
}

int64_t ow_col_buffered(const struct ow_col *c) {
  int64_t n = 0;
  for (int i = 0; i < OW_NSTREAMS; i++)
    n += (int64_t)c->s[i].out.len + (int64_t)c->s[i].pending_len;
  n += (int64_t)c->dict.len + 4 * (int64_t)c->ndict + 4 * (int64_t)c->nids +
       8 * (int64_t)c->nslots;
  return n;
}

/* ---- checks -------------------------------------------------------------- */

static int range_err(const struct ow_col *c, int64_t row, struct chv_error *err,
                     const char *what) {
  return chv_error_set(err, CHV_ERANGE, "column %s, row %" PRId64 ": %s",
                       c->name, row, what);
}

int ow_col_check(const struct ow_col *c, const struct chv_vector *v, int64_t r0,
                 int64_t r1, int64_t top, struct chv_error *err) {
  if (r1 <= r0 || !c->needs_check) return CHV_OK;
  const uint8_t *valid = v->validity;
  switch (c->kind) {
  case CHV_ORC_KIND_DECIMAL: {
    const chv_i128 *d = v->data;
    for (int64_t i = r0; i < r1; i++) {
      if (valid && !chv_bit_get(valid, i)) continue;
      if (d[i] >= c->dec_limit || d[i] <= -c->dec_limit) {
        char buf[64], what[160];
        chv_decimal_format(d[i], c->type->scale, buf);
        snprintf(what, sizeof what,
                 "decimal %s has more digits than "
                 "decimal(%d,%d) holds",
                 buf, c->type->precision, c->type->scale);
        return range_err(c, top < 0 ? i : top, err, what);
      }
    }
    return CHV_OK;
  }
  case CHV_ORC_KIND_TIMESTAMP: {
    const struct chv_timestamp *t = v->data;
    for (int64_t i = r0; i < r1; i++) {
      if (valid && !chv_bit_get(valid, i)) continue;
      if (t[i].nanos < 0 || t[i].nanos > 999999999)
        return range_err(c, top < 0 ? i : top, err,
                         "timestamp nanoseconds outside 0..999999999");
      if (t[i].seconds > OW_TS_MAX_SECONDS || t[i].seconds < -OW_TS_MAX_SECONDS)
        return range_err(c, top < 0 ? i : top, err,
                         "timestamp too far from 1970 for ORC (its "
                         "milliseconds overflow 64 bits)");
    }
    return CHV_OK;
  }
  case CHV_ORC_KIND_STRUCT:
    for (int64_t i = r0; i < r1;) {
      if (valid && !chv_bit_get(valid, i)) {
        i++;
        continue;
      }
      int64_t j = i + 1;
      while (j < r1 && !(valid && !chv_bit_get(valid, j)))
        j++;
      for (int k = 0; k < c->nchildren; k++)
        CHV_RETURN_IF_ERR(
            ow_col_check(c->children[k], v->children[k], i, j, top, err));
      i = j;
    }
    return CHV_OK;
  case CHV_ORC_KIND_LIST:
  case CHV_ORC_KIND_MAP:
    for (int64_t i = r0; i < r1; i++) {
      if (valid && !chv_bit_get(valid, i)) continue;
      for (int k = 0; k < c->nchildren; k++)
        CHV_RETURN_IF_ERR(ow_col_check(c->children[k], v->children[k],
                                       v->offsets[i], v->offsets[i + 1],
                                       top < 0 ? i : top, err));
    }
    return CHV_OK;
  default:
    return CHV_OK;
  }
}

/* ---- row groups and positions -------------------------------------------- */

static void record(uint64_t *pos, uint8_t *n, const uint64_t *p, int k) {
  for (int i = 0; i < k; i++)
    pos[(*n)++] = p[i];
}

static void rec_out(struct ow_rg *rg, const struct chv_orc_out *o) {
  uint64_t p[4];
  int k = chv_orc_out_position(o, p);
  record(rg->opos, &rg->nop, p, k);
}

static void rec_int(struct ow_rg *rg, const struct chv_orc_int_rle_enc *e) {
  uint64_t p[4];
  int k = chv_orc_int_rle_enc_position(e, p);
  record(rg->opos, &rg->nop, p, k);
}

/* Positions of the streams written as values come (all but PRESENT and the
** dictionary's), at the start of a group. */
static void rec_eager(struct ow_col *c, struct ow_rg *rg) {
  uint64_t p[4];
  int k;
  switch (c->kind) {
  case CHV_ORC_KIND_BOOLEAN:
    k = chv_orc_bool_rle_enc_position(&c->bools, p);
    record(rg->opos, &rg->nop, p, k);
    break;
  case CHV_ORC_KIND_BYTE:
    k = chv_orc_byte_rle_enc_position(&c->bytes, p);
    record(rg->opos, &rg->nop, p, k);
    break;
  case CHV_ORC_KIND_SHORT:
  case CHV_ORC_KIND_INT:
  case CHV_ORC_KIND_LONG:
  case CHV_ORC_KIND_DATE:
    rec_int(rg, &c->ints);
    break;
  case CHV_ORC_KIND_FLOAT:
  case CHV_ORC_KIND_DOUBLE:
    rec_out(rg, &c->s[OW_DATA]);
    break;
  case CHV_ORC_KIND_STRING:
  case CHV_ORC_KIND_VARCHAR:
  case CHV_ORC_KIND_CHAR:
    if (c->smode == OW_S_DIRECT) {
      rec_out(rg, &c->s[OW_DATA]);
      rec_int(rg, &c->lens);
    }
    break;
  case CHV_ORC_KIND_BINARY:
    rec_out(rg, &c->s[OW_DATA]);
    rec_int(rg, &c->lens);
    break;
  case CHV_ORC_KIND_DECIMAL:
    rec_out(rg, &c->s[OW_DATA]);
    rec_int(rg, &c->sec);
    break;
  case CHV_ORC_KIND_TIMESTAMP:
    rec_int(rg, &c->ints);
    rec_int(rg, &c->sec);
    break;
  case CHV_ORC_KIND_LIST:
  case CHV_ORC_KIND_MAP:
    rec_int(rg, &c->lens);
    break;
  default:
    break;
  }
}

int ow_col_rg_begin(struct ow_col *c, struct ow_ctx *cx,
                    struct chv_error *err) {
  (void)cx;
  if (c->nrg == c->rg_cap) {
    uint32_t cap = c->rg_cap ? c->rg_cap * 2 : 8;
    struct ow_rg *r = chv_realloc(c->rgs, sizeof *r * cap);
    if (r == NULL) return oom(err);
    c->rgs = r;
    c->rg_cap = cap;
  }
  struct ow_rg *rg = &c->rgs[c->nrg++];
  memset(rg, 0, sizeof *rg);
  rg->present_start = c->entries;
  rg->value_start = c->values;
  if (c->nulls) {
    uint64_t p[4];
    int k = chv_orc_bool_rle_enc_position(&c->present, p);
    record(rg->ppos, &rg->npp, p, k);
  }
  rec_eager(c, rg);
  c->in_rg = true;
  if (c->bloom) memset(c->bloom_bits, 0, cx->bloom_bits / 8);
  return CHV_OK;
}

/* ---- PRESENT ------------------------------------------------------------- */

/* Write n true PRESENT bits. */
static int present_ones(struct ow_col *c, uint64_t n, struct chv_error *err) {
  uint8_t ones[64];
  memset(ones, 0xFF, sizeof ones);
  while (n > 0) {
    size_t k = (size_t)CHV_MIN(n, (uint64_t)sizeof ones * 8);
    CHV_RETURN_IF_ERR(
        chv_orc_bool_rle_enc_write_bits(&c->present, ones, 0, k, err));
    n -= k;
  }
  return CHV_OK;
}

/* The first NULL of the stripe: write the bits of the entries before it,
** recording the positions of the groups begun so far. */
static int present_catch_up(struct ow_col *c, struct chv_error *err) {
  uint64_t done = 0;
  for (uint32_t j = 0; j < c->nrg; j++) {
    struct ow_rg *rg = &c->rgs[j];
    CHV_RETURN_IF_ERR(present_ones(c, rg->present_start - done, err));
    done = rg->present_start;
    uint64_t p[4];
    int k = chv_orc_bool_rle_enc_position(&c->present, p);
    rg->npp = 0;
    record(rg->ppos, &rg->npp, p, k);
  }
  CHV_RETURN_IF_ERR(present_ones(c, c->entries - done, err));
  c->nulls = true;
  return CHV_OK;
}

/* ---- strings: the dictionary --------------------------------------------- */

static uint32_t str_hash(const uint8_t *p, size_t n) {
  uint64_t h = 0x9e3779b97f4a7c15ull ^ (uint64_t)n;
  while (n >= 8) {
    uint64_t w;
    memcpy(&w, p, 8);
    h = (h ^ w) * 0xbf58476d1ce4e5b9ull;
    h ^= h >> 29;
    p += 8;
    n -= 8;
  }
  uint64_t w = 0;
  if (n) memcpy(&w, p, n);
  return (uint32_t)fmix64(h ^ w);
}

static int dict_rehash(struct ow_col *c, uint32_t nslots) {
  uint64_t *s = chv_calloc(nslots, sizeof *s);
  if (s == NULL) return CHV_ENOMEM;
  uint32_t mask = nslots - 1;
  for (uint32_t k = 0; k < c->nslots; k++) {
    uint64_t v = c->slots[k];
    if (v == 0) continue;
    uint32_t i = (uint32_t)(v >> 32) & mask;
    while (s[i])
      i = (i + 1) & mask;
    s[i] = v;
  }
  chv_free(c->slots);
  c->slots = s;
  c->nslots = nslots;
  return CHV_OK;
}

/* The entry of p[0, n), added when new; CHV_ERANGE when the dictionary
** cannot take it (the caller writes directly then). */
static int dict_find(struct ow_col *c, const uint8_t *p, size_t n,
                     uint32_t *out) {
  if (c->nslots == 0 && dict_rehash(c, 1024)) return CHV_ENOMEM;
  uint32_t h = str_hash(p, n);
  uint32_t mask = c->nslots - 1, i = h & mask;
  for (uint64_t s; (s = c->slots[i]) != 0; i = (i + 1) & mask) {
    if ((uint32_t)(s >> 32) != h) continue;
    uint32_t e = (uint32_t)s - 1;
    uint32_t off = c->dict_off[e], len = c->dict_off[e + 1] - off;
    if (len == n && memcmp(c->dict.data + off, p, n) == 0) {
      *out = e;
      return CHV_OK;
    }
  }
  if (c->dict.len + n > (size_t)UINT32_MAX / 2 || c->ndict >= UINT32_MAX / 4)
    return CHV_ERANGE;
  if (c->ndict + 2 > c->dict_cap) {
    uint32_t cap = c->dict_cap ? c->dict_cap * 2 : 1024;
    uint32_t *o = chv_realloc(c->dict_off, sizeof *o * cap);
    if (o == NULL) return CHV_ENOMEM;
    c->dict_off = o;
    c->dict_cap = cap;
  }
  if (c->ndict == 0) c->dict_off[0] = 0;
  if (chv_buf_append(&c->dict, p, n)) return CHV_ENOMEM;
  c->dict_off[c->ndict + 1] = (uint32_t)c->dict.len;
  c->slots[i] = (uint64_t)h << 32 | (c->ndict + 1);
  *out = c->ndict++;
  if ((uint64_t)c->ndict * 2 > c->nslots) return dict_rehash(c, c->nslots * 2);
  return CHV_OK;
}

static int ids_push(struct ow_col *c, uint32_t id) {
  if (c->nids == c->ids_cap) {
    uint64_t cap = c->ids_cap ? c->ids_cap * 2 : 4096;
    uint32_t *p = chv_realloc(c->ids, sizeof *p * cap);
    if (p == NULL) return CHV_ENOMEM;
    c->ids = p;
    c->ids_cap = cap;
  }
  c->ids[c->nids++] = id;
  return CHV_OK;
}

static void dict_clear(struct ow_col *c) {
  chv_buf_reset(&c->dict);
  c->ndict = 0;
  c->nids = 0;
  if (c->slots) memset(c->slots, 0, sizeof *c->slots * c->nslots);
}

/* Flush cx->i64[0, n) into encoder e. */
static int put_ints(struct chv_orc_int_rle_enc *e, struct ow_ctx *cx, size_t *n,
                    struct chv_error *err) {
  int rc = chv_orc_int_rle_enc_write(e, cx->i64, *n, err);
  *n = 0;
  return rc;
}

/* Record the DATA and LENGTH positions of the groups whose first value is
** value `v` and have none yet (the stream positions are deferred). */
static void rec_deferred(struct ow_col *c, uint32_t *next, uint64_t v,
                         bool dict) {
  while (*next < c->nrg && c->rgs[*next].value_start <= v) {
    struct ow_rg *rg = &c->rgs[*next];
    rg->nop = 0;
    if (dict) {
      rec_int(rg, &c->ints);
    } else {
      rec_out(rg, &c->s[OW_DATA]);
      rec_int(rg, &c->lens);
    }
    (*next)++;
  }
}

/* Give up the dictionary: write the values kept so far directly, recording
** the positions of the groups begun. */
static int to_direct(struct ow_col *c, struct ow_ctx *cx,
                     struct chv_error *err) {
  uint32_t next = 0;
  size_t n = 0;
  for (uint64_t i = 0; i < c->nids; i++) {
    if (next < c->nrg && c->rgs[next].value_start <= i) {
      if (n) CHV_RETURN_IF_ERR(put_ints(&c->lens, cx, &n, err));
      rec_deferred(c, &next, i, false);
    }
    uint32_t e = c->ids[i];
    uint32_t off = c->dict_off[e], len = c->dict_off[e + 1] - off;
    CHV_RETURN_IF_ERR(
        chv_orc_out_write(&c->s[OW_DATA], c->dict.data + off, len, err));
    cx->i64[n++] = len;
    if (n == cx->scratch_cap)
      CHV_RETURN_IF_ERR(put_ints(&c->lens, cx, &n, err));
  }
  if (n) CHV_RETURN_IF_ERR(put_ints(&c->lens, cx, &n, err));
  rec_deferred(c, &next, c->nids, false);
  c->smode = OW_S_DIRECT;
  dict_clear(c);
  return CHV_OK;
}

/* Decide between the dictionary and direct encoding, as ORC Java does. */
static int dict_decide(struct ow_col *c, struct ow_ctx *cx,
                       struct chv_error *err) {
  float ratio = c->nids > 0 ? (float)c->ndict / (float)c->nids : 0.0f;
  if (cx->dict_threshold > 0 && ratio <= cx->dict_threshold) {
    c->smode = OW_S_DICT;
    return CHV_OK;
  }
  return to_direct(c, cx, err);
}

/* Entries sorted by their bytes (a merge sort of entry numbers). */
static int entry_cmp(const struct ow_col *c, uint32_t a, uint32_t b) {
  uint32_t ao = c->dict_off[a], an = c->dict_off[a + 1] - ao;
  uint32_t bo = c->dict_off[b], bn = c->dict_off[b + 1] - bo;
  return bytes_cmp(c->dict.data + ao, an, c->dict.data + bo, bn);
}

static void sort_entries(const struct ow_col *c, uint32_t *v, uint32_t *tmp,
                         uint32_t n) {
  for (uint32_t w = 1; w < n; w *= 2) {
    for (uint32_t lo = 0; lo < n; lo += 2 * w) {
      uint32_t mid = CHV_MIN(lo + w, n), hi = CHV_MIN(lo + 2 * w, n);
      uint32_t i = lo, j = mid, k = lo;
      while (i < mid && j < hi)
        tmp[k++] = entry_cmp(c, v[j], v[i]) < 0 ? v[j++] : v[i++];
      while (i < mid)
        tmp[k++] = v[i++];
      while (j < hi)
        tmp[k++] = v[j++];
    }
    memcpy(v, tmp, sizeof *v * n);
  }
}

/* Write the stripe's dictionary (sorted), its lengths and the values' ids,
** recording the groups' DATA positions. */
static int dict_write(struct ow_col *c, struct ow_ctx *cx,
                      struct chv_error *err) {
  uint32_t n = c->ndict;
  uint32_t *order = chv_malloc(sizeof *order * ((size_t)n * 2 + 1));
  if (order == NULL) return oom(err);
  uint32_t *rank = order + n;
  for (uint32_t i = 0; i < n; i++)
    order[i] = i;
  sort_entries(c, order, rank, n);
  int rc = CHV_OK;
  size_t k = 0;
  for (uint32_t i = 0; i < n && rc == CHV_OK; i++) {
    uint32_t e = order[i];
    uint32_t off = c->dict_off[e], len = c->dict_off[e + 1] - off;
    rc = chv_orc_out_write(&c->s[OW_DICT], c->dict.data + off, len, err);
    cx->i64[k++] = len;
    if (rc == CHV_OK && k == cx->scratch_cap)
      rc = put_ints(&c->lens, cx, &k, err);
  }
  if (rc == CHV_OK && k) rc = put_ints(&c->lens, cx, &k, err);
  for (uint32_t i = 0; i < n; i++)
    rank[order[i]] = i;
  uint32_t next = 0;
  for (uint64_t i = 0; i < c->nids && rc == CHV_OK; i++) {
    if (next < c->nrg && c->rgs[next].value_start <= i) {
      if (k) rc = put_ints(&c->ints, cx, &k, err);
      if (rc) break;
      rec_deferred(c, &next, i, true);
    }
    cx->i64[k++] = rank[c->ids[i]];
    if (k == cx->scratch_cap) rc = put_ints(&c->ints, cx, &k, err);
  }
  if (rc == CHV_OK && k) rc = put_ints(&c->ints, cx, &k, err);
  if (rc == CHV_OK) rec_deferred(c, &next, c->nids, true);
  c->dict_size = n;
  chv_free(order);
  return rc;
}

/* ---- writing values ------------------------------------------------------ */

/* Non-NULL rows of [r0, r1), in runs: `for each (i) in rows` with a
** validity bitmap or without. */
#define FOR_VALUES(valid, r0, r1, i)                                           \
  for (int64_t i = (r0); i < (r1); i++)                                        \
    if (!(valid) || chv_bit_get((valid), i))

static int write_ints(struct ow_col *c, struct ow_ctx *cx,
                      const struct chv_vector *v, int64_t r0, int64_t r1,
                      struct chv_error *err) {
  const uint8_t *valid = v->validity;
  struct ow_stats *st = &c->rg_st;
  size_t n = 0, cap = cx->scratch_cap;
  int64_t *buf = cx->i64;
  int id = c->type->id;
  FOR_VALUES(valid, r0, r1, i) {
    int64_t x;
    switch (id) {
    case CHV_TYPE_SMALLINT:
      x = ((const int16_t *)v->data)[i];
      break;
    case CHV_TYPE_INT:
    case CHV_TYPE_DATE:
      x = ((const int32_t *)v->data)[i];
      break;
    default:
      x = ((const int64_t *)v->data)[i];
      break;
    }
    buf[n++] = x;
    if (n == cap) {
      for (size_t k = 0; k < n; k++)
        int_update(st, buf[k]);
      if (c->bloom)
        for (size_t k = 0; k < n; k++)
          bloom_long(c, cx, buf[k]);
      CHV_RETURN_IF_ERR(put_ints(&c->ints, cx, &n, err));
    }
  }
  for (size_t k = 0; k < n; k++)
    int_update(st, buf[k]);
  if (c->bloom)
    for (size_t k = 0; k < n; k++)
      bloom_long(c, cx, buf[k]);
  return n ? put_ints(&c->ints, cx, &n, err) : CHV_OK;
}

static int write_bytes(struct ow_col *c, struct ow_ctx *cx,
                       const struct chv_vector *v, int64_t r0, int64_t r1,
                       struct chv_error *err) {
  const uint8_t *valid = v->validity;
  const int8_t *d = v->data;
  size_t n = 0, cap = cx->scratch_cap;
  FOR_VALUES(valid, r0, r1, i) {
    int_update(&c->rg_st, d[i]);
    if (c->bloom) bloom_long(c, cx, d[i]);
    cx->u8[n++] = (uint8_t)d[i];
    if (n == cap) {
      CHV_RETURN_IF_ERR(chv_orc_byte_rle_enc_write(&c->bytes, cx->u8, n, err));
      n = 0;
    }
  }
  return n ? chv_orc_byte_rle_enc_write(&c->bytes, cx->u8, n, err) : CHV_OK;
}

static int write_bools(struct ow_col *c, struct ow_ctx *cx,
                       const struct chv_vector *v, int64_t r0, int64_t r1,
                       struct chv_error *err) {
  const uint8_t *valid = v->validity;
  const uint8_t *d = v->data;
  if (valid == NULL) {
    for (int64_t i = r0; i < r1; i++)
      c->rg_st.imax += chv_bit_get(d, i);
    return chv_orc_bool_rle_enc_write_bits(&c->bools, d, (size_t)r0,
                                           (size_t)(r1 - r0), err);
  }
  size_t n = 0, cap = cx->scratch_cap;
  FOR_VALUES(valid, r0, r1, i) {
    uint8_t b = chv_bit_get(d, i);
    c->rg_st.imax += b;
    cx->u8[n++] = b;
    if (n == cap) {
      CHV_RETURN_IF_ERR(chv_orc_bool_rle_enc_write(&c->bools, cx->u8, n, err));
      n = 0;
    }
  }
  return n ? chv_orc_bool_rle_enc_write(&c->bools, cx->u8, n, err) : CHV_OK;
}

static int write_floats(struct ow_col *c, struct ow_ctx *cx,
                        const struct chv_vector *v, int64_t r0, int64_t r1,
                        struct chv_error *err) {
  const uint8_t *valid = v->validity;
  bool f32 = c->kind == CHV_ORC_KIND_FLOAT;
  size_t w = f32 ? 4 : 8;
  size_t n = 0, cap = cx->scratch_cap / 8 * 8; /* bytes */
  FOR_VALUES(valid, r0, r1, i) {
    double x;
    if (f32) {
      float f = ((const float *)v->data)[i];
      x = f;
      memcpy(cx->u8 + n, &f, 4);
    } else {
      x = ((const double *)v->data)[i];
      memcpy(cx->u8 + n, &x, 8);
    }
    n += w;
    double_update(&c->rg_st, x);
    if (c->bloom) bloom_long(c, cx, double_bits(x));
    if (n + w > cap) {
      CHV_RETURN_IF_ERR(chv_orc_out_write(&c->s[OW_DATA], cx->u8, n, err));
      n = 0;
    }
  }
  return n ? chv_orc_out_write(&c->s[OW_DATA], cx->u8, n, err) : CHV_OK;
}

/* The bytes of string value i as the file holds it: CHAR(n) padded to n
** characters or cut to n, VARCHAR(n) cut to n characters. */
static int shape_string(const struct ow_col *c, struct ow_ctx *cx,
                        const struct chv_vector *v, int64_t i,
                        const uint8_t **p, size_t *n) {
  const char *s = v->bytes + v->offsets[i];
  size_t len = (size_t)(v->offsets[i + 1] - v->offsets[i]);
  if (c->kind == CHV_ORC_KIND_STRING || c->kind == CHV_ORC_KIND_BINARY) {
    *p = (const uint8_t *)s;
    *n = len;
    return CHV_OK;
  }
  int64_t want = c->type->length, chars;
  size_t cut = chv_utf8_prefix(s, len, want, &chars);
  if (c->kind == CHV_ORC_KIND_VARCHAR || chars >= want) {
    *p = (const uint8_t *)s;
    *n = cut;
    return CHV_OK;
  }
  chv_buf_reset(&cx->buf);
  if (chv_buf_append(&cx->buf, s, len)) return CHV_ENOMEM;
  for (int64_t k = chars; k < want; k++)
    if (chv_buf_putc(&cx->buf, ' ')) return CHV_ENOMEM;
  *p = (const uint8_t *)cx->buf.data;
  *n = cx->buf.len;
  return CHV_OK;
}

static int write_strings(struct ow_col *c, struct ow_ctx *cx,
                         const struct chv_vector *v, int64_t r0, int64_t r1,
                         struct chv_error *err) {
  const uint8_t *valid = v->validity;
  bool binary = c->kind == CHV_ORC_KIND_BINARY;
  size_t n = 0, cap = cx->scratch_cap;
  FOR_VALUES(valid, r0, r1, i) {
    const uint8_t *p;
    size_t len;
    if (shape_string(c, cx, v, i, &p, &len)) return oom(err);
    if (binary) {
      c->rg_st.ssum += (int64_t)len;
    } else if (string_update(&c->rg_st, p, len)) {
      return oom(err);
    }
    if (c->bloom) bloom_bytes(c, cx, p, len);
    if (!binary && c->smode != OW_S_DIRECT) {
      uint32_t id;
      int rc = dict_find(c, p, len, &id);
      if (rc == CHV_ERANGE) {
        /* The dictionary is full: this stripe goes direct. */
        CHV_RETURN_IF_ERR(to_direct(c, cx, err));
      } else if (rc != CHV_OK || ids_push(c, id) != CHV_OK) {
        return oom(err);
      } else {
        continue;
      }
    }
    CHV_RETURN_IF_ERR(chv_orc_out_write(&c->s[OW_DATA], p, len, err));
    cx->i64[n++] = (int64_t)len;
    if (n == cap) CHV_RETURN_IF_ERR(put_ints(&c->lens, cx, &n, err));
  }
  return n ? put_ints(&c->lens, cx, &n, err) : CHV_OK;
}

static int write_decimals(struct ow_col *c, struct ow_ctx *cx,
                          const struct chv_vector *v, int64_t r0, int64_t r1,
                          struct chv_error *err) {
  const uint8_t *valid = v->validity;
  const chv_i128 *d = v->data;
  int scale = c->type->scale, prec = c->type->precision;
  size_t n = 0, nb = 0, cap = cx->scratch_cap;
  FOR_VALUES(valid, r0, r1, i) {
    dec_update(&c->rg_st, d[i], prec);
    if (c->bloom) {
      char buf[64];
      int k = decimal_text(d[i], scale, buf);
      bloom_bytes(c, cx, buf, (size_t)k);
    }
    nb += chv_orc_decimal_encode(cx->u8 + nb, d[i]);
    cx->i64[n++] = scale;
    if (n == cap || nb + 20 > cap) {
      CHV_RETURN_IF_ERR(chv_orc_out_write(&c->s[OW_DATA], cx->u8, nb, err));
      nb = 0;
      CHV_RETURN_IF_ERR(put_ints(&c->sec, cx, &n, err));
    }
  }
  if (nb) CHV_RETURN_IF_ERR(chv_orc_out_write(&c->s[OW_DATA], cx->u8, nb, err));
  return n ? put_ints(&c->sec, cx, &n, err) : CHV_OK;
}

static int write_timestamps(struct ow_col *c, struct ow_ctx *cx,
                            const struct chv_vector *v, int64_t r0, int64_t r1,
                            struct chv_error *err) {
  const uint8_t *valid = v->validity;
  const struct chv_timestamp *t = v->data;
  size_t n = 0, cap = cx->scratch_cap;
  int64_t *secs = cx->i64, *nanos = cx->i64 + cap;
  FOR_VALUES(valid, r0, r1, i) {
    int64_t data, ms;
    ts_encode(&t[i], &data, &ms);
    ts_update(&c->rg_st, ms, t[i].nanos % 1000000);
    if (c->bloom) bloom_long(c, cx, ms);
    secs[n] = data;
    nanos[n++] = (int64_t)chv_orc_nanos_encode(t[i].nanos);
    if (n == cap) {
      CHV_RETURN_IF_ERR(chv_orc_int_rle_enc_write(&c->ints, secs, n, err));
      CHV_RETURN_IF_ERR(chv_orc_int_rle_enc_write(&c->sec, nanos, n, err));
      n = 0;
    }
  }
  if (n) {
    CHV_RETURN_IF_ERR(chv_orc_int_rle_enc_write(&c->ints, secs, n, err));
    CHV_RETURN_IF_ERR(chv_orc_int_rle_enc_write(&c->sec, nanos, n, err));
  }
  return CHV_OK;
}

static int write_children(struct ow_col *c, struct ow_ctx *cx,
                          const struct chv_vector *v, int64_t r0, int64_t r1,
                          struct chv_error *err) {
  for (int k = 0; k < c->nchildren; k++)
    CHV_RETURN_IF_ERR(
        ow_col_write(c->children[k], cx, v->children[k], r0, r1, err));
  return CHV_OK;
}

static int write_struct(struct ow_col *c, struct ow_ctx *cx,
                        const struct chv_vector *v, int64_t r0, int64_t r1,
                        struct chv_error *err) {
  const uint8_t *valid = v->validity;
  if (valid == NULL) return write_children(c, cx, v, r0, r1, err);
  for (int64_t i = r0; i < r1;) {
    if (!chv_bit_get(valid, i)) {
      i++;
      continue;
    }
    int64_t j = i + 1;
    while (j < r1 && chv_bit_get(valid, j))
      j++;
    CHV_RETURN_IF_ERR(write_children(c, cx, v, i, j, err));
    i = j;
  }
  return CHV_OK;
}

static int write_lists(struct ow_col *c, struct ow_ctx *cx,
                       const struct chv_vector *v, int64_t r0, int64_t r1,
                       struct chv_error *err) {
  const uint8_t *valid = v->validity;
  const int32_t *off = v->offsets;
  struct ow_stats *st = &c->rg_st;
  size_t n = 0, cap = cx->scratch_cap;
  int64_t start = 0, len = 0; /* child run being gathered */
  FOR_VALUES(valid, r0, r1, i) {
    int64_t k = (int64_t)off[i + 1] - off[i];
    if (!st->any || (uint64_t)k < st->cmin) st->cmin = (uint64_t)k;
    if (!st->any || (uint64_t)k > st->cmax) st->cmax = (uint64_t)k;
    st->any = true;
    st->ctotal += (uint64_t)k;
    if (c->bloom) bloom_long(c, cx, k);
    cx->i64[n++] = k;
    if (n == cap) CHV_RETURN_IF_ERR(put_ints(&c->lens, cx, &n, err));
    if (k == 0) continue;
    if (len > 0 && start + len != off[i]) {
      /* The children use the scratch too: the lengths go first. */
      if (n) CHV_RETURN_IF_ERR(put_ints(&c->lens, cx, &n, err));
      CHV_RETURN_IF_ERR(write_children(c, cx, v, start, start + len, err));
      len = 0;
    }
    if (len == 0) start = off[i];
    len += k;
  }
  if (n) CHV_RETURN_IF_ERR(put_ints(&c->lens, cx, &n, err));
  if (len > 0)
    CHV_RETURN_IF_ERR(write_children(c, cx, v, start, start + len, err));
  return CHV_OK;
}

void ow_col_count(struct ow_col *c, int64_t n) {
  c->entries += (uint64_t)n;
  c->values += (uint64_t)n;
  c->rg_st.count += (uint64_t)n;
}

int ow_col_write(struct ow_col *c, struct ow_ctx *cx,
                 const struct chv_vector *v, int64_t r0, int64_t r1,
                 struct chv_error *err) {
  if (r1 <= r0) return CHV_OK;
  const uint8_t *valid = v->validity;
  int64_t n = r1 - r0, nn = n;
  if (valid) {
    nn = 0;
    for (int64_t i = r0; i < r1; i++)
      nn += chv_bit_get(valid, i);
  }
  if (nn < n) {
    c->rg_st.has_null = true;
    if (!c->nulls) CHV_RETURN_IF_ERR(present_catch_up(c, err));
  }
  if (c->nulls) {
    if (valid)
      CHV_RETURN_IF_ERR(chv_orc_bool_rle_enc_write_bits(
          &c->present, valid, (size_t)r0, (size_t)n, err));
    else
      CHV_RETURN_IF_ERR(present_ones(c, (uint64_t)n, err));
  }
  c->entries += (uint64_t)n;
  c->rg_st.count += (uint64_t)nn;
  if (nn == 0) return CHV_OK;
  if (nn == n) valid = NULL;
  struct chv_vector vv = *v;
  vv.validity = (uint8_t *)valid;
  int rc;
  switch (c->kind) {
  case CHV_ORC_KIND_BOOLEAN:
    rc = write_bools(c, cx, &vv, r0, r1, err);
    break;
  case CHV_ORC_KIND_BYTE:
    rc = write_bytes(c, cx, &vv, r0, r1, err);
    break;
  case CHV_ORC_KIND_SHORT:
  case CHV_ORC_KIND_INT:
  case CHV_ORC_KIND_LONG:
  case CHV_ORC_KIND_DATE:
    rc = write_ints(c, cx, &vv, r0, r1, err);
    break;
  case CHV_ORC_KIND_FLOAT:
  case CHV_ORC_KIND_DOUBLE:
    rc = write_floats(c, cx, &vv, r0, r1, err);
    break;
  case CHV_ORC_KIND_STRING:
  case CHV_ORC_KIND_VARCHAR:
  case CHV_ORC_KIND_CHAR:
  case CHV_ORC_KIND_BINARY:
    rc = write_strings(c, cx, &vv, r0, r1, err);
    break;
  case CHV_ORC_KIND_DECIMAL:
    rc = write_decimals(c, cx, &vv, r0, r1, err);
    break;
  case CHV_ORC_KIND_TIMESTAMP:
    rc = write_timestamps(c, cx, &vv, r0, r1, err);
    break;
  case CHV_ORC_KIND_STRUCT:
    rc = write_struct(c, cx, &vv, r0, r1, err);
    break;
  case CHV_ORC_KIND_LIST:
  case CHV_ORC_KIND_MAP:
    rc = write_lists(c, cx, &vv, r0, r1, err);
    break;
  default:
    rc = chv_error_set(err, CHV_EINTERNAL, "column %s: kind %d not written",
                       c->name, (int)c->kind);
    break;
  }
  c->values += (uint64_t)nn;
  return rc;
}

/* ---- ends of groups and stripes ------------------------------------------ */

int ow_col_rg_end(struct ow_col *c, struct ow_ctx *cx, struct chv_error *err) {
  struct ow_rg *rg = &c->rgs[c->nrg - 1];
  rg->st = chv_arena_alloc(cx->stripe_arena, sizeof *rg->st);
  if (rg->st == NULL ||
      ow_stats_to_orc(&c->rg_st, c->kind, c->type ? c->type->scale : 0,
                      c->type ? c->type->precision : 0, cx->stripe_arena,
                      rg->st) != CHV_OK)
    return oom(err);
  if (c->bloom) {
    size_t nb = cx->bloom_bits / 8;
    uint8_t *p = chv_arena_alloc(cx->stripe_arena, nb);
    if (p == NULL) return oom(err);
    for (size_t w = 0; w < nb / 8; w++)
      for (int b = 0; b < 8; b++)
        p[w * 8 + (size_t)b] = (uint8_t)(c->bloom_bits[w] >> (8 * b));
    rg->bf.num_hash_functions = cx->bloom_k;
    rg->bf.utf8bitset.data = p;
    rg->bf.utf8bitset.len = (uint32_t)nb;
  }
  if (stats_merge(&c->stripe_st, &c->rg_st, c->kind,
                  c->type ? c->type->precision : 0))
    return oom(err);
  ow_stats_reset(&c->rg_st);
  c->in_rg = false;
  if (c->smode == OW_S_UNDECIDED && c->nrg == 1)
    CHV_RETURN_IF_ERR(dict_decide(c, cx, err));
  return CHV_OK;
}

static int flush_streams(struct ow_col *c, struct chv_error *err) {
  if (c->nulls) CHV_RETURN_IF_ERR(chv_orc_bool_rle_enc_flush(&c->present, err));
  switch (c->kind) {
  case CHV_ORC_KIND_BOOLEAN:
    return chv_orc_bool_rle_enc_flush(&c->bools, err);
  case CHV_ORC_KIND_BYTE:
    return chv_orc_byte_rle_enc_flush(&c->bytes, err);
  case CHV_ORC_KIND_SHORT:
  case CHV_ORC_KIND_INT:
  case CHV_ORC_KIND_LONG:
  case CHV_ORC_KIND_DATE:
    return chv_orc_int_rle_enc_flush(&c->ints, err);
  case CHV_ORC_KIND_FLOAT:
  case CHV_ORC_KIND_DOUBLE:
    return chv_orc_out_flush(&c->s[OW_DATA], err);
  case CHV_ORC_KIND_STRING:
  case CHV_ORC_KIND_VARCHAR:
  case CHV_ORC_KIND_CHAR:
    if (c->smode == OW_S_DICT) {
      CHV_RETURN_IF_ERR(chv_orc_int_rle_enc_flush(&c->ints, err));
      CHV_RETURN_IF_ERR(chv_orc_out_flush(&c->s[OW_DICT], err));
    } else {
      CHV_RETURN_IF_ERR(chv_orc_out_flush(&c->s[OW_DATA], err));
    }
    return chv_orc_int_rle_enc_flush(&c->lens, err);
  case CHV_ORC_KIND_BINARY:
    CHV_RETURN_IF_ERR(chv_orc_out_flush(&c->s[OW_DATA], err));
    return chv_orc_int_rle_enc_flush(&c->lens, err);
  case CHV_ORC_KIND_DECIMAL:
    CHV_RETURN_IF_ERR(chv_orc_out_flush(&c->s[OW_DATA], err));
    return chv_orc_int_rle_enc_flush(&c->sec, err);
  case CHV_ORC_KIND_TIMESTAMP:
    CHV_RETURN_IF_ERR(chv_orc_int_rle_enc_flush(&c->ints, err));
    return chv_orc_int_rle_enc_flush(&c->sec, err);
  case CHV_ORC_KIND_LIST:
  case CHV_ORC_KIND_MAP:
    return chv_orc_int_rle_enc_flush(&c->lens, err);
  default:
    return CHV_OK;
  }
}

static int32_t encoding_of(const struct ow_col *c) {
  switch (c->kind) {
  case CHV_ORC_KIND_BOOLEAN:
  case CHV_ORC_KIND_BYTE:
  case CHV_ORC_KIND_FLOAT:
  case CHV_ORC_KIND_DOUBLE:
  case CHV_ORC_KIND_STRUCT:
    return CHV_ORC_ENC_DIRECT;
  case CHV_ORC_KIND_STRING:
  case CHV_ORC_KIND_VARCHAR:
  case CHV_ORC_KIND_CHAR:
    return c->smode == OW_S_DICT ? CHV_ORC_ENC_DICTIONARY_V2
                                 : CHV_ORC_ENC_DIRECT_V2;
  default:
    return CHV_ORC_ENC_DIRECT_V2;
  }
}

/* Whether stream k of the column is written in this stripe. */
static bool stream_used(const struct ow_col *c, int k) {
  if (!c->has[k]) return false;
  if (k == OW_PRESENT) return c->nulls;
  if (k == OW_DICT) return c->smode == OW_S_DICT;
  return true;
}

int ow_col_finish_stripe(struct ow_col *c, struct ow_ctx *cx,
                         struct chv_error *err) {
  if (is_string_kind(c->kind)) {
    if (c->smode == OW_S_UNDECIDED) CHV_RETURN_IF_ERR(dict_decide(c, cx, err));
    if (c->smode == OW_S_DICT) CHV_RETURN_IF_ERR(dict_write(c, cx, err));
  }
  CHV_RETURN_IF_ERR(flush_streams(c, err));
  c->encoding = encoding_of(c);
  if (cx->stride == 0 || c->nrg == 0) {
    if (stats_merge(&c->stripe_st, &c->rg_st, c->kind,
                    c->type ? c->type->precision : 0))
      return oom(err);
    ow_stats_reset(&c->rg_st);
  }
  uint64_t bytes = 0;
  for (int k = 0; k < OW_NSTREAMS; k++)
    if (stream_used(c, k)) bytes += c->s[k].out.len;
  c->stripe_st.bytes_on_disk = bytes;
  if (stats_merge(&c->file_st, &c->stripe_st, c->kind,
                  c->type ? c->type->precision : 0))
    return oom(err);
  chv_buf_reset(&c->index);
  chv_buf_reset(&c->bloomx);
  if (cx->stride == 0) return CHV_OK;

  struct chv_orc_row_index ri;
  ri.nentries = c->nrg;
  ri.entries = chv_arena_alloc(cx->stripe_arena,
                               sizeof *ri.entries * (c->nrg ? c->nrg : 1));
  if (ri.entries == NULL) return oom(err);
  for (uint32_t j = 0; j < c->nrg; j++) {
    struct ow_rg *rg = &c->rgs[j];
    struct chv_orc_row_index_entry *e = &ri.entries[j];
    uint32_t np = (c->nulls ? rg->npp : 0) + rg->nop;
    e->npositions = np;
    e->positions =
        chv_arena_alloc(cx->stripe_arena, sizeof *e->positions * (np ? np : 1));
    if (e->positions == NULL) return oom(err);
    uint32_t k = 0;
    if (c->nulls)
      for (uint32_t i = 0; i < rg->npp; i++)
        e->positions[k++] = rg->ppos[i];
    for (uint32_t i = 0; i < rg->nop; i++)
      e->positions[k++] = rg->opos[i];
    e->statistics = rg->st;
  }
  chv_buf_reset(&cx->buf);
  CHV_RETURN_IF_ERR(chv_orc_row_index_write(&ri, &cx->buf, err));
  CHV_RETURN_IF_ERR(chv_orc_compress_all(cx->codec_bin, cx->buf.data,
                                         cx->buf.len, &c->index, err));
  if (c->bloom) {
    struct chv_orc_bloom_index bi;
    bi.nfilters = c->nrg;
    bi.filters = chv_arena_alloc(cx->stripe_arena,
                                 sizeof *bi.filters * (c->nrg ? c->nrg : 1));
    if (bi.filters == NULL) return oom(err);
    for (uint32_t j = 0; j < c->nrg; j++)
      bi.filters[j] = c->rgs[j].bf;
    chv_buf_reset(&cx->buf);
    CHV_RETURN_IF_ERR(chv_orc_bloom_index_write(&bi, &cx->buf, err));
    CHV_RETURN_IF_ERR(chv_orc_compress_all(cx->codec_text, cx->buf.data,
                                           cx->buf.len, &c->bloomx, err));
  }
  return CHV_OK;
}

void ow_col_reset_stripe(struct ow_col *c) {
  for (int k = 0; k < OW_NSTREAMS; k++)
    chv_orc_out_reset(&c->s[k]);
  chv_orc_bool_rle_enc_init(&c->present, &c->s[OW_PRESENT]);
  chv_orc_bool_rle_enc_init(&c->bools, &c->s[OW_DATA]);
  chv_orc_byte_rle_enc_init(&c->bytes, &c->s[OW_DATA]);
  chv_orc_int_rle_enc_init(&c->ints, &c->s[OW_DATA], c->ints.is_signed);
  chv_orc_int_rle_enc_init(&c->lens, &c->s[OW_LENGTH], false);
  chv_orc_int_rle_enc_init(&c->sec, &c->s[OW_SECONDARY], c->sec.is_signed);
  c->entries = c->values = 0;
  c->nulls = false;
  c->nrg = 0;
  c->in_rg = false;
  ow_stats_reset(&c->stripe_st);
  ow_stats_reset(&c->rg_st);
  dict_clear(c);
  c->smode = c->no_dict ? OW_S_DIRECT : OW_S_UNDECIDED;
  c->dict_size = 0;
  chv_buf_reset(&c->index);
  chv_buf_reset(&c->bloomx);
}
