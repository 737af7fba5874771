/*
** format/orc run-length encodings (ORCv1.md, "Run Length Encoding"), read
** over a decompressing stream (struct chv_orc_stream) and written into a
** compressing one (struct chv_orc_out):
**
**   byte RLE       runs of 3..130 equal bytes (control 0..127 = length - 3,
**                  then the byte) and literal groups of 1..128 bytes
**                  (control -1..-128 = -length, then the bytes)
**   boolean RLE    bits packed most significant first into bytes, the bytes
**                  in byte RLE
**   integer RLE v1 runs of 3..130 values with a fixed delta in -128..127
**                  (control, delta byte, base varint) and literal groups of
**                  1..128 varints; signed values zigzag encoded
**   integer RLE v2 the first two bits of each run's header choose
**                  SHORT_REPEAT (3..10 copies of a 1..8 byte value), DIRECT
**                  (1..512 values bit-packed big-endian at a width from the
**                  5-bit width table), PATCHED_BASE (a base, values of a
**                  narrow width and a patch list for the wide ones) or DELTA
**                  (a base varint, a first delta and 1..510 deltas, or a
**                  fixed delta when the width is 0)
**   decimals       the unscaled value as an unbounded zigzag varint (here up
**                  to 128 bits: 19 bytes)
**   nanoseconds    timestamps' SECONDARY values: the nanos with their
**                  trailing decimal zeros cut off, the count of zeros cut
**                  (2..8, stored as 1..7) in the low 3 bits
**
** Decoders are batch-oriented: read(n) fills n values from as many runs as
** it takes, keeping a run that goes on past n for the next call.  Every run
** is checked: a header that reads past the end of the stream, a width
** outside the table, a patch list running past its values or wider than 64
** bits, a varint longer than 10 bytes, a DELTA run of one value with a delta
** width: each is CHV_ECORRUPT naming the stream.  Asking for more values
** than the stream holds is CHV_ECORRUPT ("the stream ends early").
**
** Seeking: after chv_orc_stream_seek*() of the underlying stream, a
** decoder's _seek(values) drops its state and skips the values the row index
** position gives (a boolean decoder also takes the bit offset).
**
** Encoders buffer the values of the run being built; _position() tells
** where the next value goes as a row index records it (the stream's
** position, then the values buffered); _flush() writes what is buffered.
** The integer RLE v2 encoder picks, for each run, SHORT_REPEAT for 3..10
** equal values, DELTA for longer equal runs and for monotone sequences when
** that is smaller, PATCHED_BASE when a few outliers would widen DIRECT
** much, and DIRECT otherwise; it writes only the widths the width table
** does not mark deprecated.
**
** INTERFACE
**   chv_orc_byte_rle_init/_read/_skip/_seek()
**   chv_orc_bool_rle_init/_read/_read_bits/_skip/_seek()
**   chv_orc_int_rle_init/_read/_skip/_seek()       RLE v1 and v2
**   chv_orc_byte_rle_enc_*, chv_orc_bool_rle_enc_*, chv_orc_int_rle_enc_*
**   chv_orc_decimal_read/_write/_encode(), chv_orc_nanos_encode/_decode()
**   chv_orc_rle_width_decode/_encode()             the 5-bit width table
**
** Thread safety: a decoder or encoder belongs to one thread at a time.
*/
#ifndef CHV_FORMAT_ORC_RLE_H
#define CHV_FORMAT_ORC_RLE_H

#include "format/orc/orc_int.h"

#define CHV_ORC_RLE_MAX_RUN 512 /* values in one RLE v2 run */

/* The 5-bit width table of RLE v2: code -> bits (1..64; delta runs read
** code 0 as width 0 themselves), and bits -> the code of the smallest width
** the table holds that is at least `bits` (1..64). */
unsigned chv_orc_rle_width_decode(unsigned code);
unsigned chv_orc_rle_width_encode(unsigned bits);

/* ---- decoders ---------------------------------------------------------- */

struct chv_orc_byte_rle {
  struct chv_orc_stream *in; /* borrowed */
  uint32_t left;             /* values left in the current group */
  bool repeat;               /* the group is a run of `value` */
  uint8_t value;
};

void chv_orc_byte_rle_init(struct chv_orc_byte_rle *d,
                           struct chv_orc_stream *in);
/* The next n values into out. */
int chv_orc_byte_rle_read(struct chv_orc_byte_rle *d, uint8_t *out, size_t n,
                          struct chv_error *err);
int chv_orc_byte_rle_skip(struct chv_orc_byte_rle *d, uint64_t n,
                          struct chv_error *err);
/* After the stream was positioned: forget the group, skip `values`. */
int chv_orc_byte_rle_seek(struct chv_orc_byte_rle *d, uint64_t values,
                          struct chv_error *err);

struct chv_orc_bool_rle {
  struct chv_orc_byte_rle bytes;
  uint8_t cur; /* the byte being consumed, most significant bit next */
  int nbits;   /* bits of cur not yet handed out */
};

void chv_orc_bool_rle_init(struct chv_orc_bool_rle *d,
                           struct chv_orc_stream *in);
/* n values as bytes 0/1. */
int chv_orc_bool_rle_read(struct chv_orc_bool_rle *d, uint8_t *out, size_t n,
                          struct chv_error *err);
/* n values as bits of an Arrow bitmap (least significant bit first) from
** bit `at` on; *ones (may be NULL) gets how many were true. */
int chv_orc_bool_rle_read_bits(struct chv_orc_bool_rle *d, uint8_t *bitmap,
                               size_t at, size_t n, size_t *ones,
                               struct chv_error *err);
int chv_orc_bool_rle_skip(struct chv_orc_bool_rle *d, uint64_t n,
                          struct chv_error *err);
/* After the stream was positioned: skip `bytes` byte values, then `bits`
** (0..8) bits of the next byte (a boolean stream's two RLE positions). */
int chv_orc_bool_rle_seek(struct chv_orc_bool_rle *d, uint64_t bytes,
                          uint64_t bits, struct chv_error *err);

struct chv_orc_int_rle {
  struct chv_orc_stream *in; /* borrowed */
  int version;               /* 1 or 2 */
  bool is_signed;
  /* An arithmetic run (RLE v1 runs, SHORT_REPEAT, fixed-delta DELTA). */
  uint64_t run_left;
  int64_t run_next; /* next value of the run */
  int64_t run_delta;
  /* Literal values decoded from a run of the other kinds. */
  uint32_t nlits, pos;
  int64_t lits[CHV_ORC_RLE_MAX_RUN];
};

/* version: 1 (DIRECT/DICTIONARY encodings) or 2 (the _V2 ones);
** is_signed: zigzag values.  CHV_EINVAL for another version. */
int chv_orc_int_rle_init(struct chv_orc_int_rle *d, struct chv_orc_stream *in,
                         int version, bool is_signed, struct chv_error *err);
/* The next n values; unsigned ones come as their 64-bit pattern. */
int chv_orc_int_rle_read(struct chv_orc_int_rle *d, int64_t *out, size_t n,
                         struct chv_error *err);
int chv_orc_int_rle_skip(struct chv_orc_int_rle *d, uint64_t n,
                         struct chv_error *err);
int chv_orc_int_rle_seek(struct chv_orc_int_rle *d, uint64_t values,
                         struct chv_error *err);

/* ---- encoders ---------------------------------------------------------- */

struct chv_orc_byte_rle_enc {
  struct chv_orc_out *out; /* borrowed */
  uint8_t lits[128];       /* the group being built */
  int n;                   /* values in it */
  bool repeat;             /* it is a run of lits[0] */
  int tail;                /* equal values at the end of a literal group */
};

void chv_orc_byte_rle_enc_init(struct chv_orc_byte_rle_enc *e,
                               struct chv_orc_out *out);
int chv_orc_byte_rle_enc_write(struct chv_orc_byte_rle_enc *e, const uint8_t *v,
                               size_t n, struct chv_error *err);
int chv_orc_byte_rle_enc_flush(struct chv_orc_byte_rle_enc *e,
                               struct chv_error *err);
/* The stream's position, then the values buffered; returns the count. */
int chv_orc_byte_rle_enc_position(const struct chv_orc_byte_rle_enc *e,
                                  uint64_t pos[3]);

struct chv_orc_bool_rle_enc {
  struct chv_orc_byte_rle_enc bytes;
  uint8_t cur; /* bits so far, most significant first */
  int nbits;
};

void chv_orc_bool_rle_enc_init(struct chv_orc_bool_rle_enc *e,
                               struct chv_orc_out *out);
/* n values, bytes 0 (false) or not 0 (true). */
int chv_orc_bool_rle_enc_write(struct chv_orc_bool_rle_enc *e, const uint8_t *v,
                               size_t n, struct chv_error *err);
/* n values from an Arrow bitmap, from bit `at` on. */
int chv_orc_bool_rle_enc_write_bits(struct chv_orc_bool_rle_enc *e,
                                    const uint8_t *bitmap, size_t at, size_t n,
                                    struct chv_error *err);
/* Writes a last partial byte (padded with false). */
int chv_orc_bool_rle_enc_flush(struct chv_orc_bool_rle_enc *e,
                               struct chv_error *err);
/* The byte encoder's position, then the bits in the current byte. */
int chv_orc_bool_rle_enc_position(const struct chv_orc_bool_rle_enc *e,
                                  uint64_t pos[4]);

struct chv_orc_int_rle_enc {
  struct chv_orc_out *out; /* borrowed */
  bool is_signed;
  uint32_t n; /* values buffered */
  int64_t buf[CHV_ORC_RLE_MAX_RUN];
};

/* Integer RLE v2. */
void chv_orc_int_rle_enc_init(struct chv_orc_int_rle_enc *e,
                              struct chv_orc_out *out, bool is_signed);
int chv_orc_int_rle_enc_write(struct chv_orc_int_rle_enc *e, const int64_t *v,
                              size_t n, struct chv_error *err);
int chv_orc_int_rle_enc_flush(struct chv_orc_int_rle_enc *e,
                              struct chv_error *err);
int chv_orc_int_rle_enc_position(const struct chv_orc_int_rle_enc *e,
                                 uint64_t pos[3]);

/* ---- varint encodings -------------------------------------------------- */

/* A decimal's unscaled value: an unbounded zigzag varint; more than 128
** bits is CHV_ECORRUPT. */
int chv_orc_decimal_read(struct chv_orc_stream *s, chv_i128 *v,
                         struct chv_error *err);
/* Encoded into out (19 bytes suffice); returns the length. */
size_t chv_orc_decimal_encode(uint8_t *out, chv_i128 v);
int chv_orc_decimal_write(struct chv_orc_out *o, chv_i128 v,
                          struct chv_error *err);

/* A timestamp's nanoseconds (0..999,999,999) as the SECONDARY stream holds
** them, and back; a value decoding to 10^9 or more is CHV_ECORRUPT. */
uint64_t chv_orc_nanos_encode(int32_t nanos);
int chv_orc_nanos_decode(uint64_t v, int32_t *nanos, struct chv_error *err);

#endif /* CHV_FORMAT_ORC_RLE_H */
