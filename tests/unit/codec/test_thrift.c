/* Tests of the Thrift compact codec (src/codec/thrift_compact.c): exact
** encodings from the protocol description, round trips of every type and
** header form, every truncation of a rich message, depth bombs, hostile
** lengths and counts, invalid types and over-long varints, writer misuse. */
#include "chv_test.h"
#include "codec/thrift.h"

#include <math.h>

static bool bytes_eq(const struct chv_buf *b, const uint8_t *want, size_t n) {
  if (b->len != n) return false;
  return memcmp(b->data, want, n) == 0;
}

/* ---- exact encodings --------------------------------------------------- */

static void test_encodings(void) {
  struct chv_buf b;
  struct chv_thrift_writer w;

  chv_buf_init(&b);
  chv_thrift_writer_init(&w, &b);
  chv_thrift_write_i32(&w, 0);
  chv_thrift_write_i32(&w, -1);
  chv_thrift_write_i32(&w, 1);
  chv_thrift_write_i32(&w, -2);
  chv_thrift_write_i32(&w, 2);
  static const uint8_t zz[] = {0, 1, 2, 3, 4};
  CHV_CHECK(bytes_eq(&b, zz, sizeof zz));

  /* 50399 as a plain varint (a binary length) is DF 89 03. */
  chv_buf_reset(&b);
  char *big = calloc(1, 50399);
  chv_thrift_write_binary(&w, big, 50399);
  CHV_CHECK(b.len == 3 + 50399);
  CHV_CHECK((uint8_t)b.data[0] == 0xdf && (uint8_t)b.data[1] == 0x89 &&
            (uint8_t)b.data[2] == 0x03);
  free(big);

  /* Field headers: short form, long form (jump > 15, going back), bools. */
  chv_buf_reset(&b);
  chv_thrift_write_struct_begin(&w);
  chv_thrift_write_field(&w, 1, CHV_THRIFT_I32);      /* 0x15 */
  chv_thrift_write_i32(&w, 3);                        /* 0x06 */
  chv_thrift_write_field(&w, 20, CHV_THRIFT_I64);     /* 0x06 0x28 */
  chv_thrift_write_i64(&w, -3);                       /* 0x05 */
  chv_thrift_write_field_bool(&w, 21, true);          /* 0x11 */
  chv_thrift_write_field_bool(&w, 22, false);         /* 0x12 */
  chv_thrift_write_field(&w, 2, CHV_THRIFT_LIST);     /* 0x09 0x04 */
  chv_thrift_write_list_begin(&w, CHV_THRIFT_I32, 3); /* 0x35 */
  chv_thrift_write_i32(&w, 1);
  chv_thrift_write_i32(&w, 2);
  chv_thrift_write_i32(&w, 3);
  chv_thrift_write_field(&w, 3, CHV_THRIFT_MAP); /* 0x1b */
  chv_thrift_write_map_begin(&w, CHV_THRIFT_BINARY, CHV_THRIFT_I32, 0);
  chv_thrift_write_struct_end(&w); /* 0x00 */
  static const uint8_t fh[] = {0x15, 0x06, 0x06, 0x28, 0x05, 0x11, 0x12, 0x09,
                               0x04, 0x35, 0x02, 0x04, 0x06, 0x1b, 0x00, 0x00};
  CHV_CHECK_EQ_INT(chv_thrift_writer_status(&w), CHV_OK);
  CHV_CHECK(bytes_eq(&b, fh, sizeof fh));

  /* Long list form at 15 elements; map header with types. */
  chv_buf_reset(&b);
  chv_thrift_write_list_begin(&w, CHV_THRIFT_BOOL, 15);
  chv_thrift_write_map_begin(&w, CHV_THRIFT_BINARY, CHV_THRIFT_STRUCT, 2);
  static const uint8_t lh[] = {0xf1, 0x0f, 0x02, 0x8c};
  CHV_CHECK(bytes_eq(&b, lh, sizeof lh));

  /* Doubles are little-endian. */
  chv_buf_reset(&b);
  chv_thrift_write_double(&w, 1.0);
  static const uint8_t d1[] = {0, 0, 0, 0, 0, 0, 0xf0, 0x3f};
  CHV_CHECK(bytes_eq(&b, d1, sizeof d1));
  chv_buf_free(&b);
}

/* ---- round trips ------------------------------------------------------- */

static const int64_t i64s[] = {0,
                               1,
                               -1,
                               63,
                               -64,
                               64,
                               -65,
                               127,
                               128,
                               300,
                               INT32_MAX,
                               INT32_MIN,
                               (int64_t)INT32_MAX + 1,
                               INT64_MAX,
                               INT64_MIN,
                               INT64_MIN + 1,
                               -1234567890123LL};
static const int32_t i32s[] = {
    0, 1, -1, 63, -64, 8191, -8192, 1 << 20, INT32_MAX, INT32_MIN, -123456};
static const int16_t i16s[] = {0, 1, -1, 127, -128, INT16_MAX, INT16_MIN};
static const double dbls[] = {0.0,   -0.0,    1.5,      -2.25,
                              1e300, -1e-300, INFINITY, -INFINITY};
static const uint8_t uuid_v[16] = {0x00, 0x11, 0x22, 0x33, 0x44, 0x55,
                                   0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb,
                                   0xcc, 0xdd, 0xee, 0xff};

/* Field ids in an order that uses every header form. */
static const int16_t ids[] = {1, 2, 17, 3, -5, 32767, -32768, 100, 115, 116};

/* One struct holding every type, nested structs, containers in both header
** forms, and field ids of every kind. */
static void write_rich(struct chv_thrift_writer *w) {
  chv_thrift_write_struct_begin(w);
  /* 1: i8 */
  chv_thrift_write_field(w, ids[0], CHV_THRIFT_I8);
  chv_thrift_write_i8(w, -128);
  /* 2: i16 list (short form) */
  chv_thrift_write_field(w, ids[1], CHV_THRIFT_LIST);
  chv_thrift_write_list_begin(w, CHV_THRIFT_I16, CHV_ARRAY_SIZE(i16s));
  for (size_t i = 0; i < CHV_ARRAY_SIZE(i16s); i++)
    chv_thrift_write_i16(w, i16s[i]);
  /* 17: i32 list (long form) */
  chv_thrift_write_field(w, ids[2], CHV_THRIFT_LIST);
  chv_thrift_write_list_begin(w, CHV_THRIFT_I32, 15 + CHV_ARRAY_SIZE(i32s));
  for (int i = 0; i < 15; i++)
    chv_thrift_write_i32(w, i);
  for (size_t i = 0; i < CHV_ARRAY_SIZE(i32s); i++)
    chv_thrift_write_i32(w, i32s[i]);
  /* 3: i64 set */
  chv_thrift_write_field(w, ids[3], CHV_THRIFT_SET);
  chv_thrift_write_set_begin(w, CHV_THRIFT_I64, CHV_ARRAY_SIZE(i64s));
  for (size_t i = 0; i < CHV_ARRAY_SIZE(i64s); i++)
    chv_thrift_write_i64(w, i64s[i]);
  /* -5: doubles */
  chv_thrift_write_field(w, ids[4], CHV_THRIFT_LIST);
  chv_thrift_write_list_begin(w, CHV_THRIFT_DOUBLE, CHV_ARRAY_SIZE(dbls));
  for (size_t i = 0; i < CHV_ARRAY_SIZE(dbls); i++)
    chv_thrift_write_double(w, dbls[i]);
  /* 32767: bool field true; -32768: bool field false */
  chv_thrift_write_field_bool(w, ids[5], true);
  chv_thrift_write_field_bool(w, ids[6], false);
  /* 100: map<binary, struct{1: bool list, 2: uuid}> */
  chv_thrift_write_field(w, ids[7], CHV_THRIFT_MAP);
  chv_thrift_write_map_begin(w, CHV_THRIFT_BINARY, CHV_THRIFT_STRUCT, 2);
  for (int i = 0; i < 2; i++) {
    chv_thrift_write_string(w, i ? "second" : "");
    chv_thrift_write_struct_begin(w);
    chv_thrift_write_field(w, 1, CHV_THRIFT_LIST);
    chv_thrift_write_list_begin(w, CHV_THRIFT_BOOL, 3);
    chv_thrift_write_bool(w, true);
    chv_thrift_write_bool(w, false);
    chv_thrift_write_bool(w, i == 1);
    chv_thrift_write_field(w, 2, CHV_THRIFT_UUID);
    chv_thrift_write_uuid(w, uuid_v);
    chv_thrift_write_struct_end(w);
  }
  /* 115: a 300-byte binary; 116: empty map */
  char blob[300];
  for (int i = 0; i < 300; i++)
    blob[i] = (char)i;
  chv_thrift_write_field_binary(w, ids[8], blob, sizeof blob);
  chv_thrift_write_field(w, ids[9], CHV_THRIFT_MAP);
  chv_thrift_write_map_begin(w, CHV_THRIFT_I32, CHV_THRIFT_I32, 0);
  chv_thrift_write_struct_end(w);
}

/* Reads what write_rich() wrote, checking every value; returns the status
** of the first failing read (and CHV_OK when all matched). */
static int read_rich(struct chv_thrift_reader *r, bool check) {
  int16_t id;
  uint8_t t, k, v;
  uint32_t n;
  int rc;
#define RD(expr)                                                               \
  do {                                                                         \
    if ((rc = (expr)) != CHV_OK) return rc;                                    \
  } while (0)
#define EXPECT(cond)                                                           \
  do {                                                                         \
    if (check) CHV_CHECK(cond);                                                \
  } while (0)
  RD(chv_thrift_read_struct_begin(r));
  RD(chv_thrift_read_field(r, &id, &t));
  EXPECT(id == ids[0] && t == CHV_THRIFT_I8);
  int8_t i8;
  RD(chv_thrift_read_i8(r, &i8));
  EXPECT(i8 == -128);

  RD(chv_thrift_read_field(r, &id, &t));
  EXPECT(id == ids[1] && t == CHV_THRIFT_LIST);
  RD(chv_thrift_read_list_begin(r, &k, &n));
  EXPECT(k == CHV_THRIFT_I16 && n == CHV_ARRAY_SIZE(i16s));
  for (uint32_t i = 0; i < n; i++) {
    int16_t x;
    RD(chv_thrift_read_i16(r, &x));
    EXPECT(x == i16s[i]);
  }

  RD(chv_thrift_read_field(r, &id, &t));
  EXPECT(id == ids[2] && t == CHV_THRIFT_LIST);
  RD(chv_thrift_read_list_begin(r, &k, &n));
  EXPECT(k == CHV_THRIFT_I32 && n == 15 + CHV_ARRAY_SIZE(i32s));
  for (uint32_t i = 0; i < n; i++) {
    int32_t x;
    RD(chv_thrift_read_i32(r, &x));
    EXPECT(x == (i < 15 ? (int32_t)i : i32s[i - 15]));
  }

  RD(chv_thrift_read_field(r, &id, &t));
  EXPECT(id == ids[3] && t == CHV_THRIFT_SET);
  RD(chv_thrift_read_set_begin(r, &k, &n));
  EXPECT(k == CHV_THRIFT_I64 && n == CHV_ARRAY_SIZE(i64s));
  for (uint32_t i = 0; i < n; i++) {
    int64_t x;
    RD(chv_thrift_read_i64(r, &x));
    EXPECT(x == i64s[i]);
  }

  RD(chv_thrift_read_field(r, &id, &t));
  EXPECT(id == ids[4] && t == CHV_THRIFT_LIST);
  RD(chv_thrift_read_list_begin(r, &k, &n));
  EXPECT(k == CHV_THRIFT_DOUBLE && n == CHV_ARRAY_SIZE(dbls));
  for (uint32_t i = 0; i < n; i++) {
    double x;
    RD(chv_thrift_read_double(r, &x));
    EXPECT(memcmp(&x, &dbls[i], sizeof x) == 0);
  }

  bool bv;
  RD(chv_thrift_read_field(r, &id, &t));
  EXPECT(id == ids[5] && t == CHV_THRIFT_BOOL);
  RD(chv_thrift_read_bool(r, &bv));
  EXPECT(bv);
  RD(chv_thrift_read_field(r, &id, &t));
  EXPECT(id == ids[6] && t == CHV_THRIFT_BOOL);
  RD(chv_thrift_read_bool(r, &bv));
  EXPECT(!bv);

  RD(chv_thrift_read_field(r, &id, &t));
  EXPECT(id == ids[7] && t == CHV_THRIFT_MAP);
  RD(chv_thrift_read_map_begin(r, &k, &v, &n));
  EXPECT(k == CHV_THRIFT_BINARY && v == CHV_THRIFT_STRUCT && n == 2);
  for (uint32_t i = 0; i < n; i++) {
    const uint8_t *p;
    uint32_t len;
    RD(chv_thrift_read_binary(r, &p, &len));
    EXPECT(len == (i ? 6u : 0u));
    if (i) EXPECT(memcmp(p, "second", 6) == 0);
    RD(chv_thrift_read_struct_begin(r));
    RD(chv_thrift_read_field(r, &id, &t));
    EXPECT(id == 1 && t == CHV_THRIFT_LIST);
    uint8_t e;
    uint32_t m;
    RD(chv_thrift_read_list_begin(r, &e, &m));
    EXPECT(e == CHV_THRIFT_BOOL && m == 3);
    bool b3[3];
    for (int j = 0; j < 3; j++)
      RD(chv_thrift_read_bool(r, &b3[j]));
    EXPECT(b3[0] && !b3[1] && b3[2] == (i == 1));
    RD(chv_thrift_read_field(r, &id, &t));
    EXPECT(id == 2 && t == CHV_THRIFT_UUID);
    uint8_t u[16];
    RD(chv_thrift_read_uuid(r, u));
    EXPECT(memcmp(u, uuid_v, 16) == 0);
    RD(chv_thrift_read_field(r, &id, &t));
    EXPECT(t == CHV_THRIFT_STOP);
    RD(chv_thrift_read_struct_end(r));
  }

  RD(chv_thrift_read_field(r, &id, &t));
  EXPECT(id == ids[8] && t == CHV_THRIFT_BINARY);
  const uint8_t *p;
  uint32_t len;
  RD(chv_thrift_read_binary(r, &p, &len));
  EXPECT(len == 300 && p[299] == (uint8_t)299);

  RD(chv_thrift_read_field(r, &id, &t));
  EXPECT(id == ids[9] && t == CHV_THRIFT_MAP);
  RD(chv_thrift_read_map_begin(r, &k, &v, &n));
  EXPECT(n == 0);

  RD(chv_thrift_read_field(r, &id, &t));
  EXPECT(t == CHV_THRIFT_STOP);
  RD(chv_thrift_read_struct_end(r));
#undef RD
#undef EXPECT
  return CHV_OK;
}

static void test_round_trip(void) {
  struct chv_buf b;
  chv_buf_init(&b);
  struct chv_thrift_writer w;
  chv_thrift_writer_init(&w, &b);
  write_rich(&w);
  CHV_REQUIRE(chv_thrift_writer_status(&w) == CHV_OK);

  struct chv_error err;
  struct chv_thrift_reader r;
  chv_thrift_reader_init(&r, b.data, b.len, &err);
  CHV_CHECK_OK(read_rich(&r, true), &err);
  CHV_CHECK_EQ_INT(r.pos, b.len);

  /* The same bytes skipped as one struct. */
  chv_thrift_reader_init(&r, b.data, b.len, &err);
  CHV_CHECK_OK(chv_thrift_skip(&r, CHV_THRIFT_STRUCT), &err);
  CHV_CHECK_EQ_INT(r.pos, b.len);
  chv_buf_free(&b);
}

static void test_message(void) {
  struct chv_buf b;
  chv_buf_init(&b);
  struct chv_thrift_writer w;
  chv_thrift_writer_init(&w, &b);
  chv_thrift_write_message_begin(&w, "GetInfo", CHV_THRIFT_REPLY, -7);
  chv_thrift_write_struct_begin(&w);
  chv_thrift_write_struct_end(&w);
  CHV_REQUIRE(chv_thrift_writer_status(&w) == CHV_OK);
  CHV_CHECK((uint8_t)b.data[0] == 0x82 && (uint8_t)b.data[1] == 0x41);

  struct chv_error err;
  struct chv_thrift_reader r;
  chv_thrift_reader_init(&r, b.data, b.len, &err);
  const uint8_t *name;
  uint32_t n;
  uint8_t mt;
  int32_t seq;
  CHV_CHECK_OK(chv_thrift_read_message_begin(&r, &name, &n, &mt, &seq), &err);
  CHV_CHECK(n == 7 && memcmp(name, "GetInfo", 7) == 0);
  CHV_CHECK_EQ_INT(mt, CHV_THRIFT_REPLY);
  CHV_CHECK_EQ_INT(seq, -7);
  CHV_CHECK_OK(chv_thrift_skip(&r, CHV_THRIFT_STRUCT), &err);

  /* A binary-protocol header is refused. */
  static const uint8_t bin[] = {0x80, 0x01, 0x00, 0x02};
  chv_thrift_reader_init(&r, bin, sizeof bin, &err);
  r.corrupt_code = CHV_EPROTO;
  CHV_CHECK_EQ_INT(chv_thrift_read_message_begin(&r, &name, &n, &mt, &seq),
                   CHV_EPROTO);
  CHV_CHECK_CONTAINS(err.msg, "not compact");
  chv_buf_free(&b);
}

/* ---- malformed input --------------------------------------------------- */

/* Every proper prefix of a rich message fails cleanly, read field by field
** and skipped whole; the prefix sits in a buffer of exactly its size so
** that ASan catches any read past it. */
static void test_truncation(void) {
  struct chv_buf b;
  chv_buf_init(&b);
  struct chv_thrift_writer w;
  chv_thrift_writer_init(&w, &b);
  write_rich(&w);
  CHV_REQUIRE(chv_thrift_writer_status(&w) == CHV_OK);
  int bad = 0;
  for (size_t n = 0; n < b.len; n++) {
    uint8_t *copy = malloc(n ? n : 1);
    memcpy(copy, b.data, n);
    struct chv_error err;
    struct chv_thrift_reader r;
    chv_thrift_reader_init(&r, copy, n, &err);
    int rc1 = read_rich(&r, false);
    chv_thrift_reader_init(&r, copy, n, &err);
    int rc2 = chv_thrift_skip(&r, CHV_THRIFT_STRUCT);
    if (rc1 != CHV_ECORRUPT || rc2 != CHV_ECORRUPT ||
        strstr(err.msg, "offset") == NULL) {
      if (bad++ < 5)
        fprintf(stderr, "prefix %zu: rc %d/%d: %s\n", n, rc1, rc2, err.msg);
    }
    free(copy);
  }
  CHV_CHECK_EQ_INT(bad, 0);
  chv_buf_free(&b);
}

static int skip_bytes(const uint8_t *p, size_t n, uint8_t type,
                      struct chv_error *err) {
  struct chv_thrift_reader r;
  chv_thrift_reader_init(&r, p, n, err);
  return chv_thrift_skip(&r, type);
}

static void test_depth_bomb(void) {
  enum { N = 100000 };
  uint8_t *p = malloc(N + 64);
  struct chv_error err;

  /* Structs in structs: field 1 of type struct, again and again. */
  memset(p, 0x1c, N);
  memset(p + N, 0, 64);
  CHV_CHECK_EQ_INT(skip_bytes(p, N + 64, CHV_THRIFT_STRUCT, &err),
                   CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "deeper than 64");

  /* Lists of one list. */
  memset(p, 0x19, N);
  CHV_CHECK_EQ_INT(skip_bytes(p, N + 64, CHV_THRIFT_LIST, &err), CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "deeper than 64");

  /* Maps of one entry whose value is a map. */
  for (size_t i = 0; i + 3 <= N; i += 3) {
    p[i] = 0x01;     /* one entry */
    p[i + 1] = 0x3b; /* i8 -> map */
    p[i + 2] = 0x07; /* the key */
  }
  CHV_CHECK_EQ_INT(skip_bytes(p, N + 64, CHV_THRIFT_MAP, &err), CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "deeper than 64");

  /* Exactly the limit is fine: 63 structs inside the outer one. */
  size_t k = 0;
  for (int i = 0; i < CHV_THRIFT_MAX_DEPTH - 1; i++)
    p[k++] = 0x1c;
  for (int i = 0; i < CHV_THRIFT_MAX_DEPTH; i++)
    p[k++] = 0;
  CHV_CHECK_OK(skip_bytes(p, k, CHV_THRIFT_STRUCT, &err), &err);
  free(p);
}

static void test_hostile_lengths(void) {
  struct chv_error err;
  struct chv_thrift_reader r;
  const uint8_t *p;
  uint32_t n;
  uint8_t k, v;

  /* binary of 2^31-1 bytes with 3 bytes left */
  static const uint8_t b1[] = {0xff, 0xff, 0xff, 0xff, 0x07, 'a', 'b', 'c'};
  chv_thrift_reader_init(&r, b1, sizeof b1, &err);
  CHV_CHECK_EQ_INT(chv_thrift_read_binary(&r, &p, &n), CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "binary length 2147483647 exceeds the 3 bytes "
                              "left at offset 0");
  /* negative length */
  static const uint8_t b2[] = {0xff, 0xff, 0xff, 0xff, 0x0f};
  chv_thrift_reader_init(&r, b2, sizeof b2, &err);
  CHV_CHECK_EQ_INT(chv_thrift_read_binary(&r, &p, &n), CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "negative");
  /* list of 10^9 i32 */
  static const uint8_t l1[] = {0xf5, 0x80, 0x94, 0xeb, 0xdc, 0x03, 0, 0};
  chv_thrift_reader_init(&r, l1, sizeof l1, &err);
  CHV_CHECK_EQ_INT(chv_thrift_read_list_begin(&r, &k, &n), CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "list of 1000000000 elements");
  /* A list whose count equals the bytes left is accepted. */
  static const uint8_t l2[] = {0x33, 1, 2, 3};
  chv_thrift_reader_init(&r, l2, sizeof l2, &err);
  CHV_CHECK_OK(chv_thrift_read_list_begin(&r, &k, &n), &err);
  CHV_CHECK(n == 3 && k == CHV_THRIFT_I8);
  /* map of 3 entries in 4 bytes */
  static const uint8_t m1[] = {0x03, 0x33, 1, 2, 3, 4};
  chv_thrift_reader_init(&r, m1, sizeof m1, &err);
  CHV_CHECK_EQ_INT(chv_thrift_read_map_begin(&r, &k, &v, &n), CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "map of 3 entries");
}

static void test_bad_values(void) {
  struct chv_error err;
  struct chv_thrift_reader r;
  int32_t i32;
  int64_t i64;
  int16_t i16, id;
  uint8_t t, k, v;
  uint32_t n;
  bool b;

  /* i32 varint of 6 bytes, and a 5-byte one with bits beyond 32 */
  static const uint8_t v1[] = {0x80, 0x80, 0x80, 0x80, 0x80, 0x01};
  chv_thrift_reader_init(&r, v1, sizeof v1, &err);
  CHV_CHECK_EQ_INT(chv_thrift_read_i32(&r, &i32), CHV_ECORRUPT);
  static const uint8_t v2[] = {0xff, 0xff, 0xff, 0xff, 0x1f};
  chv_thrift_reader_init(&r, v2, sizeof v2, &err);
  CHV_CHECK_EQ_INT(chv_thrift_read_i32(&r, &i32), CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "overflows 32 bits");
  /* i64 of 11 bytes */
  static const uint8_t v3[] = {0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
                               0x80, 0x80, 0x80, 0x80, 0x00};
  chv_thrift_reader_init(&r, v3, sizeof v3, &err);
  CHV_CHECK_EQ_INT(chv_thrift_read_i64(&r, &i64), CHV_ECORRUPT);
  /* The largest 64-bit varint is fine. */
  static const uint8_t v4[] = {0xfe, 0xff, 0xff, 0xff, 0xff,
                               0xff, 0xff, 0xff, 0xff, 0x01};
  chv_thrift_reader_init(&r, v4, sizeof v4, &err);
  CHV_CHECK_OK(chv_thrift_read_i64(&r, &i64), &err);
  CHV_CHECK(i64 == INT64_MAX);
  /* i16 out of range: zigzag(40000) */
  static const uint8_t v5[] = {0x80, 0xf1, 0x04};
  chv_thrift_reader_init(&r, v5, sizeof v5, &err);
  CHV_CHECK_EQ_INT(chv_thrift_read_i16(&r, &i16), CHV_ECORRUPT);

  /* field types 14 and 15 do not exist */
  static const uint8_t f1[] = {0x1e, 0x00};
  chv_thrift_reader_init(&r, f1, sizeof f1, &err);
  chv_thrift_read_struct_begin(&r);
  CHV_CHECK_EQ_INT(chv_thrift_read_field(&r, &id, &t), CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "invalid field type 14 at offset 0");
  /* a field id delta past 32767 */
  static const uint8_t f2[] = {0x05, 0xfe, 0xff, 0x03, 0x00, 0x15};
  chv_thrift_reader_init(&r, f2, sizeof f2, &err);
  chv_thrift_read_struct_begin(&r);
  CHV_CHECK_OK(chv_thrift_read_field(&r, &id, &t), &err);
  CHV_CHECK_EQ_INT(id, 32767);
  chv_thrift_read_i32(&r, &i32);
  CHV_CHECK_EQ_INT(chv_thrift_read_field(&r, &id, &t), CHV_ECORRUPT);

  /* list element type 0 with elements, map types 15 */
  static const uint8_t c1[] = {0x20, 0x00, 0x00};
  chv_thrift_reader_init(&r, c1, sizeof c1, &err);
  CHV_CHECK_EQ_INT(chv_thrift_read_list_begin(&r, &k, &n), CHV_ECORRUPT);
  static const uint8_t c2[] = {0x01, 0xff, 0x00, 0x00};
  chv_thrift_reader_init(&r, c2, sizeof c2, &err);
  CHV_CHECK_EQ_INT(chv_thrift_read_map_begin(&r, &k, &v, &n), CHV_ECORRUPT);
  /* bool elements: 0 and 2 are false, 1 true, 7 is garbage; list element
  ** type 2 is bool too */
  static const uint8_t c3[] = {0x42, 0x00, 0x01, 0x02, 0x07};
  chv_thrift_reader_init(&r, c3, sizeof c3, &err);
  CHV_CHECK_OK(chv_thrift_read_list_begin(&r, &k, &n), &err);
  CHV_CHECK(k == CHV_THRIFT_BOOL && n == 4);
  CHV_CHECK(chv_thrift_read_bool(&r, &b) == CHV_OK && !b);
  CHV_CHECK(chv_thrift_read_bool(&r, &b) == CHV_OK && b);
  CHV_CHECK(chv_thrift_read_bool(&r, &b) == CHV_OK && !b);
  CHV_CHECK_EQ_INT(chv_thrift_read_bool(&r, &b), CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "invalid bool byte 7 at offset 4");
  /* skipping a type that is none */
  chv_thrift_reader_init(&r, c3, sizeof c3, &err);
  CHV_CHECK_EQ_INT(chv_thrift_skip(&r, 14), CHV_ECORRUPT);
  /* unknown fields of every kind are skipped, including bool ones */
  static const uint8_t s1[] = {
      0x11, 0x12, 0x13, 0x7f, 0x18, 0x02, 'h', 'i', 0x1d, 0, 0, 0, 0,
      0,    0,    0,    0,    0,    0,    0,   0,   0,    0, 0, 0, 0x00};
  chv_thrift_reader_init(&r, s1, sizeof s1, &err);
  CHV_CHECK_OK(chv_thrift_skip(&r, CHV_THRIFT_STRUCT), &err);
  CHV_CHECK_EQ_INT(r.pos, sizeof s1);
}

static void test_writer_misuse(void) {
  struct chv_buf b;
  chv_buf_init(&b);
  struct chv_thrift_writer w;
  chv_thrift_writer_init(&w, &b);
  CHV_CHECK_EQ_INT(chv_thrift_write_struct_end(&w), CHV_EINVAL);
  /* sticky: nothing more is written */
  CHV_CHECK_EQ_INT(chv_thrift_write_i32(&w, 5), CHV_EINVAL);
  CHV_CHECK_EQ_INT(b.len, 0);

  chv_thrift_writer_init(&w, &b);
  chv_thrift_write_struct_begin(&w);
  CHV_CHECK_EQ_INT(chv_thrift_write_field(&w, 1, CHV_THRIFT_BOOL), CHV_EINVAL);
  chv_thrift_writer_init(&w, &b);
  for (int i = 0; i < CHV_THRIFT_MAX_DEPTH; i++)
    CHV_CHECK_EQ_INT(chv_thrift_write_struct_begin(&w), CHV_OK);
  CHV_CHECK_EQ_INT(chv_thrift_write_struct_begin(&w), CHV_EINVAL);

  /* Allocation failure is reported and sticks. */
  chv_buf_free(&b);
  chv_thrift_writer_init(&w, &b);
  chv_alloc_fail_after(1);
  CHV_CHECK_EQ_INT(chv_thrift_write_i32(&w, 1), CHV_ENOMEM);
  chv_alloc_fail_after(0);
  CHV_CHECK_EQ_INT(chv_thrift_write_i32(&w, 1), CHV_ENOMEM);
  chv_buf_free(&b);
}

CHV_TEST_MAIN("thrift", test_encodings, test_round_trip, test_message,
              test_truncation, test_depth_bomb, test_hostile_lengths,
              test_bad_values, test_writer_misuse)
