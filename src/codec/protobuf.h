/*
** codec/protobuf: the Protocol Buffers wire format, read from a bounded byte
** buffer and written into a struct chv_buf.
**
** The codec knows the wire format only, no .proto schema: ORC's PostScript,
** Footer, Metadata, StripeFooter and index streams (format/orc) are read and
** written on top of it by hand.  The encoding follows the Protocol Buffers
** "Encoding" document:
**
**   key           varint (field number << 3 | wire type); field numbers are
**                 1 .. 2^29 - 1
**   VARINT (0)    ULEB128, at most 10 bytes; int32/int64/uint32/uint64/bool/
**                 enum as they are (a negative int32 takes 10 bytes, sign
**                 extended), sint32/sint64 zigzag encoded
**   I64 (1)       8 bytes little-endian: fixed64, sfixed64, double
**   LEN (2)       varint length, then that many bytes: string, bytes,
**                 embedded messages, packed repeated scalars
**   SGROUP (3),   the deprecated groups: a start key, fields, and an end key
**   EGROUP (4)    of the same field number
**   I32 (5)       4 bytes little-endian: fixed32, sfixed32, float
**
** Reading is bounded: every length is checked against the bytes left before
** anything is done with it, and nothing here allocates.  A varint longer
** than 10 bytes, or carrying bits beyond 64, is an error, as is a value too
** large for the 32-bit type asked for.  Wire types 6 and 7 and field number
** 0 are errors.  Embedded messages open a sub-reader over their bytes; they,
** and the groups chv_pb_skip() passes over, nest at most CHV_PB_MAX_DEPTH
** deep.  Errors name what was wrong and its byte offset from the start of
** the outermost buffer ("length 400 of field 3 exceeds the 12 bytes left at
** offset 37"); their status is r->corrupt_code, CHV_ECORRUPT by default.
**
** Unknown fields are the caller's to skip: chv_pb_read_key() reports the
** field number and wire type, and chv_pb_skip() passes over a value of any
** wire type.  A group is skipped whole, nested groups included, up to its
** matching end key; an end key with no start is an error.
**
** Repeated scalar fields may come packed (one LEN field holding the values
** back to back) or unpacked (one key per value), and a parser must take
** both: chv_pb_read_repeated_begin() gives a sub-reader over the values of
** one field occurrence in either form.  chv_pb_count_varints() sizes an
** array before it is filled.
**
** Writing appends to a chv_buf.  Embedded messages and packed fields are
** written between a begin, which returns a mark, and an end, which inserts
** the length in front of the body.  The writer is sticky: after a failure
** (CHV_ENOMEM, or CHV_EINVAL for a misuse such as nesting too deep) every
** later call does nothing and returns the same status.
**
** INTERFACE
**   chv_pb_reader_init()                    a reader over bytes (borrowed)
**   chv_pb_read_key(), chv_pb_skip()        field keys; pass over any value
**   chv_pb_read_varint/_uint32/_int32/_int64/_sint32/_sint64/_bool/
**   _fixed32/_fixed64/_float/_double/_bytes()     values, checked per type
**   chv_pb_read_message()                   a sub-reader over an embedded one
**   chv_pb_read_repeated_begin()            packed or unpacked repeated values
**   chv_pb_count_varints()                  elements of a packed varint field
**   chv_pb_varint_encode/_decode(), chv_pb_zigzag64/_unzigzag64()
**   chv_pb_writer_init()                    a writer into a chv_buf
**   chv_pb_write_key/_varint/_uint64/_int64/_sint64/_uint32/_int32/_sint32/
**   _bool/_fixed32/_fixed64/_float/_double/_bytes/_string()
**   chv_pb_write_message_begin/_end()       embedded messages, packed fields
**
** Thread safety: a reader or writer belongs to one thread at a time.
*/
#ifndef CHV_CODEC_PROTOBUF_H
#define CHV_CODEC_PROTOBUF_H

#include "common/common.h"

/* Deepest nesting of embedded messages (and of groups while skipping). */
#define CHV_PB_MAX_DEPTH 64
/* Largest field number the wire format allows. */
#define CHV_PB_MAX_FIELD ((1u << 29) - 1)
/* Longest varint: 10 bytes hold 64 bits. */
#define CHV_PB_MAX_VARINT 10

enum chv_pb_wire {
  CHV_PB_VARINT = 0,
  CHV_PB_I64 = 1,
  CHV_PB_LEN = 2,
  CHV_PB_SGROUP = 3,
  CHV_PB_EGROUP = 4,
  CHV_PB_I32 = 5
};

/* "varint", "i64", "len", "sgroup", "egroup", "i32"; "?" otherwise. */
const char *chv_pb_wire_name(unsigned wire);

static inline uint64_t chv_pb_zigzag64(int64_t v) {
  return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}
static inline int64_t chv_pb_unzigzag64(uint64_t v) {
  return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

/* Write v as a varint into out (room for CHV_PB_MAX_VARINT bytes); returns
** the number of bytes written (1..10). */
size_t chv_pb_varint_encode(uint8_t *out, uint64_t v);
/* Decode a varint from p[0, n); returns the bytes it took (1..10), or 0 when
** p ends inside it, it is longer than 10 bytes or it overflows 64 bits. */
size_t chv_pb_varint_decode(const uint8_t *p, size_t n, uint64_t *v);

/* ---- reading ----------------------------------------------------------- */

struct chv_pb_reader {
  const uint8_t *data;   /* borrowed input: this message's bytes */
  size_t len;            /* bytes in data */
  size_t pos;            /* next byte to read */
  size_t base;           /* offset of data[0] in the outermost buffer */
  int depth;             /* embedded messages around this one */
  int corrupt_code;      /* status of malformed input (CHV_ECORRUPT) */
  uint32_t field;        /* field number of the last key read */
  unsigned wire;         /* wire type of the last key read */
  struct chv_error *err; /* borrowed, may be NULL: where errors go */
};

/* Start reading data[0, len).  The bytes are borrowed and must outlive every
** view the reader hands out.  Errors of every later call go to err. */
void chv_pb_reader_init(struct chv_pb_reader *r, const void *data, size_t len,
                        struct chv_error *err);

/* True when every byte has been read (the message is over). */
static inline bool chv_pb_reader_done(const struct chv_pb_reader *r) {
  return r->pos >= r->len;
}
static inline size_t chv_pb_reader_left(const struct chv_pb_reader *r) {
  return r->len - r->pos;
}
/* Offset of the next byte in the outermost buffer, for messages. */
static inline size_t chv_pb_reader_offset(const struct chv_pb_reader *r) {
  return r->base + r->pos;
}

/* Raise r->corrupt_code with the message and " at offset <r's offset>". */
int chv_pb_fail(struct chv_pb_reader *r, const char *fmt, ...) CHV_PRINTF(2, 3);

/* The next key: *field (1 .. 2^29-1) and *wire (enum chv_pb_wire), also
** kept in r->field and r->wire.  Call only when !chv_pb_reader_done().  An
** end-group key is reported as it is (only chv_pb_skip() consumes groups);
** invalid wire types and field 0 are errors. */
int chv_pb_read_key(struct chv_pb_reader *r, uint32_t *field, unsigned *wire);

/* Pass over the value of the key just read (r->field, wire), whatever it
** holds; a group up to its matching end key. */
int chv_pb_skip(struct chv_pb_reader *r, unsigned wire);

/* Values.  Each reads the bytes of its type; the caller checks first that
** the key's wire type is the one the type uses (protobuf's own parsers treat
** a known field arriving with another wire type as an unknown field). */
int chv_pb_read_varint(struct chv_pb_reader *r, uint64_t *v);
/* uint32: a varint that must fit 32 bits. */
int chv_pb_read_uint32(struct chv_pb_reader *r, uint32_t *v);
/* int32: a varint whose 64-bit value must fit int32 (negative values come
** sign-extended to 10 bytes). */
int chv_pb_read_int32(struct chv_pb_reader *r, int32_t *v);
int chv_pb_read_int64(struct chv_pb_reader *r, int64_t *v);
int chv_pb_read_sint32(struct chv_pb_reader *r, int32_t *v);
int chv_pb_read_sint64(struct chv_pb_reader *r, int64_t *v);
/* bool: any varint, non-zero is true (as protobuf's parsers read it). */
int chv_pb_read_bool(struct chv_pb_reader *r, bool *v);
int chv_pb_read_fixed32(struct chv_pb_reader *r, uint32_t *v);
int chv_pb_read_fixed64(struct chv_pb_reader *r, uint64_t *v);
int chv_pb_read_float(struct chv_pb_reader *r, float *v);
int chv_pb_read_double(struct chv_pb_reader *r, double *v);
/* A LEN value: a view of its bytes inside the input (*p borrowed, not
** NUL-terminated); the length is checked against the bytes left. */
int chv_pb_read_bytes(struct chv_pb_reader *r, const uint8_t **p, size_t *n);

/* A LEN value as an embedded message: *sub reads its bytes, one level
** deeper (an error past CHV_PB_MAX_DEPTH); r moves past it. */
int chv_pb_read_message(struct chv_pb_reader *r, struct chv_pb_reader *sub);

/* The values of one occurrence of a repeated scalar field whose key was just
** read: for wire LEN (packed) *sub reads the values back to back; for the
** scalar's own wire type (`elem`: VARINT, I32 or I64) *sub reads the one
** value.  Any other wire type is an error.  Read the values from *sub with
** the functions above until chv_pb_reader_done(sub). */
int chv_pb_read_repeated_begin(struct chv_pb_reader *r, unsigned wire,
                               unsigned elem, struct chv_pb_reader *sub);

/* How many varints p[0, n) holds (bytes without the continuation bit): an
** upper bound on a packed varint field's elements, exact when it is valid. */
size_t chv_pb_count_varints(const uint8_t *p, size_t n);

/* ---- writing ----------------------------------------------------------- */

struct chv_pb_writer {
  struct chv_buf *out; /* borrowed: bytes are appended */
  int depth;           /* messages open (begin without end) */
  int status;          /* CHV_OK, or the first failure (sticky) */
};

void chv_pb_writer_init(struct chv_pb_writer *w, struct chv_buf *out);
static inline int chv_pb_writer_status(const struct chv_pb_writer *w) {
  return w->status;
}

/* A key, and raw values without a key (for packed bodies). */
int chv_pb_write_key(struct chv_pb_writer *w, uint32_t field, unsigned wire);
int chv_pb_write_varint(struct chv_pb_writer *w, uint64_t v);
int chv_pb_write_raw_fixed32(struct chv_pb_writer *w, uint32_t v);
int chv_pb_write_raw_fixed64(struct chv_pb_writer *w, uint64_t v);

/* A key and its value. */
int chv_pb_write_uint64(struct chv_pb_writer *w, uint32_t field, uint64_t v);
int chv_pb_write_int64(struct chv_pb_writer *w, uint32_t field, int64_t v);
int chv_pb_write_sint64(struct chv_pb_writer *w, uint32_t field, int64_t v);
int chv_pb_write_uint32(struct chv_pb_writer *w, uint32_t field, uint32_t v);
int chv_pb_write_int32(struct chv_pb_writer *w, uint32_t field, int32_t v);
int chv_pb_write_sint32(struct chv_pb_writer *w, uint32_t field, int32_t v);
int chv_pb_write_bool(struct chv_pb_writer *w, uint32_t field, bool v);
int chv_pb_write_fixed32(struct chv_pb_writer *w, uint32_t field, uint32_t v);
int chv_pb_write_fixed64(struct chv_pb_writer *w, uint32_t field, uint64_t v);
int chv_pb_write_float(struct chv_pb_writer *w, uint32_t field, float v);
int chv_pb_write_double(struct chv_pb_writer *w, uint32_t field, double v);
int chv_pb_write_bytes(struct chv_pb_writer *w, uint32_t field, const void *p,
                       size_t n);
int chv_pb_write_string(struct chv_pb_writer *w, uint32_t field, const char *s);

/* An embedded message or a packed field: begin writes the key and returns
** in *mark where the body starts; write the body; end puts the body's
** length in front of it.  Nest ends in the reverse order of begins. */
int chv_pb_write_message_begin(struct chv_pb_writer *w, uint32_t field,
                               size_t *mark);
int chv_pb_write_message_end(struct chv_pb_writer *w, size_t mark);

#endif /* CHV_CODEC_PROTOBUF_H */
