/*
** codec/thrift: the Thrift compact protocol, read from a bounded byte buffer
** and written into a struct chv_buf.
**
** The codec knows the protocol only, no IDL: Parquet's footer and page
** headers (format/parquet) and, later, the HiveServer2 and metastore
** services are written on top of it by hand.  The encoding follows
** apache/thrift doc/specs/thrift-compact-protocol.md:
**
**   integers      i16/i32/i64 as zigzag varints (ULEB128), i8 as one byte
**   double        8 bytes little-endian IEEE 754
**   binary        varint length, then the bytes (strings are binary)
**   bool          a struct field's value sits in its header's type (1 true,
**                 2 false); a list/set/map element is one byte (1 = true)
**   field header  one byte ddddtttt (id delta 1..15, type) or the long form
**                 0000tttt followed by the id as a zigzag varint
**   list/set      one byte sssstttt (size 0..14, element type) or 1111tttt
**                 followed by the size as a varint
**   map           one 0 byte (empty), or the size as a varint then kkkkvvvv
**   message       0x82, (type << 5) | 1, seqid varint, name as binary
**
** Reading is bounded: every length or element count is checked against the
** bytes left before anything is done with it (each element of a list takes
** at least one byte, each map entry two), so a hostile count is an error,
** never an allocation.  Struct nesting, and the nesting that
** chv_thrift_skip() walks, stop at CHV_THRIFT_MAX_DEPTH.  Errors name what
** was wrong and its byte offset ("binary length 400 exceeds the 12 bytes
** left at offset 37"); their status is r->corrupt_code, CHV_ECORRUPT by
** default (a file), which network code sets to CHV_EPROTO.
**
** Unknown fields are the caller's to skip: read_field() reports id and type,
** and chv_thrift_skip() passes over any value of any type.
**
** Writing appends to a chv_buf.  The writer is sticky: after a failure
** (CHV_ENOMEM, or CHV_EINVAL for a misuse such as nesting too deep) every
** later call does nothing and returns the same status, so a serializer may
** check only its last call or chv_thrift_writer_status().
**
** INTERFACE
**   chv_thrift_reader_init()                     a reader over bytes (borrowed)
**   chv_thrift_read_struct_begin/_end/_field()   structs and field headers
**   chv_thrift_read_bool/_i8/_i16/_i32/_i64/_double/_binary/_uuid()
**   chv_thrift_read_list_begin/_set_begin/_map_begin()
**   chv_thrift_read_message_begin()              RPC message header
**   chv_thrift_skip()                            any value, depth-limited
**   chv_thrift_writer_init()                     a writer into a chv_buf
**   chv_thrift_write_*()                         the mirror image of the reads
**   chv_thrift_type_name()                       "i32", for messages
**
** Thread safety: a reader or writer belongs to one thread at a time.
*/
#ifndef CHV_CODEC_THRIFT_H
#define CHV_CODEC_THRIFT_H

#include "common/common.h"

/* Deepest nesting of structs (and of containers while skipping). */
#define CHV_THRIFT_MAX_DEPTH 64

/* Compact protocol type ids, as they appear in field headers and container
** headers.  The wire has two bool ids (1 true, 2 false); the reader reports
** both as CHV_THRIFT_BOOL. */
#define CHV_THRIFT_TYPE_MAP(X)                                                 \
  X(STOP, 0, "stop")                                                           \
  X(BOOL, 1, "bool")                                                           \
  X(I8, 3, "i8")                                                               \
  X(I16, 4, "i16")                                                             \
  X(I32, 5, "i32")                                                             \
  X(I64, 6, "i64")                                                             \
  X(DOUBLE, 7, "double")                                                       \
  X(BINARY, 8, "binary")                                                       \
  X(LIST, 9, "list")                                                           \
  X(SET, 10, "set")                                                            \
  X(MAP, 11, "map")                                                            \
  X(STRUCT, 12, "struct")                                                      \
  X(UUID, 13, "uuid")

enum chv_thrift_type {
#define CHV_X_(name, id, text) CHV_THRIFT_##name = id,
  CHV_THRIFT_TYPE_MAP(CHV_X_)
#undef CHV_X_
};

/* Message types of an RPC message header. */
enum chv_thrift_message_type {
  CHV_THRIFT_CALL = 1,
  CHV_THRIFT_REPLY = 2,
  CHV_THRIFT_EXCEPTION = 3,
  CHV_THRIFT_ONEWAY = 4
};

/* "i32"; "?" for an id that is not a type. */
const char *chv_thrift_type_name(unsigned type);

/* ---- reading ----------------------------------------------------------- */

struct chv_thrift_reader {
  const uint8_t *data;   /* borrowed input */
  size_t len;            /* bytes in data */
  size_t pos;            /* next byte to read */
  int depth;             /* structs open (read_struct_begin without _end) */
  int bool_field;        /* value of the bool field just announced, or -1 */
  int corrupt_code;      /* status of malformed input (CHV_ECORRUPT) */
  struct chv_error *err; /* borrowed, may be NULL: where errors go */
  int16_t last_id[CHV_THRIFT_MAX_DEPTH + 1]; /* last field id per struct */
};

/* Start reading data[0, len).  The bytes are borrowed and must outlive every
** view (binary) the reader hands out.  Errors of every later call go to err
** (may be NULL). */
void chv_thrift_reader_init(struct chv_thrift_reader *r, const void *data,
                            size_t len, struct chv_error *err);

/* Bytes left to read. */
static inline size_t chv_thrift_reader_left(const struct chv_thrift_reader *r) {
  return r->len - r->pos;
}

/* Structs: begin, then read_field() until it reports CHV_THRIFT_STOP, then
** end.  read_field() gives the field's id and type; the caller reads the
** value with the read function of that type or passes over it with
** chv_thrift_skip().  A bool field's value comes with its header: read it
** with chv_thrift_read_bool() (or skip it). */
int chv_thrift_read_struct_begin(struct chv_thrift_reader *r);
int chv_thrift_read_struct_end(struct chv_thrift_reader *r);
int chv_thrift_read_field(struct chv_thrift_reader *r, int16_t *id,
                          uint8_t *type);

int chv_thrift_read_bool(struct chv_thrift_reader *r, bool *v);
int chv_thrift_read_i8(struct chv_thrift_reader *r, int8_t *v);
int chv_thrift_read_i16(struct chv_thrift_reader *r, int16_t *v);
int chv_thrift_read_i32(struct chv_thrift_reader *r, int32_t *v);
int chv_thrift_read_i64(struct chv_thrift_reader *r, int64_t *v);
int chv_thrift_read_double(struct chv_thrift_reader *r, double *v);
/* A view of the bytes inside the input: *p is borrowed from it (not
** NUL-terminated). */
int chv_thrift_read_binary(struct chv_thrift_reader *r, const uint8_t **p,
                           uint32_t *n);
int chv_thrift_read_uuid(struct chv_thrift_reader *r, uint8_t out[16]);

/* Container headers: element type(s) and count; the elements follow, read
** one by one with the functions above.  A count larger than the bytes left
** could hold is an error. */
int chv_thrift_read_list_begin(struct chv_thrift_reader *r, uint8_t *elem,
                               uint32_t *n);
int chv_thrift_read_set_begin(struct chv_thrift_reader *r, uint8_t *elem,
                              uint32_t *n);
int chv_thrift_read_map_begin(struct chv_thrift_reader *r, uint8_t *key,
                              uint8_t *value, uint32_t *n);

/* An RPC message header; *name is a view of the input. */
int chv_thrift_read_message_begin(struct chv_thrift_reader *r,
                                  const uint8_t **name, uint32_t *name_len,
                                  uint8_t *mtype, int32_t *seqid);

/* Pass over one value of the given type, whatever it holds. */
int chv_thrift_skip(struct chv_thrift_reader *r, uint8_t type);

/* ---- writing ----------------------------------------------------------- */

struct chv_thrift_writer {
  struct chv_buf *out; /* borrowed: bytes are appended */
  int depth;           /* structs open */
  int status;          /* CHV_OK, or the first failure (sticky) */
  int16_t last_id[CHV_THRIFT_MAX_DEPTH + 1];
};

void chv_thrift_writer_init(struct chv_thrift_writer *w, struct chv_buf *out);
static inline int chv_thrift_writer_status(const struct chv_thrift_writer *w) {
  return w->status;
}

int chv_thrift_write_struct_begin(struct chv_thrift_writer *w);
/* Writes the stop field and closes the struct. */
int chv_thrift_write_struct_end(struct chv_thrift_writer *w);
/* A field header for a value written next; not for bools (the value is in
** the header: use chv_thrift_write_field_bool()). */
int chv_thrift_write_field(struct chv_thrift_writer *w, int16_t id,
                           uint8_t type);
int chv_thrift_write_field_bool(struct chv_thrift_writer *w, int16_t id,
                                bool v);

/* Values (bool: a container element). */
int chv_thrift_write_bool(struct chv_thrift_writer *w, bool v);
int chv_thrift_write_i8(struct chv_thrift_writer *w, int8_t v);
int chv_thrift_write_i16(struct chv_thrift_writer *w, int16_t v);
int chv_thrift_write_i32(struct chv_thrift_writer *w, int32_t v);
int chv_thrift_write_i64(struct chv_thrift_writer *w, int64_t v);
int chv_thrift_write_double(struct chv_thrift_writer *w, double v);
int chv_thrift_write_binary(struct chv_thrift_writer *w, const void *p,
                            uint32_t n);
int chv_thrift_write_string(struct chv_thrift_writer *w, const char *s);
int chv_thrift_write_uuid(struct chv_thrift_writer *w, const uint8_t v[16]);

/* A field header and its value in one call. */
int chv_thrift_write_field_i32(struct chv_thrift_writer *w, int16_t id,
                               int32_t v);
int chv_thrift_write_field_i64(struct chv_thrift_writer *w, int16_t id,
                               int64_t v);
int chv_thrift_write_field_binary(struct chv_thrift_writer *w, int16_t id,
                                  const void *p, uint32_t n);
int chv_thrift_write_field_string(struct chv_thrift_writer *w, int16_t id,
                                  const char *s);

/* Container headers; the caller then writes exactly n elements (n pairs). */
int chv_thrift_write_list_begin(struct chv_thrift_writer *w, uint8_t elem,
                                uint32_t n);
int chv_thrift_write_set_begin(struct chv_thrift_writer *w, uint8_t elem,
                               uint32_t n);
int chv_thrift_write_map_begin(struct chv_thrift_writer *w, uint8_t key,
                               uint8_t value, uint32_t n);

int chv_thrift_write_message_begin(struct chv_thrift_writer *w,
                                   const char *name, uint8_t mtype,
                                   int32_t seqid);

#endif /* CHV_CODEC_THRIFT_H */
