/*
** ORC's run-length encodings: byte RLE, boolean RLE, integer RLE v1 and v2,
** decoded over a struct chv_orc_stream and encoded into a struct
** chv_orc_out; the varint encodings of decimals and of timestamps' nanos
** (see orc_rle.h for the formats and the contracts).
**
** Integer RLE v2 decoding keeps the values of one run: a SHORT_REPEAT or a
** fixed-delta DELTA run as an arithmetic run (next value, delta, count) that
** is expanded only into the caller's buffer, the other kinds as up to 512
** decoded values.  Bit-packed values are unpacked from a contiguous view of
** the stream (a pointer into the current chunk, or a copy when the run
** straddles two chunks); byte-aligned widths take a byte loop, the others a
** bit accumulator.  All arithmetic on values wraps as it does in ORC's own
** readers (uint64_t), so hostile deltas cannot overflow signed integers.
**
** The RLE v2 encoder buffers up to 512 values and, when the buffer is full
** or flushed, cuts it into runs: a stretch of 3 or more equal values becomes
** a SHORT_REPEAT (up to 10) or a fixed-delta DELTA run; other stretches
** become whichever of DELTA (monotone values), PATCHED_BASE (a narrow width
** plus patches for up to 31 outliers) and DIRECT encodes smallest.
**
** INTERFACE: orc_rle.h.
*/
#include "format/orc/orc_rle.h"

#include "codec/protobuf.h"

#include <inttypes.h>

/* ---- the width table --------------------------------------------------- */

unsigned chv_orc_rle_width_decode(unsigned code) {
  static const uint8_t high[8] = {26, 28, 30, 32, 40, 48, 56, 64};
  code &= 31;
  return code < 24 ? code + 1 : high[code - 24];
}

/* The smallest width of the table, deprecated ones included, holding
** `bits` (ORC's "closest fixed bits"). */
static unsigned closest_fixed_bits(unsigned bits) {
  if (bits <= 1) return 1;
  if (bits <= 24) return bits;
  if (bits <= 26) return 26;
  if (bits <= 28) return 28;
  if (bits <= 30) return 30;
  if (bits <= 32) return 32;
  if (bits <= 40) return 40;
  if (bits <= 48) return 48;
  if (bits <= 56) return 56;
  return 64;
}

/* The smallest width the encoder writes (the table without its deprecated
** entries: 1, 2, 4, 8, 16, 24, 32, 40, 48, 56, 64) holding `bits`. */
static unsigned writable_bits(unsigned bits) {
  if (bits <= 1) return 1;
  if (bits <= 2) return 2;
  if (bits <= 4) return 4;
  if (bits <= 8) return 8;
  return (bits + 7) / 8 * 8;
}

unsigned chv_orc_rle_width_encode(unsigned bits) {
  unsigned w = closest_fixed_bits(bits);
  if (w <= 24) return w - 1;
  switch (w) {
  case 26:
    return 24;
  case 28:
    return 25;
  case 30:
    return 26;
  case 32:
    return 27;
  case 40:
    return 28;
  case 48:
    return 29;
  case 56:
    return 30;
  default:
    return 31;
  }
}

/* Bits needed for v (0 for 0). */
static unsigned bits_of(uint64_t v) {
  return v ? 64 - (unsigned)__builtin_clzll(v) : 0;
}

/* ---- bit packing ------------------------------------------------------- */

static size_t packed_bytes(uint64_t n, unsigned w) {
  return (size_t)((n * w + 7) / 8);
}

/* n values of w bits (1..64), big-endian and back to back, from p. */
static void unpack(const uint8_t *p, unsigned w, uint32_t n, uint64_t *out) {
  if (w % 8 == 0) {
    unsigned nb = w / 8;
    for (uint32_t i = 0; i < n; i++) {
      uint64_t v = 0;
      for (unsigned j = 0; j < nb; j++)
        v = v << 8 | *p++;
      out[i] = v;
    }
    return;
  }
  if (w == 1 || w == 2 || w == 4) {
    unsigned per = 8 / w;
    uint8_t mask = (uint8_t)((1u << w) - 1);
    for (uint32_t i = 0; i < n; i++) {
      unsigned k = i % per;
      out[i] = (uint64_t)((p[i / per] >> (8 - w * (k + 1))) & mask);
    }
    return;
  }
  /* Other widths are at most 30 bits here (the table has no unaligned
  ** width above 30), so the accumulator never holds more than 37 bits. */
  uint64_t acc = 0;
  unsigned have = 0;
  uint64_t mask = ((uint64_t)1 << w) - 1;
  for (uint32_t i = 0; i < n; i++) {
    while (have < w) {
      acc = acc << 8 | *p++;
      have += 8;
    }
    have -= w;
    out[i] = (acc >> have) & mask;
  }
}

/* Append n values of w bits (1..64), big-endian and back to back, padded to
** a byte, to dst (packed_bytes(n, w) bytes). */
static void pack(const uint64_t *v, uint32_t n, unsigned w, uint8_t *dst) {
  if (w % 8 == 0) {
    unsigned nb = w / 8;
    for (uint32_t i = 0; i < n; i++)
      for (unsigned j = 0; j < nb; j++)
        *dst++ = (uint8_t)(v[i] >> (8 * (nb - 1 - j)));
    return;
  }
  uint64_t acc = 0;
  unsigned have = 0;
  for (uint32_t i = 0; i < n; i++) {
    /* w <= 30 here too: acc holds at most 37 bits. */
    acc = acc << w | (v[i] & (((uint64_t)1 << w) - 1));
    have += w;
    while (have >= 8) {
      have -= 8;
      *dst++ = (uint8_t)(acc >> have);
    }
  }
  if (have) *dst++ = (uint8_t)(acc << (8 - have));
}

/* ---- byte RLE ---------------------------------------------------------- */

void chv_orc_byte_rle_init(struct chv_orc_byte_rle *d,
                           struct chv_orc_stream *in) {
  d->in = in;
  d->left = 0;
  d->repeat = false;
  d->value = 0;
}

static int byte_group(struct chv_orc_byte_rle *d, struct chv_error *err) {
  uint8_t h;
  CHV_RETURN_IF_ERR(chv_orc_stream_byte(d->in, &h, err));
  if (h < 0x80) {
    d->repeat = true;
    d->left = (uint32_t)h + 3;
    return chv_orc_stream_byte(d->in, &d->value, err);
  }
  d->repeat = false;
  d->left = 256 - (uint32_t)h;
  return CHV_OK;
}

int chv_orc_byte_rle_read(struct chv_orc_byte_rle *d, uint8_t *out, size_t n,
                          struct chv_error *err) {
  while (n > 0) {
    if (d->left == 0) CHV_RETURN_IF_ERR(byte_group(d, err));
    size_t k = CHV_MIN(n, (size_t)d->left);
    if (d->repeat)
      memset(out, d->value, k);
    else
      CHV_RETURN_IF_ERR(chv_orc_stream_read(d->in, out, k, err));
    d->left -= (uint32_t)k;
    out += k;
    n -= k;
  }
  return CHV_OK;
}

int chv_orc_byte_rle_skip(struct chv_orc_byte_rle *d, uint64_t n,
                          struct chv_error *err) {
  while (n > 0) {
    if (d->left == 0) CHV_RETURN_IF_ERR(byte_group(d, err));
    uint32_t k = (uint32_t)CHV_MIN(n, (uint64_t)d->left);
    if (!d->repeat) CHV_RETURN_IF_ERR(chv_orc_stream_skip(d->in, k, err));
    d->left -= k;
    n -= k;
  }
  return CHV_OK;
}

int chv_orc_byte_rle_seek(struct chv_orc_byte_rle *d, uint64_t values,
                          struct chv_error *err) {
  d->left = 0;
  return chv_orc_byte_rle_skip(d, values, err);
}

/* ---- boolean RLE ------------------------------------------------------- */

void chv_orc_bool_rle_init(struct chv_orc_bool_rle *d,
                           struct chv_orc_stream *in) {
  chv_orc_byte_rle_init(&d->bytes, in);
  d->cur = 0;
  d->nbits = 0;
}

int chv_orc_bool_rle_read(struct chv_orc_bool_rle *d, uint8_t *out, size_t n,
                          struct chv_error *err) {
  size_t i = 0;
  while (i < n && d->nbits > 0) {
    out[i++] = (d->cur >> --d->nbits) & 1;
  }
  /* Whole bytes: read them straight into the tail of out, then spread
  ** each byte's bits out (back to front, so nothing is overwritten before
  ** it is used). */
  size_t whole = (n - i) / 8;
  if (whole > 0) {
    uint8_t *b = out + n - whole;
    CHV_RETURN_IF_ERR(chv_orc_byte_rle_read(&d->bytes, b, whole, err));
    for (size_t k = 0; k < whole; k++) {
      uint8_t v = b[k];
      uint8_t *o = out + i + 8 * k;
      /* o[0..7] may overlap b[k..]; b[k] is already in v. */
      for (int j = 0; j < 8; j++)
        o[j] = (v >> (7 - j)) & 1;
    }
    i += 8 * whole;
  }
  while (i < n) {
    if (d->nbits == 0) {
      CHV_RETURN_IF_ERR(chv_orc_byte_rle_read(&d->bytes, &d->cur, 1, err));
      d->nbits = 8;
    }
    out[i++] = (d->cur >> --d->nbits) & 1;
  }
  return CHV_OK;
}

int chv_orc_bool_rle_read_bits(struct chv_orc_bool_rle *d, uint8_t *bitmap,
                               size_t at, size_t n, size_t *ones,
                               struct chv_error *err) {
  uint8_t tmp[256];
  size_t count = 0;
  while (n > 0) {
    size_t k = CHV_MIN(n, sizeof tmp);
    CHV_RETURN_IF_ERR(chv_orc_bool_rle_read(d, tmp, k, err));
    for (size_t i = 0; i < k; i++, at++) {
      uint8_t bit = (uint8_t)(1u << (at % 8));
      if (tmp[i]) {
        bitmap[at / 8] |= bit;
        count++;
      } else {
        bitmap[at / 8] &= (uint8_t)~bit;
      }
    }
    n -= k;
  }
  if (ones) *ones = count;
  return CHV_OK;
}

int chv_orc_bool_rle_skip(struct chv_orc_bool_rle *d, uint64_t n,
                          struct chv_error *err) {
  uint64_t k = CHV_MIN(n, (uint64_t)d->nbits);
  d->nbits -= (int)k;
  n -= k;
  if (n >= 8) {
    CHV_RETURN_IF_ERR(chv_orc_byte_rle_skip(&d->bytes, n / 8, err));
    n %= 8;
  }
  if (n > 0) {
    CHV_RETURN_IF_ERR(chv_orc_byte_rle_read(&d->bytes, &d->cur, 1, err));
    d->nbits = 8 - (int)n;
  }
  return CHV_OK;
}

int chv_orc_bool_rle_seek(struct chv_orc_bool_rle *d, uint64_t bytes,
                          uint64_t bits, struct chv_error *err) {
  if (bits > 8)
    return chv_error_set(err, CHV_ECORRUPT,
                         "%s: bit position %" PRIu64 " is past a byte",
                         d->bytes.in->name, bits);
  d->nbits = 0;
  CHV_RETURN_IF_ERR(chv_orc_byte_rle_seek(&d->bytes, bytes, err));
  return chv_orc_bool_rle_skip(d, bits, err);
}

/* ---- integer RLE ------------------------------------------------------- */

int chv_orc_int_rle_init(struct chv_orc_int_rle *d, struct chv_orc_stream *in,
                         int version, bool is_signed, struct chv_error *err) {
  if (version != 1 && version != 2)
    return chv_error_set(err, CHV_EINVAL, "integer RLE version %d", version);
  d->in = in;
  d->version = version;
  d->is_signed = is_signed;
  d->run_left = 0;
  d->run_next = d->run_delta = 0;
  d->nlits = d->pos = 0;
  return CHV_OK;
}

static int corrupt(struct chv_orc_int_rle *d, struct chv_error *err,
                   const char *what) {
  return chv_error_set(err, CHV_ECORRUPT, "%s: integer RLE v%d: %s",
                       d->in->name, d->version, what);
}

static int read_uvarint(struct chv_orc_int_rle *d, uint64_t *v,
                        struct chv_error *err) {
  uint64_t x = 0;
  for (unsigned i = 0; i < CHV_PB_MAX_VARINT; i++) {
    uint8_t b;
    CHV_RETURN_IF_ERR(chv_orc_stream_byte(d->in, &b, err));
    uint64_t part = b & 0x7f;
    if (i == 9 && part > 1) return corrupt(d, err, "varint overflows 64 bits");
    x |= part << (7 * i);
    if (!(b & 0x80)) {
      *v = x;
      return CHV_OK;
    }
  }
  return corrupt(d, err, "varint longer than 10 bytes");
}

static int read_svarint(struct chv_orc_int_rle *d, int64_t *v,
                        struct chv_error *err) {
  uint64_t u;
  CHV_RETURN_IF_ERR(read_uvarint(d, &u, err));
  *v = chv_pb_unzigzag64(u);
  return CHV_OK;
}

static int read_value(struct chv_orc_int_rle *d, int64_t *v,
                      struct chv_error *err) {
  if (d->is_signed) return read_svarint(d, v, err);
  uint64_t u;
  CHV_RETURN_IF_ERR(read_uvarint(d, &u, err));
  *v = (int64_t)u;
  return CHV_OK;
}

static void set_run(struct chv_orc_int_rle *d, int64_t first, int64_t delta,
                    uint64_t count) {
  d->run_next = first;
  d->run_delta = delta;
  d->run_left = count;
  d->nlits = d->pos = 0;
}

static int v1_next(struct chv_orc_int_rle *d, struct chv_error *err) {
  uint8_t h;
  CHV_RETURN_IF_ERR(chv_orc_stream_byte(d->in, &h, err));
  if (h < 0x80) {
    uint8_t delta;
    int64_t base;
    CHV_RETURN_IF_ERR(chv_orc_stream_byte(d->in, &delta, err));
    CHV_RETURN_IF_ERR(read_value(d, &base, err));
    set_run(d, base, (int8_t)delta, (uint64_t)h + 3);
    return CHV_OK;
  }
  uint32_t n = 256 - (uint32_t)h;
  for (uint32_t i = 0; i < n; i++)
    CHV_RETURN_IF_ERR(read_value(d, &d->lits[i], err));
  d->nlits = n;
  d->pos = 0;
  return CHV_OK;
}

/* Big-endian value of w bytes. */
static int read_be(struct chv_orc_int_rle *d, unsigned w, uint64_t *v,
                   struct chv_error *err) {
  uint8_t tmp[8];
  const uint8_t *p;
  CHV_RETURN_IF_ERR(chv_orc_stream_view(d->in, w, tmp, &p, err));
  uint64_t x = 0;
  for (unsigned i = 0; i < w; i++)
    x = x << 8 | p[i];
  *v = x;
  return CHV_OK;
}

/* n packed values of width w into u. */
static int read_packed(struct chv_orc_int_rle *d, unsigned w, uint32_t n,
                       uint64_t *u, struct chv_error *err) {
  uint8_t tmp[CHV_ORC_RLE_MAX_RUN * 8];
  size_t nb = packed_bytes(n, w);
  const uint8_t *p;
  CHV_RETURN_IF_ERR(chv_orc_stream_view(d->in, nb, tmp, &p, err));
  unpack(p, w, n, u);
  return CHV_OK;
}

static int v2_short_repeat(struct chv_orc_int_rle *d, uint8_t h,
                           struct chv_error *err) {
  unsigned w = ((h >> 3) & 7) + 1;
  uint64_t count = (h & 7) + 3;
  uint64_t v;
  CHV_RETURN_IF_ERR(read_be(d, w, &v, err));
  int64_t x = d->is_signed ? chv_pb_unzigzag64(v) : (int64_t)v;
  set_run(d, x, 0, count);
  return CHV_OK;
}

static int v2_direct(struct chv_orc_int_rle *d, uint8_t h,
                     struct chv_error *err) {
  uint8_t b1;
  CHV_RETURN_IF_ERR(chv_orc_stream_byte(d->in, &b1, err));
  unsigned w = chv_orc_rle_width_decode((h >> 1) & 31);
  uint32_t n = ((uint32_t)(h & 1) << 8 | b1) + 1;
  uint64_t *u = (uint64_t *)d->lits;
  CHV_RETURN_IF_ERR(read_packed(d, w, n, u, err));
  if (d->is_signed)
    for (uint32_t i = 0; i < n; i++)
      d->lits[i] = chv_pb_unzigzag64(u[i]);
  d->nlits = n;
  d->pos = 0;
  return CHV_OK;
}

static int v2_patched_base(struct chv_orc_int_rle *d, uint8_t h,
                           struct chv_error *err) {
  uint8_t hb[3];
  CHV_RETURN_IF_ERR(chv_orc_stream_read(d->in, hb, 3, err));
  unsigned w = chv_orc_rle_width_decode((h >> 1) & 31);
  uint32_t n = ((uint32_t)(h & 1) << 8 | hb[0]) + 1;
  unsigned bw = (hb[1] >> 5) + 1;
  unsigned pw = chv_orc_rle_width_decode(hb[1] & 31);
  unsigned pgw = (hb[2] >> 5) + 1;
  unsigned pll = hb[2] & 31;
  if (pgw + pw > 64)
    return corrupt(d, err,
                   "PATCHED_BASE patch gap and patch width exceed 64 "
                   "bits");
  if (w + pw > 64)
    return corrupt(d, err,
                   "PATCHED_BASE width and patch width exceed 64 "
                   "bits");
  uint64_t base_raw;
  CHV_RETURN_IF_ERR(read_be(d, bw, &base_raw, err));
  /* Sign and magnitude: the top bit of the bw bytes is the sign. */
  uint64_t sign = (uint64_t)1 << (bw * 8 - 1);
  int64_t base =
      (base_raw & sign) ? (int64_t)(0 - (base_raw & ~sign)) : (int64_t)base_raw;
  uint64_t *u = (uint64_t *)d->lits;
  CHV_RETURN_IF_ERR(read_packed(d, w, n, u, err));
  uint64_t patches[32];
  unsigned cfb = closest_fixed_bits(pgw + pw);
  if (pll > 0) CHV_RETURN_IF_ERR(read_packed(d, cfb, pll, patches, err));
  uint64_t pmask = pw == 64 ? UINT64_MAX : (((uint64_t)1 << pw) - 1);
  uint64_t at = 0;
  for (unsigned i = 0; i < pll; i++) {
    uint64_t gap = pw == 64 ? 0 : patches[i] >> pw;
    uint64_t patch = patches[i] & pmask;
    at += gap;
    /* A gap of 255 with a zero patch only moves on (gaps over 255). */
    if (gap == 255 && patch == 0) continue;
    if (at >= n) return corrupt(d, err, "PATCHED_BASE patch past its values");
    u[at] |= patch << w;
  }
  for (uint32_t i = 0; i < n; i++)
    d->lits[i] = (int64_t)((uint64_t)base + u[i]);
  d->nlits = n;
  d->pos = 0;
  return CHV_OK;
}

static int v2_delta(struct chv_orc_int_rle *d, uint8_t h,
                    struct chv_error *err) {
  uint8_t b1;
  CHV_RETURN_IF_ERR(chv_orc_stream_byte(d->in, &b1, err));
  unsigned code = (h >> 1) & 31;
  unsigned w = code ? chv_orc_rle_width_decode(code) : 0;
  uint32_t n = ((uint32_t)(h & 1) << 8 | b1) + 1;
  int64_t base, delta;
  CHV_RETURN_IF_ERR(read_value(d, &base, err));
  CHV_RETURN_IF_ERR(read_svarint(d, &delta, err));
  if (w == 0) {
    set_run(d, base, delta, n);
    return CHV_OK;
  }
  if (n < 2)
    return corrupt(d, err, "DELTA run of one value with a delta width");
  uint64_t *u = (uint64_t *)d->lits + 2;
  CHV_RETURN_IF_ERR(read_packed(d, w, n - 2, u, err));
  uint64_t prev = (uint64_t)base + (uint64_t)delta;
  d->lits[0] = base;
  d->lits[1] = (int64_t)prev;
  if (delta < 0) {
    for (uint32_t i = 2; i < n; i++)
      d->lits[i] = (int64_t)(prev -= u[i - 2]);
  } else {
    for (uint32_t i = 2; i < n; i++)
      d->lits[i] = (int64_t)(prev += u[i - 2]);
  }
  d->nlits = n;
  d->pos = 0;
  return CHV_OK;
}

static int v2_next(struct chv_orc_int_rle *d, struct chv_error *err) {
  uint8_t h;
  CHV_RETURN_IF_ERR(chv_orc_stream_byte(d->in, &h, err));
  switch (h >> 6) {
  case 0:
    return v2_short_repeat(d, h, err);
  case 1:
    return v2_direct(d, h, err);
  case 2:
    return v2_patched_base(d, h, err);
  default:
    return v2_delta(d, h, err);
  }
}

static int int_next(struct chv_orc_int_rle *d, struct chv_error *err) {
  return d->version == 1 ? v1_next(d, err) : v2_next(d, err);
}

int chv_orc_int_rle_read(struct chv_orc_int_rle *d, int64_t *out, size_t n,
                         struct chv_error *err) {
  while (n > 0) {
    if (d->run_left > 0) {
      size_t k = (size_t)CHV_MIN((uint64_t)n, d->run_left);
      uint64_t v = (uint64_t)d->run_next, dv = (uint64_t)d->run_delta;
      if (dv == 0) {
        for (size_t i = 0; i < k; i++)
          out[i] = (int64_t)v;
      } else {
        for (size_t i = 0; i < k; i++, v += dv)
          out[i] = (int64_t)v;
      }
      d->run_next = (int64_t)v;
      d->run_left -= k;
      out += k;
      n -= k;
      continue;
    }
    if (d->pos < d->nlits) {
      size_t k = CHV_MIN(n, (size_t)(d->nlits - d->pos));
      memcpy(out, d->lits + d->pos, k * sizeof *out);
      d->pos += (uint32_t)k;
      out += k;
      n -= k;
      continue;
    }
    CHV_RETURN_IF_ERR(int_next(d, err));
  }
  return CHV_OK;
}

int chv_orc_int_rle_skip(struct chv_orc_int_rle *d, uint64_t n,
                         struct chv_error *err) {
  while (n > 0) {
    if (d->run_left > 0) {
      uint64_t k = CHV_MIN(n, d->run_left);
      d->run_next =
          (int64_t)((uint64_t)d->run_next + k * (uint64_t)d->run_delta);
      d->run_left -= k;
      n -= k;
      continue;
    }
    if (d->pos < d->nlits) {
      uint64_t k = CHV_MIN(n, (uint64_t)(d->nlits - d->pos));
      d->pos += (uint32_t)k;
      n -= k;
      continue;
    }
    CHV_RETURN_IF_ERR(int_next(d, err));
  }
  return CHV_OK;
}

int chv_orc_int_rle_seek(struct chv_orc_int_rle *d, uint64_t values,
                         struct chv_error *err) {
  d->run_left = 0;
  d->nlits = d->pos = 0;
  return chv_orc_int_rle_skip(d, values, err);
}

/* ---- byte RLE encoder -------------------------------------------------- */

void chv_orc_byte_rle_enc_init(struct chv_orc_byte_rle_enc *e,
                               struct chv_orc_out *out) {
  e->out = out;
  e->n = 0;
  e->repeat = false;
  e->tail = 0;
}

/* Write the group being built. */
static int byte_emit(struct chv_orc_byte_rle_enc *e, struct chv_error *err) {
  if (e->n == 0) return CHV_OK;
  uint8_t hdr[2];
  int rc;
  if (e->repeat) {
    hdr[0] = (uint8_t)(e->n - 3);
    hdr[1] = e->lits[0];
    rc = chv_orc_out_write(e->out, hdr, 2, err);
  } else {
    hdr[0] = (uint8_t)(256 - e->n);
    rc = chv_orc_out_write(e->out, hdr, 1, err);
    if (rc == CHV_OK)
      rc = chv_orc_out_write(e->out, e->lits, (size_t)e->n, err);
  }
  e->n = 0;
  e->repeat = false;
  e->tail = 0;
  return rc;
}

static int byte_put(struct chv_orc_byte_rle_enc *e, uint8_t v,
                    struct chv_error *err) {
  if (e->n == 0) {
    e->lits[0] = v;
    e->n = 1;
    e->tail = 1;
    return CHV_OK;
  }
  if (e->repeat) {
    if (v == e->lits[0]) {
      if (++e->n == 130) return byte_emit(e, err);
      return CHV_OK;
    }
    CHV_RETURN_IF_ERR(byte_emit(e, err));
    return byte_put(e, v, err);
  }
  e->tail = v == e->lits[e->n - 1] ? e->tail + 1 : 1;
  if (e->tail == 3) {
    /* The last two literals and v start a run. */
    e->n -= 2;
    if (e->n > 0) CHV_RETURN_IF_ERR(byte_emit(e, err));
    e->lits[0] = v;
    e->n = 3;
    e->repeat = true;
    return CHV_OK;
  }
  e->lits[e->n++] = v;
  if (e->n == 128) return byte_emit(e, err);
  return CHV_OK;
}

int chv_orc_byte_rle_enc_write(struct chv_orc_byte_rle_enc *e, const uint8_t *v,
                               size_t n, struct chv_error *err) {
  for (size_t i = 0; i < n; i++)
    CHV_RETURN_IF_ERR(byte_put(e, v[i], err));
  return CHV_OK;
}

int chv_orc_byte_rle_enc_flush(struct chv_orc_byte_rle_enc *e,
                               struct chv_error *err) {
  CHV_RETURN_IF_ERR(byte_emit(e, err));
  return chv_orc_out_flush(e->out, err);
}

int chv_orc_byte_rle_enc_position(const struct chv_orc_byte_rle_enc *e,
                                  uint64_t pos[3]) {
  int k = chv_orc_out_position(e->out, pos);
  pos[k] = (uint64_t)e->n;
  return k + 1;
}

/* ---- boolean RLE encoder ----------------------------------------------- */

void chv_orc_bool_rle_enc_init(struct chv_orc_bool_rle_enc *e,
                               struct chv_orc_out *out) {
  chv_orc_byte_rle_enc_init(&e->bytes, out);
  e->cur = 0;
  e->nbits = 0;
}

static int bool_put(struct chv_orc_bool_rle_enc *e, bool v,
                    struct chv_error *err) {
  e->cur = (uint8_t)(e->cur << 1 | (v ? 1 : 0));
  if (++e->nbits < 8) return CHV_OK;
  uint8_t b = e->cur;
  e->cur = 0;
  e->nbits = 0;
  return byte_put(&e->bytes, b, err);
}

int chv_orc_bool_rle_enc_write(struct chv_orc_bool_rle_enc *e, const uint8_t *v,
                               size_t n, struct chv_error *err) {
  for (size_t i = 0; i < n; i++)
    CHV_RETURN_IF_ERR(bool_put(e, v[i] != 0, err));
  return CHV_OK;
}

int chv_orc_bool_rle_enc_write_bits(struct chv_orc_bool_rle_enc *e,
                                    const uint8_t *bitmap, size_t at, size_t n,
                                    struct chv_error *err) {
  for (size_t i = 0; i < n; i++, at++)
    CHV_RETURN_IF_ERR(bool_put(e, (bitmap[at / 8] >> (at % 8)) & 1, err));
  return CHV_OK;
}

int chv_orc_bool_rle_enc_flush(struct chv_orc_bool_rle_enc *e,
                               struct chv_error *err) {
  if (e->nbits > 0) {
    uint8_t b = (uint8_t)(e->cur << (8 - e->nbits));
    e->cur = 0;
    e->nbits = 0;
    CHV_RETURN_IF_ERR(byte_put(&e->bytes, b, err));
  }
  return chv_orc_byte_rle_enc_flush(&e->bytes, err);
}

int chv_orc_bool_rle_enc_position(const struct chv_orc_bool_rle_enc *e,
                                  uint64_t pos[4]) {
  int k = chv_orc_byte_rle_enc_position(&e->bytes, pos);
  pos[k] = (uint64_t)e->nbits;
  return k + 1;
}

/* ---- integer RLE v2 encoder -------------------------------------------- */

void chv_orc_int_rle_enc_init(struct chv_orc_int_rle_enc *e,
                              struct chv_orc_out *out, bool is_signed) {
  e->out = out;
  e->is_signed = is_signed;
  e->n = 0;
}

/* A value as DIRECT and SHORT_REPEAT store it. */
static uint64_t enc_value(const struct chv_orc_int_rle_enc *e, int64_t v) {
  return e->is_signed ? chv_pb_zigzag64(v) : (uint64_t)v;
}

static int put_varint(struct chv_orc_out *o, uint64_t v,
                      struct chv_error *err) {
  uint8_t b[CHV_PB_MAX_VARINT];
  return chv_orc_out_write(o, b, chv_pb_varint_encode(b, v), err);
}

static int emit_short_repeat(struct chv_orc_int_rle_enc *e, int64_t v,
                             uint32_t count, struct chv_error *err) {
  uint64_t u = enc_value(e, v);
  unsigned nb = (bits_of(u) + 7) / 8;
  if (nb == 0) nb = 1;
  uint8_t b[9];
  b[0] = (uint8_t)((nb - 1) << 3 | (count - 3));
  for (unsigned i = 0; i < nb; i++)
    b[1 + i] = (uint8_t)(u >> (8 * (nb - 1 - i)));
  return chv_orc_out_write(e->out, b, 1 + nb, err);
}

/* The two header bytes of a DIRECT, PATCHED_BASE or DELTA run. */
static void header2(uint8_t b[2], unsigned kind, unsigned code, uint32_t n) {
  b[0] = (uint8_t)(kind << 6 | code << 1 | ((n - 1) >> 8));
  b[1] = (uint8_t)((n - 1) & 0xff);
}

static int emit_packed(struct chv_orc_out *o, const uint64_t *u, uint32_t n,
                       unsigned w, struct chv_error *err) {
  uint8_t buf[CHV_ORC_RLE_MAX_RUN * 8];
  size_t nb = packed_bytes(n, w);
  pack(u, n, w, buf);
  return chv_orc_out_write(o, buf, nb, err);
}

/* Fixed delta (0 for a run of equal values), n values from v. */
static int emit_fixed_delta(struct chv_orc_int_rle_enc *e, int64_t v,
                            int64_t delta, uint32_t n, struct chv_error *err) {
  uint8_t h[2];
  header2(h, 3, 0, n);
  CHV_RETURN_IF_ERR(chv_orc_out_write(e->out, h, 2, err));
  CHV_RETURN_IF_ERR(put_varint(e->out, enc_value(e, v), err));
  return put_varint(e->out, chv_pb_zigzag64(delta), err);
}

static int emit_direct(struct chv_orc_int_rle_enc *e, const int64_t *v,
                       uint32_t n, struct chv_error *err) {
  uint64_t u[CHV_ORC_RLE_MAX_RUN];
  uint64_t all = 0;
  for (uint32_t i = 0; i < n; i++)
    all |= u[i] = enc_value(e, v[i]);
  unsigned w = writable_bits(bits_of(all));
  uint8_t h[2];
  header2(h, 1, chv_orc_rle_width_encode(w), n);
  CHV_RETURN_IF_ERR(chv_orc_out_write(e->out, h, 2, err));
  return emit_packed(e->out, u, n, w, err);
}

static size_t varint_len(uint64_t v) {
  size_t n = 1;
  while (v >= 0x80) {
    v >>= 7;
    n++;
  }
  return n;
}

/* Bytes DIRECT takes for v[0, n). */
static size_t direct_cost(const struct chv_orc_int_rle_enc *e, const int64_t *v,
                          uint32_t n) {
  uint64_t all = 0;
  for (uint32_t i = 0; i < n; i++)
    all |= enc_value(e, v[i]);
  return 2 + packed_bytes(n, writable_bits(bits_of(all)));
}

/* DELTA for v[0, n) (n >= 3): *cost its size, or false when the values are
** not monotone, the first delta is 0 or a delta overflows. */
static bool delta_plan(const struct chv_orc_int_rle_enc *e, const int64_t *v,
                       uint32_t n, unsigned *w, size_t *cost) {
  int64_t d0;
  if (__builtin_sub_overflow(v[1], v[0], &d0) || d0 == 0) return false;
  uint64_t all = 0;
  bool fixed = true;
  for (uint32_t i = 2; i < n; i++) {
    int64_t d;
    if (__builtin_sub_overflow(v[i], v[i - 1], &d)) return false;
    if ((d0 > 0 && d < 0) || (d0 < 0 && d > 0)) return false;
    if (d != d0) fixed = false;
    all |= d < 0 ? (uint64_t)0 - (uint64_t)d : (uint64_t)d;
  }
  size_t head =
      2 + varint_len(enc_value(e, v[0])) + varint_len(chv_pb_zigzag64(d0));
  if (fixed) {
    *w = 0;
    *cost = head;
    return true;
  }
  /* Width code 0 means a fixed delta in DELTA runs, so width 1 (code 0
  ** elsewhere) takes 2 bits here. */
  *w = writable_bits(bits_of(all));
  if (*w == 1) *w = 2;
  *cost = head + packed_bytes(n - 2, *w);
  return true;
}

static int emit_delta(struct chv_orc_int_rle_enc *e, const int64_t *v,
                      uint32_t n, unsigned w, struct chv_error *err) {
  int64_t d0 = v[1] - v[0]; /* checked by delta_plan */
  if (w == 0) return emit_fixed_delta(e, v[0], d0, n, err);
  uint64_t u[CHV_ORC_RLE_MAX_RUN];
  for (uint32_t i = 2; i < n; i++) {
    int64_t d = v[i] - v[i - 1];
    u[i - 2] = d < 0 ? (uint64_t)0 - (uint64_t)d : (uint64_t)d;
  }
  uint8_t h[2];
  header2(h, 3, chv_orc_rle_width_encode(w), n);
  CHV_RETURN_IF_ERR(chv_orc_out_write(e->out, h, 2, err));
  CHV_RETURN_IF_ERR(put_varint(e->out, enc_value(e, v[0]), err));
  CHV_RETURN_IF_ERR(put_varint(e->out, chv_pb_zigzag64(d0), err));
  return emit_packed(e->out, u, n - 2, w, err);
}

/* PATCHED_BASE for v[0, n): the plan and its size; false when it does not
** apply (fewer than 10% outliers cannot be cut off, too many patches, the
** base needs more than 8 bytes). */
struct patch_plan {
  int64_t base;
  unsigned w, pw, pgw, bw, npatch;
  uint64_t patches[31]; /* gap << pw | patch */
  size_t cost;
};

static bool patched_plan(const int64_t *v, uint32_t n, struct patch_plan *p) {
  if (n < 10) return false;
  int64_t min = v[0], max = v[0];
  for (uint32_t i = 1; i < n; i++) {
    if (v[i] < min) min = v[i];
    if (v[i] > max) max = v[i];
  }
  if (min == INT64_MIN) return false;
  /* Width of the 90th percentile of the values less the minimum. */
  uint32_t hist[65] = {0};
  for (uint32_t i = 0; i < n; i++)
    hist[bits_of((uint64_t)v[i] - (uint64_t)min)]++;
  uint32_t keep = n - n / 10, seen = 0;
  unsigned w = 0;
  while (seen + hist[w] < keep)
    seen += hist[w++];
  unsigned full = bits_of((uint64_t)max - (uint64_t)min);
  w = writable_bits(w);
  if (w >= full) return false;
  unsigned pw = closest_fixed_bits(full - w);
  if (w + pw > 64) return false;
  /* Patches: (gap from the previous patch, high bits); gaps over 255 take
  ** (255, 0) entries. */
  unsigned np = 0, maxgap = 0;
  uint64_t at = 0;
  uint64_t gaps[31], highs[31];
  for (uint32_t i = 0; i < n; i++) {
    uint64_t u = (uint64_t)v[i] - (uint64_t)min;
    if ((u >> w) == 0) continue;
    uint64_t gap = i - at;
    while (gap > 255) {
      if (np == 31) return false;
      gaps[np] = 255;
      highs[np++] = 0;
      gap -= 255;
      maxgap = 255;
    }
    if (np == 31) return false;
    gaps[np] = gap;
    highs[np++] = u >> w;
    if (gap > maxgap) maxgap = (unsigned)gap;
    at = i;
  }
  unsigned pgw = bits_of(maxgap);
  if (pgw == 0) pgw = 1;
  if (pgw + pw > 64) return false;
  uint64_t mag = min < 0 ? (uint64_t)0 - (uint64_t)min : (uint64_t)min;
  unsigned bw = (bits_of(mag) + 1 + 7) / 8; /* one more bit for the sign */
  if (bw > 8) return false;
  p->base = min;
  p->w = w;
  p->pw = pw;
  p->pgw = pgw;
  p->bw = bw;
  p->npatch = np;
  for (unsigned i = 0; i < np; i++)
    p->patches[i] = gaps[i] << pw | highs[i];
  p->cost = 4 + bw + packed_bytes(n, w) +
            packed_bytes(np, closest_fixed_bits(pgw + pw));
  return true;
}

static int emit_patched(struct chv_orc_int_rle_enc *e, const int64_t *v,
                        uint32_t n, const struct patch_plan *p,
                        struct chv_error *err) {
  uint8_t h[4];
  header2(h, 2, chv_orc_rle_width_encode(p->w), n);
  h[2] = (uint8_t)((p->bw - 1) << 5 | chv_orc_rle_width_encode(p->pw));
  h[3] = (uint8_t)((p->pgw - 1) << 5 | p->npatch);
  CHV_RETURN_IF_ERR(chv_orc_out_write(e->out, h, 4, err));
  uint64_t mag =
      p->base < 0 ? (uint64_t)0 - (uint64_t)p->base : (uint64_t)p->base;
  if (p->base < 0) mag |= (uint64_t)1 << (p->bw * 8 - 1);
  uint8_t b[8];
  for (unsigned i = 0; i < p->bw; i++)
    b[i] = (uint8_t)(mag >> (8 * (p->bw - 1 - i)));
  CHV_RETURN_IF_ERR(chv_orc_out_write(e->out, b, p->bw, err));
  uint64_t u[CHV_ORC_RLE_MAX_RUN];
  uint64_t lowmask = ((uint64_t)1 << p->w) - 1; /* w < 64 here */
  for (uint32_t i = 0; i < n; i++)
    u[i] = ((uint64_t)v[i] - (uint64_t)p->base) & lowmask;
  CHV_RETURN_IF_ERR(emit_packed(e->out, u, n, p->w, err));
  if (p->npatch == 0) return CHV_OK;
  return emit_packed(e->out, p->patches, p->npatch,
                     closest_fixed_bits(p->pgw + p->pw), err);
}

/* Values that are not a run of 3 or more equal ones: the smallest of
** DIRECT, DELTA and PATCHED_BASE. */
static int emit_literals(struct chv_orc_int_rle_enc *e, const int64_t *v,
                         uint32_t n, struct chv_error *err) {
  size_t best = direct_cost(e, v, n);
  unsigned w = 0;
  size_t dcost;
  bool delta = n >= 3 && delta_plan(e, v, n, &w, &dcost) && dcost < best;
  if (delta) best = dcost;
  struct patch_plan pp;
  if (patched_plan(v, n, &pp) && pp.cost < best)
    return emit_patched(e, v, n, &pp, err);
  if (delta) return emit_delta(e, v, n, w, err);
  return emit_direct(e, v, n, err);
}

/* Encode buf[0, n) as runs. */
static int int_emit(struct chv_orc_int_rle_enc *e, struct chv_error *err) {
  const int64_t *v = e->buf;
  uint32_t n = e->n, i = 0;
  while (i < n) {
    uint32_t r = 1;
    while (i + r < n && v[i + r] == v[i])
      r++;
    if (r >= 3) {
      if (r <= 10)
        CHV_RETURN_IF_ERR(emit_short_repeat(e, v[i], r, err));
      else
        CHV_RETURN_IF_ERR(emit_fixed_delta(e, v[i], 0, r, err));
      i += r;
      continue;
    }
    /* Literals up to the next run of 3 equal values. */
    uint32_t j = i + 1;
    while (j < n && !(j + 2 < n && v[j] == v[j + 1] && v[j] == v[j + 2]))
      j++;
    CHV_RETURN_IF_ERR(emit_literals(e, v + i, j - i, err));
    i = j;
  }
  e->n = 0;
  return CHV_OK;
}

int chv_orc_int_rle_enc_write(struct chv_orc_int_rle_enc *e, const int64_t *v,
                              size_t n, struct chv_error *err) {
  while (n > 0) {
    size_t k = CHV_MIN(n, (size_t)(CHV_ORC_RLE_MAX_RUN - e->n));
    memcpy(e->buf + e->n, v, k * sizeof *v);
    e->n += (uint32_t)k;
    v += k;
    n -= k;
    if (e->n == CHV_ORC_RLE_MAX_RUN) CHV_RETURN_IF_ERR(int_emit(e, err));
  }
  return CHV_OK;
}

int chv_orc_int_rle_enc_flush(struct chv_orc_int_rle_enc *e,
                              struct chv_error *err) {
  CHV_RETURN_IF_ERR(int_emit(e, err));
  return chv_orc_out_flush(e->out, err);
}

int chv_orc_int_rle_enc_position(const struct chv_orc_int_rle_enc *e,
                                 uint64_t pos[3]) {
  int k = chv_orc_out_position(e->out, pos);
  pos[k] = e->n;
  return k + 1;
}

/* ---- varint encodings -------------------------------------------------- */

__extension__ typedef unsigned __int128 u128;

int chv_orc_decimal_read(struct chv_orc_stream *s, chv_i128 *v,
                         struct chv_error *err) {
  u128 x = 0;
  for (unsigned i = 0;; i++) {
    uint8_t b;
    CHV_RETURN_IF_ERR(chv_orc_stream_byte(s, &b, err));
    u128 part = b & 0x7f;
    /* 19 bytes hold 133 bits; the last may carry only the top 2. */
    if (i == 18 && part > 3)
      return chv_error_set(err, CHV_ECORRUPT,
                           "%s: decimal value exceeds 128 bits", s->name);
    x |= part << (7 * i);
    if (!(b & 0x80)) break;
    if (i == 18)
      return chv_error_set(err, CHV_ECORRUPT,
                           "%s: decimal varint longer than 19 bytes", s->name);
  }
  *v = (chv_i128)(x >> 1) ^ -(chv_i128)(x & 1);
  return CHV_OK;
}

size_t chv_orc_decimal_encode(uint8_t *out, chv_i128 v) {
  u128 x = ((u128)v << 1) ^ (u128)(v >> 127);
  size_t n = 0;
  while (x >= 0x80) {
    out[n++] = (uint8_t)(x | 0x80);
    x >>= 7;
  }
  out[n++] = (uint8_t)x;
  return n;
}

int chv_orc_decimal_write(struct chv_orc_out *o, chv_i128 v,
                          struct chv_error *err) {
  uint8_t b[19];
  return chv_orc_out_write(o, b, chv_orc_decimal_encode(b, v), err);
}

uint64_t chv_orc_nanos_encode(int32_t nanos) {
  if (nanos <= 0) return 0;
  uint64_t v = (uint64_t)nanos;
  if (v % 100 != 0) return v << 3;
  /* Two or more trailing zeros: cut them (up to 8), count them less 1. */
  v /= 100;
  unsigned z = 1;
  while (v % 10 == 0 && z < 7) {
    v /= 10;
    z++;
  }
  return v << 3 | z;
}

int chv_orc_nanos_decode(uint64_t v, int32_t *nanos, struct chv_error *err) {
  unsigned z = v & 7;
  uint64_t n = v >> 3;
  if (z != 0)
    for (unsigned i = 0; i <= z; i++) {
      if (n >= 1000000000u) break;
      n *= 10;
    }
  if (n >= 1000000000u)
    return chv_error_set(err, CHV_ECORRUPT,
                         "nanoseconds value %" PRIu64 " is out of range", v);
  *nanos = (int32_t)n;
  return CHV_OK;
}
