/*
** format/parquet encodings: the value and level encodings of Parquet pages
** (apache/parquet-format Encodings.md), decoded from a bounded byte span
** into caller arrays, and encoded into a chv_buf for the writer.
**
** Decoders take a span [p, p + len) that they never read outside of, and
** decode many values per call into arrays the caller sized; they allocate
** nothing, except the DELTA_BYTE_ARRAY decoder, which keeps a copy of the
** previous value and appends to the caller's heap.  Malformed bytes give
** CHV_ECORRUPT with a message saying what was wrong; a decoder that failed
** must not be used further (its position is unspecified).  Decoders that
** consume a stream in batches are small structs the caller owns: init them,
** call next as often as needed, no free (except chv_pq_dba_free()).
**
** Limits enforced (beyond "stay inside the span"):
**   - bit widths: 0..32 for RLE/bit-packed data and levels, 0..64 for
**     DELTA_BINARY_PACKED miniblocks;
**   - RLE runs must fit the number of values the caller says the stream
**     holds (a bit-packed run may hold more: the values past that count
**     are padding, never returned), and a repeated value must fit the bit
**     width;
**   - DELTA_BINARY_PACKED: block size a multiple of 128 up to
**     CHV_PQ_DELTA_MAX_BLOCK, miniblocks of a multiple of 32 values, varints
**     of at most 10 bytes; arithmetic wraps (two's complement) as the spec
**     asks;
**   - byte array lengths must fit the span; DELTA_BYTE_ARRAY prefixes must
**     not exceed the previous value, and the heap stays below 2 GiB (int32
**     offsets).
**
** Values are little-endian in pages; this code assumes a little-endian host
** (checked at compile time).
**
** INTERFACE
**   chv_pq_unpack32/64(), chv_pq_pack32/64()      LSB-first bit packing
**   struct chv_pq_rle_dec, chv_pq_rle_*()         RLE/bit-packed hybrid
**   chv_pq_bitpacked_msb_decode()                 deprecated BIT_PACKED levels
**   struct chv_pq_plain_dec, chv_pq_plain_*()     PLAIN
**   struct chv_pq_delta_dec, chv_pq_delta_*()     DELTA_BINARY_PACKED
**   struct chv_pq_dlba_dec, chv_pq_dlba_*()       DELTA_LENGTH_BYTE_ARRAY
**   struct chv_pq_dba_dec, chv_pq_dba_*()         DELTA_BYTE_ARRAY
**   struct chv_pq_bss_dec, chv_pq_bss_*()         BYTE_STREAM_SPLIT
**   chv_pq_half_to_float(), _n()                  FLOAT16 -> float
**   chv_pq_rle_encode*(), chv_pq_plain_encode_*(), chv_pq_delta_encode_*(),
**   chv_pq_dlba_encode(), chv_pq_dba_encode(), chv_pq_bss_encode()  writers
**
** Thread safety: none needed; every decoder is the caller's own struct.
*/
#ifndef CHV_PQ_ENCODING_H
#define CHV_PQ_ENCODING_H

#include "common/common.h"

/* Largest DELTA_BINARY_PACKED block size (values) accepted. */
#define CHV_PQ_DELTA_MAX_BLOCK (1u << 20)

/* What the writer's DELTA_BINARY_PACKED blocks look like (as parquet-java
** writes them): 128 values in 4 miniblocks of 32. */
#define CHV_PQ_DELTA_BLOCK 128
#define CHV_PQ_DELTA_MINIBLOCKS 4

/* ---- bit packing (LSB first, as the RLE/bit-packed hybrid packs) ------- */

/* Unpack n values of `width` bits (0..32; 0..64 for the 64-bit form) from
** in[0, in_len).  Returns how many values were unpacked: n, or fewer when
** in_len holds fewer whole values.  Groups of 32 values go through a loop
** specialised for each width. */
size_t chv_pq_unpack32(const uint8_t *in, size_t in_len, int width,
                       uint32_t *out, size_t n);
size_t chv_pq_unpack64(const uint8_t *in, size_t in_len, int width,
                       uint64_t *out, size_t n);

/* Pack n values into ceil(n * width / 8) bytes at out (zero padding in the
** last byte); bits of a value above `width` are ignored. */
void chv_pq_pack32(const uint32_t *in, size_t n, int width, uint8_t *out);
void chv_pq_pack64(const uint64_t *in, size_t n, int width, uint8_t *out);

/* Bits needed for v (0 for 0). */
int chv_pq_bit_width(uint64_t v);

/* ---- RLE / bit-packed hybrid ------------------------------------------ */

/* Decoder state.  Fields are private to pq_encoding.c. */
struct chv_pq_rle_dec {
  const uint8_t *p;     /* next run header */
  const uint8_t *end;   /* end of the encoded data */
  int width;            /* bit width, 0..32 */
  uint64_t left;        /* values the stream may still produce */
  uint32_t rep_left;    /* values left in the current repeated run */
  uint32_t rep_value;   /* its value */
  uint32_t lit_left;    /* values left in the current bit-packed run */
  const uint8_t *lit;   /* next (byte-aligned) group of that run */
  const uint8_t *lit_end; /* end of that run's bytes in the span */
  uint32_t buf_pos, buf_len; /* unpacked values waiting in buf */
  uint32_t buf[32];
};

/* Start decoding `num_values` values of `width` bits (0..32) from
** [p, p + len), without a length prefix (data page v2 levels, dictionary
** indices after their width byte). */
int chv_pq_rle_init(struct chv_pq_rle_dec *d, const uint8_t *p, size_t len,
                    int width, uint64_t num_values, struct chv_error *err);

/* The same for data with the 4-byte little-endian length prefix (data page
** v1 levels, RLE booleans): *used is set to 4 + that length, where the
** next section of the page starts. */
int chv_pq_rle_init_prefixed(struct chv_pq_rle_dec *d, const uint8_t *p,
                             size_t len, int width, uint64_t num_values,
                             size_t *used, struct chv_error *err);

/* Dictionary indices: a 1-byte bit width (at most 32) and the runs. */
int chv_pq_rle_init_dict(struct chv_pq_rle_dec *d, const uint8_t *p,
                         size_t len, uint64_t num_values,
                         struct chv_error *err);

/* Decode the next n values into out[0, n). */
int chv_pq_rle_next(struct chv_pq_rle_dec *d, size_t n, uint32_t *out,
                    struct chv_error *err);

/* The same, checking every value is < limit ("dictionary index 7 is not
** below the dictionary size 5"). */
int chv_pq_rle_next_bounded(struct chv_pq_rle_dec *d, size_t n,
                            uint32_t limit, uint32_t *out,
                            struct chv_error *err);

/* Decode n values (which must fit a byte: width <= 8) into out, e.g. RLE
** booleans or levels. */
int chv_pq_rle_next_u8(struct chv_pq_rle_dec *d, size_t n, uint8_t *out,
                       struct chv_error *err);

/* One piece of a run, as chv_pq_rle_next_run() hands it out. */
struct chv_pq_rle_run {
  uint32_t count;  /* values in this piece (>= 1) */
  bool repeated;   /* all `count` values equal `value` */
  uint32_t value;  /* the repeated value */
};

/* The next piece of at most `max` values (max >= 1): a repeated run's
** length and value (out untouched), or bit-packed values unpacked into
** out[0, count).  Lets a caller handle "all defined" runs in bulk. */
int chv_pq_rle_next_run(struct chv_pq_rle_dec *d, size_t max, uint32_t *out,
                        struct chv_pq_rle_run *run, struct chv_error *err);

/* Consume n values, counting those equal to `value` into *count (repeated
** runs in O(1), width-1 runs by popcount). */
int chv_pq_rle_count_eq(struct chv_pq_rle_dec *d, size_t n, uint32_t value,
                        uint64_t *count, struct chv_error *err);

/* Consume n values. */
int chv_pq_rle_skip(struct chv_pq_rle_dec *d, size_t n, struct chv_error *err);

/* Encode n values of `width` bits (0..32) as RLE/bit-packed runs, appended
** to out: values repeated 8 or more times as repeated runs, the rest
** bit-packed in groups of 8 (the last group zero-padded).  Values must fit
** the width.  _prefixed writes the 4-byte length first, _dict the 1-byte
** width first. */
int chv_pq_rle_encode(const uint32_t *v, size_t n, int width,
                      struct chv_buf *out, struct chv_error *err);
int chv_pq_rle_encode_prefixed(const uint32_t *v, size_t n, int width,
                               struct chv_buf *out, struct chv_error *err);
int chv_pq_rle_encode_dict(const uint32_t *v, size_t n, int width,
                           struct chv_buf *out, struct chv_error *err);

/* ---- deprecated BIT_PACKED levels (MSB first) -------------------------- */

/* Decode n values of `width` bits (0..32) packed most significant bit
** first; *used = ceil(n * width / 8), the bytes they take. */
int chv_pq_bitpacked_msb_decode(const uint8_t *p, size_t len, int width,
                                size_t n, uint32_t *out, size_t *used,
                                struct chv_error *err);

/* ---- PLAIN ------------------------------------------------------------- */

struct chv_pq_plain_dec {
  const uint8_t *base; /* start of the span (byte array offsets count here) */
  const uint8_t *p;    /* next value */
  const uint8_t *end;  /* end of the span */
  uint8_t bit;         /* booleans: next bit within *p */
};

void chv_pq_plain_init(struct chv_pq_plain_dec *d, const uint8_t *p,
                       size_t len);

/* n values of `width` bytes (4 INT32/FLOAT, 8 INT64/DOUBLE, 12 INT96, the
** FLBA length) copied to out; out may be NULL to skip. */
int chv_pq_plain_next_fixed(struct chv_pq_plain_dec *d, size_t width,
                            size_t n, void *out, struct chv_error *err);

/* n booleans (bit-packed, LSB first) as 0/1 bytes; out may be NULL. */
int chv_pq_plain_next_bool(struct chv_pq_plain_dec *d, size_t n, uint8_t *out,
                           struct chv_error *err);

/* n BYTE_ARRAY values: value i is base[offs[i], offs[i] + lens[i]) of the
** span given to init (zero copy).  offs/lens may be NULL (to skip);
** *total (may be NULL) gets the sum of the lengths. */
int chv_pq_plain_next_ba(struct chv_pq_plain_dec *d, size_t n, uint32_t *offs,
                         uint32_t *lens, uint64_t *total,
                         struct chv_error *err);

/* Bytes left in the span. */
size_t chv_pq_plain_remaining(const struct chv_pq_plain_dec *d);

/* Encoders, appending to out. */
int chv_pq_plain_encode_fixed(const void *v, size_t n, size_t width,
                              struct chv_buf *out, struct chv_error *err);
/* v: one byte per value, nonzero is true. */
int chv_pq_plain_encode_bool(const uint8_t *v, size_t n, struct chv_buf *out,
                             struct chv_error *err);
/* Values bytes[offsets[i], offsets[i + 1]) for i < n (Arrow layout). */
int chv_pq_plain_encode_ba(const char *bytes, const int32_t *offsets, size_t n,
                           struct chv_buf *out, struct chv_error *err);

/* ---- DELTA_BINARY_PACKED ----------------------------------------------- */

/* Decoder state.  Fields are private to pq_encoding.c. */
struct chv_pq_delta_dec {
  const uint8_t *p;      /* next unread byte */
  const uint8_t *end;    /* end of the span */
  uint32_t block_size;   /* values per block */
  uint32_t nmini;        /* miniblocks per block */
  uint32_t mini_size;    /* values per miniblock */
  uint64_t total;        /* values the header announces */
  uint64_t left;         /* values not yet decoded */
  uint64_t last;         /* previous value (wrapping arithmetic) */
  uint64_t min_delta;    /* of the current block */
  const uint8_t *widths; /* bit widths of the current block's miniblocks */
  uint32_t mini_idx;     /* current miniblock within the block */
  uint32_t mini_left;    /* values left in the current miniblock */
  const uint8_t *mini;   /* next group of 32 in the current miniblock */
  const uint8_t *mini_end; /* end of its bytes present in the span */
  int width;             /* bit width of the current miniblock */
  bool first;            /* the first value has not been returned yet */
  bool short_tail;       /* the last miniblock started is cut short */
  uint64_t unassigned;   /* deltas not yet in a started miniblock */
  uint32_t dpos, dlen;   /* deltas unpacked but not yet returned */
  uint64_t dbuf[32];     /* those deltas, min delta added */
};

/* Read the header of a DELTA_BINARY_PACKED stream at [p, p + len). */
int chv_pq_delta_init(struct chv_pq_delta_dec *d, const uint8_t *p, size_t len,
                      struct chv_error *err);

/* Values the header announces (and how many are still to come). */
static inline uint64_t chv_pq_delta_total(const struct chv_pq_delta_dec *d) {
  return d->total;
}
static inline uint64_t chv_pq_delta_left(const struct chv_pq_delta_dec *d) {
  return d->left;
}

/* Decode the next n values (n <= left).  int32 streams wrap in 32 bits. */
int chv_pq_delta_next_i32(struct chv_pq_delta_dec *d, size_t n, int32_t *out,
                          struct chv_error *err);
int chv_pq_delta_next_i64(struct chv_pq_delta_dec *d, size_t n, int64_t *out,
                          struct chv_error *err);
int chv_pq_delta_skip(struct chv_pq_delta_dec *d, size_t n,
                      struct chv_error *err);

/* Where the stream ends: walks the remaining blocks without unpacking them
** (the decoder is then used up).  Every miniblock holding values must be
** present in full, padding included. */
int chv_pq_delta_end(struct chv_pq_delta_dec *d, const uint8_t **end,
                     struct chv_error *err);

/* Encode n values as one DELTA_BINARY_PACKED stream, appended to out. */
int chv_pq_delta_encode_i32(const int32_t *v, size_t n, struct chv_buf *out,
                            struct chv_error *err);
int chv_pq_delta_encode_i64(const int64_t *v, size_t n, struct chv_buf *out,
                            struct chv_error *err);

/* ---- DELTA_LENGTH_BYTE_ARRAY ------------------------------------------- */

struct chv_pq_dlba_dec {
  struct chv_pq_delta_dec lens; /* the lengths */
  const uint8_t *base;          /* start of the span (offsets count here) */
  const uint8_t *data;          /* next value's bytes */
  const uint8_t *end;           /* end of the span */
  int32_t lenbuf[64];           /* lengths of a batch */
};

/* The lengths are walked once to find where the bytes start. */
int chv_pq_dlba_init(struct chv_pq_dlba_dec *d, const uint8_t *p, size_t len,
                     struct chv_error *err);
/* n values as offsets into the span and lengths, like chv_pq_plain_next_ba. */
int chv_pq_dlba_next(struct chv_pq_dlba_dec *d, size_t n, uint32_t *offs,
                     uint32_t *lens, uint64_t *total, struct chv_error *err);
static inline uint64_t chv_pq_dlba_total(const struct chv_pq_dlba_dec *d) {
  return d->lens.total;
}

int chv_pq_dlba_encode(const char *bytes, const int32_t *offsets, size_t n,
                       struct chv_buf *out, struct chv_error *err);

/* ---- DELTA_BYTE_ARRAY -------------------------------------------------- */

struct chv_pq_dba_dec {
  struct chv_pq_delta_dec prefix; /* prefix lengths */
  struct chv_pq_dlba_dec suffix;  /* suffixes */
  struct chv_buf prev;            /* the previous value (owned) */
  int32_t pbuf[64];               /* prefix lengths of a batch */
  uint32_t soff[64], slen[64];    /* suffixes of a batch */
};

int chv_pq_dba_init(struct chv_pq_dba_dec *d, const uint8_t *p, size_t len,
                    struct chv_error *err);
/* Append n values to heap, value i at heap[offsets[i], offsets[i + 1])
** (offsets[0] is set to heap->len on entry).  CHV_ERANGE if the heap would
** pass INT32_MAX bytes. */
int chv_pq_dba_next(struct chv_pq_dba_dec *d, size_t n, struct chv_buf *heap,
                    int32_t *offsets, struct chv_error *err);
void chv_pq_dba_free(struct chv_pq_dba_dec *d);
static inline uint64_t chv_pq_dba_total(const struct chv_pq_dba_dec *d) {
  return d->prefix.total;
}

int chv_pq_dba_encode(const char *bytes, const int32_t *offsets, size_t n,
                      struct chv_buf *out, struct chv_error *err);

/* ---- BYTE_STREAM_SPLIT ------------------------------------------------- */

struct chv_pq_bss_dec {
  const uint8_t *base; /* stream 0 */
  size_t k;            /* bytes per value = number of streams */
  size_t count;        /* values in the page */
  size_t pos;          /* next value */
};

/* k = 4 (FLOAT, INT32), 8 (DOUBLE, INT64) or an FLBA length; len must be a
** multiple of k. */
int chv_pq_bss_init(struct chv_pq_bss_dec *d, const uint8_t *p, size_t len,
                    size_t k, struct chv_error *err);
/* n values of k bytes each, reassembled into out (NULL to skip). */
int chv_pq_bss_next(struct chv_pq_bss_dec *d, size_t n, void *out,
                    struct chv_error *err);
int chv_pq_bss_encode(const void *v, size_t n, size_t k, struct chv_buf *out,
                      struct chv_error *err);

/* ---- FLOAT16 ----------------------------------------------------------- */

/* IEEE half (binary16) to float: exact for every value, including
** subnormals, infinities, ±0 and NaN (payload kept). */
float chv_pq_half_to_float(uint16_t h);
/* n little-endian halves from in (2n bytes) to out. */
void chv_pq_half_to_float_n(const uint8_t *in, size_t n, float *out);

#endif /* CHV_PQ_ENCODING_H */
