/*
** The Thrift compact protocol: a bounds-checked reader over a byte buffer and
** a writer into a chv_buf (see thrift.h for the encoding and the contracts).
**
** Every read first checks that the bytes it needs are there; lengths and
** element counts are compared with the bytes left before they are used, so
** nothing here allocates.  Varints longer than their type allows (more than 5
** bytes for 32 bits, 10 for 64) or carrying bits beyond it are errors, as
** are field and element types outside the protocol's list.
**
** INTERFACE: chv_thrift_reader_init(), chv_thrift_read_*(), chv_thrift_skip(),
** chv_thrift_writer_init(), chv_thrift_write_*(), chv_thrift_type_name().
*/
#include "codec/thrift.h"

#include <stdio.h>

const char *chv_thrift_type_name(unsigned type) {
  switch (type) {
#define CHV_X_(name, id, text)                                                 \
  case id:                                                                     \
    return text;
    CHV_THRIFT_TYPE_MAP(CHV_X_)
#undef CHV_X_
  case 2:
    return "bool";
  default:
    return "?";
  }
}

/* ---- reading ----------------------------------------------------------- */

void chv_thrift_reader_init(struct chv_thrift_reader *r, const void *data,
                            size_t len, struct chv_error *err) {
  r->data = data;
  r->len = data ? len : 0;
  r->pos = 0;
  r->depth = 0;
  r->bool_field = -1;
  r->corrupt_code = CHV_ECORRUPT;
  r->err = err;
  r->last_id[0] = 0;
}

/* Raise r->corrupt_code with the message and " at offset <at>". */
static int fail(struct chv_thrift_reader *r, size_t at, const char *fmt, ...)
    CHV_PRINTF(3, 4);
static int fail(struct chv_thrift_reader *r, size_t at, const char *fmt, ...) {
  char msg[CHV_ERROR_MSG_SIZE];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return chv_error_set(r->err, r->corrupt_code, "%s at offset %zu", msg, at);
}

static int need(struct chv_thrift_reader *r, size_t n, const char *what) {
  if (CHV_LIKELY(r->len - r->pos >= n)) return CHV_OK;
  return fail(r, r->pos, "input ends inside %s (%zu bytes needed, %zu left)",
              what, n, r->len - r->pos);
}

/* Unsigned LEB128 of at most `bits` bits. */
static int read_varint(struct chv_thrift_reader *r, unsigned bits,
                       const char *what, uint64_t *out) {
  size_t start = r->pos;
  unsigned max_bytes = (bits + 6) / 7;
  uint64_t v = 0;
  for (unsigned i = 0;; i++) {
    if (r->pos >= r->len)
      return fail(r, start, "input ends inside the varint of %s", what);
    if (i == max_bytes)
      return fail(r, start, "varint of %s is longer than %u bytes", what,
                  max_bytes);
    uint8_t b = r->data[r->pos++];
    unsigned shift = 7 * i;
    uint64_t part = (uint64_t)(b & 0x7f);
    /* The last byte may only carry the bits left of the type. */
    if (shift + 7 > bits && (part >> (bits - shift)) != 0)
      return fail(r, start, "varint of %s overflows %u bits", what, bits);
    v |= part << shift;
    if (!(b & 0x80)) break;
  }
  *out = v;
  return CHV_OK;
}

static int64_t unzigzag(uint64_t v) {
  return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

/* The compact type of a field header or container element: BOOL for both
** wire bools, 0 when invalid. */
static uint8_t element_type(unsigned t) {
  if (t == 1 || t == 2) return CHV_THRIFT_BOOL;
  if (t >= CHV_THRIFT_I8 && t <= CHV_THRIFT_UUID) return (uint8_t)t;
  return 0;
}

int chv_thrift_read_struct_begin(struct chv_thrift_reader *r) {
  if (r->depth >= CHV_THRIFT_MAX_DEPTH)
    return fail(r, r->pos, "structs nested deeper than %d",
                CHV_THRIFT_MAX_DEPTH);
  r->depth++;
  r->last_id[r->depth] = 0;
  r->bool_field = -1;
  return CHV_OK;
}

int chv_thrift_read_struct_end(struct chv_thrift_reader *r) {
  if (r->depth <= 0)
    return chv_error_set(r->err, CHV_EINTERNAL,
                         "thrift: struct end without a begin");
  r->depth--;
  r->bool_field = -1;
  return CHV_OK;
}

int chv_thrift_read_field(struct chv_thrift_reader *r, int16_t *id,
                          uint8_t *type) {
  size_t start = r->pos;
  r->bool_field = -1;
  if (r->depth <= 0)
    return chv_error_set(r->err, CHV_EINTERNAL,
                         "thrift: field read outside a struct");
  CHV_RETURN_IF_ERR(need(r, 1, "a field header"));
  uint8_t b = r->data[r->pos++];
  if (b == 0) {
    *id = 0;
    *type = CHV_THRIFT_STOP;
    return CHV_OK;
  }
  uint8_t t = element_type(b & 0x0f);
  if (t == 0) return fail(r, start, "invalid field type %u", b & 0x0f);
  int32_t fid;
  unsigned delta = b >> 4;
  if (delta) {
    fid = r->last_id[r->depth] + (int32_t)delta;
    if (fid > INT16_MAX) return fail(r, start, "field id %d overflows", fid);
  } else {
    uint64_t v;
    CHV_RETURN_IF_ERR(read_varint(r, 32, "a field id", &v));
    int64_t s = unzigzag(v);
    if (s < INT16_MIN || s > INT16_MAX)
      return fail(r, start, "field id %lld does not fit i16", (long long)s);
    fid = (int32_t)s;
  }
  if (t == CHV_THRIFT_BOOL) r->bool_field = (b & 0x0f) == 1;
  r->last_id[r->depth] = (int16_t)fid;
  *id = (int16_t)fid;
  *type = t;
  return CHV_OK;
}

int chv_thrift_read_bool(struct chv_thrift_reader *r, bool *v) {
  if (r->bool_field >= 0) {
    *v = r->bool_field == 1;
    r->bool_field = -1;
    return CHV_OK;
  }
  CHV_RETURN_IF_ERR(need(r, 1, "a bool"));
  uint8_t b = r->data[r->pos];
  /* 1 is true; writers differ on false (the spec says 0, Java and C++
  ** write 2). */
  if (b > 2) return fail(r, r->pos, "invalid bool byte %u", b);
  r->pos++;
  *v = b == 1;
  return CHV_OK;
}

int chv_thrift_read_i8(struct chv_thrift_reader *r, int8_t *v) {
  CHV_RETURN_IF_ERR(need(r, 1, "an i8"));
  *v = (int8_t)r->data[r->pos++];
  return CHV_OK;
}

int chv_thrift_read_i16(struct chv_thrift_reader *r, int16_t *v) {
  size_t start = r->pos;
  uint64_t u;
  CHV_RETURN_IF_ERR(read_varint(r, 32, "an i16", &u));
  int64_t s = unzigzag(u);
  if (s < INT16_MIN || s > INT16_MAX)
    return fail(r, start, "i16 value %lld out of range", (long long)s);
  *v = (int16_t)s;
  return CHV_OK;
}

int chv_thrift_read_i32(struct chv_thrift_reader *r, int32_t *v) {
  uint64_t u;
  CHV_RETURN_IF_ERR(read_varint(r, 32, "an i32", &u));
  *v = (int32_t)unzigzag(u);
  return CHV_OK;
}

int chv_thrift_read_i64(struct chv_thrift_reader *r, int64_t *v) {
  uint64_t u;
  CHV_RETURN_IF_ERR(read_varint(r, 64, "an i64", &u));
  *v = unzigzag(u);
  return CHV_OK;
}

int chv_thrift_read_double(struct chv_thrift_reader *r, double *v) {
  CHV_RETURN_IF_ERR(need(r, 8, "a double"));
  uint64_t u = 0;
  for (int i = 7; i >= 0; i--)
    u = (u << 8) | r->data[r->pos + (size_t)i];
  r->pos += 8;
  memcpy(v, &u, sizeof *v);
  return CHV_OK;
}

int chv_thrift_read_binary(struct chv_thrift_reader *r, const uint8_t **p,
                           uint32_t *n) {
  size_t start = r->pos;
  uint64_t len;
  CHV_RETURN_IF_ERR(read_varint(r, 32, "a binary length", &len));
  if (len > INT32_MAX)
    return fail(r, start, "negative binary length %d", (int32_t)len);
  if (len > r->len - r->pos)
    return fail(r, start, "binary length %llu exceeds the %zu bytes left",
                (unsigned long long)len, r->len - r->pos);
  *p = r->data + r->pos;
  *n = (uint32_t)len;
  r->pos += (size_t)len;
  return CHV_OK;
}

int chv_thrift_read_uuid(struct chv_thrift_reader *r, uint8_t out[16]) {
  CHV_RETURN_IF_ERR(need(r, 16, "a uuid"));
  memcpy(out, r->data + r->pos, 16);
  r->pos += 16;
  return CHV_OK;
}

int chv_thrift_read_list_begin(struct chv_thrift_reader *r, uint8_t *elem,
                               uint32_t *n) {
  size_t start = r->pos;
  r->bool_field = -1;
  CHV_RETURN_IF_ERR(need(r, 1, "a list header"));
  uint8_t b = r->data[r->pos++];
  uint64_t size = b >> 4;
  if (size == 15) {
    CHV_RETURN_IF_ERR(read_varint(r, 32, "a list size", &size));
    if (size > INT32_MAX)
      return fail(r, start, "negative list size %d", (int32_t)size);
  }
  uint8_t t = element_type(b & 0x0f);
  if (t == 0 && size > 0)
    return fail(r, start, "invalid list element type %u", b & 0x0f);
  /* Every element takes at least one byte. */
  if (size > r->len - r->pos)
    return fail(r, start, "list of %llu elements exceeds the %zu bytes left",
                (unsigned long long)size, r->len - r->pos);
  *elem = t;
  *n = (uint32_t)size;
  return CHV_OK;
}

int chv_thrift_read_set_begin(struct chv_thrift_reader *r, uint8_t *elem,
                              uint32_t *n) {
  return chv_thrift_read_list_begin(r, elem, n);
}

int chv_thrift_read_map_begin(struct chv_thrift_reader *r, uint8_t *key,
                              uint8_t *value, uint32_t *n) {
  size_t start = r->pos;
  r->bool_field = -1;
  uint64_t size;
  CHV_RETURN_IF_ERR(read_varint(r, 32, "a map size", &size));
  if (size > INT32_MAX)
    return fail(r, start, "negative map size %d", (int32_t)size);
  if (size == 0) {
    *key = *value = 0;
    *n = 0;
    return CHV_OK;
  }
  CHV_RETURN_IF_ERR(need(r, 1, "a map header"));
  uint8_t b = r->data[r->pos++];
  uint8_t k = element_type(b >> 4), v = element_type(b & 0x0f);
  if (k == 0 || v == 0)
    return fail(r, start, "invalid map types %u/%u", b >> 4, b & 0x0f);
  /* Every entry takes at least two bytes. */
  if (size > (r->len - r->pos) / 2)
    return fail(r, start, "map of %llu entries exceeds the %zu bytes left",
                (unsigned long long)size, r->len - r->pos);
  *key = k;
  *value = v;
  *n = (uint32_t)size;
  return CHV_OK;
}

int chv_thrift_read_message_begin(struct chv_thrift_reader *r,
                                  const uint8_t **name, uint32_t *name_len,
                                  uint8_t *mtype, int32_t *seqid) {
  size_t start = r->pos;
  CHV_RETURN_IF_ERR(need(r, 2, "a message header"));
  uint8_t proto = r->data[r->pos], vt = r->data[r->pos + 1];
  if (proto != 0x82)
    return fail(r, start, "protocol id 0x%02x is not compact (0x82)", proto);
  if ((vt & 0x1f) != 1)
    return fail(r, start, "compact protocol version %u is not 1", vt & 0x1f);
  r->pos += 2;
  uint64_t seq;
  CHV_RETURN_IF_ERR(read_varint(r, 32, "a sequence id", &seq));
  CHV_RETURN_IF_ERR(chv_thrift_read_binary(r, name, name_len));
  *mtype = (uint8_t)(vt >> 5);
  *seqid = (int32_t)(uint32_t)seq;
  return CHV_OK;
}

static int skip_value(struct chv_thrift_reader *r, uint8_t type);

/* Containers count as nesting too while skipping. */
static int skip_elements(struct chv_thrift_reader *r, uint8_t k, uint8_t v,
                         uint32_t n) {
  if (r->depth >= CHV_THRIFT_MAX_DEPTH)
    return fail(r, r->pos, "values nested deeper than %d",
                CHV_THRIFT_MAX_DEPTH);
  r->depth++;
  int rc = CHV_OK;
  for (uint32_t i = 0; i < n && rc == CHV_OK; i++) {
    rc = skip_value(r, k);
    if (rc == CHV_OK && v) rc = skip_value(r, v);
  }
  r->depth--;
  return rc;
}

static int skip_value(struct chv_thrift_reader *r, uint8_t type) {
  union {
    bool b;
    int8_t i8;
    int16_t i16;
    int32_t i32;
    int64_t i64;
    double d;
    uint8_t uuid[16];
  } u;
  const uint8_t *p;
  uint32_t n;
  uint8_t k, v;
  switch (type) {
  case CHV_THRIFT_BOOL:
    return chv_thrift_read_bool(r, &u.b);
  case CHV_THRIFT_I8:
    return chv_thrift_read_i8(r, &u.i8);
  case CHV_THRIFT_I16:
    return chv_thrift_read_i16(r, &u.i16);
  case CHV_THRIFT_I32:
    return chv_thrift_read_i32(r, &u.i32);
  case CHV_THRIFT_I64:
    return chv_thrift_read_i64(r, &u.i64);
  case CHV_THRIFT_DOUBLE:
    return chv_thrift_read_double(r, &u.d);
  case CHV_THRIFT_BINARY:
    return chv_thrift_read_binary(r, &p, &n);
  case CHV_THRIFT_UUID:
    return chv_thrift_read_uuid(r, u.uuid);
  case CHV_THRIFT_LIST:
  case CHV_THRIFT_SET:
    CHV_RETURN_IF_ERR(chv_thrift_read_list_begin(r, &k, &n));
    return skip_elements(r, k, 0, n);
  case CHV_THRIFT_MAP:
    CHV_RETURN_IF_ERR(chv_thrift_read_map_begin(r, &k, &v, &n));
    return skip_elements(r, k, v, n);
  case CHV_THRIFT_STRUCT: {
    CHV_RETURN_IF_ERR(chv_thrift_read_struct_begin(r));
    for (;;) {
      int16_t id;
      uint8_t t;
      CHV_RETURN_IF_ERR(chv_thrift_read_field(r, &id, &t));
      if (t == CHV_THRIFT_STOP) break;
      CHV_RETURN_IF_ERR(skip_value(r, t));
    }
    return chv_thrift_read_struct_end(r);
  }
  default:
    return fail(r, r->pos, "cannot skip a value of type %u", type);
  }
}

int chv_thrift_skip(struct chv_thrift_reader *r, uint8_t type) {
  return skip_value(r, type);
}

/* ---- writing ----------------------------------------------------------- */

void chv_thrift_writer_init(struct chv_thrift_writer *w, struct chv_buf *out) {
  w->out = out;
  w->depth = 0;
  w->status = CHV_OK;
  w->last_id[0] = 0;
}

static int put(struct chv_thrift_writer *w, const void *p, size_t n) {
  if (w->status) return w->status;
  if (chv_buf_append(w->out, p, n) != CHV_OK) w->status = CHV_ENOMEM;
  return w->status;
}

static int put_byte(struct chv_thrift_writer *w, uint8_t b) {
  return put(w, &b, 1);
}

static int put_varint(struct chv_thrift_writer *w, uint64_t v) {
  uint8_t tmp[10];
  size_t n = 0;
  do {
    uint8_t b = v & 0x7f;
    v >>= 7;
    tmp[n++] = (uint8_t)(b | (v ? 0x80 : 0));
  } while (v);
  return put(w, tmp, n);
}

static uint64_t zigzag(int64_t v) {
  return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

static int misuse(struct chv_thrift_writer *w) {
  if (w->status == CHV_OK) w->status = CHV_EINVAL;
  return w->status;
}

int chv_thrift_write_struct_begin(struct chv_thrift_writer *w) {
  if (w->status) return w->status;
  if (w->depth >= CHV_THRIFT_MAX_DEPTH) return misuse(w);
  w->depth++;
  w->last_id[w->depth] = 0;
  return CHV_OK;
}

int chv_thrift_write_struct_end(struct chv_thrift_writer *w) {
  if (w->status) return w->status;
  if (w->depth <= 0) return misuse(w);
  w->depth--;
  return put_byte(w, 0);
}

static int field_header(struct chv_thrift_writer *w, int16_t id, uint8_t wire) {
  if (w->status) return w->status;
  if (w->depth <= 0) return misuse(w);
  int32_t delta = (int32_t)id - w->last_id[w->depth];
  w->last_id[w->depth] = id;
  if (delta > 0 && delta <= 15)
    return put_byte(w, (uint8_t)(delta << 4 | wire));
  put_byte(w, wire);
  return put_varint(w, zigzag(id));
}

int chv_thrift_write_field(struct chv_thrift_writer *w, int16_t id,
                           uint8_t type) {
  if (type == CHV_THRIFT_STOP || type == CHV_THRIFT_BOOL ||
      element_type(type) == 0)
    return misuse(w);
  return field_header(w, id, type);
}

int chv_thrift_write_field_bool(struct chv_thrift_writer *w, int16_t id,
                                bool v) {
  return field_header(w, id, v ? 1 : 2);
}

int chv_thrift_write_bool(struct chv_thrift_writer *w, bool v) {
  return put_byte(w, v ? 1 : 2);
}

int chv_thrift_write_i8(struct chv_thrift_writer *w, int8_t v) {
  return put_byte(w, (uint8_t)v);
}

int chv_thrift_write_i16(struct chv_thrift_writer *w, int16_t v) {
  return put_varint(w, zigzag(v));
}

int chv_thrift_write_i32(struct chv_thrift_writer *w, int32_t v) {
  return put_varint(w, zigzag(v));
}

int chv_thrift_write_i64(struct chv_thrift_writer *w, int64_t v) {
  return put_varint(w, zigzag(v));
}

int chv_thrift_write_double(struct chv_thrift_writer *w, double v) {
  uint64_t u;
  memcpy(&u, &v, sizeof u);
  uint8_t b[8];
  for (int i = 0; i < 8; i++)
    b[i] = (uint8_t)(u >> (8 * i));
  return put(w, b, 8);
}

int chv_thrift_write_binary(struct chv_thrift_writer *w, const void *p,
                            uint32_t n) {
  if (n > INT32_MAX) return misuse(w);
  put_varint(w, n);
  return put(w, p, n);
}

int chv_thrift_write_string(struct chv_thrift_writer *w, const char *s) {
  size_t n = strlen(s);
  if (n > INT32_MAX) return misuse(w);
  return chv_thrift_write_binary(w, s, (uint32_t)n);
}

int chv_thrift_write_uuid(struct chv_thrift_writer *w, const uint8_t v[16]) {
  return put(w, v, 16);
}

int chv_thrift_write_field_i32(struct chv_thrift_writer *w, int16_t id,
                               int32_t v) {
  chv_thrift_write_field(w, id, CHV_THRIFT_I32);
  return chv_thrift_write_i32(w, v);
}

int chv_thrift_write_field_i64(struct chv_thrift_writer *w, int16_t id,
                               int64_t v) {
  chv_thrift_write_field(w, id, CHV_THRIFT_I64);
  return chv_thrift_write_i64(w, v);
}

int chv_thrift_write_field_binary(struct chv_thrift_writer *w, int16_t id,
                                  const void *p, uint32_t n) {
  chv_thrift_write_field(w, id, CHV_THRIFT_BINARY);
  return chv_thrift_write_binary(w, p, n);
}

int chv_thrift_write_field_string(struct chv_thrift_writer *w, int16_t id,
                                  const char *s) {
  chv_thrift_write_field(w, id, CHV_THRIFT_BINARY);
  return chv_thrift_write_string(w, s);
}

/* The wire id of an element type: bools are written as 1, as the Java and
** C++ libraries do (readers take 1 and 2). */
static int elem_wire(uint8_t t) {
  if (t == CHV_THRIFT_BOOL) return 1;
  if (t >= CHV_THRIFT_I8 && t <= CHV_THRIFT_UUID) return t;
  return -1;
}

int chv_thrift_write_list_begin(struct chv_thrift_writer *w, uint8_t elem,
                                uint32_t n) {
  int t = elem_wire(elem);
  if (t < 0 || n > INT32_MAX) return misuse(w);
  if (n < 15) return put_byte(w, (uint8_t)(n << 4 | (unsigned)t));
  put_byte(w, (uint8_t)(0xf0 | (unsigned)t));
  return put_varint(w, n);
}

int chv_thrift_write_set_begin(struct chv_thrift_writer *w, uint8_t elem,
                               uint32_t n) {
  return chv_thrift_write_list_begin(w, elem, n);
}

int chv_thrift_write_map_begin(struct chv_thrift_writer *w, uint8_t key,
                               uint8_t value, uint32_t n) {
  int k = elem_wire(key), v = elem_wire(value);
  if (k < 0 || v < 0 || n > INT32_MAX) return misuse(w);
  if (n == 0) return put_byte(w, 0);
  put_varint(w, n);
  return put_byte(w, (uint8_t)((unsigned)k << 4 | (unsigned)v));
}

int chv_thrift_write_message_begin(struct chv_thrift_writer *w,
                                   const char *name, uint8_t mtype,
                                   int32_t seqid) {
  if (mtype > 7) return misuse(w);
  put_byte(w, 0x82);
  put_byte(w, (uint8_t)(mtype << 5 | 1));
  put_varint(w, (uint32_t)seqid);
  return chv_thrift_write_string(w, name);
}
