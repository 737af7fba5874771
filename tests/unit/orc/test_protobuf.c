/* Tests of the protobuf wire format codec (src/codec/protobuf.c): exact
** encodings from the protobuf encoding document and ORCv1.md's varint
** table, round trips of every scalar type at its extremes, packed and
** unpacked repeated fields, nested messages with long bodies, every
** truncation of a rich message (in exactly sized heap buffers, for ASan),
** groups skipped and rejected, depth bombs, hostile lengths, invalid keys,
** over-long varints and writer misuse. */
#include "chv_test.h"
#include "codec/protobuf.h"

#include <math.h>

static bool bytes_eq(const struct chv_buf *b, const uint8_t *want, size_t n) {
  return b->len == n && memcmp(b->data, want, n) == 0;
}

/* ---- exact encodings --------------------------------------------------- */

static void test_varint_table(void) {
  /* ORCv1.md, "Base 128 Varint". */
  static const struct {
    uint64_t v;
    uint8_t b[3];
    size_t n;
  } t[] = {{0, {0x00}, 1},
           {1, {0x01}, 1},
           {127, {0x7f}, 1},
           {128, {0x80, 0x01}, 2},
           {129, {0x81, 0x01}, 2},
           {16383, {0xff, 0x7f}, 2},
           {16384, {0x80, 0x80, 0x01}, 3},
           {16385, {0x81, 0x80, 0x01}, 3}};
  for (size_t i = 0; i < CHV_ARRAY_SIZE(t); i++) {
    uint8_t b[10];
    size_t n = chv_pb_varint_encode(b, t[i].v);
    CHV_CHECK_EQ_INT(n, t[i].n);
    CHV_CHECK(memcmp(b, t[i].b, n) == 0);
    uint64_t v = 99;
    CHV_CHECK_EQ_INT(chv_pb_varint_decode(b, n, &v), n);
    CHV_CHECK(v == t[i].v);
    /* One byte short: nothing decodes. */
    CHV_CHECK_EQ_INT(chv_pb_varint_decode(b, n - 1, &v), 0);
  }
  /* Zigzag: 0, -1, 1, -2, 2 -> 0, 1, 2, 3, 4. */
  int64_t s[] = {0, -1, 1, -2, 2};
  for (int i = 0; i < 5; i++) {
    CHV_CHECK(chv_pb_zigzag64(s[i]) == (uint64_t)i);
    CHV_CHECK(chv_pb_unzigzag64((uint64_t)i) == s[i]);
  }
  CHV_CHECK(chv_pb_zigzag64(INT64_MIN) == UINT64_MAX);
  CHV_CHECK(chv_pb_unzigzag64(UINT64_MAX) == INT64_MIN);
  CHV_CHECK(chv_pb_zigzag64(INT64_MAX) == UINT64_MAX - 1);
}

static void test_encodings(void) {
  struct chv_buf b;
  struct chv_pb_writer w;
  chv_buf_init(&b);
  chv_pb_writer_init(&w, &b);
  /* The encoding document's examples: int32 a = 150 (field 1), string
  ** b = "testing" (field 2), and an embedded message c (field 3) holding
  ** the first. */
  chv_pb_write_int32(&w, 1, 150);
  static const uint8_t e1[] = {0x08, 0x96, 0x01};
  CHV_CHECK(bytes_eq(&b, e1, sizeof e1));
  chv_buf_reset(&b);
  chv_pb_write_string(&w, 2, "testing");
  static const uint8_t e2[] = {0x12, 0x07, 't', 'e', 's', 't', 'i', 'n', 'g'};
  CHV_CHECK(bytes_eq(&b, e2, sizeof e2));
  chv_buf_reset(&b);
  size_t m;
  chv_pb_write_message_begin(&w, 3, &m);
  chv_pb_write_int32(&w, 1, 150);
  chv_pb_write_message_end(&w, m);
  static const uint8_t e3[] = {0x1a, 0x03, 0x08, 0x96, 0x01};
  CHV_CHECK(bytes_eq(&b, e3, sizeof e3));
  /* Packed repeated: field 4 = [3, 270, 86942]. */
  chv_buf_reset(&b);
  chv_pb_write_message_begin(&w, 4, &m);
  chv_pb_write_varint(&w, 3);
  chv_pb_write_varint(&w, 270);
  chv_pb_write_varint(&w, 86942);
  chv_pb_write_message_end(&w, m);
  static const uint8_t e4[] = {0x22, 0x06, 0x03, 0x8e, 0x02, 0x9e, 0xa7, 0x05};
  CHV_CHECK(bytes_eq(&b, e4, sizeof e4));
  /* A negative int32 is sign-extended to 10 bytes. */
  chv_buf_reset(&b);
  chv_pb_write_int32(&w, 1, -1);
  static const uint8_t e5[] = {0x08, 0xff, 0xff, 0xff, 0xff, 0xff,
                               0xff, 0xff, 0xff, 0xff, 0x01};
  CHV_CHECK(bytes_eq(&b, e5, sizeof e5));
  /* sint32 -1 is 1; fixed32/fixed64/double little-endian. */
  chv_buf_reset(&b);
  chv_pb_write_sint32(&w, 1, -1);
  chv_pb_write_fixed32(&w, 2, 0x01020304u);
  chv_pb_write_double(&w, 3, 1.0);
  static const uint8_t e6[] = {0x08, 0x01, 0x15, 0x04, 0x03, 0x02, 0x01, 0x19,
                               0,    0,    0,    0,    0,    0,    0xf0, 0x3f};
  CHV_CHECK(bytes_eq(&b, e6, sizeof e6));
  /* The ORC PostScript's magic: field 8000, "ORC". */
  chv_buf_reset(&b);
  chv_pb_write_string(&w, 8000, "ORC");
  static const uint8_t e7[] = {0x82, 0xf4, 0x03, 0x03, 'O', 'R', 'C'};
  CHV_CHECK(bytes_eq(&b, e7, sizeof e7));
  CHV_CHECK_EQ_INT(chv_pb_writer_status(&w), CHV_OK);
  chv_buf_free(&b);
}

/* ---- round trips ------------------------------------------------------- */

/* A message holding one of everything (numbers 1..14 and 1000). */
static void write_rich(struct chv_pb_writer *w) {
  size_t m, k, g;
  chv_pb_write_uint64(w, 1, UINT64_MAX);
  chv_pb_write_int64(w, 2, INT64_MIN);
  chv_pb_write_sint64(w, 3, INT64_MIN);
  chv_pb_write_uint32(w, 4, UINT32_MAX);
  chv_pb_write_int32(w, 5, INT32_MIN);
  chv_pb_write_sint32(w, 6, INT32_MIN);
  chv_pb_write_bool(w, 7, true);
  chv_pb_write_fixed32(w, 8, 0xdeadbeefu);
  chv_pb_write_fixed64(w, 9, 0x0123456789abcdefull);
  chv_pb_write_float(w, 10, -0.0f);
  chv_pb_write_double(w, 11, INFINITY);
  chv_pb_write_bytes(w, 12, "a\0b", 3);
  chv_pb_write_message_begin(w, 13, &m);
  chv_pb_write_string(w, 1, "nested");
  chv_pb_write_message_begin(w, 2, &k);
  /* A body over 127 bytes: a two-byte length goes in front of it. */
  for (int i = 0; i < 100; i++)
    chv_pb_write_uint32(w, 3, (uint32_t)i);
  chv_pb_write_message_end(w, k);
  chv_pb_write_message_end(w, m);
  chv_pb_write_message_begin(w, 14, &g); /* packed */
  for (int i = 0; i < 50; i++)
    chv_pb_write_varint(w, (uint64_t)i * 1000);
  chv_pb_write_message_end(w, g);
  for (int i = 0; i < 3; i++)
    chv_pb_write_uint64(w, 14, 7); /* unpacked */
  chv_pb_write_double(w, 1000, -2.5);
}

/* Read write_rich's message field by field, checking every value. */
static int read_rich(const uint8_t *p, size_t n, struct chv_error *err) {
  struct chv_pb_reader r;
  chv_pb_reader_init(&r, p, n, err);
  int seen = 0, packed = 0;
  while (!chv_pb_reader_done(&r)) {
    uint32_t f;
    unsigned w;
    CHV_RETURN_IF_ERR(chv_pb_read_key(&r, &f, &w));
    uint64_t u;
    int64_t s;
    uint32_t u32;
    int32_t s32;
    bool b;
    float fl;
    double d;
    const uint8_t *bp;
    size_t bn;
    struct chv_pb_reader sub, sub2;
    switch (f) {
    case 1:
      CHV_RETURN_IF_ERR(chv_pb_read_varint(&r, &u));
      CHV_CHECK(u == UINT64_MAX);
      break;
    case 2:
      CHV_RETURN_IF_ERR(chv_pb_read_int64(&r, &s));
      CHV_CHECK(s == INT64_MIN);
      break;
    case 3:
      CHV_RETURN_IF_ERR(chv_pb_read_sint64(&r, &s));
      CHV_CHECK(s == INT64_MIN);
      break;
    case 4:
      CHV_RETURN_IF_ERR(chv_pb_read_uint32(&r, &u32));
      CHV_CHECK(u32 == UINT32_MAX);
      break;
    case 5:
      CHV_RETURN_IF_ERR(chv_pb_read_int32(&r, &s32));
      CHV_CHECK(s32 == INT32_MIN);
      break;
    case 6:
      CHV_RETURN_IF_ERR(chv_pb_read_sint32(&r, &s32));
      CHV_CHECK(s32 == INT32_MIN);
      break;
    case 7:
      CHV_RETURN_IF_ERR(chv_pb_read_bool(&r, &b));
      CHV_CHECK(b);
      break;
    case 8:
      CHV_RETURN_IF_ERR(chv_pb_read_fixed32(&r, &u32));
      CHV_CHECK(u32 == 0xdeadbeefu);
      break;
    case 9:
      CHV_RETURN_IF_ERR(chv_pb_read_fixed64(&r, &u));
      CHV_CHECK(u == 0x0123456789abcdefull);
      break;
    case 10:
      CHV_RETURN_IF_ERR(chv_pb_read_float(&r, &fl));
      CHV_CHECK(fl == 0.0f && signbit(fl));
      break;
    case 11:
      CHV_RETURN_IF_ERR(chv_pb_read_double(&r, &d));
      CHV_CHECK(isinf(d) && d > 0);
      break;
    case 12:
      CHV_RETURN_IF_ERR(chv_pb_read_bytes(&r, &bp, &bn));
      CHV_CHECK(bn == 3 && memcmp(bp, "a\0b", 3) == 0);
      break;
    case 13: {
      CHV_RETURN_IF_ERR(chv_pb_read_message(&r, &sub));
      CHV_CHECK_EQ_INT(sub.depth, 1);
      int inner = 0;
      while (!chv_pb_reader_done(&sub)) {
        CHV_RETURN_IF_ERR(chv_pb_read_key(&sub, &f, &w));
        if (f == 1) {
          CHV_RETURN_IF_ERR(chv_pb_read_bytes(&sub, &bp, &bn));
          CHV_CHECK(bn == 6 && memcmp(bp, "nested", 6) == 0);
        } else if (f == 2) {
          CHV_RETURN_IF_ERR(chv_pb_read_message(&sub, &sub2));
          uint32_t want = 0;
          while (!chv_pb_reader_done(&sub2)) {
            CHV_RETURN_IF_ERR(chv_pb_read_key(&sub2, &f, &w));
            CHV_RETURN_IF_ERR(chv_pb_read_uint32(&sub2, &u32));
            CHV_CHECK(f == 3 && u32 == want);
            want++;
          }
          CHV_CHECK_EQ_INT(want, 100);
        } else {
          CHV_RETURN_IF_ERR(chv_pb_skip(&sub, w));
        }
        inner++;
      }
      CHV_CHECK_EQ_INT(inner, 2);
      break;
    }
    case 14:
      CHV_RETURN_IF_ERR(chv_pb_read_repeated_begin(&r, w, CHV_PB_VARINT, &sub));
      while (!chv_pb_reader_done(&sub)) {
        CHV_RETURN_IF_ERR(chv_pb_read_varint(&sub, &u));
        if (w == CHV_PB_LEN)
          CHV_CHECK(u == (uint64_t)packed * 1000);
        else
          CHV_CHECK(u == 7);
        packed++;
      }
      break;
    case 1000:
      CHV_RETURN_IF_ERR(chv_pb_read_double(&r, &d));
      CHV_CHECK(d == -2.5);
      break;
    default:
      CHV_CHECK(!"unexpected field");
      CHV_RETURN_IF_ERR(chv_pb_skip(&r, w));
    }
    seen++;
  }
  return seen == 18 && packed == 53 ? CHV_OK : CHV_ECORRUPT;
}

/* Skip every field of a message, descending into LEN values that parse
** as messages is not attempted: skip only. */
static int skip_all(const uint8_t *p, size_t n, struct chv_error *err) {
  struct chv_pb_reader r;
  chv_pb_reader_init(&r, p, n, err);
  while (!chv_pb_reader_done(&r)) {
    uint32_t f;
    unsigned w;
    CHV_RETURN_IF_ERR(chv_pb_read_key(&r, &f, &w));
    CHV_RETURN_IF_ERR(chv_pb_skip(&r, w));
  }
  return CHV_OK;
}

static void test_round_trip(void) {
  struct chv_buf b;
  struct chv_pb_writer w;
  chv_buf_init(&b);
  chv_pb_writer_init(&w, &b);
  write_rich(&w);
  CHV_REQUIRE(chv_pb_writer_status(&w) == CHV_OK);
  struct chv_error err;
  CHV_CHECK_OK(read_rich((const uint8_t *)b.data, b.len, &err), &err);
  CHV_CHECK_OK(skip_all((const uint8_t *)b.data, b.len, &err), &err);
  chv_buf_free(&b);
}

/* Every prefix of the rich message, in a heap buffer of exactly that size:
** the typed read fails cleanly (never reads past the end: ASan). */
static void test_every_truncation(void) {
  struct chv_buf b;
  struct chv_pb_writer w;
  chv_buf_init(&b);
  chv_pb_writer_init(&w, &b);
  write_rich(&w);
  CHV_REQUIRE(chv_pb_writer_status(&w) == CHV_OK);
  int failures = 0;
  for (size_t n = 0; n < b.len; n++) {
    uint8_t *p = malloc(n ? n : 1);
    memcpy(p, b.data, n);
    struct chv_error err;
    chv_error_clear(&err);
    int rc = read_rich(p, n, &err);
    if (rc != CHV_OK) {
      failures++;
      CHV_CHECK_EQ_INT(rc, CHV_ECORRUPT);
    }
    /* Skipping may succeed at a field boundary; otherwise it is corrupt. */
    rc = skip_all(p, n, &err);
    CHV_CHECK(rc == CHV_OK || rc == CHV_ECORRUPT);
    free(p);
  }
  CHV_CHECK_EQ_INT(failures, (long long)b.len);
  chv_buf_free(&b);
}

/* ---- groups ------------------------------------------------------------ */

static void test_groups(void) {
  /* field 1 varint 5; group 2 { field 3 varint 1; group 4 { field 5
  ** fixed32 }; field 6 "x" }; field 7 varint 9 */
  static const uint8_t msg[] = {0x08, 0x05, 0x13, 0x18, 0x01, 0x23,
                                0x2d, 1,    2,    3,    4,    0x24,
                                0x32, 0x01, 'x',  0x14, 0x38, 0x09};
  struct chv_error err;
  struct chv_pb_reader r;
  chv_pb_reader_init(&r, msg, sizeof msg, &err);
  uint32_t f;
  unsigned w;
  uint64_t v;
  CHV_CHECK_OK(chv_pb_read_key(&r, &f, &w), &err);
  CHV_CHECK_OK(chv_pb_read_varint(&r, &v), &err);
  CHV_CHECK_OK(chv_pb_read_key(&r, &f, &w), &err);
  CHV_CHECK(f == 2 && w == CHV_PB_SGROUP);
  CHV_CHECK_OK(chv_pb_skip(&r, w), &err);
  CHV_CHECK_OK(chv_pb_read_key(&r, &f, &w), &err);
  CHV_CHECK(f == 7);
  CHV_CHECK_OK(chv_pb_read_varint(&r, &v), &err);
  CHV_CHECK(v == 9 && chv_pb_reader_done(&r));
  CHV_CHECK_OK(skip_all(msg, sizeof msg, &err), &err);

  /* An end key without a start; a group ended by another field's end. */
  static const uint8_t bad1[] = {0x0c};
  CHV_CHECK_EQ_INT(skip_all(bad1, sizeof bad1, &err), CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "without a start");
  static const uint8_t bad2[] = {0x0b, 0x14};
  CHV_CHECK_EQ_INT(skip_all(bad2, sizeof bad2, &err), CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "end of group 2 inside group 1");
  static const uint8_t bad3[] = {0x0b, 0x08, 0x01};
  CHV_CHECK_EQ_INT(skip_all(bad3, sizeof bad3, &err), CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "ends inside group 1");

  /* A group bomb: 100000 start keys. */
  size_t n = 100000;
  uint8_t *bomb = malloc(n);
  memset(bomb, 0x0b, n);
  CHV_CHECK_EQ_INT(skip_all(bomb, n, &err), CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "deeper than 64");
  free(bomb);
}

/* ---- hostile input ----------------------------------------------------- */

static void test_message_depth(void) {
  /* 100 nested messages of field 1: each is 0x0a <len>.  Built inside out
  ** with the writer (which itself refuses depth 65). */
  struct chv_buf b;
  struct chv_pb_writer w;
  chv_buf_init(&b);
  chv_pb_writer_init(&w, &b);
  size_t marks[100];
  int i;
  for (i = 0; i < 64; i++)
    chv_pb_write_message_begin(&w, 1, &marks[i]);
  CHV_CHECK_EQ_INT(chv_pb_writer_status(&w), CHV_OK);
  size_t extra;
  CHV_CHECK_EQ_INT(chv_pb_write_message_begin(&w, 1, &extra), CHV_EINVAL);
  chv_buf_free(&b);

  /* By hand: field 1 holding field 1 holding ... 80 deep, each length a
  ** two-byte varint of the bytes that follow it. */
  uint8_t msg[240];
  for (i = 0; i < 80; i++) {
    unsigned len = 240 - 3 * (unsigned)(i + 1);
    msg[3 * i] = 0x0a;
    msg[3 * i + 1] = (uint8_t)(0x80 | (len & 0x7f));
    msg[3 * i + 2] = (uint8_t)(len >> 7);
  }
  struct chv_error err;
  struct chv_pb_reader r, sub;
  chv_pb_reader_init(&r, msg, sizeof msg, &err);
  int depth = 0, rc = CHV_OK;
  for (;;) {
    uint32_t f;
    unsigned wt;
    if (chv_pb_reader_done(&r)) break;
    rc = chv_pb_read_key(&r, &f, &wt);
    if (rc != CHV_OK) break;
    rc = chv_pb_read_message(&r, &sub);
    if (rc != CHV_OK) break;
    r = sub;
    depth++;
  }
  CHV_CHECK_EQ_INT(rc, CHV_ECORRUPT);
  CHV_CHECK_EQ_INT(depth, CHV_PB_MAX_DEPTH);
  CHV_CHECK_CONTAINS(err.msg, "nested deeper than 64");
}

static void test_bad_keys_and_values(void) {
  struct chv_error err;
  struct chv_pb_reader r;
  uint32_t f;
  unsigned w;
  uint64_t v;
  /* Wire types 6 and 7, field 0, a field number over 2^29 - 1. */
  static const uint8_t k6[] = {0x0e}, k7[] = {0x0f}, k0[] = {0x00};
  chv_pb_reader_init(&r, k6, 1, &err);
  CHV_CHECK_EQ_INT(chv_pb_read_key(&r, &f, &w), CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "invalid wire type 6 at offset 0");
  chv_pb_reader_init(&r, k7, 1, &err);
  CHV_CHECK_EQ_INT(chv_pb_read_key(&r, &f, &w), CHV_ECORRUPT);
  chv_pb_reader_init(&r, k0, 1, &err);
  CHV_CHECK_EQ_INT(chv_pb_read_key(&r, &f, &w), CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "field number 0");
  static const uint8_t big[] = {0xf8, 0xff, 0xff, 0xff, 0x7f};
  chv_pb_reader_init(&r, big, sizeof big, &err);
  CHV_CHECK_EQ_INT(chv_pb_read_key(&r, &f, &w), CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "out of range");
  static const uint8_t maxf[] = {0xf8, 0xff, 0xff, 0xff, 0x0f};
  chv_pb_reader_init(&r, maxf, sizeof maxf, &err);
  CHV_CHECK_OK(chv_pb_read_key(&r, &f, &w), &err);
  CHV_CHECK(f == CHV_PB_MAX_FIELD);

  /* Varints: 11 bytes, a 10th byte over 1, cut short. */
  static const uint8_t v11[] = {0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
                                0x80, 0x80, 0x80, 0x80, 0x01};
  chv_pb_reader_init(&r, v11, sizeof v11, &err);
  CHV_CHECK_EQ_INT(chv_pb_read_varint(&r, &v), CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "longer than 10 bytes");
  static const uint8_t vo[] = {0xff, 0xff, 0xff, 0xff, 0xff,
                               0xff, 0xff, 0xff, 0xff, 0x02};
  chv_pb_reader_init(&r, vo, sizeof vo, &err);
  CHV_CHECK_EQ_INT(chv_pb_read_varint(&r, &v), CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "overflows 64 bits");
  chv_pb_reader_init(&r, vo, 3, &err);
  CHV_CHECK_EQ_INT(chv_pb_read_varint(&r, &v), CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "ends inside a varint");
  static const uint8_t vmax[] = {0xff, 0xff, 0xff, 0xff, 0xff,
                                 0xff, 0xff, 0xff, 0xff, 0x01};
  chv_pb_reader_init(&r, vmax, sizeof vmax, &err);
  CHV_CHECK_OK(chv_pb_read_varint(&r, &v), &err);
  CHV_CHECK(v == UINT64_MAX);

  /* 32-bit types out of range. */
  uint32_t u32;
  int32_t s32;
  static const uint8_t two32[] = {0x80, 0x80, 0x80, 0x80, 0x10};
  chv_pb_reader_init(&r, two32, sizeof two32, &err);
  CHV_CHECK_EQ_INT(chv_pb_read_uint32(&r, &u32), CHV_ECORRUPT);
  chv_pb_reader_init(&r, two32, sizeof two32, &err);
  CHV_CHECK_EQ_INT(chv_pb_read_int32(&r, &s32), CHV_ECORRUPT);
  chv_pb_reader_init(&r, two32, sizeof two32, &err);
  CHV_CHECK_EQ_INT(chv_pb_read_sint32(&r, &s32), CHV_ECORRUPT);

  /* A length past the bytes left: field 1, LEN, 2^31. */
  static const uint8_t len[] = {0x0a, 0x80, 0x80, 0x80, 0x80, 0x08, 'x'};
  chv_pb_reader_init(&r, len, sizeof len, &err);
  CHV_CHECK_OK(chv_pb_read_key(&r, &f, &w), &err);
  const uint8_t *p;
  size_t n;
  CHV_CHECK_EQ_INT(chv_pb_read_bytes(&r, &p, &n), CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "length 2147483648 of field 1 exceeds the 1 "
                              "bytes left at offset 1");
  /* Fixed widths cut short. */
  static const uint8_t f64[] = {0x09, 1, 2, 3};
  CHV_CHECK_EQ_INT(skip_all(f64, sizeof f64, &err), CHV_ECORRUPT);
  static const uint8_t f32[] = {0x0d, 1, 2, 3};
  CHV_CHECK_EQ_INT(skip_all(f32, sizeof f32, &err), CHV_ECORRUPT);

  /* A repeated scalar with the wrong wire type. */
  static const uint8_t rep[] = {0x0d, 1, 2, 3, 4};
  struct chv_pb_reader sub;
  chv_pb_reader_init(&r, rep, sizeof rep, &err);
  CHV_CHECK_OK(chv_pb_read_key(&r, &f, &w), &err);
  CHV_CHECK_EQ_INT(chv_pb_read_repeated_begin(&r, w, CHV_PB_VARINT, &sub),
                   CHV_ECORRUPT);
  chv_pb_reader_init(&r, rep, sizeof rep, &err);
  CHV_CHECK_OK(chv_pb_read_key(&r, &f, &w), &err);
  CHV_CHECK_OK(chv_pb_read_repeated_begin(&r, w, CHV_PB_I32, &sub), &err);
  CHV_CHECK_OK(chv_pb_read_fixed32(&sub, &u32), &err);
  CHV_CHECK(u32 == 0x04030201u && chv_pb_reader_done(&sub));

  /* Offsets inside nested readers count from the outermost buffer. */
  static const uint8_t nested[] = {0x0a, 0x02, 0x08, 0x80};
  chv_pb_reader_init(&r, nested, sizeof nested, &err);
  CHV_CHECK_OK(chv_pb_read_key(&r, &f, &w), &err);
  CHV_CHECK_OK(chv_pb_read_message(&r, &sub), &err);
  CHV_CHECK_OK(chv_pb_read_key(&sub, &f, &w), &err);
  CHV_CHECK_EQ_INT(chv_pb_read_varint(&sub, &v), CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "at offset 3");
  /* corrupt_code carries into sub-readers. */
  chv_pb_reader_init(&r, nested, sizeof nested, &err);
  r.corrupt_code = CHV_EPROTO;
  CHV_CHECK_OK(chv_pb_read_key(&r, &f, &w), &err);
  CHV_CHECK_OK(chv_pb_read_message(&r, &sub), &err);
  CHV_CHECK_OK(chv_pb_read_key(&sub, &f, &w), &err);
  CHV_CHECK_EQ_INT(chv_pb_read_varint(&sub, &v), CHV_EPROTO);
}

static void test_count_varints(void) {
  static const uint8_t p[] = {0x03, 0x8e, 0x02, 0x9e, 0xa7, 0x05, 0x80};
  CHV_CHECK_EQ_INT(chv_pb_count_varints(p, 6), 3);
  CHV_CHECK_EQ_INT(chv_pb_count_varints(p, sizeof p), 3);
  CHV_CHECK_EQ_INT(chv_pb_count_varints(p, 0), 0);
}

static void test_writer_misuse(void) {
  struct chv_buf b;
  struct chv_pb_writer w;
  chv_buf_init(&b);
  chv_pb_writer_init(&w, &b);
  CHV_CHECK_EQ_INT(chv_pb_write_message_end(&w, 0), CHV_EINVAL);
  /* Sticky: later calls do nothing. */
  CHV_CHECK_EQ_INT(chv_pb_write_uint64(&w, 1, 1), CHV_EINVAL);
  CHV_CHECK_EQ_INT(b.len, 0);
  chv_pb_writer_init(&w, &b);
  CHV_CHECK_EQ_INT(chv_pb_write_uint64(&w, 0, 1), CHV_EINVAL);
  chv_pb_writer_init(&w, &b);
  CHV_CHECK_EQ_INT(chv_pb_write_key(&w, 1, 6), CHV_EINVAL);
  /* Out of memory is sticky too. */
  chv_buf_reset(&b);
  chv_pb_writer_init(&w, &b);
  chv_buf_free(&b);
  chv_alloc_fail_after(1);
  CHV_CHECK_EQ_INT(chv_pb_write_string(&w, 1, "x"), CHV_ENOMEM);
  chv_alloc_fail_after(0);
  CHV_CHECK_EQ_INT(chv_pb_write_uint64(&w, 1, 1), CHV_ENOMEM);
  chv_buf_free(&b);
}

CHV_TEST_MAIN("protobuf", test_varint_table, test_encodings, test_round_trip,
              test_every_truncation, test_groups, test_message_depth,
              test_bad_keys_and_values, test_count_varints, test_writer_misuse)
