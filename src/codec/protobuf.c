/*
** The Protocol Buffers wire format: a bounds-checked reader over a byte
** buffer and a writer into a chv_buf (see protobuf.h for the encoding and
** the contracts).
**
** Every read first checks that the bytes it needs are there; a length is
** compared with the bytes left before it is used, so nothing here allocates.
** Skipping a group walks its fields, nested groups included, with a depth
** limit, so a run of start-group keys cannot exhaust the stack.
**
** The writer inserts a message's length in front of its body when the body
** is finished (one memmove of the body per message), so callers need not
** know sizes in advance.
**
** INTERFACE: chv_pb_reader_init(), chv_pb_read_*(), chv_pb_skip(),
** chv_pb_count_varints(), chv_pb_varint_encode/_decode(), chv_pb_fail(),
** chv_pb_writer_init(), chv_pb_write_*(), chv_pb_wire_name().
*/
#include "codec/protobuf.h"

#include <stdio.h>

const char *chv_pb_wire_name(unsigned wire) {
  switch (wire) {
  case CHV_PB_VARINT:
    return "varint";
  case CHV_PB_I64:
    return "i64";
  case CHV_PB_LEN:
    return "len";
  case CHV_PB_SGROUP:
    return "sgroup";
  case CHV_PB_EGROUP:
    return "egroup";
  case CHV_PB_I32:
    return "i32";
  default:
    return "?";
  }
}

size_t chv_pb_varint_encode(uint8_t *out, uint64_t v) {
  size_t n = 0;
  while (v >= 0x80) {
    out[n++] = (uint8_t)(v | 0x80);
    v >>= 7;
  }
  out[n++] = (uint8_t)v;
  return n;
}

size_t chv_pb_varint_decode(const uint8_t *p, size_t n, uint64_t *v) {
  uint64_t x = 0;
  size_t max = n < CHV_PB_MAX_VARINT ? n : CHV_PB_MAX_VARINT;
  for (size_t i = 0; i < max; i++) {
    uint64_t part = p[i] & 0x7f;
    /* The tenth byte may carry only bit 63. */
    if (i == 9 && part > 1) return 0;
    x |= part << (7 * i);
    if (!(p[i] & 0x80)) {
      *v = x;
      return i + 1;
    }
  }
  return 0;
}

/* ---- reading ----------------------------------------------------------- */

void chv_pb_reader_init(struct chv_pb_reader *r, const void *data, size_t len,
                        struct chv_error *err) {
  r->data = data;
  r->len = data ? len : 0;
  r->pos = 0;
  r->base = 0;
  r->depth = 0;
  r->corrupt_code = CHV_ECORRUPT;
  r->field = 0;
  r->wire = 0;
  r->err = err;
}

static int vfail_at(struct chv_pb_reader *r, size_t at, const char *fmt,
                    va_list ap) {
  char msg[CHV_ERROR_MSG_SIZE];
  vsnprintf(msg, sizeof msg, fmt, ap);
  return chv_error_set(r->err, r->corrupt_code, "%s at offset %zu", msg,
                       r->base + at);
}

static int fail_at(struct chv_pb_reader *r, size_t at, const char *fmt, ...)
    CHV_PRINTF(3, 4);
static int fail_at(struct chv_pb_reader *r, size_t at, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int rc = vfail_at(r, at, fmt, ap);
  va_end(ap);
  return rc;
}

int chv_pb_fail(struct chv_pb_reader *r, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int rc = vfail_at(r, r->pos, fmt, ap);
  va_end(ap);
  return rc;
}

static int need(struct chv_pb_reader *r, size_t n, const char *what) {
  if (CHV_LIKELY(r->len - r->pos >= n)) return CHV_OK;
  return fail_at(r, r->pos, "input ends inside %s (%zu bytes needed, %zu left)",
                 what, n, r->len - r->pos);
}

int chv_pb_read_varint(struct chv_pb_reader *r, uint64_t *v) {
  const uint8_t *p = r->data + r->pos;
  size_t left = r->len - r->pos;
  /* The common one-byte case first. */
  if (CHV_LIKELY(left > 0 && p[0] < 0x80)) {
    *v = p[0];
    r->pos++;
    return CHV_OK;
  }
  size_t n = chv_pb_varint_decode(p, left, v);
  if (CHV_LIKELY(n > 0)) {
    r->pos += n;
    return CHV_OK;
  }
  size_t max = left < CHV_PB_MAX_VARINT ? left : CHV_PB_MAX_VARINT;
  size_t i = 0;
  while (i < max && (p[i] & 0x80))
    i++;
  if (i == left) return fail_at(r, r->pos, "input ends inside a varint");
  if (i == CHV_PB_MAX_VARINT)
    return fail_at(r, r->pos, "varint is longer than 10 bytes");
  return fail_at(r, r->pos, "varint overflows 64 bits");
}

int chv_pb_read_key(struct chv_pb_reader *r, uint32_t *field, unsigned *wire) {
  size_t start = r->pos;
  uint64_t k;
  CHV_RETURN_IF_ERR(chv_pb_read_varint(r, &k));
  unsigned w = (unsigned)(k & 7);
  uint64_t f = k >> 3;
  if (w > CHV_PB_I32) return fail_at(r, start, "invalid wire type %u", w);
  if (f == 0) return fail_at(r, start, "field number 0");
  if (f > CHV_PB_MAX_FIELD)
    return fail_at(r, start, "field number %llu is out of range",
                   (unsigned long long)f);
  r->field = (uint32_t)f;
  r->wire = w;
  *field = (uint32_t)f;
  *wire = w;
  return CHV_OK;
}

/* Pass over the fields of a group whose start key (field `field`) was just
** read, up to and including its end key. */
static int skip_group(struct chv_pb_reader *r, uint32_t field, int depth) {
  size_t start = r->pos;
  if (depth >= CHV_PB_MAX_DEPTH)
    return fail_at(r, start, "groups nested deeper than %d", CHV_PB_MAX_DEPTH);
  for (;;) {
    if (chv_pb_reader_done(r))
      return fail_at(r, start, "input ends inside group %u", field);
    uint32_t f;
    unsigned w;
    size_t at = r->pos;
    CHV_RETURN_IF_ERR(chv_pb_read_key(r, &f, &w));
    if (w == CHV_PB_EGROUP) {
      if (f != field)
        return fail_at(r, at, "end of group %u inside group %u", f, field);
      return CHV_OK;
    }
    if (w == CHV_PB_SGROUP) {
      CHV_RETURN_IF_ERR(skip_group(r, f, depth + 1));
      continue;
    }
    CHV_RETURN_IF_ERR(chv_pb_skip(r, w));
  }
}

int chv_pb_skip(struct chv_pb_reader *r, unsigned wire) {
  uint64_t v;
  const uint8_t *p;
  size_t n;
  switch (wire) {
  case CHV_PB_VARINT:
    return chv_pb_read_varint(r, &v);
  case CHV_PB_I64:
    CHV_RETURN_IF_ERR(need(r, 8, "a 64-bit value"));
    r->pos += 8;
    return CHV_OK;
  case CHV_PB_LEN:
    return chv_pb_read_bytes(r, &p, &n);
  case CHV_PB_SGROUP:
    return skip_group(r, r->field, r->depth);
  case CHV_PB_EGROUP:
    return fail_at(r, r->pos, "end of group %u without a start", r->field);
  case CHV_PB_I32:
    CHV_RETURN_IF_ERR(need(r, 4, "a 32-bit value"));
    r->pos += 4;
    return CHV_OK;
  default:
    return fail_at(r, r->pos, "invalid wire type %u", wire);
  }
}

int chv_pb_read_uint32(struct chv_pb_reader *r, uint32_t *v) {
  size_t start = r->pos;
  uint64_t u;
  CHV_RETURN_IF_ERR(chv_pb_read_varint(r, &u));
  if (u > UINT32_MAX)
    return fail_at(r, start, "uint32 value %llu is out of range",
                   (unsigned long long)u);
  *v = (uint32_t)u;
  return CHV_OK;
}

int chv_pb_read_int32(struct chv_pb_reader *r, int32_t *v) {
  size_t start = r->pos;
  uint64_t u;
  CHV_RETURN_IF_ERR(chv_pb_read_varint(r, &u));
  int64_t s = (int64_t)u;
  if (s < INT32_MIN || s > INT32_MAX)
    return fail_at(r, start, "int32 value %lld is out of range", (long long)s);
  *v = (int32_t)s;
  return CHV_OK;
}

int chv_pb_read_int64(struct chv_pb_reader *r, int64_t *v) {
  uint64_t u;
  CHV_RETURN_IF_ERR(chv_pb_read_varint(r, &u));
  *v = (int64_t)u;
  return CHV_OK;
}

int chv_pb_read_sint32(struct chv_pb_reader *r, int32_t *v) {
  size_t start = r->pos;
  uint64_t u;
  CHV_RETURN_IF_ERR(chv_pb_read_varint(r, &u));
  if (u > UINT32_MAX) return fail_at(r, start, "sint32 value is out of range");
  *v = (int32_t)chv_pb_unzigzag64(u);
  return CHV_OK;
}

int chv_pb_read_sint64(struct chv_pb_reader *r, int64_t *v) {
  uint64_t u;
  CHV_RETURN_IF_ERR(chv_pb_read_varint(r, &u));
  *v = chv_pb_unzigzag64(u);
  return CHV_OK;
}

int chv_pb_read_bool(struct chv_pb_reader *r, bool *v) {
  uint64_t u;
  CHV_RETURN_IF_ERR(chv_pb_read_varint(r, &u));
  *v = u != 0;
  return CHV_OK;
}

int chv_pb_read_fixed32(struct chv_pb_reader *r, uint32_t *v) {
  CHV_RETURN_IF_ERR(need(r, 4, "a 32-bit value"));
  const uint8_t *p = r->data + r->pos;
  *v = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
       (uint32_t)p[3] << 24;
  r->pos += 4;
  return CHV_OK;
}

int chv_pb_read_fixed64(struct chv_pb_reader *r, uint64_t *v) {
  CHV_RETURN_IF_ERR(need(r, 8, "a 64-bit value"));
  const uint8_t *p = r->data + r->pos;
  uint64_t x = 0;
  for (int i = 7; i >= 0; i--)
    x = (x << 8) | p[i];
  *v = x;
  r->pos += 8;
  return CHV_OK;
}

int chv_pb_read_float(struct chv_pb_reader *r, float *v) {
  uint32_t u;
  CHV_RETURN_IF_ERR(chv_pb_read_fixed32(r, &u));
  memcpy(v, &u, sizeof *v);
  return CHV_OK;
}

int chv_pb_read_double(struct chv_pb_reader *r, double *v) {
  uint64_t u;
  CHV_RETURN_IF_ERR(chv_pb_read_fixed64(r, &u));
  memcpy(v, &u, sizeof *v);
  return CHV_OK;
}

int chv_pb_read_bytes(struct chv_pb_reader *r, const uint8_t **p, size_t *n) {
  size_t start = r->pos;
  uint64_t len;
  CHV_RETURN_IF_ERR(chv_pb_read_varint(r, &len));
  if (len > r->len - r->pos)
    return fail_at(r, start,
                   "length %llu of field %u exceeds the %zu bytes left",
                   (unsigned long long)len, r->field, r->len - r->pos);
  *p = r->data + r->pos;
  *n = (size_t)len;
  r->pos += (size_t)len;
  return CHV_OK;
}

int chv_pb_read_message(struct chv_pb_reader *r, struct chv_pb_reader *sub) {
  size_t start = r->pos;
  if (r->depth >= CHV_PB_MAX_DEPTH)
    return fail_at(r, start, "messages nested deeper than %d",
                   CHV_PB_MAX_DEPTH);
  const uint8_t *p;
  size_t n;
  CHV_RETURN_IF_ERR(chv_pb_read_bytes(r, &p, &n));
  sub->data = p;
  sub->len = n;
  sub->pos = 0;
  sub->base = r->base + (size_t)(p - r->data);
  sub->depth = r->depth + 1;
  sub->corrupt_code = r->corrupt_code;
  sub->field = 0;
  sub->wire = 0;
  sub->err = r->err;
  return CHV_OK;
}

int chv_pb_read_repeated_begin(struct chv_pb_reader *r, unsigned wire,
                               unsigned elem, struct chv_pb_reader *sub) {
  size_t start = r->pos;
  if (wire == CHV_PB_LEN) {
    const uint8_t *p;
    size_t n;
    CHV_RETURN_IF_ERR(chv_pb_read_bytes(r, &p, &n));
    *sub = *r;
    sub->data = p;
    sub->len = n;
    sub->pos = 0;
    sub->base = r->base + (size_t)(p - r->data);
    return CHV_OK;
  }
  if (wire != elem)
    return fail_at(r, start, "field %u comes as %s, not %s", r->field,
                   chv_pb_wire_name(wire), chv_pb_wire_name(elem));
  /* One unpacked value: a sub-reader over exactly its bytes. */
  size_t n;
  if (elem == CHV_PB_VARINT) {
    uint64_t v;
    CHV_RETURN_IF_ERR(chv_pb_read_varint(r, &v));
    n = r->pos - start;
  } else {
    n = elem == CHV_PB_I64 ? 8 : 4;
    CHV_RETURN_IF_ERR(need(r, n, "a fixed-width value"));
    r->pos += n;
  }
  *sub = *r;
  sub->data = r->data + start;
  sub->len = n;
  sub->pos = 0;
  sub->base = r->base + start;
  return CHV_OK;
}

size_t chv_pb_count_varints(const uint8_t *p, size_t n) {
  size_t c = 0;
  for (size_t i = 0; i < n; i++)
    c += p[i] < 0x80;
  return c;
}

/* ---- writing ----------------------------------------------------------- */

void chv_pb_writer_init(struct chv_pb_writer *w, struct chv_buf *out) {
  w->out = out;
  w->depth = 0;
  w->status = CHV_OK;
}

static int put(struct chv_pb_writer *w, const void *p, size_t n) {
  if (w->status != CHV_OK) return w->status;
  if (chv_buf_append(w->out, p, n) != CHV_OK) w->status = CHV_ENOMEM;
  return w->status;
}

int chv_pb_write_varint(struct chv_pb_writer *w, uint64_t v) {
  uint8_t b[CHV_PB_MAX_VARINT];
  return put(w, b, chv_pb_varint_encode(b, v));
}

int chv_pb_write_key(struct chv_pb_writer *w, uint32_t field, unsigned wire) {
  if (w->status != CHV_OK) return w->status;
  if (field == 0 || field > CHV_PB_MAX_FIELD || wire > CHV_PB_I32) {
    w->status = CHV_EINVAL;
    return w->status;
  }
  return chv_pb_write_varint(w, (uint64_t)field << 3 | wire);
}

int chv_pb_write_raw_fixed32(struct chv_pb_writer *w, uint32_t v) {
  uint8_t b[4];
  for (int i = 0; i < 4; i++)
    b[i] = (uint8_t)(v >> (8 * i));
  return put(w, b, 4);
}

int chv_pb_write_raw_fixed64(struct chv_pb_writer *w, uint64_t v) {
  uint8_t b[8];
  for (int i = 0; i < 8; i++)
    b[i] = (uint8_t)(v >> (8 * i));
  return put(w, b, 8);
}

int chv_pb_write_uint64(struct chv_pb_writer *w, uint32_t field, uint64_t v) {
  chv_pb_write_key(w, field, CHV_PB_VARINT);
  return chv_pb_write_varint(w, v);
}

int chv_pb_write_int64(struct chv_pb_writer *w, uint32_t field, int64_t v) {
  return chv_pb_write_uint64(w, field, (uint64_t)v);
}

int chv_pb_write_sint64(struct chv_pb_writer *w, uint32_t field, int64_t v) {
  return chv_pb_write_uint64(w, field, chv_pb_zigzag64(v));
}

int chv_pb_write_uint32(struct chv_pb_writer *w, uint32_t field, uint32_t v) {
  return chv_pb_write_uint64(w, field, v);
}

int chv_pb_write_int32(struct chv_pb_writer *w, uint32_t field, int32_t v) {
  /* Negative values are sign-extended to 64 bits (10 bytes). */
  return chv_pb_write_uint64(w, field, (uint64_t)(int64_t)v);
}

int chv_pb_write_sint32(struct chv_pb_writer *w, uint32_t field, int32_t v) {
  return chv_pb_write_uint64(w, field, chv_pb_zigzag64(v));
}

int chv_pb_write_bool(struct chv_pb_writer *w, uint32_t field, bool v) {
  return chv_pb_write_uint64(w, field, v ? 1 : 0);
}

int chv_pb_write_fixed32(struct chv_pb_writer *w, uint32_t field, uint32_t v) {
  chv_pb_write_key(w, field, CHV_PB_I32);
  return chv_pb_write_raw_fixed32(w, v);
}

int chv_pb_write_fixed64(struct chv_pb_writer *w, uint32_t field, uint64_t v) {
  chv_pb_write_key(w, field, CHV_PB_I64);
  return chv_pb_write_raw_fixed64(w, v);
}

int chv_pb_write_float(struct chv_pb_writer *w, uint32_t field, float v) {
  uint32_t u;
  memcpy(&u, &v, sizeof u);
  return chv_pb_write_fixed32(w, field, u);
}

int chv_pb_write_double(struct chv_pb_writer *w, uint32_t field, double v) {
  uint64_t u;
  memcpy(&u, &v, sizeof u);
  return chv_pb_write_fixed64(w, field, u);
}

int chv_pb_write_bytes(struct chv_pb_writer *w, uint32_t field, const void *p,
                       size_t n) {
  chv_pb_write_key(w, field, CHV_PB_LEN);
  chv_pb_write_varint(w, n);
  return put(w, p, n);
}

int chv_pb_write_string(struct chv_pb_writer *w, uint32_t field,
                        const char *s) {
  return chv_pb_write_bytes(w, field, s, strlen(s));
}

int chv_pb_write_message_begin(struct chv_pb_writer *w, uint32_t field,
                               size_t *mark) {
  *mark = 0;
  if (w->status != CHV_OK) return w->status;
  if (w->depth >= CHV_PB_MAX_DEPTH) {
    w->status = CHV_EINVAL;
    return w->status;
  }
  CHV_RETURN_IF_ERR(chv_pb_write_key(w, field, CHV_PB_LEN));
  w->depth++;
  *mark = w->out->len;
  return CHV_OK;
}

int chv_pb_write_message_end(struct chv_pb_writer *w, size_t mark) {
  if (w->status != CHV_OK) return w->status;
  if (w->depth <= 0 || mark > w->out->len) {
    w->status = CHV_EINVAL;
    return w->status;
  }
  w->depth--;
  size_t body = w->out->len - mark;
  uint8_t b[CHV_PB_MAX_VARINT];
  size_t n = chv_pb_varint_encode(b, body);
  if (chv_buf_reserve(w->out, n) != CHV_OK) {
    w->status = CHV_ENOMEM;
    return w->status;
  }
  char *d = w->out->data;
  memmove(d + mark + n, d + mark, body);
  memcpy(d + mark, b, n);
  w->out->len += n;
  d[w->out->len] = '\0';
  return CHV_OK;
}
