/*
** Tests of src/types, part 2: column vectors and batches, including
** allocation failure at every step (each must be CHV_ENOMEM, leave the
** values as they were and leak nothing).
*/
#include "chv_test.h"
#include "types/types.h"

static struct chv_type *parse(const char *text) {
  struct chv_type *t = NULL;
  struct chv_error err;
  if (chv_type_parse(text, &t, &err) != CHV_OK) {
    fprintf(stderr, "parse %s: %s\n", text, err.msg);
    exit(2);
  }
  return t;
}

static void test_vector_fixed(void) {
  struct chv_type *t = parse("int");
  struct chv_vector *v;
  struct chv_error err;
  CHV_REQUIRE_OK(chv_vector_open(t, 4, &v, &err), &err);
  CHV_CHECK(v->validity == NULL);
  CHV_CHECK(v->offsets == NULL);
  for (int32_t i = 0; i < 1000; i++) {
    if (i % 7 == 3) {
      CHV_CHECK_OK(chv_vector_append_null(v, &err), &err);
    } else {
      CHV_CHECK_OK(chv_vector_append_value(v, &i, &err), &err);
    }
  }
  CHV_CHECK_EQ_INT(v->length, 1000);
  CHV_CHECK(v->capacity >= 1000);
  CHV_CHECK_EQ_INT(v->null_count, 143);
  const int32_t *d = v->data;
  int bad = 0;
  for (int32_t i = 0; i < 1000; i++) {
    bool null = i % 7 == 3;
    if (chv_vector_is_null(v, i) != null) bad++;
    if (!null && d[i] != i) bad++;
    if (null && d[i] != 0) bad++; /* NULL slots are zeroed */
  }
  CHV_CHECK_EQ_INT(bad, 0);

  /* set_null / set_valid keep null_count right, and are idempotent. */
  CHV_CHECK_OK(chv_vector_set_null(v, 0, &err), &err);
  CHV_CHECK_OK(chv_vector_set_null(v, 0, &err), &err);
  CHV_CHECK_EQ_INT(v->null_count, 144);
  chv_vector_set_valid(v, 0);
  chv_vector_set_valid(v, 0);
  CHV_CHECK_EQ_INT(v->null_count, 143);
  CHV_CHECK(!chv_vector_is_null(v, 0));

  /* Reset keeps the capacity and makes every row valid again. */
  int64_t cap = v->capacity;
  chv_vector_reset(v);
  CHV_CHECK_EQ_INT(v->length, 0);
  CHV_CHECK_EQ_INT(v->null_count, 0);
  CHV_CHECK_EQ_INT(v->capacity, cap);
  int32_t x = 5;
  CHV_CHECK_OK(chv_vector_append_value(v, &x, &err), &err);
  CHV_CHECK(!chv_vector_is_null(v, 0));
  CHV_CHECK(!chv_vector_is_null(v, 3));

  /* Writing in place after reserve, as readers do. */
  CHV_CHECK_OK(chv_vector_reserve(v, 5000, &err), &err);
  CHV_CHECK(v->capacity >= 5000);
  CHV_CHECK(!chv_vector_is_null(v, 4999));
  ((int32_t *)v->data)[4999] = 9;
  CHV_CHECK_OK(chv_vector_set_null(v, 4998, &err), &err);
  CHV_CHECK(chv_vector_is_null(v, 4998));
  chv_vector_close(v);
  chv_vector_close(NULL);
  chv_type_free(t);
}

static void test_vector_boolean(void) {
  struct chv_type *t = parse("boolean");
  struct chv_vector *v;
  struct chv_error err;
  CHV_REQUIRE_OK(chv_vector_open(t, 0, &v, &err), &err);
  CHV_CHECK(v->data != NULL);
  for (int i = 0; i < 100; i++) {
    bool b = i % 3 == 0;
    if (i % 10 == 9)
      CHV_CHECK_OK(chv_vector_append_null(v, &err), &err);
    else
      CHV_CHECK_OK(chv_vector_append_value(v, &b, &err), &err);
  }
  const uint8_t *bits = v->data;
  int bad = 0;
  for (int i = 0; i < 100; i++) {
    bool want = i % 10 != 9 && i % 3 == 0;
    if (chv_bit_get(bits, i) != want) bad++;
    if (chv_vector_is_null(v, i) != (i % 10 == 9)) bad++;
  }
  CHV_CHECK_EQ_INT(bad, 0);
  CHV_CHECK_EQ_INT(v->null_count, 10);
  /* Bit-packed: 100 values in 13 bytes. */
  CHV_CHECK_EQ_INT(bits[0], 0x49); /* rows 0, 3, 6 */
  chv_vector_close(v);
  chv_type_free(t);
}

static void test_vector_strings(void) {
  struct chv_type *t = parse("string");
  struct chv_vector *v;
  struct chv_error err;
  CHV_REQUIRE_OK(chv_vector_open(t, 0, &v, &err), &err);
  CHV_CHECK(v->offsets != NULL && v->offsets[0] == 0);
  CHV_CHECK(v->bytes != NULL);
  char s[32];
  for (int i = 0; i < 5000; i++) {
    if (i % 5 == 4) {
      CHV_CHECK_OK(chv_vector_append_null(v, &err), &err);
      continue;
    }
    int n = snprintf(s, sizeof s, "value-%d", i);
    CHV_CHECK_OK(chv_vector_append_bytes(v, s, (size_t)n, &err), &err);
  }
  CHV_CHECK_OK(chv_vector_append_bytes(v, "", 0, &err), &err);
  CHV_CHECK_EQ_INT(v->length, 5001);
  CHV_CHECK_EQ_INT(v->null_count, 1000);
  int bad = 0;
  for (int i = 0; i < 5000; i++) {
    int32_t a = v->offsets[i], b = v->offsets[i + 1];
    if (b < a) bad++;
    if (i % 5 == 4) {
      if (a != b || !chv_vector_is_null(v, i)) bad++;
      continue;
    }
    int n = snprintf(s, sizeof s, "value-%d", i);
    if (b - a != n || memcmp(v->bytes + a, s, (size_t)n) != 0) bad++;
  }
  CHV_CHECK_EQ_INT(bad, 0);
  CHV_CHECK_EQ_INT(v->offsets[5001], v->bytes_len);
  CHV_CHECK_EQ_INT(v->offsets[5000], v->offsets[5001]); /* empty string */
  CHV_CHECK(!chv_vector_is_null(v, 5000));

  CHV_CHECK_OK(chv_vector_reserve_bytes(v, 1 << 20, &err), &err);
  CHV_CHECK(v->bytes_cap - v->bytes_len >= (1 << 20));
  CHV_CHECK_EQ_INT(chv_vector_reserve_bytes(v, (int64_t)1 << 40, &err),
                   CHV_ERANGE);
  chv_vector_reset(v);
  CHV_CHECK_EQ_INT(v->bytes_len, 0);
  CHV_CHECK_EQ_INT(v->offsets[0], 0);
  CHV_CHECK_OK(chv_vector_append_bytes(v, "abc", 3, &err), &err);
  CHV_CHECK_EQ_INT(v->offsets[1], 3);
  CHV_CHECK(memcmp(v->bytes, "abc", 3) == 0);
  chv_vector_close(v);
  chv_type_free(t);
}

static void test_vector_wide_values(void) {
  struct chv_type *t = parse("struct<d:decimal(38,2),ts:timestamp,dt:date>");
  struct chv_batch *b;
  struct chv_error err;
  CHV_REQUIRE_OK(chv_batch_open(t, 2, &b, &err), &err);
  CHV_CHECK_EQ_INT(b->ncols, 3);
  chv_i128 dec;
  CHV_REQUIRE_OK(chv_decimal_parse("-123.45", 7, 38, 2, &dec), NULL);
  struct chv_timestamp ts;
  CHV_REQUIRE_OK(chv_timestamp_parse("2001-02-03 04:05:06.7", 21, &ts), NULL);
  int32_t day = chv_date_from_ymd(2001, 2, 3);
  for (int i = 0; i < 10; i++) {
    CHV_CHECK_OK(chv_vector_append_value(b->cols[0], &dec, &err), &err);
    CHV_CHECK_OK(chv_vector_append_value(b->cols[1], &ts, &err), &err);
    CHV_CHECK_OK(chv_vector_append_value(b->cols[2], &day, &err), &err);
    b->nrows++;
  }
  CHV_CHECK(((chv_i128 *)b->cols[0]->data)[9] == -12345);
  CHV_CHECK_EQ_INT(((struct chv_timestamp *)b->cols[1]->data)[9].nanos,
                   700000000);
  CHV_CHECK_EQ_INT(((int32_t *)b->cols[2]->data)[9], day);
  chv_batch_reset(b);
  CHV_CHECK_EQ_INT(b->nrows, 0);
  CHV_CHECK_EQ_INT(b->cols[1]->length, 0);
  chv_batch_close(b);
  chv_batch_close(NULL);

  struct chv_type *i = parse("int");
  CHV_CHECK_EQ_INT(chv_batch_open(i, 2, &b, &err), CHV_EINVAL);
  chv_type_free(i);
  chv_type_free(t);
}

/* Append [x, NULL, y] style lists of ints: row r has r % 4 elements. */
static void test_vector_nested(void) {
  struct chv_type *t =
      parse("struct<l:array<int>,m:map<string,array<double>>,s:struct<a:"
            "string,b:array<boolean>>>");
  struct chv_batch *b;
  struct chv_error err;
  CHV_REQUIRE_OK(chv_batch_open(t, 1, &b, &err), &err);
  struct chv_vector *l = b->cols[0], *m = b->cols[1], *s = b->cols[2];
  CHV_CHECK_EQ_INT(l->nchildren, 1);
  CHV_CHECK_EQ_INT(m->nchildren, 2);
  CHV_CHECK_EQ_INT(s->nchildren, 2);
  for (int r = 0; r < 50; r++) {
    if (r % 5 == 2) {
      CHV_CHECK_OK(chv_vector_append_null(l, &err), &err);
      CHV_CHECK_OK(chv_vector_append_null(m, &err), &err);
      CHV_CHECK_OK(chv_vector_append_null(s, &err), &err);
      continue;
    }
    for (int k = 0; k < r % 4; k++) {
      int32_t x = r * 10 + k;
      if (k == 1)
        CHV_CHECK_OK(chv_vector_append_null(l->children[0], &err), &err);
      else
        CHV_CHECK_OK(chv_vector_append_value(l->children[0], &x, &err), &err);
      char key[16];
      int n = snprintf(key, sizeof key, "k%d", k);
      CHV_CHECK_OK(chv_vector_append_bytes(m->children[0], key, (size_t)n,
                                           &err),
                   &err);
      struct chv_vector *vals = m->children[1];
      for (int j = 0; j < k; j++) {
        double d = r + j / 10.0;
        CHV_CHECK_OK(chv_vector_append_value(vals->children[0], &d, &err),
                     &err);
      }
      CHV_CHECK_OK(chv_vector_append_nested(vals, &err), &err);
    }
    CHV_CHECK_OK(chv_vector_append_nested(l, &err), &err);
    CHV_CHECK_OK(chv_vector_append_nested(m, &err), &err);
    CHV_CHECK_OK(chv_vector_append_bytes(s->children[0], "x", 1, &err), &err);
    bool on = r & 1;
    CHV_CHECK_OK(chv_vector_append_value(s->children[1]->children[0], &on,
                                         &err),
                 &err);
    CHV_CHECK_OK(chv_vector_append_nested(s->children[1], &err), &err);
    CHV_CHECK_OK(chv_vector_append_nested(s, &err), &err);
  }
  b->nrows = 50;
  CHV_CHECK_EQ_INT(l->length, 50);
  CHV_CHECK_EQ_INT(l->null_count, 10);
  CHV_CHECK_EQ_INT(s->length, 50);
  CHV_CHECK_EQ_INT(s->children[0]->length, 50);
  CHV_CHECK_EQ_INT(s->children[0]->null_count, 10); /* NULL struct rows */
  CHV_CHECK_EQ_INT(s->children[1]->null_count, 10);
  /* Row 11: 3 elements, the second NULL. */
  int32_t o = l->offsets[11];
  CHV_CHECK_EQ_INT(l->offsets[12] - o, 3);
  CHV_CHECK_EQ_INT(((int32_t *)l->children[0]->data)[o], 110);
  CHV_CHECK(chv_vector_is_null(l->children[0], o + 1));
  CHV_CHECK_EQ_INT(((int32_t *)l->children[0]->data)[o + 2], 112);
  /* NULL rows repeat the offset. */
  CHV_CHECK_EQ_INT(l->offsets[2], l->offsets[3]);
  CHV_CHECK_EQ_INT(m->offsets[m->length], m->children[0]->length);
  CHV_CHECK_EQ_INT(m->children[0]->length, m->children[1]->length);

  /* Misuse is reported. */
  CHV_CHECK_EQ_INT(chv_vector_append_nested(s, &err), CHV_EINTERNAL);
  CHV_CHECK_CONTAINS(err.msg, "struct field 0 has 50 rows, expected 51");
  CHV_CHECK_OK(chv_vector_append_bytes(m->children[0], "k", 1, &err), &err);
  CHV_CHECK_EQ_INT(chv_vector_append_nested(m, &err), CHV_EINTERNAL);
  CHV_CHECK_EQ_INT(chv_vector_append_nested(s->children[0], &err), CHV_EINVAL);

  chv_batch_reset(b);
  CHV_CHECK_EQ_INT(m->children[1]->children[0]->length, 0);
  CHV_CHECK_EQ_INT(s->children[1]->null_count, 0);
  chv_batch_close(b);
  chv_type_free(t);
}

/* One step of the OOM scenario below; returns the first failure. */
static int fill(struct chv_batch *b, int rows, struct chv_error *err) {
  struct chv_vector *i = b->cols[0], *s = b->cols[1], *l = b->cols[2],
                    *st = b->cols[3];
  for (int r = 0; r < rows; r++) {
    int32_t x = r;
    int rc;
    if (r % 3 == 0) {
      CHV_RETURN_IF_ERR(chv_vector_append_null(i, err));
      CHV_RETURN_IF_ERR(chv_vector_append_null(s, err));
      CHV_RETURN_IF_ERR(chv_vector_append_null(l, err));
      CHV_RETURN_IF_ERR(chv_vector_append_null(st, err));
    } else {
      CHV_RETURN_IF_ERR(chv_vector_append_value(i, &x, err));
      CHV_RETURN_IF_ERR(chv_vector_append_bytes(s, "hello world, a string",
                                                 21, err));
      int64_t wide = r;
      for (int k = 0; k < r % 5; k++)
        CHV_RETURN_IF_ERR(chv_vector_append_value(l->children[0], &wide, err));
      CHV_RETURN_IF_ERR(chv_vector_append_nested(l, err));
      rc = chv_vector_append_value(st->children[0], &x, err);
      if (rc != CHV_OK) return rc;
      CHV_RETURN_IF_ERR(chv_vector_append_null(st->children[1], err));
      CHV_RETURN_IF_ERR(chv_vector_append_nested(st, err));
    }
    b->nrows++;
  }
  return CHV_OK;
}

static void test_vector_oom(void) {
  struct chv_type *t =
      parse("struct<i:int,s:string,l:array<bigint>,st:struct<a:int,b:string>>");
  int fails = 0;
  for (long n = 1; n < 10000; n++) {
    struct chv_batch *b = NULL;
    struct chv_error err = {0};
    chv_alloc_fail_after(n);
    int rc = chv_batch_open(t, 4, &b, &err);
    if (rc == CHV_OK) {
      rc = fill(b, 300, &err);
      if (rc != CHV_OK) {
        /* What was appended before the failure is intact. */
        int64_t rows = b->nrows;
        for (int c = 0; c < 4; c++) CHV_CHECK(b->cols[c]->length >= rows);
        for (int64_t r = 0; r < rows; r++) {
          if (r % 3 == 0) {
            CHV_CHECK(chv_vector_is_null(b->cols[0], r));
          } else {
            CHV_CHECK(((int32_t *)b->cols[0]->data)[r] == (int32_t)r);
          }
        }
      }
    }
    chv_alloc_fail_after(0);
    if (rc == CHV_OK) {
      CHV_CHECK_EQ_INT(b->nrows, 300);
      CHV_CHECK_EQ_INT(b->cols[0]->null_count, 100);
      CHV_CHECK_EQ_INT(b->cols[3]->children[1]->null_count, 300);
      chv_batch_close(b);
      break;
    }
    if (rc != CHV_ENOMEM) {
      fprintf(stderr, "  fail_after(%ld): rc %d %s\n", n, rc, err.msg);
      chv_test_failed_ = 1;
    }
    chv_batch_close(b);
    fails++;
  }
  CHV_CHECK(fails > 20);
  chv_type_free(t);
}

/* Appending is amortized: growth happens O(log n) times. */
static void test_vector_growth(void) {
  struct chv_type *t = parse("bigint");
  struct chv_vector *v;
  CHV_REQUIRE_OK(chv_vector_open(t, 0, &v, NULL), NULL);
  int grows = 0;
  int64_t cap = v->capacity;
  for (int64_t i = 0; i < 1000000; i++) {
    if (chv_vector_append_value(v, &i, NULL) != CHV_OK) {
      chv_test_failed_ = 1;
      break;
    }
    if (v->capacity != cap) {
      grows++;
      cap = v->capacity;
    }
  }
  CHV_CHECK(grows <= 20);
  CHV_CHECK_EQ_INT(((int64_t *)v->data)[999999], 999999);
  chv_vector_close(v);
  chv_type_free(t);
}

static void test_vector_char_rules(void) {
  struct chv_type *t =
      parse("struct<c:char(3),v:varchar(3),s:string,b:binary>");
  struct chv_batch *b;
  struct chv_error err;
  CHV_REQUIRE_OK(chv_batch_open(t, 1, &b, &err), &err);
  static const struct {
    const char *in, *c, *v;
  } cases[] = {
      {"", "   ", ""},
      {"a", "a  ", "a"},
      {"ab ", "ab ", "ab "},
      {"abc", "abc", "abc"},
      {"abcdef", "abc", "abc"},
      {"\xc3\xa9t\xc3\xa9s", "\xc3\xa9t\xc3\xa9", "\xc3\xa9t\xc3\xa9"},
      {"\xe2\x82\xac", "\xe2\x82\xac  ", "\xe2\x82\xac"},
      {"\xf0\x9f\x98\x80xyz", "\xf0\x9f\x98\x80xy", "\xf0\x9f\x98\x80xy"},
  };
  size_t n = CHV_ARRAY_SIZE(cases);
  for (size_t i = 0; i < n; i++)
    for (int c = 0; c < 4; c++)
      CHV_CHECK_OK(chv_vector_append_string(b->cols[c], cases[i].in,
                                            strlen(cases[i].in), &err),
                   &err);
  for (size_t i = 0; i < n; i++) {
    const struct chv_vector *c = b->cols[0], *v = b->cols[1], *s = b->cols[2];
    int32_t co = c->offsets[i], vo = v->offsets[i], so = s->offsets[i];
    CHV_CHECK_EQ_INT(c->offsets[i + 1] - co, strlen(cases[i].c));
    CHV_CHECK(memcmp(c->bytes + co, cases[i].c, strlen(cases[i].c)) == 0);
    CHV_CHECK_EQ_INT(v->offsets[i + 1] - vo, strlen(cases[i].v));
    CHV_CHECK(memcmp(v->bytes + vo, cases[i].v, strlen(cases[i].v)) == 0);
    CHV_CHECK_EQ_INT(s->offsets[i + 1] - so, strlen(cases[i].in));
  }
  int64_t count;
  CHV_CHECK_EQ_INT(chv_utf8_prefix("\xc3\xa9\xc3\xa9", 4, 1, &count), 2);
  CHV_CHECK_EQ_INT(count, 1);
  CHV_CHECK_EQ_INT(chv_utf8_prefix("ab", 2, 5, &count), 2);
  CHV_CHECK_EQ_INT(count, 2);
  CHV_CHECK_EQ_INT(chv_utf8_prefix("ab", 2, 0, NULL), 0);
  chv_batch_close(b);
  chv_type_free(t);
}

/* A STRUCT grows its own capacity (validity) as rows are added. */
static void test_vector_struct_growth(void) {
  struct chv_type *t = parse("struct<a:int>");
  struct chv_vector *v;
  struct chv_error err;
  CHV_REQUIRE_OK(chv_vector_open(t, 1, &v, &err), &err);
  for (int32_t i = 0; i < 100; i++) {
    if (i % 9 == 0) {
      CHV_CHECK_OK(chv_vector_append_null(v, &err), &err);
      continue;
    }
    CHV_CHECK_OK(chv_vector_append_value(v->children[0], &i, &err), &err);
    CHV_CHECK_OK(chv_vector_append_nested(v, &err), &err);
  }
  CHV_CHECK(v->capacity >= 100);
  CHV_CHECK_EQ_INT(v->length, 100);
  CHV_CHECK_EQ_INT(v->null_count, 12);
  CHV_CHECK(chv_vector_is_null(v, 99));
  CHV_CHECK(!chv_vector_is_null(v, 98));
  chv_vector_close(v);
  chv_type_free(t);
}

CHV_TEST_MAIN("types_vector", test_vector_struct_growth, test_vector_char_rules, test_vector_fixed, test_vector_boolean,
              test_vector_strings, test_vector_wide_values, test_vector_nested,
              test_vector_oom, test_vector_growth)
