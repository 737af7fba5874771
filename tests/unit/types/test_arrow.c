/*
** Tests of src/types, part 3: the Arrow C Data Interface export of every
** type (with NULLs and nesting), the validator on good and corrupted arrays,
** the C Stream Interface wrapper, and allocation failure during export.
*/
#include "chv_test.h"
#include "types/types.h"

#include <errno.h>

#define ALL_TYPES                                                             \
  "b boolean, ti tinyint, si smallint, i int, bi bigint, f float, "          \
  "d double, dec decimal(38,10), s string, vc varchar(10), c char(3), "      \
  "bin binary, dt date, ts timestamp, arr array<int>, "                      \
  "m map<string,array<struct<a:int,b:decimal(10,2)>>>, "                     \
  "st struct<x:string,y:array<double>>"

static struct chv_type *columns(const char *text) {
  struct chv_type *t = NULL;
  struct chv_error err;
  if (chv_type_parse_columns(text, &t, &err) != CHV_OK) {
    fprintf(stderr, "parse %s: %s\n", text, err.msg);
    exit(2);
  }
  return t;
}

#define TRY(expr)                                                             \
  do {                                                                        \
    int rc_ = (expr);                                                         \
    if (rc_ != CHV_OK) return rc_;                                            \
  } while (0)

static int put_str(struct chv_vector *v, const char *s,
                   struct chv_error *err) {
  return chv_vector_append_bytes(v, s, strlen(s), err);
}

/* Row r of the ALL_TYPES batch; every column is NULL when r % 4 == 3. */
static int fill_row(struct chv_batch *b, int r, struct chv_error *err) {
  struct chv_vector **c = b->cols;
  if (r % 4 == 3) {
    for (int i = 0; i < b->ncols; i++) TRY(chv_vector_append_null(c[i], err));
    b->nrows++;
    return CHV_OK;
  }
  char s[64];
  bool bo = r & 1;
  int8_t ti = (int8_t)r;
  int16_t si = (int16_t)(r * 100);
  int32_t i = r * 1000;
  int64_t bi = (int64_t)r * 10000000000LL;
  float f = (float)r / 2;
  double d = r / 4.0;
  chv_i128 dec = (chv_i128)r * 1000000000000LL + 5;
  TRY(chv_vector_append_value(c[0], &bo, err));
  TRY(chv_vector_append_value(c[1], &ti, err));
  TRY(chv_vector_append_value(c[2], &si, err));
  TRY(chv_vector_append_value(c[3], &i, err));
  TRY(chv_vector_append_value(c[4], &bi, err));
  TRY(chv_vector_append_value(c[5], &f, err));
  TRY(chv_vector_append_value(c[6], &d, err));
  TRY(chv_vector_append_value(c[7], &dec, err));
  snprintf(s, sizeof s, "str%d", r);
  TRY(put_str(c[8], s, err));
  snprintf(s, sizeof s, "v%d", r);
  TRY(put_str(c[9], s, err));
  snprintf(s, sizeof s, "c%d ", r % 10);
  TRY(put_str(c[10], s, err));
  uint8_t bin[3] = {0, (uint8_t)r, 255};
  TRY(chv_vector_append_bytes(c[11], bin, 3, err));
  int32_t dt = 18000 + r;
  TRY(chv_vector_append_value(c[12], &dt, err));
  struct chv_timestamp ts = {1600000000 + r, r * 1000 + 1, 0};
  TRY(chv_vector_append_value(c[13], &ts, err));
  /* arr: r % 4 elements, the second NULL. */
  for (int k = 0; k < r % 4; k++) {
    int32_t x = r * 10 + k;
    if (k == 1)
      TRY(chv_vector_append_null(c[14]->children[0], err));
    else
      TRY(chv_vector_append_value(c[14]->children[0], &x, err));
  }
  TRY(chv_vector_append_nested(c[14], err));
  /* m: r % 3 entries "k<j>" -> NULL for j == 1, else j + 1 structs. */
  struct chv_vector *keys = c[15]->children[0], *vals = c[15]->children[1];
  for (int j = 0; j < r % 3; j++) {
    snprintf(s, sizeof s, "k%d", j);
    TRY(put_str(keys, s, err));
    if (j == 1) {
      TRY(chv_vector_append_null(vals, err));
      continue;
    }
    struct chv_vector *st = vals->children[0];
    for (int e = 0; e <= j; e++) {
      int32_t a = j;
      chv_i128 bd = j * 100 + r;
      TRY(chv_vector_append_value(st->children[0], &a, err));
      TRY(chv_vector_append_value(st->children[1], &bd, err));
      TRY(chv_vector_append_nested(st, err));
    }
    TRY(chv_vector_append_nested(vals, err));
  }
  TRY(chv_vector_append_nested(c[15], err));
  /* st: x NULL when r % 5 == 0; y has r % 3 doubles. */
  struct chv_vector *st = c[16];
  if (r % 5 == 0) {
    TRY(chv_vector_append_null(st->children[0], err));
  } else {
    snprintf(s, sizeof s, "x%d", r);
    TRY(put_str(st->children[0], s, err));
  }
  for (int k = 0; k < r % 3; k++) {
    double y = r + k;
    TRY(chv_vector_append_value(st->children[1]->children[0], &y, err));
  }
  TRY(chv_vector_append_nested(st->children[1], err));
  TRY(chv_vector_append_nested(st, err));
  b->nrows++;
  return CHV_OK;
}

static int make_batch(const struct chv_type *schema, int rows,
                      struct chv_batch **out, struct chv_error *err) {
  struct chv_batch *b;
  TRY(chv_batch_open(schema, 2, &b, err));
  for (int r = 0; r < rows; r++) {
    int rc = fill_row(b, r, err);
    if (rc != CHV_OK) {
      chv_batch_close(b);
      return rc;
    }
  }
  *out = b;
  return CHV_OK;
}

static void test_export_schema(void) {
  struct chv_type *t = columns(ALL_TYPES);
  struct ArrowSchema s;
  struct chv_error err;
  CHV_REQUIRE_OK(chv_type_export_schema(t, "", &s, &err), &err);
  static const char *const formats[] = {
      "b", "c", "s", "i", "l", "f", "g", "d:38,10", "u", "u", "u", "z", "tdD",
      "tsn:", "+l", "+m", "+s"};
  CHV_CHECK_STREQ(s.format, "+s");
  CHV_CHECK_EQ_INT(s.flags, 0);
  CHV_REQUIRE(s.n_children == (int64_t)CHV_ARRAY_SIZE(formats));
  for (int i = 0; i < s.n_children; i++) {
    CHV_CHECK_STREQ(s.children[i]->format, formats[i]);
    CHV_CHECK_STREQ(s.children[i]->name, t->names[i]);
    CHV_CHECK_EQ_INT(s.children[i]->flags, ARROW_FLAG_NULLABLE);
    CHV_CHECK(s.children[i]->release != NULL);
    CHV_CHECK(s.children[i]->dictionary == NULL);
  }
  CHV_CHECK_STREQ(s.children[14]->children[0]->name, "item");
  /* CHAR and VARCHAR carry their Hive type as metadata. */
  for (int i = 0; i < s.n_children; i++) {
    const char *md = s.children[i]->metadata;
    if (i != 9 && i != 10) {
      CHV_CHECK(md == NULL);
      continue;
    }
    CHV_REQUIRE(md != NULL);
    int32_t n, kl, vl;
    memcpy(&n, md, 4);
    memcpy(&kl, md + 4, 4);
    memcpy(&vl, md + 8 + kl, 4);
    CHV_CHECK_EQ_INT(n, 1);
    CHV_CHECK(kl == 9 && memcmp(md + 8, CHV_ARROW_HIVE_TYPE_KEY, 9) == 0);
    const char *want = i == 9 ? "varchar(10)" : "char(3)";
    CHV_CHECK(vl == (int32_t)strlen(want) &&
              memcmp(md + 12 + kl, want, (size_t)vl) == 0);
  }
  const struct ArrowSchema *m = s.children[15];
  CHV_REQUIRE(m->n_children == 1);
  const struct ArrowSchema *e = m->children[0];
  CHV_CHECK_STREQ(e->format, "+s");
  CHV_CHECK_STREQ(e->name, "entries");
  CHV_CHECK_EQ_INT(e->flags, 0);
  CHV_REQUIRE(e->n_children == 2);
  CHV_CHECK_STREQ(e->children[0]->name, "key");
  CHV_CHECK_STREQ(e->children[0]->format, "u");
  CHV_CHECK_EQ_INT(e->children[0]->flags, 0);
  CHV_CHECK_STREQ(e->children[1]->name, "value");
  CHV_CHECK_EQ_INT(e->children[1]->flags, ARROW_FLAG_NULLABLE);
  const struct ArrowSchema *st = e->children[1]->children[0];
  CHV_CHECK_STREQ(st->format, "+s");
  CHV_CHECK_STREQ(st->children[1]->name, "b");
  CHV_CHECK_STREQ(st->children[1]->format, "d:10,2");
  s.release(&s);
  CHV_CHECK(s.release == NULL);

  /* A single type is a nullable field. */
  struct chv_type *one;
  CHV_REQUIRE_OK(chv_type_parse("varchar(4)", &one, &err), &err);
  CHV_REQUIRE_OK(chv_type_export_schema(one, "v", &s, &err), &err);
  CHV_CHECK_STREQ(s.format, "u");
  CHV_CHECK_STREQ(s.name, "v");
  CHV_CHECK_EQ_INT(s.flags, ARROW_FLAG_NULLABLE);
  s.release(&s);
  chv_type_free(one);

  /* Allocation failures. */
  int fails = 0;
  for (long n = 1; n < 1000; n++) {
    chv_alloc_fail_after(n);
    int rc = chv_type_export_schema(t, "", &s, &err);
    chv_alloc_fail_after(0);
    if (rc == CHV_OK) {
      s.release(&s);
      break;
    }
    CHV_CHECK_EQ_INT(rc, CHV_ENOMEM);
    fails++;
  }
  CHV_CHECK(fails > 30);
  chv_type_free(t);
}

static void test_export_all_types(void) {
  struct chv_type *t = columns(ALL_TYPES);
  struct chv_batch *b;
  struct chv_error err;
  const int rows = 40;
  CHV_REQUIRE_OK(make_batch(t, rows, &b, &err), &err);
  struct ArrowSchema s;
  struct ArrowArray a;
  CHV_REQUIRE_OK(chv_batch_export_schema(b, &s, &err), &err);
  CHV_REQUIRE_OK(chv_batch_export(&b, &a, &err), &err);
  CHV_CHECK(b == NULL);
  CHV_CHECK_OK(chv_arrow_validate(&s, &a, &err), &err);

  CHV_CHECK_EQ_INT(a.length, rows);
  CHV_CHECK_EQ_INT(a.null_count, 0);
  CHV_CHECK_EQ_INT(a.n_buffers, 1);
  CHV_CHECK(a.buffers[0] == NULL);
  CHV_REQUIRE(a.n_children == 17);
  for (int i = 0; i < 17; i++) {
    CHV_CHECK_EQ_INT(a.children[i]->length, rows);
    CHV_CHECK_EQ_INT(a.children[i]->null_count, rows / 4);
    CHV_CHECK(a.children[i]->buffers[0] != NULL);
  }
  /* Values read back through the exported buffers. */
  const struct ArrowArray *c;
  c = a.children[0];
  CHV_CHECK(chv_bit_get(c->buffers[1], 5));
  CHV_CHECK(!chv_bit_get(c->buffers[1], 6));
  c = a.children[3];
  CHV_CHECK_EQ_INT(((const int32_t *)c->buffers[1])[17], 17000);
  CHV_CHECK(!chv_bit_get(c->buffers[0], 3));
  c = a.children[7];
  CHV_CHECK(((const chv_i128 *)c->buffers[1])[2] == (chv_i128)2000000000005LL);
  c = a.children[8];
  const int32_t *off = c->buffers[1];
  CHV_CHECK_EQ_INT(off[0], 0);
  CHV_CHECK_EQ_INT(off[2] - off[1], 4);
  CHV_CHECK(memcmp((const char *)c->buffers[2] + off[1], "str1", 4) == 0);
  CHV_CHECK_EQ_INT(off[3], off[4]); /* NULL row 3 */
  c = a.children[13];
  CHV_CHECK_EQ_INT(((const int64_t *)c->buffers[1])[1],
                   1600000001LL * 1000000000LL + 1001);
  CHV_CHECK_EQ_INT(((const int64_t *)c->buffers[1])[3], 0);
  c = a.children[14];
  CHV_CHECK_EQ_INT(c->n_children, 1);
  CHV_CHECK_EQ_INT(((const int32_t *)c->buffers[1])[rows],
                   c->children[0]->length);
  c = a.children[15];
  const struct ArrowArray *e = c->children[0];
  CHV_CHECK_EQ_INT(e->n_children, 2);
  CHV_CHECK_EQ_INT(e->n_buffers, 1);
  CHV_CHECK_EQ_INT(e->null_count, 0);
  CHV_CHECK_EQ_INT(e->children[0]->null_count, 0);
  CHV_CHECK(e->children[1]->null_count > 0);
  CHV_CHECK_EQ_INT(((const int32_t *)c->buffers[1])[rows], e->length);
  c = a.children[16];
  CHV_CHECK_EQ_INT(c->n_buffers, 1);
  CHV_CHECK_EQ_INT(c->children[0]->null_count, rows / 4 + 6);

  a.release(&a);
  CHV_CHECK(a.release == NULL);
  s.release(&s);
  chv_type_free(t);
}

static void test_export_empty(void) {
  struct chv_type *t = columns(ALL_TYPES);
  struct chv_batch *b;
  struct chv_error err;
  CHV_REQUIRE_OK(chv_batch_open(t, 0, &b, &err), &err);
  struct ArrowSchema s;
  struct ArrowArray a;
  CHV_REQUIRE_OK(chv_batch_export_schema(b, &s, &err), &err);
  CHV_REQUIRE_OK(chv_batch_export(&b, &a, &err), &err);
  CHV_CHECK_OK(chv_arrow_validate(&s, &a, &err), &err);
  CHV_CHECK_EQ_INT(a.length, 0);
  /* Offsets exist, with the one 0, for every variable-width and list. */
  int with_offsets[] = {8, 9, 10, 11, 14, 15};
  for (size_t i = 0; i < CHV_ARRAY_SIZE(with_offsets); i++) {
    const struct ArrowArray *c = a.children[with_offsets[i]];
    CHV_REQUIRE(c->buffers[1] != NULL);
    CHV_CHECK_EQ_INT(((const int32_t *)c->buffers[1])[0], 0);
    if (c->n_buffers == 3) CHV_CHECK(c->buffers[2] != NULL);
  }
  const struct ArrowArray *keys = a.children[15]->children[0]->children[0];
  CHV_CHECK(keys->buffers[1] != NULL);
  a.release(&a);
  s.release(&s);
  chv_type_free(t);
}

static void test_export_timestamp_units(void) {
  struct chv_type *t = columns("id int, ts timestamp, l array<timestamp>");
  struct chv_batch *b;
  struct chv_error err;
  CHV_REQUIRE_OK(chv_batch_open(t, 4, &b, &err), &err);
  const char *vals[] = {"0001-01-01 00:00:00", "9999-12-31 23:59:59.999999",
                        "2020-06-01 12:00:00.123"};
  for (int r = 0; r < 3; r++) {
    struct chv_timestamp ts;
    CHV_REQUIRE_OK(chv_timestamp_parse(vals[r], strlen(vals[r]), &ts), NULL);
    CHV_CHECK_OK(chv_vector_append_value(b->cols[0], &r, &err), &err);
    CHV_CHECK_OK(chv_vector_append_value(b->cols[1], &ts, &err), &err);
    struct chv_timestamp small = {r, 5, 0}; /* nanoseconds: fits ns */
    CHV_CHECK_OK(chv_vector_append_value(b->cols[2]->children[0], &small,
                                         &err),
                 &err);
    CHV_CHECK_OK(chv_vector_append_nested(b->cols[2], &err), &err);
    b->nrows++;
  }
  struct ArrowSchema s;
  struct ArrowArray a;
  CHV_REQUIRE_OK(chv_batch_export_schema(b, &s, &err), &err);
  CHV_CHECK_STREQ(s.children[1]->format, "tsu:");
  CHV_CHECK_STREQ(s.children[2]->children[0]->format, "tsn:");
  s.release(&s);

  /* A nanosecond digit where microseconds are needed is an error naming
  ** the column, and the batch stays with the caller. */
  ((struct chv_timestamp *)b->cols[1]->data)[1].nanos = 999999999;
  CHV_CHECK_EQ_INT(chv_batch_export(&b, &a, &err), CHV_ERANGE);
  CHV_CHECK_CONTAINS(err.msg, "column ts: timestamp 9999-12-31 "
                              "23:59:59.999999999 has sub-microsecond digits");
  CHV_REQUIRE(b != NULL);
  CHV_CHECK_EQ_INT(b->cols[1]->length, 3);
  ((struct chv_timestamp *)b->cols[1]->data)[1].nanos = 999999000;

  CHV_REQUIRE_OK(chv_batch_export_schema(b, &s, &err), &err);
  CHV_REQUIRE_OK(chv_batch_export(&b, &a, &err), &err);
  CHV_CHECK_OK(chv_arrow_validate(&s, &a, &err), &err);
  const int64_t *us = a.children[1]->buffers[1];
  CHV_CHECK_EQ_INT(us[0], -62135596800LL * 1000000);
  CHV_CHECK_EQ_INT(us[1], 253402300799LL * 1000000 + 999999);
  CHV_CHECK_EQ_INT(us[2], 1591012800LL * 1000000 + 123000);
  const int64_t *ns = a.children[2]->children[0]->buffers[1];
  CHV_CHECK_EQ_INT(ns[2], 2000000005LL);
  a.release(&a);
  s.release(&s);

  /* A NULL out-of-range value does not force microseconds. */
  CHV_REQUIRE_OK(chv_batch_open(t, 4, &b, &err), &err);
  struct chv_timestamp far = {-62135596800LL, 1, 0};
  int32_t id = 1;
  CHV_CHECK_OK(chv_vector_append_value(b->cols[0], &id, &err), &err);
  CHV_CHECK_OK(chv_vector_append_value(b->cols[1], &far, &err), &err);
  CHV_CHECK_OK(chv_vector_set_null(b->cols[1], 0, &err), &err);
  CHV_CHECK_OK(chv_vector_append_null(b->cols[2], &err), &err);
  b->nrows = 1;
  CHV_REQUIRE_OK(chv_batch_export_schema(b, &s, &err), &err);
  CHV_CHECK_STREQ(s.children[1]->format, "tsn:");
  CHV_REQUIRE_OK(chv_batch_export(&b, &a, &err), &err);
  CHV_CHECK_OK(chv_arrow_validate(&s, &a, &err), &err);
  a.release(&a);
  s.release(&s);
  chv_type_free(t);
}

static void test_export_map_null_key(void) {
  struct chv_type *t = columns("m map<int,string>");
  struct chv_batch *b;
  struct chv_error err;
  CHV_REQUIRE_OK(chv_batch_open(t, 4, &b, &err), &err);
  struct chv_vector *m = b->cols[0];
  CHV_CHECK_OK(chv_vector_append_null(m->children[0], &err), &err);
  CHV_CHECK_OK(chv_vector_append_bytes(m->children[1], "v", 1, &err), &err);
  CHV_CHECK_OK(chv_vector_append_nested(m, &err), &err);
  b->nrows = 1;
  struct ArrowArray a;
  CHV_CHECK_EQ_INT(chv_batch_export(&b, &a, &err), CHV_EINVAL);
  CHV_CHECK_CONTAINS(err.msg, "column m: a map key is NULL");
  CHV_CHECK(b != NULL);
  chv_batch_close(b);
  chv_type_free(t);
}

/* A consumer may move a child out and release it after the parent. */
static void test_export_move_child(void) {
  struct chv_type *t = columns(ALL_TYPES);
  struct chv_batch *b;
  struct chv_error err;
  CHV_REQUIRE_OK(make_batch(t, 9, &b, &err), &err);
  struct ArrowSchema s;
  struct ArrowArray a;
  CHV_REQUIRE_OK(chv_batch_export_schema(b, &s, &err), &err);
  CHV_REQUIRE_OK(chv_batch_export(&b, &a, &err), &err);
  struct ArrowArray moved = *a.children[15];
  a.children[15]->release = NULL;
  struct ArrowSchema moved_s = *s.children[15];
  s.children[15]->release = NULL;
  a.release(&a);
  s.release(&s);
  /* Still readable after the parent is gone. */
  CHV_CHECK_EQ_INT(moved.length, 9);
  CHV_CHECK_STREQ(moved_s.format, "+m");
  CHV_CHECK_OK(chv_arrow_validate(&moved_s, &moved, &err), &err);
  moved.release(&moved);
  moved_s.release(&moved_s);
  CHV_CHECK(moved.release == NULL);
  chv_type_free(t);
}

static void test_export_oom(void) {
  struct chv_type *t = columns(ALL_TYPES);
  struct chv_error err;
  int fails = 0;
  for (long n = 1; n < 5000; n++) {
    struct chv_batch *b;
    CHV_REQUIRE_OK(make_batch(t, 12, &b, &err), &err);
    struct ArrowArray a;
    chv_alloc_fail_after(n);
    int rc = chv_batch_export(&b, &a, &err);
    chv_alloc_fail_after(0);
    if (rc == CHV_OK) {
      CHV_CHECK(b == NULL);
      a.release(&a);
      break;
    }
    CHV_CHECK_EQ_INT(rc, CHV_ENOMEM);
    CHV_REQUIRE(b != NULL);
    CHV_CHECK_EQ_INT(b->nrows, 12);
    CHV_CHECK(b->cols[8]->bytes != NULL); /* not moved */
    chv_batch_close(b);
    fails++;
  }
  CHV_CHECK(fails > 20);
  chv_type_free(t);
}

static void test_vector_export(void) {
  struct chv_type *t;
  struct chv_error err;
  CHV_REQUIRE_OK(chv_type_parse("array<string>", &t, &err), &err);
  struct chv_vector *v;
  CHV_REQUIRE_OK(chv_vector_open(t, 0, &v, &err), &err);
  CHV_CHECK_OK(put_str(v->children[0], "a", &err), &err);
  CHV_CHECK_OK(chv_vector_append_nested(v, &err), &err);
  CHV_CHECK_OK(chv_vector_append_null(v, &err), &err);
  struct ArrowSchema s;
  struct ArrowArray a;
  CHV_REQUIRE_OK(chv_type_export_schema(t, "col", &s, &err), &err);
  CHV_REQUIRE_OK(chv_vector_export(&v, &a, &err), &err);
  CHV_CHECK(v == NULL);
  CHV_CHECK_OK(chv_arrow_validate(&s, &a, &err), &err);
  CHV_CHECK_EQ_INT(a.length, 2);
  CHV_CHECK_EQ_INT(a.null_count, 1);
  a.release(&a);
  s.release(&s);
  chv_type_free(t);

  /* A timestamp vector out of the nanosecond range. */
  CHV_REQUIRE_OK(chv_type_parse("timestamp", &t, &err), &err);
  CHV_REQUIRE_OK(chv_vector_open(t, 1, &v, &err), &err);
  struct chv_timestamp ts = {253402300799LL, 0, 0};
  CHV_CHECK_OK(chv_vector_append_value(v, &ts, &err), &err);
  CHV_REQUIRE_OK(chv_vector_export_schema(v, "ts", &s, &err), &err);
  CHV_CHECK_STREQ(s.format, "tsu:");
  CHV_REQUIRE_OK(chv_vector_export(&v, &a, &err), &err);
  CHV_CHECK_OK(chv_arrow_validate(&s, &a, &err), &err);
  CHV_CHECK_EQ_INT(((const int64_t *)a.buffers[1])[0],
                   253402300799LL * 1000000);
  a.release(&a);
  s.release(&s);
  chv_type_free(t);
}

/* ---- validator --------------------------------------------------------- */

static void test_validate_corrupt(void) {
  struct chv_type *t = columns(ALL_TYPES);
  struct chv_batch *b;
  struct chv_error err;
  CHV_REQUIRE_OK(make_batch(t, 20, &b, &err), &err);
  struct ArrowSchema s;
  struct ArrowArray a;
  CHV_REQUIRE_OK(chv_batch_export_schema(b, &s, &err), &err);
  CHV_REQUIRE_OK(chv_batch_export(&b, &a, &err), &err);
  CHV_REQUIRE_OK(chv_arrow_validate(&s, &a, &err), &err);

  /* Non-monotone string offsets. */
  int32_t *off = (int32_t *)a.children[8]->buffers[1];
  int32_t save = off[5];
  off[5] = off[4] - 1;
  CHV_CHECK_EQ_INT(chv_arrow_validate(&s, &a, &err), CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "s: offsets not monotone at 5");
  off[5] = save;
  /* Negative first offset. */
  save = off[0];
  off[0] = -1;
  CHV_CHECK_EQ_INT(chv_arrow_validate(&s, &a, &err), CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "s: first offset -1 is negative");
  off[0] = save;

  /* Offsets of a nested list beyond its child. */
  struct ArrowArray *y = a.children[16]->children[1];
  int32_t *yo = (int32_t *)y->buffers[1];
  save = yo[20];
  yo[20] = (int32_t)y->children[0]->length + 1;
  CHV_CHECK_EQ_INT(chv_arrow_validate(&s, &a, &err), CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "st.y: last offset");
  yo[20] = save;

  /* Wrong null_count, with and without a bitmap. */
  a.children[3]->null_count++;
  CHV_CHECK_EQ_INT(chv_arrow_validate(&s, &a, &err), CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "i: null_count 6 but the validity bitmap has 5");
  a.children[3]->null_count = -1; /* unknown is allowed */
  CHV_CHECK_OK(chv_arrow_validate(&s, &a, &err), &err);
  a.children[3]->null_count = 5;
  struct ArrowArray *mv = a.children[15]->children[0]->children[1];
  const void *vb = mv->buffers[0];
  mv->buffers[0] = NULL;
  CHV_CHECK_EQ_INT(chv_arrow_validate(&s, &a, &err), CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "m.entries.value: null_count");
  mv->buffers[0] = vb;
  a.children[3]->null_count = 21;
  CHV_CHECK_EQ_INT(chv_arrow_validate(&s, &a, &err), CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "outside -1..length");
  a.children[3]->null_count = 5;

  /* Wrong n_buffers / n_children. */
  a.children[8]->n_buffers = 2;
  CHV_CHECK_EQ_INT(chv_arrow_validate(&s, &a, &err), CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "s: format 'u' needs 3 buffers, array has 2");
  a.children[8]->n_buffers = 3;
  a.children[14]->n_children = 0;
  CHV_CHECK_EQ_INT(chv_arrow_validate(&s, &a, &err), CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "arr: schema has 1 children, array has 0");
  a.children[14]->n_children = 1;

  /* A NULL map key. */
  struct ArrowArray *keys = a.children[15]->children[0]->children[0];
  keys->null_count = 1;
  CHV_CHECK_EQ_INT(chv_arrow_validate(&s, &a, &err), CHV_ECORRUPT);
  keys->null_count = 0;

  /* Struct child too short; negative length. */
  struct ArrowArray *x = a.children[16]->children[0];
  int64_t xnulls = x->null_count;
  x->length = 19;
  x->null_count = -1;
  CHV_CHECK_EQ_INT(chv_arrow_validate(&s, &a, &err), CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "st: child 0 has 19 rows, 20 needed");
  x->length = 20;
  x->null_count = xnulls;
  a.children[2]->length = -1;
  CHV_CHECK_EQ_INT(chv_arrow_validate(&s, &a, &err), CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "si: negative length");
  a.children[2]->length = 20;

  /* Schema problems: bad format, missing release, dictionary. */
  const char *fmt = s.children[4]->format;
  s.children[4]->format = "q";
  CHV_CHECK_EQ_INT(chv_arrow_validate(&s, &a, &err), CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "bi: unsupported or malformed format 'q'");
  s.children[4]->format = "d:5";
  CHV_CHECK_EQ_INT(chv_arrow_validate(&s, &a, &err), CHV_ECORRUPT);
  s.children[4]->format = fmt;
  void (*rel)(struct ArrowArray *) = a.children[6]->release;
  a.children[6]->release = NULL;
  CHV_CHECK_EQ_INT(chv_arrow_validate(&s, &a, &err), CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "d: array is released");
  a.children[6]->release = rel;
  struct ArrowArray dummy;
  a.children[1]->dictionary = &dummy;
  CHV_CHECK_EQ_INT(chv_arrow_validate(&s, &a, &err), CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "ti: dictionary");
  a.children[1]->dictionary = NULL;

  /* Malformed metadata. */
  const char *md = s.children[9]->metadata;
  char bad_md[8] = {(char)0xff, (char)0xff, (char)0xff, (char)0xff};
  s.children[9]->metadata = bad_md;
  CHV_CHECK_EQ_INT(chv_arrow_validate(&s, &a, &err), CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "vc: metadata has -1 entries");
  s.children[9]->metadata = md;

  /* A format that disagrees with the layout. */
  s.children[3]->format = "u";
  CHV_CHECK_EQ_INT(chv_arrow_validate(&s, &a, &err), CHV_ECORRUPT);
  s.children[3]->format = "i";
  /* A slice of a column validates on its own... */
  a.children[8]->offset = 2;
  a.children[8]->length = 18;
  a.children[8]->null_count = -1;
  CHV_CHECK_OK(chv_arrow_validate(s.children[8], a.children[8], &err), &err);
  /* ...but is too short for its struct parent. */
  CHV_CHECK_EQ_INT(chv_arrow_validate(&s, &a, &err), CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "(root): child 8 has 18 rows, 20 needed");
  a.children[8]->offset = 0;
  a.children[8]->length = 20;
  a.children[8]->null_count = 5;

  CHV_CHECK_OK(chv_arrow_validate(&s, &a, &err), &err);
  a.release(&a);
  s.release(&s);
  chv_type_free(t);
}

/* ---- streams ----------------------------------------------------------- */

struct test_source {
  const struct chv_type *schema;
  int produced;
  int limit;    /* batches before the end */
  int fail_at;  /* 1-based call that fails with CHV_EIO, 0 = never */
  int far_at;   /* batch whose timestamps need microseconds, 0 = none */
  int closed;
};

static int source_next(void *ctx, struct chv_batch **out,
                       struct chv_error *err) {
  struct test_source *src = ctx;
  if (src->fail_at && src->produced + 1 == src->fail_at)
    return chv_error_set(err, CHV_EIO, "disk on fire at batch %d",
                         src->produced + 1);
  if (src->produced == src->limit) {
    *out = NULL;
    return CHV_OK;
  }
  src->produced++;
  TRY(make_batch(src->schema, 5 + src->produced, out, err));
  if (src->far_at == src->produced) {
    struct chv_timestamp *ts = (*out)->cols[13]->data;
    ts[0].seconds = -62135596800LL;
  }
  return CHV_OK;
}

static void source_close(void *ctx) { ((struct test_source *)ctx)->closed++; }

/* A source that fails without saying why. */
static int silent_next(void *ctx, struct chv_batch **out,
                       struct chv_error *err) {
  (void)ctx;
  (void)out;
  (void)err;
  return CHV_ECORRUPT;
}

static void test_stream(void) {
  struct chv_type *t = columns(ALL_TYPES);
  struct test_source src = {t, 0, 3, 0, 0, 0};
  struct chv_batch_source bs = {t, source_next, source_close, &src};
  struct ArrowArrayStream st;
  struct chv_error err;
  CHV_REQUIRE_OK(chv_batch_stream_export(bs, &st, &err), &err);
  struct ArrowSchema s;
  CHV_REQUIRE(st.get_schema(&st, &s) == 0);
  CHV_CHECK_EQ_INT(s.n_children, 17);
  CHV_CHECK_STREQ(s.children[13]->format, "tsn:");
  int got = 0;
  for (;;) {
    struct ArrowArray a;
    int rc = st.get_next(&st, &a);
    CHV_REQUIRE(rc == 0);
    if (a.release == NULL) break;
    got++;
    CHV_CHECK_EQ_INT(a.length, 5 + got);
    CHV_CHECK_OK(chv_arrow_validate(&s, &a, &err), &err);
    a.release(&a);
  }
  CHV_CHECK_EQ_INT(got, 3);
  struct ArrowArray a;
  CHV_CHECK(st.get_next(&st, &a) == 0 && a.release == NULL); /* stays ended */
  CHV_CHECK(st.get_last_error(&st) == NULL);
  s.release(&s);
  CHV_CHECK_EQ_INT(src.closed, 0);
  st.release(&st);
  CHV_CHECK(st.release == NULL);
  CHV_CHECK_EQ_INT(src.closed, 1);
  chv_type_free(t);
}

static void test_stream_errors(void) {
  struct chv_type *t = columns(ALL_TYPES);
  struct chv_error err;
  struct ArrowArrayStream st;
  struct ArrowArray a;
  struct ArrowSchema s;

  /* The source fails on its second batch. */
  struct test_source src = {t, 0, 3, 2, 0, 0};
  struct chv_batch_source bs = {t, source_next, source_close, &src};
  CHV_REQUIRE_OK(chv_batch_stream_export(bs, &st, &err), &err);
  CHV_REQUIRE(st.get_next(&st, &a) == 0);
  CHV_REQUIRE(a.release != NULL);
  a.release(&a);
  CHV_CHECK_EQ_INT(st.get_next(&st, &a), EIO);
  CHV_CHECK_CONTAINS(st.get_last_error(&st), "disk on fire at batch 2");
  st.release(&st);
  CHV_CHECK_EQ_INT(src.closed, 1);

  /* The first batch fixes nanoseconds; the second needs microseconds. */
  struct test_source src2 = {t, 0, 3, 0, 2, 0};
  bs.ctx = &src2;
  CHV_REQUIRE_OK(chv_batch_stream_export(bs, &st, &err), &err);
  CHV_REQUIRE(st.get_schema(&st, &s) == 0);
  CHV_CHECK_STREQ(s.children[13]->format, "tsn:");
  s.release(&s);
  CHV_REQUIRE(st.get_next(&st, &a) == 0);
  a.release(&a);
  CHV_CHECK_EQ_INT(st.get_next(&st, &a), EINVAL);
  CHV_CHECK_CONTAINS(st.get_last_error(&st),
                     "column ts: timestamp 0001-01-01 00:00:00.000000001 is "
                     "outside the range of Arrow nanoseconds");
  st.release(&st);

  /* A first batch that needs microseconds makes the schema "tsu:". */
  struct test_source src3 = {t, 0, 1, 0, 1, 0};
  bs.ctx = &src3;
  CHV_REQUIRE_OK(chv_batch_stream_export(bs, &st, &err), &err);
  CHV_REQUIRE(st.get_schema(&st, &s) == 0);
  CHV_CHECK_STREQ(s.children[13]->format, "tsu:");
  CHV_CHECK(st.get_next(&st, &a) == EINVAL); /* .000000001 drops digits */
  s.release(&s);
  st.release(&st);

  /* An empty source. */
  struct test_source src4 = {t, 0, 0, 0, 0, 0};
  bs.ctx = &src4;
  CHV_REQUIRE_OK(chv_batch_stream_export(bs, &st, &err), &err);
  CHV_REQUIRE(st.get_schema(&st, &s) == 0);
  CHV_CHECK(st.get_next(&st, &a) == 0 && a.release == NULL);
  s.release(&s);
  st.release(&st);
  CHV_CHECK_EQ_INT(src4.closed, 1);

  /* A source failing without a message still gets a text. */
  struct test_source src7 = {t, 0, 0, 0, 0, 0};
  struct chv_batch_source silent = {t, silent_next, source_close, &src7};
  CHV_REQUIRE_OK(chv_batch_stream_export(silent, &st, &err), &err);
  CHV_CHECK_EQ_INT(st.get_schema(&st, &s), EIO);
  CHV_CHECK_CONTAINS(st.get_last_error(&st),
                     "batch source failed: malformed data");
  CHV_CHECK_EQ_INT(st.get_next(&st, &a), EIO);
  st.release(&st);
  CHV_CHECK_EQ_INT(src7.closed, 1);

  /* A bad source is closed and refused. */
  struct test_source src5 = {t, 0, 0, 0, 0, 0};
  struct chv_batch_source bad = {NULL, source_next, source_close, &src5};
  CHV_CHECK_EQ_INT(chv_batch_stream_export(bad, &st, &err), CHV_EINVAL);
  CHV_CHECK_EQ_INT(src5.closed, 1);

  /* Out of memory inside get_next is ENOMEM, and nothing leaks. */
  int fails = 0;
  for (long n = 1; n < 5000; n++) {
    struct test_source src6 = {t, 0, 1, 0, 0, 0};
    bs.ctx = &src6;
    CHV_REQUIRE_OK(chv_batch_stream_export(bs, &st, &err), &err);
    chv_alloc_fail_after(n);
    int rc = st.get_next(&st, &a);
    chv_alloc_fail_after(0);
    if (rc == 0) {
      a.release(&a);
      st.release(&st);
      break;
    }
    CHV_CHECK_EQ_INT(rc, ENOMEM);
    CHV_CHECK(st.get_last_error(&st) != NULL);
    st.release(&st);
    fails++;
  }
  CHV_CHECK(fails > 30);
  chv_type_free(t);
}

CHV_TEST_MAIN("types_arrow", test_export_schema, test_export_all_types,
              test_export_empty, test_export_timestamp_units,
              test_export_map_null_key, test_export_move_child,
              test_export_oom, test_vector_export, test_validate_corrupt,
              test_stream, test_stream_errors)
